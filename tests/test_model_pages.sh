#!/bin/sh
# tools/model-pages, the generator of the docs page of each shipped model
# (make docs): a model eom builds gets its equations as one display formula
# for MathJax (and its mass-matrix form as another), one it does not build yet a page saying so with eom's reason,
# both listed on the index page; a model eom fails on otherwise is an error.
. tests/tap.sh
echo "1..4"
if ! command -v python3 >/dev/null 2>&1; then
    for i in 1 2 3 4; do skip "python3 not installed"; done
    exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-modelpages.XXXXXX")
trap 'rm -rf "$T"' EXIT
# a command whose eom refuses every model as eom refuses one it does not build yet
printf '#!/bin/sh\necho "error: the equations of motion as a graph are not built for this kind of model ($4)" >&2\nexit 2\n' > "$T/refuses"
chmod +x "$T/refuses"
tools/model-pages --chartless "$C" --out "$T/out" models/cart-pendulum.model 2> "$T/err"; st=$?
tools/model-pages --chartless "$T/refuses" --out "$T/out" models/free-body.model 2>> "$T/err" || st=1
p="$T/out/model_cart_pendulum.md"
[ $st = 0 ] && [ ! -s "$T/err" ] && head -1 "$p" | grep -q '{#model_cart_pendulum}$' &&
    [ "$(grep -c '^\\f\[$' "$p")" = 2 ] && grep -q '^\\begin{aligned}$' "$p" && grep -q '^\\ddot{\\theta} &= ' "$p" &&
    [ "$(grep -c '^\\f\]$' "$p")" = 2 ] && ! grep -q '^%' "$p" && grep -q '^- parameters (defaults): M = 2' "$p" &&
    grep -q 'mass-matrix form' "$p" && grep -q '^\\left(M + m\\right) \\, \\ddot{x} ' "$p"
t $? "cart-pendulum: its page, the solved equations and the mass-matrix form each one aligned display formula, no TeX comment left, the defaults listed"
grep -q "cannot build the equations of this model yet: the equations of motion as a graph are not built for this kind of model\." "$T/out/model_free_body.md" &&
    ! grep -q '\\f\[' "$T/out/model_free_body.md"
t $? "a model eom refuses (free-body through a command refusing it): a page that says eom cannot build its equations yet, and why"
grep -q '^- \\subpage model_free_body$' "$T/out/model_equations.md"
t $? "listed on model_equations.md"
printf 'manifold x : R1\nlagrangian 1/2*x'"'"'^2 - nosuch*x\n' > "$T/bad.model"
tools/model-pages --chartless "$C" --out "$T/out2" "$T/bad.model" models/cart-pendulum.model 2> "$T/err"; st=$?
[ $st = 1 ] && grep -q "bad.model: eom failed (exit 2)" "$T/err" && [ ! -e "$T/out2/model_bad.md" ] && [ -s "$T/out2/model_cart_pendulum.md" ]
t $? "a model eom fails on for another reason: exit $st, named on stderr, no page for it"

#!/bin/sh
# The oracle's verdict `undefined`: a model row that cannot draw a random
# state inside the domain of its formula, or where L is degenerate wherever
# it tries, has no answer; it is neither a pass nor a mismatch. The row says
# why (the subexpression that left its domain, or the degenerate Lagrangian),
# `chartless oracle` exits 2, and its JSON (docs/oracle.schema.json) says
# "undefined". A model whose domain the draws reach passes.
. tests/tap.sh
T="${TMPDIR:-/tmp}/cl-undefined-$$"
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT

cat > "$T/domain.model" <<'MODEL'
# a particle on a line whose potential is defined for x >= 5 only (the draws are normal: never there)
manifold   x : R1
parameters m = 1
lagrangian 1/2*m*x'^2 - sqrt(x - 5)
MODEL
cat > "$T/degenerate.model" <<'MODEL'
# no velocity in L: its velocity Hessian is zero everywhere
manifold   x : R1
parameters k = 1
lagrangian -1/2*k*x^2
MODEL
cat > "$T/edge.model" <<'MODEL'
# defined for x > 1/2 only: about one normal draw in three lands inside
manifold   x : R1
parameters m = 1
lagrangian 1/2*m*x'^2 - sqrt(x - 0.5)
MODEL
for k in domain degenerate; do
    "$C" oracle --model "$T/$k.model" --check "model.$k.forms" --bits 53,113 > "$T/out" 2> "$T/err"
    st=$?
    [ $st = 2 ] && grep -q "^model.$k.forms .* undefined$" "$T/out" && grep -q "0 passed, 0 failed, 1 undefined" "$T/out"
    t $? "$k: the forms row is undefined, exit 2 (exit $st)"
    "$C" oracle --model "$T/$k.model" --check "model.$k.forms" --bits 53,113 --format json > "$T/j" 2> /dev/null
    st=$?
    [ $st = 2 ] && tools/validate-json docs/oracle.schema.json < "$T/j" &&
        python3 -c "import json, sys; d = json.load(open(sys.argv[1])); c = d['checks'][0]; sys.exit(0 if c['verdict'] == 'undefined' and d['undefined'] == 1 and d['failed'] == 0 and 'no random state inside the domain' in c['rungs'][0]['note'] else 1)" "$T/j"
    t $? "$k: --format json says undefined, with the reason in the note, as docs/oracle.schema.json says (exit $st)"
done
grep -q "'sqrt(x - 5)' leaves its domain" "$T/out" 2>/dev/null ||
    "$C" oracle --model "$T/domain.model" --check model.domain.forms --bits 53,113 2> /dev/null | grep -q "sqrt(x - 5)"
t $? "domain: the note names the subexpression sqrt(x - 5)"
"$C" oracle --model "$T/degenerate.model" --check model.degenerate.forms --bits 53,113 2> /dev/null | grep -q "degenerate"
t $? "degenerate: the note says the Lagrangian is degenerate"
"$C" oracle --model "$T/domain.model" --bits 53,113 --format tap > "$T/out" 2> /dev/null
st=$?
[ $st = 2 ] && ! grep -q "(mismatch)" "$T/out" && grep -q "^not ok .*(undefined)" "$T/out"
t $? "domain: every row undefined, none a mismatch, TAP says not ok (undefined) (exit $st)"

"$C" oracle --model "$T/edge.model" --check model.edge.legendre --bits 53,113 > "$T/out" 2> /dev/null
st=$?
[ $st = 0 ] && grep -q "^model.edge.legendre .* pass$" "$T/out"
t $? "edge (sqrt(x - 0.5)): the states are drawn again until inside the domain, the Legendre row at them passes (exit $st)"
"$C" oracle --model "$T/edge.model" --bits 53,113 > "$T/out" 2> /dev/null
! grep -q "undefined\|mismatch" "$T/out"
t $? "edge: no row of it is undefined or a mismatch"
# Two models of S2 factors whose random states used to leave the domain: the spherical pendulum in a
# potential sqrt(q.z + a), undefined below q.z = -a (a quarter of the unit sphere at a = 1/2), and the
# relativistic spherical pendulum, whose velocity Hessian is singular at |q'| = c (the unit speeds drawn
# were exactly c). Each declares its conserved Lz (the canonical momentum: m gamma q x q' for the
# relativistic one); the wrong versions declare Lz without gamma, or the x component, which is not conserved.
cat > "$T/sqrtpot.model" <<'MODEL'
manifold   q : S2
parameters a = 0.5
lagrangian 1/2*dot(q', q') - sqrt(q.z + a)
invariant  Lz = cross(q, q').z
MODEL
cat > "$T/relsph.model" <<'MODEL'
manifold   q : S2
parameters m = 1, c = 1, g = 1
lagrangian -m*c^2*sqrt(1 - dot(q', q')/c^2) - m*g*q.z
invariant  Lz = m*cross(q, q').z/sqrt(1 - dot(q', q')/c^2)
MODEL
sed 's/cross(q, q.).z$/cross(q, q'"'"').x/' "$T/sqrtpot.model" > "$T/sqrtpot-wrong.model"
sed 's|/sqrt(1 - dot(q., q.)/c^2)$||' "$T/relsph.model" > "$T/relsph-wrong.model"
for k in sqrtpot relsph; do
    for q in --quick ""; do
        "$C" oracle --model "$T/$k.model" $q > "$T/out" 2> /dev/null
        st=$?
        [ $st = 0 ] && ! grep -q "mismatch\|undefined" "$T/out" && [ "$(grep -c "^model\.$k\..* \(rounding\|pass\)$" "$T/out")" -ge 5 ]
        t $? "$k ${q:-full ladder}: every row inside the domain, none a mismatch (exit $st)"
    done
    "$C" oracle --model "$T/$k-wrong.model" --check "model.$k-wrong.conserve" > "$T/out" 2> /dev/null
    st=$?
    [ $st = 1 ] && grep -q "^model\.$k-wrong\.conserve .* mismatch$" "$T/out"
    t $? "$k with a wrong declared Lz: its conserve row is a mismatch (exit $st)"
done
"$C" oracle --model "$T/sqrtpot.model" --check model.sqrtpot.forms -v 2> /dev/null | grep -q "outside the domain drawn again"
t $? "sqrtpot: the note counts the states drawn again"
"$C" oracle --model "$T/relsph.model" --check model.relsph.forms -v 2> /dev/null | grep -q "velocities halved"
t $? "relsph: the note counts the velocities halved into the domain"
# An equilibrium outside the domain at some parameters: the hanging state of a pendulum in the potential
# sqrt(q.z + a) is no state of the model for a < 1. A sweep's cell there is none (not unstable); stability and
# equilibria say which subexpression leaves its domain, exit 2, nothing on stdout.
cat > "$T/sqeq.model" <<'MODEL'
manifold    q : S2
parameters  a = 2
lagrangian  1/2*dot(q', q') - sqrt(q.z + a)
equilibrium hanging = q: [0, 0, -1]
MODEL
"$C" sweep --model "$T/sqeq.model" --x a=0.5:2:4 --certify > "$T/out" 2> /dev/null
st=$?
[ $st = 0 ] && grep -q "^0,0.5,none,,,none$" "$T/out" && grep -q "^3,2,stable,.*,proven stable$" "$T/out"
t $? "sweep over a: the cell a = 0.5 outside the domain is none (floating and certified), a = 2 stable and proven (exit $st)"
for cmd in stability equilibria; do
    o=$("$C" $cmd --model "$T/sqeq.model" --a 0.5 --certify 2> "$T/err"); st=$?
    [ $st = 2 ] && [ -z "$o" ] && grep -q "^error: equilibrium 0, hanging, at these parameters: .*'sqrt(q.z + a)' leaves its domain" "$T/err"
    t $? "$cmd at a = 0.5: the subexpression leaving its domain named, exit 2, nothing on stdout (exit $st)"
done
# The grader at random parameters: a = 1.05 perturbed (seed 2) to a = 0.63, where the equilibrium q = -e3 is
# outside the domain of sqrt(q.z + a). It is no state to grade at there; the right field passes (it failed before).
printf 'form qdot\nlet F = [0, 0, -g/(2*sqrt(q.z + a))]\nq'"''"' = F - dot(q, F)*q - dot(q'"'"', q'"'"')*q\n' > "$T/sqg.field"
sed 's/a = 2$/a = 1.05, g = 1/; s/- sqrt(q.z + a)/- g*sqrt(q.z + a)/' "$T/sqeq.model" > "$T/sqg.model"
"$C" grade --model "$T/sqg.model" --field "$T/sqg.field" --seed 2 > "$T/out" 2>&1
st=$?
[ $st = 0 ] && grep -q "^at random parameters (seed 2): --a 0\.6" "$T/out" && [ "$(grep -c '^PASS: 0 of 6 components wrong' "$T/out")" = 2 ] &&
    grep -q "model $T/sqg.model, form qdot, 21 states" "$T/out" && grep -q "model $T/sqg.model, form qdot, 20 states" "$T/out"
t $? "grade: at random parameters where the equilibrium leaves the domain it is not graded, the right field passes (exit $st)"
"$C" grade --model "$T/sqg.model" --field "$T/sqg.field" --a 0.5 > "$T/out" 2> "$T/err"
st=$?
[ $st = 0 ] && [ "$(grep -c "form qdot, 20 states" "$T/out")" = 2 ] && [ "$(grep -c '^PASS: 0 of 6 components wrong' "$T/out")" = 2 ]
t $? "grade at a = 0.5, where the equilibrium is outside the domain: graded at the 20 random states inside it, passes (exit $st)"
# Random parameters whose domain the random states cannot reach: sqrt(x - 1 - 1000 k^2) with k = 0 perturbed
# to |k| >= 1/8 asks for x > 16.6, which normal draws never give; those parameters are drawn again, and the
# draws that keep the zeros (k = 0) are graded.
printf 'manifold   x : R1\nparameters m = 1, k = 0\nlagrangian 1/2*m*x'"'"'^2 - sqrt(x - 1 - 1000*k^2)\n' > "$T/far.model"
printf 'form qdot\nx'"''"' = -1/(2*m*sqrt(x - 1 - 1000*k^2))\n' > "$T/far.field"
"$C" grade --model "$T/far.model" --field "$T/far.field" > "$T/out" 2> "$T/err"
st=$?
[ $st = 0 ] && [ ! -s "$T/err" ] && grep -q "^at random parameters (seed 1): --m [0-9.]* --k 0$" "$T/out" &&
    [ "$(grep -c '^PASS: 0 of 2 components wrong' "$T/out")" = 2 ]
t $? "grade: random parameters outside the states' reach drawn again, the draw keeping k = 0 graded, passes (exit $st)"
echo "1..$n"

#!/bin/sh
# simulate --integrator taylor and --event on the planar pendulum (the named
# system circle, whose field sim_graph_circle.c gives as a graph), g = 9.8,
# from theta = 1 at rest: the end state at t = 10 against the closed form
# (sin(theta/2) = k sn(w t + K(k), k), k = sin(1/2), w = sqrt(9.8); bc -l at
# 130 digits, K by the AGM, sn and cn by the descending Landen
# transformation, as in test_simulate_tol.sh), the zeros of theta at
# T/4 + j T/2 (T = 4K(k)/w) with taylor and with gbs, and the refusals.
# Every shipped model integrated by taylor (its field the graph of
# cl_model_eom_new()) agrees with gbs over t = 0.5.
. tests/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-simtaylor.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "1..$((13 + 25 + 1))"
cp tests/pendulum_exact.bc "$T/exact.bc"
# bc reads 1.5e-77 as 1.5*10^(-77)
bcx() { { cat "$T/exact.bc"; echo "$1" | sed 's/\([0-9]\)e\([-+]*[0-9][0-9]*\)/\1*10^(\2)/g; s/(+/(/g'; } | BC_LINE_LENGTH=0 bc -l; }
sci() { bcx "$1" | awk '{ printf "%.2e", $1 }'; }
sim() { echo "1 0" | "$C" simulate --system circle --form angle --g 9.8 --bits 256 "$@"; }

# The end state at t = 10: max |x - x*| / (1 + |x*|) against the closed form.
sim --integrator taylor --t 10 --tol 1e-75 > "$T/o" 2> "$T/e"; st=$?
last=$(tail -1 "$T/o"); x=$(echo "$last" | cut -d, -f2); v=$(echo "$last" | cut -d, -f3)
err="ex = abs($x - xx) / (1 + abs(xx)); ev = abs($v - vv) / (1 + abs(vv)); if (ev > ex) ex = ev; ex"
[ $st = 0 ] && [ "$(echo "$last" | cut -d, -f1)" = 10 ] && [ "$(bcx "$err < 10^-75")" = 1 ]
t $? "taylor --bits 256 --tol 1e-75 to t = 10: $(sci "$err") from the exact pendulum (bound: the tolerance)"
[ ! -s "$T/e" ]
t $? "and taylor makes no end-of-run estimate unless asked (its order and step follow from --tol)"
sim --integrator taylor --t 10 --tol 1e-75 --estimate rerun > /dev/null 2> "$T/e"
grep -q '^note: error at t = 10 estimated .* within the tolerance 1e-75$' "$T/e"
t $? "--estimate rerun: the estimate says it is within: $(cut -c1-80 "$T/e")"

# The first zero of theta: T/4 = K(k)/w to 70 digits, with taylor and gbs.
zero() { bcx "e = abs($1 - kk / w) / (kk / w); e < 10^-70"; }
sim --integrator taylor --t 10 --event theta > "$T/o" 2> "$T/e"; st=$?
te=$(sed -n 2p "$T/o" | cut -d, -f1); th=$(sed -n 2p "$T/o" | cut -d, -f2)
[ $st = 0 ] && [ "$(wc -l < "$T/o")" = 2 ] && [ "$(zero "$te")" = 1 ] && [ "$(bcx "abs($th) < 10^-70")" = 1 ]
t $? "taylor --event theta: one row, at t = $(echo "$te" | cut -c1-40)... = K(k)/w to 70 digits, theta = $(sci "$th")"
sim --integrator gbs --t 10 --event theta > "$T/o" 2> "$T/e"; st=$?
te2=$(sed -n 2p "$T/o" | cut -d, -f1)
[ $st = 0 ] && [ "$(wc -l < "$T/o")" = 2 ] && [ "$(zero "$te2")" = 1 ]
t $? "gbs --event theta (the partial step re-integrated): the same zero to 70 digits"

# Every zero to t = 10, rising ones only: 3T/4 + j T, j = 0..3 (theta rises through 0 after T/2; T = 2.14).
sim --integrator taylor --t 10 --event theta --events every --event-direction rising > "$T/o" 2> "$T/e"; st=$?
good=$([ $st = 0 ] && [ "$(wc -l < "$T/o")" = 5 ] && echo 0 || echo 1)
j=0
for te in $(sed 1d "$T/o" | cut -d, -f1); do
    [ "$(bcx "e = abs($te - (3 + 4 * $j) * kk / w) / ((3 + 4 * $j) * kk / w); e < 10^-68")" = 1 ] || good=1
    j=$((j + 1))
done
t $good "--events every --event-direction rising: the 4 rising zeros 3T/4 + jT to t = 10, each to 68 digits"
# An event of the velocity and the time: thetadot = 0 where theta = -1 (T/2), t - 1 = 0 at t = 1.
sim --integrator taylor --event "thetadot" --event-direction rising > "$T/o" 2> "$T/e"
te=$(sed -n 2p "$T/o" | cut -d, -f1); th=$(sed -n 2p "$T/o" | cut -d, -f2)
[ "$(bcx "abs($te - 2 * kk / w) < 10^-70 && abs($th + 1) < 10^-70")" = 1 ]
t $? "--event thetadot --event-direction rising: T/2, theta = -1, to 70 digits"

# The same pendulum written as a model (its field the graph of cl_model_eom_new).
printf "manifold x : R1\nlagrangian 1/2*x'^2 + 9.8*cos(x)\n" > "$T/pend.model"
echo "1 0" | "$C" simulate --model "$T/pend.model" --bits 256 --integrator taylor --t 10 --tol 1e-75 --estimate none > "$T/o" 2> "$T/e"; st=$?
last=$(tail -1 "$T/o"); x=$(echo "$last" | cut -d, -f2); v=$(echo "$last" | cut -d, -f3)
err="ex = abs($x - xx) / (1 + abs(xx)); ev = abs($v - vv) / (1 + abs(vv)); if (ev > ex) ex = ev; ex"
[ $st = 0 ] && [ "$(bcx "$err < 10^-75")" = 1 ]
t $? "--model pend.model --integrator taylor --tol 1e-75 to t = 10: $(sci "$err") from the exact pendulum"
echo "1 0" | "$C" simulate --model "$T/pend.model" --bits 256 --integrator taylor --event "x'" --event-direction rising > "$T/o" 2> "$T/e"
te=$(sed -n 2p "$T/o" | cut -d, -f1)
[ "$(bcx "abs($te - 2 * kk / w) < 10^-70")" = 1 ]
t $? "--model: --event \"x'\" --event-direction rising (a velocity by its primed name) at T/2 to 70 digits"

# Every shipped model: taylor and gbs from the same state to t = 0.5 at 128 bits, --tol 1e-30,
# end rows (state and invariants) within 1e-28 max |a - b| / (1 + |b|) of each other.
R="0.36 0.48 -0.8  -0.8 0.6 0  0.48 0.64 0.6" I="1 0 0  0 1 0  0 0 1"
while IFS='|' read -r name state; do
    for integ in taylor gbs; do
        echo "$state" | "$C" simulate --model "models/$name.model" --bits 128 --integrator $integ --t 0.5 --tol 1e-30 \
            --estimate none > "$T/$integ.csv" 2> "$T/e" || echo "$integ failed" >> "$T/e"
    done
    gap=$(python3 - "$T/taylor.csv" "$T/gbs.csv" <<'PY'
import math, sys
from fractions import Fraction as F
rows = [open(f).read().split('\n') for f in sys.argv[1:]]
last = [[F(x) for x in [l for l in r if l.strip()][-1].split(',')] for r in rows]
ok = len(last[0]) == len(last[1]) and last[0][0] == last[1][0] == F(1, 2)
gap = max(abs(a - b) / (1 + abs(b)) for a, b in zip(*last)) if ok else 1
print("-inf" if gap == 0 else "%.1f" % math.log10(gap))
PY
)
    # (the progress lines of a run past 2 s on a loaded machine are no failure)
    python3 -c "import sys; sys.exit(0 if float('$gap') < -28 else 1)" && ! grep -qv '^simulate: ' "$T/e"
    t $? "$name: taylor and gbs to t = 0.5 at 128 bits agree to 10^$gap (bound 1e-28)"
done <<EOF_STATES
body-on-pendulum|0.6 0 0.8  $R  0.4 0.3 -0.3  0.3 -0.5 1.1
cart-pendulum|0.3 0.7 -0.4 1.3
cart-spherical|0.3  0.6 0 0.8  -0.4  0.4 0.3 -0.3
chain2|0.6 0 0.8  0 0.6 -0.8  0.4 0.3 -0.3  0.25 0.4 0.3
chain3|0.6 0 0.8  0 0.6 -0.8  0.8 -0.6 0  0.4 0.3 -0.3  0.25 0.4 0.3  0.3 0.4 0.7
damped|0.6 0 0.8  0.4 0.3 -0.3
free-body|$R  0.1 0.2 0.3  0.3 -0.5 1.1  0.2 -0.4 0.7
heavy-top-hamiltonian|$R  0.3 -0.5 1.1
heavy-top|$R  0.3 -0.5 1.1
henon-heiles-lagrangian|0.3 -0.2  0.1 0.4
henon-heiles|0.3 -0.2  0.1 0.4
hoop-bead|0.3 0 -0.4  0.4 1.8 0.3
pivot|0.6 0 0.8  0.4 0.3 -0.3
quadrotor-load|$R  0.1 0.2 0.3  0.6 0 -0.8  0.3 -0.5 1.1  0.2 -0.4 0.7  0.4 0.3 0.3
relativistic|0.8 0.6
rigid-body|$R  0.3 -0.5 1.1
rod-pendulum|0.48 0 -0.64  0.64 0.3 0.48
rolling-disk|0.1 0.2 0 0.4  0.3 0 0.7 0.5
sleigh|0.3 -0.2 0  0.7 0 0.4
skate|1 0 0  0 0.8 -0.6  0 0.6 0.8  0.1 0.2 0  0.3 0.3 0.4  1 0 0
spherical|0.6 0 0.8  0.4 0.3 -0.3
spring-hamiltonian|0.6 0 0.8  0 0.6 -0.8  0.4 0.3 -0.3  0.25 0.4 0.3
spring|0.6 0 0.8  0 0.6 -0.8  0.4 0.3 -0.3  0.25 0.4 0.3
two-bodies|$R  $I  0.3 -0.5 1.1  -0.2 0.4 0.25
veselova|$R  0.64 -0.48 0
EOF_STATES
[ "$(ls models/*.model | wc -l)" = 25 ]
t $? "the 25 states above cover every shipped model ($(ls models/*.model | wc -l) shipped)"

# SKATE Fig. 4: the fall time (Gamma3 = 0) found by --event on the skate's z form
# (gbs, the partial step re-integrated) is reproduce skate-fig4's, at 256 bits.
mkdir -p "$T/fig"
"$C" reproduce skate-fig4 --bits 256 --out "$T/fig" > "$T/fig.txt" 2>&1
tf=$(sed -n 's/^fall time (Gamma3 = 0, event on (38)): *//p' "$T/fig.txt")
bcs() { echo "scale = 100; $1" | BC_LINE_LENGTH=0 bc -l; }
echo "0.1 $(bcs "0.1 * s(0.1) / c(0.1)") 0.1 1 0 0 0 $(bcs "s(0.1)") $(bcs "c(0.1)")" |
    "$C" simulate --system skate --form z --bits 256 --event Gamma3 --event-direction falling --t 5 > "$T/o" 2> "$T/e"
te=$(sed -n 2p "$T/o" | cut -d, -f1)
[ -n "$tf" ] && [ -n "$te" ] && [ "$(bcx "abs($te - $tf) / $tf < 10^-35")" = 1 ]
t $? "skate --event Gamma3 --event-direction falling from (59): the fall time of reproduce skate-fig4 to 35 digits ($(sci "abs($te - $tf) / $tf") apart)"

# Refusals: exit 2, nothing on stdout.
out=$(echo "0.8 0.6 0 0" | "$C" simulate --system sphere --integrator taylor 2> "$T/e"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "^error: --integrator taylor needs the system's field as an expression graph" "$T/e"
t $? "taylor on a system without a graph: refused (exit $st): $(cut -c1-70 "$T/e")"
out=$(sim --event "theta +" 2> "$T/e"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "^error: --event: " "$T/e"
t $? "a broken --event expression: refused (exit $st): $(cut -c1-70 "$T/e")"
out=$(sim --event "nosuch" 2> "$T/e"); st=$?
out2=$(sim --events every 2> "$T/e2"); st2=$?
[ $st = 2 ] && [ -z "$out" ] && [ $st2 = 2 ] && [ -z "$out2" ] && grep -q "need --event" "$T/e2"
t $? "an unknown name in --event, --events without --event: refused (exit $st, $st2)"

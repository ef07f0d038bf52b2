#!/bin/sh
# simulate --tol against an exact solution: the pendulum x'' = -9.8 sin x
# from x = 1, x' = 0, whose closed form is sin(x/2) = k sn(w t + K(k), k),
# x' = 2 k w cn(w t + K(k), k), k = sin(1/2), w = sqrt(9.8). The reference is
# computed here with bc -l at 130 digits: K by the arithmetic-geometric mean,
# sn and cn by the AGM's descending Landen transformation (Abramowitz and
# Stegun 16.4; it agrees with mpmath's ellipfun to 118 digits). The error
# of a run is max |x - x*| / (1 + |x*|) at t = 10, the measure --tol and the
# end-of-run estimate speak of. The estimate
# (a rerun with gbs at 32 more bits and tol/1024) must be the exact error to
# within a factor 2, a warning when the run ends above its tolerance, a note
# when within.
. tests/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-simtol.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "1..6"
printf "manifold x : R1\nlagrangian 1/2*x'^2 + 9.8*cos(x)\n" > "$T/pend.model"
cp tests/pendulum_exact.bc "$T/exact.bc"
# run TOL: the run's exact error in $T/err.exact (as bc reads it) and its stderr in $T/e
run() {
    echo "1 0" | "$C" simulate --model "$T/pend.model" --integrator gbs --bits 256 --tol "$1" --t 10 > "$T/o" 2> "$T/e" || return 1
    last=$(tail -1 "$T/o")
    x=$(echo "$last" | cut -d, -f2); v=$(echo "$last" | cut -d, -f3)
    case $(echo "$last" | cut -d, -f1) in 10) ;; *) return 1 ;; esac
    { cat "$T/exact.bc"; echo "ex = abs($x - xx) / (1 + abs(xx)); ev = abs($v - vv) / (1 + abs(vv)); if (ev > ex) ex = ev; ex"; } |
        BC_LINE_LENGTH=0 bc -l > "$T/err.exact"
}
# the estimate printed, as bc reads it (4.70e-75 -> 4.70*10^-75)
estimate() { sed -n 's/.*error at t = 10 estimated \([0-9.]*\)e\([-+][0-9]*\) .*/\1*10^(\2)/p' "$T/e" | sed 's/(+/(/'; }
bcx() { echo "scale = 130; $1" | BC_LINE_LENGTH=0 bc -l; }
within2() { [ "$(bcx "r = ($1) / ($2); r >= 1/2 && r <= 2")" = 1 ]; }
sci() { bcx "$1" | awk '{ printf "%.2e", $1 }'; }

# The run of the issue: --tol 1e-76 at 256 bits is below what 256 bits resolve.
run 1e-76; st=$?
ex=$(cat "$T/err.exact"); est=$(estimate)
[ $st = 0 ] && [ -n "$est" ] && [ "$(bcx "$ex > 10^-76")" = 1 ] && grep -q '^warning: .* above the tolerance 1e-76$' "$T/e"
t $? "gbs --bits 256 --tol 1e-76 --t 10 ends $(sci "$ex") from the exact pendulum, and simulate warns: $(cut -c1-70 "$T/e")"
[ -n "$est" ] && within2 "$est" "$ex"
t $? "the estimate $(sci "$est") is the exact error $(sci "$ex") within a factor 2"
# A reachable tolerance: met, and said so.
run 1e-70; st=$?
ex=$(cat "$T/err.exact"); est=$(estimate)
[ $st = 0 ] && [ "$(bcx "$ex <= 10^-70")" = 1 ] && grep -q '^note: .* within the tolerance 1e-70$' "$T/e" && [ -n "$est" ] && within2 "$est" "$ex"
t $? "--tol 1e-70: ends $(sci "$ex") from the exact solution, within, the estimate $(sci "$est") within a factor 2"
# A loose tolerance the control does not keep over five periods: the warning says so.
run 1e-40; st=$?
ex=$(cat "$T/err.exact"); est=$(estimate)
[ $st = 0 ] && [ "$(bcx "$ex > 10^-40")" = 1 ] && grep -q '^warning: .* above the tolerance 1e-40$' "$T/e" && [ -n "$est" ] && within2 "$est" "$ex"
t $? "--tol 1e-40: ends $(sci "$ex") from the exact solution, above, and the warning's estimate $(sci "$est") says so within a factor 2"
echo "1 0" | "$C" simulate --model "$T/pend.model" --integrator gbs --bits 256 --tol 1e-40 --t 10 --estimate none > "$T/o2" 2> "$T/e2"
[ $? = 0 ] && ! grep -qv '^simulate: ' "$T/e2" && cmp -s "$T/o" "$T/o2"
t $? "--estimate none: the same CSV, nothing on stderr but progress lines (a run past 2 s on a busy machine)"
out=$(echo "1 0" | "$C" simulate --model "$T/pend.model" --estimate sometimes 2> "$T/e3"); st=$?
[ $st = 2 ] && [ -z "$out" ] && [ "$(cat "$T/e3")" = "error: --estimate must be rerun or none (sometimes)" ]
t $? "--estimate sometimes: refused (exit $st)"

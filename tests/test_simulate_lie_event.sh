#!/bin/sh
# simulate --event with the Lie group integrators (lie-euler, rkmk4, cf4,
# rkmk45 on --system chain): a pendulum released at rest from theta0 = 1
# (chain of one link, form omega) crosses the vertical, q1.x = 0, at the
# quarter period K(sin(theta0/2))/sqrt(g/l) and then every half period. The
# event is located in the Lie method's own step (the partial step re-run
# from its start): the event value there is at the rounding of the working
# precision for every method, and with rkmk45 at tol 1e-12 the times agree
# with the closed form and with rkf78's event.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..9"
S="0.8414709848078965 0 -0.5403023058681398  0 0 0"
sim() { echo "$S" | "$C" simulate --system chain --n 1 --form omega --t 3 --event x0 "$@"; }
# (2k + 1) K / omega0, K = pi / (2 AGM(1, cos(theta0/2))), omega0 = sqrt(9.81)
quarter() { awk -v j="$1" 'BEGIN { k = sin(0.5); a = 1; b = sqrt(1 - k*k); for (i = 0; i < 10; i++) { c = (a + b)/2; b = sqrt(a*b); a = c }
                                   printf "%.17g\n", j*3.14159265358979323846/(2*a)/sqrt(9.81) }'; }
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= e) }'; }
row() { sed -n "$1p" "$T/out" | cut -d, -f"$2"; }
sim --integrator rkmk45 --tol 1e-12 --h 0.1 --event-direction falling > "$T/out" 2> "$T/err"; r=$?
[ $r = 0 ] && [ "$(wc -l < "$T/out")" = 2 ] && near "$(row 2 1)" "$(quarter 1)" 1e-10
t $? "rkmk45 (tol 1e-12): the first zero at the quarter period K/omega0 = $(quarter 1) within 1e-10 (t = $(row 2 1))"
echo "$S" | "$C" simulate --system chain --n 1 --form omega --t 3 --event x0 --event-direction falling --integrator rkf78 --tol 1e-14 > "$T/ref" 2>&1
near "$(row 2 1)" "$(sed -n 2p "$T/ref" | cut -d, -f1)" 1e-10; t $? "... and rkf78's event time (tol 1e-14) within 1e-10"
sim --integrator rkmk45 --tol 1e-12 --h 0.1 --events every > "$T/out" 2> "$T/err"; r=$?
[ $r = 0 ] && [ "$(wc -l < "$T/out")" = 4 ] && near "$(row 3 1)" "$(quarter 3)" 1e-10 && near "$(row 4 1)" "$(quarter 5)" 1e-10
t $? "--events every: three zeros to t = 3, at 3K/omega0 and 5K/omega0 within 1e-10"
for I in lie-euler rkmk4 cf4 rkmk45; do
    sim --integrator $I --h 0.01 --tol 1e-12 --event-direction falling > "$T/out" 2> "$T/err"; r=$?
    [ $r = 0 ] && [ "$(wc -l < "$T/out")" = 2 ] && near "$(row 2 2)" 0 4e-15
    t $? "$I: q1.x = $(row 2 2) at the located event (53 bits: within 4e-15 of 0)"
done
sim --integrator rkmk4 --h 0.01 --bits 113 > "$T/out" 2> "$T/err"; r=$?
[ $r = 0 ] && near "$(row 2 2)" 0 1e-32 && near "$(row 2 1)" "$(quarter 1)" 1e-7
t $? "rkmk4 at 113 bits: q1.x = $(row 2 2) at the event (within 1e-32), t within rkmk4's h^4 of K/omega0"
sim --integrator rkmk4 --h 0.01 --event-direction rising > "$T/out" 2> "$T/err"; r=$?
[ $r = 0 ] && [ "$(wc -l < "$T/out")" = 2 ] && near "$(row 2 1)" "$(quarter 3)" 1e-7; t $? "rising: the first zero from below, at 3K/omega0"

#!/bin/sh
# What the command line prints: the CSV of simulate (kept on stdout when
# plotting, named columns), labeled and signless-zero rhs output, the unit-norm
# rule on input states, --t 0, and the help texts.
B=${BUILD:-build}
C="$B/chartless"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
t() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
echo "1..11"
S1="0 0 -1 1 0 0"
if command -v gnuplot >/dev/null 2>&1; then
    echo "$S1" | "$C" simulate --system chain --t 0.05 --plot "$T/p.png" > "$T/p.csv" 2>/dev/null
    [ $? = 0 ] && [ -s "$T/p.png" ] && head -1 "$T/p.csv" | grep -q '^t,q1.x,' && [ "$(wc -l < "$T/p.csv")" -gt 2 ]
    t $? "simulate --plot without --out draws the PNG and keeps the CSV on stdout"
else
    skip "gnuplot not installed"
fi
# Circle at the bottom moving left: the acceleration -|v|^2 x has a zero component computed as -0.
out=$(echo "0 -1 -2 0" | "$C" rhs --system circle)
[ -n "$out" ] && ! printf '%s\n' "$out" | grep -Eq '(^| )-0( |$)'; t $? "rhs prints a zero as 0, never -0"
out=$(echo "$S1" | "$C" rhs --system chain --labels)
[ "$(printf '%s\n' "$out" | awk '{print $1}' | tr '\n' ' ')" = "q1.x q1.y q1.z qdot1.x qdot1.y qdot1.z " ] &&
    [ "$(printf '%s\n' "$out" | awk '{print $2}' | tr '\n' ' ')" = "1 0 0 0 0 1 " ]
t $? "rhs --labels prints each component's name beside its derivative"
echo "$S1" | "$C" rhs --system chain --labels --n 1 >/dev/null; t $? "rhs --labels mixes with the system's parameters"
# Named columns for every system, and the energy error (relative unless E0 = 0) last.
hdr=$(echo "1 0 0 0 1 0 0 0 1 0.1 0 1.5" | "$C" simulate --system rigid-body --t 0.01 | head -1)
[ "$hdr" = "t,R11,R12,R13,R21,R22,R23,R31,R32,R33,W1,W2,W3,energy,|Pi|^2,m_x,m_y,m_z,Gamma.Pi,|Gamma|^2,|E-E0|/|E0|" ]
t $? "rigid-body CSV names R11 ... R33, W1 W2 W3 and the relative energy error"
hdr=$(echo "1 0 0 0 1 0 0 0 1 0 0 0 0 0 0 0 0 0" | "$C" simulate --system heavy-top --form Rmu --t 0.01 | head -1)
echo "$hdr" | grep -q '^t,R11,.*,R33,mu11,.*,mu33,energy,'; t $? "heavy-top Rmu CSV names R and mu row by row"
hdr=$(echo "0 1 0 0 0 0" | "$C" simulate --system sphere --g 0 --t 0.01 | head -1)
[ "$hdr" = "t,x1,x2,x3,xdot1,xdot2,xdot3,energy,|E-E0|" ]; t $? "sphere CSV names x and xdot; at energy 0 the error is absolute and the header says so"
# The relative error is |E - E0| / |E0|: 0 on the first row, small on the last.
last=$(echo "0 0 -1 1 0 0" | "$C" simulate --system chain --t 1 | awk -F, 'NR == 2 { f = $NF } END { print f, $NF }')
set -- $last; [ "$1" = 0 ] && awk -v e="$2" 'BEGIN { exit !(e > 0 && e < 1e-9) }'; t $? "chain: the energy error starts at 0 and stays relative (last $2)"
# --t 0: the initial row with its invariants, for every kind of integrator.
for i in rkf78 rk4 rkmk4; do
    out=$(echo "0 0 -1 1 0 0" | "$C" simulate --system chain --form omega --integrator $i --t 0)
    [ $? = 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 2 ] && printf '%s\n' "$out" | tail -1 | grep -q '^0,0,0,-1,1,0,0,-9.31[0-9]*,0,0,0,0$'
    t $? "simulate --t 0 --integrator $i prints the initial row and its invariants"
done

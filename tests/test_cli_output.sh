#!/bin/sh
# What the command line prints: the CSV of simulate (kept on stdout when
# plotting, named columns), labeled and signless-zero rhs output, the unit-norm
# rule on input states, --t 0, and the help texts.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..17"
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
# One unit-norm rule: within 2^-40 of the constraint normalised at the working precision, beyond it
# refused with one message "error: <v> is not a unit vector (|<v>| - 1 = ...) (state)".
msg=$(echo "0 0 -1.00003 0 0 0" | "$C" rhs --system sphere 2>&1 >/dev/null)
[ "$msg" = "error: x is not a unit vector (|x| - 1 = 3e-05) (state)" ]; t $? "sphere: a non-unit x is refused with one message ($msg)"
msg=$(echo "0 0 -1.00003 0 0 0" | "$C" rhs --system chain 2>&1 >/dev/null)
[ "$msg" = "error: q1 is not a unit vector (|q1| - 1 = 3e-05) (state)" ]; t $? "chain: the same message"
msg=$(echo "0 0 1 0.1 0.99" | "$C" rhs --system skate 2>&1 >/dev/null)
[ "$msg" = "error: Gamma is not a unit vector (|Gamma| - 1 = -0.00496) (state)" ]; t $? "skate: the same message ($msg)"
# A 40-digit decimal state at 256 bits: |Gamma| - 1 is about 1e-40, normalised as the chain's q is.
echo "0.1 0.1005016708416796590 1 0.09983341664682815230681419841062202698992 0.9950041652780257660955619878038702948386" |
    "$C" simulate --system skate --bits 256 --t 0 > "$T/sk.csv"
st=$?; g=$(tail -1 "$T/sk.csv" | awk -F, '{ print $5 * $5 + $6 * $6 }')
[ $st = 0 ] && [ "$g" = 1 ]; t $? "skate at 256 bits accepts a 40-digit state"
out=$(echo "0 0 -1.0000000000001 1 0 1e-14" | "$C" simulate --system sphere --bits 512 --t 0 | tail -1 | cut -d, -f2-5)
[ "$out" = "0,0,-1,1" ]; t $? "sphere: x within 2^-40 of unit is normalised at 512 bits ($out)"
out=$(echo "0.6 0.8 0 -0.8 0.6000000000001 0 0 0 1 0 0 1.5" | "$C" simulate --system heavy-top --bits 1024 --t 0 | tail -1 | awk -F, '{ print $(NF - 1) }')
[ "$out" = 1 ]; t $? "heavy-top: R within 2^-40 of SO(3) is made orthogonal at 1024 bits (|Gamma|^2 = $out)"

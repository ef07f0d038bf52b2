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
echo "1..4"
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

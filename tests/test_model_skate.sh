#!/bin/sh
# models/skate.model, the pendulum skate of SKATE §2 on SE(3) (x3 = 0 and
# pitch constancy holonomic, no side sliding nonholonomic), against the
# chapter from the command line at 256 bits: its field at the state (59)
# against rhs --system skate --form z, the fall of Fig. 4 through simulate
# --event against reproduce skate-fig4 (35 digits asked), the rows
# skate.model.skate.* on the ladder and a broken model failing them, and a
# state off the constraints refused. The model's state is (R, x, Omega, Y);
# the chapter's z = (Omega, Y, Gamma) with Gamma = R^T e3, the third row of R
# (papers/skate/check_skate_model.c documents the maps both ways).
. tests/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-skate-model.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "1..8"
# bc reads 1.5e-77 as 1.5*10^(-77)
bcx() { echo "scale = 120; $1" | sed 's/\([0-9]\)e\([-+]*[0-9][0-9]*\)/\1*10^(\2)/g; s/(+/(/g' | BC_LINE_LENGTH=0 bc -l; }
sci() { bcx "$1" | awk '{ printf "%.2e", $1 }'; }
s=$(bcx "s(0.1)"); c=$(bcx "c(0.1)"); w2=$(bcx "0.1 * s(0.1) / c(0.1)")
# (59) with phi0 = 0.1: R = Rx(phi0) (third row Gamma = (0, sin phi0, cos phi0)), x = 0
model59="1 0 0  0 $c -$s  0 $s $c  0 0 0  0.1 $w2 0.1  1 0 0"
z59="0.1 $w2 0.1  1 0 0  0 $s $c"
# max_i |a_i - b_i| over two lists of numbers, relative to max(1, max |b_i|)
gap() { bcx "$(echo "$1;$2" | awk -F';' '{ n = split($1, a, " "); split($2, b, " "); s = "d = 0; m = 1; ";
    for (i = 1; i <= n; i++) s = s "e = " a[i] " - (" b[i] "); if (e < 0) e = -e; if (e > d) d = e; f = " b[i] "; if (f < 0) f = -f; if (f > m) m = f; ";
    print s "d / m" }')"; }

# 1-2. The field at (59): (Omega', Y', Gamma' = third row of R') against the z form (21).
f=$(echo "$model59" | "$C" rhs --model models/skate.model --bits 256 2> "$T/e"); st=$?
g=$(echo "$z59" | "$C" rhs --system skate --form z --bits 256 2>> "$T/e"); st2=$?
a=$(echo "$f" | awk '{ print $13, $14, $15, $16, $17, $18, $7, $8, $9 }')
e=$(gap "$a" "$g")
[ $st = 0 ] && [ $st2 = 0 ] && [ "$(bcx "$e < 2^-240")" = 1 ]
t $? "rhs --model models/skate.model at (59) against rhs --system skate --form z at 256 bits: $(sci "$e") apart (2^-240 allowed)"
echo "$f" | awk '{ print $10, $11, $12 }' > "$T/xdot"
e=$(gap "$(cat "$T/xdot")" "1 0 0")
[ "$(bcx "$e < 2^-250")" = 1 ]
t $? "and x' = R Y = (1, 0, 0) there, on the ice and along the blade: $(sci "$e") off"

# 3-4. Fig. 4: the fall (Gamma3 = R33 = 0, falling) found by simulate --event on the model against
# reproduce skate-fig4 (the event on (38)), and the model's state there against the z form's.
mkdir -p "$T/fig"
"$C" reproduce skate-fig4 --bits 256 --out "$T/fig" > "$T/fig.txt" 2>&1
tf=$(sed -n 's/^fall time (Gamma3 = 0, event on (38)): *//p' "$T/fig.txt")
echo "$model59" | "$C" simulate --model models/skate.model --bits 256 --t 5 --event R33 --event-direction falling \
    > "$T/o" 2> "$T/e"; st=$?
tm=$(sed -n 2p "$T/o" | cut -d, -f1)
[ $st = 0 ] && [ -n "$tf" ] && [ -n "$tm" ] && [ "$(bcx "d = ($tm - $tf) / $tf; if (d < 0) d = -d; d < 10^-35")" = 1 ]
t $? "simulate --model models/skate.model --event R33 from (59): the fall time of reproduce skate-fig4 to 35 digits ($tm, $(sci "($tm - $tf) / $tf") apart)"
echo "$z59" | "$C" simulate --system skate --form z --bits 256 --t 5 --event Gamma3 --event-direction falling > "$T/oz" 2>> "$T/e"
a=$(sed -n 2p "$T/o" | awk -F, '{ print $14, $15, $16, $17, $18, $19, $8, $9, $10 }')
b=$(sed -n 2p "$T/oz" | awk -F, '{ print $2, $3, $4, $5, $6, $7, $8, $9, $10 }')
e=$(gap "$a" "$b")
[ -n "$b" ] && [ "$(bcx "$e < 10^-35")" = 1 ]
t $? "the state at the fall (Omega, Y, Gamma) against the z form's own event: $(sci "$e") apart"

# 5. The rows against the chapter on the ladder.
out=$("$C" oracle --check 'skate.model.skate.*' 2>&1); st=$?
[ $st = 0 ] && echo "$out" | grep -q "^4 passed, 0 failed" && [ "$(echo "$out" | grep -c '^skate\.model\.skate\..* rounding$')" = 4 ]
t $? "skate.model.skate.{z,zeta,multipliers,energy}: rounding on 53/113/256/1024 bits (exit $st)"
[ $st = 0 ] || echo "$out" | sed 's/^/# /'

# 6-7. Broken models read through CHARTLESS_MODELS: the pendulum's coupling of the wrong sign
# (Y - l Omega x E3) fails every row; the blade's no-side-sliding form along E2 fails the fields.
mkdir -p "$T/lsign" "$T/blade"
sed 's/l\*cross(Omega, \[0, 0, 1\])/l*cross([0, 0, 1], Omega)/g' models/skate.model > "$T/lsign/skate.model"
sed 's/cross(R\*\[1, 0, 0\], \[0, 0, 1\])/cross(R*[0, 1, 0], [0, 0, 1])/' models/skate.model > "$T/blade/skate.model"
out=$(CHARTLESS_MODELS="$T/lsign" "$C" oracle --check 'skate.model.skate.*' --bits 53,256 2>&1); st=$?
! cmp -s models/skate.model "$T/lsign/skate.model" && [ $st = 1 ] && [ "$(echo "$out" | grep -c '^skate\.model\.skate\..* mismatch$')" = 4 ]
t $? "the coupling of the wrong sign: the four rows are mismatches (exit $st)"
out=$(CHARTLESS_MODELS="$T/blade" "$C" oracle --check 'skate.model.skate.*' --bits 53,256 2>&1); st=$?
! cmp -s models/skate.model "$T/blade/skate.model" && [ $st = 1 ] &&
    echo "$out" | grep -q '^skate\.model\.skate\.z .* mismatch$' && echo "$out" | grep -q '^skate\.model\.skate\.zeta .* mismatch$'
t $? "no side sliding along E2 instead of E1: the fields' rows are mismatches (exit $st)"

# 8. A state off the ice (x3 = 0.01): refused, nothing on stdout.
out=$(echo "1 0 0  0 $c -$s  0 $s $c  0 0 0.01  0.1 $w2 0.1  1 0 0" | "$C" rhs --model models/skate.model --bits 256 2> "$T/e"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "^error: the state is off the constraint set: the holonomic constraint contact is 0.01 in magnitude" "$T/e"
t $? "a state off the ice refused (exit $st): $(cut -c1-100 "$T/e")"

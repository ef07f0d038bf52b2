#!/bin/sh
# chartless grade --model M --field F: the spring model's hand-derived
# fields of docs/examples pass in the (q, omega) and (q, qdot) forms, a sign
# flipped or a centripetal term left out fails with a hint that names it, a
# student's shared object is graded against a model, and a bad field file
# is bad input (exit 2, nothing on stdout, file:line:column on stderr).
. tests/tap.sh
E=docs/examples
M=models/spring.model
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..22"
"$C" grade --model $M --field $E/spring_omega.field > "$T/out" 2>&1; t $? "the hand-derived (q, omega) field of the spring passes"
[ "$(grep -c '^PASS: 0 of 12 components wrong' "$T/out")" = 2 ] && grep -q '^at random parameters (seed 1): --m1 [0-9.]* --m2 [0-9.]* --k ' "$T/out"
t $? "... at the given and at random unequal parameters"
[ "$(grep -c ' rounding ' "$T/out")" = 24 ]; t $? "... every component rounding (within 2^-40 of the reference) in both reports"
"$C" grade --model $M --field $E/spring_qdot.field --seed 7 --states 30 > "$T/out" 2>&1; t $? "the hand-derived (q, qdot) field passes (seed 7, 30 states)"
"$C" grade --model $M --field $E/spring_omega_sign.field > "$T/out" 2>&1; [ $? = 1 ]; t $? "one sign flipped fails with exit 1"
grep -q '^FAIL: 3 of 12 components wrong' "$T/out" && grep -q '^w2.x .*WRONG' "$T/out" && grep -q '^w1.x .*rounding' "$T/out"
t $? "... only the block with the flipped sign is wrong"
grep -q "^hint: a sign error at $E/spring_omega_sign.field:15:17: with '+' for '-' there every component agrees" "$T/out"
t $? "... and the hint names the sign, by line and column"
# docs/own_derivation.md shows the first report of this run, to the character
awk '/^\$ chartless grade --model models\/spring.model --field docs\/examples\/spring_omega_sign.field$/ { on = 1; next }
     on && /^```/ { exit } on' docs/own_derivation.md > "$T/doc"
[ -s "$T/doc" ] && head -n "$(wc -l < "$T/doc")" "$T/out" | cmp -s - "$T/doc"; t $? "... as docs/own_derivation.md shows it"
sed 's/ - dot(q2., q2.)\*q2$//' $E/spring_qdot.field > "$T/nocentripetal.field"
"$C" grade --model $M --field "$T/nocentripetal.field" > "$T/out" 2>&1; [ $? = 1 ] && grep -q "^hint: q2'' .*the difference is along q2" "$T/out"
t $? "a missing centripetal term fails, the difference along q2"
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')
$SCC -shared -fPIC -O1 -Isrc -o "$T/student.so" $E/spring_omega.c -lm || echo "# cannot compile spring_omega.c"
"$C" grade --model $M --form omega "$T/student.so" > "$T/out" 2>&1; t $? "the same derivation in C, cl_student_spring_omega, passes against the model"
printf 'form omega\nq1'"'"' = cross(w1, q1)\nq2'"'"' = cross(w2, q2)\nw1'"'"' = cross(q1, q2)/norm(q1 - q1)\nw2'"'"' = w2\n' > "$T/undef.field"
"$C" grade --model $M --field "$T/undef.field" > "$T/out" 2>&1; [ $? = 1 ] && grep -q "leaves its domain" "$T/out" && grep -q '^NO STATE EVALUATED' "$T/out"
t $? "a field undefined at every state (division by zero) is reported by subexpression, exit 1"
# a parameter whose default is 0 is perturbed too: a term it multiplies cannot be left out
printf 'manifold q : S2\nparameters m = 1, g = 9.81, c = 0\nlagrangian 1/2*m*dot(q'"'"', q'"'"') - m*g*q.z + c*q.x\n' > "$T/wind.model"
printf 'form qdot\nlet F = [c, 0, -m*g]\nq'"''"' = (F - dot(q, F)*q)/m - dot(q'"'"', q'"'"')*q\n' > "$T/wind.field"
sed 's/\[c, 0, -m\*g\]/[0, 0, -m*g]/' "$T/wind.field" > "$T/nowind.field"
"$C" grade --model "$T/wind.model" --field "$T/wind.field" > "$T/out" 2>&1 && grep -q '^at random parameters (seed 1): .*--c -\{0,1\}0\.[0-9]' "$T/out"
t $? "the wind field (a force c along x, c = 0 by default) passes, c perturbed from 0 at random parameters"
"$C" grade --model "$T/wind.model" --field "$T/nowind.field" > "$T/out" 2>&1; r=$?
[ $r = 1 ] && [ "$(grep -c '^PASS: 0 of' "$T/out")" = 1 ] && grep -q '^FAIL: ' "$T/out"
t $? "the wind left out passes at c = 0 but fails at random parameters (exit $r)"
# bad input
bad() { # name, expected message (grep -E), file text
    printf "$3" > "$T/$1.field"
    "$C" grade --model $M --field "$T/$1.field" > "$T/out" 2> "$T/err"; r=$?
    [ $r = 2 ] && [ ! -s "$T/out" ] && grep -Eq "^error: $2 \\($T/$1.field:[0-9]+:[0-9]+\\)\$" "$T/err"; t $? "bad field: $1 (exit 2, nothing on stdout, file:line:col)"
}
bad syntax "expected ',' between the arguments.*" "form omega\nq1' = cross(w1 q1)\n"
bad unknown "unknown name 'zz'" "form omega\nq1' = cross(w1, zz)\n"
bad missing "the field gives no w2' = .*" "form omega\nq1' = cross(w1, q1)\nq2' = cross(w2, q2)\nw1' = [0, 0, 0]\n"
bad twice "q1' is given twice .*" "form omega\nq1' = cross(w1, q1)\nq1' = cross(w1, q1)\n"
bad noform "expected 'form qdot'.*" "q1' = cross(w1, q1)\n"
bad scalar "q1' must be a vector, this is a scalar" "form omega\nq1' = norm(w1)\n"
bad velocity "unknown name 'q1'': it names the state of form qdot, not of form omega .*" "form omega\nq1' = q1'\n"
"$C" grade --model $M --form qdot --field $E/spring_omega.field > "$T/out" 2> "$T/err"; [ $? = 2 ] && [ ! -s "$T/out" ] && grep -q '^error: the field file is written in form omega' "$T/err"
t $? "--form other than the field's is bad input"
"$C" grade --field $E/spring_omega.field > "$T/out" 2> "$T/err"; [ $? = 2 ] && [ ! -s "$T/out" ] && grep -q '(--model)' "$T/err"
t $? "--field without --model is bad input"

#!/bin/sh
# chartless grade on the worked examples of docs/examples: correct solutions
# pass, the deliberate mistakes are caught and explained, a crashing or
# endless student function is reported without taking the grader down.
. tests/tap.sh
E=docs/examples
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..12"
# The students' files are built as a student would, without sanitizers (make
# check-sanitize passes them in CC): a crash in them must reach the grader as a signal.
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')
for f in pendulum_qdot_correct pendulum_qdot_no_projection double_pendulum_omega_correct double_pendulum_omega_sign crash endless; do
    $SCC -shared -fPIC -O1 -Isrc -o "$T/$f.so" "$E/$f.c" -lm || echo "# cannot compile $f"
done
P1="--system chain --n 1 --m 1 --l 1.5 --g 9.81 --form qdot"
P2="--system chain --n 2 --m 1,2 --l 1,0.5 --g 9.81 --form omega"
"$C" grade $P1 "$T/pendulum_qdot_correct.so" > "$T/out" 2>&1; t $? "correct spherical pendulum (q, qdot) passes"
grep -q '^PASS: 0 of 6 components wrong' "$T/out"; t $? "... and says so"
"$C" grade $P1 "$T/pendulum_qdot_no_projection.so" > "$T/out" 2>&1; [ $? = 1 ]; t $? "missing projection fails with exit 1"
grep -q 'missing projection (I - q1 q1^T)' "$T/out"; t $? "... and the hint names the missing projection"
"$C" grade $P2 "$T/double_pendulum_omega_correct.so" > "$T/out" 2>&1; t $? "correct double pendulum (q, omega) passes"
"$C" grade $P2 "$T/double_pendulum_omega_sign.so" > "$T/out" 2>&1; [ $? = 1 ]; t $? "gravity sign flip fails with exit 1"
grep -q '^w1.x .*WRONG' "$T/out" && grep -q '^q1.x .*rounding' "$T/out"; t $? "... omega-dot wrong, q-dot rounding"
grep -q 'the wrong term vanishes there' "$T/out"; t $? "... and the equilibria, where gravity exerts no torque, agree"
ASAN_OPTIONS=handle_segv=0 "$C" grade $P1 "$T/crash.so" > "$T/out" 2>&1; [ $? = 1 ] && grep -q '^CRASH: .*signal' "$T/out"; t $? "a segfaulting student function is reported as a crash, exit 1"
"$C" grade $P1 --timeout 1 "$T/endless.so" > "$T/out" 2>&1; [ $? = 1 ] && grep -q '^TIMEOUT' "$T/out"; t $? "an endless student function is stopped by the time limit, exit 1"
"$C" grade $P1 "$T/missing.so" > /dev/null 2>&1; [ $? = 2 ]; t $? "a missing shared object is bad input (exit 2)"
"$C" grade --system chain --n 1 --form velocity "$T/pendulum_qdot_correct.so" > /dev/null 2>&1; [ $? = 2 ]; t $? "an unknown form is bad input (exit 2)"

#!/bin/sh
# chartless grade against hostile and careless students (tests/students/hostile.c):
# each misbehaviour is reported by name with exit status 1, in bounded time,
# nothing the student prints reaches the report unquoted, and no process of
# the student's outlives the grade.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Built as a student would, without sanitizers: a crash must reach the grader as a signal.
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')
for b in CTOR_SEGV CTOR_LOOP CTOR_EXIT CTOR_FORK FORK_EACH CLOSE_AND_SLEEP EXIT KILL_GRADER FORGE CHANNEL ALLOC \
         REFUSE WRITE_INPUT READ_PAST SPIN OVERRUN CORRECT; do
    $SCC -shared -fPIC -O1 -Isrc -Idocs/examples -DHOSTILE_$b -o "$T/$b.so" tests/students/hostile.c -lm || echo "# cannot compile $b"
done
P="--system chain --n 1 --form qdot"
# Under make check-sanitize the grader's own runtime must not speak for the student:
# no leak check when the student calls exit(), a failed allocation returns NULL.
export ASAN_OPTIONS=handle_segv=0:detect_leaks=0:allocator_may_return_null=1
# grade NAME [OPTIONS]: run the grader on student NAME; $st its exit status, $secs its whole seconds, $T/out the report.
grade() {
    name=$1; shift
    start=$(date +%s)
    "$C" grade $P --timeout "${TIMEOUT:-2}" "$@" "$T/$name.so" > "$T/out" 2> "$T/err"
    st=$?
    secs=$(($(date +%s) - start))
}
# expect NAME PATTERN DESCRIPTION: exit 1, the report has PATTERN at the start of a line, within 10 s.
expect() {
    grade "$1"
    [ "$st" = 1 ] && [ "$secs" -le 10 ] && grep -q "$2" "$T/out"
    t $? "$3 (exit $st, ${secs} s)"
}
echo "1..25"
expect CTOR_SEGV '^CRASH: .*signal 11 .*while loading' "a constructor that segfaults is a crash while loading"
expect CTOR_LOOP '^TIMEOUT: .*while loading' "a constructor that loops is stopped by the time limit"
expect CTOR_EXIT '^EXIT: .*exit status 0.*while loading' "a constructor that calls exit(0) is no pass"
grep -q '^NO STATE EVALUATED' "$T/out" && ! grep -q '^PASS' "$T/out"; t $? "... and no state was evaluated"
expect CTOR_FORK '^FORK: .*while loading' "a constructor that forks is refused"
expect FORK_EACH '^FORK: .*at state 1' "a function that forks on every call is refused at the first"
expect CLOSE_AND_SLEEP '^CHANNEL: ' "a function that closes its descriptors and sleeps ends in bounded time"
expect EXIT '^EXIT: .*at state 1' "a function that calls exit(0) is reported"
expect KILL_GRADER '^FORK: ' "a function that signals the grader is stopped, and the grader reports it"
expect CHANNEL '^CHANNEL: ' "garbage written into the result channel is detected"
expect WRITE_INPUT '^WRITE TO INPUT: ' "writing into the state is reported"
expect READ_PAST '^OVERRUN: .*read x\[6\]' "reading past the state is reported by element"
expect SPIN '^TIMEOUT: .*at state 1' "an endless function is stopped"
expect OVERRUN '^OVERRUN: .*dx\[6\], past the end of dx (6 numbers)' "writing 58 doubles past dx is reported by element"
expect REFUSE '^NO STATE EVALUATED: .*refused every state' "a function refusing every state: no state evaluated"
! grep -q 'components wrong' "$T/out"; t $? "... not a count of wrong components"
grade FORGE
# two reports, one at the given and one at random parameters: one PASS line each
[ "$st" = 0 ] && [ "$(grep -c '^PASS' "$T/out")" = 2 ] && grep -q '^  | PASS: 0 of 6 components wrong' "$T/out" && [ "$(wc -l < "$T/out")" -lt 120 ]
t $? "forged PASS lines are shown quoted and truncated, never as lines of the report"
# Touching 512 MiB takes well under a second alone, but many seconds on a loaded machine: the time
# limit is not what this checks (a student without a memory limit would reach 64 GiB, or the limit).
TIMEOUT=120 grade ALLOC
mib=$(sed -n 's/^  | allocated \([0-9]*\) MiB$/\1/p' "$T/out" | head -n 1)
echo "# a student allocating until refused reached ${mib:-?} MiB"
[ "$st" = 0 ] && [ -n "$mib" ] && [ "$mib" -le 512 ]; t $? "a student's memory is limited (at most 512 MiB)"
grade CORRECT --g 1e400; [ "$st" = 2 ]; t $? "--g 1e400 (no finite double) is refused with exit 2"
grade CORRECT --bits 2; [ "$st" = 2 ]; t $? "--bits 2 is below what the reference needs: exit 2"
# The student receives the reference's system, and is graded at unequal parameters too.
$SCC -shared -fPIC -O1 -Isrc -o "$T/dp.so" docs/examples/double_pendulum_omega_correct.c -lm
# (R and b of the (q, omega) solution are written in the assignment's solution, which it includes)
{ sed 's/l\[i\] \* l\[j\]/l[i] * l[i]/' assignments/first_assignment/solution/chain_pi.c
  grep -v '^#include ".*chain_pi.c"' docs/examples/double_pendulum_omega_correct.c; } > "$T/dp_lili.c"
$SCC -shared -fPIC -O1 -Isrc -o "$T/dp_lili.so" "$T/dp_lili.c" -lm
"$C" grade --system chain --m 1,2 --l 1,0.5 --form omega "$T/dp.so" > "$T/out" 2>&1
[ $? = 0 ] && [ "$(grep -c '^PASS: 0 of 12 components wrong' "$T/out")" = 2 ]; t $? "--m 1,2 --l 1,0.5 without --n: the student gets both links and passes, at the given and at random parameters"
"$C" grade --system chain --n 2 --m 1,1 --l 1,1 --form omega "$T/dp_lili.so" > "$T/out" 2>&1; st=$?
sed -n '/^at random parameters/,$p' "$T/out" > "$T/random"
[ $st = 1 ] && grep -q '^PASS' "$T/out" && grep -q '^FAIL' "$T/random"; t $? "l_i l_i in place of l_i l_j passes at m = l = 1 but fails at the random unequal parameters"
grep -q '^at random parameters (seed 1): --m [0-9.]*,[0-9.]* --l [0-9.]*,[0-9.]*' "$T/out"; t $? "... which the report shows"
# With the seccomp filter off, processes that escaped are still found and ended.
if [ "$(id -u)" = 0 ]; then
    CHARTLESS_GRADE_TEST_NO_SECCOMP=1 "$C" grade $P --timeout 2 "$T/CTOR_FORK.so" > "$T/out" 2>&1; st=$?
    sleep 0.2
    [ "$st" = 1 ] && grep -q '^FORK: .*left 1 process running' "$T/out" && ! pgrep -f "$T/CTOR_FORK" >/dev/null
    t $? "a setsid'd grandchild that escaped the filter is found and ended"
    CHARTLESS_GRADE_TEST_NO_SECCOMP=1 "$C" grade $P --timeout 2 "$T/FORK_EACH.so" > "$T/out" 2>&1; st=$?
    [ "$st" = 1 ] && grep -q '^FORK: .*left 22 processes running' "$T/out"; t $? "a student forking on every call does not corrupt the results, and every child is ended"
else
    echo "ok 21 # skip without the filter, a non-root user cannot fork at all (RLIMIT_NPROC 0)"
    echo "ok 22 # skip without the filter, a non-root user cannot fork at all (RLIMIT_NPROC 0)"
fi

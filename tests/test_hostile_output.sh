#!/bin/sh
# Output that never reports a success it did not have: a full or closed
# stdout is exit 2 with "error: cannot write: REASON (stdout)" once (the
# reason when the system gave one); an interrupted run keeps its rows as
# FILE.partial, never under the name asked for; --max-steps lets a long run through.
. tests/tap.sh
C="$(cd "$B" && pwd)/chartless"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S1='0 0 -1 1 0 0'
echo "1..16"
# unwritable CMD...: to /dev/full and to a closed stdout, exit 2 and the message.
unwritable() {
    printf '%s\n' "$S1" | "$C" "$@" > /dev/full 2> "$T/err"; full=$?
    printf '%s\n' "$S1" | "$C" "$@" >&- 2> "$T/err2"; closed=$?
    [ $full = 2 ] && [ $closed = 2 ] && [ "$(cat "$T/err")" = "error: cannot write: No space left on device (stdout)" ] &&
        [ "$(grep -c . "$T/err2")" = 1 ] && grep -q '^error: cannot write\(: [A-Za-z ]*\)\? (stdout)$' "$T/err2"
    t $? "$* > /dev/full and >&-: exit 2, error: cannot write: REASON (stdout) once (got $full, $closed)"
}
unwritable rhs --system chain --n 1
unwritable systems
unwritable oracle --list
unwritable simulate --system chain --n 1 --t 1
unwritable systems chain
[ -c /dev/full ] && "$C" --help > /dev/full 2>/dev/null; [ $? = 2 ]; t $? "chartless --help > /dev/full: exit 2"
# A closed stdout must not become the output file's descriptor.
(cd "$T" && printf '%s\n' "$S1" | "$C" simulate --system chain --n 1 --t 0.1 --out o.csv >&- 2>/dev/null)
head -1 "$T/o.csv" | grep -q '^t,'; t $? "with stdout closed, --out still gets exactly the CSV"
rm -f "$T/o.csv"
# An interrupted run keeps its rows as o.csv.partial (header, whole rows,
# the time it stopped at said on stderr), and an existing output stays as it was.
printf '%s\n' "$S1" > "$T/state"
for sig in TERM INT; do
    printf 'old\n' > "$T/o.csv"
    rm -f "$T/o.csv.partial"
    # a background job of a script starts with SIGINT ignored (and keeps it so): restore it
    env --default-signal=INT "$C" simulate --system chain --n 1 --integrator rk4 --t 1e6 --max-steps 1000000000 \
        --out "$T/o.csv" < "$T/state" 2>"$T/err" &
    pid=$!
    sleep 1
    kill -$sig $pid
    wait $pid
    st=$?
    rows=$(grep -c '^[0-9]' "$T/o.csv.partial" 2>/dev/null)
    [ "$(ls "$T" | grep -c 'o.csv')" = 2 ] && [ "$(cat "$T/o.csv")" = old ] && head -1 "$T/o.csv.partial" | grep -q '^t,' &&
        [ "${rows:-0}" -gt 1 ] && [ "$(tail -c 1 "$T/o.csv.partial" | od -An -c | tr -d ' ')" = '\n' ] &&
        grep -q "^error: interrupted by SIG$sig after [0-9]* steps, at t = .*kept in ($T/o.csv.partial)" "$T/err"
    t $? "SIG$sig during simulate --out: the old file intact, $rows rows in o.csv.partial, where it stopped on stderr (status $st)"
done
rm -f "$T/o.csv" "$T/o.csv.partial"
rm -f "$T/o.csv"
printf '%s\n' "$S1" | "$C" simulate --system chain --n 1 --integrator rk4 --t 1 --h 0.01 --max-steps 50 > "$T/out" 2> "$T/err"
[ $? = 2 ] && grep -q 'would take 100 steps' "$T/err" && [ ! -s "$T/out" ]; t $? "a run longer than --max-steps is refused with its estimate"
printf '%s\n' "$S1" | "$C" simulate --system chain --n 1 --integrator rk4 --t 1 --h 0.01 --max-steps 100 > "$T/out" 2>&1
[ $? = 0 ] && [ "$(wc -l < "$T/out")" = 102 ]; t $? "--max-steps 100 lets the 100 steps through"
printf '%s\n' "$S1" | "$C" simulate --system chain --n 1 --t 100 --max-steps 20 > "$T/out" 2> "$T/err"
[ $? = 1 ] && grep -q 'no end within --max-steps 20' "$T/err"; t $? "an adaptive run is ended after --max-steps steps"
# oracle stops at the first failed write, not at the final close: with SIGPIPE
# ignored, a reader that leaves after the first line ends the run at the next
# row (the whole --quick ladder takes about 10 s on two cores). For --list,
# written at once and smaller than a pipe, the reader has left before it starts.
start=$(date +%s)
(trap '' PIPE; "$C" oracle --quick -j 2 --format tap 2> "$T/err"; echo $? > "$T/st") | head -1 > "$T/out"
took=$(($(date +%s) - start))
[ "$(cat "$T/st")" = 2 ] && [ "$(grep -v '^oracle: [0-9]*/[0-9]* done: ' "$T/err")" = "error: cannot write (stdout)" ] && grep -q "^1\.\.[0-9]*$" "$T/out" && [ $took -le 3 ]
t $? "oracle into a pipe closed after the first line: exit 2, error: cannot write (stdout) once, after ${took} s"
(trap '' PIPE; sleep 1; "$C" oracle --list 2> "$T/err"; echo $? > "$T/st") | true
[ "$(cat "$T/st")" = 2 ] && [ "$(cat "$T/err")" = "error: cannot write: Broken pipe (stdout)" ]; t $? "oracle --list into a closed pipe: exit 2, error: cannot write: Broken pipe (stdout)"
# rkmk45 honours --max-steps: a run that would go on for 10^6 time units ends at once
Q='0.6 0 -0.8 0.8 0 0.6'
printf '%s\n' "$Q" | "$C" simulate --system chain --n 1 --form omega --integrator rkmk45 --t 1e6 --h 0.1 --max-steps 1000 \
    > "$T/out" 2> "$T/err"
[ $? = 1 ] && grep -q 'no end within --max-steps 1000 steps' "$T/err" && [ "$(wc -l < "$T/out")" -lt 1000 ]
t $? "simulate --integrator rkmk45 --t 1e6 --max-steps 1000: ended with exit 1 and the limit named"
printf '%s\n' "$Q" | "$C" simulate --system chain --n 1 --form omega --integrator rkmk45 --t 2 --h 0.1 --max-steps 1000 \
    > "$T/out" 2> "$T/err"
[ $? = 0 ] && [ "$(wc -l < "$T/out")" = 22 ]; t $? "rkmk45 within --max-steps runs to the end (21 rows)"

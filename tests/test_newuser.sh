#!/bin/sh
# What a new user met (issue 24), each case failing before its fix: the model
# route in --help and in `systems`, a UTF-8 byte order mark, progress on
# stderr of a long run into a file or a pipe, and an interrupted simulate
# that keeps its rows as FILE.partial and says where it stopped.
. tests/tap.sh
C="$(cd "$B" && pwd)/chartless"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
M=models/chain2.model
echo "1..12"
for cmd in rhs simulate; do
    "$C" $cmd --help > "$T/h"
    grep -q -- '--model FILE' "$T/h" && grep -q -- '--param name=value' "$T/h" && grep -q -- '--system NAME | --model FILE' "$T/h"
    t $? "$cmd --help: the usage line offers --system NAME | --model FILE, and --model, --param are explained"
done
"$C" rhs --help | grep -q -- '--time T'; t $? "rhs --help: --time T of a time-dependent model"
"$C" rhs --model $M --help > "$T/h"; st=$?
[ $st = 0 ] && grep -q -- '--m1 ' "$T/h" && grep -q -- '--g ' "$T/h"; t $? "rhs --model FILE --help lists the model's parameters"
"$C" systems --model $M > "$T/s"; st=$?
[ $st = 0 ] && grep -q '^forms: qdot (default) omega mu pi' "$T/s" && grep -q -- '--l2 ' "$T/s" && grep -q '^state:' "$T/s"
t $? "systems --model FILE: its forms, parameters and state layout (status $st)"
# a byte order mark before the first statement (an editor's UTF-8 with BOM)
printf '\357\273\277' > "$T/bom.model"; cat $M >> "$T/bom.model"
S2='0 0 -1 0 0 -1 1 0 0 1 0 0'
[ "$(echo "$S2" | "$C" rhs --model "$T/bom.model" 2>&1)" = "$(echo "$S2" | "$C" rhs --model $M)" ]
t $? "a model file beginning with a UTF-8 byte order mark reads as without it"
# simulate interrupted by SIGINT (Ctrl-C), its stderr a file: progress, then where it stopped. One signal,
# sent once the first progress line is there (at most a minute), so a loaded machine cannot make the run
# too short to show it.
S1='0 0 -1 1 0 0'
printf 'old\n' > "$T/o.csv"
: > "$T/err" # emptied before the run starts: the wait below must not read an earlier run's progress
echo "$S1" | env --default-signal=INT "$C" simulate --system chain --n 1 --integrator rk4 --t 1e7 \
    --max-steps 1000000000 --out "$T/o.csv" 2> "$T/err" &
pid=$!
for _ in $(seq 600); do grep -q '^simulate: t' "$T/err" 2>/dev/null && break; sleep 0.1; done
kill -INT $pid; wait $pid
st=$?
rows=$(grep -c '^[0-9]' "$T/o.csv.partial" 2>/dev/null)
last=$(tail -1 "$T/o.csv.partial" 2>/dev/null | awk -F, '{ printf "%.10g", $1 }')
[ "$(cat "$T/o.csv")" = old ] && [ "${rows:-0}" -gt 100 ] && head -1 "$T/o.csv.partial" | grep -q '^t,' &&
    grep -q "^error: interrupted by SIGINT after $((rows - 1)) steps, at t = $last of --t 1e7; the rows computed so far are kept in ($T/o.csv.partial)$" "$T/err"
t $? "SIGINT during simulate --out: $rows rows kept in o.csv.partial up to t = $last, said on stderr, o.csv untouched (status $st)"
grep -q '^simulate: t = [0-9.e+]* of 1e+07 ([0-9.]* %), [0-9]* steps, [0-9]* s$' "$T/err"
t $? "a simulate longer than 2 s reports its progress on stderr, not a terminal ($(grep -c '^simulate: t' "$T/err") lines)"
# SIGTERM without --out: the rows went to stdout, whole. One signal, from kill: timeout(1) sends its
# signal to the child and again to its process group, and a second signal ends the run at once (sim_stop.c).
: > "$T/err"
echo "$S1" | "$C" simulate --system chain --n 1 --integrator rk4 --t 1e7 --max-steps 1000000000 \
    > "$T/out" 2> "$T/err" &
pid=$!
for _ in $(seq 600); do grep -q '^simulate: t' "$T/err" 2>/dev/null && break; sleep 0.1; done
kill -TERM $pid; wait $pid
[ "$(tail -c 1 "$T/out" | od -An -c | tr -d ' ')" = '\n' ] && [ "$(tail -1 "$T/out" | tr -cd , | wc -c)" = "$(head -1 "$T/out" | tr -cd , | wc -c)" ] &&
    grep -q '^error: interrupted by SIGTERM after .* went to standard output (the final state is the last row)$' "$T/err"
t $? "SIGTERM during simulate to stdout: whole rows, where it stopped on stderr"
# timeout(1) as users run it: its signal reaches the child twice (directly and through the process
# group); the two within a second count as one, so the run still ends after its step, rows whole
for k in 1 2 3 4 5 6 7 8; do
    echo "$S1" | timeout -s TERM 1 "$C" simulate --system chain --n 1 --integrator rk4 --t 1e7 \
        --max-steps 1000000000 > "$T/out" 2> "$T/err"
    [ "$(tail -c 1 "$T/out" | od -An -c | tr -d ' ')" = '\n' ] && grep -q '^error: interrupted by SIGTERM' "$T/err" || break
done
[ $k = 8 ] && grep -q '^error: interrupted by SIGTERM' "$T/err"
t $? "timeout -s TERM 1 simulate, eight times: each run ends after its step with whole rows and says so (run $k)"
# the oracle into a file: a line per row as it completes
"$C" oracle --check 'core.linalg.*' --bits 53,113 > "$T/o" 2> "$T/err"; st=$?
nrows=$(grep -c '^core\.linalg\.' "$T/o")
[ $st = 0 ] && [ "$nrows" -gt 2 ] && [ "$(grep -c '^oracle: [0-9]*/'"$nrows"' done: core\.linalg\.[a-z_]* [a-z]* ([0-9.]* s, [0-9.]* s CPU)$' "$T/err")" = "$nrows" ]
t $? "oracle with stderr not a terminal: one line per completed row ($nrows rows)"
# cannot write: the system's reason
echo "$S1" | "$C" simulate --system chain --n 1 --t 1 > /dev/full 2> "$T/err"; st=$?
[ $st = 2 ] && [ "$(cat "$T/err")" = "error: cannot write: No space left on device (stdout)" ]
t $? "simulate > /dev/full: cannot write with the reason, once (status $st)"

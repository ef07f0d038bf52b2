#!/bin/sh
# Every benchmark of bench/ answers -h and --help at once, without running:
# what it measures and its options on stdout, exit 0, nothing on stderr;
# an unknown option is refused (exit 2) before anything runs.
. tests/tap.sh
benches=$(ls bench/bench_*.c | sed 's|^bench/\(.*\)\.c$|\1|')
echo "1..$(($(echo "$benches" | wc -l) * 2))"
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-bench-help.XXXXXX")
trap 'rm -rf "$T"' EXIT
for b in $benches; do
    x="$B/bench/$b"
    ok=0
    for h in -h --help; do
        start=$(date +%s)
        timeout 10 "$x" $h > "$T/o" 2> "$T/e"; st=$?
        took=$(($(date +%s) - start))
        [ $st = 0 ] && [ ! -s "$T/e" ] && head -1 "$T/o" | grep -q "^usage: $b " && grep -q '^options:$' "$T/o" &&
            grep -q -- '-h, --help' "$T/o" && [ "$(wc -l < "$T/o")" -ge 6 ] && [ $took -le 2 ] || ok=1
    done
    t $ok "$b -h and --help: usage, what it measures and its options, at once"
    out=$(timeout 10 "$x" --no-such-option 2> "$T/e"); st=$?
    [ $st = 2 ] && [ -z "$out" ] && [ "$(cat "$T/e")" = "error: unknown option (--no-such-option)" ]
    t $? "$b --no-such-option: refused, exit $st"
done

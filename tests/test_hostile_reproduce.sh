#!/bin/sh
# `chartless reproduce` writes its files atomically (temporary name beside the
# target, renamed when complete; only a regular file is replaced; nothing left
# by SIGINT or SIGTERM), each control law to its own files, with the digits of
# the working precision; the law (56) as printed reports the fall it causes.
. tests/tap.sh
C="$(cd "$B" && pwd)/chartless"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..10"
"$C" reproduce skate-fig5 --out "$T" > "$T/matched.txt" 2>/dev/null && cp "$T/skate-fig5.csv" "$T/keep.csv"
t $? "reproduce skate-fig5 writes skate-fig5.csv"
"$C" reproduce skate-fig5 --law printed --out "$T" > "$T/printed.txt" 2>/dev/null
[ $? = 0 ] && [ -s "$T/skate-fig5-printed.csv" ] && cmp -s "$T/skate-fig5.csv" "$T/keep.csv"
t $? "--law printed writes skate-fig5-printed.csv and leaves skate-fig5.csv as it was"
tf=$(sed -n 's/^fall time (Gamma3 = 0, event on (44) with the control law (56) as printed): //p' "$T/printed.txt")
awk -v t="$tf" 'BEGIN { exit !(t > 0.5 && t < 2) }'; t $? "the printed law reports its fall time, 0.5 < $tf < 2"
last=$(tail -1 "$T/skate-fig5-printed.csv" | cut -d, -f1)
[ "$last" = "$tf" ]; t $? "the printed law's CSV ends at the fall ($last)"
grep -q '^min Gamma3 on \[0, 10\] = 0\.9919' "$T/matched.txt" && ! grep -q 'fall time' "$T/matched.txt"
t $? "the matched law does not fall: min Gamma3 0.9919..."
# digits: 17 at 53 bits, 36 at 113 bits (the first number after t = 0 on the row t = 0.005)
"$C" reproduce skate-fig4 --t-end 0.01 --bits 113 --out "$T/q" > /dev/null 2>&1
d113=$(sed -n 3p "$T/q/skate-fig4.csv" | cut -d, -f2 | tr -d '.-' | sed 's/e.*//' | sed 's/^0*//' | wc -c)
"$C" reproduce skate-fig4 --t-end 0.01 --out "$T/d" > /dev/null 2>&1
d53=$(sed -n 3p "$T/d/skate-fig4.csv" | cut -d, -f2 | tr -d '.-' | sed 's/e.*//' | sed 's/^0*//' | wc -c)
[ $((d53 - 1)) -ge 15 ] && [ $((d53 - 1)) -le 17 ] && [ $((d113 - 1)) -ge 34 ]; t $? "CSV digits follow --bits: $((d53 - 1)) at 53, $((d113 - 1)) at 113"
# only a regular file is replaced
mkdir -p "$T/f" && mkfifo "$T/f/skate-fig4.csv"
"$C" reproduce skate-fig4 --t-end 0.01 --out "$T/f" > "$T/out" 2> "$T/err"
[ $? = 2 ] && [ -p "$T/f/skate-fig4.csv" ] && grep -q '^error: not a regular file' "$T/err" && [ ! -s "$T/out" ]
t $? "a FIFO in place of the CSV: exit 2, named, left as it was"
mkdir -p "$T/g/skate-fig4.csv"
"$C" reproduce skate-fig4 --t-end 0.01 --out "$T/g" > /dev/null 2> "$T/err"
[ $? = 2 ] && [ -d "$T/g/skate-fig4.csv" ] && grep -q 'is a directory' "$T/err"; t $? "a directory in place of the CSV: exit 2, left as it was"
[ "$(ls "$T/f" "$T/g" | grep -c partial)" = 0 ]; t $? "refused runs leave no temporary file"
# an interrupted run leaves no partial file and the old figure intact
mkdir -p "$T/s" && printf 'old\n' > "$T/s/skate-fig5.csv"
env --default-signal=INT "$C" reproduce skate-fig5 --bits 4096 --out "$T/s" > /dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
st=$?
[ "$(ls "$T/s")" = skate-fig5.csv ] && [ "$(cat "$T/s/skate-fig5.csv")" = old ]; t $? "SIGTERM during reproduce: no partial file, the old CSV intact (status $st)"

#!/bin/sh
# README's worked examples, run as written: every ``` block whose first line
# is "$ COMMAND" (chartless called by name, build/ on the PATH as README's
# first lines say) must print exactly the lines that follow it. The README is
# what a new user tries first; it must not drift from the code. And one
# spelling of the command in README and docs/: `chartless`, build/chartless
# only where README's first lines say how to call it from the build tree.
B=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cl-readme-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Split the blocks into $tmp/N.cmd and $tmp/N.out.
awk -v d="$tmp" '
    /^```/ { if (inb) { inb = 0; next } inb = 1; first = 1; next }
    inb && first { first = 0; if ($0 ~ /^\$ /) { k++; sub(/^\$ /, ""); print > (d "/" k ".cmd"); take = 1 } else take = 0; next }
    inb && take { print > (d "/" k ".out") }
    !inb { take = 0 }
' README.md
count=$(ls "$tmp"/*.cmd 2>/dev/null | wc -l)
echo "1..$((count + 2))"
[ "$count" -ge 2 ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 1 - README shows at least two worked examples ($count)"
n=1
for c in $(ls "$tmp"/*.cmd | sort -V); do
    n=$((n + 1))
    k=$(basename "$c" .cmd)
    PATH="$(cd "$B" && pwd):$PATH" sh -c "$(cat "$c")" > "$tmp/$k.got" 2> "$tmp/$k.err"
    if cmp -s "$tmp/$k.got" "$tmp/$k.out"; then echo "ok $n - README example: $(cut -c1-70 "$c")"
    else
        echo "not ok $n - README example: $(cut -c1-70 "$c")"
        diff "$tmp/$k.out" "$tmp/$k.got" | sed 's/^/#   /' | head -20
    fi
done
n=$((n + 1))
other=$(grep -n 'build/chartless' README.md docs/*.md | grep -v '^README\.md:\([1-9]\|1[0-5]\):')
[ -z "$other" ] && sed -n 1,15p README.md | grep -q 'export PATH="$PWD/build:$PATH"'; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok $n - README's first lines say how to call chartless from the build tree, and no other line of README or docs/ spells it build/chartless"
[ -z "$other" ] || echo "$other" | sed 's/^/#   /'

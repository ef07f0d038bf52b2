#!/bin/sh
# The layering of the tree (see the Makefile): each folder's sources include
# headers by name only, so the include paths the build gives a folder are the
# only headers it can reach; a path in an #include would go around them.
# The installed headers are the public ones: no internal *_impl.h, no TAP.
# Then the map of docs/house.md (a room includes only the rooms below it, a
# paper only the papers its paper.def needs) and the size of the pieces.
B=${BUILD:-build}
echo "1..6"
paths=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src/*.[ch] check/*.[ch] system/*.[ch] model/*.[ch] model/*/*.[ch] papers/*/*.[ch] cli/*.[ch] cli/*/*.[ch] cli/*/*.[ch] 2>/dev/null)
[ -z "$paths" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 1 - no #include with a path in src/, check/, system/, model/, papers/, cli/"
[ -z "$paths" ] || echo "$paths" | sed 's/^/#   /'
internal=$(ls "$B/include/chartless" | grep -E '_impl\.h$|^tap')
[ -z "$internal" ] && [ -e "$B/include/chartless/chartless.h" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 2 - the staged public headers hold no internal header"
[ -z "$internal" ] || echo "$internal" | sed 's/^/#   /'
# cli/ (with its rooms grade/, sweep/, sim/) sees only the staged public headers
# and its own: none of its includes may name a header that exists only inside
# src/, check/, system/, model/ or papers/.
bad=""
for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' cli/*.[ch] cli/*/*.[ch] | sort -u); do
    [ -n "$(find cli -name "$h")" ] || [ -e "$B/include/chartless/$h" ] || bad="$bad $h"
done
[ -z "$bad" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 3 - cli/ includes only its own and the public headers"
[ -z "$bad" ] || echo "#   not public:$bad"
# The map of the house (docs/house.md): each room includes only headers of
# the rooms below it; a header found only in a room it may not see fails.
sees() {
    case $1 in
    src) echo src ;;
    check) echo src check ;;
    system) echo src check system ;;
    model/lang) echo src check system model/lang ;;
    model/kinds) echo src check system model/lang model/kinds ;;
    model/derive) echo src check system model/lang model/kinds model/derive ;;
    model/field) echo src check system model/lang model/kinds model/derive model/field ;;
    model/load) echo src check system model/lang model/kinds model/derive model/field model/load ;;
    model/certify) echo src check system model/lang model/kinds model/derive model/field model/load model/certify ;;
    model/rows) echo src check system model/lang model/kinds model/derive model/field model/load model/certify model/rows ;;
    papers/*) echo src check system model model/lang model/kinds model/derive model/field model/load model/certify model/rows "$1" \
                $(sed -n 's/^needs[[:space:]]*//p' "$1/paper.def" | sed 's|[^ ][^ ]*|papers/&|g') ;;
    cli) echo "$B/include/chartless" cli cli/grade cli/sweep cli/sim ;;
    cli/*) echo "$B/include/chartless" cli "$1" ;;
    esac
}
ROOMS="src check system model model/lang model/kinds model/derive model/field model/load model/certify model/rows $(ls -d papers/*/) cli cli/grade cli/sweep cli/sim"
upward=""
for room in src check system model/lang model/kinds model/derive model/field model/load model/certify model/rows $(ls -d papers/*/ | sed 's|/$||') cli cli/grade cli/sweep cli/sim; do
    allowed=$(sees "$room")
    for f in "$room"/*.[ch]; do
        [ -e "$f" ] || continue
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            ok=0; found=0
            for d in $allowed; do [ -e "$d/$h" ] && ok=1; done
            [ $ok = 1 ] && continue
            for d in $ROOMS; do [ -e "${d%/}/$h" ] && found=1; done
            [ $found = 1 ] && upward="$upward $f:$h"
        done
    done
done
[ -z "$upward" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 4 - every room includes only the rooms below it (docs/house.md)"
[ -z "$upward" ] || for u in $upward; do echo "#   upward: $u"; done
# The size of a room's pieces (docs/house.md): no source over 700 lines, no
# function over 100 (tools/long-functions reads the project's brace style).
DIRS="src check system model papers cli bench python fuzz tests tools"
long=$(find $DIRS -type f \( -name '*.[ch]' -o -name '*.py' -o -name '*.sh' \) -exec wc -l {} + | awk '$2 != "total" && $1 > 700 {print $2 " " $1}')
[ -z "$long" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 5 - no source file over 700 lines"
[ -z "$long" ] || echo "$long" | sed 's/^/#   /'
longf=$(tools/long-functions --max 100 $DIRS)
[ -z "$longf" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 6 - no function over 100 lines"
[ -z "$longf" ] || echo "$longf" | sed 's/^/#   /'

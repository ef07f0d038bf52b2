#!/bin/sh
# The layering of the tree (see the Makefile): each folder's sources include
# headers by name only, so the include paths the build gives a folder are the
# only headers it can reach; a path in an #include would go around them.
# The installed headers are the public ones: no internal *_impl.h, no TAP.
B=${BUILD:-build}
echo "1..3"
paths=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src/*.[ch] check/*.[ch] model/*.[ch] papers/*/*.[ch] cli/*.[ch] cli/*/*.[ch] 2>/dev/null)
[ -z "$paths" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 1 - no #include with a path in src/, check/, model/, papers/, cli/"
[ -z "$paths" ] || echo "$paths" | sed 's/^/#   /'
internal=$(ls "$B/include/chartless" | grep -E '_impl\.h$|^tap')
[ -z "$internal" ] && [ -e "$B/include/chartless/chartless.h" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 2 - the staged public headers hold no internal header"
[ -z "$internal" ] || echo "$internal" | sed 's/^/#   /'
# cli/ (with its rooms grade/, sweep/, sim/) sees only the staged public headers
# and its own: none of its includes may name a header that exists only inside
# src/, check/, model/ or papers/.
bad=""
for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' cli/*.[ch] cli/*/*.[ch] | sort -u); do
    [ -n "$(find cli -name "$h")" ] || [ -e "$B/include/chartless/$h" ] || bad="$bad $h"
done
[ -z "$bad" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 3 - cli/ includes only its own and the public headers"
[ -z "$bad" ] || echo "#   not public:$bad"

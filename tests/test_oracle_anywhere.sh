#!/bin/sh
# The oracle from any folder: the rows that use the shipped models
# (s2.model.*, emb.model.*, skate.model.skate.*) read the texts embedded in the library, not
# models/ under the current folder; $CHARTLESS_MODELS, when set, names the
# folder to read them from instead, and a folder without them is said in the
# row (cannot open FILE (reason)). A missing model file given by the user is
# refused with its reason. (The installed command's whole quick oracle run
# from an unrelated folder is in tests/test_install.sh.)
. tests/tap.sh
top=$(pwd)
case $C in /*) ;; *) C="$top/$C" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-anywhere.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "1..4"
rows='s2.model.*,emb.model.*,skate.model.skate.*'
nrows=$(cd "$T" && "$C" oracle --check "$rows" --list | wc -l)
out=$(cd "$T" && "$C" oracle --check "$rows" -j 2 2>&1); st=$?
[ $st = 0 ] && [ "$nrows" -ge 7 ] && echo "$out" | grep -q "^$nrows passed, 0 failed"
t $? "from a folder without models/: the $nrows rows of the shipped models pass (exit $st)"
[ $st = 0 ] || echo "$out" | sed 's/^/# /'
out=$(cd "$T" && CHARTLESS_MODELS="$top/models" "$C" oracle --check "$rows" -j 2 2>&1); st=$?
[ $st = 0 ] && echo "$out" | grep -q "^$nrows passed, 0 failed"
t $? "CHARTLESS_MODELS=models/ of the tree: the same rows pass from the files (exit $st)"
out=$(cd "$T" && CHARTLESS_MODELS="$T/none" "$C" oracle --check 's2.model.chain2.rhs' --bits 53 2>&1); st=$?
[ $st = 1 ] && echo "$out" | grep -qF "cannot open $T/none/chain2.model (No such file or directory)"
t $? "CHARTLESS_MODELS naming a folder without the models: the row fails and says which file and why (exit $st)"
out=$(cd "$T" && "$C" simulate --model missing.model --t 1 2>"$T/err"); st=$?
[ $st = 2 ] && [ -z "$out" ] && [ "$(cat "$T/err")" = "error: cannot open missing.model (No such file or directory)" ]
t $? "a missing model file: error: cannot open FILE (reason), exit 2 ($(head -1 "$T/err"))"

#!/bin/sh
# The Python package (python/chartless) under pytest with Debian's python3,
# against the library and the command of this build; each pytest test is a
# TAP line.
. tests/tap.sh
PY=${PYTHON:-python3}
if ! "$PY" -c 'import pytest, numpy' 2>/dev/null; then
    echo "1..1"; t 1 "pytest and numpy for $PY (make check installs python3-pytest and python3-numpy)"; exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CHARTLESS_LIBRARY=$PWD/$B/libchartless_python.so CHARTLESS=$PWD/$C PYTHONPATH=$PWD/python \
    "$PY" -m pytest -q -rA -p no:cacheprovider python/tests > "$T/out" 2>&1
status=$?
grep -E '^(PASSED|FAILED|ERROR|SKIPPED) ' "$T/out" > "$T/lines"
echo "1..$(($(wc -l < "$T/lines") + 1))"
while read -r verdict name rest; do
    if [ "$verdict" = SKIPPED ]; then skip "$name $rest"; continue; fi
    [ "$verdict" = PASSED ]; t $? "$name"
done < "$T/lines"
[ $status = 0 ] || sed 's/^/# /' "$T/out" | tail -60
[ $status = 0 ]; t $? "pytest python/tests exits 0"

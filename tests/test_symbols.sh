#!/bin/sh
# Every numeric routine of libchartless exists in both instantiations:
# for each exported cl_*_d there is a cl_*_mp and the other way round.
B=${BUILD:-build}
L="$B/libchartless.a"
syms=$(nm -g --defined-only "$L" 2>/dev/null | awk '$2 == "T" && $3 ~ /^cl_/ {print $3}' | sort -u)
d=$(echo "$syms" | sed -n 's/_d$//p' | sort -u)
mp=$(echo "$syms" | sed -n 's/_mp$//p' | sort -u)
echo "1..3"
nd=$(echo "$d" | grep -c .)
[ "$nd" -gt 50 ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 1 - $nd double routines exported"
only_d=$(comm -23 "$(printf '%s\n' "$d" > "${TMPDIR:-/tmp}/cl_d.$$"; echo "${TMPDIR:-/tmp}/cl_d.$$")" "$(printf '%s\n' "$mp" > "${TMPDIR:-/tmp}/cl_mp.$$"; echo "${TMPDIR:-/tmp}/cl_mp.$$")")
only_mp=$(comm -13 "${TMPDIR:-/tmp}/cl_d.$$" "${TMPDIR:-/tmp}/cl_mp.$$")
rm -f "${TMPDIR:-/tmp}/cl_d.$$" "${TMPDIR:-/tmp}/cl_mp.$$"
[ -z "$only_d" ]; echo "$([ $? = 0 ] || echo 'not ')ok 2 - every _d routine has its _mp twin"
for s in $only_d; do echo "#   missing ${s}_mp"; done
[ -z "$only_mp" ]; echo "$([ $? = 0 ] || echo 'not ')ok 3 - every _mp routine has its _d twin"
for s in $only_mp; do echo "#   missing ${s}_d"; done

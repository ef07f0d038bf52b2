#!/bin/sh
# Command-line conventions: help, exit statuses, error messages, JSON output.
# Bad input: exit 2, nothing on stdout, one line "error: <what> (<argument>)" on stderr.
. tests/tap.sh
bad() {
    input=$1; shift
    out=$(printf '%s\n' "$input" | "$C" "$@" 2>"${TMPDIR:-/tmp}/cl-err-$$")
    st=$?
    err=$(cat "${TMPDIR:-/tmp}/cl-err-$$"); rm -f "${TMPDIR:-/tmp}/cl-err-$$"
    [ $st = 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | head -1 | grep -q '^error: .* (.*)$'
    t $? "bad input exits 2 with error: <what> (<argument>): $*"
}
echo "1..32"
"$C" --help >/dev/null 2>&1; t $? "chartless --help exits 0"
"$C" frobnicate >/dev/null 2>&1; [ $? = 2 ]; t $? "an unknown command exits 2"
msg=$("$C" frobnicate 2>&1 >/dev/null); [ "$msg" = "error: unknown command (frobnicate); no command is near that name (chartless --help lists them)" ]; t $? "the error names the argument"
"$C" oracle --help | grep -q 'precision ladder'; t $? "oracle --help describes the ladder"
"$C" oracle --bits 53,1 >/dev/null 2>&1; [ $? = 2 ]; t $? "oracle --bits 53,1 (precision 1 is out of range) exits 2"
"$C" oracle --bits 113,53 >/dev/null 2>&1; [ $? = 2 ]; t $? "oracle --bits must increase"
"$C" oracle --format xml >/dev/null 2>&1; [ $? = 2 ]; t $? "oracle --format xml exits 2"
if command -v python3 >/dev/null 2>&1; then
    "$C" oracle --check 'core.*' --bits 53,113 --format json > "${TMPDIR:-/tmp}/cl-oracle-$$.json"
    tools/validate-json docs/oracle.schema.json < "${TMPDIR:-/tmp}/cl-oracle-$$.json" &&
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["passed"] + d["failed"] == len(d["checks"]) > 0
assert all([r["bits"] for r in c["rungs"]] == [53, 113] for c in d["checks"])
' "${TMPDIR:-/tmp}/cl-oracle-$$.json"
    t $? "oracle --format json validates against docs/oracle.schema.json"
    rm -f "${TMPDIR:-/tmp}/cl-oracle-$$.json"
else
    n=$((n + 1)); echo "ok $n # SKIP python3 not installed"
fi
S1="0 0 -1 1 0 0"
bad "" oracle --bogus
bad "" oracle --bits
bad "" oracle -j
bad "" oracle --bits 53,,113
bad "" oracle --jobs 0
bad "" oracle --check 'no.such.check'
bad "" oracle extra
bad "" systems --bogus
bad "" systems no-such-system
bad "" systems chain extra
bad "" grade --system chain --form qdot --states 4294967297 x.so
bad "" grade --system chain --form qdot --seed -1 x.so
bad "" grade --system chain --form qdot --timeout inf x.so
bad "" grade --system chain --form qdot --n 1 --n 2 x.so
bad "" grade --system chain --form qdot /nonexistent/student.so
bad "" grade --system chain --form qdot --bits 1 x.so
bad "$S1" simulate --system chain --stages 99
bad "$S1" simulate --system chain --t -1
bad "$S1" simulate --system chain --out /nonexistent/dir/x.csv
bad "$S1" simulate --system chain --integrator euler
bad "$S1" simulate --system chain --t 0.1 --plot "${TMPDIR:-/tmp}/it's.png"
# A state with the ~19730 digits a number carries at 65536 bits is read whole.
third="0.$(head -c 19000 /dev/zero | tr '\0' 3)"
echo "0 0 -1 $third 0 0" | "$C" rhs --system chain --n 1 --bits 65536 > /dev/null 2>&1; t $? "rhs at 65536 bits reads a 19000-digit velocity"
echo "0 0 -1 1 0 0" | "$C" rhs --system chain --g 9.81 --g 1 > /dev/null 2>&1; [ $? = 2 ]; t $? "rhs: a parameter given twice is refused (exit 2)"
# A parameter of any length is read whole at the working precision: a 600-digit
# integer g is exact at 2000 bits, and qddot = (0, 0, -g) at q = e1 at rest.
g="1$(head -c 598 /dev/zero | tr '\0' 7)9"
z=$(echo "1 0 0 0 0 0" | "$C" rhs --system chain --n 1 --bits 2000 --g "$g" | tail -1 | awk '{print $3}')
[ "$z" = "-$g" ]; t $? "rhs at 2000 bits uses a 600-digit --g exactly"

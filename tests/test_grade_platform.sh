#!/bin/sh
# chartless grade for the course platforms (--format json, gradescope,
# prairielearn, each validated against its schema) and the grading defects
# a new user hit: the time limit spent twice, hint labels that are not the
# field file's names and print -0, a C file or a wrong function name given
# without a word on what to do.
. tests/tap.sh
PY=${PYTHON:-python3}
E=docs/examples
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..17"
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')
for f in pendulum_qdot_correct pendulum_qdot_no_projection endless; do
    $SCC -shared -fPIC -O1 -Isrc -o "$T/$f.so" "$E/$f.c" -lm || echo "# cannot compile $f"
done
P1="--system chain --n 1 --m 1 --l 1.5 --g 9.81 --form qdot"
GS=assignments/schemas/gradescope-results.schema.json
PL=assignments/schemas/prairielearn-results.schema.json

# a hanging student that leaves a directory (files it may not write) each time it is started
cat > "$T/endless_count.c" <<'STUDENT'
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cl_student.h"
int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
    static int started;
    char path[4096];
    if (!started++) {
        snprintf(path, sizeof path, "%s/%ld", getenv("CL_TEST_STARTS"), (long)getpid());
        mkdir(path, 0700);
    }
    volatile int spin = 1;
    while (spin) dx[0] = x[0] * p->g;
    return 0;
}
STUDENT
$SCC -shared -fPIC -O1 -Isrc -o "$T/endless_count.so" "$T/endless_count.c" || echo "# cannot compile endless_count.c"
mkdir "$T/starts"
CL_TEST_STARTS="$T/starts" "$C" grade $P1 --timeout 2 "$T/endless_count.so" > "$T/out" 2>&1
! grep -q '^at random parameters' "$T/out" && grep -q 'not graded at random parameters: the student.s code ran out of time' "$T/out"
t $? "a hanging student is not run again at random parameters"
n=$(ls "$T/starts" | wc -l); [ "$n" = 1 ]; t $? "... it was started once, so --timeout 2 is spent once ($n start(s))"

"$C" grade $P1 "$T/pendulum_qdot_no_projection.so" > "$T/out" 2>&1
grep -q "^hint: q1'' at state 21: student (0, 0, -6.54), reference (0, 0, 0)" "$T/out"
t $? "the hint names the block as the field file does (q1'') and prints no -0"
! grep -q 'hint: qdot\|(-0,\| -0,\| -0)' "$T/out"; t $? "... nowhere"

"$C" grade $P1 "$E/crash.c" > "$T/out" 2> "$T/err"; st=$?
[ $st = 2 ] && grep -q 'not a shared object; a C file is compiled first: cc -shared -fPIC -o f.so f.c' "$T/err" && [ ! -s "$T/out" ]
t $? "a C file given to grade says how to compile it (exit 2, nothing on stdout)"
"$C" grade --system chain --n 1 --form omega "$T/pendulum_qdot_correct.so" > /dev/null 2> "$T/err"; st=$?
[ $st = 2 ] && grep -q 'does not define the function cl_student_chain_omega; it defines cl_student_chain_qdot' "$T/err"
t $? "a wrong function name lists the cl_student_* functions the object defines"

# Gradescope: full score for a correct solution, a score per component for a wrong one.
"$C" grade $P1 --format gradescope "$T/pendulum_qdot_correct.so" > "$T/gs1.json"; st=$?
[ $st = 0 ] && "$PY" tools/validate-json $GS < "$T/gs1.json"; t $? "gradescope: a correct solution's results.json follows the schema"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"]; assert len(t) == 14 and d["score"] == sum(x["max_score"] for x in t) == 14' "$T/gs1.json"
t $? "... full score, a test per component and per parameter set"
"$C" grade $P1 --format gradescope "$T/pendulum_qdot_no_projection.so" > "$T/gs2.json"; st=$?
[ $st = 1 ] && "$PY" tools/validate-json $GS < "$T/gs2.json"; t $? "gradescope: a wrong solution's results.json follows the schema (exit 1)"
"$PY" -c '
import json,sys
d=json.load(open(sys.argv[1])); s={x["name"]: x for x in d["tests"]}
assert s["q1.x (given parameters)"]["status"] == "passed" and s["qdot1.x (given parameters)"]["status"] == "failed"
assert "missing projection" in s["qdot1.z (random parameters)"]["output"]
assert d["score"] == sum(x["score"] for x in d["tests"]) == 8' "$T/gs2.json"
t $? "... partial score: the positions pass, the velocities fail with the hint"

# PrairieLearn: score in [0, 1]; a submission that cannot be loaded is not gradable.
"$C" grade $P1 --format prairielearn "$T/pendulum_qdot_correct.so" > "$T/pl1.json"
"$PY" tools/validate-json $PL < "$T/pl1.json" && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["gradable"] and d["score"] == 1' "$T/pl1.json"
t $? "prairielearn: a correct solution scores 1"
"$C" grade $P1 --format prairielearn "$T/pendulum_qdot_no_projection.so" > "$T/pl2.json"
"$PY" tools/validate-json $PL < "$T/pl2.json" && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["gradable"] and d["score"] == 8 / 14, d["score"]' "$T/pl2.json"
t $? "prairielearn: a wrong one scores the share of its tests, 8/14"
"$C" grade $P1 --format prairielearn "$E/crash.c" > "$T/pl3.json"; st=$?
[ $st = 1 ] && "$PY" tools/validate-json $PL < "$T/pl3.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["gradable"] is False and "cc -shared" in d["format_errors"][0] and "score" not in d' "$T/pl3.json"
t $? "prairielearn: a C file is not gradable, with the message in format_errors"

# The tool's own JSON.
"$C" grade $P1 --format json "$T/pendulum_qdot_no_projection.so" > "$T/j.json"
"$PY" tools/validate-json docs/grade.schema.json < "$T/j.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); c=d["parts"][0]["components"]
assert not d["passed"] and [x["verdict"] for x in c] == ["rounding"] * 3 + ["wrong"] * 3 and len(d["parts"]) == 2' "$T/j.json"
t $? "json: follows docs/grade.schema.json, a verdict per component"
"$C" grade $P1 --timeout 1 --format json "$T/endless.so" > "$T/j.json"
"$PY" tools/validate-json docs/grade.schema.json < "$T/j.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["parts"][0]["ended"] == "timed out" and d["skipped"] and len(d["parts"]) == 1' "$T/j.json"
t $? "json: a timeout is a verdict, the random parameters skipped"

# Values computed outside the grader (the Python package's route).
printf 'chartless-values 1\ninstance 0\nstate 2 0 1 2 3\n' > "$T/bad.values"
"$C" grade $P1 --values "$T/bad.values" > "$T/out" 2> "$T/err"; st=$?
[ $st = 2 ] && grep -q 'not a values file' "$T/err" && [ ! -s "$T/out" ]; t $? "a malformed values file is bad input"
"$C" grade $P1 --format xml "$T/pendulum_qdot_correct.so" > /dev/null 2> "$T/err"; [ $? = 2 ] && grep -q 'text, json, gradescope or prairielearn' "$T/err"
t $? "an unknown --format is bad input and lists the formats"

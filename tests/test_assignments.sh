#!/bin/sh
# assignments/: Gradescope's run_autograder and PrairieLearn's entrypoint on
# the first assignment, each in a scratch folder laid out as its platform
# lays it out (/autograder/{source,submission,results}, /grade/{student,
# tests,serverFilesCourse,results}), on the solution, on the solution with
# the assignment's planted mistake and on a file that does not compile; the
# results validated against the schema each platform documents.
. tests/tap.sh
PY=${PYTHON:-python3}
A=assignments
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..9"
export CHARTLESS="$PWD/$C" CHARTLESS_INCLUDE="$PWD/src"
GS=$A/schemas/gradescope-results.schema.json
PL=$A/schemas/prairielearn-results.schema.json
cp $A/first_assignment/solution/chain_pi.c "$T/right.c"
{ echo '#define WRONG_GRAVITY'; cat $A/first_assignment/solution/chain_pi.c; } > "$T/wrong.c"
printf 'int cl_student_chain_pi(double *dx, const double *x, const void *p) { return 0 }\n' > "$T/broken.c"

# Gradescope: the zip's files in source/, run_autograder beside it.
gradescope() { # SUBMISSION -> $T/gs/results/results.json
    rm -rf "$T/gs" && mkdir -p "$T/gs/source" "$T/gs/submission" "$T/gs/results"
    cp -r $A/gradescope/* $A/first_assignment "$T/gs/source/" && cp $A/gradescope/run_autograder "$T/gs/"
    cp "$1" "$T/gs/submission/student.c"
    (cd "$T/gs" && AUTOGRADER_ROOT="$T/gs" ./run_autograder) > "$T/gs/results/stdout" 2>&1
}
gradescope "$T/right.c"
"$PY" tools/validate-json $GS < "$T/gs/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"]
assert len(t) == 26 and d["score"] == 26 and all(x["status"] == "passed" for x in t)' "$T/gs/results/results.json"
t $? "gradescope: the solution gets the full score, a test per component and parameter set"
gradescope "$T/wrong.c"
"$PY" tools/validate-json $GS < "$T/gs/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); s={x["name"]: x["status"] for x in d["tests"]}
wrong = sorted(n for n, v in s.items() if v == "failed")
want = sorted("%s (%s parameters)" % (c, p) for c in ("pi1.x", "pi1.y", "pi2.x", "pi2.y") for p in ("given", "random"))
assert wrong == want and d["score"] == 26 - 8, (wrong, d["score"])' "$T/gs/results/results.json"
t $? "gradescope: the planted mistake loses exactly the horizontal components of pi-dot, at both parameter sets"
grep -q "hint: pi1' at state 15" "$T/gs/results/results.json"; t $? "... and the output carries the hint"
gradescope "$T/broken.c"
"$PY" tools/validate-json $GS < "$T/gs/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["score"] == 0 and "does not compile" in d["output"]' "$T/gs/results/results.json"
t $? "gradescope: a file that does not compile scores 0 with the compiler's messages"

# PrairieLearn: the question's tests/ and the course's serverFilesCourse/chartless.
prairielearn() { # SUBMISSION -> $T/pl/results/results.json
    rm -rf "$T/pl" && mkdir -p "$T/pl/student" "$T/pl/serverFilesCourse/chartless" "$T/pl/data"
    cp -r $A/prairielearn/questions/chartless_first_assignment/tests "$T/pl/"
    cp $A/first_assignment/grade.sh "$T/pl/serverFilesCourse/chartless/"
    cp "$1" "$T/pl/student/student.c"
    GRADE_ROOT="$T/pl" "$T/pl/tests/run.sh" > "$T/pl/stdout" 2>&1
}
prairielearn "$T/right.c"
"$PY" tools/validate-json $PL < "$T/pl/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["gradable"] and d["score"] == 1' "$T/pl/results/results.json"
t $? "prairielearn: the solution scores 1"
prairielearn "$T/wrong.c"
"$PY" tools/validate-json $PL < "$T/pl/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); p={x["name"]: x["points"] for x in d["tests"]}
assert d["gradable"] and d["score"] == 18 / 26 and p["pi2.y (random parameters)"] == 0 and p["q1.x (given parameters)"] == 1' "$T/pl/results/results.json"
t $? "prairielearn: the planted mistake scores 18/26, per component"
prairielearn "$T/broken.c"
"$PY" tools/validate-json $PL < "$T/pl/results/results.json" && "$PY" -c '
import json,sys; d=json.load(open(sys.argv[1])); assert d["gradable"] is False and "does not compile" in d["format_errors"][0]' "$T/pl/results/results.json"
t $? "prairielearn: a file that does not compile is not gradable (no attempt lost), with format_errors"
rm "$T/pl/student/student.c" 2>/dev/null; GRADE_ROOT="$T/pl" "$T/pl/tests/run.sh" > /dev/null 2>&1
"$PY" tools/validate-json $PL < "$T/pl/results/results.json" && grep -q 'no C file was submitted' "$T/pl/results/results.json"
t $? "prairielearn: no file submitted is not gradable either"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["externalGradingOptions"]; assert d["gradingMethod"] == "External" and o["enabled"] and o["entrypoint"] == "/grade/tests/run.sh"' \
    $A/prairielearn/questions/chartless_first_assignment/info.json
t $? "prairielearn: the question's info.json enables external grading with the entrypoint the test ran"

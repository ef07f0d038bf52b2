#!/bin/sh
# The first assignment's grading, for every platform (docs/first_assignment.md):
#   grade.sh FORMAT SUBMISSION.c RESULTS.json
# compiles the student's C file into a shared object and grades
# cl_student_chain_pi with `chartless grade --format FORMAT` (gradescope or
# prairielearn), writing the platform's results file. A file that does not
# compile is the platform's "cannot be graded" (Gradescope: score 0 with the
# compiler's messages; PrairieLearn: gradable false with format_errors).
# CHARTLESS (the command) and CHARTLESS_INCLUDE (the folder of cl_student.h)
# default to the installed ones.
format=$1 src=$2 out=$3
C=${CHARTLESS:-chartless}
INC=${CHARTLESS_INCLUDE:-$(pkg-config --variable=includedir chartless 2>/dev/null || echo /usr/local/include)/chartless}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p "$(dirname "$out")"

# The platform's document for a submission that cannot be graded, the message on stdin.
not_gradable() {
    "${PYTHON:-python3}" -c '
import json, sys
msg = sys.stdin.read()
doc = {"score": 0, "output": msg, "visibility": "visible", "tests": []} if sys.argv[1] == "gradescope" \
    else {"gradable": False, "format_errors": [msg], "message": msg}
json.dump(doc, sys.stdout, indent=2)' "$format" > "$out"
}

if [ -z "$src" ] || [ ! -f "$src" ]; then
    echo "no C file was submitted: submit student.c defining cl_student_chain_pi" | not_gradable
    exit 0
fi
if ! cc -shared -fPIC -O2 -Wall -I"$INC" -o "$W/student.so" "$src" -lm > "$W/cc.log" 2>&1; then
    { echo "student.c does not compile:"; cat "$W/cc.log"; } | not_gradable
    exit 0
fi
"$C" grade --system chain --n 2 --m 1,2 --l 1,0.5 --g 9.81 --form pi --timeout 10 --format "$format" \
    "$W/student.so" > "$out.tmp" 2> "$W/err"
status=$?
if [ $status -le 1 ]; then mv "$out.tmp" "$out"; exit 0; fi
{ echo "the grader refused the submission:"; cat "$W/err"; } | not_gradable
rm -f "$out.tmp"

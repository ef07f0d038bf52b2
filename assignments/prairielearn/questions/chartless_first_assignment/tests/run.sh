#!/bin/sh
# PrairieLearn's entrypoint (docs/externalGrading.md): the student's file is
# /grade/student/student.c, the results go to /grade/results/results.json,
# the shared grading script is in /grade/serverFilesCourse/chartless.
# GRADE_ROOT relocates /grade (tests/test_assignments.sh).
G=${GRADE_ROOT:-/grade}
exec sh "$G/serverFilesCourse/chartless/grade.sh" prairielearn "$G/student/student.c" "$G/results/results.json"

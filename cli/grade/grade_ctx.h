/**
 * \file grade_ctx.h
 * \brief The state of `chartless grade` at one parameter set, shared by the
 *        grader (cmd_grade.c), the field-file route (grade_field.c) and the
 *        report of how the student's code ended (grade_sandbox_report.c).
 */
#ifndef CL_GRADE_CTX_H
#define CL_GRADE_CTX_H
#include <stdio.h>
#include "chartless_base.h"
#include "cl_student.h"
#include "system.h"
#include "field.h"
#include "sandbox.h"
#include "grade_report.h"
#include "grade_student.h"

/* A discrepancy at or below this relative size is taken for rounding. */
#define GRADE_LOG2_TOL (-40.0)

typedef struct grade_ctx {
    const cl_system *sys;
    void *inst;
    int form;
    size_t dim;
    int nstates;
    double *x;        /* nstates × dim, the states as the student sees them */
    char (*label)[48];
    cl_student_params par;
    const cl_field *field;   /* a field file instead of a shared object */
    const cl_model *model;   /* its model */
    mpfr_srcptr fpar;        /* the field's parameters, in the model's order */
    FILE *out;               /* where the report of this parameter set goes */
    grade_report *rep;
    const grade_values *values; /* values computed outside the grader (--values) */
    int instance;            /* 0: the given parameters, 1: the random ones */
    int timed_out;           /* the student's code ran out of time */
} grade_ctx;

/** The name of state component \p i (the system's, else x[i]). */
void grade_component_name(const grade_ctx *gc, size_t i, char *buf, size_t len);
/** Largest error at a state relative to max(1, max|reference|), as the report measures it. */
double grade_state_error(const double *s, const double *r, size_t dim);
/** The field file's values at the states, rounded to doubles; rc[k] = 1 and (*why)[k] where it is not defined. 0 or CL_ENOMEM. */
int grade_field_values(const grade_ctx *gc, cl_prec_t bits, double *stu, int *rc, char ***why);
/** For a wrong field file: the one sign whose change makes every state agree, printed as a hint. */
void grade_field_sign_hint(const grade_ctx *gc, const double *stu, const double *ref, cl_prec_t bits);
/** What ended the student's process, by name, printed; the verdict's suffix (NULL when it ran to the end). */
const char *grade_report_sandbox(const grade_ctx *gc, const cl_sandbox_result *sb, double timeout, size_t dim);
#endif

/**
 * \file grade_student.h
 * \brief What `chartless grade` hands a student's code and takes back from
 *        it: the parameters as doubles, the random parameter draw, and, for
 *        code that runs outside the grader (the Python package's
 *        chartless.grade), the states written out (--emit-states) and the
 *        values read back (--values FILE).
 *
 * A values file is text, one record per line:
 *
 *     chartless-values 1
 *     name my_field (Python)           how the report names the submission
 *     instance 0                       0: the given parameters, 1: the random ones
 *     end OUTCOME STATE SIGNAL STATUS  how the student's code ended (sandbox.h);
 *                                      OUTCOME done crash exit timeout forbidden exception memory
 *     message TEXT                     what it raised, with `end exception`
 *     output HEX                       what it printed, hex-encoded
 *     state K RC V1 ... Vdim           the values at state K (1, 2, ... in order), %a or %.17g
 */
#ifndef CL_GRADE_STUDENT_H
#define CL_GRADE_STUDENT_H
#include <stdio.h>
#include "cl_student.h"
#include "system.h"
#include "sandbox.h"

/** Every number of the parameters reaches the student finite and not rounded to zero: 0, or exit status 2 (message printed). */
int grade_student_doubles(const cl_params *p);
/** The student's copy of the parameters (free *m, *l, *extra); 0 or CL_ENOMEM. */
int grade_student_params(const cl_params *p, cl_student_params *sp, double **m, double **l, double **extra);
/** The parameters with each scalar and per-body number scaled by its own factor in [1/2, 3/2), a zero (when \p zeros) drawn from ±[1/8, 3/8) within its constraint; the options into \p shown. 0, or -1. */
int grade_perturbed_params(const cl_params *p, cl_rng *rng, long bits, int zeros, cl_params *out, char *shown, size_t len);
/** One instance as JSON: the parameters by name (doubles), the states and their labels. */
void grade_emit_instance(FILE *f, int first, const char *title, const cl_params *p, const double *x, const char (*label)[48],
                         int nstates, size_t dim);

/** One instance of a values file. */
typedef struct grade_values_part {
    int present;
    cl_sandbox_result sb;
    int nrows;
    int *rc;
    double *v;        /**< nrows × dim */
    size_t dim;
} grade_values_part;

typedef struct grade_values {
    char name[128];
    grade_values_part part[2];
} grade_values;

/** Read a values file; 0, or exit status 2 with the message printed. */
int grade_values_load(grade_values *gv, const char *path);
void grade_values_free(grade_values *gv);
/** Instance \p i's values as the sandbox would give them; 0, or exit status 2 (message printed) when they do not fit. */
int grade_values_fill(const grade_values *gv, int i, size_t dim, int nstates, double *dx, int *rc, cl_sandbox_result *sb);
#endif

/**
 * \file verdict.c
 * \brief How the oracle judges a check across the precision ladder.
 *
 * At each rung p the tolerance is cond·2^(1−p): the unit roundoff of the
 * working precision times the check's condition factor, which the check
 * states with its reason (how many operations accumulate, how ill
 * conditioned the compared quantity is). Then:
 *  - some rung has a run-time error: *error*;
 *  - some rung exceeds its tolerance: *mismatch*. The note says whether the
 *    discrepancy still shrank with precision (the stated condition factor
 *    is too small) or stayed put (the two computations do not describe the
 *    same thing: a wrong equation);
 *  - every rung is within tolerance and some discrepancy is non-zero:
 *    *rounding* — the discrepancy follows 2^−p down the ladder;
 *  - every discrepancy is exactly zero, or the check is a yes/no agreement
 *    (CL_CHECK_EXACT) that agreed: *pass*.
 * Only *mismatch* and *error* fail.
 */
#include <math.h>
#include "check.h"

const char *cl_verdict_name(enum cl_verdict v)
{
    switch (v) {
    case CL_V_ROUNDING: return "rounding";
    case CL_V_PASS: return "pass";
    case CL_V_MISMATCH: return "mismatch";
    default: return "error";
    }
}

enum cl_verdict cl_oracle_verdict(const cl_check *c, int n, const long *bits,
                                  const double *log2_err, const int *status)
{
    int nonzero = 0;
    for (int k = 0; k < n; k++)
        if (status[k]) return CL_V_ERROR;
    for (int k = 0; k < n; k++) {
        double tol = c->kind == CL_CHECK_EXACT ? -INFINITY : log2(c->cond) + 1.0 - (double)bits[k];
        if (isnan(log2_err[k]) || log2_err[k] > tol) return CL_V_MISMATCH;
        if (log2_err[k] > -INFINITY) nonzero = 1;
    }
    return (nonzero && c->kind == CL_CHECK_ROUNDING) ? CL_V_ROUNDING : CL_V_PASS;
}

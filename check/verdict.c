/**
 * \file verdict.c
 * \brief How the oracle judges a check across the precision ladder.
 *
 * At each rung p the tolerance is cond·2^(1−p): the unit roundoff of the
 * working precision times the check's condition factor, which the check
 * states with its reason (how many operations accumulate, how ill
 * conditioned the compared quantity is). Then:
 *  - some rung could not draw a state inside the domain of the formula
 *    (CL_EUNDEFINED: a formula with a domain the random states do not
 *    reach, a degenerate Lagrangian): *undefined*, neither a pass nor a
 *    mismatch (`chartless oracle` exits 2);
 *  - some rung has a run-time error: *error*;
 *  - some rung exceeds its tolerance: *mismatch*. The note says whether the
 *    discrepancy still shrank with precision (the stated condition factor
 *    is too small) or stayed put (the two computations do not describe the
 *    same thing: a wrong equation);
 *  - every rung is within tolerance and some discrepancy is non-zero:
 *    *rounding* — the discrepancy follows 2^−p down the ladder;
 *  - every discrepancy is exactly zero, or the check is a yes/no agreement
 *    (CL_CHECK_EXACT) that agreed: *pass*.
 * Only *mismatch* and *error* fail; *undefined* says the check has no answer.
 *
 * cl_ladder_compare() applies the same rules to a user's comparison
 * function, for programs that check their own derivations.
 */
#include <math.h>
#include <string.h>
#include "check.h"

const char *cl_verdict_name(enum cl_verdict v)
{
    switch (v) {
    case CL_V_ROUNDING: return "rounding";
    case CL_V_PASS: return "pass";
    case CL_V_MISMATCH: return "mismatch";
    case CL_V_UNDEFINED: return "undefined";
    default: return "error";
    }
}

enum cl_verdict cl_check_verdict(const cl_check *c, int n, const long *bits,
                                  const double *log2_err, const int *status)
{
    int nonzero = 0;
    for (int k = 0; k < n; k++)
        if (status[k] == CL_EUNDEFINED) return CL_V_UNDEFINED;
    for (int k = 0; k < n; k++)
        if (status[k]) return CL_V_ERROR;
    for (int k = 0; k < n; k++) {
        double tol = c->kind == CL_CHECK_EXACT ? -INFINITY : log2(c->cond) + 1.0 - (double)bits[k];
        if (isnan(log2_err[k]) || log2_err[k] > tol) return CL_V_MISMATCH;
        if (log2_err[k] > -INFINITY) nonzero = 1;
    }
    return (nonzero && c->kind == CL_CHECK_ROUNDING) ? CL_V_ROUNDING : CL_V_PASS;
}

enum cl_verdict cl_ladder_compare(cl_ladder_fn fn, void *ctx, double cond, int n, const long *bits, cl_ladder_result *res)
{
    static const long ladder[] = {53, 113, 256, 1024};
    cl_ladder_result own;
    cl_ladder_result *r = res ? res : &own;
    if (!bits || n == 0) {
        bits = ladder;
        n = 4;
    }
    memset(r, 0, sizeof *r);
    int bad = !(cond >= 1 && cond < INFINITY) || n < 0 || n > CL_LADDER_MAX;
    for (int k = 0; k < n && !bad; k++) bad = bits[k] < MPFR_PREC_MIN || bits[k] > MPFR_PREC_MAX || (k && bits[k] <= bits[k - 1]);
    if (bad) {
        r->n = 1;
        r->status[0] = CL_EPARAM;
        r->log2_err[0] = NAN;
        r->digits[0] = NAN;
        return r->verdict = CL_V_ERROR;
    }
    const cl_check c = {.name = "user", .cond = cond, .kind = CL_CHECK_ROUNDING};
    r->n = n;
    mpfr_t err, l;
    mpfr_init2(err, MPFR_PREC_MIN);
    mpfr_init2(l, 53);
    for (int k = 0; k < n; k++) {
        mpfr_set_prec(err, (mpfr_prec_t)bits[k]);
        mpfr_set_zero(err, 1);
        r->bits[k] = bits[k];
        r->status[k] = fn(ctx, (cl_prec_t)bits[k], err);
        mpfr_abs(err, err, MPFR_RNDN);
        mpfr_log2(l, err, MPFR_RNDN); /* −inf for 0, NaN for NaN */
        r->log2_err[k] = mpfr_get_d(l, MPFR_RNDN);
        r->digits[k] = -r->log2_err[k] * log10(2.0);
        r->log2_tol[k] = cl_check_log2_tol(&c, bits[k]);
    }
    mpfr_clear(err);
    mpfr_clear(l);
    return r->verdict = cl_check_verdict(&c, n, r->bits, r->log2_err, r->status);
}

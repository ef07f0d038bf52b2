/**
 * \file tap_real.h
 * \brief TAP assertions on scalars of the current kind, with tolerances tied
 *        to the working precision.
 *
 * A templated test is compiled twice (test_X_d, test_X_mp). The MPFR copy
 * runs its body at each precision of TEST_PRECISIONS; so does a ball test
 * (tests/test_arb*.c, compiled once as test_X_arb).
 */
#ifndef CL_TAP_REAL_H
#define CL_TAP_REAL_H
#include "tap.h"
#include "scalar.h"

#if CL_PREC == CL_DOUBLE
static const cl_prec_t TEST_PRECISIONS[] = {53};
#else
static const cl_prec_t TEST_PRECISIONS[] = {64, 113, 256, 1024};
#endif
#define TEST_NPREC ((int)(sizeof TEST_PRECISIONS / sizeof TEST_PRECISIONS[0]))
/** Name of the scalar kind, for test names. */
#define TEST_KIND (CL_PREC == CL_DOUBLE ? "double" : CL_PREC == CL_ARB ? "arb" : "mpfr")

/** log2 of factor·2^(1−p): the tolerance of factor unit roundoffs at precision p. */
static inline double tol_log2(cl_prec_t p, double factor) { return log2(factor) + 1.0 - (double)p; }

/**
 * Passes when |got − want| ≤ factor·2^(1−p)·max(1, |want|), p = precision of got.
 */
static inline int is_real(rsrc got, rsrc want, double factor, const char *name)
{
    cl_prec_t p = r_prec(got);
    R_DECL(d, p);
    r_sub(d, got, want);
    double scale = r_log2abs(want);
    if (!(scale > 0)) scale = 0;
    double e = r_log2abs(d), t = tol_log2(p, factor) + scale;
    int r = ok(e <= t, "%s [%s, %ld bits]", name, TEST_KIND, (long)p);
    if (!r) diag("  got %.17g, want %.17g, |diff| 2^%.1f > tol 2^%.1f", r_get_d(got), r_get_d(want), e, t);
    return r;
}

/** Passes when |x| ≤ factor·2^(1−p) (p = precision of x). */
static inline int is_tiny(rsrc x, double factor, const char *name)
{
    cl_prec_t p = r_prec(x);
    double e = r_log2abs(x), t = tol_log2(p, factor);
    int r = ok(e <= t, "%s [%s, %ld bits]", name, TEST_KIND, (long)p);
    if (!r) diag("  |value| 2^%.1f > tol 2^%.1f (%.3g)", e, t, r_get_d(x));
    return r;
}
#endif

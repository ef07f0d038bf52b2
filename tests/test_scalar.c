/* Scalar layer: decimal input, exact rationals, log2 of special values and
   the vector helpers at their edges (n = 0, NaN, overflow, 2 and 65536 bits). */
#include <stdint.h>
#include "tap_real.h"

/* Precisions at the ends of the accepted range, besides TEST_PRECISIONS. */
#if CL_PREC == CL_DOUBLE
static const cl_prec_t EDGE_PRECISIONS[] = {53};
#else
static const cl_prec_t EDGE_PRECISIONS[] = {2, 3, 5, 65536};
#endif

/*
 * r_set_q against num/den rounded once: the quotient at 1024 bits is exact
 * when it is a tie (a dyadic rational with few bits) and otherwise lies
 * strictly between two p-bit neighbours, far from their midpoint for every
 * num, den ≤ 200, so rounding it to p bits is the correctly rounded value.
 */
static void set_q_rounds_once(cl_prec_t p)
{
    R_DECL(got, p); R_DECL(want, p);
    mpfr_t wide;
    mpfr_init2(wide, 1024);
    int bad = 0;
    long where_num = 0, where_den = 0;
    for (long num = -200; num <= 200; num++)
        for (long den = 1; den <= 200; den++) {
            r_set_q(got, num, den);
            mpfr_set_si(wide, num, MPFR_RNDN);
            mpfr_div_si(wide, wide, den, MPFR_RNDN);
#if CL_PREC == CL_DOUBLE
            *want = mpfr_get_d(wide, MPFR_RNDN);
#else
            mpfr_set(want, wide, MPFR_RNDN);
#endif
            if (r_cmp(got, want) != 0 && !bad++) { where_num = num; where_den = den; }
        }
    mpfr_clear(wide);
    ok(bad == 0, "r_set_q(num, den) is num/den rounded once, |num|, den <= 200 [%s, %ld bits]", TEST_KIND, (long)p);
    if (bad) diag("  %d quotients differ, the first %ld/%ld", bad, where_num, where_den);
}

static void from_str(cl_prec_t p)
{
    R_DECL(r, p); R_DECL(w, p);
    ok(CL_FN(cl_real_from_str)(r, "abc") == CL_EPARSE, "'abc' is CL_EPARSE [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_real_from_str)(r, "") == CL_EPARSE, "'' is CL_EPARSE [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_real_from_str)(r, "1.5x") == CL_EPARSE, "'1.5x' is CL_EPARSE [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_real_from_str)(r, "nan") == CL_ENAN, "'nan' is CL_ENAN [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_real_from_str)(r, "-@inf@") == CL_ENAN, "'-@inf@' is CL_ENAN [%s, %ld bits]", TEST_KIND, (long)p);
    /* 0.1 at p bits: 1/10 rounded once, the same as r_set_q(1, 10). */
    r_set_q(w, 1, 10);
    ok(CL_FN(cl_real_from_str)(r, "0.1") == CL_OK && r_cmp(r, w) == 0, "'0.1' is 1/10 rounded once [%s, %ld bits]",
       TEST_KIND, (long)p);
#if CL_PREC == CL_DOUBLE
    /* Beyond DBL_MAX: refused, not turned into infinity. */
    ok(CL_FN(cl_real_from_str)(r, "1e400") == CL_ENAN, "'1e400' overflows binary64: CL_ENAN [double]");
    /* Just above half the smallest subnormal 2^-1074: rounds up to 2^-1074
       (a read at 53 bits, then to double, would round twice and give 0). */
    ok(CL_FN(cl_real_from_str)(r, "2.4703282292062328e-324") == CL_OK && *r == 0x1p-1074,
       "'2.4703282292062328e-324' rounds once to 2^-1074 [double]");
    ok(CL_FN(cl_real_from_str)(r, "1e-400") == CL_OK && *r == 0.0, "'1e-400' underflows to 0 [double]");
    ok(CL_FN(cl_real_from_str)(r, "1.7976931348623157e308") == CL_OK && *r == 0x1.fffffffffffffp1023,
       "DBL_MAX is read exactly [double]");
#else
    ok(CL_FN(cl_real_from_str)(r, "1e400") == CL_OK && r_cmp_d(r, 1e300) > 0, "'1e400' is finite in MPFR [mpfr, %ld bits]",
       (long)p);
#endif
}

static void specials(cl_prec_t p)
{
    R_DECL(x, p); R_DECL(zero, p); R_DECL(inf, p); R_DECL(nan_, p);
    r_set_si(x, 1);
    r_div(inf, x, zero);      /* +inf */
    r_sub(nan_, inf, inf);    /* NaN */
    ok(r_log2abs(zero) == -INFINITY, "log2|0| = -inf [%s, %ld bits]", TEST_KIND, (long)p);
    ok(r_log2abs(inf) == INFINITY, "log2|inf| = +inf [%s, %ld bits]", TEST_KIND, (long)p);
    ok(r_log2abs(nan_) == INFINITY, "log2|NaN| = +inf, the same in both kinds [%s, %ld bits]", TEST_KIND, (long)p);
    RV_DECL(v, 3, p);
    r_set(v + 1, nan_);
    ok(!CL_FN(cl_rvec_is_finite)(v, 3), "a NaN entry is not finite [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_rvec_log2_maxabs)(v, 3) == INFINITY, "log2 max|v| with a NaN is +inf [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_rvec_log2_maxdiff)(v, v, 3) == INFINITY, "log2 max|v - v| with a NaN is +inf [%s, %ld bits]", TEST_KIND,
       (long)p);
    /* n = 0: nothing is read, not even the precision of the arguments. */
    ok(CL_FN(cl_rvec_log2_maxdiff)(NULL, NULL, 0) == -INFINITY, "log2 maxdiff of 0 entries is -inf [%s]", TEST_KIND);
    ok(CL_FN(cl_rvec_log2_maxabs)(NULL, 0) == -INFINITY, "log2 maxabs of 0 entries is -inf [%s]", TEST_KIND);
    ok(CL_FN(cl_rvec_is_finite)(NULL, 0) == 1, "0 entries are all finite [%s]", TEST_KIND);
#if CL_PREC == CL_MPFR
    /* A count whose block size overflows size_t: NULL, never a short block
       (calloc checks this itself in double). */
    ok(CL_FN(cl_rvec_new)(SIZE_MAX / 8, p) == NULL, "cl_rvec_new of SIZE_MAX/8 scalars fails cleanly [%s, %ld bits]",
       TEST_KIND, (long)p);
#endif
    rptr e = CL_FN(cl_rvec_new)(0, p);
    ok(e != NULL, "cl_rvec_new(0) gives a freeable block [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_free)(e);
    /* r_set_eps is 2^(1-p) exactly: 1 + eps is the next number after 1. */
    R_DECL(eps, p); R_DECL(y, p);
    r_set_eps(eps);
    r_add(y, x, eps);
    ok(r_cmp(y, x) > 0 && r_log2abs(eps) == 1.0 - (double)(CL_PREC == CL_DOUBLE ? 53 : p),
       "r_set_eps is 2^(1-p) and 1 + 2^(1-p) > 1 [%s, %ld bits]", TEST_KIND, (long)p);
    r_mul_2si(eps, eps, -1);
    r_add(y, x, eps);
    ok(r_cmp(y, x) == 0, "1 + 2^(-p) rounds to 1 (ties to even) [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) {
        from_str(TEST_PRECISIONS[k]);
        specials(TEST_PRECISIONS[k]);
        set_q_rounds_once(TEST_PRECISIONS[k]);
    }
    for (size_t k = 0; k < sizeof EDGE_PRECISIONS / sizeof EDGE_PRECISIONS[0]; k++) {
        cl_prec_t p = EDGE_PRECISIONS[k];
        if (CL_PREC == CL_DOUBLE) break; /* 53 bits is covered above */
        specials(p);
        if (p < 64) set_q_rounds_once(p);
    }
    return done_testing();
}

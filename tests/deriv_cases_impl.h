/*
 * A smooth map R³ → R⁴ with its Jacobian in closed form, shared by
 * tests/test_deriv.c and bench/bench_deriv.c. A non-NULL ctx is a long that
 * counts the evaluations. Internal: not installed.
 */
#ifndef CL_DERIV_CASES_IMPL_H
#define CL_DERIV_CASES_IMPL_H
#include <mpfr.h>

#define RN MPFR_RNDN

/* f(x) = (sin(x0 x1), exp(x0) x2², x0 x1 x2, log(1 + x1²)), R³ → R⁴. */
static inline int field4(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    if (ctx) ++*(long *)ctx;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(y));
    mpfr_mul(t, x, x + 1, RN); mpfr_sin(y, t, RN);
    mpfr_exp(t, x, RN); mpfr_mul(t, t, x + 2, RN); mpfr_mul(y + 1, t, x + 2, RN);
    mpfr_mul(t, x, x + 1, RN); mpfr_mul(y + 2, t, x + 2, RN);
    mpfr_sqr(t, x + 1, RN); mpfr_log1p(y + 3, t, RN);
    mpfr_clear(t);
    return 0;
}

/* Closed-form Jacobian of field4 (4 × 3, row-major). */
static inline void field4_jac(mpfr_ptr J, mpfr_srcptr x)
{
    mpfr_t c, e;
    mpfr_init2(c, mpfr_get_prec(J)); mpfr_init2(e, mpfr_get_prec(J));
    mpfr_mul(c, x, x + 1, RN); mpfr_cos(c, c, RN);
    mpfr_mul(J + 0, x + 1, c, RN); mpfr_mul(J + 1, x, c, RN); mpfr_set_zero(J + 2, 1);
    mpfr_exp(e, x, RN);
    mpfr_mul(J + 3, e, x + 2, RN); mpfr_mul(J + 3, J + 3, x + 2, RN);
    mpfr_set_zero(J + 4, 1);
    mpfr_mul(J + 5, e, x + 2, RN); mpfr_mul_2ui(J + 5, J + 5, 1, RN);
    mpfr_mul(J + 6, x + 1, x + 2, RN); mpfr_mul(J + 7, x, x + 2, RN); mpfr_mul(J + 8, x, x + 1, RN);
    mpfr_set_zero(J + 9, 1);
    mpfr_sqr(c, x + 1, RN); mpfr_add_ui(c, c, 1, RN);
    mpfr_mul_2ui(J + 10, x + 1, 1, RN); mpfr_div(J + 10, J + 10, c, RN);
    mpfr_set_zero(J + 11, 1);
    mpfr_clear(c); mpfr_clear(e);
}

#endif

/*
 * Derivatives at raised precision [deriv.c]: Jacobian, gradient and Hessian
 * of functions whose derivatives are known in closed form.
 *
 * Expected values are the closed forms evaluated in MPFR at p + 64 bits, so
 * their own error is negligible. Each computed entry must be within
 * 4·2^(1−p)·max(1, |exact|) of it: deriv.c guarantees the final rounding
 * (≤ 2^−p relative), a table settled to 2^−(p+8) relative, and rounding of f
 * below 5·2^−(p+20)·max(1, |f|)/2^e_f ≤ 5·2^−(p+20) — in all about
 * 2^(1−p)·(1/2 + 2^−8), so factor 4 leaves room. The error estimate must
 * bound the true error and must itself be below that tolerance (it claims
 * working precision).
 */
#include <stdlib.h>
#include "tap_main.h"
#include "deriv_cases_impl.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"


/* f(x) = x0⁴ + 2 x0² x1² − 3 x1 x2³ + x0 x1 x2 (a quartic). */
static int quartic(mpfr_ptr f, mpfr_srcptr x, void *ctx)
{
    (void)ctx;
    mpfr_t t, u;
    mpfr_init2(t, mpfr_get_prec(f)); mpfr_init2(u, mpfr_get_prec(f));
    mpfr_pow_ui(f, x, 4, RN);
    mpfr_mul(t, x, x + 1, RN); mpfr_sqr(t, t, RN); mpfr_mul_2ui(t, t, 1, RN); mpfr_add(f, f, t, RN);
    mpfr_pow_ui(t, x + 2, 3, RN); mpfr_mul(t, t, x + 1, RN); mpfr_mul_ui(t, t, 3, RN); mpfr_sub(f, f, t, RN);
    mpfr_mul(u, x, x + 1, RN); mpfr_mul(u, u, x + 2, RN); mpfr_add(f, f, u, RN);
    mpfr_clear(t); mpfr_clear(u);
    return 0;
}

/* Closed-form gradient and Hessian of the quartic. */
static void quartic_grad(mpfr_ptr g, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(g));
    /* ∂0 = 4x0³ + 4x0x1² + x1x2 */
    mpfr_pow_ui(g, x, 3, RN); mpfr_mul_2ui(g, g, 2, RN);
    mpfr_sqr(t, x + 1, RN); mpfr_mul(t, t, x, RN); mpfr_mul_2ui(t, t, 2, RN); mpfr_add(g, g, t, RN);
    mpfr_mul(t, x + 1, x + 2, RN); mpfr_add(g, g, t, RN);
    /* ∂1 = 4x0²x1 − 3x2³ + x0x2 */
    mpfr_sqr(g + 1, x, RN); mpfr_mul(g + 1, g + 1, x + 1, RN); mpfr_mul_2ui(g + 1, g + 1, 2, RN);
    mpfr_pow_ui(t, x + 2, 3, RN); mpfr_mul_ui(t, t, 3, RN); mpfr_sub(g + 1, g + 1, t, RN);
    mpfr_mul(t, x, x + 2, RN); mpfr_add(g + 1, g + 1, t, RN);
    /* ∂2 = −9x1x2² + x0x1 */
    mpfr_sqr(g + 2, x + 2, RN); mpfr_mul(g + 2, g + 2, x + 1, RN); mpfr_mul_si(g + 2, g + 2, -9, RN);
    mpfr_mul(t, x, x + 1, RN); mpfr_add(g + 2, g + 2, t, RN);
    mpfr_clear(t);
}

static void quartic_hess(mpfr_ptr H, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(H));
    mpfr_sqr(H, x, RN); mpfr_mul_ui(H, H, 12, RN);
    mpfr_sqr(t, x + 1, RN); mpfr_mul_2ui(t, t, 2, RN); mpfr_add(H, H, t, RN); /* 12x0² + 4x1² */
    mpfr_mul(H + 1, x, x + 1, RN); mpfr_mul_2ui(H + 1, H + 1, 3, RN); mpfr_add(H + 1, H + 1, x + 2, RN);
    mpfr_set(H + 2, x + 1, RN);
    mpfr_set(H + 3, H + 1, RN);
    mpfr_sqr(H + 4, x, RN); mpfr_mul_2ui(H + 4, H + 4, 2, RN);
    mpfr_sqr(H + 5, x + 2, RN); mpfr_mul_si(H + 5, H + 5, -9, RN); mpfr_add(H + 5, H + 5, x, RN);
    mpfr_set(H + 6, H + 2, RN);
    mpfr_set(H + 7, H + 5, RN);
    mpfr_mul(H + 8, x + 1, x + 2, RN); mpfr_mul_si(H + 8, H + 8, -18, RN);
    mpfr_clear(t);
}

/* exp(a·x) with a = (1/2, −5/4, 2) (exact in every precision). */
static const double EXP_A[3] = {0.5, -1.25, 2.0};

static int expdot(mpfr_ptr f, mpfr_srcptr x, void *ctx)
{
    (void)ctx;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(f));
    mpfr_set_zero(f, 1);
    for (int i = 0; i < 3; i++) { mpfr_mul_d(t, x + i, EXP_A[i], RN); mpfr_add(f, f, t, RN); }
    mpfr_exp(f, f, RN);
    mpfr_clear(t);
    return 0;
}

/* ∇ = e a, H = e a aᵀ. */
static void expdot_derivs(mpfr_ptr g, mpfr_ptr H, mpfr_srcptr x)
{
    mpfr_t e;
    mpfr_init2(e, mpfr_get_prec(g));
    expdot(e, x, NULL);
    for (int i = 0; i < 3; i++) {
        mpfr_mul_d(g + i, e, EXP_A[i], RN);
        for (int j = 0; j < 3; j++) mpfr_mul_d(H + 3 * i + j, g + i, EXP_A[j], RN);
    }
    mpfr_clear(e);
}

/* 2^40 + sin x0: a large constant must cost no accuracy in the derivative. */
static int offset_sin(mpfr_ptr f, mpfr_srcptr x, void *ctx)
{
    (void)ctx;
    mpfr_sin(f, x, RN);
    mpfr_add_d(f, f, 0x1p40, RN);
    return 0;
}

/* |x0|: not differentiable near 0, so the table cannot settle. */
static int absval(mpfr_ptr f, mpfr_srcptr x, void *ctx) { (void)ctx; mpfr_abs(f, x, RN); return 0; }
/* log x0: NaN for x0 < 0. */
static int logx(mpfr_ptr f, mpfr_srcptr x, void *ctx) { (void)ctx; mpfr_log(f, x, RN); return 0; }
/* A callback that refuses (its status must come back unchanged). */
static int refuse(mpfr_ptr f, mpfr_srcptr x, void *ctx) { (void)f; (void)x; (void)ctx; return CL_EDOMAIN; }

/*
 * Compare n computed entries (and their estimates) with the exact values
 * Wref (at p + 64 bits): every error ≤ 4·2^(1−p)·max(1, |exact|), every
 * estimate ≥ the error and ≤ that same tolerance.
 */
static void compare(rsrc got, rsrc est, mpfr_srcptr ref, size_t n, long p, const char *what)
{
    mpfr_t g, d, tol, e;
    mpfr_inits2(p + 64, g, d, tol, e, (mpfr_ptr)0);
    int acc = 1, bound = 1, tight = 1;
    double worst = -INFINITY, worst_est = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        r_get_mpfr(g, got + k);
        mpfr_sub(d, g, ref + k, RN);
        mpfr_abs(d, d, RN);
        mpfr_abs(tol, ref + k, RN);
        if (mpfr_cmp_ui(tol, 1) < 0) mpfr_set_ui(tol, 1, RN);
        mpfr_mul_2si(tol, tol, 3 - p, RN); /* 4·2^(1−p)·max(1, |exact|) */
        if (mpfr_cmp(d, tol) > 0) acc = 0;
        r_get_mpfr(e, est + k);
        if (mpfr_cmp(d, e) > 0) bound = 0;
        if (mpfr_cmp(e, tol) > 0) tight = 0;
        mpfr_div(d, d, tol, RN);
        mpfr_div(e, e, tol, RN);
        double l = cl_mpfr_log2(d), le = cl_mpfr_log2(e);
        if (l > worst) worst = l;
        if (le > worst_est) worst_est = le;
    }
    ok(acc, "%s: error <= 4*2^(1-p) [%s, %ld bits]", what, TEST_KIND, p);
    ok(bound, "%s: estimate bounds the error [%s, %ld bits]", what, TEST_KIND, p);
    ok(tight, "%s: estimate <= 4*2^(1-p) [%s, %ld bits]", what, TEST_KIND, p);
    diag("  %s: largest error/tolerance 2^%.1f, estimate/tolerance 2^%.1f", what, worst, worst_est);
    mpfr_clears(g, d, tol, e, (mpfr_ptr)0);
}

static void run(cl_prec_t p)
{
    long pr = (long)p + 64;
    const double X[3] = {0.71875, -1.3125, 0.40625};  /* dyadic: exact in every kind */
    RV_DECL(x, 3, p);
    for (int i = 0; i < 3; i++) r_set_d(x + i, X[i]);
    mpfr_ptr xr = cl_rvec_new_mp(3, pr), ref = cl_rvec_new_mp(12, pr);
    for (int i = 0; i < 3; i++) mpfr_set_d(xr + i, X[i], RN);
    RV_DECL(J, 12, p); RV_DECL(E, 12, p);

    /* Jacobian of the 4-output field. */
    int st = CL_FN(cl_jacobian)(J, E, field4, NULL, x, 3, 4);
    ok(st == CL_OK, "jacobian returns 0 [%s, %ld bits] (%d)", TEST_KIND, (long)p, st);
    field4_jac(ref, xr);
    compare(J, E, ref, 12, (long)p, "jacobian of (sin x0x1, e^x0 x2^2, x0x1x2, log(1+x1^2))");
    /* Without an estimate the values are the same. */
    RV_DECL(J2, 12, p);
    st = CL_FN(cl_jacobian)(J2, NULL, field4, NULL, x, 3, 4);
    ok(st == CL_OK && CL_FN(cl_rvec_log2_maxdiff)(J, J2, 12) == -INFINITY,
       "err_est NULL gives the same Jacobian [%s, %ld bits]", TEST_KIND, (long)p);

    /* Gradient and Hessian of the quartic. */
    st = CL_FN(cl_gradient)(J, E, quartic, NULL, x, 3);
    ok(st == CL_OK, "gradient returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    quartic_grad(ref, xr);
    compare(J, E, ref, 3, (long)p, "gradient of the quartic");
    st = CL_FN(cl_hessian)(J, E, quartic, NULL, x, 3);
    ok(st == CL_OK, "hessian returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    quartic_hess(ref, xr);
    compare(J, E, ref, 9, (long)p, "hessian of the quartic");
    int sym = 1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) sym = sym && r_cmp(J + 3 * i + j, J + 3 * j + i) == 0;
    ok(sym, "hessian is exactly symmetric [%s, %ld bits]", TEST_KIND, (long)p);

    /* Gradient and Hessian of exp(a·x). */
    mpfr_ptr gref = cl_rvec_new_mp(3, pr);
    expdot_derivs(gref, ref, xr);
    st = CL_FN(cl_gradient)(J, E, expdot, NULL, x, 3);
    ok(st == CL_OK, "gradient of exp(a.x) returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    compare(J, E, gref, 3, (long)p, "gradient of exp(a.x)");
    st = CL_FN(cl_hessian)(J, E, expdot, NULL, x, 3);
    ok(st == CL_OK, "hessian of exp(a.x) returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    compare(J, E, ref, 9, (long)p, "hessian of exp(a.x) = e a a^T");

    /* A point with larger entries (|x| up to 3.75, |f| up to 27), given at
       53 bits whatever the precision of J: the result follows J. */
    const double X2[3] = {2.5, -3.75, 1.5};
    RV_DECL(x53, 3, 53);
    for (int i = 0; i < 3; i++) { r_set_d(x53 + i, X2[i]); mpfr_set_d(xr + i, X2[i], RN); }
    st = CL_FN(cl_jacobian)(J, E, field4, NULL, x53, 3, 4);
    ok(st == CL_OK, "jacobian at (2.5, -3.75, 1.5) returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    field4_jac(ref, xr);
    compare(J, E, ref, 12, (long)p, "jacobian at (2.5, -3.75, 1.5), x at 53 bits");
    st = CL_FN(cl_hessian)(J, E, expdot, NULL, x53, 3);
    ok(st == CL_OK, "hessian of exp(a.x) at (2.5, -3.75, 1.5) returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    expdot_derivs(gref, ref, xr);
    compare(J, E, ref, 9, (long)p, "hessian of exp(a.x) at (2.5, -3.75, 1.5)");

    /* f = 2^40 + sin x0: the derivative cos x0 still to working precision. */
    st = CL_FN(cl_gradient)(J, E, offset_sin, NULL, x, 1);
    ok(st == CL_OK, "gradient of 2^40 + sin x0 returns 0 [%s, %ld bits]", TEST_KIND, (long)p);
    mpfr_set_d(gref + 1, X[0], RN);
    mpfr_cos(gref, gref + 1, RN);
    compare(J, E, gref, 1, (long)p, "d/dx (2^40 + sin x) = cos x");

    /* Status codes. */
    ok(CL_FN(cl_jacobian)(J, NULL, field4, NULL, x, 0, 4) == CL_EDIM, "n_in = 0 is CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_hessian)(J, NULL, quartic, NULL, x, 0) == CL_EDIM, "hessian n = 0 is CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    RV_DECL(xbad, 3, p);
    r_set_d(xbad, 1.0); r_set_d(xbad + 1, NAN); r_set_d(xbad + 2, 0.0);
    ok(CL_FN(cl_jacobian)(J, NULL, field4, NULL, xbad, 3, 4) == CL_ENAN, "NaN in x is CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_hessian)(J, NULL, quartic, NULL, xbad, 3) == CL_ENAN, "hessian: NaN in x is CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    r_set_d(xbad, -0.5);
    ok(CL_FN(cl_gradient)(J, NULL, logx, NULL, xbad, 1) == CL_ENAN, "log at -1/2 gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_gradient)(J, NULL, refuse, NULL, x, 3) == CL_EDOMAIN, "callback status is passed on [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_hessian)(J, NULL, refuse, NULL, x, 3) == CL_EDOMAIN, "hessian: callback status is passed on [%s, %ld]", TEST_KIND, (long)p);
    /* |x0| at 2^-40: every step crosses the kink, D(h) = x0/h is no h² series. */
    r_set_d(xbad, 0x1p-40);
    st = CL_FN(cl_gradient)(J, E, absval, NULL, xbad, 1);
    ok(st == CL_ENOCONV, "|x| at 2^-40 does not settle: CL_ENOCONV [%s, %ld] (%d)", TEST_KIND, (long)p, st);
    /* Its last correction stays far above the working precision (≥ 2^-25 here). */
    R_DECL(lim, p);
    r_set_si(lim, 1);
    r_mul_2si(lim, lim, 13 - (long)p);
    ok(r_cmp(E, lim) > 0, "and its estimate is far above 2^(1-p) (%.3g) [%s, %ld]", r_get_d(E), TEST_KIND, (long)p);

    cl_rvec_free_mp(xr); cl_rvec_free_mp(ref); cl_rvec_free_mp(gref);
}

int main(void) { return cl_test_main(run); }

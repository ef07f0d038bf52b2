/*
 * Exponentials of SO(3) and SE(3), dexp and dexp⁻¹ on se(3), and the Lie
 * group integrators, at every test precision.
 *
 * Expected values come from independent forms: the matrix power series of
 * exp computed here, the series Σ ad^k/(k+1)! and the Bernoulli series with
 * Bernoulli numbers from their recurrence computed here, orthogonality and
 * det = 1, dexp⁻¹∘dexp = id, and classical RK4 in R³ for the integrators.
 */
#include "tap_real.h"
#include "r3.h"
#include "lie.h"

/* Test angles: tiny, around the series/closed-form switch at θ = 2, large. */
static const double THETAS[] = {0x1p-70, 1e-9, 1e-3, 0.3, 1.0, 1.999, 2.001, 3.0};
#define NTH ((int)(sizeof THETAS / sizeof THETAS[0]))

static void scaled_dir(rptr u, double theta, double x, double y, double z)
{
    cl_prec_t p = r_prec(u);
    R_DECL(n, p); R_DECL(t, p);
    v3_set_d(u, x, y, z);
    v3_norm(n, u);
    r_set_d(t, theta);
    r_div(t, t, n);
    for (int i = 0; i < 3; i++) r_mul(u + i, u + i, t);
}

/* 4×4 exponential of [[û, v], [0, 0]] by its power series, summed until the
 * terms vanish at the working precision; g = (A, a) as 12 scalars. */
static void se3_exp_series(rptr g, rsrc u, rsrc v)
{
    cl_prec_t p = r_prec(g);
    RV_DECL(T, 16, p); RV_DECL(X, 16, p); RV_DECL(N, 16, p); RV_DECL(E, 16, p);
    for (int i = 0; i < 3; i++) {
        r_set(X + 4 * i + 3, v + i);
    }
    RV_DECL(U, 9, p);
    m3_hat(U, u);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r_set(X + 4 * i + j, U + 3 * i + j);
    for (int i = 0; i < 4; i++) { r_set_si(T + 5 * i, 1); r_set_si(E + 5 * i, 1); }
    for (int k = 1; k < 2000; k++) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                r_set_zero(N + 4 * i + j);
                for (int l = 0; l < 4; l++) r_addmul(N + 4 * i + j, T + 4 * i + l, X + 4 * l + j);
                r_div_si(N + 4 * i + j, N + 4 * i + j, k);
            }
        double big = CL_FN(cl_rvec_log2_maxabs)(N, 16);
        for (int i = 0; i < 16; i++) { r_set(T + i, N + i); r_add(E + i, E + i, N + i); }
        if (big < -(double)p - 20) break;
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) r_set(g + 3 * i + j, E + 4 * i + j);
        r_set(g + 9 + i, E + 4 * i + 3);
    }
}

/* Σ_k c_k ad_ξ^k η with c_k = 1/(k+1)! (kind 0) or B_k/k! from the recurrence
 * Σ_{j=0}^{k} b_j/(k+1−j)! = 0 (kind 1), summed until the terms vanish. */
#define KMAX 520
static void ad_series(rptr out, rsrc xi, rsrc eta, int kind)
{
    cl_prec_t p = r_prec(out);
    rptr b = CL_FN(cl_rvec_new)(KMAX + 2, p);
    rptr fi = CL_FN(cl_rvec_new)(KMAX + 3, p); /* 1/k! */
    RV_DECL(ad, 6, p); RV_DECL(acc, 6, p);
    R_DECL(x, p);
    r_set_si(fi, 1);
    for (int k = 1; k < KMAX + 3; k++) r_div_si(fi + k, fi + k - 1, k);
    r_set_si(b, 1);
    for (int k = 1; k <= KMAX; k++) {
        r_set_zero(x);
        for (int j = 0; j < k; j++) r_addmul(x, b + j, fi + k + 1 - j);
        r_neg(b + k, x);  /* b_k/1! term has coefficient 1 */
    }
    for (int i = 0; i < 6; i++) { r_set(ad + i, eta + i); r_set(acc + i, eta + i); }
    for (int k = 1; k <= KMAX; k++) {
        CL_FN(cl_se3_bracket)(ad, xi, ad);
        rsrc c = kind == 0 ? fi + k + 1 : b + k;
        for (int i = 0; i < 6; i++) r_addmul(acc + i, c, ad + i);
        if (CL_FN(cl_rvec_log2_maxabs)(ad, 6) + r_log2abs(c) < -(double)p - 20 && k % 2 == 0) break;
    }
    for (int i = 0; i < 6; i++) r_set(out + i, acc + i);
    CL_FN(cl_rvec_free)(b);
    CL_FN(cl_rvec_free)(fi);
}

/* log2 of max |a_i − b_i| / max(1, max |b_i|). */
static double rel_err(rsrc a, rsrc b, size_t n)
{
    double s = CL_FN(cl_rvec_log2_maxabs)(b, n);
    if (s < 0) s = 0;
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, n) - s;
}

static void test_exp(cl_prec_t p)
{
    RV_DECL(u, 3, p); RV_DECL(v, 3, p); RV_DECL(R, 9, p); RV_DECL(Rt, 9, p); RV_DECL(P, 9, p);
    RV_DECL(I, 9, p); RV_DECL(g, 12, p); RV_DECL(gs, 12, p); RV_DECL(xi, 6, p);
    R_DECL(det, p); R_DECL(one, p); R_DECL(x, p);
    RV_DECL(c, 3, p);
    r_set_si(one, 1);
    m3_set_scalar(I, one);
    double worst_orth = -INFINITY, worst_det = -INFINITY, worst_ser = -INFINITY, worst_se3 = -INFINITY;
    for (int k = 0; k < NTH; k++) {
        scaled_dir(u, THETAS[k], 0.3, -0.8, 0.52);
        CL_FN(cl_so3_exp)(R, u);
        m3_transpose(Rt, R);
        m3_mul(P, Rt, R);
        double e = CL_FN(cl_rvec_log2_maxdiff)(P, I, 9);
        if (e > worst_orth) worst_orth = e;
        /* det R by the triple product of its rows. */
        v3_cross(c, R + 3, R + 6);
        v3_dot(det, R, c);
        r_sub(x, det, one);
        if (r_log2abs(x) > worst_det) worst_det = r_log2abs(x);
        scaled_dir(v, 1.7, -0.4, 0.9, 0.25);
        for (int i = 0; i < 3; i++) { r_set(xi + i, u + i); r_set(xi + 3 + i, v + i); }
        CL_FN(cl_se3_exp)(g, xi);
        se3_exp_series(gs, u, v);
        e = rel_err(g, gs, 9);
        if (e > worst_ser) worst_ser = e;
        e = rel_err(g + 9, gs + 9, 3);
        if (e > worst_se3) worst_se3 = e;
    }
    /* RᵀR sums three products of entries each within a few ulps: 16 ulps. */
    is_log2_below(worst_orth, tol_log2(p, 16), "exp(u^) orthogonal, 8 angles 2^-70..3 [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(worst_det, tol_log2(p, 16), "det exp(u^) = 1 [%s, %ld bits]", TEST_KIND, (long)p);
    /* The reference series at θ = 3 adds terms up to e^3/3! ≈ 3 before cancelling to O(1): 64 ulps. */
    is_log2_below(worst_ser, tol_log2(p, 64), "Rodrigues vs matrix power series, theta 2^-70..3 [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(worst_se3, tol_log2(p, 64), "SE(3) translation V(u)v vs 4x4 power series [%s, %ld bits]", TEST_KIND, (long)p);
    /* Tiny vector θ = 2^-400: exp(û) = I + û + û²/2 + O(θ³), and θ³ < 2^-1024. */
    scaled_dir(u, 0x1p-400, 1, 2, 3);
    CL_FN(cl_so3_exp)(R, u);
    RV_DECL(U, 9, p); RV_DECL(U2, 9, p);
    m3_hat(U, u);
    m3_mul(U2, U, U);
    for (int i = 0; i < 9; i++) {
        r_mul_2si(U2 + i, U2 + i, -1);
        r_add(U2 + i, U2 + i, U + i);
        r_add(U2 + i, U2 + i, I + i);
    }
    is_log2_below(CL_FN(cl_rvec_log2_maxdiff)(R, U2, 9), tol_log2(p, 2),
                  "exp at theta = 2^-400 equals I + u^ + u^2/2 [%s, %ld bits]", TEST_KIND, (long)p);
}

static void test_dexp(cl_prec_t p)
{
    RV_DECL(xi, 6, p); RV_DECL(eta, 6, p); RV_DECL(a, 6, p); RV_DECL(b, 6, p); RV_DECL(ref, 6, p);
    double w_inv = -INFINITY, w_dexp = -INFINITY, w_bern = -INFINITY, w_trunc = -INFINITY;
    for (int k = 0; k < NTH; k++) {
        scaled_dir(xi, THETAS[k], -0.6, 0.2, 0.77);
        scaled_dir(xi + 3, 0.9, 0.1, 0.5, -0.3);
        scaled_dir(eta, 1.0, 0.4, 0.4, -0.1);
        scaled_dir(eta + 3, 1.3, -0.7, 0.05, 0.6);
        CL_FN(cl_se3_dexp)(a, xi, eta);
        CL_FN(cl_se3_dexpinv)(b, xi, a);
        double e = rel_err(b, eta, 6);
        if (e > w_inv) w_inv = e;
        ad_series(ref, xi, eta, 0);
        e = rel_err(a, ref, 6);
        if (e > w_dexp) w_dexp = e;
        if (THETAS[k] <= 1.0) {
            ad_series(ref, xi, eta, 1);
            CL_FN(cl_se3_dexpinv)(b, xi, eta);
            e = rel_err(b, ref, 6);
            if (e > w_bern) w_bern = e;
        }
    }
    /* Each side is a dozen products of coefficients exact to ≤ 20 ulps (S6 just above θ = 2),
     * with cancellation in the sums at θ = 3: 1024 ulps. */
    is_log2_below(w_inv, tol_log2(p, 1024), "dexpinv(dexp(eta)) = eta, theta 2^-70..3 [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(w_dexp, tol_log2(p, 1024), "dexp closed form vs sum ad^k/(k+1)! [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(w_bern, tol_log2(p, 1024), "dexpinv closed form vs full Bernoulli series, theta <= 1 [%s, %ld bits]", TEST_KIND, (long)p);
    /* Truncated series: at θ small enough that θ^19 < 2^-p, order 18 agrees with the
     * closed form to rounding; at θ = 0.05 the gap of the order-2 truncation is the
     * omitted ad^4 term B_4/4! ad^4 η to relative O(θ²). */
    double th = p > 200 ? 0x1p-60 : 1e-3;
    scaled_dir(xi, th, -0.6, 0.2, 0.77);
    CL_FN(cl_se3_dexpinv)(a, xi, eta);
    CL_FN(cl_se3_dexpinv_series)(b, xi, eta, 18);
    w_trunc = rel_err(b, a, 6);
    is_log2_below(w_trunc, tol_log2(p, 16), "Bernoulli series to ad^18 = closed form at tiny theta [%s, %ld bits]", TEST_KIND, (long)p);
    scaled_dir(xi, 0.05, -0.6, 0.2, 0.77);
    CL_FN(cl_se3_dexpinv)(a, xi, eta);
    CL_FN(cl_se3_dexpinv_series)(b, xi, eta, 2);
    CL_FN(cl_se3_dexpinv_series)(ref, xi, eta, 4);
    for (int i = 0; i < 6; i++) { r_sub(a + i, a + i, b + i); r_sub(ref + i, ref + i, b + i); }
    double gap = CL_FN(cl_rvec_log2_maxabs)(a, 6), term = CL_FN(cl_rvec_log2_maxabs)(ref, 6);
    diag("theta 0.05: |closed - series_2| = 2^%.2f, |B4/4! ad^4 eta| = 2^%.2f", gap, term);
    /* Relative agreement to O(θ²) = 2^-8.6: 0.01 in log2 with margin. */
    ok(fabs(gap - term) < 0.05, "closed - truncated(2) equals the first omitted Bernoulli term [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_se3_dexpinv_series)(b, xi, eta, 19) == CL_EDIM, "series order 19 is rejected [%s, %ld bits]", TEST_KIND, (long)p);
    scaled_dir(xi, 6.3, 1, 0, 0);
    ok(CL_FN(cl_se3_dexpinv)(b, xi, eta) == CL_EDOMAIN, "dexpinv at theta = 6.3 > 2 pi is CL_EDOMAIN [%s, %ld bits]", TEST_KIND, (long)p);
}

/* ---------------------------------------------------------- integrators */
/* M = R³ acted on by SE(3) affinely, (A, a)·y = A y + a, with
 * f(y) = (u(y), v(y)), u = (y1, 2 y2, −y3)/3, v = (y2 y3, 1/2, −y1)/4:
 * y′ = u(y) × y + v(y), which classical RK4 integrates directly. */
static int r3_field(void *ctx, rptr xi, rsrc y)
{
    (void)ctx;
    cl_prec_t p = r_prec(xi);
    R_DECL(c, p);
    r_set_q(c, 1, 3);
    r_mul(xi, y, c);
    r_mul(xi + 1, y + 1, c); r_mul_2si(xi + 1, xi + 1, 1);
    r_mul(xi + 2, y + 2, c); r_neg(xi + 2, xi + 2);
    r_mul(xi + 3, y + 1, y + 2); r_mul_2si(xi + 3, xi + 3, -2);
    r_set_q(xi + 4, 1, 8);
    r_mul_2si(xi + 5, y, -2); r_neg(xi + 5, xi + 5);
    return CL_OK;
}
static int r3_exp_act(void *ctx, rptr yo, rsrc xi, rsrc y)
{
    (void)ctx;
    cl_prec_t p = r_prec(yo);
    RV_DECL(g, 12, p);
    int st = CL_FN(cl_se3_exp)(g, xi);
    if (st) return st;
    m3_mul_v3(yo, g, y);
    v3_add(yo, yo, g + 9);
    return CL_OK;
}
static int r3_dexpinv(void *ctx, rptr o, rsrc xi, rsrc eta) { (void)ctx; return CL_FN(cl_se3_dexpinv)(o, xi, eta); }
static int r3_bracket(void *ctx, rptr o, rsrc xi, rsrc eta) { (void)ctx; CL_FN(cl_se3_bracket)(o, xi, eta); return CL_OK; }

static void r3_rhs(rptr dy, rsrc y)
{
    cl_prec_t p = r_prec(dy);
    RV_DECL(xi, 6, p);
    r3_field(NULL, xi, y);
    v3_cross(dy, xi, y);
    v3_add(dy, dy, xi + 3);
}

static void rk4_classical(rptr y, long n, rsrc h)
{
    cl_prec_t p = r_prec(y);
    RV_DECL(k1, 3, p); RV_DECL(k2, 3, p); RV_DECL(k3, 3, p); RV_DECL(k4, 3, p); RV_DECL(z, 3, p);
    R_DECL(h2, p); R_DECL(h6, p);
    r_mul_2si(h2, h, -1);
    r_div_si(h6, h, 6);
    for (long s = 0; s < n; s++) {
        r3_rhs(k1, y);
        for (int i = 0; i < 3; i++) r_fma(z + i, h2, k1 + i, y + i);
        r3_rhs(k2, z);
        for (int i = 0; i < 3; i++) r_fma(z + i, h2, k2 + i, y + i);
        r3_rhs(k3, z);
        for (int i = 0; i < 3; i++) r_fma(z + i, h, k3 + i, y + i);
        r3_rhs(k4, z);
        for (int i = 0; i < 3; i++) {
            r_add(z + i, k2 + i, k3 + i);
            r_mul_2si(z + i, z + i, 1);
            r_add(z + i, z + i, k1 + i);
            r_add(z + i, z + i, k4 + i);
            r_addmul(y + i, h6, z + i);
        }
    }
}

static void test_integrators(cl_prec_t p)
{
    CL_FN(cl_lie_problem) pb = {.dim_m = 3, .dim_g = 6, .field = r3_field, .exp_act = r3_exp_act,
                                .dexpinv = r3_dexpinv, .bracket = r3_bracket};
    /* Reference at p + 64 bits: classical RK4 in R³ with 4096 steps (error ~ 2^-48·C,
     * far below the smallest Lie-method error measured). */
    cl_prec_t pr = p + 64;
    RV_DECL(yref, 3, pr);
    R_DECL(hr, pr);
    v3_set_d(yref, 0.5, -0.25, 1.0);
    r_set_q(hr, 1, 8192);
    rk4_classical(yref, 8192, hr);
    RV_DECL(y, 3, p); RV_DECL(yr, 3, p);
    R_DECL(h, p);
    for (int i = 0; i < 3; i++) r_set(yr + i, yref + i);
    int halvings = CL_PREC == CL_DOUBLE ? 4 : 6;
    for (int m = CL_LIE_EULER; m <= CL_LIE_RKMK45; m++) {
        CL_FN(cl_lie_integrator) *w;
        CL_FN(cl_lie_new)(&w, &pb, m, p);
        int order = cl_lie_method_order(m);
        /* Starting steps keep the errors asymptotic and, at 53 bits, far above rounding. */
        long n0 = order == 1 ? 64 : (CL_PREC == CL_DOUBLE && order == 4 ? 4 : 8);
        double lerr[8], sx = 0, sy = 0, sxx = 0, sxy = 0;
        int np = (CL_PREC == CL_DOUBLE && order == 5 ? 3 : halvings) + 1;
        for (int k = 0; k < np; k++) {
            long n = n0 << k;
            v3_set_d(y, 0.5, -0.25, 1.0);
            r_set_si(h, 1);
            r_div_si(h, h, n);
            CL_FN(cl_lie_integrate_fixed)(w, y, h, n);
            lerr[k] = CL_FN(cl_rvec_log2_maxdiff)(y, yr, 3);
            double x = -log2((double)n);
            sx += x; sy += lerr[k]; sxx += x * x; sxy += x * lerr[k];
        }
        double slope = (np * sxy - sx * sy) / (np * sxx - sx * sx);
        diag("%s: log2 error at t=1 for h = 1/%ld .. 1/%ld: %.1f .. %.1f, fitted slope %.3f",
             cl_lie_method_name(m), n0, n0 << (np - 1), lerr[0], lerr[np - 1], slope);
        /* Within 0.1 of the order; at 53 bits the fifth-order method has only three halvings
         * between the pre-asymptotic range and rounding, so 0.25 there. */
        double slack = CL_PREC == CL_DOUBLE && order == 5 ? 0.25 : 0.1;
        ok(fabs(slope - order) < slack, "%s order %d: slope %.3f within %.2f [%s, %ld bits]", cl_lie_method_name(m),
           order, slope, slack, TEST_KIND, (long)p);
        CL_FN(cl_lie_free)(w);
    }
    /* RKMK4 with the series dexp⁻¹ truncated at ad² keeps order 4 (the terms left out are O(h⁴) in u). */
    CL_FN(cl_lie_integrator) *w;
    CL_FN(cl_lie_new)(&w, &pb, CL_LIE_RKMK4, p);
    ok(CL_FN(cl_lie_set_dexpinv_series)(w, 2) == CL_OK, "rkmk4 accepts series dexpinv of order 2");
    double e1, e2;
    v3_set_d(y, 0.5, -0.25, 1.0); r_set_q(h, 1, 16);
    CL_FN(cl_lie_integrate_fixed)(w, y, h, 16);
    e1 = CL_FN(cl_rvec_log2_maxdiff)(y, yr, 3);
    v3_set_d(y, 0.5, -0.25, 1.0); r_set_q(h, 1, 32);
    CL_FN(cl_lie_integrate_fixed)(w, y, h, 32);
    e2 = CL_FN(cl_rvec_log2_maxdiff)(y, yr, 3);
    diag("rkmk4 with series dexpinv: error ratio 2^%.2f per halving", e1 - e2);
    ok(fabs(e1 - e2 - 4) < 0.3, "rkmk4 with truncated dexpinv: error falls by 2^4 per halving [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_lie_free)(w);
    /* Adaptive RKMK45: the error at t = 1 follows the tolerance. */
    CL_FN(cl_lie_new)(&w, &pb, CL_LIE_RKMK45, p);
    R_DECL(t0, p); R_DECL(t1, p); R_DECL(rt, p); R_DECL(at, p);
    r_set_si(t0, 0); r_set_si(t1, 1);
    r_set_d(rt, 1e-10); r_set_d(at, 1e-10);
    r_set_q(h, 1, 10);
    long nacc, nrej;
    v3_set_d(y, 0.5, -0.25, 1.0);
    int st = CL_FN(cl_lie_integrate_adaptive)(w, y, t0, t1, h, rt, at, &nacc, &nrej);
    double e = CL_FN(cl_rvec_log2_maxdiff)(y, yr, 3);
    diag("rkmk45 adaptive, tol 1e-10: %ld accepted, %ld rejected, log2 error %.1f", nacc, nrej, e);
    /* Global error within a factor 100 of the local tolerance over t ∈ [0, 1]. */
    ok(st == 0 && e < log2(1e-8), "rkmk45 adaptive reaches t = 1 with error below 100 tol [%s, %ld bits]", TEST_KIND, (long)p);
    /* The same run with a budget of 60 field evaluations, fewer than its
       steps need, ends with CL_EBUDGET rather than running on. */
    CL_FN(cl_lie_set_budget)(w, 60);
    v3_set_d(y, 0.5, -0.25, 1.0);
    r_set_q(h, 1, 10);
    st = CL_FN(cl_lie_integrate_adaptive)(w, y, t0, t1, h, rt, at, &nacc, &nrej);
    ok(st == CL_EBUDGET, "rkmk45 adaptive with a budget of 60 evaluations ends with CL_EBUDGET (%s) [%s, %ld bits]",
       cl_strerror(st), TEST_KIND, (long)p);
    CL_FN(cl_lie_free)(w);
}

/* What cl_lie_new() refuses, each with its status and *out NULL (whatever it held); the problem itself is accepted. */
static void test_new_fails(cl_prec_t p)
{
    const CL_FN(cl_lie_problem) good = {.dim_m = 3, .dim_g = 6, .field = r3_field, .exp_act = r3_exp_act,
                                        .dexpinv = r3_dexpinv, .bracket = r3_bracket};
    CL_FN(cl_lie_problem) pb[7];
    for (int i = 0; i < 7; i++) pb[i] = good;
    pb[1].field = NULL;
    pb[2].dim_g = 0;
    pb[3].dim_m = SIZE_MAX / 4; /* 4 vectors of M in one block: more numbers than a size_t counts */
    pb[4].dexpinv = NULL, pb[4].bracket = NULL;
    static const struct { int pb, method, bits, want; const char *what; } cases[] = {
        {0, CL_LIE_RKMK4, 0, CL_OK, "the problem"},
        {-1, CL_LIE_RKMK4, 0, CL_EPARAM, "no problem"},
        {1, CL_LIE_RKMK4, 0, CL_EPARAM, "no field"},
        {2, CL_LIE_RKMK4, 0, CL_EDIM, "dim_g 0"},
        {3, CL_LIE_RKMK4, 0, CL_EDIM, "dim_m SIZE_MAX/4"},
        {0, 99, 0, CL_EPARAM, "method 99"},
        {4, CL_LIE_RKMK4, 0, CL_EPARAM, "rkmk4 with neither dexpinv nor bracket"},
        {4, CL_LIE_CF4, 0, CL_OK, "cf4 with neither dexpinv nor bracket"},
        {0, CL_LIE_RKMK4, 1, CL_EPREC, "1 bit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].bits && CL_PREC != CL_MPFR) continue;
        CL_FN(cl_lie_integrator) *w = (CL_FN(cl_lie_integrator) *)pb;
        int st = CL_FN(cl_lie_new)(&w, cases[i].pb < 0 ? NULL : pb + cases[i].pb, cases[i].method, cases[i].bits ? cases[i].bits : p);
        ok(st == cases[i].want && (st ? !w : !!w), "cl_lie_new, %s: %s, *out %s [%s, %ld]", cases[i].what, cl_strerror(st),
           w ? "set" : "NULL", TEST_KIND, (long)p);
        CL_FN(cl_lie_free)(w);
    }
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) {
        test_exp(TEST_PRECISIONS[k]);
        test_dexp(TEST_PRECISIONS[k]);
    }
    test_integrators(CL_PREC == CL_DOUBLE ? 53 : 113);
    test_new_fails(CL_PREC == CL_DOUBLE ? 53 : 113);
    return done_testing();
}

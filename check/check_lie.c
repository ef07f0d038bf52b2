/*
 * Checks of src/lie.c: dexp⁻¹ ∘ dexp = id on se(3) for the closed form and
 * for the Bernoulli series, and the convergence order of each Lie group
 * integrator on a problem of the core alone (R³ under the affine action of
 * SE(3)).
 */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "r3.h"
#include "lie.h"

#define DRAWS 60

/* ξ = (u, v) with |u| = theta and v uniform in [−1, 1]³; η uniform in [−1, 1]⁶. */
static void draw_pair(rptr xi, rptr eta, cl_rng *g, rsrc theta)
{
    CL_FN(cl_v3_random_unit)(xi, g);
    for (int i = 0; i < 3; i++) r_mul(xi + i, xi + i, theta);
    for (int i = 3; i < 6; i++) r_set_d(xi + i, cl_rng_range(g, -1, 1));
    for (int i = 0; i < 6; i++) r_set_d(eta + i, cl_rng_range(g, -1, 1));
}

/*
 * dexp⁻¹_ξ(dexp_ξ(η)) against η with the closed forms, at 60 random pairs
 * with θ = |u| from 10⁻³ (the series branch of S_k) to 6 (near the pole 2π
 * of z/(eᶻ − 1)); relative to |η|.
 */
CL_CHECK(lie_dexpinv_closed, "lie.dexpinv.closed", .chapter = "core", .tags = "[NFOLD (6)]", .what = "dexpinv_xi(dexp_xi(eta)) of the closed forms against eta on se(3), 60 random pairs, |u| from 1e-3 to 6 (relative to |eta|)", .cond = 1024, .why = "dexp has norm up to 1 and dexpinv up to |beta| theta^2 ~ theta/(2 pi - theta) ~ 20 at theta = 6; each is ~30 roundings of O(1) products")
{
    cl_rng g;
    cl_rng_seed(&g, 6161);
    RV_DECL(xi, 6, prec); RV_DECL(eta, 6, prec); RV_DECL(d, 6, prec); RV_DECL(back, 6, prec);
    R_DECL(theta, prec);
    cl_check_begin(res);
    for (int k = 0; k < DRAWS; k++) {
        /* θ = 10⁻³ · 6000^(k/59), each rounded to a double and exact at every rung */
        r_set_d(theta, 1e-3 * pow(6000.0, k / (double)(DRAWS - 1)));
        draw_pair(xi, eta, &g, theta);
        int st = CL_FN(cl_se3_dexp)(d, xi, eta);
        if (!st) st = CL_FN(cl_se3_dexpinv)(back, xi, d);
        if (st) return st;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(back, eta, 6) - CL_FN(cl_rvec_log2_maxabs)(eta, 6),
                       "draw %d, theta = %.4g", k, 1e-3 * pow(6000.0, k / (double)(DRAWS - 1)));
    }
    return CL_OK;
}

/*
 * The Bernoulli series truncated after ad¹⁸, composed with the closed-form
 * dexp, against η. The tail Σ_{k≥20} (B_k/k!) ad_ξᵏ is at most
 * 2.2 (a/2π)^20/(1 − (a/2π)²) relative for ‖ad_ξ‖ ≤ a (|B_k|/k! ≤ 2.2/(2π)^k),
 * so each rung takes ‖ad_ξ‖ ≤ a = 2π·2^(−p/20)/2, which puts the tail below
 * 2^(−p); the term of B₁₈ is then about 2^(−0.9p) relative and any error in
 * a coefficient shows at the high rungs.
 */
CL_CHECK(lie_dexpinv_series, "lie.dexpinv.series", .chapter = "core", .tags = "[NFOLD (6)]", .what = "Bernoulli series of dexpinv after ad^18 composed with the closed-form dexp against eta, |ad_xi| <= pi 2^(-p/20) so the tail lies below rounding, 60 random pairs (relative to |eta|)", .cond = 256, .why = "nineteen nested brackets each a few roundings, the terms decreasing geometrically; dexp a further dozen roundings")
{
    cl_rng g;
    cl_rng_seed(&g, 6262);
    RV_DECL(xi, 6, prec); RV_DECL(eta, 6, prec); RV_DECL(d, 6, prec); RV_DECL(back, 6, prec);
    R_DECL(theta, prec); R_DECL(a, prec);
    cl_check_begin(res);
    /* ‖ad_ξ‖ ≤ |u| + |v| ≤ (1 + √3)|u| with v scaled to |u| below: a/(1 + √3) > a/3 */
    r_set_d(a, M_PI * exp2(-(double)prec / 20) / 3);
    for (int k = 0; k < DRAWS; k++) {
        r_set_d(theta, (k + 1) / (double)DRAWS);
        r_mul(theta, theta, a);
        draw_pair(xi, eta, &g, theta);
        for (int i = 3; i < 6; i++) r_mul(xi + i, xi + i, a);
        int st = CL_FN(cl_se3_dexp)(d, xi, eta);
        if (!st) st = CL_FN(cl_se3_dexpinv_series)(back, xi, d, 18);
        if (st) return st;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(back, eta, 6) - CL_FN(cl_rvec_log2_maxabs)(eta, 6),
                       "draw %d", k);
    }
    return CL_OK;
}

/* ------------------------------------------------------------- orders */

#if CL_PREC == CL_MPFR

/*
 * y′ = u(y) × y + v(y) on R³, the affine action of SE(3) (A, a)·y = Ay + a,
 * with ξ(y) = (u, v), u = (y₂, y₁y₃/2, 1), v = (y₃, 0, y₁²/4): nonlinear, so
 * the stages of every method and the dexp⁻¹ of RKMK all enter.
 */
static int affine_field(void *ctx, rptr xi, rsrc y)
{
    (void)ctx;
    r_set(xi, y + 1);
    r_mul(xi + 1, y, y + 2);
    r_mul_2si(xi + 1, xi + 1, -1);
    r_set_si(xi + 2, 1);
    r_set(xi + 3, y + 2);
    r_set_zero(xi + 4);
    r_sqr(xi + 5, y);
    r_mul_2si(xi + 5, xi + 5, -2);
    return CL_OK;
}

static int affine_exp_act(void *ctx, rptr y_out, rsrc xi, rsrc y)
{
    (void)ctx;
    RV_DECL(G, 12, r_prec(y_out));
    int st = CL_FN(cl_se3_exp)(G, xi);
    if (st) return st;
    m3_mul_v3(y_out, G, y);
    v3_add(y_out, y_out, G + 9);
    return CL_OK;
}

static int affine_dexpinv(void *ctx, rptr out, rsrc xi, rsrc eta)
{
    (void)ctx;
    return CL_FN(cl_se3_dexpinv)(out, xi, eta);
}

static int affine_bracket(void *ctx, rptr out, rsrc xi, rsrc eta)
{
    (void)ctx;
    CL_FN(cl_se3_bracket)(out, xi, eta);
    return CL_OK;
}

/*
 * The observed order log2(|y_N − y_2N| / |y_2N − y_4N|) at t = 1 from
 * y = (1, 1/2, −1/2) at 256 bits, minus the method's order; \p series ≥ 0
 * makes RKMK use the Bernoulli series of that order.
 */
static double lie_order_offset(int method, int series, long n0, char *note, size_t len)
{
    const cl_prec_t p = 256;
    CL_FN(cl_lie_problem) pb = {3, 6, NULL, affine_field, affine_exp_act, affine_dexpinv, affine_bracket};
    CL_FN(cl_lie_integrator) *w;
    if (CL_FN(cl_lie_new)(&w, &pb, method, p)) return NAN;
    if (series >= 0 && CL_FN(cl_lie_set_dexpinv_series)(w, series)) { CL_FN(cl_lie_free)(w); return NAN; }
    rptr y = CL_FN(cl_rvec_new)(9, p);
    R_DECL(h, p);
    int st = CL_OK;
    for (int k = 0; k < 3 && !st; k++) {
        rptr yk = y + 3 * k;
        r_set_si(yk, 1);
        r_set_q(yk + 1, 1, 2);
        r_set_q(yk + 2, -1, 2);
        r_set_q(h, 1, n0 << k);
        st = CL_FN(cl_lie_integrate_fixed)(w, yk, h, n0 << k);
    }
    int order = cl_lie_method_order(method);
    double d1 = CL_FN(cl_rvec_log2_maxdiff)(y, y + 3, 3), d2 = CL_FN(cl_rvec_log2_maxdiff)(y + 3, y + 6, 3);
    snprintf(note, len, "%s%s: log2|y_N - y_2N| = %.1f, log2|y_2N - y_4N| = %.1f (N = %ld): observed order %.2f, order %d",
             cl_lie_method_name(method), series >= 0 ? " (series dexpinv)" : "", d1, d2, n0, d1 - d2, order);
    CL_FN(cl_rvec_free)(y);
    CL_FN(cl_lie_free)(w);
    return st ? NAN : d1 - d2 - order;
}

/* What one Lie order row measures. */
typedef struct lie_order_case {
    int method, series;
    long n0;
} lie_order_case;

static double lie_order_measure(const void *arg, char *note, size_t len)
{
    const lie_order_case *c = arg;
    return lie_order_offset(c->method, c->series, c->n0, note, len);
}

/* The order rows: each measured once, passing when the offset from the order is within 0.5. */
static cl_check_once lie_order_once[6];

/*
 * The step control of RKMK45: accepted steps of the adaptive integration to
 * t = 1 at tolerances 2^-30 and 2^-50 (256 bits). The embedded pair's
 * estimate |y₅ − y₄| is O(h⁵) per step, so the step count grows like
 * tol^(−1/5): by 2^(20/5) = 16 between the two. Returns the offset of the
 * observed log2 ratio from 4, judged by the order rows' ±0.5 rule: an
 * estimate of order 4 or 6 would read 20/4 = 5 or 20/6 ≈ 3.33. NaN when a
 * run fails, which a wrong fourth-order weight does by exhausting the
 * budget of 10⁵ evaluations.
 */
static double lie_rkmk45_control_measure(const void *arg, char *note, size_t len)
{
    (void)arg;
    const cl_prec_t p = 256;
    CL_FN(cl_lie_problem) pb = {3, 6, NULL, affine_field, affine_exp_act, affine_dexpinv, affine_bracket};
    CL_FN(cl_lie_integrator) *w;
    if (CL_FN(cl_lie_new)(&w, &pb, CL_LIE_RKMK45, p)) return NAN;
    CL_FN(cl_lie_set_budget)(w, 100000);
    RV_DECL(y, 3, p);
    R_DECL(t0, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(tol, p);
    long nacc[2] = {0, 0}, nrej = 0;
    int st = CL_OK;
    for (int k = 0; k < 2 && !st; k++) {
        r_set_si(y, 1);
        r_set_q(y + 1, 1, 2);
        r_set_q(y + 2, -1, 2);
        r_set_zero(t0);
        r_set_si(t1, 1);
        r_set_q(h, 1, 16);
        r_set_si(tol, 1);
        r_mul_2si(tol, tol, k ? -50 : -30);
        st = CL_FN(cl_lie_integrate_adaptive)(w, y, t0, t1, h, tol, tol, nacc + k, &nrej);
    }
    CL_FN(cl_lie_free)(w);
    double ratio = st || nacc[0] <= 0 ? NAN : log2((double)nacc[1] / (double)nacc[0]);
    snprintf(note, len, "rkmk45 adaptive: %ld accepted steps at tol 2^-30, %ld at 2^-50 (status %d): log2 ratio %.2f, 20/5 = 4 expected",
             nacc[0], nacc[1], st, ratio);
    return ratio - 4.0;
}

int check_lie_rkmk45_control_run(cl_check_result *res)
{
    return cl_check_measured_once(res, lie_order_once + 5, 0.5, lie_rkmk45_control_measure, NULL);
}

int check_lie_order_run(cl_check_result *res, int which, int method, int series, long n0)
{
    const lie_order_case c = {method, series, n0};
    return cl_check_measured_once(res, lie_order_once + which, 0.5, lie_order_measure, &c);
}
#endif

/* Measured by the MPFR copy at 256 bits on every rung: both copies call the same run. */
int check_lie_order_run(cl_check_result *res, int which, int method, int series, long n0);
int check_lie_rkmk45_control_run(cl_check_result *res);

#define LIE_ORDER_WHY "the order is an integer and the reading is 2^order (1 + O(h)): within 0.5 it is nearer the order than either neighbour"

/* One row per method: the same measurement, each with its own description. */
#define LIE_ORDER_CHECK(id, name, what_, which, method, series, n0) \
    CL_CHECK(id, name, .chapter = "core", .tags = "[NFOLD (6)]", .what = what_, .cond = 1, .why = LIE_ORDER_WHY, \
             .kind = CL_CHECK_EXACT) { return check_lie_order_run(res, which, method, series, n0); }

LIE_ORDER_CHECK(lie_order_euler, "lie.order.lie-euler", "observed order of Lie-Euler on y' = u(y) x y + v(y) in R^3 under SE(3), N = 64, 128, 256 steps to t = 1, within 0.5 of 1 (at 256 bits on every rung)", 0, CL_LIE_EULER, -1, 64)
LIE_ORDER_CHECK(lie_order_rkmk4, "lie.order.rkmk4", "observed order of RKMK4 (closed-form dexpinv) on y' = u(y) x y + v(y) in R^3, N = 16, 32, 64 to t = 1, within 0.5 of 4 (at 256 bits on every rung)", 1, CL_LIE_RKMK4, -1, 16)
LIE_ORDER_CHECK(lie_order_rkmk4_series, "lie.order.rkmk4-series", "observed order of RKMK4 with dexpinv as the Bernoulli series after ad^2, N = 16, 32, 64 to t = 1, within 0.5 of 4 (at 256 bits on every rung)", 2, CL_LIE_RKMK4, 2, 16)
LIE_ORDER_CHECK(lie_order_cf4, "lie.order.cf4", "observed order of the commutator-free CF4 on y' = u(y) x y + v(y) in R^3, N = 16, 32, 64 to t = 1, within 0.5 of 4 (at 256 bits on every rung)", 3, CL_LIE_CF4, -1, 16)
LIE_ORDER_CHECK(lie_order_rkmk45, "lie.order.rkmk45", "observed order of fixed-step RKMK Dormand-Prince 5 on y' = u(y) x y + v(y) in R^3, N = 8, 16, 32 to t = 1, within 0.5 of 5 (at 256 bits on every rung)", 4, CL_LIE_RKMK45, -1, 8)

CL_CHECK(lie_rkmk45_control, "lie.rkmk45.control", .chapter = "core", .tags = "[NFOLD (6)]", .what = "adaptive RKMK Dormand-Prince 5(4) on y' = u(y) x y + v(y) to t = 1: accepted steps at tol 2^-50 over those at 2^-30 is 2^(20/5) = 16 within a factor sqrt(2) (the O(h^5) local estimate of the embedded pair; at 256 bits on every rung)", .cond = 1, .why = "the step count grows like tol^(-1/5) up to the rounding of a count of tens of steps (about 0.1 in log2): log2 of the ratio within 0.5 of 4, where an order-4 or order-6 estimate reads 5 or 3.33", .kind = CL_CHECK_EXACT)
{
    return check_lie_rkmk45_control_run(res);
}

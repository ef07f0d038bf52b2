/*
 * ODE integrators: measured orders of convergence against closed-form
 * solutions, tolerance control, conservation of the quadratic invariant by
 * Gauss–Legendre, event location to working precision, and error codes.
 *
 * Cheap parts (tableau identities, events, adaptive tolerances, error codes)
 * run at every precision of TEST_PRECISIONS; the order fits and the
 * long-time energy run use 256 bits only in the MPFR copy (53 in the double
 * copy), where the truncation error is far above rounding.
 */
#include <stdlib.h>
#include "tap_main.h"
#include "ode.h"

/* x' = x cos t, x(0) = 1: x(t) = exp(sin t). */
static int rhs_expsin(rptr dx, rsrc t, rsrc x, void *ctx)
{
    r_cos(dx, t);
    r_mul(dx, dx, x);
    return 0;
}

/* Harmonic oscillator x' = v, v' = −x: from (1, 0), (cos t, −sin t). */
static int rhs_osc(rptr dx, rsrc t, rsrc x, void *ctx)
{
    r_set(dx, x + 1);
    r_neg(dx + 1, x);
    return 0;
}

/* x' = 1: every method here integrates it exactly. */
static int rhs_one(rptr dx, rsrc t, rsrc x, void *ctx)
{
    r_set_si(dx, 1);
    return 0;
}

/* x' = x², x(0) = 1: blows up at t = 1. */
static int rhs_blowup(rptr dx, rsrc t, rsrc x, void *ctx)
{
    r_sqr(dx, x);
    return 0;
}

static int rhs_fail(rptr dx, rsrc t, rsrc x, void *ctx)
{
    return CL_EDOMAIN;
}

static int ev_cos_x(rptr g, rsrc t, rsrc x, void *ctx)
{
    r_cos(g, x);
    return 0;
}

static int ev_first(rptr g, rsrc t, rsrc x, void *ctx)
{
    r_set(g, x);
    return 0;
}

static int ev_second(rptr g, rsrc t, rsrc x, void *ctx)
{
    r_set(g, x + 1);
    return 0;
}

static int obs_count(rsrc t, rsrc x, size_t n, void *ctx)
{
    long *k = ctx;
    return ++*k >= 3 ? 1 : 0;
}

typedef struct {
    cl_ode_method m;
    int param;
    int order;
    const char *name;
    int N[4]; /* step counts over [0, 2] at 53 bits */
    int Nmp[4]; /* at 256 bits */
} order_case;

static const order_case cases[] = {
    {CL_ODE_RK4, 0, 4, "RK4", {20, 40, 80, 160}, {40, 80, 160, 320}},
    {CL_ODE_GAUSS, 1, 2, "Gauss-Legendre s=1", {40, 80, 160, 320}, {40, 80, 160, 320}},
    {CL_ODE_GAUSS, 2, 4, "Gauss-Legendre s=2", {10, 20, 40, 80}, {20, 40, 80, 160}},
    {CL_ODE_GAUSS, 3, 6, "Gauss-Legendre s=3", {5, 10, 20, 40}, {10, 20, 40, 80}},
    {CL_ODE_RKF78, 0, 8, "RKF78 (order-8 solution, fixed step)", {8, 10, 12, 16}, {80, 160, 320, 640}},
    {CL_ODE_GBS, 2, 4, "GBS 2 columns", {20, 40, 80, 160}, {40, 80, 160, 320}},
    {CL_ODE_GBS, 3, 6, "GBS 3 columns", {8, 16, 32, 64}, {16, 32, 64, 128}},
    {CL_ODE_GBS, 4, 8, "GBS 4 columns", {8, 10, 12, 16}, {10, 20, 40, 80}},
};

/* Least-squares slope of log2(err) against log2(h). */
static double fit_slope(const double *lh, const double *le, int m)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < m; i++) {
        sx += lh[i]; sy += le[i]; sxx += lh[i] * lh[i]; sxy += lh[i] * le[i];
    }
    return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

static void test_orders(cl_prec_t p)
{
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(ex, p);
    RV_DECL(x, 1, p);
    r_set_si(t1, 2);
    r_sin(ex, t1);
    r_exp(ex, ex);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const order_case *oc = &cases[c];
        CL_FN(cl_ode_ws) *ws;
        int st = CL_FN(cl_ode_ws_new)(&ws, 1, p, oc->m, oc->param);
        if (st) {
            ok(0, "%s workspace: %s", oc->name, cl_strerror(st));
            continue;
        }
        if (oc->m == CL_ODE_RKF78 || oc->m == CL_ODE_GBS) CL_FN(cl_ode_set_adaptive)(ws, 0);
        double lh[4], le[4];
        int good = 1;
        long evals = 0, steps = 0;
        for (int k = 0; k < 4; k++) {
            int N = p > 100 ? oc->Nmp[k] : oc->N[k];
            r_set_zero(t);
            r_set_si(x, 1);
            r_set_si(h, 2);
            r_div_si(h, h, N);
            cl_ode_stats s;
            st = CL_FN(cl_ode_integrate)(ws, rhs_expsin, NULL, t, x, t1, h, &s);
            if (st) good = 0;
            lh[k] = r_log2abs(h);
            le[k] = CL_FN(cl_rvec_log2_maxdiff)(x, ex, 1);
            if (k == 0) { evals = s.rhs_evals; steps = s.steps; }
        }
        double slope = fit_slope(lh, le, 4);
        diag("%s [%s, %ld bits]: errors 2^%.1f .. 2^%.1f, fitted order %.3f", oc->name, TEST_KIND, (long)p,
             le[0], le[3], slope);
        ok(good && fabs(slope - oc->order) <= 0.3, "%s converges with order %d (fitted %.2f) [%s, %ld bits]",
           oc->name, oc->order, slope, TEST_KIND, (long)p);
        /* Explicit methods use a fixed number of evaluations per step: 4,
         * 13, and 1 + Σ_{j≤k}(2j − 1) = 1 + k² for GBS. */
        long per = oc->m == CL_ODE_RK4 ? 4 : oc->m == CL_ODE_RKF78 ? 13
                 : oc->m == CL_ODE_GBS ? 1 + (long)oc->param * oc->param : 0;
        if (per) {
            int N = p > 100 ? oc->Nmp[0] : oc->N[0];
            ok(steps == N && evals == per * N, "%s: %d steps, %ld evaluations each [%s, %ld bits]", oc->name, N,
               per, TEST_KIND, (long)p);
        }
        CL_FN(cl_ode_ws_free)(ws);
    }
}

/* Gauss–Legendre tableau for s = 1..CL_ODE_GAUSS_MAX_STAGES: B(2s)
 * Σ b_j c_j^{k−1} = 1/k (k ≤ 2s), C(s) Σ_j a_ij c_j^{k−1} = c_i^k/k (k ≤ s),
 * and the symplecticity condition b_i a_ij + b_j a_ji = b_i b_j. Each residual
 * is a sum of s terms of size ≤ 1, each carrying a few units of rounding
 * from the Newton nodes, the weights and the Gauss-rule evaluation of a_ij:
 * tolerance 16·s units (observed ≤ 4 units at every s and precision). */
static void test_tableau(cl_prec_t p)
{
    const int S = CL_ODE_GAUSS_MAX_STAGES;
    RV_DECL(c, CL_ODE_GAUSS_MAX_STAGES, p); RV_DECL(A, CL_ODE_GAUSS_MAX_STAGES * CL_ODE_GAUSS_MAX_STAGES, p);
    RV_DECL(b, CL_ODE_GAUSS_MAX_STAGES, p);
    R_DECL(acc, p); R_DECL(pw, p); R_DECL(r, p); R_DECL(worst, p);
    for (int s = 1; s <= S; s++) {
        int st = CL_FN(cl_ode_gauss_tableau)(s, c, A, b);
        r_set_zero(worst);
        for (int k = 1; k <= 2 * s; k++) {
            r_set_zero(acc);
            for (int j = 0; j < s; j++) {
                r_pow_si(pw, c + j, k - 1);
                r_addmul(acc, b + j, pw);
            }
            r_set_q(r, 1, k);
            r_sub(acc, acc, r);
            if (r_cmpabs(acc, worst) > 0) r_abs(worst, acc);
        }
        for (int i = 0; i < s; i++)
            for (int k = 1; k <= s; k++) {
                r_set_zero(acc);
                for (int j = 0; j < s; j++) {
                    r_pow_si(pw, c + j, k - 1);
                    r_addmul(acc, A + i * s + j, pw);
                }
                r_pow_si(r, c + i, k);
                r_div_si(r, r, k);
                r_sub(acc, acc, r);
                if (r_cmpabs(acc, worst) > 0) r_abs(worst, acc);
            }
        for (int i = 0; i < s; i++)
            for (int j = 0; j < s; j++) {
                r_mul(acc, b + i, A + i * s + j);
                r_addmul(acc, b + j, A + j * s + i);
                r_submul(acc, b + i, b + j);
                if (r_cmpabs(acc, worst) > 0) r_abs(worst, acc);
            }
        ok(st == 0, "Gauss-Legendre s=%d tableau computed [%s, %ld bits]", s, TEST_KIND, (long)p);
        char name[96];
        snprintf(name, sizeof name, "Gauss-Legendre s=%d: B(2s), C(s), symplecticity", s);
        is_tiny(worst, 16.0 * s, name);
    }
}

/* Oscillator over N steps of h = 1/4. RK4 multiplies x² + v² per step by
 * |R(ih)|² = 1 − h⁶/72 + h⁸/576 (R the degree-4 Taylor polynomial of e^z);
 * Gauss–Legendre conserves quadratic invariants exactly, so its x² + v²
 * stays 1 up to rounding: N steps, each a few roundings of size ≤ 1 in the
 * update, give the bound 16·N units. */
static void test_energy(cl_prec_t p)
{
    const int N = 400;
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(E, p); R_DECL(one, p); R_DECL(R2, p); R_DECL(w, p);
    RV_DECL(x, 2, p);
    r_set_si(one, 1);
    r_set_q(h, 1, 4);
    r_set_si(t1, N);
    r_div_si(t1, t1, 4);
    for (int s = 1; s <= 3; s++) {
        CL_FN(cl_ode_ws) *ws;
        CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_GAUSS, s);
        r_set_zero(t);
        r_set_si(x, 1);
        r_set_zero(x + 1);
        cl_ode_stats st;
        int rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, &st);
        r_sqr(E, x);
        r_addmul(E, x + 1, x + 1);
        r_sub(E, E, one);
        diag("Gauss-Legendre s=%d, %d steps: |x^2+v^2-1| = 2^%.1f, %.1f fixed-point iterations per step", s, N,
             r_log2abs(E), (double)st.iterations / (double)st.steps);
        ok(rc == 0, "Gauss-Legendre s=%d integrates the oscillator [%s, %ld bits]", s, TEST_KIND, (long)p);
        char name[96];
        snprintf(name, sizeof name, "Gauss-Legendre s=%d conserves x^2+v^2 over %d steps", s, N);
        is_tiny(E, 16.0 * N, name);
        CL_FN(cl_ode_ws_free)(ws);
    }
    CL_FN(cl_ode_ws) *ws;
    CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_RK4, 0);
    r_set_zero(t);
    r_set_si(x, 1);
    r_set_zero(x + 1);
    CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL);
    r_sqr(E, x);
    r_addmul(E, x + 1, x + 1);
    /* (1 − h⁶/72 + h⁸/576)^N */
    r_pow_si(R2, h, 6);
    r_div_si(R2, R2, -72);
    r_pow_si(w, h, 8);
    r_div_si(w, w, 576);
    r_add(R2, R2, w);
    r_add_si(R2, R2, 1);
    r_pow_si(R2, R2, N);
    r_sub(w, E, one);
    diag("RK4, %d steps: x^2+v^2-1 = %.6g (drift)", N, r_get_d(w));
    ok(r_cmp_d(w, -1e-4) < 0, "RK4 energy drifts (x^2+v^2-1 = %.3g) [%s, %ld bits]", r_get_d(w), TEST_KIND, (long)p);
    is_real(E, R2, 16.0 * N, "RK4 energy decays as (1 - h^6/72 + h^8/576)^N");
    CL_FN(cl_ode_ws_free)(ws);
}

/* Adaptive RKF78 and GBS on the oscillator over [0, 10]: the global error is
 * at most C·tol with C = 10 (the error per unit step is controlled and the
 * oscillator does not amplify errors, so the global error is below
 * tol·T = 10·tol; the propagated higher-order solution is usually far
 * smaller). */
static void test_adaptive(cl_prec_t p)
{
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(tol, p); R_DECL(w, p);
    RV_DECL(x, 2, p); RV_DECL(ex, 2, p);
    r_set_si(t1, 10);
    r_cos(ex, t1);
    r_sin(ex + 1, t1);
    r_neg(ex + 1, ex + 1);
    for (int m = 0; m < 2; m++) {
        cl_ode_method meth = m ? CL_ODE_GBS : CL_ODE_RKF78;
        /* RKF78 needs ~tol^(−1/8) steps: its tolerance stops at 2^−80 */
        double l2tol = m ? 20.0 - (double)p : fmax(20.0 - (double)p, -80.0);
        CL_FN(cl_ode_ws) *ws;
        CL_FN(cl_ode_ws_new)(&ws, 2, p, meth, 0);
        r_set_si(tol, 1);
        r_mul_2si(tol, tol, (long)floor(l2tol));
        CL_FN(cl_ode_set_tol)(ws, tol, tol);
        r_set_zero(t);
        r_set_si(x, 1);
        r_set_zero(x + 1);
        r_set_zero(h);
        cl_ode_stats st;
        int rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, &st);
        double e = CL_FN(cl_rvec_log2_maxdiff)(x, ex, 2);
        diag("%s adaptive, tol 2^%.0f: error 2^%.1f, %ld steps, %ld rejected, %ld evaluations", cl_ode_method_name(meth),
             floor(l2tol), e, st.steps, st.rejected, st.rhs_evals);
        ok(rc == 0 && r_cmp(t, t1) == 0, "%s adaptive reaches t1 exactly [%s, %ld bits]", cl_ode_method_name(meth),
           TEST_KIND, (long)p);
        is_log2_below(e, floor(l2tol) + log2(10.0), "%s adaptive: error <= 10 tol [%s, %ld bits]",
                      cl_ode_method_name(meth), TEST_KIND, (long)p);
        (void)w;
        CL_FN(cl_ode_ws_free)(ws);
    }
}

/* Events. (a) x' = 1, g = cos x falling: the integration is exact, so t*
 * = π/2 to the bracket tolerance 4·2^(−p)·|t| plus one rounding of t:
 * factor 8 on 2^(1−p)·|t|. (b) The oscillator with GBS at tolerance
 * 2^(20−p): g = x₁ = cos t falls through 0 at π/2, then (resuming, any
 * direction) at 3π/2; the state error of the integration (≲ 2^(8−p), well
 * inside the tolerance since the propagated solution is of higher order)
 * divided by |g'| = 1 adds to the location error: factor 256. */
static void test_events(cl_prec_t p)
{
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(pi2, p); R_DECL(w, p); R_DECL(tol, p);
    RV_DECL(x, 2, p);
    r_const_pi(pi2);
    r_mul_2si(pi2, pi2, -1);
    const cl_ode_method ms[3] = {CL_ODE_RKF78, CL_ODE_GBS, CL_ODE_RK4};
    for (int m = 0; m < 3; m++) {
        CL_FN(cl_ode_ws) *ws;
        CL_FN(cl_ode_ws_new)(&ws, 1, p, ms[m], 0);
        CL_FN(cl_ode_set_event)(ws, ev_cos_x, NULL, CL_ODE_EVENT_FALLING);
        r_set_zero(t);
        r_set_zero(x);
        r_set_si(t1, 3);
        r_set_q(h, 3, 10);
        cl_ode_stats st;
        int rc = CL_FN(cl_ode_integrate)(ws, rhs_one, NULL, t, x, t1, h, &st);
        ok(rc == CL_ODE_EVENT, "%s: x'=1 with g = cos x stops at an event [%s, %ld bits]", cl_ode_method_name(ms[m]),
           TEST_KIND, (long)p);
        char name[96];
        snprintf(name, sizeof name, "%s: event at t* = pi/2 (%ld partial steps)", cl_ode_method_name(ms[m]),
                 st.event_evals);
        is_real(t, pi2, 8, name);
        CL_FN(cl_ode_ws_free)(ws);
    }
    CL_FN(cl_ode_ws) *ws;
    CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_GBS, 0);
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, 4 - (long)p);
    CL_FN(cl_ode_set_tol)(ws, tol, tol);
    CL_FN(cl_ode_set_event)(ws, ev_first, NULL, CL_ODE_EVENT_FALLING);
    r_set_zero(t);
    r_set_si(x, 1);
    r_set_zero(x + 1);
    r_set_si(t1, 10);
    r_set_zero(h);
    cl_ode_stats st;
    int rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, &st);
    ok(rc == CL_ODE_EVENT, "gbs: oscillator stops at the first zero of cos t [%s, %ld bits]", TEST_KIND, (long)p);
    diag("gbs event: |t* - pi/2| = 2^%.1f, %ld steps, %ld partial steps", (r_sub(w, t, pi2), r_log2abs(w)) - 0.0,
         st.steps, st.event_evals);
    is_real(t, pi2, 256, "gbs: first zero of cos t at pi/2");
    CL_FN(cl_ode_set_event)(ws, ev_first, NULL, CL_ODE_EVENT_ANY);
    rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, &st);
    r_mul_si(w, pi2, 3);
    ok(rc == CL_ODE_EVENT, "gbs: resumed, stops at the next zero [%s, %ld bits]", TEST_KIND, (long)p);
    is_real(t, w, 256, "gbs: next zero of cos t at 3 pi/2");
    /* g = v = −sin t from t = 0 (g = 0 there: no event) rises through 0 at π */
    CL_FN(cl_ode_set_event)(ws, ev_second, NULL, CL_ODE_EVENT_RISING);
    r_set_zero(t);
    r_set_si(x, 1);
    r_set_zero(x + 1);
    r_set_zero(h);
    rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, &st);
    r_mul_si(w, pi2, 2);
    ok(rc == CL_ODE_EVENT, "gbs: rising event of -sin t [%s, %ld bits]", TEST_KIND, (long)p);
    is_real(t, w, 256, "gbs: -sin t rises through 0 at pi");
    CL_FN(cl_ode_ws_free)(ws);
}

static void test_errors(cl_prec_t p)
{
    CL_FN(cl_ode_ws) *ws = NULL;
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(a, p); R_DECL(b, p);
    RV_DECL(x, 2, p);
    const char *k = TEST_KIND;
    long bits = (long)p;
    ok(CL_FN(cl_ode_ws_new)(&ws, 0, p, CL_ODE_RK4, 0) == CL_EDIM && !ws, "n = 0 gives CL_EDIM [%s, %ld]", k, bits);
    ok(CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_GAUSS, 0) == CL_EPARAM, "0 Gauss stages give CL_EPARAM [%s, %ld]", k,
       bits);
    ok(CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_GBS, 1) == CL_EPARAM, "1 GBS column gives CL_EPARAM [%s, %ld]", k, bits);
    ok(CL_FN(cl_ode_ws_new)(&ws, 2, p, (cl_ode_method)99, 0) == CL_EPARAM, "unknown method gives CL_EPARAM [%s, %ld]",
       k, bits);
    ok(CL_FN(cl_ode_ws_new)(&ws, 2, 0, CL_ODE_RK4, 0) == CL_EPREC, "precision 0 gives CL_EPREC [%s, %ld]", k, bits);
    CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_RK4, 0);
    r_set_zero(t);
    r_set_si(t1, 1);
    r_set_zero(h);
    r_set_si(x, 1);
    r_set_zero(x + 1);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL) == CL_EDOMAIN,
       "h = 0 for RK4 gives CL_EDOMAIN [%s, %ld]", k, bits);
    r_set_si(h, -1);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL) == CL_EDOMAIN,
       "h pointing away from t1 gives CL_EDOMAIN [%s, %ld]", k, bits);
    r_set_q(h, 1, 8);
    r_set_d(x + 1, NAN);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL) == CL_ENAN, "NaN state gives CL_ENAN [%s, %ld]",
       k, bits);
    r_set_zero(x + 1);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_fail, NULL, t, x, t1, h, NULL) == CL_EDOMAIN,
       "an error of the right-hand side is returned unchanged [%s, %ld]", k, bits);
    ok(CL_FN(cl_ode_set_adaptive)(ws, 1) == CL_EPARAM, "RK4 has no error control: CL_EPARAM [%s, %ld]", k, bits);
    long calls = 0;
    CL_FN(cl_ode_set_observer)(ws, obs_count, &calls);
    r_set_zero(t);
    int rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL);
    /* called at t0, after step 1, after step 2 (returns 1 there): t = 2h */
    r_mul_si(a, h, 2);
    ok(rc == CL_ODE_STOPPED && calls == 3 && r_cmp(t, a) == 0, "observer stops after two steps [%s, %ld]", k, bits);
    CL_FN(cl_ode_set_observer)(ws, NULL, NULL);
    /* RK4 takes 4 evaluations a step: 8 steps of 1/8 need 32; a budget of 22
       ends during step 6, at the last accepted point t = 5/8 */
    CL_FN(cl_ode_set_budget)(ws, 22);
    r_set_zero(t);
    rc = CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL);
    r_set_q(a, 5, 8);
    ok(rc == CL_EBUDGET && r_cmp(t, a) == 0, "a budget of 22 evaluations ends RK4 at t = 5/8 with CL_EBUDGET [%s, %ld]", k, bits);
    CL_FN(cl_ode_set_budget)(ws, 32);
    r_set_zero(t);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL) == CL_OK && r_cmp(t, t1) == 0,
       "a budget of exactly 32 evaluations reaches t = 1 [%s, %ld]", k, bits);
    CL_FN(cl_ode_ws_free)(ws);

    /* Gauss–Legendre s = 2 with h = 10 on the oscillator: the fixed-point map
     * Z ↦ h A F(Z) has spectral radius h·ρ(A) = 10/√12 ≈ 2.9 > 1 */
    CL_FN(cl_ode_ws_new)(&ws, 2, p, CL_ODE_GAUSS, 2);
    r_set_zero(t);
    r_set_si(t1, 10);
    r_set_si(h, 10);
    r_set_si(x, 1);
    r_set_zero(x + 1);
    ok(CL_FN(cl_ode_integrate)(ws, rhs_osc, NULL, t, x, t1, h, NULL) == CL_ENOCONV && r_is_zero(t),
       "diverging Gauss-Legendre stage iteration gives CL_ENOCONV [%s, %ld]", k, bits);
    CL_FN(cl_ode_ws_free)(ws);

    CL_FN(cl_ode_ws_new)(&ws, 1, p, CL_ODE_RKF78, 0);
    r_set_si(a, -1);
    r_set_si(b, 1);
    ok(CL_FN(cl_ode_set_tol)(ws, a, b) == CL_EPARAM, "negative tolerance gives CL_EPARAM [%s, %ld]", k, bits);
    r_set_d(a, NAN);
    ok(CL_FN(cl_ode_set_tol)(ws, a, b) == CL_ENAN, "NaN tolerance gives CL_ENAN [%s, %ld]", k, bits);
    r_set_si(a, 1);
    r_mul_2si(a, a, -40);
    CL_FN(cl_ode_set_tol)(ws, a, a);
    r_set_zero(t);
    r_set_si(t1, 2);
    r_set_zero(h);
    r_set_si(x, 1);
    cl_ode_stats st;
    rc = CL_FN(cl_ode_integrate)(ws, rhs_blowup, NULL, t, x, t1, h, &st);
    /* the step size collapses at the singularity (possibly a hair past it) */
    ok(rc == CL_ESTEP && fabs(r_get_d(t) - 1.0) < 1e-6,
       "x' = x^2 towards its blow-up at t = 1 gives CL_ESTEP there (t = %.12g) [%s, %ld]", r_get_d(t), k, bits);
    CL_FN(cl_ode_ws_free)(ws);
}

/* The orders and the energy drift take longest: at 53 and 256 bits only. */
static void run(cl_prec_t p)
{
    test_tableau(p);
    test_adaptive(p);
    test_events(p);
    test_errors(p);
    if (p == 53 || p == 256) {
        test_orders(p);
        test_energy(p);
    }
}

int main(void) { return cl_test_main(run); }

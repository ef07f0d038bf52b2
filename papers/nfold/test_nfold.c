/*
 * The N-fold pendulum through SE(3)ᴺ [NFOLD (1)–(9)].
 *
 * Expected values: the residual of [S2 (40)] written out here term by term
 * (O(N²), independent of both solves), the closed form of the spherical
 * pendulum for N = 1, the group-action law, the derivative of the action
 * for the generator, conservation of |q_i|, q_i·ω_i by the action and of the
 * energy by the integrators. The three routes to h, Ψ_*(f(m)) = F(m), the
 * manifold drift of the integrators and their orders are the oracle rows
 * nfold.field.s2_40, nfold.manifold.* and nfold.order.*.
 */
#include "tap_real.h"
#include "r3.h"
#include "lie.h"
#include "nfold.h"
#include "nfold_fixtures_impl.h"
#include <stdlib.h>

static CL_FN(cl_nfold) *make_g(size_t n, cl_prec_t p, int dense, const char *gs) { return nfold_make(n, p, dense, gs); }

static CL_FN(cl_nfold) *make(size_t n, cl_prec_t p, int dense) { return make_g(n, p, dense, "9.81"); }

/* log2 of the largest residual of [S2 (40)] at ω̇ = h, relative to the largest term. */
static double s2_40_residual(const CL_FN(cl_nfold) *s, rsrc y, rsrc h)
{
    size_t n = s->n;
    cl_prec_t p = s->prec;
    RV_DECL(res, 3, p); RV_DECL(t, 3, p); RV_DECL(u, 3, p); RV_DECL(e3, 3, p);
    R_DECL(c, p); R_DECL(x, p);
    v3_set_d(e3, 0, 0, 1);
    double worst = -INFINITY, scale = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        rsrc qi = y + 3 * i;
        /* M_ii l_i² ω̇_i */
        r_sqr(c, s->l + i);
        r_mul(c, c, s->mtail + i);
        v3_scale(res, c, h + 3 * i);
        double sc = CL_FN(cl_rvec_log2_maxabs)(res, 3);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            rsrc qj = y + 3 * j, wj = y + 3 * (n + j);
            r_mul(c, s->l + i, s->l + j);
            r_mul(c, c, s->mtail + (i > j ? i : j));
            /* + M_ij l_i l_j S(q_i)ᵀ S(q_j) ω̇_j = −M q_i × (q_j × ω̇_j) */
            v3_cross(t, qj, h + 3 * j);
            v3_cross(t, qi, t);
            r_neg(x, c);
            v3_axpy(res, x, t);
            /* − M_ij l_i l_j ‖ω_j‖² S(q_i) q_j */
            v3_cross(u, qi, qj);
            v3_dot(x, wj, wj);
            r_mul(x, x, c);
            r_neg(x, x);
            v3_axpy(res, x, u);
            double a = CL_FN(cl_rvec_log2_maxabs)(t, 3) + r_log2abs(c);
            if (a > sc) sc = a;
        }
        /* − Σ_{j≥i} m_j g l_i S(e3) q_i */
        r_mul(c, s->mtail + i, s->g);
        r_mul(c, c, s->l + i);
        v3_cross(u, e3, qi);
        r_neg(c, c);
        v3_axpy(res, c, u);
        double e = CL_FN(cl_rvec_log2_maxabs)(res, 3);
        if (e > worst) worst = e;
        if (sc > scale) scale = sc;
    }
    return worst - (scale > 0 ? scale : 0);
}

static void test_field(cl_prec_t p)
{
    static const size_t NS[] = {1, 2, 3, 5, 8};
    cl_rng g;
    cl_rng_seed(&g, 1234);
    double w_res = -INFINITY, w_tan = -INFINITY;
    for (int k = 0; k < 5; k++) {
        size_t n = NS[k];
        CL_FN(cl_nfold) *s = make(n, p, 0);
        rptr y = CL_FN(cl_rvec_new)(6 * n, p), h = CL_FN(cl_rvec_new)(3 * n, p);
        R_DECL(d, p);
        for (int draw = 0; draw < 4; draw++) {
            nfold_random_state(y, n, &g, 1.5);
            CL_FN(cl_nfold_h)(s, h, y);
            w_res = fmax(w_res, s2_40_residual(s, y, h));
            for (size_t i = 0; i < n; i++) {
                v3_dot(d, y + 3 * i, h + 3 * i);
                w_tan = fmax(w_tan, r_log2abs(d));
            }
        }
        CL_FN(cl_rvec_free)(y); CL_FN(cl_rvec_free)(h);
        CL_FN(cl_nfold_free)(s);
    }
    /* The tridiagonal solve for N = 8 with unit vectors in random directions: condition
     * of the tension system a few hundred; 4096 ulps relative to the largest term. */
    is_log2_below(w_res, tol_log2(p, 4096), "O(N) h satisfies S2 (40), N = 1,2,3,5,8 [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(w_tan, tol_log2(p, 256), "h_i tangent to q_i [%s, %ld bits]", TEST_KIND, (long)p);
}

static void test_pendulum_one(cl_prec_t p)
{
    /* N = 1: m L² ω̇ = −m g L q × e₃, so h = −(g/L) q × e₃ (no centripetal term). */
    CL_FN(cl_nfold) *s = make(1, p, 0);
    RV_DECL(y, 6, p); RV_DECL(h, 3, p); RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    R_DECL(c, p);
    cl_rng g;
    cl_rng_seed(&g, 5);
    nfold_random_state(y, 1, &g, 1.5);
    CL_FN(cl_nfold_h)(s, h, y);
    v3_set_d(e3, 0, 0, 1);
    v3_cross(w, y, e3);
    r_div(c, s->g, s->l);
    r_neg(c, c);
    v3_scale(w, c, w);
    is_log2_below(CL_FN(cl_rvec_log2_maxdiff)(h, w, 3), tol_log2(p, 64) + 4,
                  "N = 1: h = -(g/L) q x e3 [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_nfold_free)(s);
}

static void test_action(cl_prec_t p)
{
    size_t n = 3;
    cl_rng g;
    cl_rng_seed(&g, 99);
    RV_DECL(y, 18, p); RV_DECL(y1, 18, p); RV_DECL(y2, 18, p); RV_DECL(y3, 18, p);
    RV_DECL(x1, 18, p); RV_DECL(x2, 18, p); RV_DECL(G1, 36, p); RV_DECL(G2, 36, p); RV_DECL(G12, 36, p);
    RV_DECL(F, 18, p); RV_DECL(D, 18, p);
    R_DECL(t, p); R_DECL(d, p);
    nfold_random_state(y, n, &g, 1.5);
    for (size_t i = 0; i < 18; i++) {
        r_set_d(x1 + i, cl_rng_range(&g, -1, 1));
        r_set_d(x2 + i, cl_rng_range(&g, -1, 1));
    }
    for (size_t i = 0; i < n; i++) {
        CL_FN(cl_se3_exp)(G1 + 12 * i, x1 + 6 * i);
        CL_FN(cl_se3_exp)(G2 + 12 * i, x2 + 6 * i);
        /* (B, b)(A, a) = (BA, Ba + b) */
        m3_mul(G12 + 12 * i, G1 + 12 * i, G2 + 12 * i);
        m3_mul_v3(G12 + 12 * i + 9, G1 + 12 * i, G2 + 12 * i + 9);
        v3_add(G12 + 12 * i + 9, G12 + 12 * i + 9, G1 + 12 * i + 9);
    }
    CL_FN(cl_nfold_act)(y1, G2, y, n);
    CL_FN(cl_nfold_act)(y2, G1, y1, n);
    CL_FN(cl_nfold_act)(y3, G12, y, n);
    is_log2_below(CL_FN(cl_rvec_log2_maxdiff)(y2, y3, 18), tol_log2(p, 64),
                  "psi(g1, psi(g2, m)) = psi(g1 g2, m) [%s, %ld bits]", TEST_KIND, (long)p);
    double wu = -INFINITY, wt = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        v3_dot(d, y2 + 3 * i, y2 + 3 * i);
        r_add_si(d, d, -1);
        if (r_log2abs(d) > wu) wu = r_log2abs(d);
        v3_dot(d, y2 + 3 * i, y2 + 3 * (n + i));
        if (r_log2abs(d) > wt) wt = r_log2abs(d);
    }
    is_log2_below(wu, tol_log2(p, 32), "the action keeps |q_i| = 1 [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(wt, tol_log2(p, 64), "the action keeps q_i . omega_i = 0 [%s, %ld bits]", TEST_KIND, (long)p);
    /* Generator: central difference (ψ(exp(tξ), m) − ψ(exp(−tξ), m))/(2t) = Ψ_*(ξ) + O(t²),
     * t = 2^(−p/3): truncation and rounding both about 2^(−2p/3). */
    r_set_si(t, 1);
    r_mul_2si(t, t, -(long)p / 3);
    for (size_t i = 0; i < 18; i++) r_mul(x2 + i, x1 + i, t);
    CL_FN(cl_nfold_exp_act)(y1, x2, y, n);
    for (size_t i = 0; i < 18; i++) r_neg(x2 + i, x2 + i);
    CL_FN(cl_nfold_exp_act)(y2, x2, y, n);
    for (size_t i = 0; i < 18; i++) {
        r_sub(D + i, y1 + i, y2 + i);
        r_div(D + i, D + i, t);
        r_mul_2si(D + i, D + i, -1);
    }
    CL_FN(cl_nfold_generator)(F, x1, y, n);
    double e = CL_FN(cl_rvec_log2_maxdiff)(F, D, 18);
    ok(e < -2.0 * (double)p / 3 + 6, "generator = derivative of the action, error 2^%.1f [%s, %ld bits]", e, TEST_KIND, (long)p);
}

/* Energy over t = 10 on N = 3 with the fourth- and fifth-order methods. */
static void test_energy(cl_prec_t p)
{
    size_t n = 3;
    /* g = 1: the slow chain of the oracle rows nfold.manifold.*, from the same state. */
    CL_FN(cl_nfold) *s = make_g(n, p, 0, "1");
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_nfold_lie_problem)(s, &pb, 0);
    rptr y0 = CL_FN(cl_rvec_new)(6 * n, p), y = CL_FN(cl_rvec_new)(6 * n, p);
    cl_rng g;
    cl_rng_seed(&g, 77);
    nfold_gentle_state(y0, n, &g);
    R_DECL(h, p); R_DECL(E0, p); R_DECL(E1, p);
    r_set_q(h, 1, 100);
    CL_FN(cl_nfold_energy)(s, E0, y0);
    for (int m = CL_LIE_EULER; m <= CL_LIE_RKMK45; m++) {
        if (cl_lie_method_order(m) < 4) continue;
        CL_FN(cl_lie_integrator) *w;
        CL_FN(cl_lie_new)(&w, &pb, m, p);
        CL_FN(cl_rvec_copy)(y, y0, 6 * n);
        CL_FN(cl_lie_integrate_fixed)(w, y, h, 1000);
        CL_FN(cl_nfold_energy)(s, E1, y);
        r_sub(E1, E1, E0);
        double de = r_log2abs(E1) - r_log2abs(E0);
        diag("N=3 %s after 1000 steps: relative energy change 2^%.1f", cl_lie_method_name(m), de);
        /* Energy is not conserved exactly by these methods, but for orders ≥ 4 the global
         * error over t = 10 is C h^4 with h^4 = 1e-8: below 1e-5 with room for C. */
        ok(de < log2(1e-5), "N=3 %s energy change below 1e-5 over t = 10 [%s, %ld bits]", cl_lie_method_name(m),
           TEST_KIND, (long)p);
        CL_FN(cl_lie_free)(w);
    }
    CL_FN(cl_rvec_free)(y0); CL_FN(cl_rvec_free)(y);
    CL_FN(cl_nfold_free)(s);
}

static int count_out(void *ctx, rsrc t, rsrc y)
{
    (void)t; (void)y;
    ++*(long *)ctx;
    return 0;
}

/* cl_nfold_simulate: fixed steps land on t1 and equal cl_lie_step; rkmk45 meets its tolerance. */
static void test_simulate(cl_prec_t p)
{
    size_t n = 2;
    CL_FN(cl_nfold) *s = make_g(n, p, 0, "1");
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_nfold_lie_problem)(s, &pb, 0);
    RV_DECL(y0, 12, p); RV_DECL(y, 12, p); RV_DECL(z, 12, p);
    R_DECL(t1, p); R_DECL(h, p); R_DECL(tol, p);
    cl_rng g;
    cl_rng_seed(&g, 3);
    nfold_gentle_state(y0, n, &g);
    r_set_q(t1, 1, 2);
    r_set_q(h, 3, 40);  /* 0.5 = 6 steps of 0.075 and one of 0.05 */
    long nout = 0;
    CL_FN(cl_rvec_copy)(y, y0, 12);
    int st = CL_FN(cl_nfold_simulate)(s, CL_LIE_CF4, y, t1, h, h, h, count_out, &nout);
    CL_FN(cl_lie_integrator) *w;
    CL_FN(cl_lie_new)(&w, &pb, CL_LIE_CF4, p);
    CL_FN(cl_rvec_copy)(z, y0, 12);
    CL_FN(cl_lie_integrate_fixed)(w, z, h, 6);
    r_set_q(h, 1, 20);
    CL_FN(cl_lie_step)(w, z, h);
    CL_FN(cl_lie_free)(w);
    /* t accumulates 6 roundings, so the last step may differ from 1/20 by a few ulps. */
    ok(st == 0 && nout == 7 && CL_FN(cl_rvec_log2_maxdiff)(y, z, 12) <= tol_log2(p, 64),
       "simulate cf4: 7 outputs, the last step shortened to land on t1 [%s, %ld bits]", TEST_KIND, (long)p);
    /* rkmk45 with tolerance 1e-12 against cf4 with 4000 steps (error ~ 1e-14 at g = 1). */
    r_set_q(h, 1, 10);
    r_set_d(tol, 1e-12);
    CL_FN(cl_rvec_copy)(y, y0, 12);
    st = CL_FN(cl_nfold_simulate)(s, CL_LIE_RKMK45, y, t1, h, tol, tol, NULL, NULL);
    CL_FN(cl_lie_new)(&w, &pb, CL_LIE_CF4, p);
    CL_FN(cl_rvec_copy)(z, y0, 12);
    r_set_q(h, 1, 8000);
    CL_FN(cl_lie_integrate_fixed)(w, z, h, 4000);
    CL_FN(cl_lie_free)(w);
    double e = CL_FN(cl_rvec_log2_maxdiff)(y, z, 12);
    ok(st == 0 && e < log2(1e-10), "simulate rkmk45 at tol 1e-12: error 2^%.1f below 1e-10 [%s, %ld bits]", e, TEST_KIND,
       (long)p);
    ok(CL_FN(cl_nfold_simulate)(s, 99, y, t1, h, tol, tol, NULL, NULL) == CL_EPARAM,
       "simulate with an unknown method is CL_EPARAM [%s, %ld bits]", TEST_KIND, (long)p);
    ok(cl_lie_method_from_name("rkmk4") == CL_LIE_RKMK4 && cl_lie_method_from_name("lie-euler") == CL_LIE_EULER &&
       cl_lie_method_from_name("cf4") == CL_LIE_CF4 && cl_lie_method_from_name("rkmk45") == CL_LIE_RKMK45 &&
       cl_lie_method_from_name("rk4") == CL_EPARAM, "integrator names of the command line");
    CL_FN(cl_nfold_free)(s);
}

static void test_errors(cl_prec_t p)
{
    RV_DECL(m, 2, p); RV_DECL(l, 2, p);
    R_DECL(g, p);
    CL_FN(cl_nfold) *bad = NULL;
    r_set_si(m, 1); r_set_si(m + 1, -1); r_set_si(l, 1); r_set_si(l + 1, 1); r_set_si(g, 1);
    ok(CL_FN(cl_nfold_new)(&bad, 2, m, l, g, p, 0) == CL_EPARAM && !bad, "negative mass rejected [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_nfold_new)(&bad, 0, m, l, g, p, 0) == CL_EDIM && !bad, "N = 0 rejected [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_nfold) *s = make(1, p, 0);
    RV_DECL(y, 6, p);
    v3_set_d(y, 1, 0, 0);
    v3_set_d(y + 3, 0.5, 1, 0);
    ok(CL_FN(cl_nfold_check_state)(s, y, 8) == CL_ENOTTANGENT, "non-tangent omega rejected [%s, %ld bits]", TEST_KIND, (long)p);
    v3_set_d(y, 1, 0.1, 0);
    ok(CL_FN(cl_nfold_check_state)(s, y, 8) == CL_ENOTUNIT, "non-unit q rejected [%s, %ld bits]", TEST_KIND, (long)p);
    RV_DECL(h, 3, p);
    ok(CL_FN(cl_nfold_h_dense)(s, h, y) == CL_EPARAM, "dense route without its workspace is CL_EPARAM [%s, %ld bits]",
       TEST_KIND, (long)p);
    CL_FN(cl_nfold_free)(s);
}

/* Everything that runs at each test precision. */
static void run(cl_prec_t p)
{
    test_field(p);
    test_pendulum_one(p);
    test_action(p);
    test_errors(p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    test_energy(CL_PREC == CL_DOUBLE ? 53 : 113);
    test_simulate(CL_PREC == CL_DOUBLE ? 53 : 113);
    return done_testing();
}

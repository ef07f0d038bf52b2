/*
 * Shared by the tests and oracle checks of chapters S2 III–V (templated
 * sources only): seeded random systems and states, and the four-form
 * comparison.
 */
#ifndef CL_S2_FORMS_COMMON_H
#define CL_S2_FORMS_COMMON_H
#include <math.h>
#include "r3.h"
#include "s2_chain.h"
#include "s2_coupled.h"

/* Parameters of a random chain, as doubles (exactly those of the chain). */
typedef struct s2t_chain_par { double m[64], l[64], tau[3], d[3]; } s2t_chain_par;

/*
 * A random chain: masses in [0.5, 2], lengths in [0.5, 1.5], g = 9.81 (as a
 * decimal string); with control, τ and d in [−1, 1]³. par (may be NULL,
 * n ≤ 64) receives the parameters.
 */
static inline CL_FN(cl_chain) *s2t_random_chain_par(size_t n, cl_prec_t p, cl_rng *g, int controlled,
                                                  s2t_chain_par *par)
{
    RV_DECL(m, n, p);
    RV_DECL(l, n, p);
    R_DECL(grav, p);
    for (size_t i = 0; i < n; i++) {
        double mi = cl_rng_range(g, 0.5, 2), li = cl_rng_range(g, 0.5, 1.5);
        r_set_d(m + i, mi);
        r_set_d(l + i, li);
        if (par && i < 64) { par->m[i] = mi; par->l[i] = li; }
    }
    if (par) for (int k = 0; k < 3; k++) par->tau[k] = par->d[k] = 0;
    CL_FN(cl_real_from_str)(grav, "9.81");
    CL_FN(cl_chain) *ch = NULL;
    if (CL_FN(cl_chain_new)(&ch, n, m, l, grav, p)) return NULL;
    if (controlled) {
        RV_DECL(tau, 3, p);
        RV_DECL(d, 3, p);
        for (int k = 0; k < 3; k++) {
            double a = cl_rng_range(g, -1, 1), b = cl_rng_range(g, -1, 1);
            r_set_d(tau + k, a);
            r_set_d(d + k, b);
            if (par) { par->tau[k] = a; par->d[k] = b; }
        }
        CL_FN(cl_chain_set_control)(ch, tau, d);
    }
    return ch;
}

static inline CL_FN(cl_chain) *s2t_random_chain(size_t n, cl_prec_t p, cl_rng *g, int controlled)
{
    return s2t_random_chain_par(n, p, g, controlled, NULL);
}

/* A random coupled system (s2_coupled.c): a_i in [n, 2n], b = 0.7, c = 0.5, k_i in [−2, 2], κ = 0.3. */
static inline CL_FN(cl_s2_coupled) *s2t_random_coupled(size_t n, cl_prec_t p, cl_rng *g, int damped)
{
    RV_DECL(a, n, p);
    RV_DECL(k, n, p);
    R_DECL(b, p); R_DECL(c, p); R_DECL(kappa, p); R_DECL(dmp, p);
    for (size_t i = 0; i < n; i++) {
        r_set_d(a + i, cl_rng_range(g, (double)n, 2.0 * (double)n));
        r_set_d(k + i, cl_rng_range(g, -2, 2));
    }
    r_set_q(b, 7, 10);
    r_set_q(c, 1, 2);
    r_set_q(kappa, 3, 10);
    r_set_q(dmp, damped ? 1 : 0, 4);
    CL_FN(cl_s2_coupled) *s = NULL;
    if (CL_FN(cl_s2_coupled_new)(&s, n, a, b, c, k, kappa, dmp, p)) return NULL;
    return s;
}

/* x = (q, q̇): random unit q_i, tangent q̇_i with entries of size ~scale. */
static inline void s2t_random_state(rptr x, size_t n, double scale, cl_rng *g)
{
    for (size_t i = 0; i < n; i++) {
        CL_FN(cl_v3_random_unit)(x + 3 * i, g);
        CL_FN(cl_v3_random_tangent)(x + 3 * (n + i), x + 3 * i, scale, g);
    }
}

/*
 * Four-form agreement at the (q, q̇) state x: carry x to every form, evaluate
 * that form's field (generic dense routines, or the chain's O(n) ones when
 * ch is not NULL), carry the result back to (q̇, q̈) and return log2 of the
 * largest difference from the (q, q̇) form's (q̇, q̈), relative to
 * max(1, ‖(q̇, q̈)‖∞). scratch holds 4·6n numbers. Returns NaN on error.
 */
static inline double s2t_form_disagreement(CL_FN(cl_s2_quad_ws) *ws, CL_FN(cl_chain) *ch, rsrc x, rptr scratch)
{
    size_t n = CL_FN(cl_s2_quad_ws_n)(ws);
    rptr ref = scratch, y = scratch + 6 * n, dy = scratch + 12 * n, back = scratch + 18 * n;
    int st = ch ? CL_FN(cl_chain_rhs)(ch, CL_S2_QDOT, ref, x) : CL_FN(cl_s2_quad_rhs_qdot)(ws, ref, x);
    if (st) return NAN;
    double scale = CL_FN(cl_rvec_log2_maxabs)(ref, 6 * n);
    if (scale < 0) scale = 0;
    double worst = -INFINITY;
    for (int form = CL_S2_OMEGA; form <= CL_S2_PI; form++) {
        if (CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y)) return NAN;
        st = ch ? CL_FN(cl_chain_rhs)(ch, form, dy, y) : CL_FN(cl_s2_quad_rhs)(ws, form, dy, y);
        if (st) return NAN;
        /* q̇ of the form's field, then q̈ carried back */
        CL_FN(cl_rvec_copy)(back, dy, 3 * n);
        if (CL_FN(cl_s2_quad_accel_from)(ws, form, back + 3 * n, y, dy)) return NAN;
        double e = CL_FN(cl_rvec_log2_maxdiff)(back, ref, 6 * n) - scale;
        if (e > worst || isnan(e)) worst = e;
    }
    return worst;
}
#endif

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
#include "ode.h"
#include "check.h"

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

/*
 * A random coupled system (s2_coupled.c): a_i in [n, 2n], b = 0.7, c = 0.5,
 * k_i in [−2, 2], κ = 0.3, δ = 1/4 when damped (else 0). a_out and k_out
 * (may be NULL) receive the a_i and k_i drawn.
 */
static inline CL_FN(cl_s2_coupled) *s2t_random_coupled_par(size_t n, cl_prec_t p, cl_rng *g, int damped, rptr a_out,
                                                           rptr k_out)
{
    RV_DECL(a, n, p);
    RV_DECL(k, n, p);
    R_DECL(b, p); R_DECL(c, p); R_DECL(kappa, p); R_DECL(dmp, p);
    for (size_t i = 0; i < n; i++) {
        r_set_d(a + i, cl_rng_range(g, (double)n, 2.0 * (double)n));
        r_set_d(k + i, cl_rng_range(g, -2, 2));
        if (a_out) r_set(a_out + i, a + i);
        if (k_out) r_set(k_out + i, k + i);
    }
    r_set_q(b, 7, 10);
    r_set_q(c, 1, 2);
    r_set_q(kappa, 3, 10);
    r_set_q(dmp, damped ? 1 : 0, 4);
    CL_FN(cl_s2_coupled) *s = NULL;
    if (CL_FN(cl_s2_coupled_new)(&s, n, a, b, c, k, kappa, dmp, p)) return NULL;
    return s;
}

static inline CL_FN(cl_s2_coupled) *s2t_random_coupled(size_t n, cl_prec_t p, cl_rng *g, int damped)
{
    return s2t_random_coupled_par(n, p, g, damped, NULL, NULL);
}

/* A system under test: a random chain or coupled system, its workspace and description. */
typedef struct s2t_sys {
    CL_FN(cl_chain) *ch;       /* the chain, or NULL */
    CL_FN(cl_s2_coupled) *cp;  /* the coupled system, or NULL */
    CL_FN(cl_s2_quad_ws) *ws;
    const CL_FN(cl_s2_quad) *quad;
} s2t_sys;

/*
 * A random chain (coupled = 0; τ and d drawn when forced) or coupled system
 * (coupled = 1; damped when forced) of n spheres. CL_ENOMEM when it cannot
 * be made.
 */
static inline int s2t_sys_new(s2t_sys *s, int coupled, size_t n, cl_prec_t p, cl_rng *g, int forced)
{
    s->ch = coupled ? NULL : s2t_random_chain(n, p, g, forced);
    s->cp = coupled ? s2t_random_coupled(n, p, g, forced) : NULL;
    if (!s->ch && !s->cp) return CL_ENOMEM;
    s->ws = s->ch ? CL_FN(cl_chain_ws)(s->ch) : CL_FN(cl_s2_coupled_ws)(s->cp);
    s->quad = s->ch ? CL_FN(cl_chain_quad)(s->ch) : CL_FN(cl_s2_coupled_quad)(s->cp);
    return CL_OK;
}

static inline void s2t_sys_free(s2t_sys *s)
{
    CL_FN(cl_chain_free)(s->ch);
    CL_FN(cl_s2_coupled_free)(s->cp);
}

/* The field of form `form` at y: the chain's O(n) one when ch is not NULL, else the dense one of ws. */
static inline int s2t_rhs(CL_FN(cl_s2_quad_ws) *ws, CL_FN(cl_chain) *ch, int form, rptr dy, rsrc y)
{
    return ch ? CL_FN(cl_chain_rhs)(ch, form, dy, y) : CL_FN(cl_s2_quad_rhs)(ws, form, dy, y);
}

/* ṁ_jk = Σ_i ∂m_jk/∂q_i · q̇_i from dm (3n³, the layout of cl_s2_quad.inertia_grad); t: scratch. */
static inline void s2t_mdot(rptr md, rsrc dm, size_t n, size_t j, size_t k, rsrc v, rptr t)
{
    r_set_zero(md);
    for (size_t i = 0; i < n; i++) {
        v3_dot(t, dm + ((j * n + k) * n + i) * 3, v + 3 * i);
        r_add(md, md, t);
    }
}

/* x = (q, q̇): random unit q_i, tangent q̇_i with entries of size ~scale. */
static inline void s2t_random_state(rptr x, size_t n, double scale, cl_rng *g)
{
    for (size_t i = 0; i < n; i++) {
        CL_FN(cl_v3_random_unit)(x + 3 * i, g);
        CL_FN(cl_v3_random_tangent)(x + 3 * (n + i), x + 3 * i, scale, g);
    }
}

/* x = (q, q̇) near hanging, at precision p: q_i = −e₃ plus a horizontal offset of entries up to
   ±tilt, normalized; q̇_i tangent with entries of size ~speed. */
static inline void s2t_hanging_state(rptr x, size_t n, double tilt, double speed, cl_rng *g, cl_prec_t p)
{
    R_DECL(nr, p);
    for (size_t i = 0; i < n; i++) {
        v3_set_d(x + 3 * i, cl_rng_range(g, -tilt, tilt), cl_rng_range(g, -tilt, tilt), -1);
        v3_norm(nr, x + 3 * i);
        for (int k = 0; k < 3; k++) r_div(x + 3 * i + k, x + 3 * i + k, nr);
        CL_FN(cl_v3_random_tangent)(x + 3 * (n + i), x + 3 * i, speed, g);
    }
}

/*
 * What an oracle row measures at a random (q, q̇) state x of a system: log2
 * of a relative discrepancy (NaN on failure); *which may name the part that
 * gave it. sc holds S2T_SCRATCH(n) numbers.
 */
typedef double (*s2t_measure)(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which);
#define S2T_SCRATCH(n) (24 * (n) + (n) * (n) + 3 * (n) * (n) * (n))

/*
 * An oracle row over random systems: for each n of ns a random system
 * (s2t_sys_new with coupled, forced) and `draws` random states (q̇ of size
 * ~1), the generator seeded by seed. The worst measure and where it
 * occurred ("worst: <which or label> n=… draw …") go to res.
 */
static inline int s2t_row_over_systems(cl_check_result *res, cl_prec_t prec, uint64_t seed, int coupled, int forced,
                                       const size_t *ns, size_t nns, int draws, s2t_measure measure,
                                       const char *label)
{
    cl_rng g;
    cl_rng_seed(&g, seed);
    cl_check_begin(res);
    for (size_t k = 0; k < nns; k++) {
        size_t n = ns[k];
        s2t_sys s;
        if (s2t_sys_new(&s, coupled, n, prec, &g, forced)) return CL_ENOMEM;
        rptr x = CL_FN(cl_rvec_new)(6 * n, prec), sc = CL_FN(cl_rvec_new)(S2T_SCRATCH(n), prec);
        for (int d = 0; d < draws; d++) {
            const char *which = NULL;
            s2t_random_state(x, n, 1.0, &g);
            double e = measure(&s, x, sc, prec, &which);
            cl_check_worst(res, e, "worst: %s n=%zu draw %d", which ? which : label, n, d);
        }
        CL_FN(cl_rvec_free)(x);
        CL_FN(cl_rvec_free)(sc);
        s2t_sys_free(&s);
    }
    return CL_OK;
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
    if (s2t_rhs(ws, ch, CL_S2_QDOT, ref, x)) return NAN;
    double scale = CL_FN(cl_rvec_log2_maxabs)(ref, 6 * n);
    if (scale < 0) scale = 0;
    double worst = -INFINITY;
    for (int form = CL_S2_OMEGA; form <= CL_S2_PI; form++) {
        if (CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y)) return NAN;
        if (s2t_rhs(ws, ch, form, dy, y)) return NAN;
        /* q̇ of the form's field, then q̈ carried back */
        CL_FN(cl_rvec_copy)(back, dy, 3 * n);
        if (CL_FN(cl_s2_quad_accel_from)(ws, form, back + 3 * n, y, dy)) return NAN;
        double e = CL_FN(cl_rvec_log2_maxdiff)(back, ref, 6 * n) - scale;
        if (e > worst || isnan(e)) worst = e;
    }
    return worst;
}
typedef struct s2t_traj_ctx {
    CL_FN(cl_chain) *ch;
    int form;
} s2t_traj_ctx;

static inline int s2t_traj_rhs_(rptr dx, rsrc t, rsrc x, void *vctx)
{
    (void)t;
    s2t_traj_ctx *c = vctx;
    return CL_FN(cl_chain_rhs)(c->ch, c->form, dx, x);
}

/*
 * A double spherical pendulum (random masses and lengths) from a state near
 * the hanging equilibrium (angles up to ~0.5, speeds ~0.3: a regular, not
 * chaotic, motion) integrated to t = 5 in each of the four forms with the
 * adaptive Gragg–Bulirsch–Stoer method (columns growing with the precision)
 * at rtol = atol = 2^(12−p), up to t1 = t1_num/t1_den; the final states,
 * carried to (q, q̇), against the (q, q̇) run, relative (log2; NaN on error).
 */
/* The chain of the trajectory rows: masses in [0.5, 2], lengths in [0.5, 1.5] drawn from \p g, g = 1/64 (a slow
   pendulum, so that t = 5 is less than one period and the high rungs stay affordable). */
static inline void s2t_traj_params(rptr mm, rptr ll, rptr grav, size_t n, cl_rng *g)
{
    for (size_t i = 0; i < n; i++) {
        r_set_d(mm + i, cl_rng_range(g, 0.5, 2));
        r_set_d(ll + i, cl_rng_range(g, 0.5, 1.5));
    }
    r_set_q(grav, 1, 64);
}

/* Form \p form's end state x as (q, q̇) into y: the reference ref for CL_S2_QDOT, the others' gap from it (log2,
   relative to max(1, |ref|)) kept in *worst when larger. */
static inline void s2t_form_gap(CL_FN(cl_s2_quad_ws) *ws, int form, rsrc x, rptr y, rptr ref, size_t N, double *worst)
{
    CL_FN(cl_s2_quad_convert)(ws, form, x, CL_S2_QDOT, y);
    if (form == CL_S2_QDOT) {
        CL_FN(cl_rvec_copy)(ref, y, N);
        return;
    }
    double e = CL_FN(cl_rvec_log2_maxdiff)(y, ref, N) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(ref, N));
    if (e > *worst || isnan(e)) *worst = e;
}

#ifdef CL_TRACE_H
enum { S2T_N = 2, S2T_DIM = 12 };

/* The field of form \p form of the double spherical pendulum (masses mm, lengths ll, gravity grav) traced at x into a new
   graph *g (the caller frees it, also on failure), out[0..11] its components: the graph s2.traj.forms integrates. */
static inline int s2t_forms_graph(cl_expr_dag **g, int *out, int form, rsrc mm, rsrc ll, rsrc grav, rsrc x, cl_prec_t p)
{
    cl_trace_scalar m[S2T_N], l[S2T_N], gr[1], xt[S2T_DIM], dx[S2T_DIM];
    double xv[S2T_DIM];
    int st = cl_expr_dag_new(g);
    if (!st) st = cl_trace_begin(*g, p);
    if (st) return st;
    for (int i = 0; i < S2T_N; i++) m[i] = r_traced(mm + i), l[i] = r_traced(ll + i);
    gr[0] = r_traced(grav);
    for (int i = 0; i < S2T_DIM; i++) xv[i] = r_get_d(x + i);
    cl_trace_inputs(xt, xv, S2T_DIM);
    cl_chain_tr *ch = NULL;
    st = cl_chain_new_tr(&ch, S2T_N, m, l, gr, p);
    if (!st) st = cl_chain_rhs_tr(ch, form, dx, xt);
    cl_chain_free_tr(ch);
    int st2 = cl_trace_end();
    if (!st) st = st2;
    for (int i = 0; i < S2T_DIM; i++) out[i] = dx[i].id;
    return st;
}
#endif

static inline double s2t_traj_forms(cl_prec_t prec, long t1_num, long t1_den)
{
    cl_rng g;
    cl_rng_seed(&g, 9090);
    const size_t n = 2, N = 6 * n;
    RV_DECL(mm, 2, prec); RV_DECL(ll, 2, prec); R_DECL(grav, prec);
    s2t_traj_params(mm, ll, grav, n, &g);
    CL_FN(cl_chain) *ch = NULL;
    /* GBS hands the field its guard bits (about 1.2k + 8 for k columns); a chain
       whose workspace kept only p bits would put an error floor near 2^(1.15k − p)
       under the tolerance, so the chain works with the guard bits too. */
    cl_prec_t pin = prec + (cl_prec_t)(1.2 * cl_ode_gbs_default_columns(prec)) + 8;
    if (CL_FN(cl_chain_new)(&ch, n, mm, ll, grav, pin)) return NAN;
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
    rptr x0 = CL_FN(cl_rvec_new)(N, prec), x = CL_FN(cl_rvec_new)(N, prec), ref = CL_FN(cl_rvec_new)(N, prec),
         y = CL_FN(cl_rvec_new)(N, prec), sc = CL_FN(cl_rvec_new)(5, prec);
    rptr t = sc, t1 = sc + 1, h = sc + 2, tol = sc + 3;
    s2t_hanging_state(x0, n, 0.4, 0.02, &g, prec); /* q_i near hanging, small q̇ */
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, 12 - (long)prec);
    r_set_q(t1, t1_num, t1_den);
    double worst = -INFINITY;
    int st = CL_OK;
    CL_FN(cl_ode_ws) *ode = NULL;
    st = CL_FN(cl_ode_ws_new)(&ode, N, prec, CL_ODE_GBS, 0);
    if (!st) st = CL_FN(cl_ode_set_tol)(ode, tol, tol);
    for (int form = CL_S2_QDOT; !st && form <= CL_S2_PI; form++) {
        s2t_traj_ctx c = {ch, form};
        CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x0, form, x);
        r_set_zero(t);
        r_set_zero(h);
        st = CL_FN(cl_ode_integrate)(ode, s2t_traj_rhs_, &c, t, x, t1, h, NULL);
        if (!st) s2t_form_gap(ws, form, x, y, ref, N, &worst);
    }
    CL_FN(cl_ode_ws_free)(ode);
    CL_FN(cl_rvec_free)(x0); CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(ref);
    CL_FN(cl_rvec_free)(y); CL_FN(cl_rvec_free)(sc);
    CL_FN(cl_chain_free)(ch);
    return st ? NAN : worst;
}


/*
 * Propositions 1 and 2 on the fields of the Corollaries, for the
 * configuration-dependent system at the (q, q̇) state x (n ≤ 3): the
 * Euler–Lagrange residual (11) with d/dt ∂L/∂q̇_i = Σ_j ṁ_ij q̇_j + m_ij q̈_j,
 * ∂L/∂q_i = ½ Σ_jk (q̇_j·q̇_k) ∂m_jk/∂q_i − ∂U/∂q_i and q̈ from (13); and the
 * residual (17) with ∂L̃/∂ω = π (33), π̇ from (36) and ∂L̃/∂q_i differentiated
 * from (18) by hand. Writes log2 of each largest residual, relative to the
 * size of d/dt ∂L/∂q̇ (res1) and of π̇ (res2).
 */
static inline void s2t_el_residuals(CL_FN(cl_s2_coupled) *cp, size_t n, rsrc x, double *res1, double *res2)
{
    cl_prec_t p = r_prec(x);
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_s2_coupled_ws)(cp);
    const CL_FN(cl_s2_quad) *sys = CL_FN(cl_s2_coupled_quad)(cp);
    RV_DECL(y, 18, p); RV_DECL(dx, 18, p); RV_DECL(dy, 18, p);
    RV_DECL(m, 9, p); RV_DECL(dm, 81, p); RV_DECL(dU, 9, p); RV_DECL(f, 9, p); RV_DECL(md, 9, p);
    RV_DECL(a, 9, p); RV_DECL(b, 9, p); RV_DECL(res, 9, p); RV_DECL(u, 9, p);
    R_DECL(t, p);
    RV_DECL(c3, 3, p);
    /* Proposition 1 (11): d/dt ∂L/∂q̇_i = Σ_j ṁ_ij q̇_j + m_ij q̈_j,
       ∂L/∂q_i = ½ Σ_jk (q̇_j·q̇_k) ∂m_jk/∂q_i − ∂U/∂q_i. */
    rsrc q = x, v = x + 3 * n;
    CL_FN(cl_s2_quad_rhs_qdot)(ws, dx, x);
    sys->inertia(sys->ctx, m, q);
    sys->inertia_grad(sys->ctx, dm, q);
    sys->potential(sys->ctx, NULL, dU, q);
    sys->force(sys->ctx, f, q, v);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++) s2t_mdot(md + j * n + k, dm, n, j, k, v, t);
    for (size_t i = 0; i < n; i++) {
        v3_zero(a + 3 * i);
        v3_neg(b + 3 * i, dU + 3 * i);
        for (size_t j = 0; j < n; j++) {
            v3_axpy(a + 3 * i, md + i * n + j, v + 3 * j);
            v3_axpy(a + 3 * i, m + i * n + j, dx + 3 * n + 3 * j);
            for (size_t k = 0; k < n; k++) {
                v3_dot(t, v + 3 * j, v + 3 * k);
                r_mul_2si(t, t, -1);
                v3_axpy(b + 3 * i, t, dm + ((j * n + k) * n + i) * 3);
            }
        }
    }
    CL_FN(cl_s2_el_residual_qdot)(n, res, q, a, b, f);
    *res1 = CL_FN(cl_rvec_log2_maxabs)(res, 3 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(a, 3 * n));

    /* Proposition 2 (17) with ∂L̃/∂ω = π (33), its derivative π̇ from (36), and
       ∂L̃/∂q_i = ½ Σ_jk (q̇_j·q̇_k) ∂m_jk/∂q_i + Σ_{k≠i} m_ik S(ω_i)S(q_k)ω_k − ∂U/∂q_i
       differentiated from (18) by hand. */
    CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, CL_S2_PI, y);
    CL_FN(cl_s2_quad_rhs_pi)(ws, dy, y);
    CL_FN(cl_s2n_omega_from_qdot)(n, u, q, v);
    for (size_t i = 0; i < n; i++) {
        v3_neg(b + 3 * i, dU + 3 * i);
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++) {
                v3_dot(t, v + 3 * j, v + 3 * k);
                r_mul_2si(t, t, -1);
                v3_axpy(b + 3 * i, t, dm + ((j * n + k) * n + i) * 3);
            }
        for (size_t k = 0; k < n; k++) {
            if (k == i) continue;
            v3_cross(c3, q + 3 * k, u + 3 * k);
            v3_cross(c3, u + 3 * i, c3);
            v3_axpy(b + 3 * i, m + i * n + k, c3);
        }
    }
    /* [S2 (17)] the general residual, with L̃ of (18) */
    CL_FN(cl_s2_el_residual_omega)(n, res, q, u, dy + 3 * n, y + 3 * n, b, f);
    *res2 = CL_FN(cl_rvec_log2_maxabs)(res, 3 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(dy + 3 * n, 3 * n));
}
#endif

/*
 * The oracle's rows of a model of S² factors (cl_lagr_s2), apart from its
 * equilibria (model_rows_eq.c); the table is model_rows.c.
 *
 *   MODEL.forms     the four forms of the field agree [S2 (3),(5),(20),(28)]
 *   MODEL.legendre  the Legendre maps and kinematics round-trip
 *   MODEL.el        the Euler–Lagrange residuals [S2 (11)] vanish on the fields
 *   MODEL.conserve  energy (E + ∫ ∂L/∂t dt when L depends on t; none with forces) and the
 *                   declared invariants along a trajectory
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#include "lagr_s2.h"
#include "linalg.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"
#include "model_taylor.h"
#include "ode.h"
#include "r3.h"

/* The model's Lagrangian at precision \p prec with its parameters (defaults or --param). */
static CL_FN(cl_lagr_s2) *make_lg(const cl_model *m, cl_prec_t prec)
{
    CL_FN(cl_lagr_s2) *lg;
    int st = CL_FN(cl_lagr_s2_new)(&lg, m->g, m->L, m->n, m->nparam, prec);
    rptr v = CL_FN(cl_rvec_new)(m->nparam + 1, prec);
    if (st || !v || CL_FN(cl_model_param_values)(m, v) || (m->force && CL_FN(cl_lagr_s2_set_forces)(lg, m->force))) {
        CL_FN(cl_rvec_free)(v);
        CL_FN(cl_lagr_s2_free)(lg);
        return NULL;
    }
    for (size_t k = 0; k < m->nparam; k++) CL_FN(cl_lagr_s2_set_param)(lg, k, v + k);
    CL_FN(cl_rvec_free)(v);
    return lg;
}

/* A seeded random state (q, q̇) with unit speeds, and a time in [0, 3) for a time-dependent model (into \p d too). */
static void random_state(const cl_model *m, CL_FN(cl_lagr_s2) *lg, CL_FN(cl_model_domain) *d, rptr x, cl_rng *g)
{
    for (size_t i = 0; i < m->n; i++) {
        CL_FN(cl_v3_random_unit)(x + 3 * i, g);
        CL_FN(cl_v3_random_tangent)(x + 3 * (m->n + i), x + 3 * i, 1.0, g);
    }
    R_DECL(t, r_prec(x));
    r_set_d(t, cl_rng_range(g, 0, 3));
    if (m->timed) CL_FN(cl_lagr_s2_set_time)(lg, t);
    CL_FN(cl_model_domain_set_time)(d, t);
}

/* The rows' states: drawn by random_state(), inside the domain of the model (model_draw_decl.h). */
typedef struct s2_draw {
    const cl_model *m;
    CL_FN(cl_lagr_s2) *lg;
    CL_FN(cl_model_domain) *d;
} s2_draw;

static int s2_draw_state(void *ctx, rptr x, cl_rng *g)
{
    s2_draw *c = ctx;
    random_state(c->m, c->lg, c->d, x, g);
    return CL_OK;
}

static int s2_draw_field(void *ctx, rptr dx, rsrc x)
{
    s2_draw *c = ctx;
    return CL_FN(cl_lagr_s2_rhs)(c->lg, CL_LAGR_QDOT, dx, x);
}

static int s2_draw_bad(void *ctx) { return CL_FN(cl_lagr_s2_bad_node)(((s2_draw *)ctx)->lg); }

/* The drawer of \p c (its fields set). */
static CL_FN(cl_model_drawer) s2_drawer(s2_draw *c)
{
    return (CL_FN(cl_model_drawer)){.draw = s2_draw_state, .field = s2_draw_field, .bad_node = s2_draw_bad,
                                    .singular = cl_model_kind_s2.singular, .ctx = c};
}

/*
 * Rows over CL_MODEL_ROWS_DRAWS random states inside the domain: \p measure compares at one state (x in
 * qdot form) into *gap, and a state where its computation leaves the domain (a Newton iterate of the
 * Legendre map, say) is drawn again.
 */
typedef int (*state_measure)(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec, double *gap);

static int over_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, state_measure measure)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m) return CL_EPARAM;
    CL_FN(cl_lagr_s2) *lg = make_lg(m, prec);
    size_t n6 = 6 * m->n;
    rptr x = CL_FN(cl_rvec_new)(n6 * 10, prec);
    s2_draw c = {.m = m, .lg = lg};
    cl_check_begin(res);
    int st = lg && x ? CL_FN(cl_model_domain_new)(&c.d, m, prec) : CL_ENOMEM;
    CL_FN(cl_model_drawer) k = s2_drawer(&c);
    cl_rng g;
    cl_rng_seed(&g, seed);
    int measured = 0;
    for (int draws = cl_model_rows_draws(CL_MODEL_ROWS_DRAWS); !st && measured < draws && CL_FN(cl_model_domain_more)(c.d);) {
        double gap = NAN;
        st = CL_FN(cl_model_domain_draw)(c.d, &k, x, x + n6, &g);
        if (!st) st = measure(m, lg, x, x + n6, prec, &gap);
        if (cl_model_outside(st)) CL_FN(cl_model_domain_reject)(c.d, st), st = CL_OK;
        else if (st != CL_ENOMEM && st != CL_EUNDEFINED) {
            cl_check_worst(res, st ? NAN : gap, "draw %d", measured++);
            st = CL_OK;
        }
    }
    if (!st) st = CL_FN(cl_model_domain_done)(c.d, res, measured);
    CL_FN(cl_model_domain_free)(c.d);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_lagr_s2_free)(lg);
    return st;
}

/* The field in every form against the qdot field carried by the kinematics:
   q̇ alike, ω̇_i = q_i × q̈_i, π̇_i = q̇_i × μ_i + q_i × μ̇_i. The status of a form that fails. */
static int forms_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec, double *gap)
{
    int st;
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n;
    rptr F0 = w, Fw = F0 + n6, xm = Fw + n6, Fm = xm + n6, xf = Fm + n6, Ff = xf + n6, pred = Ff + n6;
    if ((st = CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_QDOT, F0, x)) || (st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, xm)) ||
        (st = CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_MU, Fm, xm)))
        return st;
    double s0 = CL_FN(cl_rvec_log2_maxabs)(F0, n6), sm = CL_FN(cl_rvec_log2_maxabs)(Fm + n3, n3);
    double worst = rows_rel(Fm, F0, n3, s0); /* q̇ of the mu form */
    RV_DECL(u, 3, prec);
    for (int form = CL_LAGR_OMEGA; form <= CL_LAGR_PI; form += 2) {
        if ((st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, xf)) || (st = CL_FN(cl_lagr_s2_rhs)(lg, form, Ff, xf))) return st;
        worst = fmax(worst, rows_rel(Ff, F0, n3, s0));
        for (size_t i = 0; i < n; i++) {
            rptr p = pred + 3 * i;
            if (form == CL_LAGR_OMEGA) v3_cross(p, x + 3 * i, F0 + n3 + 3 * i);
            else {
                v3_cross(p, x + n3 + 3 * i, xm + n3 + 3 * i);
                v3_cross(u, x + 3 * i, Fm + n3 + 3 * i);
                v3_add(p, p, u);
            }
        }
        worst = fmax(worst, rows_rel(Ff + n3, pred, n3, form == CL_LAGR_OMEGA ? s0 : fmax(s0, sm)));
    }
    *gap = worst;
    return CL_OK;
}

/* Round trips qdot → form → qdot, and mu → pi against qdot → pi. */
static int legendre_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec, double *gap)
{
    int st;
    size_t n6 = 6 * m->n;
    rptr y = w, z = y + n6, xp = z + n6;
    (void)prec;
    double s = CL_FN(cl_rvec_log2_maxabs)(x, n6), worst = -INFINITY;
    for (int form = CL_LAGR_OMEGA; form <= CL_LAGR_PI; form++) {
        if ((st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, y)) || (st = CL_FN(cl_lagr_s2_convert)(lg, form, y, CL_LAGR_QDOT, z)))
            return st;
        worst = fmax(worst, rows_rel(z, x, n6, s));
        if (form == CL_LAGR_PI) {
            if ((st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, z)) ||
                (st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_MU, z, CL_LAGR_PI, xp)))
                return st;
            worst = fmax(worst, rows_rel(xp, y, n6, CL_FN(cl_rvec_log2_maxabs)(y, n6)));
        }
    }
    *gap = worst;
    return CL_OK;
}

/*
 * The Euler–Lagrange equations [S2 (11)] evaluated by an evaluator of its
 * own on the computed fields: the qdot field's (q̇, q̈) in
 * (I − q_iq_iᵀ)(d/dt ∂L/∂q̇_i − ∂L/∂q_i) = 0 and q_i·q̈_i + ‖q̇_i‖² = 0, and
 * the mu field against the gradient-only form of the same equations,
 * μ̇_i = (I − q_iq_iᵀ)∂L/∂q_i − q̇_i (q_i·∂L/∂q̇_i) − q_i (q̇_i·∂L/∂q̇_i).
 */
static int el_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec, double *gap)
{
    int st;
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n, nin = n6 + (size_t)m->timed;
    rptr F = w, xm = F + n6, Fm = xm + n6, r = Fm + n6;
    if ((st = CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_QDOT, F, x)) || (st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, xm)) ||
        (st = CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_MU, Fm, xm)))
        return st;
    CL_FN(cl_expr_eval) *ev;
    CL_FN(cl_expr_eval_new)(&ev, m->g, prec);
    rptr in = CL_FN(cl_rvec_new)(n6 + 1 + m->nparam + nin + (nin - n3) * nin, prec);
    double worst = NAN;
    if (ev && in) {
        rptr grad = in + n6 + 1 + m->nparam, H = grad + nin;
        CL_FN(cl_rvec_copy)(in, x, n6);
        CL_FN(cl_model_param_values)(m, in + n6 + 1);
        CL_FN(cl_lagr_s2_get_time)(lg, in + n6);
        int upto = m->L;
        for (size_t a = 0; m->force && a < n3; a++) upto = m->force[a] > upto ? m->force[a] : upto;
        if (!CL_FN(cl_expr_eval_run)(ev, in, upto, 2)) {
            CL_FN(cl_expr_eval_hessian)(ev, m->L, grad, H, (int)nin, (int)n3);
            for (size_t a = 0; m->force && a < n3; a++) /* ∂L/∂q + F from here on */
                if (m->force[a] >= 0) r_add(grad + a, grad + a, CL_FN(cl_expr_eval_value)(ev, m->force[a]));
            RV_DECL(D, 3, prec);
            RV_DECL(u, 3, prec);
            R_DECL(s, prec);
            RV_DECL(vv, 1, prec);
            RV_DECL(w1, 3, prec);
            RV_DECL(w2, 3, prec);
            double sD = -INFINITY, sq = CL_FN(cl_rvec_log2_maxabs)(grad, n3);
            worst = -INFINITY;
            for (size_t i = 0; i < n; i++) {
                rsrc qi = x + 3 * i, vi = x + n3 + 3 * i, Lq = grad + 3 * i, Lv = grad + n3 + 3 * i;
                for (int c = 0; c < 3; c++) { /* D − ∂L/∂q, D = Σ L_q̇q̇ q̈ + L_q̇q q̇ + L_q̇t */
                    rsrc row = H + (3 * i + (size_t)c) * nin;
                    if (m->timed) r_set(D + c, row + n6);
                    else r_set_zero(D + c);
                    for (size_t b = 0; b < n3; b++) {
                        r_addmul(D + c, row + n3 + b, F + n3 + b);
                        r_addmul(D + c, row + b, x + n3 + b);
                    }
                    sD = fmax(sD, r_log2abs(D + c));
                    r_sub(D + c, D + c, Lq + c);
                }
                v3_proj_tangent(u, qi, D);
                for (int c = 0; c < 3; c++) r_set(r + 3 * i + c, u + c);
                /* the normal row */
                v3_dot(s, qi, F + n3 + 3 * i);
                v3_dot(vv, vi, vi);
                r_add(s, s, vv);
                worst = fmax(worst, r_log2abs(s) - fmax(0, r_log2abs(vv)));
                /* μ̇ from the gradient only */
                /* written with cross products, apart from cl_lagr_s2_mudot() (q_i unit, q̇_i ⊥ q_i):
                   (I − qqᵀ)f = −q×(q×f), q̇(q·p) = q×(q̇×p), q(q̇·p) = q̇×(q×p) */
                v3_cross(w1, qi, Lq);
                v3_cross(u, qi, w1);
                v3_cross(w1, vi, Lv);
                v3_cross(w2, qi, w1);
                v3_add(u, u, w2);
                v3_cross(w1, qi, Lv);
                v3_cross(w2, vi, w1);
                v3_add(u, u, w2);
                v3_neg(u, u);
                for (int c = 0; c < 3; c++) r_sub(r + n3 + 3 * i + c, u + c, Fm + n3 + 3 * i + c);
            }
            worst = fmax(worst, CL_FN(cl_rvec_log2_maxabs)(r, n3) - fmax(fmax(sD, sq), -20));
            worst = fmax(worst, CL_FN(cl_rvec_log2_maxabs)(r + n3, n3) - fmax(fmax(CL_FN(cl_rvec_log2_maxabs)(Fm + n3, n3), sq), -20));
        } else worst = NAN;
    }
    CL_FN(cl_rvec_free)(in);
    CL_FN(cl_expr_eval_free)(ev);
    *gap = worst;
    return CL_OK;
}

int CL_FN(cl_model_row_forms)(cl_check_result *res, cl_prec_t prec) { return over_states(res, prec, 7101, forms_gap); }
int CL_FN(cl_model_row_legendre)(cl_check_result *res, cl_prec_t prec) { return over_states(res, prec, 7102, legendre_gap); }
int CL_FN(cl_model_row_el)(cl_check_result *res, cl_prec_t prec) { return over_states(res, prec, 7103, el_gap); }

/* ------------------------------------------------------------ conservation */

typedef struct conserve_ctx {
    CL_FN(cl_lagr_s2) *lg;
    const cl_model *m;
    rptr I0, I; /* the invariants at t = 0 and now (energy first when conserved) */
    size_t ni;
    double worst;
    int status;
    int balance; /* L depends on t: the state carries W = ∫ ∂L/∂t dt, and E + W is conserved */
    rptr xo;     /* the Taylor run's state carried to omega */
} conserve_ctx;

static int conserve_field(rptr dx, rsrc t, rsrc x, void *ctx)
{
    conserve_ctx *c = ctx;
    if (c->m->timed) CL_FN(cl_lagr_s2_set_time)(c->lg, t);
    int st = CL_FN(cl_lagr_s2_rhs)(c->lg, CL_LAGR_OMEGA, dx, x);
    if (!st && c->balance) st = CL_FN(cl_lagr_s2_dldt)(c->lg, CL_LAGR_OMEGA, dx + 6 * c->m->n, x); /* W' = ∂L/∂t */
    return st;
}

/* The invariants of the omega state x at time t into out: the energy (E + W when L depends on t; none
   with forces) and the declared ones. */
static int invariants(conserve_ctx *c, rsrc t, rsrc x, rptr out)
{
    size_t k = 0;
    int st = CL_OK;
    if (c->m->timed) CL_FN(cl_lagr_s2_set_time)(c->lg, t);
    if (!c->m->force) st = CL_FN(cl_lagr_s2_value)(c->lg, -1, CL_LAGR_OMEGA, out + k++, x);
    if (!st && c->balance) r_add(out, out, x + 6 * c->m->n); /* E + W */
    for (size_t j = 0; j < c->m->ninv && !st; j++) st = CL_FN(cl_lagr_s2_value)(c->lg, c->m->inv[j], CL_LAGR_OMEGA, out + k++, x);
    return st;
}

static int conserve_observe(rsrc t, rsrc x, size_t n, void *ctx)
{
    conserve_ctx *c = ctx;
    (void)n;
    c->status = invariants(c, t, x, c->I);
    if (c->status) return c->status;
    R_DECL(d, r_prec(x));
    for (size_t k = 0; k < c->ni; k++) {
        r_sub(d, c->I + k, c->I0 + k);
        c->worst = fmax(c->worst, r_log2abs(d) - fmax(0, r_log2abs(c->I0 + k)));
    }
    return CL_OK;
}

/* A state of the Taylor run (form qdot; then W with the balance) carried to omega, then observed as the GBS run's. */
static int taylor_observe(rsrc t, rsrc x, size_t n, void *ctx)
{
    conserve_ctx *c = ctx;
    size_t n6 = 6 * c->m->n;
    int st = CL_FN(cl_lagr_s2_convert)(c->lg, CL_LAGR_QDOT, x, CL_LAGR_OMEGA, c->xo);
    if (c->balance) r_set(c->xo + n6, x + n6);
    return st ? st : conserve_observe(t, c->xo, n, ctx);
}

/* The same motion from xq (form qdot, then W) by the Taylor integrator of order \p order on the model's graph, when it has one (*steps −1: none). */
static int conserve_taylor(conserve_ctx *c, rptr xq, rptr xo, rptr t, rptr t1, cl_prec_t prec, int order, long *steps)
{
    c->xo = xo;
    r_set_zero(t);
    r_set_q(t1, 1, cl_model_rows_taylor_span(prec));
    int st = CL_FN(cl_model_taylor_run)(c->m, "qdot", 6 * c->m->n, c->balance, order, t, xq, t1, taylor_observe, c, steps);
    if (st == CL_EDIM) {
        *steps = -1;
        return CL_OK;
    }
    return st ? st : c->status;
}

/* The runs' orders from the Taylor run's start xq (the double rung: the tolerance's own). */
static int conserve_orders(cl_model_rows_orders *o, const cl_model *m, int balance, rsrc xq, cl_prec_t prec)
{
#if CL_T == CL_MPFR
    return cl_model_rows_orders_for(o, m, "qdot", 6 * m->n, balance, xq, prec);
#else
    (void)m, (void)balance, (void)xq;
    cl_model_rows_orders_full(o, prec);
    return CL_OK;
#endif
}

/* The room of one conserve run: the state x (omega, then W), its invariants, the span, the Taylor run's xq and xo. */
typedef struct conserve_room {
    rptr x, I0, I, t, t1, h, tol, xq, xo;
    size_t dim;
} conserve_room;

/* One conserve run (both integrations) from the qdot state in r->x; its status (outside the domain: drawn again). */
static int conserve_run(cl_check_result *res, conserve_ctx *c, conserve_room *r, cl_prec_t prec)
{
    const cl_model *m = c->m;
    size_t n6 = 6 * m->n;
    CL_FN(cl_ode_ws) *ode = NULL;
    CL_FN(cl_rvec_copy)(r->xq, r->x, n6);
    r_set_zero(r->t);
    int st = CL_FN(cl_lagr_s2_convert)(c->lg, CL_LAGR_QDOT, r->x, CL_LAGR_OMEGA, r->x);
    if (c->balance) r_set_zero(r->x + n6), r_set_zero(r->xq + n6); /* W(0) = 0 */
    c->worst = -INFINITY;
    c->status = CL_OK;
    cl_model_rows_orders ord;
    if (!st) st = conserve_orders(&ord, m, c->balance, r->xq, prec);
    if (!st) st = CL_FN(cl_ode_ws_new)(&ode, r->dim, prec, CL_ODE_GBS, ord.columns);
    if (!st) st = invariants(c, r->t, r->x, c->I0);
    r_set_q(r->t1, 1, cl_model_rows_span(prec));
    r_set_si(r->tol, 1);
    r_mul_2si(r->tol, r->tol, 12 - (long)prec);
    r_set_zero(r->h);
    if (!st) st = CL_FN(cl_ode_set_tol)(ode, r->tol, r->tol);
    if (!st) CL_FN(cl_ode_set_observer)(ode, conserve_observe, c);
    if (!st) st = CL_FN(cl_ode_integrate)(ode, conserve_field, c, r->t, r->x, r->t1, r->h, NULL);
    if (!st) st = c->status;
    long steps = -1;
    if (!st) st = conserve_taylor(c, r->xq, r->xo, r->t, r->t1, prec, ord.taylor, &steps);
    char by[120] = "";
    cl_model_rows_orders_say(by, sizeof by, &ord, prec, steps);
    if (!st) cl_check_worst(res, c->worst, "%zu invariant%s over t in [0, 1/%u] (integrated with tolerance 2^(12-p)%s)", c->ni,
                            c->ni == 1 ? "" : "s", cl_model_rows_span(prec), by);
    CL_FN(cl_ode_ws_free)(ode);
    return st;
}

int CL_FN(cl_model_row_conserve)(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m) return CL_EPARAM;
    int energy = !m->force, balance = energy && m->timed; /* no force: E, or E + W, is conserved */
    size_t n6 = 6 * m->n, ni = m->ninv + (size_t)energy, dim = n6 + (size_t)balance;
    cl_prec_t pin = cl_model_rows_gbs_guarded(prec);
    CL_FN(cl_lagr_s2) *lg = make_lg(m, pin);
    rptr x = CL_FN(cl_rvec_new)(dim + 2 * ni + 5 + 2 * dim, prec);
    s2_draw dc = {.m = m, .lg = lg};
    cl_check_begin(res);
    int st = lg && x ? CL_FN(cl_model_domain_new)(&dc.d, m, prec) : CL_ENOMEM, measured = 0;
    if (!st) {
        conserve_room r = {.x = x, .I0 = x + dim, .dim = dim};
        r.I = r.I0 + ni, r.t = r.I + ni, r.t1 = r.t + 1, r.h = r.t1 + 1, r.tol = r.h + 1, r.xq = r.tol + 1, r.xo = r.xq + dim;
        conserve_ctx c = {.lg = lg, .m = m, .I0 = r.I0, .I = r.I, .ni = ni, .balance = balance};
        CL_FN(cl_model_drawer) k = s2_drawer(&dc);
        cl_rng g;
        cl_rng_seed(&g, 7104);
        while (!st && !measured && CL_FN(cl_model_domain_more)(dc.d)) { /* one trajectory that stays inside the domain */
            st = CL_FN(cl_model_domain_draw)(dc.d, &k, x, r.xq, &g);
            if (!st) st = conserve_run(res, &c, &r, prec);
            if (cl_model_outside(st)) CL_FN(cl_model_domain_reject)(dc.d, st), st = CL_OK;
            else measured = !st;
        }
        if (!st) st = CL_FN(cl_model_domain_done)(dc.d, res, measured);
    }
    CL_FN(cl_model_domain_free)(dc.d);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_lagr_s2_free)(lg);
    return st;
}

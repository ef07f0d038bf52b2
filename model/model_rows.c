/*
 * The oracle's rows for any model file (model.h): generated at run time for
 * the model `chartless oracle --model FILE` is given, and judged on the
 * precision ladder by the same verdict machinery as the papers' checks
 * (check.h). Each row is one function per scalar kind; the 53-bit rung runs
 * the double copy. The model they look at is the one cl_model_oracle_rows()
 * loaded (a process-wide current model: the oracle forks its checks after
 * loading it).
 *
 *   MODEL.forms     the four forms of the field agree [S2 (3),(5),(20),(28)]
 *   MODEL.legendre  the Legendre maps and kinematics round-trip
 *   MODEL.el        the Euler–Lagrange residuals [S2 (11)] vanish on the fields
 *   MODEL.conserve  energy (E + ∫ ∂L/∂t dt when L depends on t; none with forces) and the
 *                   declared invariants along a trajectory
 *   MODEL.eq.NAME   a declared equilibrium: the field vanishes there and the
 *                   Jacobian's eigenvalues agree between forms and with a
 *                   reference at twice the precision
 *
 * Those are for models of S² factors (cl_lagr_s2); a model of SO(3), S¹ or
 * Rᵏ factors gets the rows of its system's descriptor instead (below,
 * "models of other kinds").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#include "lagr_s2.h"
#include "linalg.h"
#include "model.h"
#include "model_ext.h"
#include "ode.h"
#include "r3.h"

#define DRAWS 12

/* The current model and the parameter values the rows use (set by cl_model_oracle_rows). */
#if CL_T == CL_MPFR
static cl_model *current;
const cl_model *cl_model_oracle_model(void) { return current; }
#endif

int CL_FN(cl_model_param_values)(const cl_model *m, rptr v)
{
    for (size_t k = 0; k < m->nparam; k++)
        if (CL_FN(cl_real_from_str)(v + k, m->pdef[k])) return CL_EPARSE;
    return CL_OK;
}

/* The model's Lagrangian at precision \p prec with its parameters (defaults or --param). */
static CL_FN(cl_lagr_s2) *make_lg(const cl_model *m, cl_prec_t prec)
{
    CL_FN(cl_lagr_s2) *lg = CL_FN(cl_lagr_s2_new)(m->g, m->L, m->n, m->nparam, prec);
    rptr v = CL_FN(cl_rvec_new)(m->nparam + 1, prec);
    if (!lg || !v || CL_FN(cl_model_param_values)(m, v) || (m->force && CL_FN(cl_lagr_s2_set_forces)(lg, m->force))) {
        CL_FN(cl_rvec_free)(v);
        CL_FN(cl_lagr_s2_free)(lg);
        return NULL;
    }
    for (size_t k = 0; k < m->nparam; k++) CL_FN(cl_lagr_s2_set_param)(lg, k, v + k);
    CL_FN(cl_rvec_free)(v);
    return lg;
}

int CL_FN(cl_model_equilibrium_state)(CL_FN(cl_lagr_s2) *lg, const cl_model *m, int k, int form, rptr x)
{
    size_t n = m->n, n3 = 3 * n;
    if (k < 0 || (size_t)k >= m->neq) return CL_EDOMAIN;
    rptr y = CL_FN(cl_rvec_new)(2 * n3, r_prec(x));
    if (!y) return CL_ENOMEM;
    for (size_t i = 0; i < n; i++) r_set_si(y + 3 * i + 2, 1); /* any state: the points depend on the parameters only */
    int st = CL_OK;
    for (size_t a = 0; a < n3 && !st; a++) st = CL_FN(cl_lagr_s2_value)(lg, m->eq[(size_t)k * n3 + a], CL_LAGR_QDOT, x + a, y);
    CL_FN(cl_rvec_free)(y);
    R_DECL(r, r_prec(x));
    for (size_t i = 0; i < n && !st; i++) {
        v3_norm(r, x + 3 * i);
        if (r_is_zero(r)) return CL_EDOMAIN;
        for (int c = 0; c < 3; c++) r_div(x + 3 * i + c, x + 3 * i + c, r);
    }
    for (size_t a = n3; a < 2 * n3; a++) r_set_zero(x + a);
    if (!st && form != CL_LAGR_QDOT) st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, x);
    return st;
}

/* A seeded random state (q, q̇) with unit speeds, and a time in [0, 3) for a time-dependent model. */
static void random_state(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rptr x, cl_rng *g)
{
    for (size_t i = 0; i < m->n; i++) {
        CL_FN(cl_v3_random_unit)(x + 3 * i, g);
        CL_FN(cl_v3_random_tangent)(x + 3 * (m->n + i), x + 3 * i, 1.0, g);
    }
    R_DECL(t, r_prec(x));
    r_set_d(t, cl_rng_range(g, 0, 3));
    if (m->timed) CL_FN(cl_lagr_s2_set_time)(lg, t);
}

/* log2 |a − b|_max relative to max(scale, 2^−20); scale a log2. */
static double rel(rsrc a, rsrc b, size_t len, double scale)
{
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, len) - fmax(scale, -20);
}

/* Rows over DRAWS random states: \p measure compares at one state (x in qdot form). */
typedef double (*state_measure)(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec);

static int over_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, state_measure measure)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m) return CL_EPARAM;
    CL_FN(cl_lagr_s2) *lg = make_lg(m, prec);
    size_t n6 = 6 * m->n;
    rptr x = CL_FN(cl_rvec_new)(n6 * 10, prec);
    cl_check_begin(res);
    if (!lg || !x) {
        CL_FN(cl_rvec_free)(x);
        CL_FN(cl_lagr_s2_free)(lg);
        return CL_ENOMEM;
    }
    cl_rng g;
    cl_rng_seed(&g, seed);
    for (int k = 0; k < DRAWS; k++) {
        random_state(m, lg, x, &g);
        cl_check_worst(res, measure(m, lg, x, x + n6, prec), "draw %d", k);
    }
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_lagr_s2_free)(lg);
    return CL_OK;
}

/* The field in every form against the qdot field carried by the kinematics:
   q̇ alike, ω̇_i = q_i × q̈_i, π̇_i = q̇_i × μ_i + q_i × μ̇_i. NaN when a form fails. */
static double forms_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec)
{
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n;
    rptr F0 = w, Fw = F0 + n6, xm = Fw + n6, Fm = xm + n6, xf = Fm + n6, Ff = xf + n6, pred = Ff + n6;
    if (CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_QDOT, F0, x) || CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, xm) ||
        CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_MU, Fm, xm))
        return NAN;
    double s0 = CL_FN(cl_rvec_log2_maxabs)(F0, n6), sm = CL_FN(cl_rvec_log2_maxabs)(Fm + n3, n3);
    double worst = rel(Fm, F0, n3, s0); /* q̇ of the mu form */
    for (int form = CL_LAGR_OMEGA; form <= CL_LAGR_PI; form += 2) {
        if (CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, xf) || CL_FN(cl_lagr_s2_rhs)(lg, form, Ff, xf)) return NAN;
        worst = fmax(worst, rel(Ff, F0, n3, s0));
        RV_DECL(u, 3, prec);
        for (size_t i = 0; i < n; i++) {
            rptr p = pred + 3 * i;
            if (form == CL_LAGR_OMEGA) v3_cross(p, x + 3 * i, F0 + n3 + 3 * i);
            else {
                v3_cross(p, x + n3 + 3 * i, xm + n3 + 3 * i);
                v3_cross(u, x + 3 * i, Fm + n3 + 3 * i);
                v3_add(p, p, u);
            }
        }
        worst = fmax(worst, rel(Ff + n3, pred, n3, form == CL_LAGR_OMEGA ? s0 : fmax(s0, sm)));
    }
    return worst;
}

/* Round trips qdot → form → qdot, and mu → pi against qdot → pi. */
static double legendre_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec)
{
    size_t n6 = 6 * m->n;
    rptr y = w, z = y + n6, xp = z + n6;
    (void)prec;
    double s = CL_FN(cl_rvec_log2_maxabs)(x, n6), worst = -INFINITY;
    for (int form = CL_LAGR_OMEGA; form <= CL_LAGR_PI; form++) {
        if (CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, y) || CL_FN(cl_lagr_s2_convert)(lg, form, y, CL_LAGR_QDOT, z))
            return NAN;
        worst = fmax(worst, rel(z, x, n6, s));
        if (form == CL_LAGR_PI) {
            if (CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, z) || CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_MU, z, CL_LAGR_PI, xp))
                return NAN;
            worst = fmax(worst, rel(xp, y, n6, CL_FN(cl_rvec_log2_maxabs)(y, n6)));
        }
    }
    return worst;
}

/*
 * The Euler–Lagrange equations [S2 (11)] evaluated by an evaluator of its
 * own on the computed fields: the qdot field's (q̇, q̈) in
 * (I − q_iq_iᵀ)(d/dt ∂L/∂q̇_i − ∂L/∂q_i) = 0 and q_i·q̈_i + ‖q̇_i‖² = 0, and
 * the mu field against the gradient-only form of the same equations,
 * μ̇_i = (I − q_iq_iᵀ)∂L/∂q_i − q̇_i (q_i·∂L/∂q̇_i) − q_i (q̇_i·∂L/∂q̇_i).
 */
static double el_gap(const cl_model *m, CL_FN(cl_lagr_s2) *lg, rsrc x, rptr w, cl_prec_t prec)
{
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n, nin = n6 + (size_t)m->timed;
    rptr F = w, xm = F + n6, Fm = xm + n6, r = Fm + n6;
    if (CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_QDOT, F, x) || CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_MU, xm) ||
        CL_FN(cl_lagr_s2_rhs)(lg, CL_LAGR_MU, Fm, xm))
        return NAN;
    CL_FN(cl_expr_eval) *ev = CL_FN(cl_expr_eval_new)(m->g, prec);
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
                RV_DECL(vv, 1, prec);
                v3_dot(vv, vi, vi);
                r_add(s, s, vv);
                worst = fmax(worst, r_log2abs(s) - fmax(0, r_log2abs(vv)));
                /* μ̇ from the gradient only */
                /* written with cross products, apart from cl_lagr_s2_mudot() (q_i unit, q̇_i ⊥ q_i):
                   (I − qqᵀ)f = −q×(q×f), q̇(q·p) = q×(q̇×p), q(q̇·p) = q̇×(q×p) */
                RV_DECL(w1, 3, prec);
                RV_DECL(w2, 3, prec);
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
    return worst;
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
    for (size_t k = 0; k < c->ni; k++) {
        R_DECL(d, r_prec(x));
        r_sub(d, c->I + k, c->I0 + k);
        c->worst = fmax(c->worst, r_log2abs(d) - fmax(0, r_log2abs(c->I0 + k)));
    }
    return CL_OK;
}

/* The precision of a field integrated by GBS at \p prec bits: its guard bits (the extrapolation amplifies the field's rounding). */
static cl_prec_t gbs_guarded(cl_prec_t prec) { return prec + (cl_prec_t)(1.2 * cl_ode_gbs_default_columns(prec)) + 8; }

int CL_FN(cl_model_row_conserve)(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m) return CL_EPARAM;
    int energy = !m->force, balance = energy && m->timed; /* no force: E, or E + W, is conserved */
    size_t n6 = 6 * m->n, ni = m->ninv + (size_t)energy, dim = n6 + (size_t)balance;
    cl_prec_t pin = gbs_guarded(prec);
    CL_FN(cl_lagr_s2) *lg = make_lg(m, pin);
    rptr x = CL_FN(cl_rvec_new)(dim + 2 * ni + 5, prec);
    CL_FN(cl_ode_ws) *ode = NULL;
    cl_check_begin(res);
    int st = lg && x ? CL_FN(cl_ode_ws_new)(&ode, dim, prec, CL_ODE_GBS, 0) : CL_ENOMEM;
    if (!st) {
        rptr I0 = x + dim, I = I0 + ni, t = I + ni, t1 = t + 1, h = t1 + 1, tol = h + 1;
        cl_rng g;
        cl_rng_seed(&g, 7104);
        random_state(m, lg, x, &g);
        r_set_zero(t);
        st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, CL_LAGR_OMEGA, x);
        if (balance) r_set_zero(x + n6); /* W(0) = 0 */
        conserve_ctx c = {.lg = lg, .m = m, .I0 = I0, .I = I, .ni = ni, .worst = -INFINITY, .balance = balance};
        if (!st) st = invariants(&c, t, x, I0);
        r_set_q(t1, 1, prec <= 256 ? 1 : 16);
        r_set_si(tol, 1);
        r_mul_2si(tol, tol, 12 - (long)prec);
        r_set_zero(h);
        if (!st) st = CL_FN(cl_ode_set_tol)(ode, tol, tol);
        CL_FN(cl_ode_set_observer)(ode, conserve_observe, &c);
        if (!st) st = CL_FN(cl_ode_integrate)(ode, conserve_field, &c, t, x, t1, h, NULL);
        if (!st) st = c.status;
        if (!st) cl_check_worst(res, c.worst, "%zu invariant%s over t in [0, %s] (integrated with tolerance 2^(12-p))", ni,
                                ni == 1 ? "" : "s", prec <= 256 ? "1" : "1/16");
    }
    CL_FN(cl_ode_ws_free)(ode);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_lagr_s2_free)(lg);
    return st;
}

/* ------------------------------------------------------------ equilibria */

typedef struct eq_ctx {
    const cl_model *m;
    int k, form;
    cl_prec_t p;
    cl_lagr_s2_mp *lg;
    mpfr_ptr x0, E, y; /* the equilibrium, the tangent bases E_i (3×2 each), a state */
} eq_ctx;

static void eq_ctx_clear(eq_ctx *c)
{
    cl_lagr_s2_free_mp(c->lg);
    cl_rvec_free_mp(c->x0);
    c->lg = NULL;
    c->x0 = NULL;
}

/* An orthonormal basis e1, e2 of the plane normal to the unit vector q (E: 3×2, row-major). */
static void tangent_basis_mp(mpfr_ptr E, mpfr_srcptr q, cl_prec_t p)
{
    int ax = 0;
    for (int c = 1; c < 3; c++)
        if (mpfr_cmpabs(q + c, q + ax) < 0) ax = c;
    mpfr_t s, e1[3], e2[3];
    mpfr_init2(s, p);
    for (int c = 0; c < 3; c++) { mpfr_init2(e1[c], p); mpfr_init2(e2[c], p); }
    for (int c = 0; c < 3; c++) mpfr_mul(e1[c], q + ax, q + c, MPFR_RNDN), mpfr_neg(e1[c], e1[c], MPFR_RNDN);
    mpfr_add_ui(e1[ax], e1[ax], 1, MPFR_RNDN); /* e_ax − (q·e_ax) q */
    mpfr_hypot(s, e1[0], e1[1], MPFR_RNDN);
    mpfr_hypot(s, s, e1[2], MPFR_RNDN);
    for (int c = 0; c < 3; c++) mpfr_div(e1[c], e1[c], s, MPFR_RNDN);
    for (int c = 0; c < 3; c++) { /* e2 = q × e1 */
        int a = (c + 1) % 3, b = (c + 2) % 3;
        mpfr_mul(e2[c], q + a, e1[b], MPFR_RNDN);
        mpfr_fms(e2[c], q + b, e1[a], e2[c], MPFR_RNDN);
        mpfr_neg(e2[c], e2[c], MPFR_RNDN);
    }
    for (int c = 0; c < 3; c++) { mpfr_set(E + 2 * c, e1[c], MPFR_RNDN); mpfr_set(E + 2 * c + 1, e2[c], MPFR_RNDN); }
    for (int c = 0; c < 3; c++) { mpfr_clear(e1[c]); mpfr_clear(e2[c]); }
    mpfr_clear(s);
}

/*
 * The field of form c->form at the state of reduced coordinates s (4n: the
 * q_i's, then the v_i's, two each), computed EQ_GUARD bits above the
 * precision of y: near an equilibrium the field is small while its
 * rounding is that of the forces it balances, and cl_jacobian judges the
 * rounding relative to the field's values. A component below
 * 2^−(p + EQ_GUARD/2) (p the precision of y) is that rounding and is set to
 * 0: a component that vanishes identically along a direction then gives
 * an exact zero derivative instead of a table of noise that never settles.
 */
#define EQ_GUARD 32
static int eq_field(mpfr_ptr y, mpfr_srcptr s, void *ctx)
{
    eq_ctx *c = ctx;
    const cl_model *m = c->m;
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n;
    cl_prec_t P = mpfr_get_prec(y) + EQ_GUARD;
    if (!c->lg || c->p != P) {
        eq_ctx_clear(c);
        c->lg = cl_lagr_s2_new_mp(m->g, m->L, n, m->nparam, P);
        c->x0 = cl_rvec_new_mp(n6 * 3 + 6 * n + 1, P);
        if (!c->lg || !c->x0 || (m->force && cl_lagr_s2_set_forces_mp(c->lg, m->force))) return CL_ENOMEM;
        mpfr_ptr v = cl_rvec_new_mp(m->nparam + 1, P);
        if (!v || cl_model_param_values_mp(m, v)) { cl_rvec_free_mp(v); return CL_EPARSE; }
        for (size_t k = 0; k < m->nparam; k++) cl_lagr_s2_set_param_mp(c->lg, k, v + k);
        cl_rvec_free_mp(v);
        c->E = c->x0 + n6;
        c->y = c->E + 6 * n;
        int st = cl_model_equilibrium_state_mp(c->lg, m, c->k, c->form, c->x0);
        if (st) return st;
        for (size_t i = 0; i < n; i++) tangent_basis_mp(c->E + 6 * i, c->x0 + 3 * i, P);
        c->p = P;
    }
    mpfr_ptr x = c->y;
    mpfr_t r;
    mpfr_init2(r, P);
    for (size_t i = 0; i < n; i++) {
        mpfr_ptr q = x + 3 * i, v = x + n3 + 3 * i;
        mpfr_srcptr E = c->E + 6 * i;
        for (int a = 0; a < 3; a++) {
            mpfr_set(q + a, c->x0 + 3 * i + a, MPFR_RNDN);
            mpfr_set(v + a, c->x0 + n3 + 3 * i + a, MPFR_RNDN);
            for (int b = 0; b < 2; b++) {
                mpfr_fma(q + a, E + 2 * a + b, s + 2 * i + (size_t)b, q + a, MPFR_RNDN);
                mpfr_fma(v + a, E + 2 * a + b, s + 2 * n + 2 * i + (size_t)b, v + a, MPFR_RNDN);
            }
        }
        cl_v3_norm_mp(r, q);
        for (int a = 0; a < 3; a++) mpfr_div(q + a, q + a, r, MPFR_RNDN);
        cl_v3_proj_tangent_mp(v, q, v);
    }
    mpfr_clear(r);
    int st = cl_lagr_s2_rhs_mp(c->lg, c->form, c->y + n6, x);
    for (size_t a = 0; a < n6 && !st; a++) {
        mpfr_set(y + a, c->y + n6 + a, MPFR_RNDN);
        if (mpfr_zero_p(y + a) || mpfr_get_exp(y + a) < -(mpfr_exp_t)(P - EQ_GUARD / 2)) mpfr_set_zero(y + a, 1);
    }
    return st;
}

int CL_FN(cl_model_eq_eigs)(const cl_model *m, int k, int form, cl_prec_t prec, rptr wr, rptr wi, rptr acc)
{
    size_t n = m->n, N = 4 * n, n6 = 6 * n;
    eq_ctx c = {.m = m, .k = k, .form = form};
    rptr s = CL_FN(cl_rvec_new)(N + n6 * N + N * N + n6, prec);
    if (!s) return CL_ENOMEM;
    rptr J = s + N, Jr = J + n6 * N, F = Jr + N * N;
    int st = CL_FN(cl_jacobian)(J, NULL, eq_field, &c, s, N, n6);
    if (!st) {
        /* rows: E_iᵀ (the q_i rows and the v_i rows); the field at the equilibrium itself */
        cl_prec_t P = r_prec(J);
        mpfr_ptr Fm = cl_rvec_new_mp(n6, P), sm = cl_rvec_new_mp(N, P);
        st = Fm && sm ? eq_field(Fm, sm, &c) : CL_ENOMEM;
        for (size_t a = 0; a < n6 && !st; a++) {
#if CL_T == CL_DOUBLE
            F[a] = mpfr_get_d(Fm + a, MPFR_RNDN);
#else
            mpfr_set(F + a, Fm + a, MPFR_RNDN);
#endif
        }
        if (!st && acc) r_set_d(acc, ldexp(1.0, (int)fmax(-1e4, CL_FN(cl_rvec_log2_maxabs)(F, n6))));
        for (size_t blk = 0; blk < 2 * n && !st; blk++) /* q_1 … q_n, v_1 … v_n */
            for (int b = 0; b < 2; b++)
                for (size_t col = 0; col < N; col++) {
                    rptr e = Jr + (2 * blk + (size_t)b) * N + col;
                    r_set_zero(e);
                    for (int a = 0; a < 3; a++) {
                        R_DECL(Eab, prec);
#if CL_T == CL_DOUBLE
                        Eab[0] = mpfr_get_d(c.E + 6 * (blk % n) + 2 * a + b, MPFR_RNDN);
#else
                        mpfr_set(Eab, c.E + 6 * (blk % n) + 2 * a + b, MPFR_RNDN);
#endif
                        r_addmul(e, Eab, J + (3 * blk + (size_t)a) * N + col);
                    }
                }
        cl_rvec_free_mp(Fm);
        cl_rvec_free_mp(sm);
        if (!st) st = CL_FN(cl_eig)(wr, wi, Jr, (int)N);
    }
    eq_ctx_clear(&c);
    CL_FN(cl_rvec_free)(s);
    return st;
}

/* Greedy matching of eigenvalue sets a and b (N each): log2 of the largest |a_j − b_match(j)|. */
static double eig_gap(rsrc ar, rsrc ai, rsrc br, rsrc bi, size_t N)
{
    int used[4 * CL_LAGR_MAX_SPHERES] = {0};
    double worst = -INFINITY;
    for (size_t j = 0; j < N; j++) {
        int best = -1;
        double bd = INFINITY;
        for (size_t k = 0; k < N; k++) {
            if (used[k]) continue;
            R_DECL(u, r_prec(ar));
            R_DECL(v, r_prec(ar));
            r_sub(u, ar + j, br + k);
            r_sub(v, ai + j, bi + k);
            r_hypot(u, u, v);
            double d = r_log2abs(u);
            if (best < 0 || d < bd) { best = (int)k; bd = d; }
        }
        used[best] = 1;
        worst = fmax(worst, bd);
    }
    return worst;
}

/* Row MODEL.eq.NAME for equilibrium k (one function per k, below). */
static int eq_row(cl_check_result *res, cl_prec_t prec, int k)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m || (size_t)k >= m->neq) return CL_EPARAM;
    size_t N = 4 * m->n;
    cl_check_begin(res);
    rptr w = CL_FN(cl_rvec_new)(2 * N * 4 + 1, prec);
    cl_prec_t pref = 2 * (CL_T == CL_DOUBLE ? 53 : prec) + 32;
    mpfr_ptr ref = cl_rvec_new_mp(2 * N + 1, pref);
    if (!w || !ref) {
        CL_FN(cl_rvec_free)(w);
        cl_rvec_free_mp(ref);
        return CL_ENOMEM;
    }
    int st = cl_model_eq_eigs_mp(m, k, CL_LAGR_QDOT, pref, ref, ref + N, NULL);
    rptr acc = w + 8 * N;
    for (int form = 0; form < 4 && !st; form++) {
        rptr wr = w + 2 * N * (size_t)form, wi = wr + N;
        st = CL_FN(cl_model_eq_eigs)(m, k, form, prec, wr, wi, form == 0 ? acc : NULL);
    }
    if (!st) {
        /* the reference at the working precision's kind, then every form against it and against the qdot form */
        rptr rr = CL_FN(cl_rvec_new)(2 * N, prec);
        if (!rr) st = CL_ENOMEM;
        for (size_t j = 0; j < 2 * N && !st; j++) {
#if CL_T == CL_DOUBLE
            rr[j] = mpfr_get_d(ref + j, MPFR_RNDN);
#else
            mpfr_set(rr + j, ref + j, MPFR_RNDN);
#endif
        }
        double scale = -INFINITY;
        for (size_t j = 0; j < N && !st; j++) {
            R_DECL(u, prec);
            r_hypot(u, rr + j, rr + N + j);
            scale = fmax(scale, r_log2abs(u));
        }
        scale = fmax(scale, -20);
        for (int form = 0; form < 4 && !st; form++) {
            rptr wr = w + 2 * N * (size_t)form, wi = wr + N;
            cl_check_worst(res, eig_gap(wr, wi, rr, rr + N, N) - scale, "%s form: eigenvalues against %lu bits; max|lambda| = 2^%.1f",
                           cl_model_kind_s2.forms[form], (unsigned long)pref, scale);
            if (form) cl_check_worst(res, eig_gap(wr, wi, w, w + N, N) - scale, "%s form against the qdot form", cl_model_kind_s2.forms[form]);
        }
        /* the field vanishes at the equilibrium: |F| against max|lambda|^2 (accelerations) */
        if (!st) cl_check_worst(res, r_log2abs(acc) - fmax(2 * scale, -20), "the field at the equilibrium: 2^%.1f", r_log2abs(acc));
        CL_FN(cl_rvec_free)(rr);
    }
    cl_rvec_free_mp(ref);
    CL_FN(cl_rvec_free)(w);
    return st;
}

#define EQ_ROW(k) \
    int CL_FN(cl_model_row_eq##k)(cl_check_result *res, cl_prec_t prec) { return eq_row(res, prec, k); }
EQ_ROW(0) EQ_ROW(1) EQ_ROW(2) EQ_ROW(3) EQ_ROW(4) EQ_ROW(5) EQ_ROW(6) EQ_ROW(7)

/* ------------------------------------------------------------ models of other kinds */
/*
 * A model of SO(3), S¹ or Rᵏ factors is a system of the command line
 * (model_ext.h); its rows use that system's descriptor only (forms, dim,
 * rhs, convert, random_state, invariants), so they hold for any kind of
 * model. They run in MPFR on every rung (at 53 bits too: the descriptor
 * works in MPFR).
 *
 *   MODEL.legendre  form 0 → k → 0 returns the state, and 0 → j → k agrees with 0 → k
 *   MODEL.forms     a short trajectory integrated in every form from the
 *                   same state, its end carried back to form 0, against the
 *                   trajectory of form 0
 *   MODEL.invariants dI/dt = DI·f vanishes on the field of every form
 *                   (DI by src/deriv) for the energy and the declared invariants
 *   MODEL.conserve  the energy, the declared invariants and the kind's
 *                   constraint drift along a trajectory of form 0
 */
#if CL_T == CL_MPFR
#include "model_ext.h"

static const cl_system *ext_sys; /* the current model as a system, when it is not of S² factors */

/* An instance of the current model's system at precision prec, with its parameters read at prec. */
typedef struct ext_run {
    const cl_system *s;
    cl_params p;
    void *inst;
    cl_prec_t prec;
} ext_run;

static void ext_close(ext_run *r)
{
    if (r->inst) r->s->destroy(r->inst);
    r->inst = NULL;
    cl_params_free(&r->p);
}

static int ext_open(ext_run *r, cl_prec_t prec)
{
    cl_sys_error e;
    memset(r, 0, sizeof *r);
    r->s = ext_sys;
    r->prec = prec;
    if (!r->s) return CL_EPARAM;
    int st = cl_params_parse(&r->p, r->s->params, 0, NULL, NULL, prec, &e);
    if (!st) st = r->s->create(&r->inst, &r->p, prec, &e);
    if (st) ext_close(r);
    return st;
}

/* The number of forms and the largest state length over them. */
static int ext_forms(const ext_run *r, size_t *maxdim)
{
    int k = 0;
    *maxdim = 0;
    for (; r->s->forms[k]; k++)
        if (r->s->dim(r->inst, k) > *maxdim) *maxdim = r->s->dim(r->inst, k);
    return k;
}

/*
 * A row over \p draws random states of form 0: \p measure judges one state x
 * (workspace w of \p nw·D numbers, D the largest state length, nf the
 * number of forms) with r at the working precision and rg (when \p guard)
 * carrying GBS's guard bits.
 */
typedef int (*ext_measure)(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int draw);

static int over_ext_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, int draws, size_t nw, int guard, ext_measure measure)
{
    ext_run r, rg = {0};
    int st = ext_open(&r, prec);
    cl_check_begin(res);
    if (st) return st;
    if (guard && (st = ext_open(&rg, gbs_guarded(prec)))) {
        ext_close(&r);
        return st;
    }
    size_t D;
    int nf = ext_forms(&r, &D);
    mpfr_ptr x = cl_rvec_new_mp(D * (nw + 1), prec);
    if (!x) st = CL_ENOMEM;
    cl_rng g;
    cl_rng_seed(&g, seed);
    for (int k = 0; k < draws && !st; k++) {
        st = r.s->random_state(r.inst, 0, x, &g);
        if (!st) st = measure(res, &r, guard ? &rg : NULL, x, x + D, D, nf, k);
    }
    cl_rvec_free_mp(x);
    if (guard) ext_close(&rg);
    ext_close(&r);
    return st;
}

/* Round trips 0 → k → 0, and 0 → j → k against 0 → k (relative). */
static int ext_legendre_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t d0 = s->dim(r->inst, 0);
    mpfr_ptr y = w, z = y + D, u = z + D;
    double sx = cl_rvec_log2_maxabs_mp(x, d0);
    int st = CL_OK;
    (void)rg;
    for (int f = 1; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        st = s->convert(r->inst, 0, x, f, y);
        if (!st) st = s->convert(r->inst, f, y, 0, z);
        if (!st) cl_check_worst(res, rel(z, x, d0, sx), "draw %d: %s -> %s -> %s", k, s->forms[0], s->forms[f], s->forms[0]);
        for (int j = 1; j < nf && !st; j++) {
            if (j == f) continue;
            st = s->convert(r->inst, 0, x, j, z);
            if (!st) st = s->convert(r->inst, j, z, f, u);
            if (!st)
                cl_check_worst(res, rel(u, y, df, cl_rvec_log2_maxabs_mp(y, df)), "draw %d: %s -> %s -> %s against %s -> %s", k,
                               s->forms[0], s->forms[j], s->forms[f], s->forms[0], s->forms[f]);
        }
    }
    return st;
}

static int ext_row_legendre(cl_check_result *res, cl_prec_t prec) { return over_ext_states(res, prec, 7102, DRAWS, 3, 0, ext_legendre_gap); }

/* The field of one form for the integrator, evaluated at the instance's precision (guard bits above the state's). */
typedef struct ext_flow {
    ext_run *r;
    int form;
    size_t dim;
    mpfr_ptr xin, dxin; /* at the instance's precision */
    mpfr_ptr I0, I;     /* MODEL.conserve: the invariants at t = 0 and now */
    size_t ni;
    double worst;
} ext_flow;

static int ext_flow_field(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    ext_flow *c = ctx;
    if (c->r->s->set_time) c->r->s->set_time(c->r->inst, t); /* a time-dependent model moves with the integration */
    cl_rvec_copy_mp(c->xin, x, c->dim);
    int st = c->r->s->rhs(c->r->inst, c->form, c->dxin, c->xin);
    if (!st) cl_rvec_copy_mp(dx, c->dxin, c->dim);
    return st;
}

/*
 * Integrate x (form \p form, at precision \p prec) over [0, t1], t1 = 1 (1/16
 * above 256 bits), by Gragg–Bulirsch–Stoer with tolerance 2^(12−p); the
 * field is evaluated by \p r, whose precision carries GBS's guard bits (its
 * extrapolation amplifies the field's rounding), as MODEL.conserve of S²
 * models. \p obs (may be NULL) is called after every step with \p c.
 */
static int ext_integrate(ext_flow *c, mpfr_ptr x, cl_prec_t prec, cl_ode_observer_mp obs)
{
    cl_ode_ws_mp *ode = NULL;
    mpfr_ptr w = cl_rvec_new_mp(4, prec);
    c->xin = cl_rvec_new_mp(2 * c->dim, c->r->prec);
    c->dxin = c->xin ? c->xin + c->dim : NULL;
    int st = w && c->xin ? cl_ode_ws_new_mp(&ode, c->dim, prec, CL_ODE_GBS, 0) : CL_ENOMEM;
    if (!st) {
        mpfr_ptr t = w, t1 = w + 1, h = w + 2, tol = w + 3;
        mpfr_set_zero(t, 1);
        mpfr_set_ui(t1, 1, MPFR_RNDN);
        if (prec > 256) mpfr_div_ui(t1, t1, 16, MPFR_RNDN);
        mpfr_set_zero(h, 1);
        mpfr_set_ui_2exp(tol, 1, 12 - (long)prec, MPFR_RNDN);
        st = cl_ode_set_tol_mp(ode, tol, tol);
        if (obs) cl_ode_set_observer_mp(ode, obs, c);
        if (!st) st = cl_ode_integrate_mp(ode, ext_flow_field, c, t, x, t1, h, NULL);
    }
    cl_ode_ws_free_mp(ode);
    cl_rvec_free_mp(c->xin);
    c->xin = c->dxin = NULL;
    cl_rvec_free_mp(w);
    return st;
}

/* Trajectories in every form from the same state x, their ends carried back to form 0 against form 0's (relative). */
static int ext_forms_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t d0 = s->dim(r->inst, 0);
    mpfr_ptr e0 = w, y = e0 + D, z = y + D;
    cl_prec_t prec = mpfr_get_prec(x);
    cl_rvec_copy_mp(e0, x, d0);
    ext_flow c0 = {.r = rg, .form = 0, .dim = d0};
    int st = ext_integrate(&c0, e0, prec, NULL);
    double se = cl_rvec_log2_maxabs_mp(e0, d0);
    for (int f = 1; f < nf && !st; f++) {
        ext_flow cf = {.r = rg, .form = f, .dim = s->dim(r->inst, f)};
        st = s->convert(r->inst, 0, x, f, y);
        if (!st) st = ext_integrate(&cf, y, prec, NULL);
        if (!st) st = s->convert(r->inst, f, y, 0, z);
        if (!st) cl_check_worst(res, rel(z, e0, d0, se), "draw %d: the %s trajectory against the %s one", k, s->forms[f], s->forms[0]);
    }
    return st;
}

static int ext_row_forms(cl_check_result *res, cl_prec_t prec) { return over_ext_states(res, prec, 7101, 3, 3, 1, ext_forms_gap); }

/* 0 when a force is declared or L depends on t: the energy is then no invariant of the rows. */
static int ext_energy_conserved(void) { return !current->force && !current->timed; }

/* The invariants at the precision of the output, by an instance at that precision (reopened when it changes). */
typedef struct ext_inv_ctx {
    ext_run r;
    int form, open;
    size_t dim, ni;
    mpfr_ptr all; /* every invariant of the descriptor, at r.prec */
} ext_inv_ctx;

static int ext_inv_eval(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    ext_inv_ctx *c = ctx;
    cl_prec_t P = mpfr_get_prec(y);
    int st = CL_OK;
    if (!c->open || c->r.prec != P) {
        if (c->open) ext_close(&c->r);
        cl_rvec_free_mp(c->all);
        c->all = NULL;
        c->open = 0;
        st = ext_open(&c->r, P);
        if (st) return st;
        c->open = 1;
        size_t nall = 0;
        while (c->r.s->invariant_names[nall]) nall++;
        c->all = cl_rvec_new_mp(nall, P);
        if (!c->all) return CL_ENOMEM;
    }
    st = c->r.s->invariants(c->r.inst, c->form, c->all, x);
    if (!st) cl_rvec_copy_mp(y, c->all, c->ni);
    return st;
}

/*
 * The energy and the declared invariants do not change along the field of
 * any form: dI/dt = Σ_i ∂I/∂x_i f_i = 0 at x carried to every form, the
 * gradient by src/deriv (cl_jacobian), relative to Σ_i |∂I/∂x_i f_i|.
 */
static int ext_invariants_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t ni = 1 + current->ninv; /* energy first, then the declared ones (not the kind's drift, a maximum) */
    size_t i0 = ext_energy_conserved() ? 0 : 1;
    mpfr_ptr y = w, F = y + D, J = F + D;
    cl_prec_t prec = mpfr_get_prec(x);
    ext_inv_ctx c = {.ni = ni};
    int st = CL_OK;
    (void)rg;
    for (int f = 0; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        st = f ? s->convert(r->inst, 0, x, f, y) : (cl_rvec_copy_mp(y, x, df), CL_OK);
        c.form = f;
        c.dim = df;
        if (!st) st = cl_jacobian_mp(J, NULL, ext_inv_eval, &c, y, df, ni);
        if (!st) st = s->rhs(r->inst, f, F, y);
        for (size_t i = i0; i < ni && !st; i++) {
            mpfr_t d, u, sc;
            mpfr_inits2(prec, d, u, sc, (mpfr_ptr)0);
            mpfr_set_zero(d, 1);
            mpfr_set_zero(sc, 1);
            for (size_t a = 0; a < df; a++) {
                mpfr_mul(u, J + i * df + a, F + a, MPFR_RNDN);
                mpfr_add(d, d, u, MPFR_RNDN);
                mpfr_abs(u, u, MPFR_RNDN);
                mpfr_add(sc, sc, u, MPFR_RNDN);
            }
            cl_check_worst(res, r_log2abs(d) - fmax(r_log2abs(sc), -20), "draw %d, form %s: d%s/dt", k, s->forms[f], s->invariant_names[i]);
            mpfr_clears(d, u, sc, (mpfr_ptr)0);
        }
    }
    if (c.open) ext_close(&c.r);
    cl_rvec_free_mp(c.all);
    return st;
}

static int ext_row_invariants(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    return m ? over_ext_states(res, prec, 7105, DRAWS, 2 + 1 + m->ninv, 0, ext_invariants_gap) : CL_EPARAM;
}

static int ext_conserve_observe(mpfr_srcptr t, mpfr_srcptr x, size_t n, void *ctx)
{
    ext_flow *c = ctx;
    (void)t;
    (void)n;
    cl_rvec_copy_mp(c->xin, x, c->dim);
    int st = c->r->s->invariants(c->r->inst, c->form, c->I, c->xin);
    for (size_t k = ext_energy_conserved() ? 0 : 1; k < c->ni && !st; k++) {
        mpfr_t d;
        mpfr_init2(d, c->r->prec);
        mpfr_sub(d, c->I + k, c->I0 + k, MPFR_RNDN);
        c->worst = fmax(c->worst, r_log2abs(d) - fmax(0, r_log2abs(c->I0 + k)));
        mpfr_clear(d);
    }
    return st;
}

/* The field at declared equilibrium k vanishes in every form, relative to max(1, |x|). */
static int ext_row_eq(cl_check_result *res, cl_prec_t prec, int k)
{
    ext_run r;
    int st = ext_open(&r, prec);
    cl_check_begin(res);
    if (st) return st;
    size_t D;
    int nf = ext_forms(&r, &D);
    mpfr_ptr x = cl_rvec_new_mp(2 * D, prec);
    if (!x) st = CL_ENOMEM;
    for (int f = 0; f < nf && !st; f++) {
        size_t df = r.s->dim(r.inst, f);
        st = r.s->equilibrium(r.inst, k, f, x, NULL);
        if (!st) st = r.s->rhs(r.inst, f, x + D, x);
        if (!st)
            cl_check_worst(res, cl_rvec_log2_maxabs_mp(x + D, df) - fmax(0, cl_rvec_log2_maxabs_mp(x, df)), "form %s: the field at the equilibrium",
                           r.s->forms[f]);
    }
    cl_rvec_free_mp(x);
    ext_close(&r);
    return st;
}
#define EXT_EQ(K) static int ext_row_eq##K(cl_check_result *res, cl_prec_t prec) { return ext_row_eq(res, prec, K); }
EXT_EQ(0) EXT_EQ(1) EXT_EQ(2) EXT_EQ(3) EXT_EQ(4) EXT_EQ(5) EXT_EQ(6) EXT_EQ(7)

/* The invariants of the descriptor (energy first) along one trajectory of form 0, relative to max(1, |I(0)|). */
static int ext_row_conserve(cl_check_result *res, cl_prec_t prec)
{
    ext_run r;
    int st = ext_open(&r, gbs_guarded(prec));
    cl_check_begin(res);
    if (st) return st;
    const cl_system *s = r.s;
    size_t d0 = s->dim(r.inst, 0), ni = 0;
    while (s->invariant_names[ni]) ni++;
    mpfr_ptr x = cl_rvec_new_mp(d0, prec), I = cl_rvec_new_mp(2 * ni + d0, r.prec);
    ext_flow c = {.r = &r, .form = 0, .dim = d0, .ni = ni, .worst = -INFINITY};
    if (!x || !I) st = CL_ENOMEM;
    else {
        c.I0 = I;
        c.I = I + ni;
        mpfr_ptr xg = c.I + ni;
        cl_rng g;
        cl_rng_seed(&g, 7104);
        st = s->random_state(r.inst, 0, x, &g);
        cl_rvec_copy_mp(xg, x, d0); /* exact: the invariants at the field's precision */
        if (!st) st = s->invariants(r.inst, 0, c.I0, xg);
        if (!st) st = ext_integrate(&c, x, prec, ext_conserve_observe);
        if (!st)
            cl_check_worst(res, c.worst, "%zu invariant%s over t in [0, %s] (integrated with tolerance 2^(12-p))", ni, ni == 1 ? "" : "s",
                           prec <= 256 ? "1" : "1/16");
    }
    cl_rvec_free_mp(I);
    cl_rvec_free_mp(x);
    ext_close(&r);
    return st;
}
#endif

/* ------------------------------------------------------------ the rows of a model */
#if CL_T == CL_MPFR
static cl_check *rows;
static char (*row_name)[96];
static size_t nrows;

void cl_model_oracle_rows_free(void)
{
    free(rows);
    free(row_name);
    rows = NULL;
    row_name = NULL;
    nrows = 0;
    if (ext_sys) cl_model_ext_system_free(ext_sys); /* it owns the model */
    else cl_model_free(current);
    ext_sys = NULL;
    current = NULL;
}

/* The integration of the conserve rows, and why their tolerance. */
#define S2_TRAJ "a trajectory (omega form, t in [0, 1] (1/16 above 256 bits), Gragg-Bulirsch-Stoer with tolerance 2^(12-p)), at every step, relative to max(1, |I(0)|)"
#define EXT_SPAN "(Gragg-Bulirsch-Stoer, tolerance 2^(12-p), t in [0, 1] (1/16 above 256 bits))"
#define TRAJ_WHY "the integration tolerance 2^12 units, times the growth of errors over the span, as s2.traj.energy"

/* The rows of a model of S² factors, one line each as CL_CHECK descriptions are written; .name is the row's suffix (MODEL.SUFFIX). */
static const cl_check s2_rows[] = {
    {.name = "forms", .tags = "[S2 (3),(5),(20),(28)]", .what = "the field derived from L in the forms omega, mu, pi against the qdot field carried by the kinematics (qdot alike, omegadot = q x qddot, pidot = qdot x mu + q x mudot), at 12 random states (relative)", .cond = 4096, .why = "dense 3n x 3n solves with the tangent velocity Hessian and a Newton-inverted Legendre map on each side, at random states of unit speeds; the Hessian's condition is below 10^3", .fn_d = cl_model_row_forms_d, .fn_mp = cl_model_row_forms_mp},
    {.name = "legendre", .tags = "[S2 (3),(5),(20),(28)]", .what = "qdot -> omega, mu, pi -> qdot round trips (the inverse Legendre map by Newton's method) and mu -> pi against qdot -> pi, at 12 random states (relative)", .cond = 4096, .why = "one 3n x 3n solve per Newton step, the velocity Hessian's condition below 10^3", .fn_d = cl_model_row_legendre_d, .fn_mp = cl_model_row_legendre_mp},
    {.name = "el", .tags = "[S2 (11),(20)]", .what = "the Euler-Lagrange residuals (I - q qT)(d/dt dL/dqdot - dL/dq) and q.qddot + |qdot|^2 on the qdot field, and the mu field against mudot = (I - q qT) dL/dq - qdot (q.dL/dqdot) - q (qdot.dL/dqdot) (dL/dq + F with forces), by an evaluator of their own, at 12 random states (relative)", .cond = 4096, .why = "the residual of a dense 3n x 3n solve is the solve's backward error times the Hessian's norm, with sums of 6n products; the mu side inverts the Legendre map by Newton", .fn_d = cl_model_row_el_d, .fn_mp = cl_model_row_el_mp},
};
/* Its conserve row (what it conserves depends on the model) and the row of each declared equilibrium (eq.NAME). */
static const cl_check s2_conserve = {.name = "conserve", .tags = "[S2 (13)]", .what = "the energy and the declared invariants along " S2_TRAJ, .cond = 0x1p17, .why = TRAJ_WHY, .fn_d = cl_model_row_conserve_d, .fn_mp = cl_model_row_conserve_mp};
static const cl_check s2_eq = {.tags = "[S2 (13),(40)]", .what = "a declared equilibrium: the field vanishes there, and the eigenvalues of the Jacobian on the tangent space of T(S^2)^n in the forms qdot, omega, mu, pi agree with each other and with the qdot form at 2p + 32 bits (relative to max |lambda|)", .cond = 4096, .why = "Jacobian accurate to the working precision (src/deriv), then cl_eig of a 4n x 4n matrix; semisimple eigenvalues (double ones from symmetric modes) are accurate to ~n 2^(1-p) |J|"};

static const cl_check ext_eq = {.tags = "", .what = "a declared equilibrium: the field vanishes there in every form (relative to max(1, |x|))", .cond = 4096, .why = "the terms of the field (gravity, the Euler-Poincare products) cancel to a few roundings each; a velocity Hessian solve (condition below 10^2) and a Newton-inverted Legendre map"};

/* The rows of a model of another kind (through its system's descriptor). */
static const cl_check ext_rows[] = {
    {.name = "forms", .tags = "", .what = "a trajectory integrated in every form from the same random state " EXT_SPAN ", its end carried back to the first form, against the trajectory of the first form, at 3 random states (relative)", .cond = 0x1p17, .why = "two integrations with tolerance 2^12 units each, times the growth of errors over the span, as MODEL.conserve", .fn_d = ext_row_forms, .fn_mp = ext_row_forms},
    {.name = "legendre", .tags = "", .what = "first form -> k -> first form round trips, and first -> j -> k against first -> k, at 12 random states (relative)", .cond = 4096, .why = "the Legendre map and its inverse (a velocity Hessian solve, its condition below 10^2 for the shipped models), each a few dozen roundings", .fn_d = ext_row_legendre, .fn_mp = ext_row_legendre},
    {.name = "invariants", .tags = "", .what = "dI/dt = sum_i dI/dx_i f_i vanishes for the energy and the declared invariants on the field of every form, the gradient by src/deriv, at 12 random states, relative to sum_i |dI/dx_i f_i|", .cond = 4096, .why = "the gradient accurate to 2^(1-p) per entry (cl_jacobian), the field a velocity Hessian solve (condition below 10^2), sums of a dozen products", .fn_d = ext_row_invariants, .fn_mp = ext_row_invariants},
    {.name = "conserve", .tags = "", .what = "the energy, the declared invariants and the constraint drift along a trajectory of the first form " EXT_SPAN ", at every step, relative to max(1, |I(0)|)", .cond = 0x1p17, .why = TRAJ_WHY, .fn_d = ext_row_conserve, .fn_mp = ext_row_conserve},
};

/* Add the row MODEL.SUFFIX described by \p c (its name the suffix), MODEL \p bl bytes of \p base; \p tags replaces c's unless NULL. */
static void add_row(const cl_check *c, const char *base, size_t bl, const char *tags)
{
    snprintf(row_name[nrows], sizeof row_name[nrows], "model.%.*s.%s", (int)bl, base, c->name);
    rows[nrows] = *c;
    rows[nrows].name = row_name[nrows];
    rows[nrows].chapter = "model";
    if (tags) rows[nrows].tags = tags;
    nrows++;
}

int cl_model_oracle_rows(const cl_check **out, size_t *nout, const char *path, int nset, const char *const *set, cl_sys_error *e)
{
    cl_model_oracle_rows_free();
    *out = NULL;
    *nout = 0;
    cl_model *m;
    int st = cl_model_load(&m, path, e);
    if (st) return st;
    for (int j = 0; j < nset; j++) { /* name=value overrides the default */
        const char *eqs = strchr(set[j], '=');
        char name[CL_MODEL_MAX_NAME + 1];
        size_t len = eqs ? (size_t)(eqs - set[j]) : 0;
        long k = -1;
        if (eqs && len <= CL_MODEL_MAX_NAME) {
            memcpy(name, set[j], len);
            name[len] = 0;
            k = cl_model_param_index(m, name);
        }
        if (!eqs) st = cl_sys_error_set(e, CL_EPARAM, set[j], "--param needs name=value");
        else if (k < 0) st = cl_sys_error_set(e, CL_EPARAM, set[j], "unknown parameter of the model %s", path);
        else {
            int bad = !cl_text_is_number(eqs + 1);
            char *dup = bad ? NULL : strdup(eqs + 1);
            if (bad) st = cl_sys_error_set(e, CL_EPARSE, set[j], "the value of --param %s must be a finite decimal number", name);
            else if (!dup) st = cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
            else {
                free(m->pdef[k]);
                m->pdef[k] = dup;
            }
        }
        if (st) {
            cl_model_free(m);
            return st;
        }
    }
    /* the row names: the file's base name without .model */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    if (bl > 6 && !strcmp(base + bl - 6, ".model")) bl -= 6;
    if (bl > 40) bl = 40;
    size_t cap = 4 + m->neq; /* forms, legendre, el, conserve (other kinds: forms, legendre, invariants, conserve) */
    rows = calloc(cap, sizeof *rows);
    row_name = calloc(cap, sizeof *row_name);
    if (!rows || !row_name) {
        cl_model_free(m);
        cl_model_oracle_rows_free();
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    current = m;
    if (cl_model_kind_of(m) != &cl_model_kind_s2) { /* the system takes the model over */
        st = cl_model_ext_system_new(&ext_sys, m, cl_model_kind_of(m), e);
        if (st) {
            current = NULL;
            cl_model_oracle_rows_free();
            return st;
        }
    }
    const cl_check *table = ext_sys ? ext_rows : s2_rows;
    size_t ntable = ext_sys ? sizeof ext_rows / sizeof *ext_rows : sizeof s2_rows / sizeof *s2_rows;
    for (size_t k = 0; k < ntable; k++) add_row(table + k, base, bl, m->so3 ? "[EMB 3.4]" : NULL);
    if (!ext_sys && (m->ninv || !m->force)) {
        cl_check c = s2_conserve;
        if (m->force) c.what = "the declared invariants along " S2_TRAJ "; the energy is not an invariant (a force is declared)";
        else if (m->timed)
            c.what = "the energy balance E(t) + W(t), W' = dL/dt integrated with the motion (L depends on t), and the declared "
                     "invariants along " S2_TRAJ;
        add_row(&c, base, bl, NULL);
    }
    static const cl_check_fn eq_d[] = {cl_model_row_eq0_d, cl_model_row_eq1_d, cl_model_row_eq2_d, cl_model_row_eq3_d,
                                       cl_model_row_eq4_d, cl_model_row_eq5_d, cl_model_row_eq6_d, cl_model_row_eq7_d};
    static const cl_check_fn eq_mp[] = {cl_model_row_eq0_mp, cl_model_row_eq1_mp, cl_model_row_eq2_mp, cl_model_row_eq3_mp,
                                        cl_model_row_eq4_mp, cl_model_row_eq5_mp, cl_model_row_eq6_mp, cl_model_row_eq7_mp};
    static const cl_check_fn eq_ext[] = {ext_row_eq0, ext_row_eq1, ext_row_eq2, ext_row_eq3, ext_row_eq4, ext_row_eq5, ext_row_eq6, ext_row_eq7};
    for (size_t k = 0; k < m->neq; k++) {
        char suffix[CL_MODEL_MAX_NAME + 8];
        snprintf(suffix, sizeof suffix, "eq.%s", m->eqname[k]);
        cl_check c = ext_sys ? ext_eq : s2_eq;
        c.name = suffix;
        c.fn_d = ext_sys ? eq_ext[k] : eq_d[k];
        c.fn_mp = ext_sys ? eq_ext[k] : eq_mp[k];
        add_row(&c, base, bl, NULL);
    }
    *out = rows;
    *nout = nrows;
    return CL_OK;
}
#endif

/*
 * A general Lagrangian on (S²)ⁿ written as a formula (lagr_s2.h): the
 * Euler–Lagrange equations of Proposition 1 [S2 (11)] solved for q̈ with the
 * exact gradient and Hessian of L from the expression engine, and the other
 * forms of [S2 III–IV] through the kinematics ω_i = q_i × q̇_i and the
 * Legendre map μ_i = (I − q_iq_iᵀ)∂L/∂q̇_i, π_i = q_i × μ_i. Nothing here
 * assumes L quadratic in q̇: the Legendre map is inverted by Newton's method,
 * whose matrix is the same tangent-space velocity Hessian as the one of the
 * equations of motion.
 */
#include <stdlib.h>
#include "lagr_s2.h"
#include "linalg.h"
#include "r3.h"

struct CL_FN(cl_lagr_s2) {
    const cl_expr_dag *g;
    int L;
    size_t n, nparam;
    size_t nin; /* inputs differentiated: q, q̇, and t when L depends on t */
    int timed;  /* L depends on t (input 6n) */
    int *force; /* nodes of the generalized forces on q_1 … q_n (3n), NULL: none */
    int upto;   /* the last node a run evaluates: L, or a force after it */
    cl_prec_t prec;
    CL_FN(cl_expr_eval) *ev;
    rptr block;
    rptr in;   /* q, q̇, t, parameters */
    rptr grad; /* ∂L/∂q, ∂L/∂q̇ (6n), ∂L/∂t when timed */
    rptr H;    /* rows ∂²L/∂q̇_a∂x_b, x = (q, q̇, t when timed): (nin − 3n) × nin */
    rptr G;    /* the 3n×3n matrix of the accelerations and of the Legendre map */
    rptr c, qd, qdd, mu, D; /* 3n each */
    int *perm;
    int bad;
};

CL_FN(cl_lagr_s2) *CL_FN(cl_lagr_s2_new)(const cl_expr_dag *g, int L, size_t n, size_t nparam, cl_prec_t prec)
{
    if (n == 0 || n > CL_LAGR_MAX_SPHERES || L < 0 || (size_t)L >= cl_expr_dag_size(g)) return NULL;
    CL_FN(cl_lagr_s2) *lg = calloc(1, sizeof *lg);
    if (!lg) return NULL;
    size_t n3 = 3 * n;
    lg->g = g;
    lg->L = L;
    lg->n = n;
    lg->nparam = nparam;
    lg->prec = prec;
    lg->bad = -1;
    lg->upto = L;
    lg->timed = CL_FN(cl_lagr_s2_depends_on_time)(g, L, n);
    lg->nin = 2 * n3 + (size_t)lg->timed;
    size_t nin = lg->nin;
    lg->ev = CL_FN(cl_expr_eval_new)(g, prec);
    lg->block = CL_FN(cl_rvec_new)(2 * n3 + 1 + nparam + nin + (nin - n3) * nin + n3 * n3 + 5 * n3, prec);
    lg->perm = malloc(n3 * sizeof *lg->perm);
    if (!lg->ev || !lg->block || !lg->perm) {
        CL_FN(cl_lagr_s2_free)(lg);
        return NULL;
    }
    rptr p = lg->block;
    lg->in = p; p += 2 * n3 + 1 + nparam;
    lg->grad = p; p += nin;
    lg->H = p; p += (nin - n3) * nin;
    lg->G = p; p += n3 * n3;
    RV_CARVE(p, n3, &lg->c, &lg->qd, &lg->qdd, &lg->mu, &lg->D);
    return lg;
}

void CL_FN(cl_lagr_s2_free)(CL_FN(cl_lagr_s2) *lg)
{
    if (!lg) return;
    CL_FN(cl_expr_eval_free)(lg->ev);
    CL_FN(cl_rvec_free)(lg->block);
    free(lg->perm);
    free(lg->force);
    free(lg);
}

void CL_FN(cl_lagr_s2_set_param)(CL_FN(cl_lagr_s2) *lg, size_t k, rsrc v)
{
    if (k < lg->nparam) r_set(lg->in + 6 * lg->n + 1 + k, v);
}

void CL_FN(cl_lagr_s2_set_time)(CL_FN(cl_lagr_s2) *lg, rsrc t) { r_set(lg->in + 6 * lg->n, t); }

int CL_FN(cl_lagr_s2_set_forces)(CL_FN(cl_lagr_s2) *lg, const int *force)
{
    size_t n3 = 3 * lg->n;
    int *f = malloc(n3 * sizeof *f);
    if (!f) return CL_ENOMEM;
    lg->upto = lg->L;
    for (size_t a = 0; a < n3; a++) {
        f[a] = force[a];
        if (f[a] >= (int)cl_expr_dag_size(lg->g)) {
            free(f);
            return CL_EDIM;
        }
        if (f[a] > lg->upto) lg->upto = f[a];
    }
    free(lg->force);
    lg->force = f;
    return CL_OK;
}

void CL_FN(cl_lagr_s2_get_time)(const CL_FN(cl_lagr_s2) *lg, rptr t) { r_set(t, lg->in + 6 * lg->n); }

int CL_FN(cl_lagr_s2_timed)(const CL_FN(cl_lagr_s2) *lg) { return lg->timed; }

int CL_FN(cl_lagr_s2_depends_on_time)(const cl_expr_dag *g, int id, size_t n)
{
    if (id < 0 || (size_t)id >= cl_expr_dag_size(g)) return 0;
    /* nodes come after their arguments: one forward pass marks the dependents of t */
    unsigned char *dep = calloc((size_t)id + 1, 1);
    if (!dep) return 1; /* the safe answer: t is then differentiated too */
    for (int i = 0; i <= id; i++) {
        const cl_expr_node *nd = cl_expr_dag_node(g, i);
        dep[i] = (nd->op == CL_EXPR_INPUT && nd->k == (long)(6 * n)) || (nd->a >= 0 && dep[nd->a]) || (nd->b >= 0 && dep[nd->b]);
    }
    int r = dep[id];
    free(dep);
    return r;
}

int CL_FN(cl_lagr_s2_bad_node)(const CL_FN(cl_lagr_s2) *lg) { return lg->bad; }

/* Run the graph at (q, q̇) up to node \p upto (order 0: values, 2: local partials). */
static int run(CL_FN(cl_lagr_s2) *lg, rsrc q, rsrc qdot, int upto, int order)
{
    size_t n3 = 3 * lg->n;
    CL_FN(cl_rvec_copy)(lg->in, q, n3);
    CL_FN(cl_rvec_copy)(lg->in + n3, qdot, n3);
    int st = CL_FN(cl_expr_eval_run)(lg->ev, lg->in, upto, order);
    lg->bad = st ? CL_FN(cl_expr_eval_bad)(lg->ev) : -1;
    return st;
}

/* grad and the q̇ rows of the Hessian of L at (q, q̇). */
static int derivs(CL_FN(cl_lagr_s2) *lg, rsrc q, rsrc qdot)
{
    int st = run(lg, q, qdot, lg->upto, 2);
    if (!st) CL_FN(cl_expr_eval_hessian)(lg->ev, lg->L, lg->grad, lg->H, (int)lg->nin, (int)(3 * lg->n));
    return st;
}

/* G = (I − q_iq_iᵀ) L_q̇q̇ + diag(q_iq_iᵀ), factored in place. */
static int factor_G(CL_FN(cl_lagr_s2) *lg, rsrc q)
{
    size_t n3 = 3 * lg->n, n6 = lg->nin;
    R_DECL(s, lg->prec);
    for (size_t b = 0; b < n3; b++)
        for (size_t sph = 0; sph < lg->n; sph++) {
            rsrc qs = q + 3 * sph;
            /* s = q_s · (column b of the rows of sphere sph) */
            r_set_zero(s);
            for (int k = 0; k < 3; k++) r_addmul(s, qs + k, lg->H + (3 * sph + (size_t)k) * n6 + n3 + b);
            for (int k = 0; k < 3; k++) {
                size_t a = 3 * sph + (size_t)k;
                rptr gab = lg->G + a * n3 + b;
                r_set(gab, lg->H + a * n6 + n3 + b);
                r_submul(gab, qs + k, s);
                if (b / 3 == sph) r_addmul(gab, qs + k, q + b);
            }
        }
    return CL_FN(cl_lu_factor)(lg->G, lg->perm, (int)n3);
}

/* q̈ into lg->qdd, after derivs() at (q, q̇). */
static int accel(CL_FN(cl_lagr_s2) *lg, rsrc q, rsrc qdot)
{
    size_t n3 = 3 * lg->n, n6 = lg->nin;
    R_DECL(s, lg->prec);
    R_DECL(v2, lg->prec);
    int st = factor_G(lg, q);
    if (st) return st;
    /* r = ∂L/∂q + F − L_q̇q q̇ − L_q̇t, then c_i = (I − q_iq_iᵀ) r_i − ‖q̇_i‖² q_i */
    for (size_t a = 0; a < n3; a++) {
        r_set(lg->c + a, lg->grad + a);
        if (lg->force && lg->force[a] >= 0) r_add(lg->c + a, lg->c + a, CL_FN(cl_expr_eval_value)(lg->ev, lg->force[a]));
        for (size_t b = 0; b < n3; b++) r_submul(lg->c + a, lg->H + a * n6 + b, qdot + b);
        if (lg->timed) r_sub(lg->c + a, lg->c + a, lg->H + a * n6 + 2 * n3);
    }
    for (size_t i = 0; i < lg->n; i++) {
        rptr ci = lg->c + 3 * i;
        rsrc qi = q + 3 * i;
        v3_dot(s, qi, ci);
        v3_dot(v2, qdot + 3 * i, qdot + 3 * i);
        r_add(s, s, v2);
        r_neg(s, s);
        v3_axpy(ci, s, qi);
    }
    CL_FN(cl_rvec_copy)(lg->qdd, lg->c, n3);
    return CL_FN(cl_lu_solve)(lg->G, lg->perm, lg->qdd, (int)n3, 1);
}

int CL_FN(cl_lagr_s2_qddot)(CL_FN(cl_lagr_s2) *lg, rptr qdd, rsrc q, rsrc qdot)
{
    int st = derivs(lg, q, qdot);
    if (!st) st = accel(lg, q, qdot);
    if (!st) CL_FN(cl_rvec_copy)(qdd, lg->qdd, 3 * lg->n);
    return st;
}

/* μ = (I − q_iq_iᵀ) ∂L/∂q̇ from the gradient of the last derivs(). */
static void legendre_mu(CL_FN(cl_lagr_s2) *lg, rptr mu, rsrc q)
{
    size_t n3 = 3 * lg->n;
    for (size_t i = 0; i < lg->n; i++) v3_proj_tangent(mu + 3 * i, q + 3 * i, lg->grad + n3 + 3 * i);
}

#define NEWTON_MAXIT 64

/*
 * q̇ (into lg->qd) with (I − q_iq_iᵀ)∂L/∂q̇_i(q, q̇) = μ_i, by Newton's method
 * from q̇ = 0 with the matrix G of the accelerations. Once a step is below
 * 2^(−p/2)‖q̇‖ the next error is of the order of its square, so that step is
 * the last; a quadratic L converges in one step and confirms in a second.
 */
static int legendre_inverse(CL_FN(cl_lagr_s2) *lg, rsrc q, rsrc mu)
{
    size_t n3 = 3 * lg->n;
    for (size_t a = 0; a < n3; a++) r_set_zero(lg->qd + a);
    for (int it = 0; it < NEWTON_MAXIT; it++) {
        int st = derivs(lg, q, lg->qd);
        if (!st) st = factor_G(lg, q);
        if (st) return st;
        legendre_mu(lg, lg->c, q);
        for (size_t a = 0; a < n3; a++) r_sub(lg->c + a, mu + a, lg->c + a);
        st = CL_FN(cl_lu_solve)(lg->G, lg->perm, lg->c, (int)n3, 1);
        if (st) return st;
        for (size_t a = 0; a < n3; a++) r_add(lg->qd + a, lg->qd + a, lg->c + a);
        double step = CL_FN(cl_rvec_log2_maxabs)(lg->c, n3), size = CL_FN(cl_rvec_log2_maxabs)(lg->qd, n3);
        if (step == -INFINITY || step <= size - 0.5 * (double)r_prec(lg->qd)) return CL_OK;
    }
    return CL_ENOCONV;
}

/* q̇ into lg->qd from the velocity part v of form \p form. */
static int to_qdot(CL_FN(cl_lagr_s2) *lg, int form, rsrc q, rsrc v)
{
    size_t n = lg->n;
    switch (form) {
    case CL_LAGR_QDOT: CL_FN(cl_rvec_copy)(lg->qd, v, 3 * n); return CL_OK;
    case CL_LAGR_OMEGA:
        for (size_t i = 0; i < n; i++) v3_cross(lg->qd + 3 * i, v + 3 * i, q + 3 * i);
        return CL_OK;
    case CL_LAGR_MU: CL_FN(cl_rvec_copy)(lg->mu, v, 3 * n); return legendre_inverse(lg, q, lg->mu);
    case CL_LAGR_PI:
        for (size_t i = 0; i < n; i++) v3_cross(lg->mu + 3 * i, v + 3 * i, q + 3 * i);
        return legendre_inverse(lg, q, lg->mu);
    default: return CL_EDIM;
    }
}

int CL_FN(cl_lagr_s2_rhs)(CL_FN(cl_lagr_s2) *lg, int form, rptr dx, rsrc x)
{
    size_t n = lg->n, n3 = 3 * n, n6 = lg->nin;
    rsrc q = x;
    int st = to_qdot(lg, form, q, x + n3);
    if (!st) st = derivs(lg, q, lg->qd);
    if (!st) st = accel(lg, q, lg->qd);
    if (st) return st;
    rptr dv = dx + n3;
    CL_FN(cl_rvec_copy)(dx, lg->qd, n3);
    if (form == CL_LAGR_QDOT) {
        CL_FN(cl_rvec_copy)(dv, lg->qdd, n3);
        return CL_OK;
    }
    if (form == CL_LAGR_OMEGA) {
        for (size_t i = 0; i < n; i++) v3_cross(dv + 3 * i, q + 3 * i, lg->qdd + 3 * i);
        return CL_OK;
    }
    /* D = d/dt ∂L/∂q̇ = L_q̇q̇ q̈ + L_q̇q q̇ + L_q̇t */
    for (size_t a = 0; a < n3; a++) {
        rptr d = lg->D + a;
        if (lg->timed) r_set(d, lg->H + a * n6 + 2 * n3);
        else r_set_zero(d);
        for (size_t b = 0; b < n3; b++) {
            r_addmul(d, lg->H + a * n6 + n3 + b, lg->qdd + b);
            r_addmul(d, lg->H + a * n6 + b, lg->qd + b);
        }
    }
    RV_DECL(mudot, 3, lg->prec);
    for (size_t i = 0; i < n; i++) {
        rsrc qi = q + 3 * i, qdi = lg->qd + 3 * i, Lv = lg->grad + n3 + 3 * i;
        CL_FN(cl_lagr_s2_mudot)(mudot, qi, qdi, Lv, lg->D + 3 * i);
        if (form == CL_LAGR_MU) v3_set(dv + 3 * i, mudot);
        else { /* π̇_i = q̇_i × μ_i + q_i × μ̇_i, μ_i the tangential part of L_q̇ */
            RV_DECL(mu, 3, lg->prec);
            v3_proj_tangent(mu, qi, Lv);
            v3_cross(mu, qdi, mu);
            v3_cross(mudot, qi, mudot);
            v3_add(dv + 3 * i, mu, mudot);
        }
    }
    return CL_OK;
}

void CL_FN(cl_lagr_s2_mudot)(rptr mudot, rsrc q, rsrc qdot, rsrc p, rsrc f)
{
    R_DECL(s, r_prec(mudot));
    v3_proj_tangent(mudot, q, f);
    v3_dot(s, q, p);
    r_neg(s, s);
    v3_axpy(mudot, s, qdot);
    v3_dot(s, qdot, p);
    r_neg(s, s);
    v3_axpy(mudot, s, q);
}

int CL_FN(cl_lagr_s2_convert)(CL_FN(cl_lagr_s2) *lg, int from, rsrc x, int to, rptr y)
{
    size_t n = lg->n, n3 = 3 * n;
    int st = to_qdot(lg, from, x, x + n3);
    if (st) return st;
    if (to == CL_LAGR_MU || to == CL_LAGR_PI) {
        st = run(lg, x, lg->qd, lg->L, 2);
        if (st) return st;
        CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, (int)(2 * n3));
        legendre_mu(lg, lg->mu, x);
    }
    if (y != x) CL_FN(cl_rvec_copy)(y, x, n3);
    rptr v = y + n3;
    for (size_t i = 0; i < n; i++) {
        rsrc qi = y + 3 * i;
        switch (to) {
        case CL_LAGR_QDOT: v3_set(v + 3 * i, lg->qd + 3 * i); break;
        case CL_LAGR_OMEGA: v3_cross(v + 3 * i, qi, lg->qd + 3 * i); break;
        case CL_LAGR_MU: v3_set(v + 3 * i, lg->mu + 3 * i); break;
        case CL_LAGR_PI: v3_cross(v + 3 * i, qi, lg->mu + 3 * i); break;
        default: return CL_EDIM;
        }
    }
    return CL_OK;
}

int CL_FN(cl_lagr_s2_dldt)(CL_FN(cl_lagr_s2) *lg, int form, rptr out, rsrc x)
{
    size_t n3 = 3 * lg->n;
    if (!lg->timed) {
        r_set_zero(out);
        return CL_OK;
    }
    int st = to_qdot(lg, form, x, x + n3);
    if (!st) st = run(lg, x, lg->qd, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, (int)lg->nin);
    r_set(out, lg->grad + 2 * n3);
    return CL_OK;
}

int CL_FN(cl_lagr_s2_value)(CL_FN(cl_lagr_s2) *lg, int id, int form, rptr out, rsrc x)
{
    size_t n3 = 3 * lg->n;
    int st = to_qdot(lg, form, x, x + n3);
    if (st) return st;
    if (id >= 0) {
        st = run(lg, x, lg->qd, id, 0);
        if (!st) r_set(out, CL_FN(cl_expr_eval_value)(lg->ev, id));
        return st;
    }
    st = run(lg, x, lg->qd, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, (int)(2 * n3));
    r_neg(out, CL_FN(cl_expr_eval_value)(lg->ev, lg->L));
    for (size_t a = 0; a < n3; a++) r_addmul(out, lg->qd + a, lg->grad + n3 + a);
    return CL_OK;
}

/*
 * A general Lagrangian on a product of circles and Euclidean spaces written
 * as a formula (lagr_flat.h): the Euler–Lagrange equations solved for q̈
 * with the exact gradient and Hessian of L from the expression engine, and
 * Hamilton's equations in the canonical momentum p = ∂L/∂q̇, the Legendre
 * map inverted by Newton's method with the same velocity Hessian. Nothing
 * assumes L quadratic in q̇.
 */
#include <stdlib.h>
#include "lagr_flat.h"
#include "linalg.h"

struct CL_FN(cl_lagr_flat) {
    const cl_expr_dag *g;
    int L;
    size_t d, nparam;
    cl_prec_t prec;
    CL_FN(cl_expr_eval) *ev;
    rptr block;
    rptr in;   /* q, q̇, parameters */
    rptr grad; /* ∂L/∂q, ∂L/∂q̇ (2d) */
    rptr H;    /* rows ∂²L/∂q̇_a∂x_b, d × 2d */
    rptr M;    /* L_q̇q̇, factored */
    rptr c, qd, qdd; /* d each */
    int *perm;
    int bad;
};

CL_FN(cl_lagr_flat) *CL_FN(cl_lagr_flat_new)(const cl_expr_dag *g, int L, size_t d, size_t nparam, cl_prec_t prec)
{
    if (d == 0 || d > CL_LAGR_FLAT_MAX_DIM || L < 0 || (size_t)L >= cl_expr_dag_size(g)) return NULL;
    CL_FN(cl_lagr_flat) *lg = calloc(1, sizeof *lg);
    if (!lg) return NULL;
    lg->g = g;
    lg->L = L;
    lg->d = d;
    lg->nparam = nparam;
    lg->prec = prec;
    lg->bad = -1;
    lg->ev = CL_FN(cl_expr_eval_new)(g, prec);
    lg->block = CL_FN(cl_rvec_new)(2 * d + nparam + 2 * d + 2 * d * d + d * d + 3 * d, prec);
    lg->perm = malloc(d * sizeof *lg->perm);
    if (!lg->ev || !lg->block || !lg->perm) {
        CL_FN(cl_lagr_flat_free)(lg);
        return NULL;
    }
    rptr p = lg->block;
    lg->in = p; p += 2 * d + nparam;
    lg->grad = p; p += 2 * d;
    lg->H = p; p += 2 * d * d;
    lg->M = p; p += d * d;
    RV_CARVE(p, d, &lg->c, &lg->qd, &lg->qdd);
    return lg;
}

void CL_FN(cl_lagr_flat_free)(CL_FN(cl_lagr_flat) *lg)
{
    if (!lg) return;
    CL_FN(cl_expr_eval_free)(lg->ev);
    CL_FN(cl_rvec_free)(lg->block);
    free(lg->perm);
    free(lg);
}

void CL_FN(cl_lagr_flat_set_param)(CL_FN(cl_lagr_flat) *lg, size_t k, rsrc v)
{
    if (k < lg->nparam) r_set(lg->in + 2 * lg->d + k, v);
}

int CL_FN(cl_lagr_flat_bad_node)(const CL_FN(cl_lagr_flat) *lg) { return lg->bad; }

/* Run the graph at (q, q̇) up to node \p upto (order 0: values, 2: local partials). */
static int run(CL_FN(cl_lagr_flat) *lg, rsrc q, rsrc qdot, int upto, int order)
{
    CL_FN(cl_rvec_copy)(lg->in, q, lg->d);
    CL_FN(cl_rvec_copy)(lg->in + lg->d, qdot, lg->d);
    int st = CL_FN(cl_expr_eval_run)(lg->ev, lg->in, upto, order);
    lg->bad = st ? CL_FN(cl_expr_eval_bad)(lg->ev) : -1;
    return st;
}

/* grad, the q̇ rows of the Hessian and L_q̇q̇ factored, at (q, q̇). */
static int derivs(CL_FN(cl_lagr_flat) *lg, rsrc q, rsrc qdot)
{
    size_t d = lg->d, n2 = 2 * d;
    int st = run(lg, q, qdot, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_hessian)(lg->ev, lg->L, lg->grad, lg->H, (int)n2, (int)d);
    for (size_t a = 0; a < d; a++)
        for (size_t b = 0; b < d; b++) r_set(lg->M + a * d + b, lg->H + a * n2 + d + b);
    return CL_FN(cl_lu_factor)(lg->M, lg->perm, (int)d);
}

/* q̈ into lg->qdd, after derivs() at (q, q̇). */
static int accel(CL_FN(cl_lagr_flat) *lg, rsrc qdot)
{
    size_t d = lg->d, n2 = 2 * d;
    for (size_t a = 0; a < d; a++) {
        r_set(lg->qdd + a, lg->grad + a);
        for (size_t b = 0; b < d; b++) r_submul(lg->qdd + a, lg->H + a * n2 + b, qdot + b);
    }
    return CL_FN(cl_lu_solve)(lg->M, lg->perm, lg->qdd, (int)d, 1);
}

#define NEWTON_MAXIT 64

/*
 * q̇ (into lg->qd) with ∂L/∂q̇(q, q̇) = p, by Newton's method from q̇ = 0.
 * Once a step is below 2^(−p/2)‖q̇‖ the next error is of the order of its
 * square, so that step is the last; a quadratic L converges in one step
 * and confirms in a second.
 */
static int legendre_inverse(CL_FN(cl_lagr_flat) *lg, rsrc q, rsrc p)
{
    size_t d = lg->d;
    for (size_t a = 0; a < d; a++) r_set_zero(lg->qd + a);
    for (int it = 0; it < NEWTON_MAXIT; it++) {
        int st = derivs(lg, q, lg->qd);
        if (st) return st;
        for (size_t a = 0; a < d; a++) r_sub(lg->c + a, p + a, lg->grad + d + a);
        st = CL_FN(cl_lu_solve)(lg->M, lg->perm, lg->c, (int)d, 1);
        if (st) return st;
        for (size_t a = 0; a < d; a++) r_add(lg->qd + a, lg->qd + a, lg->c + a);
        double step = CL_FN(cl_rvec_log2_maxabs)(lg->c, d), size = CL_FN(cl_rvec_log2_maxabs)(lg->qd, d);
        if (step == -INFINITY || step <= size - 0.5 * (double)r_prec(lg->c)) return CL_OK;
    }
    return CL_ENOCONV;
}

/* q̇ into lg->qd from the velocity part v of form \p form. */
static int to_qdot(CL_FN(cl_lagr_flat) *lg, int form, rsrc q, rsrc v)
{
    switch (form) {
    case CL_LAGR_FLAT_QDOT: CL_FN(cl_rvec_copy)(lg->qd, v, lg->d); return CL_OK;
    case CL_LAGR_FLAT_P: return legendre_inverse(lg, q, v);
    default: return CL_EDIM;
    }
}

int CL_FN(cl_lagr_flat_rhs)(CL_FN(cl_lagr_flat) *lg, int form, rptr dx, rsrc x)
{
    size_t d = lg->d;
    int st = to_qdot(lg, form, x, x + d);
    if (!st) st = derivs(lg, x, lg->qd);
    if (st) return st;
    CL_FN(cl_rvec_copy)(dx, lg->qd, d);
    if (form == CL_LAGR_FLAT_P) { /* ṗ = ∂L/∂q */
        CL_FN(cl_rvec_copy)(dx + d, lg->grad, d);
        return CL_OK;
    }
    st = accel(lg, lg->qd);
    if (!st) CL_FN(cl_rvec_copy)(dx + d, lg->qdd, d);
    return st;
}

int CL_FN(cl_lagr_flat_convert)(CL_FN(cl_lagr_flat) *lg, int from, rsrc x, int to, rptr y)
{
    size_t d = lg->d;
    if (to != CL_LAGR_FLAT_QDOT && to != CL_LAGR_FLAT_P) return CL_EDIM;
    int st = to_qdot(lg, from, x, x + d);
    if (st) return st;
    if (y != x) CL_FN(cl_rvec_copy)(y, x, d);
    if (to == CL_LAGR_FLAT_QDOT) {
        CL_FN(cl_rvec_copy)(y + d, lg->qd, d);
        return CL_OK;
    }
    st = run(lg, x, lg->qd, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, (int)(2 * d));
    CL_FN(cl_rvec_copy)(y + d, lg->grad + d, d);
    return CL_OK;
}

int CL_FN(cl_lagr_flat_value)(CL_FN(cl_lagr_flat) *lg, int id, int form, rptr out, rsrc x)
{
    size_t d = lg->d;
    int st = to_qdot(lg, form, x, x + d);
    if (st) return st;
    if (id >= 0) {
        st = run(lg, x, lg->qd, id, 0);
        if (!st) r_set(out, CL_FN(cl_expr_eval_value)(lg->ev, id));
        return st;
    }
    st = run(lg, x, lg->qd, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, (int)(2 * d));
    r_neg(out, CL_FN(cl_expr_eval_value)(lg->ev, lg->L));
    for (size_t a = 0; a < d; a++) r_addmul(out, lg->qd + a, lg->grad + d + a);
    return CL_OK;
}

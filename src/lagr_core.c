/*
 * What the Lagrangians written as formulas share (lagr_core_impl.h): on a
 * product of circles and Euclidean spaces (lagr_flat.c), on (S²)ⁿ
 * (lagr_s2.c) and on SO(3) (lagr_so3.c) alike, L(q, v, …) is a node of an
 * expression graph whose inputs are the configuration, the velocity and the
 * parameters; its gradient and the velocity rows of its Hessian come from
 * the exact derivatives of the expression engine, the energy is
 * v·∂L/∂v − L, and the Legendre map is inverted by Newton's method with the
 * matrix of the equations of motion. Only that matrix and the momentum
 * differ between the manifolds; they are the owner's hooks.
 */
#include <stdlib.h>
#include "lagr_core_impl.h"
#include "linalg.h"

int CL_FN(cl_lagr_core_new)(CL_FN(cl_lagr_core) **out, size_t size, const cl_expr_dag *g, int L, const cl_lagr_layout *lay,
                           size_t nscratch, cl_prec_t prec)
{
    *out = NULL;
    if (L < 0 || (size_t)L >= cl_expr_dag_size(g)) return CL_EDIM;
    CL_FN(cl_lagr_core) *c = calloc(1, size);
    if (!c) return CL_ENOMEM;
    size_t nq = lay->nq, nv = lay->nv, nin = nq + nv + lay->ndiff, nall = nq + nv + lay->nt + lay->nparam;
    c->g = g;
    c->L = L;
    c->upto = L;
    c->lay = *lay;
    c->nin = nin;
    c->prec = prec;
    c->bad = -1;
    int st = CL_FN(cl_expr_eval_new)(&c->ev, g, prec);
    c->block = st ? NULL : CL_FN(cl_rvec_new)(nall + nin + (nin - nq) * nin + nv * nv + 3 * nv + nscratch, prec);
    c->perm = st ? NULL : malloc(nv * sizeof *c->perm);
    if (!st && (!c->block || !c->perm)) st = CL_ENOMEM;
    if (st) {
        CL_FN(cl_lagr_core_free)(c);
        return st;
    }
    rptr p = c->block;
    c->in = p; p += nall;
    c->grad = p; p += nin;
    c->H = p; p += (nin - nq) * nin;
    c->M = p; p += nv * nv;
    p = RV_CARVE(p, nv, &c->step, &c->vlast, &c->res);
    c->scratch = p;
    *out = c;
    return CL_OK;
}

void CL_FN(cl_lagr_core_free)(CL_FN(cl_lagr_core) *c)
{
    if (!c) return;
    CL_FN(cl_expr_eval_free)(c->ev);
    CL_FN(cl_rvec_free)(c->block);
    free(c->perm);
    free(c->force);
    free(c);
}

int CL_FN(cl_lagr_core_set_forces)(CL_FN(cl_lagr_core) *c, const int *force)
{
    int *f = malloc(c->lay.nv * sizeof *f), upto = c->L;
    if (!f) return CL_ENOMEM;
    for (size_t a = 0; a < c->lay.nv; a++) {
        f[a] = force[a];
        if (f[a] >= (int)cl_expr_dag_size(c->g)) {
            free(f);
            return CL_EDIM;
        }
        if (f[a] > upto) upto = f[a];
    }
    free(c->force);
    c->force = f;
    c->upto = upto;
    return CL_OK;
}

void CL_FN(cl_lagr_core_set_param)(CL_FN(cl_lagr_core) *c, size_t k, rsrc v)
{
    const cl_lagr_layout *l = &c->lay;
    if (k < l->nparam) r_set(c->in + l->nq + l->nv + l->nt + k, v);
}

int CL_FN(cl_lagr_core_run)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v, int upto, int order)
{
    CL_FN(cl_rvec_copy)(c->in, q, c->lay.nq);
    CL_FN(cl_rvec_copy)(c->in + c->lay.nq, v, c->lay.nv);
    int st = CL_FN(cl_expr_eval_run)(c->ev, c->in, upto, order);
    c->bad = st ? CL_FN(cl_expr_eval_bad)(c->ev) : -1;
    return st;
}

int CL_FN(cl_lagr_core_gradient)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v)
{
    int st = CL_FN(cl_lagr_core_run)(c, q, v, c->L, 2);
    if (!st) CL_FN(cl_expr_eval_gradient)(c->ev, c->L, c->grad, (int)c->nin);
    return st;
}

int CL_FN(cl_lagr_core_derivs)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v)
{
    int st = CL_FN(cl_lagr_core_run)(c, q, v, c->upto, 2);
    if (!st) CL_FN(cl_expr_eval_hessian)(c->ev, c->L, c->grad, c->H, (int)c->nin, (int)c->lay.nq);
    return st;
}

int CL_FN(cl_lagr_core_factor)(CL_FN(cl_lagr_core) *c)
{
    size_t nq = c->lay.nq, nv = c->lay.nv, nin = c->nin;
    for (size_t a = 0; a < nv; a++)
        for (size_t b = 0; b < nv; b++) r_set(c->M + a * nv + b, c->H + a * nin + nq + b);
    return CL_FN(cl_lu_factor)(c->M, c->perm, (int)nv);
}

void CL_FN(cl_lagr_core_sub_mixed)(const CL_FN(cl_lagr_core) *c, rptr r, rsrc qdot)
{
    size_t nq = c->lay.nq, nv = c->lay.nv, nin = c->nin;
    for (size_t a = 0; a < nv; a++)
        for (size_t b = 0; b < nq; b++) r_submul(r + a, c->H + a * nin + b, qdot + b);
}

#define NEWTON_MAXIT 200
#define NEWTON_MAXHALF 60

/* Derivatives and matrix at (q, v), and the residual p − momentum(q, v) into c->res; its log2 max-norm in *rn. */
static int newton_eval(CL_FN(cl_lagr_core) *c, rsrc v, rsrc q, rsrc p, double *rn)
{
    size_t nv = c->lay.nv;
    int st = CL_FN(cl_lagr_core_derivs)(c, q, v);
    if (!st) st = c->matrix ? c->matrix(c, q) : CL_FN(cl_lagr_core_factor)(c);
    if (st) return st;
    if (c->momentum) c->momentum(c, c->res, q);
    else CL_FN(cl_rvec_copy)(c->res, c->grad + c->lay.nq, nv);
    for (size_t a = 0; a < nv; a++) r_sub(c->res + a, p + a, c->res + a);
    *rn = CL_FN(cl_rvec_log2_maxabs)(c->res, nv);
    return CL_OK;
}

/*
 * The step s = M⁻¹ res from the last accepted v (c->vlast), shortened by
 * halving until newton_eval() succeeds at v = vlast + s without a larger
 * residual.
 */
static int newton_line_search(CL_FN(cl_lagr_core) *c, rptr v, rsrc q, rsrc p, double *rn)
{
    size_t nv = c->lay.nv;
    double rn0 = *rn;
    for (int half = 0; half <= NEWTON_MAXHALF; half++) {
        for (size_t a = 0; a < nv; a++) r_add(v + a, c->vlast + a, c->step + a);
        int st = newton_eval(c, v, q, p, rn);
        if (!st && *rn <= rn0) return CL_OK;
        if (st && st != CL_EDOMAIN && st != CL_ESINGULAR) return st;
        for (size_t a = 0; a < nv; a++) r_mul_2si(c->step + a, c->step + a, -1);
    }
    return CL_ENOCONV;
}

int CL_FN(cl_lagr_core_legendre_inverse)(CL_FN(cl_lagr_core) *c, rptr v, rsrc q, rsrc p)
{
    size_t nv = c->lay.nv;
    double rn;
    for (size_t a = 0; a < nv; a++) r_set_zero(v + a);
    int st = newton_eval(c, v, q, p, &rn);
    for (int it = 0; it < NEWTON_MAXIT && !st; it++) {
        CL_FN(cl_rvec_copy)(c->step, c->res, nv);
        st = CL_FN(cl_lu_solve)(c->M, c->perm, c->step, (int)nv, 1);
        if (st) return st;
        CL_FN(cl_rvec_copy)(c->vlast, v, nv);
        for (size_t a = 0; a < nv; a++) r_add(v + a, v + a, c->step + a);
        double step = CL_FN(cl_rvec_log2_maxabs)(c->step, nv), size = CL_FN(cl_rvec_log2_maxabs)(v, nv);
        if (step == -INFINITY || step <= size - 0.5 * (double)r_prec(v)) return CL_OK; /* the error is now O(step²) */
        st = newton_line_search(c, v, q, p, &rn);
    }
    return st ? st : CL_ENOCONV;
}

int CL_FN(cl_lagr_core_value)(CL_FN(cl_lagr_core) *c, int id, rptr out, rsrc q, rsrc v)
{
    if (id >= 0) {
        int st = CL_FN(cl_lagr_core_run)(c, q, v, id, 0);
        if (!st) r_set(out, CL_FN(cl_expr_eval_value)(c->ev, id));
        return st;
    }
    int st = CL_FN(cl_lagr_core_gradient)(c, q, v);
    if (st) return st;
    r_neg(out, CL_FN(cl_expr_eval_value)(c->ev, c->L));
    for (size_t a = 0; a < c->lay.nv; a++) r_addmul(out, v + a, c->grad + c->lay.nq + a);
    return CL_OK;
}

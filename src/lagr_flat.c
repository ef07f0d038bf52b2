/*
 * A general Lagrangian on a product of circles and Euclidean spaces written
 * as a formula (lagr_flat.h): the Euler–Lagrange equations solved for q̈
 * with the exact gradient and Hessian of L from the expression engine, and
 * Hamilton's equations in the canonical momentum p = ∂L/∂q̇, the Legendre
 * map inverted by Newton's method with the same velocity Hessian. Nothing
 * assumes L quadratic in q̇.
 */
#include "lagr_flat.h"
#include "lagr_core_impl.h"
#include "linalg.h"

struct CL_FN(cl_lagr_flat) {
    CL_FN(cl_lagr_core) core; /* inputs q (d), q̇ (d), parameters; M = L_q̇q̇ */
    size_t d;
    rptr qd, qdd; /* d each */
};

int CL_FN(cl_lagr_flat_new)(CL_FN(cl_lagr_flat) **out, const cl_expr_dag *g, int L, size_t d, size_t nparam, cl_prec_t prec)
{
    *out = NULL;
    if (d == 0 || d > CL_LAGR_FLAT_MAX_DIM) return CL_EDIM;
    CL_FN(cl_lagr_core) *c;
    cl_lagr_layout lay = {.nq = d, .nv = d, .nparam = nparam};
    int st = CL_FN(cl_lagr_core_new)(&c, sizeof(CL_FN(cl_lagr_flat)), g, L, &lay, 2 * d, prec);
    if (st) return st;
    CL_FN(cl_lagr_flat) *lg = (CL_FN(cl_lagr_flat) *)c;
    lg->d = d;
    RV_CARVE(lg->core.scratch, d, &lg->qd, &lg->qdd);
    *out = lg;
    return CL_OK;
}

void CL_FN(cl_lagr_flat_free)(CL_FN(cl_lagr_flat) *lg) { CL_FN(cl_lagr_core_free)(lg ? &lg->core : NULL); }

void CL_FN(cl_lagr_flat_set_param)(CL_FN(cl_lagr_flat) *lg, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&lg->core, k, v); }

int CL_FN(cl_lagr_flat_bad_node)(const CL_FN(cl_lagr_flat) *lg) { return lg->core.bad; }

/* grad, the q̇ rows of the Hessian and L_q̇q̇ factored, at (q, q̇). */
static int derivs(CL_FN(cl_lagr_flat) *lg, rsrc q, rsrc qdot)
{
    int st = CL_FN(cl_lagr_core_derivs)(&lg->core, q, qdot);
    return st ? st : CL_FN(cl_lagr_core_factor)(&lg->core);
}

/* q̈ = L_q̇q̇⁻¹(∂L/∂q − L_q̇q q̇) into lg->qdd, after derivs() at (q, q̇). */
static int accel(CL_FN(cl_lagr_flat) *lg, rsrc qdot)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    CL_FN(cl_rvec_copy)(lg->qdd, c->grad, lg->d);
    CL_FN(cl_lagr_core_sub_mixed)(c, lg->qdd, qdot);
    return CL_FN(cl_lu_solve)(c->M, c->perm, lg->qdd, (int)lg->d, 1);
}

/* q̇ into lg->qd from the velocity part v of form \p form. */
static int to_qdot(CL_FN(cl_lagr_flat) *lg, int form, rsrc q, rsrc v)
{
    switch (form) {
    case CL_LAGR_FLAT_QDOT: CL_FN(cl_rvec_copy)(lg->qd, v, lg->d); return CL_OK;
    case CL_LAGR_FLAT_P: return CL_FN(cl_lagr_core_legendre_inverse)(&lg->core, lg->qd, q, v);
    default: return CL_EDIM;
    }
}

int CL_FN(cl_lagr_flat_rhs)(CL_FN(cl_lagr_flat) *lg, int form, rptr dx, rsrc x)
{
    size_t d = lg->d;
    int st = to_qdot(lg, form, x, x + d);
    if (!st && form == CL_LAGR_FLAT_P) { /* q̇ from Newton's inversion, ṗ = ∂L/∂q: the gradient is all it needs */
        st = CL_FN(cl_lagr_core_gradient)(&lg->core, x, lg->qd);
        if (st) return st;
        CL_FN(cl_rvec_copy)(dx, lg->qd, d);
        CL_FN(cl_rvec_copy)(dx + d, lg->core.grad, d);
        return CL_OK;
    }
    if (!st) st = derivs(lg, x, lg->qd);
    if (st) return st;
    CL_FN(cl_rvec_copy)(dx, lg->qd, d);
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
    st = CL_FN(cl_lagr_core_gradient)(&lg->core, x, lg->qd);
    if (!st) CL_FN(cl_rvec_copy)(y + d, lg->core.grad + d, d);
    return st;
}

int CL_FN(cl_lagr_flat_value)(CL_FN(cl_lagr_flat) *lg, int id, int form, rptr out, rsrc x)
{
    int st = to_qdot(lg, form, x, x + lg->d);
    return st ? st : CL_FN(cl_lagr_core_value)(&lg->core, id, out, x, lg->qd);
}

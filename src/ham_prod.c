/*
 * A Hamiltonian on a product of S¹, Rᵏ, SO(3) and SE(3) factors
 * (ham_prod.h). H is held by the Lagrangian core (lagr_core_impl.h) with
 * the momenta in the place of the velocities: its gradient gives Hamilton's
 * equations, the momentum rows of its Hessian the velocity form, and the
 * core's Newton iteration, with H_pp as the matrix and ∂H/∂p as the map,
 * inverts u = ∂H/∂p(q, p). The kinematics and the Lie–Poisson terms of each
 * factor are the product engine's (lagr_prod_impl.h), fed with
 * u = ∂H/∂p, −∂H/∂q and p.
 */
#include <stdlib.h>
#include "ham_prod.h"
#include "lagr_core_impl.h"
#include "lagr_prod_impl.h"

struct CL_FN(cl_ham_prod) {
    CL_FN(cl_lagr_core) core; /* inputs q (nq), p (nv), t, parameters; M = H_pp */
    size_t nf, nq, nv;
    cl_lagr_factor *f;
    rptr q, qd, mHq, p, u, pd, F; /* the state, q̇, −∂H/∂q, p, u, ṗ, the forces */
};

/* The numbers of the factors' configurations and momenta; −1 for an S² factor or an unknown one. */
static int sizes(const cl_lagr_factor *f, size_t nf, size_t *nq, size_t *nv)
{
    static const size_t kq[] = {[CL_LAGR_S1] = 1, [CL_LAGR_SO3] = 9, [CL_LAGR_SE3] = 12};
    static const size_t kv[] = {[CL_LAGR_S1] = 1, [CL_LAGR_SO3] = 3, [CL_LAGR_SE3] = 6};
    *nq = *nv = 0;
    for (size_t i = 0; i < nf; i++) {
        int k = f[i].kind;
        if (k < 0 || k > CL_LAGR_SE3 || k == CL_LAGR_S2 || (k == CL_LAGR_RK && f[i].k <= 0)) return -1;
        *nq += k == CL_LAGR_RK ? (size_t)f[i].k : kq[k];
        *nv += k == CL_LAGR_RK ? (size_t)f[i].k : kv[k];
    }
    return *nq > CL_LAGR_PROD_MAX_DIM || *nv > CL_LAGR_PROD_MAX_DIM ? -1 : 0;
}

CL_FN(cl_ham_prod) *CL_FN(cl_ham_prod_new)(const cl_expr_dag *g, int H, const cl_lagr_factor *f, size_t nf, size_t nparam,
                                           cl_prec_t prec)
{
    size_t nq, nv;
    if (nf == 0 || nf > CL_LAGR_PROD_MAX_FACTORS || sizes(f, nf, &nq, &nv)) return NULL;
    int timed = H >= 0 && cl_expr_depends_on_input(g, H, (long)(nq + nv));
    cl_lagr_layout lay = {.nq = nq, .nv = nv, .nt = 1, .ndiff = (size_t)timed, .nparam = nparam};
    CL_FN(cl_ham_prod) *h = CL_FN(cl_lagr_core_new)(sizeof *h, g, H, &lay, 3 * nq + 4 * nv, prec);
    cl_lagr_factor *copy = malloc(nf * sizeof *copy);
    if (!h || !copy) {
        free(copy);
        if (h) CL_FN(cl_lagr_core_free)(&h->core);
        return NULL;
    }
    for (size_t i = 0; i < nf; i++) copy[i] = f[i];
    h->f = copy;
    h->nf = nf;
    h->nq = nq;
    h->nv = nv;
    rptr p = RV_CARVE(h->core.scratch, nq, &h->q, &h->qd, &h->mHq);
    RV_CARVE(p, nv, &h->p, &h->u, &h->pd, &h->F);
    return h;
}

void CL_FN(cl_ham_prod_free)(CL_FN(cl_ham_prod) *h)
{
    if (!h) return;
    free(h->f);
    CL_FN(cl_lagr_core_free)(&h->core);
}

void CL_FN(cl_ham_prod_set_param)(CL_FN(cl_ham_prod) *h, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&h->core, k, v); }

void CL_FN(cl_ham_prod_set_time)(CL_FN(cl_ham_prod) *h, rsrc t) { r_set(h->core.in + h->nq + h->nv, t); }

int CL_FN(cl_ham_prod_set_forces)(CL_FN(cl_ham_prod) *h, const int *force) { return CL_FN(cl_lagr_core_set_forces)(&h->core, force); }

int CL_FN(cl_ham_prod_bad_node)(const CL_FN(cl_ham_prod) *h) { return h->core.bad; }

/* (q, p) into h->q, h->p from a state of form \p form (and u into h->u for the velocity form). */
static int load(CL_FN(cl_ham_prod) *h, int form, rsrc x)
{
    CL_FN(cl_rvec_copy)(h->q, x, h->nq);
    if (form == CL_HAM_PROD_MOM) {
        CL_FN(cl_rvec_copy)(h->p, x + h->nq, h->nv);
        return CL_OK;
    }
    if (form != CL_HAM_PROD_VEL) return CL_EDIM;
    CL_FN(cl_rvec_copy)(h->u, x + h->nq, h->nv);
    return CL_FN(cl_lagr_core_legendre_inverse)(&h->core, h->p, h->q, h->u);
}

/* The gradient and the momentum rows of the Hessian of H at (q, p), H_pp factored: CL_ESINGULAR when it is singular. */
static int derivatives(CL_FN(cl_ham_prod) *h)
{
    int st = CL_FN(cl_lagr_core_derivs)(&h->core, h->q, h->p);
    return st ? st : CL_FN(cl_lagr_core_factor)(&h->core);
}

/* q̇ into h->qd and ṗ into h->pd, the velocities \p u (∂H/∂p, or the state's in the velocity form). */
static void hamilton(CL_FN(cl_ham_prod) *h, rsrc u)
{
    CL_FN(cl_lagr_core) *c = &h->core;
    for (size_t a = 0; a < h->nq; a++) r_neg(h->mHq + a, c->grad + a);
    CL_FN(cl_lagr_prod_forces)(c, h->F);
    CL_FN(cl_lagr_prod_terms)(h->f, h->nf, h->qd, h->pd, h->q, u, h->mHq, h->p, h->F);
}

/* u̇ = H_pq q̇ + H_pp ṗ + H_pt into \p ud, from the momentum rows of the Hessian. */
static void velocity_rates(const CL_FN(cl_ham_prod) *h, rptr ud)
{
    const CL_FN(cl_lagr_core) *c = &h->core;
    size_t nq = h->nq, nv = h->nv;
    for (size_t a = 0; a < nv; a++) {
        rsrc row = c->H + a * c->nin;
        if (c->lay.ndiff) r_set(ud + a, row + nq + nv);
        else r_set_zero(ud + a);
        for (size_t b = 0; b < nq; b++) r_addmul(ud + a, row + b, h->qd + b);
        for (size_t b = 0; b < nv; b++) r_addmul(ud + a, row + nq + b, h->pd + b);
    }
}

int CL_FN(cl_ham_prod_rhs)(CL_FN(cl_ham_prod) *h, int form, rptr dx, rsrc x)
{
    int st = load(h, form, x);
    if (!st) st = derivatives(h);
    if (st) return st;
    hamilton(h, form == CL_HAM_PROD_VEL ? h->u : h->core.grad + h->nq);
    if (form == CL_HAM_PROD_VEL) velocity_rates(h, dx + h->nq);
    else CL_FN(cl_rvec_copy)(dx + h->nq, h->pd, h->nv);
    CL_FN(cl_rvec_copy)(dx, h->qd, h->nq);
    return CL_OK;
}

int CL_FN(cl_ham_prod_convert)(CL_FN(cl_ham_prod) *h, int from, rsrc x, int to, rptr y)
{
    if (to != CL_HAM_PROD_MOM && to != CL_HAM_PROD_VEL) return CL_EDIM;
    int st = load(h, from, x);
    if (st) return st;
    CL_FN(cl_rvec_copy)(y, h->q, h->nq);
    if (to == CL_HAM_PROD_MOM) CL_FN(cl_rvec_copy)(y + h->nq, h->p, h->nv);
    else if (from == CL_HAM_PROD_VEL) CL_FN(cl_rvec_copy)(y + h->nq, h->u, h->nv);
    else {
        st = CL_FN(cl_lagr_core_gradient)(&h->core, h->q, h->p);
        if (!st) CL_FN(cl_rvec_copy)(y + h->nq, h->core.grad + h->nq, h->nv);
    }
    return st;
}

int CL_FN(cl_ham_prod_value)(CL_FN(cl_ham_prod) *h, int id, int form, rptr out, rsrc x)
{
    int st = load(h, form, x);
    return st ? st : CL_FN(cl_lagr_core_value)(&h->core, id < 0 ? h->core.L : id, out, h->q, h->p);
}

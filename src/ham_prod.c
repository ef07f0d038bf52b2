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
#include "lagr_prod_engine_impl.h"
#include "r3.h"

struct CL_FN(cl_ham_prod) {
    CL_FN(cl_lagr_core) core; /* inputs q (nq), p (nv), t, parameters; M = H_pp */
    size_t nf, nq, nv;
    cl_lagr_factor *f;
    slot *s;            /* where each factor's configuration and momentum numbers stand */
    rptr q, qd, mHq, p, u, pd, F; /* the state, q̇, −∂H/∂q, p, u, ṗ, the forces */
};

/* H_pp, made P H_pp P + QQᵀ on the S² blocks, factored (the Newton matrix and the regularity test). */
static int tangent_matrix(CL_FN(cl_lagr_core) *c, rsrc q)
{
    const CL_FN(cl_ham_prod) *h = (const CL_FN(cl_ham_prod) *)c;
    return CL_FN(cl_lagr_prod_factor_tangent)(c, h->f, h->nf, q);
}

/* The velocity u = ∂H/∂p, made tangent on the S² blocks (q̇ = P ∂H/∂μ [S2 (23)]). */
static void velocity(CL_FN(cl_lagr_core) *c, rptr out, rsrc q)
{
    const CL_FN(cl_ham_prod) *h = (const CL_FN(cl_ham_prod) *)c;
    CL_FN(cl_rvec_copy)(out, c->grad + h->nq, h->nv);
    CL_FN(cl_lagr_prod_project_s2)(h->f, h->nf, out, q);
}

int CL_FN(cl_ham_prod_new)(CL_FN(cl_ham_prod) **out, const cl_expr_dag *g, int H, const cl_lagr_factor *f, size_t nf,
                           size_t nparam, cl_prec_t prec)
{
    CL_FN(cl_lagr_core) *c;
    slot *s;
    *out = NULL;
    int st = CL_FN(cl_lagr_prod_core_new)(&c, &s, sizeof(CL_FN(cl_ham_prod)), g, H, f, nf, nparam, (const size_t[2]){3, 4}, prec);
    if (st) return st;
    size_t nq = c->lay.nq, nv = c->lay.nv;
    CL_FN(cl_ham_prod) *h = (CL_FN(cl_ham_prod) *)c;
    h->s = s;
    h->f = malloc(nf * sizeof *h->f);
    if (!h->f) {
        CL_FN(cl_ham_prod_free)(h);
        return CL_ENOMEM;
    }
    for (size_t i = 0; i < nf; i++) h->f[i] = f[i];
    h->core.matrix = tangent_matrix;
    h->core.momentum = velocity;
    h->nf = nf;
    h->nq = nq;
    h->nv = nv;
    rptr p = RV_CARVE(h->core.scratch, nq, &h->q, &h->qd, &h->mHq);
    RV_CARVE(p, nv, &h->p, &h->u, &h->pd, &h->F);
    *out = h;
    return CL_OK;
}

void CL_FN(cl_ham_prod_free)(CL_FN(cl_ham_prod) *h)
{
    if (!h) return;
    free(h->f);
    free(h->s);
    CL_FN(cl_lagr_core_free)(&h->core);
}

void CL_FN(cl_ham_prod_set_param)(CL_FN(cl_ham_prod) *h, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&h->core, k, v); }

void CL_FN(cl_ham_prod_set_time)(CL_FN(cl_ham_prod) *h, rsrc t) { r_set(h->core.in + h->nq + h->nv, t); }

int CL_FN(cl_ham_prod_set_forces)(CL_FN(cl_ham_prod) *h, const int *force) { return CL_FN(cl_lagr_core_set_forces)(&h->core, force); }

int CL_FN(cl_ham_prod_bad_node)(const CL_FN(cl_ham_prod) *h) { return h->core.bad; }

static int momentum_form(int form) { return form == CL_HAM_PROD_MOM || form == CL_HAM_PROD_PI; }

/*
 * (q, p) into h->q, h->p from a state of form \p form (and u into h->u for
 * the velocity forms): μ = π × q and q̇ = ω × q on the S² blocks, μ made
 * tangent, p from u by Newton's method.
 */
static int load(CL_FN(cl_ham_prod) *h, int form, rsrc x)
{
    if (form < CL_HAM_PROD_MOM || form > CL_HAM_PROD_OMEGA) return CL_EDIM;
    rptr v = momentum_form(form) ? h->p : h->u;
    CL_FN(cl_rvec_copy)(h->q, x, h->nq);
    CL_FN(cl_rvec_copy)(v, x + h->nq, h->nv);
    if (form == CL_HAM_PROD_PI || form == CL_HAM_PROD_OMEGA) CL_FN(cl_lagr_prod_cross_s2)(h->f, h->nf, v, v, h->q, 1);
    CL_FN(cl_lagr_prod_project_s2)(h->f, h->nf, v, h->q);
    return momentum_form(form) ? CL_OK : CL_FN(cl_lagr_core_legendre_inverse)(&h->core, h->p, h->q, h->u);
}

/* The gradient and the momentum rows of the Hessian of H at (q, p), H_pp factored: CL_ESINGULAR when it is singular. */
static int derivatives(CL_FN(cl_ham_prod) *h)
{
    int st = CL_FN(cl_lagr_core_derivs)(&h->core, h->q, h->p);
    return st ? st : tangent_matrix(&h->core, h->q);
}

/*
 * q̇ into h->qd and ṗ into h->pd, the velocities in h->u; on the S² blocks
 * [S2 (23)] μ̇ = −P(∂H/∂q − F) + ∂H/∂μ × (μ × q).
 */
static void hamilton(CL_FN(cl_ham_prod) *h)
{
    CL_FN(cl_lagr_core) *c = &h->core;
    RV_DECL(t, 3, c->prec);
    for (size_t a = 0; a < h->nq; a++) r_neg(h->mHq + a, c->grad + a);
    CL_FN(cl_lagr_prod_forces)(c, h->F);
    CL_FN(cl_lagr_prod_terms)(h->f, h->nf, h->qd, h->pd, h->q, h->u, h->mHq, h->p, h->F);
    CL_FN(cl_lagr_prod_project_s2)(h->f, h->nf, h->pd, h->q);
    for (size_t i = 0; i < h->nf; i++) {
        if (h->f[i].kind != CL_LAGR_S2) continue;
        size_t v = h->s[i].v;
        v3_cross(t, h->p + v, h->q + h->s[i].q);
        v3_cross(t, c->grad + h->nq + v, t);
        v3_add(h->pd + v, h->pd + v, t);
    }
}

/*
 * u̇ = H_pq q̇ + H_pp ṗ + H_pt into \p ud, from the momentum rows of the
 * Hessian; on the S² blocks, u = P ∂H/∂μ gives u̇ = P(d/dt ∂H/∂μ) − q̇(q·∂H/∂μ) − q(q̇·∂H/∂μ).
 */
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
    CL_FN(cl_lagr_prod_project_s2)(h->f, h->nf, ud, h->q);
    R_DECL(qg, c->prec);
    R_DECL(vg, c->prec);
    for (size_t i = 0; i < h->nf; i++) {
        if (h->f[i].kind != CL_LAGR_S2) continue;
        rsrc q = h->q + h->s[i].q, qd = h->qd + h->s[i].q, g = c->grad + nq + h->s[i].v;
        v3_dot(qg, q, g);
        v3_dot(vg, qd, g);
        for (int k = 0; k < 3; k++) {
            r_submul(ud + h->s[i].v + k, qd + k, qg);
            r_submul(ud + h->s[i].v + k, q + k, vg);
        }
    }
}

/* π̇ = q̇ × μ + q × μ̇ on the S² blocks of \p pd (μ̇ there). */
static void pi_rates(const CL_FN(cl_ham_prod) *h, rptr pd)
{
    RV_DECL(t, 3, h->core.prec);
    for (size_t i = 0; i < h->nf; i++) {
        if (h->f[i].kind != CL_LAGR_S2) continue;
        size_t v = h->s[i].v;
        v3_cross(t, h->qd + h->s[i].q, h->p + v);
        v3_cross(pd + v, h->q + h->s[i].q, pd + v);
        v3_add(pd + v, pd + v, t);
    }
}

int CL_FN(cl_ham_prod_rhs)(CL_FN(cl_ham_prod) *h, int form, rptr dx, rsrc x)
{
    int st = load(h, form, x);
    if (!st) st = derivatives(h);
    if (st) return st;
    if (momentum_form(form)) velocity(&h->core, h->u, h->q);
    hamilton(h);
    if (momentum_form(form)) {
        CL_FN(cl_rvec_copy)(dx + h->nq, h->pd, h->nv);
        if (form == CL_HAM_PROD_PI) pi_rates(h, dx + h->nq);
    } else {
        velocity_rates(h, dx + h->nq);
        if (form == CL_HAM_PROD_OMEGA) CL_FN(cl_lagr_prod_cross_s2)(h->f, h->nf, dx + h->nq, dx + h->nq, h->q, 0); /* ω̇ = q × q̈ */
    }
    CL_FN(cl_rvec_copy)(dx, h->qd, h->nq);
    return CL_OK;
}

int CL_FN(cl_ham_prod_convert)(CL_FN(cl_ham_prod) *h, int from, rsrc x, int to, rptr y)
{
    if (to < CL_HAM_PROD_MOM || to > CL_HAM_PROD_OMEGA) return CL_EDIM;
    int st = load(h, from, x);
    if (!st && momentum_form(from) && !momentum_form(to)) {
        st = CL_FN(cl_lagr_core_gradient)(&h->core, h->q, h->p);
        if (!st) velocity(&h->core, h->u, h->q);
    }
    if (st) return st;
    CL_FN(cl_rvec_copy)(y, h->q, h->nq);
    CL_FN(cl_rvec_copy)(y + h->nq, momentum_form(to) ? h->p : h->u, h->nv);
    if (to == CL_HAM_PROD_PI || to == CL_HAM_PROD_OMEGA) CL_FN(cl_lagr_prod_cross_s2)(h->f, h->nf, y + h->nq, y + h->nq, h->q, 0);
    return CL_OK;
}

int CL_FN(cl_ham_prod_value)(CL_FN(cl_ham_prod) *h, int id, int form, rptr out, rsrc x)
{
    int st = load(h, form, x);
    return st ? st : CL_FN(cl_lagr_core_value)(&h->core, id < 0 ? h->core.L : id, out, h->q, h->p);
}

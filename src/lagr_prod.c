/*
 * A general Lagrangian on a product of S¹, Rᵏ, S², SO(3) and SE(3) factors
 * (lagr_prod.h). Every factor kind is one row of a table of hooks: the
 * numbers of its configuration and velocity, the rate of its configuration
 * (q̇ = u, Ṙ = RΩ̂, ẋ = RV), and its part G of the right side of
 * d/dt ∂L/∂u = G + F — ∂L/∂q on the embedded factors [EMB (2.8)], the
 * Euler–Poincaré terms on the groups [EMB §3.4] (that table is
 * lagr_prod_kinds.c's). The engine assembles one
 * velocity Hessian on the product, removes the multipliers of the unit
 * vectors by projecting each S² block (P = I − qqᵀ, as [S2 (11)] does
 * sphere by sphere), and solves once. Cleaning states and bringing them
 * onto the constraints is in lagr_prod_state.c.
 */
#include <math.h>
#include <stdlib.h>
#include "lagr_prod.h"
#include "lagr_core_impl.h"
#include "lagr_prod_impl.h"
#include "lagr_prod_engine_impl.h"
#include "lagr_so3.h"
#include "linalg.h"
#include "r3.h"

/* ------------------------------------------------------------ setting up */

static int factor_matrix(CL_FN(cl_lagr_core) *c, rsrc q);
static void projected_momentum(CL_FN(cl_lagr_core) *c, rptr out, rsrc q);

int CL_FN(cl_lagr_prod_new)(CL_FN(cl_lagr_prod) **out, const cl_expr_dag *g, int L, const cl_lagr_factor *f, size_t nf,
                            size_t nparam, cl_prec_t prec)
{
    CL_FN(cl_lagr_core) *c;
    slot *s;
    *out = NULL;
    int st = CL_FN(cl_lagr_prod_core_new)(&c, &s, sizeof(CL_FN(cl_lagr_prod)), g, L, f, nf, nparam, (const size_t[2]){2, 4}, prec);
    if (st) return st;
    size_t nq = c->lay.nq, nv = c->lay.nv;
    CL_FN(cl_lagr_prod) *lg = (CL_FN(cl_lagr_prod) *)c;
    lg->f = s;
    lg->nf = nf;
    lg->nq = nq;
    lg->nv = nv;
    lg->core.matrix = factor_matrix;
    lg->core.momentum = projected_momentum;
    rptr p = RV_CARVE(lg->core.scratch, nq, &lg->q, &lg->qd);
    RV_CARVE(p, nv, &lg->u, &lg->ud, &lg->r, &lg->w);
    *out = lg;
    return CL_OK;
}

void CL_FN(cl_lagr_prod_free)(CL_FN(cl_lagr_prod) *lg)
{
    if (!lg) return;
    free(lg->con);
    free(lg->kperm);
    CL_FN(cl_lagr_dist_free)(lg->dist);
    CL_FN(cl_rvec_free)(lg->dblock);
    CL_FN(cl_rvec_free)(lg->cblock);
    free(lg->f);
    CL_FN(cl_lagr_core_free)(&lg->core);
}

void CL_FN(cl_lagr_prod_set_param)(CL_FN(cl_lagr_prod) *lg, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&lg->core, k, v); }

void CL_FN(cl_lagr_prod_set_time)(CL_FN(cl_lagr_prod) *lg, rsrc t) { r_set(lg->core.in + lg->nq + lg->nv, t); }

int CL_FN(cl_lagr_prod_bad_node)(const CL_FN(cl_lagr_prod) *lg) { return lg->core.bad; }

void CL_FN(cl_lagr_prod_sizes)(const CL_FN(cl_lagr_prod) *lg, size_t *nq, size_t *nv)
{
    if (nq) *nq = lg->nq;
    if (nv) *nv = lg->nv;
}

int CL_FN(cl_lagr_prod_set_forces)(CL_FN(cl_lagr_prod) *lg, const int *force) { return CL_FN(cl_lagr_core_set_forces)(&lg->core, force); }

/* Every S² block of the velocity-sized vector \p v projected on its tangent plane (slots \p s of \p nf factors). */
static void project_slots(const slot *s, size_t nf, rptr v, rsrc q)
{
    for (size_t i = 0; i < nf; i++)
        if (s[i].ops->unit) CL_FN(cl_lagr_prod_project3)(v + s[i].v, q + s[i].q, 1);
}

static void project_blocks(const CL_FN(cl_lagr_prod) *lg, rptr v, rsrc q) { project_slots(lg->f, lg->nf, v, q); }

/* The velocity block of the core's Hessian rows, then P L_uu P + QQᵀ on the S² blocks (slots \p f), into M (rows \p ld apart). */
static void slots_matrix(const CL_FN(cl_lagr_core) *c, const slot *f, size_t nf, rptr M, size_t ld, rsrc q)
{
    size_t nv = c->lay.nv, nq = c->lay.nq;
    for (size_t a = 0; a < nv; a++)
        for (size_t b = 0; b < nv; b++) r_set(M + a * ld + b, c->H + a * c->nin + nq + b);
    for (size_t i = 0; i < nf; i++) {
        const slot *s = f + i;
        if (!s->ops->unit) continue;
        for (size_t b = 0; b < nv; b++) CL_FN(cl_lagr_prod_project3)(M + s->v * ld + b, q + s->q, ld); /* rows of the block */
        for (size_t a = 0; a < nv; a++) CL_FN(cl_lagr_prod_project3)(M + a * ld + s->v, q + s->q, 1);  /* its columns */
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 3; b++) r_addmul(M + (s->v + a) * ld + s->v + b, q + s->q + a, q + s->q + b); /* O(1): |q| ≈ 1 */
    }
}

/* The matrix of slots_matrix() in c->M, factored. */
static int tangent_matrix(CL_FN(cl_lagr_core) *c, const slot *f, size_t nf, rsrc q)
{
    slots_matrix(c, f, nf, c->M, c->lay.nv, q);
    return CL_FN(cl_lu_factor)(c->M, c->perm, (int)c->lay.nv);
}

/* The matrix of the product's slots into M (rows \p ld apart): the top left block of the bordered K. */
static void build_matrix(const CL_FN(cl_lagr_prod) *lg, rptr M, size_t ld, rsrc q) { slots_matrix(&lg->core, lg->f, lg->nf, M, ld, q); }

static int factor_matrix(CL_FN(cl_lagr_core) *c, rsrc q)
{
    const CL_FN(cl_lagr_prod) *lg = (const CL_FN(cl_lagr_prod) *)c;
    return tangent_matrix(c, lg->f, lg->nf, q);
}

/* The momentum of the Legendre map: ∂L/∂u, projected on the S² blocks (μ = P ∂L/∂q̇). */
static void projected_momentum(CL_FN(cl_lagr_core) *c, rptr out, rsrc q)
{
    CL_FN(cl_lagr_prod) *lg = (CL_FN(cl_lagr_prod) *)c;
    CL_FN(cl_rvec_copy)(out, c->grad + lg->nq, lg->nv);
    project_blocks(lg, out, q);
}

/* ------------------------------------------------------------ the equations */

/* out ← v × q (\p v_cross_q) or q × v on every S² block of the velocity part (slots \p f) */
static void cross_slots(const slot *f, size_t nf, rptr out, rsrc v, rsrc q, int v_cross_q)
{
    RV_DECL(t, 3, r_prec(out));
    for (size_t i = 0; i < nf; i++) {
        const slot *s = f + i;
        if (!s->ops->unit) continue;
        if (v_cross_q) v3_cross(t, v + s->v, q + s->q);
        else v3_cross(t, q + s->q, v + s->v);
        v3_set(out + s->v, t);
    }
}

static void cross_blocks(const CL_FN(cl_lagr_prod) *lg, rptr out, rsrc v, rsrc q, int v_cross_q) { cross_slots(lg->f, lg->nf, out, v, q, v_cross_q); }

/* The slots of the \p nf factors \p f into \p s (CL_LAGR_PROD_MAX_FACTORS); 0, or −1 as cl_lagr_prod_place(). */
static int slots_of(slot *s, const cl_lagr_factor *f, size_t nf)
{
    size_t nq, nv;
    return nf == 0 || nf > CL_LAGR_PROD_MAX_FACTORS ? -1 : CL_FN(cl_lagr_prod_place)(s, f, nf, &nq, &nv);
}

void CL_FN(cl_lagr_prod_project_s2)(const cl_lagr_factor *f, size_t nf, rptr v, rsrc q)
{
    slot s[CL_LAGR_PROD_MAX_FACTORS];
    if (!slots_of(s, f, nf)) project_slots(s, nf, v, q);
}

void CL_FN(cl_lagr_prod_cross_s2)(const cl_lagr_factor *f, size_t nf, rptr out, rsrc v, rsrc q, int v_cross_q)
{
    slot s[CL_LAGR_PROD_MAX_FACTORS];
    if (!slots_of(s, f, nf)) cross_slots(s, nf, out, v, q, v_cross_q);
}

int CL_FN(cl_lagr_prod_factor_tangent)(CL_FN(cl_lagr_core) *c, const cl_lagr_factor *f, size_t nf, rsrc q)
{
    slot s[CL_LAGR_PROD_MAX_FACTORS];
    return slots_of(s, f, nf) ? CL_EDIM : tangent_matrix(c, s, nf, q);
}

static int dist_velocity(CL_FN(cl_lagr_prod) *lg);

/* (q, u) into lg->q, lg->u from a state of form \p form. */
int CL_FN(cl_lagr_prod_load)(CL_FN(cl_lagr_prod) *lg, int form, rsrc x)
{
    size_t nq = lg->nq, nv = lg->nv;
    CL_FN(cl_rvec_copy)(lg->q, x, nq);
    if (form == CL_LAGR_PROD_DIST) {
        if (CL_FN(cl_lagr_dist_index)(lg->dist, 0) < 0) return CL_EDIM; /* no basis chosen */
        CL_FN(cl_lagr_dist_expand)(lg->dist, lg->u, x + nq);
        return dist_velocity(lg);
    }
    CL_FN(cl_rvec_copy)(lg->u, x + nq, nv);
    switch (form) {
    case CL_LAGR_PROD_VEL: return CL_OK;
    case CL_LAGR_PROD_OMEGA: cross_blocks(lg, lg->u, lg->u, lg->q, 1); return CL_OK; /* q̇ = ω × q */
    case CL_LAGR_PROD_PI: cross_blocks(lg, lg->u, lg->u, lg->q, 1);                   /* μ = π × q, then as MOM */
        /* fall through */
    case CL_LAGR_PROD_MOM: /* the Legendre map reaches tangent μ only: a drift off the tangent plane is dropped */
        CL_FN(cl_rvec_copy)(lg->w, lg->u, nv);
        project_blocks(lg, lg->w, lg->q);
        return CL_FN(cl_lagr_core_legendre_inverse)(&lg->core, lg->u, lg->q, lg->w);
    default: return CL_EDIM;
    }
}

/* The graph at (q, u) up to the forces, the gradient into c->grad (\p hessian: the velocity rows too, and M factored). */
static int derivatives(CL_FN(cl_lagr_prod) *lg, int hessian)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    if (hessian) {
        int st = CL_FN(cl_lagr_core_derivs)(c, lg->q, lg->u);
        return st ? st : factor_matrix(c, lg->q);
    }
    int st = CL_FN(cl_lagr_core_run)(c, lg->q, lg->u, c->upto, 2);
    if (!st) CL_FN(cl_expr_eval_gradient)(c->ev, c->L, c->grad, (int)c->nin);
    return st;
}

int CL_FN(cl_lagr_prod_terms)(const cl_lagr_factor *f, size_t nf, rptr qd, rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, rsrc F)
{
    slot s[CL_LAGR_PROD_MAX_FACTORS];
    if (slots_of(s, f, nf)) return CL_EDIM;
    CL_FN(cl_lagr_prod_factor_terms)(s, nf, qd, G, q, u, Lq, Lu, F);
    return CL_OK;
}

void CL_FN(cl_lagr_prod_forces)(CL_FN(cl_lagr_core) *c, rptr F)
{
    for (size_t a = 0; a < c->lay.nv; a++) {
        if (c->force && c->force[a] >= 0) r_set(F + a, CL_FN(cl_expr_eval_value)(c->ev, c->force[a]));
        else r_set_zero(F + a);
    }
}

/* q̇ into lg->qd and G + F into lg->r, from the gradient and the forces of the last run. */
static void rates_and_forces(CL_FN(cl_lagr_prod) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    CL_FN(cl_lagr_prod_forces)(c, lg->w);
    CL_FN(cl_lagr_prod_factor_terms)(lg->f, lg->nf, lg->qd, lg->r, lg->q, lg->u, c->grad, c->grad + lg->nq, lg->w);
}

/* ------------------------------------------------------------ constraints */

/* The rows A_i = ∂c_i/∂u and b_i = ∂c_i/∂q · q̇ + ∂c_i/∂t of ċ_i = A_i u̇ + b_i, after a run of order 2 and rates_and_forces(). */
static void constraint_rows(CL_FN(cl_lagr_prod) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    for (size_t i = 0; i < lg->nc; i++) {
        CL_FN(cl_expr_eval_gradient)(c->ev, lg->con[i], lg->cg, (int)c->nin);
        CL_FN(cl_rvec_copy)(lg->A + i * lg->nv, lg->cg + lg->nq, lg->nv);
        if (lg->cont[i] >= 0) r_set(lg->b + i, CL_FN(cl_expr_eval_value)(c->ev, lg->cont[i])); /* ∂c/∂t */
        else r_set_zero(lg->b + i);
        for (size_t k = 0; k < lg->nq; k++) r_addmul(lg->b + i, lg->cg + k, lg->qd + k);
    }
}

int CL_FN(cl_lagr_prod_set_constraint_rates)(CL_FN(cl_lagr_prod) *lg, const int *cont)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    for (size_t i = 0; i < lg->nc; i++)
        if (cont[i] >= (int)cl_expr_dag_size(c->g)) return CL_EDIM;
    for (size_t i = 0; i < lg->nc; i++) {
        lg->cont[i] = cont[i] < 0 ? -1 : cont[i];
        if (cont[i] > c->upto) c->upto = cont[i];
    }
    return CL_OK;
}

/*
 * The Lagrange–d'Alembert equations on the tangent space: with the rows
 * A P (P the projection of the S² blocks),
 *   [ M    −(AP)ᵀ ] [ w ]   [ r            ]
 *   [ AP    0     ] [ λ ] = [ −b − A·Qc    ] ,
 * so that M w = r + (AP)ᵀλ and ċ = A(w + Qc) + b = 0; w into r, λ into lg->lam.
 */
static int constrained_solve(CL_FN(cl_lagr_prod) *lg, rptr r, rsrc Qc)
{
    size_t nv = lg->nv, nc = lg->nc, ld = nv + nc;
    constraint_rows(lg);
    build_matrix(lg, lg->K, ld, lg->q);
    for (size_t i = 0; i < nc; i++) {
        rptr Ai = lg->A + i * nv;
        r_neg(lg->y + nv + i, lg->b + i);
        for (size_t a = 0; a < nv; a++) r_submul(lg->y + nv + i, Ai + a, Qc + a);
        project_blocks(lg, Ai, lg->q);
        for (size_t a = 0; a < nv; a++) {
            r_set(lg->K + (nv + i) * ld + a, Ai + a);
            r_neg(lg->K + a * ld + nv + i, Ai + a);
        }
        for (size_t j = 0; j < nc; j++) r_set_zero(lg->K + (nv + i) * ld + nv + j);
    }
    CL_FN(cl_rvec_copy)(lg->y, r, nv);
    int st = CL_FN(cl_lu_factor)(lg->K, lg->kperm, (int)ld);
    if (!st) st = CL_FN(cl_lu_solve)(lg->K, lg->kperm, lg->y, (int)ld, 1);
    if (st) return st;
    CL_FN(cl_rvec_copy)(r, lg->y, nv);
    CL_FN(cl_rvec_copy)(lg->lam, lg->y + nv, nc);
    return CL_OK;
}

int CL_FN(cl_lagr_prod_set_constraints)(CL_FN(cl_lagr_prod) *lg, const int *con, const int *hol, size_t nc)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t nv = lg->nv, ld = nv + nc, n = cl_expr_dag_size(c->g);
    if (!nc || lg->nc) return nc ? CL_EDIM : CL_OK;
    for (size_t i = 0; i < nc; i++)
        if (con[i] < 0 || (size_t)con[i] >= n || hol[i] >= (int)n) return CL_EDIM;
    lg->con = malloc(3 * nc * sizeof *lg->con);
    lg->kperm = malloc(ld * sizeof *lg->kperm);
    lg->cblock = CL_FN(cl_rvec_new)(nc * (lg->nq + nv) + nc + ld * ld + ld + nc + c->nin + nv, c->prec);
    if (!lg->con || !lg->kperm || !lg->cblock) return CL_ENOMEM;
    lg->hol = lg->con + nc;
    lg->cont = lg->hol + nc;
    for (size_t i = 0; i < nc; i++) {
        lg->con[i] = con[i];
        lg->hol[i] = hol[i];
        lg->cont[i] = -1;
        if (con[i] > c->upto) c->upto = con[i];
        if (hol[i] > c->upto) c->upto = hol[i];
    }
    rptr p = lg->cblock;
    lg->A = p; p += nc * (lg->nq + nv); /* room for rows of the configuration too (min_norm_step()) */
    lg->b = p; p += nc;
    lg->K = p; p += ld * ld;
    lg->y = p; p += ld;
    lg->lam = p; p += nc;
    lg->cg = p; p += c->nin;
    lg->nc = nc;
    lg->nr = nc;
    for (size_t i = 0; i < lg->nf; i++) lg->nr += (size_t)lg->f[i].ops->unit;
    lg->dblock = CL_FN(cl_rvec_new)(lg->nr * (nv + 1) + nv * nv, c->prec);
    if (!lg->dblock) return CL_ENOMEM;
    lg->W = lg->dblock;
    lg->rho = lg->W + lg->nr * nv;
    lg->Mn = lg->rho + lg->nr;
    lg->dist = CL_FN(cl_lagr_dist_new)(nv, lg->nr, c->prec); /* NULL: no admissible direction, no distribution form */
    return CL_OK;
}

/*
 * u̇ into lg->ud after derivatives(lg, 1) and rates_and_forces():
 * r ← r − L_uq q̇ − L_ut, c = −|q̇|² on the S² blocks (Qc in lg->w), then
 * M w = P(r − L_uu Qc) and u̇ = w + Qc.
 */
static int dist_solve(CL_FN(cl_lagr_prod) *lg, rptr r, rsrc Qc);

static int accelerations(CL_FN(cl_lagr_prod) *lg, int dist)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t nq = lg->nq, nv = lg->nv;
    rptr r = lg->r, Qc = lg->w;
    CL_FN(cl_lagr_core_sub_mixed)(c, r, lg->qd);
    if (c->lay.ndiff)
        for (size_t a = 0; a < nv; a++) r_sub(r + a, r + a, c->H + a * c->nin + nq + nv);
    for (size_t a = 0; a < nv; a++) r_set_zero(Qc + a);
    R_DECL(s, c->prec);
    R_DECL(t, c->prec);
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *f = lg->f + i;
        if (!f->ops->unit) continue;
        v3_dot(s, lg->u + f->v, lg->u + f->v); /* q·q̈ = −|q̇|² while |q| is constant */
        v3_dot(t, lg->q + f->q, lg->q + f->q);
        r_div(s, s, t);
        for (int k = 0; k < 3; k++) r_mul(Qc + f->v + k, lg->q + f->q + k, s);
        for (int k = 0; k < 3; k++) r_neg(Qc + f->v + k, Qc + f->v + k);
    }
    for (size_t a = 0; a < nv; a++)
        for (size_t b = 0; b < nv; b++) r_submul(r + a, c->H + a * c->nin + nq + b, Qc + b);
    project_blocks(lg, r, lg->q);
    int st = !lg->nc ? CL_FN(cl_lu_solve)(c->M, c->perm, r, (int)nv, 1) : dist ? dist_solve(lg, r, Qc) : constrained_solve(lg, r, Qc);
    if (st) return st;
    for (size_t a = 0; a < nv; a++) r_add(lg->ud + a, r + a, Qc + a);
    return CL_OK;
}

/*
 * The momentum rates from the gradient: ṗ = G + F (lg->r), and on the S²
 * blocks μ̇ = P(∂L/∂q + F) − q̇(q·g) − q(q̇·g), g = ∂L/∂q̇; into \p out.
 */
static void momentum_rates(CL_FN(cl_lagr_prod) *lg, rptr out)
{
    rsrc Lu = lg->core.grad + lg->nq;
    R_DECL(qg, lg->core.prec);
    R_DECL(vg, lg->core.prec);
    CL_FN(cl_rvec_copy)(out, lg->r, lg->nv);
    project_blocks(lg, out, lg->q);
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *s = lg->f + i;
        if (!s->ops->unit) continue;
        v3_dot(qg, lg->q + s->q, Lu + s->v);
        v3_dot(vg, lg->u + s->v, Lu + s->v);
        for (int k = 0; k < 3; k++) {
            r_submul(out + s->v + k, lg->u + s->v + k, qg);
            r_submul(out + s->v + k, lg->q + s->q + k, vg);
        }
    }
}

/* π̇ = q̇ × μ + q × μ̇ on the S² blocks of \p pd (μ̇ there), μ = P ∂L/∂q̇. */
static void pi_rates(CL_FN(cl_lagr_prod) *lg, rptr pd)
{
    RV_DECL(mu, 3, lg->core.prec);
    RV_DECL(t, 3, lg->core.prec);
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *s = lg->f + i;
        if (!s->ops->unit) continue;
        v3_set(mu, lg->core.grad + lg->nq + s->v);
        CL_FN(cl_lagr_prod_project3)(mu, lg->q + s->q, 1);
        v3_cross(t, lg->u + s->v, mu);
        v3_cross(pd + s->v, lg->q + s->q, pd + s->v);
        v3_add(pd + s->v, pd + s->v, t);
    }
}

/* r = G + F + (AP)ᵀλ for the momentum forms of a constrained product (λ from the velocity equations). */
static int constraint_forces(CL_FN(cl_lagr_prod) *lg)
{
    size_t nv = lg->nv;
    rptr saved = lg->cg + lg->core.nin;
    CL_FN(cl_rvec_copy)(saved, lg->r, nv);
    int st = accelerations(lg, 0);
    if (st) return st;
    CL_FN(cl_rvec_copy)(lg->r, saved, nv);
    for (size_t i = 0; i < lg->nc; i++)
        for (size_t a = 0; a < nv; a++) r_addmul(lg->r + a, lg->A + i * nv + a, lg->lam + i);
    return CL_OK;
}

int CL_FN(cl_lagr_prod_rhs)(CL_FN(cl_lagr_prod) *lg, int form, rptr dx, rsrc x)
{
    size_t nq = lg->nq, nv = lg->nv;
    int momentum = form == CL_LAGR_PROD_MOM || form == CL_LAGR_PROD_PI;
    int st = CL_FN(cl_lagr_prod_load)(lg, form, x);
    if (!st) st = derivatives(lg, !momentum || lg->nc);
    if (st) return st;
    rates_and_forces(lg);
    if (momentum && lg->nc) st = constraint_forces(lg);
    if (st) return st;
    if (momentum) {
        momentum_rates(lg, dx + nq);
        if (form == CL_LAGR_PROD_PI) pi_rates(lg, dx + nq);
    } else if (form == CL_LAGR_PROD_DIST) {
        st = accelerations(lg, 1);
        if (st) return st;
        CL_FN(cl_lagr_dist_reduce)(lg->dist, dx + nq, lg->ud);
    } else {
        st = accelerations(lg, 0);
        if (st) return st;
        CL_FN(cl_rvec_copy)(dx + nq, lg->ud, nv);
        if (form == CL_LAGR_PROD_OMEGA) cross_blocks(lg, dx + nq, lg->ud, lg->q, 0); /* ω̇ = q × q̈ */
    }
    CL_FN(cl_rvec_copy)(dx, lg->qd, nq);
    return CL_OK;
}

int CL_FN(cl_lagr_prod_convert)(CL_FN(cl_lagr_prod) *lg, int from, rsrc x, int to, rptr y)
{
    size_t nq = lg->nq, nv = lg->nv;
    if (to < CL_LAGR_PROD_VEL || to > CL_LAGR_PROD_DIST || (to == CL_LAGR_PROD_DIST && CL_FN(cl_lagr_dist_index)(lg->dist, 0) < 0)) return CL_EDIM;
    int st = CL_FN(cl_lagr_prod_load)(lg, from, x);
    if (st) return st;
    CL_FN(cl_rvec_copy)(y, lg->q, nq);
    if (to == CL_LAGR_PROD_DIST) CL_FN(cl_lagr_dist_reduce)(lg->dist, y + nq, lg->u);
    else if (to == CL_LAGR_PROD_MOM || to == CL_LAGR_PROD_PI) {
        st = derivatives(lg, 0);
        if (st) return st;
        projected_momentum(&lg->core, y + nq, lg->q);
    } else CL_FN(cl_rvec_copy)(y + nq, lg->u, nv);
    if (to == CL_LAGR_PROD_OMEGA || to == CL_LAGR_PROD_PI) cross_blocks(lg, y + nq, y + nq, lg->q, 0);
    return CL_OK;
}

int CL_FN(cl_lagr_prod_value)(CL_FN(cl_lagr_prod) *lg, int id, int form, rptr out, rsrc x)
{
    int st = CL_FN(cl_lagr_prod_load)(lg, form, x);
    return st ? st : CL_FN(cl_lagr_core_value)(&lg->core, id, out, lg->q, lg->u);
}

/* ------------------------------------------------------------ the distribution form */

/* The rows qᵀ of the S² blocks into lg->W from row k on, their values q·u into lg->rho (\p values), else zeros. */
static void sphere_rows(CL_FN(cl_lagr_prod) *lg, size_t k, int values)
{
    size_t nv = lg->nv;
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *f = lg->f + i;
        if (!f->ops->unit) continue;
        rptr Wk = lg->W + k * nv;
        for (size_t a = 0; a < nv; a++) r_set_zero(Wk + a);
        v3_set(Wk + f->v, lg->q + f->q);
        if (values) v3_dot(lg->rho + k, lg->q + f->q, lg->u + f->v);
        else r_set_zero(lg->rho + k);
        k++;
    }
}

/*
 * The velocity rows at (lg->q, lg->u) after a run with partials into lg->W:
 * A P per constraint, qᵀ per S² block; their values W u + a into lg->rho
 * (a = c − A u the constraint's velocity-free part).
 */
static void velocity_rows(CL_FN(cl_lagr_prod) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t nv = lg->nv, k = lg->nc;
    for (size_t i = 0; i < lg->nc; i++) {
        rptr Wi = lg->W + i * nv;
        CL_FN(cl_expr_eval_gradient)(c->ev, lg->con[i], lg->cg, (int)c->nin);
        CL_FN(cl_rvec_copy)(Wi, lg->cg + lg->nq, nv);
        project_blocks(lg, Wi, lg->q);
        r_set(lg->rho + i, CL_FN(cl_expr_eval_value)(c->ev, lg->con[i]));
        for (size_t a = 0; a < nv; a++) {
            r_sub(lg->cg + lg->nq + a, lg->cg + lg->nq + a, Wi + a);
            r_submul(lg->rho + i, lg->cg + lg->nq + a, lg->u + a);
        }
    }
    sphere_rows(lg, k, 1);
}

/* u_D from u_I = s (lg->u zero on D): the rows are linear in u, one step solves them. */
static int dist_velocity(CL_FN(cl_lagr_prod) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    int st = CL_FN(cl_lagr_core_run)(c, lg->q, lg->u, c->upto, 2);
    if (st) return st;
    velocity_rows(lg);
    return CL_FN(cl_lagr_dist_velocity)(lg->dist, lg->W, lg->rho, lg->u);
}

/* The accelerations by the null-space method: W w = (−b − A·Qc, 0), Bᵀ(M w − r) = 0 (lagr_prod_dist.c); w into r. */
static int dist_solve(CL_FN(cl_lagr_prod) *lg, rptr r, rsrc Qc)
{
    size_t nv = lg->nv, k = lg->nc;
    constraint_rows(lg);
    for (size_t i = 0; i < lg->nc; i++) {
        rptr Wi = lg->W + i * nv;
        CL_FN(cl_rvec_copy)(Wi, lg->A + i * nv, nv);
        r_neg(lg->rho + i, lg->b + i);
        for (size_t a = 0; a < nv; a++) r_submul(lg->rho + i, Wi + a, Qc + a);
        project_blocks(lg, Wi, lg->q);
    }
    sphere_rows(lg, k, 0);
    build_matrix(lg, lg->Mn, nv, lg->q);
    return CL_FN(cl_lagr_dist_solve)(lg->dist, lg->W, lg->Mn, lg->rho, r);
}

int CL_FN(cl_lagr_prod_dist_choose)(CL_FN(cl_lagr_prod) *lg, int form, rsrc x)
{
    if (!lg->dist || form == CL_LAGR_PROD_DIST) return CL_EDIM;
    int st = CL_FN(cl_lagr_prod_load)(lg, form, x);
    if (!st) st = CL_FN(cl_lagr_core_run)(&lg->core, lg->q, lg->u, lg->core.upto, 2);
    if (st) return st;
    velocity_rows(lg);
    return CL_FN(cl_lagr_dist_choose)(lg->dist, lg->W);
}

int CL_FN(cl_lagr_prod_dist_set)(CL_FN(cl_lagr_prod) *lg, const int *ind) { return CL_FN(cl_lagr_dist_set)(lg->dist, ind); }

size_t CL_FN(cl_lagr_prod_dist_dim)(const CL_FN(cl_lagr_prod) *lg) { return CL_FN(cl_lagr_dist_dim)(lg->dist); }

int CL_FN(cl_lagr_prod_dist_index)(const CL_FN(cl_lagr_prod) *lg, size_t k) { return CL_FN(cl_lagr_dist_index)(lg->dist, k); }

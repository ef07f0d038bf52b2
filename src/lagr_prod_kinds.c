/*
 * The factor kinds of a product Lagrangian (lagr_prod.h), one row of a
 * table of hooks each: the numbers of the configuration and velocity of
 * S¹, Rᵏ, S², SO(3) and SE(3), the rate of the configuration (q̇ = u,
 * Ṙ = RΩ̂, ẋ = RV), the part G of the right side of d/dt ∂L/∂u = G + F
 * (∂L/∂q on the embedded factors [EMB (2.8)], the Euler–Poincaré terms on
 * the groups [EMB §3.4]) and how a force enters; the slots of a product's
 * factors and the projection of an S² block. The engine (lagr_prod.c)
 * applies them.
 */
#include <math.h>
#include <stdlib.h>
#include "lagr_prod.h"
#include "lagr_prod_engine_impl.h"
#include "lagr_so3.h"
#include "r3.h"

/* ------------------------------------------------------------ the kinds */

/* q̇ = u: S¹, Rᵏ and S² */
static void rate_embedded(rptr qd, rsrc q, rsrc u, size_t nq)
{
    for (size_t i = 0; i < nq; i++) r_set(qd + i, u + i);
}

/* G = ∂L/∂q: S¹, Rᵏ and S² (the multiplier of |q| = 1 is removed by the projection) */
static void general_embedded(rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, size_t nv)
{
    for (size_t i = 0; i < nv; i++) r_set(G + i, Lq + i);
}

/* Ṙ = RΩ̂ */
static void rate_so3(rptr Rd, rsrc R, rsrc W, size_t nq)
{
    RV_DECL(M, 9, r_prec(Rd));
    m3_hat(M, W);
    m3_mul(Rd, R, M);
}

/* τ = (RᵀL_R − L_RᵀR)^∨, the torque of the configuration dependence */
static void torque(rptr tau, rsrc R, rsrc LR)
{
    RV_DECL(M, 9, r_prec(tau));
    m3_transpose(M, R);
    m3_mul(M, M, LR);
    m3_vee_skew2(tau, M);
}

/* G = ∂L/∂Ω × Ω + τ */
static void general_so3(rptr G, rsrc R, rsrc W, rsrc LR, rsrc LW, size_t nv)
{
    RV_DECL(tau, 3, r_prec(G));
    torque(tau, R, LR);
    v3_cross(G, LW, W);
    v3_add(G, G, tau);
}

/* Ṙ = RΩ̂, ẋ = RV */
static void rate_se3(rptr qd, rsrc q, rsrc u, size_t nq)
{
    rate_so3(qd, q, u, 9);
    m3_mul_v3(qd + 9, q, u + 3);
}

/* G = (∂L/∂Ω × Ω + ∂L/∂V × V + τ, ∂L/∂V × Ω + RᵀL_x) */
static void general_se3(rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, size_t nv)
{
    RV_DECL(t, 9, r_prec(G));
    general_so3(G, q, u, Lq, Lu, 3);
    v3_cross(t, Lu + 3, u + 3);
    v3_add(G, G, t);
    v3_cross(G + 3, Lu + 3, u);
    m3_transpose(t, q);
    m3_mul_v3(t, t, Lq + 9);
    v3_add(G + 3, G + 3, t);
}

/* The force F on the position of an SE(3) factor is given in space: it enters as RᵀF. */
static void force_se3(rptr G, rsrc q, rsrc F)
{
    RV_DECL(t, 9, r_prec(G));
    v3_add(G, G, F);
    m3_transpose(t, q);
    m3_mul_v3(t, t, F + 3);
    v3_add(G + 3, G + 3, t);
}

static void force_plain(rptr G, rsrc q, rsrc F, size_t nv)
{
    for (size_t i = 0; i < nv; i++) r_add(G + i, G + i, F + i);
}


static const kind_ops kinds[] = {
    [CL_LAGR_S1] = {1, 1, 0, rate_embedded, general_embedded, 0},
    [CL_LAGR_RK] = {0, 0, 0, rate_embedded, general_embedded, 0},
    [CL_LAGR_S2] = {3, 3, 1, rate_embedded, general_embedded, 0},
    [CL_LAGR_SO3] = {9, 3, 0, rate_so3, general_so3, 0, 1},
    [CL_LAGR_SE3] = {12, 6, 0, rate_se3, general_se3, 1, 1},
};

/* The slots of the factors; 0, or −1 for an unknown factor or a product too large. */
int CL_FN(cl_lagr_prod_place)(slot *s, const cl_lagr_factor *f, size_t nf, size_t *nq, size_t *nv)
{
    *nq = *nv = 0;
    for (size_t i = 0; i < nf; i++) {
        if (f[i].kind < 0 || f[i].kind > CL_LAGR_SE3) return -1;
        const kind_ops *k = kinds + f[i].kind;
        size_t m = k->nq ? 0 : (size_t)(f[i].k > 0 ? f[i].k : 0);
        if (!k->nq && !m) return -1;
        s[i] = (slot){.ops = k, .q = *nq, .v = *nv, .nq = k->nq ? k->nq : m, .nv = k->nv ? k->nv : m};
        *nq += s[i].nq;
        *nv += s[i].nv;
    }
    return *nq > CL_LAGR_PROD_MAX_DIM || *nv > CL_LAGR_PROD_MAX_DIM ? -1 : 0;
}

int CL_FN(cl_lagr_prod_core_new)(CL_FN(cl_lagr_core) **out, slot **slots, size_t size, const cl_expr_dag *g, int L,
                                 const cl_lagr_factor *f, size_t nf, size_t nparam, const size_t scratch[2], cl_prec_t prec)
{
    size_t nq, nv;
    *out = NULL;
    *slots = NULL;
    if (nf == 0 || nf > CL_LAGR_PROD_MAX_FACTORS) return CL_EDIM;
    slot *s = malloc(nf * sizeof *s);
    if (!s) return CL_ENOMEM;
    int st = CL_FN(cl_lagr_prod_place)(s, f, nf, &nq, &nv) ? CL_EDIM : CL_OK;
    if (!st) {
        int timed = L >= 0 && cl_expr_depends_on_input(g, L, (long)(nq + nv));
        cl_lagr_layout lay = {.nq = nq, .nv = nv, .nt = 1, .ndiff = (size_t)timed, .nparam = nparam};
        st = CL_FN(cl_lagr_core_new)(out, size, g, L, &lay, scratch[0] * nq + scratch[1] * nv, prec);
    }
    if (st) free(s);
    else *slots = s;
    return st;
}

/* ------------------------------------------------------------ the projection of the S² blocks */

/*
 * v ← (I − qqᵀ/|q|²)v on the 3 numbers at v, with stride \p st: the
 * projection on the plane normal to q, exact also for the |q| ≠ 1 an
 * integrator's step leaves (so that Newton's steps stay in that plane).
 */
void CL_FN(cl_lagr_prod_project3)(rptr v, rsrc q, size_t st)
{
    R_DECL(d, r_prec(v));
    R_DECL(qq, r_prec(v));
    r_set_zero(d);
    for (int k = 0; k < 3; k++) r_addmul(d, q + k, v + k * st);
    v3_dot(qq, q, q);
    r_div(d, d, qq);
    for (int k = 0; k < 3; k++) r_submul(v + k * st, d, q + k);
}

/* Every factor's q̇ into qd and G + F into G (slots \p s of \p nf factors). */
void CL_FN(cl_lagr_prod_factor_terms)(const slot *s, size_t nf, rptr qd, rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, rsrc F)
{
    for (size_t i = 0; i < nf; i++, s++) {
        s->ops->rate(qd + s->q, q + s->q, u + s->v, s->nq);
        s->ops->general(G + s->v, q + s->q, u + s->v, Lq + s->q, Lu + s->v, s->nv);
        if (s->ops->se3_force) force_se3(G + s->v, q + s->q, F + s->v);
        else force_plain(G + s->v, q + s->q, F + s->v, s->nv);
    }
}

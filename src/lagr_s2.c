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
#include "lagr_core_impl.h"
#include "linalg.h"
#include "r3.h"

struct CL_FN(cl_lagr_s2) {
    CL_FN(cl_lagr_core) core; /* inputs q (3n), q̇ (3n), t, parameters; t differentiated when L depends on it */
    size_t n;
    int timed;  /* L depends on t (input 6n) */
    rptr qd, qdd, mu, D; /* 3n each */
};

static int factor_G(CL_FN(cl_lagr_core) *c, rsrc q);
static void legendre_mu(CL_FN(cl_lagr_core) *c, rptr mu, rsrc q);

int CL_FN(cl_lagr_s2_new)(CL_FN(cl_lagr_s2) **out, const cl_expr_dag *g, int L, size_t n, size_t nparam, cl_prec_t prec)
{
    *out = NULL;
    if (n == 0 || n > CL_LAGR_MAX_SPHERES) return CL_EDIM;
    size_t n3 = 3 * n;
    int timed = CL_FN(cl_lagr_s2_depends_on_time)(g, L, n);
    cl_lagr_layout lay = {.nq = n3, .nv = n3, .nt = 1, .ndiff = (size_t)timed, .nparam = nparam};
    CL_FN(cl_lagr_core) *c;
    int st = CL_FN(cl_lagr_core_new)(&c, sizeof(CL_FN(cl_lagr_s2)), g, L, &lay, 4 * n3, prec);
    if (st) return st;
    CL_FN(cl_lagr_s2) *lg = (CL_FN(cl_lagr_s2) *)c;
    lg->n = n;
    lg->timed = timed;
    lg->core.matrix = factor_G;
    lg->core.momentum = legendre_mu;
    RV_CARVE(lg->core.scratch, n3, &lg->qd, &lg->qdd, &lg->mu, &lg->D);
    *out = lg;
    return CL_OK;
}

void CL_FN(cl_lagr_s2_free)(CL_FN(cl_lagr_s2) *lg)
{
    if (!lg) return;
    CL_FN(cl_lagr_core_free)(&lg->core);
}

void CL_FN(cl_lagr_s2_set_param)(CL_FN(cl_lagr_s2) *lg, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&lg->core, k, v); }

void CL_FN(cl_lagr_s2_set_time)(CL_FN(cl_lagr_s2) *lg, rsrc t) { r_set(lg->core.in + 6 * lg->n, t); }

int CL_FN(cl_lagr_s2_set_forces)(CL_FN(cl_lagr_s2) *lg, const int *force) { return CL_FN(cl_lagr_core_set_forces)(&lg->core, force); }

void CL_FN(cl_lagr_s2_get_time)(const CL_FN(cl_lagr_s2) *lg, rptr t) { r_set(t, lg->core.in + 6 * lg->n); }

int CL_FN(cl_lagr_s2_timed)(const CL_FN(cl_lagr_s2) *lg) { return lg->timed; }

int CL_FN(cl_lagr_s2_depends_on_time)(const cl_expr_dag *g, int id, size_t n)
{
    return cl_expr_depends_on_input(g, id, (long)(6 * n));
}

int CL_FN(cl_lagr_s2_bad_node)(const CL_FN(cl_lagr_s2) *lg) { return lg->core.bad; }

/*
 * G = (I − q_iq_iᵀ) L_q̇q̇ + diag(q_iq_iᵀ) into c->M, factored: the matrix of
 * the accelerations and of the Legendre map's Newton step.
 */
static int factor_G(CL_FN(cl_lagr_core) *c, rsrc q)
{
    size_t n = c->lay.nq / 3, n3 = c->lay.nq, n6 = c->nin;
    R_DECL(s, c->prec);
    for (size_t b = 0; b < n3; b++)
        for (size_t sph = 0; sph < n; sph++) {
            rsrc qs = q + 3 * sph;
            /* s = q_s · (column b of the rows of sphere sph) */
            r_set_zero(s);
            for (int k = 0; k < 3; k++) r_addmul(s, qs + k, c->H + (3 * sph + (size_t)k) * n6 + n3 + b);
            for (int k = 0; k < 3; k++) {
                size_t a = 3 * sph + (size_t)k;
                rptr gab = c->M + a * n3 + b;
                r_set(gab, c->H + a * n6 + n3 + b);
                r_submul(gab, qs + k, s);
                if (b / 3 == sph) r_addmul(gab, qs + k, q + b);
            }
        }
    return CL_FN(cl_lu_factor)(c->M, c->perm, (int)n3);
}

/* q̈ into lg->qdd, after cl_lagr_core_derivs() at (q, q̇). */
static int accel(CL_FN(cl_lagr_s2) *lg, rsrc q, rsrc qdot)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t n3 = 3 * lg->n, n6 = c->nin;
    rptr r = lg->qdd;
    R_DECL(s, c->prec);
    R_DECL(v2, c->prec);
    int st = factor_G(c, q);
    if (st) return st;
    /* r = ∂L/∂q + F − L_q̇q q̇ − L_q̇t, then r_i ← (I − q_iq_iᵀ) r_i − ‖q̇_i‖² q_i */
    for (size_t a = 0; a < n3; a++) {
        r_set(r + a, c->grad + a);
        if (lg->core.force && lg->core.force[a] >= 0) r_add(r + a, r + a, CL_FN(cl_expr_eval_value)(c->ev, lg->core.force[a]));
    }
    CL_FN(cl_lagr_core_sub_mixed)(c, r, qdot);
    if (lg->timed)
        for (size_t a = 0; a < n3; a++) r_sub(r + a, r + a, c->H + a * n6 + 2 * n3);
    for (size_t i = 0; i < lg->n; i++) {
        rptr ri = r + 3 * i;
        rsrc qi = q + 3 * i;
        v3_dot(s, qi, ri);
        v3_dot(v2, qdot + 3 * i, qdot + 3 * i);
        r_add(s, s, v2);
        r_neg(s, s);
        v3_axpy(ri, s, qi);
    }
    return CL_FN(cl_lu_solve)(c->M, c->perm, r, (int)n3, 1);
}

int CL_FN(cl_lagr_s2_qddot)(CL_FN(cl_lagr_s2) *lg, rptr qdd, rsrc q, rsrc qdot)
{
    int st = CL_FN(cl_lagr_core_derivs)(&lg->core, q, qdot);
    if (!st) st = accel(lg, q, qdot);
    if (!st) CL_FN(cl_rvec_copy)(qdd, lg->qdd, 3 * lg->n);
    return st;
}

/*
 * μ = (I − q_iq_iᵀ) ∂L/∂q̇ from the last gradient: the momentum of the
 * Legendre map on (S²)ⁿ [S2 (20)], projected exactly also off the sphere so
 * that the Newton residual of cl_lagr_core_legendre_inverse can vanish there.
 */
static void legendre_mu(CL_FN(cl_lagr_core) *c, rptr mu, rsrc q)
{
    size_t n3 = c->lay.nq;
    for (size_t i = 0; i < n3; i += 3) v3_proj_plane(mu + i, q + i, c->grad + n3 + i);
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
    case CL_LAGR_MU: /* μ_i tangent at q_i, as the flow keeps it: a drift off the tangent plane has no q̇ */
        for (size_t i = 0; i < n; i++) v3_proj_plane(lg->mu + 3 * i, q + 3 * i, v + 3 * i);
        break;
    case CL_LAGR_PI:
        for (size_t i = 0; i < n; i++) v3_cross(lg->mu + 3 * i, v + 3 * i, q + 3 * i);
        break;
    default: return CL_EDIM;
    }
    /* (I − q_iq_iᵀ)∂L/∂q̇_i(q, q̇) = μ_i by Newton's method with the matrix G of the accelerations */
    return CL_FN(cl_lagr_core_legendre_inverse)(&lg->core, lg->qd, q, lg->mu);
}

int CL_FN(cl_lagr_s2_rhs)(CL_FN(cl_lagr_s2) *lg, int form, rptr dx, rsrc x)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t n = lg->n, n3 = 3 * n, n6 = c->nin;
    rsrc q = x;
    int st = to_qdot(lg, form, q, x + n3);
    if (!st) st = CL_FN(cl_lagr_core_derivs)(c, q, lg->qd);
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
        if (lg->timed) r_set(d, c->H + a * n6 + 2 * n3);
        else r_set_zero(d);
        for (size_t b = 0; b < n3; b++) {
            r_addmul(d, c->H + a * n6 + n3 + b, lg->qdd + b);
            r_addmul(d, c->H + a * n6 + b, lg->qd + b);
        }
    }
    RV_DECL(mudot, 3, c->prec);
    RV_DECL(mu, 3, c->prec);
    for (size_t i = 0; i < n; i++) {
        rsrc qi = q + 3 * i, qdi = lg->qd + 3 * i, Lv = c->grad + n3 + 3 * i;
        CL_FN(cl_lagr_s2_mudot)(mudot, qi, qdi, Lv, lg->D + 3 * i);
        if (form == CL_LAGR_MU) v3_set(dv + 3 * i, mudot);
        else { /* π̇_i = q̇_i × μ_i + q_i × μ̇_i, μ_i the tangential part of L_q̇ */
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
        st = CL_FN(cl_lagr_core_gradient)(&lg->core, x, lg->qd);
        if (st) return st;
        legendre_mu(&lg->core, lg->mu, x);
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
    if (!st) st = CL_FN(cl_lagr_core_gradient)(&lg->core, x, lg->qd);
    if (!st) r_set(out, lg->core.grad + 2 * n3);
    return st;
}

int CL_FN(cl_lagr_s2_value)(CL_FN(cl_lagr_s2) *lg, int id, int form, rptr out, rsrc x)
{
    int st = to_qdot(lg, form, x, x + 3 * lg->n);
    return st ? st : CL_FN(cl_lagr_core_value)(&lg->core, id, out, x, lg->qd);
}

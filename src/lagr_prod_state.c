/*
 * States of a product's Lagrangian (lagr_prod.h): unit vectors and
 * rotations cleaned within a tolerance, and states brought onto the
 * constraints (Newton's minimum-norm steps), their multipliers and values.
 */
#include <math.h>
#include <stdlib.h>
#include "lagr_prod.h"
#include "lagr_prod_engine_impl.h"
#include "lagr_so3.h"
#include "lie.h"
#include "linalg.h"
#include "r3.h"

/* A unit vector q and a velocity part v tangent to it, each within 2^tol_log2 (v relative to max(1, |v|)), cleaned. */
static int clean_sphere(rptr q, rptr v, double tol_log2, double *defect)
{
    R_DECL(s, r_prec(q));
    R_DECL(t, r_prec(q));
    v3_dot(s, q, q);
    r_sqrt(s, s);
    r_add_si(t, s, -1);
    *defect = CL_FN(cl_rvec_log2_maxabs)(t, 1);
    if (*defect > tol_log2) return CL_ENOTUNIT;
    for (int k = 0; k < 3; k++) r_div(q + k, q + k, s);
    v3_dot(s, q, v);
    double scale = CL_FN(cl_rvec_log2_maxabs)(v, 3);
    *defect = CL_FN(cl_rvec_log2_maxabs)(s, 1);
    if (*defect > tol_log2 + (scale > 0 ? scale : 0)) return CL_ENOTTANGENT;
    CL_FN(cl_lagr_prod_project3)(v, q, 1);
    return CL_OK;
}

/* A rotation R within 2^tol_log2 of SO(3), made orthogonal (as lagr_so3.h does). */
static int clean_rotation(rptr R, double tol_log2, double *defect)
{
    RV_DECL(x, 12, r_prec(R));
    CL_FN(cl_rvec_copy)(x, R, 9);
    int st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_ROMEGA, x, tol_log2, defect);
    if (!st) CL_FN(cl_rvec_copy)(R, x, 9);
    return st;
}

int CL_FN(cl_lagr_prod_project_state)(const cl_lagr_factor *f, size_t nf, int form, rptr x, double tol_log2, size_t *which,
                                      double *defect)
{
    *defect = -INFINITY;
    size_t nq, nv;
    slot s[CL_LAGR_PROD_MAX_FACTORS];
    if (nf == 0 || nf > CL_LAGR_PROD_MAX_FACTORS || CL_FN(cl_lagr_prod_place)(s, f, nf, &nq, &nv)) return CL_EDIM;
    if (form < CL_LAGR_PROD_VEL || form > CL_LAGR_PROD_DIST) return CL_EDIM;
    int dist = form == CL_LAGR_PROD_DIST; /* velocities of the admissible directions: no tangency of their own */
    if (!CL_FN(cl_rvec_is_finite)(x, dist ? nq : nq + nv)) return CL_ENAN;
    RV_DECL(zero, 3, r_prec(x));
    for (size_t i = 0; i < nf; i++) {
        int st = CL_OK;
        *which = i;
        if (s[i].ops->unit) st = clean_sphere(x + s[i].q, dist ? zero : x + nq + s[i].v, tol_log2, defect);
        else if (s[i].ops->rotation) st = clean_rotation(x + s[i].q, tol_log2, defect);
        if (st) return st;
    }
    *defect = -INFINITY;
    return CL_OK;
}

/* ------------------------------------------------------------ constrained states */

int CL_FN(cl_lagr_prod_multipliers)(CL_FN(cl_lagr_prod) *lg, int form, rptr lam, rsrc x)
{
    rptr dx = CL_FN(cl_rvec_new)(2 * (lg->nq + lg->nv), lg->core.prec), y = dx + lg->nq + lg->nv;
    if (!dx) return CL_ENOMEM;
    int st = form == CL_LAGR_PROD_DIST ? CL_FN(cl_lagr_prod_convert)(lg, form, x, CL_LAGR_PROD_VEL, y) : CL_OK; /* λ of the bordered system */
    if (form == CL_LAGR_PROD_DIST) x = y, form = CL_LAGR_PROD_VEL;
    if (!st) st = CL_FN(cl_lagr_prod_rhs)(lg, form, dx, x);
    if (!st) CL_FN(cl_rvec_copy)(lam, lg->lam, lg->nc);
    CL_FN(cl_rvec_free)(dx);
    return st;
}

/* The graph at (lg->q, lg->u) with partials; each constraint's value into lg->b (the velocity-level c, or h when \p holonomic). */
static int constraint_values(CL_FN(cl_lagr_prod) *lg, int holonomic)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    int st = CL_FN(cl_lagr_core_run)(c, lg->q, lg->u, c->upto, 2);
    for (size_t i = 0; i < lg->nc && !st; i++) {
        int id = holonomic ? lg->hol[i] : lg->con[i];
        if (id >= 0) r_set(lg->b + i, CL_FN(cl_expr_eval_value)(c->ev, id));
        else r_set_zero(lg->b + i);
    }
    return st;
}

/* A 3×3 block G of a gradient in the entries of R replaced by its part tangent to SO(3) at R: R skew(RᵀG). */
static void tangent_rotation(rptr G, rsrc R)
{
    RV_DECL(M, 9, r_prec(G));
    RV_DECL(eta, 3, r_prec(G));
    m3_transpose(M, R);
    m3_mul(M, M, G);
    m3_vee_skew2(eta, M);
    for (int k = 0; k < 3; k++) r_mul_2si(eta + k, eta + k, -1);
    m3_hat(M, eta);
    m3_mul(G, R, M);
}

/*
 * The minimum-norm correction −Jᵀ(JJᵀ)⁻¹v for the rows J_i = ∇_{in0 .. in0 + n} of node[i] (−1: a zero row), S² blocks
 * projected, into \p out (n); v the values in lg->b. 0 or CL_ESINGULAR (dependent rows).
 */
static int min_norm_step(CL_FN(cl_lagr_prod) *lg, const int *node, size_t in0, size_t n, rptr out)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    size_t nc = lg->nc, m = 0;
    rptr J = lg->A, G = lg->K, v = lg->y; /* J: m rows of n numbers */
    RV_DECL(row, CL_LAGR_PROD_MAX_DIM, c->prec);
    for (size_t i = 0; i < nc; i++) {
        if (node[i] < 0) continue;
        CL_FN(cl_expr_eval_gradient)(c->ev, node[i], lg->cg, (int)c->nin);
        CL_FN(cl_rvec_copy)(row, lg->cg + in0, n);
        for (size_t k = 0; k < lg->nf; k++) {
            if (lg->f[k].ops->unit) CL_FN(cl_lagr_prod_project3)(row + (in0 ? lg->f[k].v : lg->f[k].q), lg->q + lg->f[k].q, 1);
            else if (lg->f[k].ops->rotation && !in0) tangent_rotation(row + lg->f[k].q, lg->q + lg->f[k].q);
        }
        CL_FN(cl_rvec_copy)(J + m * n, row, n);
        r_set(v + m++, lg->b + i);
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            r_set_zero(G + i * m + j);
            for (size_t a = 0; a < n; a++) r_addmul(G + i * m + j, J + i * n + a, J + j * n + a);
        }
    int st = m ? CL_FN(cl_lu_factor)(G, lg->kperm, (int)m) : CL_OK;
    if (!st && m) st = CL_FN(cl_lu_solve)(G, lg->kperm, v, (int)m, 1);
    for (size_t a = 0; a < n && !st; a++) {
        r_set_zero(out + a);
        for (size_t i = 0; i < m; i++) r_submul(out + a, J + i * n + a, v + i);
    }
    return st;
}

/* The largest |value| in lg->b over the constraints with node[i] ≥ 0, its log2 in *d and its index in *which. */
static double worst(const CL_FN(cl_lagr_prod) *lg, const int *node, size_t *which)
{
    double d = -INFINITY;
    for (size_t i = 0; i < lg->nc; i++) {
        double e = node[i] >= 0 ? CL_FN(cl_rvec_log2_maxabs)(lg->b + i, 1) : -INFINITY;
        if (e > d) {
            d = e;
            *which = i;
        }
    }
    return d;
}

/*
 * The step dq (tangent to every rotation R at its block: dR = Rη̂) scaled so
 * that no |η| exceeds 1/2 (far from the constraint set a Newton step may turn
 * a rotation by any angle), then taken: R ← R exp(η̂) on SO(3), q + dq on the
 * other numbers.
 */
static int take_configuration_step(CL_FN(cl_lagr_prod) *lg, rptr dq)
{
    cl_prec_t prec = lg->core.prec;
    RV_DECL(M, 9, prec); RV_DECL(eta, 3 * CL_LAGR_PROD_MAX_FACTORS, prec); RV_DECL(E, 9, prec);
    R_DECL(s, prec);
    double big = 0;
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *f = lg->f + i;
        if (!f->ops->rotation) continue;
        m3_transpose(M, lg->q + f->q);
        m3_mul(M, M, dq + f->q);
        m3_vee_skew2(eta + 3 * i, M); /* Rᵀ dR = η̂, so this is 2η */
        for (int k = 0; k < 3; k++) r_mul_2si(eta + 3 * i + k, eta + 3 * i + k, -1);
        v3_norm(s, eta + 3 * i);
        big = fmax(big, r_get_d(s));
    }
    r_set_d(s, big > 0.5 ? 0.5 / big : 1.0);
    for (size_t a = 0; a < lg->nq; a++) r_mul(dq + a, dq + a, s);
    for (size_t i = 0; i < lg->nf; i++) {
        const slot *f = lg->f + i;
        size_t from = 0;
        if (f->ops->rotation) {
            for (int k = 0; k < 3; k++) r_mul(eta + 3 * i + k, eta + 3 * i + k, s);
            int st = CL_FN(cl_so3_exp)(E, eta + 3 * i);
            if (st) return st;
            m3_mul(lg->q + f->q, lg->q + f->q, E);
            from = 9;
        }
        for (size_t a = from; a < f->nq; a++) r_add(lg->q + f->q + a, lg->q + f->q + a, dq + f->q + a);
    }
    return CL_OK;
}

/* Newton's steps on the configuration toward h = 0 (unit vectors and rotations cleaned after each). */
static int clean_configuration(CL_FN(cl_lagr_prod) *lg)
{
    size_t which = 0;
    double dummy;
    RV_DECL(dq, CL_LAGR_PROD_MAX_DIM, lg->core.prec);
    for (int it = 0; it < 60; it++) {
        int st = constraint_values(lg, 1);
        if (st) return st;
        if (worst(lg, lg->hol, &which) < 8.0 - (double)lg->core.prec) return CL_OK;
        st = min_norm_step(lg, lg->hol, 0, lg->nq, dq);
        if (!st) st = take_configuration_step(lg, dq);
        if (st) return st;
        for (size_t i = 0; i < lg->nf; i++) {
            const slot *f = lg->f + i;
            if (f->ops->unit) st = clean_sphere(lg->q + f->q, lg->u + f->v, 0, &dummy);
            else if (f->ops->rotation) st = clean_rotation(lg->q + f->q, -1, &dummy);
            if (st) return st;
        }
    }
    return CL_ENOCONV;
}

int CL_FN(cl_lagr_prod_constraint_clean)(CL_FN(cl_lagr_prod) *lg, int form, rptr x, double tol_log2, size_t *which, double *defect)
{
    size_t nq = lg->nq, nv = lg->nv;
    *which = 0;
    *defect = -INFINITY;
    if (!lg->nc) return CL_OK;
    int st = CL_FN(cl_lagr_prod_load)(lg, form, x);
    if (!st) st = constraint_values(lg, 1);
    if (st) return st;
    *defect = worst(lg, lg->hol, which);
    if (*defect > tol_log2) return CL_EDOMAIN;
    st = constraint_values(lg, 0);
    if (st) return st;
    double scale = CL_FN(cl_rvec_log2_maxabs)(lg->u, nv);
    *defect = worst(lg, lg->con, which);
    if (*defect > tol_log2 + (scale > 0 ? scale : 0)) return CL_ENOTTANGENT;
    st = clean_configuration(lg);
    if (!st) st = constraint_values(lg, 0);
    if (!st) st = min_norm_step(lg, lg->con, nq, nv, lg->w);
    if (st) return st;
    for (size_t a = 0; a < nv; a++) r_add(lg->u + a, lg->u + a, lg->w + a);
    *defect = -INFINITY;
    CL_FN(cl_rvec_copy)(x, lg->q, nq);
    CL_FN(cl_rvec_copy)(x + nq, lg->u, nv);
    return form == CL_LAGR_PROD_VEL ? CL_OK : CL_FN(cl_lagr_prod_convert)(lg, CL_LAGR_PROD_VEL, x, form, x);
}

int CL_FN(cl_lagr_prod_constraint_values)(CL_FN(cl_lagr_prod) *lg, int form, rptr out, rsrc x)
{
    int st = CL_FN(cl_lagr_prod_load)(lg, form, x), k = 0;
    if (!st) st = constraint_values(lg, 1);
    for (size_t i = 0; i < lg->nc && !st; i++)
        if (lg->hol[i] >= 0) r_set(out + 2 * i, lg->b + i);
    if (!st) st = constraint_values(lg, 0);
    for (size_t i = 0; i < lg->nc && !st; i++) {
        if (lg->hol[i] >= 0) r_set(out + k++, out + 2 * i);
        if (form == CL_LAGR_PROD_DIST) r_set_zero(out + k++); /* the velocities solve the constraints by construction */
        else r_set(out + k++, lg->b + i);
    }
    return st ? st : k;
}

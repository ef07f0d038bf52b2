/**
 * \page ch_emb_general EMB 2 — Lagrangian and Hamiltonian dynamics on a manifold embedded in Rⁿ
 *
 * A configuration manifold M ⊂ Rⁿ is described by nothing more than its
 * orthogonal projection \f$P(x)\colon \mathbb R^n \to T_xM\f$ [EMB (2.2)],
 * \f[ (y - P(x)y)\cdot z = 0 \quad \text{for all } z \in T_xM, \f]
 * which is symmetric and idempotent. Hamilton's principle with variations
 * δx = P(x)y gives the Euler–Lagrange equation as the projection of the
 * ordinary one on Rⁿ [EMB (2.3)],
 * \f[ P(x)\Big\{ \frac{d}{dt}\frac{\partial L}{\partial \dot x} - \frac{\partial L}{\partial x}\Big\} = 0 , \f]
 * the Legendre transformation projects the momentum onto the (co)tangent
 * space, \f$ \mu = P^T(x)\,\partial L/\partial\dot x \f$ [EMB (2.4)], and the
 * phase-space principle, with the momentum constraint (I − Pᵀ)μ = 0 and the
 * Jacobian D = ∂(Pᵀμ)/∂x of [EMB (2.5)], gives Hamilton's equations
 * [EMB (2.7)–(2.8)]
 * \f[ \dot x = P\,\frac{\partial H}{\partial \mu},\qquad
 *     \dot \mu = -P\frac{\partial H}{\partial x} + \big\{ P D^T P + D P - P D^T \big\}\frac{\partial H}{\partial \mu}. \f]
 *
 * A user instantiates the machinery by filling a \ref cl_emb_model_d "cl_emb_model"
 * with P, its derivative DP[v], and L or H with their derivatives.
 * Equation (2.3) fixes only the tangential part of ẍ; the routines add the
 * normal part (I − P)ẍ = DP[ẋ]ẋ implied by ẋ staying tangent, so that
 * \ref cl_emb_el_accel_d "cl_emb_el_accel" is a vector field on TM. The printed (2.8) is
 * garbled by the text extraction; the code implements the form obtained by
 * adding (2.9) and (2.10) of the proof, which the oracle checks against
 * the specialized forms (3.4), (3.6), the two-spheres paper [S2 (23)] and
 * Euler's equation on SO(3).
 *
 * Routines: \ref cl_emb_el_residual_d "cl_emb_el_residual" (2.3),
 * \ref cl_emb_el_accel_d "cl_emb_el_accel", \ref cl_emb_legendre_d "cl_emb_legendre" (2.4),
 * \ref cl_emb_legendre_inv_d "cl_emb_legendre_inv",
 * \ref cl_emb_hamiltonian_from_lagrangian_d "cl_emb_hamiltonian_from_lagrangian",
 * \ref cl_emb_dproj_matrix_d "cl_emb_dproj_matrix" (2.5),
 * \ref cl_emb_hamilton_d "cl_emb_hamilton" (2.7)–(2.8),
 * \ref cl_emb_energy_rate_d "cl_emb_energy_rate".
 */
#include <stdlib.h>
#include "emb_general.h"
#include "emb_impl.h"

/* Scratch of the general routines, each part named by the one routine that
 * writes it (a routine calling another passes it only that routine's
 * outputs), so that callbacks never receive an output aliasing an input. */
struct CL_FN(cl_emb_work) {
    size_t n;
    cl_prec_t prec;
    rptr block;
    rptr K;   /* n×n: P L_ẋẋ P + I − P (tangent_mass), then its LU factors */
    rptr D;   /* n×n: the matrix (2.5) inside cl_emb_hamilton */
    struct { rptr e, pe, t, t2; } mass;          /* tangent_mass: eⱼ, P eⱼ, P L_ẋẋ P eⱼ, L_ẋẋ P eⱼ */
    struct { rptr e, col; } dcol;                /* cl_emb_dproj_matrix: eᵢ, DP[eᵢ]μ */
    struct { rptr pv; } tangent;                 /* cl_emb_check_tangent: P v − v */
    struct { rptr t1, t2, lx; } residual;        /* cl_emb_el_residual */
    struct { rptr c, rhs, t; } accel;            /* cl_emb_el_accel: DP[ẋ]ẋ, right-hand side, aₜ */
    struct { rptr g; } legendre;                 /* cl_emb_legendre: ∂L/∂ẋ */
    struct { rptr pm, res; } legendre_inv;       /* cl_emb_legendre_inv: P μ, Newton residual */
    struct { rptr v; } h_from_l;                 /* cl_emb_hamiltonian_from_lagrangian: ẋ */
    struct { rptr hx, hmu, xd, t, s, pt; } ham;  /* cl_emb_hamilton */
    struct { rptr hx, hmu; } rate;               /* cl_emb_energy_rate */
    struct { rptr a; } el_rhs;                   /* cl_emb_el_rhs: ẍ */
    struct { rptr xd, md; } ham_rhs;             /* cl_emb_hamilton_rhs: ẋ, μ̇ */
};

int CL_FN(cl_emb_work_new)(CL_FN(cl_emb_work) **out, size_t n, cl_prec_t prec)
{
#if CL_PREC == CL_DOUBLE
    prec = 53;
#endif
    *out = NULL;
    if (n < 1 || n > 64) return CL_EDIM;
    if (cl_prec_check(prec) != CL_OK) return CL_EPREC;
    CL_FN(cl_emb_work) *w = calloc(1, sizeof *w);
    if (!w) return CL_ENOMEM;
    rptr *vec[] = {
        &w->mass.e, &w->mass.pe, &w->mass.t, &w->mass.t2, &w->dcol.e, &w->dcol.col,
        &w->tangent.pv, &w->residual.t1, &w->residual.t2, &w->residual.lx,
        &w->accel.c, &w->accel.rhs, &w->accel.t, &w->legendre.g,
        &w->legendre_inv.pm, &w->legendre_inv.res, &w->h_from_l.v,
        &w->ham.hx, &w->ham.hmu, &w->ham.xd, &w->ham.t, &w->ham.s, &w->ham.pt,
        &w->rate.hx, &w->rate.hmu, &w->el_rhs.a, &w->ham_rhs.xd, &w->ham_rhs.md};
    size_t nvec = sizeof vec / sizeof *vec;
    w->n = n;
    w->prec = prec;
    w->block = CL_FN(cl_rvec_new)(2 * n * n + nvec * n, prec);
    if (!w->block) { free(w); return CL_ENOMEM; }
    rptr b = w->block;
    w->K = b; b += n * n;
    w->D = b; b += n * n;
    for (size_t i = 0; i < nvec; i++, b += n) *vec[i] = b;
    *out = w;
    return CL_OK;
}

void CL_FN(cl_emb_work_free)(CL_FN(cl_emb_work) *w)
{
    if (!w) return;
    CL_FN(cl_rvec_free)(w->block);
    free(w);
}

#define EMB_NEED(m, f) do { if (!(m)->f) return CL_EDOMAIN; } while (0)
#define EMB_TRY(call) do { int st_ = (call); if (st_) return st_; } while (0)

static int check_dims(const CL_FN(cl_emb_model) *m, const CL_FN(cl_emb_work) *w)
{
    return m && w && m->n == w->n ? CL_OK : CL_EDIM;
}

int CL_FN(cl_emb_check_tangent)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                                rsrc x, rsrc v, double tol_ulps)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj);
    size_t n = m->n;
    if (!CL_FN(cl_rvec_is_finite)(x, n) || !CL_FN(cl_rvec_is_finite)(v, n)) return CL_ENAN;
    rptr pv = w->tangent.pv;
    EMB_TRY(m->proj(m->ctx, pv, x, v));
    for (size_t i = 0; i < n; i++) r_sub(pv + i, pv + i, v + i);
    double scale = CL_FN(cl_rvec_log2_maxabs)(v, n);
    if (scale < 0) scale = 0;
    double tol = log2(tol_ulps) + 1.0 - (double)w->prec + scale;
    return CL_FN(cl_rvec_log2_maxabs)(pv, n) <= tol ? CL_OK : CL_ENOTTANGENT;
}

/** [EMB (2.3)]: r = P{L_ẋẋ a + L_ẋx ẋ − L_x}. */
int CL_FN(cl_emb_el_residual)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                              rptr r, rsrc x, rsrc v, rsrc a)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj); EMB_NEED(m, lag_dx); EMB_NEED(m, lag_dvdv); EMB_NEED(m, lag_dvdx);
    size_t n = m->n;
    rptr t1 = w->residual.t1, t2 = w->residual.t2, lx = w->residual.lx;
    EMB_TRY(m->lag_dvdv(m->ctx, t1, x, v, a));   /* L_ẋẋ a */
    EMB_TRY(m->lag_dvdx(m->ctx, t2, x, v, v));   /* L_ẋx ẋ */
    EMB_TRY(m->lag_dx(m->ctx, lx, x, v));
    for (size_t i = 0; i < n; i++) {
        r_add(t1 + i, t1 + i, t2 + i);
        r_sub(t1 + i, t1 + i, lx + i);
    }
    return m->proj(m->ctx, r, x, t1);
}

/* K = P L_ẋẋ P + I − P, the Legendre map on T_xM extended by the identity
 * on the normal space; column j is built from P eⱼ. Writes w->K. */
static int tangent_mass(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, rsrc x, rsrc v)
{
    size_t n = m->n;
    rptr e = w->mass.e, pe = w->mass.pe, t = w->mass.t, t2 = w->mass.t2;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < n; i++) r_set_zero(e + i);
        r_set_si(e + j, 1);
        EMB_TRY(m->proj(m->ctx, pe, x, e));
        EMB_TRY(m->lag_dvdv(m->ctx, t2, x, v, pe));
        EMB_TRY(m->proj(m->ctx, t, x, t2));
        for (size_t i = 0; i < n; i++) {
            r_sub(e + i, e + i, pe + i);       /* (I − P) eⱼ */
            r_add(w->K + i * n + j, t + i, e + i);
        }
    }
    return CL_OK;
}

int CL_FN(cl_emb_el_accel)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           rptr a, rsrc x, rsrc v)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj); EMB_NEED(m, dproj); EMB_NEED(m, lag_dx);
    EMB_NEED(m, lag_dvdv); EMB_NEED(m, lag_dvdx);
    size_t n = m->n;
    rptr c = w->accel.c, rhs = w->accel.rhs, t = w->accel.t;
    EMB_TRY(m->dproj(m->ctx, c, x, v, v));       /* normal part (I − P)ẍ = DP[ẋ]ẋ */
    EMB_TRY(m->lag_dx(m->ctx, rhs, x, v));
    EMB_TRY(m->lag_dvdx(m->ctx, t, x, v, v));
    for (size_t i = 0; i < n; i++) r_sub(rhs + i, rhs + i, t + i);
    EMB_TRY(m->lag_dvdv(m->ctx, t, x, v, c));
    for (size_t i = 0; i < n; i++) r_sub(rhs + i, rhs + i, t + i);
    EMB_TRY(m->proj(m->ctx, t, x, rhs));
    EMB_TRY(tangent_mass(m, w, x, v));
    EMB_TRY(emb_lu_solve(w->K, t, n, 1));
    for (size_t i = 0; i < n; i++) r_add(a + i, t + i, c + i);
    return CL_OK;
}

/** [EMB (2.4)]: μ = Pᵀ ∂L/∂ẋ. */
int CL_FN(cl_emb_legendre)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           rptr mu, rsrc x, rsrc v)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj); EMB_NEED(m, lag_dv);
    rptr g = w->legendre.g;
    EMB_TRY(m->lag_dv(m->ctx, g, x, v));
    return m->proj(m->ctx, mu, x, g);
}

int CL_FN(cl_emb_legendre_inv)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                               rptr v, rsrc x, rsrc mu)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj); EMB_NEED(m, lag_dv); EMB_NEED(m, lag_dvdv);
    size_t n = m->n;
    rptr pm = w->legendre_inv.pm, res = w->legendre_inv.res;
    EMB_TRY(m->proj(m->ctx, pm, x, mu));
    for (size_t i = 0; i < n; i++) r_set_zero(v + i);
    double scale = CL_FN(cl_rvec_log2_maxabs)(pm, n);
    if (scale < 0) scale = 0;
    double tol = log2(8.0 * (double)n) + 1.0 - (double)w->prec + scale;
    for (int it = 0; it < 50; it++) {
        EMB_TRY(CL_FN(cl_emb_legendre)(m, w, res, x, v));
        for (size_t i = 0; i < n; i++) r_sub(res + i, res + i, pm + i);
        int small = CL_FN(cl_rvec_log2_maxabs)(res, n) <= tol;
        EMB_TRY(tangent_mass(m, w, x, v));
        EMB_TRY(emb_lu_solve(w->K, res, n, 1));
        for (size_t i = 0; i < n; i++) r_sub(v + i, v + i, res + i);
        if (small) {
            for (size_t i = 0; i < n; i++) r_set(res + i, v + i);
            return m->proj(m->ctx, v, x, res);
        }
    }
    return CL_ENOCONV;
}

int CL_FN(cl_emb_hamiltonian_from_lagrangian)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                                              rptr H, rsrc x, rsrc mu)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, lagrangian);
    rptr v = w->h_from_l.v;
    EMB_TRY(CL_FN(cl_emb_legendre_inv)(m, w, v, x, mu));
    R_DECL(L, w->prec);
    EMB_TRY(m->lagrangian(m->ctx, L, x, v));
    emb_dot(H, mu, v, m->n);
    r_sub(H, H, L);
    return CL_OK;
}

/** [EMB (2.5)]: column i of D is DP(x)[eᵢ] μ. */
int CL_FN(cl_emb_dproj_matrix)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                               rptr D, rsrc x, rsrc mu)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, dproj);
    size_t n = m->n;
    rptr e = w->dcol.e, col = w->dcol.col;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < n; i++) r_set_zero(e + i);
        r_set_si(e + j, 1);
        EMB_TRY(m->dproj(m->ctx, col, x, e, mu));
        for (size_t i = 0; i < n; i++) r_set(D + i * n + j, col + i);
    }
    return CL_OK;
}

/** [EMB (2.7)–(2.8)]. */
int CL_FN(cl_emb_hamilton)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           rptr xdot, rptr mudot, rsrc x, rsrc mu)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, proj); EMB_NEED(m, dproj); EMB_NEED(m, ham_dx); EMB_NEED(m, ham_dmu);
    size_t n = m->n;
    rptr hx = w->ham.hx, hmu = w->ham.hmu, xd = w->ham.xd, t = w->ham.t, s = w->ham.s, pt = w->ham.pt;
    EMB_TRY(m->ham_dx(m->ctx, hx, x, mu));
    EMB_TRY(m->ham_dmu(m->ctx, hmu, x, mu));
    EMB_TRY(m->proj(m->ctx, xd, x, hmu));                 /* (2.7) ẋ = P H_μ */
    EMB_TRY(CL_FN(cl_emb_dproj_matrix)(m, w, w->D, x, mu));
    /* (2.9): P μ̇ = −P H_x + P Dᵀ(ẋ − H_μ). */
    for (size_t i = 0; i < n; i++) r_sub(s + i, xd + i, hmu + i);
    emb_matT_vec(t, w->D, s, n, n);
    for (size_t i = 0; i < n; i++) r_sub(t + i, t + i, hx + i);
    EMB_TRY(m->proj(m->ctx, pt, x, t));
    /* [EMB (2.10)]: (I − P) μ̇ = D ẋ, the derivative of the constraint (I − Pᵀ)μ = 0. */
    CL_FN(cl_mat_vec)(s, w->D, xd, (int)n, (int)n);
    for (size_t i = 0; i < n; i++) r_add(mudot + i, pt + i, s + i);
    for (size_t i = 0; i < n; i++) r_set(xdot + i, xd + i);
    return CL_OK;
}

int CL_FN(cl_emb_energy_rate)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                              rptr rate, rsrc x, rsrc mu, rsrc xdot, rsrc mudot)
{
    EMB_TRY(check_dims(m, w));
    EMB_NEED(m, ham_dx); EMB_NEED(m, ham_dmu);
    size_t n = m->n;
    rptr hx = w->rate.hx, hmu = w->rate.hmu;
    EMB_TRY(m->ham_dx(m->ctx, hx, x, mu));
    EMB_TRY(m->ham_dmu(m->ctx, hmu, x, mu));
    R_DECL(t, w->prec);
    emb_dot(rate, hx, xdot, n);
    emb_dot(t, hmu, mudot, n);
    r_add(rate, rate, t);
    return CL_OK;
}

int CL_FN(cl_emb_el_rhs)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, rptr ds, rsrc s)
{
    EMB_TRY(check_dims(m, w));
    size_t n = m->n;
    rptr a = w->el_rhs.a;
    EMB_TRY(CL_FN(cl_emb_el_accel)(m, w, a, s, s + n));
    for (size_t i = 0; i < n; i++) {
        r_set(ds + i, s + n + i);
        r_set(ds + n + i, a + i);
    }
    return CL_OK;
}

int CL_FN(cl_emb_hamilton_rhs)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, rptr ds, rsrc s)
{
    EMB_TRY(check_dims(m, w));
    size_t n = m->n;
    rptr xd = w->ham_rhs.xd, md = w->ham_rhs.md;
    EMB_TRY(CL_FN(cl_emb_hamilton)(m, w, xd, md, s, s + n));
    for (size_t i = 0; i < n; i++) {
        r_set(ds + i, xd + i);
        r_set(ds + n + i, md + i);
    }
    return CL_OK;
}

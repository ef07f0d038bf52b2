/**
 * \page ch_emb_so3 EMB 3.4 — the rigid body on SO(3)
 *
 * SO(3) is embedded in \f$\mathbb R^{3\times3}\f$ with the inner product V·W = tr(VᵀW); the
 * tangent space at R is {RΩ̂ : Ω ∈ R³} and the normal space {RS : S = Sᵀ}.
 * The orthogonal projection is [EMB (3.7)]
 * \f[ P(R, Y) = \tfrac12 R(R^TY - Y^TR) = \tfrac12(Y - RY^TR), \f]
 * orthogonal, \f$ (Y - P(R,Y))\cdot R\hat z = 0 \f$, and symmetric,
 * \f$ Z\cdot P(R,Y) = Y\cdot P(R,Z) \f$ (both checked by the oracle,
 * emb.so3.projection).
 *
 * The free rigid body with inertia J has the Lagrangian
 * \f$ L = \tfrac12\mathrm{tr}[\dot R J_d\dot R^T] \f$ with the non-standard
 * inertia \f$ J_d = \tfrac12\mathrm{tr}[J]I - J \f$, equal to ½ΩᵀJΩ for
 * Ṙ = RΩ̂. With ∂L/∂Ṙ = ṘJ_d, (2.3) and (3.7) give [EMB (3.8)]
 * \f[ \ddot R J_d - R J_d\ddot R^T R = 0, \f]
 * which, through R̈ = RΩ̂² + RΩ̇̂ and the hat-map identities, is Euler's
 * equation \f$ J\dot\Omega + \Omega\times J\Omega = 0 \f$. The code solves
 * (3.8) for R̈ numerically (\ref cl_emb_top_accel_38_d "cl_emb_top_accel_38"), without
 * those identities, and the oracle compares it with Euler's equation and
 * with the general machinery of \ref ch_emb_general on R⁹.
 *
 * The heavy top adds the potential m g e₃ᵀRρ of a centre of mass ρ = ℓχ on
 * a body axis; (3.8) gains the term m g(e₃ρᵀ − Rρe₃ᵀR), Euler's equation
 * the torque m g Γ × ρ with Γ = Rᵀe₃, and the flow keeps the Casimirs
 * |Γ|² and Γ·JΩ besides the energy.
 *
 * Two integrators carry the rigid body: RK4 on (R, Ṙ) through (3.8)
 * (\ref cl_emb_top_rk4_38_step_d "cl_emb_top_rk4_38_step"), which lets
 * RᵀR − I drift, and RKMK4 on (R, Ω) with the exponential of SO(3)
 * (\ref cl_emb_top_rkmk4_step_d "cl_emb_top_rkmk4_step"), which keeps R on the group.
 * Steady rotations about the principal axes are tested for stability by the
 * eigenvalues of the linearization on the Casimir sphere
 * (\ref cl_emb_rigid_steady_linearization_d "cl_emb_rigid_steady_linearization") and by the
 * Energy–Casimir method with the Casimir |Π|²
 * (\ref cl_emb_rigid_energy_casimir_d "cl_emb_rigid_energy_casimir"): stable about the axes of
 * largest and smallest inertia, unstable about the middle one.
 */
#include <stdlib.h>
#include "emb_so3.h"
#include "emb_impl.h"
#include "r3.h"

struct CL_FN(cl_emb_top) {
    rptr block;
    rptr J, Jinv, Jd, rho, mg;   /* 9, 9, 9, 3, 1 */
};

/* ----------------------------------------------------------- SO(3) basics */

/** [EMB (3.7)]. */
void CL_FN(cl_emb_so3_proj)(rptr P, rsrc R, rsrc Y)
{
    cl_prec_t p = r_prec(P);
    RV_DECL(T, 9, p); RV_DECL(Q, 9, p);
    m3_transpose(T, Y);
    m3_mul(Q, R, T);
    m3_mul(Q, Q, R);
    for (int k = 0; k < 9; k++) {
        r_sub(Q + k, Y + k, Q + k);
        r_mul_2si(P + k, Q + k, -1);
    }
}

void CL_FN(cl_emb_so3_dproj)(rptr out, rsrc R, rsrc V, rsrc Y)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(T, 9, p); RV_DECL(A, 9, p); RV_DECL(B, 9, p);
    m3_transpose(T, Y);
    m3_mul(A, V, T);
    m3_mul(A, A, R);
    m3_mul(B, R, T);
    m3_mul(B, B, V);
    for (int k = 0; k < 9; k++) {
        r_add(A + k, A + k, B + k);
        r_mul_2si(out + k, A + k, -1);
        r_neg(out + k, out + k);
    }
}

void CL_FN(cl_emb_so3_inner)(rptr d, rsrc V, rsrc W) { emb_dot(d, V, W, 9); }

void CL_FN(cl_emb_so3_vee)(rptr v, rsrc M)
{
    cl_prec_t p = r_prec(v);
    RV_DECL(t, 3, p);
    m3_vee_skew2(t, M);
    for (int i = 0; i < 3; i++) r_mul_2si(v + i, t + i, -1);
}

void CL_FN(cl_emb_so3_exp)(rptr R, rsrc theta) { CL_FN(cl_so3_exp)(R, theta); }

double CL_FN(cl_emb_so3_log2_orth_defect)(rsrc R)
{
    cl_prec_t p = r_prec(R);
    RV_DECL(T, 9, p); RV_DECL(Q, 9, p);
    m3_transpose(T, R);
    m3_mul(Q, T, R);
    for (int i = 0; i < 3; i++) r_add_si(Q + 4 * i, Q + 4 * i, -1);
    return CL_FN(cl_rvec_log2_maxabs)(Q, 9);
}

void CL_FN(cl_emb_so3_inertia_nonstandard)(rptr Jd, rsrc J)
{
    cl_prec_t p = r_prec(Jd);
    R_DECL(tr, p);
    r_add(tr, J, J + 4);
    r_add(tr, tr, J + 8);
    r_mul_2si(tr, tr, -1);
    for (int k = 0; k < 9; k++) r_neg(Jd + k, J + k);
    for (int i = 0; i < 3; i++) r_add(Jd + 4 * i, Jd + 4 * i, tr);
}

/* ---------------------------------------------------------- the top object */

static int top_create(CL_FN(cl_emb_top) **out, rsrc J)
{
    *out = NULL;
    if (!CL_FN(cl_rvec_is_finite)(J, 9)) return CL_ENAN;
    cl_prec_t p = r_prec(J);
    R_DECL(d, p); R_DECL(tol, p); R_DECL(m, p);
    /* symmetric to 8 ulps of the largest entry */
    for (int k = 0; k < 9; k++)
        if (r_cmpabs(J + k, m) > 0) r_abs(m, J + k);
    r_set_eps(tol);
    r_mul_si(tol, tol, 8);
    r_mul(tol, tol, m);
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) {
            r_sub(d, J + 3 * i + j, J + 3 * j + i);
            if (r_cmpabs(d, tol) > 0) return CL_EPARAM;
        }
    /* positive definite: leading principal minors > 0 */
    if (r_sgn(J) <= 0) return CL_EPARAM;
    r_mul(d, J, J + 4);
    r_submul(d, J + 1, J + 3);
    if (r_sgn(d) <= 0) return CL_EPARAM;
    CL_FN(cl_emb_top) *t = calloc(1, sizeof *t);
    if (!t) return CL_ENOMEM;
    t->block = CL_FN(cl_rvec_new)(31, p);
    if (!t->block) { free(t); return CL_ENOMEM; }
    t->J = t->block; t->Jinv = t->block + 9; t->Jd = t->block + 18;
    t->rho = t->block + 27; t->mg = t->block + 30;
    CL_FN(cl_rvec_copy)(t->J, J, 9);
    RV_DECL(A, 9, p);
    CL_FN(cl_rvec_copy)(A, J, 9);
    for (int i = 0; i < 3; i++) r_set_si(t->Jinv + 4 * i, 1);
    if (emb_lu_solve(A, t->Jinv, 3, 3) || r_sgn(t->Jinv + 8) <= 0) {
        CL_FN(cl_rvec_free)(t->block);
        free(t);
        return CL_EPARAM;
    }
    CL_FN(cl_emb_so3_inertia_nonstandard)(t->Jd, J);
    *out = t;
    return CL_OK;
}

int CL_FN(cl_emb_rigid_new)(CL_FN(cl_emb_top) **out, rsrc J) { return top_create(out, J); }

int CL_FN(cl_emb_heavy_top_new)(CL_FN(cl_emb_top) **out, rsrc J, rsrc m, rsrc g, rsrc rho)
{
    *out = NULL;
    if (!r_is_number(m) || !r_is_number(g) || !CL_FN(cl_rvec_is_finite)(rho, 3)) return CL_ENAN;
    if (r_sgn(m) < 0) return CL_EPARAM;
    int st = top_create(out, J);
    if (st) return st;
    r_mul((*out)->mg, m, g);
    v3_set((*out)->rho, rho);
    return CL_OK;
}

void CL_FN(cl_emb_top_free)(CL_FN(cl_emb_top) *t)
{
    if (!t) return;
    CL_FN(cl_rvec_free)(t->block);
    free(t);
}

void CL_FN(cl_emb_top_inertia)(const CL_FN(cl_emb_top) *t, rptr J, rptr Jinv, rptr Jd)
{
    if (J) CL_FN(cl_rvec_copy)(J, t->J, 9);
    if (Jinv) CL_FN(cl_rvec_copy)(Jinv, t->Jinv, 9);
    if (Jd) CL_FN(cl_rvec_copy)(Jd, t->Jd, 9);
}

/* V = m g (e₃ᵀ R ρ). */
static void potential(const CL_FN(cl_emb_top) *t, rptr V, rsrc R)
{
    v3_dot(V, R + 6, t->rho);
    r_mul(V, V, t->mg);
}

void CL_FN(cl_emb_top_lagrangian)(const CL_FN(cl_emb_top) *t, rptr L, rsrc R, rsrc Rdot)
{
    cl_prec_t p = r_prec(L);
    RV_DECL(A, 9, p);
    R_DECL(V, p);
    m3_mul(A, Rdot, t->Jd);
    emb_dot(L, A, Rdot, 9);           /* tr[Ṙ J_d Ṙᵀ] = Ṙ·(ṘJ_d) */
    r_mul_2si(L, L, -1);
    potential(t, V, R);
    r_sub(L, L, V);
}

/* ------------------------------------------------------ model callbacks */

static int top_proj(void *ctx, rptr out, rsrc x, rsrc y)
{
    CL_FN(cl_emb_so3_proj)(out, x, y);
    return CL_OK;
}

static int top_dproj(void *ctx, rptr out, rsrc x, rsrc v, rsrc y)
{
    CL_FN(cl_emb_so3_dproj)(out, x, v, y);
    return CL_OK;
}

static int top_lag(void *ctx, rptr L, rsrc x, rsrc v)
{
    CL_FN(cl_emb_top_lagrangian)(ctx, L, x, v);
    return CL_OK;
}

/* ∂L/∂R = −m g e₃ρᵀ. */
static int top_lag_dx(void *ctx, rptr g, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_top) *t = ctx;
    for (int k = 0; k < 6; k++) r_set_zero(g + k);
    for (int j = 0; j < 3; j++) {
        r_mul(g + 6 + j, t->mg, t->rho + j);
        r_neg(g + 6 + j, g + 6 + j);
    }
    return CL_OK;
}

static int top_lag_dv(void *ctx, rptr g, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_top) *t = ctx;
    m3_mul(g, v, t->Jd);
    return CL_OK;
}

static int top_lag_dvdv(void *ctx, rptr out, rsrc x, rsrc v, rsrc w)
{
    const CL_FN(cl_emb_top) *t = ctx;
    m3_mul(out, w, t->Jd);
    return CL_OK;
}

static int top_lag_dvdx(void *ctx, rptr out, rsrc x, rsrc v, rsrc w)
{
    for (int k = 0; k < 9; k++) r_set_zero(out + k);
    return CL_OK;
}

/* w = J⁻¹ξ with ξ = (skew Rᵀμ)^∨. */
static void top_xi(const CL_FN(cl_emb_top) *t, rptr xi, rptr w, rsrc R, rsrc mu)
{
    cl_prec_t p = r_prec(xi);
    RV_DECL(T, 9, p);
    m3_transpose(T, R);
    m3_mul(T, T, mu);
    CL_FN(cl_emb_so3_vee)(xi, T);
    m3_mul_v3(w, t->Jinv, xi);
}

static int top_ham(void *ctx, rptr H, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_top) *t = ctx;
    cl_prec_t p = r_prec(H);
    RV_DECL(xi, 3, p); RV_DECL(w, 3, p);
    R_DECL(V, p);
    top_xi(t, xi, w, x, mu);
    v3_dot(H, xi, w);
    r_mul_2si(H, H, 1);
    potential(t, V, x);
    r_add(H, H, V);
    return CL_OK;
}

/* g = 2A(J⁻¹ξ)^ at (R, μ) = (x, mu), for A = μ or R. */
static void twice_times_hat(const CL_FN(cl_emb_top) *t, rptr g, rsrc A, rsrc x, rsrc mu)
{
    cl_prec_t p = r_prec(g);
    RV_DECL(xi, 3, p); RV_DECL(w, 3, p); RV_DECL(W, 9, p);
    top_xi(t, xi, w, x, mu);
    m3_hat(W, w);
    m3_mul(g, A, W);
    for (int k = 0; k < 9; k++) r_mul_2si(g + k, g + k, 1);
}

/* ∂H/∂R = −2μ(J⁻¹ξ)^ + m g e₃ρᵀ. */
static int top_ham_dx(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_top) *t = ctx;
    twice_times_hat(t, g, mu, x, mu);
    for (int k = 0; k < 9; k++) r_neg(g + k, g + k);
    for (int j = 0; j < 3; j++) r_addmul(g + 6 + j, t->mg, t->rho + j);
    return CL_OK;
}

/* ∂H/∂μ = 2R(J⁻¹ξ)^. */
static int top_ham_dmu(void *ctx, rptr g, rsrc x, rsrc mu)
{
    twice_times_hat(ctx, g, x, x, mu);
    return CL_OK;
}

void CL_FN(cl_emb_top_model)(CL_FN(cl_emb_top) *t, CL_FN(cl_emb_model) *model)
{
    *model = EMB_MODEL(9, t, top);
}

/* ------------------------------------------------------ equations of motion */

/** [EMB (3.8)] with the heavy-top term. */
void CL_FN(cl_emb_top_residual_38)(const CL_FN(cl_emb_top) *t, rptr r, rsrc R, rsrc Rddot)
{
    cl_prec_t p = r_prec(r);
    RV_DECL(A, 9, p); RV_DECL(B, 9, p); RV_DECL(G, 9, p);
    m3_mul(A, Rddot, t->Jd);                 /* R̈ J_d */
    m3_transpose(B, Rddot);
    m3_mul(B, t->Jd, B);
    m3_mul(B, R, B);
    m3_mul(B, B, R);                         /* R J_d R̈ᵀ R */
    /* m g (e₃ρᵀ − Rρ e₃ᵀR): G = Rρ e₃ᵀ R has rows (Rρ)ᵢ (row 3 of R). */
    RV_DECL(Rr, 3, p);
    m3_mul_v3(Rr, R, t->rho);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r_mul(G + 3 * i + j, Rr + i, R + 6 + j);
            if (i == 2) r_sub(G + 3 * i + j, G + 3 * i + j, t->rho + j);
            r_mul(G + 3 * i + j, G + 3 * i + j, t->mg);
        }
    for (int k = 0; k < 9; k++) {
        r_sub(A + k, A + k, B + k);
        r_sub(r + k, A + k, G + k);
    }
}

int CL_FN(cl_emb_top_accel_38)(const CL_FN(cl_emb_top) *t, rptr Rddot, rsrc R, rsrc Rdot)
{
    cl_prec_t p = r_prec(Rddot);
    RV_DECL(Rt, 9, p); RV_DECL(Om, 3, p); RV_DECL(Oh, 9, p); RV_DECL(Z0, 9, p);
    RV_DECL(Z, 9, p); RV_DECL(res, 9, p); RV_DECL(S, 9, p); RV_DECL(r0, 3, p);
    RV_DECL(A, 9, p); RV_DECL(col, 3, p); RV_DECL(e, 3, p); RV_DECL(W, 9, p);
    m3_transpose(Rt, R);
    m3_mul(S, Rt, Rdot);
    CL_FN(cl_emb_so3_vee)(Om, S);
    m3_hat(Oh, Om);
    m3_mul(Z0, Oh, Oh);
    m3_mul(Z0, R, Z0);                       /* normal part R Ω̂² */
    CL_FN(cl_emb_top_residual_38)(t, res, R, Z0);
    m3_mul(S, Rt, res);
    CL_FN(cl_emb_so3_vee)(r0, S);
    for (int i = 0; i < 3; i++) {
        v3_zero(e);
        r_set_si(e + i, 1);
        m3_hat(W, e);
        m3_mul(W, R, W);
        for (int k = 0; k < 9; k++) r_add(Z + k, Z0 + k, W + k);
        CL_FN(cl_emb_top_residual_38)(t, res, R, Z);
        m3_mul(S, Rt, res);
        CL_FN(cl_emb_so3_vee)(col, S);
        for (int j = 0; j < 3; j++) r_sub(A + 3 * j + i, col + j, r0 + j);
    }
    v3_neg(r0, r0);
    int st = emb_lu_solve(A, r0, 3, 1);
    if (st) return st;
    m3_hat(W, r0);
    m3_mul(W, R, W);
    for (int k = 0; k < 9; k++) r_add(Rddot + k, Z0 + k, W + k);
    return CL_OK;
}

void CL_FN(cl_emb_top_euler)(const CL_FN(cl_emb_top) *t, rptr Omegadot, rsrc Omega, rsrc Gamma)
{
    cl_prec_t p = r_prec(Omegadot);
    RV_DECL(Pi, 3, p); RV_DECL(f, 3, p); RV_DECL(g, 3, p);
    m3_mul_v3(Pi, t->J, Omega);
    v3_cross(f, Pi, Omega);
    if (Gamma && !r_is_zero(t->mg)) {
        v3_cross(g, Gamma, t->rho);
        v3_axpy(f, t->mg, g);
    }
    m3_mul_v3(Omegadot, t->Jinv, f);
}

void CL_FN(cl_emb_top_reduced_rhs)(const CL_FN(cl_emb_top) *t, rptr Pidot, rptr Gammadot,
                                   rsrc Pi, rsrc Gamma)
{
    cl_prec_t p = r_prec(Pidot);
    RV_DECL(Om, 3, p); RV_DECL(f, 3, p); RV_DECL(g, 3, p);
    m3_mul_v3(Om, t->Jinv, Pi);
    v3_cross(f, Pi, Om);
    v3_cross(g, Gamma, t->rho);
    v3_axpy(f, t->mg, g);
    v3_cross(g, Gamma, Om);
    v3_set(Pidot, f);
    v3_set(Gammadot, g);
}

void CL_FN(cl_emb_top_momentum)(const CL_FN(cl_emb_top) *t, rptr mu, rsrc R, rsrc Omega)
{
    cl_prec_t p = r_prec(mu);
    RV_DECL(Pi, 3, p); RV_DECL(H, 9, p);
    m3_mul_v3(Pi, t->J, Omega);
    m3_hat(H, Pi);
    m3_mul(mu, R, H);
    for (int k = 0; k < 9; k++) r_mul_2si(mu + k, mu + k, -1);
}

void CL_FN(cl_emb_top_body_momentum)(rptr Pi, rsrc R, rsrc mu)
{
    cl_prec_t p = r_prec(Pi);
    RV_DECL(T, 9, p);
    m3_transpose(T, R);
    m3_mul(T, T, mu);
    CL_FN(cl_emb_so3_vee)(Pi, T);
    for (int i = 0; i < 3; i++) r_mul_2si(Pi + i, Pi + i, 1);
}

void CL_FN(cl_emb_top_invariants)(const CL_FN(cl_emb_top) *t, rptr out, rsrc R, rsrc Omega)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(Pi, 3, p); RV_DECL(Ga, 3, p);
    R_DECL(V, p);
    m3_mul_v3(Pi, t->J, Omega);
    for (int i = 0; i < 3; i++) r_set(Ga + i, R + 6 + i);   /* Γ = Rᵀe₃ = third row of R */
    v3_dot(out, Pi, Omega);
    r_mul_2si(out, out, -1);
    potential(t, V, R);
    r_add(out, out, V);
    v3_dot(out + 1, Pi, Pi);
    m3_mul_v3(out + 2, R, Pi);
    v3_dot(out + 5, Ga, Pi);
    v3_dot(out + 6, Ga, Ga);
}

/* ------------------------------------------------------------ integrators */

int CL_FN(cl_emb_top_rk4_38_step)(const CL_FN(cl_emb_top) *t, rptr R, rptr Rdot, rsrc h)
{
    cl_prec_t p = r_prec(R);
    RV_DECL(kx, 36, p); RV_DECL(kv, 36, p); RV_DECL(X, 9, p); RV_DECL(V, 9, p);
    R_DECL(c, p);
    static const int num[4] = {0, 1, 1, 2}; /* stage offsets h·num/2 */
    for (int s = 0; s < 4; s++) {
        r_mul_si(c, h, num[s]);
        r_mul_2si(c, c, -1);
        for (int k = 0; k < 9; k++) {
            r_set(X + k, R + k);
            r_set(V + k, Rdot + k);
            if (s > 0) {
                r_addmul(X + k, c, kx + 9 * (s - 1) + k);
                r_addmul(V + k, c, kv + 9 * (s - 1) + k);
            }
        }
        CL_FN(cl_rvec_copy)(kx + 9 * s, V, 9);
        int st = CL_FN(cl_emb_top_accel_38)(t, kv + 9 * s, X, V);
        if (st) return st;
    }
    r_div_si(c, h, 6);
    for (int k = 0; k < 9; k++) {
        r_set(X + k, kx + k);
        r_set(V + k, kv + k);
        for (int s = 1; s < 3; s++) {
            r_mul_2si(kx + 9 * s + k, kx + 9 * s + k, 1);
            r_mul_2si(kv + 9 * s + k, kv + 9 * s + k, 1);
            r_add(X + k, X + k, kx + 9 * s + k);
            r_add(V + k, V + k, kv + 9 * s + k);
        }
        r_add(X + k, X + k, kx + 27 + k);
        r_add(V + k, V + k, kv + 27 + k);
        r_addmul(R + k, c, X + k);
        r_addmul(Rdot + k, c, V + k);
    }
    return CL_OK;
}

/* θ′ = dexp⁻¹₋θ Ω truncated after ad² (enough for order 4):
 * Ω + ½ θ×Ω + (1/12) θ×(θ×Ω), by the Bernoulli series of src/lie on so(3) ⊂ se(3). */
static void dexpinv(rptr out, rsrc theta, rsrc Om)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(xi, 6, p); RV_DECL(eta, 6, p);
    v3_neg(xi, theta);
    v3_set(eta, Om);
    CL_FN(cl_se3_dexpinv_series)(eta, xi, eta, 2);
    v3_set(out, eta);
}

void CL_FN(cl_emb_top_rkmk4_step)(const CL_FN(cl_emb_top) *t, rptr R, rptr Omega, rsrc h)
{
    cl_prec_t p = r_prec(R);
    RV_DECL(kth, 12, p); RV_DECL(kom, 12, p);
    RV_DECL(th, 3, p); RV_DECL(Om, 3, p); RV_DECL(E, 9, p); RV_DECL(Rs, 9, p); RV_DECL(Ga, 3, p);
    R_DECL(c, p);
    static const int num[4] = {0, 1, 1, 2};
    for (int s = 0; s < 4; s++) {
        r_mul_si(c, h, num[s]);
        r_mul_2si(c, c, -1);
        v3_zero(th);
        v3_set(Om, Omega);
        if (s > 0) {
            v3_axpy(th, c, kth + 3 * (s - 1));
            v3_axpy(Om, c, kom + 3 * (s - 1));
        }
        CL_FN(cl_emb_so3_exp)(E, th);
        m3_mul(Rs, R, E);
        for (int i = 0; i < 3; i++) r_set(Ga + i, Rs + 6 + i);
        dexpinv(kth + 3 * s, th, Om);
        CL_FN(cl_emb_top_euler)(t, kom + 3 * s, Om, Ga);
    }
    v3_zero(th);
    v3_zero(Om);
    for (int s = 0; s < 4; s++) {
        r_set_si(c, (s == 1 || s == 2) ? 2 : 1);
        v3_axpy(th, c, kth + 3 * s);
        v3_axpy(Om, c, kom + 3 * s);
    }
    r_div_si(c, h, 6);
    v3_scale(th, c, th);
    v3_axpy(Omega, c, Om);
    CL_FN(cl_emb_so3_exp)(E, th);
    m3_mul(R, R, E);
}

/* ------------------------------------------------- problem for src/lie */

static int lie_field(void *ctx, rptr xi, rsrc y)
{
    const CL_FN(cl_emb_top) *t = ctx;
    v3_neg(xi, y + 9);
    CL_FN(cl_emb_top_euler)(t, xi + 3, y + 9, y + 6);   /* Γ = third row of R */
    return CL_OK;
}

static int lie_exp_act(void *ctx, rptr yo, rsrc xi, rsrc y)
{
    cl_prec_t p = r_prec(yo);
    RV_DECL(E, 9, p); RV_DECL(u, 3, p);
    v3_neg(u, xi);
    CL_FN(cl_emb_so3_exp)(E, u);            /* exp(û)ᵀ = exp(−û) */
    m3_mul(yo, y, E);
    v3_add(yo + 9, y + 9, xi + 3);
    return CL_OK;
}

static int lie_dexpinv(void *ctx, rptr out, rsrc xi, rsrc eta)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(a, 6, p); RV_DECL(b, 6, p);
    v3_set(a, xi);
    v3_set(b, eta);
    int st = CL_FN(cl_se3_dexpinv)(b, a, b);
    if (st) return st;
    v3_set(out, b);
    v3_set(out + 3, eta + 3);
    return CL_OK;
}

static int lie_bracket(void *ctx, rptr out, rsrc xi, rsrc eta)
{
    v3_cross(out, xi, eta);
    v3_zero(out + 3);
    return CL_OK;
}

void CL_FN(cl_emb_top_lie_problem)(CL_FN(cl_emb_top) *t, CL_FN(cl_lie_problem) *pb)
{
    pb->dim_m = 12;
    pb->dim_g = 6;
    pb->ctx = t;
    pb->field = lie_field;
    pb->exp_act = lie_exp_act;
    pb->dexpinv = lie_dexpinv;
    pb->bracket = lie_bracket;
}

/* ---------------------------------------------------------------- stability */

/* Orthonormal basis t1, t2 of Π₀⊥: t1 from the axis eⱼ least aligned with Π₀. */
static int tangent_basis(rptr t1, rptr t2, rsrc Pi0)
{
    cl_prec_t p = r_prec(t1);
    R_DECL(nrm, p); R_DECL(c, p);
    RV_DECL(n, 3, p);
    v3_norm(nrm, Pi0);
    if (r_is_zero(nrm) || !r_is_number(nrm)) return CL_EDOMAIN;
    for (int i = 0; i < 3; i++) r_div(n + i, Pi0 + i, nrm);
    int j = 0;
    for (int i = 1; i < 3; i++)
        if (r_cmpabs(n + i, n + j) < 0) j = i;
    v3_zero(t1);
    r_set_si(t1 + j, 1);
    v3_proj_tangent(t1, n, t1);
    v3_norm(c, t1);
    for (int i = 0; i < 3; i++) r_div(t1 + i, t1 + i, c);
    v3_cross(t2, n, t1);
    return CL_OK;
}

/* S = Tᵀ M T (2×2) for T = [t1 t2]. */
static void restrict2(rptr S, rsrc M, rsrc t1, rsrc t2)
{
    cl_prec_t p = r_prec(S);
    RV_DECL(u, 3, p);
    m3_mul_v3(u, M, t1);
    v3_dot(S, t1, u);
    v3_dot(S + 2, t2, u);
    m3_mul_v3(u, M, t2);
    v3_dot(S + 1, t1, u);
    v3_dot(S + 3, t2, u);
}

int CL_FN(cl_emb_rigid_steady_linearization)(const CL_FN(cl_emb_top) *t, rptr tr, rptr det,
                                             rptr first_var, rsrc Pi0)
{
    cl_prec_t p = r_prec(tr);
    RV_DECL(t1, 3, p); RV_DECL(t2, 3, p); RV_DECL(w, 3, p);
    RV_DECL(B, 9, p); RV_DECL(H, 9, p); RV_DECL(S, 4, p);
    R_DECL(n2, p);
    int st = tangent_basis(t1, t2, Pi0);
    if (st) return st;
    m3_mul_v3(w, t->Jinv, Pi0);
    m3_hat(H, Pi0);
    m3_mul(B, H, t->Jinv);
    m3_hat(H, w);
    for (int k = 0; k < 9; k++) r_sub(B + k, B + k, H + k);
    restrict2(S, B, t1, t2);
    r_add(tr, S, S + 3);
    r_mul(det, S, S + 3);
    r_submul(det, S + 1, S + 2);
    v3_cross(w, Pi0, w);
    v3_norm(first_var, w);
    v3_dot(n2, Pi0, Pi0);
    r_div(first_var, first_var, n2);
    return st;
}

int CL_FN(cl_emb_rigid_energy_casimir)(const CL_FN(cl_emb_top) *t, rptr eig, rptr first_var, rsrc Pi0)
{
    cl_prec_t p = r_prec(eig);
    RV_DECL(t1, 3, p); RV_DECL(t2, 3, p); RV_DECL(w, 3, p);
    RV_DECL(Hc, 9, p); RV_DECL(S, 4, p);
    R_DECL(n2, p); R_DECL(c2, p);
    int st = tangent_basis(t1, t2, Pi0);
    if (st) return st;
    m3_mul_v3(w, t->Jinv, Pi0);
    v3_dot(n2, Pi0, Pi0);
    v3_dot(c2, Pi0, w);
    r_div(c2, c2, n2);
    r_neg(c2, c2);                            /* 2C′ = −Π₀ᵀJ⁻¹Π₀/|Π₀|² */
    v3_axpy(w, c2, Pi0);                      /* δΦ = J⁻¹Π₀ + 2C′Π₀ */
    v3_norm(first_var, w);
    r_sqrt(n2, n2);
    r_div(first_var, first_var, n2);
    CL_FN(cl_rvec_copy)(Hc, t->Jinv, 9);
    for (int i = 0; i < 3; i++) r_add(Hc + 4 * i, Hc + 4 * i, c2);
    restrict2(S, Hc, t1, t2);
    CL_FN(cl_sym2_eig)(eig, S);
    return CL_OK;
}

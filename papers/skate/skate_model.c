/**
 * \page ch_skate_model SKATE §2 — the pendulum skate: broken symmetry in the Lagrangian and the constraints
 *
 * The pendulum skate of Gzenda and Putkaradze is a blade sliding without
 * friction on the ice with a pendulum rigidly attached; its configuration is
 * (R, x) ∈ SE(3). With body velocities (Ω, Y) = (RᵀṘ, Rᵀẋ) ∈ se(3) ≅ R³×R³
 * and the advected parameter Γ = Rᵀe₃ (the upward vertical seen from the
 * body), gravity and the rink become SE(3)-invariant and the reduced
 * Lagrangian is [SKATE (7)]
 * \f[ \ell(Ω, Y, Γ) = \tfrac12 Ω^T\mathbb IΩ + \tfrac m2\|Y + lΩ\times E_3\|^2 - mgl\,Γ^TE_3, \f]
 * or expanded [SKATE (34)], with \f$\bar I_i = I_i + ml^2\f$ (i = 1, 2),
 * \f[ \ell = \tfrac12 Ω^T\bar{\mathbb I}Ω + ml\,Ω\cdot(E_3\times Y) + \tfrac m2\|Y\|^2 - mglΓ_3 . \f]
 * Γ evolves by \f$\dotΓ = Γ\timesΩ\f$. The rink imposes three constraints on
 * ξ = (Ω, Y) (Examples 3 and 8): pitch constancy Γ₁ = 0 (19), whose rate is
 * ψ¹ = (E₁×Γ, 0); continuous contact ψ² = (0, Γ); no side sliding
 * ψ³ = (0, E₁×Γ). A state z = (Ω, Y, Γ) is consistent when |Γ| = 1,
 * Γ₁ = 0 and ⟨ψᵃ(Γ), ξ⟩ = 0 for a = 1, 2, 3.
 *
 * Functions: cl_skate_lagrangian(),
 * cl_skate_lagrangian_34(),
 * cl_skate_gram(), cl_skate_momenta(),
 * cl_skate_psi(),
 * cl_skate_constraint_residuals(),
 * cl_skate_check_z().
 *
 * \page ch_skate_nhep SKATE §3 — nonholonomic Euler–Poincaré equations with multipliers
 *
 * Proposition 5 turns the Lagrange–d'Alembert principle with the broken
 * symmetry into the nonholonomic Euler–Poincaré equations (17); for the
 * skate, with \f$\mathrm{ad}^*_{(Ω,Y)}(Π, P) = (Π\timesΩ + P\times Y,\ P\timesΩ)\f$ and K(y, Γ) = (y×Γ, 0)
 * (20), they read [SKATE (21)]
 * \f[ \tfrac{d}{dt}\tfrac{\partial\ell}{\partialΩ} = \tfrac{\partial\ell}{\partialΩ}\timesΩ + \tfrac{\partial\ell}{\partial Y}\times Y + \tfrac{\partial\ell}{\partialΓ}\timesΓ + λ_1 E_1\timesΓ,\qquad
 *     \tfrac{d}{dt}\tfrac{\partial\ell}{\partial Y} = \tfrac{\partial\ell}{\partial Y}\timesΩ + λ_2Γ + λ_3E_1\timesΓ,\qquad \dotΓ = Γ\timesΩ . \f]
 * Since (∂ℓ/∂Ω, ∂ℓ/∂Y) = 𝔾ξ with a constant 𝔾, these are 𝔾ξ̇ = F(z) + Ψᵀλ
 * with Ψ the 3×6 matrix of the ψᵃ. The multipliers follow from keeping the
 * constraints: \f$\tfrac{d}{dt}⟨ψ^a(Γ), ξ⟩ = Ψ\dotξ + ⟨ψ^a(\dotΓ), ξ⟩ = 0\f$,
 * so \f$(Ψ𝔾^{-1}Ψ^T)λ = -Ψ𝔾^{-1}F - b\f$ with \f$b_a = ⟨ψ^a(\dotΓ), ξ⟩\f$ — a 3×3
 * solve — and then ξ̇ = 𝔾⁻¹(F + Ψᵀλ). This is the z-form; the oracle sets it
 * beside the quasivelocity form of §5.
 *
 * With the internal rotor of §6 the same construction runs on (Ω, Y, θ̇)
 * with the 7×7 tensor of (55) and the rotor equation π̇ = u (44b).
 *
 * Functions: cl_skate_rhs_z(),
 * cl_skate_rhs_z_rotor(),
 * cl_skate_energy_z().
 */
#include "r3.h"
#include "skate.h"
#include "linalg.h"

#define P_(k) (par + CL_SKATE_##k)

int CL_FN(cl_skate_params_check)(rsrc par, int need_I2_gt_I3)
{
    if (!CL_FN(cl_rvec_is_finite)(par, CL_SKATE_NPAR)) return CL_ENAN;
    if (r_sgn(P_(M)) <= 0 || r_sgn(P_(L)) <= 0 || r_sgn(P_(G)) < 0) return CL_EPARAM;
    for (int i = 0; i < 3; i++) {
        if (r_sgn(par + CL_SKATE_I1 + i) <= 0) return CL_EPARAM;
        if (r_sgn(par + CL_SKATE_J1 + i) < 0) return CL_EPARAM;
    }
    if (need_I2_gt_I3 && r_cmp(P_(I2), P_(I3)) <= 0) return CL_EPARAM;
    return CL_OK;
}

/** [SKATE (7)] */
void CL_FN(cl_skate_lagrangian)(rptr ell, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(ell);
    RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    R_DECL(s, p); R_DECL(t, p);
    rsrc Om = z, Y = z + 3, Ga = z + 6;
    /* ½ ΩᵀIΩ */
    r_set_zero(s);
    for (int i = 0; i < 3; i++) { r_sqr(t, Om + i); r_addmul(s, t, par + CL_SKATE_I1 + i); }
    /* m/2 |Y + lΩ×E₃|² */
    r_set_si(e3 + 2, 1);
    v3_cross(w, Om, e3);
    for (int i = 0; i < 3; i++) r_fma(w + i, P_(L), w + i, Y + i);
    v3_dot(t, w, w);
    r_addmul(s, t, P_(M));
    r_mul_2si(s, s, -1);
    /* − mgl ΓᵀE₃ */
    r_mul(t, P_(M), P_(G));
    r_mul(t, t, P_(L));
    r_submul(s, t, Ga + 2);
    r_set(ell, s);
}

/** [SKATE (34)] */
void CL_FN(cl_skate_lagrangian_34)(rptr ell, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(ell);
    RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    R_DECL(s, p); R_DECL(t, p); R_DECL(ml, p); R_DECL(Ib, p);
    rsrc Om = z, Y = z + 3, Ga = z + 6;
    r_mul(ml, P_(M), P_(L));
    r_set_zero(s);
    for (int i = 0; i < 3; i++) {
        r_set(Ib, par + CL_SKATE_I1 + i);
        if (i < 2) r_addmul(Ib, ml, P_(L));
        r_sqr(t, Om + i);
        r_addmul(s, t, Ib);
    }
    v3_dot(t, Y, Y);
    r_addmul(s, t, P_(M));
    r_mul_2si(s, s, -1);
    r_set_si(e3 + 2, 1);
    v3_cross(w, e3, Y);
    v3_dot(t, Om, w);
    r_addmul(s, ml, t);
    r_mul(t, ml, P_(G));
    r_submul(s, t, Ga + 2);
    r_set(ell, s);
}

/** 𝔾 of [SKATE (28)], with the rotor as in (55). */
void CL_FN(cl_skate_gram)(rptr G, rsrc par, int rotor)
{
    cl_prec_t p = r_prec(G);
    int n = rotor ? 7 : 6;
    R_DECL(ml, p); R_DECL(ml2, p);
    r_mul(ml, P_(M), P_(L));
    r_mul(ml2, ml, P_(L));
    for (int k = 0; k < n * n; k++) r_set_zero(G + k);
    for (int i = 0; i < 3; i++) {
        r_set(G + i * n + i, par + CL_SKATE_I1 + i);
        if (rotor) r_add(G + i * n + i, G + i * n + i, par + CL_SKATE_J1 + i);
        if (i < 2) r_add(G + i * n + i, G + i * n + i, ml2);
        r_set(G + (3 + i) * n + 3 + i, P_(M));
    }
    /* ml Ω·(E₃×Y) = ml(Ω₂Y₁ − Ω₁Y₂) */
    r_neg(G + 0 * n + 4, ml); r_neg(G + 4 * n + 0, ml);
    r_set(G + 1 * n + 3, ml); r_set(G + 3 * n + 1, ml);
    if (rotor) {
        r_set(G + 0 * n + 6, P_(J1));
        r_set(G + 6 * n + 0, P_(J1));
        r_set(G + 6 * n + 6, P_(J1));
    }
}

/** Π = ĪΩ + ml E₃×Y, P = m(Y + lΩ×E₃) [SKATE §5.1]. */
void CL_FN(cl_skate_momenta)(rptr mu, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(mu);
    RV_DECL(G, 36, p); RV_DECL(out, 6, p);
    CL_FN(cl_skate_gram)(G, par, 0);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) r_addmul(out + i, G + 6 * i + j, z + j);
    CL_FN(cl_rvec_copy)(mu, out, 6);
}

/** ψ¹, ψ², ψ³ of Examples 3 and 8 [SKATE (19)]. */
void CL_FN(cl_skate_psi)(rptr Psi, rsrc Gamma)
{
    cl_prec_t p = r_prec(Psi);
    RV_DECL(e1, 3, p); RV_DECL(w, 3, p);
    r_set_si(e1, 1);
    v3_cross(w, e1, Gamma);
    for (int k = 0; k < 18; k++) r_set_zero(Psi + k);
    for (int i = 0; i < 3; i++) {
        r_set(Psi + i, w + i);            /* ψ¹ = (E₁×Γ, 0) */
        r_set(Psi + 6 + 3 + i, Gamma + i); /* ψ² = (0, Γ) */
        r_set(Psi + 12 + 3 + i, w + i);   /* ψ³ = (0, E₁×Γ) */
    }
}

void CL_FN(cl_skate_constraint_residuals)(rptr out, rsrc z)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(Psi, 18, p);
    R_DECL(t, p);
    CL_FN(cl_skate_psi)(Psi, z + 6);
    r_set(out, z + 6);
    for (int a = 0; a < 3; a++) {
        r_set_zero(t);
        for (int j = 0; j < 6; j++) r_addmul(t, Psi + 6 * a + j, z + j);
        r_set(out + 1 + a, t);
    }
    v3_dot(t, z + 6, z + 6);
    r_add_si(out + 4, t, -1);
}

int CL_FN(cl_skate_check_z)(rsrc z, double tol_ulps)
{
    if (!CL_FN(cl_rvec_is_finite)(z, CL_SKATE_NZ)) return CL_ENAN;
    cl_prec_t p = r_prec(z);
    RV_DECL(res, 5, p);
    CL_FN(cl_skate_constraint_residuals)(res, z);
    double scale = CL_FN(cl_rvec_log2_maxabs)(z, 6);
    if (scale < 0) scale = 0;
    double tol = log2(tol_ulps) + 1.0 - (double)p;
    if (r_log2abs(res + 4) > tol) return CL_ENOTUNIT;
    if (r_log2abs(res) > tol) return CL_ENOTTANGENT;
    for (int a = 1; a < 4; a++)
        if (r_log2abs(res + a) > tol + scale) return CL_ENOTTANGENT;
    return CL_OK;
}

void CL_FN(cl_skate_energy_z)(rptr E, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(E);
    RV_DECL(mu, 6, p);
    R_DECL(s, p); R_DECL(t, p);
    CL_FN(cl_skate_momenta)(mu, par, z);
    r_set_zero(s);
    for (int i = 0; i < 6; i++) r_addmul(s, mu + i, z + i);
    r_mul_2si(s, s, -1);
    r_mul(t, P_(M), P_(G));
    r_mul(t, t, P_(L));
    r_addmul(s, t, z + 8);
    r_set(E, s);
}

/*
 * (21) with the multipliers from the 3×3 system, on (Ω, Y[, θ̇]): nu = 6 or 7
 * velocity unknowns. x = velocities, Ga = Γ.
 */
static int rhs_z_common(rptr dz, rptr lambda, rsrc par, rsrc z, rsrc u, int rotor)
{
    cl_prec_t p = r_prec(dz);
    const int nu = rotor ? 7 : 6;
    RV_DECL(G, 49, p); RV_DECL(Gc, 49, p); RV_DECL(X, 28, p);
    RV_DECL(mu, 7, p); RV_DECL(x, 7, p); RV_DECL(Psi, 18, p); RV_DECL(Psid, 18, p);
    RV_DECL(Gd, 3, p); RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    RV_DECL(S, 9, p); RV_DECL(lam, 3, p); RV_DECL(out, 10, p);
    R_DECL(mgl, p); R_DECL(t, p);
    rsrc Ga = z + 6;
    for (int i = 0; i < 6; i++) r_set(x + i, z + i);
    if (rotor) r_set(x + 6, z + 9);
    CL_FN(cl_skate_gram)(G, par, rotor);
    CL_FN(cl_mat_vec)(mu, G, x, nu, nu);
    rsrc Om = x, Y = x + 3, Pi = mu, P = mu + 3;
    /* F = (Π×Ω + P×Y − mgl E₃×Γ, P×Ω [, u]) in column 0 of X (nu×4) */
    r_mul(mgl, P_(M), P_(G));
    r_mul(mgl, mgl, P_(L));
    r_set_si(e3 + 2, 1);
    v3_cross(w, Pi, Om);
    for (int i = 0; i < 3; i++) r_set(X + 4 * i, w + i);
    v3_cross(w, P, Y);
    for (int i = 0; i < 3; i++) r_add(X + 4 * i, X + 4 * i, w + i);
    v3_cross(w, e3, Ga);
    for (int i = 0; i < 3; i++) r_submul(X + 4 * i, mgl, w + i);
    v3_cross(w, P, Om);
    for (int i = 0; i < 3; i++) r_set(X + 4 * (3 + i), w + i);
    if (rotor) r_set(X + 4 * 6, u);
    /* columns 1..3: ψᵃ transposed */
    CL_FN(cl_skate_psi)(Psi, Ga);
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < 6; j++) r_set(X + 4 * j + 1 + a, Psi + 6 * a + j);
    /* X = 𝔾⁻¹ (F, ψᵀ) */
    int perm[7];
    CL_FN(cl_rvec_copy)(Gc, G, (size_t)(nu * nu));
    int st = CL_FN(cl_lu_factor)(Gc, perm, nu);
    if (!st) st = CL_FN(cl_lu_solve)(Gc, perm, X, nu, 4);
    if (st) return st;
    /* Γ̇ = Γ×Ω and b_a = ⟨ψᵃ(Γ̇), ξ⟩ */
    v3_cross(Gd, Ga, Om);
    CL_FN(cl_skate_psi)(Psid, Gd);
    for (int a = 0; a < 3; a++) {
        r_set_zero(t);
        for (int j = 0; j < 6; j++) {
            r_addmul(t, Psi + 6 * a + j, X + 4 * j);
            r_addmul(t, Psid + 6 * a + j, x + j);
        }
        r_neg(lam + a, t);
        for (int b = 0; b < 3; b++) {
            r_set_zero(t);
            for (int j = 0; j < 6; j++) r_addmul(t, Psi + 6 * a + j, X + 4 * j + 1 + b);
            r_set(S + 3 * a + b, t);
        }
    }
    if ((st = CL_FN(cl_linsolve)(lam, S, lam, 3))) return st;
    for (int i = 0; i < nu; i++) {
        r_set(t, X + 4 * i);
        for (int a = 0; a < 3; a++) r_addmul(t, lam + a, X + 4 * i + 1 + a);
        r_set(out + (i < 6 ? i : 9), t);
    }
    for (int i = 0; i < 3; i++) r_set(out + 6 + i, Gd + i);
    CL_FN(cl_rvec_copy)(dz, out, rotor ? 10 : 9);
    if (lambda) CL_FN(cl_rvec_copy)(lambda, lam, 3);
    return CL_OK;
}

/** [SKATE (21)] with multipliers from constraint preservation. */
int CL_FN(cl_skate_rhs_z)(rptr dz, rptr lambda, rsrc par, rsrc z)
{
    return rhs_z_common(dz, lambda, par, z, NULL, 0);
}

/** [SKATE (44)] in the z-form with the rotor of (54)–(55). */
int CL_FN(cl_skate_rhs_z_rotor)(rptr dz, rptr lambda, rsrc par, rsrc z, rsrc u)
{
    return rhs_z_common(dz, lambda, par, z, u, 1);
}

/**
 * \page ch_skate_control SKATE §6 — controlled Lagrangian, matching and control law
 *
 * An internal rotor about E₁ (Figure 3) adds the rate θ̇ and the reduced
 * Lagrangian becomes ℓ_r = K(ξ, θ̇) − U(Γ) (43), for the skate (54)–(55)
 * \f[ K_r = \tfrac12\big((I_1+ml^2)Ω_1^2 + J_1(Ω_1+\dotθ)^2 + (𝓘_2+ml^2)Ω_2^2 + 𝓘_3Ω_3^2\big) + ml(Ω_2Y_1 - Ω_1Y_2) + \tfrac m2\|Y\|^2 \f]
 * with 𝓘ᵢ = Iᵢ + Jᵢ, i.e. the tensor 𝔾 printed below (55), \f$\mathbb G_{ia} = J_1e_1\f$,
 * \f$\mathbb G_{ab} = J_1\f$. (The printed first line of (55) has m‖Y‖² without the ½ and
 * the second line puts the cross term inside the ½; both disagree with that
 * 𝔾.) The controlled equations (44) add π̇ = u for the rotor momentum
 * π = J₁(Ω₁ + θ̇). The controlled Lagrangian (47) with the matching
 * conditions (52), \f$τ = -σ^{-1}\mathbb G_{a\cdot}\f$ and \f$σ^{-1} + ρ^{-1} = \mathbb G_{ab}^{-1}\f$, reproduces (44)
 * when u follows (53); for the skate τ = −(J₁/σ)e₁ᵀ, ρ = J₁/(1 − J₁/σ), and
 * on π̃ = 0 the controlled Lagrangian is the skate Lagrangian (7) with the
 * inertia (57)
 * \f[ \tilde{\mathbb I} = \mathrm{diag}(I_1 + J_1^2/σ,\ I_2 + J_2,\ I_3 + J_3). \f]
 * The control law (53) is u = (J₁²/σ)v̇¹. Eliminating v̇¹ through (44a)
 * (Remark 14) must use the closed loop, (I₁ + ml²)v̇¹ = R₁ − u, whence
 * \f[ u = \frac{J_1^2}{σ}\frac{R_1}{I_1 + ml^2 + J_1^2/σ},\qquad
 *     R_1 = Γ_2(mgl + (ml^2 + 𝓘_2 - 𝓘_3)Γ_3(v^2)^2) + mlΓ_3v^2v^3; \f]
 * the printed (56) divides by I₁ + ml², the open-loop acceleration, and does
 * not match (57) (docs/errata_SKATE.md; the oracle row skate.control.56).
 *
 * Functions: cl_skate_lagrangian_rotor(),
 * cl_skate_lagrangian_controlled(),
 * cl_skate_matched_params(),
 * cl_skate_control_law(),
 * cl_skate_rhs_z_controlled().
 *
 * \page ch_skate_stabilization SKATE §7 — stabilization of the sliding equilibrium
 *
 * By the matching, the closed loop is the skate with inertia Ĩ (57). Its
 * invariants are ℰ, C₁, C₂, C₃ with I replaced by Ĩ; at the sliding
 * equilibrium the Energy–Casimir multipliers are (0, −mY₀, −mgl) and the
 * Hessian restricted to the tangent space of the level set is
 * \f[ w^T\mathcal Hw = (I_1 + ml^2 + J_1^2/σ)s_1^2 - mgl\,s_2^2 \f]
 * (Proposition 16, App. A.4), negative definite exactly when
 * −J₁²/(I₁ + ml²) < σ < 0 (58). The printed Hessian of A.4 has −mY₀ in
 * the (v², Γ₂) entries; the derivation gives −mlY₀ (it does not enter the
 * restricted form, whose tangent space has no v² component).
 *
 * Figures 4 and 5 (`chartless reproduce skate-fig4|skate-fig5`): the initial
 * state (59) satisfies all three constraints and Γ₁ = 0 exactly (ψ¹ vanishes
 * because Ω₂Γ₃ = 0.1 tan φ₀ cos φ₀ = Ω₃Γ₂), so it is used as given; the
 * uncontrolled skate falls (Γ₃ = 0) at the time located by an event, and the
 * controlled skate keeps Γ₃ near 1; its minimum is found by an event on
 * Γ̇₃ = −v¹Γ₂.
 *
 * Functions: cl_skate_prop16_coefficient(), cl_skate_initial_59(),
 * cl_skate_fall_time(), cl_skate_controlled_min() (\ref ch_skate_sim).
 */
#include "r3.h"
#include "skate.h"

#define P_(k) (par + CL_SKATE_##k)

/** [SKATE (54)–(55)] */
void CL_FN(cl_skate_lagrangian_rotor)(rptr ell, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(ell);
    RV_DECL(G, 49, p); RV_DECL(x, 7, p);
    R_DECL(s, p); R_DECL(t, p);
    for (int i = 0; i < 6; i++) r_set(x + i, z + i);
    r_set(x + 6, z + 9);
    CL_FN(cl_skate_gram)(G, par, 1);
    for (int i = 0; i < 7; i++) {
        r_set_zero(t);
        for (int j = 0; j < 7; j++) r_addmul(t, G + 7 * i + j, x + j);
        r_addmul(s, t, x + i);
    }
    r_mul_2si(s, s, -1);
    r_mul(t, P_(M), P_(G));
    r_mul(t, t, P_(L));
    r_submul(s, t, z + 8);
    r_set(ell, s);
}

/** [SKATE (47)] with (52) for one rotor. */
int CL_FN(cl_skate_lagrangian_controlled)(rptr ell, rsrc par, rsrc sigma, rsrc z)
{
    cl_prec_t p = r_prec(ell);
    RV_DECL(zz, 10, p);
    R_DECL(tau, p); R_DECL(rho, p); R_DECL(t, p); R_DECL(w, p); R_DECL(s, p);
    if (r_is_zero(sigma) || r_cmp(sigma, P_(J1)) == 0 || r_is_zero(P_(J1))) return CL_EDOMAIN;
    /* τ₁ = −J₁/σ (the only non-zero entry), ρ = J₁/(1 − J₁/σ) */
    r_div(tau, P_(J1), sigma);
    r_si_sub(rho, 1, tau);
    r_div(rho, P_(J1), rho);
    r_neg(tau, tau);
    /* K(ξ, θ̇ + τξ) */
    CL_FN(cl_rvec_copy)(zz, z, 10);
    r_fma(zz + 9, tau, z, z + 9);
    CL_FN(cl_skate_lagrangian_rotor)(s, par, zz);
    /* + ½ σ (τξ)² */
    r_mul(t, tau, z);
    r_sqr(t, t);
    r_mul(t, t, sigma);
    r_mul_2si(t, t, -1);
    r_add(s, s, t);
    /* + ½ (ρ − 𝔾_ab)(θ̇ + (𝔾^{ab}𝔾_{bi} + τ_i)ξ^i)², 𝔾^{ab}𝔾_{b1} = 1 */
    r_add_si(w, tau, 1);
    r_fma(w, w, z, z + 9);
    r_sqr(w, w);
    r_sub(t, rho, P_(J1));
    r_mul(t, t, w);
    r_mul_2si(t, t, -1);
    r_add(ell, s, t);
    return CL_OK;
}

/** (57) */
int CL_FN(cl_skate_matched_params)(rptr parm, rsrc par, rsrc sigma)
{
    cl_prec_t p = r_prec(parm);
    RV_DECL(o, CL_SKATE_NPAR, p);
    R_DECL(t, p);
    if (r_is_zero(sigma)) return CL_EDOMAIN;
    CL_FN(cl_rvec_copy)(o, par, CL_SKATE_NPAR);
    r_sqr(t, P_(J1));
    r_div(t, t, sigma);
    r_add(o + CL_SKATE_I1, P_(I1), t);
    r_add(o + CL_SKATE_I2, P_(I2), P_(J2));
    r_add(o + CL_SKATE_I3, P_(I3), P_(J3));
    for (int i = 0; i < 3; i++) r_set_zero(o + CL_SKATE_J1 + i);
    CL_FN(cl_rvec_copy)(parm, o, CL_SKATE_NPAR);
    return CL_OK;
}

/* R₁ of (56) from the rotor z-form state, with 𝓘ᵢ = Iᵢ + Jᵢ. */
static void R1_of(rptr R1, rsrc par, rsrc z)
{
    cl_prec_t p = r_prec(R1);
    R_DECL(ml, p); R_DECL(v2, p); R_DECL(t, p); R_DECL(u, p);
    rsrc v3 = z + 3, G2 = z + 7, G3 = z + 8;
    r_mul(ml, P_(M), P_(L));
    v3_dot(v2, z, z + 6);
    /* Γ₂(mgl + (ml² + 𝓘₂ − 𝓘₃)Γ₃(v²)²) + mlΓ₃v²v³ */
    r_fma(t, ml, P_(L), P_(I2));
    r_add(t, t, P_(J2));
    r_sub(t, t, P_(I3));
    r_sub(t, t, P_(J3));
    r_mul(t, t, G3);
    r_sqr(u, v2);
    r_mul(t, t, u);
    r_addmul(t, ml, P_(G));
    r_mul(t, t, G2);
    r_mul(u, ml, G3);
    r_mul(u, u, v2);
    r_addmul(t, u, v3);
    r_set(R1, t);
}

/* u = (J₁²/σ) R₁/d with d = I₁ + ml² + J₁²/σ (closed loop) or I₁ + ml² (as printed). */
static int control_law(rptr u, rsrc par, rsrc sigma, rsrc z, int closed_loop)
{
    cl_prec_t p = r_prec(u);
    R_DECL(R1, p); R_DECL(k, p); R_DECL(d, p);
    if (r_is_zero(sigma)) return CL_EDOMAIN;
    R1_of(R1, par, z);
    r_sqr(k, P_(J1));
    r_div(k, k, sigma);
    r_mul(d, P_(M), P_(L));
    r_fma(d, d, P_(L), P_(I1));
    if (closed_loop) {
        r_add(d, d, k);
        if (r_is_zero(d)) return CL_EDOMAIN;
    }
    r_mul(k, k, R1);
    r_div(u, k, d);
    return CL_OK;
}

/** (53) with v̇¹ from the closed loop (44a); corrects (56). */
int CL_FN(cl_skate_control_law)(rptr u, rsrc par, rsrc sigma, rsrc z)
{
    return control_law(u, par, sigma, z, 1);
}

/** (56) as printed. */
int CL_FN(cl_skate_control_law_printed)(rptr u, rsrc par, rsrc sigma, rsrc z)
{
    return control_law(u, par, sigma, z, 0);
}

int CL_FN(cl_skate_rhs_z_controlled)(rptr dz, rsrc par, rsrc sigma, rsrc z, int printed)
{
    R_DECL(u, r_prec(dz));
    int st = control_law(u, par, sigma, z, !printed);
    if (st) return st;
    return CL_FN(cl_skate_rhs_z_rotor)(dz, NULL, par, z, u);
}

/** App. A.4: coefficient of s₁² in the restricted Energy–Casimir form. */
void CL_FN(cl_skate_prop16_coefficient)(rptr out, rsrc par, rsrc sigma)
{
    cl_prec_t p = r_prec(out);
    R_DECL(t, p); R_DECL(d, p);
    r_sqr(t, P_(J1));
    r_div(t, t, sigma);
    r_mul(d, P_(M), P_(L));
    r_fma(d, d, P_(L), P_(I1));
    r_add(out, d, t);
}

#define ROTOR_HMAX 8
#define ROTOR_SMAX 3

/** [SKATE (45)], with \f$\mathcal G_{ij}\f$ of (29) and \f$\mathcal G_{ia}\f$ of [SKATE (46)]. */
int CL_FN(cl_hamel_rotor_momenta)(rptr p, rptr pi, const CL_FN(cl_hamel) *h, int s, rsrc Gr,
                                  rsrc v, rsrc thetadot, rsrc Gamma)
{
    const int n = h->n, nx = h->nx, nv = h->n - h->r, N = h->n + s;
    if (n < 1 || n > ROTOR_HMAX || nx < 1 || nx > ROTOR_HMAX || s < 1 || s > ROTOR_SMAX || nv < 1)
        return CL_EDIM;
    cl_prec_t q = r_prec(p);
    RV_DECL(E, n * n, q); RV_DECL(dE, nx * n * n, q);
    RV_DECL(xi, n, q); RV_DECL(Gxi, N, q); RV_DECL(op, n, q); RV_DECL(opi, s, q);
    R_DECL(t, q);
    h->basis(E, dE, Gamma, h->ctx);
    /* ξ^k = 𝓔_β^k v^β; then 𝒢_iβ v^β = 𝓔_i^k 𝔾_kl ξ^l and 𝒢_aβ v^β = 𝔾_al ξ^l */
    for (int k = 0; k < n; k++)
        for (int b = 0; b < nv; b++) r_addmul(xi + k, E + k * n + b, v + b);
    for (int k = 0; k < N; k++)
        for (int l = 0; l < n; l++) r_addmul(Gxi + k, Gr + k * N + l, xi + l);
    for (int i = 0; i < n; i++) {
        /* p_i = 𝒢_iβ v^β + 𝒢_ia θ̇^a with 𝒢_ia = 𝓔_i^j 𝔾_ja (46) */
        for (int k = 0; k < n; k++) {
            r_set(t, Gxi + k);
            for (int a = 0; a < s; a++) r_addmul(t, Gr + k * N + n + a, thetadot + a);
            r_addmul(op + i, E + k * n + i, t);
        }
    }
    for (int a = 0; a < s; a++) {
        /* π_a = 𝒢_aα v^α + 𝔾_ab θ̇^b */
        r_set(opi + a, Gxi + n + a);
        for (int b = 0; b < s; b++) r_addmul(opi + a, Gr + (n + a) * N + n + b, thetadot + b);
    }
    CL_FN(cl_rvec_copy)(p, op, n);
    CL_FN(cl_rvec_copy)(pi, opi, s);
    return CL_OK;
}

/** [SKATE (48)], [SKATE (49)] with 𝒯 of [SKATE (50)], one rotor. */
int CL_FN(cl_hamel_rotor_controlled_momenta)(rptr ptil, rptr pit, rptr T, const CL_FN(cl_hamel) *h, rsrc Gr,
                                             rsrc tau, rsrc sigma, rsrc rho, rsrc v, rsrc thetadot, rsrc Gamma)
{
    const int n = h->n, nx = h->nx, nv = h->n - h->r, N = h->n + 1;
    if (n < 1 || n > ROTOR_HMAX || nx < 1 || nx > ROTOR_HMAX || nv < 1) return CL_EDIM;
    rsrc Gaa = Gr + n * N + n;
    if (r_is_zero(Gaa) || r_is_zero(rho)) return CL_ESINGULAR;
    cl_prec_t q = r_prec(pit);
    RV_DECL(E, n * n, q); RV_DECL(dE, nx * n * n, q); RV_DECL(oT, n, q);
    RV_DECL(xi, n, q); RV_DECL(Gxi, n, q); RV_DECL(Gia, n, q); RV_DECL(op, n, q);
    R_DECL(w, q); R_DECL(Tv, q); R_DECL(pt, q); R_DECL(c1, q); R_DECL(c2, q); R_DECL(t, q);
    h->basis(E, dE, Gamma, h->ctx);
    /* ξ^k = 𝓔_α^k v^α, 𝒯_i = τ_j 𝓔_i^j (50), 𝒢_ia = 𝓔_i^j 𝔾_ja (46) */
    for (int k = 0; k < n; k++)
        for (int al = 0; al < nv; al++) r_addmul(xi + k, E + k * n + al, v + al);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            r_addmul(oT + i, tau + j, E + j * n + i);
            r_addmul(Gia + i, Gr + j * N + n, E + j * n + i);
        }
    /* π̃ = ρ(θ̇ + 𝔾_aa⁻¹𝒢_aα v^α + 𝒯_α v^α) (49), with 𝒢_aα v^α = 𝔾_aj ξ^j */
    for (int j = 0; j < n; j++) r_addmul(w, Gr + n * N + j, xi + j);
    for (int al = 0; al < nv; al++) r_addmul(Tv, oT + al, v + al);
    r_div(w, w, Gaa);
    r_add(w, w, thetadot);
    r_add(w, w, Tv);
    r_mul(pt, rho, w);
    if (ptil) {
        /* (48): p̃_i = 𝒢_iα v^α + 𝒢_ia θ̇ + (𝒢_ia + σ𝒯_i)𝒯_α v^α + 𝔾_aa ρ⁻¹π̃ 𝒯_i
                       + (ρ − 𝔾_aa)ρ⁻¹π̃ (𝔾_aa⁻¹𝒢_ai + 𝒯_i) */
        for (int k = 0; k < n; k++)
            for (int l = 0; l < n; l++) r_addmul(Gxi + k, Gr + k * N + l, xi + l);
        r_div(c1, pt, rho);
        r_mul(c1, c1, Gaa);        /* 𝔾_aa ρ⁻¹ π̃ */
        r_sub(c2, rho, Gaa);
        r_div(c2, c2, rho);
        r_mul(c2, c2, pt);         /* (ρ − 𝔾_aa) ρ⁻¹ π̃ */
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) r_addmul(op + i, E + k * n + i, Gxi + k);
            r_addmul(op + i, Gia + i, thetadot);
            r_fma(t, sigma, oT + i, Gia + i);
            r_mul(t, t, Tv);
            r_add(op + i, op + i, t);
            r_addmul(op + i, c1, oT + i);
            r_div(t, Gia + i, Gaa);
            r_add(t, t, oT + i);
            r_addmul(op + i, c2, t);
        }
        CL_FN(cl_rvec_copy)(ptil, op, n);
    }
    r_set(pit, pt);
    if (T) CL_FN(cl_rvec_copy)(T, oT, n);
    return CL_OK;
}

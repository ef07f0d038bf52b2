/* SKATE §6–§7: the rotor Lagrangian (55) and its printed first line, the
 * printed control law (56) against the matched system, and the momenta of §4
 * and §6 from their definitions. The controlled Lagrangian (47) on π̃ = 0 and
 * the closed loop with the corrected law against the matched system (57) are
 * the oracle row skate.control.matching. */
#include "tap_real.h"
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 56);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p);
    RV_DECL(z, 10, p); RV_DECL(dz, 10, p); RV_DECL(f, 5, p); RV_DECL(fz, 5, p);
    R_DECL(sig, p); R_DECL(a, p); R_DECL(b, p); R_DECL(t, p); R_DECL(u, p); R_DECL(ml, p);
    int printed55 = 1;
    double e55 = -INFINITY, ep = -INFINITY;
    skate_set_params(par, SKATE_CONTROLLED);
    r_mul(ml, par + CL_SKATE_M, par + CL_SKATE_L);
    static const char *const sigmas[] = {"-0.00001", "-0.002", "0.3"};
    for (int s = 0; s < 3; s++) {
        CL_FN(cl_real_from_str)(sig, sigmas[s]);
        CL_FN(cl_skate_matched_params)(pm, par, sig);
        for (int trial = 0; trial < 4; trial++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            /* (55), first line with ½m‖Y‖²: written out term by term */
            r_set_d(z + 9, cl_rng_normal(&g));
            r_fma(t, ml, par + CL_SKATE_L, par + CL_SKATE_I1); r_sqr(u, z); r_mul(a, t, u);
            r_add(t, z, z + 9); r_sqr(t, t); r_addmul(a, par + CL_SKATE_J1, t);
            r_fma(t, ml, par + CL_SKATE_L, par + CL_SKATE_I2); r_add(t, t, par + CL_SKATE_J2); r_sqr(u, z + 1); r_addmul(a, t, u);
            r_add(t, par + CL_SKATE_I3, par + CL_SKATE_J3); r_sqr(u, z + 2); r_addmul(a, t, u);
            v3_dot(u, z + 3, z + 3); r_addmul(a, par + CL_SKATE_M, u);
            r_mul_2si(a, a, -1);
            r_mul(t, z + 1, z + 3); r_submul(t, z, z + 4); r_addmul(a, ml, t);
            r_mul(t, ml, par + CL_SKATE_G); r_submul(a, t, z + 8);
            /* rotor-augmented Lagrangian [SKATE (43)], for the skate
               [SKATE (54)]: ℓ_r = K_r − mglΓ·E₃, against the terms written out above */
            CL_FN(cl_skate_lagrangian_rotor)(b, par, z);
            e55 = fmax(e55, skate_log2_diff(a, b, b));
            /* the printed first line has m‖Y‖² (no ½): it differs by ½m‖Y‖² */
            v3_dot(u, z + 3, z + 3); r_mul(u, u, par + CL_SKATE_M); r_mul_2si(u, u, -1);
            r_add(t, a, u); r_sub(t, t, b);
            if (r_log2abs(t) - r_log2abs(u) < -1) printed55 = 0; /* the printed line would agree with 𝔾 */
            /* the printed law (56) in the closed loop against the matched field (38) with Ĩ, at the paper's σ = −10⁻⁵ */
            if (s == 0) {
                CL_FN(cl_skate_rhs_zeta)(f, pm, zeta);
                CL_FN(cl_skate_rhs_z_controlled)(dz, par, sig, z, 1);
                skate_zdot_to_zetadot(fz, z, dz);
                ep = fmax(ep, skate_log2_relerr(fz, f, 5));
            }
        }
    }
    is_log2_below(e55, tol_log2(p, 64), "rotor Lagrangian (55) with 1/2 m |Y|^2 equals 1/2 xi^T G xi with the printed G [SKATE (55)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(printed55, "the printed first line of (55) (m |Y|^2) differs from the printed G by m|Y|^2/2 [%s, %ld bits]", TEST_KIND, (long)p);
    ok(ep > -10, "the printed control law (56) does not match (57) at sigma = -1e-5 (gap 2^%.1f) [%s, %ld bits]", ep, TEST_KIND, (long)p);
    r_set_zero(sig);
    ok(CL_FN(cl_skate_control_law)(t, par, sig, z) == CL_EDOMAIN, "sigma = 0 rejected [%s, %ld bits]", TEST_KIND, (long)p);
}

/* ℓ̃_r of (47a)–(47b) for one rotor with any τ (6 entries), σ, ρ, written from
   ℓ_r (54): ℓ_r(ξ, θ̇ + τξ, Γ) + ½σ(τξ)² + ½(ρ − 𝔾_aa)(θ̇ + (𝔾_aa⁻¹𝔾_aj + τ_j)ξ^j)². */
static void ell_controlled_any(rptr ell, rsrc par, rsrc Gr, rsrc tau, rsrc sig, rsrc rho, rsrc z)
{
    cl_prec_t p = r_prec(ell);
    RV_DECL(zz, 10, p);
    R_DECL(tx, p); R_DECL(w, p); R_DECL(t, p);
    for (int j = 0; j < 6; j++) r_addmul(tx, tau + j, z + j);
    CL_FN(cl_rvec_copy)(zz, z, 10);
    r_add(zz + 9, z + 9, tx);
    CL_FN(cl_skate_lagrangian_rotor)(ell, par, zz);
    r_sqr(t, tx);
    r_mul(t, t, sig);
    r_mul_2si(t, t, -1);
    r_add(ell, ell, t);
    for (int j = 0; j < 6; j++) {
        r_div(t, Gr + 6 * 7 + j, Gr + 6 * 7 + 6);
        r_addmul(w, t, z + j);
    }
    r_add(w, w, tx);
    r_add(w, w, z + 9);
    r_sqr(w, w);
    r_sub(t, rho, Gr + 6 * 7 + 6);
    r_mul(t, t, w);
    r_mul_2si(t, t, -1);
    r_add(ell, ell, t);
}

/* One of the Lagrangians below, with what it needs besides the state. */
enum lagr_kind { LAGR_7, LAGR_ROTOR, LAGR_CONTROLLED, LAGR_CONTROLLED_ANY };
typedef struct lagr {
    enum lagr_kind kind;
    rsrc par, sig;       /* σ of (47) for LAGR_CONTROLLED and LAGR_CONTROLLED_ANY */
    rsrc Gr, tau, rho;   /* LAGR_CONTROLLED_ANY only */
} lagr;

static void lagr_eval(rptr ell, const lagr *L, rsrc z)
{
    switch (L->kind) {
    case LAGR_7: CL_FN(cl_skate_lagrangian)(ell, L->par, z); break;
    case LAGR_ROTOR: CL_FN(cl_skate_lagrangian_rotor)(ell, L->par, z); break;
    case LAGR_CONTROLLED: CL_FN(cl_skate_lagrangian_controlled)(ell, L->par, L->sig, z); break;
    case LAGR_CONTROLLED_ANY: ell_controlled_any(ell, L->par, L->Gr, L->tau, L->sig, L->rho, z); break;
    }
}

/* d[k] = (ℓ(x + e_k) − ℓ(x − e_k))/2 for from ≤ k < to, on the velocities
   x = (ξ, θ̇) of the rotor z-form state z (k < 6: ξ_k, k = 6: θ̇). */
static void central_diff(rptr d, const lagr *L, rsrc z, int from, int to)
{
    cl_prec_t p = r_prec(d);
    RV_DECL(zz, 10, p);
    R_DECL(a, p); R_DECL(b, p);
    for (int k = from; k < to; k++) {
        int kk = k < 6 ? k : 9;
        CL_FN(cl_rvec_copy)(zz, z, 10);
        r_add_si(zz + kk, zz + kk, 1);
        lagr_eval(a, L, zz);
        r_add_si(zz + kk, zz + kk, -2);
        lagr_eval(b, L, zz);
        r_sub(d + k, a, b);
        r_mul_2si(d + k, d + k, -1);
    }
}

/* ⟨δℓ/δξ, 𝓔_i⟩ = Σ_k d_k 𝓔^k_i for the basis E (6×6) */
static void project_on_basis(rptr out, rsrc d, rsrc E)
{
    for (int i = 0; i < 6; i++) {
        r_set_zero(out + i);
        for (int k = 0; k < 6; k++) r_addmul(out + i, d + k, E + k * 6 + i);
    }
}

/*
 * The momenta of §4 and §6 from their definitions as derivatives of the
 * Lagrangians. ℓ (7), ℓ_r (54)–(55) and ℓ̃_r (47) are quadratic in the
 * velocities (ξ, θ̇), so the central difference (ℓ(x + e_k) − ℓ(x − e_k))/2 is
 * ∂ℓ/∂x_k exactly up to the rounding of two evaluations (values ≲ 10 here);
 * projected on the basis 𝓔_i(Γ) of (31) it must give p_i of (24) (closed
 * forms of §5.1) and of (45)–(46) (general formula), and ∂ℓ̃_r/∂θ̇ must give
 * π̃ of (49)–(50) with τ, ρ of (52).
 * Tolerance 1024·2^(1−p) relative: each ℓ is ~50 roundings of terms up to
 * ~10 (2^6 units), the difference and the 6-term projection add a factor ~8;
 * (47) at σ = −0.002 has τ = J₁/σ = 2.5 and terms up to ~30.
 */
/* One trial of momenta(): the state, its basis 𝓔 (31) and ∂𝓔/∂Γ, the Gram matrix, the Hamel
 * machinery, p of (45) at the state; and the largest log2 relative error of each identity. */
typedef struct momenta_trial {
    rsrc par, zeta, z, E, dE, Gr;
    rptr pgen;
    const CL_FN(cl_hamel) *h;
    double e24, e45, epi, e49, e50, e48, ematch, e51b, e48any, e49any, e51a, e51c;
} momenta_trial;

/* p_i of (24) from (7), and p_i, π_a of (45)–(46) from the rotor-augmented ℓ_r (54)–(55). */
static void open_loop_momenta(momenta_trial *m, cl_prec_t p)
{
    RV_DECL(d, 7, p); RV_DECL(pref, 6, p); RV_DECL(pi, 1, p);
    const lagr l7 = {LAGR_7, m->par, NULL, NULL, NULL, NULL}, lrotor = {LAGR_ROTOR, m->par, NULL, NULL, NULL, NULL};
    /* ∂ℓ/∂ξ of (7) by central differences, projected: p_i = ⟨δℓ/δξ, 𝓔_i⟩ [SKATE (24)] */
    central_diff(d, &l7, m->z, 0, 6);
    project_on_basis(m->pgen, d, m->E);
    CL_FN(cl_skate_p)(pref, m->par, m->zeta);
    m->e24 = fmax(m->e24, skate_log2_relerr(m->pgen, pref, 6));
    /* ∂ℓ_r/∂(ξ, θ̇) of (54)–(55) likewise, against the general (45)–(46) */
    central_diff(d, &lrotor, m->z, 0, 7);
    project_on_basis(pref, d, m->E);
    CL_FN(cl_hamel_rotor_momenta)(m->pgen, pi, m->h, 1, m->Gr, m->zeta, m->z + 9, m->z + 6);
    m->e45 = fmax(m->e45, skate_log2_relerr(m->pgen, pref, 6));
    m->epi = fmax(m->epi, skate_log2_relerr(pi, d + 6, 1));
}

/* (48)–(50) with τ (random), σ, ρ that do not match: ∂ℓ̃_r of (47) written from (54). */
static void unmatched_momenta(momenta_trial *m, cl_rng *g, cl_prec_t p)
{
    RV_DECL(tau, 6, p); RV_DECL(pt, 6, p); RV_DECL(dl, 7, p); RV_DECL(pref, 6, p);
    R_DECL(pit, p); R_DECL(sany, p); R_DECL(rany, p);
    CL_FN(cl_real_from_str)(sany, "0.7");
    CL_FN(cl_real_from_str)(rany, "0.02");
    const lagr lany = {LAGR_CONTROLLED_ANY, m->par, sany, m->Gr, tau, rany};
    for (int k = 0; k < 6; k++) r_set_d(tau + k, 0.5 * cl_rng_normal(g));
    CL_FN(cl_hamel_rotor_controlled_momenta)(pt, pit, NULL, m->h, m->Gr, tau, sany, rany, m->zeta, m->z + 9, m->z + 6);
    central_diff(dl, &lany, m->z, 0, 7);
    project_on_basis(pref, dl, m->E);
    m->e48any = fmax(m->e48any, skate_log2_relerr(pt, pref, 6));
    m->e49any = fmax(m->e49any, skate_log2_relerr(pit, dl + 6, 1));
}

/* (51b) on the closed loop (44) with the control law (53): π̃ is linear in z = (ξ, Γ, θ̇) with
 * constant coefficients, π̃ = ρ(θ̇ + (𝔾_aj/𝔾_aa + τ_j)ξ^j); dz the closed loop's rates. */
static double closed_loop_51b(rsrc Gr, rsrc tau, rsrc dz, cl_prec_t p)
{
    R_DECL(a, p); R_DECL(b, p); R_DECL(t, p);
    r_set(a, dz + 9);
    r_abs(b, dz + 9);
    for (int j = 0; j < 6; j++) {
        r_div(t, Gr + 6 * 7 + j, Gr + 6 * 7 + 6);
        r_add(t, t, tau + j);
        r_mul(t, t, dz + j);
        r_add(a, a, t);
        r_abs(t, t);
        if (r_cmp(t, b) > 0) r_set(b, t);
    }
    return r_log2abs(a) - fmax(0, r_log2abs(b));
}

/* (51a) on the closed loop: p̃_α = 𝓔_α^j μ̃_j with μ̃ = ∂ℓ̃_r/∂ξ (dl), which is linear in (ξ, θ̇),
 * so μ̃̇ is μ̃ at the velocities (ξ̇, θ̈), again by exact central differences; ṗ̃_α = (∂𝓔_α^j/∂Γ_k
 * Γ̇_k) μ̃_j + 𝓔_α^j μ̃̇_j against −𝓑 v p̃ − K ∂U/∂Γ Γ of cl_hamel_pdot. */
static double closed_loop_51a(const momenta_trial *m, const lagr *lc, rsrc dl, rsrc dz, cl_prec_t p)
{
    RV_DECL(zz, 10, p); RV_DECL(mud, 6, p); RV_DECL(lhs, 3, p); RV_DECL(rhs, 3, p);
    R_DECL(t, p);
    CL_FN(cl_rvec_copy)(zz, dz, 6);
    for (int j = 6; j < 9; j++) r_set(zz + j, m->z + j);
    r_set(zz + 9, dz + 9);
    central_diff(mud, lc, zz, 0, 6);
    for (int al = 0; al < 3; al++) {
        r_set_zero(lhs + al);
        for (int j = 0; j < 6; j++) {
            r_set_zero(t);
            for (int k = 0; k < 3; k++) r_addmul(t, m->dE + (k * 6 + j) * 6 + al, dz + 6 + k);
            r_addmul(lhs + al, t, dl + j);
            r_addmul(lhs + al, m->E + j * 6 + al, mud + j);
        }
    }
    CL_FN(cl_hamel_pdot)(rhs, m->h, dl, m->zeta, m->z + 6);
    return skate_log2_relerr(lhs, rhs, 3);
}

/* 𝒯_i = τ_j 𝓔_i^j (50): τ = τ₁e₁ and the basis (31) has 𝓔₁ = (E₁, 0), 𝓔₂ = (Γ, 0), 𝓔₃ = (0, E₁). */
static double transfer_50(rsrc T, rsrc tau, rsrc Ga, cl_prec_t p)
{
    R_DECL(a, p); R_DECL(t, p);
    r_sub(t, T, tau);
    double e = r_log2abs(t) - r_log2abs(tau);
    r_mul(a, tau, Ga);
    r_sub(t, T + 1, a);
    e = fmax(e, r_log2abs(t) - r_log2abs(tau));
    return fmax(e, r_log2abs(T + 2) - r_log2abs(tau));
}

/* ∂ℓ̃_r/∂θ̇ of (47) at the gain sig against (49)–(50), τ = −(J₁/σ)e₁ and 1/σ + 1/ρ = 1/J₁ (52);
 * then the closed loop's laws (51a)–(51c). */
static void matched_momenta(momenta_trial *m, rsrc sig, cl_prec_t p)
{
    RV_DECL(dl, 7, p); RV_DECL(tau, 6, p); RV_DECL(T, 6, p); RV_DECL(pt, 6, p); RV_DECL(pref, 6, p);
    RV_DECL(dz, 10, p); RV_DECL(dv, 3, p); RV_DECL(dG, 3, p);
    R_DECL(rho, p); R_DECL(pit, p);
    rsrc par = m->par, Ga = m->z + 6;
    const lagr lc = {LAGR_CONTROLLED, par, sig, NULL, NULL, NULL};
    central_diff(dl, &lc, m->z, 0, 7);
    for (int k = 0; k < 6; k++) r_set_zero(tau + k);
    r_div(tau, par + CL_SKATE_J1, sig);
    r_si_sub(rho, 1, tau);
    r_div(rho, par + CL_SKATE_J1, rho);
    r_neg(tau, tau);
    CL_FN(cl_hamel_rotor_controlled_momenta)(pt, pit, T, m->h, m->Gr, tau, sig, rho, m->zeta, m->z + 9, Ga);
    m->e49 = fmax(m->e49, skate_log2_relerr(pit, dl + 6, 1));
    /* ∂ℓ̃_r/∂ξ of (47) projected on 𝓔_i against (48) */
    project_on_basis(pref, dl, m->E);
    m->e48 = fmax(m->e48, skate_log2_relerr(pt, pref, 6));
    /* Appendix A.3: under (52), p̃ of (48) equals p of (45) at the same (v, θ̇) */
    m->ematch = fmax(m->ematch, skate_log2_relerr(pt, m->pgen, 6));
    CL_FN(cl_skate_rhs_z_controlled)(dz, par, sig, m->z, 0);
    m->e51b = fmax(m->e51b, closed_loop_51b(m->Gr, tau, dz, p));
    m->e51a = fmax(m->e51a, closed_loop_51a(m, &lc, dl, dz, p));
    /* (51c): the closed loop's Γ̇ against −𝒜 v Γ of the Hamel machinery */
    CL_FN(cl_hamel_rhs)(dv, dG, NULL, m->h, m->zeta, Ga);
    m->e51c = fmax(m->e51c, skate_log2_relerr(dz + 6, dG, 3));
    m->e50 = fmax(m->e50, transfer_50(T, tau, Ga, p));
}

static void report_momenta(const momenta_trial *m, cl_prec_t p)
{
    /* [SKATE (24)] p_i of §5.1 */
    is_log2_below(m->e24, tol_log2(p, 1024), "p_i = <dl/dxi, E_i> of (7) equals the closed forms of (24) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (45), (46)] general momenta of the rotor-augmented Lagrangian */
    is_log2_below(m->e45, tol_log2(p, 1024), "p_i of (45)-(46) equals <dl_r/dxi, E_i> of (54)-(55) [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(m->epi, tol_log2(p, 1024), "pi_a of (45) equals dl_r/dthetadot of (54)-(55) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (49), (50)] controlled rotor momentum */
    is_log2_below(m->e49, tol_log2(p, 1024), "pi~ of (49)-(50) equals dl~_r/dthetadot of (47) with (52) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (48), (49), (50)] controlled momenta for any τ, σ, ρ */
    is_log2_below(m->e48any, tol_log2(p, 1024), "p~_i of (48) equals <dl~_r/dxi, E_i> of (47), tau, sigma, rho not matched [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(m->e49any, tol_log2(p, 1024), "pi~ of (49) equals dl~_r/dthetadot of (47), tau, sigma, rho not matched [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (48)] controlled momentum p~ under (52), and its matching with p (45) */
    is_log2_below(m->e48, tol_log2(p, 1024), "p~_i of (48) equals <dl~_r/dxi, E_i> of (47) [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(m->ematch, tol_log2(p, 1024), "under (52), p~ of (48) equals p of (45) (Appendix A.3) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (51b)] on the closed loop: a 7×7 solve of condition ~10³ (J₁ = 0.005 against
       O(1) inertias), σ ≥ 0.002 so Ĩ₁ + ml² is not small: 2^12 (observed ≤ 2^5) */
    is_log2_below(m->e51b, tol_log2(p, 1 << 12), "d/dt pi~ = 0 (51b) along the closed loop (44) with the control law [%s, %ld bits]", TEST_KIND, (long)p);
    /* [SKATE (51a), (51c)] on the closed loop, same solve as (51b) */
    is_log2_below(m->e51a, tol_log2(p, 1 << 12), "(51a): d/dt p~_alpha = -B v p~ - K dU/dGamma Gamma along the closed loop [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(m->e51c, tol_log2(p, 1 << 12), "(51c): closed-loop Gamma-dot equals -A v Gamma [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(m->e50, tol_log2(p, 4), "T_i = tau_j E_i^j (50) on the basis (31): (tau1, tau1 Gamma1, 0, ...) [%s, %ld bits]", TEST_KIND, (long)p);
}

static void momenta(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 45);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(store, CL_SKATE_HAMEL_STORE, p);
    RV_DECL(zeta, 5, p); RV_DECL(z, 10, p); RV_DECL(E, 36, p); RV_DECL(dE, 216, p); RV_DECL(Gr, 49, p);
    RV_DECL(pgen, 6, p);
    R_DECL(sig, p);
    CL_FN(cl_hamel) h;
    static const char *const sigmas[] = {"-0.002", "0.3"};
    skate_set_params(par, SKATE_CONTROLLED);
    CL_FN(cl_skate_hamel)(&h, store, par);
    CL_FN(cl_skate_gram)(Gr, par, 1);
    momenta_trial m = {par, zeta, z, E, dE, Gr, pgen, &h, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                       -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int trial = 0; trial < 4; trial++) {
        skate_random_zeta(zeta, &g);
        CL_FN(cl_skate_zeta_to_z)(z, zeta);
        r_set_d(z + 9, cl_rng_normal(&g));
        h.basis(E, dE, z + 6, h.ctx);
        open_loop_momenta(&m, p);
        unmatched_momenta(&m, &g, p);
        for (int s = 0; s < 2; s++) {
            CL_FN(cl_real_from_str)(sig, sigmas[s]);
            matched_momenta(&m, sig, p);
        }
    }
    report_momenta(&m, p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) {
        run(TEST_PRECISIONS[k]);
        momenta(TEST_PRECISIONS[k]);
    }
    return done_testing();
}

/*
 * Quick checks of SKATE §6–§7 beyond the matching on π̃ = 0: the initial
 * state (59) on the constraint set, the coefficient of Proposition 16 as an
 * eigenvalue of the restricted Energy–Casimir Hessian, and the controlled
 * Lagrangian (47) with its momenta (48)–(49) at states with π̃ ≠ 0.
 */
#include "check.h"
#include "skate_fixtures_impl.h"

/*
 * (59) at φ₀ = 0.1 (Figures 4–5) and three more angles: the constraint
 * residuals Γ₁, ⟨ψᵃ, ξ⟩, |Γ|² − 1 (zero exactly, up to rounding), and the
 * state against the printed Ω = (0.1, 0.1 tan φ₀, 0.1), Y = (1, 0, 0),
 * Γ = (0, sin φ₀, cos φ₀), written here as Ω₂ = Ω₃Γ₂/Γ₃ (relative to |z|).
 */
CL_CHECK(skate_initial_59, "skate.control.initial_59", .chapter = "SKATE 7.2", .tags = "[SKATE (19), (59)]", .what = "the initial state (59) at phi0 = 0.1, 0.5, -0.3, 1.2: constraint residuals Gamma1, <psi^a, xi>, |Gamma|^2 - 1, and the state against Omega = (0.1, Omega3 Gamma2/Gamma3, 0.1), Y = e1, Gamma = (0, sin, cos) (relative to |z|)", .cond = 16, .why = "sin, cos and tan each correctly rounded; the residuals are two products and a difference of terms up to 1")
{
    static const char *const phis[] = {"0.1", "0.5", "-0.3", "1.2"};
    RV_DECL(z, 9, prec); RV_DECL(zw, 9, prec); RV_DECL(r, 5, prec);
    R_DECL(phi, prec);
    cl_check_begin(res);
    for (int k = 0; k < 4; k++) {
        CL_FN(cl_real_from_str)(phi, phis[k]);
        int st = CL_FN(cl_skate_initial_59)(z, phi);
        if (st) return st;
        double sc = fmax(0, CL_FN(cl_rvec_log2_maxabs)(z, 9));
        CL_FN(cl_skate_constraint_residuals)(r, z);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(r, 5) - sc, "residual, phi0 = %s", phis[k]);
        for (int i = 0; i < 9; i++) r_set_zero(zw + i);
        r_sin(zw + 7, phi);
        r_cos(zw + 8, phi);
        r_set_q(zw, 1, 10);
        r_set_q(zw + 2, 1, 10);
        r_mul(zw + 1, zw + 2, zw + 7);
        r_div(zw + 1, zw + 1, zw + 8);
        r_set_si(zw + 3, 1);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(z, zw, 9) - sc, "state, phi0 = %s", phis[k]);
    }
    return CL_OK;
}

/*
 * Proposition 16: the Energy–Casimir Hessian of the matched skate (57) at
 * the sliding equilibrium ζ_sl(Y₀), restricted to the tangent space of the
 * level set span{e₁, e₄}, is diag(I₁ + ml² + J₁²/σ, −mgl); its eigenvalues
 * (src/energy_casimir through cl_skate_energy_casimir) against
 * cl_skate_prop16_coefficient and −mgl, for σ on both sides of (58) and two
 * Y₀ (relative to the larger).
 */
CL_CHECK(skate_prop16, "skate.control.prop16", .chapter = "SKATE 7.1", .tags = "[SKATE (57), (58), Prop. 16, App. A.4]", .what = "eigenvalues of the restricted Energy-Casimir Hessian of the matched skate at sliding against the Prop. 16 coefficient I1 + ml^2 + J1^2/sigma and -mgl, 4 sigma x 2 Y0 (relative)", .cond = 1024, .why = "Householder QR of a 5x3, a 5x5 Hessian product and Jacobi rotations, with I1 + J1^2/sigma a cancellation down to 0.1 of terms of 2.5")
{
    static const char *const sigmas[] = {"-0.00001", "-0.00002", "-0.002", "0.3"};
    static const char *const y0s[] = {"1", "-0.3"};
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(pm, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec);
    RV_DECL(c, 3, prec); RV_DECL(eig, 2, prec); RV_DECL(ew, 2, prec);
    R_DECL(sig, prec); R_DECL(Y0, prec);
    cl_ec_report rep;
    cl_check_begin(res);
    skate_set_params(par, SKATE_CONTROLLED);
    for (int s = 0; s < 4; s++) {
        CL_FN(cl_real_from_str)(sig, sigmas[s]);
        int st = CL_FN(cl_skate_matched_params)(pm, par, sig);
        if (st) return st;
        CL_FN(cl_skate_prop16_coefficient)(ew + 1, par, sig);
        skate_mgl(ew, par);
        r_neg(ew, ew);
        if (r_cmp(ew + 1, ew) < 0) r_swap(ew, ew + 1);
        for (int q = 0; q < 2; q++) {
            CL_FN(cl_real_from_str)(Y0, y0s[q]);
            CL_FN(cl_skate_sliding)(zeta, Y0);
            if ((st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, pm, zeta, 0))) return st;
            if (r_cmp(eig + 1, eig) < 0) r_swap(eig, eig + 1);
            cl_check_worst(res, skate_log2_relerr(eig, ew, 2), "sigma #%d, Y0 #%d", s, q);
        }
    }
    return CL_OK;
}

/* ℓ̃ of (47) at z with the velocity x_k (k < 6: ξ_k, k = 6: θ̇) moved by d. */
static int ell_moved(rptr ell, rsrc par, rsrc sig, rsrc z, int k, long d)
{
    RV_DECL(zz, 10, r_prec(ell));
    CL_FN(cl_rvec_copy)(zz, z, 10);
    r_add_si(zz + (k < 6 ? k : 9), zz + (k < 6 ? k : 9), d);
    return CL_FN(cl_skate_lagrangian_controlled)(ell, par, sig, zz);
}

/*
 * (47) with (52) at random states with θ̇ random, so π̃ ≠ 0: ℓ̃ against the
 * skate Lagrangian (7) with the inertia (57) plus π̃²/(2ρ) (the rotor terms
 * of (47) are ½J₁w² + ½(ρ − J₁)w² with π̃ = ρw), π̃ from (49); and p̃ of (48)
 * and π̃ against ∂ℓ̃/∂(ξ, θ̇), exact as central differences with unit steps
 * (ℓ̃ is quadratic in the velocities), projected on the Hamel basis 𝓔(Γ) (31).
 */
CL_CHECK(skate_controlled_momenta, "skate.control.momenta_48", .chapter = "SKATE 6", .tags = "[SKATE (47), (48), (49), (52), (57)]", .what = "(47) at pi~ != 0 against (7) with (57) plus pi~^2/(2 rho), and p~ of (48), pi~ of (49) against d(47)/d(xi, thetadot) by exact central differences projected on (31); 4 sigma x 10 random states (relative)", .cond = 16384, .why = "(47) at sigma = -1e-5 has tau = J1/sigma = 500: the rotor term J1 (tau xi)^2/2 reaches 4e4 = 2^15 while the momenta are about 8, so 2^12 times a few roundings per evaluation and projection")
{
    static const char *const sigmas[] = {"-0.00001", "-0.002", "0.3", "2"};
    cl_rng g;
    cl_rng_seed(&g, 4748);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(pm, CL_SKATE_NPAR, prec); RV_DECL(store, CL_SKATE_HAMEL_STORE, prec);
    RV_DECL(zeta, 5, prec); RV_DECL(z, 10, prec); RV_DECL(E, 36, prec); RV_DECL(dE, 216, prec); RV_DECL(Gr, 49, prec);
    RV_DECL(tau, 6, prec); RV_DECL(pt, 7, prec); RV_DECL(d, 7, prec); RV_DECL(pd, 7, prec);
    R_DECL(sig, prec); R_DECL(rho, prec); R_DECL(a, prec); R_DECL(b, prec); R_DECL(t, prec);
    CL_FN(cl_hamel) h;
    cl_check_begin(res);
    skate_set_params(par, SKATE_CONTROLLED);
    CL_FN(cl_skate_hamel)(&h, store, par);
    CL_FN(cl_skate_gram)(Gr, par, 1);
    for (int s = 0; s < 4; s++) {
        CL_FN(cl_real_from_str)(sig, sigmas[s]);
        /* (52): τ = −(J₁/σ)e₁, ρ = J₁/(1 − J₁/σ) */
        for (int k = 0; k < 6; k++) r_set_zero(tau + k);
        r_div(tau, par + CL_SKATE_J1, sig);
        r_si_sub(rho, 1, tau);
        r_div(rho, par + CL_SKATE_J1, rho);
        r_neg(tau, tau);
        int st = CL_FN(cl_skate_matched_params)(pm, par, sig);
        for (int k = 0; k < 10 && !st; k++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            r_set_d(z + 9, 3 * cl_rng_normal(&g));
            h.basis(E, dE, z + 6, h.ctx);
            st = CL_FN(cl_hamel_rotor_controlled_momenta)(pt, pt + 6, NULL, &h, Gr, tau, sig, rho, zeta, z + 9, z + 6);
            if (!st) st = CL_FN(cl_skate_lagrangian_controlled)(a, par, sig, z);
            if (st) break;
            CL_FN(cl_skate_lagrangian)(b, pm, z);
            r_sqr(t, pt + 6);
            r_div(t, t, rho);
            r_mul_2si(t, t, -1);
            r_add(b, b, t);
            cl_check_worst(res, skate_log2_diff(a, b, b), "(47) vs (57) + pi~^2/(2 rho), sigma #%d draw %d", s, k);
            for (int j = 0; j < 7 && !st; j++) {
                st = ell_moved(a, par, sig, z, j, 1);
                if (!st) st = ell_moved(b, par, sig, z, j, -1);
                r_sub(d + j, a, b);
                r_mul_2si(d + j, d + j, -1);
            }
            if (st) break;
            for (int i = 0; i < 6; i++) {
                r_set_zero(pd + i);
                for (int j = 0; j < 6; j++) r_addmul(pd + i, d + j, E + j * 6 + i);
            }
            r_set(pd + 6, d + 6);
            cl_check_worst(res, skate_log2_relerr(pt, pd, 7), "(48)-(49), sigma #%d draw %d", s, k);
        }
        if (st) return st;
    }
    return CL_OK;
}

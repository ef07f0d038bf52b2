/*
 * Oracle checks of the pendulum skate [SKATE §2–§7]: the z-form with
 * multipliers (21), the general Theorem 9 machinery and the hand-derived
 * field (38) side by side at seeded random constraint-consistent states;
 * invariants; Jacobians and eigenvalues at the equilibria; Energy–Casimir
 * multipliers, Hessians and thresholds against (42) and (58); the matching
 * of the controlled skate with the inertia (57).
 */
#include "check.h"
#include "linalg.h"
#include "skate_fixtures_impl.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

#define DRAWS 40

/* What a row compares at one state ζ (Γ = (0, Γ₂, Γ₃)) of parameter set par,
 * with the skate's Hamel system h; \p which selects a variant. */
typedef double (*skate_measure)(rsrc par, const CL_FN(cl_hamel) *h, rsrc zeta, rsrc Ga, int which, int *st);

/* \p measure at DRAWS random ζ of each uncontrolled parameter set. */
static int over_skate_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, skate_measure measure, int which)
{
    cl_rng g;
    cl_rng_seed(&g, seed);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(store, CL_SKATE_HAMEL_STORE, prec);
    RV_DECL(zeta, 5, prec); RV_DECL(Ga, 3, prec);
    CL_FN(cl_hamel) h;
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        /* the general Theorem 9 in the Hamel basis [SKATE (22)], [SKATE (32)] */
        CL_FN(cl_skate_hamel)(&h, store, par);
        for (int k = 0; k < DRAWS; k++) {
            skate_random_zeta(zeta, &g);
            r_set_zero(Ga); r_set(Ga + 1, zeta + 3); r_set(Ga + 2, zeta + 4);
            int st = CL_OK;
            double e = measure(par, &h, zeta, Ga, which, &st);
            if (st) return st;
            cl_check_worst(res, e, "parameter set %d, draw %d", s, k);
        }
    }
    return CL_OK;
}

/* (38) against (21) projected by (33) (which = 0), and Theorem 9 against (38) (which = 1). */
static double forms_gap(rsrc par, const CL_FN(cl_hamel) *h, rsrc zeta, rsrc Ga, int thm9, int *st)
{
    cl_prec_t prec = r_prec(zeta);
    RV_DECL(z, 9, prec); RV_DECL(dz, 9, prec); RV_DECL(f, 5, prec); RV_DECL(fo, 5, prec);
    RV_DECL(dv, 3, prec); RV_DECL(dG, 3, prec);
    if ((*st = CL_FN(cl_skate_rhs_zeta)(f, par, zeta))) return NAN;
    if (thm9) {
        if ((*st = CL_FN(cl_hamel_rhs)(dv, dG, NULL, h, zeta, Ga))) return NAN;
        for (int i = 0; i < 3; i++) r_set(fo + i, dv + i);
        r_set(fo + 3, dG + 1); r_set(fo + 4, dG + 2);
    } else {
        CL_FN(cl_skate_zeta_to_z)(z, zeta);
        if ((*st = CL_FN(cl_skate_rhs_z)(dz, NULL, par, z))) return NAN;
        skate_zdot_to_zetadot(fo, z, dz);
    }
    return skate_log2_relerr(fo, f, 5);
}

static int forms_common(cl_check_result *res, cl_prec_t prec, int thm9)
{
    return over_skate_states(res, prec, thm9 ? 925 : 2125, forms_gap, thm9);
}

CL_CHECK(skate_z_zeta, "skate.forms.z_zeta", .chapter = "SKATE 3, 5", .tags = "[SKATE (17), (21), (33), (35b), (38)]", .what = "f(zeta) of (38) (its Gamma rows are (35b)) against the z-form (21), the skate's (17a)-(17b) with multipliers, projected by (33), 120 random consistent states (relative)", .cond = 1024, .why = "the z-form solves a 6x6 system with cond(G) about 1e3 and a 3x3 Schur system; (38) divides by I2 G2^2 + I3 G3^2 >= I3")
{ return forms_common(res, prec, 0); }
CL_CHECK(skate_thm9, "skate.forms.thm9", .chapter = "SKATE 4, 5", .tags = "[SKATE (23), (25)-(27), (31), (38)]", .what = "general Theorem 9 on the Hamel basis (31) against the hand-derived (38), 120 random states (relative)", .cond = 1024, .why = "a 6x6 inverse of the basis matrix, 6^5-term structure-constant sums and a 3x3 solve with cond about 1e3")
{ return forms_common(res, prec, 1); }

/* (7) against (34) at general states, and ℰ (30) against the z-form energy. */
CL_CHECK(skate_lagrangian, "skate.model.lagrangian", .chapter = "SKATE 2, 4", .tags = "[SKATE (7), (30), (34)]", .what = "(7) against (34) at general states; the energy (30) in zeta against the z-form energy (relative)", .cond = 64, .why = "a few dozen roundings of O(1) terms regrouped")
{
    cl_rng g;
    cl_rng_seed(&g, 734);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(z, 9, prec); RV_DECL(zeta, 5, prec);
    R_DECL(a, prec); R_DECL(b, prec);
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        for (int k = 0; k < DRAWS; k++) {
            for (int i = 0; i < 9; i++) r_set_d(z + i, cl_rng_normal(&g));
            CL_FN(cl_skate_lagrangian)(a, par, z);
            CL_FN(cl_skate_lagrangian_34)(b, par, z);
            cl_check_worst(res, skate_log2_diff(a, b, a), "(7) vs (34), set %d draw %d", s, k);
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            CL_FN(cl_skate_energy_z)(a, par, z);
            CL_FN(cl_skate_energy_zeta)(b, par, zeta);
            cl_check_worst(res, skate_log2_diff(a, b, a), "(30) vs z energy, set %d draw %d", s, k);
        }
    }
    return CL_OK;
}

/* DI·f = 0 for ℰ, C₁, C₂, C₃ along (38), relative to |DI||f|. */
CL_CHECK(skate_invariant_rates, "skate.invariants.rates", .chapter = "SKATE 5.2", .tags = "[SKATE (30), (36), (37)]", .what = "dI/dt = DI.f for E, C1, C2 (square-root prefactor), C3 along (38), 120 random states (relative to |DI||f|)", .cond = 256, .why = "cancellation of O(1) products in a 5-term dot product, C2 with an arctangent")
{
    cl_rng g;
    cl_rng_seed(&g, 3637);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(f, 5, prec);
    RV_DECL(DE, 5, prec); RV_DECL(DC, 15, prec); RV_DECL(HE, 25, prec); RV_DECL(HC, 75, prec);
    R_DECL(t, prec);
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        for (int k = 0; k < DRAWS; k++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_rhs_zeta)(f, par, zeta);
            int st = CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, par, zeta);
            if (st) return st;
            for (int q = 0; q < 4; q++) {
                rsrc D = q ? DC + 5 * (q - 1) : DE;
                r_set_zero(t);
                for (int i = 0; i < 5; i++) r_addmul(t, D + i, f + i);
                double e = r_log2abs(t) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(D, 5) + CL_FN(cl_rvec_log2_maxabs)(f, 5));
                cl_check_worst(res, e, "invariant %d, draw %d", q, k);
            }
        }
    }
    return CL_OK;
}

/* Df of (38) by hand against src/deriv, at the equilibria and random states. */
CL_CHECK(skate_jacobian, "skate.stability.jacobian", .chapter = "SKATE 5.4", .tags = "[SKATE (38), App. A.1]", .what = "hand-differentiated Df of (38) against src/deriv at the equilibria and random states (relative)", .cond = 64, .why = "src/deriv bounds its error by 2^(-p-8) per entry; the hand formulas add a few roundings")
{
    cl_rng g;
    cl_rng_seed(&g, 5151);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(J, 25, prec); RV_DECL(Jd, 25, prec);
    R_DECL(x, prec);
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        for (int k = 0; k < 8; k++) {
            if (k == 0) { r_set_d(x, 1.5); CL_FN(cl_skate_sliding)(zeta, x); }
            else if (k == 1) { r_set_d(x, -6.25); CL_FN(cl_skate_spinning)(zeta, x); }
            else skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_jacobian_zeta)(J, par, zeta);
            int st = CL_FN(cl_skate_jacobian_deriv)(Jd, NULL, par, zeta);
            if (st) return st;
            cl_check_worst(res, skate_log2_relerr(J, Jd, 25), "set %d, point %d (0 sliding, 1 spinning)", s, k);
        }
    }
    return CL_OK;
}

/* det(λ − Df) at ζ_sl, ζ_sp (Df by src/deriv) against λ³(λ² − κ) of Props. 11, 12. */
CL_CHECK(skate_eigen, "skate.stability.eigen", .chapter = "SKATE 5.4", .tags = "[SKATE Prop. 11, Prop. 12, App. A.1]", .what = "characteristic polynomial and eigenvalues (src/linalg) of Df (src/deriv) at sliding and spinning, 3 parameter sets, against {0, 0, 0, +-sqrt(kappa)} of Props. 11-12", .cond = 16384, .why = "Faddeev-LeVerrier on a 5x5 with entries up to 1e3: traces of products of up to five entries, divided by k; the Jacobian itself carries 2^(-p-8) from src/deriv")
{
    static const char *const xs[] = {"0.25", "2", "-9.5", "30"};
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(J, 25, prec);
    RV_DECL(cp, 6, prec); RV_DECL(want, 6, prec); RV_DECL(wr, 5, prec); RV_DECL(wi, 5, prec);
    R_DECL(x, prec); R_DECL(kap, prec); R_DECL(sq, prec); R_DECL(pr, prec); R_DECL(pi_, prec);
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        for (int which = 0; which < 2; which++)
            for (int q = 0; q < 4; q++) {
                CL_FN(cl_real_from_str)(x, xs[q]);
                if (which) CL_FN(cl_skate_spinning)(zeta, x); else CL_FN(cl_skate_sliding)(zeta, x);
                int st = CL_FN(cl_skate_jacobian_deriv)(J, NULL, par, zeta);
                if (st) return st;
                CL_FN(cl_charpoly)(cp, J, 5);
                CL_FN(cl_skate_equilibrium_kappa)(kap, par, which, x);
                for (int i = 0; i < 6; i++) r_set_zero(want + i);
                r_set_si(want + 5, 1);
                r_neg(want + 3, kap);
                cl_check_worst(res, skate_log2_relerr(cp, want, 6), "charpoly, set %d, equilibrium %d (0 sliding, 1 spinning)", s, which);
                /* eigenvalues by src/linalg against {0, 0, 0, ±√κ}, matched greedily */
                if ((st = CL_FN(cl_eig)(wr, wi, J, 5))) return st;
                r_abs(sq, kap); r_sqrt(sq, sq);
                int used[5] = {0};
                for (int i = 0; i < 5; i++) {
                    double best = INFINITY;
                    int bj = 0;
                    for (int j = 0; j < 5; j++) {
                        if (used[j]) continue;
                        /* predicted j: 0, 1, 2 zero; 3 = −√κ, 4 = +√κ (imaginary when κ < 0) */
                        r_set(pr, wr + i); r_set(pi_, wi + i);
                        if (j >= 3) {
                            if (r_sgn(kap) >= 0) { if (j == 3) r_add(pr, pr, sq); else r_sub(pr, pr, sq); }
                            else { if (j == 3) r_add(pi_, pi_, sq); else r_sub(pi_, pi_, sq); }
                        }
                        r_hypot(pr, pr, pi_);
                        double e = r_log2abs(pr);
                        if (e < best) { best = e; bj = j; }
                    }
                    used[bj] = 1;
                    cl_check_worst(res, best - fmax(0, r_log2abs(sq)), "eigenvalues, set %d, equilibrium %d", s, which);
                }
            }
    }
    return CL_OK;
}

/* App. A.1 (corrected tangent space): multipliers and restricted eigenvalues in closed form. */
CL_CHECK(skate_ec_spinning, "skate.stability.ec_spinning", .chapter = "SKATE App. A.1", .tags = "[SKATE (42), App. A.1]", .what = "Energy-Casimir multipliers (-W0, 0, I3 W0^2 - mgl) and restricted Hessian eigenvalues against closed forms; verdict against (42)", .cond = 1024, .why = "Householder QR of a 5x3, a 5x5 Hessian product and Jacobi rotations; eigenvalues relative to the largest")
{
    static const char *const xs[] = {"0.5", "3", "-12.5", "40"};
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(c, 3, prec); RV_DECL(cw, 3, prec);
    RV_DECL(eig, 2, prec); RV_DECL(ew, 2, prec);
    R_DECL(x, prec); R_DECL(t, prec); R_DECL(u, prec); R_DECL(mgl, prec); R_DECL(I1b, prec);
    cl_ec_report rep;
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED; s++) {
        skate_set_params(par, s);
        skate_mgl(mgl, par);
        skate_I_ml2(I1b, par, CL_SKATE_I1);
        for (int q = 0; q < 4; q++) {
            CL_FN(cl_real_from_str)(x, xs[q]);
            CL_FN(cl_skate_spinning)(zeta, x);
            int st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, par, zeta, 1024);
            if (st) return st;
            r_neg(cw, x); r_set_zero(cw + 1);
            r_sqr(t, x); r_mul(cw + 2, t, par + CL_SKATE_I3); r_sub(cw + 2, cw + 2, mgl);
            skate_I_ml2(u, par, CL_SKATE_I3);
            r_sub(u, u, par + CL_SKATE_I2); r_mul(u, u, t); r_sub(u, u, mgl);
            r_mul(t, par + CL_SKATE_L, x); r_sqr(t, t); r_mul_2si(t, t, 2); r_add_si(t, t, 1);
            r_div(u, u, t);
            if (r_cmp(u, I1b) < 0) { r_set(ew, u); r_set(ew + 1, I1b); } else { r_set(ew, I1b); r_set(ew + 1, u); }
            double e = skate_log2_relerr(c, cw, 3), e2 = skate_log2_relerr(eig, ew, 2);
            cl_check_worst(res, e > e2 ? e : e2, "set %d, Omega0 #%d", s, q);
            if (rep.definite != (r_sgn(u) > 0)) {
                cl_check_worst(res, INFINITY, "verdict disagrees with (42), set %d Omega0 #%d", s, q);
                return CL_OK;
            }
        }
    }
    return CL_OK;
}

/* Thresholds by bisection on the Energy–Casimir verdict against (42) and (58), relative. */
CL_CHECK(skate_thresholds, "skate.stability.thresholds", .chapter = "SKATE 5.4, 7.1", .tags = "[SKATE (42), (58), Prop. 16]", .what = "thresholds by bisection on the Energy-Casimir verdict against sqrt(mgl/(I3+ml^2-I2)) and -J1^2/(I1+ml^2) (relative)", .cond = 4096, .why = "bracket 2^(8-p); the sign change of the smallest eigenvalue moves by its rounding over its slope")
{
    RV_DECL(par, CL_SKATE_NPAR, prec);
    R_DECL(lo, prec); R_DECL(hi, prec); R_DECL(thr, prec); R_DECL(t, prec); R_DECL(u, prec); R_DECL(Y0, prec);
    cl_check_begin(res);
    for (int s = 0; s < 2; s++) {
        skate_set_params(par, s);
        r_set_q(lo, 1, 100); r_set_si(hi, 100);
        int st = CL_FN(cl_skate_spinning_threshold)(thr, par, lo, hi);
        if (st) return st;
        skate_mgl(t, par);
        skate_I_ml2(u, par, CL_SKATE_I3);
        r_sub(u, u, par + CL_SKATE_I2);
        r_div(t, t, u); r_sqrt(t, t);
        r_sub(u, thr, t);
        cl_check_worst(res, r_log2abs(u) - r_log2abs(t), "(42), set %d", s);
    }
    skate_set_params(par, SKATE_CONTROLLED);
    static const char *const y0s[] = {"1", "-0.3"};
    for (int q = 0; q < 2; q++) {
        CL_FN(cl_real_from_str)(Y0, y0s[q]);
        r_set_q(lo, -1, 10000); r_set_q(hi, -1, 10000000);
        int st = CL_FN(cl_skate_sigma_threshold)(thr, par, Y0, lo, hi);
        if (st) return st;
        skate_I_ml2(u, par, CL_SKATE_I1);
        r_sqr(t, par + CL_SKATE_J1); r_div(t, t, u); r_neg(t, t);
        r_sub(u, thr, t);
        cl_check_worst(res, r_log2abs(u) - r_log2abs(t), "(58), Y0 #%d", q);
    }
    return CL_OK;
}

/* Matching: closed loop (44) with the control law against (38) with Ĩ (57); and (47) on π̃ = 0 against (7) with Ĩ. */
CL_CHECK(skate_matching, "skate.control.matching", .chapter = "SKATE 6", .tags = "[SKATE (44), (47), (52), (53), (57)]", .what = "closed loop (44) with the control law (53) against the unforced skate with inertia (57); (47) on pi~=0 against (7) with (57)", .cond = 1024, .why = "7x7 solve with J1 = 0.005 beside O(1) inertias, and I1 + ml^2 + J1^2/sigma = -0.23 from a cancellation of 2.5 against 2.27")
{
    static const char *const sigmas[] = {"-0.00001", "-0.00002", "-0.002", "0.3"};
    cl_rng g;
    cl_rng_seed(&g, 5657);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(pm, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec);
    RV_DECL(z, 10, prec); RV_DECL(dz, 10, prec); RV_DECL(f, 5, prec); RV_DECL(fz, 5, prec);
    R_DECL(sig, prec); R_DECL(a, prec); R_DECL(b, prec); R_DECL(t, prec);
    cl_check_begin(res);
    skate_set_params(par, SKATE_CONTROLLED);
    for (int s = 0; s < 4; s++) {
        CL_FN(cl_real_from_str)(sig, sigmas[s]);
        CL_FN(cl_skate_matched_params)(pm, par, sig);
        for (int k = 0; k < DRAWS / 2; k++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            r_set_d(z + 9, cl_rng_normal(&g));
            int st = CL_FN(cl_skate_rhs_z_controlled)(dz, par, sig, z, 0);
            if (st) return st;
            skate_zdot_to_zetadot(fz, z, dz);
            if ((st = CL_FN(cl_skate_rhs_zeta)(f, pm, zeta))) return st;
            cl_check_worst(res, skate_log2_relerr(fz, f, 5), "closed loop, sigma #%d draw %d", s, k);
            r_div(t, par + CL_SKATE_J1, sig); r_add_si(t, t, -1); r_mul(z + 9, t, z);
            if ((st = CL_FN(cl_skate_lagrangian_controlled)(a, par, sig, z))) return st;
            CL_FN(cl_skate_lagrangian)(b, pm, z);
            cl_check_worst(res, skate_log2_diff(a, b, b), "(47) vs (57), sigma #%d draw %d", s, k);
        }
    }
    return CL_OK;
}


/* ------------------------------------- invariants: values against derivatives */

#if CL_PREC == CL_MPFR
/* (ℰ, C₁, C₂, C₃) at ζ, at the precision of the output; ctx: the parameters. */
int check_skate_inv_values(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    cl_skate_energy_zeta_mp(y, (mpfr_srcptr)ctx, x);
    return cl_skate_invariants_mp(y + 1, (mpfr_srcptr)ctx, x);
}

/* The hand gradients (Dℰ, DC₁, DC₂, DC₃) at ζ, 20 numbers. */
int check_skate_inv_grads(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    mpfr_prec_t p = mpfr_get_prec(y);
    mpfr_ptr H = cl_rvec_new_mp(100, p);
    if (!H) return CL_ENOMEM;
    int st = cl_skate_invariant_derivatives_mp(y, y + 5, H, H + 25, (mpfr_srcptr)ctx, x);
    cl_rvec_free_mp(H);
    return st;
}
#endif
int check_skate_inv_values(mpfr_ptr y, mpfr_srcptr x, void *ctx);
int check_skate_inv_grads(mpfr_ptr y, mpfr_srcptr x, void *ctx);

/* The hand-derived gradients and Hessians of ℰ and C₁, C₂, C₃ that feed the
 * Energy–Casimir test, against src/deriv: the gradients against the
 * Jacobian of the values (30), (36), (37), the Hessians against the
 * Jacobian of the hand gradients. The rates row reads the gradients along
 * the flow only, and no row read the Hessians away from the equilibria. */
CL_CHECK(skate_inv_derivs, "skate.invariants.derivatives", .chapter = "SKATE 5.2", .tags = "[SKATE (30), (36), (37), App. A.1]", .what = "hand gradients of E, C1, C2, C3 against src/deriv's Jacobian of their values (30), (36), (37), and the hand Hessians against the Jacobian of the hand gradients; 3 parameter sets x 3 random states (relative to max(1, |entries|))", .cond = 8192, .why = "src/deriv: 2^-p relative to max(|J|, 2^-12 |f|) (its file comment); the hand formulas a few dozen roundings")
{
    cl_rng g;
    cl_rng_seed(&g, 909);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec);
    RV_DECL(D, 20, prec); RV_DECL(H, 100, prec); RV_DECL(Dd, 20, prec); RV_DECL(Hd, 100, prec);
    cl_check_begin(res);
    int st = CL_OK;
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED && !st; s++) {
        skate_set_params(par, s);
        mpfr_ptr pm = cl_rvec_new_mp(CL_SKATE_NPAR, prec);
        if (!pm) return CL_ENOMEM;
        for (int i = 0; i < CL_SKATE_NPAR; i++) r_get_mpfr(pm + i, par + i);
        for (int k = 0; k < 3 && !st; k++) {
            skate_random_zeta(zeta, &g);
            if ((st = CL_FN(cl_skate_invariant_derivatives)(D, D + 5, H, H + 25, par, zeta))) break;
            if ((st = CL_FN(cl_jacobian)(Dd, NULL, check_skate_inv_values, pm, zeta, 5, 4))) break;
            if ((st = CL_FN(cl_jacobian)(Hd, NULL, check_skate_inv_grads, pm, zeta, 5, 20))) break;
            double sd = fmax(0, CL_FN(cl_rvec_log2_maxabs)(Dd, 20)), sh = fmax(0, CL_FN(cl_rvec_log2_maxabs)(Hd, 100));
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(D, Dd, 20) - sd, "gradients, set %d state %d", s, k);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(H, Hd, 100) - sh, "Hessians, set %d state %d", s, k);
        }
        cl_rvec_free_mp(pm);
    }
    return st;
}

/* The general Hamel system's energy against the skate's (30). */
static double hamel_energy_gap(rsrc par, const CL_FN(cl_hamel) *h, rsrc zeta, rsrc Ga, int which, int *st)
{
    RV_DECL(E, 2, r_prec(zeta));
    (void)which;
    if ((*st = CL_FN(cl_hamel_energy)(E, h, zeta, Ga))) return NAN;
    CL_FN(cl_skate_energy_zeta)(E + 1, par, zeta);
    return skate_log2_relerr(E, E + 1, 1);
}

/* The energy of the general Hamel system [SKATE (30)] (½ξᵀGξ + U from the
 * basis (31), which no field reads: the fields use dU) against the
 * skate's hand-written energy, at random ζ. */
CL_CHECK(skate_hamel_energy, "skate.hamel.energy", .chapter = "SKATE 4, 5", .tags = "[SKATE (30), (31)]", .what = "energy of the general Hamel system on the basis (31) against the skate's energy (30) in zeta, 3 parameter sets x 40 random states (relative)", .cond = 64, .why = "a 6x6 quadratic form in the Hamel basis against a few hand products")
{
    return over_skate_states(res, prec, 930, hamel_energy_gap, 0);
}

/* cl_skate_p against Σ_j 𝓔_ji (G ξ)_j, ξ = Σ_β 𝓔_β v^β. */
static double momenta_gap(rsrc par, const CL_FN(cl_hamel) *h, rsrc zeta, rsrc Ga, int which, int *st)
{
    cl_prec_t prec = r_prec(zeta);
    RV_DECL(p, 6, prec); RV_DECL(pw, 6, prec); RV_DECL(E, 36, prec); RV_DECL(dE, 108, prec);
    RV_DECL(xi, 6, prec); RV_DECL(Gx, 6, prec);
    const int n = h->n, na = h->n - h->r;
    (void)which;
    if (n != 6 || h->nx != 3) { *st = CL_EDIM; return NAN; }
    h->basis(E, dE, Ga, h->ctx);
    for (int j = 0; j < n; j++) {
        r_set_zero(xi + j);
        for (int b = 0; b < na; b++) r_addmul(xi + j, E + j * n + b, zeta + b);
    }
    for (int j = 0; j < n; j++) {
        r_set_zero(Gx + j);
        for (int l = 0; l < n; l++) r_addmul(Gx + j, h->G + j * n + l, xi + l);
    }
    for (int i = 0; i < n; i++) {
        r_set_zero(pw + i);
        for (int j = 0; j < n; j++) r_addmul(pw + i, E + j * n + i, Gx + j);
    }
    CL_FN(cl_skate_p)(p, par, zeta);
    return skate_log2_relerr(p, pw, 6);
}

/* The six momenta of §5.1 [SKATE (24)], written out by hand in
 * cl_skate_p, against (29): p_i = 𝒢_iβ v^β = Σ_j 𝓔_ji (G ξ)_j with
 * ξ = Σ_β 𝓔_β v^β from the Hamel basis (31) and the standard inertia G. */
CL_CHECK(skate_momenta, "skate.momenta.p", .chapter = "SKATE 5.1", .tags = "[SKATE (24), (29), (31)]", .what = "the momenta p_1..p_6 by hand (24) against G_(i beta) v^beta from the Hamel basis (31) and the inertia, 3 parameter sets x 40 random states (relative)", .cond = 64, .why = "two 6x6 products in the Hamel basis against a few hand products")
{
    return over_skate_states(res, prec, 931, momenta_gap, 0);
}

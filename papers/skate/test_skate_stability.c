/* SKATE §5.4 and App. A.1/A.4: characteristic polynomials at the equilibria
 * against Propositions 11–12, the Energy–Casimir multipliers and restricted
 * Hessians against their closed forms, and the thresholds (42), (58). */
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p);
    RV_DECL(J, 25, p); RV_DECL(cp, 6, p); RV_DECL(want, 6, p); RV_DECL(c, 3, p); RV_DECL(cw, 3, p);
    RV_DECL(eig, 2, p); RV_DECL(ew, 2, p);
    R_DECL(kap, p); R_DECL(x, p); R_DECL(t, p); R_DECL(u, p); R_DECL(mgl, p); R_DECL(lo, p); R_DECL(hi, p);
    R_DECL(thr, p); R_DECL(I1b, p); R_DECL(Y0, p); R_DECL(sig, p);
    cl_ec_report rep;
    double ecp = -INFINITY, ec = -INFINITY, ee = -INFINITY;
    int verdicts = 1;
    static const char *const xs[] = {"0.5", "3", "-12.5"};
    for (int set = 0; set < 3; set++) {
        skate_set_params(par, set);
        r_mul(mgl, par + CL_SKATE_M, par + CL_SKATE_G); r_mul(mgl, mgl, par + CL_SKATE_L);
        r_mul(I1b, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(I1b, I1b, par + CL_SKATE_L, par + CL_SKATE_I1);
        for (int which = 0; which < 2; which++)
            for (int q = 0; q < 3; q++) {
                CL_FN(cl_real_from_str)(x, xs[q]);
                if (which) CL_FN(cl_skate_spinning)(zeta, x); else CL_FN(cl_skate_sliding)(zeta, x);
                /* det(λ − Df) = λ³(λ² − κ) [Prop. 11, 12] */
                CL_FN(cl_skate_jacobian_deriv)(J, NULL, par, zeta);
                CL_FN(cl_charpoly)(cp, J, 5);
                CL_FN(cl_skate_equilibrium_kappa)(kap, par, which, x);
                for (int i = 0; i < 6; i++) r_set_zero(want + i);
                r_set_si(want + 5, 1);
                r_neg(want + 3, kap);
                double d = skate_log2_relerr(cp, want, 6);
                if (d > ecp) ecp = d;
                if (!which) continue;
                /* App. A.1: c = (−Ω₀, 0, I₃Ω₀² − mgl); restricted Hessian in the orthonormal
                 * basis {e₁, (0,0,−2lΩ₀,1,0)/√(1+4l²Ω₀²)}: diag(Ī₁, ((I₃+ml²−I₂)Ω₀² − mgl)/(1+4l²Ω₀²)) */
                int st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, par, zeta, 1024);
                if (st) verdicts = 0;
                r_neg(cw, x); r_set_zero(cw + 1);
                r_sqr(t, x); r_mul(cw + 2, t, par + CL_SKATE_I3); r_sub(cw + 2, cw + 2, mgl);
                d = skate_log2_relerr(c, cw, 3);
                if (d > ec) ec = d;
                r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I3);
                r_sub(u, u, par + CL_SKATE_I2);
                r_mul(u, u, t); r_sub(u, u, mgl);
                r_mul(t, par + CL_SKATE_L, x); r_sqr(t, t); r_mul_2si(t, t, 2); r_add_si(t, t, 1);
                r_div(u, u, t);
                if (r_cmp(u, I1b) < 0) { r_set(ew, u); r_set(ew + 1, I1b); } else { r_set(ew, I1b); r_set(ew + 1, u); }
                d = skate_log2_relerr(eig, ew, 2);
                if (d > ee) ee = d;
                /* verdict: definite iff (42) */
                if (rep.definite != (r_sgn(u) > 0 ? 1 : 0)) verdicts = 0;
            }
    }
    /* Faddeev–LeVerrier on a 5×5 with entries up to 10³: products of five entries */
    is_log2_below(ecp, tol_log2(p, 1 << 12), "charpoly at sliding/spinning = lambda^3 (lambda^2 - kappa) [Prop. 11, 12] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(ec, tol_log2(p, 256), "Energy-Casimir multipliers (-Omega0, 0, I3 Omega0^2 - mgl) [SKATE App. A.1] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(ee, tol_log2(p, 1024), "restricted Hessian eigenvalues [SKATE App. A.1] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(verdicts, "Energy-Casimir verdict at the spinning equilibrium follows (42) [%s, %ld bits]", TEST_KIND, (long)p);

    /* Errata evidence at the paper's skate, Ω₀ = 5 and Y₀ = 1:
     *  A.1: Df₁₄ at ζ_sp is (mgl + (I₂ + ml² − I₃)Ω₀²)/Ī₁, not the printed (mgl − (I₃ + ml² − I₂)Ω₀²)/Ī₁;
     *  A.1: e₄ is not in ker DC (DC₂·e₄ = 2lΩ₀);
     *  A.4: the Hessian entry (v², Γ₂) is −mlY₀, not the printed −mY₀. */
    {
        RV_DECL(DE, 5, p); RV_DECL(DC, 15, p); RV_DECL(HE, 25, p); RV_DECL(HC, 75, p);
        skate_set_params(par, 0);
        r_mul(mgl, par + CL_SKATE_M, par + CL_SKATE_G); r_mul(mgl, mgl, par + CL_SKATE_L);
        r_mul(I1b, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(I1b, I1b, par + CL_SKATE_L, par + CL_SKATE_I1);
        r_set_si(x, 5);
        CL_FN(cl_skate_spinning)(zeta, x);
        CL_FN(cl_skate_jacobian_deriv)(J, NULL, par, zeta);
        r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I2);
        r_sub(u, u, par + CL_SKATE_I3); r_sqr(t, x); r_mul(u, u, t); r_add(u, u, mgl); r_div(u, u, I1b);
        is_real(J + 3, u, 64, "A.1: Df_14 = (mgl + (I2 + ml^2 - I3) W0^2)/(I1 + ml^2) (src/deriv)");
        r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I3);
        r_sub(u, u, par + CL_SKATE_I2); r_mul(u, u, t); r_sub(u, mgl, u); r_div(u, u, I1b);
        r_sub(u, u, J + 3);
        ok(r_cmp_d(u, -1) < 0, "A.1: the printed Df_14 differs by 2 ml^2 W0^2/(I1 + ml^2) = %.4g [%s, %ld bits]", -r_get_d(u), TEST_KIND, (long)p);
        CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, par, zeta);
        r_mul(u, par + CL_SKATE_L, x); r_mul_2si(u, u, 1);
        is_real(DC + 5 + 3, u, 16, "A.1: DC2 . e4 = 2 l W0 (e4 is not tangent to the level set)");
        /* A.4 on the matched skate at σ = −10⁻⁵ */
        skate_set_params(par, 3);
        r_set_q(sig, -1, 100000);
        CL_FN(cl_skate_matched_params)(pm, par, sig);
        r_set_si(Y0, 1);
        CL_FN(cl_skate_sliding)(zeta, Y0);
        CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, pm, zeta);
        /* ℋ₂₄ = HE₂₄ + c₂ HC₂,₂₄ with c₂ = −mY₀ */
        r_mul(t, pm + CL_SKATE_M, Y0); r_neg(t, t);
        r_set(u, HE + 5 * 1 + 3); r_addmul(u, t, HC + 25 + 5 * 1 + 3);
        r_mul(t, pm + CL_SKATE_M, pm + CL_SKATE_L); r_mul(t, t, Y0); r_neg(t, t);
        is_real(u, t, 16, "A.4: Hessian entry (v2, Gamma2) = -m l Y0 (printed -m Y0)");
    }

    /* threshold (42): √(mgl/(I₃ + ml² − I₂)) by bisection, sets 0 and 1 */
    for (int set = 0; set < 2; set++) {
        skate_set_params(par, set);
        r_set_q(lo, 1, 100); r_set_si(hi, 100);
        int st = CL_FN(cl_skate_spinning_threshold)(thr, par, lo, hi);
        r_mul(mgl, par + CL_SKATE_M, par + CL_SKATE_G); r_mul(mgl, mgl, par + CL_SKATE_L);
        r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I3);
        r_sub(u, u, par + CL_SKATE_I2);
        r_div(t, mgl, u); r_sqrt(t, t);
        ok(st == CL_OK, "spinning threshold bisection converged [%s, %ld bits]", TEST_KIND, (long)p);
        /* bracket 2^(8−p) relative; the eigenvalue's rounding moves the sign change by ~2^(10−p) */
        is_real(thr, t, 4096, "spinning threshold equals (42)");
    }
    skate_set_params(par, 2);
    r_set_q(lo, 1, 100); r_set_si(hi, 100);
    ok(CL_FN(cl_skate_spinning_threshold)(thr, par, lo, hi) == CL_EDOMAIN, "no threshold when I3 + ml^2 < I2 [%s, %ld bits]", TEST_KIND, (long)p);

    /* Prop. 16 / (58) on the controlled skate of §7.3 */
    skate_set_params(par, 3);
    r_set_si(Y0, 1);
    r_set_q(lo, -1, 10000); r_set_q(hi, -1, 10000000);
    int st = CL_FN(cl_skate_sigma_threshold)(sig, par, Y0, lo, hi);
    r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L); r_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I1);
    r_sqr(t, par + CL_SKATE_J1); r_div(t, t, u); r_neg(t, t);
    ok(st == CL_OK, "sigma threshold bisection converged [%s, %ld bits]", TEST_KIND, (long)p);
    is_real(sig, t, 4096, "sigma threshold equals (58): -J1^2/(I1 + ml^2)");
    /* App. A.4 at σ = −10⁻⁵: c = (0, −mY₀, −mgl), eigenvalues {−mgl, I₁ + ml² + J₁²/σ} */
    r_set_q(sig, -1, 100000);
    CL_FN(cl_skate_matched_params)(pm, par, sig);
    CL_FN(cl_skate_sliding)(zeta, Y0);
    st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, pm, zeta, 1024);
    r_mul(mgl, par + CL_SKATE_M, par + CL_SKATE_G); r_mul(mgl, mgl, par + CL_SKATE_L);
    r_set_zero(cw); r_mul(cw + 1, par + CL_SKATE_M, Y0); r_neg(cw + 1, cw + 1); r_neg(cw + 2, mgl);
    CL_FN(cl_skate_prop16_coefficient)(u, par, sig);
    r_neg(ew, mgl); r_set(ew + 1, u);
    if (r_cmp(ew, ew + 1) > 0) r_swap(ew, ew + 1);
    ok(st == CL_OK && rep.definite == -1, "controlled sliding equilibrium negative definite at sigma = -1e-5 [Prop. 16] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(skate_log2_relerr(c, cw, 3), tol_log2(p, 256), "A.4 multipliers (0, -m Y0, -mgl) [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(skate_log2_relerr(eig, ew, 2), tol_log2(p, 1024), "A.4 restricted form diag(I1 + ml^2 + J1^2/sigma, -mgl) [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    return done_testing();
}

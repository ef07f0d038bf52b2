/* SKATE §5.4 and App. A.1/A.4: the errata of A.1 and A.4, the multipliers and
 * restricted form of the controlled sliding equilibrium (Prop. 16), and the
 * refused spinning threshold. The characteristic polynomials, the A.1
 * multipliers and eigenvalues and the thresholds (42), (58) are oracle rows
 * (skate.stability.eigen, skate.stability.ec_spinning, skate.stability.thresholds). */
#include "tap_main.h"
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p);
    RV_DECL(J, 25, p); RV_DECL(c, 3, p); RV_DECL(cw, 3, p); RV_DECL(eig, 2, p); RV_DECL(ew, 2, p);
    RV_DECL(DE, 5, p); RV_DECL(DC, 15, p); RV_DECL(HE, 25, p); RV_DECL(HC, 75, p);
    R_DECL(x, p); R_DECL(t, p); R_DECL(u, p); R_DECL(mgl, p); R_DECL(lo, p); R_DECL(hi, p);
    R_DECL(thr, p); R_DECL(I1b, p); R_DECL(Y0, p); R_DECL(sig, p);
    cl_ec_report rep;

    /* Errata evidence at the paper's skate, Ω₀ = 5:
     *  A.1: Df₁₄ at ζ_sp is (mgl + (I₂ + ml² − I₃)Ω₀²)/Ī₁, not the printed (mgl − (I₃ + ml² − I₂)Ω₀²)/Ī₁;
     *  A.1: e₄ is not in ker DC (DC₂·e₄ = 2lΩ₀). */
    skate_set_params(par, SKATE_PAPER);
    skate_mgl(mgl, par);
    skate_I_ml2(I1b, par, CL_SKATE_I1);
    r_set_si(x, 5);
    CL_FN(cl_skate_spinning)(zeta, x);
    CL_FN(cl_skate_jacobian_deriv)(J, NULL, par, zeta);
    skate_I_ml2(u, par, CL_SKATE_I2);
    r_sub(u, u, par + CL_SKATE_I3); r_sqr(t, x); r_mul(u, u, t); r_add(u, u, mgl); r_div(u, u, I1b);
    is_real(J + 3, u, 64, "A.1: Df_14 = (mgl + (I2 + ml^2 - I3) W0^2)/(I1 + ml^2) (src/deriv)");
    skate_I_ml2(u, par, CL_SKATE_I3);
    r_sub(u, u, par + CL_SKATE_I2); r_mul(u, u, t); r_sub(u, mgl, u); r_div(u, u, I1b);
    r_sub(u, u, J + 3);
    ok(r_cmp_d(u, -1) < 0, "A.1: the printed Df_14 differs by 2 ml^2 W0^2/(I1 + ml^2) = %.4g [%s, %ld bits]", -r_get_d(u), TEST_KIND, (long)p);
    CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, par, zeta);
    r_mul(u, par + CL_SKATE_L, x); r_mul_2si(u, u, 1);
    is_real(DC + 5 + 3, u, 16, "A.1: DC2 . e4 = 2 l W0 (e4 is not tangent to the level set)");

    /* A.4 on the controlled skate of §7.3, matched (57) at σ = −10⁻⁵, sliding with Y₀ = 1 */
    skate_set_params(par, SKATE_CONTROLLED);
    r_set_q(sig, -1, 100000);
    CL_FN(cl_skate_matched_params)(pm, par, sig);
    r_set_si(Y0, 1);
    CL_FN(cl_skate_sliding)(zeta, Y0);
    /* erratum: the Hessian entry (v², Γ₂) is −mlY₀, not the printed −mY₀; ℋ₂₄ = HE₂₄ + c₂ HC₂,₂₄ with c₂ = −mY₀ */
    CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, pm, zeta);
    r_mul(t, pm + CL_SKATE_M, Y0); r_neg(t, t);
    r_set(u, HE + 5 * 1 + 3); r_addmul(u, t, HC + 25 + 5 * 1 + 3);
    r_mul(t, pm + CL_SKATE_M, pm + CL_SKATE_L); r_mul(t, t, Y0); r_neg(t, t);
    is_real(u, t, 16, "A.4: Hessian entry (v2, Gamma2) = -m l Y0 (printed -m Y0)");
    /* c = (0, −mY₀, −mgl), restricted eigenvalues {−mgl, I₁ + ml² + J₁²/σ} */
    int st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, pm, zeta, 1024);
    skate_mgl(mgl, par);
    r_set_zero(cw); r_mul(cw + 1, par + CL_SKATE_M, Y0); r_neg(cw + 1, cw + 1); r_neg(cw + 2, mgl);
    CL_FN(cl_skate_prop16_coefficient)(u, par, sig);
    r_neg(ew, mgl); r_set(ew + 1, u);
    if (r_cmp(ew, ew + 1) > 0) r_swap(ew, ew + 1);
    ok(st == CL_OK && rep.definite == -1, "controlled sliding equilibrium negative definite at sigma = -1e-5 [Prop. 16] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(skate_log2_relerr(c, cw, 3), tol_log2(p, 256), "A.4 multipliers (0, -m Y0, -mgl) [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(skate_log2_relerr(eig, ew, 2), tol_log2(p, 1024), "A.4 restricted form diag(I1 + ml^2 + J1^2/sigma, -mgl) [%s, %ld bits]", TEST_KIND, (long)p);

    skate_set_params(par, SKATE_SPIN_UNSTABLE);
    r_set_q(lo, 1, 100); r_set_si(hi, 100);
    ok(CL_FN(cl_skate_spinning_threshold)(thr, par, lo, hi) == CL_EDOMAIN, "no threshold when I3 + ml^2 < I2 [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void) { return cl_test_main(run); }

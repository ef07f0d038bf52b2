/* SKATE §5: the printed third component of (38), the equilibria (39)–(41),
 * and the printed prefactor of (37). The field against the z-form, the
 * invariants along it and the hand Jacobian are oracle rows
 * (skate.forms.z_zeta, skate.invariants.rates, skate.stability.jacobian). */
#include "tap_main.h"
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 38);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p); RV_DECL(f, 5, p); RV_DECL(eq, 2, p);
    R_DECL(t, p); R_DECL(u, p); R_DECL(A, p); R_DECL(x, p); R_DECL(pref, p);
    double e38 = -INFINITY, eprinted = INFINITY;
    int eqok = 1;
    for (int set = 0; set < SKATE_NSETS_UNCONTROLLED; set++) {
        skate_set_params(par, set);
        for (int trial = 0; trial < 4; trial++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_rhs_zeta)(f, par, zeta);
            /* printed third component of (38) with l for "I": −2lI₃Γ₃v¹v²/(I₂Γ₂² + I₃Γ₃²) */
            r_sqr(A, zeta + 3); r_mul(A, A, par + CL_SKATE_I2); r_sqr(t, zeta + 4); r_addmul(A, t, par + CL_SKATE_I3);
            r_mul(t, par + CL_SKATE_L, par + CL_SKATE_I3); r_mul_2si(t, t, 1); r_mul(t, t, zeta + 4);
            r_mul(t, t, zeta); r_mul(t, t, zeta + 1); r_div(t, t, A); r_neg(t, t);
            e38 = fmax(e38, skate_log2_diff(t, f + 2, f + 2));
            /* (37) with the printed prefactor l/(I₃(I₂−I₃)): its rate is not zero */
            r_sub(u, par + CL_SKATE_I2, par + CL_SKATE_I3);
            r_mul(pref, u, par + CL_SKATE_I3);
            r_div(x, u, par + CL_SKATE_I3); r_sqrt(x, x);
            /* dC₂/dt = ṗ₃/m + prefactor·C₁·d/dt atan(xΓ₂); with ṗ₃/m = −lΓ₃v¹v² */
            r_mul(t, x, zeta + 3); r_sqr(t, t); r_add_si(t, t, 1); r_div(t, x, t);   /* d atan/dΓ₂ */
            r_mul(t, t, f + 3);
            r_mul(u, A, zeta + 1);                 /* C₁ */
            r_mul(t, t, u);
            r_mul(t, t, par + CL_SKATE_L);
            r_div(t, t, pref);
            r_mul(u, par + CL_SKATE_L, zeta + 4); r_mul(u, u, zeta); r_mul(u, u, zeta + 1);
            r_sub(t, t, u);
            eprinted = fmin(eprinted, r_log2abs(t) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(f, 5)));
        }
        /* equilibria: f vanishes exactly at [SKATE (40)], [SKATE (41)], and [SKATE (39)] holds */
        r_set_d(t, 1.25);
        CL_FN(cl_skate_sliding)(zeta, t);
        CL_FN(cl_skate_rhs_zeta)(f, par, zeta);
        CL_FN(cl_skate_equilibrium_residual)(eq, par, zeta);
        if (CL_FN(cl_rvec_log2_maxabs)(f, 5) > -INFINITY || CL_FN(cl_rvec_log2_maxabs)(eq, 2) > -INFINITY) eqok = 0;
        r_set_d(t, -7.5);
        CL_FN(cl_skate_spinning)(zeta, t);
        CL_FN(cl_skate_rhs_zeta)(f, par, zeta);
        CL_FN(cl_skate_equilibrium_residual)(eq, par, zeta);
        if (CL_FN(cl_rvec_log2_maxabs)(f, 5) > -INFINITY || CL_FN(cl_rvec_log2_maxabs)(eq, 2) > -INFINITY) eqok = 0;
    }
    is_log2_below(e38, tol_log2(p, 64), "third component equals the printed -2 l I3 Gamma3 v1 v2 / A on the circle [SKATE (38)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(eprinted > -20, "printed prefactor of (37) gives a non-invariant (rate 2^%.1f) [SKATE (37)] [%s, %ld bits]", eprinted, TEST_KIND, (long)p);
    ok(eqok, "f = 0 and (39) holds at the sliding (40) and spinning (41) equilibria [%s, %ld bits]", TEST_KIND, (long)p);
    /* C₂ needs I₂ > I₃ */
    skate_set_params(par, SKATE_PAPER);
    r_set(par + CL_SKATE_I2, par + CL_SKATE_I3);
    ok(CL_FN(cl_skate_invariants)(f, par, zeta) == CL_EPARAM, "C2 refuses I2 = I3 [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void) { return cl_test_main(run); }

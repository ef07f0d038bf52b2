/* SKATE §5: the field (38) against the z-form, the invariants (30), (36),
 * (37), C₃ along it, the equilibria (39)–(41), the hand Jacobian against
 * src/deriv, and the printed prefactor of (37). */
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 38);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p); RV_DECL(z, 9, p); RV_DECL(dz, 9, p);
    RV_DECL(f, 5, p); RV_DECL(fz, 5, p); RV_DECL(DE, 5, p); RV_DECL(DC, 15, p); RV_DECL(HE, 25, p);
    RV_DECL(HC, 75, p); RV_DECL(J, 25, p); RV_DECL(Jd, 25, p); RV_DECL(eq, 2, p);
    R_DECL(t, p); R_DECL(u, p); R_DECL(A, p); R_DECL(x, p); R_DECL(pref, p); R_DECL(one, p);
    double ef = -INFINITY, einv = -INFINITY, ej = -INFINITY, e38 = -INFINITY, eprinted = INFINITY;
    int eqok = 1;
    r_set_si(one, 1);
    for (int set = 0; set < 3; set++) {
        skate_set_params(par, set);
        for (int trial = 0; trial < 4; trial++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_rhs_zeta)(f, par, zeta);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            CL_FN(cl_skate_rhs_z)(dz, NULL, par, z);
            skate_zdot_to_zetadot(fz, z, dz);
            double d = skate_log2_relerr(f, fz, 5);
            if (d > ef) ef = d;
            /* printed third component of (38) with l for "I": −2lI₃Γ₃v¹v²/(I₂Γ₂² + I₃Γ₃²) */
            r_sqr(A, zeta + 3); r_mul(A, A, par + CL_SKATE_I2); r_sqr(t, zeta + 4); r_addmul(A, t, par + CL_SKATE_I3);
            r_mul(t, par + CL_SKATE_L, par + CL_SKATE_I3); r_mul_2si(t, t, 1); r_mul(t, t, zeta + 4);
            r_mul(t, t, zeta); r_mul(t, t, zeta + 1); r_div(t, t, A); r_neg(t, t);
            r_sub(t, t, f + 2);
            d = r_log2abs(t) - fmax(0, r_log2abs(f + 2));
            if (d > e38) e38 = d;
            /* dI/dt = DI · f = 0 for ℰ, C₁, C₂, C₃ */
            CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, par, zeta);
            for (int k = 0; k < 4; k++) {
                rsrc D = k ? DC + 5 * (k - 1) : DE;
                r_set_zero(t);
                for (int i = 0; i < 5; i++) r_addmul(t, D + i, f + i);
                d = r_log2abs(t) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(D, 5) + CL_FN(cl_rvec_log2_maxabs)(f, 5));
                if (d > einv) einv = d;
            }
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
            d = r_log2abs(t) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(f, 5));
            if (d < eprinted) eprinted = d;
            /* Jacobian by hand and by src/deriv */
            CL_FN(cl_skate_jacobian_zeta)(J, par, zeta);
            CL_FN(cl_skate_jacobian_deriv)(Jd, NULL, par, zeta);
            d = skate_log2_relerr(J, Jd, 25);
            if (d > ej) ej = d;
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
    /* z-form: 6×6 and 3×3 solves, cond(𝔾) ≈ 10³ */
    is_log2_below(ef, tol_log2(p, 1 << 14), "(38) equals the z-form (21) projected by (33) [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(e38, tol_log2(p, 64), "third component equals the printed -2 l I3 Gamma3 v1 v2 / A on the circle [SKATE (38)] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(einv, tol_log2(p, 256), "E, C1, C2, C3 have zero rate along (38) [SKATE (30), (36), (37)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(eprinted > -20, "printed prefactor of (37) gives a non-invariant (rate 2^%.1f) [SKATE (37)] [%s, %ld bits]", eprinted, TEST_KIND, (long)p);
    /* deriv's bound is 2^(−p−8) relative per entry; the hand formulas add a few roundings */
    is_log2_below(ej, tol_log2(p, 64), "hand Jacobian equals src/deriv [%s, %ld bits]", TEST_KIND, (long)p);
    ok(eqok, "f = 0 and (39) holds at the sliding (40) and spinning (41) equilibria [%s, %ld bits]", TEST_KIND, (long)p);
    /* C₂ needs I₂ > I₃ */
    skate_set_params(par, 0);
    r_set(par + CL_SKATE_I2, par + CL_SKATE_I3);
    ok(CL_FN(cl_skate_invariants)(f, par, zeta) == CL_EPARAM, "C2 refuses I2 = I3 [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    return done_testing();
}

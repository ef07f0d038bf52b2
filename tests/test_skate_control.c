/* SKATE §6–§7: the rotor Lagrangian (55), the controlled Lagrangian (47)
 * on π̃ = 0 against (7) with the inertia (57), and the closed loop (44) with
 * the control law against the matched system; the printed (56) does not match. */
#include "skate_common.h"

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 56);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p);
    RV_DECL(z, 10, p); RV_DECL(dz, 10, p); RV_DECL(f, 5, p); RV_DECL(fz, 5, p);
    R_DECL(sig, p); R_DECL(a, p); R_DECL(b, p); R_DECL(t, p); R_DECL(u, p); R_DECL(ml, p);
    int printed55 = 1;
    double el = -INFINITY, e55 = -INFINITY, em = -INFINITY, ep = -INFINITY;
    skate_set_params(par, 3);
    r_mul(ml, par + CL_SKATE_M, par + CL_SKATE_L);
    static const char *const sigmas[] = {"-0.00001", "-0.002", "0.3"};
    for (int s = 0; s < 3; s++) {
        CL_FN(cl_real_from_str)(sig, sigmas[s]);
        CL_FN(cl_skate_matched_params)(pm, par, sig);
        for (int trial = 0; trial < 4; trial++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            /* (47) at θ̇ = (J₁/σ − 1)Ω₁ (π̃ = 0) equals (7) with Ĩ (57) */
            r_div(t, par + CL_SKATE_J1, sig); r_add_si(t, t, -1); r_mul(z + 9, t, z);
            CL_FN(cl_skate_lagrangian_controlled)(a, par, sig, z);
            CL_FN(cl_skate_lagrangian)(b, pm, z);
            r_sub(t, a, b);
            double d = r_log2abs(t) - fmax(0, r_log2abs(b));
            if (d > el) el = d;
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
            r_sub(t, a, b);
            d = r_log2abs(t) - fmax(0, r_log2abs(b));
            if (d > e55) e55 = d;
            /* the printed first line has m‖Y‖² (no ½): it differs by ½m‖Y‖² */
            v3_dot(u, z + 3, z + 3); r_mul(u, u, par + CL_SKATE_M); r_mul_2si(u, u, -1);
            r_add(t, a, u); r_sub(t, t, b);
            d = r_log2abs(t) - r_log2abs(u);
            if (d < -1) printed55 = 0; /* the printed line would agree with 𝔾 */
            /* closed loop (44) + control law: ζ̇ equals the matched field (38) with Ĩ */
            CL_FN(cl_skate_rhs_z_controlled)(dz, par, sig, z, 0);
            skate_zdot_to_zetadot(fz, z, dz);
            CL_FN(cl_skate_rhs_zeta)(f, pm, zeta);
            d = skate_log2_relerr(fz, f, 5);
            if (d > em) em = d;
            CL_FN(cl_skate_rhs_z_controlled)(dz, par, sig, z, 1);
            skate_zdot_to_zetadot(fz, z, dz);
            d = skate_log2_relerr(fz, f, 5);
            if (s == 0 && d > ep) ep = d; /* the paper's σ = −10⁻⁵ */
        }
    }
    is_log2_below(el, tol_log2(p, 1 << 16), "(47) with (52) on pi~ = 0 equals (7) with inertia (57) [SKATE (47), (57)] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(e55, tol_log2(p, 64), "rotor Lagrangian (55) with 1/2 m |Y|^2 equals 1/2 xi^T G xi with the printed G [SKATE (55)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(printed55, "the printed first line of (55) (m |Y|^2) differs from the printed G by m|Y|^2/2 [%s, %ld bits]", TEST_KIND, (long)p);
    /* 7×7 solve with J₁ = 0.005 against O(1) inertias, and |Ĩ₁ + ml²| small at σ = −10⁻⁵ */
    is_log2_below(em, tol_log2(p, 1 << 20), "closed loop (44) with the control law equals the matched system (57) [SKATE (53), (57)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(ep > -10, "the printed control law (56) does not match (57) at sigma = -1e-5 (gap 2^%.1f) [%s, %ld bits]", ep, TEST_KIND, (long)p);
    r_set_zero(sig);
    ok(CL_FN(cl_skate_control_law)(t, par, sig, z) == CL_EDOMAIN, "sigma = 0 rejected [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    return done_testing();
}

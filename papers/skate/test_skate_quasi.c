/* SKATE §4: the general Theorem 9 machinery on the skate's Hamel basis (31),
 * compared with the z-form (21) and with the closed forms printed in §5.1. */
#include "tap_main.h"
#include "skate_fixtures_impl.h"

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 9);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(store, CL_SKATE_HAMEL_STORE, p);
    RV_DECL(zeta, 5, p); RV_DECL(z, 9, p); RV_DECL(dz, 9, p); RV_DECL(fz, 5, p); RV_DECL(fh, 5, p);
    RV_DECL(Ga, 3, p); RV_DECL(dv, 3, p); RV_DECL(dG, 3, p); RV_DECL(pd, 3, p); RV_DECL(pw, 3, p);
    RV_DECL(C, 216, p);
    R_DECL(a, p); R_DECL(b, p); R_DECL(t, p); R_DECL(u, p); R_DECL(ml, p);
    CL_FN(cl_hamel) h;
    double ef = -INFINITY, ep = -INFINITY, eE = -INFINITY, eC = -INFINITY;
    int c12 = 1, c23 = 1;
    for (int set = 0; set < SKATE_NSETS_UNCONTROLLED; set++) {
        skate_set_params(par, set);
        /* the skate in its Hamel basis [SKATE (22)], [SKATE (31)], with D𝓔 [SKATE (32)] */
        CL_FN(cl_skate_hamel)(&h, store, par);
        r_mul(ml, par + CL_SKATE_M, par + CL_SKATE_L);
        for (int trial = 0; trial < 4; trial++) {
            skate_random_zeta(zeta, &g);
            r_set_zero(Ga); r_set(Ga + 1, zeta + 3); r_set(Ga + 2, zeta + 4);
            CL_FN(cl_hamel_rhs)(dv, dG, pd, &h, zeta, Ga);
            for (int i = 0; i < 3; i++) r_set(fh + i, dv + i);
            r_set(fh + 3, dG + 1); r_set(fh + 4, dG + 2);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            CL_FN(cl_skate_rhs_z)(dz, NULL, par, z);
            skate_zdot_to_zetadot(fz, z, dz);
            double d = skate_log2_relerr(fh, fz, 5);
            if (d > ef) ef = d;
            d = r_log2abs(dG);
            if (d > ef) ef = d;
            /* (35a) right-hand side as printed; its gravity term mglΓ₂ reaches
               Theorem 9 only through K(y, Γ) = (y × Γ, 0) [SKATE (20)] */
            rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
            r_fma(t, ml, par + CL_SKATE_L, par + CL_SKATE_I2);
            r_sub(t, t, par + CL_SKATE_I3);
            r_mul(t, t, G2); r_mul(t, t, G3); r_sqr(u, v2); r_mul(pw, t, u);
            r_mul(t, ml, G3); r_mul(t, t, v2); r_addmul(pw, t, v3);
            r_mul(t, ml, par + CL_SKATE_G); r_addmul(pw, t, G2);
            r_mul(t, ml, G3); r_mul(t, t, v3); r_mul(pw + 1, t, v1);
            r_mul(t, ml, G3); r_mul(t, t, v1); r_mul(t, t, v2); r_neg(pw + 2, t);
            d = skate_log2_relerr(pd, pw, 3);
            if (d > ep) ep = d;
            /* (30) by the general machinery and by the closed form in ζ: cl_hamel_energy
               builds 𝒢_αβ(Γ) = 𝔾_kl 𝓔_α^k 𝓔_β^l [SKATE (29)] from the basis (31) */
            CL_FN(cl_hamel_energy)(a, &h, zeta, Ga);
            CL_FN(cl_skate_energy_zeta)(b, par, zeta);
            r_sub(t, a, b);
            d = r_log2abs(t) - fmax(0, r_log2abs(b));
            if (d > eE) eE = d;
            /* (23): [𝓔₁, 𝓔₂] = (E₁×Γ, 0) = 𝓔₄ and [𝓔₂, 𝓔₃] = (0, Γ×E₁) = −𝓔₆; antisymmetry */
            CL_FN(cl_hamel_structure)(C, &h, Ga);
            r_add_si(t, C + (0 * 6 + 1) * 6 + 3, -1);
            if (r_log2abs(t) > tol_log2(p, 16)) c12 = 0;
            r_add_si(t, C + (1 * 6 + 2) * 6 + 5, 1);
            if (r_log2abs(t) > tol_log2(p, 16)) c23 = 0;
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++)
                    for (int k = 0; k < 6; k++) {
                        r_add(t, C + (i * 6 + j) * 6 + k, C + (j * 6 + i) * 6 + k);
                        d = r_log2abs(t);
                        if (d > eC) eC = d;
                    }
        }
    }
    /* a 6×6 inverse, 6⁵ products and a 3×3 solve: condition ≈ 10³ for these inertias */
    is_log2_below(ef, tol_log2(p, 1 << 14), "Theorem 9 (25) equals the z-form (21) on zeta [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(ep, tol_log2(p, 256), "Theorem 9 p-dot equals (35a) [SKATE (35a)] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(eE, tol_log2(p, 64), "energy (30) from G-cal equals the closed form [SKATE (30)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(c12, "C_12^4 = +1: [E1, E2] = E4 [SKATE (23)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(c23, "C_23^6 = -1: [E2, E3] = -E6 [SKATE (23)] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(eC, tol_log2(p, 16), "C_ij^k antisymmetric in ij [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void) { return cl_test_main(run); }

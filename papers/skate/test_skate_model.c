/* SKATE §2–§3: the reduced Lagrangian (7)/(34), the constraints (19), the
 * z-form (21) with multipliers, and the rotor z-form of §6. */
#include "tap_main.h"
#include "skate_fixtures_impl.h"

/* At a general (not constraint-consistent) state z: log2 of the error of ℓ = ½ξᵀ𝔾ξ − mglΓ₃ (*eG)
 * and of the momenta Π = ĪΩ + ml E₃×Y, P = m(Y + lΩ×E₃) written out from §5.1 (*emu). */
static void lagrangian_identities(rsrc par, rsrc G, rsrc z, double *eG, double *emu, cl_prec_t p)
{
    RV_DECL(mu, 6, p); RV_DECL(want, 6, p); RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    R_DECL(a, p); R_DECL(t, p); R_DECL(u, p);
    r_set_si(e3 + 2, 1);
    CL_FN(cl_skate_lagrangian)(a, par, z);
    r_set_zero(t);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) { r_mul(u, G + 6 * i + j, z + i); r_addmul(t, u, z + j); }
    r_mul_2si(t, t, -1);
    skate_mgl(u, par);
    r_submul(t, u, z + 8);
    *eG = fmax(*eG, skate_log2_diff(t, a, a));
    CL_FN(cl_skate_momenta)(mu, par, z);
    r_mul(u, par + CL_SKATE_M, par + CL_SKATE_L);
    v3_cross(w, e3, z + 3);
    for (int i = 0; i < 3; i++) {
        r_mul(want + i, u, w + i);
        r_set(t, par + CL_SKATE_I1 + i);
        if (i < 2) r_addmul(t, u, par + CL_SKATE_L);
        r_addmul(want + i, t, z + i);
    }
    v3_cross(w, z, e3);
    for (int i = 0; i < 3; i++) {
        r_fma(t, par + CL_SKATE_L, w + i, z + 3 + i);
        r_mul(want + 3 + i, par + CL_SKATE_M, t);
    }
    *emu = fmax(*emu, skate_log2_relerr(mu, want, 6));
}

/* z-form at a consistent state z: energy rate ξᵀ𝔾ξ̇ + mglΓ̇₃ = 0 (*eE), Γ̇₁ = 0 and d|Γ|²/dt = 0 (*ec),
 * so the constraints are preserved: d/dt⟨ψᵃ, ξ⟩ = 0. */
static void zform_conservation(rsrc par, rsrc z, double *eE, double *ec, cl_prec_t p)
{
    RV_DECL(dz, 10, p); RV_DECL(lam, 3, p); RV_DECL(mu, 6, p);
    R_DECL(t, p); R_DECL(u, p);
    CL_FN(cl_skate_rhs_z)(dz, lam, par, z);
    CL_FN(cl_skate_momenta)(mu, par, z);
    r_set_zero(t);
    for (int i = 0; i < 6; i++) r_addmul(t, mu + i, dz + i);
    skate_mgl(u, par);
    r_addmul(t, u, dz + 8);
    *eE = fmax(*eE, r_log2abs(t) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(mu, 6) + CL_FN(cl_rvec_log2_maxabs)(dz, 9)));
    *ec = fmax(*ec, r_log2abs(dz + 6));
    v3_dot(t, z + 6, dz + 6);
    *ec = fmax(*ec, r_log2abs(t));
}

/* The Lagrangian identities and the z-form's conservation over the uncontrolled skates, 4 states each. */
static void lagrangian_and_zform(cl_rng *g, cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p); RV_DECL(z, 10, p); RV_DECL(G, 36, p);
    double eG = -INFINITY, emu = -INFINITY, eE = -INFINITY, ec = -INFINITY;
    for (int set = 0; set < SKATE_NSETS_UNCONTROLLED; set++) {
        skate_set_params(par, set);
        CL_FN(cl_skate_gram)(G, par, 0);
        for (int trial = 0; trial < 4; trial++) {
            for (int i = 0; i < 9; i++) r_set_d(z + i, cl_rng_normal(g));
            lagrangian_identities(par, G, z, &eG, &emu, p);
            skate_random_zeta(zeta, g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            zform_conservation(par, z, &eE, &ec, p);
        }
    }
    is_log2_below(eG, tol_log2(p, 64), "ell = 1/2 xi^T G xi - mgl Gamma_3 [SKATE (28)] [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(emu, tol_log2(p, 16), "momenta Pi, P of Sec. 5.1 [%s, %ld bits]", TEST_KIND, (long)p);
    /* energy rate: 6×6 solve and 3×3 solve, condition of 𝔾 about 10³ for these inertias */
    is_log2_below(eE, tol_log2(p, 1 << 14), "z-form (21) conserves the energy [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(ec, tol_log2(p, 64), "z-form keeps Gamma_1 = 0 and |Gamma| = 1 [SKATE (19)] [%s, %ld bits]", TEST_KIND, (long)p);
}

/* the initial state (59) with phi0 = 0.1 satisfies every constraint; check_z refuses broken ones */
static void initial_state_59(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(z, 10, p); RV_DECL(res, 5, p);
    R_DECL(t, p); R_DECL(phi, p);
    skate_set_params(par, SKATE_PAPER);
    r_set_q(phi, 1, 10);
    for (int i = 0; i < 9; i++) r_set_zero(z + i);
    r_set_q(z, 1, 10);
    r_tan(t, phi); r_div_si(z + 1, t, 10);
    r_set_q(z + 2, 1, 10);
    r_set_si(z + 3, 1);
    r_sin(z + 7, phi); r_cos(z + 8, phi);
    CL_FN(cl_skate_constraint_residuals)(res, z);
    double er = CL_FN(cl_rvec_log2_maxabs)(res, 5);
    is_log2_below(er, tol_log2(p, 8), "initial state (59) is constraint-consistent [SKATE (59)] [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_skate_check_z)(z, 16) == CL_OK, "check_z accepts (59) [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_q(z + 1, 1, 10);
    ok(CL_FN(cl_skate_check_z)(z, 16) == CL_ENOTTANGENT, "check_z rejects Omega_2 = 0.1 (psi^1 violated) [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_si(z + 8, 2);
    ok(CL_FN(cl_skate_check_z)(z, 16) == CL_ENOTUNIT, "check_z rejects |Gamma| != 1 [%s, %ld bits]", TEST_KIND, (long)p);
}

/* rotor: π = J₁(Ω₁ + θ̇) obeys π̇ = u [SKATE (44b)] */
static void rotor_momentum(cl_rng *g, cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(zeta, 5, p); RV_DECL(z, 10, p); RV_DECL(dz, 10, p); RV_DECL(lam, 3, p);
    R_DECL(t, p); R_DECL(u, p);
    skate_set_params(par, SKATE_CONTROLLED);
    skate_random_zeta(zeta, g);
    CL_FN(cl_skate_zeta_to_z)(z, zeta);
    r_set_d(z + 9, 0.75);
    r_set_q(u, 3, 100);
    int st = CL_FN(cl_skate_rhs_z_rotor)(dz, lam, par, z, u);
    r_add(t, dz, dz + 9);
    r_mul(t, t, par + CL_SKATE_J1);
    r_sub(t, t, u);
    ok(st == CL_OK, "rotor z-form evaluates [%s, %ld bits]", TEST_KIND, (long)p);
    is_tiny(t, 4096, "rotor momentum rate equals the torque [SKATE (44b)]");
}

static void parameter_validation(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p);
    skate_set_params(par, SKATE_PAPER);
    ok(CL_FN(cl_skate_params_check)(par, 1) == CL_OK, "paper parameters valid [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_si(par + CL_SKATE_M, 0);
    ok(CL_FN(cl_skate_params_check)(par, 0) == CL_EPARAM, "m = 0 rejected [%s, %ld bits]", TEST_KIND, (long)p);
    skate_set_params(par, SKATE_PAPER);
    r_set(par + CL_SKATE_I2, par + CL_SKATE_I3);
    ok(CL_FN(cl_skate_params_check)(par, 1) == CL_EPARAM, "I2 = I3 rejected where I2 > I3 is needed [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_d(par + CL_SKATE_L, NAN);
    ok(CL_FN(cl_skate_params_check)(par, 0) == CL_ENAN, "NaN rejected [%s, %ld bits]", TEST_KIND, (long)p);
}

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 2023);
    lagrangian_and_zform(&g, p);
    initial_state_59(p);
    rotor_momentum(&g, p);
    parameter_validation(p);
}

int main(void) { return cl_test_main(run); }

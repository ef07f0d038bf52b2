/* SKATE §7: Figures 4 and 5 — the fall time against the paper's value (its
 * agreement on both forms is the oracle row skate.fig4.fall), and the lowest
 * Γ₃ of the controlled skate against the matched system. Integrations are
 * costly in MPFR, so the MPFR copy runs at 64 and 113 bits only. */
#include "tap_real.h"
#include "skate_fixtures_impl.h"
#include "ode.h"

typedef struct { rsrc par; } zctx;
static int zeta_rhs(rptr dx, rsrc t, rsrc x, void *ctx)
{
    (void)t;
    return CL_FN(cl_skate_rhs_zeta)(dx, ((const zctx *)ctx)->par, x);
}

static void run(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(z, 10, p); RV_DECL(zeta, 5, p);
    RV_DECL(xe, 10, p);
    R_DECL(phi, p); R_DECL(tmax, p); R_DECL(tf, p); R_DECL(d, p); R_DECL(w, p);
    R_DECL(sig, p); R_DECL(tend, p); R_DECL(tmin, p); R_DECL(gmin, p); R_DECL(t, p); R_DECL(h, p); R_DECL(tol, p);
    /* Figure 4: (59) with φ₀ = 0.1 on the paper's skate */
    skate_fig4_start(par, z, zeta, tmax);
    int st = CL_FN(cl_skate_fall_time)(tf, xe, par, 0, zeta, tmax);
    ok(st == CL_OK, "fall located on (38) [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_q(w, 1025, 1000);
    r_sub(d, tf, w);
    ok(fabs(r_get_d(d)) < 5e-4, "fall time %.12f rounds to the paper's 1.025 [SKATE Fig. 4] [%s, %ld bits]", r_get_d(tf), TEST_KIND, (long)p);
    is_tiny(xe + 4, 64, "Gamma3 = 0 at the located event");

    /* Figure 5: controlled skate, σ = −10⁻⁵, 0 ≤ t ≤ 10, from (59) with φ₀ = 0.1, rotor at rest at t = 0 */
    skate_set_params(par, SKATE_CONTROLLED);
    r_set_q(phi, 1, 10);
    r_set_q(sig, -1, 100000);
    r_set_si(tend, 10);
    CL_FN(cl_skate_initial_59)(z, phi);
    r_set_zero(z + 9);
    int nmin = 0, nties = 0;
    st = CL_FN(cl_skate_controlled_min)(tmin, gmin, &nmin, &nties, par, sig, z, tend, 0);
    ok(st == CL_OK && nmin > 10, "controlled skate integrated, %d local minima of Gamma3 [%s, %ld bits]", nmin, TEST_KIND, (long)p);
    ok(r_cmp_d(gmin, 0.99) > 0, "Gamma3 stays above 0.99 (min %.15f at t = %.12f) [SKATE Fig. 5] [%s, %ld bits]", r_get_d(gmin), r_get_d(tmin), TEST_KIND, (long)p);
    /* another form: the matched skate (57) integrated to tmin has Γ₃ = gmin and Γ̇₃ = −v¹Γ₂ = 0 */
    CL_FN(cl_skate_matched_params)(pm, par, sig);
    CL_FN(cl_skate_z_to_zeta)(zeta, z);
    CL_FN(cl_ode_ws) *ws = NULL;
    zctx zc = {pm};
    st = CL_FN(cl_ode_ws_new)(&ws, 5, p, CL_ODE_GBS, 0);
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, 12 - (long)p);
    if (!st) st = CL_FN(cl_ode_set_tol)(ws, tol, tol);
    r_set_zero(t); r_set_zero(h);
    if (!st) st = CL_FN(cl_ode_integrate)(ws, zeta_rhs, &zc, t, zeta, tmin, h, NULL);
    CL_FN(cl_ode_ws_free)(ws);
    ok(st == CL_OK, "matched system integrated to the minimum [%s, %ld bits]", TEST_KIND, (long)p);
    r_sub(d, zeta + 4, gmin);
    /* both integrations at 2^(12−p) per step over a few dozen steps */
    is_log2_below(r_log2abs(d), tol_log2(p, 1 << 20), "min Gamma3 of the closed loop equals Gamma3 of the matched system (57) there [%s, %ld bits]", TEST_KIND, (long)p);
    r_mul(d, zeta, zeta + 3);
    is_log2_below(r_log2abs(d), tol_log2(p, 1 << 20), "dGamma3/dt = 0 there on the matched system [%s, %ld bits]", TEST_KIND, (long)p);
    /* with the control law as printed in (56) the skate falls */
    r_set_si(tend, 2);
    st = CL_FN(cl_skate_controlled_min)(tmin, gmin, &nmin, &nties, par, sig, z, tend, 1);
    ok(st == CL_OK && r_cmp_d(gmin, 0) < 0, "with the printed (56) Gamma3 goes below 0 (min %.3f) [%s, %ld bits]", r_get_d(gmin), TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++)
        if (TEST_PRECISIONS[k] <= 113) run(TEST_PRECISIONS[k]);
    return done_testing();
}

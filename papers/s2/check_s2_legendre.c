/*
 * The Hamiltonians of S2 IV as Legendre transforms: the closed forms (26)
 * and (35) of a quadratic Lagrangian against the definitions
 * H = Σ μ_i·q̇_i − L (21) and H̃ = Σ π_i·ω_i − L̃ (29), at seeded random
 * states of the configuration-dependent system (so the inertia varies with q).
 */
#include <math.h>
#include "check.h"
#include "s2_fixtures_impl.h"

#define DRAWS 40

/*
 * A Hamiltonian against its definition as a Legendre transform: log2 of
 * |Σ p·v − L − H| (p the momenta, v the velocities, 3n each) relative to
 * max(1, |H|, |Σ p·v|). t: 2 scratch scalars.
 */
static double legendre_gap(size_t n, rsrc H, rsrc L, rsrc p, rsrc v, rptr t)
{
    rptr pv = t, d = t + 1;
    r_set_zero(pv);
    for (size_t i = 0; i < 3 * n; i++) r_addmul(pv, p + i, v + i);
    r_sub(d, pv, L);
    r_sub(d, d, H);
    return r_log2abs(d) - fmax(0, fmax(r_log2abs(H), r_log2abs(pv)));
}

CL_CHECK(s2_legendre_h, "s2.legendre.hamiltonians", .chapter = "S2 IV", .tags = "[S2 (21),(26),(29),(35)]",
         .what = "H(q, mu) (26) against sum mu.qdot - L (21), and H~(q, pi) (35) against sum pi.w - L~ (29), configuration-dependent inertia",
         .cond = 256, .why = "each side is a few dozen products and sums of terms of size |H|, plus the Legendre transform's 3n x 3n solve")
{
    cl_rng g;
    cl_rng_seed(&g, 2121);
    cl_check_begin(res);
    int st = CL_OK;
    for (size_t n = 1; n <= 3 && !st; n++) {
        CL_FN(cl_s2_coupled) *s = s2t_random_coupled(n, prec, &g, 0);
        if (!s) return CL_ENOMEM;
        CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_s2_coupled_ws)(s);
        rptr x = CL_FN(cl_rvec_new)(6 * n, prec), mom = CL_FN(cl_rvec_new)(3 * n, prec),
             w = CL_FN(cl_rvec_new)(3 * n, prec), sc = CL_FN(cl_rvec_new)(4, prec);
        rptr H = sc, L = sc + 1, t = sc + 2;
        for (int k = 0; k < DRAWS && !st; k++) {
            s2t_random_state(x, n, 1.0, &g);
            rsrc q = x, qdot = x + 3 * n;
            /* (21) against (26): μ from the Legendre transform (24) */
            if ((st = CL_FN(cl_s2_quad_legendre_mu)(ws, mom, q, qdot))) break;
            if ((st = CL_FN(cl_s2_quad_hamiltonian_mu)(ws, H, q, mom))) break;
            if ((st = CL_FN(cl_s2_quad_lagrangian)(ws, L, q, qdot))) break;
            double e = legendre_gap(n, H, L, mom, qdot, t);
            /* (29) against (35): ω = q × q̇ (5), π from (33) */
            CL_FN(cl_s2n_omega_from_qdot)(n, w, q, qdot);
            if ((st = CL_FN(cl_s2_quad_legendre_pi)(ws, mom, q, w))) break;
            if ((st = CL_FN(cl_s2_quad_hamiltonian_pi)(ws, H, q, mom))) break;
            if ((st = CL_FN(cl_s2_quad_lagrangian_omega)(ws, L, q, w))) break;
            double e2 = legendre_gap(n, H, L, mom, w, t);
            cl_check_worst(res, e2 > e ? e2 : e, "n = %zu, draw %d", n, k);
        }
        CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(mom); CL_FN(cl_rvec_free)(w); CL_FN(cl_rvec_free)(sc);
        CL_FN(cl_s2_coupled_free)(s);
    }
    return st;
}

/*
 * Propositions 1 (11) and 2 (17), the Euler–Lagrange equations themselves,
 * hold on the vector fields of Corollaries 1 (13) and 4 (36) of the
 * configuration-dependent (and damped) system at seeded random states.
 */
CL_CHECK(s2_el_residuals, "s2.el.residuals", .chapter = "S2 III", .tags = "[S2 (11),(13),(17),(36)]",
         .what = "Euler-Lagrange residuals (11) and (17) on the fields of (13) and (36), configuration-dependent inertia, damping",
         .cond = 256, .why = "a few dozen products of terms of the size of d/dt dL/dqdot, plus the 3n x 3n solve of the field")
{
    cl_rng g;
    cl_rng_seed(&g, 3131);
    cl_check_begin(res);
    for (size_t n = 1; n <= 3; n++) {
        CL_FN(cl_s2_coupled) *cp = s2t_random_coupled(n, prec, &g, 1);
        if (!cp) return CL_ENOMEM;
        rptr x = CL_FN(cl_rvec_new)(6 * n, prec);
        for (int k = 0; k < 10; k++) {
            double r1, r2;
            s2t_random_state(x, n, 1.0, &g);
            s2t_el_residuals(cp, n, x, &r1, &r2);
            cl_check_worst(res, fmax(r1, r2), "n = %zu, draw %d, %s", n, k, r1 >= r2 ? "(11)" : "(17)");
        }
        CL_FN(cl_rvec_free)(x);
        CL_FN(cl_s2_coupled_free)(cp);
    }
    return CL_OK;
}


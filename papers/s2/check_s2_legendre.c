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

/* (21) against (26) with μ from (24), and (29) against (35) with ω = q × q̇ (5) and π from (33). */
static double hamiltonians_gap(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    size_t n = s->quad->n;
    CL_FN(cl_s2_quad_ws) *ws = s->ws;
    rsrc q = x, qdot = x + 3 * n;
    rptr mom = sc, w = sc + 3 * n, H = w + 3 * n, L = H + 1, t = L + 1;
    if (CL_FN(cl_s2_quad_legendre_mu)(ws, mom, q, qdot) || CL_FN(cl_s2_quad_hamiltonian)(ws, CL_S2_MU, H, q, mom) ||
        CL_FN(cl_s2_quad_lagrangian)(ws, L, q, qdot))
        return NAN;
    double e = legendre_gap(n, H, L, mom, qdot, t);
    CL_FN(cl_s2n_omega_from_qdot)(n, w, q, qdot);
    if (CL_FN(cl_s2_quad_legendre_pi)(ws, mom, q, w) || CL_FN(cl_s2_quad_hamiltonian)(ws, CL_S2_PI, H, q, mom) ||
        CL_FN(cl_s2_quad_lagrangian_omega)(ws, L, q, w))
        return NAN;
    double e2 = legendre_gap(n, H, L, mom, w, t);
    *which = e2 > e ? "H~ (35)" : "H (26)";
    return e2 > e ? e2 : e;
}

static const size_t NS3[] = {1, 2, 3};

CL_CHECK(s2_legendre_h, "s2.legendre.hamiltonians", .chapter = "S2 IV", .tags = "[S2 (21),(26),(29),(35)]", .what = "H(q, mu) (26) against sum mu.qdot - L (21), and H~(q, pi) (35) against sum pi.w - L~ (29), configuration-dependent inertia", .cond = 256, .why = "each side is a few dozen products and sums of terms of size |H|, plus the Legendre transform's 3n x 3n solve")
{ return s2t_row_over_systems(res, prec, 2121, 1, 0, NS3, 3, DRAWS, hamiltonians_gap, NULL); }

/*
 * Propositions 1 (11) and 2 (17), the Euler–Lagrange equations themselves,
 * hold on the vector fields of Corollaries 1 (13) and 4 (36) of the
 * configuration-dependent (and damped) system at seeded random states.
 */
static double el_residuals(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    double r1, r2;
    s2t_el_residuals(s->cp, s->quad->n, x, &r1, &r2);
    *which = r1 >= r2 ? "(11)" : "(17)";
    return fmax(r1, r2);
}

CL_CHECK(s2_el_residuals, "s2.el.residuals", .chapter = "S2 III", .tags = "[S2 (11),(13),(17),(36)]", .what = "Euler-Lagrange residuals (11) and (17) on the fields of (13) and (36), configuration-dependent inertia, damping", .cond = 256, .why = "a few dozen products of terms of the size of d/dt dL/dqdot, plus the 3n x 3n solve of the field")
{ return s2t_row_over_systems(res, prec, 3131, 1, 1, NS3, 3, 10, el_residuals, NULL); }

/*
 * Chapters S2 III–V: the four forms of the dynamics agree pointwise, the
 * chain's O(n) fields agree with the dense reference, the transforms invert
 * each other, and the closed forms of the chain hold.
 */
#include "tap_main.h"
#include "s2_fixtures_impl.h"

/* A random damped coupled system of n spheres, drawn from g seeded with seed, and its workspace. */
static CL_FN(cl_s2_quad_ws) *damped_coupled(CL_FN(cl_s2_coupled) **cp, size_t n, cl_prec_t p, cl_rng *g, uint64_t seed)
{
    cl_rng_seed(g, seed);
    *cp = s2t_random_coupled(n, p, g, 1);
    return CL_FN(cl_s2_coupled_ws)(*cp);
}

/*
 * Tolerance of a field assembled by hand against the dense one: one dense
 * 3n×3n solve (n ≤ 5) with masses and lengths in [0.5, 2], about 3n·3n
 * roundings of entries of size ~10 amplified by the condition number of the
 * inertia (~10 here). Observed: at most 2^6 units of 2^(1−p) relative to the
 * size of (q̇, q̈); 2^10 leaves room for other seeds.
 */
#define FORMS_FACTOR 1024

/*
 * Maps between the forms invert each other, π = q × μ, and the energy is the
 * same in every form, for the coupled system whose inertia depends on q
 * (n = 3, damped). (The four fields themselves are compared by the oracle
 * rows s2.forms.*.agree, the residuals of Propositions 1 and 2 by
 * s2.el.residuals.)
 */
static void identities(cl_prec_t p)
{
    cl_rng g;
    const size_t n = 3;
    CL_FN(cl_s2_coupled) *cp;
    CL_FN(cl_s2_quad_ws) *ws = damped_coupled(&cp, n, p, &g, 21);
    RV_DECL(x, 18, p); RV_DECL(y, 18, p); RV_DECL(z, 18, p);
    RV_DECL(a, 9, p);
    RV_DECL(E, 4, p);
    s2t_random_state(x, n, 1.0, &g);
    double worst = -INFINITY;
    for (int form = CL_S2_QDOT; form <= CL_S2_PI; form++) {
        CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y);
        CL_FN(cl_s2_quad_convert)(ws, form, y, CL_S2_QDOT, z);
        worst = fmax(worst, CL_FN(cl_rvec_log2_maxdiff)(x, z, 18));
        CL_FN(cl_s2_quad_energy)(ws, form, E + form, y);
    }
    is_log2_below(worst, tol_log2(p, 64), "each form -> (q, qdot) inverts (q, qdot) -> form [S2 (3),(5),(24),(25),(33),(34)] [%s, %ld bits]", TEST_KIND, (long)p);
    for (int form = 1; form < 4; form++) worst = fmax(worst, CL_FN(cl_rvec_log2_maxdiff)(E, E + form, 1) - r_log2abs(E));
    is_log2_below(worst, tol_log2(p, 64), "energy, H (26) and H~ (35) agree across the forms [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, CL_S2_MU, y);
    CL_FN(cl_s2_pi_from_mu)(n, a, y, y + 9);
    CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, CL_S2_PI, z);
    is_log2_below(CL_FN(cl_rvec_log2_maxdiff)(a, z + 9, 9), tol_log2(p, 64),
                  "pi_i = q_i x mu_i: Legendre (33) of omega equals S(q) times Legendre (24) [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_s2_coupled_free)(cp);
}

/*
 * The general Legendre transforms (20) and (28) applied to derivatives of
 * the Lagrangians themselves. L(q, q̇) of (12) and L̃(q, ω) of (18) are
 * quadratic in the velocity, so the central difference
 * (L(v + e_k) − L(v − e_k))/2 is ∂L/∂v_k exactly, up to the rounding of two
 * evaluations of L (size ~10 here) and one subtraction. The transforms of
 * the derivatives must equal the closed forms (24) and (33), and L̃(q, ω)
 * must equal L(q, S(ω)q) by the definition (14).
 * Tolerance 256·2^(1−p) relative to the size of the momenta: each L is a sum
 * of 3n·3n ≈ 81 products of entries of size ≤ ~10, so its rounding error is
 * ~2^7 units of 2^(1−p) at worst; the difference doubles it.
 */
/* grad = ∂L/∂v by the central difference (L(v + e_k) − L(v − e_k))/2, exact for L quadratic in v (3n entries). */
static void central_velocity_gradient(int (*lagr)(CL_FN(cl_s2_quad_ws) *, rptr, rsrc, rsrc), CL_FN(cl_s2_quad_ws) *ws,
                                      rptr grad, rsrc q, rsrc v, rptr scratch, size_t n)
{
    cl_prec_t p = r_prec(grad);
    R_DECL(Lp, p);
    R_DECL(Lm, p);
    for (size_t k = 0; k < 3 * n; k++) {
        CL_FN(cl_rvec_copy)(scratch, v, 3 * n);
        r_add_si(scratch + k, scratch + k, 1);
        lagr(ws, Lp, q, scratch);
        r_add_si(scratch + k, scratch + k, -2);
        lagr(ws, Lm, q, scratch);
        r_sub(grad + k, Lp, Lm);
        r_mul_2si(grad + k, grad + k, -1);
    }
}

static void legendre_general(cl_prec_t p)
{
    cl_rng g;
    const size_t n = 3;
    CL_FN(cl_s2_coupled) *cp;
    CL_FN(cl_s2_quad_ws) *ws = damped_coupled(&cp, n, p, &g, 41);
    RV_DECL(x, 18, p); RV_DECL(w, 9, p); RV_DECL(vv, 9, p); RV_DECL(dL, 9, p); RV_DECL(dS, 9, p);
    RV_DECL(mom, 9, p); RV_DECL(ref, 9, p); RV_DECL(qd, 9, p);
    R_DECL(Lp, p); R_DECL(L1, p); R_DECL(L2, p);
    rsrc q = x;
    double worst_mu = -INFINITY, worst_pi = -INFINITY, worst_chain = -INFINITY, worst_def = -INFINITY;
    for (int draw = 0; draw < 3; draw++) {
        s2t_random_state(x, n, 1.0, &g);
        CL_FN(cl_s2n_omega_from_qdot)(n, w, q, x + 9);
        /* ∂L/∂q̇ of (12) by exact central differences, then (20) against (24). */
        central_velocity_gradient(CL_FN(cl_s2_quad_lagrangian), ws, dL, q, x + 9, vv, n);
        CL_FN(cl_s2_legendre_mu)(n, mom, q, dL);
        CL_FN(cl_s2_quad_legendre_mu)(ws, ref, q, x + 9);
        worst_mu = fmax(worst_mu, CL_FN(cl_rvec_log2_maxdiff)(mom, ref, 9) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(ref, 9)));
        /* ∂L̃/∂ω of (18) likewise, then (28) against (33). */
        central_velocity_gradient(CL_FN(cl_s2_quad_lagrangian_omega), ws, dS, q, w, vv, n);
        CL_FN(cl_s2_legendre_pi)(n, mom, q, dS);
        CL_FN(cl_s2_quad_legendre_pi)(ws, ref, q, w);
        worst_pi = fmax(worst_pi, CL_FN(cl_rvec_log2_maxdiff)(mom, ref, 9) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(ref, 9)));
        /* (14) by the chain rule: ∂L̃/∂ω_i = S(q_i) ∂L/∂q̇_i when the ω_i ⊥ q_i. */
        for (size_t i = 0; i < n; i++) v3_cross(ref + 3 * i, q + 3 * i, dL + 3 * i);
        CL_FN(cl_s2_legendre_pi)(n, mom, q, dS);
        CL_FN(cl_s2_legendre_pi)(n, vv, q, ref);
        worst_chain = fmax(worst_chain, CL_FN(cl_rvec_log2_maxdiff)(mom, vv, 9) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(vv, 9)));
        /* (14) itself: L̃(q, ω) = L(q, S(ω)q), with L̃ from (18) and L from (12). */
        CL_FN(cl_s2n_qdot_from_omega)(n, qd, q, w);
        CL_FN(cl_s2_quad_lagrangian_omega)(ws, L1, q, w);
        CL_FN(cl_s2_quad_lagrangian)(ws, L2, q, qd);
        r_sub(Lp, L1, L2);
        worst_def = fmax(worst_def, r_log2abs(Lp) - fmax(0, r_log2abs(L2)));
    }
    /* [S2 (20)] general Legendre transform in (q, q̇) */
    is_log2_below(worst_mu, tol_log2(p, 256),
                  "(20) on dL/dqdot of (12) equals the closed form (24) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [S2 (18), (28)] modified Lagrangian and its general Legendre transform */
    is_log2_below(worst_pi, tol_log2(p, 256),
                  "(28) on dL~/domega of (18) equals the closed form (33) [%s, %ld bits]", TEST_KIND, (long)p);
    /* [S2 (14)] L̃(q, ω) = L(q, S(ω)q): its derivative and its value */
    is_log2_below(worst_chain, tol_log2(p, 256),
                  "(14): dL~/domega_i = S(q_i) dL/dqdot_i on tangent velocities [%s, %ld bits]", TEST_KIND, (long)p);
    is_log2_below(worst_def, tol_log2(p, 256),
                  "(14): L~(q, omega) of (18) = L(q, S(omega)q) of (12) [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_s2_coupled_free)(cp);
}

/* Invalid input is refused with distinct codes. */
static void errors(cl_prec_t p)
{
    RV_DECL(m, 2, p); RV_DECL(l, 2, p); R_DECL(g, p); RV_DECL(x, 6, p); RV_DECL(ang, 4, p); RV_DECL(dx, 6, p);
    r_set_si(m, 1); r_set_si(m + 1, 1); r_set_si(l, 1); r_set_si(l + 1, 1); r_set_si(g, 10);
    CL_FN(cl_chain) *ch = NULL;
    ok(CL_FN(cl_chain_new)(&ch, 0, m, l, g, p) == CL_EDIM && !ch, "chain with n = 0: CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(m + 1, -1);
    ok(CL_FN(cl_chain_new)(&ch, 2, m, l, g, p) == CL_EPARAM, "chain with a negative mass: CL_EPARAM [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(m + 1, 1);
    r_set_zero(l + 1);
    ok(CL_FN(cl_chain_new)(&ch, 2, m, l, g, p) == CL_EPARAM, "chain with a zero length: CL_EPARAM [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(l + 1, 1);
    r_set_si(g, -1);
    ok(CL_FN(cl_chain_new)(&ch, 2, m, l, g, p) == CL_EPARAM, "chain with negative g: CL_EPARAM [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(g, 10);
    r_div(m, g, m + 1);
    r_set_zero(g);
    r_div(m, m, g); /* 10/0 = inf */
    r_set_si(g, 10);
    ok(CL_FN(cl_chain_new)(&ch, 2, m, l, g, p) == CL_ENAN, "chain with an infinite mass: CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    size_t bad = 99;
    v3_set_d(x, 0, 0, 1); v3_set_d(x + 3, 0, 1.001, 0);
    ok(CL_FN(cl_s2_check_state)(2, x, NULL, 8, &bad) == CL_ENOTUNIT && bad == 1, "non-unit q_2 found [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(x + 3, 0, 1, 0);
    RV_DECL(v, 6, p);
    v3_set_d(v, 1, 0, 0); v3_set_d(v + 3, 0, 0.5, 0);
    ok(CL_FN(cl_s2_check_state)(2, x, v, 8, &bad) == CL_ENOTTANGENT && bad == 1, "non-tangent v_2 found [%s, %ld]", TEST_KIND, (long)p);
    /* The two angles are singular at the poles, where the global form is not. */
    r_set_si(m, 1);
    r_set_si(l, 1);
    CL_FN(cl_chain_new)(&ch, 1, m, l, g, p);
    CL_FN(cl_chain_equilibrium)(ch, 0, x);
    r_set_d(x + 3, 0.5);
    ok(CL_FN(cl_sph_angles_from_state)(ang, x) == CL_EDOMAIN, "angles at the hanging pole: CL_EDOMAIN [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_chain_rhs)(ch, CL_S2_QDOT, dx, x) == CL_OK && CL_FN(cl_rvec_is_finite)(dx, 6),
       "the global field at the pole is finite [%s, %ld]", TEST_KIND, (long)p);
    r_set_zero(ang); r_set_zero(ang + 1); r_set_si(ang + 2, 1); r_set_si(ang + 3, 1);
    ok(CL_FN(cl_sph_rhs_angles)(dx, ang, g) == CL_EDOMAIN, "angle equations at theta = 0: CL_EDOMAIN [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_chain_free)(ch);
}

/*
 * Evidence for docs/errata_S2.md: the printed forms of (38), of the chain's
 * generalized forces, and of the gravity term of (42) are not the chain's
 * dynamics, while the corrected ones agree to rounding (above and in the
 * oracle). Each printed form must miss by far more than rounding.
 */
/* (38) as printed: ½ Σ (M_ij l_i l_j)² (S(q_i)ω_i)·(S(q_j)ω_j), against ½ Σ m|ẋ|²: log2 relative miss. */
static double errata_38(const CL_FN(cl_chain) *ch, const s2t_chain_par *par, size_t n, rsrc x, rsrc w, cl_prec_t p)
{
    RV_DECL(inv, 2, p); RV_DECL(a, 3, p); RV_DECL(b, 3, p);
    R_DECL(T, p); R_DECL(t, p); R_DECL(c, p); R_DECL(U, p); R_DECL(Mij, p); R_DECL(li, p); R_DECL(lj, p);
    r_set_zero(T);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            v3_cross(a, x + 3 * i, w + 3 * i);
            v3_cross(b, x + 3 * j, w + 3 * j);
            v3_dot(t, a, b);
            CL_FN(cl_chain_M)(ch, i, j, Mij);
            r_set_d(li, par->l[i]); r_set_d(lj, par->l[j]);
            r_mul(c, Mij, li); r_mul(c, c, lj); r_sqr(c, c);
            r_addmul(T, c, t);
        }
    r_mul_2si(T, T, -1);
    CL_FN(cl_chain_invariants_qdot)(ch, inv, x, x + 3 * n);
    CL_FN(cl_chain_potential)(ch, U, x);
    r_sub(inv, inv, U);
    r_sub(t, T, inv);
    return r_log2abs(t) - r_log2abs(inv);
}

/* Printed generalized forces f_1 = τ + l_1 S(q_1)d, f_j = l_j S(q_j)d: log2 of the miss of their
   power against τ·ω₁ + d·ẋ_n. */
static double errata_forces(const s2t_chain_par *par, size_t n, rsrc x, rsrc w, cl_prec_t p)
{
    RV_DECL(tau, 3, p); RV_DECL(dd, 3, p); RV_DECL(xd, 3, p); RV_DECL(a, 3, p);
    R_DECL(t, p); R_DECL(c, p); R_DECL(li, p);
    for (int k = 0; k < 3; k++) { r_set_d(tau + k, par->tau[k]); r_set_d(dd + k, par->d[k]); }
    r_set_zero(t);
    for (size_t i = 0; i < n; i++) {
        r_set_d(li, par->l[i]);
        v3_cross(a, x + 3 * i, dd);
        v3_scale(a, li, a);
        if (i == 0) v3_add(a, a, tau);
        v3_dot(c, a, x + 3 * n + 3 * i);
        r_add(t, t, c);
        v3_axpy(xd, li, x + 3 * n + 3 * i);
    }
    v3_dot(c, tau, w);
    r_sub(t, t, c);
    v3_dot(c, dd, xd);
    r_sub(t, t, c);
    return r_log2abs(t);
}

static void errata(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 31);
    const size_t n = 3;
    s2t_chain_par par;
    CL_FN(cl_chain) *ch = s2t_random_chain_par(n, p, &g, 1, &par);
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
    RV_DECL(x, 18, p); RV_DECL(w, 9, p); RV_DECL(y, 18, p); RV_DECL(dy, 18, p); RV_DECL(ref, 18, p);
    RV_DECL(qdd, 9, p); RV_DECL(dHdq, 9, p); RV_DECL(f, 9, p); RV_DECL(wv, 9, p);
    R_DECL(t, p); R_DECL(c, p); R_DECL(Mij, p); R_DECL(li, p); R_DECL(lj, p);
    R_DECL(grav, p);
    RV_DECL(a, 3, p);
    CL_FN(cl_real_from_str)(grav, "9.81");
    s2t_random_state(x, n, 1.0, &g);
    CL_FN(cl_s2n_omega_from_qdot)(n, w, x, x + 9);
    double e38 = errata_38(ch, &par, n, x, w, p);
    ok(e38 > -10, "printed (38) (factor M_ij l_i l_j twice) misses 1/2 sum m|xdot|^2 by 2^%.1f relative [%s, %ld]", e38, TEST_KIND, (long)p);
    double ef = errata_forces(&par, n, x, w, p);
    ok(ef > -10, "printed forces of [S2 V] miss the power tau.omega1 + d.xdot_n by 2^%.1f [%s, %ld]", ef, TEST_KIND, (long)p);
    /* (42) with the printed gravity Σ_{j=1}^n m_j g l_j e₃ in place of ∂U/∂q_i: carried back
       to q̈ against (13). */
    CL_FN(cl_chain_rhs)(ch, CL_S2_QDOT, ref, x);
    CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, CL_S2_PI, y);
    CL_FN(cl_chain_rhs)(ch, CL_S2_PI, dy, y); /* corrected: keep its q̇ and ω */
    CL_FN(cl_chain_forces)(ch, f, y);
    r_set_zero(c);
    for (size_t j = 0; j < n; j++) { r_set_d(li, par.l[j]); r_set_d(lj, par.m[j]); r_mul(t, li, lj); r_add(c, c, t); }
    r_mul(c, c, grav); /* Σ_j m_j g l_j */
    CL_FN(cl_s2_quad_legendre_inv)(ws, CL_S2_PI, wv, y, y + 9);
    for (size_t i = 0; i < n; i++) {
        /* ∂H̃/∂q_i = kinetic part (from the corrected field) + printed gravity */
        rptr gi = dHdq + 3 * i;
        v3_zero(gi);
        for (size_t k = 0; k < n; k++) {
            if (k == i) continue;
            CL_FN(cl_chain_M)(ch, i, k, Mij);
            r_set_d(li, par.l[i]); r_set_d(lj, par.l[k]);
            r_mul(t, Mij, li); r_mul(t, t, lj);
            v3_cross(a, y + 3 * k, wv + 3 * k);
            v3_cross(a, wv + 3 * i, a);
            r_neg(t, t);
            v3_axpy(gi, t, a);
        }
        r_add(gi + 2, gi + 2, c);
    }
    CL_FN(cl_s2_hamilton_pi)(n, dy, y, y + 9, dHdq, wv, f);
    CL_FN(cl_s2_quad_accel_from)(ws, CL_S2_PI, qdd, y, dy);
    double e42 = CL_FN(cl_rvec_log2_maxdiff)(qdd, ref + 9, 9);
    ok(e42 > -10, "printed gravity of (42) misses the acceleration of (13) by 2^%.1f [%s, %ld]", e42, TEST_KIND, (long)p);
    /* Control: the same assembly with the corrected gravity M_ii g l_i agrees:
       [S2 (31), (32)] Hamilton's equations in (q, π) on hand-made ∂H̃/∂q. */
    for (size_t i = 0; i < n; i++) {
        r_sub(dHdq + 3 * i + 2, dHdq + 3 * i + 2, c);
        CL_FN(cl_chain_M)(ch, i, i, Mij);
        r_set_d(li, par.l[i]);
        r_mul(t, Mij, li);
        r_mul(t, t, grav);
        r_add(dHdq + 3 * i + 2, dHdq + 3 * i + 2, t);
    }
    CL_FN(cl_s2_hamilton_pi)(n, dy, y, y + 9, dHdq, wv, f);
    CL_FN(cl_s2_quad_accel_from)(ws, CL_S2_PI, qdd, y, dy);
    is_log2_below(CL_FN(cl_rvec_log2_maxdiff)(qdd, ref + 9, 9) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(ref + 9, 9)),
                  tol_log2(p, FORMS_FACTOR), "(42) with dU/dq_i = M_ii g l_i e3 agrees with (13) [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_chain_free)(ch);
}

/*
 * The pole of the angle chart: at θ = 2^−k with a fixed tangent velocity of
 * size ~1 (so φ̇ ~ 2^k), the angle equations carried to q̈
 * (cl_sph_accel_from_angles) lose accuracy like 1/sin θ (the terms of size
 * φ̇² sin θ ~ 1/sin θ cancel down to q̈ ~ 1), while the global field is
 * unaffected. Checked against the (q, q̇) field with the tolerance
 * 64·2^(1−p)/sin θ; the bits lost are printed (about k at θ = 2^−k).
 */
static void pole(cl_prec_t p)
{
    RV_DECL(x, 6, p); RV_DECL(dx, 6, p); RV_DECL(ang, 4, p); RV_DECL(dang, 4, p); RV_DECL(qdd, 3, p);
    RV_DECL(m, 1, p); RV_DECL(l, 1, p); RV_DECL(g, 1, p);
    R_DECL(eps, p);
    r_set_si(m, 1); r_set_si(l, 1); r_set_si(g, 10);
    CL_FN(cl_chain) *ch = NULL;
    CL_FN(cl_chain_new)(&ch, 1, m, l, g, p);
    for (int k = 1; k <= 25; k += 8) {
        r_set_si(eps, 1);
        r_mul_2si(eps, eps, -k);
        r_set(ang, eps);
        r_set_q(ang + 1, 3, 10);
        r_set_q(ang + 2, 3, 5);
        r_set_q(ang + 3, 4, 5);
        r_div(ang + 3, ang + 3, eps); /* φ̇ sin θ ≈ 0.8 */
        CL_FN(cl_sph_state_from_angles)(x, ang);
        CL_FN(cl_chain_rhs)(ch, CL_S2_QDOT, dx, x);
        CL_FN(cl_sph_rhs_angles)(dang, ang, g);
        CL_FN(cl_sph_accel_from_angles)(qdd, ang, dang);
        double e = CL_FN(cl_rvec_log2_maxdiff)(qdd, dx + 3, 3) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(dx + 3, 3));
        /* sin θ ≈ 2^−k */
        is_log2_below(e, tol_log2(p, 64) + k, "angles at theta = 2^-%d: q'' within 64 ulps/sin(theta) (lost %.1f bits) [%s, %ld bits]",
                      k, e - (1.0 - (double)p), TEST_KIND, (long)p);
    }
    CL_FN(cl_chain_free)(ch);
}

/* Everything that runs at each test precision. */
static void run(cl_prec_t p)
{
    identities(p);
    legendre_general(p);
    errors(p);
    errata(p);
    pole(p);
}

int main(void) { return cl_test_main(run); }

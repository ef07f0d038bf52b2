/* Lagrangians on products of S¹ and Rᵏ through the model parser and
 * lagr_flat: the pendulum on a cart (R¹ × S¹) against its equations written
 * out and solved by Cramer's rule, a particle in the Kepler potential on R³
 * against Newton's law, Hamilton's equations in the canonical momenta, the
 * energy, and a degenerate L refused. */
#include "r3.h"
#include "lagr_flat.h"
#define LAGR_T cl_lagr_flat
#define LAGR_NEW_SIZED(out, m, d, p) CL_FN(cl_lagr_flat_new)(out, (m)->g, (m)->L, d, (m)->nparam, p)
#define LAGR_NEW(out, m, p) LAGR_NEW_SIZED(out, m, (m)->d, p)
#define LAGR_MAX_SIZE CL_LAGR_FLAT_MAX_DIM
#include "lagr_fixture_impl.h"

/* M = 2, m = 1.5, l = 0.75, g = 9.81 */
static const char cart[] =
    "manifold   x : R1\n"
    "manifold   theta : S1\n"
    "parameters M = 2, m = 1.5, l = 0.75, g = 9.81\n"
    "lagrangian 1/2*(M + m)*x'^2 + m*l*x'*theta'*cos(theta) + 1/2*m*l^2*theta'^2 + m*g*l*cos(theta)\n";

/*
 * The Euler–Lagrange equations of the cart, by hand:
 *   (M + m) ẍ + m l cos θ θ̈ = m l sin θ θ̇²,   m l cos θ ẍ + m l² θ̈ = −m g l sin θ,
 * and in the momenta p_x = (M + m)ẋ + m l cos θ θ̇, p_θ = m l cos θ ẋ + m l² θ̇:
 *   ṗ_x = 0,  ṗ_θ = ∂L/∂θ = −m l sin θ ẋ θ̇ − m g l sin θ.
 */
static void test_cart(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 4, p); RV_DECL(dx, 4, p); RV_DECL(y, 4, p); RV_DECL(dy, 4, p); RV_DECL(want, 4, p);
    R_DECL(M, p); R_DECL(mm, p); R_DECL(l, p); R_DECL(gg, p); R_DECL(c, p); R_DECL(s, p);
    R_DECL(a11, p); R_DECL(a12, p); R_DECL(a22, p); R_DECL(b1, p); R_DECL(b2, p); R_DECL(det, p); R_DECL(t, p);
    r_set_si(M, 2);
    CL_FN(cl_real_from_str)(mm, "1.5");
    CL_FN(cl_real_from_str)(l, "0.75");
    CL_FN(cl_real_from_str)(gg, "9.81");
    double wq = -INFINITY, wp = -INFINITY, wl = -INFINITY;
    int st = CL_OK;
    for (int k = 0; k < 8 && !st; k++) {
        for (int i = 0; i < 4; i++) r_set_d(x + i, 2.0 * cl_rng_normal(&f->g));
        st = CL_FN(cl_lagr_flat_rhs)(f->lg, CL_LAGR_FLAT_QDOT, dx, x);
        r_cos(c, x + 1);
        r_sin(s, x + 1);
        r_add(a11, M, mm);
        r_mul(a12, mm, l);
        r_mul(a12, a12, c);
        r_mul(a22, mm, l);
        r_mul(a22, a22, l);
        r_mul(b1, mm, l);
        r_mul(b1, b1, s);
        r_mul(b1, b1, x + 3);
        r_mul(b1, b1, x + 3);
        r_mul(b2, mm, gg);
        r_mul(b2, b2, l);
        r_mul(b2, b2, s);
        r_neg(b2, b2);
        r_mul(det, a11, a22);
        r_submul(det, a12, a12);
        r_mul(want + 2, b1, a22);
        r_submul(want + 2, a12, b2);
        r_div(want + 2, want + 2, det);
        r_mul(want + 3, a11, b2);
        r_submul(want + 3, a12, b1);
        r_div(want + 3, want + 3, det);
        lagr_worst_rel(&wq, dx + 2, want + 2, 2);
        /* the momenta, and Hamilton's equations there */
        if (!st) st = CL_FN(cl_lagr_flat_convert)(f->lg, CL_LAGR_FLAT_QDOT, x, CL_LAGR_FLAT_P, y);
        r_mul(want + 2, a11, x + 2);
        r_addmul(want + 2, a12, x + 3);
        r_mul(want + 3, a12, x + 2);
        r_addmul(want + 3, a22, x + 3);
        lagr_worst_rel(&wl, y + 2, want + 2, 2);
        if (!st) st = CL_FN(cl_lagr_flat_rhs)(f->lg, CL_LAGR_FLAT_P, dy, y);
        r_mul(t, mm, l);
        r_mul(t, t, s);
        r_mul(want + 3, t, x + 2);
        r_mul(want + 3, want + 3, x + 3);
        r_neg(want + 3, want + 3);
        r_add(want + 3, want + 3, b2);
        CL_FN(cl_rvec_copy)(want, x + 2, 2); /* q̇ back from the momenta */
        r_set_zero(want + 2);
        lagr_worst_rel(&wp, dy, want, 4);
    }
    /* 64: a 2x2 solve against Cramer's rule, det = m l^2 (M + m sin^2) >= 0.84 */
    ok(st == CL_OK && wq <= tol_log2(p, 64), "cart pendulum: (xddot, thetaddot) by Cramer's rule (2^%.1f) [%s, %ld]", wq, TEST_KIND, (long)p);
    ok(st == CL_OK && wl <= tol_log2(p, 16), "cart pendulum: the Legendre map p = dL/dqdot (2^%.1f) [%s, %ld]", wl, TEST_KIND, (long)p);
    ok(st == CL_OK && wp <= tol_log2(p, 64), "cart pendulum: Hamilton's equations, qdot from p by Newton, pdot = dL/dq (2^%.1f) [%s, %ld]", wp,
       TEST_KIND, (long)p);
}

/* L = ½m|ṙ|² + k/|r|: r̈ = −k r/(m|r|³), E = ½m|ṙ|² − k/|r|. */
static void test_kepler(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 6, p); RV_DECL(dx, 6, p); RV_DECL(want, 3, p);
    R_DECL(n, p); R_DECL(s, p); R_DECL(E, p); R_DECL(t, p);
    double wa = -INFINITY, we = -INFINITY;
    int st = CL_OK;
    for (int k = 0; k < 8 && !st; k++) {
        for (int i = 0; i < 6; i++) r_set_d(x + i, cl_rng_normal(&f->g));
        st = CL_FN(cl_lagr_flat_rhs)(f->lg, CL_LAGR_FLAT_QDOT, dx, x);
        v3_norm(n, x);
        r_mul(s, n, n);
        r_mul(s, s, n);
        r_mul_si(s, s, 2);
        r_set_si(t, -3);
        r_div(s, t, s); /* −k/(m|r|³) */
        v3_scale(want, s, x);
        lagr_worst_rel(&wa, dx + 3, want, 3);
        if (!st) st = CL_FN(cl_lagr_flat_value)(f->lg, -1, CL_LAGR_FLAT_QDOT, E, x);
        v3_dot(s, x + 3, x + 3); /* ½·2|ṙ|² − 3/|r| */
        r_set_si(t, 3);
        r_div(t, t, n);
        r_add(n, s, t); /* the scale: E may cancel to near zero */
        r_sub(s, s, t);
        double e = CL_FN(cl_rvec_log2_maxdiff)(E, s, 1) - CL_FN(cl_rvec_log2_maxabs)(n, 1);
        if (e > we) we = e;
    }
    /* 64: |r| may be ~0.3, so the force is ~ 50 with a few roundings */
    ok(st == CL_OK && wa <= tol_log2(p, 64), "Kepler on R3: rddot = -k r/(m |r|^3) (2^%.1f) [%s, %ld]", wa, TEST_KIND, (long)p);
    ok(st == CL_OK && we <= tol_log2(p, 64), "Kepler on R3: E = m|rdot|^2/2 - k/|r|, relative to m|rdot|^2/2 + k/|r| (2^%.1f) [%s, %ld]", we, TEST_KIND, (long)p);
}

static void test_degenerate(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 4, p);
    r_set_si(x, 1);
    lagr_refused("manifold x, y : R1\nlagrangian 1/2*x'^2 + y'*x - y^2\n", x, 4, 2, "a Lagrangian linear in y'", p);
}

static const lagr_test tests[] = {
    {test_cart, cart, "the cart-pendulum model", 5711},
    {test_kepler, "manifold r : R3\nparameters m = 2, k = 3\nlagrangian 1/2*m*dot(r', r') + k/norm(r)\n", "the Kepler model", 5712},
    {test_degenerate, NULL, NULL, 0},
    {lagr_new_fails, cart, "the cart-pendulum model, for the constructor's refusals", 0},
};

static void run(cl_prec_t p) { lagr_run(tests, sizeof tests / sizeof tests[0], p); }

int main(void) { return cl_test_main(run); }

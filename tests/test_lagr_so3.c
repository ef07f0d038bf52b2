/* Lagrangians on SO(3) through the model parser and lagr_so3: the heavy top
 * against Euler's equation with the gravity torque written out here, a
 * Lagrangian that is not quadratic in Ω against its closed forms (the field,
 * the energy, the Legendre map inverted by Newton's method), the projection
 * of input states onto SO(3), and a degenerate L refused. */
#include "r3.h"
#include "lie.h"
#include "lagr_so3.h"
#define LAGR_T cl_lagr_so3
#define LAGR_NEW(out, m, p) CL_FN(cl_lagr_so3_new)(out, (m)->g, (m)->L, (m)->nparam, p)
#include "lagr_fixture_impl.h"

/* x = (R, Ω): R = exp(θ^) and θ, Ω normal with deviation 1.5. */
static void random_state(rptr x, cl_rng *g)
{
    RV_DECL(th, 3, r_prec(x));
    for (int i = 0; i < 3; i++) r_set_d(th + i, 1.5 * cl_rng_normal(g));
    CL_FN(cl_so3_exp)(x, th);
    for (int i = 0; i < 3; i++) r_set_d(x + 9 + i, 1.5 * cl_rng_normal(g));
}

/* The heavy top with the centre of mass off the symmetry axes: ρ = l·axis/|axis| = (1, −2, 2)/6. */
static const char heavy[] =
    "manifold   R : SO3 (Omega)\n"
    "parameters J1 = 1.25, J2 = 2, J3 = 3.5, m = 1.5, g = 9.81, l = 0.5\n"
    "lagrangian 1/2*(J1*Omega.x^2 + J2*Omega.y^2 + J3*Omega.z^2) - m*g*l*(R*[1, -2, 2]).z/norm([1, -2, 2])\n";

static void test_heavy_top(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 12, p); RV_DECL(dx, 12, p); RV_DECL(J, 3, p); RV_DECL(rho, 3, p); RV_DECL(v, 3, p); RV_DECL(want, 3, p);
    R_DECL(mg, p); R_DECL(s, p);
    CL_FN(cl_real_from_str)(J, "1.25");
    r_set_si(J + 1, 2);
    CL_FN(cl_real_from_str)(J + 2, "3.5");
    CL_FN(cl_real_from_str)(mg, "9.81");
    CL_FN(cl_real_from_str)(s, "1.5");
    r_mul(mg, mg, s);
    v3_set_d(rho, 1, -2, 2);
    r_set_si(s, 6);
    for (int i = 0; i < 3; i++) r_div(rho + i, rho + i, s); /* l/|axis| = 1/6 */
    double worst = -INFINITY;
    int st = CL_OK;
    for (int k = 0; k < 8 && !st; k++) {
        random_state(x, &f->g);
        st = CL_FN(cl_lagr_so3_rhs)(f->lg, CL_LAGR_SO3_ROMEGA, dx, x);
        /* J Ω̇ = JΩ × Ω + m g Γ × ρ, Γ = Rᵀe₃ the third row of R */
        for (int i = 0; i < 3; i++) r_mul(v + i, J + i, x + 9 + i);
        v3_cross(want, v, x + 9);
        v3_cross(v, x + 6, rho);
        v3_axpy(want, mg, v);
        for (int i = 0; i < 3; i++) r_div(want + i, want + i, J + i);
        lagr_worst_rel(&worst, dx + 9, want, 3);
    }
    /* 64: a 3x3 solve against three divisions, inertia ratio < 3, torque m g l ~ 7 against |J W x W| ~ 5 */
    ok(st == CL_OK && worst <= tol_log2(p, 64), "heavy top: W' is Euler's equation with the gravity torque (2^%.1f) [%s, %ld]", worst,
       TEST_KIND, (long)p);
}

/*
 * L = F(K), K = ΩᵀJΩ, F(K) = K/2 + K²/8: Π = 2F'(K)JΩ = (1 + K/2)JΩ. K is
 * conserved (Ω·(Π × Ω) = 0), so 2F'(K) is a constant along the motion and
 * Ω̇ = J⁻¹(JΩ × Ω), Euler's free body; E = Ω·Π − L = K/2 + 3K²/8.
 */
static const char quartic[] =
    "manifold   R : SO3\n"
    "parameters J1 = 1, J2 = 2, J3 = 3.5\n"
    "lagrangian 1/2*(J1*W.x^2 + J2*W.y^2 + J3*W.z^2) + 1/8*(J1*W.x^2 + J2*W.y^2 + J3*W.z^2)^2\n";

static void test_quartic(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 12, p); RV_DECL(dx, 12, p); RV_DECL(J, 3, p); RV_DECL(v, 3, p); RV_DECL(want, 18, p);
    RV_DECL(y, 18, p); RV_DECL(dy, 18, p); RV_DECL(z, 12, p);
    R_DECL(K, p); R_DECL(E, p); R_DECL(s, p);
    r_set_si(J, 1);
    r_set_si(J + 1, 2);
    CL_FN(cl_real_from_str)(J + 2, "3.5");
    double wfield = -INFINITY, wenergy = -INFINITY, wmu = -INFINITY, wback = -INFINITY, wrdot = -INFINITY, wmudot = -INFINITY;
    int st = CL_OK;
    for (int k = 0; k < 8 && !st; k++) {
        random_state(x, &f->g);
        for (int i = 0; i < 3; i++) r_mul(v + i, J + i, x + 9 + i);
        v3_dot(K, v, x + 9);
        st = CL_FN(cl_lagr_so3_rhs)(f->lg, CL_LAGR_SO3_ROMEGA, dx, x);
        v3_cross(want, v, x + 9);
        for (int i = 0; i < 3; i++) r_div(want + i, want + i, J + i);
        lagr_worst_rel(&wfield, dx + 9, want, 3);
        /* E = K/2 + 3K²/8 */
        if (!st) st = CL_FN(cl_lagr_so3_value)(f->lg, -1, CL_LAGR_SO3_ROMEGA, E, x);
        r_mul(s, K, K);
        r_mul_si(s, s, 3);
        r_mul_2si(s, s, -2);
        r_add(s, s, K);
        r_mul_2si(s, s, -1);
        lagr_worst_rel(&wenergy, E, s, 1);
        /* μ = ½R Π̂ with Π = (1 + K/2)JΩ, then back by Newton's method, and Ṙ = RΩ̂ in the μ form */
        if (!st) st = CL_FN(cl_lagr_so3_convert)(f->lg, CL_LAGR_SO3_ROMEGA, x, CL_LAGR_SO3_RMU, y);
        r_mul_2si(s, K, -1);
        r_add_si(s, s, 1);
        v3_scale(v, s, v);
        RV_DECL(M, 9, p);
        m3_hat(M, v);
        m3_mul(want, x, M);
        for (int i = 0; i < 9; i++) r_mul_2si(want + i, want + i, -1);
        lagr_worst_rel(&wmu, y + 9, want, 9);
        if (!st) st = CL_FN(cl_lagr_so3_convert)(f->lg, CL_LAGR_SO3_RMU, y, CL_LAGR_SO3_ROMEGA, z);
        lagr_worst_rel(&wback, z + 9, x + 9, 3);
        if (!st) st = CL_FN(cl_lagr_so3_rhs)(f->lg, CL_LAGR_SO3_RMU, dy, y);
        /* Ṙ = RΩ̂ and, free of torque, μ̇ = ½(Ṙ Π̂ + R (Π × Ω)^), written out here */
        RV_DECL(Rd, 9, p); RV_DECL(c, 3, p);
        m3_hat(M, x + 9);
        m3_mul(Rd, x, M);
        lagr_worst_rel(&wrdot, dy, Rd, 9);
        m3_hat(M, v);
        m3_mul(want, Rd, M);
        v3_cross(c, v, x + 9);
        m3_hat(M, c);
        m3_mul(want + 9, x, M);
        for (int i = 0; i < 9; i++) {
            r_add(want + i, want + i, want + 9 + i);
            r_mul_2si(want + i, want + i, -1);
        }
        lagr_worst_rel(&wmudot, dy + 9, want, 9);
    }
    /* 64: a 3x3 solve and the Hessian sweeps on |W| ~ 3, K up to ~30 */
    ok(st == CL_OK && wfield <= tol_log2(p, 64), "non-quadratic L: W' = J^-1 (J W x W) (2^%.1f) [%s, %ld]", wfield, TEST_KIND, (long)p);
    ok(st == CL_OK && wenergy <= tol_log2(p, 16), "non-quadratic L: E = K/2 + 3K^2/8 (2^%.1f) [%s, %ld]", wenergy, TEST_KIND, (long)p);
    ok(st == CL_OK && wmu <= tol_log2(p, 16), "non-quadratic L: mu = R ((1 + K/2) J W)^ / 2 (2^%.1f) [%s, %ld]", wmu, TEST_KIND, (long)p);
    /* 256: Newton on L_WW, whose condition grows with K */
    ok(st == CL_OK && wback <= tol_log2(p, 256), "non-quadratic L: Newton's inverse Legendre map gives W back (2^%.1f) [%s, %ld]", wback,
       TEST_KIND, (long)p);
    ok(st == CL_OK && wrdot <= tol_log2(p, 256), "non-quadratic L: Rdot of the mu form is R W^ (2^%.1f) [%s, %ld]", wrdot, TEST_KIND,
       (long)p);
    ok(st == CL_OK && wmudot <= tol_log2(p, 256), "non-quadratic L: mudot of the mu form is (Rdot Pi^ + R (Pi x W)^)/2 (2^%.1f) [%s, %ld]",
       wmudot, TEST_KIND, (long)p);
}

static void test_project_and_degenerate(lagr_fixture *f, cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 4713);
    RV_DECL(x, 18, p); RV_DECL(T, 9, p); RV_DECL(y, 18, p);
    R_DECL(eps, p);
    random_state(x, &g);
    r_set_d(eps, 0x1p-45);
    r_add(x, x, eps); /* R₁₁ off by 2^-45: accepted and made orthogonal */
    double defect;
    int st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_ROMEGA, x, -40, &defect);
    m3_transpose(T, x);
    m3_mul(T, T, x);
    for (int i = 0; i < 3; i++) r_add_si(T + 4 * i, T + 4 * i, -1);
    ok(st == CL_OK && CL_FN(cl_rvec_log2_maxabs)(T, 9) <= tol_log2(p, 8), "R within 2^-45 of SO(3) is made orthogonal to the working precision [%s, %ld]",
       TEST_KIND, (long)p);
    r_set_d(eps, 0x1p-30);
    r_add(x, x, eps);
    st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_ROMEGA, x, -40, &defect);
    ok(st == CL_EDOMAIN && defect > -31 && defect < -29, "R off by 2^-30 is refused with its defect (2^%.1f) [%s, %ld]", defect, TEST_KIND,
       (long)p);
    random_state(x, &g);
    for (int i = 0; i < 3; i++) r_neg(x + i, x + i); /* det −1 */
    st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_ROMEGA, x, -40, &defect);
    ok(st == CL_EDOMAIN && defect == INFINITY, "det R = -1 is refused [%s, %ld]", TEST_KIND, (long)p);
    st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_ROMEGA, x, 1, &defect);
    ok(st == CL_EPARAM, "a tolerance of 2^1, where Newton-Schulz need not contract, is refused [%s, %ld]", TEST_KIND, (long)p);
    /* (R, Ṙ) with RᵀṘ = I + (skew): refused; with a 2^-45 symmetric part: made skew */
    random_state(x, &g);
    RV_DECL(S, 9, p);
    m3_hat(S, x + 9);
    r_set_d(eps, 0x1p-45);
    for (int i = 0; i < 3; i++) r_add(S + 4 * i, S + 4 * i, eps);
    m3_mul(y + 9, x, S);
    CL_FN(cl_rvec_copy)(y, x, 9);
    st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_RRDOT, y, -40, &defect);
    m3_transpose(T, y);
    m3_mul(T, T, y + 9);
    m3_transpose(S, T);
    for (int i = 0; i < 9; i++) r_add(S + i, S + i, T + i);
    ok(st == CL_OK && CL_FN(cl_rvec_log2_maxabs)(S, 9) <= tol_log2(p, 64), "R^T Rdot within 2^-45 of skew is made skew [%s, %ld]", TEST_KIND,
       (long)p);
    for (int i = 0; i < 9; i++) r_add_si(y + 9 + i, y + 9 + i, i % 4 == 0);
    st = CL_FN(cl_lagr_so3_project_state)(CL_LAGR_SO3_RRDOT, y, -40, &defect);
    ok(st == CL_ENOTTANGENT, "R^T Rdot far from skew is refused [%s, %ld]", TEST_KIND, (long)p);
    random_state(x, &g);
    lagr_refused("manifold R : SO3\nlagrangian 1/2*(W.x^2 + W.y^2) - (R*[0, 0, 1]).z\n", x, 12, CL_LAGR_SO3_RMU + 1,
                 "no kinetic energy about one axis", p);
}

static const lagr_test tests[] = {
    {test_heavy_top, heavy, "the heavy top model", 4711},
    {test_quartic, quartic, "the quartic model", 4712},
    {test_project_and_degenerate, NULL, NULL, 0},
    {lagr_new_fails, quartic, "the quartic model, for the constructor's refusals", 0},
};

static void run(cl_prec_t p) { lagr_run(tests, sizeof tests / sizeof tests[0], p); }

int main(void) { return cl_test_main(run); }

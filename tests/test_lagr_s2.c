/* A Lagrangian on (S²)ⁿ that is not quadratic in the velocities, through the
 * model parser and lagr_s2: closed forms of the free motion, the Legendre
 * map inverted by Newton's method, a degenerate L and an unknown form refused. */
#include "r3.h"
#include "lagr_s2.h"
#define LAGR_T cl_lagr_s2
#define LAGR_NEW_SIZED(out, m, n, p) CL_FN(cl_lagr_s2_new)(out, (m)->g, (m)->L, n, (m)->nparam, p)
#define LAGR_NEW(out, m, p) LAGR_NEW_SIZED(out, m, (m)->n, p)
#define LAGR_MAX_SIZE CL_LAGR_MAX_SPHERES
#include "lagr_fixture_impl.h"

/*
 * L = −m·sqrt(1 − |q̇|²/c²) + k·dot(q̇1, q̇2)^2 on (S²)², with the spheres
 * decoupled when k = 0. For one sphere L = f(s), s = |q̇|², so by
 * [S2 (11)] the motion is a great circle at constant speed: q̈ = −s q, and
 * μ = 2f'(s) q̇ with f'(s) = m/(2c² sqrt(1 − s/c²)), μ̇ = 2f'(s) q̈.
 */
static const char relativistic[] =
    "# a relativistic free particle on each sphere, coupled through k\n"
    "manifold q1, q2 : S2\n"
    "parameters m = 1.5, c = 2, k = 0\n"
    "lagrangian -m*c^2*sqrt(1 - dot(q1', q1')/c^2) - m*c^2*sqrt(1 - dot(q2', q2')/c^2)\n"
    "           + k*dot(q1', q2')^2\n";

static void test_free_motion(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 12, p); RV_DECL(dx, 12, p); RV_DECL(y, 12, p); RV_DECL(z, 12, p); RV_DECL(want, 12, p);
    R_DECL(s, p); R_DECL(f1, p); R_DECL(c2, p); R_DECL(t, p);
    for (int i = 0; i < 2; i++) {
        CL_FN(cl_v3_random_unit)(x + 3 * i, &f->g);
        CL_FN(cl_v3_random_tangent)(x + 6 + 3 * i, x + 3 * i, 0.5, &f->g); /* |q̇| well below c = 2 */
    }
    int st = CL_FN(cl_lagr_s2_rhs)(f->lg, CL_LAGR_QDOT, dx, x);
    double worst = -INFINITY;
    for (int i = 0; i < 2; i++) { /* q̈_i = −|q̇_i|² q_i */
        v3_dot(s, x + 6 + 3 * i, x + 6 + 3 * i);
        r_neg(s, s);
        v3_scale(want + 6 + 3 * i, s, x + 3 * i);
        lagr_worst_abs(&worst, dx + 6 + 3 * i, want + 6 + 3 * i, 3);
    }
    /* 64: the 6x6 solve and the Hessian sweeps, entries of size ≤ 1 */
    ok(st == CL_OK && worst <= tol_log2(p, 64), "free motion: qddot = -|qdot|^2 q (great circles) [%s, %ld]", TEST_KIND, (long)p);
    /* μ = 2f'(s) q̇ and, in the μ form, μ̇ = 2f'(s) q̈ */
    st = CL_FN(cl_lagr_s2_convert)(f->lg, CL_LAGR_QDOT, x, CL_LAGR_MU, y);
    int st2 = CL_FN(cl_lagr_s2_rhs)(f->lg, CL_LAGR_MU, z, y);
    double wmu = -INFINITY, wmudot = -INFINITY;
    CL_FN(cl_real_from_str)(c2, "4");
    for (int i = 0; i < 2; i++) {
        v3_dot(s, x + 6 + 3 * i, x + 6 + 3 * i); /* 2f'(s) = m / sqrt(1 − s/c²) */
        r_div(t, s, c2);
        r_si_sub(t, 1, t);
        r_sqrt(t, t);
        CL_FN(cl_real_from_str)(f1, "1.5");
        r_div(f1, f1, t);
        v3_scale(want, f1, x + 6 + 3 * i);
        lagr_worst_abs(&wmu, y + 6 + 3 * i, want, 3);
        v3_scale(want, f1, want + 6 + 3 * i);
        lagr_worst_abs(&wmudot, z + 6 + 3 * i, want, 3);
    }
    ok(st == CL_OK && wmu <= tol_log2(p, 16), "Legendre map: mu = m qdot / sqrt(1 - |qdot|^2/c^2) [%s, %ld]", TEST_KIND, (long)p);
    ok(st2 == CL_OK && wmudot <= tol_log2(p, 256), "mu form: mudot = 2 f'(s) qddot, after Newton's inversion of the Legendre map [%s, %ld]",
       TEST_KIND, (long)p);
    /* with the coupling k = 1/2 the map is not diagonal: qdot -> pi -> qdot returns the state */
    R_DECL(k, p);
    r_set_q(k, 1, 2);
    CL_FN(cl_lagr_s2_set_param)(f->lg, 2, k);
    st = CL_FN(cl_lagr_s2_convert)(f->lg, CL_LAGR_QDOT, x, CL_LAGR_PI, y);
    if (!st) st = CL_FN(cl_lagr_s2_convert)(f->lg, CL_LAGR_PI, y, CL_LAGR_QDOT, z);
    ok(st == CL_OK && CL_FN(cl_rvec_log2_maxdiff)(z, x, 12) <= tol_log2(p, 64),
       "coupled non-quadratic L: qdot -> pi -> qdot round trip by Newton [%s, %ld]", TEST_KIND, (long)p);
    /* the four fields of the coupled L agree on qdot: omegadot = q x qddot, and the q parts */
    st = CL_FN(cl_lagr_s2_rhs)(f->lg, CL_LAGR_QDOT, dx, x);
    CL_FN(cl_lagr_s2_convert)(f->lg, CL_LAGR_QDOT, x, CL_LAGR_OMEGA, y);
    st2 = CL_FN(cl_lagr_s2_rhs)(f->lg, CL_LAGR_OMEGA, z, y);
    for (int i = 0; i < 2; i++) v3_cross(want + 6 + 3 * i, x + 3 * i, dx + 6 + 3 * i);
    ok(!st && !st2 && CL_FN(cl_rvec_log2_maxdiff)(z + 6, want + 6, 6) <= tol_log2(p, 64) &&
           CL_FN(cl_rvec_log2_maxdiff)(z, dx, 6) <= tol_log2(p, 4),
       "coupled non-quadratic L: the omega field is (qdot, q x qddot) [%s, %ld]", TEST_KIND, (long)p);
}

static void test_degenerate(lagr_fixture *f, cl_prec_t p)
{
    RV_DECL(x, 6, p);
    r_set_si(x + 2, 1);
    r_set_si(x + 3, 1);
    lagr_refused("manifold q : S2\nlagrangian q'.z - q.z\n", x, 6, CL_LAGR_PI + 1, "a Lagrangian linear in the velocity is degenerate", p);
}

static const lagr_test tests[] = {
    {test_free_motion, relativistic, "the relativistic model", 77},
    {test_degenerate, NULL, NULL, 0},
    {lagr_new_fails, relativistic, "the relativistic model, for the constructor's refusals", 0},
};

static void run(cl_prec_t p) { lagr_run(tests, sizeof tests / sizeof tests[0], p); }

int main(void) { return cl_test_main(run); }

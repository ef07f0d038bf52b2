/*
 * [S2 II] the two-sphere and [S2 App. A] the hat-map identities, at every
 * precision of TEST_PRECISIONS. Expected values: closed forms on integer
 * vectors (where every form is exact), the defining identities (q·q̇ = 0,
 * ‖ω × q‖ = ‖ω‖ for ω ⊥ q, P² = P, ...) at random states, and the error codes.
 */
#include "tap_real.h"
#include "r3.h"
#define CL_TEMPLATE_HEADER "s2_sphere_decl.h"
#include "cl_instantiate.h"

/* Status test with the kind and precision in the name; \p got is evaluated once. */
#define IS_STATUS(got, want, what) \
    do { int st_ = (got); \
         ok(st_ == (want), "%s [%s, %ld bits] (status %d)", what, TEST_KIND, (long)p, st_); } while (0)

/* Membership of S² [S2 (1)] and of T_qS² [S2 (2)], with their error codes. */
static void test_validators(cl_prec_t p, cl_rng *g)
{
    RV_DECL(q, 3, p); RV_DECL(xi, 3, p);
    R_DECL(t, p);
    v3_set_d(q, 0, 0, 1);
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_OK, "e3 is on S^2 (1)");
    CL_FN(cl_v3_random_unit)(q, g);
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_OK, "a random unit vector is on S^2 (1)");
    /* (1, 2^-k, 0): |q|^2 - 1 = 2^-2k. With 2k ≥ p it is within a few ulps;
       with 2k ≤ p − 10 it is ≥ 512·2^(1−p) > CL_S2_TOL_ULPS·2^(1−p). */
    r_set_si(t, 1);
    v3_set_d(q, 1, 0, 0);
    r_mul_2si(q + 1, t, -(long)((p + 1) / 2));
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_OK, "(1, 2^-ceil(p/2), 0) is on S^2 to working precision");
    r_mul_2si(q + 1, t, -(long)((p - 10) / 2));
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_ENOTUNIT, "(1, 2^-((p-10)/2), 0) is not on S^2");
    v3_set_d(q, 0, 0, 0);
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_ENOTUNIT, "0 is not on S^2");
    v3_set_d(q, NAN, 0, 1);
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_ENAN, "NaN entry is CL_ENAN");
    v3_set_d(q, 0, INFINITY, 0);
    IS_STATUS(CL_FN(cl_s2_check_point)(q), CL_ENAN, "infinite entry is CL_ENAN");

    /* (2): q = e3, ξ = (1, 2, ε): |q·ξ| = ε against 256·2^(1−p)·2·2 = 2^(11−p). */
    v3_set_d(q, 0, 0, 1);
    v3_set_d(xi, 1.5, -2, 0);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_OK, "(1.5, -2, 0) is tangent at e3 (2)");
    v3_set_d(xi, 1, 2, 0);
    r_mul_2si(xi + 2, t, -(long)p);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_OK, "(1, 2, 2^-p) is tangent at e3 to working precision");
    r_mul_2si(xi + 2, t, 12 - (long)p);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_ENOTTANGENT, "(1, 2, 2^(12-p)) is not tangent at e3");
    v3_set_d(xi, 0, NAN, 0);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_ENAN, "NaN velocity is CL_ENAN");
    v3_set_d(q, 0, 0, 2);
    v3_set_d(xi, 1, 0, 0);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_ENOTUNIT, "tangency at a non-unit q is CL_ENOTUNIT");
    CL_FN(cl_v3_random_unit)(q, g);
    CL_FN(cl_v3_random_tangent)(xi, q, 3.0, g);
    IS_STATUS(CL_FN(cl_s2_check_tangent)(q, xi), CL_OK, "a random tangent vector is tangent (2)");
}

/* Kinematics q̇ = ω × q [S2 (3)] and ω = q × q̇ [S2 (5)]: inverse maps on T_qS². */
static void test_kinematics(cl_prec_t p, cl_rng *g)
{
    RV_DECL(q, 3, p); RV_DECL(w, 3, p); RV_DECL(v, 3, p); RV_DECL(back, 3, p); RV_DECL(want, 3, p);
    R_DECL(s, p); R_DECL(s2, p);
    /* At q = e3, ω = (a, b, 0): ω × q = (b, −a, 0), and q × (b, −a, 0) = (a, b, 0). Exact. */
    v3_set_d(q, 0, 0, 1);
    v3_set_d(w, 0.75, -2.5, 0);
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, w), CL_OK, "qdot from omega at e3 (3)");
    v3_set_d(want, -2.5, -0.75, 0);
    ok(CL_FN(cl_rvec_log2_maxdiff)(v, want, 3) == -INFINITY, "omega x e3 = (b, -a, 0) exactly (3) [%s, %ld bits]", TEST_KIND, (long)p);
    IS_STATUS(CL_FN(cl_s2_omega_from_qdot)(back, q, v), CL_OK, "omega from qdot at e3 (5)");
    ok(CL_FN(cl_rvec_log2_maxdiff)(back, w, 3) == -INFINITY, "e3 x (b, -a, 0) = (a, b, 0) exactly (5) [%s, %ld bits]", TEST_KIND, (long)p);

    /* Random (q, ω): q̇ = ω × q is tangent, as long as ω, orthogonal to ω;
       ω = q × q̇ returns the ω we started from (inverse maps on T_qS²). */
    CL_FN(cl_v3_random_unit)(q, g);
    CL_FN(cl_v3_random_tangent)(w, q, 2.0, g);
    v3_proj_tangent(w, q, w); /* tangent to rounding relative to |ω| itself */
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, w), CL_OK, "qdot from a random omega (3)");
    v3_dot(s, q, v);
    is_tiny(s, 8, "q . qdot = 0 (3)");           /* one cross product and one dot: ≤ 6 ulps of |ω| ≤ 4 */
    v3_dot(s, w, v);
    is_tiny(s, 32, "omega . qdot = 0 (3)");      /* |ω|² ≤ ~12 times a few ulps */
    v3_norm(s, v); v3_norm(s2, w);
    is_real(s, s2, 16, "|omega x q| = |omega| for omega orthogonal to unit q");
    IS_STATUS(CL_FN(cl_s2_omega_from_qdot)(back, q, v), CL_OK, "omega from that qdot (5)");
    /* In place: v = ω, then v = v × q. */
    v3_set(v, w);
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, v), CL_OK, "qdot from omega in place");
    v3_cross(back, w, q);
    ok(CL_FN(cl_rvec_log2_maxdiff)(v, back, 3) == -INFINITY, "in place equals out of place [%s, %ld bits]", TEST_KIND, (long)p);

    /* Errors. */
    v3_set_d(w, 0.5, 0.5, 0.5);
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, w), CL_ENOTTANGENT, "omega not orthogonal to q is CL_ENOTTANGENT");
    IS_STATUS(CL_FN(cl_s2_omega_from_qdot)(v, q, w), CL_ENOTTANGENT, "qdot not tangent is CL_ENOTTANGENT");
    v3_set_d(q, 0, 0, 1.001);
    v3_set_d(w, 1, 0, 0);
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, w), CL_ENOTUNIT, "(3) at a non-unit q is CL_ENOTUNIT");
    IS_STATUS(CL_FN(cl_s2_omega_from_qdot)(v, q, w), CL_ENOTUNIT, "(5) at a non-unit q is CL_ENOTUNIT");
    v3_set_d(q, 0, 0, 1);
    v3_set_d(w, 1, NAN, 0);
    IS_STATUS(CL_FN(cl_s2_qdot_from_omega)(v, q, w), CL_ENAN, "(3) with a NaN omega is CL_ENAN");
}

/* The hat map [S2 (4)] and the projection I − qqᵀ = −S(q)² [S2 (11), (44)]. */
static void test_hat_and_projection(cl_prec_t p, cl_rng *g)
{
    RV_DECL(x, 3, p); RV_DECL(y, 3, p); RV_DECL(S, 9, p); RV_DECL(T, 9, p); RV_DECL(u, 3, p);
    RV_DECL(q, 3, p); RV_DECL(P, 9, p); RV_DECL(v, 3, p); RV_DECL(r, 3, p);
    R_DECL(s, p); R_DECL(want, p);
    /* (4) entry by entry at x = (1, 2, 3). */
    v3_set_d(x, 1, 2, 3);
    IS_STATUS(CL_FN(cl_s2_hat)(S, x), CL_OK, "hat of (1, 2, 3) (4)");
    const double S123[9] = {0, -3, 2, 3, 0, -1, -2, 1, 0};
    int same = 1;
    for (int k = 0; k < 9; k++) same = same && r_cmp_d(S + k, S123[k]) == 0;
    ok(same, "S(1,2,3) = [0 -3 2; 3 0 -1; -2 1 0] (4) [%s, %ld bits]", TEST_KIND, (long)p);
    /* Sᵀ = −S exactly (S(x)y = x × y at random x, y: oracle s2.hat.id43). */
    CL_FN(cl_v3_random_unit)(x, g);
    CL_FN(cl_s2_hat)(S, x);
    m3_transpose(T, S);
    same = 1;
    for (int k = 0; k < 9; k++) { r_neg(T + k, T + k); same = same && r_cmp(T + k, S + k) == 0; }
    ok(same, "S(x)^T = -S(x) exactly [%s, %ld bits]", TEST_KIND, (long)p);
    v3_set_d(x, 0, NAN, 0);
    IS_STATUS(CL_FN(cl_s2_hat)(S, x), CL_ENAN, "hat of NaN is CL_ENAN");

    /* Projection: P q = 0, P² = P, trace P = 2, P = −S(q)², P v = v − (q·v)q. */
    CL_FN(cl_v3_random_unit)(q, g);
    IS_STATUS(CL_FN(cl_s2_proj_matrix)(P, q), CL_OK, "projection at a random q");
    m3_mul_v3(u, P, q);
    v3_norm(s, u);
    is_tiny(s, 8, "(I - qq^T) q = 0");            /* 3-term dot products of size 1 */
    m3_mul(T, P, P);
    for (int k = 0; k < 9; k++) r_sub(T + k, T + k, P + k);
    is_log2_below(CL_FN(cl_rvec_log2_maxabs)(T, 9), tol_log2(p, 8),
                  "(I - qq^T)^2 = I - qq^T [%s, %ld bits]", TEST_KIND, (long)p); /* 3-term products of size-1 entries */
    r_add(s, P, P + 4);
    r_add(s, s, P + 8);
    r_set_si(want, 2);
    is_real(s, want, 8, "trace (I - qq^T) = 2");
    /* I − qqᵀ = −S(q)² (44): oracle s2.proj.hat_squared */
    CL_FN(cl_v3_random_unit)(v, g);
    IS_STATUS(CL_FN(cl_s2_proj_tangent)(r, q, v), CL_OK, "projection of a vector");
    m3_mul_v3(u, P, v);
    v3_sub(u, u, r);
    v3_norm(s, u);
    is_tiny(s, 8, "(I - qq^T) v by matrix = v - (q.v) q");
    v3_dot(s, q, r);
    is_tiny(s, 8, "projected vector is tangent");
    CL_FN(cl_v3_random_tangent)(v, q, 1.0, g);
    CL_FN(cl_s2_proj_tangent)(r, q, v);
    v3_sub(u, r, v);
    v3_norm(s, u);
    is_tiny(s, 8, "a tangent vector is its own projection");
    v3_set_d(q, 1, 1, 0);
    IS_STATUS(CL_FN(cl_s2_proj_matrix)(P, q), CL_ENOTUNIT, "projection at a non-unit q is CL_ENOTUNIT");
    IS_STATUS(CL_FN(cl_s2_proj_tangent)(r, q, v), CL_ENOTUNIT, "projecting at a non-unit q is CL_ENOTUNIT");
    v3_set_d(q, 0, 1, 0);
    v3_set_d(v, INFINITY, 0, 0);
    IS_STATUS(CL_FN(cl_s2_proj_tangent)(r, q, v), CL_ENAN, "projecting an infinite vector is CL_ENAN");
}

/*
 * Every form of every identity [S2 (43)–(48)] equals the hand value at
 * integer vectors (exact arithmetic).
 */
static void test_identities_exact(cl_prec_t p)
{
    RV_DECL(x, 3, p); RV_DECL(y, 3, p); RV_DECL(z, 3, p); RV_DECL(f, 27, p);
    v3_set_d(x, 1, 2, 3);
    v3_set_d(y, -2, 0, 5);
    v3_set_d(z, 4, -1, 1);
    int all;
    /* (43): x × y = (10, −11, 4). */
    IS_STATUS(CL_FN(cl_s2_hat_id43)(f, x, y), CL_OK, "identity (43)");
    all = 1;
    for (int k = 0; k < 4; k++)
        all = all && r_cmp_d(f + 3 * k, 10) == 0 && r_cmp_d(f + 3 * k + 1, -11) == 0 && r_cmp_d(f + 3 * k + 2, 4) == 0;
    ok(all, "(43): all four forms are (10, -11, 4) at x=(1,2,3), y=(-2,0,5) [%s, %ld bits]", TEST_KIND, (long)p);
    /* (44): x·x = 14, S(x)² = −14 I + x xᵀ. */
    IS_STATUS(CL_FN(cl_s2_hat_id44)(f, x), CL_OK, "identity (44)");
    all = 1;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                all = all && r_cmp_d(f + 9 * k + 3 * i + j, (i == j ? -14.0 : 0.0) + (i + 1.0) * (j + 1.0)) == 0;
    ok(all, "(44): both forms are -14 I + x x^T at x=(1,2,3) [%s, %ld bits]", TEST_KIND, (long)p);
    /* (45): S(x)³ = −14 S(x); S(x) = [0 −3 2; 3 0 −1; −2 1 0]. */
    IS_STATUS(CL_FN(cl_s2_hat_id45)(f, x), CL_OK, "identity (45)");
    const double S123[9] = {0, -3, 2, 3, 0, -1, -2, 1, 0};
    all = 1;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 9; i++) all = all && r_cmp_d(f + 9 * k + i, -14 * S123[i]) == 0;
    ok(all, "(45): both forms are -14 S(x) at x=(1,2,3) [%s, %ld bits]", TEST_KIND, (long)p);
    /* (46): y × z = (5, 22, 2), x·(y × z) = 55. */
    IS_STATUS(CL_FN(cl_s2_hat_id46)(f, x, y, z), CL_OK, "identity (46)");
    ok(r_cmp_d(f, 55) == 0 && r_cmp_d(f + 1, 55) == 0 && r_cmp_d(f + 2, 55) == 0,
       "(46): all three forms are the triple product 55 [%s, %ld bits]", TEST_KIND, (long)p);
    /* (47): x·z = 5, x·y = 13, 5y − 13z = (−62, 13, 12). */
    IS_STATUS(CL_FN(cl_s2_hat_id47)(f, x, y, z), CL_OK, "identity (47)");
    all = 1;
    for (int k = 0; k < 3; k++)
        all = all && r_cmp_d(f + 3 * k, -62) == 0 && r_cmp_d(f + 3 * k + 1, 13) == 0 && r_cmp_d(f + 3 * k + 2, 12) == 0;
    ok(all, "(47): all three forms are (-62, 13, 12) [%s, %ld bits]", TEST_KIND, (long)p);
    /* (48): x × y = (10, −11, 4), S of it = [0 −4 −11; 4 0 −10; 11 10 0] = y xᵀ − x yᵀ. */
    IS_STATUS(CL_FN(cl_s2_hat_id48)(f, x, y), CL_OK, "identity (48)");
    const double SXY[9] = {0, -4, -11, 4, 0, -10, 11, 10, 0};
    all = 1;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 9; i++) all = all && r_cmp_d(f + 9 * k + i, SXY[i]) == 0;
    ok(all, "(48): all three forms are S((10,-11,4)) [%s, %ld bits]", TEST_KIND, (long)p);
    /* NaN inputs. */
    v3_set_d(z, 0, 0, NAN);
    IS_STATUS(CL_FN(cl_s2_hat_id46)(f, x, y, z), CL_ENAN, "(46) with a NaN input is CL_ENAN");
    IS_STATUS(CL_FN(cl_s2_hat_id47)(f, x, y, z), CL_ENAN, "(47) with a NaN input is CL_ENAN");
    IS_STATUS(CL_FN(cl_s2_hat_id43)(f, x, z), CL_ENAN, "(43) with a NaN input is CL_ENAN");
    IS_STATUS(CL_FN(cl_s2_hat_id44)(f, z), CL_ENAN, "(44) with a NaN input is CL_ENAN");
    IS_STATUS(CL_FN(cl_s2_hat_id45)(f, z), CL_ENAN, "(45) with a NaN input is CL_ENAN");
    IS_STATUS(CL_FN(cl_s2_hat_id48)(f, z, x), CL_ENAN, "(48) with a NaN input is CL_ENAN");
    /* The residual helper: forms (1, 2, 3) and (1, 2, 3 + 2^-10) differ by 2^-10. */
    v3_set_d(f, 1, 2, 3);
    v3_set_d(f + 3, 1, 2, 3 + 0x1p-10);
    ok(CL_FN(cl_s2_identity_log2_residual)(f, 2, 3) == -10.0, "residual of forms 2^-10 apart is -10 [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_s2_identity_log2_residual)(f, 1, 3) == -INFINITY, "a single form has residual -inf [%s, %ld bits]", TEST_KIND, (long)p);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) {
        cl_prec_t p = TEST_PRECISIONS[k];
        cl_rng g;
        cl_rng_seed(&g, 2);
        test_validators(p, &g);
        test_kinematics(p, &g);
        test_hat_and_projection(p, &g);
        test_identities_exact(p);
    }
    return done_testing();
}

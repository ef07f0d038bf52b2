/* R³ layer: identities of the cross product and the hat map at many precisions. */
#include "tap_main.h"
#include "r3.h"

/* x and y (3 entries) are equal to the last bit. */
static void same_exactly(rsrc x, rsrc y, const char *what)
{
    ok(CL_FN(cl_rvec_log2_maxdiff)(x, y, 3) == -INFINITY, "%s [%s, %ld]", what, TEST_KIND, (long)r_prec(x));
}

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 42);
    RV_DECL(a, 3, p); RV_DECL(b, 3, p); RV_DECL(c, 3, p);
    RV_DECL(t, 3, p); RV_DECL(u, 3, p); RV_DECL(M, 9, p);
    R_DECL(s, p); R_DECL(one, p);
    r_set_si(one, 1);
    CL_FN(cl_v3_random_unit)(a, &g);
    v3_norm(s, a);
    /* 4: three roundings of the division by the norm, the dot product (three
       fused steps) and the square root, each at most half a unit. */
    is_real(s, one, 4, "random unit vector has norm 1");
    CL_FN(cl_v3_random_tangent)(b, a, 2.0, &g);
    v3_dot(s, a, b);
    /* 8: the projection rounds each entry of b (|b| ≲ 2·3 for scale 2 and
       normal draws) once, and q·b adds three fused roundings: a few units of
       2^(1-p)·|b|, with |b| bounded by the factor of the check below. */
    is_tiny(s, 8, "random tangent vector is orthogonal to q");
    ok(CL_FN(cl_v3_check_tangent)(a, b, 8) == CL_OK, "check_tangent accepts it [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(c, 0.25, -1.5, 3.0);
    /* a × b is orthogonal to a. (S(a)c = a × c and Lagrange's identity are the
       oracle rows core.r3.hat and core.r3.lagrange.) */
    v3_cross(t, a, b);
    v3_dot(s, t, a);
    /* 16: each entry of a x b carries one rounding of size |a||b| ≤ 8, the
       dot product with the unit a adds three more: 2·8 units in all. */
    is_tiny(s, 16, "(a x b) . a = 0");
    /* In place (r = a × r, r = M r, r = (I - qq^T) r) gives the out-of-place result exactly. */
    v3_set(t, a);
    v3_cross(u, t, c);
    v3_cross(t, t, c);
    same_exactly(t, u, "cross product in place equals out of place");
    m3_hat(M, a);
    m3_mul_v3(u, M, c);
    v3_set(t, c);
    m3_mul_v3(t, M, t);
    same_exactly(t, u, "M c in place equals out of place");
    v3_proj_tangent(u, a, c);
    v3_set(t, c);
    v3_proj_tangent(t, a, t);
    same_exactly(t, u, "tangent projection in place equals out of place");
    /* Along 4a the plane projection is the tangent projection along a. 64: |a|² is 1 to 4 units (above), so the
       coefficient c·a/|a|² moves by |c| ≈ 3.4 times that, and each entry adds a few roundings of size |c|. */
    for (int i = 0; i < 3; i++) r_mul_2si(M + i, a + i, 2);
    v3_proj_plane(t, M, c);
    ok(CL_FN(cl_rvec_log2_maxdiff)(t, u, 3) <= tol_log2(p, 64), "plane projection along 4a is the tangent projection along a [%s, %ld]",
       TEST_KIND, (long)p);
    /* NaN and infinity are refused by both checks with CL_ENAN. */
    v3_set_d(c, 1, 0, 0);
    r_set_si(s, 0);
    r_div(s, one, s);           /* +inf */
    r_set(t, a); r_set(t + 1, s);
    ok(CL_FN(cl_v3_check_unit)(t, 4) == CL_ENAN, "check_unit refuses an infinite entry [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_v3_check_tangent)(c, t, 4) == CL_ENAN, "check_tangent refuses an infinite velocity [%s, %ld]",
       TEST_KIND, (long)p);
    r_sub(s, s, s);             /* NaN */
    r_set(t + 1, s);
    ok(CL_FN(cl_v3_check_tangent)(t, c, 4) == CL_ENAN, "check_tangent refuses a NaN point [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(c, 1, 0, 0);
    ok(CL_FN(cl_v3_check_unit)(c, 4) == CL_OK, "e1 is unit [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(c, 1, 1e-3, 0);
    ok(CL_FN(cl_v3_check_unit)(c, 4) == CL_ENOTUNIT, "(1, 1e-3, 0) is not unit [%s, %ld]", TEST_KIND, (long)p);
}

int main(void) { return cl_test_main(run); }

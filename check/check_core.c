/*
 * Checks of the R³ layer itself: identities every later chapter leans on,
 * at seeded random vectors.
 */
#include <math.h>
#include "check.h"
#include "r3.h"

#define DRAWS 200

CL_CHECK(core_r3_lagrange, "core.r3.lagrange", .chapter = "core", .tags = "", .what = "|a x b|^2 + (a.b)^2 against |a|^2 |b|^2 at 200 random pairs (relative)", .cond = 16, .why = "about ten roundings on each side, each at most 2^-p relative")
{
    cl_rng g;
    cl_rng_seed(&g, 2026);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec);
    R_DECL(lhs, prec); R_DECL(rhs, prec); R_DECL(t, prec);
    cl_check_begin(res);
    for (int k = 0; k < DRAWS; k++) {
        for (int i = 0; i < 3; i++) {
            r_set_d(a + i, cl_rng_range(&g, -2, 2));
            r_set_d(b + i, cl_rng_range(&g, -2, 2));
        }
        v3_cross(c, a, b);
        v3_dot(lhs, c, c);
        v3_dot(t, a, b);
        r_addmul(lhs, t, t);
        v3_dot(rhs, a, a);
        v3_dot(t, b, b);
        r_mul(rhs, rhs, t);
        r_sub(t, lhs, rhs);
        cl_check_worst(res, r_log2abs(t) - r_log2abs(rhs), "worst at draw %d", k);
    }
    return CL_OK;
}

CL_CHECK(core_r3_hat, "core.r3.hat", .chapter = "core", .tags = "[S2 (4)]", .what = "S(a)b against a x b, and S(a)^T against -S(a), at 200 random unit pairs", .cond = 2, .why = "both sides are the same two products and one subtraction per entry")
{
    cl_rng g;
    cl_rng_seed(&g, 7);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec); RV_DECL(d, 3, prec);
    RV_DECL(M, 9, prec); RV_DECL(Mt, 9, prec);
    cl_check_begin(res);
    for (int k = 0; k < DRAWS; k++) {
        CL_FN(cl_v3_random_unit)(a, &g);
        CL_FN(cl_v3_random_unit)(b, &g);
        m3_hat(M, a);
        m3_mul_v3(c, M, b);
        v3_cross(d, a, b);
        double e = CL_FN(cl_rvec_log2_maxdiff)(c, d, 3);
        m3_transpose(Mt, M);
        for (int i = 0; i < 9; i++) r_neg(Mt + i, Mt + i);
        double e2 = CL_FN(cl_rvec_log2_maxdiff)(M, Mt, 9);
        cl_check_worst(res, e2 > e ? e2 : e, NULL);
    }
    return CL_OK;
}

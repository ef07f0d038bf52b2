/*
 * Checks of the R³ layer itself: identities every later chapter leans on,
 * at seeded random vectors.
 */
#include <math.h>
#include <stdio.h>
#include "oracle.h"
#include "r3.h"

#define DRAWS 200

/* Lagrange's identity |a × b|² + (a·b)² = |a|²|b|², relative to |a|²|b|². */
int CL_FN(check_core_lagrange)(cl_check_result *res, cl_prec_t prec)
{
    cl_rng g;
    cl_rng_seed(&g, 2026);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec);
    R_DECL(lhs, prec); R_DECL(rhs, prec); R_DECL(t, prec);
    res->log2_err = -INFINITY;
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
        double e = r_log2abs(t) - r_log2abs(rhs);
        if (e > res->log2_err) {
            res->log2_err = e;
            snprintf(res->note, sizeof res->note, "worst at draw %d", k);
        }
    }
    return CL_OK;
}

/* S(a)b = a × b and S(a)ᵀ = −S(a) [S2 (4)]: largest entry of the difference. */
int CL_FN(check_core_hat)(cl_check_result *res, cl_prec_t prec)
{
    cl_rng g;
    cl_rng_seed(&g, 7);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec); RV_DECL(d, 3, prec);
    RV_DECL(M, 9, prec); RV_DECL(Mt, 9, prec);
    res->log2_err = -INFINITY;
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
        if (e2 > e) e = e2;
        if (e > res->log2_err) res->log2_err = e;
    }
    return CL_OK;
}

#if CL_PREC == CL_MPFR
int check_core_lagrange_d(cl_check_result *, cl_prec_t);
int check_core_hat_d(cl_check_result *, cl_prec_t);
static const cl_check core_checks[] = {
    {.name = "core.r3.lagrange", .chapter = "core", .tags = "",
     .what = "|a x b|^2 + (a.b)^2 against |a|^2 |b|^2 at 200 random pairs (relative)",
     .cond = 16, .why = "about ten roundings on each side, each at most 2^-p relative",
     .fn_d = check_core_lagrange_d, .fn_mp = check_core_lagrange_mp},
    {.name = "core.r3.hat", .chapter = "core", .tags = "[S2 (4)]",
     .what = "S(a)b against a x b, and S(a)^T against -S(a), at 200 random unit pairs",
     .cond = 2, .why = "both sides are the same two products and one subtraction per entry",
     .fn_d = check_core_hat_d, .fn_mp = check_core_hat_mp},
};
CL_ORACLE_REGISTER(core_checks)
#endif

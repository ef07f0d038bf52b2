/* Shared by the tests and the oracle checks of chapter NFOLD: the parameter
 * set of the N-fold pendulum and random states, at the working precision. */
#ifndef NFOLD_COMMON_H
#define NFOLD_COMMON_H
#include "r3.h"
#include "nfold.h"

/* m_i = 0.75, 1, 1.25, … and l_i = 0.625 … 1.125 (exact), g from a decimal string. */
static inline CL_FN(cl_nfold) *nfold_make(size_t n, cl_prec_t p, int dense, const char *gs)
{
    rptr m = CL_FN(cl_rvec_new)(2 * n, p), l = m + n;
    R_DECL(g, p);
    for (size_t i = 0; i < n; i++) {
        r_set_q(m + i, 3 + (long)(i % 3), 4);
        r_set_q(l + i, 5 + (long)((2 * i) % 5), 8);
    }
    CL_FN(cl_real_from_str)(g, gs);
    CL_FN(cl_nfold) *s;
    CL_FN(cl_nfold_new)(&s, n, m, l, g, p, dense);
    CL_FN(cl_rvec_free)(m);
    return s;
}

/* y = (q_1 … q_N, ω_1 … ω_N): q_i uniform on S², ω_i ∈ T_{q_i}S² of scale vscale. */
static inline void nfold_random_state(rptr y, size_t n, cl_rng *g, double vscale)
{
    for (size_t i = 0; i < n; i++) {
        CL_FN(cl_v3_random_unit)(y + 3 * i, g);
        CL_FN(cl_v3_random_tangent)(y + 3 * (n + i), y + 3 * i, vscale, g);
    }
}

/* Near the hanging equilibrium: q_i = (−e₃ + δ)/‖−e₃ + δ‖, δ uniform in
 * [−0.6, 0.6]³, ω_i of scale 0.5. */
static inline void nfold_gentle_state(rptr y, size_t n, cl_rng *g)
{
    cl_prec_t p = r_prec(y);
    R_DECL(c, p);
    for (size_t i = 0; i < n; i++) {
        rptr q = y + 3 * i;
        v3_set_d(q, cl_rng_range(g, -0.6, 0.6), cl_rng_range(g, -0.6, 0.6), -1 + cl_rng_range(g, -0.6, 0.6));
        v3_norm(c, q);
        for (int k = 0; k < 3; k++) r_div(q + k, q + k, c);
        CL_FN(cl_v3_random_tangent)(y + 3 * (n + i), q, 0.5, g);
    }
}
#endif

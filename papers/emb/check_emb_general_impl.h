/*
 * Internal to the checks of [EMB §2, §3.1–3.3] (check_emb_general.c and
 * check_emb_general_models.c; templated, never installed): the random
 * draws, the pendulum and the subspace system they set up.
 */
#ifndef CL_CHECK_EMB_GENERAL_IMPL_H
#define CL_CHECK_EMB_GENERAL_IMPL_H
#include "emb_fixtures_impl.h"
#include "emb_subspace.h"
#include "emb_impl.h"

/* States drawn per model in a row. */
#define NSTATES 20

/* A random symmetric d×d matrix. */
static inline void random_sym(rptr S, size_t d, cl_rng *g)
{
    for (size_t i = 0; i < d; i++)
        for (size_t j = i; j < d; j++) {
            r_set_d(S + i * d + j, cl_rng_normal(g));
            r_set(S + j * d + i, S + i * d + j);
        }
}

/* Random unit x and tangent v in R^d. */
static inline void emb_random_state(rptr x, rptr v, size_t d, double scale, cl_rng *g)
{
    cl_prec_t p = r_prec(x);
    R_DECL(n, p);
    for (size_t i = 0; i < d; i++) r_set_d(x + i, cl_rng_normal(g));
    emb_dot(n, x, x, d);
    r_sqrt(n, n);
    for (size_t i = 0; i < d; i++) r_div(x + i, x + i, n);
    for (size_t i = 0; i < d; i++) r_set_d(v + i, scale * cl_rng_normal(g));
    emb_dot(n, x, v, d);
    for (size_t i = 0; i < d; i++) r_submul(v + i, n, x + i);
}

/* The pendulum m = 1.3, ℓ = 0.7, g = 9.81 on S^{d−1}, its model and a workspace. */
static inline int open_pendulum(emb_fixture *f, size_t d, cl_prec_t prec)
{
    R_DECL(m, prec); R_DECL(l, prec); R_DECL(g, prec);
    CL_FN(cl_real_from_str)(m, "1.3");
    CL_FN(cl_real_from_str)(l, "0.7");
    CL_FN(cl_real_from_str)(g, "9.81");
    *f = (emb_fixture){0};
    int st = CL_FN(cl_emb_pendulum_new)(&f->pend, d, m, l, g);
    if (!st) st = emb_fixture_model(f, prec);
    if (st) emb_fixture_close(f);
    return st;
}

/* A random linear system in R⁵ held on {Ax = 0} by 2 random constraints. */
static inline int make_subspace(CL_FN(cl_emb_subspace) **s, cl_prec_t prec, uint64_t seed, rptr Aout)
{
    enum { N = 5, M = 2 };
    cl_rng g = emb_rng(seed);
    RV_DECL(A, M * N, prec); RV_DECL(Mm, N * N, prec); RV_DECL(K, N * N, prec); RV_DECL(f, N, prec);
    RV_DECL(G, N * N, prec);
    for (int i = 0; i < M * N; i++) r_set_d(A + i, cl_rng_normal(&g));
    /* M = GGᵀ + I (positive definite), K symmetric, f random */
    for (int i = 0; i < N * N; i++) r_set_d(G + i, cl_rng_normal(&g));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            emb_dot(Mm + i * N + j, G + i * N, G + j * N, N);
            if (i == j) r_add_si(Mm + i * N + j, Mm + i * N + j, 1);
        }
    random_sym(K, N, &g);
    for (int i = 0; i < N; i++) r_set_d(f + i, cl_rng_normal(&g));
    if (Aout) CL_FN(cl_rvec_copy)(Aout, A, M * N);
    return CL_FN(cl_emb_subspace_new)(s, N, M, A, Mm, K, f);
}

#endif

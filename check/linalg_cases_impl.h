/* Shared by the tests and the oracle checks of the linear algebra: exact
 * integer matrices (products, triangular inverses, norms) to build inputs
 * whose answers are known, and their conversion to the working precision. */
#ifndef LINALG_COMMON_H
#define LINALG_COMMON_H
#include <math.h>
#include <stdlib.h>
#include "scalar.h"
#include "linalg.h"

/* M[i] = a[i] for n entries (exact for |a[i]| < 2^p). */
static inline void lin_set_int(rptr M, const long *a, size_t n)
{
    for (size_t i = 0; i < n; i++) r_set_si(M + i, a[i]);
}

/* C = A B for integer A (m×k) and B (k×n), exact for the small entries used. */
static inline void lin_imul(long *C, const long *A, const long *B, int m, int k, int n)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            long s = 0;
            for (int l = 0; l < k; l++) s += A[i * k + l] * B[l * n + j];
            C[i * n + j] = s;
        }
}

/* Inverse of a unit lower (lower = 1) or unit-diagonal-±1 upper integer
   triangular matrix, exactly, by substitution on the identity. */
static inline void lin_itri_inv(long *X, const long *T, int n, int lower)
{
    for (int c = 0; c < n; c++) {
        for (int ii = 0; ii < n; ii++) {
            int i = lower ? ii : n - 1 - ii;
            long s = (i == c);
            if (lower)
                for (int k = 0; k < i; k++) s -= T[i * n + k] * X[k * n + c];
            else
                for (int k = i + 1; k < n; k++) s -= T[i * n + k] * X[k * n + c];
            X[i * n + c] = s / T[i * n + i]; /* diagonal is ±1 */
        }
    }
}

/* ‖A‖∞ of an integer m×n matrix. */
static inline double lin_inorm_inf(const long *A, int m, int n)
{
    double best = 0;
    for (int i = 0; i < m; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += labs(A[i * n + j]);
        if (s > best) best = s;
    }
    return best;
}
/* A (5×7) = B C with B 5×3 and C 3×7 integer of full rank 3: rank 3, null
   space of dimension 4. */
static inline void lin_rank3_5x7(long A[35])
{
    static const long B[15] = {1, 2, 0, -1, 1, 3, 2, 0, 1, 0, 1, -2, 3, 1, 1};
    static const long C[21] = {1, 0, 2, -1, 0, 1, 3,
                               0, 1, 1, 3, -2, 0, 1,
                               2, -1, 0, 1, 1, 1, -1};
    lin_imul(A, B, C, 5, 3, 7);
}

/* A (7×7) = S D Sᵀ with D = diag(3, −2, 0, 1, −5, 0, 2) and S = I + 0.3·(normal
   draws, seed 11), so σ_min(S) stays of order 1: inertia (3, 2, 2) by
   Sylvester's law, the nonzero eigenvalues far above the zero tolerance. */
static inline void lin_sylvester_7(rptr A)
{
    enum { n = 7 };
    static const long dg[n] = {3, -2, 0, 1, -5, 0, 2};
    cl_prec_t p = r_prec(A);
    cl_rng g;
    cl_rng_seed(&g, 11);
    RV_DECL(S, n * n, p); RV_DECL(SD, n * n, p); RV_DECL(St, n * n, p);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) r_set_d(S + i * n + j, (i == j) + 0.3 * cl_rng_normal(&g));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) r_mul_si(SD + i * n + j, S + i * n + j, dg[j]);
    CL_FN(cl_mat_transpose)(St, S, n, n);
    CL_FN(cl_mat_mul)(A, SD, St, n, n, n);
}

/* B (3×3) of rank 2 (row 3 = row 1 + row 2). */
static const long lin_rank2_3x3[9] = {1, 2, 3, 2, -1, 1, 3, 1, 4};

/* A (6×6) = [[0, B], [Bᵀ, 0]] for B 3×3: eigenvalues ±σ_i(B), zero diagonal
   throughout, so every pivot of a symmetric factorization is 2×2. */
static inline void lin_zero_b_bt(rptr A, const long B[9])
{
    for (int i = 0; i < 36; i++) r_set_zero(A + i);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r_set_si(A + i * 6 + 3 + j, B[i * 3 + j]);
            r_set_si(A + (3 + j) * 6 + i, B[i * 3 + j]);
        }
}
#endif

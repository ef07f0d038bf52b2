/* Shared by the tests and the oracle checks of the linear algebra: exact
 * integer matrices (products, triangular inverses, norms) to build inputs
 * whose answers are known, and their conversion to the working precision. */
#ifndef LINALG_COMMON_H
#define LINALG_COMMON_H
#include <math.h>
#include <stdlib.h>
#include "scalar.h"

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
#endif

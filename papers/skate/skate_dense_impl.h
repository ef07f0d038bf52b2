/**
 * \file skate_dense.h
 * \brief Internal: a small dense solve for the skate chapters (n ≤ 12), on
 *        the stack, for templated sources.
 */
#ifndef CL_SKATE_DENSE_H
#define CL_SKATE_DENSE_H
#include "scalar.h"

/**
 * Solve A X = B in place by Gaussian elimination with partial pivoting:
 * A is n×n row-major (destroyed), B is n×nrhs row-major (overwritten by X).
 * Returns 0 or CL_ESINGULAR when a pivot is exactly zero.
 */
static inline int skate_dense_solve(rptr A, rptr B, int n, int nrhs)
{
    R_DECL(f, r_prec(A));
    R_DECL(t, r_prec(A));
    for (int k = 0; k < n; k++) {
        int piv = k;
        for (int i = k + 1; i < n; i++)
            if (r_cmpabs(A + i * n + k, A + piv * n + k) > 0) piv = i;
        if (r_is_zero(A + piv * n + k)) return CL_ESINGULAR;
        if (piv != k) {
            for (int j = 0; j < n; j++) r_swap(A + k * n + j, A + piv * n + j);
            for (int j = 0; j < nrhs; j++) r_swap(B + k * nrhs + j, B + piv * nrhs + j);
        }
        for (int i = k + 1; i < n; i++) {
            r_div(f, A + i * n + k, A + k * n + k);
            for (int j = k; j < n; j++) r_submul(A + i * n + j, f, A + k * n + j);
            for (int j = 0; j < nrhs; j++) r_submul(B + i * nrhs + j, f, B + k * nrhs + j);
        }
    }
    for (int i = n - 1; i >= 0; i--)
        for (int j = 0; j < nrhs; j++) {
            r_set(t, B + i * nrhs + j);
            for (int q = i + 1; q < n; q++) r_submul(t, A + i * n + q, B + q * nrhs + j);
            r_div(B + i * nrhs + j, t, A + i * n + i);
        }
    return CL_OK;
}
#endif

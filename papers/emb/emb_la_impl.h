/**
 * \file emb_la.h
 * \brief Small dense linear algebra used inside the EMB chapters (internal,
 *        templated, inline): matrix–vector products, Gaussian elimination
 *        with partial pivoting, and a null-space basis by reduced row echelon
 *        form. Matrices are row-major; every routine works in the precision
 *        of its arguments.
 */
#ifndef CL_EMB_LA_H
#define CL_EMB_LA_H
#include "scalar.h"

/** y = A x, A r×c (y must not alias x). */
static inline void emb_mat_vec(rptr y, rsrc A, rsrc x, size_t r, size_t c)
{
    for (size_t i = 0; i < r; i++) {
        r_set_zero(y + i);
        for (size_t j = 0; j < c; j++) r_addmul(y + i, A + i * c + j, x + j);
    }
}

/** y = Aᵀ x, A r×c (y must not alias x). */
static inline void emb_matT_vec(rptr y, rsrc A, rsrc x, size_t r, size_t c)
{
    for (size_t j = 0; j < c; j++) {
        r_set_zero(y + j);
        for (size_t i = 0; i < r; i++) r_addmul(y + j, A + i * c + j, x + i);
    }
}

/** d = a · b over n entries. */
static inline void emb_dot(rptr d, rsrc a, rsrc b, size_t n)
{
    r_set_zero(d);
    for (size_t i = 0; i < n; i++) r_addmul(d, a + i, b + i);
}

/** Largest |a[i]| as log2, scaled: log2(max|a|) (−inf when zero). */
static inline double emb_log2_maxabs(rsrc a, size_t n)
{
    double w = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double l = r_log2abs(a + i);
        if (isnan(l)) return INFINITY;
        if (l > w) w = l;
    }
    return w;
}

/**
 * Solve A X = B in place by Gaussian elimination with partial pivoting:
 * A is n×n (destroyed), B is n×k (overwritten by X). A pivot whose magnitude
 * is below n·2^(1−p) times the largest entry of A makes the matrix singular
 * to working precision: returns CL_ESINGULAR, else 0.
 */
static inline int emb_solve(rptr A, rptr B, size_t n, size_t k)
{
    if (n == 0) return CL_OK;
    cl_prec_t p = r_prec(A);
    R_DECL(t, p); R_DECL(piv, p); R_DECL(amax, p); R_DECL(thr, p);
    r_set_zero(amax);
    for (size_t i = 0; i < n * n; i++)
        if (r_cmpabs(A + i, amax) > 0) r_abs(amax, A + i);
    if (r_is_zero(amax)) return CL_ESINGULAR;
    r_set_eps(thr);
    r_mul_si(thr, thr, (long)n);
    r_mul(thr, thr, amax);
    for (size_t c = 0; c < n; c++) {
        size_t best = c;
        for (size_t i = c + 1; i < n; i++)
            if (r_cmpabs(A + i * n + c, A + best * n + c) > 0) best = i;
        if (r_cmpabs(A + best * n + c, thr) <= 0) return CL_ESINGULAR;
        if (best != c) {
            for (size_t j = 0; j < n; j++) r_swap(A + c * n + j, A + best * n + j);
            for (size_t j = 0; j < k; j++) r_swap(B + c * k + j, B + best * k + j);
        }
        r_set(piv, A + c * n + c);
        for (size_t i = c + 1; i < n; i++) {
            r_div(t, A + i * n + c, piv);
            if (r_is_zero(t)) continue;
            for (size_t j = c; j < n; j++) r_submul(A + i * n + j, t, A + c * n + j);
            for (size_t j = 0; j < k; j++) r_submul(B + i * k + j, t, B + c * k + j);
        }
    }
    for (size_t c = n; c-- > 0;) {
        for (size_t j = 0; j < k; j++) {
            for (size_t i = c + 1; i < n; i++) r_submul(B + c * k + j, A + c * n + i, B + i * k + j);
            r_div(B + c * k + j, B + c * k + j, A + c * n + c);
        }
    }
    return CL_OK;
}

/**
 * Smallest pivot of Gaussian elimination with partial pivoting on the n×n
 * matrix A (destroyed), relative to the largest entry of A, as log2. A
 * singular matrix gives a value at rounding level, −inf when exactly zero.
 */
static inline double emb_log2_min_pivot(rptr A, size_t n)
{
    cl_prec_t p = r_prec(A);
    R_DECL(t, p); R_DECL(amax, p);
    for (size_t i = 0; i < n * n; i++)
        if (r_cmpabs(A + i, amax) > 0) r_abs(amax, A + i);
    if (r_is_zero(amax)) return -INFINITY;
    double worst = INFINITY;
    for (size_t c = 0; c < n; c++) {
        size_t best = c;
        for (size_t i = c + 1; i < n; i++)
            if (r_cmpabs(A + i * n + c, A + best * n + c) > 0) best = i;
        if (best != c)
            for (size_t j = 0; j < n; j++) r_swap(A + c * n + j, A + best * n + j);
        double l = r_log2abs(A + c * n + c) - r_log2abs(amax);
        if (l < worst) worst = l;
        if (r_is_zero(A + c * n + c)) continue;
        for (size_t i = c + 1; i < n; i++) {
            r_div(t, A + i * n + c, A + c * n + c);
            for (size_t j = c; j < n; j++) r_submul(A + i * n + j, t, A + c * n + j);
        }
    }
    return worst;
}

/**
 * Null-space basis of the m×n matrix A of rank m by Gauss–Jordan elimination
 * (A is destroyed and left in reduced row echelon form). N is n×(n−m): its
 * column for the j-th free variable has 1 in that variable's row, 0 in the
 * other free rows and minus the reduced pivot-row entries in the pivot rows;
 * free[j] is the index of that variable. Returns CL_ESINGULAR when the rank
 * is below m to working precision.
 */
static inline int emb_null_basis(rptr A, size_t m, size_t n, rptr N, size_t *free_idx)
{
    cl_prec_t p = r_prec(A);
    R_DECL(t, p); R_DECL(piv, p); R_DECL(amax, p); R_DECL(thr, p);
    size_t pivcol[64];
    if (m > 64 || m > n) return CL_EDIM;
    for (size_t i = 0; i < m * n; i++)
        if (r_cmpabs(A + i, amax) > 0) r_abs(amax, A + i);
    if (r_is_zero(amax)) return CL_ESINGULAR;
    r_set_eps(thr);
    r_mul_si(thr, thr, (long)n);
    r_mul(thr, thr, amax);
    size_t row = 0;
    for (size_t c = 0; c < n && row < m; c++) {
        size_t best = row;
        for (size_t i = row + 1; i < m; i++)
            if (r_cmpabs(A + i * n + c, A + best * n + c) > 0) best = i;
        if (r_cmpabs(A + best * n + c, thr) <= 0) continue;
        if (best != row)
            for (size_t j = 0; j < n; j++) r_swap(A + row * n + j, A + best * n + j);
        r_set(piv, A + row * n + c);
        for (size_t j = 0; j < n; j++) r_div(A + row * n + j, A + row * n + j, piv);
        for (size_t i = 0; i < m; i++) {
            if (i == row) continue;
            r_set(t, A + i * n + c);
            if (r_is_zero(t)) continue;
            for (size_t j = 0; j < n; j++) r_submul(A + i * n + j, t, A + row * n + j);
        }
        pivcol[row++] = c;
    }
    if (row < m) return CL_ESINGULAR;
    size_t k = n - m, f = 0, r = 0;
    for (size_t c = 0; c < n; c++) {
        if (r < m && pivcol[r] == c) { r++; continue; }
        free_idx[f++] = c;
    }
    for (size_t i = 0; i < n * k; i++) r_set_zero(N + i);
    for (size_t j = 0; j < k; j++) {
        r_set_si(N + free_idx[j] * k + j, 1);
        for (size_t i = 0; i < m; i++) r_neg(N + pivcol[i] * k + j, A + i * n + free_idx[j]);
    }
    return CL_OK;
}
#endif

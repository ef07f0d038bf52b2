/* Small dense linear algebra in every scalar kind: products, Householder
   reflections, LU, QR, null spaces; semantics in linalg_decl.h. The inertia
   is in linalg_inertia.c, the eigenvalues in linalg_francis.c (double,
   MPFR) and linalg_eig_arb.c (balls). */
#include <stdlib.h>
#include "linalg_impl.h"

/* ------------------------------------------------------------ basic products */

void CL_FN(cl_mat_mul)(rptr C, rsrc A, rsrc B, int m, int k, int n)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            rptr c = AT(C, n, i, j);
            r_set_zero(c);
            for (int l = 0; l < k; l++) r_addmul(c, AT(A, k, i, l), AT(B, n, l, j));
        }
}

void CL_FN(cl_mat_vec)(rptr y, rsrc A, rsrc x, int m, int n)
{
    for (int i = 0; i < m; i++) {
        r_set_zero(y + i);
        for (int j = 0; j < n; j++) r_addmul(y + i, AT(A, n, i, j), x + j);
    }
}

void CL_FN(cl_mat_transpose)(rptr B, rsrc A, int m, int n)
{
    if ((rsrc)B == A) { /* square, in place */
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) r_swap(AT(B, n, i, j), AT(B, n, j, i));
        return;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) r_set(AT(B, m, j, i), AT(A, n, i, j));
}

void CL_FN(cl_mat_identity)(rptr A, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) r_set_si(AT(A, n, i, j), i == j);
}

/* -------------------------------------------------------------- Householder */

/* The reflection of x onto alpha e1 (linalg_impl.h). */
void CL_FN(cl_house)(rptr alpha, rptr beta, rptr x, size_t ld, int len, rptr t)
{
    double top = -INFINITY;
    int zero = 1;
    for (int i = 0; i < len; i++) {
        double l = r_log2abs(x + (size_t)i * ld);
        if (l > top) top = l;
        zero = zero && r_is_zero(x + (size_t)i * ld);
    }
    if (zero) { /* only an exact zero is skipped: a ball around 0 is reflected */
        r_set_zero(alpha);
        r_set_zero(beta);
        return;
    }
    long e = top == -INFINITY ? 0 : (long)floor(top);
    r_set_zero(beta); /* beta holds the scaled sum of squares for now */
    for (int i = 0; i < len; i++) {
        r_mul_2si(t, x + (size_t)i * ld, -e);
        r_addmul(beta, t, t);
    }
    r_sqrt(t, beta);
    r_mul_2si(t, t, e);            /* t = ‖x‖ */
    if (r_sgn(x) < 0) r_set(alpha, t);
    else r_neg(alpha, t);          /* alpha = −sign(x0)‖x‖ */
    r_sub(x, x, alpha);            /* v0 = x0 − alpha, no cancellation */
    r_mul(t, alpha, x);
    r_si_div(beta, -1, t);         /* beta = −1/(alpha v0) = 2/vᵀv */
}

/* y ← (I − beta v vᵀ) y (linalg_impl.h). */
void CL_FN(cl_house_apply)(rsrc beta, rsrc v, size_t ldv, rptr y, size_t ldy, int len, rptr s)
{
    r_set_zero(s);
    for (int i = 0; i < len; i++) r_addmul(s, v + (size_t)i * ldv, y + (size_t)i * ldy);
    r_mul(s, s, beta);
    for (int i = 0; i < len; i++) r_submul(y + (size_t)i * ldy, s, v + (size_t)i * ldv);
}

/* ------------------------------------------------------------------------ LU */

int CL_FN(cl_lu_factor)(rptr A, int *perm, int n)
{
    if (n < 1) return CL_EDIM;
    size_t nn = (size_t)n * (size_t)n;
    if (!finite_all(A, nn)) return CL_ENAN;
    cl_prec_t p = r_prec(A);
    R_DECL(tau, p); R_DECL(t, p);
    size_t big = 0;
    for (size_t i = 1; i < nn; i++)
        if (r_cmpabs(A + i, A + big) > 0) big = i;
    r_abs(tau, A + big);
    r_set_eps(t);
    r_mul(tau, tau, t);
    r_mul_si(tau, tau, n);         /* τ = n·2^(1−p)·max|A| */
    for (int k = 0; k < n; k++) {
        int piv = k;
        for (int i = k + 1; i < n; i++)
            if (r_cmpabs(AT(A, n, i, k), AT(A, n, piv, k)) > 0) piv = i;
        perm[k] = piv;
        if (r_cmpabs(AT(A, n, piv, k), tau) <= 0) return CL_ESINGULAR;
        if (piv != k)
            for (int j = 0; j < n; j++) r_swap(AT(A, n, k, j), AT(A, n, piv, j));
        rsrc d = AT(A, n, k, k);
        for (int i = k + 1; i < n; i++) {
            rptr l = AT(A, n, i, k);
            r_div(l, l, d);
            for (int j = k + 1; j < n; j++) r_submul(AT(A, n, i, j), l, AT(A, n, k, j));
        }
    }
    return CL_OK;
}

int CL_FN(cl_lu_solve)(rsrc LU, const int *perm, rptr b, int n, int nrhs)
{
    if (n < 1 || nrhs < 1) return CL_EDIM;
    for (int k = 0; k < n; k++)
        if (perm[k] < k || perm[k] >= n) return CL_EDIM;
    if (!finite_all(b, (size_t)n * (size_t)nrhs)) return CL_ENAN;
    for (int k = 0; k < n; k++)
        if (perm[k] != k)
            for (int c = 0; c < nrhs; c++) r_swap(AT(b, nrhs, k, c), AT(b, nrhs, perm[k], c));
    for (int i = 1; i < n; i++)
        for (int k = 0; k < i; k++)
            for (int c = 0; c < nrhs; c++) r_submul(AT(b, nrhs, i, c), AT(LU, n, i, k), AT(b, nrhs, k, c));
    for (int i = n - 1; i >= 0; i--) {
        for (int k = i + 1; k < n; k++)
            for (int c = 0; c < nrhs; c++) r_submul(AT(b, nrhs, i, c), AT(LU, n, i, k), AT(b, nrhs, k, c));
        for (int c = 0; c < nrhs; c++) r_div(AT(b, nrhs, i, c), AT(b, nrhs, i, c), AT(LU, n, i, i));
    }
    return CL_OK;
}

int CL_FN(cl_lu_det)(rptr det, rsrc LU, const int *perm, int n)
{
    if (n < 1) return CL_EDIM;
    int odd = 0;
    r_set(det, LU);
    for (int k = 1; k < n; k++) r_mul(det, det, AT(LU, n, k, k));
    for (int k = 0; k < n; k++) odd ^= (perm[k] != k);
    if (odd) r_neg(det, det);
    return CL_OK;
}

/* Factor the copy W of A and solve into x (shared by the stack and heap paths). */
static int linsolve_with(rptr x, rptr W, int *perm, rsrc A, rsrc b, int n)
{
    size_t nn = (size_t)n * (size_t)n;
    if (!finite_all(b, (size_t)n)) return CL_ENAN;
    for (size_t i = 0; i < nn; i++) r_set(W + i, A + i);
    int st = CL_FN(cl_lu_factor)(W, perm, n);
    if (st) return st;
    if (x != b)
        for (int i = 0; i < n; i++) r_set(x + i, b + i);
    return CL_FN(cl_lu_solve)(W, perm, x, n, 1);
}

int CL_FN(cl_tridiag_spd_solve)(rptr x, rptr c, rsrc d, rsrc e, rsrc b, size_t n)
{
    R_DECL(den, r_prec(x));
    for (size_t i = 0; i < n; i++) {        /* forward sweep */
        r_set(den, d + i);
        r_set(x + i, b + i);
        if (i > 0) {
            r_submul(den, e + i - 1, c + i - 1);
            r_submul(x + i, e + i - 1, x + i - 1);
        }
        if (r_sgn(den) <= 0 || !r_is_number(den)) return CL_ESINGULAR;
        if (i + 1 < n) r_div(c + i, e + i, den);
        r_div(x + i, x + i, den);
    }
    for (size_t i = n - 1; i-- > 0;) r_submul(x + i, c + i, x + i + 1);   /* back substitution */
    return CL_OK;
}

int CL_FN(cl_linsolve)(rptr x, rsrc A, rsrc b, int n)
{
    if (n < 1) return CL_EDIM;
    cl_prec_t p = r_prec(x);
    if (n <= 16 && p <= 4096) { /* the copy fits on the stack (≤ 256 scalars of ≤ 4096 bits) */
        int perm[16];
        RV_DECL(W, n * n, p);
        return linsolve_with(x, W, perm, A, b, n);
    }
    rptr W = CL_FN(cl_rvec_new)((size_t)n * (size_t)n, p);
    int *perm = malloc(sizeof(int) * (size_t)n);
    int st = (W && perm) ? linsolve_with(x, W, perm, A, b, n) : CL_ENOMEM;
    free(perm);
    CL_FN(cl_rvec_free)(W);
    return st;
}

/* ------------------------------------------------------------------------ QR */

int CL_FN(cl_qr)(rptr Q, rptr R, rsrc A, int m, int n)
{
    if (m < 1 || n < 1) return CL_EDIM;
    size_t mn = (size_t)m * (size_t)n;
    if (!finite_all(A, mn)) return CL_ENAN;
    if ((rsrc)R != A)
        for (size_t i = 0; i < mn; i++) r_set(R + i, A + i);
    CL_FN(cl_mat_identity)(Q, m);
    cl_prec_t p = r_prec(R);
    R_DECL(alpha, p); R_DECL(beta, p); R_DECL(s, p);
    int kmax = m - 1 < n ? m - 1 : n;
    for (int k = 0; k < kmax; k++) {
        rptr v = AT(R, n, k, k);
        CL_FN(cl_house)(alpha, beta, v, (size_t)n, m - k, s);
        if (!r_is_zero(beta)) {
            for (int j = k + 1; j < n; j++)
                CL_FN(cl_house_apply)(beta, v, (size_t)n, AT(R, n, k, j), (size_t)n, m - k, s);
            for (int i = 0; i < m; i++) /* Q ← Q H_k, row i of Q against v */
                CL_FN(cl_house_apply)(beta, v, (size_t)n, AT(Q, m, i, k), 1, m - k, s);
        }
        r_set(v, alpha);
        for (int i = k + 1; i < m; i++) r_set_zero(AT(R, n, i, k));
    }
    return CL_OK;
}

/* ---------------------------------------------------------------- null space */

int CL_FN(cl_nullspace)(rptr N, int *k, rsrc A, int m, int n, double rank_tol_factor)
{
    if (m < 0 || n < 1) return CL_EDIM;
    if (m > 0 && !finite_all(A, (size_t)m * (size_t)n)) return CL_ENAN;
    double f = rank_tol_factor > 0 ? rank_tol_factor : 16.0;
    cl_prec_t p = r_prec(N);
    size_t nm = (size_t)n * (size_t)m, nn = (size_t)n * (size_t)n;
    rptr work = CL_FN(cl_rvec_new)(nm + nn, p);
    if (!work) return CL_ENOMEM;
    rptr W = work, Q = work + nm; /* W = Aᵀ (n×m), Q (n×n) */
    CL_FN(cl_mat_transpose)(W, A, m, n);
    CL_FN(cl_mat_identity)(Q, n);
    R_DECL(alpha, p); R_DECL(beta, p); R_DECL(s, p); R_DECL(t, p);
    R_DECL(best, p); R_DECL(tau, p);
    int rank = 0, steps = m < n ? m : n;
    for (int j = 0; j < steps; j++) {
        /* Pivot: the column of the trailing block with the largest norm. */
        int jb = j;
        for (int c = j; c < m; c++) {
            r_set_zero(s);
            for (int i = j; i < n; i++) r_addmul(s, AT(W, m, i, c), AT(W, m, i, c));
            if (c == j || r_cmp(s, best) > 0) { r_set(best, s); jb = c; }
        }
        r_sqrt(best, best);
        if (j == 0) { /* τ = f·max(m, n)·2^(1−p)·c₀ */
            r_set_eps(tau);
            r_mul(tau, tau, best);
            r_mul_d(tau, tau, f);
            r_mul_si(tau, tau, m > n ? m : n);
        }
        if (r_cmp(best, tau) <= 0) break;
        if (jb != j)
            for (int i = 0; i < n; i++) r_swap(AT(W, m, i, j), AT(W, m, i, jb));
        rptr v = AT(W, m, j, j);
        CL_FN(cl_house)(alpha, beta, v, (size_t)m, n - j, t);
        if (!r_is_zero(beta)) {
            for (int c = j + 1; c < m; c++)
                CL_FN(cl_house_apply)(beta, v, (size_t)m, AT(W, m, j, c), (size_t)m, n - j, s);
            for (int i = 0; i < n; i++)
                CL_FN(cl_house_apply)(beta, v, (size_t)m, AT(Q, n, i, j), 1, n - j, s);
        }
        r_set(v, alpha);
        rank = j + 1;
    }
    int dim = n - rank;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < dim; c++) r_set(AT(N, dim, i, c), AT(Q, n, i, rank + c));
    *k = dim;
    CL_FN(cl_rvec_free)(work);
    return CL_OK;
}

/* --------------------------------------------------------------- eigenvalues */

void CL_FN(cl_sym2_eig)(rptr eig, rsrc H)
{
    cl_prec_t p = r_prec(eig);
    R_DECL(m, p); R_DECL(d, p); R_DECL(e, p);
    r_add(m, H, H + 3);
    r_mul_2si(m, m, -1);
    r_sub(d, H, H + 3);
    r_mul_2si(d, d, -1);
    r_sqr(d, d);
    r_add(e, H + 1, H + 2);
    r_mul_2si(e, e, -1);
    r_addmul(d, e, e);
    r_sqrt(d, d);
    r_sub(eig, m, d);
    r_add(eig + 1, m, d);
}

/* Order by real part, then imaginary part (insertion sort, n is small); linalg_impl.h. */
void CL_FN(cl_eig_sort)(rptr wr, rptr wi, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int c = r_cmp(wr + j - 1, wr + j);
            if (c < 0 || (c == 0 && r_cmp(wi + j - 1, wi + j) <= 0)) break;
            r_swap(wr + j - 1, wr + j);
            r_swap(wi + j - 1, wi + j);
        }
}

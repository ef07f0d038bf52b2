/* Small dense linear algebra in every scalar kind; semantics in linalg_decl.h. */
#include <stdlib.h>
#include <acb_mat.h>
#include "linalg.h"

/* Entry (i, j) of a row-major matrix with row length ld. */
#define AT(M, ld, i, j) ((M) + (size_t)(i) * (size_t)(ld) + (size_t)(j))

static int finite_all(rsrc a, size_t n) { return CL_FN(cl_rvec_is_finite)(a, n); }

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

/*
 * Overwrite x (len entries, stride ld) by a Householder vector v such that
 * (I − beta v vᵀ) x_old = alpha e1, alpha = −sign(x0)‖x‖. beta = 0 when
 * x = 0. The norm is summed after scaling by an exact power of 2, so double
 * neither overflows nor underflows. t is a scratch scalar.
 */
static void house(rptr alpha, rptr beta, rptr x, size_t ld, int len, rptr t)
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

/* y ← (I − beta v vᵀ) y for len entries; v with stride ldv, y with stride ldy. */
static void house_apply(rsrc beta, rsrc v, size_t ldv, rptr y, size_t ldy, int len, rptr s)
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
        house(alpha, beta, v, (size_t)n, m - k, s);
        if (!r_is_zero(beta)) {
            for (int j = k + 1; j < n; j++)
                house_apply(beta, v, (size_t)n, AT(R, n, k, j), (size_t)n, m - k, s);
            for (int i = 0; i < m; i++) /* Q ← Q H_k, row i of Q against v */
                house_apply(beta, v, (size_t)n, AT(Q, m, i, k), 1, m - k, s);
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
        house(alpha, beta, v, (size_t)m, n - j, t);
        if (!r_is_zero(beta)) {
            for (int c = j + 1; c < m; c++)
                house_apply(beta, v, (size_t)m, AT(W, m, j, c), (size_t)m, n - j, s);
            for (int i = 0; i < n; i++)
                house_apply(beta, v, (size_t)m, AT(Q, n, i, j), 1, n - j, s);
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

/* ------------------------------------------------------------------- inertia */

/* Lower-triangle entry (i ≥ j) of the symmetric work matrix. */
#define LO(i, j) AT(L, n, (i), (j))

/* Exchange indices a < b of the symmetric matrix stored in the lower triangle,
   within the trailing block [k, n). */
static void sym_swap(rptr L, int n, int k, int a, int b)
{
    r_swap(LO(a, a), LO(b, b));
    for (int j = k; j < a; j++) r_swap(LO(a, j), LO(b, j));
    for (int j = a + 1; j < b; j++) r_swap(LO(j, a), LO(b, j));
    for (int i = b + 1; i < n; i++) r_swap(LO(i, a), LO(i, b));
}

/* Add the sign of λ (zero when |λ| ≤ τ) to the counts. On balls a proven
   sign is counted as that sign even below τ (a nonzero number is not zero),
   a ball of unproven sign as zero when |λ| ≤ τ is proven, and otherwise the
   result is CL_EUNDECIDED. */
static int count_sign(int *np, int *nn, int *nz, rsrc lambda, rsrc tau, rptr t)
{
    int s = r_sgn3(lambda);
#if CL_PREC == CL_ARB
    if (s == 1) { ++*np; return CL_OK; }
    if (s == -1) { ++*nn; return CL_OK; }
#endif
    r_abs(t, lambda);
    int c = r_cmp3(t, tau);
    if (c == -1 || c == 0) { ++*nz; return CL_OK; }
    if (s == 1) ++*np;
    else if (s == -1) ++*nn;
    else return CL_EUNDECIDED;
    return CL_OK;
}

int CL_FN(cl_sym_inertia)(int *npos, int *nneg, int *nzero, rsrc A, int n, double zero_tol_factor)
{
    if (n < 1) return CL_EDIM;
    for (int i = 0; i < n; i++)
        if (!finite_all(AT(A, n, i, 0), (size_t)i + 1)) return CL_ENAN;
    double f = zero_tol_factor > 0 ? zero_tol_factor : 16.0;
    cl_prec_t p = r_prec(A);
    rptr L = CL_FN(cl_rvec_new)((size_t)n * (size_t)n, p);
    if (!L) return CL_ENOMEM;
    R_DECL(tau, p); R_DECL(alpha, p); R_DECL(colmax, p); R_DECL(rowmax, p);
    R_DECL(t, p); R_DECL(u, p); R_DECL(det, p); R_DECL(w1, p); R_DECL(w2, p);
    R_DECL(l1, p); R_DECL(l2, p);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            r_set(LO(i, j), AT(A, n, i, j));
            if (r_cmpabs(LO(i, j), tau) > 0) r_abs(tau, LO(i, j));
        }
    r_set_eps(t);
    r_mul(tau, tau, t);
    r_mul_d(tau, tau, f);
    r_mul_si(tau, tau, n);         /* τ = f·n·2^(1−p)·max|A| */
    r_set_si(alpha, 17);
    r_sqrt(alpha, alpha);
    r_add_si(alpha, alpha, 1);
    r_div_si(alpha, alpha, 8);     /* Bunch–Kaufman α = (1 + √17)/8 */
    int np = 0, nn = 0, nz = 0, st = CL_OK;
    int k = 0;
    while (k < n) {
        int imax = k;
        r_set_zero(colmax);
        for (int i = k + 1; i < n; i++)
            if (r_cmpabs(LO(i, k), colmax) > 0) { r_abs(colmax, LO(i, k)); imax = i; }
        int colzero = 1; /* the whole remaining column within τ, proven */
        for (int i = k; i < n && colzero; i++) {
            r_abs(t, LO(i, k));
            int c = r_cmp3(t, tau);
            colzero = c == -1 || c == 0;
        }
#if CL_PREC == CL_ARB
        int sk = r_sgn3(LO(k, k));
        if (sk == 1 || sk == -1) colzero = 0; /* a proven pivot is not zero: eliminate with it */
#endif
        if (colzero) {
            nz++; /* the whole remaining column is zero to working precision */
            k++;
            continue;
        }
        int kp = k, kstep = 1;
        r_mul(t, alpha, colmax);
        if (r_cmpabs(LO(k, k), t) < 0) {
            r_set_zero(rowmax); /* largest off-diagonal |entry| of row imax */
            for (int j = k; j < imax; j++)
                if (r_cmpabs(LO(imax, j), rowmax) > 0) r_abs(rowmax, LO(imax, j));
            for (int i = imax + 1; i < n; i++)
                if (r_cmpabs(LO(i, imax), rowmax) > 0) r_abs(rowmax, LO(i, imax));
            r_abs(u, LO(k, k));
            r_mul(u, u, rowmax);
            r_mul(t, t, colmax);   /* α·colmax² */
            if (r_cmp(u, t) >= 0) kp = k;
            else {
                r_mul(t, alpha, rowmax);
                kp = imax;
                if (r_cmpabs(LO(imax, imax), t) < 0) kstep = 2;
            }
        }
        int kk = k + kstep - 1;
        if (kp != kk) sym_swap(L, n, k, kk, kp);
        if (kstep == 1) {
            rsrc d = LO(k, k);
            if ((st = count_sign(&np, &nn, &nz, d, tau, u))) break;
            for (int i = k + 1; i < n; i++) {
                r_div(t, LO(i, k), d);
                for (int j = k + 1; j <= i; j++) r_submul(LO(i, j), t, LO(j, k));
            }
        } else {
            rsrc a = LO(k, k), b = LO(k + 1, k), c = LO(k + 1, k + 1);
            r_mul(det, a, c);
            r_submul(det, b, b);   /* det = ac − b² < 0 for a Bunch–Kaufman block */
            /* Eigenvalues of [a b; b c]: mean ± √(((a−c)/2)² + b²), the smaller
               one from det/(the larger) to avoid cancellation. */
            r_sub(t, a, c);
            r_mul_2si(t, t, -1);
            r_hypot(u, t, b);
            r_add(t, a, c);
            r_mul_2si(t, t, -1);
            if (r_sgn(t) >= 0) r_add(l1, t, u);
            else r_sub(l1, t, u);
            if (r_is_zero(l1)) r_set_zero(l2);
            else r_div(l2, det, l1);
            if ((st = count_sign(&np, &nn, &nz, l1, tau, u)) || (st = count_sign(&np, &nn, &nz, l2, tau, u))) break;
            for (int i = k + 2; i < n; i++) {
                /* (w1, w2) = D⁻¹ (l_ik, l_i,k+1) */
                r_mul(w1, c, LO(i, k));
                r_submul(w1, b, LO(i, k + 1));
                r_div(w1, w1, det);
                r_mul(w2, a, LO(i, k + 1));
                r_submul(w2, b, LO(i, k));
                r_div(w2, w2, det);
                for (int j = k + 2; j <= i; j++) {
                    r_submul(LO(i, j), w1, LO(j, k));
                    r_submul(LO(i, j), w2, LO(j, k + 1));
                }
            }
        }
        k += kstep;
    }
    *npos = np;
    *nneg = nn;
    *nzero = st ? n - np - nn : nz; /* undecided: the signs not proven */
    CL_FN(cl_rvec_free)(L);
    return st;
}
#undef LO

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

#if CL_PREC != CL_ARB /* balls take their eigenvalues from Arb (cl_eig below) */
/* Parlett–Reinsch balancing by powers of 2 (EISPACK balanc, radix 2): exact
   similarity scaling; the decisions use row and column sums in double. */
static void balance(rptr a, int n)
{
    int done = 0;
    while (!done) {
        done = 1;
        for (int i = 0; i < n; i++) {
            double c = 0, r = 0;
            for (int j = 0; j < n; j++)
                if (j != i) {
                    c += fabs(r_get_d(AT(a, n, j, i)));
                    r += fabs(r_get_d(AT(a, n, i, j)));
                }
            if (c == 0 || r == 0 || !isfinite(c) || !isfinite(r)) continue;
            double g = r / 2, s = c + r;
            long e = 0; /* scaling f = 2^e */
            while (c < g) { e++; c *= 4; }
            g = r * 2;
            while (c > g) { e--; c /= 4; }
            if ((c + r) / ldexp(1.0, (int)e) < 0.95 * s) {
                done = 0;
                for (int j = 0; j < n; j++) r_mul_2si(AT(a, n, i, j), AT(a, n, i, j), -e);
                for (int j = 0; j < n; j++) r_mul_2si(AT(a, n, j, i), AT(a, n, j, i), e);
            }
        }
    }
}

/* Reduce a to upper Hessenberg form by Householder similarities (EISPACK orthes). */
static void hessenberg(rptr a, int n)
{
    cl_prec_t p = r_prec(a);
    R_DECL(alpha, p); R_DECL(beta, p); R_DECL(s, p);
    for (int k = 0; k + 2 < n; k++) {
        rptr v = AT(a, n, k + 1, k);
        int len = n - k - 1;
        house(alpha, beta, v, (size_t)n, len, s);
        if (!r_is_zero(beta)) {
            for (int j = k + 1; j < n; j++) /* from the left: rows k+1..n−1 */
                house_apply(beta, v, (size_t)n, AT(a, n, k + 1, j), (size_t)n, len, s);
            for (int i = 0; i < n; i++)     /* from the right: columns k+1..n−1 */
                house_apply(beta, v, (size_t)n, AT(a, n, i, k + 1), 1, len, s);
        }
        r_set(v, alpha);
        for (int i = k + 2; i < n; i++) r_set_zero(AT(a, n, i, k));
    }
}

/* Iterations on one eigenvalue before an exceptional shift. */
static int exceptional_period(cl_prec_t p)
{
    int e = 10;
    if (p > 53) e += 2 * (int)ceil(log2((double)p / 53.0));
    return e;
}

/* s = SIGN(a, b) = |a| with the sign of b (b = 0 counts as positive). */
static void sign_of(rptr s, rsrc a, rsrc b)
{
    r_abs(s, a);
    if (r_sgn(b) < 0) r_neg(s, s);
}

/* nrm = |p| + |q| + |r|, then (p, q, r) /= nrm unless it is zero; t is scratch. */
static void scale_l1(rptr nrm, rptr p, rptr q, rptr r, rptr t)
{
    r_abs(nrm, p);
    r_abs(t, q);
    r_add(nrm, nrm, t);
    r_abs(t, r);
    r_add(nrm, nrm, t);
    if (r_is_zero(nrm)) return;
    r_div(p, p, nrm);
    r_div(q, q, nrm);
    r_div(r, r, nrm);
}

/*
 * Francis double-shift QR on the upper Hessenberg a (EISPACK hqr, in the
 * form of Numerical Recipes), eigenvalues only. Deflation relative to
 * eps = 2^(1−p).
 */
static int hqr(rptr a, int n, rptr wr, rptr wi)
{
#define H(i, j) AT(a, n, (i), (j))
    cl_prec_t prec = r_prec(a);
    R_DECL(anorm, prec); R_DECL(eps, prec);
    R_DECL(p, prec); R_DECL(q, prec); R_DECL(r, prec); R_DECL(s, prec);
    R_DECL(t, prec); R_DECL(u, prec); R_DECL(v, prec); R_DECL(w, prec);
    R_DECL(x, prec); R_DECL(y, prec); R_DECL(z, prec); R_DECL(g, prec);
    int period = exceptional_period(prec);
    r_set_eps(eps);
    for (int i = 0; i < n; i++)
        for (int j = (i > 0 ? i - 1 : 0); j < n; j++) {
            r_abs(g, H(i, j));
            r_add(anorm, anorm, g);
        }
    int nn = n - 1, l = 0;
    r_set_zero(t);
    while (nn >= 0) {
        int its = 0;
        do {
            for (l = nn; l >= 1; l--) { /* look for a negligible subdiagonal */
                r_abs(s, H(l - 1, l - 1));
                r_abs(g, H(l, l));
                r_add(s, s, g);
                if (r_is_zero(s)) r_set(s, anorm);
                r_mul(g, eps, s);
                if (r_cmpabs(H(l, l - 1), g) <= 0) {
                    r_set_zero(H(l, l - 1));
                    break;
                }
            }
            r_set(x, H(nn, nn));
            if (l == nn) { /* one root */
                r_add(wr + nn, x, t);
                r_set_zero(wi + nn);
                nn--;
            } else {
                r_set(y, H(nn - 1, nn - 1));
                r_mul(w, H(nn, nn - 1), H(nn - 1, nn));
                if (l == nn - 1) { /* two roots */
                    r_sub(p, y, x);
                    r_mul_2si(p, p, -1);
                    r_sqr(q, p);
                    r_add(q, q, w);
                    r_abs(z, q);
                    r_sqrt(z, z);
                    r_add(x, x, t);
                    if (r_sgn(q) >= 0) {
                        sign_of(g, z, p);
                        r_add(z, p, g);
                        r_add(wr + nn - 1, x, z);
                        r_set(wr + nn, wr + nn - 1);
                        if (!r_is_zero(z)) {
                            r_div(g, w, z);
                            r_sub(wr + nn, x, g);
                        }
                        r_set_zero(wi + nn - 1);
                        r_set_zero(wi + nn);
                    } else {
                        r_add(wr + nn - 1, x, p);
                        r_set(wr + nn, wr + nn - 1);
                        r_neg(wi + nn - 1, z);
                        r_set(wi + nn, z);
                    }
                    nn -= 2;
                } else {
                    if (its == 3 * period) return CL_ENOCONV;
                    if (its == period || its == 2 * period) { /* exceptional shift */
                        r_add(t, t, x);
                        for (int i = 0; i <= nn; i++) r_sub(H(i, i), H(i, i), x);
                        r_abs(s, H(nn, nn - 1));
                        r_abs(g, H(nn - 1, nn - 2));
                        r_add(s, s, g);
                        r_mul_d(x, s, 0.75); /* 3/4 and 7/16 are exact binary */
                        r_set(y, x);
                        r_sqr(w, s);
                        r_mul_d(w, w, -0.4375);
                    }
                    ++its;
                    int m;
                    for (m = nn - 2; m >= l; m--) { /* look for two small subdiagonals */
                        r_set(z, H(m, m));
                        r_sub(r, x, z);
                        r_sub(s, y, z);
                        r_mul(p, r, s);
                        r_sub(p, p, w);
                        r_div(p, p, H(m + 1, m));
                        r_add(p, p, H(m, m + 1));
                        r_sub(q, H(m + 1, m + 1), z);
                        r_sub(q, q, r);
                        r_sub(q, q, s);
                        r_set(r, H(m + 2, m + 1));
                        scale_l1(s, p, q, r, g);
                        if (m == l) break;
                        r_abs(u, q);
                        r_abs(g, r);
                        r_add(u, u, g);
                        r_abs(g, H(m, m - 1));
                        r_mul(u, u, g);
                        r_abs(v, H(m - 1, m - 1));
                        r_abs(g, z);
                        r_add(v, v, g);
                        r_abs(g, H(m + 1, m + 1));
                        r_add(v, v, g);
                        r_abs(g, p);
                        r_mul(v, v, g);
                        r_mul(v, v, eps);
                        if (r_cmp(u, v) <= 0) break;
                    }
                    for (int i = m + 2; i <= nn; i++) {
                        r_set_zero(H(i, i - 2));
                        if (i != m + 2) r_set_zero(H(i, i - 3));
                    }
                    for (int k = m; k <= nn - 1; k++) { /* double-shift bulge chase */
                        if (k != m) {
                            r_set(p, H(k, k - 1));
                            r_set(q, H(k + 1, k - 1));
                            r_set_zero(r);
                            if (k != nn - 1) r_set(r, H(k + 2, k - 1));
                            scale_l1(x, p, q, r, g);
                        }
                        r_sqr(g, p);
                        r_addmul(g, q, q);
                        r_addmul(g, r, r);
                        r_sqrt(g, g);
                        sign_of(s, g, p);
                        if (r_is_zero(s)) continue;
                        if (k == m) {
                            if (l != m) r_neg(H(k, k - 1), H(k, k - 1));
                        } else {
                            r_mul(g, s, x);
                            r_neg(H(k, k - 1), g);
                        }
                        r_add(p, p, s);
                        r_div(x, p, s);
                        r_div(y, q, s);
                        r_div(z, r, s);
                        r_div(q, q, p);
                        r_div(r, r, p);
                        for (int j = k; j <= nn; j++) { /* rows k..k+2 */
                            r_mul(p, q, H(k + 1, j));
                            r_add(p, p, H(k, j));
                            if (k != nn - 1) {
                                r_addmul(p, r, H(k + 2, j));
                                r_submul(H(k + 2, j), p, z);
                            }
                            r_submul(H(k + 1, j), p, y);
                            r_submul(H(k, j), p, x);
                        }
                        int mmin = nn < k + 3 ? nn : k + 3;
                        for (int i = l; i <= mmin; i++) { /* columns k..k+2 */
                            r_mul(p, x, H(i, k));
                            r_addmul(p, y, H(i, k + 1));
                            if (k != nn - 1) {
                                r_addmul(p, z, H(i, k + 2));
                                r_submul(H(i, k + 2), p, r);
                            }
                            r_submul(H(i, k + 1), p, q);
                            r_sub(H(i, k), H(i, k), p);
                        }
                    }
                }
            }
        } while (l < nn - 1);
    }
    return CL_OK;
#undef H
}
#endif

/* Order by real part, then imaginary part (insertion sort, n is small). */
static void sort_eigs(rptr wr, rptr wi, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int c = r_cmp(wr + j - 1, wr + j);
            if (c < 0 || (c == 0 && r_cmp(wi + j - 1, wi + j) <= 0)) break;
            r_swap(wr + j - 1, wr + j);
            r_swap(wi + j - 1, wi + j);
        }
}

#if CL_PREC == CL_ARB
/* Enclose the cluster of k approximate eigenvalues Ea[idx[0..k)] of M by
   Rump's method (acb_mat_eig_enclosure_rump) around their mean μ, with an
   approximate basis X of the invariant subspace: the eigenvector from the
   QR approximation R when k = 1, else (μ real) the null space of the
   midpoint matrix (A − μI)^k in MPFR. 0, or CL_EUNDECIDED. */
static int eig_cluster(acb_ptr E, const acb_mat_t M, acb_srcptr Ea, const acb_mat_t R, const int *idx, int k, int n,
                       slong prec)
{
    acb_t mu, lam;
    acb_mat_t X, J, Xo;
    acb_init(mu); acb_init(lam);
    acb_mat_init(X, n, k); acb_mat_init(J, k, k); acb_mat_init(Xo, n, k);
    for (int i = 0; i < k; i++) acb_add(mu, mu, Ea + idx[i], prec);
    acb_div_si(mu, mu, k, prec);
    acb_get_mid(mu, mu);
    int st = CL_OK;
    if (k == 1) {
        for (int i = 0; i < n; i++) acb_get_mid(acb_mat_entry(X, i, 0), acb_mat_entry(R, i, idx[0]));
    } else if (!arb_is_zero(acb_imagref(mu)) &&
               arf_cmpabs_2exp_si(arb_midref(acb_imagref(mu)), -(slong)prec / 2) > 0) {
        st = CL_EUNDECIDED; /* a multiple complex eigenvalue: not handled */
    } else {
        size_t nn = (size_t)n * (size_t)n;
        mpfr_ptr B = cl_rvec_new_mp(3 * nn + 1, prec);
        /* the null space at half the precision: its default rank tolerance,
           16·n·2^(1−p/2) relative, resolves the cluster to about half the digits */
        mpfr_ptr N = cl_rvec_new_mp(nn, prec - prec / 2);
        if (!B || !N) st = CL_ENOMEM;
        else {
            mpfr_ptr P = B + nn, T = B + 2 * nn, m = B + 3 * nn;
            arf_get_mpfr(m, arb_midref(acb_realref(mu)), MPFR_RNDN);
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    arf_get_mpfr(AT(B, n, i, j), arb_midref(acb_realref(acb_mat_entry(M, i, j))), MPFR_RNDN);
                    if (i == j) mpfr_sub(AT(B, n, i, i), AT(B, n, i, i), m, MPFR_RNDN);
                }
            cl_rvec_copy_mp(P, B, nn);
            for (int q = 1; q < k; q++) {
                cl_mat_mul_mp(T, P, B, n, n, n);
                cl_rvec_copy_mp(P, T, nn);
            }
            int dim = 0;
            if (cl_nullspace_mp(N, &dim, P, n, n, 0) || dim != k) st = CL_EUNDECIDED;
            else
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < k; j++) {
                        acb_zero(acb_mat_entry(X, i, j));
                        arf_set_mpfr(arb_midref(acb_realref(acb_mat_entry(X, i, j))), AT(N, k, i, j));
                    }
        }
        cl_rvec_free_mp(B);
        cl_rvec_free_mp(N);
    }
    if (st == CL_OK && k > 1) {
        /* Arb freezes the last k rows of X: move k rows on which X is well
           conditioned there (elimination with partial pivoting on the
           midpoints), by the same permutation similarity of M. */
        int *perm = malloc(sizeof(int) * (size_t)n), *fro = malloc(sizeof(int) * (size_t)n);
        double *w = malloc(sizeof(double) * (size_t)(n * k));
        acb_mat_t Mp, Xp;
        acb_mat_init(Mp, n, n); acb_mat_init(Xp, n, k);
        if (!perm || !fro || !w) st = CL_ENOMEM;
        for (int i = 0; i < n && st == CL_OK; i++) {
            fro[i] = 0;
            for (int j = 0; j < k; j++)
                w[i * k + j] = arf_get_d(arb_midref(acb_realref(acb_mat_entry(X, i, j))), ARF_RND_NEAR);
        }
        for (int j = 0; j < k && st == CL_OK; j++) {
            int piv = -1;
            for (int i = 0; i < n; i++)
                if (!fro[i] && (piv < 0 || fabs(w[i * k + j]) > fabs(w[piv * k + j]))) piv = i;
            fro[piv] = 1;
            for (int i = 0; i < n; i++)
                if (!fro[i] && w[piv * k + j] != 0) {
                    double f = w[i * k + j] / w[piv * k + j];
                    for (int q = j; q < k; q++) w[i * k + q] -= f * w[piv * k + q];
                }
        }
        if (st == CL_OK) {
            int a = 0;
            for (int i = 0; i < n; i++) if (!fro[i]) perm[a++] = i;
            for (int i = 0; i < n; i++) if (fro[i]) perm[a++] = i;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) acb_set(acb_mat_entry(Mp, i, j), acb_mat_entry(M, perm[i], perm[j]));
                for (int j = 0; j < k; j++) acb_set(acb_mat_entry(Xp, i, j), acb_mat_entry(X, perm[i], j));
            }
            acb_mat_eig_enclosure_rump(lam, J, Xo, Mp, mu, Xp, prec);
            if (!acb_is_finite(lam)) st = CL_EUNDECIDED;
            for (int i = 0; i < k; i++) acb_set(E + idx[i], lam);
        }
        acb_mat_clear(Mp); acb_mat_clear(Xp);
        free(perm); free(fro); free(w);
    } else if (st == CL_OK) {
        acb_mat_eig_enclosure_rump(lam, J, Xo, M, mu, X, prec);
        if (!acb_is_finite(lam)) st = CL_EUNDECIDED;
        for (int i = 0; i < k; i++) acb_set(E + idx[i], lam);
    }
    acb_clear(mu); acb_clear(lam);
    acb_mat_clear(X); acb_mat_clear(J); acb_mat_clear(Xo);
    return st;
}
/* Balls: Rump's verified enclosure around the QR approximation (Arb's
   acb_mat_eig_multiple: simple eigenvalues are isolated, clusters share one
   enclosure). */
int CL_FN(cl_eig)(rptr wr, rptr wi, rsrc A, int n)
{
    if (n < 1) return CL_EDIM;
    size_t nn = (size_t)n * (size_t)n;
    if (!finite_all(A, nn)) return CL_ENAN;
    slong prec = (slong)r_prec(A);
    acb_mat_t M, R;
    acb_ptr E = _acb_vec_init(n), Ea = _acb_vec_init(n);
    acb_mat_init(M, n, n);
    acb_mat_init(R, n, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) acb_set_arb(acb_mat_entry(M, i, j), AT(A, n, i, j));
    int st = CL_OK;
    /* the approximation need not have converged: the enclosure verifies it */
    acb_mat_approx_eig_qr(Ea, NULL, R, M, NULL, 0, prec);
    if (!acb_mat_eig_simple(E, NULL, NULL, M, Ea, R, prec)) {
        /* clusters: approximations within 2^(−p/2)·max(1, max|λ|) of each other (by chains) */
        int *idx = malloc(2 * sizeof(int) * (size_t)n), *done = idx ? idx + n : NULL;
        mag_t tol, d, big;
        mag_init(tol); mag_init(d); mag_init(big);
        mag_one(big);
        for (int i = 0; i < n; i++) {
            acb_get_mag(d, Ea + i);
            mag_max(big, big, d);
        }
        mag_mul_2exp_si(tol, big, -(slong)prec / 2);
        if (!idx) st = CL_ENOMEM;
        else
            for (int i = 0; i < n; i++) done[i] = 0;
        int ncl = 0; /* done[j]: the number of j's cluster, from 1 */
        for (int i = 0; i < n && st == CL_OK; i++) {
            if (done[i]) continue;
            int k = 0;
            idx[k++] = i;
            done[i] = ++ncl;
            for (int a = 0; a < k; a++)
                for (int j = 0; j < n; j++) {
                    if (done[j]) continue;
                    acb_t t;
                    acb_init(t);
                    acb_sub(t, Ea + idx[a], Ea + j, prec);
                    acb_get_mag(d, t);
                    acb_clear(t);
                    if (mag_cmp(d, tol) <= 0) { idx[k++] = j; done[j] = ncl; }
                }
            st = eig_cluster(E, M, Ea, R, idx, k, n, prec);
        }
        /* each cluster's enclosure holds its k eigenvalues: they are all n only when
           the enclosures of different clusters are disjoint */
        for (int i = 0; i < n && st == CL_OK; i++)
            for (int j = i + 1; j < n && st == CL_OK; j++)
                if (done[i] != done[j] && acb_overlaps(E + i, E + j)) st = CL_EUNDECIDED;
        mag_clear(tol); mag_clear(d); mag_clear(big);
        free(idx);
    }
    if (st == CL_OK) {
        for (int i = 0; i < n; i++) {
            arb_set(wr + i, acb_realref(E + i));
            arb_set(wi + i, acb_imagref(E + i));
        }
        sort_eigs(wr, wi, n);
    }
    acb_mat_clear(M);
    acb_mat_clear(R);
    _acb_vec_clear(E, n);
    _acb_vec_clear(Ea, n);
    return st;
}
#else
int CL_FN(cl_eig)(rptr wr, rptr wi, rsrc A, int n)
{
    if (n < 1) return CL_EDIM;
    size_t nn = (size_t)n * (size_t)n;
    if (!finite_all(A, nn)) return CL_ENAN;
    rptr H = CL_FN(cl_rvec_new)(nn, r_prec(wr));
    if (!H) return CL_ENOMEM;
    for (size_t i = 0; i < nn; i++) r_set(H + i, A + i);
    balance(H, n);
    hessenberg(H, n);
    int st = hqr(H, n, wr, wi);
    CL_FN(cl_rvec_free)(H);
    if (st == CL_OK) sort_eigs(wr, wi, n);
    return st;
}
#endif

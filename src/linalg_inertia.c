/* The inertia of a symmetric matrix by Bunch–Kaufman LDLᵀ with symmetric
   pivoting (semantics in linalg_decl.h): the signs of the 1×1 and 2×2 pivots
   D counted by Sylvester's law, one small step a function. */
#include <stdlib.h>
#include "linalg_impl.h"

/* The factorization under way: the lower triangle L of the n×n work matrix,
   the zero threshold τ, the pivot constant α, scratch scalars and the signs
   counted so far. */
typedef struct {
    rptr L;
    int n;
    rptr tau, alpha, colmax, rowmax, t, u, det, w1, w2, l1, l2;
    int np, nn, nz;
} bk_work;

#define BK_SCALARS 11

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
   result is CL_EUNDECIDED. w->u is scratch. */
static int count_sign(bk_work *w, rsrc lambda)
{
    int s = r_sgn3(lambda);
#if CL_PREC == CL_ARB
    if (s == 1) { ++w->np; return CL_OK; }
    if (s == -1) { ++w->nn; return CL_OK; }
#endif
    r_abs(w->u, lambda);
    int c = r_cmp3(w->u, w->tau);
    if (c == -1 || c == 0) { ++w->nz; return CL_OK; }
    if (s == 1) ++w->np;
    else if (s == -1) ++w->nn;
    else return CL_EUNDECIDED;
    return CL_OK;
}

/* Copy the lower triangle of A, set τ = f·n·2^(1−p)·max|A| and the
   Bunch–Kaufman α = (1 + √17)/8. */
static void bk_start(bk_work *w, rsrc A, double f)
{
    rptr L = w->L, tau = w->tau, alpha = w->alpha, t = w->t;
    int n = w->n;
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
}

/* The largest |entry| below the diagonal of column k into colmax; its row. */
static int bk_column_max(bk_work *w, int k)
{
    rptr L = w->L;
    int n = w->n, imax = k;
    r_set_zero(w->colmax);
    for (int i = k + 1; i < n; i++)
        if (r_cmpabs(LO(i, k), w->colmax) > 0) { r_abs(w->colmax, LO(i, k)); imax = i; }
    return imax;
}

/* 1 when the whole remaining column k is within τ, proven (on balls a
   proven pivot is not zero: it is eliminated with). */
static int bk_column_negligible(bk_work *w, int k)
{
    rptr L = w->L;
    int n = w->n, colzero = 1;
    for (int i = k; i < n && colzero; i++) {
        r_abs(w->t, LO(i, k));
        int c = r_cmp3(w->t, w->tau);
        colzero = c == -1 || c == 0;
    }
#if CL_PREC == CL_ARB
    int sk = r_sgn3(LO(k, k));
    if (sk == 1 || sk == -1) colzero = 0;
#endif
    return colzero;
}

/* The Bunch–Kaufman choice at column k with its largest subdiagonal entry in
   row imax: the index kp to bring to the pivot and the pivot size (1 or 2). */
static int bk_pivot(bk_work *w, int k, int imax, int *kstep)
{
    rptr L = w->L, t = w->t, u = w->u, alpha = w->alpha, colmax = w->colmax, rowmax = w->rowmax;
    int n = w->n, kp = k;
    *kstep = 1;
    r_mul(t, alpha, colmax);
    if (r_cmpabs(LO(k, k), t) >= 0) return kp;
    r_set_zero(rowmax); /* largest off-diagonal |entry| of row imax */
    for (int j = k; j < imax; j++)
        if (r_cmpabs(LO(imax, j), rowmax) > 0) r_abs(rowmax, LO(imax, j));
    for (int i = imax + 1; i < n; i++)
        if (r_cmpabs(LO(i, imax), rowmax) > 0) r_abs(rowmax, LO(i, imax));
    r_abs(u, LO(k, k));
    r_mul(u, u, rowmax);
    r_mul(t, t, colmax);   /* α·colmax² */
    if (r_cmp(u, t) >= 0) return kp;
    r_mul(t, alpha, rowmax);
    kp = imax;
    if (r_cmpabs(LO(imax, imax), t) < 0) *kstep = 2;
    return kp;
}

/* A 1×1 pivot at k: count its sign and update the trailing block. */
static int bk_eliminate_1x1(bk_work *w, int k)
{
    rptr L = w->L, t = w->t;
    int n = w->n, st;
    rsrc d = LO(k, k);
    if ((st = count_sign(w, d))) return st;
    for (int i = k + 1; i < n; i++) {
        r_div(t, LO(i, k), d);
        for (int j = k + 1; j <= i; j++) r_submul(LO(i, j), t, LO(j, k));
    }
    return CL_OK;
}

/* The eigenvalues l1, l2 of the 2×2 pivot D = [a b; b c] at k, and det D. */
static void bk_block_eigenvalues(bk_work *w, int k)
{
    rptr L = w->L, t = w->t, u = w->u, det = w->det, l1 = w->l1, l2 = w->l2;
    int n = w->n;
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
}

/* A 2×2 pivot at k: count the signs of its eigenvalues and update the
   trailing block by D⁻¹. */
static int bk_eliminate_2x2(bk_work *w, int k)
{
    rptr L = w->L, det = w->det, w1 = w->w1, w2 = w->w2;
    int n = w->n, st;
    bk_block_eigenvalues(w, k);
    if ((st = count_sign(w, w->l1)) || (st = count_sign(w, w->l2))) return st;
    rsrc a = LO(k, k), b = LO(k + 1, k), c = LO(k + 1, k + 1);
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
    return CL_OK;
}

/* The pivots of the factorization, counted into w; 0 or CL_EUNDECIDED. */
static int bk_count_pivots(bk_work *w)
{
    int k = 0, n = w->n;
    while (k < n) {
        int imax = bk_column_max(w, k);
        if (bk_column_negligible(w, k)) {
            w->nz++; /* the whole remaining column is zero to working precision */
            k++;
            continue;
        }
        int kstep, kp = bk_pivot(w, k, imax, &kstep);
        int kk = k + kstep - 1;
        if (kp != kk) sym_swap(w->L, n, k, kk, kp);
        int st = kstep == 1 ? bk_eliminate_1x1(w, k) : bk_eliminate_2x2(w, k);
        if (st) return st;
        k += kstep;
    }
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
    RV_DECL(s, BK_SCALARS, p);
    bk_work w = {.L = L, .n = n, .tau = s, .alpha = s + 1, .colmax = s + 2, .rowmax = s + 3, .t = s + 4,
                 .u = s + 5, .det = s + 6, .w1 = s + 7, .w2 = s + 8, .l1 = s + 9, .l2 = s + 10};
    bk_start(&w, A, f);
    int st = bk_count_pivots(&w);
    *npos = w.np;
    *nneg = w.nn;
    *nzero = st ? n - w.np - w.nn : w.nz; /* undecided: the signs not proven */
    CL_FN(cl_rvec_free)(L);
    return st;
}
#undef LO

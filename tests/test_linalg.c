/* Small dense linear algebra against exact integer constructions and closed
 * forms: LU (integer L·U with integer inverse, Vandermonde determinant),
 * Householder QR, null spaces of integer rank-deficient matrices, inertia by
 * Sylvester's law, eigenvalues of a conjugated rotation–scaling matrix.
 * The oracle rows core.linalg.* hold the LU inverse, the null space of the
 * rank-3 5×7 matrix, the inertia of S D Sᵀ and of [[0,B],[Bᵀ,0]] with B of
 * rank 2, and the companion and tridiagonal eigenvalues; they are not
 * repeated here.
 *
 * Tolerances are factor·2^(1−p) times the stated condition number and scale;
 * the factors are the textbook backward-error constants (a few times n for
 * LU and QR, Higham ch. 9 and 19) rounded up to a power of 2. */
#include <stdlib.h>
#include "tap_main.h"
#include "linalg.h"
#include "linalg_cases_impl.h"

static rptr newv(size_t n, cl_prec_t p) { return CL_FN(cl_rvec_new)(n, p); }
static void delv(rptr v) { CL_FN(cl_rvec_free)(v); }

static double inorm_fro(const long *A, int m, int n)
{
    double s = 0;
    for (int i = 0; i < m * n; i++) s += (double)A[i] * (double)A[i];
    return sqrt(s);
}

/* log2 max |M_ij − δ_ij| for n×n M. */
static double log2_dev_identity(rptr M, int n)
{
    for (int i = 0; i < n; i++) r_add_si(M + (size_t)i * n + i, M + (size_t)i * n + i, -1);
    double e = CL_FN(cl_rvec_log2_maxabs)(M, (size_t)n * n);
    for (int i = 0; i < n; i++) r_add_si(M + (size_t)i * n + i, M + (size_t)i * n + i, 1);
    return e;
}

/* ------------------------------------------------------------------------ LU */

/* A = L U with L unit lower and U upper with diagonal ±1, integers: det A = ±1
   and A⁻¹ = U⁻¹ L⁻¹ is an integer matrix. */
static const long LU_L[36] = {
    1, 0, 0, 0, 0, 0,
    2, 1, 0, 0, 0, 0,
    -1, 3, 1, 0, 0, 0,
    0, -2, 1, 1, 0, 0,
    3, 1, -1, 2, 1, 0,
    1, 0, 2, -1, -3, 1};
static const long LU_U[36] = {
    1, 2, -1, 0, 1, 3,
    0, -1, 2, 1, 0, -2,
    0, 0, 1, -3, 2, 1,
    0, 0, 0, 1, 1, -1,
    0, 0, 0, 0, -1, 2,
    0, 0, 0, 0, 0, 1};

static void test_lu(cl_prec_t p)
{
    enum { n = 6 };
    long A[36], Li[36], Ui[36], Ai[36], xe[n] = {3, -1, 4, -1, 5, -9}, be[n];
    lin_imul(A, LU_L, LU_U, n, n, n);
    lin_itri_inv(Li, LU_L, n, 1);
    lin_itri_inv(Ui, LU_U, n, 0);
    lin_imul(Ai, Ui, Li, n, n, n);
    lin_imul(be, A, xe, n, n, 1);
    double kappa = lin_inorm_inf(A, n, n) * lin_inorm_inf(Ai, n, n);
    double cond = 8.0 * n * kappa; /* forward error ≤ κ∞·(backward error ~ n·u) */
    rptr M = newv(36, p), W = newv(36, p);
    rptr b = newv(n, p), x = newv(n, p), xr = newv(n, p), r = newv(n, p);
    int perm[n];
    lin_set_int(M, A, 36);
    lin_set_int(b, be, n);
    lin_set_int(xr, xe, n);
    ok(CL_FN(cl_linsolve)(x, M, b, n) == CL_OK, "linsolve returns 0 [%s, %ld]", TEST_KIND, (long)p);
    double e = CL_FN(cl_rvec_log2_maxdiff)(x, xr, n);
    is_log2_below(e, tol_log2(p, cond) + log2(9.0),
                  "linsolve: x matches the integer solution (kappa_inf = %.0f) [%s, %ld]", kappa, TEST_KIND, (long)p);
    diag("  linsolve error 2^%.1f at %ld bits", e, (long)p);
    /* Residual b − A x: backward stable, ≤ 8n·u·‖A‖∞‖x‖∞. */
    CL_FN(cl_mat_vec)(r, M, x, n, n);
    double res = CL_FN(cl_rvec_log2_maxdiff)(r, b, n);
    is_log2_below(res, tol_log2(p, 8.0 * n) + log2(lin_inorm_inf(A, n, n) * 9.0),
                  "linsolve: residual at rounding level [%s, %ld]", TEST_KIND, (long)p);
    /* x may alias b. */
    CL_FN(cl_rvec_copy)(r, b, n);
    CL_FN(cl_linsolve)(r, M, r, n);
    ok(CL_FN(cl_rvec_log2_maxdiff)(r, x, n) == -INFINITY, "linsolve in place equals out of place [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_copy)(W, M, 36);
    ok(CL_FN(cl_lu_factor)(W, perm, n) == CL_OK, "lu_factor returns 0 [%s, %ld]", TEST_KIND, (long)p);
    /* det(L U) = Π diag(U) = product of the ±1 diagonal. */
    R_DECL(d, p); R_DECL(de, p);
    long dprod = 1;
    for (int i = 0; i < n; i++) dprod *= LU_U[i * n + i];
    r_set_si(de, dprod);
    CL_FN(cl_lu_det)(d, W, perm, n);
    is_real(d, de, 8.0 * n * kappa, "lu_det of L U is the product of diag U");
    delv(M); delv(W); delv(b); delv(x); delv(xr); delv(r);
}

/* Vandermonde V_ij = x_i^j: det V = Π_{i<j} (x_j − x_i). */
static void test_det(cl_prec_t p)
{
    enum { n = 6 };
    static const long num[n] = {-2, -1, 1, 1, 3, 5}, den[n] = {1, 1, 2, 1, 1, 2};
    rptr V = newv(n * n, p), X = newv(n * n, p), xs = newv(n, p);
    R_DECL(d, p); R_DECL(de, p); R_DECL(t, p);
    int perm[n];
    for (int i = 0; i < n; i++) {
        r_set_q(xs + i, num[i], den[i]);
        r_set_si(V + i * n, 1);
        for (int j = 1; j < n; j++) r_mul(V + i * n + j, V + i * n + j - 1, xs + i);
    }
    r_set_si(de, 1);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            r_sub(t, xs + j, xs + i);
            r_mul(de, de, t);
        }
    /* The powers of halves and the product are exact at every precision. */
    double vnorm = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += fabs(r_get_d(V + i * n + j));
        if (s > vnorm) vnorm = s;
    }
    ok(CL_FN(cl_lu_factor)(V, perm, n) == CL_OK, "Vandermonde factors [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_lu_det)(d, V, perm, n);
    /* Condition of the determinant: |δdet/det| ≤ ‖A⁻¹‖‖δA‖; ‖V⁻¹‖∞ is taken
       from the computed inverse, which only sets the tolerance. */
    CL_FN(cl_mat_identity)(X, n);
    CL_FN(cl_lu_solve)(V, perm, X, n, n);
    double inorm = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += fabs(r_get_d(X + i * n + j));
        if (s > inorm) inorm = s;
    }
    r_sub(t, d, de);
    r_div(t, t, de);
    double e = r_log2abs(t);
    is_log2_below(e, tol_log2(p, 8.0 * n * n * vnorm * inorm),
                  "det of Vandermonde = prod (x_j - x_i), relative (kappa %.0f) [%s, %ld]", vnorm * inorm, TEST_KIND, (long)p);
    diag("  Vandermonde det relative error 2^%.1f at %ld bits", e, (long)p);
    delv(V); delv(X); delv(xs);
}

static void test_lu_errors(cl_prec_t p)
{
    enum { n = 4 };
    /* B (4×3) C (3×4): rank 3, singular; exact in integers. */
    static const long B[12] = {1, 2, 0, -1, 1, 3, 2, 0, 1, 0, 1, -2};
    static const long C[12] = {1, 0, 2, -1, 0, 1, 1, 3, 2, -1, 0, 1};
    long A[16];
    lin_imul(A, B, C, 4, 3, 4);
    rptr M = newv(16, p), b = newv(n, p), x = newv(n, p);
    int perm[n];
    lin_set_int(M, A, 16);
    for (int i = 0; i < n; i++) r_set_si(b + i, i + 1);
    ok(CL_FN(cl_lu_factor)(M, perm, n) == CL_ESINGULAR, "rank-3 integer 4x4 is singular [%s, %ld]", TEST_KIND, (long)p);
    lin_set_int(M, A, 16);
    ok(CL_FN(cl_linsolve)(x, M, b, n) == CL_ESINGULAR, "linsolve reports the singular matrix [%s, %ld]", TEST_KIND, (long)p);
    for (int i = 0; i < 16; i++) r_set_zero(M + i);
    ok(CL_FN(cl_lu_factor)(M, perm, n) == CL_ESINGULAR, "zero matrix is singular [%s, %ld]", TEST_KIND, (long)p);
    lin_set_int(M, A, 16);
    r_set_d(M + 5, NAN);
    ok(CL_FN(cl_lu_factor)(M, perm, n) == CL_ENAN, "NaN entry gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_lu_factor)(M, perm, 0) == CL_EDIM, "n = 0 gives CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    delv(M); delv(b); delv(x);
}

/* ------------------------------------------------------------------------ QR */

static void test_qr_shape(cl_prec_t p, int m, int n, cl_rng *g)
{
    rptr A = newv((size_t)m * n, p), Q = newv((size_t)m * m, p), R = newv((size_t)m * n, p);
    rptr QtQ = newv((size_t)m * m, p), Qt = newv((size_t)m * m, p), QR = newv((size_t)m * n, p);
    for (int i = 0; i < m * n; i++) r_set_d(A + i, cl_rng_normal(g));
    ok(CL_FN(cl_qr)(Q, R, A, m, n) == CL_OK, "qr %dx%d returns 0 [%s, %ld]", m, n, TEST_KIND, (long)p);
    CL_FN(cl_mat_transpose)(Qt, Q, m, m);
    CL_FN(cl_mat_mul)(QtQ, Qt, Q, m, m, m);
    /* Each of ≤ m reflections is orthogonal to O(m·u); 4m² covers their sum. */
    double fq = 4.0 * m * m;
    double e = log2_dev_identity(QtQ, m);
    is_log2_below(e, tol_log2(p, fq), "qr %dx%d: Q^T Q = I [%s, %ld]", m, n, TEST_KIND, (long)p);
    CL_FN(cl_mat_mul)(QR, Q, R, m, m, n);
    e = CL_FN(cl_rvec_log2_maxdiff)(QR, A, (size_t)m * n);
    double scale = CL_FN(cl_rvec_log2_maxabs)(A, (size_t)m * n);
    is_log2_below(e, tol_log2(p, fq) + scale + 0.5 * log2(m), "qr %dx%d: Q R = A [%s, %ld]", m, n, TEST_KIND, (long)p);
    int below = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < i && j < n; j++) below |= !r_is_zero(R + (size_t)i * n + j);
    ok(!below, "qr %dx%d: R is upper triangular [%s, %ld]", m, n, TEST_KIND, (long)p);
    /* In place: R = A. */
    CL_FN(cl_rvec_copy)(QR, A, (size_t)m * n);
    CL_FN(cl_qr)(QtQ, QR, QR, m, n);
    ok(CL_FN(cl_rvec_log2_maxdiff)(QR, R, (size_t)m * n) == -INFINITY, "qr %dx%d in place equals out of place [%s, %ld]", m, n, TEST_KIND, (long)p);
    delv(A); delv(Q); delv(R); delv(QtQ); delv(Qt); delv(QR);
}

static void test_qr(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 7);
    test_qr_shape(p, 7, 4, &g);
    test_qr_shape(p, 4, 7, &g);
    test_qr_shape(p, 5, 5, &g);
}

/* ---------------------------------------------------------------- null space */

static void check_nullspace(cl_prec_t p, rsrc A, int m, int n, int kexp, const char *what)
{
    rptr N = newv((size_t)n * n, p), AN = newv((size_t)(m ? m : 1) * n, p);
    rptr Nt = newv((size_t)n * n, p), NtN = newv((size_t)n * n, p);
    int k = -1;
    ok(CL_FN(cl_nullspace)(N, &k, A, m, n, 0) == CL_OK && k == kexp,
       "nullspace of %s has dimension %d (got %d) [%s, %ld]", what, kexp, k, TEST_KIND, (long)p);
    if (k == kexp && k > 0) {
        CL_FN(cl_mat_transpose)(Nt, N, n, k);
        CL_FN(cl_mat_mul)(NtN, Nt, N, k, n, k);
        double e = log2_dev_identity(NtN, k);
        is_log2_below(e, tol_log2(p, 4.0 * n * n), "nullspace of %s: N^T N = I [%s, %ld]", what, TEST_KIND, (long)p);
        if (m > 0) {
            CL_FN(cl_mat_mul)(AN, A, N, m, n, k);
            e = CL_FN(cl_rvec_log2_maxabs)(AN, (size_t)m * k);
            double scale = CL_FN(cl_rvec_log2_maxabs)(A, (size_t)m * n) + 0.5 * log2(n);
            /* A N = A (Q̂ − Q) restricted: ‖A‖·O(n²u). */
            is_log2_below(e, tol_log2(p, 4.0 * n * n) + scale, "nullspace of %s: A N = 0 [%s, %ld]", what, TEST_KIND, (long)p);
        }
    }
    delv(N); delv(AN); delv(Nt); delv(NtN);
}

static void test_nullspace(cl_prec_t p)
{
    /* The transpose (7×5) of the rank-3 integer 5×7 matrix: null space of dimension 2. */
    long A[35];
    lin_rank3_5x7(A);
    rptr M = newv(35, p);
    lin_set_int(M, A, 35);
    rptr Mt = newv(35, p);
    CL_FN(cl_mat_transpose)(Mt, M, 5, 7);
    check_nullspace(p, Mt, 7, 5, 2, "rank-3 integer 7x5");
    /* One constraint row (the gradient of |q|² at q = (1, 2, 2)/3 scaled by 3):
       the tangent plane, dimension 2. */
    static const long grad[3] = {1, 2, 2};
    lin_set_int(M, grad, 3);
    check_nullspace(p, M, 1, 3, 2, "a single row (1,2,2)");
    check_nullspace(p, M, 0, 3, 3, "the empty 0x3 matrix");
    for (int i = 0; i < 35; i++) r_set_zero(M + i);
    check_nullspace(p, M, 5, 7, 7, "the zero 5x7 matrix");
    r_set_d(M + 3, NAN);
    int k;
    ok(CL_FN(cl_nullspace)(Mt, &k, M, 5, 7, 0) == CL_ENAN, "nullspace: NaN gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    delv(M); delv(Mt);
}

/* ------------------------------------------------------------------- inertia */

static void check_inertia(rsrc A, int n, int pe, int ne, int ze, const char *what)
{
    int np = -1, nn = -1, nz = -1;
    int st = CL_FN(cl_sym_inertia)(&np, &nn, &nz, A, n, 0);
    int r = ok(st == CL_OK && np == pe && nn == ne && nz == ze,
               "inertia of %s is (%d, %d, %d) [%s, %ld]", what, pe, ne, ze, TEST_KIND, (long)r_prec(A));
    if (!r) diag("  got status %d, (%d, %d, %d)", st, np, nn, nz);
}

static void test_inertia(cl_prec_t p)
{
    enum { n = 7 };
    rptr A = newv(n * n, p);
    /* −S D Sᵀ (S D Sᵀ itself is core.linalg.inertia): the counts swap. */
    lin_sylvester_7(A);
    for (int i = 0; i < n * n; i++) r_neg(A + i, A + i);
    check_inertia(A, n, 2, 3, 2, "-S D S^T");
    /* 2×2 pivot forced at the first step: [[0,1,0],[1,0,0],[0,0,2]]. */
    static const long H3[9] = {0, 1, 0, 1, 0, 0, 0, 0, 2};
    lin_set_int(A, H3, 9);
    check_inertia(A, 3, 2, 1, 0, "[[0,1,0],[1,0,0],[0,0,2]]");
    /* [[0, B], [Bᵀ, 0]] with B nonsingular: every pivot 2×2, (3, 3, 0). */
    static const long Bf[9] = {2, 1, 0, -1, 3, 1, 0, 1, 4};
    lin_zero_b_bt(A, Bf);
    check_inertia(A, 6, 3, 3, 0, "[[0,B],[B^T,0]], B nonsingular");
    for (int i = 0; i < n * n; i++) r_set_zero(A + i);
    check_inertia(A, n, 0, 0, n, "the zero matrix");
    r_set_d(A + n + 1, NAN);
    int a, b, c;
    ok(CL_FN(cl_sym_inertia)(&a, &b, &c, A, n, 0) == CL_ENAN, "inertia: NaN gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    delv(A);
}

/* --------------------------------------------------------------- eigenvalues */

/* A = T B T⁻¹ with B = diag([[1,2],[−2,1]], [[−3,1],[−1,−3]], 5, −2) and T unit
   lower · unit upper integer, so T⁻¹ is integer and A is exact. Eigenvalues
   1 ± 2i, −3 ± i, 5, −2. */
static void test_eig_complex(cl_prec_t p)
{
    enum { n = 6 };
    static const long Bm[36] = {
        1, 2, 0, 0, 0, 0,
        -2, 1, 0, 0, 0, 0,
        0, 0, -3, 1, 0, 0,
        0, 0, -1, -3, 0, 0,
        0, 0, 0, 0, 5, 0,
        0, 0, 0, 0, 0, -2};
    static const long TL[36] = {
        1, 0, 0, 0, 0, 0,
        1, 1, 0, 0, 0, 0,
        0, -1, 1, 0, 0, 0,
        2, 0, 1, 1, 0, 0,
        0, 1, 0, -1, 1, 0,
        1, 0, 0, 1, 1, 1};
    static const long TU[36] = {
        1, 1, 0, -1, 0, 2,
        0, 1, 2, 0, 1, 0,
        0, 0, 1, 1, 0, -1,
        0, 0, 0, 1, 2, 0,
        0, 0, 0, 0, 1, 1,
        0, 0, 0, 0, 0, 1};
    long T[36], Ti[36], Li[36], Ui[36], TB[36], A[36];
    lin_imul(T, TL, TU, n, n, n);
    lin_itri_inv(Li, TL, n, 1);
    lin_itri_inv(Ui, TU, n, 0);
    lin_imul(Ti, Ui, Li, n, n, n);
    lin_imul(TB, T, Bm, n, n, n);
    lin_imul(A, TB, Ti, n, n, n);
    /* Eigenvalue condition ≤ κ₂(T) ≤ ‖T‖_F‖T⁻¹‖_F (B is normal). */
    double kappa = inorm_fro(T, n, n) * inorm_fro(Ti, n, n), an = inorm_fro(A, n, n);
    static const long er[n] = {-3, -3, -2, 1, 1, 5}, ei[n] = {-1, 1, 0, -2, 2, 0};
    rptr M = newv(36, p), wr = newv(n, p), wi = newv(n, p), xr = newv(n, p), xi = newv(n, p);
    lin_set_int(M, A, 36);
    lin_set_int(xr, er, n);
    lin_set_int(xi, ei, n);
    ok(CL_FN(cl_eig)(wr, wi, M, n) == CL_OK, "eig of T B T^-1 returns 0 [%s, %ld]", TEST_KIND, (long)p);
    double e = CL_FN(cl_rvec_log2_maxdiff)(wr, xr, n), f = CL_FN(cl_rvec_log2_maxdiff)(wi, xi, n);
    if (f > e) e = f;
    is_log2_below(e, tol_log2(p, 16.0 * n * kappa * an),
                  "T B T^-1: eigenvalues -3-i, -3+i, -2, 1-2i, 1+2i, 5 in order (kappa <= %.0f) [%s, %ld]",
                  kappa, TEST_KIND, (long)p);
    diag("  complex-pair eigenvalue error 2^%.1f at %ld bits", e, (long)p);
    ok(r_cmp(wr, wr + 1) == 0 && r_cmp(wr + 3, wr + 4) == 0, "pairs have equal real parts [%s, %ld]", TEST_KIND, (long)p);
    delv(M); delv(wr); delv(wi); delv(xr); delv(xi);
}

/* A defective pair: B = [[J, I], [0, J]], J = [[0, −2], [2, 0]] (±2i, each a
   2×2 Jordan block, as a screw motion's linearization has), hidden by two
   Householder reflections with integer vectors (1, 2, 3, 4) and (1, −1, 2,
   −3): A = 50625⁻¹ × the integers below, exact. Francis QR converges there
   only linearly (more than 3 exceptional-shift periods at 53 bits); the
   eigenvalues of a Jordan block of order 2 move by the square root of the
   rounding: within 2^(4−p/2). */
static void test_eig_defective(cl_prec_t p)
{
    static const long A50625[16] = {-23674, -94496, -6788, 21042, 94504, -24934, -23002, -26307,
                                    12787, 14798, 24794, -107496, -4158, 29268, 106704, 23814};
    rptr A = newv(16, p), wr = newv(4, p), wi = newv(4, p);
    lin_set_int(A, A50625, 16);
    for (int i = 0; i < 16; i++) r_div_si(A + i, A + i, 50625);
    ok(CL_FN(cl_eig)(wr, wi, A, 4) == CL_OK, "eig of a defective pair +-2i (two Jordan blocks) converges [%s, %ld]", TEST_KIND, (long)p);
    double worst = -INFINITY;
    int up = 0;
    for (int i = 0; i < 4; i++) {
        R_DECL(d, p);
        r_abs(d, wi + i);
        r_add_si(d, d, -2);
        worst = fmax(worst, fmax(r_log2abs(d), r_log2abs(wr + i)));
        up += r_sgn(wi + i) > 0;
    }
    is_log2_below(worst, 4 - (double)p / 2, "defective pair: eigenvalues 2i, 2i, -2i, -2i within 2^(4-p/2) [%s, %ld]", TEST_KIND, (long)p);
    ok(up == 2, "defective pair: two eigenvalues in the upper half-plane (got %d) [%s, %ld]", up, TEST_KIND, (long)p);
    delv(A); delv(wr); delv(wi);
}

/* The precision-relative rules: a quantity of size 2^(−p/2) is far above
   every tolerance (factor·n·2^(1−p)·scale), one of size 2^(−p−8) far below. */
static void test_thresholds(cl_prec_t p)
{
    rptr A = newv(9, p), N = newv(9, p), wr = newv(3, p), wi = newv(3, p);
    int perm[3], k, a, b, c;
    long half = (long)p / 2, below = (long)p + 8;
    /* LU: diag(1, δ, 1). */
    CL_FN(cl_mat_identity)(A, 3);
    r_set_si(A + 4, 1);
    r_mul_2si(A + 4, A + 4, -half);
    ok(CL_FN(cl_lu_factor)(A, perm, 3) == CL_OK, "lu: pivot 2^-(p/2) is accepted [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_mat_identity)(A, 3);
    r_set_si(A + 4, 1);
    r_mul_2si(A + 4, A + 4, -below);
    ok(CL_FN(cl_lu_factor)(A, perm, 3) == CL_ESINGULAR, "lu: pivot 2^-(p+8) is singular [%s, %ld]", TEST_KIND, (long)p);
    /* Null space of the 2×3 matrix [[1, 0, 0], [0, δ, 0]]. */
    CL_FN(cl_mat_identity)(A, 3);
    r_mul_2si(A + 4, A + 4, -half);
    CL_FN(cl_nullspace)(N, &k, A, 2, 3, 0);
    ok(k == 1, "nullspace: row of size 2^-(p/2) counts, dimension 1 (got %d) [%s, %ld]", k, TEST_KIND, (long)p);
    CL_FN(cl_mat_identity)(A, 3);
    r_mul_2si(A + 4, A + 4, -below);
    CL_FN(cl_nullspace)(N, &k, A, 2, 3, 0);
    ok(k == 2, "nullspace: row of size 2^-(p+8) is zero, dimension 2 (got %d) [%s, %ld]", k, TEST_KIND, (long)p);
    /* Inertia of diag(1, ±δ, −1). */
    CL_FN(cl_mat_identity)(A, 3);
    r_set_si(A + 8, -1);
    r_mul_2si(A + 4, A + 4, -half);
    r_neg(A + 4, A + 4);
    CL_FN(cl_sym_inertia)(&a, &b, &c, A, 3, 0);
    ok(a == 1 && b == 2 && c == 0, "inertia: eigenvalue -2^-(p/2) is negative [%s, %ld]", TEST_KIND, (long)p);
    r_mul_2si(A + 4, A + 4, half - below);
    CL_FN(cl_sym_inertia)(&a, &b, &c, A, 3, 0);
    ok(a == 1 && b == 1 && c == 1, "inertia: eigenvalue -2^-(p+8) is zero [%s, %ld]", TEST_KIND, (long)p);
    /* Dimension and input errors. */
    ok(CL_FN(cl_lu_solve)(A, (const int[]){0, 0, 2}, wr, 3, 1) == CL_EDIM, "lu_solve: perm[1] < 1 gives CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_qr)(N, A, A, 0, 3) == CL_EDIM, "qr: m = 0 gives CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_eig)(wr, wi, A, 0) == CL_EDIM, "eig: n = 0 gives CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    r_set_d(A + 7, NAN);
    ok(CL_FN(cl_eig)(wr, wi, A, 3) == CL_ENAN, "eig: NaN gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    r_set_d(A + 2, INFINITY);
    ok(CL_FN(cl_qr)(N, A, A, 3, 3) == CL_ENAN, "qr: infinity gives CL_ENAN [%s, %ld]", TEST_KIND, (long)p);
    delv(A); delv(N); delv(wr); delv(wi);
}

/* ------------------------------------------------------- tridiagonal, SPD */

/* tridiag(−1, 2, −1) of order 5 times x = (1, …, 5) is b = (0, 0, 0, 0, 6),
   exactly; κ(T) ≈ 14 and each unknown takes a few roundings: factor 64.
   Called once into a fresh x and once in place (x aliasing b). */
static void test_tridiag(cl_prec_t p)
{
    RV_DECL(d, 5, p); RV_DECL(e, 4, p); RV_DECL(b, 5, p); RV_DECL(x, 5, p); RV_DECL(c, 4, p); R_DECL(w, p);
    for (int i = 0; i < 5; i++) r_set_si(d + i, 2);
    for (int i = 0; i < 4; i++) r_set_si(e + i, -1);
    r_set_si(b + 4, 6);
    ok(CL_FN(cl_tridiag_spd_solve)(x, c, d, e, b, 5) == CL_OK, "tridiagonal SPD solve succeeds [%s]", TEST_KIND);
    ok(CL_FN(cl_tridiag_spd_solve)(b, c, d, e, b, 5) == CL_OK, "tridiagonal SPD solve in place succeeds [%s]", TEST_KIND);
    for (int i = 0; i < 5; i++) {
        r_set_si(w, i + 1);
        is_real(x + i, w, 64, "tridiag(-1,2,-1) x = (0,0,0,0,6): x_i = i");
        is_real(b + i, w, 64, "the same solve with x aliasing b");
    }
    /* [[1, 2], [2, 1]] is indefinite: its second pivot 1 − 4 = −3. */
    r_set_si(d, 1); r_set_si(d + 1, 1); r_set_si(e, 2);
    ok(CL_FN(cl_tridiag_spd_solve)(x, c, d, e, b, 2) == CL_ESINGULAR, "an indefinite tridiagonal matrix is refused [%s]", TEST_KIND);
}

static void run(cl_prec_t p)
{
    test_lu(p);
    test_det(p);
    test_lu_errors(p);
    test_qr(p);
    test_nullspace(p);
    test_inertia(p);
    test_eig_complex(p);
    test_eig_defective(p);
    test_thresholds(p);
    test_tridiag(p);
}

int main(void) { return cl_test_main(run); }

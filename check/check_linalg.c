/*
 * Checks of the small dense linear algebra: eigenvalues against closed forms
 * and exact integer constructions, an LU inverse against the exact integer
 * inverse, a null space of an integer rank-deficient matrix, and an inertia
 * by Sylvester's law. Discrepancies are divided by the condition of the
 * compared quantity (computed from closed forms), so the stated factor is
 * the backward-error constant of the algorithm alone.
 */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "linalg.h"
#include "linalg_cases_impl.h"
#include "energy_casimir.h"

/* tridiag(−1, 2, −1), n = 20: eigenvalues 2 − 2cos(kπ/21); normal, κ = 1. */
static int linalg_eig_tridiag_run(cl_check_result *res, cl_prec_t prec)
{
    enum { n = 20 };
    rptr M = CL_FN(cl_rvec_new)(n * n, prec), w = CL_FN(cl_rvec_new)(3 * n, prec);
    if (!M || !w) { CL_FN(cl_rvec_free)(M); CL_FN(cl_rvec_free)(w); return CL_ENOMEM; }
    rptr wr = w, wi = w + n, ex = w + 2 * n;
    R_DECL(t, prec);
    for (int i = 0; i < n; i++) {
        r_set_si(M + i * n + i, 2);
        if (i > 0) r_set_si(M + i * n + i - 1, -1);
        if (i + 1 < n) r_set_si(M + i * n + i + 1, -1);
    }
    for (int k = 1; k <= n; k++) {
        r_const_pi(t);
        r_mul_si(t, t, k);
        r_div_si(t, t, n + 1);
        r_cos(t, t);
        r_mul_si(t, t, -2);
        r_add_si(ex + k - 1, t, 2);
    }
    cl_check_begin(res);
    int st = CL_FN(cl_eig)(wr, wi, M, n);
    if (st == CL_OK) {
        double e = CL_FN(cl_rvec_log2_maxdiff)(wr, ex, n), f = CL_FN(cl_rvec_log2_maxabs)(wi, n);
        cl_check_worst(res, (f > e ? f : e) - 2.0, NULL); /* relative to ‖A‖₂ ≤ 4 */
    }
    CL_FN(cl_rvec_free)(M);
    CL_FN(cl_rvec_free)(w);
    return st;
}

CL_CHECK(linalg_eig_tridiag, "core.linalg.eig_tridiag", .chapter = "core", .tags = "", .what = "eigenvalues of tridiag(-1,2,-1), n = 20, against 2 - 2cos(k pi/21), relative to ||A|| = 4", .cond = 320, .why = "symmetric (kappa = 1); Hessenberg + Francis QR backward error about 16 n u ||A||")
{
    return linalg_eig_tridiag_run(res, prec);
}

/* Companion matrix of (x+3)(x+1)(x−1)(x−2)(x−4): |λ_i − r_i| / (κ_i ‖C‖_F),
   κ_i = ‖v‖‖w‖/|p'(r_i)| from the right eigenvector (1, λ, …, λ⁴) and the left
   one (coefficients of p(x)/(x − λ)). */
static int linalg_eig_companion_run(cl_check_result *res, cl_prec_t prec)
{
    enum { n = 5 };
    static const long roots[n] = {-3, -1, 1, 2, 4};
    long c[n + 1] = {1};
    for (int i = 0; i < n; i++) {
        for (int k = i + 1; k >= 1; k--) c[k] = c[k - 1] - roots[i] * c[k];
        c[0] = -roots[i] * c[0];
    }
    RV_DECL(C, n * n, prec); RV_DECL(wr, n, prec); RV_DECL(wi, n, prec);
    R_DECL(d, prec);
    for (int i = 0; i + 1 < n; i++) r_set_si(C + i * n + i + 1, 1);
    for (int j = 0; j < n; j++) r_set_si(C + (n - 1) * n + j, -c[j]);
    double cn = n - 1;
    for (int j = 0; j < n; j++) cn += (double)c[j] * (double)c[j];
    cn = sqrt(cn);
    int st = CL_FN(cl_eig)(wr, wi, C, n);
    if (st) return st;
    cl_check_begin(res);
    for (int i = 0; i < n; i++) {
        double lam = (double)roots[i], v2 = 0, w2 = 1, q = 1, dp = 1;
        for (int k = 0; k < n; k++) v2 += pow(lam, 2 * k);
        for (int k = n - 1; k >= 1; k--) { q = (double)c[k] + lam * q; w2 += q * q; }
        for (int j = 0; j < n; j++) if (j != i) dp *= lam - (double)roots[j];
        double kappa = sqrt(v2 * w2) / fabs(dp);
        r_add_si(d, wr + i, -roots[i]);
        double e = r_log2abs(d), f = r_log2abs(wi + i);
        if (f > e) e = f;
        cl_check_worst(res, e - log2(kappa * cn), "worst at root %ld (kappa %.0f)", roots[i], kappa);
    }
    return CL_OK;
}

CL_CHECK(linalg_eig_companion, "core.linalg.eig_companion", .chapter = "core", .tags = "", .what = "eigenvalues of the companion matrix of (x+3)(x+1)(x-1)(x-2)(x-4) against its roots, over kappa_i ||C||_F", .cond = 80, .why = "error divided by the closed-form eigenvalue condition; backward error about 16 n u ||C||")
{
    return linalg_eig_companion_run(res, prec);
}

/* Integer A = L U (L unit lower, U upper with unit diagonal): the inverse by
   lu_factor + lu_solve against the exact integer U⁻¹L⁻¹, relative to
   κ∞(A)·‖A⁻¹‖∞. */
static int linalg_lu_inverse_run(cl_check_result *res, cl_prec_t prec)
{
    enum { n = 5 };
    static const long L[25] = {1, 0, 0, 0, 0, 3, 1, 0, 0, 0, -2, 1, 1, 0, 0, 1, -3, 2, 1, 0, 2, 1, -1, 3, 1};
    static const long U[25] = {1, -2, 1, 3, 0, 0, 1, 2, -1, 1, 0, 0, 1, 2, -3, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1};
    long A[25], Li[25], Ui[25], Ai[25];
    lin_imul(A, L, U, n, n, n);
    lin_itri_inv(Li, L, n, 1); /* exact inverses by substitution (unit diagonals) */
    lin_itri_inv(Ui, U, n, 0);
    lin_imul(Ai, Ui, Li, n, n, n);
    double an = lin_inorm_inf(A, n, n), ain = lin_inorm_inf(Ai, n, n);
    RV_DECL(M, n * n, prec); RV_DECL(X, n * n, prec); RV_DECL(Xe, n * n, prec);
    int perm[n];
    lin_set_int(M, A, n * n);
    lin_set_int(Xe, Ai, n * n);
    int st = CL_FN(cl_lu_factor)(M, perm, n);
    if (st) return st;
    CL_FN(cl_mat_identity)(X, n);
    st = CL_FN(cl_lu_solve)(M, perm, X, n, n);
    if (st) return st;
    cl_check_begin(res);
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(X, Xe, n * n) - log2(an * ain * ain), "kappa_inf(A) = %.0f",
                   an * ain);
    return CL_OK;
}

CL_CHECK(linalg_lu_inverse, "core.linalg.lu_inverse", .chapter = "core", .tags = "", .what = "inverse of an integer L U by lu_factor + lu_solve against the exact integer inverse, over kappa ||A^-1||", .cond = 40, .why = "forward error of a backward-stable solve, about 8 n u times the condition")
{
    return linalg_lu_inverse_run(res, prec);
}

/* Null space of an integer 5×7 matrix of rank 3: max(|A N|/‖A‖_max, |NᵀN − I|),
   and the dimension must be 4. */
static int linalg_nullspace_run(cl_check_result *res, cl_prec_t prec)
{
    long A[35];
    lin_rank3_5x7(A);
    RV_DECL(M, 35, prec); RV_DECL(N, 49, prec); RV_DECL(Nt, 49, prec);
    RV_DECL(AN, 35, prec); RV_DECL(G, 49, prec);
    lin_set_int(M, A, 35);
    int k = 0;
    int st = CL_FN(cl_nullspace)(N, &k, M, 5, 7, 0);
    if (st) return st;
    cl_check_begin(res);
    if (k != 4) {
        cl_check_worst(res, INFINITY, "dimension %d instead of 4", k);
        return CL_OK;
    }
    CL_FN(cl_mat_mul)(AN, M, N, 5, 7, k);
    double e = CL_FN(cl_rvec_log2_maxabs)(AN, (size_t)5 * k) - CL_FN(cl_rvec_log2_maxabs)(M, 35);
    CL_FN(cl_mat_transpose)(Nt, N, 7, k);
    CL_FN(cl_mat_mul)(G, Nt, N, k, 7, k);
    for (int i = 0; i < k; i++) r_add_si(G + i * k + i, G + i * k + i, -1);
    double f = CL_FN(cl_rvec_log2_maxabs)(G, (size_t)k * k);
    cl_check_worst(res, f > e ? f : e, NULL);
    return CL_OK;
}

CL_CHECK(linalg_nullspace, "core.linalg.nullspace", .chapter = "core", .tags = "", .what = "null space of an integer 5x7 matrix of rank 3: dimension 4, A N = 0 relative to ||A||, N^T N = I", .cond = 196, .why = "up to 7 Householder reflections of length 7, each orthogonal to O(n u): 4 n^2")
{
    return linalg_nullspace_run(res, prec);
}

/* Sylvester: S D Sᵀ with D = diag(3, −2, 0, 1, −5, 0, 2) has inertia (3, 2, 2),
   and [[0, B], [Bᵀ, 0]] with B of rank 2 (all pivots 2×2) has (2, 2, 2). */
static int linalg_inertia_run(cl_check_result *res, cl_prec_t prec)
{
    RV_DECL(A, 49, prec);
    int a, b, c;
    cl_check_begin(res);
    lin_sylvester_7(A);
    int st = CL_FN(cl_sym_inertia)(&a, &b, &c, A, 7, 0);
    if (st) return st;
    if (!(a == 3 && b == 2 && c == 2)) cl_check_worst(res, 0.0, "S D S^T gave (%d, %d, %d)", a, b, c);
    lin_zero_b_bt(A, lin_rank2_3x3);
    st = CL_FN(cl_sym_inertia)(&a, &b, &c, A, 6, 0);
    if (st) return st;
    if (!(a == 2 && b == 2 && c == 2)) cl_check_worst(res, 0.0, "[[0,B],[B^T,0]] gave (%d, %d, %d)", a, b, c);
    return CL_OK;
}

CL_CHECK(linalg_inertia, "core.linalg.inertia", .chapter = "core", .tags = "", .what = "inertia of S D S^T equals the signs of D (Sylvester), and of [[0,B],[B^T,0]] with 2x2 pivots", .cond = 1, .why = "integer counts: yes/no", .kind = CL_CHECK_EXACT)
{
    return linalg_inertia_run(res, prec);
}

/* 2I plus the cyclic shift of R^n (n = 3, 4, 6): a normal matrix whose
 * eigenvalues are 2 + the n-th roots of unity, and on which the Francis
 * double-shift QR stalls (both shifts of its trailing 2x2 are 2, and the
 * shifted matrix is orthogonal), so the exceptional shifts of cl_eig, of
 * size 2, must act and be added back. Each expected eigenvalue against the
 * nearest one found, and each one found against the nearest expected. */
static int linalg_eig_cyclic_run(cl_check_result *res, cl_prec_t prec)
{
    static const int sizes[3] = {3, 4, 6};
    RV_DECL(C, 36, prec); RV_DECL(wr, 6, prec); RV_DECL(wi, 6, prec); RV_DECL(zr, 6, prec); RV_DECL(zi, 6, prec);
    R_DECL(a, prec); R_DECL(b, prec); R_DECL(pi2, prec);
    cl_check_begin(res);
    for (int s = 0; s < 3; s++) {
        const int n = sizes[s];
        for (int i = 0; i < n * n; i++) r_set_zero(C + i);
        for (int i = 0; i < n; i++) {
            r_set_si(C + ((i + 1) % n) * n + i, 1);
            r_set_si(C + i * n + i, 2);
        }
        int st = CL_FN(cl_eig)(wr, wi, C, n);
        if (st) return st;
        r_const_pi(pi2);
        r_mul_2si(pi2, pi2, 1);
        for (int k = 0; k < n; k++) {
            r_mul_si(a, pi2, k);
            r_div_si(a, a, n);
            r_cos(zr + k, a);
            r_add_si(zr + k, zr + k, 2);
            r_sin(zi + k, a);
        }
        for (int dir = 0; dir < 2; dir++) {
            rsrc xr = dir ? wr : zr, xi = dir ? wi : zi, yr = dir ? zr : wr, yi = dir ? zi : wi;
            for (int k = 0; k < n; k++) {
                double best = INFINITY;
                for (int j = 0; j < n; j++) {
                    r_sub(a, xr + k, yr + j);
                    r_sub(b, xi + k, yi + j);
                    double e = fmax(r_log2abs(a), r_log2abs(b));
                    if (e < best || isnan(e)) best = e;
                }
                cl_check_worst(res, best, "n = %d, %s %d", n, dir ? "eigenvalue" : "root", k);
            }
        }
    }
    return CL_OK;
}

CL_CHECK(linalg_eig_cyclic, "core.linalg.eig_cyclic", .chapter = "core", .tags = "", .what = "eigenvalues of 2I + the cyclic shift of R^n, n = 3, 4, 6 (QR stalls without exceptional shifts), against 2 + the n-th roots of unity, both ways (condition 1: normal matrix)", .cond = 256, .why = "backward error about 16 n u ||C|| with ||C||_2 = 3 and eigenvalue condition 1")
{
    return linalg_eig_cyclic_run(res, prec);
}

/* The Energy–Casimir procedure of src/energy_casimir.c on a synthetic case
 * with closed forms (n = 4, k = 2): DC₁ = e₁, DC₂ = e₁ + e₂, D²ℰ = D²C_j = I.
 * For Dℰ = s(2, 3, 4, 12) the least-squares multipliers are c = s(1, −3),
 * the residual ‖Dℰ + Σc_jDC_j‖ = s√160 over max(1, ‖Dℰ‖ = s√173), and the
 * restricted Hessian is (1 + c₁ + c₂)I on span{e₃, e₄}: for s = 1 the
 * eigenvalues −1 (negative definite), for s = 1/100 0.98 (positive). */
static int linalg_energy_casimir_run(cl_check_result *res, cl_prec_t prec)
{
    enum { n = 4, k = 2 };
    RV_DECL(DE, n, prec); RV_DECL(DC, k * n, prec); RV_DECL(HE, n * n, prec); RV_DECL(HC, k * n * n, prec);
    RV_DECL(c, k, prec); RV_DECL(eig, n - k, prec); RV_DECL(want, 2, prec);
    static const long de[n] = {2, 3, 4, 12};
    cl_check_begin(res);
    for (int i = 0; i < n * n; i++) r_set_zero(HE + i);
    for (int i = 0; i < k * n * n; i++) r_set_zero(HC + i);
    for (int i = 0; i < k * n; i++) r_set_zero(DC + i);
    for (int i = 0; i < n; i++) {
        r_set_si(HE + i * n + i, 1);
        for (int j = 0; j < k; j++) r_set_si(HC + j * n * n + i * n + i, 1);
    }
    r_set_si(DC, 1);
    r_set_si(DC + n, 1);
    r_set_si(DC + n + 1, 1);
    for (int s = 0; s < 2; s++) {
        const long den = s ? 100 : 1;
        for (int i = 0; i < n; i++) r_set_q(DE + i, de[i], den);
        cl_ec_report rep;
        int st = CL_FN(cl_energy_casimir)(&rep, c, NULL, NULL, eig, DE, DC, HE, HC, n, k, 0.0);
        if (st) return st;
        r_set_q(want, 1, den);
        r_set_q(want + 1, -3, den);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(c, want, 2), "multipliers, s = 1/%ld", den);
        r_set_q(want, den - 2, den);
        r_set(want + 1, want);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(eig, want, 2), "eigenvalues, s = 1/%ld", den);
        /* residual: √160/√173 (s = 1) or √160/100 (s = 1/100), as the double the report holds */
        double expect = s ? 0.5 * log2(160.0) - log2(100.0) : 0.5 * (log2(160.0) - log2(173.0));
        if (!(fabs(rep.log2_residual - expect) <= 0x1p-40))
            cl_check_worst(res, INFINITY, "residual 2^%.6f, expected 2^%.6f, s = 1/%ld", rep.log2_residual, expect, den);
        if (rep.definite != (s ? 1 : -1))
            cl_check_worst(res, INFINITY, "definiteness %d, s = 1/%ld", rep.definite, den);
    }
    return CL_OK;
}

CL_CHECK(linalg_energy_casimir, "core.energy_casimir.synthetic", .chapter = "core", .tags = "[SKATE App. A.1]", .what = "Energy-Casimir test on DC = (e1, e1 + e2), D2E = D2C = I, DE = s(2,3,4,12), s = 1 and 1/100: multipliers s(1, -3) and restricted eigenvalues 1 - 2s against closed forms (relative); the reported residual sqrt(160)/sqrt(173) and sqrt(160)/100 (a double: within 2^-40) and the definiteness", .cond = 64, .why = "a 4x2 Householder QR and a 2x2 back substitution of integers, a 4x4 null space and a 2x2 eigenproblem")
{
    return linalg_energy_casimir_run(res, prec);
}

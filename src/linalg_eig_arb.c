/* Eigenvalues of a general matrix of balls (semantics in linalg_decl.h):
   Rump's verified enclosures around Arb's QR approximation, as Arb's
   acb_mat_eig_multiple does (simple eigenvalues isolated, clusters sharing
   one enclosure). Compiled for the ball kind only. */
#include <stdlib.h>
#include <acb_mat.h>
#include "linalg_impl.h"

/* The mean μ of the cluster's k approximations Ea[idx[0..k)], as a midpoint. */
static void cluster_mean(acb_t mu, acb_srcptr Ea, const int *idx, int k, slong prec)
{
    for (int i = 0; i < k; i++) acb_add(mu, mu, Ea + idx[i], prec);
    acb_div_si(mu, mu, k, prec);
    acb_get_mid(mu, mu);
}

/* The midpoint matrix (M − μI)^k in MPFR into P; B and T are n×n scratch,
   m one scalar. */
static void shifted_power_mp(mpfr_ptr P, mpfr_ptr B, mpfr_ptr T, mpfr_ptr m, const acb_mat_t M, const acb_t mu,
                             int k, int n)
{
    size_t nn = (size_t)n * (size_t)n;
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
}

/* An approximate basis X (n×k) of the invariant subspace of a real cluster:
   the null space of the midpoint matrix (M − μI)^k in MPFR. 0, CL_ENOMEM or
   CL_EUNDECIDED (not of dimension k). */
static int cluster_basis_nullspace(acb_mat_t X, const acb_mat_t M, const acb_t mu, int k, int n, slong prec)
{
    size_t nn = (size_t)n * (size_t)n;
    int st = CL_OK;
    mpfr_ptr B = cl_rvec_new_mp(3 * nn + 1, prec);
    /* the null space at half the precision: its default rank tolerance,
       16·n·2^(1−p/2) relative, resolves the cluster to about half the digits */
    mpfr_ptr N = cl_rvec_new_mp(nn, prec - prec / 2);
    if (!B || !N) st = CL_ENOMEM;
    else {
        mpfr_ptr P = B + nn;
        shifted_power_mp(P, B, B + 2 * nn, B + 3 * nn, M, mu, k, n);
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
    return st;
}

/* The approximate basis X of the cluster: the eigenvector from the QR
   approximation R when k = 1, else (μ real) the null space above. */
static int cluster_basis(acb_mat_t X, const acb_mat_t M, const acb_mat_t R, const acb_t mu, const int *idx, int k,
                         int n, slong prec)
{
    if (k == 1) {
        for (int i = 0; i < n; i++) acb_get_mid(acb_mat_entry(X, i, 0), acb_mat_entry(R, i, idx[0]));
        return CL_OK;
    }
    if (!arb_is_zero(acb_imagref(mu)) && arf_cmpabs_2exp_si(arb_midref(acb_imagref(mu)), -(slong)prec / 2) > 0)
        return CL_EUNDECIDED; /* a multiple complex eigenvalue: not handled */
    return cluster_basis_nullspace(X, M, mu, k, n, prec);
}

/* Rows on which X (n×k) is well conditioned, by elimination with partial
   pivoting on the midpoints in double: perm lists the other rows first and
   those k last. 0 or CL_ENOMEM. */
static int well_conditioned_rows(int *perm, const acb_mat_t X, int k, int n)
{
    int *fro = malloc(sizeof(int) * (size_t)n);
    double *w = malloc(sizeof(double) * (size_t)(n * k));
    if (!fro || !w) {
        free(fro); free(w);
        return CL_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        fro[i] = 0;
        for (int j = 0; j < k; j++)
            w[i * k + j] = arf_get_d(arb_midref(acb_realref(acb_mat_entry(X, i, j))), ARF_RND_NEAR);
    }
    for (int j = 0; j < k; j++) {
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
    int a = 0;
    for (int i = 0; i < n; i++) if (!fro[i]) perm[a++] = i;
    for (int i = 0; i < n; i++) if (fro[i]) perm[a++] = i;
    free(fro); free(w);
    return CL_OK;
}

/* Rump's enclosure lam of the cluster of M around mu with basis X, given to
   each of its k members in E. */
static int enclose(acb_ptr E, acb_t lam, const acb_mat_t M, const acb_t mu, const acb_mat_t X, const int *idx,
                   int k, slong prec)
{
    acb_mat_t J, Xo;
    acb_mat_init(J, k, k);
    acb_mat_init(Xo, acb_mat_nrows(X), k);
    acb_mat_eig_enclosure_rump(lam, J, Xo, M, mu, X, prec);
    int st = acb_is_finite(lam) ? CL_OK : CL_EUNDECIDED;
    for (int i = 0; i < k; i++) acb_set(E + idx[i], lam);
    acb_mat_clear(J); acb_mat_clear(Xo);
    return st;
}

/* Arb freezes the last k rows of X: move k rows on which X is well
   conditioned there, by the same permutation similarity of M, and enclose. */
static int enclose_permuted(acb_ptr E, acb_t lam, const acb_mat_t M, const acb_t mu, const acb_mat_t X,
                            const int *idx, int k, int n, slong prec)
{
    int *perm = malloc(sizeof(int) * (size_t)n);
    int st = perm ? well_conditioned_rows(perm, X, k, n) : CL_ENOMEM;
    if (st == CL_OK) {
        acb_mat_t Mp, Xp;
        acb_mat_init(Mp, n, n); acb_mat_init(Xp, n, k);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) acb_set(acb_mat_entry(Mp, i, j), acb_mat_entry(M, perm[i], perm[j]));
            for (int j = 0; j < k; j++) acb_set(acb_mat_entry(Xp, i, j), acb_mat_entry(X, perm[i], j));
        }
        st = enclose(E, lam, Mp, mu, Xp, idx, k, prec);
        acb_mat_clear(Mp); acb_mat_clear(Xp);
    }
    free(perm);
    return st;
}

/* Enclose the cluster of k approximate eigenvalues Ea[idx[0..k)] of M by
   Rump's method (acb_mat_eig_enclosure_rump) around their mean μ, with an
   approximate basis X of the invariant subspace (cluster_basis()).
   0, or CL_EUNDECIDED. */
static int eig_cluster(acb_ptr E, const acb_mat_t M, acb_srcptr Ea, const acb_mat_t R, const int *idx, int k, int n,
                       slong prec)
{
    acb_t mu, lam;
    acb_mat_t X;
    acb_init(mu); acb_init(lam);
    acb_mat_init(X, n, k);
    cluster_mean(mu, Ea, idx, k, prec);
    int st = cluster_basis(X, M, R, mu, idx, k, n, prec);
    if (st == CL_OK && k > 1) st = enclose_permuted(E, lam, M, mu, X, idx, k, n, prec);
    else if (st == CL_OK) st = enclose(E, lam, M, mu, X, idx, k, prec);
    acb_clear(mu); acb_clear(lam);
    acb_mat_clear(X);
    return st;
}

/* Gather into idx the cluster of approximation i: the chain of those within
   tol of a member, not yet in a cluster; mark them done[j] = c. Its size. */
static int gather_cluster(int *idx, int *done, acb_srcptr Ea, int i, int c, const mag_t tol, int n, slong prec)
{
    acb_t t;
    mag_t d;
    acb_init(t);
    mag_init(d);
    int k = 0;
    idx[k++] = i;
    done[i] = c;
    for (int a = 0; a < k; a++)
        for (int j = 0; j < n; j++) {
            if (done[j]) continue;
            acb_sub(t, Ea + idx[a], Ea + j, prec);
            acb_get_mag(d, t);
            if (mag_cmp(d, tol) <= 0) { idx[k++] = j; done[j] = c; }
        }
    acb_clear(t);
    mag_clear(d);
    return k;
}

/* The cluster tolerance 2^(−p/2)·max(1, max|λ|) over the approximations. */
static void cluster_tolerance(mag_t tol, acb_srcptr Ea, int n, slong prec)
{
    mag_t d, big;
    mag_init(d); mag_init(big);
    mag_one(big);
    for (int i = 0; i < n; i++) {
        acb_get_mag(d, Ea + i);
        mag_max(big, big, d);
    }
    mag_mul_2exp_si(tol, big, -(slong)prec / 2);
    mag_clear(d); mag_clear(big);
}

/* When the approximations are not all isolated: enclose each cluster (chains
   of approximations within the tolerance of each other); the n eigenvalues
   are proven only when the enclosures of different clusters are disjoint. */
static int eig_clusters(acb_ptr E, const acb_mat_t M, acb_srcptr Ea, const acb_mat_t R, int n, slong prec)
{
    int *idx = malloc(2 * sizeof(int) * (size_t)n), *done = idx ? idx + n : NULL;
    if (!idx) return CL_ENOMEM;
    mag_t tol;
    mag_init(tol);
    cluster_tolerance(tol, Ea, n, prec);
    for (int i = 0; i < n; i++) done[i] = 0;
    int ncl = 0, st = CL_OK; /* done[j]: the number of j's cluster, from 1 */
    for (int i = 0; i < n && st == CL_OK; i++) {
        if (done[i]) continue;
        int k = gather_cluster(idx, done, Ea, i, ++ncl, tol, n, prec);
        st = eig_cluster(E, M, Ea, R, idx, k, n, prec);
    }
    for (int i = 0; i < n && st == CL_OK; i++)
        for (int j = i + 1; j < n && st == CL_OK; j++)
            if (done[i] != done[j] && acb_overlaps(E + i, E + j)) st = CL_EUNDECIDED;
    mag_clear(tol);
    free(idx);
    return st;
}

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
    if (!acb_mat_eig_simple(E, NULL, NULL, M, Ea, R, prec)) st = eig_clusters(E, M, Ea, R, n, prec);
    if (st == CL_OK) {
        for (int i = 0; i < n; i++) {
            arb_set(wr + i, acb_realref(E + i));
            arb_set(wi + i, acb_imagref(E + i));
        }
        CL_FN(cl_eig_sort)(wr, wi, n);
    }
    acb_mat_clear(M);
    acb_mat_clear(R);
    _acb_vec_clear(E, n);
    _acb_vec_clear(Ea, n);
    return st;
}

/* The Energy–Casimir test: least-squares multipliers, null space, restricted Hessian, inertia. */
#include "scalar.h"
#include "linalg.h"
#include "energy_casimir.h"

int CL_FN(cl_energy_casimir)(cl_ec_report *rep, rptr c, rptr Z, rptr Hr, rptr eig,
                             rsrc DE, rsrc DC, rsrc HE, rsrc HC, int n, int k, double zero_tol)
{
    if (n < 1 || n > CL_EC_NMAX || k < 0 || k >= n) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(DE, (size_t)n) || !CL_FN(cl_rvec_is_finite)(HE, (size_t)(n * n)) ||
        (k && (!CL_FN(cl_rvec_is_finite)(DC, (size_t)(k * n)) ||
               !CL_FN(cl_rvec_is_finite)(HC, (size_t)(k * n * n)))))
        return CL_ENAN;
    cl_prec_t p = r_prec(DE);
    const int d = n - k, kk = k ? k : 1;
    RV_DECL(A, n * kk, p); RV_DECL(R, n * kk, p); RV_DECL(Q, n * n, p); RV_DECL(b, n, p);
    RV_DECL(N, n * n, p); RV_DECL(H, n * n, p); RV_DECL(HN, n * d, p); RV_DECL(Hs, d * d, p);
    RV_DECL(wr, d, p); RV_DECL(wi, d, p); RV_DECL(cc, kk, p);
    R_DECL(t, p); R_DECL(x, p); R_DECL(rmax, p); R_DECL(rmin, p);
    int st;
    /* A = [DC₁ … DC_k] (n×k) = Q R */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++) r_set(A + i * kk + j, DC + j * n + i);
    if (k) {
        if ((st = CL_FN(cl_qr)(Q, R, A, n, k))) return st;
    } else {
        for (int i = 0; i < n; i++) r_set_si(Q + i * n + i, 1);
    }
    /* independence of the DC_j: the diagonal of R */
    rep->log2_indep = 0.0;
    if (k) {
        r_abs(rmax, R); r_abs(rmin, R);
        for (int j = 1; j < k; j++) {
            r_abs(t, R + j * kk + j);
            if (r_cmp(t, rmax) > 0) r_set(rmax, t);
            if (r_cmp(t, rmin) < 0) r_set(rmin, t);
        }
        if (r_is_zero(rmin)) return CL_ESINGULAR;
        r_div(t, rmin, rmax);
        rep->log2_indep = r_log2abs(t);
        if (rep->log2_indep <= log2(64.0 * n) + 1.0 - (double)p) return CL_ESINGULAR;
    }
    /* b = Qᵀ Dℰ; c = −R⁻¹ b[0..k); residual ‖b[k..n)‖ relative to max(1, ‖Dℰ‖) */
    for (int i = 0; i < n; i++) {
        r_set_zero(t);
        for (int q = 0; q < n; q++) r_addmul(t, Q + q * n + i, DE + q);
        r_set(b + i, t);
    }
    for (int j = k - 1; j >= 0; j--) {
        r_set(t, b + j);
        for (int q = j + 1; q < k; q++) r_addmul(t, R + j * kk + q, cc + q);
        r_div(t, t, R + j * kk + j);
        r_neg(cc + j, t);
    }
    r_set_zero(t);
    for (int i = k; i < n; i++) r_addmul(t, b + i, b + i);
    r_sqrt(t, t);
    r_set_zero(x);
    for (int i = 0; i < n; i++) r_addmul(x, DE + i, DE + i);
    r_sqrt(x, x);
    if (r_cmp_d(x, 1.0) > 0) r_div(t, t, x);
    rep->log2_residual = r_log2abs(t);
    rep->critical = rep->log2_residual <= cl_ec_critical_log2((long)p);
    /* Z: orthonormal basis of ker [DC_j]ᵀ (rows DC_j) */
    int dn = 0;
    if ((st = CL_FN(cl_nullspace)(N, &dn, DC, k, n, 0))) return st;
    if (dn != d) return CL_ESINGULAR;
    /* ℋ = HE + Σ c_j HC_j, Hs = Zᵀℋ Z */
    for (int i = 0; i < n * n; i++) {
        r_set(H + i, HE + i);
        for (int j = 0; j < k; j++) r_addmul(H + i, cc + j, HC + j * n * n + i);
    }
    for (int i = 0; i < n; i++)
        for (int a = 0; a < d; a++) {
            r_set_zero(t);
            for (int q = 0; q < n; q++) r_addmul(t, H + i * n + q, N + q * d + a);
            r_set(HN + i * d + a, t);
        }
    for (int a = 0; a < d; a++)
        for (int bb = 0; bb < d; bb++) {
            r_set_zero(t);
            for (int i = 0; i < n; i++) r_addmul(t, N + i * d + a, HN + i * d + bb);
            r_set(Hs + a * d + bb, t);
        }
    for (int a = 0; a < d; a++)
        for (int bb = a + 1; bb < d; bb++) {
            r_add(t, Hs + a * d + bb, Hs + bb * d + a);
            r_mul_2si(t, t, -1);
            r_set(Hs + a * d + bb, t);
            r_set(Hs + bb * d + a, t);
        }
    rep->n = n; rep->k = k; rep->d = d;
    st = CL_FN(cl_sym_inertia)(&rep->npos, &rep->nneg, &rep->nzero, Hs, d, zero_tol > 0 ? zero_tol : 1e-300);
    if (st && st != CL_EUNDECIDED) return st;
    rep->undecided = st ? rep->nzero : 0;
    rep->definite = rep->npos == d ? 1 : rep->nneg == d ? -1 : 0;
    if (eig) {
        if ((st = CL_FN(cl_eig)(wr, wi, Hs, d))) return st;
        CL_FN(cl_rvec_copy)(eig, wr, (size_t)d);
    }
    if (Hr) CL_FN(cl_rvec_copy)(Hr, Hs, (size_t)(d * d));
    if (Z) CL_FN(cl_rvec_copy)(Z, N, (size_t)(n * d));
    if (k) CL_FN(cl_rvec_copy)(c, cc, (size_t)k);
    return CL_OK;
}

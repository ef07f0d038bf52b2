/* The Energy–Casimir test: least-squares multipliers, null space, restricted Hessian, inertia. */
#include "scalar.h"
#include "energy_casimir.h"

int CL_FN(cl_sym_eig_jacobi)(rptr eig, rptr A, int d)
{
    cl_prec_t p = r_prec(A);
    R_DECL(off, p); R_DECL(nrm, p); R_DECL(th, p); R_DECL(t, p); R_DECL(c, p); R_DECL(s, p);
    R_DECL(x, p); R_DECL(y, p); R_DECL(eps, p);
    r_set_eps(eps);
    r_mul_2si(eps, eps, -1);
    int conv = 0;
    for (int sweep = 0; sweep < 200 && !conv; sweep++) {
        r_set_zero(off);
        r_set_zero(nrm);
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                r_sqr(t, A + i * d + j);
                r_add(nrm, nrm, t);
                if (i != j) r_add(off, off, t);
            }
        /* converged when the off-diagonal mass is below (2^−p ‖A‖_F)² */
        r_mul(t, eps, eps);
        r_mul(t, t, nrm);
        if (r_cmp(off, t) <= 0) { conv = 1; break; }
        for (int pp = 0; pp < d - 1; pp++)
            for (int q = pp + 1; q < d; q++) {
                if (r_is_zero(A + pp * d + q)) continue;
                /* θ = (a_qq − a_pp)/(2a_pq), t = sgn θ/(|θ| + √(θ²+1)) */
                r_sub(th, A + q * d + q, A + pp * d + pp);
                r_div(th, th, A + pp * d + q);
                r_mul_2si(th, th, -1);
                r_sqr(t, th);
                r_add_si(t, t, 1);
                r_sqrt(t, t);
                r_abs(x, th);
                r_add(t, t, x);
                r_si_div(t, 1, t);
                if (r_sgn(th) < 0) r_neg(t, t);
                r_sqr(c, t);
                r_add_si(c, c, 1);
                r_sqrt(c, c);
                r_si_div(c, 1, c);
                r_mul(s, t, c);
                for (int r = 0; r < d; r++) {
                    r_set(x, A + r * d + pp);
                    r_set(y, A + r * d + q);
                    r_mul(A + r * d + pp, c, x); r_submul(A + r * d + pp, s, y);
                    r_mul(A + r * d + q, c, y); r_addmul(A + r * d + q, s, x);
                }
                for (int r = 0; r < d; r++) {
                    r_set(x, A + pp * d + r);
                    r_set(y, A + q * d + r);
                    r_mul(A + pp * d + r, c, x); r_submul(A + pp * d + r, s, y);
                    r_mul(A + q * d + r, c, y); r_addmul(A + q * d + r, s, x);
                }
            }
    }
    if (!conv) return CL_ENOCONV;
    for (int i = 0; i < d; i++) r_set(eig + i, A + i * d + i);
    for (int i = 1; i < d; i++)
        for (int j = i; j > 0 && r_cmp(eig + j - 1, eig + j) > 0; j--) r_swap(eig + j - 1, eig + j);
    return CL_OK;
}

int CL_FN(cl_energy_casimir)(cl_ec_report *rep, rptr c, rptr Z, rptr Hr, rptr eig,
                             rsrc DE, rsrc DC, rsrc HE, rsrc HC, int n, int k, double zero_tol)
{
    if (n < 1 || n > CL_EC_NMAX || k < 0 || k >= n) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(DE, (size_t)n) || !CL_FN(cl_rvec_is_finite)(HE, (size_t)(n * n)) ||
        (k && (!CL_FN(cl_rvec_is_finite)(DC, (size_t)(k * n)) ||
               !CL_FN(cl_rvec_is_finite)(HC, (size_t)(k * n * n)))))
        return CL_ENAN;
    cl_prec_t p = r_prec(DE);
    const int d = n - k;
    RV_DECL(A, n * (k ? k : 1), p); RV_DECL(Q, n * n, p); RV_DECL(v, n, p); RV_DECL(b, n, p);
    RV_DECL(H, n * n, p); RV_DECL(HZ, n * d, p); RV_DECL(R, d * d, p); RV_DECL(ev, d, p);
    RV_DECL(cc, k ? k : 1, p);
    R_DECL(t, p); R_DECL(al, p); R_DECL(beta, p); R_DECL(rmax, p); R_DECL(rmin, p); R_DECL(x, p);
    /* A = [DC₁ … DC_k] (n×k), Q = I */
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < k; j++) r_set(A + i * k + j, DC + j * n + i);
        r_set_si(Q + i * n + i, 1);
        r_set(b + i, DE + i);
    }
    /* Householder QR: A = Q R, Q accumulated; b ← Qᵀ Dℰ */
    for (int j = 0; j < k; j++) {
        r_set_zero(t);
        for (int i = j; i < n; i++) r_addmul(t, A + i * k + j, A + i * k + j);
        r_sqrt(al, t);
        if (r_is_zero(al)) return CL_ESINGULAR;
        if (r_sgn(A + j * k + j) > 0) r_neg(al, al);
        for (int i = 0; i < n; i++) r_set_zero(v + i);
        for (int i = j; i < n; i++) r_set(v + i, A + i * k + j);
        r_sub(v + j, v + j, al);
        r_set_zero(t);
        for (int i = j; i < n; i++) r_addmul(t, v + i, v + i);
        if (r_is_zero(t)) continue;
        r_si_div(beta, 2, t);
        for (int col = j; col < k; col++) {
            r_set_zero(t);
            for (int i = j; i < n; i++) r_addmul(t, v + i, A + i * k + col);
            r_mul(t, t, beta);
            for (int i = j; i < n; i++) r_submul(A + i * k + col, t, v + i);
        }
        r_set_zero(t);
        for (int i = j; i < n; i++) r_addmul(t, v + i, b + i);
        r_mul(t, t, beta);
        for (int i = j; i < n; i++) r_submul(b + i, t, v + i);
        for (int row = 0; row < n; row++) {
            r_set_zero(t);
            for (int i = j; i < n; i++) r_addmul(t, Q + row * n + i, v + i);
            r_mul(t, t, beta);
            for (int i = j; i < n; i++) r_submul(Q + row * n + i, t, v + i);
        }
    }
    /* independence of the DC_j */
    rep->log2_indep = 0.0;
    if (k) {
        r_abs(rmax, A); r_abs(rmin, A);
        for (int j = 1; j < k; j++) {
            r_abs(t, A + j * k + j);
            if (r_cmp(t, rmax) > 0) r_set(rmax, t);
            if (r_cmp(t, rmin) < 0) r_set(rmin, t);
        }
        if (r_is_zero(rmin)) return CL_ESINGULAR;
        r_div(t, rmin, rmax);
        rep->log2_indep = r_log2abs(t);
        if (rep->log2_indep <= log2(64.0 * n) + 1.0 - (double)p) return CL_ESINGULAR;
    }
    /* c = −R⁻¹ (Qᵀ Dℰ)[0..k), residual ‖(Qᵀ Dℰ)[k..n)‖ */
    for (int j = k - 1; j >= 0; j--) {
        r_set(t, b + j);
        for (int q = j + 1; q < k; q++) r_addmul(t, A + j * k + q, cc + q);
        r_div(t, t, A + j * k + j);
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
    /* ℋ = HE + Σ c_j HC_j, Hr = Zᵀℋ Z with Z = Q[:, k..n) */
    for (int i = 0; i < n * n; i++) {
        r_set(H + i, HE + i);
        for (int j = 0; j < k; j++) r_addmul(H + i, cc + j, HC + j * n * n + i);
    }
    for (int i = 0; i < n; i++)
        for (int a = 0; a < d; a++) {
            r_set_zero(t);
            for (int q = 0; q < n; q++) r_addmul(t, H + i * n + q, Q + q * n + k + a);
            r_set(HZ + i * d + a, t);
        }
    for (int a = 0; a < d; a++)
        for (int bb = 0; bb < d; bb++) {
            r_set_zero(t);
            for (int i = 0; i < n; i++) r_addmul(t, Q + i * n + k + a, HZ + i * d + bb);
            r_set(R + a * d + bb, t);
        }
    /* symmetrize against rounding */
    for (int a = 0; a < d; a++)
        for (int bb = a + 1; bb < d; bb++) {
            r_add(t, R + a * d + bb, R + bb * d + a);
            r_mul_2si(t, t, -1);
            r_set(R + a * d + bb, t);
            r_set(R + bb * d + a, t);
        }
    if (Hr) CL_FN(cl_rvec_copy)(Hr, R, (size_t)(d * d));
    if (Z)
        for (int i = 0; i < n; i++)
            for (int a = 0; a < d; a++) r_set(Z + i * d + a, Q + i * n + k + a);
    r_set_zero(rmax);
    for (int i = 0; i < d * d; i++) {
        r_abs(t, R + i);
        if (r_cmp(t, rmax) > 0) r_set(rmax, t);
    }
    int st = CL_FN(cl_sym_eig_jacobi)(ev, R, d);
    if (st) return st;
    /* zero threshold zero_tol·2^(1−p)·max|Hr| */
    r_set_eps(t);
    r_mul_d(t, t, zero_tol);
    r_mul(t, t, rmax);
    rep->n = n; rep->k = k; rep->d = d;
    rep->npos = rep->nneg = rep->nzero = 0;
    for (int a = 0; a < d; a++) {
        if (r_cmpabs(ev + a, t) <= 0) rep->nzero++;
        else if (r_sgn(ev + a) > 0) rep->npos++;
        else rep->nneg++;
    }
    rep->definite = rep->npos == d ? 1 : rep->nneg == d ? -1 : 0;
    if (eig) CL_FN(cl_rvec_copy)(eig, ev, (size_t)d);
    if (k) CL_FN(cl_rvec_copy)(c, cc, (size_t)k);
    return CL_OK;
}

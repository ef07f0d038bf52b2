/**
 * \file deriv.c
 * \brief Jacobian, gradient and Hessian accurate to the working precision, by
 *        Richardson extrapolation of central differences at raised precision.
 *
 * \section deriv_method Method
 * For a first derivative along coordinate j, the central difference
 * \f[ D(h) = \frac{f(x + h e_j) - f(x - h e_j)}{2h}
 *         = f'(x) + c_1 h^2 + c_2 h^4 + \dots \f]
 * is an even series in h. With the steps \f$h_k = 2^{-3-k}\f$ (k = 0, 1, …)
 * the Richardson table
 * \f[ T_{k,0} = D(h_k), \qquad
 *     T_{k,m} = T_{k,m-1} + \frac{T_{k,m-1} - T_{k-1,m-1}}{4^m - 1} \f]
 * removes one power of h² per column; its diagonal entry \f$T_{k,k}\f$ has
 * truncation error of order \f$\prod_{i\le k} h_i^2 = 2^{-6(k+1) - k(k+1)}\f$
 * times a Taylor coefficient of order 2k+3. The second derivatives use the
 * second central difference (diagonal) and the four-point difference
 * (off-diagonal), both even series in h too, with the same table.
 *
 * \section deriv_choice Choice of the steps, the table length and the precision
 * Let p be the target precision (53 for the double routines, the precision
 * of the output for the MPFR ones) and d the order of the derivative (1 or 2).
 *  - Steps are absolute powers of two, \f$h_k = 2^{-3-k}\f$, so x ± h_k is
 *    exact at the internal precision (below) and the only rounding is that of
 *    f. The first step 1/8 assumes f analytic in a complex neighbourhood of
 *    radius ≳ 1/4 of x in each coordinate; then the Taylor coefficients of
 *    order n are at most ~4ⁿ·max|f| and the truncation of \f$T_{k,k}\f$ is
 *    below \f$2^{-6(k+1)-k(k+1)+2(2k+3)}\f$ relative to f.
 *  - Rounding: f evaluated with relative error ≤ 2^10 ulps at precision P,
 *    differenced and divided by \f$h_k^d\f$, then combined by the table (whose
 *    weights sum to less than 2.2 in absolute value), gives at most
 *    \f$\rho_k = 2^{-P+12+d(3+k)}\max|f|\f$ in \f$T_{k,k}\f$.
 *  - The table stops at the first k ≥ 2 where every entry moved by
 *    \f$|T_{k,k} - T_{k-1,k-1}| \le \max(2^{-(p+8)}|T_{k,k}|,\ 4\rho_k)\f$
 *    (or by exactly 0), and has at most \f$K = \lceil\sqrt{p+8}\,\rceil + 4\f$
 *    rows. For a function with radius of analyticity 1/4 the truncation
 *    bound above is \f$2^{-(k^2+3k)}\f$, below \f$2^{-(p+8)}\f$ from row
 *    \f$\lceil\sqrt{p+8}\,\rceil\f$ on, so K leaves four rows of margin
 *    (for a smaller radius, or large high derivatives): 12 rows at p = 53,
 *    37 at p = 1024.
 *  - The internal precision is
 *    \f[ P = \max(p, p_x) + 32 + d\,(3 + K) + e_x + e_f \f]
 *    with p_x the precision of x, \f$e_x \ge 0\f$ a bound of the binary
 *    exponents of its entries (so that x ± h_k is exact whenever x_j has no
 *    bits below 2^(e_x − P); a tiny x_j with a full mantissa, 10⁻³⁰ in double
 *    say, makes x ± h_k round, which moves the point by at most
 *    2^(e_x − P) ≤ 2^(−p−35−K) and costs less than ρ_k) and
 *    \f$e_f \ge 0\f$ that of the values f(x) (read from one probe
 *    evaluation). Then \f$\rho_k \le 2^{-(p+20)}\max|f|/2^{e_f}\f$: the
 *    rounding stays 20 bits below the target in absolute terms for f of any
 *    size above 1 (so a large constant in f costs no accuracy) and relative to
 *    f below it. At p = 53 and |x|, |f| < 1/2 this is P = 100 for a Jacobian
 *    and P = 115 for a Hessian; at p = 1024 it is 1096 and 1136.
 *
 * Altogether a settled entry is within \f$2^{-p}|J| + 2^{-(p+8)}|J| +
 * 5\rho_k\f$ of the derivative: working precision relative to
 * \f$\max(|J|, 2^{-12}\max|f|/2^{e_f})\f$ — derivatives much smaller than
 * f itself are accurate in absolute terms only, as for any difference method.
 *
 * \section deriv_estimate Error estimate
 * The returned bound is \f$|T_{k,k} - T_{k-1,k-1}|\f$ (in the asymptotic
 * regime the error of \f$T_{k-1,k-1}\f$, so an over-estimate of that of
 * \f$T_{k,k}\f$) plus the rounding bound above plus the final rounding of the
 * result to p bits, \f$2^{-p}|T_{k,k}|\f$, rounded upwards.
 *
 * One workspace (a single allocation) per call holds everything at P; the
 * probe of f(x) that fixes \f$e_f\f$ uses one short-lived vector before it.
 */
#include <stdlib.h>
#include "scalar.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

/* ---------------------------------------------------------------- glue */
/* e_x: an upper bound of the binary exponents of the entries of x, ≥ 0. */
static long deriv_expmax_(rsrc x, size_t n)
{
    long ex = 0;
    for (size_t j = 0; j < n; j++) {
        long e = r_is_zero(x + j) ? 0 : (long)ceil(r_log2abs(x + j)) + 1;
        if (e > ex) ex = e;
    }
    return ex;
}

/* ---------------------------------------------- the MPFR engine (shared) */
#define DERIV_STEP0 3    /* h_0 = 2^-3 */
#define DERIV_STOP 8     /* stop when the table moved by ≤ 2^-(p+8) relative */
#define DERIV_GUARD 32   /* guard bits of the internal precision */
#define DERIV_FERR 12    /* log2 of (2^10 ulps of f) × (table weights < 2.2) × 2 */

/* Largest number of table rows for target precision p. */
static int deriv_rows_(long p)
{
    int r = 0;
    while ((long)r * r < p + DERIV_STOP) r++;
    return r + 4;
}

/*
 * One new row of the Richardson table for h² series, in place:
 * on entry cur = D(h_k) and row[m] = T_{k-1,m}; on exit row[m] = T_{k,m}
 * and cur = T_{k,k}. t, d are scratch.
 */
static void deriv_push_(mpfr_ptr row, mpfr_ptr cur, int k, mpfr_ptr t, mpfr_ptr d)
{
    for (int m = 1; m <= k; m++) {
        mpfr_sub(t, cur, row + m - 1, MPFR_RNDN);
        mpfr_set(row + m - 1, cur, MPFR_RNDN);
        mpfr_set_ui_2exp(d, 1, 2 * m, MPFR_RNDN);
        mpfr_sub_ui(d, d, 1, MPFR_RNDN); /* 4^m − 1, exact since P > 2K */
        mpfr_div(t, t, d, MPFR_RNDN);
        mpfr_add(cur, cur, t, MPFR_RNDN);
    }
    mpfr_set(row + k, cur, MPFR_RNDN);
}

/* fmax = max(fmax, |v|). */
static void deriv_maxabs_(mpfr_ptr fmax, mpfr_srcptr v)
{
    if (mpfr_cmpabs(v, fmax) > 0) mpfr_abs(fmax, v, MPFR_RNDU);
}

/*
 * After one new row: rho = 2^(−P + DERIV_FERR + d·s)·fmax bounds the rounding
 * in T_{k,k}; err = |delta| + rho (rounded up). The row is settled when
 * delta = 0, or |delta| ≤ 2^−(p+STOP)·|T_{k,k}|, or |delta| ≤ 4·rho (the
 * correction is down to the rounding of f). t is scratch.
 */
static int deriv_settle_(mpfr_ptr err, mpfr_srcptr delta, mpfr_srcptr cur, mpfr_srcptr fmax,
                         long p, long P, int d, int s, mpfr_ptr t)
{
    mpfr_mul_2si(t, fmax, -P + DERIV_FERR + (long)d * s, MPFR_RNDU);
    mpfr_abs(err, delta, MPFR_RNDU);
    mpfr_add(err, err, t, MPFR_RNDU);
    if (mpfr_zero_p(delta)) return 1;
    mpfr_mul_2ui(t, t, 2, MPFR_RNDU);
    if (mpfr_cmpabs(delta, t) <= 0) return 1;
    mpfr_mul_2si(t, cur, -(p + DERIV_STOP), MPFR_RNDN);
    return mpfr_cmpabs(delta, t) <= 0;
}

static int deriv_finite_(mpfr_srcptr v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!mpfr_number_p(v + i)) return 0;
    return 1;
}

/*
 * Jacobian at internal precision P. xw: n_in entries (modified and restored);
 * Jw, Ew: n_out·n_in outputs; ws: 5·n_out + n_out·(K+1) + 4 scratch entries.
 */
static int deriv_jacobian_engine_(mpfr_ptr Jw, mpfr_ptr Ew, cl_field_mp_fn f, void *ctx,
                                  mpfr_ptr xw, size_t n_in, size_t n_out, long p, long P,
                                  int K, mpfr_ptr ws)
{
    mpfr_ptr f0 = ws, fp = f0 + n_out, fm = fp + n_out, cur = fm + n_out, fmax = cur + n_out;
    mpfr_ptr row = fmax + n_out, xj = row + n_out * (size_t)(K + 1);
    mpfr_ptr t = xj + 1, d = t + 1, delta = d + 1;
    int st = f(f0, xw, ctx), result = CL_OK;
    if (st) return st;
    if (!deriv_finite_(f0, n_out)) return CL_ENAN;
    for (size_t j = 0; j < n_in; j++) {
        mpfr_set(xj, xw + j, MPFR_RNDN);
        for (size_t i = 0; i < n_out; i++) mpfr_abs(fmax + i, f0 + i, MPFR_RNDU);
        int settled = 0, s = DERIV_STEP0;
        for (int k = 0; k <= K && !settled; k++) {
            s = DERIV_STEP0 + k;
            mpfr_set_ui_2exp(t, 1, -s, MPFR_RNDN);
            mpfr_add(xw + j, xj, t, MPFR_RNDN); /* exact unless x_j is tiny and full (file comment) */
            if ((st = f(fp, xw, ctx))) break;
            mpfr_sub(xw + j, xj, t, MPFR_RNDN);
            if ((st = f(fm, xw, ctx))) break;
            mpfr_set(xw + j, xj, MPFR_RNDN);
            if (!deriv_finite_(fp, n_out) || !deriv_finite_(fm, n_out)) { st = CL_ENAN; break; }
            settled = k >= 2;
            for (size_t i = 0; i < n_out; i++) {
                deriv_maxabs_(fmax + i, fp + i);
                deriv_maxabs_(fmax + i, fm + i);
                mpfr_sub(cur + i, fp + i, fm + i, MPFR_RNDN);
                mpfr_mul_2si(cur + i, cur + i, s - 1, MPFR_RNDN); /* / (2h) */
                mpfr_ptr r = row + i * (size_t)(K + 1);
                if (k > 0) mpfr_set(delta, r + k - 1, MPFR_RNDN);
                deriv_push_(r, cur + i, k, t, d);
                if (k > 0) {
                    mpfr_sub(delta, cur + i, delta, MPFR_RNDN);
                    int ok = deriv_settle_(Ew + i * n_in + j, delta, cur + i, fmax + i, p, P, 1, s, t);
                    settled = settled && ok;
                }
            }
        }
        mpfr_set(xw + j, xj, MPFR_RNDN);
        if (st) return st;
        if (!settled) result = CL_ENOCONV;
        for (size_t i = 0; i < n_out; i++) mpfr_set(Jw + i * n_in + j, cur + i, MPFR_RNDN);
    }
    return result;
}

/* f(x) with coordinate i moved by a·h and coordinate j by b·h (a, b ∈ {−1, 0, 1}). */
static int deriv_eval_shift_(mpfr_ptr out, cl_scalar_mp_fn f, void *ctx, mpfr_ptr xw,
                             mpfr_srcptr xi, mpfr_srcptr xj, size_t i, size_t j,
                             int a, int b, mpfr_srcptr h)
{
    if (a > 0) mpfr_add(xw + i, xi, h, MPFR_RNDN);
    else if (a < 0) mpfr_sub(xw + i, xi, h, MPFR_RNDN);
    if (b > 0) mpfr_add(xw + j, xj, h, MPFR_RNDN);
    else if (b < 0) mpfr_sub(xw + j, xj, h, MPFR_RNDN);
    int st = f(out, xw, ctx);
    mpfr_set(xw + i, xi, MPFR_RNDN);
    mpfr_set(xw + j, xj, MPFR_RNDN);
    if (!st && !mpfr_number_p(out)) st = CL_ENAN;
    return st;
}

/* Hessian at internal precision P; ws: K + 13 scratch entries. */
static int deriv_hessian_engine_(mpfr_ptr Hw, mpfr_ptr Ew, cl_scalar_mp_fn f, void *ctx,
                                 mpfr_ptr xw, size_t n, long p, long P, int K, mpfr_ptr ws)
{
    mpfr_ptr f0 = ws, fa = f0 + 1, fb = fa + 1, fc = fb + 1, fd = fc + 1, cur = fd + 1;
    mpfr_ptr fmax = cur + 1, xi = fmax + 1, xj = xi + 1, t = xj + 1, d = t + 1;
    mpfr_ptr delta = d + 1, h = delta + 1, row = h + 1;
    int st = f(f0, xw, ctx), result = CL_OK;
    if (st) return st;
    if (!mpfr_number_p(f0)) return CL_ENAN;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            mpfr_set(xi, xw + i, MPFR_RNDN);
            mpfr_set(xj, xw + j, MPFR_RNDN);
            mpfr_abs(fmax, f0, MPFR_RNDU);
            int settled = 0, s = DERIV_STEP0;
            for (int k = 0; k <= K && !settled; k++) {
                s = DERIV_STEP0 + k;
                mpfr_set_ui_2exp(h, 1, -s, MPFR_RNDN);
                if (i == j) {
                    if ((st = deriv_eval_shift_(fa, f, ctx, xw, xi, xj, i, j, 1, 0, h))) break;
                    if ((st = deriv_eval_shift_(fb, f, ctx, xw, xi, xj, i, j, -1, 0, h))) break;
                    deriv_maxabs_(fmax, fa);
                    deriv_maxabs_(fmax, fb);
                    mpfr_add(cur, fa, fb, MPFR_RNDN);
                    mpfr_mul_2ui(t, f0, 1, MPFR_RNDN);
                    mpfr_sub(cur, cur, t, MPFR_RNDN);
                    mpfr_mul_2si(cur, cur, 2 * s, MPFR_RNDN); /* / h² */
                } else {
                    if ((st = deriv_eval_shift_(fa, f, ctx, xw, xi, xj, i, j, 1, 1, h))) break;
                    if ((st = deriv_eval_shift_(fb, f, ctx, xw, xi, xj, i, j, 1, -1, h))) break;
                    if ((st = deriv_eval_shift_(fc, f, ctx, xw, xi, xj, i, j, -1, 1, h))) break;
                    if ((st = deriv_eval_shift_(fd, f, ctx, xw, xi, xj, i, j, -1, -1, h))) break;
                    deriv_maxabs_(fmax, fa); deriv_maxabs_(fmax, fb);
                    deriv_maxabs_(fmax, fc); deriv_maxabs_(fmax, fd);
                    mpfr_sub(cur, fa, fb, MPFR_RNDN);
                    mpfr_sub(cur, cur, fc, MPFR_RNDN);
                    mpfr_add(cur, cur, fd, MPFR_RNDN);
                    mpfr_mul_2si(cur, cur, 2 * s - 2, MPFR_RNDN); /* / (4h²) */
                }
                if (k > 0) mpfr_set(delta, row + k - 1, MPFR_RNDN);
                deriv_push_(row, cur, k, t, d);
                if (k > 0) {
                    mpfr_sub(delta, cur, delta, MPFR_RNDN);
                    int ok = deriv_settle_(Ew + i * n + j, delta, cur, fmax, p, P, 2, s, t);
                    settled = k >= 2 && ok;
                }
            }
            if (st) return st;
            if (!settled) result = CL_ENOCONV;
            mpfr_set(Hw + i * n + j, cur, MPFR_RNDN);
            mpfr_set(Hw + j * n + i, cur, MPFR_RNDN);
            mpfr_set(Ew + j * n + i, Ew + i * n + j, MPFR_RNDN);
        }
    return result;
}

/* Internal precision P for target p, derivative order d (see the file comment). */
static long deriv_prec_(long p, long px, int d, int K, long ex, long ef)
{
    return (p > px ? p : px) + DERIV_GUARD + (long)d * (DERIV_STEP0 + K) + ex + ef;
}

/*
 * e_f: an upper bound (≥ 0) of the binary exponents of the n values f(x),
 * from one evaluation at precision P0 (a probe that is freed at once).
 */
static int deriv_fexp_(long *ef, cl_field_mp_fn f, void *ctx, rsrc x, size_t n_in,
                       size_t n_out, long P0)
{
    mpfr_ptr w = cl_rvec_new_mp(n_in + n_out, P0);
    if (!w) return CL_ENOMEM;
    for (size_t j = 0; j < n_in; j++) r_get_mpfr(w + j, x + j);
    int st = f(w + n_in, w, ctx);
    if (!st && !deriv_finite_(w + n_in, n_out)) st = CL_ENAN;
    *ef = 0;
    for (size_t i = 0; !st && i < n_out; i++)
        if (!mpfr_zero_p(w + n_in + i) && mpfr_get_exp(w + n_in + i) > *ef) *ef = mpfr_get_exp(w + n_in + i);
    cl_rvec_free_mp(w);
    return st;
}

/*
 * The table length K and internal precision P for a derivative of order d of
 * f: R^n_in -> R^n_out at x, target precision p: P from the exponents of x,
 * then again with those of f(x) from a probe at the first P.
 */
static int deriv_setup_(long *P, int *K, long p, int d, cl_field_mp_fn f, void *ctx, rsrc x,
                        size_t n_in, size_t n_out)
{
    *K = deriv_rows_(p);
    long ex = deriv_expmax_(x, n_in), ef = 0;
    *P = deriv_prec_(p, (long)r_prec(x), d, *K, ex, 0);
    if (cl_prec_check(*P)) return CL_EPREC;
    int st = deriv_fexp_(&ef, f, ctx, x, n_in, n_out, *P);
    if (st) return st;
    *P = deriv_prec_(p, (long)r_prec(x), d, *K, ex, ef);
    return cl_prec_check(*P) ? CL_EPREC : CL_OK;
}

/*
 * Round the internal results into the outputs; err gets the internal
 * estimate plus the final rounding 2^-p·|value|, rounded up.
 */
static void deriv_output_(rptr out, rptr err, mpfr_srcptr Vw, mpfr_ptr Ew, size_t n, long p, mpfr_ptr t)
{
    for (size_t k = 0; k < n; k++) {
        r_set_mpfr(out + k, Vw + k, MPFR_RNDN);
        if (!err) continue;
        mpfr_abs(t, Vw + k, MPFR_RNDU);
        mpfr_mul_2si(t, t, -p, MPFR_RNDU);
        mpfr_add(Ew + k, Ew + k, t, MPFR_RNDU);
        r_set_mpfr(err + k, Ew + k, MPFR_RNDU);
    }
}

/* ------------------------------------------------------ public routines */
int CL_FN(cl_jacobian)(rptr J, rptr err_est, cl_field_mp_fn f, void *ctx, rsrc x,
                       size_t n_in, size_t n_out)
{
    if (!n_in || !n_out) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(x, n_in)) return CL_ENAN;
    long p = (long)r_prec(J), P;
    int K;
    int st = deriv_setup_(&P, &K, p, 1, f, ctx, x, n_in, n_out);
    if (st) return st;
    size_t nJ = n_in * n_out;
    size_t nws = n_in + 2 * nJ + 5 * n_out + n_out * (size_t)(K + 1) + 4;
    mpfr_ptr w = cl_rvec_new_mp(nws, P);
    if (!w) return CL_ENOMEM;
    mpfr_ptr xw = w, Jw = xw + n_in, Ew = Jw + nJ, ws = Ew + nJ;
    for (size_t j = 0; j < n_in; j++) r_get_mpfr(xw + j, x + j);
    st = deriv_jacobian_engine_(Jw, Ew, f, ctx, xw, n_in, n_out, p, P, K, ws);
    if (st == CL_OK || st == CL_ENOCONV) deriv_output_(J, err_est, Jw, Ew, nJ, p, ws);
    cl_rvec_free_mp(w);
    return st;
}

int CL_FN(cl_gradient)(rptr g, rptr err_est, cl_scalar_mp_fn f, void *ctx, rsrc x, size_t n)
{
    return CL_FN(cl_jacobian)(g, err_est, f, ctx, x, n, 1);
}

int CL_FN(cl_hessian)(rptr H, rptr err_est, cl_scalar_mp_fn f, void *ctx, rsrc x, size_t n)
{
    if (!n) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(x, n)) return CL_ENAN;
    long p = (long)r_prec(H), P;
    int K;
    int st = deriv_setup_(&P, &K, p, 2, f, ctx, x, n, 1);
    if (st) return st;
    size_t nH = n * n;
    size_t nws = n + 2 * nH + (size_t)K + 14;
    mpfr_ptr w = cl_rvec_new_mp(nws, P);
    if (!w) return CL_ENOMEM;
    mpfr_ptr xw = w, Hw = xw + n, Ew = Hw + nH, ws = Ew + nH;
    for (size_t j = 0; j < n; j++) r_get_mpfr(xw + j, x + j);
    st = deriv_hessian_engine_(Hw, Ew, f, ctx, xw, n, p, P, K, ws);
    if (st == CL_OK || st == CL_ENOCONV) deriv_output_(H, err_est, Hw, Ew, nH, p, ws);
    cl_rvec_free_mp(w);
    return st;
}

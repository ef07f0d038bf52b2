/*
 * The Taylor coefficient recurrences of every node kind (taylor_impl.h):
 * order k of a node's row from the orders below k of its arguments
 * (products and quotients as convolutions, sin/cos, tan, exp, log, sqrt,
 * powers, atan2 with their auxiliary rows), and order k of the state from
 * order k − 1 of the field. Under the precision plan (taylor.c) a product's
 * factors enter at the precision its order needs.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "taylor.h"
#include "taylor_impl.h"

#if CL_PREC == CL_MPFR
/* v = the leading limbs of x that t bits of a product need (x itself when it has no more). */
static mpfr_srcptr lead_limbs(mpfr_ptr v, mpfr_srcptr x, cl_prec_t t)
{
    long nx = (long)((mpfr_get_prec(x) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    long nv = (long)((t + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS);
    if (nv >= nx || !mpfr_regular_p(x)) return x;
    mpfr_custom_init_set(v, mpfr_custom_get_kind(x), mpfr_custom_get_exp(x), (mpfr_prec_t)nv * GMP_NUMB_BITS,
                         (mp_limb_t *)mpfr_custom_get_significand(x) + (nx - nv));
    return v;
}
#endif

/* ws->tmp = a b, a convolution's term. Where the precision plan lowers ws->tmp's
   precision, a factor's limbs beyond that precision and CL_TAYLOR_PLAN_GUARD_MUL
   more bits do not enter: the truncation errs by less than 2^(2−guard) of an
   ulp of the term, and the product costs what its precision needs. */
static void cmul_to(CL_FN(cl_taylor) *ws, rptr r, rsrc a, rsrc b)
{
#if CL_PREC == CL_MPFR
    if (mpfr_get_prec(r) < ws->prec) {
        mpfr_t va, vb;
        cl_prec_t t = mpfr_get_prec(r) + CL_TAYLOR_PLAN_GUARD_MUL;
        mpfr_mul(r, lead_limbs(va, a, t), lead_limbs(vb, b, t), MPFR_RNDN);
        return;
    }
#endif
    r_mul(r, a, b);
}

static void cmul(CL_FN(cl_taylor) *ws, rsrc a, rsrc b) { cmul_to(ws, ws->tmp, a, b); }

#if CL_PREC == CL_MPFR
/* A convolution this long or longer is one fixed-point dot product (conv_dot()). */
#define CONV_SUM_MIN 8

/* The old way, for operands that are not all finite: each term rounded as cmul() rounds it, summed once by mpfr_sum. */
static void conv_sum(CL_FN(cl_taylor) *ws, mpfr_ptr acc, mpfr_srcptr a, mpfr_srcptr b, int m)
{
    cl_prec_t pt = mpfr_get_prec(ws->tmp);
    for (int j = 0; j < m; j++) {
        mpfr_ptr q = ws->prod + j;
        mpfr_custom_init_set(q, MPFR_NAN_KIND, 0, pt, mpfr_custom_get_significand(q));
        cmul_to(ws, q, a + j, b - j);
    }
    mpfr_sum(acc, ws->prodp, (unsigned long)m, MPFR_RNDN);
}

/* Limbs of t bits. */
static long limbs_of(cl_prec_t t) { return (long)((t + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS); }

/* dst[0..na) += the integer p (np limbs) times 2^off (off may be < 0: its bits below 2^0 are dropped); sh: np + 1 limbs of scratch. */
static void add_shifted(mp_limb_t *dst, long na, const mp_limb_t *p, long np, long off, mp_limb_t *sh)
{
    long lo, s;
    if (off >= 0) {
        lo = off / GMP_NUMB_BITS, s = off % GMP_NUMB_BITS;
    } else {
        long d = -off, dl = d / GMP_NUMB_BITS;
        if (dl >= np) return;
        p += dl, np -= dl, lo = 0, s = d % GMP_NUMB_BITS;
        if (s) {
            mpn_rshift(sh, p, np, (unsigned)s);
            p = sh, s = 0;
        }
    }
    if (s) {
        sh[np] = mpn_lshift(sh, p, np, (unsigned)s);
        p = sh, np++;
    }
    while (np > 0 && lo + np > na) {
        if (p[np - 1]) return; /* beyond the accumulator: not possible, the caller sized it */
        np--;
    }
    if (np > 0) mpn_add(dst + lo, dst + lo, na - lo, p, np);
}

/*
 * acc = Σ_{j<m} a_j b_{−j} (a from a_lo onwards, b from b_{k−lo} backwards)
 * as a fixed-point dot product, as Arb's arb_dot: each product exact of
 * its factors' leading limbs (those cmul() keeps: the scratch's precision
 * pt and CL_TAYLOR_PLAN_GUARD_MUL bits more), added into two integers (the
 * positive and the negative terms) whose last bit is 2^(e − pt − 128),
 * e the largest term's exponent, and the difference rounded once. A term
 * loses less than that last bit, where rounding it to pt bits (the old
 * way) lost up to 2^(e − pt): no rounded product, no normalization per
 * term. Operands not all finite take conv_sum().
 */
static void conv_dot(CL_FN(cl_taylor) *ws, mpfr_ptr acc, mpfr_srcptr a, mpfr_srcptr b, int m)
{
    cl_prec_t pt = mpfr_get_prec(ws->tmp);
    long nt = limbs_of(pt + CL_TAYLOR_PLAN_GUARD_MUL);
    mpfr_exp_t emax = 0;
    int any = 0;
    for (int j = 0; j < m; j++) {
        mpfr_srcptr x = a + j, y = b - j;
        if (!mpfr_number_p(x) || !mpfr_number_p(y)) {
            conv_sum(ws, acc, a, b, m);
            return;
        }
        if (mpfr_zero_p(x) || mpfr_zero_p(y)) continue;
        mpfr_exp_t e = mpfr_get_exp(x) + mpfr_get_exp(y);
        if (!any || e > emax) emax = e;
        any = 1;
    }
    if (!any) {
        mpfr_set_zero(acc, 1);
        return;
    }
    long na = limbs_of(pt + 128) + 1; /* the top limb for the carries of up to 2^63 terms */
    mpfr_exp_t lsb = emax - (mpfr_exp_t)(na - 1) * GMP_NUMB_BITS;
    mp_limb_t *pos = ws->limb, *neg = pos + na, *prod = neg + na, *sh = prod + 2 * nt;
    mpn_zero(pos, na);
    mpn_zero(neg, na);
    for (int j = 0; j < m; j++) {
        mpfr_srcptr x = a + j, y = b - j;
        if (mpfr_zero_p(x) || mpfr_zero_p(y)) continue;
        long nx = limbs_of(mpfr_get_prec(x)), ny = limbs_of(mpfr_get_prec(y));
        const mp_limb_t *xp = (const mp_limb_t *)mpfr_custom_get_significand(x), *yp = (const mp_limb_t *)mpfr_custom_get_significand(y);
        if (nx > nt) xp += nx - nt, nx = nt;
        if (ny > nt) yp += ny - nt, ny = nt;
        if (nx >= ny) mpn_mul(prod, xp, nx, yp, ny);
        else mpn_mul(prod, yp, ny, xp, nx);
        long np = nx + ny;
        mpfr_exp_t off = mpfr_get_exp(x) + mpfr_get_exp(y) - (mpfr_exp_t)np * GMP_NUMB_BITS - lsb;
        add_shifted(mpfr_signbit(x) != mpfr_signbit(y) ? neg : pos, na, prod, np, (long)off, sh);
    }
    int sgn = mpn_cmp(pos, neg, na);
    if (sgn == 0) {
        mpfr_set_zero(acc, 1);
        return;
    }
    if (sgn > 0) mpn_sub_n(pos, pos, neg, na);
    else mpn_sub_n(pos, neg, pos, na);
    mpz_t z;
    mpz_roinit_n(z, pos, na);
    mpfr_set_z_2exp(acc, z, lsb, MPFR_RNDN);
    if (sgn < 0) mpfr_neg(acc, acc, MPFR_RNDN);
}
#endif

/* acc = Σ_{j=lo}^{hi} a_j b_{k−j}. */
static void conv(CL_FN(cl_taylor) *ws, rptr acc, rsrc a, rsrc b, int lo, int hi, int k)
{
#if CL_PREC == CL_ARB /* one dot product, b read backwards: one rounding, several times faster than mul and add */
    if (hi >= lo) arb_dot(acc, NULL, 0, a + lo, 1, b + k - lo, -1, hi - lo + 1, r_prec(acc));
    else arb_zero(acc);
    (void)ws;
#else
#if CL_PREC == CL_MPFR
    if (hi - lo + 1 >= CONV_SUM_MIN) {
        conv_dot(ws, acc, a + lo, b + k - lo, hi - lo + 1);
        return;
    }
#endif
    r_set_zero(acc);
    for (int j = lo; j <= hi; j++) {
        cmul(ws, a + j, b + k - j);
        r_add(acc, acc, ws->tmp);
    }
#endif
}

/* acc = Σ_{j=lo}^{hi} j a_j b_{k−j}. */
static void wconv(CL_FN(cl_taylor) *ws, rptr acc, rsrc a, rsrc b, int lo, int hi, int k)
{
    r_set_zero(acc);
    for (int j = lo; j <= hi; j++) {
        cmul(ws, a + j, b + k - j);
        r_mul_si(ws->tmp, ws->tmp, j);
        r_add(acc, acc, ws->tmp);
    }
}

/* acc = Σ_{j=1}^{k} j a_j w_{k−j}, the sum of the chain rule u' = φ'(a) a'. When a
   is a state component, j a_j is the field's coefficient f_{j−1} (\p da, else
   NULL): no multiplication by j, and no rounding of a_j = f_{j−1}/j in between. */
static void dconv(CL_FN(cl_taylor) *ws, rptr acc, rsrc da, rsrc a, rsrc w, int k)
{
    if (!da) {
        wconv(ws, acc, a, w, 1, k, k);
        return;
    }
#if CL_PREC == CL_ARB
    arb_dot(acc, NULL, 0, da, 1, w + k - 1, -1, k, r_prec(acc));
#else
#if CL_PREC == CL_MPFR
    if (k >= CONV_SUM_MIN) {
        conv_dot(ws, acc, da, w + k - 1, k);
        return;
    }
#endif
    r_set_zero(acc);
    for (int j = 1; j <= k; j++) {
        cmul(ws, da + j - 1, w + k - j);
        r_add(acc, acc, ws->tmp);
    }
#endif
}

/* u = a/b of order k: u_k = (a_k − Σ_{j=1}^k b_j u_{k−j}) / b_0. */
static int coef_div(CL_FN(cl_taylor) *ws, rptr u, rsrc a, rsrc b, int bconst, int k)
{
    if (k == 0 && r_is_zero(b)) return CL_EDOMAIN;
    if (bconst || k == 0) {
        r_div(u + k, a + k, b);
        return CL_OK;
    }
    conv(ws, ws->acc, b, u, 1, k, k);
    r_sub(ws->acc, a + k, ws->acc);
    r_div(u + k, ws->acc, b);
    return CL_OK;
}

/* sin and cos of a as a pair: s_k = (1/k) Σ j a_j c_{k−j}, c_k = −(1/k) Σ j a_j s_{k−j}.
   u is the node's row, w its partner's (the other function); \p own: w is
   an auxiliary row this node keeps up too. */
static void coef_sincos(CL_FN(cl_taylor) *ws, int is_sin, rptr u, rptr w, rsrc a, rsrc da, int own, int k)
{
    if (k == 0) {
        if (is_sin) r_sin(u, a); else r_cos(u, a);
        if (own) { if (is_sin) r_cos(w, a); else r_sin(w, a); }
        return;
    }
    dconv(ws, ws->acc, da, a, w, k);
    r_div_si(u + k, ws->acc, is_sin ? k : -k);
    if (!own) return;
    dconv(ws, ws->acc, da, a, u, k);
    r_div_si(w + k, ws->acc, is_sin ? -k : k);
}

/* tan a with w = 1 + tan²: u_k = (1/k) Σ j a_j w_{k−j}, w_k = Σ u_j u_{k−j}. */
static void coef_tan(CL_FN(cl_taylor) *ws, rptr u, rptr w, rsrc a, rsrc da, int k)
{
    if (k == 0) {
        r_tan(u, a);
        r_sqr(w, u);
        r_add_si(w, w, 1);
        return;
    }
    dconv(ws, ws->acc, da, a, w, k);
    r_div_si(u + k, ws->acc, k);
    conv(ws, w + k, u, u, 0, k, k);
}

/* exp a: u_k = (1/k) Σ_{j=1}^k j a_j u_{k−j}. */
static void coef_exp(CL_FN(cl_taylor) *ws, rptr u, rsrc a, rsrc da, int k)
{
    if (k == 0) {
        r_exp(u, a);
        return;
    }
    dconv(ws, ws->acc, da, a, u, k);
    r_div_si(u + k, ws->acc, k);
}

/* log a: u_k = (k a_k − Σ_{j=1}^{k−1} j u_j a_{k−j}) / (k a_0). */
static int coef_log(CL_FN(cl_taylor) *ws, rptr u, rsrc a, int k)
{
    if (k == 0) {
        if (r_sgn(a) <= 0) return CL_EDOMAIN;
        r_log(u, a);
        return CL_OK;
    }
    wconv(ws, ws->acc, u, a, 1, k - 1, k);
    r_mul_si(ws->tmp, a + k, k);
    r_sub(ws->acc, ws->tmp, ws->acc);
    r_div_si(ws->acc, ws->acc, k);
    r_div(u + k, ws->acc, a);
    return CL_OK;
}

/* sqrt a from u² = a: u_k = (a_k − Σ_{j=1}^{k−1} u_j u_{k−j}) / (2 u_0). */
static int coef_sqrt(CL_FN(cl_taylor) *ws, rptr u, rsrc a, int k)
{
    if (k == 0) {
        if (r_sgn(a) <= 0) return CL_EDOMAIN; /* sqrt at 0 has no derivative */
        r_sqrt(u, a);
        return CL_OK;
    }
    conv(ws, ws->acc, u, u, 1, k - 1, k);
    r_sub(ws->acc, a + k, ws->acc);
    r_div(ws->acc, ws->acc, u);
    r_mul_2si(u + k, ws->acc, -1);
    return CL_OK;
}

/* a^m by J. C. P. Miller's recurrence (a_0 ≠ 0):
   u_k = Σ_{j=1}^k ((m + 1) j − k) a_j u_{k−j} / (k a_0). */
static int coef_pow_miller(CL_FN(cl_taylor) *ws, rptr u, rsrc a, long m, int k)
{
    if (k == 0) {
        if (r_is_zero(a) && m < 0) return CL_EDOMAIN;
        r_pow_si(u, a, m);
        return CL_OK;
    }
    if (r_is_zero(a)) return CL_EDOMAIN;
    r_set_zero(ws->acc);
    for (int j = 1; j <= k; j++) {
        cmul(ws, a + j, u + k - j);
        r_mul_si(ws->tmp, ws->tmp, (m + 1) * j - k);
        r_add(ws->acc, ws->acc, ws->tmp);
    }
    r_div_si(ws->acc, ws->acc, k);
    r_div(u + k, ws->acc, a);
    return CL_OK;
}

/* a^m for 2 ≤ m ≤ CL_TAYLOR_POW_CHAIN as products: P_2 = a·a, …, P_m = P_{m−1}·a,
   the m − 2 powers below in the auxiliary rows w (stable at a_0 = 0). */
static void coef_pow_chain(CL_FN(cl_taylor) *ws, rptr u, rptr w, rsrc a, long m, int k)
{
    size_t len = (size_t)ws->p + 1;
    rsrc prev = a;
    for (long e = 2; e <= m; e++) {
        rptr out = e == m ? u : w + (size_t)(e - 2) * len;
        conv(ws, out + k, prev, a, 0, k, k);
        prev = out;
    }
}

/* atan2(y, x) with w = x² + y²: u' w = x y' − y x', so
   u_k = (Σ_{j=1}^k j (x_{k−j} y_j − y_{k−j} x_j) − Σ_{j=1}^{k−1} j u_j w_{k−j}) / (k w_0),
   and w_k = Σ_{j=0}^k (x_j x_{k−j} + y_j y_{k−j}). */
static int coef_atan2(CL_FN(cl_taylor) *ws, rptr u, rptr w, rsrc y, rsrc x, int k)
{
    if (k > 0) {
        wconv(ws, ws->acc, y, x, 1, k, k);
        wconv(ws, ws->acc2, x, y, 1, k, k);
        r_sub(ws->acc, ws->acc, ws->acc2);
        wconv(ws, ws->acc2, u, w, 1, k - 1, k);
        r_sub(ws->acc, ws->acc, ws->acc2);
        r_div_si(ws->acc, ws->acc, k);
        r_div(u + k, ws->acc, w);
    }
    conv(ws, w + k, x, x, 0, k, k);
    conv(ws, ws->acc, y, y, 0, k, k);
    r_add(w + k, w + k, ws->acc);
    if (k == 0) {
        if (r_is_zero(w)) return CL_EDOMAIN;
        r_atan2(u, y, x);
    }
    return CL_OK;
}

/* Coefficient k of node id (its arguments' coefficients 0..k are known). */
int CL_FN(cl_taylor_coef_node)(CL_FN(cl_taylor) *ws, int id, int k)
{
    const cl_expr_node *d = cl_expr_dag_node(ws->g, id);
    rptr u = ROW(ws, id);
    rsrc a = d->a >= 0 ? ROW(ws, d->a) : NULL, b = d->b >= 0 ? ROW(ws, d->b) : NULL;
    int aconst = d->a >= 0 && ws->cst[d->a], bconst = d->b >= 0 && ws->cst[d->b];
    rsrc da = d->a >= 0 && ws->row[d->a] < (int)ws->n ? ROW(ws, ws->items[ws->row[d->a]]) : NULL; /* a a state component */
    switch (d->op) {
    case CL_EXPR_ADD: r_add(u + k, a + k, b + k); return CL_OK;
    case CL_EXPR_SUB: r_sub(u + k, a + k, b + k); return CL_OK;
    case CL_EXPR_NEG: r_neg(u + k, a + k); return CL_OK;
    case CL_EXPR_MUL:
        if (aconst) r_mul(u + k, a, b + k);
        else if (bconst) r_mul(u + k, a + k, b);
        else conv(ws, u + k, a, b, 0, k, k);
        return CL_OK;
    case CL_EXPR_DIV: return coef_div(ws, u, a, b, bconst, k);
    case CL_EXPR_SIN:
    case CL_EXPR_COS:
        coef_sincos(ws, d->op == CL_EXPR_SIN, u, ws->aux[id] >= 0 ? AUX(ws, id) : ROW(ws, ws->partner[id]), a,
                    da, ws->aux[id] >= 0, k);
        return CL_OK;
    case CL_EXPR_TAN: coef_tan(ws, u, AUX(ws, id), a, da, k); return CL_OK;
    case CL_EXPR_EXP: coef_exp(ws, u, a, da, k); return CL_OK;
    case CL_EXPR_LOG: return coef_log(ws, u, a, k);
    case CL_EXPR_SQRT: return coef_sqrt(ws, u, a, k);
    case CL_EXPR_POWI:
        if (d->k == 0) {
            r_set_si(u + k, k == 0);
            return CL_OK;
        }
        if (d->k >= 2 && d->k <= CL_TAYLOR_POW_CHAIN) {
            coef_pow_chain(ws, u, d->k > 2 ? AUX(ws, id) : NULL, a, d->k, k);
            return CL_OK;
        }
        return coef_pow_miller(ws, u, a, d->k, k);
    case CL_EXPR_ATAN2: return coef_atan2(ws, u, AUX(ws, id), a, b, k);
    }
    return CL_EDOMAIN;
}

/* Order k of the state: x_{i,k} = f_{i,k−1} / k (order 0 set by the caller). */
void CL_FN(cl_taylor_coef_state)(CL_FN(cl_taylor) *ws, int k)
{
    size_t len = (size_t)ws->p + 1;
    for (size_t i = 0; i < ws->n; i++)
        r_div_si(ws->c + i * len + k, ROW(ws, ws->items[i]) + k - 1, k);
}

/*
 * Exponentials of SO(3) and SE(3), dexp and dexp⁻¹ on se(3), and Lie group
 * integrators on homogeneous manifolds (Lie–Euler, RKMK4, CF4, RKMK45).
 *
 * Every coefficient function of θ = ‖u‖ is written through the sin/cos
 * remainders S_k(θ²) (cl_lie_sincos_remainders), which have one series branch
 * near zero whose length follows the working precision.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "lie.h"
#include "r3.h"

#if CL_PREC == CL_DOUBLE
int cl_lie_method_from_name(const char *name)
{
    if (!name) return CL_EPARAM;
    if (!strcmp(name, "lie-euler")) return CL_LIE_EULER;
    if (!strcmp(name, "rkmk4")) return CL_LIE_RKMK4;
    if (!strcmp(name, "cf4")) return CL_LIE_CF4;
    if (!strcmp(name, "rkmk45")) return CL_LIE_RKMK45;
    return CL_EPARAM;
}

const char *cl_lie_method_name(int method)
{
    switch (method) {
    case CL_LIE_EULER: return "lie-euler";
    case CL_LIE_RKMK4: return "rkmk4";
    case CL_LIE_CF4: return "cf4";
    case CL_LIE_RKMK45: return "rkmk45";
    default: return "?";
    }
}

int cl_lie_method_order(int method)
{
    switch (method) {
    case CL_LIE_EULER: return 1;
    case CL_LIE_RKMK4: return 4;
    case CL_LIE_CF4: return 4;
    case CL_LIE_RKMK45: return 5;
    default: return 0;
    }
}
#endif

/* ------------------------------------------------------------------ S_k(s) */

int CL_FN(cl_lie_sincos_remainders)(rptr S, rsrc s)
{
    cl_prec_t p = r_prec(S);
    if (!r_is_number(s)) return CL_ENAN;
    if (r_sgn(s) < 0) return CL_EDOMAIN;
    R_DECL(t, p); R_DECL(t6, p); R_DECL(c, p); R_DECL(th, p); R_DECL(x, p);
    if (r_cmp_d(s, 4.0) <= 0) {
        /* S5 = Σ (−s)^j/(2j+5)!, S6 = Σ (−s)^j/(2j+6)!: each term is the previous
         * times s/((2j+6)(2j+7)) ≤ 4/42, so the loop ends after O(p/log p) terms. */
        r_set_zero(S + 4);
        r_set_zero(S + 5);
        r_set_q(t, 1, 120);
        for (long j = 0; j < 100000; j++) {
            r_add(S + 4, S + 4, t);
            r_div_si(t6, t, 2 * j + 6);
            r_add(S + 5, S + 5, t6);
            if (r_is_zero(t) || r_log2abs(t) < -(double)p - 10.0) break;
            r_mul(t, t, s);
            r_neg(t, t);
            r_div_si(t, t, (2 * j + 6) * (2 * j + 7));
        }
        /* S_k = 1/k! − s S_{k+2}: s S_{k+2} < 0.55/k! for s ≤ 4, at most one bit lost. */
        r_set_q(c, 1, 24); r_mul(x, s, S + 5); r_sub(S + 3, c, x);
        r_set_q(c, 1, 6);  r_mul(x, s, S + 4); r_sub(S + 2, c, x);
        r_set_q(c, 1, 2);  r_mul(x, s, S + 3); r_sub(S + 1, c, x);
        r_set_si(c, 1);    r_mul(x, s, S + 2); r_sub(S + 0, c, x);
        return CL_OK;
    }
    r_sqrt(th, s);
    r_sin(t, th);
    r_div(S + 0, t, th);                 /* S1 = sin θ/θ */
    r_mul_2si(x, th, -1);
    r_sin(t, x);
    r_sqr(t, t);
    r_mul_2si(t, t, 1);
    r_div(S + 1, t, s);                  /* S2 = 2 sin²(θ/2)/θ² */
    r_si_sub(t, 1, S + 0); r_div(S + 2, t, s);                  /* S3 = (1 − S1)/s */
    r_set_q(c, 1, 2);  r_sub(t, c, S + 1); r_div(S + 3, t, s);  /* S4 = (1/2 − S2)/s */
    r_set_q(c, 1, 6);  r_sub(t, c, S + 2); r_div(S + 4, t, s);  /* S5 = (1/6 − S3)/s */
    r_set_q(c, 1, 24); r_sub(t, c, S + 3); r_div(S + 5, t, s);  /* S6 = (1/24 − S4)/s */
    return CL_OK;
}

/* r = c0 x + c1 u × x + c2 u × (u × x)  (the matrix c0 I + c1 û + c2 û² applied to x). */
static void quad_apply(rptr r, rsrc c0, rsrc c1, rsrc c2, rsrc u, rsrc x)
{
    cl_prec_t p = r_prec(r);
    RV_DECL(ux, 3, p); RV_DECL(uux, 3, p); RV_DECL(o, 3, p);
    v3_cross(ux, u, x);
    v3_cross(uux, u, ux);
    for (int i = 0; i < 3; i++) {
        r_mul(o + i, c0, x + i);
        r_addmul(o + i, c1, ux + i);
        r_addmul(o + i, c2, uux + i);
    }
    v3_set(r, o);
}

static int finite6(rsrc xi) { return CL_FN(cl_rvec_is_finite)(xi, 6); }

int CL_FN(cl_so3_exp)(rptr R, rsrc u)
{
    cl_prec_t p = r_prec(R);
    if (!CL_FN(cl_rvec_is_finite)(u, 3)) return CL_ENAN;
    RV_DECL(S, 6, p); RV_DECL(U, 9, p);
    R_DECL(s, p); R_DECL(cs, p);
    v3_dot(s, u, u);
    int st = CL_FN(cl_lie_sincos_remainders)(S, s);
    if (st) return st;
    r_mul(cs, s, S + 1);
    r_si_sub(cs, 1, cs);                 /* cos θ = 1 − θ² S2 */
    m3_hat(U, u);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            rptr e = R + 3 * i + j;
            r_mul(e, u + i, u + j);
            r_mul(e, e, S + 1);
            r_addmul(e, S + 0, U + 3 * i + j);
            if (i == j) r_add(e, e, cs);
        }
    return CL_OK;
}

int CL_FN(cl_se3_exp)(rptr g, rsrc xi)
{
    cl_prec_t p = r_prec(g);
    if (!finite6(xi)) return CL_ENAN;
    RV_DECL(S, 6, p); RV_DECL(a, 3, p);
    R_DECL(s, p); R_DECL(uv, p);
    int st = CL_FN(cl_so3_exp)(g, xi);
    if (st) return st;
    v3_dot(s, xi, xi);
    CL_FN(cl_lie_sincos_remainders)(S, s);
    /* a = V v = S1 v + S2 u × v + S3 (u·v) u, i.e. (S1 I + S2 û + S3 (û² + s I)) v. */
    v3_cross(a, xi, xi + 3);
    v3_dot(uv, xi, xi + 3);
    r_mul(uv, uv, S + 2);
    for (int i = 0; i < 3; i++) {
        r_mul(g + 9 + i, S + 0, xi + 3 + i);
        r_addmul(g + 9 + i, S + 1, a + i);
        r_addmul(g + 9 + i, uv, xi + i);
    }
    return CL_OK;
}

void CL_FN(cl_se3_bracket)(rptr out, rsrc xi, rsrc eta)
{
    cl_prec_t p = r_prec(out);
    RV_DECL(a, 3, p); RV_DECL(b, 3, p); RV_DECL(c, 3, p);
    v3_cross(a, xi, eta);
    v3_cross(b, xi, eta + 3);
    v3_cross(c, xi + 3, eta);
    v3_add(b, b, c);
    v3_set(out, a);
    v3_set(out + 3, b);
}

void CL_FN(cl_se3n_bracket)(rptr out, rsrc xi, rsrc eta, size_t n)
{
    for (size_t i = 0; i < n; i++) CL_FN(cl_se3_bracket)(out + 6 * i, xi + 6 * i, eta + 6 * i);
}

int CL_FN(cl_se3_dexp)(rptr out, rsrc xi, rsrc eta)
{
    cl_prec_t p = r_prec(out);
    if (!finite6(xi) || !finite6(eta)) return CL_ENAN;
    RV_DECL(S, 6, p); RV_DECL(r, 6, p); RV_DECL(w, 3, p); RV_DECL(z, 3, p);
    R_DECL(s, p); R_DECL(one, p); R_DECL(d2, p); R_DECL(d3, p); R_DECL(uv, p); R_DECL(x, p);
    rsrc u = xi, v = xi + 3;
    v3_dot(s, u, u);
    CL_FN(cl_lie_sincos_remainders)(S, s);
    r_set_si(one, 1);
    quad_apply(r, one, S + 1, S + 2, u, eta);          /* J η_u */
    quad_apply(r + 3, one, S + 1, S + 2, u, eta + 3);  /* J η_v */
    /* S2' = (−S3 + 2 S4)/2, S3' = (−S4 + 3 S5)/2. */
    r_mul_si(d2, S + 3, 2); r_sub(d2, d2, S + 2); r_mul_2si(d2, d2, -1);
    r_mul_si(d3, S + 4, 3); r_sub(d3, d3, S + 3); r_mul_2si(d3, d3, -1);
    v3_dot(uv, u, v);
    r_mul_2si(uv, uv, 1);
    /* Q η_u = S2 v × η_u + S3 (u × (v × η_u) + v × (u × η_u)) + 2(u·v)(S2' u × η_u + S3' u × (u × η_u)). */
    v3_cross(w, v, eta);
    v3_cross(z, u, w);
    for (int i = 0; i < 3; i++) { r_addmul(r + 3 + i, S + 1, w + i); r_addmul(r + 3 + i, S + 2, z + i); }
    v3_cross(w, u, eta);
    v3_cross(z, v, w);
    for (int i = 0; i < 3; i++) r_addmul(r + 3 + i, S + 2, z + i);
    r_mul(d2, d2, uv); r_mul(d3, d3, uv);
    r_set_zero(x);
    quad_apply(w, x, d2, d3, u, eta);
    v3_add(r + 3, r + 3, w);
    for (int i = 0; i < 6; i++) r_set(out + i, r + i);
    return CL_OK;
}

int CL_FN(cl_se3_dexpinv)(rptr out, rsrc xi, rsrc eta)
{
    cl_prec_t p = r_prec(out);
    if (!finite6(xi) || !finite6(eta)) return CL_ENAN;
    RV_DECL(S, 6, p); RV_DECL(r, 6, p); RV_DECL(w, 3, p); RV_DECL(z, 3, p);
    R_DECL(s, p); R_DECL(one, p); R_DECL(half, p); R_DECL(beta, p); R_DECL(dbeta, p);
    R_DECL(nn, p); R_DECL(dn, p); R_DECL(d2, p); R_DECL(x, p); R_DECL(uv, p);
    rsrc u = xi, v = xi + 3;
    v3_dot(s, u, u);
    r_const_pi(x);
    r_sqr(x, x);
    r_mul_si(x, x, 4);
    if (r_cmp(s, x) >= 0) return CL_EDOMAIN;  /* θ ≥ 2π: pole of z/(e^z − 1) */
    CL_FN(cl_lie_sincos_remainders)(S, s);
    /* β = N/(2 S2), N = S3 − 2 S4;  β' = (N' S2 − N S2')/(2 S2²),
     * N' = S3' − 2 S4' = −S4/2 + 5 S5/2 − 4 S6,  S2' = (−S3 + 2 S4)/2. */
    r_mul_si(nn, S + 3, 2); r_sub(nn, S + 2, nn);
    r_mul_2si(beta, S + 1, 1); r_div(beta, nn, beta);
    r_mul_si(dn, S + 4, 5); r_sub(dn, dn, S + 3); r_mul_2si(dn, dn, -1);
    r_mul_si(x, S + 5, 4); r_sub(dn, dn, x);
    r_mul_si(d2, S + 3, 2); r_sub(d2, d2, S + 2); r_mul_2si(d2, d2, -1);
    r_mul(dbeta, dn, S + 1);
    r_submul(dbeta, nn, d2);
    r_sqr(x, S + 1); r_mul_2si(x, x, 1);
    r_div(dbeta, dbeta, x);
    r_set_si(one, 1);
    r_set_q(half, -1, 2);
    quad_apply(r, one, half, beta, u, eta);          /* G η_u */
    quad_apply(r + 3, one, half, beta, u, eta + 3);  /* G η_v */
    /* L η_u = −½ v × η_u + β (u × (v × η_u) + v × (u × η_u)) + 2 (u·v) β' u × (u × η_u). */
    v3_cross(w, v, eta);
    v3_cross(z, u, w);
    for (int i = 0; i < 3; i++) { r_addmul(r + 3 + i, half, w + i); r_addmul(r + 3 + i, beta, z + i); }
    v3_cross(w, u, eta);
    v3_cross(z, v, w);
    for (int i = 0; i < 3; i++) r_addmul(r + 3 + i, beta, z + i);
    v3_dot(uv, u, v);
    r_mul_2si(uv, uv, 1);
    r_mul(dbeta, dbeta, uv);
    v3_cross(z, u, w);
    for (int i = 0; i < 3; i++) r_addmul(r + 3 + i, dbeta, z + i);
    for (int i = 0; i < 6; i++) r_set(out + i, r + i);
    return CL_OK;
}

/* B_k/k! for k = 0..18 as exact rationals. */
static const long bern_num[19] = {1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 1, 0, -691, 0, 1, 0, -3617, 0, 43867};
static const long bern_den[19] = {1, 2, 12, 1, 720, 1, 30240, 1, 1209600, 1, 47900160, 1,
                                  1307674368000L, 1, 74724249600L, 1, 10670622842880000L, 1,
                                  5109094217170944000L};
#define CL_LIE_SERIES_MAX 18

int CL_FN(cl_se3_dexpinv_series)(rptr out, rsrc xi, rsrc eta, int order)
{
    cl_prec_t p = r_prec(out);
    if (order < 0 || order > CL_LIE_SERIES_MAX) return CL_EDIM;
    if (!finite6(xi) || !finite6(eta)) return CL_ENAN;
    RV_DECL(acc, 6, p); RV_DECL(ad, 6, p);
    R_DECL(b, p);
    for (int i = 0; i < 6; i++) { r_set(acc + i, eta + i); r_set(ad + i, eta + i); }
    for (int k = 1; k <= order; k++) {
        CL_FN(cl_se3_bracket)(ad, xi, ad);
        if (!bern_num[k]) continue;
        r_set_q(b, bern_num[k], bern_den[k]);
        for (int i = 0; i < 6; i++) r_addmul(acc + i, b, ad + i);
    }
    for (int i = 0; i < 6; i++) r_set(out + i, acc + i);
    return CL_OK;
}

int CL_FN(cl_se3n_dexpinv)(rptr out, rsrc xi, rsrc eta, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int st = CL_FN(cl_se3_dexpinv)(out + 6 * i, xi + 6 * i, eta + 6 * i);
        if (st) return st;
    }
    return CL_OK;
}

int CL_FN(cl_se3n_dexpinv_series)(rptr out, rsrc xi, rsrc eta, size_t n, int order)
{
    for (size_t i = 0; i < n; i++) {
        int st = CL_FN(cl_se3_dexpinv_series)(out + 6 * i, xi + 6 * i, eta + 6 * i, order);
        if (st) return st;
    }
    return CL_OK;
}

/* ------------------------------------------------------------ integrators */

/* Dormand–Prince 5(4): a_ij (row i lists j < i), b (fifth order), b̂ (fourth order). */
static const long dp_a[7][6][2] = {
    {{0, 1}},
    {{1, 5}},
    {{3, 40}, {9, 40}},
    {{44, 45}, {-56, 15}, {32, 9}},
    {{19372, 6561}, {-25360, 2187}, {64448, 6561}, {-212, 729}},
    {{9017, 3168}, {-355, 33}, {46732, 5247}, {49, 176}, {-5103, 18656}},
    {{35, 384}, {0, 1}, {500, 1113}, {125, 192}, {-2187, 6784}, {11, 84}},
};
static const long dp_bh[7][2] = {{5179, 57600}, {0, 1}, {7571, 16695}, {393, 640},
                                 {-92097, 339200}, {187, 2100}, {1, 40}};
static const long rk4_a[4][3][2] = {{{0, 1}}, {{1, 2}}, {{0, 1}, {1, 2}}, {{0, 1}, {0, 1}, {1, 1}}};
static const long rk4_b[4][2] = {{1, 6}, {1, 3}, {1, 3}, {1, 6}};
/* CF4 weights of the two final exponentials. */
static const long cf4_b1[4][2] = {{1, 4}, {1, 6}, {1, 6}, {-1, 12}};
static const long cf4_b2[4][2] = {{-1, 12}, {1, 6}, {1, 6}, {1, 4}};

enum { NCOEF = 7 * 7 + 7 + 7 + CL_LIE_SERIES_MAX + 1 };

struct CL_FN(cl_lie_integrator) {
    CL_FN(cl_lie_problem) pb;
    int method;
    cl_prec_t prec;
    int series_order; /* −1: closed-form dexp⁻¹ */
    long nevals;
    long max_evals;  /* budget of cl_lie_set_budget(); 0: the default */
    long eval_limit; /* nevals at which the current call runs out of budget */
    int fsal_valid;
    int nstages;
    rptr block;
    rptr k[7];
    rptr u, uh, t1, t2, fraw, fsal;
    rptr y0, ys, y1, yh;
    rptr a;    /* a[7·i + j], stage coefficients */
    rptr b;    /* b[j] */
    rptr bh;   /* b̂[j] (RKMK45) or the second CF4 weights */
    rptr bern; /* B_k/k! */
};

static void set_q(rptr r, const long q[2]) { r_set_q(r, q[0], q[1] ? q[1] : 1); }

/* What cl_lie_new() refuses before it allocates (lie_decl.h): 0 or the status. */
static int lie_check(const CL_FN(cl_lie_problem) *pb, int method, cl_prec_t prec)
{
    if (!pb || !pb->field || !pb->exp_act) return CL_EPARAM;
    /* 13 vectors of 𝔤 and 4 of M in one block: dimensions whose count would wrap are refused */
    if (!pb->dim_g || !pb->dim_m || pb->dim_g > SIZE_MAX / 64 || pb->dim_m > SIZE_MAX / 64) return CL_EDIM;
    if (cl_lie_method_order(method) == 0) return CL_EPARAM;
    if (CL_PREC == CL_MPFR && cl_prec_check(prec)) return CL_EPREC;
    int rkmk = method == CL_LIE_RKMK4 || method == CL_LIE_RKMK45;
    return rkmk && !pb->dexpinv && !pb->bracket ? CL_EPARAM : CL_OK;
}

/* The stage coefficients and weights of w->method, exact rationals at w's precision. */
static void lie_set_coefficients(CL_FN(cl_lie_integrator) *w)
{
    for (int k = 0; k <= CL_LIE_SERIES_MAX; k++) r_set_q(w->bern + k, bern_num[k], bern_den[k]);
    switch (w->method) {
    case CL_LIE_RKMK4:
        w->nstages = 4;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < i; j++) set_q(w->a + 7 * i + j, rk4_a[i][j]);
            set_q(w->b + i, rk4_b[i]);
        }
        break;
    case CL_LIE_RKMK45:
        w->nstages = 7;
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < i; j++) set_q(w->a + 7 * i + j, dp_a[i][j]);
            set_q(w->bh + i, dp_bh[i]);
        }
        for (int j = 0; j < 6; j++) set_q(w->b + j, dp_a[6][j]);
        r_set_zero(w->b + 6);
        break;
    case CL_LIE_CF4:
        w->nstages = 4;
        for (int i = 0; i < 4; i++) { set_q(w->b + i, cf4_b1[i]); set_q(w->bh + i, cf4_b2[i]); }
        break;
    default:
        w->nstages = 1;
        break;
    }
}

int CL_FN(cl_lie_new)(CL_FN(cl_lie_integrator) **out, const CL_FN(cl_lie_problem) *pb, int method, cl_prec_t prec)
{
    *out = NULL;
    int st = lie_check(pb, method, prec);
    if (st) return st;
    CL_FN(cl_lie_integrator) *w = calloc(1, sizeof *w);
    if (!w) return CL_ENOMEM;
    size_t ng = pb->dim_g, nm = pb->dim_m;
    w->block = CL_FN(cl_rvec_new)(13 * ng + 4 * nm + NCOEF, prec);
    if (!w->block) {
        free(w);
        return CL_ENOMEM;
    }
    w->pb = *pb;
    w->method = method;
    w->prec = prec;
    w->series_order = -1;
    int rkmk = method == CL_LIE_RKMK4 || method == CL_LIE_RKMK45;
    if (rkmk && !pb->dexpinv) w->series_order = method == CL_LIE_RKMK4 ? 2 : 4;
    rptr m = RV_CARVE(w->block, ng, &w->k[0], &w->k[1], &w->k[2], &w->k[3], &w->k[4], &w->k[5], &w->k[6],
                      &w->u, &w->uh, &w->t1, &w->t2, &w->fraw, &w->fsal);
    m = RV_CARVE(m, nm, &w->y0, &w->ys, &w->y1, &w->yh);
    w->a = m;
    RV_CARVE(m + 49, 7, &w->b, &w->bh, &w->bern);
    lie_set_coefficients(w);
    *out = w;
    return CL_OK;
}

void CL_FN(cl_lie_free)(CL_FN(cl_lie_integrator) *w)
{
    if (!w) return;
    CL_FN(cl_rvec_free)(w->block);
    free(w);
}

int CL_FN(cl_lie_set_dexpinv_series)(CL_FN(cl_lie_integrator) *w, int order)
{
    if (order > CL_LIE_SERIES_MAX) return CL_EDIM;
    if (order < 0) {
        if (!w->pb.dexpinv) return CL_EPARAM;
        w->series_order = -1;
        return CL_OK;
    }
    if (!w->pb.bracket) return CL_EPARAM;
    w->series_order = order;
    return CL_OK;
}

long CL_FN(cl_lie_nevals)(const CL_FN(cl_lie_integrator) *w) { return w->nevals; }

void CL_FN(cl_lie_set_budget)(CL_FN(cl_lie_integrator) *w, long max_evals) { w->max_evals = max_evals > 0 ? max_evals : 0; }

/* Start the budget of one call: \p dflt evaluations unless one was set. */
static void budget_start(CL_FN(cl_lie_integrator) *w, double dflt)
{
    double b = w->max_evals > 0 ? (double)w->max_evals : dflt;
    w->eval_limit = (double)w->nevals + b < (double)LONG_MAX ? w->nevals + (long)b : LONG_MAX;
}

static int eval_field(CL_FN(cl_lie_integrator) *w, rptr xi, rsrc y)
{
    if (w->nevals >= w->eval_limit) return CL_EBUDGET;
    if (!(w->nevals & 15) && cl_cpu_budget_spent()) return CL_ETIME;
    w->nevals++;
    return w->pb.field(w->pb.ctx, xi, y);
}

/* out = dexp_u⁻¹(eta): closed form, or the Bernoulli series through the bracket. */
static int dexpinv_apply(CL_FN(cl_lie_integrator) *w, rptr out, rsrc u, rsrc eta)
{
    if (w->series_order < 0) return w->pb.dexpinv(w->pb.ctx, out, u, eta);
    size_t n = w->pb.dim_g;
    CL_FN(cl_rvec_copy)(out, eta, n);
    CL_FN(cl_rvec_copy)(w->t1, eta, n);
    for (int k = 1; k <= w->series_order; k++) {
        int st = w->pb.bracket(w->pb.ctx, w->t2, u, w->t1);
        if (st) return st;
        rptr tmp = w->t1; w->t1 = w->t2; w->t2 = tmp;
        if (r_is_zero(w->bern + k)) continue;
        for (size_t i = 0; i < n; i++) r_addmul(out + i, w->bern + k, w->t1 + i);
    }
    return CL_OK;
}

/* out = h Σ_{j<m} c[stride·j] k[j]. */
static void combine(const CL_FN(cl_lie_integrator) *w, rptr out, rsrc c, int stride, int m, rsrc h)
{
    size_t n = w->pb.dim_g;
    R_DECL(x, w->prec);
    for (size_t i = 0; i < n; i++) r_set_zero(out + i);
    for (int j = 0; j < m; j++) {
        if (r_is_zero(c + stride * j)) continue;
        r_mul(x, h, c + stride * j);
        for (size_t i = 0; i < n; i++) r_addmul(out + i, x, w->k[j] + i);
    }
}

/* The RKMK stages k_0..k_{s−1} from y0 (k_0 = f(y0), taken from the FSAL cache when valid). */
static int rkmk_stages(CL_FN(cl_lie_integrator) *w, rsrc h, int nst)
{
    int st;
    size_t ng = w->pb.dim_g;
    if (w->fsal_valid) CL_FN(cl_rvec_copy)(w->k[0], w->fsal, ng);
    else if ((st = eval_field(w, w->k[0], w->y0))) return st;
    for (int i = 1; i < nst; i++) {
        combine(w, w->u, w->a + 7 * i, 1, i, h);
        if ((st = w->pb.exp_act(w->pb.ctx, w->ys, w->u, w->y0))) return st;
        if ((st = eval_field(w, w->fraw, w->ys))) return st;
        if ((st = dexpinv_apply(w, w->k[i], w->u, w->fraw))) return st;
    }
    return CL_OK;
}

static int step_core(CL_FN(cl_lie_integrator) *w, rsrc h)
{
    int st;
    size_t ng = w->pb.dim_g;
    void *ctx = w->pb.ctx;
    switch (w->method) {
    case CL_LIE_EULER: {
        R_DECL(one, w->prec);
        r_set_si(one, 1);
        if ((st = eval_field(w, w->k[0], w->y0))) return st;
        combine(w, w->u, one, 0, 1, h);
        return w->pb.exp_act(ctx, w->y1, w->u, w->y0);
    }
    case CL_LIE_RKMK4:
    case CL_LIE_RKMK45:
        if ((st = rkmk_stages(w, h, w->method == CL_LIE_RKMK4 ? 4 : 6))) return st;
        combine(w, w->u, w->b, 1, w->method == CL_LIE_RKMK4 ? 4 : 6, h);
        return w->pb.exp_act(ctx, w->y1, w->u, w->y0);
    case CL_LIE_CF4: {
        R_DECL(c, w->prec);
        /* Y2 = exp(h F1/2)·y0, Y3 = exp(h F2/2)·y0, Y4 = exp(h (F3 − F1/2))·Y2;
         * y_{1/2} = exp(h(F1/4 + F2/6 + F3/6 − F4/12))·y0, y1 = exp(h(−F1/12 + F2/6 + F3/6 + F4/4))·y_{1/2}. */
        if ((st = eval_field(w, w->k[0], w->y0))) return st;
        r_mul_2si(c, h, -1);
        for (size_t i = 0; i < ng; i++) r_mul(w->u + i, c, w->k[0] + i);
        if ((st = w->pb.exp_act(ctx, w->yh, w->u, w->y0))) return st;     /* Y2 */
        if ((st = eval_field(w, w->k[1], w->yh))) return st;
        for (size_t i = 0; i < ng; i++) r_mul(w->u + i, c, w->k[1] + i);
        if ((st = w->pb.exp_act(ctx, w->ys, w->u, w->y0))) return st;     /* Y3 */
        if ((st = eval_field(w, w->k[2], w->ys))) return st;
        for (size_t i = 0; i < ng; i++) {
            r_mul(w->u + i, h, w->k[2] + i);
            r_submul(w->u + i, c, w->k[0] + i);
        }
        if ((st = w->pb.exp_act(ctx, w->ys, w->u, w->yh))) return st;     /* Y4 */
        if ((st = eval_field(w, w->k[3], w->ys))) return st;
        combine(w, w->u, w->b, 1, 4, h);
        if ((st = w->pb.exp_act(ctx, w->yh, w->u, w->y0))) return st;
        combine(w, w->u, w->bh, 1, 4, h);
        return w->pb.exp_act(ctx, w->y1, w->u, w->yh);
    }
    default:
        return CL_EPARAM;
    }
}

static int step_once(CL_FN(cl_lie_integrator) *w, rptr y, rsrc h)
{
    size_t nm = w->pb.dim_m;
    CL_FN(cl_rvec_copy)(w->y0, y, nm);
    w->fsal_valid = 0;
    int st = step_core(w, h);
    if (st) return st;
    CL_FN(cl_rvec_copy)(y, w->y1, nm);
    return CL_OK;
}

int CL_FN(cl_lie_step)(CL_FN(cl_lie_integrator) *w, rptr y, rsrc h)
{
    budget_start(w, (double)LONG_MAX);
    return step_once(w, y, h);
}

int CL_FN(cl_lie_integrate_fixed)(CL_FN(cl_lie_integrator) *w, rptr y, rsrc h, long nsteps)
{
    budget_start(w, (double)LONG_MAX);
    for (long n = 0; n < nsteps; n++) {
        int st = step_once(w, y, h);
        if (st) return st;
    }
    return CL_OK;
}

int CL_FN(cl_lie_integrate_adaptive)(CL_FN(cl_lie_integrator) *w, rptr y, rsrc t0, rsrc t1, rptr h,
                                     rsrc rtol, rsrc atol, long *nacc, long *nrej)
{
    cl_prec_t p = w->prec;
    size_t nm = w->pb.dim_m;
    int st;
    long acc = 0, rej = 0;
    if (w->method != CL_LIE_RKMK45) return CL_EPARAM;
    if (!r_is_number(t0) || !r_is_number(t1) || !r_is_number(h) || !r_is_number(rtol) || !r_is_number(atol))
        return CL_ENAN;
    if (r_cmp(t1, t0) <= 0 || r_sgn(h) <= 0 || r_sgn(rtol) < 0 || r_sgn(atol) < 0) return CL_EPARAM;
    {
        R_DECL(span, p);
        r_sub(span, t1, t0);
        budget_start(w, (double)CL_LIE_BUDGET_PER_TIME * fmax(1.0, r_get_d(span)));
    }
    R_DECL(t, p); R_DECL(hh, p); R_DECL(floor_tol, p); R_DECL(rt, p); R_DECL(at, p);
    R_DECL(x, p); R_DECL(sc, p); R_DECL(err, p); R_DECL(e, p); R_DECL(hmin, p);
    r_set_eps(floor_tol);
    r_mul_si(floor_tol, floor_tol, 64);
    r_set(rt, rtol);
    if (r_cmp(rt, floor_tol) < 0) r_set(rt, floor_tol);
    r_set(at, atol);
    if (r_cmp(at, floor_tol) < 0) r_set(at, floor_tol);
    r_set(t, t0);
    CL_FN(cl_rvec_copy)(w->y0, y, nm);
    w->fsal_valid = 0;
    int last = 0;
    while (!last) {
        r_abs(hmin, t);
        if (r_cmp_d(hmin, 1.0) < 0) r_set_si(hmin, 1);
        r_set_eps(x);
        r_mul(hmin, hmin, x);
        r_mul_si(hmin, hmin, 16);
        r_sub(x, t1, t);
        r_set(hh, h);
        /* Take the whole remainder when the step reaches it or would leave less
           than the smallest step: a sliver of a few units of rounding at the end
           of an interval is not a step-size underflow. */
        r_sub(e, x, hh);
        if (r_cmp(e, hmin) <= 0) { r_set(hh, x); last = 1; }
        if (!last && r_cmp(hh, hmin) < 0) { st = CL_ESTEP; goto out; }
        if ((st = rkmk_stages(w, hh, 6))) goto out;
        combine(w, w->u, w->b, 1, 6, hh);
        if ((st = w->pb.exp_act(w->pb.ctx, w->y1, w->u, w->y0))) goto out;
        /* Seventh stage at u7 = u: f(y1) is the next step's first stage. */
        if ((st = eval_field(w, w->fsal, w->y1))) goto out;
        if ((st = dexpinv_apply(w, w->k[6], w->u, w->fsal))) goto out;
        combine(w, w->uh, w->bh, 1, 7, hh);
        if ((st = w->pb.exp_act(w->pb.ctx, w->yh, w->uh, w->y0))) goto out;
        r_set_zero(err);
        for (size_t i = 0; i < nm; i++) {
            r_abs(sc, w->y0 + i);
            r_abs(x, w->y1 + i);
            if (r_cmp(x, sc) > 0) r_set(sc, x);
            r_fma(sc, sc, rt, at);
            r_sub(e, w->y1 + i, w->yh + i);
            r_abs(e, e);
            r_div(e, e, sc);
            if (r_cmp(e, err) > 0) r_set(err, e);
        }
        double l2 = r_log2abs(err);
        double fac = l2 == -INFINITY ? 5.0 : 0.9 * exp2(-l2 / 5.0);
        if (fac > 5.0) fac = 5.0;
        if (fac < 0.2) fac = 0.2;
        if (r_cmp_d(err, 1.0) <= 0) {
            acc++;
            CL_FN(cl_rvec_copy)(w->y0, w->y1, nm);
            w->fsal_valid = 1;
            if (last) r_set(t, t1);
            else r_add(t, t, hh);
            if (!last) r_mul_d(h, hh, fac);
        } else {
            rej++;
            w->fsal_valid = 0;
            last = 0;
            r_mul_d(h, hh, fac > 1.0 ? 1.0 : fac);
            /* f(y0) is still the first stage of the retried step. */
            CL_FN(cl_rvec_copy)(w->fsal, w->k[0], w->pb.dim_g);
            w->fsal_valid = 1;
        }
    }
    st = CL_OK;
out:
    CL_FN(cl_rvec_copy)(y, w->y0, nm);
    w->fsal_valid = 0;
    if (nacc) *nacc = acc;
    if (nrej) *nrej = rej;
    return st;
}

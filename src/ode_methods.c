/*
 * The methods of the ODE integrators, one step each at the working
 * precision: classical RK4, Fehlberg's embedded 7(8) pair, implicit
 * Gauss–Legendre collocation with s stages (its tableau computed at the
 * working precision) and Gragg–Bulirsch–Stoer extrapolation. Every
 * coefficient is an exact rational set with r_set_q or a quantity computed
 * at the working precision. The workspace is ode.c's, the driver with error
 * control and events ode_drive.c's.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ode.h"
#include "ode_impl.h"

/* ------------------------------------------------------------ Fehlberg 7(8)
 * E. Fehlberg, NASA TR R-287 (1968), Table X: nodes c, matrix a (row i has
 * i entries), order-8 weights b8, and the order-7 minus order-8 weights
 * e = (41/840)·(1, 0, …, 0, 1, −1, −1) at stages 0, 10, 11, 12. */
static const long rkf_c[13][2] = {
    {0, 1}, {2, 27}, {1, 9}, {1, 6}, {5, 12}, {1, 2}, {5, 6}, {1, 6}, {2, 3}, {1, 3}, {1, 1}, {0, 1}, {1, 1}};
static const long rkf_a[13][12][2] = {
    {{0, 1}},
    {{2, 27}},
    {{1, 36}, {1, 12}},
    {{1, 24}, {0, 1}, {1, 8}},
    {{5, 12}, {0, 1}, {-25, 16}, {25, 16}},
    {{1, 20}, {0, 1}, {0, 1}, {1, 4}, {1, 5}},
    {{-25, 108}, {0, 1}, {0, 1}, {125, 108}, {-65, 27}, {125, 54}},
    {{31, 300}, {0, 1}, {0, 1}, {0, 1}, {61, 225}, {-2, 9}, {13, 900}},
    {{2, 1}, {0, 1}, {0, 1}, {-53, 6}, {704, 45}, {-107, 9}, {67, 90}, {3, 1}},
    {{-91, 108}, {0, 1}, {0, 1}, {23, 108}, {-976, 135}, {311, 54}, {-19, 60}, {17, 6}, {-1, 12}},
    {{2383, 4100}, {0, 1}, {0, 1}, {-341, 164}, {4496, 1025}, {-301, 82}, {2133, 4100}, {45, 82}, {45, 164},
     {18, 41}},
    {{3, 205}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {-6, 41}, {-3, 205}, {-3, 41}, {3, 41}, {6, 41}, {0, 1}},
    {{-1777, 4100}, {0, 1}, {0, 1}, {-341, 164}, {4496, 1025}, {-289, 82}, {2193, 4100}, {51, 82}, {33, 164},
     {12, 41}, {0, 1}, {1, 1}}};
static const long rkf_b8[13][2] = {
    {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {34, 105}, {9, 35}, {9, 35}, {9, 280}, {9, 280}, {0, 1}, {41, 840}, {41, 840}};
static const long rkf_e[13][2] = {
    {41, 840}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {41, 840}, {-41, 840}, {-41, 840}};

void CL_FN(cl_ode_rkf78_tableau)(rptr c, rptr A, rptr b, rptr e)
{
    for (int i = 0; i < 13; i++) {
        r_set_q(c + i, rkf_c[i][0], rkf_c[i][1]);
        r_set_q(b + i, rkf_b8[i][0], rkf_b8[i][1]);
        r_set_q(e + i, rkf_e[i][0], rkf_e[i][1]);
        for (int j = 0; j < i; j++) r_set_q(A + 13 * i + j, rkf_a[i][j][0], rkf_a[i][j][1]);
    }
}

/* --------------------------------------------------------- Gauss–Legendre */

/* P = P_s(x), dP = P_s'(x) by the three-term recurrence. */
static void legendre(int s, rsrc x, rptr P, rptr dP)
{
    cl_prec_t p = r_prec(P);
    R_DECL(p0, p); R_DECL(p1, p); R_DECL(p2, p); R_DECL(w, p);
    r_set_si(p0, 1);
    r_set(p1, x);
    for (int m = 1; m < s; m++) {
        /* (m+1) P_{m+1} = (2m+1) x P_m − m P_{m−1} */
        r_mul(p2, x, p1);
        r_mul_si(p2, p2, 2 * m + 1);
        r_mul_si(w, p0, m);
        r_sub(p2, p2, w);
        r_div_si(p2, p2, m + 1);
        r_set(p0, p1);
        r_set(p1, p2);
    }
    if (s == 0) r_set_si(p1, 1);
    /* P_s' = s (x P_s − P_{s−1}) / (x² − 1) */
    r_mul(w, x, p1);
    r_sub(w, w, p0);
    r_mul_si(w, w, s);
    r_sqr(p2, x);
    r_add_si(p2, p2, -1);
    r_div(dP, w, p2);
    r_set(P, p1);
}

int CL_FN(cl_ode_gauss_tableau)(int s, rptr c, rptr A, rptr b)
{
    if (s < 1 || s > CL_ODE_GAUSS_MAX_STAGES) return CL_EPARAM;
    cl_prec_t p = r_prec(c);
    R_DECL(x, p); R_DECL(P, p); R_DECL(dP, p); R_DECL(dx, p); R_DECL(w, p);
    R_DECL(half, p); R_DECL(tau, p); R_DECL(l, p); R_DECL(acc, p);
    RV_DECL(den, CL_ODE_GAUSS_MAX_STAGES, p);
    r_set_q(half, 1, 2);
    for (int i = 0; i < (s + 1) / 2; i++) {
        if (2 * i + 1 == s) {
            r_set_zero(x); /* the middle root of P_s for odd s */
        } else {
            r_const_pi(x);
            r_mul_si(x, x, 4 * i + 3);
            r_div_si(x, x, 4 * s + 2);
            r_cos(x, x);
            /* Newton until the correction is below 2^(−p/2), then two more
             * steps: quadratic convergence leaves only rounding. */
            int it = 0, extra = 0;
            for (;;) {
                legendre(s, x, P, dP);
                r_div(dx, P, dP);
                r_sub(x, x, dx);
                if (extra) {
                    if (++extra > 2) break;
                } else if (r_is_zero(dx) || r_log2abs(dx) <= -0.5 * (double)p) {
                    extra = 1;
                }
                if (++it > 200) return CL_ENOCONV;
            }
        }
        legendre(s, x, P, dP);
        /* weight on [0, 1]: 1 / ((1 − x²) P_s'(x)²) */
        r_sqr(w, x);
        r_si_sub(w, 1, w);
        r_mul(w, w, dP);
        r_mul(w, w, dP);
        r_si_div(w, 1, w);
        r_set(b + i, w);
        r_set(b + (s - 1 - i), w);
        /* nodes (1 ∓ x)/2, exactly symmetric about 1/2 */
        r_si_sub(w, 1, x);
        r_mul_2si(c + i, w, -1);
        r_si_sub(c + (s - 1 - i), 1, c + i);
    }
    /* a_ij = ∫_0^{c_i} ℓ_j = c_i Σ_m b_m ℓ_j(c_i c_m) (exact, ℓ_j of degree s−1) */
    for (int j = 0; j < s; j++) {
        r_set_si(den + j, 1);
        for (int k = 0; k < s; k++)
            if (k != j) {
                r_sub(w, c + j, c + k);
                r_mul(den + j, den + j, w);
            }
    }
    for (int i = 0; i < s; i++)
        for (int j = 0; j < s; j++) {
            r_set_zero(acc);
            for (int m = 0; m < s; m++) {
                r_mul(tau, c + i, c + m);
                r_set_si(l, 1);
                for (int k = 0; k < s; k++)
                    if (k != j) {
                        r_sub(w, tau, c + k);
                        r_mul(l, l, w);
                    }
                r_addmul(acc, b + m, l);
            }
            r_div(acc, acc, den + j);
            r_mul(A + i * s + j, acc, c + i);
        }
    return CL_OK;
}

/* ------------------------------------------------------------- workspace */

static int rk4_step(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout)
{
    size_t n = ws->n;
    cl_prec_t p = ws->prec;
    rptr k1 = ws->K, k2 = k1 + n, k3 = k2 + n, k4 = k3 + n, y = ws->y;
    R_DECL(h2, p); R_DECL(h6, p); R_DECL(th, p); R_DECL(w, p);
    r_mul_2si(h2, h, -1);
    r_div_si(h6, h, 6);
    r_add(th, t, h2);
    int st;
    if ((st = call_f(ws, f, ctx, k1, t, x))) return st;
    for (size_t i = 0; i < n; i++) r_fma(y + i, h2, k1 + i, x + i);
    if ((st = call_f(ws, f, ctx, k2, th, y))) return st;
    for (size_t i = 0; i < n; i++) r_fma(y + i, h2, k2 + i, x + i);
    if ((st = call_f(ws, f, ctx, k3, th, y))) return st;
    for (size_t i = 0; i < n; i++) r_fma(y + i, h, k3 + i, x + i);
    r_add(th, t, h);
    if ((st = call_f(ws, f, ctx, k4, th, y))) return st;
    for (size_t i = 0; i < n; i++) {
        r_add(w, k2 + i, k3 + i);
        r_mul_2si(w, w, 1);
        r_add(w, w, k1 + i);
        r_add(w, w, k4 + i);
        r_fma(xout + i, h6, w, x + i);
    }
    return CL_OK;
}

static int rkf78_step(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout,
                      rptr err)
{
    size_t n = ws->n;
    cl_prec_t p = ws->prec;
    rptr K = ws->K, y = ws->y;
    R_DECL(ti, p); R_DECL(s, p);
    int st;
    for (int i = 0; i < 13; i++) {
        rsrc arg = x;
        if (i > 0) {
            for (size_t k = 0; k < n; k++) {
                r_set_zero(s);
                for (int j = 0; j < i; j++)
                    if (!r_is_zero(ws->A + 13 * i + j)) r_addmul(s, ws->A + 13 * i + j, K + j * n + k);
                r_fma(y + k, h, s, x + k);
            }
            arg = y;
        }
        r_fma(ti, ws->c + i, h, t);
        if ((st = call_f(ws, f, ctx, K + i * n, ti, arg))) return st;
    }
    for (size_t k = 0; k < n; k++) {
        r_set_zero(s);
        for (int j = 0; j < 13; j++)
            if (!r_is_zero(ws->b + j)) r_addmul(s, ws->b + j, K + j * n + k);
        r_fma(xout + k, h, s, x + k);
        if (err) {
            r_set_zero(s);
            for (int j = 0; j < 13; j++)
                if (!r_is_zero(ws->e + j)) r_addmul(s, ws->e + j, K + j * n + k);
            r_mul(err + k, h, s);
        }
    }
    return CL_OK;
}

/* Stage equations Z_i = h Σ_j a_ij f(t + c_j h, x + Z_j) by fixed-point
 * iteration from Z = 0, until max |ΔZ| ≤ 4·2^(−p)·max(‖x‖∞, ‖Z‖∞); a stall at
 * the rounding floor (no contraction while ≤ 2^(10−p)·scale) also ends it. */
static int gauss_step(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout)
{
    size_t n = ws->n;
    int s = ws->stages;
    cl_prec_t p = ws->prec;
    rptr F = ws->K, Z = ws->K + (size_t)s * n, y = ws->y;
    R_DECL(tj, p); R_DECL(acc, p); R_DECL(d, p); R_DECL(dmax, p); R_DECL(dprev, p);
    R_DECL(xmax, p); R_DECL(zmax, p); R_DECL(lim, p);
    int st;
    r_set_zero(xmax);
    for (size_t k = 0; k < n; k++)
        if (r_cmpabs(x + k, xmax) > 0) r_abs(xmax, x + k);
    for (size_t k = 0; k < (size_t)s * n; k++) r_set_zero(Z + k);
    long maxit = 64 + 2 * (long)p;
    int stalls = 0;
    for (long it = 0;; it++) {
        for (int j = 0; j < s; j++) {
            for (size_t k = 0; k < n; k++) r_add(y + k, x + k, Z + (size_t)j * n + k);
            r_fma(tj, ws->c + j, h, t);
            if ((st = call_f(ws, f, ctx, F + (size_t)j * n, tj, y))) return st;
        }
        ws->iters++;
        r_set_zero(dmax);
        r_set_zero(zmax);
        for (int i = 0; i < s; i++)
            for (size_t k = 0; k < n; k++) {
                r_set_zero(acc);
                for (int j = 0; j < s; j++) r_addmul(acc, ws->A + i * s + j, F + (size_t)j * n + k);
                r_mul(acc, acc, h);
                rptr z = Z + (size_t)i * n + k;
                r_sub(d, acc, z);
                if (r_cmpabs(d, dmax) > 0) r_abs(dmax, d);
                if (!r_is_number(d)) return CL_ENAN;
                r_set(z, acc);
                if (r_cmpabs(z, zmax) > 0) r_abs(zmax, z);
            }
        if (r_cmp(zmax, xmax) < 0) r_set(zmax, xmax);
        r_mul_2si(lim, zmax, 2 - (long)p);
        if (r_cmp(dmax, lim) <= 0) break;
        if (it > 0 && r_cmp(dmax, dprev) >= 0) {
            r_mul_2si(lim, zmax, 10 - (long)p);
            if (r_cmp(dmax, lim) <= 0) break;
            if (++stalls > 8) return CL_ENOCONV;
        }
        if (it >= maxit) return CL_ENOCONV;
        r_set(dprev, dmax);
    }
    for (size_t k = 0; k < n; k++) {
        r_set_zero(acc);
        for (int j = 0; j < s; j++) r_addmul(acc, ws->b + j, F + (size_t)j * n + k);
        r_fma(xout + k, h, acc, x + k);
    }
    return CL_OK;
}

/* Modified midpoint rule with n_j = 2j substeps for j = 1..k, Aitken–Neville
 * extrapolation in h² row by row; xout = T_kk, err = T_kk − T_{k,k−1}. */
static int gbs_step(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t_in, rsrc x_in, rsrc h_in,
                    rptr xout, rptr err)
{
    size_t n = ws->n;
    int kc = ws->stages;
    cl_prec_t p = ws->gprec;
    rptr T = ws->K, f0 = ws->f0, fv = ws->y, x = ws->gx;
    R_DECL(t, p); R_DECL(h, p);
    R_DECL(hs, p); R_DECL(h2s, p); R_DECL(tm, p); R_DECL(val, p); R_DECL(nv, p); R_DECL(d, p);
    int st;
    r_set(t, t_in);
    r_set(h, h_in);
    for (size_t k = 0; k < n; k++) r_set(x + k, x_in + k);
    if ((st = call_f(ws, f, ctx, f0, t, x))) return st;
    for (long j = 1; j <= kc; j++) {
        long nj = 2 * j;
        rptr zp = ws->u, zc = ws->v;
        r_div_si(hs, h, nj);
        r_mul_2si(h2s, hs, 1);
        for (size_t k = 0; k < n; k++) {
            r_set(zp + k, x + k);
            r_fma(zc + k, hs, f0 + k, x + k);
        }
        for (long m = 1; m < nj; m++) {
            r_mul_si(tm, h, m);
            r_div_si(tm, tm, nj);
            r_add(tm, tm, t);
            if ((st = call_f(ws, f, ctx, fv, tm, zc))) return st;
            for (size_t k = 0; k < n; k++) r_fma(zp + k, h2s, fv + k, zp + k);
            rptr sw = zp; zp = zc; zc = sw;
        }
        /* insert T_j1 = z_{n_j}; T[m−1] holds T_{j−1,m} and becomes T_{j,m} */
        for (size_t k = 0; k < n; k++) {
            r_set(val, zc + k);
            for (long m = 1; m < j; m++) {
                rptr old = T + (size_t)(m - 1) * n + k;
                r_sub(d, val, old);
                r_mul(d, d, ws->A + (j - 1) * kc + (m - 1));
                r_add(nv, val, d);
                r_set(old, val);
                r_set(val, nv);
                if (j == kc && m == j - 1 && err) r_set(err + k, d);
            }
            r_set(T + (size_t)(j - 1) * n + k, val);
        }
    }
    for (size_t k = 0; k < n; k++) r_set(xout + k, T + (size_t)(kc - 1) * n + k);
    return CL_OK;
}

int CL_FN(cl_ode_one_step)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout,
                           rptr err)
{
    switch (ws->method) {
    case CL_ODE_RK4: return rk4_step(ws, f, ctx, t, x, h, xout);
    case CL_ODE_RKF78: return rkf78_step(ws, f, ctx, t, x, h, xout, err);
    case CL_ODE_GAUSS: return gauss_step(ws, f, ctx, t, x, h, xout);
    case CL_ODE_GBS: return gbs_step(ws, f, ctx, t, x, h, xout, err);
    }
    return CL_EPARAM;
}


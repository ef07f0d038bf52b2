/*
 * The hand-written peer of bench_simulate: Taylor's method as heyoka runs
 * it, coded by hand in plain C and MPFR for three systems (the pendulum,
 * the heavy top in (R, W), the double spherical pendulum in (q, q')). Each
 * system writes the order-k coefficient of its field from the state's
 * coefficients 0..k (its own auxiliary series beside them); the driver
 * takes x_{k+1} = f_k/(k+1), heyoka's order ceil(-ln(tol)/2 + 1), the
 * Jorba–Zou step h = rho e^-2 e^(-0.7/(p-1)) and Horner's rule. Every order
 * at the full precision, nothing allocated in the loop.
 */
#ifndef CHARTLESS_BENCH_PEER_TAYLOR_H
#define CHARTLESS_BENCH_PEER_TAYLOR_H
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

enum { PEER_MAX_ROWS = 40, PEER_MAX_CONST = 12 };

typedef struct peer peer;
/* A system: its state's length, its auxiliary rows, its constants from the defaults of its model file. */
typedef struct peer_sys {
    const char *name;
    int n, naux;
    const char *const *konst; /* decimal texts, NULL-terminated: read at the working precision */
    void (*field)(peer *P, int k);     /* the field's order k into P->f */
    void (*derived)(peer *P);          /* the constants the field uses, from konst (once a run) */
} peer_sys;

struct peer {
    const peer_sys *sys;
    int p;
    mpfr_t *row[PEER_MAX_ROWS]; /* the state's rows 0..n-1, then the auxiliary ones: p + 1 coefficients each */
    mpfr_t f[PEER_MAX_ROWS];     /* the field's coefficient of the order being computed */
    mpfr_t k[PEER_MAX_CONST];    /* the system's constants */
    mpfr_t acc, tmp, h, hmax;
};

/* acc = sum_{j=lo}^{hi} a_j b_{m-j}. */
static inline void peer_conv(peer *P, mpfr_ptr acc, const mpfr_t *a, const mpfr_t *b, int lo, int hi, int m)
{
    mpfr_set_zero(acc, 1);
    for (int j = lo; j <= hi; j++) {
        mpfr_mul(P->tmp, a[j], b[m - j], MPFR_RNDN);
        mpfr_add(acc, acc, P->tmp, MPFR_RNDN);
    }
}

/* u_m of u = a / b: (a_m - sum_{j=1}^m b_j u_{m-j}) / b_0. */
static inline void peer_div(peer *P, mpfr_t *u, const mpfr_t *a, const mpfr_t *b, int m)
{
    peer_conv(P, P->acc, b, u, 1, m, m);
    mpfr_sub(P->acc, a[m], P->acc, MPFR_RNDN);
    mpfr_div(u[m], P->acc, b[0], MPFR_RNDN);
}

static inline void peer_init(peer *P, const peer_sys *sys, mpfr_prec_t prec, int p)
{
    memset(P, 0, sizeof *P);
    P->sys = sys;
    P->p = p;
    for (int r = 0; r < sys->n + sys->naux; r++) {
        P->row[r] = malloc((size_t)(p + 1) * sizeof(mpfr_t));
        for (int k = 0; k <= p; k++) mpfr_init2(P->row[r][k], prec);
    }
    for (int r = 0; r < PEER_MAX_ROWS; r++) mpfr_init2(P->f[r], prec);
    for (int c = 0; c < PEER_MAX_CONST; c++) mpfr_init2(P->k[c], prec);
    for (int c = 0; c < PEER_MAX_CONST && sys->konst[c]; c++) mpfr_set_str(P->k[c], sys->konst[c], 10, MPFR_RNDN);
    mpfr_inits2(prec, P->acc, P->tmp, P->h, P->hmax, (mpfr_ptr)0);
    if (sys->derived) sys->derived(P);
}

static inline void peer_clear(peer *P)
{
    for (int r = 0; r < P->sys->n + P->sys->naux; r++) {
        for (int k = 0; k <= P->p; k++) mpfr_clear(P->row[r][k]);
        free(P->row[r]);
    }
    for (int r = 0; r < PEER_MAX_ROWS; r++) mpfr_clear(P->f[r]);
    for (int c = 0; c < PEER_MAX_CONST; c++) mpfr_clear(P->k[c]);
    mpfr_clears(P->acc, P->tmp, P->h, P->hmax, (mpfr_ptr)0);
}

/* log2 max_i |x_{i,k}| over the state. */
static inline double peer_log2(const peer *P, int k)
{
    double m = -INFINITY;
    for (int i = 0; i < P->sys->n; i++) {
        long e;
        double d = mpfr_get_d_2exp(&e, P->row[i][k], MPFR_RNDN);
        if (d != 0) m = fmax(m, (double)e + log2(fabs(d)));
    }
    return m;
}

/* One step from (t, x) to t1 at the latest. */
static inline void peer_step(peer *P, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1)
{
    int n = P->sys->n, p = P->p;
    for (int i = 0; i < n; i++) mpfr_set(P->row[i][0], x + i, MPFR_RNDN);
    for (int k = 0; k < p; k++) {
        P->sys->field(P, k);
        for (int i = 0; i < n; i++) mpfr_div_si(P->row[i][k + 1], P->f[i], k + 1, MPFR_RNDN);
    }
    double lx = peer_log2(P, 0), num = lx > 0 ? lx : 0;
    double rho = fmin((num - peer_log2(P, p)) / p, (num - peer_log2(P, p - 1)) / (p - 1));
    double l = rho + (-2.0 - 0.7 / (p - 1)) / log(2.0), e = floor(l);
    mpfr_set_d(P->h, exp2(l - e), MPFR_RNDN);
    mpfr_mul_2si(P->h, P->h, (long)e, MPFR_RNDN);
    mpfr_sub(P->hmax, t1, t, MPFR_RNDN);
    if (!isfinite(rho) || mpfr_cmp(P->h, P->hmax) >= 0) mpfr_set(P->h, P->hmax, MPFR_RNDN);
    for (int i = 0; i < n; i++) {
        mpfr_set(x + i, P->row[i][p], MPFR_RNDN);
        for (int k = p - 1; k >= 0; k--) mpfr_fma(x + i, x + i, P->h, P->row[i][k], MPFR_RNDN);
    }
    mpfr_add(t, t, P->h, MPFR_RNDN);
}

/* From t = 0 to t1; the steps. */
static inline long peer_run(peer *P, mpfr_ptr x, mpfr_srcptr t1)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x));
    mpfr_set_zero(t, 1);
    long steps = 0;
    for (; mpfr_cmp(t, t1) < 0; steps++) peer_step(P, t, x, t1);
    mpfr_clear(t);
    return steps;
}

/* ---------------------------------------------------------------- the pendulum x'' = -g sin x */

/* rows x, v; aux sin x, cos x. s_k = (1/k) sum_{j=1}^k j x_j c_{k-j}, c_k = -(1/k) sum j x_j s_{k-j}, with j x_j = v_{j-1}. */
static inline void pend_field(peer *P, int k)
{
    mpfr_t *x = P->row[0], *v = P->row[1], *s = P->row[2], *c = P->row[3];
    if (k == 0) {
        mpfr_sin_cos(s[0], c[0], x[0], MPFR_RNDN);
    } else {
        peer_conv(P, P->acc, v, c, 0, k - 1, k - 1);
        mpfr_div_si(s[k], P->acc, k, MPFR_RNDN);
        peer_conv(P, P->acc, v, s, 0, k - 1, k - 1);
        mpfr_div_si(c[k], P->acc, -k, MPFR_RNDN);
    }
    mpfr_set(P->f[0], v[k], MPFR_RNDN);
    mpfr_mul(P->f[1], P->k[0], s[k], MPFR_RNDN);
    mpfr_neg(P->f[1], P->f[1], MPFR_RNDN);
}
static const char *const pend_konst[] = {"9.8", NULL};
static const peer_sys PEER_PEND = {"pendulum", 2, 2, pend_konst, pend_field, NULL};

/* ---------------------------------------------------------------- the heavy top */

/*
 * models/heavy-top.model at its defaults (axis e3): R' = R W^, and
 * J W' = J W x W + m g l Gamma x e3 with Gamma = R^T e3 (the third row of R):
 *   W1' = ((J2 - J3) W2 W3 + m g l R32) / J1
 *   W2' = ((J3 - J1) W3 W1 - m g l R31) / J2
 *   W3' = (J1 - J2) W1 W2 / J3.
 * Constants J1, J2, J3, m g l; derived (J2-J3)/J1, mgl/J1, (J3-J1)/J2, mgl/J2, (J1-J2)/J3 in k[4..8].
 */
static inline void top_derived(peer *P)
{
    mpfr_t *K = P->k;
    mpfr_sub(K[4], K[1], K[2], MPFR_RNDN), mpfr_div(K[4], K[4], K[0], MPFR_RNDN);
    mpfr_div(K[5], K[3], K[0], MPFR_RNDN);
    mpfr_sub(K[6], K[2], K[0], MPFR_RNDN), mpfr_div(K[6], K[6], K[1], MPFR_RNDN);
    mpfr_div(K[7], K[3], K[1], MPFR_RNDN);
    mpfr_sub(K[8], K[0], K[1], MPFR_RNDN), mpfr_div(K[8], K[8], K[2], MPFR_RNDN);
}

/* f = a b - c d at order k. */
static inline void peer_cross_term(peer *P, mpfr_ptr f, const mpfr_t *a, const mpfr_t *b, const mpfr_t *c, const mpfr_t *d, int k)
{
    peer_conv(P, f, a, b, 0, k, k);
    peer_conv(P, P->acc, c, d, 0, k, k);
    mpfr_sub(f, f, P->acc, MPFR_RNDN);
}

static inline void top_field(peer *P, int k)
{
    mpfr_t **R = P->row, *W1 = P->row[9], *W2 = P->row[10], *W3 = P->row[11];
    for (int i = 0; i < 3; i++) { /* (R W^)_i1 = R_i2 W3 - R_i3 W2, _i2 = R_i3 W1 - R_i1 W3, _i3 = R_i1 W2 - R_i2 W1 */
        peer_cross_term(P, P->f[3 * i], R[3 * i + 1], W3, R[3 * i + 2], W2, k);
        peer_cross_term(P, P->f[3 * i + 1], R[3 * i + 2], W1, R[3 * i], W3, k);
        peer_cross_term(P, P->f[3 * i + 2], R[3 * i], W2, R[3 * i + 1], W1, k);
    }
    mpfr_t *K = P->k;
    peer_conv(P, P->f[9], W2, W3, 0, k, k);
    mpfr_mul(P->f[9], P->f[9], K[4], MPFR_RNDN);
    mpfr_fma(P->f[9], K[5], R[7][k], P->f[9], MPFR_RNDN);
    peer_conv(P, P->f[10], W3, W1, 0, k, k);
    mpfr_mul(P->f[10], P->f[10], K[6], MPFR_RNDN);
    mpfr_mul(P->tmp, K[7], R[6][k], MPFR_RNDN);
    mpfr_sub(P->f[10], P->f[10], P->tmp, MPFR_RNDN);
    peer_conv(P, P->f[11], W1, W2, 0, k, k);
    mpfr_mul(P->f[11], P->f[11], K[8], MPFR_RNDN);
}
/* J1, J2, J3, m g l = 1 * 9.81 * 0.25 */
static const char *const top_konst[] = {"1", "2", "3.5", "2.4525", NULL};
static const peer_sys PEER_TOP = {"heavy top", 12, 0, top_konst, top_field, top_derived};

/* ---------------------------------------------------------------- the double spherical pendulum */

/*
 * models/chain2.model at its defaults (m = l = 1): x1 = q1, x2 = q1 + q2,
 * each mass pulled by its rods' tensions and by gravity -g e3:
 *   q1'' = -T1 q1 + T2 q2 - g e3,   q2'' = T1 q1 - 2 T2 q2,
 * the tensions from the constraints q_i . q_i'' = -|q_i'|^2:
 *   T1 - c T2 = a,  -c T1 + 2 T2 = b,  c = q1.q2, a = |q1'|^2 - g q1z, b = |q2'|^2,
 *   T1 = (2a + c b)/d, T2 = (b + c a)/d, d = 2 - c^2.
 * Rows q1 (0-2), q2 (3-5), v1 (6-8), v2 (9-11); aux c, a, b, d, n1, n2, T1, T2, T1 q1 (3), T2 q2 (3).
 */
static inline void chain2_field(peer *P, int k)
{
    mpfr_t **r = P->row, *c = r[12], *a = r[13], *b = r[14], *d = r[15], *n1 = r[16], *n2 = r[17], *T1 = r[18], *T2 = r[19];
    mpfr_ptr g = P->k[0];
    mpfr_set_zero(c[k], 1), mpfr_set_zero(a[k], 1), mpfr_set_zero(b[k], 1);
    for (int i = 0; i < 3; i++) {
        peer_conv(P, P->acc, r[i], r[3 + i], 0, k, k);
        mpfr_add(c[k], c[k], P->acc, MPFR_RNDN);
        peer_conv(P, P->acc, r[6 + i], r[6 + i], 0, k, k);
        mpfr_add(a[k], a[k], P->acc, MPFR_RNDN);
        peer_conv(P, P->acc, r[9 + i], r[9 + i], 0, k, k);
        mpfr_add(b[k], b[k], P->acc, MPFR_RNDN);
    }
    mpfr_mul(P->tmp, g, r[2][k], MPFR_RNDN);
    mpfr_sub(a[k], a[k], P->tmp, MPFR_RNDN);
    peer_conv(P, d[k], c, c, 0, k, k);
    mpfr_neg(d[k], d[k], MPFR_RNDN);
    if (k == 0) mpfr_add_si(d[0], d[0], 2, MPFR_RNDN);
    peer_conv(P, n1[k], c, b, 0, k, k);
    mpfr_mul_2si(P->tmp, a[k], 1, MPFR_RNDN);
    mpfr_add(n1[k], n1[k], P->tmp, MPFR_RNDN);
    peer_conv(P, n2[k], c, a, 0, k, k);
    mpfr_add(n2[k], n2[k], b[k], MPFR_RNDN);
    peer_div(P, T1, n1, d, k);
    peer_div(P, T2, n2, d, k);
    for (int i = 0; i < 3; i++) {
        mpfr_ptr t1q1 = r[20 + i][k], t2q2 = r[23 + i][k];
        peer_conv(P, t1q1, T1, r[i], 0, k, k);
        peer_conv(P, t2q2, T2, r[3 + i], 0, k, k);
        mpfr_set(P->f[i], r[6 + i][k], MPFR_RNDN);
        mpfr_set(P->f[3 + i], r[9 + i][k], MPFR_RNDN);
        mpfr_sub(P->f[6 + i], t2q2, t1q1, MPFR_RNDN);
        mpfr_mul_2si(P->tmp, t2q2, 1, MPFR_RNDN);
        mpfr_sub(P->f[9 + i], t1q1, P->tmp, MPFR_RNDN);
    }
    if (k == 0) mpfr_sub(P->f[8], P->f[8], g, MPFR_RNDN);
}
static const char *const chain2_konst[] = {"9.81", NULL};
static const peer_sys PEER_CHAIN2 = {"double spherical pendulum", 12, 14, chain2_konst, chain2_field, NULL};
#endif

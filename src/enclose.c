/*
 * The validated integrator of enclose.h on Arb balls: the variational graph
 * (a copy of the field's graph with Df and V' = Df V added), the a-priori
 * enclosure by the high-order test, the remainder from it, the step of
 * Lohner's QR method, and the enclosure at an offset inside the last step
 * (for events). Compiled for balls only (SRC_ARB).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scalar.h"
#include "linalg.h"
#include "taylor.h"
#include "enclose.h"

/* Tries of the a-priori test at one step length before it is halved, and its margin. */
#define CL_ENCLOSE_APRIORI_TRIES 4
/* The remainder allowed: 2^(CL_ENCLOSE_REM_SLACK − prec) of max(1, |x|). */
#define CL_ENCLOSE_REM_SLACK 8

struct cl_enclose {
    size_t n, N, nextra;
    int p, q, flags; /* q: the order of the variational series this step */
    long steps;
    cl_prec_t prec;
    cl_expr_dag *g;
    cl_taylor_arb *pt, *var, *probe; /* the point and a-priori box (order p + 1), the variational system, the extras */
    arb_ptr mem;
    arb_ptr t, m, B, r, X, xin, cm, cX, P, W, Z, z, R, zs, err, J, A, M, Q, Qi, C, hs, T, tmp;
    arb_ptr t0, B0, r0; /* the set at the start of the last step, for cl_enclose_within() (m: in cm) */
    char reason[200];
};

/* ------------------------------------------------------- the variational graph */

/* Node id of g copied into e->g (ids ascending are topological); state inputs kept, the time
   input to N, any other input after it. */
static int copy_graph(cl_enclose *e, const cl_expr_dag *g, long tin, int *map)
{
    size_t nn = cl_expr_dag_size(g);
    for (size_t id = 0; id < nn; id++) {
        const cl_expr_node *d = cl_expr_dag_node(g, (int)id);
        if (d->op == CL_EXPR_CONST) {
            const char *s = cl_expr_dag_const(g, d->k);
            map[id] = cl_expr_const(e->g, s, strlen(s), -1);
        } else if (d->op == CL_EXPR_INPUT) {
            long k = d->k < (long)e->n ? d->k : d->k == tin ? (long)e->N : (long)e->N + 1 + d->k;
            map[id] = cl_expr_input(e->g, k);
        } else {
            map[id] = cl_expr_op(e->g, d->op, map[d->a], d->b >= 0 ? map[d->b] : -1, d->k, -1);
        }
        if (map[id] < 0) return CL_ENOMEM;
    }
    return CL_OK;
}

/* items: the field (n), V' = Df V (n²; V_lk the input n + l n + k), then the extras. */
static int variational(cl_enclose *e, const int *field, int *items)
{
    size_t n = e->n;
    int *J = malloc(n * n * sizeof *J), *col = malloc(n * sizeof *col), st = CL_OK;
    if (!J || !col) st = CL_ENOMEM;
    for (size_t k = 0; k < n && !st; k++) {
        st = cl_expr_diff_many(e->g, field, n, (long)k, col);
        for (size_t i = 0; i < n && !st; i++) J[i * n + k] = col[i];
    }
    for (size_t i = 0; i < n && !st; i++)
        for (size_t k = 0; k < n && !st; k++) {
            int acc = cl_expr_zero(e->g);
            for (size_t l = 0; l < n && acc >= 0; l++) {
                int v = cl_expr_input(e->g, (long)(n + l * n + k));
                acc = cl_expr_op(e->g, CL_EXPR_ADD, acc, cl_expr_op(e->g, CL_EXPR_MUL, J[i * n + l], v, 0, -1), 0, -1);
            }
            if (acc < 0) st = CL_ENOMEM;
            items[n + i * n + k] = acc;
        }
    free(J);
    free(col);
    return st;
}

static int build(cl_enclose *e, const cl_expr_dag *g, const int *nodes, long tin)
{
    size_t n = e->n, ni = n + n * n + e->nextra;
    int *map = malloc(cl_expr_dag_size(g) * sizeof *map), *items = malloc(ni * sizeof *items), st;
    if (!map || !items || cl_expr_dag_new(&e->g)) st = CL_ENOMEM;
    else st = copy_graph(e, g, tin, map);
    for (size_t i = 0; i < n + e->nextra && !st; i++) {
        int id = nodes[i];
        if (id < 0 || (size_t)id >= cl_expr_dag_size(g)) st = CL_EPARAM;
        else items[i < n ? i : n * n + i] = map[id];
    }
    if (!st) st = variational(e, items, items);
    long tnew = tin >= 0 ? (long)e->N : -1;
    if (!st) st = cl_taylor_new_arb(&e->pt, e->g, items, n, 0, tnew, e->p + 1, e->prec);
    if (!st) st = cl_taylor_new_arb(&e->var, e->g, items, e->N, 0, tnew, e->p, e->prec);
    if (!st) { /* the extras after the field */
        memmove(items + n, items + n + n * n, e->nextra * sizeof *items);
        st = cl_taylor_new_arb(&e->probe, e->g, items, n, e->nextra, tnew, 2, e->prec);
    }
    free(map);
    free(items);
    return st;
}

/* ----------------------------------------------------------------- workspace */

int cl_enclose_new(cl_enclose **out, const cl_expr_dag *g, const int *nodes, size_t n, size_t nextra, long tin,
                   int order, cl_prec_t prec)
{
    *out = NULL;
    if (n == 0) return CL_EDIM;
    if (order != 0 && (order < 2 || order >= CL_TAYLOR_MAX_ORDER)) return CL_EPARAM;
    if (cl_prec_check(prec) || prec != cl_arb_get_prec()) return CL_EPREC;
    cl_enclose *e = calloc(1, sizeof *e);
    if (!e) return CL_ENOMEM;
    e->n = n, e->N = n + n * n, e->nextra = nextra, e->prec = prec;
    e->p = order ? order : cl_taylor_order_for_tol(-(double)prec);
    int st = build(e, g, nodes, tin);
    size_t nn = n * n, np = n * (size_t)(e->p + 2);
    if (!st) {
        CL_FN(cl_slice) s[] = {{&e->t, 1}, {&e->t0, 1}, {&e->B0, nn}, {&e->r0, n}, {&e->m, n}, {&e->B, nn},
                               {&e->r, n}, {&e->X, n}, {&e->xin, e->N},
                               {&e->cm, np}, {&e->cX, np}, {&e->P, n}, {&e->W, n}, {&e->Z, n}, {&e->z, n}, {&e->R, n},
                               {&e->zs, n}, {&e->err, n}, {&e->J, nn}, {&e->A, nn}, {&e->M, nn}, {&e->Q, nn},
                               {&e->Qi, nn}, {&e->C, nn}, {&e->hs, 4}, {&e->T, 1}, {&e->tmp, 4}};
        e->mem = CL_FN(cl_rvec_slices)(prec, s, sizeof s / sizeof s[0]);
        if (!e->mem) st = CL_ENOMEM;
    }
    return CL_HAND_OUT(out, e, st, cl_enclose_free);
}

void cl_enclose_free(cl_enclose *e)
{
    if (!e) return;
    cl_taylor_free_arb(e->pt);
    cl_taylor_free_arb(e->var);
    cl_taylor_free_arb(e->probe);
    cl_expr_dag_free(e->g);
    cl_rvec_free_arb(e->mem);
    free(e);
}

void cl_enclose_set_flags(cl_enclose *e, int flags) { e->flags = flags; }
const char *cl_enclose_reason(const cl_enclose *e) { return e->reason; }
arb_srcptr cl_enclose_time(const cl_enclose *e) { return e->t; }
int cl_enclose_order(const cl_enclose *e) { return e->p; }
long cl_enclose_steps(const cl_enclose *e) { return e->steps; }

/* x = [0 ± |x|]: a ball centred at 0 that contains x. */
static void recentre(arb_ptr x)
{
    mag_t a;
    mag_init(a);
    arb_get_mag(a, x);
    arb_zero(x);
    mag_swap(arb_radref(x), a);
    mag_clear(a);
}

void cl_enclose_start(cl_enclose *e, arb_srcptr t, arb_srcptr x)
{
    arb_set(e->t, t);
    cl_mat_identity_arb(e->B, (int)e->n);
    for (size_t i = 0; i < e->n; i++) {
        arb_get_mid_arb(e->m + i, x + i);
        arb_sub(e->r + i, x + i, e->m + i, e->prec);
        recentre(e->r + i);
    }
    e->steps = 0;
    e->reason[0] = 0;
}

void cl_enclose_hull(const cl_enclose *e, arb_ptr x)
{
    cl_mat_vec_arb(x, e->B, e->r, (int)e->n, (int)e->n);
    for (size_t i = 0; i < e->n; i++) arb_add(x + i, x + i, e->m + i, e->prec);
}

int cl_enclose_extras(cl_enclose *e, arb_srcptr t, arb_srcptr x, arb_ptr v)
{
    int st = cl_taylor_expand_arb(e->probe, t, x);
    for (size_t i = 0; i < e->nextra && !st; i++) arb_set(v + i, cl_taylor_coef_arb(e->probe, e->n + i, 0));
    return st;
}

/* ------------------------------------------------------------------- a step */

/* out = Σ_{j≤p} c_j s^j (Horner on balls). */
static void horner(arb_ptr out, arb_srcptr c, int p, arb_srcptr s, cl_prec_t prec)
{
    arb_set(out, c + p);
    for (int j = p - 1; j >= 0; j--) {
        arb_mul(out, out, s, prec);
        arb_add(out, out, c + j, prec);
    }
}

/* log2 of max(1, max_i |m_i|): the scale of the state. */
static double log2_scale(const cl_enclose *e)
{
    double l = 0;
    for (size_t i = 0; i < e->n; i++) l = fmax(l, r_log2abs(e->m + i));
    return l;
}

/* The a-priori box W over [0, s] (s = hs[1], the time ball t + [0, s] in T) and the remainder
   R = s^(p+1) x_{p+1}(W): 0, 1 when the test failed at this length, 2 when the remainder is too
   large (log2 of its excess in *excess), or a CL_E code when the series is not finite. */
static int apriori(cl_enclose *e, double *excess)
{
    size_t n = e->n;
    int p = e->p, len = p + 2;
    arb_ptr S = e->hs + 1, Sp = e->hs + 2;
    arb_add(e->T, e->t, S, e->prec);
    arb_pow_ui(Sp, S, (ulong)(p + 1), e->prec);
    for (size_t i = 0; i < n; i++) { /* P = Σ_{j≤p} x_j(X) S^j */
        horner(e->P + i, e->cX + i * (size_t)len, p, S, e->prec);
        arb_set(e->Z + i, e->cm + i * (size_t)len + p + 1);
        arb_add_error(e->Z + i, e->Z + i);
    }
    for (int tr = 0; tr < CL_ENCLOSE_APRIORI_TRIES; tr++) {
        for (size_t i = 0; i < n; i++) {
            arb_set(e->W + i, e->P + i);
            arb_addmul(e->W + i, Sp, e->Z + i, e->prec);
        }
        int st = cl_taylor_expand_arb(e->pt, e->T, e->W), inside = 1;
        if (st) return st;
        for (size_t i = 0; i < n; i++) {
            arb_set(e->z + i, cl_taylor_coef_arb(e->pt, i, p + 1));
            arb_mul(e->tmp, Sp, e->z + i, e->prec);
            arb_add(e->tmp, e->tmp, e->P + i, e->prec);
            inside &= arb_contains(e->W + i, e->tmp);
        }
        if (inside) break;
        if (tr == CL_ENCLOSE_APRIORI_TRIES - 1) return 1;
        for (size_t i = 0; i < n; i++) { /* Z grown over z, its radius doubled */
            arb_union(e->Z + i, e->Z + i, e->z + i, e->prec);
            arb_add_error(e->Z + i, e->Z + i);
        }
    }
    double lmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        arb_mul(e->R + i, e->z + i, Sp, e->prec);
        mag_t a;
        mag_init(a);
        arb_get_mag(a, e->R + i);
        lmax = fmax(lmax, mag_is_zero(a) ? -INFINITY : mag_get_d_log2_approx(a));
        mag_clear(a);
    }
    *excess = lmax - (CL_ENCLOSE_REM_SLACK - (double)e->prec + log2_scale(e));
    return *excess > 0 ? 2 : 0;
}

/* The column order of Lohner's QR: the columns of mid(A) diag(rad r) by decreasing length. */
static void column_order(const cl_enclose *e, int *perm, double *len)
{
    size_t n = e->n;
    for (size_t k = 0; k < n; k++) {
        double s = 0, rk = mag_get_d(arb_radref(e->r + k));
        for (size_t i = 0; i < n; i++) {
            double a = arf_get_d(arb_midref(e->A + i * n + k), ARF_RND_NEAR) * rk;
            s += a * a;
        }
        len[k] = s, perm[k] = (int)k;
    }
    for (size_t k = 1; k < n; k++) /* insertion sort, n is small */
        for (size_t j = k; j > 0 && len[perm[j]] > len[perm[j - 1]]; j--) {
            int t = perm[j];
            perm[j] = perm[j - 1], perm[j - 1] = t;
        }
}

/* Qi = an enclosure of B^(−1) by an LU solve on balls (B a point matrix); 0 or a CL_E code. */
static int invert_basis(cl_enclose *e, int *perm)
{
    size_t n = e->n, nn = n * n;
    for (size_t i = 0; i < nn; i++) arb_set(e->M + i, e->B + i);
    int st = cl_lu_factor_arb(e->M, perm, (int)n);
    cl_mat_identity_arb(e->Qi, (int)n);
    return st ? st : cl_lu_solve_arb(e->M, perm, e->Qi, (int)n, (int)n);
}

/* log2 of an upper bound of ||B||_inf ||Qi||_inf, the basis' condition number. */
static double log2_condition(const cl_enclose *e)
{
    size_t n = e->n;
    double nb = 0, ni = 0;
    for (size_t i = 0; i < n; i++) {
        double rb = 0, ri = 0;
        for (size_t k = 0; k < n; k++) {
            rb += fabs(arf_get_d(arb_midref(e->B + i * n + k), ARF_RND_UP)) + mag_get_d(arb_radref(e->B + i * n + k));
            ri += fabs(arf_get_d(arb_midref(e->Qi + i * n + k), ARF_RND_UP)) + mag_get_d(arb_radref(e->Qi + i * n + k));
        }
        nb = fmax(nb, rb), ni = fmax(ni, ri);
    }
    return log2(nb) + log2(ni);
}

/* The next basis B' and Qi ⊇ B'^(−1): the parallelepiped B' = mid(A) while its condition number
   stays below 2^(prec/8) (it follows the flow's shear without re-boxing), else Lohner's QR: B' = Q
   of mid(A) with its columns sorted. */
static int lohner_basis(cl_enclose *e)
{
    size_t n = e->n, nn = n * n;
    int *perm = malloc(n * (sizeof *perm + sizeof(double))), st;
    if (!perm) return CL_ENOMEM;
    for (size_t i = 0; i < nn; i++) arb_get_mid_arb(e->B + i, e->A + i);
    st = invert_basis(e, perm);
    if (!st && !(e->flags & CL_ENCLOSE_QR_ONLY) && log2_condition(e) <= (double)e->prec / 8) {
        free(perm);
        return CL_OK;
    }
    column_order(e, perm, (double *)(perm + n + (n & 1)));
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) arb_get_mid_arb(e->M + i * n + k, e->A + i * n + (size_t)perm[k]);
    st = cl_qr_arb(e->Q, e->C, e->M, (int)n, (int)n);
    for (size_t i = 0; i < nn && !st; i++) arb_get_mid_arb(e->B + i, e->Q + i); /* a point matrix, orthogonal to rounding */
    if (!st) st = invert_basis(e, perm);
    free(perm);
    return st;
}

/* out += Σ_{q<j≤p} (x_j(X) − x_j(m)) s^j for component i: the orders above the variational
   series' enter the set as a box (J holds the Jacobian of the polynomial of order q only). */
static void high_orders(cl_enclose *e, size_t i, arb_srcptr s, arb_ptr out)
{
    int p = e->p, len = p + 2;
    if (e->q >= p) return;
    arb_ptr d = e->tmp + 2, acc = e->tmp + 3;
    arb_zero(acc);
    for (int j = p; j > e->q; j--) {
        arb_mul(acc, acc, s, e->prec);
        arb_sub(d, e->cX + i * (size_t)len + j, e->cm + i * (size_t)len + j, e->prec);
        arb_add(acc, acc, d, e->prec);
    }
    arb_pow_ui(d, s, (ulong)(e->q + 1), e->prec);
    arb_addmul(out, acc, d, e->prec);
}

/* J = Σ_{j≤q} V_j(X) s^j, the Jacobian of the polynomial of order q over the set. */
static void step_jacobian(cl_enclose *e, arb_srcptr s)
{
    size_t n = e->n;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) /* V_ik,j is item n + i n + k of var */
            horner(e->J + i * n + k, cl_taylor_coef_arb(e->var, n + i * n + k, 0), e->q, s, e->prec);
}

int cl_enclose_within(cl_enclose *e, arb_srcptr s, arb_ptr x)
{
    size_t n = e->n;
    int p = e->p, len = p + 2;
    if (e->steps == 0) return CL_EPARAM;
    arb_ptr sp = e->tmp;
    arb_pow_ui(sp, s, (ulong)(p + 1), e->prec);
    step_jacobian(e, s);
    cl_mat_mul_arb(e->A, e->J, e->B0, (int)n, (int)n, (int)n);
    cl_mat_vec_arb(x, e->A, e->r0, (int)n, (int)n);
    for (size_t i = 0; i < n; i++) {
        horner(e->zs + i, e->cm + i * (size_t)len, p, s, e->prec);
        arb_addmul(e->zs + i, sp, e->z + i, e->prec); /* the remainder at s ≤ h, from the same box W */
        high_orders(e, i, s, e->zs + i);
        arb_add(x + i, x + i, e->zs + i, e->prec);
    }
    return CL_OK;
}

arb_srcptr cl_enclose_step_start(const cl_enclose *e) { return e->t0; }
arb_srcptr cl_enclose_step_length(const cl_enclose *e) { return e->hs; }

/* The set after the step of length s (hs[0]): z = Φ(m) + R, m' = mid z, J from the variational
   coefficients, A = J B, then Lohner's QR for B' and r'. */
static int lohner_update(cl_enclose *e)
{
    size_t n = e->n, nn = n * n;
    int p = e->p, len = p + 2;
    arb_srcptr h = e->hs;
    for (size_t i = 0; i < n; i++) {
        horner(e->zs + i, e->cm + i * (size_t)len, p, h, e->prec);
        if (!(e->flags & CL_ENCLOSE_DROP_REMAINDER)) arb_add(e->zs + i, e->zs + i, e->R + i, e->prec);
        high_orders(e, i, h, e->zs + i);
        arb_get_mid_arb(e->m + i, e->zs + i);
        arb_sub(e->err + i, e->zs + i, e->m + i, e->prec);
        recentre(e->err + i);
    }
    step_jacobian(e, h);
    cl_mat_mul_arb(e->A, e->J, e->B, (int)n, (int)n, (int)n);
    int st = lohner_basis(e);
    if (st) return st;
    cl_mat_mul_arb(e->C, e->Qi, e->A, (int)n, (int)n, (int)n);
    cl_mat_vec_arb(e->X, e->C, e->r, (int)n, (int)n);
    cl_mat_vec_arb(e->P, e->Qi, e->err, (int)n, (int)n);
    for (size_t i = 0; i < n; i++) {
        arb_add(e->r + i, e->X + i, e->P + i, e->prec);
        recentre(e->r + i);
    }
    (void)nn;
    return CL_OK;
}

/* The order of the variational series: the terms x_j h^j of orders j > q vary over the set
   by about e^(−2j) of its width (the Jorba–Zou step), to be below 2^(−prec−8) of the scale. */
static int variational_order(const cl_enclose *e)
{
    double lw = -INFINITY;
    for (size_t i = 0; i < e->n; i++) lw = fmax(lw, r_log2rad(e->X + i));
    if (!isfinite(lw)) return 2;
    double q = ceil((lw + (double)e->prec + 8 - log2_scale(e)) * log(2.0) / 2) + 1;
    return q < 2 ? 2 : q > e->p ? e->p : (int)q;
}

/* The expansions at the start of a step: the field on the hull X and at the point m to order
   p + 1 (kept in cX and cm), the variational system on X (V = I) to order q. */
static int expand_start(cl_enclose *e)
{
    size_t n = e->n;
    int len = e->p + 2;
    cl_enclose_hull(e, e->X);
    int st = cl_taylor_expand_arb(e->pt, e->t, e->X);
    for (size_t i = 0; i < n && !st; i++)
        for (int k = 0; k < len; k++) arb_set(e->cX + i * (size_t)len + k, cl_taylor_coef_arb(e->pt, i, k));
    e->q = variational_order(e);
    for (size_t i = 0; i < n; i++) arb_set(e->xin + i, e->X + i);
    for (size_t i = n; i < e->N; i++) arb_set_si(e->xin + i, (i - n) % (n + 1) == 0);
    if (!st) st = cl_taylor_expand_to_arb(e->var, e->t, e->xin, e->q);
    if (st) {
        snprintf(e->reason, sizeof e->reason, "the Taylor series is not finite on the set");
        return st;
    }
    st = cl_taylor_expand_arb(e->pt, e->t, e->m);
    if (st) {
        snprintf(e->reason, sizeof e->reason, "the field's Taylor series is not finite at the midpoint");
        return st;
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < len; k++) arb_set(e->cm + i * (size_t)len + k, cl_taylor_coef_arb(e->pt, i, k));
    return CL_OK;
}

/* s = the step length: 2^l rounded to a double, or t1 − t when that is not longer (*lands). */
static void step_length(cl_enclose *e, double l, arb_srcptr t1, int *lands)
{
    arb_ptr s = e->hs, rest = e->tmp + 1;
    arb_sub(rest, t1, e->t, e->prec);
    arb_set_d(s, exp2(l - floor(l)));
    arb_mul_2exp_si(s, s, (slong)floor(l));
    *lands = arb_ge(s, rest) || arb_overlaps(s, rest);
    if (*lands) arb_set(s, rest);
    arb_union(e->hs + 1, s, e->hs + 3, e->prec); /* [0, s] with hs[3] = 0 */
}

int cl_enclose_step(cl_enclose *e, arb_srcptr t1)
{
    int st = expand_start(e), lands = 0;
    if (st) return CL_ESTEP;
    R_DECL(h, e->prec);
    cl_taylor_step_size_arb(e->pt, h);
    double l = r_log2abs(h) - 0.2, lmin = -(double)e->prec + fmax(0, r_log2abs(e->t)), excess = 0;
    if (!isfinite(l)) l = 0;
    arb_zero(e->hs + 3);
    for (;;) {
        if (l < lmin) {
            snprintf(e->reason, sizeof e->reason, "no step of 2^%.0f passes the a-priori test with the remainder "
                     "within 2^%d of 2^-%ld", l, CL_ENCLOSE_REM_SLACK, (long)e->prec);
            return CL_ESTEP;
        }
        step_length(e, l, t1, &lands);
        st = apriori(e, &excess);
        if (st < 0) {
            snprintf(e->reason, sizeof e->reason, "the field is not finite on the a-priori box (a domain edge or a "
                     "singularity)");
            l -= 1;
        } else if (st == 1) {
            l -= 1;
        } else if (st == 2 && !(e->flags & CL_ENCLOSE_DROP_REMAINDER)) {
            l -= fmax(0.1, excess / (e->p + 1) + 0.05);
        } else {
            break;
        }
        lands = 0;
    }
    arb_set(e->t0, e->t);
    _arb_vec_set(e->B0, e->B, (slong)(e->n * e->n));
    _arb_vec_set(e->r0, e->r, (slong)e->n);
    st = lohner_update(e);
    if (st) {
        snprintf(e->reason, sizeof e->reason, "the QR basis could not be inverted (%s)", cl_strerror(st));
        return CL_ESTEP;
    }
    if (lands) arb_set(e->t, t1);
    else arb_add(e->t, e->t, e->hs, e->prec);
    e->steps++;
    return CL_OK;
}

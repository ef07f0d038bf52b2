/*
 * Taylor integration of a field given as an expression graph (taylor.h):
 * the workspace, the expansion order by order, the Jorba–Zou step, the
 * precision plan and the dense output. taylor_coef.c has the coefficient
 * recurrences of every node kind, taylor_drive.c the driver and the event
 * location. Nothing is allocated after cl_taylor_new().
 *
 * Rows: one row of p + 1 coefficients per state component (the inputs
 * 0..n−1), per node worked on, and per auxiliary series. A node that
 * depends on no input is constant along the motion: its value is computed
 * once, in cl_taylor_new(), and its higher coefficients stay 0.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "ode.h"
#include "taylor.h"
#include "taylor_impl.h"

#if CL_PREC == CL_MPFR
int cl_taylor_order_for_tol(double log2tol)
{
    double p = ceil(-log2tol * log(2.0) / 2 + 1);
    return p < 2 ? 2 : p > CL_TAYLOR_MAX_ORDER ? CL_TAYLOR_MAX_ORDER : (int)p;
}
#endif

void CL_FN(cl_taylor_free)(CL_FN(cl_taylor) *ws)
{
    if (!ws) return;
    CL_FN(cl_rvec_free)(ws->mem);
    free(ws->row);
    free(ws->plan);
    free(ws->rel);
    free(ws->limb);
    free(ws->prodp);
    free(ws);
}

int CL_FN(cl_taylor_order)(const CL_FN(cl_taylor) *ws) { return ws->p; }
size_t CL_FN(cl_taylor_dim)(const CL_FN(cl_taylor) *ws) { return ws->n; }

static int aux_rows(const CL_FN(cl_taylor) *ws, int id);
static void plan_order(CL_FN(cl_taylor) *ws, int k);

int CL_FN(cl_taylor_expand)(CL_FN(cl_taylor) *ws, rsrc t, rsrc x)
{
    return CL_FN(cl_taylor_expand_to)(ws, t, x, ws->p);
}

int CL_FN(cl_taylor_expand_to)(CL_FN(cl_taylor) *ws, rsrc t, rsrc x, int order)
{
    size_t len = (size_t)ws->p + 1;
    if (order < 1 || order > ws->p) return CL_EPARAM;
    for (size_t i = 0; i < ws->n; i++) r_set(ws->c + i * len, x + i);
    if (ws->time_node >= 0) r_set(ROW(ws, ws->time_node), t);
    for (int k = 0; k <= order; k++) {
        plan_order(ws, k);
        if (k > 0) CL_FN(cl_taylor_coef_state)(ws, k);
        for (size_t q = 0; q < ws->nact; q++) {
            int st = CL_FN(cl_taylor_coef_node)(ws, ws->act[q], k);
            if (st) return st;
        }
    }
    for (size_t i = 0; i < ws->n; i++)
        if (!r_is_number(ws->c + i * len + order)) return CL_ENAN;
    return CL_OK;
}

rsrc CL_FN(cl_taylor_coef)(const CL_FN(cl_taylor) *ws, size_t i, int k)
{
    int id = i < ws->n ? -1 : ws->items[i];
    size_t r = id < 0 ? i : (size_t)ws->row[id];
    return ws->c + r * ((size_t)ws->p + 1) + k;
}

/* log2 of max_i |x_{i,k}| over the state. */
static double log2_max_coef(const CL_FN(cl_taylor) *ws, int k)
{
    double m = -INFINITY;
    for (size_t i = 0; i < ws->n; i++) m = fmax(m, r_log2abs(CL_FN(cl_taylor_coef)(ws, i, k)));
    return m;
}

/* r = 2^l (l finite, any magnitude). */
static void set_pow2(rptr r, double l)
{
    double k = floor(l);
    r_set_d(r, exp2(l - k));
    r_mul_2si(r, r, (long)k);
}

void CL_FN(cl_taylor_step_size)(const CL_FN(cl_taylor) *ws, rptr h)
{
    int p = ws->p;
    double lx = log2_max_coef(ws, 0), num = lx > 0 ? lx : 0;
    double rho = fmin((num - log2_max_coef(ws, p)) / p, (num - log2_max_coef(ws, p - 1)) / (p - 1));
    if (isinf(rho) || isnan(rho)) {
        r_set_d(h, INFINITY);
        return;
    }
    /* ρ e^(−2) e^(−0.7/(p−1)) */
    set_pow2(h, rho + (-2.0 - 0.7 / (p - 1)) / log(2.0));
}

void CL_FN(cl_taylor_poly)(const CL_FN(cl_taylor) *ws, size_t i, rsrc s, rptr out)
{
    rsrc c = CL_FN(cl_taylor_coef)(ws, i, 0);
    r_set(out, c + ws->p);
    for (int k = ws->p - 1; k >= 0; k--) r_fma(out, out, s, c + k);
}

void CL_FN(cl_taylor_dense)(const CL_FN(cl_taylor) *ws, rsrc s, rptr x)
{
    for (size_t i = 0; i < ws->n; i++) CL_FN(cl_taylor_poly)(ws, i, s, x + i);
}

/* ------------------------------------------------------ the precision plan */

/*
 * A step adds the terms x_k h^k, which the Jorba–Zou step makes fall about
 * like e^(−2k) relative to max(1, |x|): the coefficients of order k need
 * only about P − 2.9 k bits of their own for the sum to be right to P bits.
 * At MPFR precisions of CL_TAYLOR_PLAN_MIN bits and more, the workspace
 * keeps per order the precision the last step's terms called for at a step
 * CL_TAYLOR_PLAN_GROWTH times longer (plus CL_TAYLOR_PLAN_GUARD bits, at most
 * P), and caps the step so that every term computed with fewer than P bits
 * stays small enough for them: |x_k| h^k 2^(−prec_k) ≤ 2^(−P−2) max(1, |x|).
 * The first step's plan comes from a pilot expansion at CL_TAYLOR_PILOT_BITS
 * above order 0 (its coefficients' sizes and its Jorba–Zou step; the cap
 * then holds the step to what the real coefficients allow), and a step that
 * |hmax| makes shorter than the plan's (the last one of a run) is planned
 * for that length: a run of few steps at 1024 bits no longer does its first
 * at P bits at every order (skate.traj.matching's 1024-bit rung, 7 steps per
 * run: 7.0 -> 3.0 s). Fixed steps work at P bits throughout.
 *
 * The terms measured are those of every node worked on, not of the state
 * alone: a node's order-k coefficient rounded to prec_k bits carries an
 * error of |u_k| 2^(−prec_k), which reaches the state's order k + 1. Where
 * the nodes' series converge more slowly than the state's (a solve whose
 * pivots' zeros lie nearer than the solution's singularities, and cancel
 * in it), |u_k| h^k relative to max(1, |u_0|) outgrows the state's terms:
 * on the skate's traced z-form at order 352 by 2^13 on most steps and by up
 * to 2^148 on four, where a plan from the state's terms alone ended Figure
 * 4's path at 1024 bits 2^-959 from the ζ-form, 60 bits short.
 */
#define CL_TAYLOR_PLAN_MIN 192
#define CL_TAYLOR_PLAN_GUARD 8
#define CL_TAYLOR_PLAN_GROWTH 1.1
#define CL_TAYLOR_PILOT_BITS 64

static int plan_active(const CL_FN(cl_taylor) *ws)
{
    return CL_PREC == CL_MPFR && ws->prec >= CL_TAYLOR_PLAN_MIN;
}

#if CL_PREC == CL_MPFR
/* x (a scalar of cl_rvec_new(), storage for ws->prec bits) at pk ≤ ws->prec bits, value NaN. */
static void reprec(mpfr_ptr x, cl_prec_t pk)
{
    mpfr_custom_init_set(x, MPFR_NAN_KIND, 0, pk, mpfr_custom_get_significand(x));
}
#endif

/* The scratch, and every coefficient of order k > 0 that expand() writes, set to the plan's precision for k. */
static void plan_order(CL_FN(cl_taylor) *ws, int k)
{
#if CL_PREC == CL_MPFR
    if (!plan_active(ws)) return;
    size_t len = (size_t)ws->p + 1;
    cl_prec_t pk = ws->plan[k];
    reprec(ws->tmp, pk);
    reprec(ws->acc, pk);
    reprec(ws->acc2, pk);
    if (k == 0) return;
    for (size_t i = 0; i < ws->n; i++) reprec(ws->c + i * len + k, pk);
    for (size_t q = 0; q < ws->nact; q++) {
        int id = ws->act[q], na = ws->aux[id] >= 0 ? aux_rows(ws, id) : 0;
        reprec(ROW(ws, id) + k, pk);
        for (int r = 0; r < na; r++) reprec(AUX(ws, id) + (size_t)r * len + k, pk);
    }
#else
    (void)ws, (void)k;
#endif
}

/* Every order back to the working precision (the first step, fixed steps, the start of a run). */
void CL_FN(cl_taylor_plan_reset)(CL_FN(cl_taylor) *ws)
{
    ws->plan_lh = -INFINITY;
    for (int k = 0; k <= ws->p; k++) ws->plan[k] = ws->prec;
}

/* ws->rel[k] (k = 1..p): log2 of the largest order-k coefficient relative to its scale, over the
   state (scale max(1, max_i |x_i|), \p lscale its log2) and every node worked on (max(1, |u_0|)). */
static void plan_measure(CL_FN(cl_taylor) *ws, double lscale)
{
    size_t len = (size_t)ws->p + 1;
    for (int k = 1; k <= ws->p; k++) ws->rel[k] = log2_max_coef(ws, k) - lscale;
    for (size_t q = 0; q < ws->nact; q++) {
        rsrc u = ROW(ws, ws->act[q]);
        double l0 = r_log2abs(u), ls = l0 > 0 ? l0 : 0;
        for (size_t k = 1; k < len; k++) ws->rel[k] = fmax(ws->rel[k], r_log2abs(u + k) - ls);
    }
}

/* log2 of the longest step the plan's precisions allow (+∞ when all are P), from plan_measure(). */
static double plan_cap(const CL_FN(cl_taylor) *ws)
{
    double lh = INFINITY;
    if (!plan_active(ws)) return lh;
    for (int k = 1; k <= ws->p; k++)
        if (ws->plan[k] < ws->prec) lh = fmin(lh, ((double)ws->plan[k] - (double)ws->prec - 2 - ws->rel[k]) / k);
    return lh;
}

/* The plan for the next step, from this step's coefficients (plan_measure()) and its Jorba–Zou step log2 lh. */
static void plan_update(CL_FN(cl_taylor) *ws, double lh)
{
    if (!plan_active(ws) || !isfinite(lh)) return;
    ws->plan_lh = lh;
    lh += log2(CL_TAYLOR_PLAN_GROWTH);
    for (int k = 1; k <= ws->p; k++) {
        double need = (double)ws->prec + 2 + CL_TAYLOR_PLAN_GUARD + ws->rel[k] + k * lh;
        ws->plan[k] = need >= (double)ws->prec ? ws->prec : need < 32 ? 32 : (cl_prec_t)ceil(need);
    }
}

/* The plan before a step of at most |hmax|: on a fresh plan, from a pilot expansion at CL_TAYLOR_PILOT_BITS
   bits above order 0; else the last step's measure for a step no longer than hmax when that is the shorter. */
static int plan_before(CL_FN(cl_taylor) *ws, rsrc t, rsrc x, rsrc hmax)
{
    double lhmax = r_log2abs(hmax);
    if (!plan_active(ws)) return CL_OK;
    if (ws->plan_lh == -INFINITY) {
        cl_prec_t pp = CL_TAYLOR_PILOT_BITS;
        for (int k = 1; k <= ws->p; k++) ws->plan[k] = pp;
        int st = CL_FN(cl_taylor_expand)(ws, t, x);
        if (st) return st;
        CL_FN(cl_taylor_step_size)(ws, ws->ev);
        double lx = log2_max_coef(ws, 0);
        plan_measure(ws, lx > 0 ? lx : 0);
        plan_update(ws, fmin(r_log2abs(ws->ev), lhmax));
    } else if (lhmax < ws->plan_lh) {
        plan_update(ws, lhmax);
    }
    return CL_OK;
}

int CL_FN(cl_taylor_step)(CL_FN(cl_taylor) *ws, rptr t, rptr x, rsrc hmax, int fixed, rptr h)
{
    if (fixed) CL_FN(cl_taylor_plan_reset)(ws);
    int st = fixed ? CL_OK : plan_before(ws, t, x, hmax);
    if (!st) st = CL_FN(cl_taylor_expand)(ws, t, x);
    if (st) return st;
    if (fixed) {
        r_set(h, hmax);
    } else {
        CL_FN(cl_taylor_step_size)(ws, h);
        double lx = log2_max_coef(ws, 0), lscale = lx > 0 ? lx : 0, ljz = r_log2abs(h);
        if (plan_active(ws)) plan_measure(ws, lscale);
        double lcap = plan_cap(ws);
        if (lcap < ljz) set_pow2(h, lcap);
        plan_update(ws, ljz);
        if (r_cmpabs(h, hmax) >= 0) r_set(h, hmax);
        else if (r_sgn(hmax) < 0) r_neg(h, h);
    }
    CL_FN(cl_taylor_dense)(ws, h, x);
    r_add(t, t, h);
    return CL_FN(cl_rvec_is_finite)(x, ws->n) && r_is_number(t) ? CL_OK : CL_ENAN;
}

/* ------------------------------------------------------------ the workspace */

/* Nodes the items depend on (needed), and which of them are constant along the motion. */
static int mark_nodes(CL_FN(cl_taylor) *ws, char *needed, size_t nnode)
{
    for (size_t i = 0; i < ws->nitems; i++) needed[ws->items[i]] = 1;
    for (size_t id = nnode; id-- > 0;) {
        const cl_expr_node *d = cl_expr_dag_node(ws->g, (int)id);
        if (!needed[id]) continue;
        if (d->op == CL_EXPR_INPUT && !(d->k >= 0 && ((size_t)d->k < ws->n || d->k == ws->tin))) return CL_EDIM;
        if (d->a >= 0) needed[d->a] = 1;
        if (d->b >= 0) needed[d->b] = 1;
    }
    for (size_t id = 0; id < nnode; id++) {
        const cl_expr_node *d = cl_expr_dag_node(ws->g, (int)id);
        ws->cst[id] = d->op == CL_EXPR_CONST ||
                      (d->op != CL_EXPR_INPUT && ws->cst[d->a] && (d->b < 0 || ws->cst[d->b]));
    }
    return CL_OK;
}

/* Auxiliary rows node id needs: the cos of a sin (or sin of a cos) that is not a node, 1 + tan², x² + y², the lower powers. */
static int aux_rows(const CL_FN(cl_taylor) *ws, int id)
{
    const cl_expr_node *d = cl_expr_dag_node(ws->g, id);
    switch (d->op) {
    case CL_EXPR_SIN: case CL_EXPR_COS: return ws->partner[id] < 0;
    case CL_EXPR_TAN: case CL_EXPR_ATAN2: return 1;
    case CL_EXPR_POWI: return d->k > 2 && d->k <= CL_TAYLOR_POW_CHAIN ? (int)d->k - 2 : 0;
    }
    return 0;
}

/* Rows for the state, the needed nodes and their auxiliary series; sin and cos of one argument paired. */
static size_t assign_rows(CL_FN(cl_taylor) *ws, const char *needed, size_t nnode, int *sincos_of)
{
    size_t nrow = ws->n;
    for (size_t id = 0; id < nnode; id++) sincos_of[2 * id] = sincos_of[2 * id + 1] = -1;
    for (size_t id = 0; id < nnode; id++) {
        const cl_expr_node *d = cl_expr_dag_node(ws->g, (int)id);
        if (needed[id] && (d->op == CL_EXPR_SIN || d->op == CL_EXPR_COS))
            sincos_of[2 * (size_t)d->a + (d->op == CL_EXPR_COS)] = (int)id;
    }
    for (size_t id = 0; id < nnode; id++) {
        const cl_expr_node *d = cl_expr_dag_node(ws->g, (int)id);
        ws->row[id] = ws->aux[id] = ws->partner[id] = -1;
        if (!needed[id]) continue;
        if (d->op == CL_EXPR_SIN || d->op == CL_EXPR_COS) ws->partner[id] = sincos_of[2 * (size_t)d->a + (d->op == CL_EXPR_SIN)];
        if (d->op == CL_EXPR_INPUT && (size_t)d->k < ws->n) ws->row[id] = (int)d->k;
        else ws->row[id] = (int)nrow++;
        if (d->op == CL_EXPR_INPUT && d->k == ws->tin) ws->time_node = (int)id;
        if (d->op != CL_EXPR_INPUT && !ws->cst[id]) ws->act[ws->nact++] = (int)id;
        int na = aux_rows(ws, (int)id);
        if (na) {
            ws->aux[id] = (int)nrow;
            nrow += (size_t)na;
        }
    }
    return nrow;
}

/* The constants read at the working precision and the nodes built on them evaluated, once. */
static int fix_constants(CL_FN(cl_taylor) *ws, size_t nnode)
{
    for (size_t id = 0; id < nnode; id++) {
        const cl_expr_node *d = cl_expr_dag_node(ws->g, (int)id);
        if (ws->row[id] < 0 || !ws->cst[id]) continue;
        if (d->op == CL_EXPR_CONST) {
            if (CL_FN(cl_real_from_str)(ROW(ws, id), cl_expr_dag_const(ws->g, d->k))) return CL_EPARSE;
        } else {
            int st = CL_FN(cl_taylor_coef_node)(ws, (int)id, 0);
            if (st) return st;
        }
    }
    if (ws->time_node >= 0) r_set_si(ROW(ws, ws->time_node) + 1, 1);
    return CL_OK;
}

static int taylor_build(CL_FN(cl_taylor) *ws, const int *nodes, size_t nnode)
{
    size_t ni = ws->nitems;
    int *blk = malloc((5 * nnode + ni + 1) * sizeof *blk + 2 * nnode + 1);
    if (!blk) return CL_ENOMEM;
    ws->row = blk;
    ws->aux = blk + nnode;
    ws->partner = blk + 2 * nnode;
    ws->act = blk + 3 * nnode;
    int *sincos_of = NULL;
    ws->items = blk + 4 * nnode;
    char *needed = (char *)(blk + 5 * nnode + ni + 1);
    ws->cst = needed + nnode;
    memset(needed, 0, 2 * nnode + 1);
    for (size_t i = 0; i < ni; i++) {
        if (nodes[i] < 0 || (size_t)nodes[i] >= nnode) return CL_EPARAM;
        ws->items[i] = nodes[i];
    }
    int st = mark_nodes(ws, needed, nnode);
    if (st) return st;
    sincos_of = malloc(2 * nnode * sizeof *sincos_of);
    if (!sincos_of) return CL_ENOMEM;
    size_t nrow = assign_rows(ws, needed, nnode, sincos_of);
    free(sincos_of);
    size_t len = (size_t)ws->p + 1;
    ws->mem = CL_FN(cl_rvec_new)((nrow + 1) * len + 13, ws->prec);
    if (!ws->mem) return CL_ENOMEM;
    ws->c = ws->mem + 13;
    ws->prod = ws->c + nrow * len;
    ws->prodp = malloc(len * sizeof *ws->prodp);
    if (!ws->prodp) return CL_ENOMEM;
    for (size_t i = 0; i < len; i++) ws->prodp[i] = ws->prod + i;
    ws->plan = malloc(((size_t)ws->p + 1) * sizeof *ws->plan);
    ws->rel = malloc(((size_t)ws->p + 1) * sizeof *ws->rel);
    if (!ws->plan || !ws->rel) return CL_ENOMEM;
#if CL_PREC == CL_MPFR
    { /* conv_dot(): two accumulators of ⌈(P + 128)/64⌉ + 1 limbs, a product of two factors of ⌈(P + 64)/64⌉, a shifted copy */
        size_t nt = ((size_t)ws->prec + CL_TAYLOR_PLAN_GUARD_MUL + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
        size_t na = ((size_t)ws->prec + 128 + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS + 1;
        ws->limb = malloc((2 * na + 4 * nt + 2) * sizeof(mp_limb_t));
        if (!ws->limb) return CL_ENOMEM;
    }
#endif
    CL_FN(cl_taylor_plan_reset)(ws);
    ws->tmp = ws->mem, ws->acc = ws->mem + 1, ws->acc2 = ws->mem + 2, ws->ev = ws->mem + 3;
    return fix_constants(ws, nnode);
}

int CL_FN(cl_taylor_new)(CL_FN(cl_taylor) **out, const cl_expr_dag *g, const int *nodes, size_t n, size_t nextra,
                         long tin, int order, cl_prec_t prec)
{
    *out = NULL;
    if (n == 0) return CL_EDIM;
    if (order < 2 || order > CL_TAYLOR_MAX_ORDER) return CL_EPARAM;
    if (cl_prec_check(prec)) return CL_EPREC;
    CL_FN(cl_taylor) *ws = calloc(1, sizeof *ws);
    if (!ws) return CL_ENOMEM;
    ws->g = g;
    ws->n = n;
    ws->nitems = n + nextra;
    ws->tin = tin;
    ws->time_node = -1;
    ws->p = order;
    ws->prec = prec;
    int st = taylor_build(ws, nodes, cl_expr_dag_size(g));
    if (st) {
        CL_FN(cl_taylor_free)(ws);
        return st;
    }
    *out = ws;
    return CL_OK;
}

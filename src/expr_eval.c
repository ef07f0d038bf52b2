/*
 * Values and exact derivatives of an expression graph (expr.h), once per
 * scalar kind (double, MPFR, and Arb balls for certified fields). A run evaluates the nodes in their (topological) order and,
 * for derivatives, keeps each node's local partials ∂φ/∂a, ∂φ/∂b and the
 * three second partials; gradients are one reverse sweep over those, and
 * Hessians one forward tangent sweep and one reverse sweep per input
 * (forward over reverse), so every derivative is exact up to the rounding
 * of the sweeps at the working precision.
 */
#include <stdlib.h>
#include "expr.h"
#include "scalar.h"

struct CL_FN(cl_expr_eval) {
    const cl_expr_dag *g;
    size_t n;
    cl_prec_t prec;
    rptr block;
    rptr cval;   /* constants, one per string */
    rptr val;    /* node values */
    rptr d1;     /* ∂φ/∂a, ∂φ/∂b: 2 per node */
    rptr d2;     /* ∂²φ/∂a², ∂²φ/∂a∂b, ∂²φ/∂b²: 3 per node */
    rptr dot, adj, dadj, t;
    int *input_node; /* input k → node id, or −1 */
    long nin;
    int bad;
};

/* The nodes' storage carved from one block, the input map, and the constants read at ev->prec. */
static int eval_setup(CL_FN(cl_expr_eval) *ev, size_t nconst)
{
    const cl_expr_dag *g = ev->g;
    size_t n = ev->n;
    ev->block = CL_FN(cl_rvec_new)(nconst + 9 * n + 4, ev->prec);
    ev->input_node = malloc((size_t)(ev->nin > 0 ? ev->nin : 1) * sizeof *ev->input_node);
    if (!ev->block || !ev->input_node) return CL_ENOMEM;
    rptr q = ev->block;
    ev->cval = q; q += nconst;
    q = RV_CARVE(q, n, &ev->val, &ev->dot, &ev->adj, &ev->dadj);
    ev->d1 = q; q += 2 * n;
    ev->d2 = q; q += 3 * n;
    ev->t = q;
    for (long k = 0; k < ev->nin; k++) ev->input_node[k] = -1;
    for (size_t i = 0; i < n; i++) {
        const cl_expr_node *d = cl_expr_dag_node(g, (int)i);
        if (d->op == CL_EXPR_INPUT) ev->input_node[d->k] = (int)i;
        if (d->op != CL_EXPR_CONST) continue;
        int st = CL_FN(cl_real_from_str)(ev->cval + d->k, cl_expr_dag_const(g, d->k));
        if (st) return st;
    }
    return CL_OK;
}

int CL_FN(cl_expr_eval_new)(CL_FN(cl_expr_eval) **out, const cl_expr_dag *g, cl_prec_t prec)
{
    *out = NULL;
    if (CL_PREC == CL_MPFR && cl_prec_check(prec)) return CL_EPREC;
    CL_FN(cl_expr_eval) *ev = calloc(1, sizeof *ev);
    if (!ev) return CL_ENOMEM;
    size_t n = cl_expr_dag_size(g), nconst = 0;
    for (size_t i = 0; i < n; i++)
        if (cl_expr_dag_node(g, (int)i)->op == CL_EXPR_CONST && (size_t)cl_expr_dag_node(g, (int)i)->k + 1 > nconst)
            nconst = (size_t)cl_expr_dag_node(g, (int)i)->k + 1;
    ev->g = g;
    ev->n = n;
    ev->prec = prec;
    ev->nin = cl_expr_dag_ninputs(g);
    ev->bad = -1;
    int st = eval_setup(ev, nconst);
    return CL_HAND_OUT(out, ev, st, CL_FN(cl_expr_eval_free));
}

void CL_FN(cl_expr_eval_free)(CL_FN(cl_expr_eval) *ev)
{
    if (!ev) return;
    CL_FN(cl_rvec_free)(ev->block);
    free(ev->input_node);
    free(ev);
}

int CL_FN(cl_expr_eval_bad)(const CL_FN(cl_expr_eval) *ev) { return ev->bad; }
rsrc CL_FN(cl_expr_eval_value)(const CL_FN(cl_expr_eval) *ev, int id) { return ev->val + id; }

/* b ≠ 0 proven (on balls: 0 ∉ b; in double and MPFR: b ≠ 0). */
static int nonzero(rsrc b)
{
    int s = r_sgn3(b);
    return s == 1 || s == -1;
}

/* Value of node i and, with \p order 2, its local partials. 0 or CL_EDOMAIN.
   The domain tests are three-way (r_sgn3): on balls an argument whose ball
   touches the domain's edge is outside it. */
static int eval_node(CL_FN(cl_expr_eval) *ev, size_t i, rsrc x, int order)
{
    const cl_expr_node *d = cl_expr_dag_node(ev->g, (int)i);
    rptr f = ev->val + i, p = ev->d1 + 2 * i, s = ev->d2 + 3 * i, t = ev->t;
    rsrc a = d->a >= 0 ? ev->val + d->a : NULL, b = d->b >= 0 ? ev->val + d->b : NULL;
    switch (d->op) {
    case CL_EXPR_CONST: r_set(f, ev->cval + d->k); return CL_OK;
    case CL_EXPR_INPUT: r_set(f, x + d->k); return r_is_number(f) ? CL_OK : CL_EDOMAIN;
    case CL_EXPR_ADD: r_add(f, a, b); break;
    case CL_EXPR_SUB: r_sub(f, a, b); break;
    case CL_EXPR_MUL: r_mul(f, a, b); break;
    case CL_EXPR_NEG: r_neg(f, a); break;
    case CL_EXPR_DIV:
        if (!nonzero(b)) return CL_EDOMAIN;
        r_div(f, a, b);
        break;
    case CL_EXPR_POWI: r_pow_si(f, a, d->k); break;
    case CL_EXPR_SIN: r_sin(f, a); break;
    case CL_EXPR_COS: r_cos(f, a); break;
    case CL_EXPR_TAN: r_tan(f, a); break;
    case CL_EXPR_EXP: r_exp(f, a); break;
    case CL_EXPR_LOG:
        if (r_sgn3(a) != 1) return CL_EDOMAIN;
        r_log(f, a);
        break;
    case CL_EXPR_SQRT:
        if (!(r_sgn3(a) == 1 || (order < 2 && r_sgn3(a) == 0))) return CL_EDOMAIN;
        r_sqrt(f, a);
        break;
    case CL_EXPR_ATAN2: r_atan2(f, a, b); break;
    default: return CL_EDOMAIN;
    }
    if (!r_is_number(f)) return CL_EDOMAIN;
    if (order < 2) return CL_OK;
    for (int k = 0; k < 2; k++) r_set_zero(p + k);
    for (int k = 0; k < 3; k++) r_set_zero(s + k);
    switch (d->op) {
    case CL_EXPR_ADD: r_set_si(p, 1); r_set_si(p + 1, 1); break;
    case CL_EXPR_SUB: r_set_si(p, 1); r_set_si(p + 1, -1); break;
    case CL_EXPR_NEG: r_set_si(p, -1); break;
    case CL_EXPR_MUL: r_set(p, b); r_set(p + 1, a); r_set_si(s + 1, 1); break;
    case CL_EXPR_DIV: /* f = a/b: 1/b, −f/b; 0, −1/b², 2f/b² */
        r_si_div(p, 1, b);
        r_div(p + 1, f, b);
        r_neg(p + 1, p + 1);
        r_mul(s + 1, p, p);
        r_neg(s + 1, s + 1);
        r_div(s + 2, p + 1, b);
        r_mul_si(s + 2, s + 2, -2);
        break;
    case CL_EXPR_POWI: /* k a^(k−1), k(k−1) a^(k−2) */
        if (d->k == 0) break;
        r_pow_si(t, a, d->k - 1);
        r_mul_si(p, t, d->k);
        if (d->k != 1) {
            r_pow_si(t, a, d->k - 2);
            r_mul_si(s, t, d->k * (d->k - 1));
        }
        break;
    case CL_EXPR_SIN: r_cos(p, a); r_neg(s, f); break;
    case CL_EXPR_COS: r_sin(p, a); r_neg(p, p); r_neg(s, f); break;
    case CL_EXPR_TAN: /* 1 + f², 2f(1 + f²) */
        r_sqr(p, f);
        r_add_si(p, p, 1);
        r_mul(s, f, p);
        r_mul_2si(s, s, 1);
        break;
    case CL_EXPR_EXP: r_set(p, f); r_set(s, f); break;
    case CL_EXPR_LOG: r_si_div(p, 1, a); r_sqr(s, p); r_neg(s, s); break;
    case CL_EXPR_SQRT: /* 1/(2f), −(1/(2f))/(2a) */
        r_mul_2si(t, f, 1);
        r_si_div(p, 1, t);
        r_div(s, p, a);
        r_mul_2si(s, s, -1);
        r_neg(s, s);
        break;
    case CL_EXPR_ATAN2: { /* f = atan2(a, b), ρ = a² + b²: b/ρ, −a/ρ; −2ab/ρ², (a² − b²)/ρ², 2ab/ρ² */
        rptr rho = t, u = t + 1;
        r_sqr(rho, a);
        r_addmul(rho, b, b);
        if (r_sgn3(rho) != 1) return CL_EDOMAIN;
        r_div(p, b, rho);
        r_div(p + 1, a, rho);
        r_neg(p + 1, p + 1);
        r_mul(u, p, p + 1); /* −ab/ρ² */
        r_mul_2si(s, u, 1);
        r_neg(s + 2, s);
        r_sqr(s + 1, p + 1);
        r_submul(s + 1, p, p);
        break;
    }
    default: break;
    }
    for (int k = 0; k < 2; k++)
        if (!r_is_number(p + k)) return CL_EDOMAIN;
    for (int k = 0; k < 3; k++)
        if (!r_is_number(s + k)) return CL_EDOMAIN;
    return CL_OK;
}

int CL_FN(cl_expr_eval_run)(CL_FN(cl_expr_eval) *ev, rsrc x, int upto, int order)
{
    ev->bad = -1;
    for (size_t i = 0; i <= (size_t)upto && i < ev->n; i++)
        if (eval_node(ev, i, x, order)) {
            ev->bad = (int)i;
            return CL_EDOMAIN;
        }
    return CL_OK;
}

static int is_leaf(const cl_expr_node *d) { return d->op == CL_EXPR_CONST || d->op == CL_EXPR_INPUT; }

void CL_FN(cl_expr_eval_gradient)(CL_FN(cl_expr_eval) *ev, int root, rptr grad, int nin)
{
    for (int i = 0; i <= root; i++) r_set_zero(ev->adj + i);
    r_set_si(ev->adj + root, 1);
    for (int i = root; i >= 0; i--) {
        const cl_expr_node *d = cl_expr_dag_node(ev->g, i);
        if (is_leaf(d) || r_is_zero(ev->adj + i)) continue;
        r_addmul(ev->adj + d->a, ev->adj + i, ev->d1 + 2 * i);
        if (d->b >= 0) r_addmul(ev->adj + d->b, ev->adj + i, ev->d1 + 2 * i + 1);
    }
    for (int k = 0; k < nin; k++) {
        int id = k < ev->nin ? ev->input_node[k] : -1;
        if (id >= 0 && id <= root) r_set(grad + k, ev->adj + id);
        else r_set_zero(grad + k);
    }
}

/* The tangent sweep v̇ for direction j, over nodes 0..root. */
static void tangent_sweep(CL_FN(cl_expr_eval) *ev, int root, int j)
{
    for (int i = 0; i <= root; i++) {
        const cl_expr_node *d = cl_expr_dag_node(ev->g, i);
        rptr v = ev->dot + i;
        if (d->op == CL_EXPR_INPUT) r_set_si(v, d->k == j);
        else if (d->op == CL_EXPR_CONST) r_set_zero(v);
        else {
            r_mul(v, ev->d1 + 2 * i, ev->dot + d->a);
            if (d->b >= 0) r_addmul(v, ev->d1 + 2 * i + 1, ev->dot + d->b);
        }
    }
}

void CL_FN(cl_expr_eval_hessian)(CL_FN(cl_expr_eval) *ev, int root, rptr grad, rptr H, int nin, int row0)
{
    CL_FN(cl_expr_eval_gradient)(ev, root, grad, nin);
    rptr t = ev->t;
    for (int j = row0; j < nin; j++) {
        rptr row = H + (size_t)(j - row0) * (size_t)nin;
        int idj = j < ev->nin ? ev->input_node[j] : -1;
        if (idj < 0 || idj > root) { /* root does not depend on x_j */
            for (int k = 0; k < nin; k++) r_set_zero(row + k);
            continue;
        }
        tangent_sweep(ev, root, j);
        for (int i = 0; i <= root; i++) r_set_zero(ev->dadj + i);
        for (int i = root; i >= 0; i--) {
            const cl_expr_node *d = cl_expr_dag_node(ev->g, i);
            if (is_leaf(d)) continue;
            rsrc p = ev->d1 + 2 * i, s = ev->d2 + 3 * i, w = ev->adj + i, dw = ev->dadj + i;
            rsrc da = ev->dot + d->a, db = d->b >= 0 ? ev->dot + d->b : NULL;
            /* argument a: v̄̇_a += v̄̇_i ∂_aφ + v̄_i (∂_aaφ ȧ + ∂_abφ ḃ) */
            r_mul(t, s, da);
            if (db) r_addmul(t, s + 1, db);
            r_mul(t, t, w);
            r_addmul(t, dw, p);
            r_add(ev->dadj + d->a, ev->dadj + d->a, t);
            if (!db) continue;
            r_mul(t, s + 1, da);
            r_addmul(t, s + 2, db);
            r_mul(t, t, w);
            r_addmul(t, dw, p + 1);
            r_add(ev->dadj + d->b, ev->dadj + d->b, t);
        }
        for (int k = 0; k < nin; k++) {
            int id = k < ev->nin ? ev->input_node[k] : -1;
            if (id >= 0 && id <= root) r_set(row + k, ev->dadj + id);
            else r_set_zero(row + k);
        }
    }
}

void CL_FN(cl_expr_eval_tangent)(CL_FN(cl_expr_eval) *ev, int root, int j, rptr out)
{
    tangent_sweep(ev, root, j);
    r_set(out, ev->dot + root);
}

/*
 * Symbolic differentiation on the expression graph (expr.h): the derivative
 * of a node by one input is a new node of the same hash-consed graph, so a
 * gradient, a Hessian and everything built from them share their
 * subexpressions with the function itself.
 *
 * Forward mode: the nodes the roots depend on are visited in their
 * (topological) order and each gets its derivative node once,
 *   v̇ = ∂φ/∂a · ȧ + ∂φ/∂b · ḃ,
 * with the partials written exactly as the evaluator computes them
 * (expr_eval.c), so the derivative node evaluates to the evaluator's
 * tangent: bit for bit in double, and up to the evaluator's fused
 * multiply-adds in MPFR. The only rewritings are the ones that are exact in
 * every rounding to nearest: 0 + v, 0·v, 1·v, v − v, (−a)·b = −(a·b),
 * a + (−b) = a − b, a − (−b) = a + b.
 */
#include <stdio.h>
#include <stdlib.h>
#include "cl_core.h"
#include "expr.h"
#include "expr_nodes_impl.h"

/* The graph and the nodes the derivatives start from; −1 marks a failure. */
typedef struct differ {
    cl_expr_dag *g;
    int zero, one;
} differ;

static const cl_expr_node *nd(const differ *d, int id) { return cl_expr_dag_node(d->g, id); }

static int neg(differ *d, int a) { return a < 0 ? -1 : cl_expr_op(d->g, CL_EXPR_NEG, a, -1, 0, -1); }

/* a·b with a sign pulled out of either factor. */
static int mul(differ *d, int a, int b)
{
    if (a < 0 || b < 0) return -1;
    int sign = 0;
    if (nd(d, a)->op == CL_EXPR_NEG) { a = nd(d, a)->a; sign ^= 1; }
    if (nd(d, b)->op == CL_EXPR_NEG) { b = nd(d, b)->a; sign ^= 1; }
    int p = cl_expr_op(d->g, CL_EXPR_MUL, a, b, 0, -1);
    return sign ? neg(d, p) : p;
}

/* a + b or a − b (\p minus), a negated term turned into the other operation. */
static int add(differ *d, int a, int b, int minus)
{
    if (a < 0 || b < 0) return -1;
    if (nd(d, b)->op == CL_EXPR_NEG) { b = nd(d, b)->a; minus ^= 1; }
    if (!minus && nd(d, a)->op == CL_EXPR_NEG) return add(d, b, nd(d, a)->a, 1);
    if (minus && a == b) return d->zero;
    return cl_expr_op(d->g, minus ? CL_EXPR_SUB : CL_EXPR_ADD, a, b, 0, -1);
}

static int op2(differ *d, int op, int a, int b) { return a < 0 || b < 0 ? -1 : cl_expr_op(d->g, op, a, b, 0, -1); }

/* a/b, with 0/b = 0 (b is never 0 where the quotient is evaluated). */
static int quo(differ *d, int a, int b) { return a == d->zero ? a : op2(d, CL_EXPR_DIV, a, b); }

static int differ_init(differ *d, cl_expr_dag *g)
{
    *d = (differ){.g = g, .zero = cl_expr_zero(g), .one = cl_expr_one(g)};
    return d->zero < 0 || d->one < 0 ? CL_ENOMEM : CL_OK;
}

static int integer(differ *d, long k)
{
    char s[32];
    int n = snprintf(s, sizeof s, "%ld", k);
    return cl_expr_const(d->g, s, (size_t)n, -1);
}

/* The partial ∂φ/∂a of the unary node \p id (as expr_eval.c computes it). */
static int unary_partial(differ *d, int id)
{
    const cl_expr_node e = *nd(d, id);
    switch (e.op) {
    case CL_EXPR_NEG: return neg(d, d->one);
    case CL_EXPR_POWI:
        if (e.k == 0) return d->zero;
        return mul(d, integer(d, e.k), cl_expr_op(d->g, CL_EXPR_POWI, e.a, -1, e.k - 1, -1));
    case CL_EXPR_SIN: return cl_expr_op(d->g, CL_EXPR_COS, e.a, -1, 0, -1);
    case CL_EXPR_COS: return neg(d, cl_expr_op(d->g, CL_EXPR_SIN, e.a, -1, 0, -1));
    case CL_EXPR_TAN: return add(d, mul(d, id, id), d->one, 0);
    case CL_EXPR_EXP: return id;
    case CL_EXPR_LOG: return op2(d, CL_EXPR_DIV, d->one, e.a);
    case CL_EXPR_SQRT: return op2(d, CL_EXPR_DIV, d->one, mul(d, integer(d, 2), id));
    default: return -1;
    }
}

/* The derivative of node \p id from those of its arguments \p da, \p db. */
static int diff_node(differ *d, int id, int da, int db)
{
    const cl_expr_node e = *nd(d, id);
    switch (e.op) {
    case CL_EXPR_ADD: return add(d, da, db, 0);
    case CL_EXPR_SUB: return add(d, da, db, 1);
    case CL_EXPR_MUL: return add(d, mul(d, e.b, da), mul(d, e.a, db), 0);
    case CL_EXPR_DIV: /* 1/b · ȧ − (f/b) · ḃ */
        return add(d, mul(d, op2(d, CL_EXPR_DIV, d->one, e.b), da), mul(d, op2(d, CL_EXPR_DIV, id, e.b), db), 1);
    case CL_EXPR_ATAN2: { /* ρ = a² + b²: b/ρ · ȧ − a/ρ · ḃ */
        int rho = add(d, mul(d, e.a, e.a), mul(d, e.b, e.b), 0);
        return add(d, mul(d, op2(d, CL_EXPR_DIV, e.b, rho), da), mul(d, op2(d, CL_EXPR_DIV, e.a, rho), db), 1);
    }
    case CL_EXPR_NEG: return neg(d, da);
    default: return mul(d, unary_partial(d, id), da);
    }
}

int cl_expr_diff_many(cl_expr_dag *g, const int *roots, size_t n, long input, int *out)
{
    int top = -1;
    for (size_t r = 0; r < n; r++) {
        if (roots[r] < 0 || (size_t)roots[r] >= cl_expr_dag_size(g)) return CL_EDIM;
        if (roots[r] > top) top = roots[r];
    }
    if (top < 0) return CL_OK;
    differ d;
    int *dv = malloc((size_t)(top + 1) * sizeof *dv); /* the derivative of a needed node, −2: not needed */
    if (!dv || differ_init(&d, g)) {
        free(dv);
        return CL_ENOMEM;
    }
    for (int i = 0; i <= top; i++) dv[i] = -2;
    for (size_t r = 0; r < n; r++) dv[roots[r]] = -3;
    for (int i = top; i >= 0; i--) /* the nodes the roots depend on */
        if (dv[i] == -3) {
            const cl_expr_node *e = cl_expr_dag_node(g, i);
            if (e->a >= 0) dv[e->a] = -3;
            if (e->b >= 0) dv[e->b] = -3;
        }
    int st = CL_OK;
    for (int i = 0; i <= top && !st; i++) {
        if (dv[i] != -3) continue;
        const cl_expr_node e = *cl_expr_dag_node(g, i);
        if (e.op == CL_EXPR_CONST) dv[i] = d.zero;
        else if (e.op == CL_EXPR_INPUT) dv[i] = e.k == input ? d.one : d.zero;
        else if (dv[e.a] == d.zero && (e.b < 0 || dv[e.b] == d.zero)) dv[i] = d.zero;
        else dv[i] = diff_node(&d, i, dv[e.a], e.b >= 0 ? dv[e.b] : d.zero);
        if (dv[i] < 0) st = CL_ENOMEM;
    }
    for (size_t r = 0; r < n && !st; r++) out[r] = dv[roots[r]];
    free(dv);
    return st;
}

int cl_expr_diff(cl_expr_dag *g, int node, long input)
{
    int out;
    return cl_expr_diff_many(g, &node, 1, input, &out) ? -1 : out;
}

/* r − Σ_k a[k]·b[k], k < n (a, b with strides sa, sb). */
static int sub_dot(differ *d, int r, const int *a, size_t sa, const int *b, size_t sb, size_t n)
{
    for (size_t k = 0; k < n && r >= 0; k++) r = add(d, r, mul(d, a[k * sa], b[k * sb]), 1);
    return r;
}

/* Σ_k a[k·sa]·b[k·sb], k < n. */
static int dot(differ *d, const int *a, size_t sa, const int *b, size_t sb, size_t n)
{
    int s = d->zero;
    for (size_t k = 0; k < n && s >= 0; k++) s = add(d, s, mul(d, a[k * sa], b[k * sb]), 0);
    return s;
}

/*
 * The solve as nodes: H = L D Lᵀ with L unit lower triangular, column by
 * column (no pivoting: H is symmetric positive definite), then L y = r,
 * Lᵀ z = D⁻¹y for each right side. Lw[i][k] holds L_ik and Lw[k][i]
 * (k < i, above the diagonal) the product L_ik D_k, so each is written once.
 */
int cl_expr_solve_spd_many(cl_expr_dag *g, const int *H, const int *r, size_t n, size_t m, int *z)
{
    differ d;
    int *Lw = malloc((n * n + 2 * n + 1) * sizeof *Lw), *D = Lw + n * n, *y = D + n;
    int st = !Lw || differ_init(&d, g) ? CL_ENOMEM : CL_OK;
    for (size_t j = 0; j < n && !st; j++)
        for (size_t i = j; i < n; i++) {
            int s = sub_dot(&d, H[i * n + j], Lw + i * n, 1, Lw + j, n, j); /* H_ij − Σ_k L_ik (L_jk D_k) */
            if (i == j) D[j] = s;
            else {
                Lw[i * n + j] = quo(&d, s, D[j]);
                Lw[j * n + i] = s; /* L_ij D_j */
            }
            if (s < 0 || (i > j && Lw[i * n + j] < 0)) st = CL_ENOMEM;
        }
    for (size_t c = 0; c < m && !st; c++) {
        const int *rc = r + c * n;
        int *zc = z + c * n;
        for (size_t i = 0; i < n && !st; i++) {
            y[i] = sub_dot(&d, rc[i], Lw + i * n, 1, y, 1, i);
            if (y[i] < 0) st = CL_ENOMEM;
        }
        for (size_t i = n; i-- > 0 && !st;) {
            zc[i] = sub_dot(&d, quo(&d, y[i], D[i]), Lw + (i + 1) * n + i, n, zc + i + 1, 1, n - 1 - i);
            if (zc[i] < 0) st = CL_ENOMEM;
        }
    }
    free(Lw);
    return st;
}

int cl_expr_solve_spd(cl_expr_dag *g, const int *H, const int *r, size_t n, int *z)
{
    return cl_expr_solve_spd_many(g, H, r, n, 1, z);
}

/*
 * The saddle-point solve by the Schur complement of H: H⁻¹ in nodes (the
 * factorization of H solved against the unit vectors), W = H⁻¹Bᵀ,
 * S = B W, then S ν = B H⁻¹ r − β and a = H⁻¹ r − H⁻¹(Bᵀν): the products
 * of two state-dependent factors are then one per nonzero of B, where W ν
 * has one per nonzero of W (H⁻¹'s nodes are constant along the motion, and
 * a Taylor coefficient times a constant costs one multiplication).
 * Zero nodes of H⁻¹ and of B fold away, so their structure is kept.
 */
int cl_expr_solve_saddle(cl_expr_dag *g, const int *H, const int *r, const int *B, const int *beta, size_t n, size_t k,
                         int *a, int *nu)
{
    differ d;
    int *I = malloc((2 * n * n + 2 * n * k + k * k + k + n + 1) * sizeof *I);
    int *Hinv = I + n * n, *W = Hinv + n * n, *Bt = W + n * k, *S = Bt + n * k, *sig = S + k * k, *t = sig + k;
    int st = !I || differ_init(&d, g) ? CL_ENOMEM : CL_OK;
    for (size_t c = 0; c < n * n && !st; c++) I[c] = c % (n + 1) ? d.zero : d.one;
    if (!st) st = cl_expr_solve_spd_many(g, H, I, n, n, Hinv);
    for (size_t j = 0; j < k && !st; j++) /* W row-major n × k, Bᵀ too */
        for (size_t i = 0; i < n; i++) Bt[i * k + j] = B[j * n + i];
    for (size_t i = 0; i < n && !st; i++) {
        a[i] = dot(&d, Hinv + i * n, 1, r, 1, n);
        for (size_t j = 0; j < k; j++) W[i * k + j] = dot(&d, Hinv + i * n, 1, Bt + j, k, n);
    }
    for (size_t i = 0; i < k && !st; i++) {
        sig[i] = add(&d, dot(&d, B + i * n, 1, a, 1, n), beta[i], 1);
        for (size_t j = 0; j <= i; j++) S[i * k + j] = S[j * k + i] = dot(&d, B + i * n, 1, W + j, k, n);
    }
    for (size_t c = 0; c < 2 * n * k + k * k + k && !st; c++)
        if (W[c] < 0) st = CL_ENOMEM; /* W, Bᵀ, S and σ are one block */
    if (!st && k) st = cl_expr_solve_spd(g, S, sig, k, nu);
    for (size_t i = 0; i < n && !st; i++) /* t = Bᵀν, then a = H⁻¹r − H⁻¹t */
        if ((t[i] = dot(&d, Bt + i * k, 1, nu, 1, k)) < 0) st = CL_ENOMEM;
    for (size_t i = 0; i < n && !st; i++)
        if ((I[i] = sub_dot(&d, a[i], Hinv + i * n, 1, t, 1, n)) < 0) st = CL_ENOMEM;
    for (size_t i = 0; i < n && !st; i++) a[i] = I[i];
    free(I);
    return st;
}

/* ------------------------------------------------------------ arithmetic on nodes (expr_nodes_impl.h) */

int cl_expr_node_add(cl_expr_dag *g, int a, int b)
{
    differ d;
    return differ_init(&d, g) ? -1 : add(&d, a, b, 0);
}

int cl_expr_node_sub(cl_expr_dag *g, int a, int b)
{
    differ d;
    return differ_init(&d, g) ? -1 : add(&d, a, b, 1);
}

int cl_expr_node_mul(cl_expr_dag *g, int a, int b)
{
    differ d;
    return differ_init(&d, g) ? -1 : mul(&d, a, b);
}

int cl_expr_node_neg(cl_expr_dag *g, int a) { return a < 0 ? -1 : cl_expr_op(g, CL_EXPR_NEG, a, -1, 0, -1); }

int cl_expr_node_div(cl_expr_dag *g, int a, int b)
{
    differ d;
    return differ_init(&d, g) ? -1 : quo(&d, a, b);
}

int cl_expr_node_dot(cl_expr_dag *g, const int *a, size_t sa, const int *b, size_t sb, size_t n)
{
    differ d;
    return differ_init(&d, g) ? -1 : dot(&d, a, sa, b, sb, n);
}

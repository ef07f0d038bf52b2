/*
 * The simplifier's normal forms written back as nodes (expr_simplify.h):
 * a polynomial as its rational content times its monomial gcd times a sum
 * whose terms share no factor, that sum split by the variable most of its
 * terms share (x·(a + b) + c), positive terms added and negative ones
 * subtracted; a quotient as one division, numerator over denominator.
 */
#include <stdlib.h>
#include <string.h>
#include "cl_core.h"
#include "expr_simplify_impl.h"

#define NONE (-2) /* an empty product */

/* op(a, b), an empty product NONE standing for 1 in a product; −1 (failed set) when out of memory. */
static int op2(cl_simp *s, int op, int a, int b)
{
    if (s->failed || a == -1 || b == -1) return -1;
    if (op == CL_EXPR_MUL && (a == NONE || b == NONE)) return a == NONE ? b : a;
    int id = cl_expr_op(s->g, op, a, b, 0, s->pos);
    if (id < 0) s->failed = CL_ENOMEM;
    return id;
}

static int var_node(cl_simp *s, slong v)
{
    if (s->var_node[v] < 0) s->var_node[v] = cl_expr_input(s->g, v);
    if (s->var_node[v] < 0) s->failed = CL_ENOMEM;
    return s->var_node[v];
}

/* A whole number z ≥ 0 as a constant node. */
static int int_node(cl_simp *s, const fmpz_t z)
{
    char *str = fmpz_get_str(NULL, 10, z);
    int id = str ? cl_expr_const(s->g, str, strlen(str), -1) : -1;
    flint_free(str);
    if (id < 0) s->failed = CL_ENOMEM;
    return id;
}

/* x1^e1 x2^e2 … in the variables' order, NONE when every exponent is 0. */
static int monomial(cl_simp *s, const ulong *exp)
{
    int node = NONE;
    for (slong v = 0; v < s->nvars && !s->failed; v++) {
        if (!exp[v]) continue;
        int x = var_node(s, v);
        if (exp[v] > 1) {
            x = cl_expr_op(s->g, CL_EXPR_POWI, x, -1, (long)exp[v], s->pos);
            if (x < 0) s->failed = CL_ENOMEM;
        }
        node = op2(s, CL_EXPR_MUL, node, x);
    }
    return node;
}

/* The terms of a sum as nodes of their absolute values and signs. */
typedef struct pieces {
    int node[4096];
    char neg[4096];
    size_t n;
} pieces;

static int poly(cl_simp *s, const fmpq_mpoly_t P, int *neg);

/* 1 when P (two terms or more) has a common factor: a content other than 1 or a monomial gcd. */
static int has_factor(cl_simp *s, const fmpq_mpoly_t P)
{
    fmpq_t c;
    fmpq_init(c);
    fmpq_mpoly_content(c, P, s->ctx);
    int f = !fmpq_is_one(c);
    fmpq_clear(c);
    fmpq_mpoly_t M;
    fmpq_mpoly_init(M, s->ctx);
    fmpq_mpoly_term_content(M, P, s->ctx);
    f |= !fmpq_mpoly_is_fmpq(M, s->ctx);
    fmpq_mpoly_clear(M, s->ctx);
    return f;
}

static void push(cl_simp *s, pieces *p, const fmpq_mpoly_t P)
{
    int neg = 0, node = poly(s, P, &neg);
    if (p->n == sizeof p->node / sizeof p->node[0]) s->failed = CL_ENOCONV;
    if (s->failed) return;
    p->node[p->n] = node;
    p->neg[p->n++] = (char)neg;
}

/*
 * The terms of Q (no common factor) as pieces: the terms divisible by the
 * variable most of them share (not all) one piece, the rest again; when no
 * variable is shared, a piece per term.
 */
static void collect(cl_simp *s, const fmpq_mpoly_t Q, pieces *p)
{
    slong len = fmpq_mpoly_length(Q, s->ctx), best = -1, most = 1;
    memset(s->count, 0, (size_t)s->nvars * sizeof *s->count);
    for (slong t = 0; t < len; t++) {
        fmpq_mpoly_get_term_exp_ui(s->exp, Q, t, s->ctx);
        for (slong v = 0; v < s->nvars; v++) s->count[v] += s->exp[v] > 0;
    }
    for (slong v = 0; v < s->nvars; v++)
        if (s->count[v] > most && s->count[v] < len) best = v, most = s->count[v];
    fmpq_mpoly_t A, B, T;
    fmpq_mpoly_init(A, s->ctx), fmpq_mpoly_init(B, s->ctx), fmpq_mpoly_init(T, s->ctx);
    fmpq_t c;
    fmpq_init(c);
    for (slong t = 0; t < len && !s->failed; t++) {
        fmpq_mpoly_get_term_exp_ui(s->exp, Q, t, s->ctx);
        fmpq_mpoly_get_term_coeff_fmpq(c, Q, t, s->ctx);
        if (best < 0) {
            fmpq_mpoly_zero(T, s->ctx);
            fmpq_mpoly_push_term_fmpq_ui(T, c, s->exp, s->ctx);
            fmpq_mpoly_reduce(T, s->ctx); /* canonical: the content read from the coefficient */
            push(s, p, T);
        } else fmpq_mpoly_push_term_fmpq_ui(s->exp[best] ? A : B, c, s->exp, s->ctx);
    }
    if (best >= 0 && !s->failed) {
        fmpq_mpoly_reduce(A, s->ctx), fmpq_mpoly_reduce(B, s->ctx); /* pushed in Q's order: sorted, reduced to canonical form here */
        push(s, p, A);
        if (fmpq_mpoly_length(B, s->ctx) < 2 || has_factor(s, B)) push(s, p, B);
        else collect(s, B, p);
    }
    fmpq_clear(c);
    fmpq_mpoly_clear(A, s->ctx), fmpq_mpoly_clear(B, s->ctx), fmpq_mpoly_clear(T, s->ctx);
}

/* The pieces added, the positive ones first, the negative ones subtracted. */
static int sum_of(cl_simp *s, const pieces *p)
{
    int node = NONE;
    for (int want = 0; want < 2; want++)
        for (size_t k = 0; k < p->n; k++) {
            if (p->neg[k] != want) continue;
            if (node == NONE) {
                node = want ? cl_expr_op(s->g, CL_EXPR_NEG, p->node[k], -1, 0, s->pos) : p->node[k];
                if (node < 0) s->failed = CL_ENOMEM;
            } else node = op2(s, want ? CL_EXPR_SUB : CL_EXPR_ADD, node, p->node[k]);
        }
    return node;
}

/* ±P as nodes, *neg 1 for −P (most terms negative): content × monomial gcd × a sum of terms with no common factor. */
static int poly(cl_simp *s, const fmpq_mpoly_t P, int *neg)
{
    *neg = 0;
    if (s->failed) return -1;
    if (fmpq_mpoly_is_zero(P, s->ctx)) return cl_expr_zero(s->g);
    fmpq_t c, lc;
    fmpq_init(c), fmpq_init(lc);
    fmpq_mpoly_content(c, P, s->ctx);
    slong len = fmpq_mpoly_length(P, s->ctx), negative = 0;
    for (slong t = 0; t < len; t++) {
        fmpq_mpoly_get_term_coeff_fmpq(lc, P, t, s->ctx);
        negative += fmpq_sgn(lc) < 0;
    }
    *neg = 2 * negative > len; /* a − b rather than −(b − a): negated only when most terms are negative */
    fmpq_mpoly_t Q, M;
    fmpq_mpoly_init(Q, s->ctx), fmpq_mpoly_init(M, s->ctx);
    fmpq_mpoly_scalar_div_fmpq(Q, P, c, s->ctx);
    if (*neg) fmpq_mpoly_neg(Q, Q, s->ctx);
    fmpq_mpoly_term_content(M, Q, s->ctx);
    fmpq_mpoly_divides(Q, Q, M, s->ctx);
    int node = NONE;
    if (!fmpz_is_one(fmpq_numref(c))) node = int_node(s, fmpq_numref(c));
    if (!fmpq_mpoly_is_fmpq(M, s->ctx)) {
        fmpq_mpoly_get_term_exp_ui(s->exp, M, 0, s->ctx);
        node = op2(s, CL_EXPR_MUL, node, monomial(s, s->exp));
    }
    if (fmpq_mpoly_length(Q, s->ctx) > 1) {
        pieces *p = calloc(1, sizeof *p);
        if (!p) s->failed = CL_ENOMEM;
        else collect(s, Q, p);
        node = op2(s, CL_EXPR_MUL, node, s->failed ? -1 : sum_of(s, p));
        free(p);
    }
    if (node == NONE) node = int_node(s, fmpq_numref(c)); /* a constant */
    if (!fmpz_is_one(fmpq_denref(c))) node = op2(s, CL_EXPR_DIV, node, int_node(s, fmpq_denref(c)));
    fmpq_mpoly_clear(Q, s->ctx), fmpq_mpoly_clear(M, s->ctx);
    fmpq_clear(c), fmpq_clear(lc);
    return node;
}

/* n/d as nodes: one division, the rational content of both moved into a whole number in front of each. */
static int quotient(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d)
{
    int neg = 0, node;
    if (fmpq_mpoly_is_one(d, s->ctx)) node = poly(s, n, &neg);
    else {
        fmpq_t cn, cd, c;
        fmpq_init(cn), fmpq_init(cd), fmpq_init(c);
        fmpq_mpoly_content(cn, n, s->ctx);
        fmpq_mpoly_content(cd, d, s->ctx);
        fmpq_div(c, cn, cd);
        fmpq_mpoly_t N, D;
        fmpq_mpoly_init(N, s->ctx), fmpq_mpoly_init(D, s->ctx);
        fmpq_mpoly_scalar_div_fmpq(N, n, cn, s->ctx);
        fmpq_mpoly_scalar_div_fmpq(D, d, cd, s->ctx);
        fmpq_mpoly_scalar_mul_fmpz(N, N, fmpq_numref(c), s->ctx);
        fmpq_mpoly_scalar_mul_fmpz(D, D, fmpq_denref(c), s->ctx);
        int nn = 0, nd = 0, num = poly(s, N, &nn), den = poly(s, D, &nd);
        node = op2(s, CL_EXPR_DIV, num, den);
        neg = nn != nd;
        fmpq_mpoly_clear(N, s->ctx), fmpq_mpoly_clear(D, s->ctx);
        fmpq_clear(cn), fmpq_clear(cd), fmpq_clear(c);
    }
    if (neg && node >= 0) {
        node = cl_expr_op(s->g, CL_EXPR_NEG, node, -1, 0, s->pos);
        if (node < 0) s->failed = CL_ENOMEM;
    }
    return s->failed ? -1 : node;
}

int cl_simp_emit_node(cl_simp *s, int i)
{
    if (s->failed) return -1;
    if (s->emitted[i] >= 0) return s->emitted[i];
    if (!s->have[i]) {
        s->failed = CL_ENOMEM;
        return -1;
    }
    long saved = s->pos;
    s->pos = cl_expr_dag_node(s->g, i)->pos;
    int node = quotient(s, s->val[i].n, s->val[i].d);
    s->pos = saved;
    return s->emitted[i] = node;
}

/*
 * The expression graph (see expr.h; its parser is in expr_parse.c). The
 * graph holds no numbers, only decimal strings, so it serves both scalar
 * kinds; this file is compiled once and the evaluator in expr_eval.c once
 * per kind.
 */
#include "cl_core.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"

struct cl_expr_dag {
    cl_expr_node *node;
    size_t n, cap;
    int *hash; /* open addressing, node ids, −1 empty; size hcap (a power of 2) */
    size_t hcap;
    char **cstr;
    size_t nconst, capconst;
    int zero, one; /* the nodes of the exact constants 0 and 1, or −1 */
    long ninputs;
};

int cl_expr_dag_new(cl_expr_dag **out)
{
    cl_expr_dag *g = *out = calloc(1, sizeof *g);
    if (!g) return CL_ENOMEM;
    g->zero = g->one = -1;
    return CL_OK;
}

void cl_expr_dag_free(cl_expr_dag *g)
{
    if (!g) return;
    for (size_t i = 0; i < g->nconst; i++) free(g->cstr[i]);
    CL_FREE_EACH(g->cstr, g->node, g->hash, g);
}

size_t cl_expr_dag_size(const cl_expr_dag *g) { return g->n; }
const cl_expr_node *cl_expr_dag_node(const cl_expr_dag *g, int id) { return g->node + id; }
const char *cl_expr_dag_const(const cl_expr_dag *g, long k) { return g->cstr[k]; }
long cl_expr_dag_ninputs(const cl_expr_dag *g) { return g->ninputs; }

static size_t node_hash(int op, int a, int b, long k)
{
    uint64_t h = (uint64_t)op * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(uint32_t)a + 0x632BE59BD9B4E019u + (h << 6) + (h >> 2);
    h ^= (uint64_t)(uint32_t)b + 0x85EBCA77C2B2AE63u + (h << 6) + (h >> 2);
    h ^= (uint64_t)k + 0xC2B2AE3D27D4EB4Fu + (h << 6) + (h >> 2);
    return (size_t)(h ^ (h >> 29));
}

static int grow_hash(cl_expr_dag *g)
{
    size_t cap = g->hcap ? 2 * g->hcap : 256;
    int *h = malloc(cap * sizeof *h);
    if (!h) return -1;
    for (size_t i = 0; i < cap; i++) h[i] = -1;
    for (size_t i = 0; i < g->n; i++) {
        const cl_expr_node *d = g->node + i;
        size_t s = node_hash(d->op, d->a, d->b, d->k) & (cap - 1);
        while (h[s] >= 0) s = (s + 1) & (cap - 1);
        h[s] = (int)i;
    }
    free(g->hash);
    g->hash = h;
    g->hcap = cap;
    return 0;
}

/* The node (op, a, b, k), found or appended. */
static int intern(cl_expr_dag *g, int op, int a, int b, long k, long pos)
{
    if (2 * (g->n + 1) > g->hcap && grow_hash(g)) return -1;
    size_t s = node_hash(op, a, b, k) & (g->hcap - 1);
    for (; g->hash[s] >= 0; s = (s + 1) & (g->hcap - 1)) {
        const cl_expr_node *d = g->node + g->hash[s];
        if (d->op == op && d->a == a && d->b == b && d->k == k) return g->hash[s];
    }
    if (g->n >= CL_EXPR_MAX_NODES) return -1;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        cl_expr_node *p = realloc(g->node, cap * sizeof *p);
        if (!p) return -1;
        g->node = p;
        g->cap = cap;
    }
    g->node[g->n] = (cl_expr_node){.op = op, .a = a, .b = b, .k = k, .pos = pos};
    g->hash[s] = (int)g->n;
    return (int)g->n++;
}

int cl_expr_input(cl_expr_dag *g, long k)
{
    if (k + 1 > g->ninputs) g->ninputs = k + 1;
    return intern(g, CL_EXPR_INPUT, -1, -1, k, -1);
}

int cl_expr_const(cl_expr_dag *g, const char *s, size_t len, long pos)
{
    for (size_t i = 0; i < g->nconst; i++)
        if (strlen(g->cstr[i]) == len && !memcmp(g->cstr[i], s, len)) return intern(g, CL_EXPR_CONST, -1, -1, (long)i, pos);
    if (g->nconst == g->capconst) {
        size_t cap = g->capconst ? 2 * g->capconst : 16;
        char **p = realloc(g->cstr, cap * sizeof *p);
        if (!p) return -1;
        g->cstr = p;
        g->capconst = cap;
    }
    char *c = malloc(len + 1);
    if (!c) return -1;
    memcpy(c, s, len);
    c[len] = 0;
    g->cstr[g->nconst] = c;
    int id = intern(g, CL_EXPR_CONST, -1, -1, (long)g->nconst++, pos);
    /* 0 and 1 are exact at every precision: remember them for folding */
    mpfr_t t;
    mpfr_init2(t, 8);
    char *end;
    int inex = mpfr_strtofr(t, c, &end, 10, MPFR_RNDN);
    if (id >= 0 && !inex && !*end) {
        if (mpfr_zero_p(t) && g->zero < 0) g->zero = id;
        if (mpfr_cmp_ui(t, 1) == 0 && g->one < 0) g->one = id;
    }
    mpfr_clear(t);
    return id;
}

int cl_expr_zero(cl_expr_dag *g) { return g->zero >= 0 ? g->zero : cl_expr_const(g, "0", 1, -1); }
int cl_expr_one(cl_expr_dag *g) { return g->one >= 0 ? g->one : cl_expr_const(g, "1", 1, -1); }

cl_expr_dag *cl_expr_dag_copy(const cl_expr_dag *g)
{
    cl_expr_dag *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *g;
    c->node = malloc((g->cap ? g->cap : 1) * sizeof *c->node);
    c->hash = malloc((g->hcap ? g->hcap : 1) * sizeof *c->hash);
    c->cstr = calloc(g->capconst ? g->capconst : 1, sizeof *c->cstr);
    c->nconst = 0;
    if (!c->node || !c->hash || !c->cstr) {
        cl_expr_dag_free(c);
        return NULL;
    }
    if (g->n) memcpy(c->node, g->node, g->n * sizeof *c->node);
    if (g->hcap) memcpy(c->hash, g->hash, g->hcap * sizeof *c->hash);
    for (; c->nconst < g->nconst; c->nconst++)
        if (!(c->cstr[c->nconst] = strdup(g->cstr[c->nconst]))) {
            cl_expr_dag_free(c);
            return NULL;
        }
    return c;
}

static int is_zero(const cl_expr_dag *g, int id) { return g->zero >= 0 && id == g->zero; }
static int is_one(const cl_expr_dag *g, int id) { return g->one >= 0 && id == g->one; }

int cl_expr_op(cl_expr_dag *g, int op, int a, int b, long k, long pos)
{
    if (a < 0 || (b < 0 && (op == CL_EXPR_ADD || op == CL_EXPR_SUB || op == CL_EXPR_MUL || op == CL_EXPR_DIV ||
                            op == CL_EXPR_ATAN2)))
        return -1;
    switch (op) {
    case CL_EXPR_ADD:
        if (is_zero(g, a)) return b;
        if (is_zero(g, b)) return a;
        break;
    case CL_EXPR_SUB:
        if (is_zero(g, b)) return a;
        if (is_zero(g, a)) return cl_expr_op(g, CL_EXPR_NEG, b, -1, 0, pos);
        break;
    case CL_EXPR_MUL:
        if (is_zero(g, a) || is_zero(g, b)) return g->zero;
        if (is_one(g, a)) return b;
        if (is_one(g, b)) return a;
        break;
    case CL_EXPR_DIV:
        if (is_one(g, b)) return a;
        break;
    case CL_EXPR_NEG:
        if (is_zero(g, a)) return a;
        if (g->node[a].op == CL_EXPR_NEG) return g->node[a].a;
        break;
    case CL_EXPR_POWI:
        if (k == 1) return a;
        break;
    default:
        break;
    }
    if ((op == CL_EXPR_ADD || op == CL_EXPR_MUL) && a > b) { /* commutative: one order of the operands, one node */
        int t = a;
        a = b;
        b = t;
    }
    return intern(g, op, a, b, k, pos);
}

int cl_expr_depends_on_input(const cl_expr_dag *g, int id, long k)
{
    if (id < 0 || (size_t)id >= cl_expr_dag_size(g)) return 0;
    /* nodes come after their arguments: one forward pass marks the dependents of x_k */
    unsigned char *dep = calloc((size_t)id + 1, 1);
    if (!dep) return 1; /* the safe answer: x_k is then differentiated too */
    for (int i = 0; i <= id; i++) {
        const cl_expr_node *nd = cl_expr_dag_node(g, i);
        dep[i] = (nd->op == CL_EXPR_INPUT && nd->k == k) || (nd->a >= 0 && dep[nd->a]) || (nd->b >= 0 && dep[nd->b]);
    }
    int r = dep[id];
    free(dep);
    return r;
}

/* Common sub-products of an expression graph (expr_share.h): read the products flattened, share the pair of factors most of them hold, write the changed products again. */
#include <stdlib.h>
#include <string.h>
#include "cl_core.h"
#include "expr_share.h"

/* A factor: a node of the graph (code >= 0) or a shared pair made here (code -1 - j), to the power exp (±1). */
typedef struct factor {
    int code, exp;
} factor;

/* A flattened product: its factors in order, its sign. */
typedef struct product {
    factor *f;
    int n, cap, sign, changed;
} product;

/* A shared pair: the factors u and v, multiplied (op MUL) or u over v (op DIV). */
typedef struct pair {
    int u, v, op;
} pair;

typedef struct share {
    cl_expr_dag *g;
    size_t size;
    int *uses, *parent, *tree, *map; /* per node: uses by needed nodes and roots, the user of a node used once, the product it roots (−1), its rewritten node */
    char *need, *inner;              /* per node: needed by the roots; inside the product of its only user */
    product *prod;
    int nprod;
    pair *pairs;
    int *made; /* per pair: its node, −1 not yet written */
    int npairs, cappairs;
} share;

static int chain_op(int op) { return op == CL_EXPR_MUL || op == CL_EXPR_DIV || op == CL_EXPR_NEG; }
static int is_leaf_code(const share *s, int code)
{
    if (code < 0) return 0;
    int op = cl_expr_dag_node(s->g, code)->op;
    return op == CL_EXPR_INPUT || op == CL_EXPR_CONST;
}

/* The needed nodes, their uses, the users of those used once, and which are inside a product. */
static void mark(share *s, const int *roots, size_t n)
{
    for (size_t k = 0; k < n; k++) s->need[roots[k]] = 1, s->uses[roots[k]]++;
    for (size_t i = s->size; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(s->g, (int)i);
        if (!s->need[i] || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        s->need[e->a] = 1, s->uses[e->a]++, s->parent[e->a] = (int)i;
        if (e->b >= 0) s->need[e->b] = 1, s->uses[e->b]++, s->parent[e->b] = (int)i;
    }
    for (size_t i = 0; i < s->size; i++)
        s->inner[i] = s->need[i] && s->uses[i] == 1 && s->parent[i] >= 0 && chain_op(cl_expr_dag_node(s->g, (int)i)->op) &&
                      chain_op(cl_expr_dag_node(s->g, s->parent[i])->op);
}

static int push(product *p, int code, int exp)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 8;
        factor *f = realloc(p->f, (size_t)cap * sizeof *f);
        if (!f) return CL_ENOMEM;
        p->f = f, p->cap = cap;
    }
    p->f[p->n++] = (factor){code, exp};
    return CL_OK;
}

/* A product or quotient of two leaves (k·r0): read through wherever it stands, since the printer writes it inline. */
static int of_leaves(const share *s, int i)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, i);
    return (e->op == CL_EXPR_MUL || e->op == CL_EXPR_DIV) && is_leaf_code(s, e->a) && is_leaf_code(s, e->b);
}

/* The factors of node i (the product's root, or a node inside it) into p. */
static int collect(share *s, product *p, int i, int exp, int root)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, i);
    if (!root && !s->inner[i] && !of_leaves(s, i)) return push(p, i, exp);
    if (e->op == CL_EXPR_NEG) {
        p->sign = -p->sign;
        return collect(s, p, e->a, exp, 0);
    }
    int st = collect(s, p, e->a, exp, 0);
    return st ? st : collect(s, p, e->b, e->op == CL_EXPR_DIV ? -exp : exp, 0);
}

/* One entry per pair of factors of each product: the key (u, eu, v, ev) in order, then the product. */
typedef struct entry {
    int u, eu, v, ev, p;
} entry;

static int cmp_entry(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->u != b->u) return a->u < b->u ? -1 : 1;
    if (a->eu != b->eu) return a->eu < b->eu ? -1 : 1;
    if (a->v != b->v) return a->v < b->v ? -1 : 1;
    if (a->ev != b->ev) return a->ev < b->ev ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

static int same_key(const entry *a, const entry *b) { return a->u == b->u && a->eu == b->eu && a->v == b->v && a->ev == b->ev; }

/* Factor a is a product of its own holding b to the opposite power: their pair would write u·v/u, not cancel it. */
static int cancels(const share *s, factor a, factor b)
{
    if (a.code < 0 || s->tree[a.code] < 0) return 0;
    const product *p = s->prod + s->tree[a.code];
    for (int i = 0; i < p->n; i++)
        if (p->f[i].code == b.code && p->f[i].exp == -b.exp * a.exp) return 1;
    return 0;
}

/* The pair of factors held by most products (at least two) into *best; 0 when none is shared, −1 out of memory. */
static int most_shared(const share *s, entry *best)
{
    size_t cap = 0, n = 0;
    for (int p = 0; p < s->nprod; p++) cap += (size_t)s->prod[p].n * (size_t)s->prod[p].n / 2 + 1;
    entry *all = malloc((cap + 1) * sizeof *all);
    if (!all) return -1;
    for (int p = 0; p < s->nprod; p++) {
        const product *q = s->prod + p;
        for (int i = 0; i < q->n; i++)
            for (int j = i + 1; j < q->n; j++) {
                factor a = q->f[i], b = q->f[j];
                if (a.code == b.code || (is_leaf_code(s, a.code) && is_leaf_code(s, b.code)) || cancels(s, a, b) || cancels(s, b, a))
                    continue;
                if (a.code > b.code) { factor t = a; a = b; b = t; }
                all[n++] = (entry){a.code, a.exp, b.code, b.exp, p};
            }
    }
    qsort(all, n, sizeof *all, cmp_entry);
    int count = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int distinct = 0;
        for (; j < n && same_key(all + i, all + j); j++) distinct += j == i || all[j].p != all[j - 1].p;
        if (distinct > count && distinct >= 2) count = distinct, *best = all[i];
        i = j;
    }
    free(all);
    return count >= 2;
}

/* Take one factor (code, exp) out of p; its position, or −1. */
static int take(product *p, int code, int exp)
{
    for (int i = 0; i < p->n; i++)
        if (p->f[i].code == code && p->f[i].exp == exp) {
            memmove(p->f + i, p->f + i + 1, (size_t)(p->n - i - 1) * sizeof *p->f);
            p->n--;
            return i;
        }
    return -1;
}

/* The pair of *k made a factor of its own in every product that holds it. */
static int apply(share *s, const entry *k)
{
    if (s->npairs == s->cappairs) {
        int cap = s->cappairs ? 2 * s->cappairs : 16;
        pair *pp = realloc(s->pairs, (size_t)cap * sizeof *pp);
        int *mm = pp ? realloc(s->made, (size_t)cap * sizeof *mm) : NULL;
        if (pp) s->pairs = pp;
        if (!mm) return CL_ENOMEM;
        s->made = mm, s->cappairs = cap;
    }
    int same = k->eu == k->ev, num_first = k->eu > 0;
    s->pairs[s->npairs] = same ? (pair){k->u, k->v, CL_EXPR_MUL}
                               : (pair){num_first ? k->u : k->v, num_first ? k->v : k->u, CL_EXPR_DIV};
    s->made[s->npairs] = -1;
    int code = -1 - s->npairs++, exp = same ? k->eu : 1;
    for (int p = 0; p < s->nprod; p++) {
        product *q = s->prod + p;
        int has_u = 0, has_v = 0;
        for (int i = 0; i < q->n; i++) {
            has_u |= q->f[i].code == k->u && q->f[i].exp == k->eu;
            has_v |= q->f[i].code == k->v && q->f[i].exp == k->ev;
        }
        if (!has_u || !has_v) continue;
        int at = take(q, k->u, k->eu), at2 = take(q, k->v, k->ev);
        if (at2 < at) at = at2;
        if (push(q, code, exp)) return CL_ENOMEM;
        memmove(q->f + at + 1, q->f + at, (size_t)(q->n - 1 - at) * sizeof *q->f);
        q->f[at] = (factor){code, exp};
        q->changed = 1;
    }
    return CL_OK;
}

/* The node of a factor's code (a pair written once, when first used). */
static int code_node(share *s, int code)
{
    if (code >= 0) return s->map[code];
    int j = -1 - code;
    if (s->made[j] < 0) {
        int u = code_node(s, s->pairs[j].u), v = u < 0 ? -1 : code_node(s, s->pairs[j].v);
        s->made[j] = v < 0 ? -1 : cl_expr_op(s->g, s->pairs[j].op, u, v, 0, -1);
    }
    return s->made[j];
}

/* A changed product written again: its numerator over its denominator, negated by its sign. */
static int write_product(share *s, const product *p, long pos)
{
    int num = -1, den = -1;
    for (int i = 0; i < p->n; i++) {
        int f = code_node(s, p->f[i].code);
        if (f < 0) return -1;
        int *side = p->f[i].exp > 0 ? &num : &den;
        *side = *side < 0 ? f : cl_expr_op(s->g, CL_EXPR_MUL, *side, f, 0, pos);
        if (*side < 0) return -1;
    }
    if (num < 0) num = cl_expr_one(s->g);
    int r = den < 0 ? num : cl_expr_op(s->g, CL_EXPR_DIV, num, den, 0, pos);
    return r >= 0 && p->sign < 0 ? cl_expr_op(s->g, CL_EXPR_NEG, r, -1, 0, pos) : r;
}

/* Every needed node written again in order: a changed product from its factors, any other node on its rewritten arguments. */
static int rewrite(share *s)
{
    for (size_t i = 0; i < s->size; i++) {
        if (!s->need[i]) continue;
        const cl_expr_node *e = cl_expr_dag_node(s->g, (int)i);
        int t = s->tree[i];
        if (t >= 0 && s->prod[t].changed) {
            if ((s->map[i] = write_product(s, s->prod + t, e->pos)) < 0) return CL_ENOMEM;
            continue;
        }
        if (e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) { s->map[i] = (int)i; continue; }
        int a = s->map[e->a], b = e->b >= 0 ? s->map[e->b] : -1;
        if (a < 0 || (e->b >= 0 && b < 0)) continue; /* inside a changed product: never read */
        s->map[i] = a == e->a && b == e->b ? (int)i : cl_expr_op(s->g, e->op, a, b, e->k, e->pos);
        if (s->map[i] < 0) return CL_ENOMEM;
    }
    return CL_OK;
}

/* The flattened products: one per needed chain node that is not inside another's. */
static int products(share *s)
{
    for (size_t i = 0; i < s->size; i++) {
        s->tree[i] = -1;
        if (!s->need[i] || s->inner[i] || !chain_op(cl_expr_dag_node(s->g, (int)i)->op)) continue;
        product *p = s->prod + s->nprod;
        *p = (product){.sign = 1};
        s->tree[i] = s->nprod++;
        if (collect(s, p, (int)i, 1, 1)) return CL_ENOMEM;
    }
    return CL_OK;
}

static void share_free(share *s)
{
    for (int p = 0; s->prod && p < s->nprod; p++) free(s->prod[p].f);
    free(s->prod), free(s->pairs), free(s->made);
    free(s->uses), free(s->need);
}

int cl_expr_share_products(cl_expr_dag *g, const int *roots, size_t n, int *out)
{
    share s = {.g = g, .size = cl_expr_dag_size(g)};
    size_t z = s.size + 1;
    s.uses = calloc(5 * z, sizeof *s.uses);
    s.need = calloc(2 * z, 1);
    s.prod = malloc(z * sizeof *s.prod);
    int st = s.uses && s.need && s.prod ? CL_OK : CL_ENOMEM;
    if (!st) {
        s.parent = s.uses + z, s.tree = s.parent + z, s.map = s.tree + z, s.inner = s.need + z;
        for (size_t i = 0; i < s.size; i++) s.parent[i] = -1, s.map[i] = -1;
        mark(&s, roots, n);
        st = products(&s);
    }
    entry best;
    for (int r; !st && (r = most_shared(&s, &best)) != 0;) st = r < 0 ? CL_ENOMEM : apply(&s, &best);
    if (!st && s.npairs) st = rewrite(&s);
    for (size_t k = 0; k < n; k++) out[k] = !st && s.npairs ? s.map[roots[k]] : roots[k];
    share_free(&s);
    return st;
}

/* map[c] is −x with c used once (*sign −1, x returned), or a product or quotient used once one of whose factors is so, down
   the chain (*sign −1, the product without that negation returned); else map[c] (*sign 1). */
static int unsigned_term(cl_expr_dag *g, const int *map, const int *uses, int c, int *sign)
{
    const cl_expr_node *e = cl_expr_dag_node(g, c), *f = cl_expr_dag_node(g, map[c]);
    *sign = 1;
    if (uses[c] != 1) return map[c];
    if (f->op == CL_EXPR_NEG) return *sign = -1, f->a;
    if ((f->op != CL_EXPR_MUL && f->op != CL_EXPR_DIV) || e->op != f->op || f->a != map[e->a] || f->b != map[e->b]) return map[c];
    int sa = 1, sb = 1, a = unsigned_term(g, map, uses, e->a, &sa), b = sa < 0 ? f->b : unsigned_term(g, map, uses, e->b, &sb);
    if (sa > 0 && sb > 0) return map[c];
    int r = cl_expr_op(g, f->op, a, b, 0, f->pos);
    if (r >= 0) *sign = -1;
    return r < 0 ? map[c] : r;
}

/* Node i on its rewritten arguments, a ± (−b) and a ± x·(−b) as a ∓ b and a ∓ x·b, x·(−a) + b as b − x·a (cl_expr_share_signs()). */
static int signed_node(cl_expr_dag *g, const int *map, const int *uses, int i)
{
    const cl_expr_node *e = cl_expr_dag_node(g, i);
    int op = e->op, sb = 1, a, b;
    if (op == CL_EXPR_INPUT || op == CL_EXPR_CONST) return i;
    a = map[e->a], b = e->b >= 0 ? map[e->b] : -1;
    if (op == CL_EXPR_ADD || op == CL_EXPR_SUB) {
        b = unsigned_term(g, map, uses, e->b, &sb);
        if (sb < 0) op = op == CL_EXPR_ADD ? CL_EXPR_SUB : CL_EXPR_ADD;
    }
    if (op == CL_EXPR_ADD) { /* x·(−a) + b is b − x·a */
        int sa = 1, u = unsigned_term(g, map, uses, e->a, &sa);
        if (sa < 0) a = b, b = u, op = CL_EXPR_SUB;
    }
    if (a == e->a && b == e->b && op == e->op) return i;
    return cl_expr_op(g, op, a, b, e->k, e->pos);
}

int cl_expr_share_signs(cl_expr_dag *g, const int *roots, size_t n, int *out)
{
    size_t size = cl_expr_dag_size(g);
    char *need = calloc(size + 1, 1);
    int *map = malloc((size + 1) * sizeof *map), *uses = calloc(size + 1, sizeof *uses), st = need && map && uses ? CL_OK : CL_ENOMEM;
    for (size_t k = 0; !st && k < n; k++) need[roots[k]] = 1, uses[roots[k]]++;
    for (size_t i = size; !st && i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!need[i] || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        need[e->a] = 1, uses[e->a]++;
        if (e->b >= 0) need[e->b] = 1, uses[e->b]++;
    }
    for (size_t i = 0; !st && i < size; i++)
        if (need[i] && (map[i] = signed_node(g, map, uses, (int)i)) < 0) st = CL_ENOMEM;
    /* a root keeps its sign: −x stays −x */
    for (size_t k = 0; k < n; k++) out[k] = st ? roots[k] : map[roots[k]];
    free(need), free(map), free(uses);
    return st;
}

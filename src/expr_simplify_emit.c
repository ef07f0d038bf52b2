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
#include "expr_simplify_state.h"
#include <flint/fmpq_mpoly_factor.h>

#define NONE (-2) /* an empty product */
#define FACTOR_TERMS 16 /* longer sums are not factored: the factorization costs more than it saves there */

/* op(a, b), an empty product NONE standing for 1 in a product; −1 (failed set) when out of memory. */
static int op2(cl_simp *s, int op, int a, int b)
{
    if (s->failed || a == -1 || b == -1) return -1;
    if (op == CL_EXPR_MUL && (a == NONE || b == NONE)) return a == NONE ? b : a;
    int id = cl_expr_op(s->g, op, a, b, 0, s->pos);
    if (id < 0) s->failed = CL_ENOMEM;
    return id;
}

static int input_node(cl_simp *s, slong v)
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
        int x = input_node(s, v);
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
static int factored(cl_simp *s, const fmpq_mpoly_t Q);

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
    for (slong v = s->first; v < s->first + s->nfirst; v++) /* the lead variables first, even in one term: a·x'' + b·y'' */
        if (s->count[v] > 0 && (best < 0 || s->count[v] > s->count[best])) best = v;
    for (slong v = 0; v < s->nvars && best < 0; v++)
        if (s->count[v] > most && s->count[v] < len) best = v, most = s->count[v];
    if (best >= 0 && s->count[best] == len) best = -1; /* shared by all: the monomial gcd's, not a split */
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

/* Q (two terms or more, no common factor) as a sum of pieces (collect()). */
static int plain_sum(cl_simp *s, const fmpq_mpoly_t Q)
{
    pieces *p = calloc(1, sizeof *p);
    if (!p) s->failed = CL_ENOMEM;
    else collect(s, Q, p);
    int node = s->failed ? -1 : sum_of(s, p);
    free(p);
    return node;
}

/*
 * Q (two terms or more, integer coefficients, no common factor) as the
 * product of its irreducible factors (FLINT's fmpq_mpoly_factor), each with
 * integer coefficients, when it has more than one and they have fewer
 * terms in all than Q: (M + m)(l|q'|² − g q_z) rather than its eight terms.
 * Q itself (plain_sum()) when it is irreducible, when its factors are no
 * shorter, or when it is longer than the budget of terms.
 */
/* The factors of Q into f (in s's context), factored in a context of the variables Q has only (FLINT's cost grows with the
   context's variables); 0, or −1 when FLINT did not factor it. */
static int factor_compact(cl_simp *s, const fmpq_mpoly_t Q, fmpq_mpoly_factor_t f)
{
    slong nv = s->nvars, k = 0, *to = malloc((size_t)nv * 2 * sizeof *to), *from = to + nv;
    if (!to) return -1;
    memset(s->count, 0, (size_t)nv * sizeof *s->count);
    for (slong t = 0; t < fmpq_mpoly_length(Q, s->ctx); t++) {
        fmpq_mpoly_get_term_exp_ui(s->exp, Q, t, s->ctx);
        for (slong v = 0; v < nv; v++) s->count[v] |= s->exp[v] > 0;
    }
    for (slong v = 0; v < nv; v++) to[v] = s->count[v] ? (from[k] = v, k++) : -1;
    fmpq_mpoly_ctx_t small;
    fmpq_mpoly_ctx_init(small, k ? k : 1, ORD_DEGREVLEX);
    fmpq_mpoly_t q;
    fmpq_mpoly_factor_t g;
    fmpq_mpoly_init(q, small);
    fmpq_mpoly_factor_init(g, small);
    fmpq_mpoly_compose_fmpq_mpoly_gen(q, Q, to, s->ctx, small);
    int ok = fmpq_mpoly_factor(g, q, small);
    fmpq_mpoly_factor_fit_length(f, g->num, s->ctx);
    fmpq_set(f->constant, g->constant);
    for (slong i = 0; ok && i < g->num; i++) {
        fmpq_mpoly_compose_fmpq_mpoly_gen(f->poly + i, g->poly + i, from, small, s->ctx);
        fmpz_set(f->exp + i, g->exp + i);
    }
    f->num = ok ? g->num : 0;
    fmpq_mpoly_factor_clear(g, small);
    fmpq_mpoly_clear(q, small);
    fmpq_mpoly_ctx_clear(small);
    free(to);
    return ok ? 0 : -1;
}

/* Multiply back the factors whose product is shorter than they are: (1 + x)(1 − x) is 1 − x². */
static void merge_factors(cl_simp *s, fmpq_mpoly_factor_t f)
{
    fmpq_mpoly_t t;
    fmpq_mpoly_init(t, s->ctx);
    for (int merged = 1; merged;) {
        merged = 0;
        for (slong i = 0; i < f->num && !merged; i++)
            for (slong j = i + 1; j < f->num && !merged; j++) {
                if (!fmpz_equal(f->exp + i, f->exp + j)) continue;
                fmpq_mpoly_mul(t, f->poly + i, f->poly + j, s->ctx);
                if (fmpq_mpoly_length(t, s->ctx) >= fmpq_mpoly_length(f->poly + i, s->ctx) + fmpq_mpoly_length(f->poly + j, s->ctx)) continue;
                fmpq_mpoly_swap(f->poly + i, t, s->ctx);
                fmpq_mpoly_swap(f->poly + j, f->poly + f->num - 1, s->ctx);
                fmpz_swap(f->exp + j, f->exp + f->num - 1);
                f->num--;
                merged = 1;
            }
    }
    fmpq_mpoly_clear(t, s->ctx);
}

/*
 * Q (two terms or more, integer coefficients, no common factor) as the
 * product of its irreducible factors (FLINT's fmpq_mpoly_factor), each with
 * integer coefficients, when it has more than one and they have fewer
 * terms in all than Q: (M + m)(l|q'|² − g q_z) rather than its eight terms.
 * Q itself (plain_sum()) when it is irreducible, when its factors are no
 * shorter, or when it is longer than FACTOR_TERMS.
 */
static int factored(cl_simp *s, const fmpq_mpoly_t Q)
{
    fmpq_mpoly_factor_t f;
    fmpq_mpoly_factor_init(f, s->ctx);
    int split = fmpq_mpoly_length(Q, s->ctx) <= FACTOR_TERMS && !cl_simp_out_of_time(s) && !factor_compact(s, Q, f);
    if (split) merge_factors(s, f);
    slong terms = 0; /* a factorization that writes more terms than Q is no simplification */
    for (slong i = 0; split && i < f->num; i++) terms += fmpq_mpoly_length(f->poly + i, s->ctx);
    split = split && (f->num > 1 || (f->num == 1 && !fmpz_is_one(f->exp))) && terms < fmpq_mpoly_length(Q, s->ctx);
    fmpq_t c, cf;
    fmpq_init(c), fmpq_init(cf);
    fmpq_set(c, f->constant);
    for (slong i = 0; split && i < f->num; i++) { /* each factor integer and primitive, its content into c */
        fmpq_mpoly_content(cf, f->poly + i, s->ctx);
        fmpq_mpoly_scalar_div_fmpq(f->poly + i, f->poly + i, cf, s->ctx);
        split = fmpz_fits_si(f->exp + i) && fmpz_get_si(f->exp + i) <= 64;
        for (slong e = 0; split && e < fmpz_get_si(f->exp + i); e++) fmpq_mul(c, c, cf);
    }
    int node = NONE, negative = fmpq_sgn(c) < 0;
    if (split && fmpz_is_one(fmpq_denref(c)) && fmpz_is_pm1(fmpq_numref(c))) {
        for (slong i = 0; i < f->num && !s->failed; i++) {
            int neg = 0, x = poly(s, f->poly + i, &neg);
            slong e = fmpz_get_si(f->exp + i);
            negative ^= neg && (e & 1);
            if (e > 1 && x >= 0 && (x = cl_expr_op(s->g, CL_EXPR_POWI, x, -1, (long)e, s->pos)) < 0) s->failed = CL_ENOMEM;
            node = op2(s, CL_EXPR_MUL, node, x);
        }
        if (negative && node >= 0 && (node = cl_expr_op(s->g, CL_EXPR_NEG, node, -1, 0, s->pos)) < 0) s->failed = CL_ENOMEM;
    } else node = plain_sum(s, Q);
    fmpq_clear(c), fmpq_clear(cf);
    fmpq_mpoly_factor_clear(f, s->ctx);
    return s->failed ? -1 : node;
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
    fmpq_mpoly_get_term_coeff_fmpq(lc, P, 0, s->ctx);
    /* negated when most terms are negative, or half of them and the leading one: P and −P are then one node */
    *neg = 2 * negative > len || (2 * negative == len && fmpq_sgn(lc) < 0);
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
    if (fmpq_mpoly_length(Q, s->ctx) > 1) node = op2(s, CL_EXPR_MUL, node, factored(s, Q));
    if (node == NONE) node = int_node(s, fmpq_numref(c)); /* a constant */
    if (!fmpz_is_one(fmpq_denref(c))) node = op2(s, CL_EXPR_DIV, node, int_node(s, fmpq_denref(c)));
    fmpq_mpoly_clear(Q, s->ctx), fmpq_mpoly_clear(M, s->ctx);
    fmpq_clear(c), fmpq_clear(lc);
    return node;
}

/* |n/d| as one division, the rational content of both moved into a whole number in front of each; *neg its sign. */
static int fraction(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d, int *neg)
{
    if (fmpq_mpoly_is_one(d, s->ctx)) return poly(s, n, neg);
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
    *neg = nn != nd;
    fmpq_mpoly_clear(N, s->ctx), fmpq_mpoly_clear(D, s->ctx);
    fmpq_clear(cn), fmpq_clear(cd), fmpq_clear(c);
    return op2(s, CL_EXPR_DIV, num, den);
}

#define MAX_GROUPS 8

/*
 * Of the groups G[0 … ng) of split_fraction(), the most (two or more)
 * whose numerators share a factor that is not a constant, found greedily
 * from each group (its numerator, then its gcd with each next one while
 * that is no constant): in[k] set for them and \p g their common factor,
 * monic. 0 when no two groups share a factor.
 */
static int sharing_groups(cl_simp *s, const fmpq_mpoly_struct *G, slong ng, char *in, fmpq_mpoly_t g)
{
    fmpq_mpoly_t f, h;
    fmpq_mpoly_init(f, s->ctx), fmpq_mpoly_init(h, s->ctx);
    char mark[MAX_GROUPS];
    slong best = 1;
    for (slong i = 0; i < ng && !cl_simp_out_of_time(s); i++) {
        fmpq_mpoly_set(f, G + i, s->ctx);
        memset(mark, 0, sizeof mark);
        mark[i] = 1;
        slong m = 1;
        for (slong j = 0; j < ng; j++) {
            if (j == i || !fmpq_mpoly_gcd(h, f, G + j, s->ctx) || fmpq_mpoly_is_fmpq(h, s->ctx)) continue;
            fmpq_mpoly_swap(f, h, s->ctx);
            mark[j] = 1, m++;
        }
        if (m < 2 || m < best || (m == best && fmpq_mpoly_length(f, s->ctx) <= fmpq_mpoly_length(g, s->ctx))) continue;
        best = m;
        memcpy(in, mark, sizeof mark);
        fmpq_mpoly_make_monic(g, f, s->ctx);
    }
    fmpq_mpoly_clear(f, s->ctx), fmpq_mpoly_clear(h, s->ctx);
    return best >= 2;
}

/* Exponent vectors a and b (nv) in a canonical order: the lower total degree first, then by the variables. */
static int monomial_cmp(const ulong *a, const ulong *b, slong nv)
{
    ulong da = 0, db = 0;
    for (slong v = 0; v < nv; v++) da += a[v], db += b[v];
    if (da != db) return da < db ? -1 : 1;
    for (slong v = 0; v < nv; v++)
        if (a[v] != b[v]) return a[v] > b[v] ? -1 : 1;
    return 0;
}

/*
 * The groups in[] of split_fraction() (G[k] over cd times the monomial
 * rem[k]) as one piece, their common factor pulled out: g over cd times the
 * monomial gcd of their denominators, times the sum of what is left of
 * each, that sum in a canonical order and sign so that the same sum in
 * other nodes is the same node: k(x − y)/m − k r0 (x − y)/(m t) is
 * k(x − y)/m·(1 − r0/t). G[k] is divided by g (and a constant). *neg: the
 * piece's sign.
 */
static int factored_groups(cl_simp *s, fmpq_mpoly_struct *G, slong ng, const ulong *rem, const char *in, fmpq_mpoly_t g,
                           const fmpq_t cd, int *neg)
{
    slong nv = s->nvars, order[MAX_GROUPS], m = 0;
    for (slong k = 0; k < ng; k++) {
        if (!in[k]) continue;
        slong at = m++;
        while (at > 0 && monomial_cmp(rem + k * nv, rem + order[at - 1] * nv, nv) < 0) order[at] = order[at - 1], at--;
        order[at] = k;
    }
    ulong *h = malloc((size_t)nv * 2 * sizeof *h), *e = h + nv;
    pieces *p = calloc(1, sizeof *p);
    if (!h || !p) {
        free(h), free(p);
        s->failed = CL_ENOMEM;
        return -1;
    }
    memcpy(h, rem + order[0] * nv, (size_t)nv * sizeof *h);
    for (slong k = 1; k < m; k++)
        for (slong v = 0; v < nv; v++) h[v] = rem[order[k] * nv + v] < h[v] ? rem[order[k] * nv + v] : h[v];
    for (slong k = 0; k < m; k++) fmpq_mpoly_divides(G + order[k], G + order[k], g, s->ctx);
    fmpq_t c, one;
    fmpq_init(c), fmpq_init(one);
    fmpq_one(one);
    fmpq_mpoly_content(c, G + order[0], s->ctx); /* the first group's rest primitive, its leading term positive */
    fmpq_t lc;
    fmpq_init(lc);
    fmpq_mpoly_get_term_coeff_fmpq(lc, G + order[0], 0, s->ctx);
    if (fmpq_sgn(lc) < 0) fmpq_neg(c, c);
    fmpq_clear(lc);
    fmpq_mpoly_t D;
    fmpq_mpoly_init(D, s->ctx);
    for (slong k = 0; k < m && !s->failed; k++) {
        fmpq_mpoly_struct *q = G + order[k];
        fmpq_mpoly_scalar_div_fmpq(q, q, c, s->ctx);
        for (slong v = 0; v < nv; v++) e[v] = rem[order[k] * nv + v] - h[v];
        fmpq_mpoly_zero(D, s->ctx);
        fmpq_mpoly_push_term_fmpq_ui(D, one, e, s->ctx);
        int nk = 0, piece = fraction(s, q, D, &nk);
        p->node[p->n] = piece, p->neg[p->n++] = (char)nk;
    }
    int inner = s->failed ? -1 : sum_of(s, p);
    fmpq_mpoly_scalar_mul_fmpq(g, g, c, s->ctx);
    fmpq_mpoly_zero(D, s->ctx);
    fmpq_mpoly_push_term_fmpq_ui(D, cd, h, s->ctx);
    int outer = s->failed ? -1 : fraction(s, g, D, neg);
    fmpq_mpoly_clear(D, s->ctx);
    fmpq_clear(c), fmpq_clear(one);
    free(h), free(p);
    return op2(s, CL_EXPR_MUL, outer, inner);
}

/* 1 when node \p id is an atom's (a variable past the inputs): written where it is used as a name. */
static int is_atom(const cl_simp *s, int id)
{
    for (slong v = s->ninputs; v < s->nvar; v++)
        if (s->var_node[v] == id) return 1;
    return 0;
}

/* The operations of the \p n nodes \p ids, each reached once, down to the inputs, constants and atoms: what writing them costs. */
static size_t ops_of(cl_simp *s, const int *ids, size_t n)
{
    size_t count = 0, top = 0, cap = 64, nseen = 0;
    int *stack = malloc(cap * sizeof *stack), *seen = malloc(cap * sizeof *seen);
    for (size_t k = 0; stack && seen && k < n; k++) stack[top++] = ids[k];
    while (stack && seen && top > 0) {
        int id = stack[--top];
        size_t j = 0;
        while (j < nseen && seen[j] != id) j++;
        if (j < nseen) continue;
        const cl_expr_node *e = cl_expr_dag_node(s->g, id);
        if (e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST || is_atom(s, id)) continue;
        if (nseen + 2 >= cap || top + 2 >= cap) { /* both grow together */
            cap *= 2;
            int *a = realloc(stack, cap * sizeof *a), *b = a ? realloc(seen, cap * sizeof *b) : NULL;
            if (a) stack = a;
            if (!b) break;
            seen = b;
        }
        seen[nseen++] = id, count++;
        stack[top++] = e->a;
        if (e->b >= 0) stack[top++] = e->b;
    }
    if (!stack || !seen || top > 0) s->failed = CL_ENOMEM;
    free(stack), free(seen);
    return count;
}

/*
 * n/d for a monomial d as a sum of fractions, the terms of n grouped by
 * what is left of d once each term's common variables cancel:
 * (a t + b)/t is a + b/t; the groups that share a factor as one piece,
 * that factor pulled out (factored_groups()). NONE when the terms make one
 * group (or more than MAX_GROUPS): then one fraction.
 */
static int split_fraction(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d)
{
    slong len = fmpq_mpoly_length(n, s->ctx), nv = s->nvars, ng = 0;
    ulong *de = malloc((size_t)nv * (MAX_GROUPS + 3) * sizeof *de), *te = de + nv, *rem = te + nv;
    fmpq_mpoly_t G[MAX_GROUPS], D, common;
    fmpq_t c, cd;
    if (!de) {
        s->failed = CL_ENOMEM;
        return -1;
    }
    fmpq_init(c), fmpq_init(cd);
    fmpq_mpoly_get_term_exp_ui(de, d, 0, s->ctx);
    fmpq_mpoly_get_term_coeff_fmpq(cd, d, 0, s->ctx);
    for (slong t = 0; t < len && ng <= MAX_GROUPS; t++) {
        fmpq_mpoly_get_term_exp_ui(te, n, t, s->ctx);
        fmpq_mpoly_get_term_coeff_fmpq(c, n, t, s->ctx);
        ulong *r = rem + ng * nv;
        for (slong v = 0; v < nv; v++) r[v] = de[v] > te[v] ? de[v] - te[v] : 0, te[v] -= de[v] - r[v];
        slong k = 0;
        while (k < ng && memcmp(rem + k * nv, r, (size_t)nv * sizeof *r)) k++;
        if (k == ng && ng == MAX_GROUPS) ng++;
        if (ng > MAX_GROUPS) break;
        if (k == ng) fmpq_mpoly_init(G[ng++], s->ctx);
        fmpq_mpoly_push_term_fmpq_ui(G[k], c, te, s->ctx);
    }
    int node = NONE;
    char in[MAX_GROUPS] = {0};
    pieces *p = ng > 1 && ng <= MAX_GROUPS ? calloc(1, sizeof *p) : NULL;
    fmpq_mpoly_init(D, s->ctx), fmpq_mpoly_init(common, s->ctx);
    for (slong k = 0; p && k < ng; k++) fmpq_mpoly_sort_terms(G[k], s->ctx), fmpq_mpoly_combine_like_terms(G[k], s->ctx);
    int shared = p && sharing_groups(s, G[0], ng, in, common);
    for (slong k = 0; p && k < ng && !s->failed; k++) {
        int neg = 0;
        fmpq_mpoly_zero(D, s->ctx);
        fmpq_mpoly_push_term_fmpq_ui(D, cd, rem + k * nv, s->ctx);
        int piece = fraction(s, G[k], D, &neg);
        p->node[p->n] = piece, p->neg[p->n++] = (char)neg;
    }
    if (shared && !s->failed) { /* the factored piece where it costs fewer operations than its groups added */
        int neg = 0, f = factored_groups(s, G[0], ng, rem, in, common, cd, &neg), plain[MAX_GROUPS], m = 0;
        for (slong k = 0; k < ng; k++)
            if (in[k]) plain[m++] = p->node[k];
        if (f >= 0 && ops_of(s, &f, 1) < ops_of(s, plain, (size_t)m) + (size_t)m - 1) {
            size_t at = 0;
            for (slong k = 0; k < ng; k++)
                if (!in[k]) p->node[at] = p->node[k], p->neg[at++] = p->neg[k];
            p->node[at] = f, p->neg[at++] = (char)neg;
            p->n = at;
        }
    }
    if (p && !s->failed) node = sum_of(s, p);
    for (slong k = 0; k < ng && k < MAX_GROUPS; k++) fmpq_mpoly_clear(G[k], s->ctx);
    fmpq_mpoly_clear(D, s->ctx), fmpq_mpoly_clear(common, s->ctx);
    fmpq_clear(c), fmpq_clear(cd);
    free(p), free(de);
    return s->failed ? -1 : node;
}

/* n/d as nodes: one fraction, or a sum of fractions over the parts of a monomial d (split_fraction()). */
static int quotient(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d)
{
    int neg = 0, node = NONE;
    if (fmpq_mpoly_length(d, s->ctx) == 1 && !fmpq_mpoly_is_fmpq(d, s->ctx) && fmpq_mpoly_length(n, s->ctx) > 1)
        node = split_fraction(s, n, d);
    if (node == NONE) node = fraction(s, n, d, &neg);
    if (neg && node >= 0) {
        node = cl_expr_op(s->g, CL_EXPR_NEG, node, -1, 0, s->pos);
        if (node < 0) s->failed = CL_ENOMEM;
    }
    return s->failed ? -1 : node;
}

int cl_simp_emit_value(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d)
{
    return s->failed ? -1 : quotient(s, n, d);
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

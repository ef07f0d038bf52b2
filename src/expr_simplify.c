/*
 * The simplifier of an expression graph (expr_simplify.h): each node a
 * quotient of two FLINT fmpq_mpoly polynomials in the inputs and the atoms
 * (functions of simplified arguments, subexpressions past the budget),
 * reduced by their gcd and by the manifold's relations, then written back
 * as nodes with common factors pulled out (expr_simplify_emit.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cl_core.h"
#include "expr_simplify_state.h"

/* An exact decimal as a rational: [sign] digits [. digits] [e [sign] digits]; 0, or −1 for anything else. */
static int decimal_rational(fmpq_t r, const char *s)
{
    char digits[80];
    size_t nd = 0;
    long scale = 0;
    int neg = 0, any = 0;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    for (int frac = 0;; s++) {
        if (*s == '.' && !frac) { frac = 1; continue; }
        if (*s < '0' || *s > '9') break;
        if (nd >= 70) return -1;
        digits[nd++] = *s, any = 1, scale -= frac;
    }
    if (!any) return -1;
    if (*s == 'e' || *s == 'E') {
        int eneg = 0, ed = 0;
        long e = 0;
        if (*++s == '+' || *s == '-') eneg = *s++ == '-';
        for (; *s >= '0' && *s <= '9'; s++, ed = 1)
            if ((e = 10 * e + (*s - '0')) > 60) return -1;
        if (!ed) return -1;
        scale += eneg ? -e : e;
    }
    if (*s) return -1;
    digits[nd] = 0;
    fmpz_t num, den;
    fmpz_init(num), fmpz_init(den);
    fmpz_set_str(num, digits, 10);
    fmpz_ui_pow_ui(den, 10, (ulong)labs(scale));
    if (scale > 0) fmpz_mul(num, num, den), fmpz_one(den);
    if (neg) fmpz_neg(num, num);
    fmpq_set_fmpz_frac(r, num, den);
    fmpz_clear(num), fmpz_clear(den);
    return 0;
}

/* The variable of atom \p node (a new one the first time); −1 when none is left. */
static slong atom_var(cl_simp *s, int node)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, node);
    if (e->op == CL_EXPR_INPUT) return e->k;
    for (slong v = s->ninputs; v < s->nvar; v++)
        if (s->var_node[v] == node) return v;
    if (s->nvar == s->nvars) {
        s->failed = CL_ENOCONV;
        return -1;
    }
    s->var_node[s->nvar] = node;
    return s->nvar++;
}

/* A relation r = 0 the reductions use (owned by s afterwards). */
static void add_relation(cl_simp *s, const fmpq_mpoly_t r)
{
    if (fmpq_mpoly_is_zero(r, s->ctx)) return;
    if (s->nrel == s->caprel) {
        size_t cap = s->caprel ? 2 * s->caprel : 16;
        fmpq_mpoly_struct *p = realloc(s->rel, cap * sizeof *p);
        if (!p) {
            s->failed = CL_ENOMEM;
            return;
        }
        s->rel = p, s->caprel = cap;
    }
    fmpq_mpoly_init(s->rel + s->nrel, s->ctx);
    fmpq_mpoly_set(s->rel + s->nrel++, r, s->ctx);
}

/* sin² u + cos² u − 1 once both atoms sin u and cos u exist (v is one of them). */
static void trig_relation(cl_simp *s, slong v)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, s->var_node[v]);
    int other = e->op == CL_EXPR_SIN ? CL_EXPR_COS : e->op == CL_EXPR_COS ? CL_EXPR_SIN : -1;
    for (slong w = s->ninputs; other >= 0 && w < s->nvar; w++) {
        const cl_expr_node *f = cl_expr_dag_node(s->g, s->var_node[w]);
        if (f->op != other || f->a != e->a) continue;
        fmpq_mpoly_t r, t;
        fmpq_mpoly_init(r, s->ctx), fmpq_mpoly_init(t, s->ctx);
        fmpq_mpoly_gen(r, v, s->ctx), fmpq_mpoly_mul(r, r, r, s->ctx);
        fmpq_mpoly_gen(t, w, s->ctx), fmpq_mpoly_mul(t, t, t, s->ctx);
        fmpq_mpoly_add(r, r, t, s->ctx);
        fmpq_mpoly_sub_si(r, r, 1, s->ctx);
        add_relation(s, r);
        fmpq_mpoly_clear(r, s->ctx), fmpq_mpoly_clear(t, s->ctx);
        return;
    }
}

/* d s² − n for the atom s = sqrt(n/d), variable \p root: where s is defined, s² = n/d. */
static void sqrt_relation(cl_simp *s, slong root, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d)
{
    fmpq_mpoly_t t;
    fmpq_mpoly_init(t, s->ctx);
    fmpq_mpoly_gen(t, root, s->ctx);
    fmpq_mpoly_mul(t, t, t, s->ctx);
    fmpq_mpoly_mul(t, t, d, s->ctx);
    fmpq_mpoly_sub(t, t, n, s->ctx);
    add_relation(s, t);
    fmpq_mpoly_clear(t, s->ctx);
}

/* r := the atom \p node, a variable of its own. */
static void set_atom(cl_simp *s, cl_simp_rf *r, int node)
{
    slong v = node < 0 ? -1 : atom_var(s, node);
    if (v < 0) {
        if (!s->failed) s->failed = CL_ENOMEM;
        return;
    }
    int fresh = v >= s->ninputs && v == s->nvar - 1 && s->var_node[v] == node;
    fmpq_mpoly_gen(r->n, v, s->ctx);
    fmpq_mpoly_one(r->d, s->ctx);
    if (fresh) trig_relation(s, v);
}

/*
 * P reduced modulo the relations, a step kept only where it shortens P: for
 * a relation r and a term L of r, every term of P that L divides is
 * replaced by the rest of r (P − Q r with Q = Σ (c_t / c_L) t / L), or one
 * such term alone.
 */
/* T shorter than P: fewer terms, or as many and a lower total degree (w = 1 makes w·x just x). */
static int shorter(cl_simp *s, const fmpq_mpoly_t T, const fmpq_mpoly_t P)
{
    slong lt = fmpq_mpoly_length(T, s->ctx), lp = fmpq_mpoly_length(P, s->ctx);
    if (lt != lp || !s->atom_relations) return lt < lp; /* the degree only where atoms bring relations of two terms */
    return fmpq_mpoly_total_degree_si(T, s->ctx) < fmpq_mpoly_total_degree_si(P, s->ctx);
}

static void reduce(cl_simp *s, fmpq_mpoly_t P)
{
    if (!s->nrel || fmpq_mpoly_is_fmpq(P, s->ctx) || (!s->atom_relations && fmpq_mpoly_length(P, s->ctx) < 2)) return;
    int monomial = fmpq_mpoly_length(P, s->ctx) == 1; /* reduced by the relations of two terms only (w − 1 makes w·x just x): the others cannot shorten it */
    fmpq_mpoly_t Q, T, best;
    fmpq_t c, cl;
    fmpq_mpoly_init(Q, s->ctx), fmpq_mpoly_init(T, s->ctx), fmpq_mpoly_init(best, s->ctx);
    fmpq_init(c), fmpq_init(cl);
    for (int round = 0, better = 1; better && round < 8 && !cl_simp_out_of_time(s); round++) {
        better = 0;
        fmpq_mpoly_set(best, P, s->ctx);
        for (size_t k = 0; k < s->nrel; k++) {
            const fmpq_mpoly_struct *r = s->rel + k;
            if (monomial && fmpq_mpoly_length(r, s->ctx) != 2) continue;
            for (slong j = 0; j < fmpq_mpoly_length(r, s->ctx); j++) {
                fmpq_mpoly_get_term_exp_ui(s->lead, r, j, s->ctx);
                fmpq_mpoly_get_term_coeff_fmpq(cl, r, j, s->ctx);
                fmpq_mpoly_zero(Q, s->ctx);
                for (slong t = 0; t < fmpq_mpoly_length(P, s->ctx); t++) {
                    fmpq_mpoly_get_term_exp_ui(s->exp, P, t, s->ctx);
                    slong v = 0;
                    while (v < s->nvars && s->exp[v] >= s->lead[v]) v++;
                    if (v < s->nvars) continue;
                    for (v = 0; v < s->nvars; v++) s->exp[v] -= s->lead[v];
                    fmpq_mpoly_get_term_coeff_fmpq(c, P, t, s->ctx);
                    fmpq_div(c, c, cl);
                    fmpq_mpoly_push_term_fmpq_ui(Q, c, s->exp, s->ctx);
                    fmpq_mpoly_zero(T, s->ctx); /* this term alone replaced: p²(1 − c²) + x² c² is p² s² + x² c² */
                    fmpq_mpoly_push_term_fmpq_ui(T, c, s->exp, s->ctx);
                    fmpq_mpoly_mul(T, T, r, s->ctx);
                    fmpq_mpoly_sub(T, P, T, s->ctx);
                    if (shorter(s, T, best)) fmpq_mpoly_swap(best, T, s->ctx), better = 1;
                }
                if (fmpq_mpoly_is_zero(Q, s->ctx)) continue;
                fmpq_mpoly_sort_terms(Q, s->ctx), fmpq_mpoly_combine_like_terms(Q, s->ctx);
                fmpq_mpoly_mul(T, Q, r, s->ctx);
                fmpq_mpoly_sub(T, P, T, s->ctx);
                if (shorter(s, T, best)) fmpq_mpoly_swap(best, T, s->ctx), better = 1;
            }
        }
        if (better) fmpq_mpoly_swap(P, best, s->ctx);
    }
    fmpq_mpoly_clear(Q, s->ctx), fmpq_mpoly_clear(T, s->ctx), fmpq_mpoly_clear(best, s->ctx);
    fmpq_clear(c), fmpq_clear(cl);
}

/* N/D in lowest terms, D's leading coefficient 1; −1 when D is 0 on the manifold (the node is then kept as it is). */
static int cancel(cl_simp *s, cl_simp_rf *r)
{
    reduce(s, r->n);
    reduce(s, r->d);
    if (fmpq_mpoly_is_zero(r->d, s->ctx)) return -1;
    if (fmpq_mpoly_is_zero(r->n, s->ctx)) {
        fmpq_mpoly_one(r->d, s->ctx);
        return 0;
    }
    if (!fmpq_mpoly_is_fmpq(r->d, s->ctx)) {
        fmpq_mpoly_t g;
        fmpq_mpoly_init(g, s->ctx);
        if (fmpq_mpoly_gcd(g, r->n, r->d, s->ctx) && !fmpq_mpoly_is_one(g, s->ctx)) {
            fmpq_mpoly_divides(r->n, r->n, g, s->ctx);
            fmpq_mpoly_divides(r->d, r->d, g, s->ctx);
        }
        fmpq_mpoly_clear(g, s->ctx);
    }
    fmpq_t lc;
    fmpq_init(lc);
    fmpq_mpoly_get_term_coeff_fmpq(lc, r->d, 0, s->ctx);
    fmpq_mpoly_scalar_div_fmpq(r->n, r->n, lc, s->ctx);
    fmpq_mpoly_scalar_div_fmpq(r->d, r->d, lc, s->ctx);
    fmpq_clear(lc);
    return 0;
}

/* r = a ± b */
static void rf_add(cl_simp *s, cl_simp_rf *r, const cl_simp_rf *a, const cl_simp_rf *b, int sub)
{
    void (*op)(fmpq_mpoly_t, const fmpq_mpoly_t, const fmpq_mpoly_t, const fmpq_mpoly_ctx_t) = sub ? fmpq_mpoly_sub : fmpq_mpoly_add;
    if (fmpq_mpoly_equal(a->d, b->d, s->ctx)) {
        op(r->n, a->n, b->n, s->ctx);
        fmpq_mpoly_set(r->d, a->d, s->ctx);
        return;
    }
    fmpq_mpoly_t g, da, db, t;
    fmpq_mpoly_init(g, s->ctx), fmpq_mpoly_init(da, s->ctx), fmpq_mpoly_init(db, s->ctx), fmpq_mpoly_init(t, s->ctx);
    if (!fmpq_mpoly_gcd(g, a->d, b->d, s->ctx)) fmpq_mpoly_one(g, s->ctx);
    fmpq_mpoly_divides(da, a->d, g, s->ctx);
    fmpq_mpoly_divides(db, b->d, g, s->ctx);
    fmpq_mpoly_mul(t, b->n, da, s->ctx);
    fmpq_mpoly_mul(r->n, a->n, db, s->ctx);
    op(r->n, r->n, t, s->ctx);
    fmpq_mpoly_mul(r->d, a->d, db, s->ctx);
    fmpq_mpoly_clear(g, s->ctx), fmpq_mpoly_clear(da, s->ctx), fmpq_mpoly_clear(db, s->ctx), fmpq_mpoly_clear(t, s->ctx);
}

/* r = a^k (k ≠ 0), 0 or −1 when the power cannot be formed */
static int rf_pow(cl_simp *s, cl_simp_rf *r, const cl_simp_rf *a, long k)
{
    ulong e = (ulong)labs(k);
    if (e > 64) return -1;
    fmpq_mpoly_struct *n = k > 0 ? r->n : r->d, *d = k > 0 ? r->d : r->n;
    if (!fmpq_mpoly_pow_ui(n, a->n, e, s->ctx) || !fmpq_mpoly_pow_ui(d, a->d, e, s->ctx)) return -1;
    return fmpq_mpoly_is_zero(r->d, s->ctx) ? -1 : 0;
}

/* The normal form of node i from those of its arguments: 0, or −1 when node i is to be an atom. */
static int form(cl_simp *s, int i)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, i);
    cl_simp_rf *r = s->val + i;
    const cl_simp_rf *a = e->a >= 0 ? s->val + e->a : NULL, *b = e->b >= 0 ? s->val + e->b : NULL;
    fmpq_t c;
    switch (e->op) {
    case CL_EXPR_CONST:
        fmpq_init(c);
        int bad = decimal_rational(c, cl_expr_dag_const(s->g, e->k));
        if (!bad) fmpq_mpoly_set_fmpq(r->n, c, s->ctx), fmpq_mpoly_one(r->d, s->ctx);
        fmpq_clear(c);
        return bad;
    case CL_EXPR_INPUT: set_atom(s, r, i); return 0;
    case CL_EXPR_ADD: case CL_EXPR_SUB: rf_add(s, r, a, b, e->op == CL_EXPR_SUB); break;
    case CL_EXPR_NEG: fmpq_mpoly_neg(r->n, a->n, s->ctx), fmpq_mpoly_set(r->d, a->d, s->ctx); return 0;
    case CL_EXPR_MUL:
        fmpq_mpoly_mul(r->n, a->n, b->n, s->ctx);
        fmpq_mpoly_mul(r->d, a->d, b->d, s->ctx);
        break;
    case CL_EXPR_DIV:
        if (fmpq_mpoly_is_zero(b->n, s->ctx)) return -1;
        fmpq_mpoly_mul(r->d, a->d, b->n, s->ctx); /* r->n last: a or b may be r only for a == b, which the graph never has */
        fmpq_mpoly_mul(r->n, a->n, b->d, s->ctx);
        break;
    case CL_EXPR_POWI:
        if (rf_pow(s, r, a, e->k)) return -1;
        break;
    default: return -1;
    }
    return cancel(s, r);
}

#define RELATION_TERMS 8 /* an atom longer than this has no relation: reducing by it costs more than it finds */

/*
 * The relations so far written in a new atom too, where that shortens
 * them: for the atom's relation \p ra (v·D − N, \p N its sum) and a
 * relation r holding N's first term, r plus the multiple of ra that
 * cancels that term, when it is shorter than r: with the atom v = q_x² + q_y²,
 * q_x² + q_y² + q_z² − 1 is v + q_z² − 1, so q_z² + v reduces to 1 (a
 * reduction the two relations apart do not find: each step alone is longer).
 */
static void relation_in_atom(cl_simp *s, const fmpq_mpoly_t ra, const fmpq_mpoly_struct *N)
{
    fmpq_t c0, ck;
    fmpq_mpoly_t T;
    fmpq_init(c0), fmpq_init(ck);
    fmpq_mpoly_init(T, s->ctx);
    fmpq_mpoly_get_term_exp_ui(s->lead, N, 0, s->ctx);
    fmpq_mpoly_get_term_coeff_fmpq(c0, N, 0, s->ctx);
    for (size_t k = 0, n = s->nrel; k < n && !s->failed; k++) {
        fmpq_mpoly_get_coeff_fmpq_ui(ck, s->rel + k, s->lead, s->ctx);
        if (fmpq_is_zero(ck)) continue;
        fmpq_div(ck, ck, c0);
        fmpq_mpoly_scalar_mul_fmpq(T, ra, ck, s->ctx);
        fmpq_mpoly_add(T, T, s->rel + k, s->ctx);
        if (fmpq_mpoly_length(T, s->ctx) < fmpq_mpoly_length(s->rel + k, s->ctx)) add_relation(s, T);
    }
    fmpq_mpoly_clear(T, s->ctx);
    fmpq_clear(c0), fmpq_clear(ck);
}

/* P = c·M·P' with c its content (signed so that P' leads with a positive term) and M its monomial gcd (coefficient 1). */
static void split_poly(cl_simp *s, const fmpq_mpoly_struct *P, fmpq_t c, fmpq_mpoly_t M, fmpq_mpoly_t Pp)
{
    fmpq_t lc;
    fmpq_init(lc);
    fmpq_mpoly_content(c, P, s->ctx);
    fmpq_mpoly_get_term_coeff_fmpq(lc, P, 0, s->ctx);
    if (fmpq_sgn(lc) < 0) fmpq_neg(c, c);
    fmpq_mpoly_term_content(M, P, s->ctx);
    fmpq_mpoly_scalar_div_fmpq(Pp, P, c, s->ctx);
    fmpq_mpoly_divides(Pp, Pp, M, s->ctx);
    fmpq_clear(lc);
}

/*
 * Node i past the budget of terms, r = N/D its normal form, kept as an
 * atom: N = cn·Mn·N' and D = cd·Md·D' (contents and monomial gcds), the
 * atom v = N'/D' (v = D' when N' is 1) and r = (cn/cd)·(Mn/Md)·v, so that
 * a constant or a monomial factor stays outside the atom and cancels with
 * the nodes using it (m·t/m). The relation D'·v − N' (v − D') joins the
 * manifold's: where the same sum shows up again expanded, it is written
 * as v when that is shorter (x² + (l² − x²) is l²).
 */
static void budget_atom(cl_simp *s, cl_simp_rf *r, int i)
{
    fmpq_t cn, cd;
    fmpq_mpoly_t Mn, Md, N, D, one, rel;
    fmpq_init(cn), fmpq_init(cd);
    fmpq_mpoly_init(Mn, s->ctx), fmpq_mpoly_init(Md, s->ctx), fmpq_mpoly_init(N, s->ctx), fmpq_mpoly_init(D, s->ctx);
    fmpq_mpoly_init(one, s->ctx), fmpq_mpoly_init(rel, s->ctx);
    fmpq_mpoly_one(one, s->ctx);
    if (s->strip) {
        split_poly(s, r->n, cn, Mn, N);
        split_poly(s, r->d, cd, Md, D);
    } else { /* the whole of N/D the atom */
        fmpq_mpoly_set(N, r->n, s->ctx), fmpq_mpoly_set(D, r->d, s->ctx);
        fmpq_one(cn), fmpq_one(cd), fmpq_mpoly_one(Mn, s->ctx), fmpq_mpoly_one(Md, s->ctx);
    }
    int flip = s->strip && fmpq_mpoly_is_one(N, s->ctx), node = -1;
    if (flip && fmpq_mpoly_is_one(D, s->ctx)) node = cl_simp_emit_node(s, i); /* a monomial: nothing to take out */
    else {
        long saved = s->pos;
        s->pos = cl_expr_dag_node(s->g, i)->pos;
        node = flip ? cl_simp_emit_value(s, D, one) : cl_simp_emit_value(s, N, D);
        s->pos = saved;
    }
    slong before = s->nvar, v = node < 0 ? -1 : atom_var(s, node);
    if (v < 0) {
        if (!s->failed) s->failed = CL_ENOMEM;
    } else if (flip && fmpq_mpoly_is_one(D, s->ctx)) {
        fmpq_mpoly_gen(r->n, v, s->ctx), fmpq_mpoly_one(r->d, s->ctx);
    } else {
        if (s->atom_relations && s->nvar > before && fmpq_mpoly_length(N, s->ctx) + fmpq_mpoly_length(D, s->ctx) <= RELATION_TERMS) { /* a new atom: its relation */
            fmpq_mpoly_gen(rel, v, s->ctx);
            if (!flip) fmpq_mpoly_mul(rel, rel, D, s->ctx);
            fmpq_mpoly_sub(rel, rel, flip ? D : N, s->ctx);
            relation_in_atom(s, rel, flip ? D : N);
            add_relation(s, rel);
        }
        fmpq_div(cn, cn, cd);
        fmpq_mpoly_gen(rel, v, s->ctx);
        if (flip) fmpq_mpoly_mul(Md, Md, rel, s->ctx);
        else fmpq_mpoly_mul(Mn, Mn, rel, s->ctx);
        fmpq_mpoly_scalar_mul_fmpq(Mn, Mn, cn, s->ctx);
        fmpq_mpoly_swap(r->n, Mn, s->ctx);
        fmpq_mpoly_swap(r->d, Md, s->ctx);
    }
    fmpq_clear(cn), fmpq_clear(cd);
    fmpq_mpoly_clear(Mn, s->ctx), fmpq_mpoly_clear(Md, s->ctx), fmpq_mpoly_clear(N, s->ctx), fmpq_mpoly_clear(D, s->ctx);
    fmpq_mpoly_clear(one, s->ctx), fmpq_mpoly_clear(rel, s->ctx);
}

/* 1 when node i is one of the relations: kept whole whatever its terms, an atom of it would be no relation. */
static int is_relation(const cl_simp *s, int i)
{
    for (size_t k = 0; k < s->nzero; k++)
        if (s->zero[k] == i) return 1;
    return 0;
}

/* Node i (its arguments done): its normal form, or an atom of its own (a function, a constant not a decimal, a subexpression past the budget). */
static void visit(cl_simp *s, int i)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, i);
    cl_simp_rf *r = s->val + i;
    fmpq_mpoly_init(r->n, s->ctx), fmpq_mpoly_init(r->d, s->ctx);
    s->have[i] = 1;
    if (!form(s, i)) {
        size_t terms = (size_t)(fmpq_mpoly_length(r->n, s->ctx) + fmpq_mpoly_length(r->d, s->ctx));
        if (!(s->shared[i] & 2) && (terms <= (s->shared[i] ? s->max_shared : s->max_terms) + 1 || is_relation(s, i))) return;
        if ((s->shared[i] & 2) || (!s->strip && !s->atom_relations)) set_atom(s, r, cl_simp_emit_node(s, i));
        else budget_atom(s, r, i);
        return;
    }
    if (e->op == CL_EXPR_CONST) {
        set_atom(s, r, i);
        return;
    }
    int a = e->a >= 0 ? cl_simp_emit_node(s, e->a) : -1, b = e->b >= 0 ? cl_simp_emit_node(s, e->b) : -1;
    slong before = s->nvar;
    set_atom(s, r, a < 0 || (e->b >= 0 && b < 0) ? -1 : cl_expr_op(s->g, e->op, a, b, e->k, e->pos));
    if (e->op == CL_EXPR_SQRT && !s->failed && s->nvar > before) sqrt_relation(s, s->nvar - 1, s->val[e->a].n, s->val[e->a].d);
}

/* Mark with \p bit the nodes \p ids (n of them) need, arguments included. */
static void mark(const cl_expr_dag *g, const int *ids, size_t n, char *need, char bit)
{
    for (size_t k = 0; k < n; k++) need[ids[k]] |= bit;
    for (size_t i = cl_expr_dag_size(g); i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!(need[i] & bit) || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        need[e->a] |= bit;
        if (e->b >= 0) need[e->b] |= bit;
    }
}

/* need[i]: bit 1, node i is needed by a root; bit 2, by a relation. \p nfunc: the needed nodes that may become atoms. */
static char *needed_nodes(const cl_expr_dag *g, const int *roots, size_t n, const cl_expr_simplify_opts *o, size_t *nfunc)
{
    size_t size = cl_expr_dag_size(g);
    char *need = calloc(size + 1, 1);
    if (!need) return NULL;
    mark(g, roots, n, need, 1);
    if (o && o->nzero) mark(g, o->zero, o->nzero, need, 2);
    *nfunc = 0;
    for (size_t i = 0; i < size; i++) {
        int op = cl_expr_dag_node(g, (int)i)->op;
        *nfunc += need[i] && op >= CL_EXPR_SIN; /* the atoms of functions; those of a division by 0, a constant no decimal and a subexpression past the budget share the margin */
    }
    return need;
}

/* shared[i]: needed node i is used twice or more (by needed nodes, or as a root); NULL when out of memory. */
static char *shared_nodes(const cl_expr_dag *g, const int *roots, size_t n, const char *need)
{
    size_t size = cl_expr_dag_size(g);
    unsigned char *uses = calloc(size + 1, 1);
    if (!uses) return NULL;
    for (size_t k = 0; k < n; k++) uses[roots[k]] += uses[roots[k]] < 2;
    for (size_t i = 0; i < size; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!need[i] || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        uses[e->a] += uses[e->a] < 2;
        if (e->b >= 0) uses[e->b] += uses[e->b] < 2;
    }
    for (size_t i = 0; i < size; i++) uses[i] = uses[i] >= 2;
    return (char *)uses;
}

/* The relations of \p o as polynomials (a relation that is not one is left out). */
static void relations(cl_simp *s, const cl_expr_simplify_opts *o)
{
    for (size_t k = 0; o && k < o->nzero && !s->failed; k++) {
        const cl_simp_rf *r = s->val + o->zero[k];
        if (fmpq_mpoly_is_one(r->d, s->ctx)) add_relation(s, r->n);
    }
}

static void simp_free(cl_simp *s, size_t size)
{
    for (size_t i = 0; s->val && i < size; i++)
        if (s->have[i]) fmpq_mpoly_clear(s->val[i].n, s->ctx), fmpq_mpoly_clear(s->val[i].d, s->ctx);
    for (size_t k = 0; k < s->nrel; k++) fmpq_mpoly_clear(s->rel + k, s->ctx);
    fmpq_mpoly_ctx_clear(s->ctx);
    free(s->rel), free(s->val), free(s->have), free(s->emitted), free(s->var_node), free(s->exp), free(s->lead), free(s->count), free(s->shared);
}

int cl_expr_simplify(cl_expr_dag *g, const int *roots, size_t n, int *out, const cl_expr_simplify_opts *o)
{
    size_t size = cl_expr_dag_size(g), nfunc = 0;
    char *need = needed_nodes(g, roots, n, o, &nfunc);
    cl_simp s = {.g = g, .ninputs = cl_expr_dag_ninputs(g), .n0 = size};
    s.max_terms = o && o->max_terms ? o->max_terms : CL_EXPR_SIMPLIFY_TERMS;
    s.max_shared = o && o->max_shared ? o->max_shared : CL_EXPR_SIMPLIFY_SHARED_TERMS;
    s.strip = o && o->strip;
    s.atom_relations = o && o->atom_relations;
    s.zero = o ? o->zero : NULL, s.nzero = o ? o->nzero : 0;
    size_t nneed = 0;
    for (size_t i = 0; need && i < size; i++) nneed += need[i] != 0;
    /* the atoms: the functions, and a margin for the subexpressions past the budget (more, the smaller the budget) */
    s.nvars = s.nvar = s.ninputs;
    s.nvars += (slong)nfunc + 64 + (slong)(nneed / s.max_shared / 2) + (slong)(o ? o->natoms : 0);
    s.shared = need ? shared_nodes(g, roots, n, need) : NULL;
    s.first = o && o->nlead > 0 && o->lead >= 0 && o->lead + o->nlead <= s.ninputs ? o->lead : 0;
    s.nfirst = o && o->nlead > 0 && o->lead >= 0 && o->lead + o->nlead <= s.ninputs ? o->nlead : 0;
    s.deadline = clock() + (clock_t)((o && o->seconds > 0 ? o->seconds : CL_EXPR_SIMPLIFY_SECONDS) * CLOCKS_PER_SEC);
    fmpq_mpoly_ctx_init(s.ctx, s.nvars, ORD_DEGREVLEX);
    s.val = malloc((size + 1) * sizeof *s.val);
    s.have = calloc(size + 1, 1);
    s.emitted = malloc((size + 1) * sizeof *s.emitted);
    s.var_node = malloc((size_t)s.nvars * sizeof *s.var_node);
    s.exp = malloc((size_t)s.nvars * sizeof *s.exp);
    s.lead = malloc((size_t)s.nvars * sizeof *s.lead);
    s.count = malloc((size_t)s.nvars * sizeof *s.count);
    if (!need || !s.val || !s.have || !s.emitted || !s.var_node || !s.exp || !s.lead || !s.count || !s.shared) s.failed = CL_ENOMEM;
    for (size_t k = 0; !s.failed && o && k < o->natoms; k++)
        if (o->atoms[k] >= 0 && (size_t)o->atoms[k] < size) s.shared[o->atoms[k]] |= 2;
    for (slong v = 0; !s.failed && v < s.nvars; v++) s.var_node[v] = -1;
    for (size_t i = 0; !s.failed && i < size; i++) s.emitted[i] = -1;
    /* the relations' nodes first, so that every other node is reduced by them */
    for (char bit = 2; bit > 0 && !s.failed; bit--) {
        for (size_t i = 0; i < size && !cl_simp_out_of_time(&s); i++)
            if ((need[i] & bit) && !s.have[i]) visit(&s, (int)i);
        if (bit == 2) relations(&s, o);
    }
    int *res = s.failed ? NULL : malloc((n + 1) * sizeof *res);
    if (!s.failed && !res) s.failed = CL_ENOMEM;
    for (size_t k = 0; k < n && !s.failed; k++) res[k] = cl_simp_emit_node(&s, roots[k]);
    int st = s.failed;
    if (out != roots || !st) memcpy(out, st ? roots : res, n * sizeof *out);
    free(res);
    simp_free(&s, size);
    free(need);
    return st;
}

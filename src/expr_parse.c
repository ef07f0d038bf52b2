/*
 * The parser of the expression language (expr.h): text into nodes of an
 * expression graph (expr.c), with shapes (scalars, vectors of R³, 3×3
 * matrices), the functions, indices and sums, and errors that name the
 * byte where the text went wrong.
 */
#include "cl_core.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"

typedef struct parser {
    cl_expr_dag *g;
    const char *s;
    size_t len, i;
    long base;
    cl_expr_lookup_fn lookup;
    void *ctx;
    cl_expr_error *err;
    int failed, depth;
    int nbind; /* the indices of the enclosing sums, innermost last */
    long terms; /* terms of sums parsed so far (nested ones multiply) */
    struct { const char *name; size_t len; long value; } bind[CL_EXPR_MAX_SUM_DEPTH];
} parser;

#define MAX_DEPTH 200

static void fail(parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(parser *p, size_t at, const char *fmt, ...)
{
    if (p->failed) return;
    p->failed = 1;
    p->err->pos = p->base + (long)at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
}

static void skip_space(parser *p)
{
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c == '#')
            while (p->i < p->len && p->s[p->i] != '\n') p->i++;
        else if (isspace((unsigned char)c)) p->i++;
        else break;
    }
}

static int peek(parser *p)
{
    skip_space(p);
    return p->i < p->len ? (unsigned char)p->s[p->i] : 0;
}

static int accept(parser *p, char c)
{
    if (peek(p) != c) return 0;
    p->i++;
    return 1;
}

/* What stands at the cursor, for messages. */
static const char *found(parser *p, char *buf, size_t n)
{
    peek(p);
    return cl_expr_describe_char(p->s, p->len, p->i, buf, n);
}

static void expect(parser *p, char c, const char *where)
{
    char buf[120];
    if (!accept(p, c)) fail(p, p->i, "expected '%c' %s, found %s", c, where, found(p, buf, sizeof buf));
}

static const char *shape_name(int shape) { return shape == 1 ? "a scalar" : shape == 3 ? "a vector" : "a matrix"; }

static cl_expr_value scalar(int id) { return (cl_expr_value){.shape = 1, .id = {id}}; }

static int node(parser *p, int op, int a, int b, long k, size_t at)
{
    int id = cl_expr_op(p->g, op, a, b, k, p->base + (long)at);
    if (id < 0) fail(p, at, "expression too large (more than %d nodes) or out of memory", CL_EXPR_MAX_NODES);
    return id;
}

static int need_shape(parser *p, const cl_expr_value *v, int shape, size_t at, const char *what)
{
    if (v->shape == shape) return 1;
    fail(p, at, "%s needs %s, got %s", what, shape_name(shape), shape_name(v->shape));
    return 0;
}

/* Element-wise a ± b of equal shapes. */
static cl_expr_value elementwise(parser *p, int op, cl_expr_value a, cl_expr_value b, size_t at)
{
    cl_expr_value r = {.shape = a.shape};
    if (a.shape != b.shape) {
        fail(p, at, "'%c' between %s and %s", op == CL_EXPR_ADD ? '+' : '-', shape_name(a.shape), shape_name(b.shape));
        return r;
    }
    for (int i = 0; i < a.shape; i++) r.id[i] = node(p, op, a.id[i], b.id[i], 0, at);
    return r;
}

/* Σ_k a[k]·b[k] over n terms with strides. */
static int dot_n(parser *p, const int *a, int sa, const int *b, int sb, int n, size_t at)
{
    int s = node(p, CL_EXPR_MUL, a[0], b[0], 0, at);
    for (int k = 1; k < n && !p->failed; k++) s = node(p, CL_EXPR_ADD, s, node(p, CL_EXPR_MUL, a[k * sa], b[k * sb], 0, at), 0, at);
    return s;
}

static cl_expr_value product(parser *p, cl_expr_value a, cl_expr_value b, size_t at)
{
    cl_expr_value r = {.shape = 1};
    if (a.shape == 1 || b.shape == 1) {
        const cl_expr_value *s = a.shape == 1 ? &a : &b, *v = a.shape == 1 ? &b : &a;
        r.shape = v->shape;
        for (int i = 0; i < v->shape; i++) r.id[i] = node(p, CL_EXPR_MUL, s->id[0], v->id[i], 0, at);
    } else if (a.shape == 9) { /* matrix · vector or matrix · matrix */
        int cols = b.shape == 3 ? 1 : 3;
        r.shape = b.shape;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < cols; j++) r.id[i * cols + j] = dot_n(p, a.id + 3 * i, 1, b.id + j, cols, 3, at);
    } else
        fail(p, at, "'*' between %s and %s (use dot or cross for vectors)", shape_name(a.shape), shape_name(b.shape));
    return r;
}

static int is_integer_literal(const char *s, size_t n, long *k)
{
    if (n == 0 || n > 9) return 0;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return 0;
        v = 10 * v + (s[i] - '0');
    }
    *k = v;
    return 1;
}

static cl_expr_value parse_expr(parser *p);
static cl_expr_value parse_unary(parser *p);

static cl_expr_value parse_number(parser *p)
{
    size_t at = p->i;
    char *end;
    mpfr_t t;
    mpfr_init2(t, 8);
    /* the extent of the literal is MPFR's; its value is read later at the working precision */
    char buf[128];
    size_t n = 0;
    while (at + n < p->len && n + 1 < sizeof buf && (isalnum((unsigned char)p->s[at + n]) || p->s[at + n] == '.' ||
                                                    ((p->s[at + n] == '+' || p->s[at + n] == '-') && n > 0 &&
                                                     (p->s[at + n - 1] == 'e' || p->s[at + n - 1] == 'E'))))
        n++;
    memcpy(buf, p->s + at, n);
    buf[n] = 0;
    mpfr_strtofr(t, buf, &end, 10, MPFR_RNDN);
    mpfr_clear(t);
    size_t used = (size_t)(end - buf);
    if (used == 0 || (used < n && (isalnum((unsigned char)buf[used]) || buf[used] == '.'))) {
        fail(p, at, "malformed number '%s'", buf);
        return scalar(-1);
    }
    p->i = at + used;
    int id = cl_expr_const(p->g, p->s + at, used, p->base + (long)at);
    if (id < 0) fail(p, at, "out of memory");
    return scalar(id);
}

typedef struct function { const char *name; int nargs, op; } function;
enum { F_ATAN2 = 100, F_DOT, F_CROSS, F_HAT, F_NORM, F_TRANSPOSE };
static const function functions[] = {
    {"sin", 1, CL_EXPR_SIN}, {"cos", 1, CL_EXPR_COS}, {"tan", 1, CL_EXPR_TAN}, {"exp", 1, CL_EXPR_EXP},
    {"log", 1, CL_EXPR_LOG}, {"sqrt", 1, CL_EXPR_SQRT}, {"atan2", 2, F_ATAN2}, {"dot", 2, F_DOT},
    {"cross", 2, F_CROSS}, {"hat", 1, F_HAT}, {"norm", 1, F_NORM},
    {"transpose", 1, F_TRANSPOSE},
};

static cl_expr_value call(parser *p, const function *f, const char *name, size_t nlen, size_t at)
{
    cl_expr_value a[2], r = scalar(-1);
    size_t argat[2];
    for (int k = 0; k < f->nargs && !p->failed; k++) {
        if (k) expect(p, ',', "between the arguments");
        argat[k] = (peek(p), p->i);
        a[k] = parse_expr(p);
    }
    if (!p->failed && peek(p) == ',') fail(p, p->i, "%.*s takes %d argument%s", (int)nlen, name, f->nargs, f->nargs > 1 ? "s" : "");
    expect(p, ')', "after the arguments");
    if (p->failed) return r;
    char what[48];
    snprintf(what, sizeof what, "%.*s", (int)nlen, name);
    switch (f->op) {
    case F_ATAN2:
        if (need_shape(p, a, 1, argat[0], what) && need_shape(p, a + 1, 1, argat[1], what))
            r = scalar(node(p, CL_EXPR_ATAN2, a[0].id[0], a[1].id[0], 0, at));
        break;
    case F_DOT:
        if (need_shape(p, a, 3, argat[0], what) && need_shape(p, a + 1, 3, argat[1], what))
            r = scalar(dot_n(p, a[0].id, 1, a[1].id, 1, 3, at));
        break;
    case F_NORM:
        if (need_shape(p, a, 3, argat[0], what))
            r = scalar(node(p, CL_EXPR_SQRT, dot_n(p, a[0].id, 1, a[0].id, 1, 3, at), -1, 0, at));
        break;
    case F_CROSS:
        if (need_shape(p, a, 3, argat[0], what) && need_shape(p, a + 1, 3, argat[1], what)) {
            r.shape = 3;
            for (int i = 0; i < 3; i++) {
                int j = (i + 1) % 3, k = (i + 2) % 3;
                r.id[i] = node(p, CL_EXPR_SUB, node(p, CL_EXPR_MUL, a[0].id[j], a[1].id[k], 0, at),
                               node(p, CL_EXPR_MUL, a[0].id[k], a[1].id[j], 0, at), 0, at);
            }
        }
        break;
    case F_HAT:
        if (need_shape(p, a, 3, argat[0], what)) {
            int z = cl_expr_const(p->g, "0", 1, -1);
            const int *u = a[0].id;
            int nu[3];
            for (int i = 0; i < 3; i++) nu[i] = node(p, CL_EXPR_NEG, u[i], -1, 0, at);
            r = (cl_expr_value){.shape = 9, .id = {z, nu[2], u[1], u[2], z, nu[0], nu[1], u[0], z}};
        }
        break;
    case F_TRANSPOSE:
        if (need_shape(p, a, 9, argat[0], what)) {
            r.shape = 9;
            for (int i = 0; i < 9; i++) r.id[i] = a[0].id[3 * (i % 3) + i / 3];
        }
        break;
    default:
        if (need_shape(p, a, 1, argat[0], what)) r = scalar(node(p, f->op, a[0].id[0], -1, 0, at));
    }
    return r;
}

/* The value of a bound sum index named by \p n bytes at \p name, or 0 (with *found = 0). */
static long bound_index(const parser *p, const char *name, size_t n, int *found)
{
    for (int k = p->nbind - 1; k >= 0; k--)
        if (p->bind[k].len == n && !memcmp(p->bind[k].name, name, n)) {
            *found = 1;
            return p->bind[k].value;
        }
    *found = 0;
    return 0;
}

/* A whole number at the cursor: an optional sign and digits; 0 on success. */
static int whole_number(parser *p, long *v)
{
    skip_space(p);
    size_t j = p->i;
    int neg = j < p->len && p->s[j] == '-';
    if (neg) j++;
    if (j >= p->len || !isdigit((unsigned char)p->s[j])) return -1;
    long x = 0;
    while (j < p->len && isdigit((unsigned char)p->s[j])) {
        if (x > CL_EXPR_MAX_SUM_TERMS * 100L) return -1;
        x = 10 * x + (p->s[j++] - '0');
    }
    p->i = j;
    *v = neg ? -x : x;
    return 0;
}

/* An index in NAME[INDEX] or a bound of a sum: a whole number, or a bound index plus or minus a whole number. */
static int parse_index(parser *p, long *v)
{
    size_t at = (peek(p), p->i);
    if (whole_number(p, v) == 0) return 0;
    size_t n = 0;
    while (p->i + n < p->len && (isalnum((unsigned char)p->s[p->i + n]) || p->s[p->i + n] == '_')) n++;
    int found;
    *v = n ? bound_index(p, p->s + p->i, n, &found) : 0;
    if (!n || !found) {
        fail(p, at, "expected an index: a whole number or the index of an enclosing sum, optionally + or - a whole number");
        return -1;
    }
    p->i += n;
    int c = peek(p);
    if (c == '+' || c == '-') {
        p->i++;
        long k;
        if (peek(p) == '-' || whole_number(p, &k)) {
            fail(p, p->i, "expected a whole number after '%c' in an index", c);
            return -1;
        }
        *v += c == '+' ? k : -k;
    }
    return 0;
}

static cl_expr_value parse_sum(parser *p, size_t at);

/*
 * After '[': a vector [a, b, c] of three scalars, or a matrix [[a, b, c],
 * [d, e, f], [g, h, i]] of three row vectors (the first entry decides).
 */
static cl_expr_value parse_bracket(parser *p)
{
    cl_expr_value v = {.shape = 3};
    int rows = 0;
    for (int k = 0; k < 3 && !p->failed; k++) {
        if (k) expect(p, ',', rows ? "between the rows of a matrix" : "between the components of a vector");
        size_t cat = (peek(p), p->i);
        cl_expr_value e = parse_expr(p);
        if (!k && !p->failed && e.shape == 3) rows = v.shape = 9;
        if (p->failed) break;
        if (rows && need_shape(p, &e, 3, cat, "a row of a matrix"))
            for (int c = 0; c < 3; c++) v.id[3 * k + c] = e.id[c];
        if (!rows && need_shape(p, &e, 1, cat, "a component of a vector")) v.id[k] = e.id[0];
    }
    expect(p, ']', rows ? "after the third row of a matrix" : "after the third component of a vector");
    return v;
}

static cl_expr_value parse_primary(parser *p)
{
    char buf[120];
    int c = peek(p);
    size_t at = p->i;
    if (isdigit(c) || (c == '.' && p->i + 1 < p->len && isdigit((unsigned char)p->s[p->i + 1]))) return parse_number(p);
    if (accept(p, '(')) {
        cl_expr_value v = parse_expr(p);
        expect(p, ')', "to close '('");
        return v;
    }
    if (accept(p, '[')) return parse_bracket(p);
    if (isalpha(c) || c == '_') {
        size_t n = 0;
        while (p->i + n < p->len && (isalnum((unsigned char)p->s[p->i + n]) || p->s[p->i + n] == '_')) n++;
        const char *name = p->s + p->i;
        p->i += n;
        if (n == 3 && !memcmp(name, "sum", 3) && peek(p) == '(') {
            p->i++;
            return parse_sum(p, at);
        }
        if (peek(p) == '(') {
            p->i++;
            for (size_t f = 0; f < sizeof functions / sizeof functions[0]; f++)
                if (strlen(functions[f].name) == n && !memcmp(functions[f].name, name, n))
                    return call(p, functions + f, name, n, at);
            fail(p, at, "unknown function '%.*s'", (int)n, name);
            return scalar(-1);
        }
        char indexed[80]; /* NAME[INDEX] is the name NAME followed by the index's decimal digits */
        if (p->i < p->len && p->s[p->i] == '[') {
            p->i++;
            long k;
            if (parse_index(p, &k)) return scalar(-1);
            expect(p, ']', "after an index");
            if (p->failed) return scalar(-1);
            if (k < 0 || n > 40) {
                fail(p, at, "the index of '%.*s[...]' is %ld: an indexed name is NAME followed by a whole number >= 0", (int)(n > 40 ? 40 : n), name, k);
                return scalar(-1);
            }
            snprintf(indexed, sizeof indexed, "%.*s%ld", (int)n, name, k);
            name = indexed;
            n = strlen(indexed);
        } else {
            int bound;
            long k = bound_index(p, name, n, &bound);
            if (bound) { /* a sum's index is its value */
                char num[24];
                snprintf(num, sizeof num, "%ld", k);
                if (p->i < p->len && p->s[p->i] == '\'') {
                    fail(p, p->i, "the index '%.*s' of a sum has no velocity", (int)n, name);
                    return scalar(-1);
                }
                int id = cl_expr_const(p->g, num, strlen(num), p->base + (long)at);
                if (id < 0) fail(p, at, "out of memory");
                return scalar(id);
            }
        }
        int prime = p->i < p->len && p->s[p->i] == '\'';
        if (prime) p->i++;
        cl_expr_value v;
        if (p->lookup(p->ctx, p->g, name, n, prime, &v)) {
            fail(p, at, "unknown name '%.*s%s'", (int)n, name, prime ? "'" : "");
            return scalar(-1);
        }
        return v;
    }
    fail(p, at, "expected a number, a name, '(' or '[', found %s", found(p, buf, sizeof buf));
    return scalar(-1);
}

/*
 * sum(i = LO..HI, EXPR), after "sum(": EXPR parsed once per value of the
 * index i from LO to HI (indices: whole numbers, or an enclosing sum's
 * index plus or minus a whole number; LO <= HI), the terms added; inside
 * EXPR, i is that value and NAME[i], NAME[i+1], ... name NAME1, NAME2, ...
 */
static cl_expr_value parse_sum(parser *p, size_t at)
{
    cl_expr_value r = scalar(-1);
    size_t iat = (peek(p), p->i), n = 0;
    while (p->i + n < p->len && (isalnum((unsigned char)p->s[p->i + n]) || p->s[p->i + n] == '_')) n++;
    if (!n || !isalpha((unsigned char)p->s[p->i])) {
        fail(p, iat, "expected the name of the index after sum(, as in sum(i = 1..n, ...)");
        return r;
    }
    const char *name = p->s + p->i;
    p->i += n;
    long lo, hi;
    expect(p, '=', "after the index of a sum");
    if (!p->failed) parse_index(p, &lo);
    if (!p->failed && !(accept(p, '.') && p->i < p->len && p->s[p->i] == '.')) fail(p, p->i, "expected '..' between the bounds of a sum");
    if (!p->failed) p->i++;
    if (!p->failed) parse_index(p, &hi);
    if (!p->failed && hi < lo) fail(p, iat, "the range %ld..%ld of a sum is empty", lo, hi);
    if (!p->failed && hi - lo >= CL_EXPR_MAX_SUM_TERMS) fail(p, iat, "a sum of more than %d terms", CL_EXPR_MAX_SUM_TERMS);
    if (!p->failed && p->nbind >= CL_EXPR_MAX_SUM_DEPTH) fail(p, at, "sums nested deeper than %d", CL_EXPR_MAX_SUM_DEPTH);
    expect(p, ',', "after the range of a sum");
    if (p->failed) return r;
    size_t body = p->i;
    p->bind[p->nbind].name = name;
    p->bind[p->nbind].len = n;
    p->nbind++;
    for (long k = lo; k <= hi && !p->failed; k++) {
        if (++p->terms > CL_EXPR_MAX_SUM_TOTAL) {
            fail(p, at, "more than %d terms in the sums of one expression (nested sums multiply)", CL_EXPR_MAX_SUM_TOTAL);
            break;
        }
        p->bind[p->nbind - 1].value = k;
        p->i = body;
        cl_expr_value t = parse_expr(p);
        if (p->failed) break;
        r = k == lo ? t : elementwise(p, CL_EXPR_ADD, r, t, at);
    }
    p->nbind--;
    expect(p, ')', "to close sum(");
    return r;
}

static cl_expr_value parse_postfix(parser *p)
{
    cl_expr_value v = parse_primary(p);
    while (!p->failed && peek(p) == '.') {
        size_t at = p->i++;
        int c = p->i < p->len ? p->s[p->i] : 0;
        int k = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
        if (k < 0 || (p->i + 1 < p->len && (isalnum((unsigned char)p->s[p->i + 1]) || p->s[p->i + 1] == '_'))) {
            fail(p, at, "expected .x, .y or .z after '.'");
            break;
        }
        p->i++;
        if (!need_shape(p, &v, 3, at, "a component (.x .y .z)")) break;
        v = scalar(v.id[k]);
    }
    return v;
}

/* An exponent written as a whole number (or its negative): k, else 0. */
static int integer_exponent(const cl_expr_dag *g, int id, long *k)
{
    const cl_expr_node *d = cl_expr_dag_node(g, id);
    int neg = d->op == CL_EXPR_NEG;
    if (neg) d = cl_expr_dag_node(g, d->a);
    if (d->op != CL_EXPR_CONST) return 0;
    const char *s = cl_expr_dag_const(g, d->k);
    if (!is_integer_literal(s, strlen(s), k)) return 0;
    if (neg) *k = -*k;
    return 1;
}

static cl_expr_value parse_power(parser *p)
{
    cl_expr_value v = parse_postfix(p);
    if (p->failed || peek(p) != '^') return v;
    size_t at = p->i++;
    size_t eat = (peek(p), p->i);
    cl_expr_value e = parse_unary(p);
    if (p->failed || !need_shape(p, &v, 1, at, "'^'") || !need_shape(p, &e, 1, eat, "an exponent")) return v;
    long k;
    if (integer_exponent(p->g, e.id[0], &k)) return scalar(node(p, CL_EXPR_POWI, v.id[0], -1, k, at));
    int lg = node(p, CL_EXPR_LOG, v.id[0], -1, 0, at);
    return scalar(node(p, CL_EXPR_EXP, node(p, CL_EXPR_MUL, e.id[0], lg, 0, at), -1, 0, at));
}

static cl_expr_value parse_unary(parser *p)
{
    if (++p->depth > MAX_DEPTH) {
        fail(p, p->i, "expression nested deeper than %d levels", MAX_DEPTH);
        return scalar(-1);
    }
    size_t at = (peek(p), p->i);
    cl_expr_value v;
    if (accept(p, '-')) {
        v = parse_unary(p);
        for (int i = 0; i < v.shape && !p->failed; i++) v.id[i] = node(p, CL_EXPR_NEG, v.id[i], -1, 0, at);
    } else if (accept(p, '+')) v = parse_unary(p);
    else v = parse_power(p);
    p->depth--;
    return v;
}

/*
 * A left-associative chain of one level's binary operators: level 0 the sums
 * and differences of terms (parse_expr), level 1 the products and quotients
 * of unary factors.
 */
static cl_expr_value parse_chain(parser *p, int level)
{
    static const char *const ops[] = {"+-", "*/"};
    cl_expr_value v = level ? parse_unary(p) : parse_chain(p, 1);
    for (;;) {
        int c = peek(p);
        if (p->failed || !c || !strchr(ops[level], c)) return v;
        size_t at = p->i++;
        cl_expr_value w = level ? parse_unary(p) : parse_chain(p, 1);
        if (p->failed) return v;
        if (c == '*') v = product(p, v, w, at);
        else if (c != '/') v = elementwise(p, c == '+' ? CL_EXPR_ADD : CL_EXPR_SUB, v, w, at);
        else if (need_shape(p, &w, 1, at, "a divisor"))
            for (int i = 0; i < v.shape; i++) v.id[i] = node(p, CL_EXPR_DIV, v.id[i], w.id[0], 0, at);
    }
}

static cl_expr_value parse_expr(parser *p) { return parse_chain(p, 0); }

int cl_expr_parse(cl_expr_dag *g, const char *text, size_t len, long base, cl_expr_lookup_fn lookup, void *ctx,
                  cl_expr_value *out, cl_expr_error *err)
{
    parser p = {.g = g, .s = text, .len = len, .base = base, .lookup = lookup, .ctx = ctx, .err = err};
    err->pos = -1;
    err->msg[0] = 0;
    if (!peek(&p)) fail(&p, p.i, "expected an expression, found nothing");
    else {
        *out = parse_expr(&p);
        char buf[120];
        if (!p.failed && peek(&p)) fail(&p, p.i, "expected an operator or the end of the expression, found %s", found(&p, buf, sizeof buf));
    }
    char close; /* a bracket left open makes the rest read wrong: it is the cause to name */
    long open = p.failed ? cl_expr_unclosed_bracket(text, len, &close) : -1;
    if (open >= 0 && !(p.failed = 0)) fail(&p, (size_t)open, "this '%c' is never closed: a '%c' is missing", close == ')' ? '(' : '[', close);
    return p.failed ? CL_EPARSE : CL_OK;
}

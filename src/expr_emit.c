/*
 * An expression graph's outputs written out (expr_emit.h): the printer of
 * `chartless eom` (text, LaTeX, C), and the C source of a compiled field,
 * whose double back end is that printer's C and whose MPFR back end is one
 * MPFR call per operation node, in the interpreter's order.
 */
#include <stdlib.h>
#include <string.h>
#include "expr_emit.h"
#include "chartless_base.h"

int cl_expr_printer_init(cl_expr_printer *p, const cl_expr_dag *g, int fmt, FILE *f)
{
    size_t n = cl_expr_dag_size(g), nin = (size_t)cl_expr_dag_ninputs(g);
    *p = (cl_expr_printer){.g = g, .fmt = fmt, .f = f, .temp = calloc(n + 1, sizeof *p->temp),
                           .in = calloc(nin + 1, sizeof *p->in), .used = calloc(nin + 1, 1), .label = calloc(n + 1, sizeof *p->label)};
    if (p->temp && p->in && p->used && p->label) return CL_OK;
    cl_expr_printer_free(p);
    return CL_ENOMEM;
}

void cl_expr_printer_free(cl_expr_printer *p)
{
    for (size_t i = 0, n = p->label ? cl_expr_dag_size(p->g) : 0; i < n; i++) free(p->label[i]);
    free(p->label);
    p->label = NULL;
    free(p->temp);
    free(p->in);
    free(p->used);
    p->temp = NULL;
    p->in = NULL;
    p->used = NULL;
}

/* How tightly a node binds: 1 sums and negations, 2 products and quotients (a fraction in LaTeX is whole), 4 powers, 5 the rest. */
static int precedence(const cl_expr_node *e, int fmt)
{
    switch (e->op) {
    case CL_EXPR_ADD: case CL_EXPR_SUB: case CL_EXPR_NEG: return 1;
    case CL_EXPR_DIV: return fmt == CL_EXPR_LATEX ? 5 : 2;
    case CL_EXPR_MUL: return 2;
    case CL_EXPR_POWI: return 4;
    default: return 5;
    }
}

static const char *const fn_name[] = {[CL_EXPR_SIN] = "sin", [CL_EXPR_COS] = "cos", [CL_EXPR_TAN] = "tan",
                                      [CL_EXPR_EXP] = "exp", [CL_EXPR_LOG] = "log", [CL_EXPR_SQRT] = "sqrt"};

void cl_expr_print_constant(FILE *f, int fmt, const char *s)
{
    fputs(s, f);
    if (fmt == CL_EXPR_C && !strpbrk(s, ".eE")) fputs(".0", f);
}

/* Constant k: as written, or in C from its double value exactly; bracketed when negative and min > 1. */
static void constant(cl_expr_printer *p, long k, int min)
{
    const char *s = cl_expr_dag_const(p->g, k);
    int negative = p->cval ? p->cval[k] < 0 : s[0] == '-';
    if (negative && min > 1) fputs(p->fmt == CL_EXPR_LATEX ? "\\left(" : "(", p->f);
    if (p->cval) fprintf(p->f, "%a", p->cval[k]);
    else cl_expr_print_constant(p->f, p->fmt, s);
    if (negative && min > 1) fputs(p->fmt == CL_EXPR_LATEX ? "\\right)" : ")", p->f);
}

static void function(cl_expr_printer *p, const cl_expr_node *e)
{
    if (p->fmt == CL_EXPR_LATEX) {
        if (e->op == CL_EXPR_SQRT) fputs("\\sqrt{", p->f);
        else fprintf(p->f, "\\%s\\left(", fn_name[e->op]);
        cl_expr_printer_node(p, e->a, 0);
        fputs(e->op == CL_EXPR_SQRT ? "}" : "\\right)", p->f);
        return;
    }
    fprintf(p->f, "%s(", fn_name[e->op]);
    cl_expr_printer_node(p, e->a, 0);
    fputc(')', p->f);
}

/* The operands of a chain of sums (\p sum) or of products below a node, with their signs; named nodes end a chain. */
typedef struct chain {
    int id[64];
    char neg[64];
    int n;
} chain;

static void flatten(const cl_expr_printer *p, int id, int neg, int sum, int top, chain *c)
{
    const cl_expr_node *e = cl_expr_dag_node(p->g, id);
    int mine = (top || !p->temp[id]) && (sum ? e->op == CL_EXPR_ADD || e->op == CL_EXPR_SUB || e->op == CL_EXPR_NEG : e->op == CL_EXPR_MUL);
    if (!mine || c->n >= 62) {
        c->id[c->n] = id;
        c->neg[c->n++] = (char)neg;
        return;
    }
    if (e->op == CL_EXPR_NEG) {
        flatten(p, e->a, !neg, sum, 0, c);
        return;
    }
    flatten(p, e->a, neg, sum, 0, c);
    flatten(p, e->b, e->op == CL_EXPR_SUB ? !neg : neg, sum, 0, c);
}

/* The key a chain's operands are printed by: in a product the numbers first, then the order of the nodes. */
static long chain_key(const cl_expr_printer *p, int id, int sum)
{
    return !sum && !p->temp[id] && cl_expr_dag_node(p->g, id)->op == CL_EXPR_CONST ? (long)id - (1L << 40) : id;
}

/*
 * A sum or product as a reader writes it (text and LaTeX; C keeps the
 * evaluation order): flattened, the added terms first and the subtracted
 * ones after, each group and the factors in the order of their nodes (the
 * simplifier's canonical order), numbers first in a product.
 */
static void chain_print(cl_expr_printer *p, int id, int sum)
{
    chain c = {.n = 0};
    flatten(p, id, 0, sum, 1, &c);
    for (int i = 1; i < c.n; i++) /* insertion sort: chains are short */
        for (int j = i; j > 0; j--) {
            int a = j - 1, swap = sum && c.neg[a] != c.neg[j] ? c.neg[a] > c.neg[j]
                                                         : chain_key(p, c.id[a], sum) > chain_key(p, c.id[j], sum);
            if (!swap) break;
            int t = c.id[a];
            char n = c.neg[a];
            c.id[a] = c.id[j], c.neg[a] = c.neg[j], c.id[j] = t, c.neg[j] = n;
        }
    for (int i = 0; i < c.n; i++) {
        if (sum) fputs(c.neg[i] ? (i ? " - " : "-") : i ? " + " : "", p->f);
        else if (i) fputs(p->fmt == CL_EXPR_LATEX ? " \\, " : "*", p->f);
        cl_expr_printer_node(p, c.id[i], sum || !i ? 2 : 3);
    }
}

static void binary(cl_expr_printer *p, const cl_expr_node *e)
{
    int latex = p->fmt == CL_EXPR_LATEX;
    if (e->op == CL_EXPR_DIV && latex) {
        fputs("\\frac{", p->f);
        cl_expr_printer_node(p, e->a, 0);
        fputs("}{", p->f);
        cl_expr_printer_node(p, e->b, 0);
        fputc('}', p->f);
        return;
    }
    int lvl = e->op == CL_EXPR_ADD || e->op == CL_EXPR_SUB ? 1 : 2;
    cl_expr_printer_node(p, e->a, lvl);
    fputs(e->op == CL_EXPR_ADD ? " + " : e->op == CL_EXPR_SUB ? " - " : e->op == CL_EXPR_DIV ? "/" : latex ? " \\, " : "*", p->f);
    cl_expr_printer_node(p, e->b, lvl + 1); /* the right operand bracketed at its own level: a - (b + c), a/(b*c) */
}

static void power(cl_expr_printer *p, const cl_expr_node *e)
{
    if (p->fmt == CL_EXPR_C) {
        fputs("pow(", p->f);
        cl_expr_printer_node(p, e->a, 0);
        fprintf(p->f, ", %ld)", e->k);
    } else if (p->fmt == CL_EXPR_LATEX) {
        fputc('{', p->f);
        cl_expr_printer_node(p, e->a, 5);
        fprintf(p->f, "}^{%ld}", e->k);
    } else {
        cl_expr_printer_node(p, e->a, 5);
        fprintf(p->f, e->k < 0 ? "^(%ld)" : "^%ld", e->k);
    }
}

void cl_expr_printer_node(cl_expr_printer *p, int id, int min)
{
    const cl_expr_node *e = cl_expr_dag_node(p->g, id);
    int latex = p->fmt == CL_EXPR_LATEX;
    if (p->temp[id]) {
        if (p->temp[id] < 0) fputs(p->label[id], p->f);
        else fprintf(p->f, latex ? "t_{%d}" : "t%d", p->temp[id]);
        return;
    }
    if (e->op == CL_EXPR_INPUT) {
        fputs(p->in[e->k], p->f);
        return;
    }
    if (e->op == CL_EXPR_CONST) {
        constant(p, e->k, min);
        return;
    }
    int bracket = precedence(e, p->fmt) < min;
    if (bracket) fputs(latex ? "\\left(" : "(", p->f);
    switch (e->op) {
    case CL_EXPR_NEG:
        if (p->fmt != CL_EXPR_C) chain_print(p, id, 1);
        else fputc('-', p->f), cl_expr_printer_node(p, e->a, 2);
        break;
    case CL_EXPR_POWI: power(p, e); break;
    case CL_EXPR_ATAN2:
        fputs(latex ? "\\operatorname{atan2}\\left(" : "atan2(", p->f);
        cl_expr_printer_node(p, e->a, 0);
        fputs(", ", p->f);
        cl_expr_printer_node(p, e->b, 0);
        fputs(latex ? "\\right)" : ")", p->f);
        break;
    case CL_EXPR_ADD: case CL_EXPR_SUB: case CL_EXPR_MUL:
        if (p->fmt != CL_EXPR_C) chain_print(p, id, e->op != CL_EXPR_MUL);
        else binary(p, e);
        break;
    case CL_EXPR_DIV: binary(p, e); break;
    default: function(p, e); break;
    }
    if (bracket) fputs(latex ? "\\right)" : ")", p->f);
}

static int is_leaf(const cl_expr_node *e) { return e->op == CL_EXPR_CONST || e->op == CL_EXPR_INPUT; }

/* uses[i]: how often the outputs and the operations they need use node i (0: not needed). NULL when out of memory. */
static int *count_uses(const cl_expr_dag *g, const int *out, size_t nout)
{
    size_t n = cl_expr_dag_size(g);
    int *uses = calloc(n + 1, sizeof *uses);
    if (!uses) return NULL;
    for (size_t i = 0; i < nout; i++) uses[out[i]]++;
    for (size_t i = n; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!uses[i] || is_leaf(e)) continue;
        uses[e->a]++;
        if (e->b >= 0) uses[e->b]++;
    }
    return uses;
}

/*
 * 1 when node i reads better written out than named, in text and LaTeX: an
 * arithmetic operation on names and numbers only (a product of two names,
 * x^2, -x), or a number (no input below it, \p numeric marks those).
 */
static int small(const cl_expr_dag *g, size_t i, const char *numeric)
{
    const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
    if (numeric[i]) return 1;
    int arith = e->op == CL_EXPR_ADD || e->op == CL_EXPR_SUB || e->op == CL_EXPR_MUL || e->op == CL_EXPR_DIV ||
                e->op == CL_EXPR_NEG || e->op == CL_EXPR_POWI;
    return arith && is_leaf(cl_expr_dag_node(g, e->a)) && (e->b < 0 || is_leaf(cl_expr_dag_node(g, e->b)));
}

int cl_expr_printer_name_shared(cl_expr_printer *p, const int *out, size_t nout)
{
    size_t n = cl_expr_dag_size(p->g);
    int *uses = count_uses(p->g, out, nout);
    char *numeric = calloc(n + 1, 1);
    if (!uses || !numeric) {
        free(uses), free(numeric);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(p->g, (int)i);
        numeric[i] = e->op == CL_EXPR_CONST || (!is_leaf(e) && numeric[e->a] && (e->b < 0 || numeric[e->b]));
    }
    int count = 0, labeled = 0;
    for (size_t i = 0; i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(p->g, (int)i);
        int name = uses[i] > 1 && !is_leaf(e);
        p->temp[i] = name && p->label[i] ? -1 : name && (p->fmt == CL_EXPR_C || !small(p->g, i, numeric)) ? ++count : 0;
        labeled += p->temp[i] < 0;
        if (uses[i] && e->op == CL_EXPR_INPUT) p->used[e->k] = 1;
    }
    free(uses), free(numeric);
    return count + labeled;
}

int cl_expr_printer_label(cl_expr_printer *p, int id, const char *name)
{
    if (id < 0 || (size_t)id >= cl_expr_dag_size(p->g)) return CL_OK;
    char *copy = strdup(name);
    if (!copy) return CL_ENOMEM;
    free(p->label[id]);
    p->label[id] = copy;
    return CL_OK;
}

void cl_expr_printer_assign(cl_expr_printer *p, const char *lhs, int id, int define, int last)
{
    int t = p->temp[id];
    if (define) p->temp[id] = 0;
    if (p->fmt == CL_EXPR_C) fprintf(p->f, "    %s%s = ", define ? "const double " : "", lhs);
    else fprintf(p->f, p->fmt == CL_EXPR_LATEX ? "%s &= " : "%s = ", lhs);
    cl_expr_printer_node(p, id, 0);
    fputs(p->fmt == CL_EXPR_C ? ";\n" : p->fmt == CL_EXPR_LATEX && !last ? " \\\\\n" : "\n", p->f);
    p->temp[id] = t;
}

void cl_expr_printer_temps(cl_expr_printer *p)
{
    for (size_t i = 0, n = cl_expr_dag_size(p->g); i < n; i++)
        if (p->temp[i]) {
            char name[128];
            if (p->temp[i] < 0) snprintf(name, sizeof name, "%s", p->label[i]);
            else snprintf(name, sizeof name, p->fmt == CL_EXPR_LATEX ? "t_{%d}" : "t%d", p->temp[i]);
            cl_expr_printer_assign(p, name, (int)i, 1, 0);
        }
}

/* The number of constants (largest index + 1). */
static size_t count_constants(const cl_expr_dag *g)
{
    size_t nconst = 0;
    for (size_t i = 0, n = cl_expr_dag_size(g); i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (e->op == CL_EXPR_CONST && (size_t)e->k + 1 > nconst) nconst = (size_t)e->k + 1;
    }
    return nconst;
}

/* The double back end: cl_jit_d, the printer's C with x[k] for the inputs and the constants exact. */
static int emit_double(FILE *f, const cl_expr_dag *g, const int *out, size_t nout)
{
    size_t nconst = count_constants(g);
    double *cval = malloc((nconst + 1) * sizeof *cval);
    cl_expr_printer p;
    if (!cval || cl_expr_printer_init(&p, g, CL_EXPR_C, f)) {
        free(cval);
        return CL_ENOMEM;
    }
    int st = CL_OK;
    for (size_t i = 0, n = cl_expr_dag_size(g); i < n && !st; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (e->op == CL_EXPR_CONST) st = cl_real_from_str_d(cval + e->k, cl_expr_dag_const(g, e->k)) ? CL_EPARSE : CL_OK;
        if (e->op == CL_EXPR_INPUT) snprintf(p.in[e->k], sizeof p.in[e->k], "x[%ld]", e->k);
    }
    p.cval = cval;
    if (!st && cl_expr_printer_name_shared(&p, out, nout) < 0) st = CL_ENOMEM;
    if (!st) {
        fputs("int cl_jit_d(double *out, const double *x)\n{\n", f);
        cl_expr_printer_temps(&p);
        for (size_t i = 0; i < nout; i++) {
            char lhs[32];
            snprintf(lhs, sizeof lhs, "out[%zu]", i);
            cl_expr_printer_assign(&p, lhs, out[i], 0, 0);
        }
        fprintf(f, "    for (int i = 0; i < %zu; i++)\n        if (!isfinite(out[i])) return 1;\n    return 0;\n}\n\n", nout);
    }
    cl_expr_printer_free(&p);
    free(cval);
    return st;
}

/* The MPFR back end's bookkeeping: each operation node's work number, and the numbers free for reuse. */
typedef struct slots {
    const cl_expr_dag *g;
    int *slot, *last, *freed; /* node → its number; node → the last node that reads it; a stack of free numbers */
    int *uses, *fixed;        /* node → its uses by the outputs; 1: it depends on no input below nvary */
    int *first, *next;        /* node → its first output, output → the next output of the same node (−1 ends) */
    int nfree, nslots;
} slots;

static const char *const mp_name[] = {[CL_EXPR_ADD] = "add", [CL_EXPR_SUB] = "sub", [CL_EXPR_MUL] = "mul", [CL_EXPR_DIV] = "div",
                                      [CL_EXPR_NEG] = "neg", [CL_EXPR_POWI] = "pow_si", [CL_EXPR_SIN] = "sin",
                                      [CL_EXPR_COS] = "cos", [CL_EXPR_TAN] = "tan", [CL_EXPR_EXP] = "exp",
                                      [CL_EXPR_LOG] = "log", [CL_EXPR_SQRT] = "sqrt", [CL_EXPR_ATAN2] = "atan2"};

/* Where node id's value is: an input x + k, a constant c + k, or its work number w + s. */
static void operand(FILE *f, const slots *s, int id)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, id);
    fprintf(f, "%c + %ld", e->op == CL_EXPR_INPUT ? 'x' : e->op == CL_EXPR_CONST ? 'c' : 'w',
            is_leaf(e) ? e->k : (long)s->slot[id]);
}

/* The work number of node id is free again after node i when i is its last reader (a fixed node's never is). */
static void release(slots *s, int id, int i)
{
    if (id >= 0 && s->last[id] == i && !s->fixed[id] && !is_leaf(cl_expr_dag_node(s->g, id))) s->freed[s->nfree++] = s->slot[id];
}

/* Node i: one MPFR call (x·x a square and x + x a doubling: the same correctly rounded values). */
static void emit_mp_node(FILE *f, slots *s, int i)
{
    const cl_expr_node *e = cl_expr_dag_node(s->g, i);
    release(s, e->a, i);
    if (e->b != e->a) release(s, e->b, i);
    s->slot[i] = s->nfree && !s->fixed[i] ? s->freed[--s->nfree] : s->nslots++;
    int same = e->b == e->a && (e->op == CL_EXPR_MUL || e->op == CL_EXPR_ADD);
    fprintf(f, "    mpfr_%s(w + %d, ", same ? (e->op == CL_EXPR_MUL ? "sqr" : "mul_2ui") : mp_name[e->op], s->slot[i]);
    operand(f, s, e->a);
    if (same && e->op == CL_EXPR_ADD) fputs(", 1", f);
    else if (e->op == CL_EXPR_POWI) fprintf(f, ", %ldL", e->k);
    else if (e->b >= 0 && !same) fputs(", ", f), operand(f, s, e->b);
    fputs(", R);\n", f);
}

/* Calls per function of the MPFR back end: the compiler's time grows faster than the length of one function. */
#define MP_CHUNK 200

/* The fixed nodes (\p fixed 1) or the others as functions NAME0, NAME1, … of MP_CHUNK calls; returns their number. */
static int emit_pass(FILE *f, slots *s, int fixed, const char *name)
{
    int nchunk = 0, calls = MP_CHUNK;
    for (size_t i = 0, n = cl_expr_dag_size(s->g); i < n; i++) {
        if (!s->uses[i] || s->fixed[i] != fixed || is_leaf(cl_expr_dag_node(s->g, (int)i))) continue;
        if (calls == MP_CHUNK)
            fprintf(f, "%sstatic void %s%d(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr c, mpfr_ptr w)\n{\n    (void)out;\n",
                    nchunk ? "}\n" : "", name, nchunk), nchunk++, calls = 0;
        emit_mp_node(f, s, (int)i);
        calls++;
        for (int k = s->first[i]; k >= 0 && !fixed; k = s->next[k]) fprintf(f, "    mpfr_set(out + %d, w + %d, R);\n", k, s->slot[i]);
        if (s->last[i] < 0 && !fixed) s->freed[s->nfree++] = s->slot[i]; /* an output no operation reads */
    }
    if (nchunk) fputs("}\n", f);
    return nchunk;
}

/* One exported function calling the \p nchunk functions NAME0, …, with the domain test of MPFR's flags. */
static void emit_caller(FILE *f, const char *fn, const char *name, int nchunk, const slots *s, const int *out, size_t nout)
{
    fprintf(f, "int %s(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr c, mpfr_ptr w)\n{\n"
               "    mpfr_flags_t saved = mpfr_flags_save();\n    mpfr_clear_flags();\n", fn);
    for (int k = 0; k < nchunk; k++) fprintf(f, "    %s%d(out, x, c, w);\n", name, k);
    for (size_t k = 0; out && k < nout; k++) /* the outputs that are inputs, constants or fixed nodes */
        if (s->fixed[out[k]] || is_leaf(cl_expr_dag_node(s->g, out[k])))
            fprintf(f, "    mpfr_set(out + %zu, ", k), operand(f, s, out[k]), fputs(", R);\n", f);
    fputs("    int bad = mpfr_flags_test(MPFR_FLAGS_NAN | MPFR_FLAGS_DIVBY0 | MPFR_FLAGS_OVERFLOW) != 0;\n"
          "    mpfr_flags_restore(saved, MPFR_FLAGS_ALL);\n    return bad;\n}\n", f);
}

/* The MPFR back end: cl_jit_mp_fixed (the nodes of constants and inputs from nvary on), cl_jit_mp, cl_jit_nslots. */
static int emit_mpfr(FILE *f, const cl_expr_dag *g, const int *out, size_t nout, long nvary)
{
    size_t n = cl_expr_dag_size(g);
    slots s = {.g = g, .slot = malloc((n + 1) * sizeof *s.slot), .last = malloc((n + 1) * sizeof *s.last),
               .freed = malloc((n + 1) * sizeof *s.freed), .uses = count_uses(g, out, nout),
               .fixed = malloc((n + 1) * sizeof *s.fixed), .next = malloc((nout + 1) * sizeof *s.next),
               .first = malloc((n + 1) * sizeof *s.first)};
    int st = s.slot && s.last && s.freed && s.uses && s.fixed && s.next && s.first ? CL_OK : CL_ENOMEM;
    for (size_t i = 0; i < n && !st; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        s.last[i] = s.first[i] = -1;
        s.fixed[i] = e->op == CL_EXPR_CONST || (e->op == CL_EXPR_INPUT && e->k >= nvary) ||
                     (!is_leaf(e) && s.fixed[e->a] && (e->b < 0 || s.fixed[e->b]));
        if (s.uses[i] && !is_leaf(e)) s.last[e->a] = (int)i;
        if (s.uses[i] && !is_leaf(e) && e->b >= 0) s.last[e->b] = (int)i;
    }
    for (size_t k = nout; k-- > 0 && !st;) s.next[k] = s.first[out[k]], s.first[out[k]] = (int)k;
    if (!st) {
        fputs("#define R MPFR_RNDN\n", f);
        int nfix = emit_pass(f, &s, 1, "fixed");
        emit_caller(f, "cl_jit_mp_fixed", "fixed", nfix, &s, NULL, 0);
        int npart = emit_pass(f, &s, 0, "part");
        emit_caller(f, "cl_jit_mp", "part", npart, &s, out, nout);
        fprintf(f, "const long cl_jit_nslots = %d;\n", s.nslots);
    }
    free(s.slot), free(s.last), free(s.freed), free(s.uses), free(s.fixed), free(s.next), free(s.first);
    return st;
}

int cl_expr_emit_field(FILE *f, const cl_expr_dag *g, const int *out, size_t nout, long nvary)
{
    fputs("/* A compiled field of chartless (src/expr_emit.c): double and MPFR back ends. */\n"
          "#include <math.h>\n#include <mpfr.h>\n\n", f);
    int st = emit_double(f, g, out, nout);
    if (!st) st = emit_mpfr(f, g, out, nout, nvary);
    if (!st)
        fprintf(f, "const long cl_jit_nconst = %zu, cl_jit_nout = %zu, cl_jit_ninputs = %ld;\n", count_constants(g), nout,
                cl_expr_dag_ninputs(g));
    return st;
}

cl_expr_dag *cl_expr_dag_prune(const cl_expr_dag *g, const int *out, size_t nout, int *new_out)
{
    size_t n = cl_expr_dag_size(g);
    int *uses = count_uses(g, out, nout), *map = malloc((n + 1) * sizeof *map);
    cl_expr_dag *p = NULL;
    if (uses && map) cl_expr_dag_new(&p);
    for (size_t i = 0; p && i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        map[i] = -1;
        if (!uses[i]) continue;
        if (e->op == CL_EXPR_INPUT) map[i] = cl_expr_input(p, e->k);
        else if (e->op == CL_EXPR_CONST) map[i] = cl_expr_const(p, cl_expr_dag_const(g, e->k), strlen(cl_expr_dag_const(g, e->k)), e->pos);
        else map[i] = cl_expr_op(p, e->op, map[e->a], e->b >= 0 ? map[e->b] : -1, e->k, e->pos);
        if (map[i] < 0) {
            cl_expr_dag_free(p);
            p = NULL;
        }
    }
    for (size_t k = 0; p && k < nout; k++) new_out[k] = map[out[k]];
    free(uses);
    free(map);
    return p;
}

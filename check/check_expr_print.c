/*
 * expr.print.text, expr.print.latex, expr.print.c: the printer of `chartless
 * eom` and of compiled fields (src/expr_emit.c) read back. One graph of four
 * inputs a, b, c, d whose outputs take the shapes a printer gets wrong —
 * a − (b + c), a − (b − c), −(a + b)·c, a/(b·c), a/(b/c), (a − b)^k, a
 * named subexpression used several times, negative constants — and every
 * function (sin, cos, tan, exp, log, sqrt, atan2, whole powers of both
 * signs) is printed with its shared nodes named (t1 = …, as eom prints
 * them), then:
 *
 *   text:  parsed back by the model language's parser (src/expr_parse.c);
 *   LaTeX: read as a reader reads it (braces group nothing: `{a + b}^{2}` is
 *          a + b²; `\frac` and `\sqrt` group, `\left( \right)` are brackets) into
 *          text, then parsed back;
 *   C:     compiled as a field (src/expr_jit.c) and run: its double back end
 *          (the printer's C) on the 53-bit rung, its MPFR back end (one call
 *          per node) on every rung;
 *
 * and each output is evaluated at the rung's precision against the graph
 * itself (relative to max(1, |value|)). A printed form reorders sums (added
 * terms first), so it agrees to a few roundings; a bracket left out or a
 * sign lost is an O(1) discrepancy.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "expr.h"
#include "expr_emit.h"
#include "expr_jit.h"
#include "scalar.h"

#if CL_PREC == CL_MPFR
enum { PN = 4, PMAX = 24 };
static const char *const pr_at[PN] = {"0.7", "0.45", "1.3", "-0.6"}; /* a, b, c, d: inside every domain below */
static const char pr_names[PN] = {'a', 'b', 'c', 'd'};

static int op2(cl_expr_dag *g, int op, int a, int b) { return a < 0 || b < 0 ? -1 : cl_expr_op(g, op, a, b, 0, -1); }
static int op1(cl_expr_dag *g, int op, int a) { return a < 0 ? -1 : cl_expr_op(g, op, a, -1, 0, -1); }
static int powi(cl_expr_dag *g, int a, long k) { return a < 0 ? -1 : cl_expr_op(g, CL_EXPR_POWI, a, -1, k, -1); }
static int konst(cl_expr_dag *g, const char *s) { return cl_expr_const(g, s, strlen(s), -1); }

/* The outputs of the header into out; their number, or −1 when out of memory. */
static int print_graph(cl_expr_dag *g, int *out)
{
    int a = cl_expr_input(g, 0), b = cl_expr_input(g, 1), c = cl_expr_input(g, 2), d = cl_expr_input(g, 3), n = 0;
    int bc = op2(g, CL_EXPR_ADD, b, c), b_c = op2(g, CL_EXPR_SUB, b, c), amb = op2(g, CL_EXPR_SUB, a, b);
    out[n++] = op2(g, CL_EXPR_SUB, a, bc);                                          /* a − (b + c) */
    out[n++] = op2(g, CL_EXPR_SUB, a, b_c);                                         /* a − (b − c) */
    out[n++] = op2(g, CL_EXPR_SUB, op2(g, CL_EXPR_SUB, a, op2(g, CL_EXPR_ADD, bc, d)), op1(g, CL_EXPR_NEG, b_c));
    out[n++] = op2(g, CL_EXPR_MUL, op1(g, CL_EXPR_NEG, op2(g, CL_EXPR_ADD, a, b)), c); /* −(a + b)·c */
    out[n++] = op1(g, CL_EXPR_NEG, amb);                                            /* −(a − b) */
    out[n++] = op2(g, CL_EXPR_DIV, a, op2(g, CL_EXPR_MUL, b, c));                   /* a/(b·c) */
    out[n++] = op2(g, CL_EXPR_DIV, a, op2(g, CL_EXPR_DIV, b, c));                   /* a/(b/c) */
    out[n++] = op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_SUB, a, d), op2(g, CL_EXPR_SUB, b, c));
    out[n++] = op2(g, CL_EXPR_MUL, op2(g, CL_EXPR_DIV, a, b), op2(g, CL_EXPR_ADD, c, d));
    out[n++] = powi(g, amb, 2);                                                     /* (a − b)² */
    out[n++] = powi(g, op2(g, CL_EXPR_ADD, c, d), -3);
    out[n++] = powi(g, op1(g, CL_EXPR_NEG, c), 3);                                  /* (−c)³ */
    out[n++] = powi(g, op2(g, CL_EXPR_DIV, a, b), 2);
    out[n++] = op2(g, CL_EXPR_MUL, a, op2(g, CL_EXPR_SUB, op2(g, CL_EXPR_MUL, b, c), d));
    out[n++] = op2(g, CL_EXPR_SUB, op2(g, CL_EXPR_MUL, konst(g, "-2.5"), a), op2(g, CL_EXPR_MUL, konst(g, "-3"), bc));
    out[n++] = op2(g, CL_EXPR_SUB, konst(g, "-1.25"), op1(g, CL_EXPR_NEG, konst(g, "2")));
    int s = op2(g, CL_EXPR_SUB, a, op2(g, CL_EXPR_MUL, b, c)); /* shared: named t_k by the printer */
    out[n++] = op2(g, CL_EXPR_SUB, op2(g, CL_EXPR_MUL, s, s), op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_ADD, s, d), s));
    out[n++] = op2(g, CL_EXPR_SUB, op1(g, CL_EXPR_SIN, amb), op2(g, CL_EXPR_MUL, op1(g, CL_EXPR_COS, s), op1(g, CL_EXPR_TAN, c)));
    out[n++] = op2(g, CL_EXPR_SUB, op1(g, CL_EXPR_EXP, op1(g, CL_EXPR_NEG, s)), op2(g, CL_EXPR_DIV, op1(g, CL_EXPR_LOG, c), b));
    out[n++] = op2(g, CL_EXPR_SUB, op1(g, CL_EXPR_SQRT, op2(g, CL_EXPR_ADD, c, b)), op2(g, CL_EXPR_ATAN2, op2(g, CL_EXPR_SUB, a, c), d));
    out[n++] = op2(g, CL_EXPR_SUB, a, op1(g, CL_EXPR_SQRT, op2(g, CL_EXPR_SUB, c, op2(g, CL_EXPR_MUL, b, s))));
    for (int i = 0; i < n; i++)
        if (out[i] < 0) return -1;
    return n;
}

/* The outputs printed in \p fmt (shared nodes named, one "name = expr" per line) into a new string; NULL when out of memory. */
static char *print_outputs(const cl_expr_dag *g, const int *out, int n, int fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    cl_expr_printer p;
    int st = cl_expr_printer_init(&p, g, fmt, f);
    if (!st) {
        for (int k = 0; k < PN; k++) snprintf(p.in[k], sizeof p.in[k], "%c", pr_names[k]);
        if (cl_expr_printer_name_shared(&p, out, (size_t)n) < 0) st = CL_ENOMEM;
    }
    if (!st) {
        cl_expr_printer_temps(&p);
        for (int i = 0; i < n; i++) {
            char lhs[16];
            snprintf(lhs, sizeof lhs, fmt == CL_EXPR_LATEX ? "o_{%d}" : "o%d", i);
            cl_expr_printer_assign(&p, lhs, out[i], 0, i == n - 1);
        }
        cl_expr_printer_free(&p);
    }
    fclose(f);
    if (st) free(buf);
    return st ? NULL : buf;
}

/* The end of the {…} group opening at s[0] == '{', or NULL. */
static const char *group_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '{') depth++;
        if (*s == '}' && --depth == 0) return s;
    }
    return NULL;
}

/* LaTeX [s, e) as a reader reads it, in the model language, to f; 0, or −1 on what the printer never writes. */
static int latex_read(const char *s, const char *e, FILE *f)
{
    while (s < e) {
        const char *g;
        if (*s == '{' || !strncmp(s, "_{", 2) || !strncmp(s, "^{", 2)) { /* a group: invisible; a sub- or superscript */
            int sup = *s == '^';
            if (*s != '{') s++;
            if (!(g = group_end(s)) || g >= e) return -1;
            if (sup) fputs("^(", f);
            if (latex_read(s + 1, g, f)) return -1;
            if (sup) fputc(')', f);
            s = g + 1;
        } else if (!strncmp(s, "\\frac{", 6) || !strncmp(s, "\\sqrt{", 6)) {
            int frac = s[1] == 'f';
            s += 5;
            if (!(g = group_end(s)) || g >= e) return -1;
            fputs(frac ? "((" : "sqrt(", f);
            if (latex_read(s + 1, g, f)) return -1;
            fputc(')', f);
            s = g + 1;
            if (frac) {
                if (*s != '{' || !(g = group_end(s)) || g >= e) return -1;
                fputs("/(", f);
                if (latex_read(s + 1, g, f)) return -1;
                fputs("))", f);
                s = g + 1;
            }
        } else if (!strncmp(s, "\\left(", 6) || !strncmp(s, "\\right)", 7)) {
            fputc(s[1] == 'l' ? '(' : ')', f);
            s += s[1] == 'l' ? 6 : 7;
        } else if (!strncmp(s, "\\,", 2)) {
            fputc('*', f);
            s += 2;
        } else if (!strncmp(s, "\\operatorname{atan2}", 20)) {
            fputs("atan2", f);
            s += 20;
        } else if (*s == '\\') { /* \sin, \cos, …: the function's name */
            s++;
            if (!(*s >= 'a' && *s <= 'z')) return -1;
            while (s < e && *s >= 'a' && *s <= 'z') fputc(*s++, f);
        } else if (*s == '&') s++;
        else fputc(*s++, f);
    }
    return 0;
}

/* One LaTeX line "lhs &= rhs \\" as the text line "lhs = rhs"; nonzero when the printer wrote what it never writes. */
static int latex_line(FILE *f, const char *s, size_t n, void *ctx)
{
    (void)ctx;
    if (n >= 3 && !strncmp(s + n - 3, " \\\\", 3)) n -= 3;
    if (latex_read(s, s + n, f)) return -1;
    fputc('\n', f);
    return 0;
}

/* LaTeX lines into text lines; NULL when the printer wrote what it never writes. */
static char *latex_to_text(const char *tex) { return cl_text_by_lines(tex, latex_line, NULL); }

/* The names of a read-back: a, b, c, d the inputs, tK the nodes of the lines read before. */
typedef struct names {
    int temp[4 * PMAX + 1];
    int ntemp;
} names;

static int lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    const names *nm = ctx;
    if (prime) return -1;
    out->shape = 1;
    for (int k = 0; k < PN; k++)
        if (len == 1 && name[0] == pr_names[k]) return (out->id[0] = cl_expr_input(g, k)) < 0 ? -1 : 0;
    if (len < 2 || name[0] != 't') return -1;
    int t = atoi(name + 1);
    if (t < 1 || t > nm->ntemp || nm->temp[t] < 0) return -1;
    out->id[0] = nm->temp[t];
    return 0;
}

/* Text lines "tK = …" and "oK = …" parsed into h: the outputs' nodes into out (n of them); 0, CL_EPARSE or CL_ENOMEM. */
static int read_back(cl_expr_dag *h, const char *text, int *out, int n, char *why, size_t whylen)
{
    names nm = {.ntemp = 0};
    int nout = 0;
    for (const char *s = text, *next; *s; s = next) {
        size_t len;
        next = cl_next_line(s, &len);
        const char *e = s + len, *eq = strstr(s, " = ");
        if (!eq || eq > e) {
            snprintf(why, whylen, "no ' = ' in '%.60s'", s);
            return CL_EPARSE;
        }
        cl_expr_value v;
        cl_expr_error err;
        int st = cl_expr_parse(h, eq + 3, (size_t)(e - eq - 3), 0, lookup, &nm, &v, &err);
        if (st || v.shape != 1) {
            snprintf(why, whylen, "'%.*s' read back: %.80s", (int)(e - s > 60 ? 60 : e - s), s, st ? err.msg : "not a scalar");
            return st ? st : CL_EPARSE;
        }
        if (s[0] == 't' && nm.ntemp < 4 * PMAX) nm.temp[++nm.ntemp] = v.id[0];
        else if (s[0] == 'o' && nout < n) out[nout++] = v.id[0];
    }
    if (nout != n) {
        snprintf(why, whylen, "%d outputs read back of %d", nout, n);
        return CL_EPARSE;
    }
    return CL_OK;
}

/* The worst relative discrepancy of \p got (n values) against the graph's outputs \p ref into res. */
static void judge(cl_check_result *res, mpfr_srcptr got, mpfr_srcptr ref, int n, const char *what)
{
    mpfr_t d;
    mpfr_init2(d, mpfr_get_prec(ref));
    for (int i = 0; i < n; i++) {
        mpfr_sub(d, got + i, ref + i, MPFR_RNDN);
        double l2 = mpfr_zero_p(d) ? -INFINITY : log2(fabs(mpfr_get_d(d, MPFR_RNDN)));
        if (!mpfr_zero_p(ref + i)) l2 -= fmax(0, log2(fabs(mpfr_get_d(ref + i, MPFR_RNDN))));
        if (!isfinite(mpfr_get_d(got + i, MPFR_RNDN))) l2 = INFINITY;
        cl_check_worst(res, l2, "%s, output %d", what, i);
    }
    mpfr_clear(d);
}

/* The outputs \p out (n) of \p g evaluated at x (precision of \p vals) into vals; 0 or a status. */
static int eval_outputs(const cl_expr_dag *g, const int *out, int n, mpfr_srcptr x, mpfr_ptr vals)
{
    cl_expr_eval_mp *ev = NULL;
    int st = cl_expr_eval_new_mp(&ev, g, mpfr_get_prec(vals));
    if (!st) st = cl_expr_eval_run_mp(ev, x, (int)cl_expr_dag_size(g) - 1, 0);
    for (int i = 0; i < n && !st; i++) mpfr_set(vals + i, cl_expr_eval_value_mp(ev, out[i]), MPFR_RNDN);
    cl_expr_eval_free_mp(ev);
    return st;
}

/* Format 0 text, 1 LaTeX, 2 C (compiled) read back and judged at prec. */
int check_expr_print_run(cl_check_result *res, cl_prec_t prec, int format)
{
    cl_expr_dag *g = NULL, *h = NULL;
    if (cl_expr_dag_new(&g) || cl_expr_dag_new(&h)) {
        cl_expr_dag_free(g);
        return CL_ENOMEM;
    }
    int out[PMAX], back[PMAX], n = print_graph(g, out), st = n < 0 ? CL_ENOMEM : CL_OK;
    mpfr_t x[PN], ref[PMAX], got[PMAX];
    for (int k = 0; k < PN; k++) {
        mpfr_init2(x[k], prec);
        mpfr_set_str(x[k], pr_at[k], 10, MPFR_RNDN);
    }
    for (int i = 0; i < PMAX; i++) mpfr_init2(ref[i], prec), mpfr_init2(got[i], prec);
    cl_check_begin(res);
    if (!st) st = eval_outputs(g, out, n, x[0], ref[0]);
    char *text = NULL, *tex = NULL;
    if (!st && format < 2) {
        text = print_outputs(g, out, n, format ? CL_EXPR_LATEX : CL_EXPR_TEXT);
        if (text && format) tex = text, text = latex_to_text(tex);
        if (!text) {
            st = tex ? CL_EPARSE : CL_ENOMEM;
            if (tex) snprintf(res->note, sizeof res->note, "the LaTeX holds what a reader cannot read");
        }
        if (!st) st = read_back(h, text, back, n, res->note, sizeof res->note);
        if (!st) st = eval_outputs(h, back, n, x[0], got[0]);
        if (!st) judge(res, got[0], ref[0], n, format ? "LaTeX read back" : "text parsed back");
    } else if (!st) {
        cl_expr_jit *j = NULL;
        cl_expr_jit_mp *r = NULL;
        char why[160] = "";
        st = cl_expr_jit_new(&j, g, out, (size_t)n, PN, 1, why, sizeof why);
        if (st) snprintf(res->note, sizeof res->note, "no compiled field: %.150s", why);
        if (!st && prec == 53) { /* the double back end, the printer's C */
            double xd[PN], od[PMAX];
            for (int k = 0; k < PN; k++) xd[k] = mpfr_get_d(x[k], MPFR_RNDN);
            st = cl_expr_jit_run_d(j, od, xd);
            for (int i = 0; i < n && !st; i++) mpfr_set_d(got[i], od[i], MPFR_RNDN);
            if (!st) judge(res, got[0], ref[0], n, "compiled, double");
        }
        if (!st) st = cl_expr_jit_mp_new(&r, j, g, prec);
        if (!st) st = cl_expr_jit_run_mp(r, got[0], x[0]);
        if (!st) judge(res, got[0], ref[0], n, "compiled, MPFR");
        cl_expr_jit_mp_free(r);
        cl_expr_jit_free(j);
    }
    free(text);
    free(tex);
    for (int k = 0; k < PN; k++) mpfr_clear(x[k]);
    for (int i = 0; i < PMAX; i++) mpfr_clear(ref[i]), mpfr_clear(got[i]);
    cl_expr_dag_free(g);
    cl_expr_dag_free(h);
    return st;
}
#endif

int check_expr_print_run(cl_check_result *res, cl_prec_t prec, int format);

#define PRINT_WHY "a few roundings per output (at most about 8 operations deep on values of order 1, the sums in another order)"
CL_CHECK(expr_print_text, "expr.print.text", .chapter = "core", .tags = "",
         .what = "a graph of every node kind, in the shapes a printer gets wrong (a - (b + c), a/(b/c), -(a + b)c, (a - b)^2, named shared nodes, negative constants), printed as chartless eom prints text, parsed back and evaluated against the graph (relative to max(1, |value|))",
         .cond = 64, .why = PRINT_WHY)
{
    return check_expr_print_run(res, prec, 0);
}
CL_CHECK(expr_print_latex, "expr.print.latex", .chapter = "core", .tags = "",
         .what = "the graph of expr.print.text printed as chartless eom prints LaTeX, read as a reader reads it (braces group nothing; frac, sqrt and left/right brackets do), parsed back and evaluated against the graph (relative to max(1, |value|))",
         .cond = 64, .why = PRINT_WHY)
{
    return check_expr_print_run(res, prec, 1);
}
CL_CHECK(expr_print_c, "expr.print.c", .chapter = "core", .tags = "",
         .what = "the graph of expr.print.text as a compiled field (src/expr_jit.c): its double back end (the printer's C) at 53 bits and its MPFR back end at every rung against the interpreter (relative to max(1, |value|))",
         .cond = 64, .why = PRINT_WHY)
{
    return check_expr_print_run(res, prec, 2);
}

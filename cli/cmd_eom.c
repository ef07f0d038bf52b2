/*
 * chartless eom: the equations of motion a model's Lagrangian or
 * Hamiltonian gives, derived symbolically (cl_model_eom_new()) and printed
 * as text, LaTeX or C, with every subexpression the equations use more than
 * once named once (t1 = ..., in the order they are needed).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmd_system.h"
#include "expr.h"
#include "model.h"

static const char *help_text =
    "usage: chartless eom --model FILE [--format text|latex|c]\n"
    "\n"
    "The equations of motion of a model file, derived from its Lagrangian or Hamiltonian\n"
    "by symbolic differentiation: the Euler-Lagrange equations (reduced Euler-Poincare\n"
    "on SO3 and SE3 factors) solved for the accelerations, the velocity Hessian's\n"
    "system bordered by the constraint rows (Lagrange-d'Alembert) and solved by an\n"
    "LDL^T elimination written out; for a hamiltonian, Hamilton's equations (Lie-Poisson\n"
    "on the groups) in the momenta. A subexpression used more than once is named once\n"
    "(t1 = ...) before the equations. Every model has them (docs/eom.md).\n"
    "\n"
    "  --model FILE     the model file (docs/models.md)\n"
    "  --format FMT     text (default): one assignment a line, the names of the model;\n"
    "                   latex: an aligned block for MathJax or LaTeX;\n"
    "                   c: a C function void f(const double *x, double *dx), x the state\n"
    "                   in the model's first form (qdot; p for a hamiltonian; then t\n"
    "                   for a model depending on t), dx its rate,\n"
    "                   the parameters at their defaults\n"
    "  -h, --help       this text\n"
    "\n"
    "exit status: 0 success, 2 bad input (no model, unknown format, an unreadable model)\n";

enum format { FMT_TEXT, FMT_LATEX, FMT_C };

typedef struct printer {
    const cl_model *m;
    const cl_model_eom *q;
    enum format fmt;
    int *temp;           /* node → its name's number (1, 2, ...), 0: written out where used */
    char *used;          /* input k appears in the equations (a parameter only in a constraint's h does not) */
    char (*in)[96];      /* the input's name in the format */
    FILE *f;
} printer;

/* How tightly a node binds: 1 sums and negations, 2 products and quotients (a fraction in LaTeX is whole), 4 powers, 5 the rest. */
static int precedence(const cl_expr_node *e, enum format fmt)
{
    switch (e->op) {
    case CL_EXPR_ADD: case CL_EXPR_SUB: case CL_EXPR_NEG: return 1;
    case CL_EXPR_DIV: return fmt == FMT_LATEX ? 5 : 2;
    case CL_EXPR_MUL: return 2;
    case CL_EXPR_POWI: return 4;
    default: return 5;
    }
}

static void node(printer *p, int id, int min);

static const char *const fn_name[] = {[CL_EXPR_SIN] = "sin", [CL_EXPR_COS] = "cos", [CL_EXPR_TAN] = "tan",
                                      [CL_EXPR_EXP] = "exp", [CL_EXPR_LOG] = "log", [CL_EXPR_SQRT] = "sqrt"};

/* A constant: as written, and a double literal in C (2 → 2.0, so that 1/2 is no integer division). */
static void constant(printer *p, const char *s)
{
    fputs(s, p->f);
    if (p->fmt == FMT_C && !strpbrk(s, ".eE")) fputs(".0", p->f);
}

static void function(printer *p, const cl_expr_node *e)
{
    if (p->fmt == FMT_LATEX) {
        if (e->op == CL_EXPR_SQRT) fputs("\\sqrt{", p->f);
        else fprintf(p->f, "\\%s\\left(", fn_name[e->op]);
        node(p, e->a, 0);
        fputs(e->op == CL_EXPR_SQRT ? "}" : "\\right)", p->f);
        return;
    }
    fprintf(p->f, "%s(", fn_name[e->op]);
    node(p, e->a, 0);
    fputc(')', p->f);
}

static void binary(printer *p, const cl_expr_node *e)
{
    int latex = p->fmt == FMT_LATEX;
    if (e->op == CL_EXPR_DIV && latex) {
        fputs("\\frac{", p->f);
        node(p, e->a, 0);
        fputs("}{", p->f);
        node(p, e->b, 0);
        fputc('}', p->f);
        return;
    }
    int lvl = e->op == CL_EXPR_ADD || e->op == CL_EXPR_SUB ? 1 : 2;
    node(p, e->a, lvl);
    fputs(e->op == CL_EXPR_ADD ? " + " : e->op == CL_EXPR_SUB ? " - " : e->op == CL_EXPR_DIV ? "/" : latex ? " \\, " : "*", p->f);
    node(p, e->b, lvl + 1); /* the right operand bracketed at its own level: a - (b + c), a/(b*c) */
}

static void power(printer *p, const cl_expr_node *e)
{
    if (p->fmt == FMT_C) {
        fputs("pow(", p->f);
        node(p, e->a, 0);
        fprintf(p->f, ", %ld)", e->k);
    } else if (p->fmt == FMT_LATEX) {
        fputc('{', p->f);
        node(p, e->a, 5);
        fprintf(p->f, "}^{%ld}", e->k);
    } else {
        node(p, e->a, 5);
        fprintf(p->f, e->k < 0 ? "^(%ld)" : "^%ld", e->k);
    }
}

/* Node \p id, bracketed when its precedence is below \p min. */
static void node(printer *p, int id, int min)
{
    const cl_expr_node *e = cl_expr_dag_node(p->q->g, id);
    if (p->temp[id]) {
        fprintf(p->f, p->fmt == FMT_LATEX ? "t_{%d}" : "t%d", p->temp[id]);
        return;
    }
    if (e->op == CL_EXPR_INPUT) {
        fputs(p->in[e->k], p->f);
        return;
    }
    if (e->op == CL_EXPR_CONST) {
        const char *s = cl_expr_dag_const(p->q->g, e->k);
        if (s[0] == '-' && min > 1) fprintf(p->f, p->fmt == FMT_LATEX ? "\\left(" : "(");
        constant(p, s);
        if (s[0] == '-' && min > 1) fprintf(p->f, p->fmt == FMT_LATEX ? "\\right)" : ")");
        return;
    }
    int bracket = precedence(e, p->fmt) < min;
    if (bracket) fputs(p->fmt == FMT_LATEX ? "\\left(" : "(", p->f);
    switch (e->op) {
    case CL_EXPR_NEG: fputc('-', p->f); node(p, e->a, 2); break;
    case CL_EXPR_POWI: power(p, e); break;
    case CL_EXPR_ATAN2:
        fputs(p->fmt == FMT_LATEX ? "\\operatorname{atan2}\\left(" : "atan2(", p->f);
        node(p, e->a, 0);
        fputs(", ", p->f);
        node(p, e->b, 0);
        fputs(p->fmt == FMT_LATEX ? "\\right)" : ")", p->f);
        break;
    case CL_EXPR_ADD: case CL_EXPR_SUB: case CL_EXPR_MUL: case CL_EXPR_DIV: binary(p, e); break;
    default: function(p, e); break;
    }
    if (bracket) fputs(p->fmt == FMT_LATEX ? "\\right)" : ")", p->f);
}

static const char *const greek[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
                                    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
                                    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi",
                                    "Psi", "Omega"};

/* A name of the model in LaTeX: theta' → \dot{\theta}, r'.x → \dot{r}_{x}, qdot1.x → \dot{q}_{1,x}, q1 → q_{1}, gam → \mathrm{gam}. */
static void latex_name(const char *name, int primes, char *out, size_t len)
{
    char base[64], sub[64] = "";
    size_t n = strcspn(name, "'.");
    snprintf(base, sizeof base, "%.*s", (int)n, name);
    for (const char *s = name + n; *s; s++) primes += *s == '\'';
    const char *dot = strchr(name, '.');
    size_t digits = strlen(base);
    while (digits > 1 && base[digits - 1] >= '0' && base[digits - 1] <= '9') digits--;
    char *under = strchr(base, '_');
    if (under && under > base) digits = (size_t)(under - base);
    snprintf(sub, sizeof sub, "%s%s%s", base + digits + (base[digits] == '_'), base[digits] && dot ? "," : "", dot ? dot + 1 : "");
    base[digits] = 0;
    size_t n_base = strlen(base);
    if (n_base > 3 && !strcmp(base + n_base - 3, "dot")) { /* qdot1.x (the (S2)^n kind's velocity) → \dot{q}_{1,x} */
        base[n_base - 3] = 0;
        primes++;
    }
    char body[96];
    int is_greek = 0;
    for (size_t i = 0; i < sizeof greek / sizeof greek[0]; i++) is_greek |= !strcmp(base, greek[i]);
    snprintf(body, sizeof body, is_greek ? "\\%s" : strlen(base) > 1 ? "\\mathrm{%s}" : "%s", base);
    const char *acc = primes == 1 ? "\\dot" : primes == 2 ? "\\ddot" : "";
    snprintf(out, len, "%s%s%s%s%s%s%s", acc, *acc ? "{" : "", body, *acc ? "}" : "", *sub ? "_{" : "", sub, *sub ? "}" : "");
}

/* The name of output i: the rate of state component i (x' for x, x'' for x'). */
static void output_name(printer *p, size_t i, char *out, size_t len)
{
    char c[96];
    cl_model_eom_input_name(p->m, p->q, (long)i, c, sizeof c);
    if (p->fmt == FMT_C) snprintf(out, len, "dx[%zu]", i);
    else if (p->fmt == FMT_LATEX) latex_name(c, 1, out, len);
    else {
        char *dot = strchr(c, '.'); /* r'.x → r''.x */
        if (dot) snprintf(out, len, "%.*s'%s", (int)(dot - c), c, dot);
        else snprintf(out, len, "%s'", c);
    }
}

static void input_names(printer *p)
{
    long nin = cl_expr_dag_ninputs(p->q->g);
    for (long k = 0; k < nin; k++) {
        char c[64];
        cl_model_eom_input_name(p->m, p->q, k, c, sizeof c);
        if (p->fmt == FMT_LATEX) latex_name(c, 0, p->in[k], sizeof p->in[k]);
        else if (p->fmt == FMT_C && k >= (long)p->q->param0) snprintf(p->in[k], sizeof p->in[k], "p_%s", c);
        else if (p->fmt == FMT_C) snprintf(p->in[k], sizeof p->in[k], "x[%ld]", k);
        else snprintf(p->in[k], sizeof p->in[k], "%s", c);
    }
}

/* 1 when output i is the rate of a coordinate of S¹, Rᵏ or S² and is its velocity's input (q' = q'), which says nothing. */
static int trivial(const printer *p, size_t i)
{
    const cl_model *m = p->m;
    const cl_expr_node *e = cl_expr_dag_node(p->q->g, p->q->out[i]);
    if (m->ham || e->op != CL_EXPR_INPUT) return 0;
    for (size_t j = 0; j < m->nfac; j++) {
        const cl_model_factor *f = m->fac + j;
        size_t n = f->kind == CL_LAGR_RK ? (size_t)f->k : f->kind == CL_LAGR_S2 ? 3 : 1;
        if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3 || i < f->q || i >= f->q + n) continue;
        return e->k == (long)(m->nq + f->v + (i - f->q));
    }
    return 0;
}

/* Name every operation used more than once (by operations the outputs need, or as an output). */
static int name_shared(printer *p)
{
    size_t n = cl_expr_dag_size(p->q->g);
    int *uses = calloc(n, sizeof *uses);
    if (!uses) return -1;
    for (size_t i = 0; i < p->q->dim; i++) uses[p->q->out[i]]++;
    for (size_t i = n; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(p->q->g, (int)i);
        if (!uses[i] || e->op == CL_EXPR_CONST || e->op == CL_EXPR_INPUT) continue;
        uses[e->a]++;
        if (e->b >= 0) uses[e->b]++;
    }
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(p->q->g, (int)i);
        if (uses[i] > 1 && e->op != CL_EXPR_CONST && e->op != CL_EXPR_INPUT) p->temp[i] = ++count;
        if (uses[i] && e->op == CL_EXPR_INPUT) p->used[e->k] = 1;
    }
    free(uses);
    return count;
}

/* One assignment: NAME = the node written out; \p define: NAME is the node's own name (a temporary), not used for itself. */
static void assignment(printer *p, const char *lhs, int id, int define, int last)
{
    int t = p->temp[id];
    if (define) p->temp[id] = 0;
    if (p->fmt == FMT_C) fprintf(p->f, "    %s%s = ", define ? "const double " : "", lhs);
    else fprintf(p->f, p->fmt == FMT_LATEX ? "%s &= " : "%s = ", lhs);
    node(p, id, 0);
    fputs(p->fmt == FMT_C ? ";\n" : p->fmt == FMT_LATEX && !last ? " \\\\\n" : "\n", p->f);
    p->temp[id] = t;
}

/* 1 when \p m has an SO(3) or SE(3) factor. */
static int has_group(const cl_model *m)
{
    for (size_t i = 0; i < m->nfac; i++)
        if (m->fac[i].kind == CL_LAGR_SO3 || m->fac[i].kind == CL_LAGR_SE3) return 1;
    return 0;
}

/* The header lines: what the equations are, the state and the parameters. */
static void preamble(printer *p)
{
    const cl_model_eom *q = p->q;
    const char *c0 = p->fmt == FMT_TEXT ? "# " : p->fmt == FMT_LATEX ? "% " : " * ";
    if (p->fmt == FMT_C) fputs("#include <math.h>\n\n/*\n", p->f);
    const cl_model *m = p->m;
    fprintf(p->f, "%sThe equations of motion of %s (chartless eom): %s\n", c0, m->source,
            m->ham ? "Hamilton's equations of its Hamiltonian in the momenta" : "the Euler-Lagrange equations of its");
    if (!m->ham)
        fprintf(p->f, "%sLagrangian%s solved for the accelerations%s.\n", c0, has_group(m) ? " (Euler-Poincare on SO3 and SE3)" : "",
                m->ncon ? " with the constraints' multipliers (Lagrange-d'Alembert)" : "");
    fprintf(p->f, "%st<k> are subexpressions used more than once.\n", c0);
    fprintf(p->f, "%sstate (form %s):", c0, p->q->form);
    for (size_t k = 0; k < q->dim; k++) {
        char c[96];
        cl_model_eom_input_name(p->m, q, (long)k, c, sizeof c);
        if (p->fmt == FMT_C) fprintf(p->f, "%s x[%zu] = %s", k ? "," : "", k, c);
        else fprintf(p->f, "%s %s", k ? "," : "", c);
    }
    if (q->time >= 0) fprintf(p->f, p->fmt == FMT_C ? ", x[%ld] = t" : ", t", q->time);
    fputc('\n', p->f);
    if (q->nparam) {
        fprintf(p->f, "%sparameters (defaults):", c0);
        for (size_t k = 0; k < q->nparam; k++) fprintf(p->f, "%s %s = %s", k ? "," : "", p->m->pname[k], p->m->pdef[k]);
        fputc('\n', p->f);
    }
    if (p->fmt == FMT_C) fputs(" */\nvoid f(const double *x, double *dx)\n{\n", p->f);
    if (p->fmt == FMT_LATEX) fputs("\\begin{aligned}\n", p->f);
}

static void print_equations(printer *p)
{
    const cl_model_eom *q = p->q;
    preamble(p);
    for (size_t k = 0; p->fmt == FMT_C && k < q->nparam; k++) {
        if (!p->used[q->param0 + k]) continue;
        fprintf(p->f, "    const double %s = ", p->in[q->param0 + k]);
        constant(p, p->m->pdef[k]);
        fputs(";\n", p->f);
    }
    size_t n = cl_expr_dag_size(q->g), last = 0;
    for (size_t i = 0; i < q->dim; i++)
        if (p->fmt == FMT_C || !trivial(p, i)) last = i;
    for (size_t i = 0; i < n; i++)
        if (p->temp[i]) {
            char name[32];
            snprintf(name, sizeof name, p->fmt == FMT_LATEX ? "t_{%d}" : "t%d", p->temp[i]);
            assignment(p, name, (int)i, 1, 0);
        }
    for (size_t i = 0; i < q->dim; i++) {
        if (p->fmt != FMT_C && trivial(p, i)) continue;
        char name[128];
        output_name(p, i, name, sizeof name);
        assignment(p, name, q->out[i], 0, i == last);
    }
    if (p->fmt == FMT_LATEX) fputs("\\end{aligned}\n", p->f);
    if (p->fmt == FMT_C) fputs("}\n", p->f);
}

static int parse_format(const char *s, enum format *fmt)
{
    static const char *const names[] = {"text", "latex", "c"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *fmt = (enum format)i;
            return 0;
        }
    return cl_cli_unknown("format", s, names, 3, "", "text, latex or c");
}

/* The equations of \p path in \p fmt on stdout; every error before anything is written. */
static int print_model(const char *path, enum format fmt)
{
    cl_sys_error e = {"", ""};
    cl_model *m = NULL;
    cl_model_eom *q = NULL;
    int st = cl_model_load(&m, path, &e);
    if (!st) st = cl_model_eom_new(&q, m, &e);
    if (st) {
        cl_model_free(m);
        return cl_cmd_report(&e, path, CL_EXIT_USAGE);
    }
    size_t n = cl_expr_dag_size(q->g), nin = (size_t)cl_expr_dag_ninputs(q->g);
    printer p = {.m = m, .q = q, .fmt = fmt, .temp = calloc(n, sizeof *p.temp), .in = calloc(nin + 1, sizeof *p.in),
               .used = calloc(nin + 1, 1)};
    char *text = NULL;
    size_t len = 0;
    p.f = p.temp && p.in && p.used ? open_memstream(&text, &len) : NULL;
    if (p.f) {
        input_names(&p);
        if (name_shared(&p) >= 0) print_equations(&p);
        else st = CL_ENOMEM;
        if (fclose(p.f)) st = CL_ENOMEM;
    } else st = CL_ENOMEM;
    if (!st && fwrite(text, 1, len, stdout) != len) st = cl_cli_stdout_failed(0);
    else if (st) st = cl_cli_error("out of memory", path);
    free(text);
    free(p.temp);
    free(p.in);
    free(p.used);
    cl_model_eom_free(q);
    cl_model_free(m);
    return st;
}

static int cmd_eom(int argc, char **argv)
{
    const char *model = NULL;
    enum format fmt = FMT_TEXT;
    static const struct option opts[] = {
        {"model", required_argument, 0, 'm'}, {"format", required_argument, 0, 'f'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    for (;;) {
        int prev = optind, o = getopt_long(argc, argv, ":h", opts, NULL);
        if (o == -1) break;
        switch (o) {
        case 'm':
            if (model) return cl_cli_error("--model given twice", optarg);
            model = optarg;
            break;
        case 'f':
            if (parse_format(optarg, &fmt)) return CL_EXIT_USAGE;
            break;
        case 'h': fputs(help_text, stdout); return CL_EXIT_OK;
        case ':': return cl_cli_error("option needs a value", argv[prev]);
        default: {
            static const char *const names[] = {"model", "format", "help"};
            return cl_cli_unknown("option", argv[prev], names, 3, "--", "chartless eom --help lists them");
        }
        }
    }
    if (optind < argc) return cl_cli_error("unexpected argument", argv[optind]);
    if (!model) return cl_cli_error("eom needs --model FILE", NULL);
    return print_model(model, fmt);
}

static const cl_command eom_command = {"eom", "print the equations of motion of a model, derived from its Lagrangian (text, LaTeX or C)",
                                       cmd_eom};
CL_COMMAND_REGISTER(eom_command)

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
#include "expr_emit.h"
#include "model.h"

static const char *help_text =
    "usage: chartless eom --model FILE [--format text|latex|c] [--derived]\n"
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
    "  --derived        the equations as derived, not simplified (the simplifier: docs/eom.md)\n"
    "  -h, --help       this text\n"
    "\n"
    "exit status: 0 success, 2 bad input (no model, unknown format, an unreadable model)\n";

typedef struct printer {
    cl_expr_printer e;   /* the graph's printer (expr_emit.h) */
    const cl_model *m;
    const cl_model_eom *q;
    int fmt;             /* enum cl_expr_format */
    FILE *f;
} printer;

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
    if (p->fmt == CL_EXPR_C) snprintf(out, len, "dx[%zu]", i);
    else if (p->fmt == CL_EXPR_LATEX) latex_name(c, 1, out, len);
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
        if (p->fmt == CL_EXPR_LATEX) latex_name(c, 0, p->e.in[k], sizeof p->e.in[k]);
        else if (p->fmt == CL_EXPR_C && k >= (long)p->q->param0) snprintf(p->e.in[k], sizeof p->e.in[k], "p_%s", c);
        else if (p->fmt == CL_EXPR_C) snprintf(p->e.in[k], sizeof p->e.in[k], "x[%ld]", k);
        else snprintf(p->e.in[k], sizeof p->e.in[k], "%s", c);
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
    const char *c0 = p->fmt == CL_EXPR_TEXT ? "# " : p->fmt == CL_EXPR_LATEX ? "% " : " * ";
    if (p->fmt == CL_EXPR_C) fputs("#include <math.h>\n\n/*\n", p->f);
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
        if (p->fmt == CL_EXPR_C) fprintf(p->f, "%s x[%zu] = %s", k ? "," : "", k, c);
        else fprintf(p->f, "%s %s", k ? "," : "", c);
    }
    if (q->time >= 0) fprintf(p->f, p->fmt == CL_EXPR_C ? ", x[%ld] = t" : ", t", q->time);
    fputc('\n', p->f);
    if (q->nparam) {
        fprintf(p->f, "%sparameters (defaults):", c0);
        for (size_t k = 0; k < q->nparam; k++) fprintf(p->f, "%s %s = %s", k ? "," : "", p->m->pname[k], p->m->pdef[k]);
        fputc('\n', p->f);
    }
    if (p->fmt == CL_EXPR_C) fputs(" */\nvoid f(const double *x, double *dx)\n{\n", p->f);
    if (p->fmt == CL_EXPR_LATEX) fputs("\\begin{aligned}\n", p->f);
}

static void print_equations(printer *p)
{
    const cl_model_eom *q = p->q;
    preamble(p);
    for (size_t k = 0; p->fmt == CL_EXPR_C && k < q->nparam; k++) {
        if (!p->e.used[q->param0 + k]) continue;
        fprintf(p->f, "    const double %s = ", p->e.in[q->param0 + k]);
        cl_expr_print_constant(p->f, p->fmt, p->m->pdef[k]);
        fputs(";\n", p->f);
    }
    size_t last = 0;
    for (size_t i = 0; i < q->dim; i++)
        if (p->fmt == CL_EXPR_C || !trivial(p, i)) last = i;
    cl_expr_printer_temps(&p->e);
    for (size_t i = 0; i < q->dim; i++) {
        if (p->fmt != CL_EXPR_C && trivial(p, i)) continue;
        char name[128];
        output_name(p, i, name, sizeof name);
        cl_expr_printer_assign(&p->e, name, q->out[i], 0, i == last);
    }
    if (p->fmt == CL_EXPR_LATEX) fputs("\\end{aligned}\n", p->f);
    if (p->fmt == CL_EXPR_C) fputs("}\n", p->f);
}

static int parse_format(const char *s, int *fmt)
{
    static const char *const names[] = {"text", "latex", "c"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *fmt = i;
            return 0;
        }
    return cl_cli_unknown("format", s, names, 3, "", "text, latex or c");
}

/* The equations of \p path in \p fmt on stdout; every error before anything is written. */
static int print_model(const char *path, int fmt, int simplify)
{
    cl_sys_error e = {"", ""};
    cl_model *m = NULL;
    cl_model_eom *q = NULL;
    int st = cl_model_load(&m, path, &e);
    if (!st) st = cl_model_eom_build(&q, m, simplify, &e);
    if (st) {
        cl_model_free(m);
        return cl_cmd_report(&e, path, CL_EXIT_USAGE);
    }
    printer p = {.m = m, .q = q, .fmt = fmt};
    char *text = NULL;
    size_t len = 0;
    p.f = open_memstream(&text, &len);
    if (p.f && !cl_expr_printer_init(&p.e, q->g, fmt, p.f)) {
        input_names(&p);
        if (cl_expr_printer_name_shared(&p.e, q->out, q->dim) >= 0) print_equations(&p);
        else st = CL_ENOMEM;
    } else st = CL_ENOMEM;
    if (p.f && fclose(p.f)) st = CL_ENOMEM;
    if (!st && fwrite(text, 1, len, stdout) != len) st = cl_cli_stdout_failed(0);
    else if (st) st = cl_cli_error("out of memory", path);
    free(text);
    cl_expr_printer_free(&p.e);
    cl_model_eom_free(q);
    cl_model_free(m);
    return st;
}

static int cmd_eom(int argc, char **argv)
{
    const char *model = NULL;
    int fmt = CL_EXPR_TEXT, simplify = 1;
    static const struct option opts[] = {
        {"model", required_argument, 0, 'm'}, {"derived", no_argument, 0, 'd'}, {"format", required_argument, 0, 'f'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
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
        case 'd': simplify = 0; break;
        case 'h': fputs(help_text, stdout); return CL_EXIT_OK;
        case ':': return cl_cli_error("option needs a value", argv[prev]);
        default: {
            static const char *const names[] = {"model", "format", "derived", "help"};
            return cl_cli_unknown("option", argv[prev], names, 4, "--", "chartless eom --help lists them");
        }
        }
    }
    if (optind < argc) return cl_cli_error("unexpected argument", argv[optind]);
    if (!model) return cl_cli_error("eom needs --model FILE", NULL);
    return print_model(model, fmt, simplify);
}

static const cl_command eom_command = {"eom", "print the equations of motion of a model, derived from its Lagrangian (text, LaTeX or C)",
                                       cmd_eom};
CL_COMMAND_REGISTER(eom_command)

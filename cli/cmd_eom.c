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
    "usage: chartless eom --model FILE [--form solved|mass] [--format text|latex|c] [--derived]\n"
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
    "  --form FORM      solved (default): the accelerations solved for, u' = ...;\n"
    "                   mass: the mass-matrix form M(q) u' = F(q, u) + B^T lambda with the rows\n"
    "                   B u' = beta of the unit vectors (q.q'' = -|q'|^2, lambda_q) and the\n"
    "                   constraints (lambda_NAME); on SO3 the Euler-Poincare form J W' = J W x W + tau\n"
    "                   (text or latex; a Hamiltonian's equations are first order: solved)\n"
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
    const cl_expr_dag *g; /* the graph printed: q's, or the mass form's */
    size_t nacc;          /* the mass form: inputs base … base + nv − 1 are u', then the multipliers */
    long base;
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

/* The name of multiplier k of the mass form: lambda_q of an S² factor q, lambda_NAME of constraint NAME. */
static void multiplier_name(const printer *p, size_t k, char *out, size_t len)
{
    const cl_model *m = p->m;
    for (size_t j = 0; j < m->nfac; j++)
        if (m->fac[j].kind == CL_LAGR_S2 && k-- == 0) {
            snprintf(out, len, "lambda_%s", m->fac[j].name[0]);
            return;
        }
    snprintf(out, len, "lambda_%s", m->conname[k]);
}

static void input_names(printer *p)
{
    long nin = cl_expr_dag_ninputs(p->g);
    for (long k = 0; k < nin; k++) {
        char c[64];
        if (p->nacc && k >= p->base) { /* the mass form's accelerations and multipliers */
            size_t j = (size_t)(k - p->base);
            if (j < p->m->nv) output_name(p, p->m->nq + j, p->e.in[k], sizeof p->e.in[k]);
            else if (p->fmt == CL_EXPR_LATEX) multiplier_name(p, j - p->m->nv, c, sizeof c), latex_name(c, 0, p->e.in[k], sizeof p->e.in[k]);
            else multiplier_name(p, j - p->m->nv, p->e.in[k], sizeof p->e.in[k]);
            continue;
        }
        cl_model_eom_input_name(p->m, p->q, k, c, sizeof c);
        if (p->fmt == CL_EXPR_LATEX) latex_name(c, 0, p->e.in[k], sizeof p->e.in[k]);
        else if (p->fmt == CL_EXPR_C && k >= (long)p->q->param0) snprintf(p->e.in[k], sizeof p->e.in[k], "p_%s", c);
        else if (p->fmt == CL_EXPR_C) snprintf(p->e.in[k], sizeof p->e.in[k], "x[%ld]", k);
        else snprintf(p->e.in[k], sizeof p->e.in[k], "%s", c);
    }
}

/* The velocities of \p p's model that no output is (a Hamiltonian's Ω and V = ∂H/∂p on SO(3) and SE(3)) named as in form qdot
   (rhs --form qdot --labels), in text and LaTeX; 0 or CL_ENOMEM. */
static int velocity_names(printer *p)
{
    for (size_t a = 0; p->q->vel && p->fmt != CL_EXPR_C && a < p->m->nv; a++) {
        char c[96], name[96];
        if (p->q->vel[a] < 0) continue;
        cl_model_eom_velocity_name(p->m, a, c, sizeof c);
        if (p->fmt == CL_EXPR_LATEX) latex_name(c, 0, name, sizeof name);
        else snprintf(name, sizeof name, "%s", c);
        if (cl_expr_printer_label(&p->e, p->q->vel[a], name)) return CL_ENOMEM;
    }
    return CL_OK;
}

/* 1 when output i is the rate of a coordinate of S¹, Rᵏ or S² and is its velocity's input (q' = q'), which says nothing. */
static int trivial(const printer *p, size_t i, int node)
{
    const cl_model *m = p->m;
    const cl_expr_node *e = cl_expr_dag_node(p->g, node);
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
    if (!m->ham && p->nacc)
        fprintf(p->f, "%sLagrangian%s in the mass-matrix form M(q) u' = F(q, u) + B^T lambda with the rows B u' = beta\n"
                      "%sof the unit vectors (q.q'' = -|q'|^2) and the constraints%s.\n",
                c0, has_group(m) ? " (Euler-Poincare on SO3 and SE3)" : "", c0, m->ncon ? " (Lagrange-d'Alembert)" : "");
    else if (!m->ham)
        fprintf(p->f, "%sLagrangian%s solved for the accelerations%s.\n", c0, has_group(m) ? " (Euler-Poincare on SO3 and SE3)" : "",
                m->ncon ? " with the constraints' multipliers (Lagrange-d'Alembert)" : "");
    fprintf(p->f, "%st<k> are subexpressions used more than once%s.\n", c0,
            q && q->vel && p->fmt != CL_EXPR_C && !p->nacc ? "; so are the velocities dH/dp, by their names in form qdot" : "");
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
        if (p->fmt == CL_EXPR_C || !trivial(p, i, q->out[i])) last = i;
    cl_expr_printer_temps(&p->e);
    for (size_t i = 0; i < q->dim; i++) {
        if (p->fmt != CL_EXPR_C && trivial(p, i, q->out[i])) continue;
        char name[128];
        output_name(p, i, name, sizeof name);
        cl_expr_printer_assign(&p->e, name, q->out[i], 0, i == last);
    }
    if (p->fmt == CL_EXPR_LATEX) fputs("\\end{aligned}\n", p->f);
    if (p->fmt == CL_EXPR_C) fputs("}\n", p->f);
}

/* One line LHS = RHS (LaTeX: LHS &= RHS \\\\, the break left out when last). */
static void equation(printer *p, int lhs, int rhs, int last)
{
    cl_expr_printer_node(&p->e, lhs, 0);
    fputs(p->fmt == CL_EXPR_LATEX ? " &= " : " = ", p->f);
    cl_expr_printer_node(&p->e, rhs, 0);
    fputs(p->fmt == CL_EXPR_LATEX && !last ? " \\\\\n" : "\n", p->f);
}

/*
 * The rows of the mass form as nodes of its graph, u' and λ new inputs from p->base on:
 * row[0 … nq) the configuration's rates, then per velocity Σ_c M_ac u'_c and F_a + Σ_k B_ka λ_k,
 * then per condition Σ_a B_ka u'_a and β_k.
 */
static int add_product(cl_expr_dag *g, int sum, int a, int b)
{
    return cl_expr_op(g, CL_EXPR_ADD, sum, cl_expr_op(g, CL_EXPR_MUL, a, b, 0, -1), 0, -1);
}

static int mass_rows(printer *p, const cl_model_mass *w, int *row)
{
    cl_expr_dag *g = w->g;
    size_t nv = w->nv, nb = w->nb;
    int *lhs = row + w->nq, *rhs = lhs + nv, *cl = rhs + nv, *cr = cl + nb;
    for (size_t c = 0; c < w->nq; c++) row[c] = w->qd[c];
    for (size_t a = 0; a < nv; a++) {
        lhs[a] = cl_expr_zero(g), rhs[a] = w->F[a];
        for (size_t c = 0; c < nv; c++) lhs[a] = add_product(g, lhs[a], w->M[a * nv + c], cl_expr_input(g, p->base + (long)c));
        for (size_t k = 0; k < nb; k++) rhs[a] = add_product(g, rhs[a], w->B[k * nv + a], cl_expr_input(g, p->base + (long)(nv + k)));
    }
    for (size_t k = 0; k < nb; k++) {
        cl[k] = cl_expr_zero(g), cr[k] = w->beta[k];
        for (size_t a = 0; a < nv; a++) cl[k] = add_product(g, cl[k], w->B[k * nv + a], cl_expr_input(g, p->base + (long)a));
    }
    for (size_t i = 0; i < w->nq + 2 * (nv + nb); i++)
        if (row[i] < 0) return CL_ENOMEM;
    return CL_OK;
}

/* The mass form: the configuration's rates, then M u' = F + B^T lambda row by row, then B u' = beta. */
static void print_mass(printer *p, const cl_model_mass *w, const int *row)
{
    preamble(p);
    cl_expr_printer_temps(&p->e);
    size_t nq = w->nq, nv = w->nv, nb = w->nb, n = nq + nv + nb, last = 0;
    for (size_t i = 0; i < n; i++)
        if (i >= nq || !trivial(p, i, row[i])) last = i;
    for (size_t i = 0; i < nq; i++) {
        if (trivial(p, i, row[i])) continue;
        char name[128];
        output_name(p, i, name, sizeof name);
        cl_expr_printer_assign(&p->e, name, row[i], 0, i == last);
    }
    for (size_t a = 0; a < nv; a++) equation(p, row[nq + a], row[nq + nv + a], nq + a == last);
    for (size_t k = 0; k < nb; k++) equation(p, row[nq + 2 * nv + k], row[nq + 2 * nv + nb + k], nq + nv + k == last);
    if (p->fmt == CL_EXPR_LATEX) fputs("\\end{aligned}\n", p->f);
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

/* The graph to print: the eom's, or the mass form's rows (built, simplified) into *w and *row. */
static int mass_graph(printer *p, int simplify, cl_model_mass **w, int **row, size_t *nrow, cl_sys_error *e)
{
    int st = cl_model_mass_new(w, p->m, e);
    if (st) return st;
    long nin = cl_expr_dag_ninputs((*w)->g), after = (long)(p->q->param0 + p->q->nparam);
    p->base = nin > after ? nin : after;
    p->nacc = (*w)->nv;
    *nrow = (*w)->nq + 2 * ((*w)->nv + (*w)->nb);
    *row = malloc((*nrow + 1) * sizeof **row);
    st = *row ? mass_rows(p, *w, *row) : CL_ENOMEM;
    if (!st && simplify && cl_model_simplify((*w)->g, p->m, *row, *nrow, *row, p->base, (long)(*w)->nv) == CL_ENOMEM) st = CL_ENOMEM;
    p->g = (*w)->g;
    return st ? cl_sys_error_set(e, st, NULL, "out of memory") : CL_OK;
}

/* The equations of \p path in \p fmt (\p mass: the mass form) on stdout; every error before anything is written. */
static int print_model(const char *path, int fmt, int mass, int simplify)
{
    cl_sys_error e = {"", ""};
    cl_model *m = NULL;
    cl_model_eom *q = NULL;
    cl_model_mass *w = NULL;
    int *row = NULL;
    size_t nrow = 0;
    int st = cl_model_load(&m, path, &e);
    if (!st && mass && m->ham) mass = 0; /* Hamilton's equations are first order: already solved */
    if (!st) st = cl_model_eom_build(&q, m, simplify && !mass, &e);
    printer p = {.m = m, .q = q, .g = q ? q->g : NULL, .fmt = fmt};
    if (!st && mass) st = mass_graph(&p, simplify, &w, &row, &nrow, &e);
    if (st) {
        free(row), cl_model_mass_free(w), cl_model_eom_free(q), cl_model_free(m);
        return cl_cmd_report(&e, path, CL_EXIT_USAGE);
    }
    char *text = NULL;
    size_t len = 0;
    p.f = open_memstream(&text, &len);
    if (p.f && !cl_expr_printer_init(&p.e, p.g, fmt, p.f)) {
        input_names(&p);
        if ((!mass && velocity_names(&p)) || cl_expr_printer_name_shared(&p.e, mass ? row : q->out, mass ? nrow : q->dim) < 0) st = CL_ENOMEM;
        else if (mass) print_mass(&p, w, row);
        else print_equations(&p);
    } else st = CL_ENOMEM;
    if (p.f && fclose(p.f)) st = CL_ENOMEM;
    if (!st && fwrite(text, 1, len, stdout) != len) st = cl_cli_stdout_failed(0);
    else if (st) st = cl_cli_error("out of memory", path);
    free(text);
    cl_expr_printer_free(&p.e);
    free(row), cl_model_mass_free(w), cl_model_eom_free(q), cl_model_free(m);
    return st;
}

static int cmd_eom(int argc, char **argv)
{
    const char *model = NULL;
    int fmt = CL_EXPR_TEXT, simplify = 1, mass = 0;
    static const struct option opts[] = {
        {"model", required_argument, 0, 'm'}, {"derived", no_argument, 0, 'd'}, {"form", required_argument, 0, 'F'}, {"format", required_argument, 0, 'f'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
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
        case 'F':
            if (strcmp(optarg, "solved") && strcmp(optarg, "mass")) {
                static const char *const forms[] = {"solved", "mass"};
                return cl_cli_unknown("form", optarg, forms, 2, "", "solved or mass");
            }
            mass = !strcmp(optarg, "mass");
            break;
        case 'h': fputs(help_text, stdout); return CL_EXIT_OK;
        case ':': return cl_cli_error("option needs a value", argv[prev]);
        default: {
            static const char *const names[] = {"model", "form", "format", "derived", "help"};
            return cl_cli_unknown("option", argv[prev], names, 5, "--", "chartless eom --help lists them");
        }
        }
    }
    if (optind < argc) return cl_cli_error("unexpected argument", argv[optind]);
    if (!model) return cl_cli_error("eom needs --model FILE", NULL);
    if (mass && fmt == CL_EXPR_C) return cl_cli_error("--form mass is printed as text or latex", "c");
    return print_model(model, fmt, mass, simplify);
}

static const cl_command eom_command = {"eom", "print the equations of motion of a model, derived from its Lagrangian (text, LaTeX or C)",
                                       cmd_eom};
CL_COMMAND_REGISTER(eom_command)

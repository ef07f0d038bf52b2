/*
 * `chartless equilibria --system NAME` and `chartless stability --system
 * NAME`: the analyses a system's descriptor offers. A system with a tool of
 * its own (cl_system_tool) runs it with the options its table documents;
 * any other system (or model file) with an `equilibrium` hook gets the
 * generic tools of the check kit: the linearization on the tangent space
 * of its state manifold (cl_system_linearize) and the Energy–Casimir test
 * with the conserved quantities it declares (cl_system_energy_casimir).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "sweep.h"

typedef struct analysis {
    const char *command, *what;
    const char *exit_status; /* the help's last section */
    const cl_system_tool *(*tool)(const cl_system *s);
    int (*offered)(const cl_system *s);
    int stability;           /* the generic tool: 0 linearization, 1 Energy–Casimir */
} analysis;

static const cl_system_tool *equilibria_tool(const cl_system *s) { return s->equilibria; }
static const cl_system_tool *stability_tool(const cl_system *s) { return s->stability; }

static const analysis equilibria = {"equilibria", "the linearization (Jacobian eigenvalues) at the system's equilibria",
                                    "exit status: 0 done, 1 the computation failed, 2 bad input\n", equilibria_tool,
                                    cl_system_offers_equilibria, 0};
static const analysis stability = {"stability", "a nonlinear stability test (Energy-Casimir) at an equilibrium",
                                   "exit status: 0 done (whatever the verdict: it is printed), 1 the computation failed,\n"
                                   "2 bad input\n",
                                   stability_tool, cl_system_offers_stability, 1};

static void print_list(const char *label, mpfr_srcptr x, int n)
{
    printf("%s", label);
    for (int i = 0; i < n; i++) { putchar(' '); cl_cli_print_real(stdout, x + i); }
    putchar('\n');
}

int cl_cmd_equilibrium_selected(const char *which, int k, const char *name)
{
    if (!which || !strcmp(which, "all")) return 1;
    long v;
    if (!cl_parse_whole(which, 0, 1000, &v)) return v == k;
    size_t n = strlen(which);
    return !strncmp(name, which, n) && (name[n] == 0 || name[n] == ' ');
}

/* A number is zero to the rounding of the eigenproblem when |x| ≤ 2^(24−p)·max(1, max|λ|). */
static double zero_level(mpfr_srcptr wr, mpfr_srcptr wi, int d, cl_prec_t prec)
{
    double m = 0;
    for (int i = 0; i < d; i++) m = fmax(m, fmax(cl_mpfr_log2(wr + i), cl_mpfr_log2(wi + i)));
    return fmax(m, 0) + 24 - (double)prec;
}

/* The linearization at one equilibrium: the state, A = ZᵀDf Z, its eigenvalues and what they say. */
static void print_linearization(const cl_cmd_system *cs, int k, const char *name, mpfr_srcptr x, mpfr_srcptr A,
                                mpfr_srcptr wr, mpfr_srcptr wi, int d, cl_prec_t prec, mpfr_ptr t)
{
    printf("equilibrium %d: %s\n", k, name);
    printf("  state (%s):", cs->sys->forms[cs->form]);
    for (size_t i = 0; i < cs->dim; i++) { putchar(' '); cl_cli_print_real(stdout, x + i); }
    printf("\n  tangent space: dimension %d of R^%zu\n", d, cs->dim);
    for (int i = 0; i < d; i++) { printf("  A row %d", i + 1); print_list("", A + (size_t)d * i, d); }
    double z = zero_level(wr, wi, d, prec);
    int unstable = 0, on_axis = 0, left = 0; /* eigenvalues with Re > 0, Re = 0, Re < 0 (to 2^z) */
    printf("  eigenvalues (real imag):\n");
    for (int i = 0; i < d; i++) {
        printf("   ");
        cl_cli_print_real(stdout, wr + i);
        putchar(' ');
        cl_cli_print_real(stdout, wi + i);
        putchar('\n');
        if (!(cl_mpfr_log2(wr + i) > z)) on_axis++;
        else if (mpfr_sgn(wr + i) > 0) unstable++;
        else left++;
    }
    /* squared frequencies (imag² of the eigenvalues on the imaginary axis) and squared rates (real² of the
       real ones), ascending; t has room for d numbers */
    for (int pass = 0; pass < 2; pass++) {
        int m = 0;
        for (int i = 0; i < d; i++) {
            int on_axis = cl_mpfr_log2(wr + i) <= z && mpfr_sgn(wi + i) > 0 && cl_mpfr_log2(wi + i) > z;
            int real = cl_mpfr_log2(wi + i) <= z && mpfr_sgn(wr + i) > 0 && cl_mpfr_log2(wr + i) > z;
            if (pass ? !real : !on_axis) continue;
            mpfr_sqr(t + m, pass ? wr + i : wi + i, MPFR_RNDN);
            for (int j = m++; j > 0 && mpfr_cmp(t + j, t + j - 1) < 0; j--) mpfr_swap(t + j, t + j - 1);
        }
        if (m) print_list(pass ? "  squared rates (real^2 of the positive real eigenvalues):"
                               : "  squared frequencies (imag^2 of the eigenvalues i*w, w > 0):", t, m);
    }
    printf("  linearization: %s (zero within 2^%.0f)\n\n",
           unstable ? "unstable (an eigenvalue with positive real part)"
           : !left  ? "spectrally stable (all eigenvalues on the imaginary axis); nonlinear stability: chartless stability"
           : on_axis ? "inconclusive (eigenvalues on the imaginary axis, the others in the left half plane)"
                     : "asymptotically stable (all eigenvalues in the left half plane)",
           z);
}

/* The Energy–Casimir test at one equilibrium. */
static void print_energy_casimir(const cl_cmd_system *cs, int k, const char *name, const struct cl_ec_report *rep, mpfr_srcptr c,
                                 mpfr_srcptr Hr, mpfr_srcptr eig, int ncas)
{
    const cl_system *s = cs->sys;
    printf("equilibrium %d: %s\n", k, name);
    printf("  E = %s, with %d constraint(s) of the state manifold", s->invariant_names[0], rep->k - ncas);
    for (int j = 0; j < ncas; j++) printf("%s%s", j ? ", " : " and the conserved quantities ", s->invariant_names[s->casimirs[j]]);
    print_list("\n  multipliers:", c, rep->k);
    printf("  residual |DE + sum c_j DC_j| / max(1, |DE|) = 2^%.1f\n", rep->log2_residual);
    printf("  restricted Hessian (orthonormal basis of ker DC, dimension %d):\n", rep->d);
    for (int i = 0; i < rep->d; i++) print_list("   ", Hr + (size_t)rep->d * i, rep->d);
    print_list("  eigenvalues:", eig, rep->d);
    printf("  inertia (positive, negative, zero) = (%d, %d, %d)\n", rep->npos, rep->nneg, rep->nzero);
    printf("  verdict: %s\n\n", rep->definite > 0   ? "stable (restricted Hessian positive definite)"
                                : rep->definite < 0 ? "stable (restricted Hessian negative definite)"
                                                    : "Energy-Casimir test inconclusive (restricted Hessian not definite)");
}

/* The generic tool on an open system: every selected equilibrium of its form. */
static int run_generic(const analysis *an, cl_cmd_system *cs, const char *which, int form_given, cl_prec_t prec)
{
    const cl_system *s = cs->sys;
    /* the form: as given, else the first whose equilibrium 0 exists */
    const char *nm;
    for (int f = 0; !form_given && s->forms[f]; f++) {
        size_t dim = s->dim(cs->inst, f);
        mpfr_ptr y = cl_rvec_new_mp(dim, prec);
        if (!y) return cl_cli_error("out of memory", NULL);
        int found = s->equilibrium(cs->inst, 0, f, y, &nm) == CL_OK;
        cl_rvec_free_mp(y);
        if (found) { cs->form = f; cs->dim = dim; break; }
    }
    size_t N = cs->dim;
    mpfr_ptr w = cl_rvec_new_mp(N * N + 4 * N, prec);
    if (!w) return cl_cli_error("out of memory", NULL);
    mpfr_ptr xe = w, A = xe + N, wr = A + N * N, wi = wr + N, c = wi + N;
    /* the input first, so that bad input prints nothing on stdout */
    int found = 0, ran = 0, moving = -1;
    for (int k = 0; k < 64; k++) {
        const char *name = NULL;
        if (s->equilibrium(cs->inst, k, cs->form, xe, &name) != CL_OK) break;
        found++;
        if (!cl_cmd_equilibrium_selected(which, k, name ? name : "")) continue;
        ran++;
        /* f(x₀) at rounding level (a control torque, say, moves the state) */
        double fx = -INFINITY, sx = 0;
        if (s->rhs(cs->inst, cs->form, wr, xe)) fx = INFINITY;
        for (size_t i = 0; i < N; i++) {
            fx = fmax(fx, cl_mpfr_log2(wr + i));
            sx = fmax(sx, cl_mpfr_log2(xe + i));
        }
        if (moving < 0 && !(fx <= sx + 32 - (double)prec)) moving = k;
    }
    char msg[300];
    int st = CL_EXIT_OK;
    if (!found && form_given) {
        snprintf(msg, sizeof msg, "the system has no equilibrium in form %s", s->forms[cs->form]);
        st = cl_cli_error(msg, "--form");
    } else if (!found)
        st = cl_cli_error("the system has no equilibrium at these parameters, in any form", s->name); else if (!ran)
        st = cl_cli_error("no such equilibrium (all, a number from 0, or the first word of its name)", which);
    else if (moving >= 0) {
        snprintf(msg, sizeof msg, "equilibrium %d is not an equilibrium of the field at these parameters", moving);
        st = cl_cli_error(msg, s->name);
    } else if (an->stability && N > CL_EC_NMAX) {
        snprintf(msg, sizeof msg, "the Energy-Casimir test takes states of at most %d numbers (this one has %zu)", CL_EC_NMAX, N);
        st = cl_cli_error(msg, s->name);
    }
    if (st) { cl_rvec_free_mp(w); return st; }
    printf("%s (form %s), %ld bits: %s\n\n", s->name, s->forms[cs->form], (long)prec,
           an->stability ? "Energy-Casimir test (check/equilibria.c)" : "linearization on the tangent space of the state manifold");
    for (int k = 0; k < found && st == CL_EXIT_OK; k++) {
        const char *name = NULL;
        cl_sys_error e = {"", ""};
        int d = 0, r;
        s->equilibrium(cs->inst, k, cs->form, xe, &name);
        if (!cl_cmd_equilibrium_selected(which, k, name ? name : "")) continue;
        if (an->stability) {
            struct cl_ec_report rep;
            int ncas = 0;
            r = cl_system_energy_casimir(s, &cs->params, prec, cs->form, k, &rep, c, A, wr, &ncas, &e);
            if (!r) print_energy_casimir(cs, k, name, &rep, c, A, wr, ncas);
        } else {
            r = cl_system_linearize(s, &cs->params, prec, cs->form, k, xe, A, wr, wi, &d, NULL, 0, &e);
            if (!r) print_linearization(cs, k, name, xe, A, wr, wi, d, prec, c);
        }
        if (r) st = cl_cmd_report(&e, s->name, r == CL_EPARAM ? CL_EXIT_USAGE : CL_EXIT_FAIL);
    }
    cl_rvec_free_mp(w);
    return st;
}

static void generic_help(const analysis *an, const cl_system *s)
{
    printf("usage: chartless %s --system %s [--form F] [--equilibrium all|K|NAME] [--bits B] [PARAMETERS]\n\n", an->command,
           s->name);
    if (an->stability)
        printf("Energy-Casimir test (src/energy_casimir) at each equilibrium: the energy with the constraints of the\n"
               "state manifold and the conserved quantities the system declares, gradients and Hessians by src/deriv,\n"
               "the Hessian restricted to the tangent space of the level set, its inertia and the verdict.\n");
    else
        printf("Jacobian of the field on the tangent space of the state manifold at each equilibrium\n"
               "(A = Z^T Df Z, Z an orthonormal basis of the kernel of the constraints' derivative; src/deriv),\n"
               "its eigenvalues (src/linalg) with the digits of the working precision, the squared frequencies\n"
               "of the eigenvalues on the imaginary axis and the squared rates of the positive real ones.\n");
    printf("--form: the form to work in (default: the first that has equilibria); --equilibrium: which\n"
           "(default all): its number, or the first word of its name.\n");
    cl_cmd_system_help(s);
}

/* Take --equilibrium out of the scanned parameters (the generic tool's own option). */
static const char *take_equilibrium(cl_cmd_args *a, int *dup)
{
    const char *v = NULL;
    int j = 0;
    *dup = 0;
    for (int i = 0; i < a->nparams; i++) {
        if (!strcmp(a->keys[i], "equilibrium")) {
            if (v) *dup = 1;
            v = a->vals[i] ? a->vals[i] : "";
            continue;
        }
        a->keys[j] = a->keys[i];
        a->vals[j++] = a->vals[i];
    }
    a->nparams = j;
    return v;
}

static int run_analysis(const analysis *an, int argc, char **argv)
{
    cl_cmd_args a;
    int st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a);
    if (st) return st;
    char with[512];
    cl_cmd_systems_with(with, sizeof with, an->offered);
    const cl_system *s = a.system ? cl_system_find(a.system) : NULL;
    const cl_system_tool *t = s ? an->tool(s) : NULL;
    int generic = !t && (a.model || (s && an->offered(s)));
    if (a.help) {
        if (t) {
            fputs(t->usage, stdout);
            printf("\noptions:\n");
            cl_params_help(stdout, t->params);
            printf("  --bits B          working precision in bits, 2 to 65536 (default 53)\n"
                   "  -h, --help        this text\n");
        } else if (s && generic)
            generic_help(an, s);
        else
            printf("usage: chartless %s --system NAME [--bits B] [OPTIONS]\n"
                   "       chartless %s --model FILE [--param name=value ...] [--bits B] [OPTIONS]\n\n"
                   "%s.\nsystems that offer it: %s\n(chartless %s --system NAME --help for its options;\n"
                   "a model file offers it when it declares equilibria)\n",
                   an->command, an->command, an->what, with, an->command);
        printf("\n%s", an->exit_status);
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    char msg[600];
    if (!a.system && !a.model) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer %s: %s)", an->command, with);
        st = cl_cli_error(msg, NULL);
    } else if (a.system && !s && !a.model) {
        st = cl_cli_error("unknown system; chartless systems lists them", a.system);
    } else if (t) {
        if (a.form) st = cl_cli_error("unknown option", "--form");
        else if (a.model) st = cl_cli_error("give --system or --model, not both", a.model);
        else st = cl_cmd_run(&a, t->params, t->run);
    } else if (s && !generic) {
        snprintf(msg, sizeof msg, "%s is offered by %s only", an->command, with);
        st = cl_cli_error(msg, a.system);
    } else {
        int dup;
        const char *which = take_equilibrium(&a, &dup);
        cl_cmd_system cs;
        if (dup) st = cl_cli_error("option given twice", "--equilibrium");
        else if (which && !*which) st = cl_cli_error("--equilibrium needs a value", "--equilibrium");
        else if (!(st = cl_cmd_open_system(&a, &cs))) {
            if (!an->offered(cs.sys)) {
                snprintf(msg, sizeof msg, "%s needs a system with equilibria; the model declares none", an->command);
                st = cl_cli_error(msg, a.model ? a.model : a.system);
            } else
                st = run_generic(an, &cs, which, a.form != NULL, (cl_prec_t)a.bits);
            cl_cmd_close_system(&cs);
        }
    }
    cl_cmd_args_free(&a);
    return st;
}

static int cmd_equilibria(int argc, char **argv) { return run_analysis(&equilibria, argc, argv); }
static int cmd_stability(int argc, char **argv) { return run_analysis(&stability, argc, argv); }

static const cl_command equilibria_command = {"equilibria", "Jacobian eigenvalues at a system's equilibria", cmd_equilibria};
CL_COMMAND_REGISTER(equilibria_command)
static const cl_command stability_command = {"stability", "Energy-Casimir stability verdict at a system's equilibrium", cmd_stability};
CL_COMMAND_REGISTER(stability_command)

/**
 * \file cmd_simulate.c
 * \brief `chartless simulate`: integrate a registered system from a state
 *        read from stdin and write the trajectory as CSV (t, state,
 *        invariants), optionally drawn with gnuplot.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"

static const char *help_text =
    "usage: chartless simulate --system NAME [--form FORM] [--bits B] [SYSTEM PARAMETERS]\n"
    "                          [--integrator rk4|rkf78|gl|gbs] [--h H] [--tol TOL] [--t T]\n"
    "                          [--stages S] [--every K] [--output FILE.csv] [--plot FILE.png] < STATE\n"
    "\n"
    "Read a state of the chosen form from stdin, integrate the system's vector field from\n"
    "t = 0 to T at the working precision (src/ode), and write CSV: a header, then one row per\n"
    "accepted step (every K-th with --every, and always the last): t, the state, and the\n"
    "system's invariants (energy first, then e.g. angular momentum and the constraint drifts\n"
    "max| |q_i| - 1 | and max|q_i . v_i|), each with the digits the precision carries.\n"
    "\n"
    "options:\n"
    "  --system NAME        the system (chartless rhs --system NAME --help lists its parameters)\n"
    "  --form FORM          the form of the state and of the integrated equations\n"
    "  --bits B             working precision in bits, 2 to 65536 (default 53)\n"
    "  --integrator M       rk4 (fixed step), rkf78 (adaptive, default), gl (Gauss-Legendre,\n"
    "                       implicit, symplectic, fixed step), gbs (Gragg-Bulirsch-Stoer, adaptive)\n"
    "  --h H                step of rk4 and gl (default 0.01); initial step of rkf78 and gbs\n"
    "                       (default: chosen by the integrator)\n"
    "  --tol TOL            relative and absolute tolerance of rkf78 and gbs (default 2^(20-p))\n"
    "  --t T                final time (default 10)\n"
    "  --stages S           stages of gl (order 2S, default 4) or columns of gbs (default: by precision)\n"
    "  --every K            write every K-th step (default 1)\n"
    "  --output FILE        write the CSV to FILE instead of stdout\n"
    "  --plot FILE.png      also draw the state and the energy drift with gnuplot (needs --output)\n"
    "  -h, --help           this text (with --system: also the system's parameters and state)\n"
    "\n"
    "exit status: 0 success, 1 the integration failed, 2 bad input\n";

enum { OPT_INTEGRATOR = 1000, OPT_H, OPT_TOL, OPT_T, OPT_STAGES, OPT_EVERY, OPT_OUTPUT, OPT_PLOT };

typedef struct sim_opts {
    const char *integrator, *h, *tol, *t, *output, *plot;
    int stages;
    long every;
} sim_opts;

static int on_option(int code, const char *arg, void *vctx)
{
    sim_opts *o = vctx;
    char *end;
    switch (code) {
    case OPT_INTEGRATOR: o->integrator = arg; break;
    case OPT_H: o->h = arg; break;
    case OPT_TOL: o->tol = arg; break;
    case OPT_T: o->t = arg; break;
    case OPT_OUTPUT: o->output = arg; break;
    case OPT_PLOT: o->plot = arg; break;
    case OPT_STAGES:
        o->stages = (int)strtol(arg, &end, 10);
        if (*end || o->stages < 1 || o->stages > 160) return cl_cli_error("--stages must be a whole number from 1 to 160", arg);
        break;
    case OPT_EVERY:
        o->every = strtol(arg, &end, 10);
        if (*end || o->every < 1) return cl_cli_error("--every must be a whole number >= 1", arg);
        break;
    default: return cl_cli_error("unknown option", NULL);
    }
    return CL_EXIT_OK;
}

typedef struct sim_ctx {
    cl_cmd_system *cs;
    FILE *out;
    mpfr_ptr inv;
    size_t ninv;
    long every, count;
    double tend;
    int progress;
} sim_ctx;

static int sim_rhs(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *vctx)
{
    (void)t;
    sim_ctx *c = vctx;
    return c->cs->sys->rhs(c->cs->inst, c->cs->form, dx, x);
}

static int write_row(sim_ctx *c, mpfr_srcptr t, mpfr_srcptr x)
{
    cl_cli_print_real(c->out, t);
    for (size_t i = 0; i < c->cs->dim; i++) {
        fputc(',', c->out);
        cl_cli_print_real(c->out, x + i);
    }
    if (c->ninv) {
        int st = c->cs->sys->invariants(c->cs->inst, c->cs->form, c->inv, x);
        if (st) return st;
        for (size_t k = 0; k < c->ninv; k++) {
            fputc(',', c->out);
            cl_cli_print_real(c->out, c->inv + k);
        }
    }
    fputc('\n', c->out);
    return CL_OK;
}

static int sim_observer(mpfr_srcptr t, mpfr_srcptr x, size_t n, void *vctx)
{
    (void)n;
    sim_ctx *c = vctx;
    int st = CL_OK;
    if (c->count % c->every == 0) st = write_row(c, t, x);
    if (c->progress && c->count % 1000 == 0)
        fprintf(stderr, "\rsimulate: t = %.6g of %.6g", mpfr_get_d(t, MPFR_RNDN), c->tend);
    c->count++;
    return st;
}

static int plot(const char *csv, const char *png, const cl_cmd_system *cs, size_t ninv)
{
    FILE *g = popen("gnuplot", "w");
    if (!g) return -1;
    size_t ncol = cs->dim < 6 ? cs->dim : 6;
    fprintf(g, "set terminal png size 1000,800\nset output '%s'\nset datafile separator ','\n"
               "set key outside right\nset multiplot layout 2,1\nset xlabel 't'\n"
               "set title 'chartless simulate --system %s --form %s'\nplot ",
            png, cs->sys->name, cs->sys->forms[cs->form]);
    for (size_t i = 0; i < ncol; i++)
        fprintf(g, "%s'%s' using 1:%zu every ::1 with lines title columnhead(%zu)", i ? ", " : "", csv, i + 2, i + 2);
    fprintf(g, "\n");
    if (ninv) {
        size_t ecol = cs->dim + 2;
        fprintf(g, "set title 'energy drift E(t) - E(0)'\nE0 = real(system(\"sed -n 2p '%s' | cut -d, -f%zu\"))\n"
                   "plot '%s' using 1:($%zu - E0) every ::1 with lines title 'E - E0'\n",
                csv, ecol, csv, ecol);
    }
    fprintf(g, "unset multiplot\n");
    int st = pclose(g);
    return st == 0 ? 0 : -1;
}

static int cmd_simulate(int argc, char **argv)
{
    static const struct option extra[] = {
        {"integrator", required_argument, NULL, OPT_INTEGRATOR},
        {"h", required_argument, NULL, OPT_H},
        {"tol", required_argument, NULL, OPT_TOL},
        {"t", required_argument, NULL, OPT_T},
        {"stages", required_argument, NULL, OPT_STAGES},
        {"every", required_argument, NULL, OPT_EVERY},
        {"output", required_argument, NULL, OPT_OUTPUT},
        {"plot", required_argument, NULL, OPT_PLOT},
        {0, 0, 0, 0},
    };
    sim_opts o = {.every = 1};
    cl_cmd_args a;
    int st = cl_cmd_parse_system_args(argc, argv, extra, &a, on_option, &o);
    if (st) return st;
    if (a.help) {
        fputs(help_text, stdout);
        const cl_system *s = a.system ? cl_system_find(a.system) : NULL;
        if (s) cl_cmd_system_help(s);
        else cl_cmd_list_systems(stdout);
        return CL_EXIT_OK;
    }
    cl_ode_method method = cl_ode_method_from_name(o.integrator ? o.integrator : "rkf78");
    if (o.integrator && !strcmp(o.integrator, "gl")) method = CL_ODE_GAUSS;
    if (!method) return cl_cli_error("unknown integrator (rk4, rkf78, gl, gbs)", o.integrator);
    if (o.plot && !o.output) return cl_cli_error("--plot needs --output FILE.csv (gnuplot reads the CSV)", o.plot);
    if (o.plot && system("command -v gnuplot >/dev/null 2>&1") != 0)
        return cl_cli_error("gnuplot is not installed (apt-get install gnuplot-nox); run without --plot", o.plot);
    cl_cmd_system cs;
    st = cl_cmd_open_system(&a, &cs);
    if (st) return st;
    cl_prec_t p = (cl_prec_t)a.bits;
    size_t ninv = 0;
    while (cs.sys->invariant_names && cs.sys->invariant_names[ninv]) ninv++;
    mpfr_ptr x = cl_rvec_new_mp(cs.dim + ninv + 4, p);
    mpfr_ptr inv = x + cs.dim, t = inv + ninv, t1 = t + 1, h = t + 2, tol = t + 3;
    cl_ode_ws_mp *ode = NULL;
    FILE *out = NULL;
    if (!x) { st = cl_cli_error("out of memory", NULL); goto done; }
    /* Numbers of the options, at the working precision. */
    mpfr_set_ui(t1, 10, MPFR_RNDN);
    if (o.t && (cl_real_from_str_mp(t1, o.t) || mpfr_sgn(t1) <= 0)) { st = cl_cli_error("--t must be a positive number", o.t); goto done; }
    int fixed = method == CL_ODE_RK4 || method == CL_ODE_GAUSS;
    if (fixed) cl_real_from_str_mp(h, "0.01");
    else mpfr_set_zero(h, 1);
    if (o.h && (cl_real_from_str_mp(h, o.h) || mpfr_sgn(h) <= 0)) { st = cl_cli_error("--h must be a positive number", o.h); goto done; }
    if (o.tol && (cl_real_from_str_mp(tol, o.tol) || mpfr_sgn(tol) <= 0)) { st = cl_cli_error("--tol must be a positive number", o.tol); goto done; }
    if (o.tol && fixed) { st = cl_cli_error("--tol applies to rkf78 and gbs only", o.tol); goto done; }
    st = cl_cmd_read_state(&cs, stdin, x);
    if (st) goto done;
    int param = method == CL_ODE_GAUSS ? (o.stages ? o.stages : 4) : method == CL_ODE_GBS ? o.stages : 0;
    int e = cl_ode_ws_new_mp(&ode, cs.dim, p, method, param);
    if (!e && o.tol) e = cl_ode_set_tol_mp(ode, tol, tol);
    if (e) { st = cl_cli_error(cl_strerror(e), "integrator"); goto done; }
    out = o.output ? fopen(o.output, "w") : stdout;
    if (!out) { st = cl_cli_error("cannot write the output file", o.output); goto done; }
    fprintf(out, "t");
    char name[64];
    for (size_t i = 0; i < cs.dim; i++) {
        if (cs.sys->component_name) cs.sys->component_name(cs.inst, cs.form, i, name, sizeof name);
        else snprintf(name, sizeof name, "x%zu", i + 1);
        fprintf(out, ",%s", name);
    }
    for (size_t k = 0; k < ninv; k++) fprintf(out, ",%s", cs.sys->invariant_names[k]);
    fputc('\n', out);
    sim_ctx c = {.cs = &cs, .out = out, .inv = inv, .ninv = ninv, .every = o.every,
                 .tend = mpfr_get_d(t1, MPFR_RNDN), .progress = isatty(2)};
    cl_ode_set_observer_mp(ode, sim_observer, &c);
    mpfr_set_zero(t, 1);
    cl_ode_stats stats;
    e = cl_ode_integrate_mp(ode, sim_rhs, &c, t, x, t1, h, &stats);
    if (c.progress) fputc('\n', stderr);
    if (e < 0) {
        fprintf(stderr, "error: integration stopped at t = %.17g: %s\n", mpfr_get_d(t, MPFR_RNDN), cl_strerror(e));
        st = CL_EXIT_FAIL;
    } else if ((c.count - 1) % c.every != 0) {
        write_row(&c, t, x); /* always end with the final state */
    }
    fprintf(stderr, "simulate: %s, %ld steps (%ld rejected), %ld evaluations of the field\n",
            cl_ode_method_name(method), stats.steps, stats.rejected, stats.rhs_evals);
    if (o.output) {
        fclose(out);
        out = NULL;
        if (!st && o.plot && plot(o.output, o.plot, &cs, ninv)) {
            fprintf(stderr, "error: gnuplot could not draw %s\n", o.plot);
            st = CL_EXIT_FAIL;
        }
    }
done:
    if (out && out != stdout) fclose(out);
    cl_ode_ws_free_mp(ode);
    cl_rvec_free_mp(x);
    cl_cmd_close_system(&cs);
    return st;
}

static const cl_command simulate_command = {"simulate", "integrate a system from a state read from stdin, CSV out", cmd_simulate};
CL_COMMAND_REGISTER(simulate_command)

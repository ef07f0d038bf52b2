/**
 * \file cmd_simulate.c
 * \brief `chartless simulate`: integrate a registered system and write CSV
 *        (t, state, invariants), optionally drawn with gnuplot.
 *
 * The integrators of src/ode (rk4, rkf78, gauss, gbs) work on any system;
 * the Lie group integrators (lie-euler, rkmk4, cf4, rkmk45) on the systems
 * whose descriptor offers them (lie_simulate). Output goes to a
 * temporary file renamed into place at the end, so a failed run leaves no
 * partial file; on stdout nothing is written before the integrator has
 * accepted the run.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "json.h"
#include "plot.h"
#include "system.h"

static const char *help_text =
    "usage: chartless simulate --system NAME [--form FORM] [--bits B] [OPTIONS]\n"
    "                          [SYSTEM PARAMETERS] < INITIAL_STATE\n"
    "\n"
    "Integrate a named system from t = 0 and write CSV: t, the state components, and the\n"
    "system's invariants (energy first) at every accepted step.\n"
    "\n"
    "options:\n"
    "  --integrator M   rkf78 (adaptive Fehlberg 7(8); the default up to 113 bits), gbs\n"
    "                   (adaptive Gragg-Bulirsch-Stoer, order growing with the precision; the\n"
    "                   default above 113 bits), gauss (implicit\n"
    "                   Gauss-Legendre, symplectic, fixed step; also 'gl'), rk4 (fixed step);\n"
    "                   lie-euler, rkmk4, cf4, rkmk45: Lie group methods, on the systems\n"
    "                   that offer them (chartless systems NAME says)\n"
    "  --t T            final time, 0 or more (default 10; 0 writes the initial row with its\n"
    "                   invariants)\n"
    "  --h H            step: fixed step of rk4, gauss and the Lie methods (default 0.01);\n"
    "                   initial step of the adaptive methods (default: chosen)\n"
    "  --tol TOL        the error wanted at the end of the run, relative and absolute (rkf78,\n"
    "                   gbs): the steps are controlled with 1/32 (rkf78) or 1/16 (gbs) of it,\n"
    "                   which on the benchmark of bench/bench_ode --chain (double pendulum,\n"
    "                   t = 2) delivers max |x - x*| / (1 + |x*|) below TOL at 53 to 1024 bits;\n"
    "                   longer or more unstable motions amplify it. rkmk45: its per-step\n"
    "                   tolerance. Default 2^(20-B) (about 1e-10 at 53 bits), but not below\n"
    "                   2^-96 for rkf78 and 2^-50 for rkmk45 (their order would need too many\n"
    "                   steps). A TOL given that needs more than --max-steps steps by the\n"
    "                   estimate t * tol^(-1/(order+1)) is refused before the run\n"
    "  --stages S       Gauss-Legendre stages (default 2, order 4)\n"
    "  --columns K      extrapolation columns of gbs (default: from the precision)\n"
    "  --every K        write every K-th step only (default 1)\n"
    "  --max-steps N    refuse a fixed-step run of more than N steps (t/h, the estimate is\n"
    "                   shown), end an adaptive one after N steps (default 1000000)\n"
    "  --out FILE       write the CSV to FILE instead of standard output\n"
    "  --plot FILE.png  also draw every state component (a panel per factor) and the energy\n"
    "                   error with gnuplot; beside it FILE-phase.png (the phase portrait) and,\n"
    "                   for systems that say where their bodies are, FILE-3d.png and\n"
    "                   FILE-3d.gif (their 3-D trajectory, animated). The CSV still goes to\n"
    "                   --out, or to standard output\n"
    "  --format FMT     text (CSV, the default) or json: the same columns and rows as one JSON\n"
    "                   object (docs/simulate.schema.json)\n"
    "  -h, --help       this text; with --system NAME, also the system's parameters\n"
    "\n"
    "exit status: 0 success, 1 the integration failed, 2 bad input\n";

enum { OPT_STAGES = 1000, OPT_COLUMNS, OPT_EVERY, OPT_MAX_STEPS };

/* Steps a run may take unless --max-steps allows more. */
#define DEFAULT_MAX_STEPS 1000000L

typedef struct sim_opts {
    const char *integrator, *t, *h, *tol, *out, *plot;
    long stages, columns, every, max_steps;
} sim_opts;

static int on_option(int code, const char *arg, void *ctx)
{
    sim_opts *o = ctx;
    switch (code) {
    case OPT_STAGES:
        return cl_parse_whole(arg, 1, CL_ODE_GAUSS_MAX_STAGES, &o->stages) ? cl_cli_error("--stages must be 1 to 16", arg) : 0;
    case OPT_COLUMNS:
        return cl_parse_whole(arg, 2, CL_ODE_GBS_MAX_COLUMNS, &o->columns) ? cl_cli_error("--columns must be 2 to 160", arg) : 0;
    case OPT_EVERY:
        return cl_parse_whole(arg, 1, 1000000000L, &o->every) ? cl_cli_error("--every must be a positive whole number", arg) : 0;
    case OPT_MAX_STEPS:
        return cl_parse_whole(arg, 1, 1000000000000L, &o->max_steps) ? cl_cli_error("--max-steps must be a whole number from 1 to 10^12", arg) : 0;
    }
    return CL_EXIT_USAGE;
}

typedef struct sim_ctx {
    const cl_cmd_system *cs;
    const cl_cmd_system *fcs; /* the instance the integrator's field runs on (GBS: at its guard precision) */
    FILE *f;
    mpfr_ptr inv;
    int ninv;
    long step, every;
    int tty;
    double t1;
    int status;
    int last_written; /* whether the latest step's row is out (--every may skip it) */
    mpfr_ptr tlast;   /* time of the latest step */
    int started;      /* whether the header is out */
    mpfr_ptr x0;      /* the Lie methods' initial state, held back until their first step */
    mpfr_ptr e0;      /* the initial energy, then scratch for the energy error */
} sim_ctx;

static int field(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    const cl_cmd_system *cs = ((sim_ctx *)ctx)->fcs;
    if (cs->sys->set_time) cs->sys->set_time(cs->inst, t);
    return cs->sys->rhs(cs->inst, cs->form, dx, x);
}

static void write_row(sim_ctx *c, mpfr_srcptr t, mpfr_srcptr x)
{
    cl_cli_print_real(c->f, t);
    for (size_t i = 0; i < c->cs->dim; i++) {
        fputc(',', c->f);
        cl_cli_print_real(c->f, x + i);
    }
    if (c->cs->sys->set_time) c->cs->sys->set_time(c->cs->inst, t);
    if (c->ninv && c->cs->sys->invariants(c->cs->inst, c->cs->form, c->inv, x) == 0) {
        for (int k = 0; k < c->ninv; k++) {
            fputc(',', c->f);
            cl_cli_print_real(c->f, c->inv + k);
        }
        if (c->e0) { /* |E - E0| / |E0|, or |E - E0| when E0 = 0 */
            mpfr_sub(c->e0 + 1, c->inv, c->e0, MPFR_RNDN);
            mpfr_abs(c->e0 + 1, c->e0 + 1, MPFR_RNDN);
            if (!mpfr_zero_p(c->e0)) mpfr_div(c->e0 + 1, c->e0 + 1, c->e0, MPFR_RNDN);
            mpfr_abs(c->e0 + 1, c->e0 + 1, MPFR_RNDN);
            fputc(',', c->f);
            cl_cli_print_real(c->f, c->e0 + 1);
        }
    }
    fputc('\n', c->f);
}

/* The last column: the energy error, relative unless the initial energy is 0. */
static const char *energy_error_name(const sim_ctx *c) { return mpfr_zero_p(c->e0) ? "|E-E0|" : "|E-E0|/|E0|"; }

static void write_header(const sim_ctx *c)
{
    const cl_cmd_system *cs = c->cs;
    fprintf(c->f, "t");
    for (size_t i = 0; i < cs->dim; i++) {
        char name[32];
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, name, sizeof name);
        fprintf(c->f, ",%s", name);
    }
    for (int k = 0; k < c->ninv; k++) fprintf(c->f, ",%s", cs->sys->invariant_names[k]);
    if (c->e0) fprintf(c->f, ",%s", energy_error_name(c));
    fprintf(c->f, "\n");
}

static int observe(sim_ctx *c, mpfr_srcptr t, mpfr_srcptr x);

/* The header and the initial row, once the integrator has accepted the run;
   \p x is the state of the first row (the Lie methods': the one held back). */
static void start_output(sim_ctx *c, mpfr_srcptr x)
{
    if (c->started) return;
    c->started = 1;
    mpfr_ptr x0 = c->x0;
    if (x0) x = x0;
    /* The energy comes first among the invariants. */
    if (c->ninv && !strcmp(c->cs->sys->invariant_names[0], "energy") &&
        c->cs->sys->invariants(c->cs->inst, c->cs->form, c->inv, x) == 0 &&
        (c->e0 = cl_rvec_new_mp(2, mpfr_get_prec(x))))
        mpfr_set(c->e0, c->inv, MPFR_RNDN);
    write_header(c);
    if (!x0) return;
    mpfr_t t0;
    mpfr_init2(t0, mpfr_get_prec(x0));
    mpfr_set_zero(t0, 1);
    observe(c, t0, x0);
    mpfr_clear(t0);
}

static int observe(sim_ctx *c, mpfr_srcptr t, mpfr_srcptr x)
{
    start_output(c, x);
    c->last_written = c->step++ % c->every == 0;
    if (c->last_written) write_row(c, t, x);
    else mpfr_set(c->tlast, t, MPFR_RNDN);
    if (c->tty && c->step % 200 == 0) fprintf(stderr, "\rt = %.6g of %g", mpfr_get_d(t, MPFR_RNDN), c->t1);
    return ferror(c->f) ? CL_ENOMEM : 0;
}

static int ode_observer(mpfr_srcptr t, mpfr_srcptr x, size_t n, void *ctx)
{
    (void)n;
    return observe(ctx, t, x);
}

static int lie_observer(void *ctx, mpfr_srcptr t, mpfr_srcptr x) { return observe(ctx, t, x); }

/* The CSV drawn beside the --plot file, kept on stdout when no --out names a file for it. */
static int copy_to_stdout(const char *csv)
{
    FILE *in = fopen(csv, "r");
    if (!in) return cl_cli_error("cannot read back the CSV", csv);
    int st = cl_cli_copy_to_stdout(in, csv);
    fclose(in);
    return st;
}

/* log10 |x| of a nonzero x of any exponent. */
static double log10_of(mpfr_srcptr x)
{
    long e;
    double m = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return log10(fabs(m)) + (double)e * log10(2.0);
}

static int offers_lie(const cl_system *s) { return s->lie_simulate != NULL; }

static int cmd_simulate(int argc, char **argv)
{
    int json, jst = cl_json_take_format(&argc, argv, &json);
    if (jst || json) return jst ? jst : cl_json_csv_command(cmd_simulate, argc, argv, "chartless-simulate/1");
    static const cl_cmd_option extra[] = {
        CL_CMD_TEXT_OPTION("integrator", sim_opts, integrator), CL_CMD_TEXT_OPTION("t", sim_opts, t),
        CL_CMD_TEXT_OPTION("h", sim_opts, h), CL_CMD_TEXT_OPTION("tol", sim_opts, tol),
        CL_CMD_OPTION("stages", OPT_STAGES), CL_CMD_OPTION("columns", OPT_COLUMNS), CL_CMD_OPTION("every", OPT_EVERY),
        CL_CMD_TEXT_OPTION("out", sim_opts, out), CL_CMD_TEXT_OPTION("plot", sim_opts, plot),
        CL_CMD_OPTION("max-steps", OPT_MAX_STEPS), CL_CMD_OPTIONS_END};
    sim_opts o = {.integrator = NULL, .t = "10", .stages = 2, .columns = 0, .every = 1};
    cl_cmd_args a;
    int st = cl_cmd_scan(argc, argv, extra, on_option, &o, 0, &a);
    if (st) return st;
    if (a.help) {
        fputs(help_text, stdout);
        if (a.system) {
            const cl_system *s = cl_system_find(a.system);
            if (s) cl_cmd_system_help(s);
        }
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    /* High precision needs the order of GBS: rkf78 would take ~tol^(-1/8) steps */
    if (!o.integrator) o.integrator = a.bits <= 113 ? "rkf78" : "gbs";
    static const char *const lie_methods[] = {"lie-euler", "rkmk4", "cf4", "rkmk45", NULL};
    int lie = 0;
    for (int i = 0; lie_methods[i]; i++) lie |= !strcmp(o.integrator, lie_methods[i]);
    if (!strcmp(o.integrator, "gl")) o.integrator = "gauss"; /* Gauss–Legendre's short name */
    cl_ode_method method = lie ? 0 : cl_ode_method_from_name(o.integrator);
    if (!lie && !method) {
        cl_cmd_args_free(&a);
        return cl_cli_error("unknown integrator (rkf78, gbs, gauss, rk4, lie-euler, rkmk4, cf4, rkmk45)", o.integrator);
    }
    int fixed = lie ? strcmp(o.integrator, "rkmk45") != 0 : (method == CL_ODE_RK4 || method == CL_ODE_GAUSS);

    /* Before the integration, not after it: what --plot needs. */
    if (o.plot) st = cl_cli_check_plot(o.plot);
    if (!st && o.plot && o.out && strpbrk(o.out, "'\\\n")) /* gnuplot reads the CSV by this name */
        st = cl_cli_error("with --plot, the --out file name must not contain quotes, backslashes or newlines", o.out);
    cl_cmd_system cs;
    if (!st) st = cl_cmd_open_system(&a, &cs);
    if (st) {
        cl_cmd_args_free(&a);
        return st;
    }
    if (lie && !cs.sys->lie_simulate) {
        cl_cmd_args_free(&a);
        cl_cmd_close_system(&cs);
        char with[256], msg[400];
        cl_cmd_systems_with(with, sizeof with, offers_lie);
        snprintf(msg, sizeof msg, "this system has no Lie group integrator (systems that have one: %s)", with);
        return cl_cli_error(msg, o.integrator);
    }
    cl_prec_t p = (cl_prec_t)a.bits;
    mpfr_ptr x = cl_rvec_new_mp(cs.dim, p), sc = cl_rvec_new_mp(5, p);
    mpfr_ptr t = sc, t1 = sc + 1, h = sc + 2, tol = sc + 3;
    int ret = CL_EXIT_OK;
    long max_steps = o.max_steps ? o.max_steps : DEFAULT_MAX_STEPS;
    if (cl_real_from_str_mp(t1, o.t) || mpfr_sgn(t1) < 0) ret = cl_cli_error("--t must be a number >= 0", o.t);
    if (!ret && o.h && (cl_real_from_str_mp(h, o.h) || mpfr_sgn(h) <= 0)) ret = cl_cli_error("--h must be a positive number", o.h);
    if (!ret && !o.h) {
        if (fixed) cl_real_from_str_mp(h, "0.01");
        else mpfr_set_zero(h, 1);
    }
    if (!ret && o.tol && (cl_real_from_str_mp(tol, o.tol) || mpfr_sgn(tol) <= 0)) ret = cl_cli_error("--tol must be a positive number", o.tol);
    /* order + 1 of the error estimate of the low-order adaptive methods (0: none or GBS) */
    int q1 = !strcmp(o.integrator, "rkf78") ? 8 : !strcmp(o.integrator, "rkmk45") ? 5 : 0;
    if (!ret && !o.tol) {
        long floor_exp = q1 == 8 ? -96 : q1 == 5 ? -50 : LONG_MIN;
        long e = 20 - (long)p < floor_exp ? floor_exp : 20 - (long)p;
        mpfr_set_ui_2exp(tol, 1, e, MPFR_RNDN);
        if (e != 20 - (long)p)
            fprintf(stderr, "note: %s reaches about 2^%ld at most in reasonable time; --tol 2^%ld (use gbs for %ld bits)\n",
                    o.integrator, e, e, (long)p);
    }
    /* a --tol given that the method cannot reach: by the estimate t * (sigma tol)^(-1/(order+1)) of its
       steps, before the run (the defaults are chosen to be reachable; a run that still needs more
       steps than --max-steps is ended by the integrator) */
    if (!ret && q1 && !fixed && o.tol) {
        double sigma = lie ? 1.0 : cl_ode_global_tol_factor(method);
        double l10 = log10_of(t1) - (log10(sigma) + log10_of(tol)) / q1;
        if (mpfr_sgn(t1) > 0 && l10 > log10((double)max_steps)) {
            char msg[400];
            snprintf(msg, sizeof msg, "%s (error order %d) would need about 1e%.0f steps to reach --t %s at this --tol, "
                     "more than the %ld allowed; use --integrator gbs, a larger --tol or raise --max-steps",
                     o.integrator, q1 - 1, l10, o.t, max_steps);
            ret = cl_cli_error(msg, o.tol);
        }
    }
    if (!ret && lie && !o.h && !fixed) cl_real_from_str_mp(h, "0.01");
    if (!ret) ret = cl_cmd_read_state(&cs, stdin, x);

    sim_ctx c = {.cs = &cs, .fcs = &cs, .every = o.every, .tty = isatty(2), .t1 = mpfr_get_d(t1, MPFR_RNDN), .tlast = sc + 4};
    if (!ret && fixed) { /* the work of a fixed-step run, before it starts */
        mpfr_t steps;
        mpfr_init2(steps, 64);
        mpfr_div(steps, t1, h, MPFR_RNDU);
        mpfr_ceil(steps, steps);
        if (mpfr_cmp_si(steps, max_steps) > 0) {
            char msg[300];
            mpfr_snprintf(msg, sizeof msg, "this run would take %.3Rg steps (--t / --h), more than the %ld allowed; "
                          "raise --max-steps to run it", steps, max_steps);
            ret = cl_cli_error(msg, o.h ? o.h : "--h");
        }
        mpfr_clear(steps);
    }
    /* The CSV goes to --out, or beside the --plot file while it is drawn; the
       PNG is drawn into a temporary file of its own. */
    cl_cli_out out = {.slot = -1}, png = {.slot = -1};
    const char *target = o.out ? o.out : o.plot, *where = target ? target : "stdout";
    if (!ret && o.plot && !(ret = cl_cli_out_open(&png, o.plot))) ret = cl_cli_out_close(&png);
    if (!ret) {
        if (target) {
            ret = cl_cli_out_open(&out, target);
            c.f = out.f;
        } else {
            c.f = stdout;
        }
    }
    if (!ret) {
        while (cs.sys->invariant_names && cs.sys->invariant_names[c.ninv]) c.ninv++;
        c.inv = c.ninv ? cl_rvec_new_mp((size_t)c.ninv, p) : NULL;
        char err[256] = "";
        if (lie) {
            c.x0 = cl_rvec_new_mp(cs.dim, p);
            for (size_t i = 0; i < cs.dim; i++) mpfr_set(c.x0 + i, x + i, MPFR_RNDN);
            st = cs.sys->lie_simulate(cs.inst, cs.form, o.integrator, x, t1, h, tol, tol, max_steps, lie_observer, &c, err,
                                      sizeof err);
        } else {
            cl_ode_ws_mp *ws = NULL;
            int param = method == CL_ODE_GAUSS ? (int)o.stages : method == CL_ODE_GBS ? (int)o.columns : 0;
            st = cl_ode_ws_new_mp(&ws, cs.dim, p, method, param);
            /* GBS calls the field with guard bits: the system is set up a second time
               at that precision, its parameters read from their decimal strings there */
            cl_cmd_system gcs = {0};
            if (!st && cl_ode_ws_rhs_prec_mp(ws) != p) {
                cl_cmd_args ga = a;
                ga.bits = (long)cl_ode_ws_rhs_prec_mp(ws);
                if (cl_cmd_open_system(&ga, &gcs)) st = CL_ENOMEM;
                else c.fcs = &gcs;
            }
            if (!st && !fixed) st = cl_ode_set_global_tol_mp(ws, tol);
            if (!st && !fixed) {
                mpfr_set_zero(t, 1);
                st = cl_ode_set_limits_mp(ws, t, t, max_steps);
            }
            if (!st) {
                cl_ode_set_observer_mp(ws, ode_observer, &c);
                mpfr_set_zero(t, 1);
                cl_ode_stats stats;
                st = cl_ode_integrate_mp(ws, field, &c, t, x, t1, h, &stats);
                if (st == 0 && c.tty)
                    fprintf(stderr, "\r%ld steps, %ld rejected, %ld evaluations\n", stats.steps, stats.rejected, stats.rhs_evals);
            }
            cl_ode_ws_free_mp(ws);
            if (c.fcs != &cs) cl_cmd_close_system(&gcs);
            c.fcs = &cs;
        }
        if (c.tty) fprintf(stderr, "\r%40s\r", "");
        if (st >= 0) {
            start_output(&c, x); /* a run that took no step */
            if (!c.last_written) write_row(&c, c.tlast, x); /* the final state always */
        }
        if (ferror(c.f) || (c.f == stdout && fflush(stdout))) {
            ret = cl_cli_error("cannot write", where);
        } else if (st < 0) {
            if (st == CL_ENOCONV && !fixed)
                fprintf(stderr, "error: the integration failed: no end within --max-steps %ld steps\n", max_steps);
            else if (st == CL_EDOMAIN || st == CL_EPARAM) { /* the integrator refused the run it was given */
                char msg[300];
                snprintf(msg, sizeof msg, "the integration failed: %s", err[0] ? err : cl_strerror(st));
                cl_cli_error(msg, o.integrator);
            } else
                fprintf(stderr, "error: the integration failed: %s\n", err[0] ? err : cl_strerror(st));
            ret = st == CL_EDOMAIN || st == CL_EPARAM ? CL_EXIT_USAGE : CL_EXIT_FAIL;
        }
        if (target) {
            if (!ret) ret = cl_cli_out_close(&out);
            if (!ret && o.plot && !(ret = cl_cli_plot_simulation(&cs, out.tmp, png.tmp, o.plot, c.ninv, c.e0 ? energy_error_name(&c) : NULL))) ret = cl_cli_out_commit(&png);
            if (!ret && o.out) ret = cl_cli_out_commit(&out);
            if (!ret && !o.out) ret = copy_to_stdout(out.tmp);
            cl_cli_out_abort(&out);
        }
    }
    cl_cli_out_abort(&png);
    cl_rvec_free_mp(c.inv);
    cl_rvec_free_mp(c.x0);
    cl_rvec_free_mp(c.e0);
    cl_rvec_free_mp(x);
    cl_rvec_free_mp(sc);
    cl_cmd_close_system(&cs);
    cl_cmd_args_free(&a);
    return ret;
}

static const cl_command simulate_command = {"simulate", "integrate a system and write CSV (t, state, invariants), optionally a plot",
                                            cmd_simulate};
CL_COMMAND_REGISTER(simulate_command)

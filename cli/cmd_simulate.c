/**
 * \file cmd_simulate.c
 * \brief `chartless simulate`: integrate a registered system or a model and
 *        write CSV (t, state, invariants), optionally drawn with gnuplot.
 *
 * The command runs in four stages: validate (options, system, state, the
 * work the run will take: all before any output), open (the output files),
 * run (the integrator of src/'s table, cl_integrator_find(), with progress
 * on stderr and SIGINT/SIGTERM ending it after the current step) and emit
 * (the last row, the verdict, the files committed). Output goes to a
 * temporary file renamed into place at the end, so a failed run leaves no
 * partial file under the name asked for; an interrupted one keeps its rows
 * as FILE.partial. On stdout nothing is written before the integrator has
 * accepted the run.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "json.h"
#include "plot_sim.h"
#include "sim_enclose.h"
#include "sim_graph.h"
#include "sim_lie.h"
#include "sim_ode.h"
#include "sim_stop.h"
#include "system.h"

static const char *help_text =
    "usage: chartless simulate (--system NAME | --model FILE) [--form FORM] [--bits B] [OPTIONS]\n"
    "                          [--param name=value | --name value ...] < INITIAL_STATE\n"
    "\n"
    "Integrate a named system, or one written as a model file, from t = 0 and write CSV: t,\n"
    "the state components, and the system's invariants (energy first) at every accepted step.\n"
    "\n"
    "options:\n"
    CL_CMD_HELP_SYSTEM_OPTIONS("simulate")
    "  --integrator M   rkf78 (adaptive Fehlberg 7(8); the default at 53 bits), gbs\n"
    "                   (adaptive Gragg-Bulirsch-Stoer, order growing with the precision; the\n"
    "                   default above 53 bits, but see taylor), gauss (implicit\n"
    "                   Gauss-Legendre, symplectic, fixed step; also 'gl'), rk4 (fixed step);\n"
    "                   lie-euler, rkmk4, cf4, rkmk45: Lie group methods, on the systems\n"
    "                   that offer them (chartless systems NAME says); taylor (Taylor series\n"
    "                   of order ceil(-ln(TOL)/2 + 1), heyoka's rules) on the systems whose\n"
    "                   field is an expression graph (the default there above 256 bits, and\n"
    "                   above 53 bits when the field has sin, cos, tan, exp, log, sqrt or\n"
    "                   atan2 of the state or when TOL is below 2^(16-B), which gbs cannot\n"
    "                   resolve)\n"
    "  --t T            final time, 0 or more (default 10; 0 writes the initial row with its\n"
    "                   invariants); a time-dependent model starts at t = 0\n"
    "  --h H            step: fixed step of rk4, gauss and the Lie methods (default 0.01);\n"
    "                   initial step of the adaptive methods (default: chosen)\n"
    "  --tol TOL        the error wanted at the end of the run, max |x - x*| / (1 + |x*|) with\n"
    "                   x* the exact solution (rkf78, gbs; rkmk45: its per-step tolerance).\n"
    "                   What is promised is the control, not the result: each step's error\n"
    "                   estimate is kept below 1/32 (rkf78) or 1/16 (gbs) of TOL, but not below\n"
    "                   2^(12-B), what B bits resolve (so a TOL under 2^(16-B) acts as\n"
    "                   2^(16-B) for gbs). That delivers TOL on the double pendulum of\n"
    "                   bench/bench_ode --chain to t = 2 at 53 to 1024 bits; the errors of many\n"
    "                   steps add up and grow along longer or unstable motions (the pendulum\n"
    "                   x'' = -9.8 sin x from x = 1 at 256 bits to t = 10: 6e-40 for TOL 1e-40).\n"
    "                   So simulate estimates at the end the error it reached (--estimate) and\n"
    "                   prints it on stderr, a warning when above TOL. Default 2^(20-B) (about\n"
    "                   1e-10 at 53 bits), but not below 2^-96 for rkf78 and 2^-50 for rkmk45\n"
    "                   (their order would need too many steps). A TOL given that needs more\n"
    "                   than --max-steps steps by the estimate t * tol^(-1/(order+1)) is\n"
    "                   refused before the run\n"
    "  --estimate E     rerun (the default with rkf78, gbs and rkmk45): after the run, integrate\n"
    "                   again with gbs at B+32 bits and TOL/1024, whose own error is ~1000 times\n"
    "                   smaller, and report max |x - x*| / (1 + |x*|) against it on stderr (it\n"
    "                   costs about one more run: a high-order gbs at a 1000 times smaller\n"
    "                   tolerance takes few more steps); none: no estimate (the default with\n"
    "                   taylor, whose order and step follow from TOL as heyoka's)\n"
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
    "  --event EXPR     write the rows at the zeros of EXPR only, an expression of the state\n"
    "                   (components by name or as x0, x1, ..., a model's vectors by name as in\n"
    "                   its file, q.x or dot(q, q'); t the time; docs/models.md's\n"
    "                   syntax), located to the working precision: on the step's polynomial\n"
    "                   with taylor, by re-integrating the partial step otherwise\n"
    "  --events M       first (default: the run ends at the first zero) or every (to --t)\n"
    "  --event-direction D  any (default), rising (EXPR from < 0 to >= 0) or falling\n"
    "  --enclose        a validated run on Arb balls (docs/enclose.md): at every step t, each\n"
    "                   component X and X.rad, E and the invariants likewise (balls proven to hold\n"
    "                   the exact motion from the decimal state); with --event, t and t.rad of an\n"
    "                   interval holding each zero; exit 1 when the enclosure cannot go on\n"
    "  --format FMT     text (CSV, the default) or json: the same columns and rows as one JSON\n"
    "                   object (docs/simulate.schema.json)\n"
    "  -h, --help       this text; with --system NAME or --model FILE, also its parameters\n"
    "\n"
    "A run longer than 2 s reports its progress on stderr once a second. SIGINT (Ctrl-C) or\n"
    "SIGTERM ends it after the current step: the rows computed so far are kept, in\n"
    "FILE.partial with --out FILE, and stderr says where the run stopped.\n"
    "\n"
    "exit status: 0 success, 1 the integration failed, 2 bad input; an interrupted run ends\n"
    "by its signal\n";

enum { OPT_STAGES = 1000, OPT_COLUMNS, OPT_EVERY, OPT_MAX_STEPS, OPT_ESTIMATE };

/* Steps a run may take unless --max-steps allows more. */
#define DEFAULT_MAX_STEPS 1000000L
/* Without --integrator, taylor above this precision where the field is a graph: at 512 and 1024
   bits it took 0.3 to 0.9 of gbs's CPU time on the shipped models, at 256 bits up to 1.6; above
   53 bits where the field computes a transcendental function of the state, whose every GBS
   evaluation costs what a Taylor order does with two convolutions: 0.2 to 0.8 of gbs's at 113
   and 256 bits; and above 53 bits where --tol is below what gbs resolves (docs/integrators.md). */
#define TAYLOR_DEFAULT_ABOVE 256
#define TAYLOR_TRANSCENDENTAL_ABOVE 53

typedef struct sim_opts {
    const char *integrator, *t, *h, *tol, *out, *plot, *event, *events, *event_dir;
    long stages, columns, every, max_steps;
    int estimate; /* --estimate: 0 the method's default (rerun, none with taylor), 1 rerun, 2 none */
    int enclose;  /* --enclose */
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
    case OPT_ESTIMATE:
        if (strcmp(arg, "rerun") && strcmp(arg, "none")) return cl_cli_error("--estimate must be rerun or none", arg);
        o->estimate = !strcmp(arg, "none") ? 2 : 1;
        return 0;
    case OPT_MAX_STEPS:
        return cl_parse_whole(arg, 1, 1000000000000L, &o->max_steps) ? cl_cli_error("--max-steps must be a whole number from 1 to 10^12", arg) : 0;
    }
    return CL_EXIT_USAGE;
}

/* A run: what the command line asked for, and what the stages set up. */
typedef struct sim_run {
    sim_opts o;
    cl_cmd_args a;
    const cl_integrator *m;
    int defaulted; /* no --integrator: the precision's default */
    cl_cmd_system cs;
    cl_sim_graph gr; /* --event and the field of taylor */
    cl_prec_t p;
    mpfr_ptr x, sc; /* the state; scratch t, t1, h, tol, and the time of the latest step */
    mpfr_ptr t, t1, h, tol;
    long max_steps;
    cl_cli_out out, png; /* the CSV (--out, or beside the --plot file) and the PNG */
    const char *target;  /* the CSV's file: --out, else --plot, else none (stdout) */
} sim_run;

/* What the integrator's observer needs. */
typedef struct sim_ctx {
    const cl_cmd_system *cs;
    FILE *f;
    mpfr_ptr inv;
    int ninv;
    long step, every;
    double t1;
    int write_errno;  /* errno of the first failed write */
    int last_written; /* whether the latest step's row is out (--every may skip it) */
    mpfr_ptr tlast;   /* time of the latest step (where an interrupted run stopped) */
    int started;      /* whether the header is out */
    int events_only;  /* --event: rows at its zeros only */
    mpfr_ptr x0;      /* the Lie methods' initial state, held back until their first step */
    mpfr_ptr e0;      /* the initial energy, then scratch for the energy error */
    cl_cli_progress progress;
} sim_ctx;

/* ------------------------------------------------------------ the rows */

/* The energy error |E - E0| / |E0|, or |E - E0| when E0 = 0, into c->e0[1]. */
static void set_energy_error(sim_ctx *c)
{
    mpfr_sub(c->e0 + 1, c->inv, c->e0, MPFR_RNDN);
    mpfr_abs(c->e0 + 1, c->e0 + 1, MPFR_RNDN);
    if (!mpfr_zero_p(c->e0)) mpfr_div(c->e0 + 1, c->e0 + 1, c->e0, MPFR_RNDN);
    mpfr_abs(c->e0 + 1, c->e0 + 1, MPFR_RNDN);
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
        if (c->e0) {
            set_energy_error(c);
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

/* After every accepted step: the row, the progress line, and whether to go
   on (0), stop at a signal (1) or end at a failed write (CL_ENOMEM). */
static int observe(sim_ctx *c, mpfr_srcptr t, mpfr_srcptr x)
{
    start_output(c, x);
    c->last_written = c->events_only || c->step % c->every == 0;
    if (!c->events_only && c->step % c->every == 0) write_row(c, t, x);
    c->step++;
    mpfr_set(c->tlast, t, MPFR_RNDN);
    if (cl_cli_progress_due(&c->progress)) {
        double tn = mpfr_get_d(t, MPFR_RNDN);
        cl_cli_progress_line(&c->progress, "simulate: t = %.6g of %g (%.1f %%), %ld steps, %.0f s", tn, c->t1,
                             c->t1 > 0 ? 100 * tn / c->t1 : 100.0, c->step - 1, cl_cli_seconds() - c->progress.start);
    }
    if (ferror(c->f)) {
        if (!c->write_errno) c->write_errno = errno;
        return CL_ENOMEM;
    }
    return cl_sim_stop_signal() ? 1 : 0;
}

static int ode_observer(mpfr_srcptr t, mpfr_srcptr x, size_t n, void *ctx)
{
    (void)n;
    return observe(ctx, t, x);
}

static int lie_observer(void *ctx, mpfr_srcptr t, mpfr_srcptr x) { return observe(ctx, t, x); }

/* ------------------------------------------------------------ the CSV beside the plot */

/* The CSV drawn beside the --plot file, kept on stdout when no --out names a file for it. */
static int copy_to_stdout(const char *csv)
{
    FILE *in = fopen(csv, "r");
    if (!in) return cl_cli_error("cannot read back the CSV", csv);
    int st = cl_cli_copy_to_stdout(in, csv);
    fclose(in);
    return st;
}

/* ------------------------------------------------------------ validate */

/* The integrator asked for (default: rkf78 at 53 bits, gbs above; taylor where the system's field
   is a graph above 256 bits, or above 53 with a transcendental function of the state or a --tol
   below 2^(16-B), chosen once the system is open: docs/integrators.md). */
static int choose_integrator(sim_run *r)
{
    /* High precision needs the order of GBS: rkf78 would take ~tol^(-1/8) steps */
    if (!r->o.integrator) r->o.integrator = r->a.bits <= 53 ? "rkf78" : "gbs", r->defaulted = 1;
    if ((r->m = cl_integrator_find(r->o.integrator))) return CL_EXIT_OK;
    const char *names[16];
    char list[300] = "the integrators:";
    size_t n = 0, k = strlen(list);
    for (const cl_integrator *m; n < 16 && (m = cl_integrator_get(n)); n++) {
        names[n] = m->name;
        k += (size_t)snprintf(list + k, k < sizeof list ? sizeof list - k : 0, "%s %s", n ? "," : "", m->name);
    }
    return cl_cli_unknown("integrator", r->o.integrator, names, n, "", list);
}

static int offers_lie(const cl_system *s) { return s->lie_simulate != NULL; }

/* The system or model, and a Lie method only on a system that has them. */
static int open_system(sim_run *r)
{
    int st = cl_cmd_open_system(&r->a, &r->cs);
    if (st || !r->m->lie || r->cs.sys->lie_simulate) return st;
    char with[256], msg[400];
    cl_cmd_systems_with(with, sizeof with, offers_lie);
    snprintf(msg, sizeof msg, "this system has no Lie group integrator (systems that have one: %s)", with);
    return cl_cli_error(msg, r->o.integrator);
}

/* --t, --h and --tol at the working precision, with their defaults. */
static int read_times(sim_run *r)
{
    const sim_opts *o = &r->o;
    if (cl_real_from_str_mp(r->t1, o->t) || mpfr_sgn(r->t1) < 0) return cl_cli_error("--t must be a number >= 0", o->t);
    if (o->h && (cl_real_from_str_mp(r->h, o->h) || mpfr_sgn(r->h) <= 0)) return cl_cli_error("--h must be a positive number", o->h);
    /* the fixed step, and the Lie methods' initial step */
    if (!o->h && (!r->m->adaptive || r->m->lie)) cl_real_from_str_mp(r->h, "0.01");
    else if (!o->h) mpfr_set_zero(r->h, 1);
    if (o->tol && (cl_real_from_str_mp(r->tol, o->tol) || mpfr_sgn(r->tol) <= 0)) return cl_cli_error("--tol must be a positive number", o->tol);
    if (o->tol) return CL_EXIT_OK;
    long e = 20 - (long)r->p, floor_exp = r->m->tol_floor_log2 ? r->m->tol_floor_log2 : LONG_MIN;
    if (e < floor_exp) {
        fprintf(stderr, "note: %s reaches about 2^%ld at most in reasonable time; --tol 2^%ld (use gbs for %ld bits)\n",
                o->integrator, floor_exp, floor_exp, (long)r->p);
        e = floor_exp;
    }
    mpfr_set_ui_2exp(r->tol, 1, e, MPFR_RNDN);
    return CL_EXIT_OK;
}

/* log10 |x| of a nonzero x of any exponent. */
static double log10_of(mpfr_srcptr x)
{
    long e;
    double m = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return log10(fabs(m)) + (double)e * log10(2.0);
}

/* A --tol given that the method cannot reach within --max-steps, by the estimate
   t * (sigma tol)^(-1/(order+1)) of its steps, refused before the run with what
   would reach it (the defaults are chosen to be reachable; a run that still needs
   more steps than --max-steps is ended by the integrator). */
static int check_reachable(const sim_run *r)
{
    int q1 = r->m->estimate_order + 1;
    if (!r->o.tol || !r->m->estimate_order || mpfr_sgn(r->t1) <= 0) return CL_EXIT_OK;
    double l10sigma = log10(r->m->lie ? 1.0 : cl_ode_global_tol_factor((cl_ode_method)r->m->method));
    double l10 = log10_of(r->t1) - (l10sigma + log10_of(r->tol)) / q1, allowed = log10((double)r->max_steps);
    if (l10 <= allowed) return CL_EXIT_OK;
    /* the smallest --tol within the steps allowed: log10 tol = q1 (log10 t - log10 N) - log10 sigma */
    double l10tol = q1 * (log10_of(r->t1) - allowed) - l10sigma;
    /* the steps it needs, rounded up to two digits */
    double scale = pow(10, floor(l10) - 1), need = ceil(pow(10, l10) / scale) * scale;
    char msg[500];
    snprintf(msg, sizeof msg, "%s (error order %d) would need about %.0f steps to reach --t %s at this --tol, more "
             "than the %ld of --max-steps; use --integrator gbs (its order grows with --bits), --tol 1e%.0f or "
             "larger, or --max-steps %.0f", r->o.integrator, q1 - 1, need, r->o.t, r->max_steps, ceil(l10tol), need);
    return cl_cli_error(msg, r->o.tol);
}

/* The work of a fixed-step run, before it starts. */
static int check_fixed_steps(const sim_run *r)
{
    if (r->m->adaptive) return CL_EXIT_OK;
    mpfr_t steps;
    mpfr_init2(steps, 64);
    mpfr_div(steps, r->t1, r->h, MPFR_RNDU);
    mpfr_ceil(steps, steps);
    int st = CL_EXIT_OK;
    if (mpfr_cmp_si(steps, r->max_steps) > 0) {
        char msg[300];
        mpfr_snprintf(msg, sizeof msg, "this run would take %.3Rg steps (--t / --h), more than the %ld allowed; "
                      "raise --max-steps to run it", steps, r->max_steps);
        st = cl_cli_error(msg, r->o.h ? r->o.h : "--h");
    }
    mpfr_clear(steps);
    return st;
}

/* Whether --tol asks for less than 2^(16-B), which gbs's error estimate cannot resolve at B bits
   (docs/integrators.md): taylor then, where it can, delivers what gbs would miss. */
static int below_gbs_reach(const char *tol, long bits)
{
    if (!tol) return 0;
    double v = strtod(tol, NULL);
    return v >= 0 && (v == 0 || log2(v) < 16 - (double)bits);
}

/* Everything about the run before any output: options, system, times, state, work. */
static int validate(sim_run *r)
{
    const sim_opts *o = &r->o;
    int st = choose_integrator(r);
    /* Before the integration, not after it: what --plot needs. */
    if (!st && o->plot) st = cl_cli_check_plot(o->plot);
    if (!st && o->plot) st = cl_cli_plot_check_beside(o->plot);
    if (!st && o->plot && o->out && strpbrk(o->out, "'\\\n")) /* gnuplot reads the CSV by this name */
        st = cl_cli_error("with --plot, the --out file name must not contain quotes, backslashes or newlines", o->out);
    if (!st) st = open_system(r);
    int transcendental = 0;
    if (!st && r->defaulted && r->a.bits > TAYLOR_TRANSCENDENTAL_ABOVE && cl_sim_graph_offers(&r->cs, &transcendental) &&
        (r->a.bits > TAYLOR_DEFAULT_ABOVE || transcendental || below_gbs_reach(o->tol, r->a.bits)))
        r->m = cl_integrator_find(r->o.integrator = "taylor");
    if (!st && !o->event && (o->events || o->event_dir)) st = cl_cli_error("--events and --event-direction need --event", o->events ? o->events : o->event_dir);
    if (!st && o->enclose && (o->out || o->plot)) st = cl_cli_error("--enclose writes to stdout and has no --out or --plot yet", "--enclose");
    if (!st) st = cl_sim_graph_open(&r->gr, &r->cs, (cl_prec_t)r->a.bits, o->enclose || (r->m->method == CL_ODE_TAYLOR && !r->m->lie),
                                    o->event, o->event_dir, o->events);
    if (st) return st;
    r->p = (cl_prec_t)r->a.bits;
    r->max_steps = o->max_steps ? o->max_steps : DEFAULT_MAX_STEPS;
    r->x = cl_rvec_new_mp(r->cs.dim, r->p);
    r->sc = cl_rvec_new_mp(5, r->p);
    if (!r->x || !r->sc) return cl_cli_error("out of memory", NULL);
    r->t = r->sc, r->t1 = r->sc + 1, r->h = r->sc + 2, r->tol = r->sc + 3;
    if ((st = read_times(r)) || (st = check_reachable(r))) return st;
    if ((st = cl_cmd_read_state(&r->cs, stdin, r->x))) return st;
    return check_fixed_steps(r);
}

/* ------------------------------------------------------------ open */

/* The CSV goes to --out, or beside the --plot file while it is drawn; the
   PNG is drawn into a temporary file of its own. */
static int open_outputs(sim_run *r, sim_ctx *c)
{
    int st = CL_EXIT_OK;
    r->target = r->o.out ? r->o.out : r->o.plot;
    if (r->o.plot && !(st = cl_cli_out_open(&r->png, r->o.plot))) st = cl_cli_out_close(&r->png);
    if (!st && r->target) st = cl_cli_out_open(&r->out, r->target);
    c->f = r->target ? r->out.f : stdout;
    return st;
}

/* ------------------------------------------------------------ run */

/* A zero of --event: its row. */
static int event_row(void *ctx, mpfr_srcptr t, mpfr_srcptr x)
{
    sim_ctx *c = ctx;
    start_output(c, x);
    write_row(c, t, x);
    mpfr_set(c->tlast, t, MPFR_RNDN);
    return ferror(c->f) ? CL_ENOMEM : 0;
}

static int run_lie(sim_run *r, sim_ctx *c, char *err, size_t errlen)
{
    c->x0 = cl_rvec_new_mp(r->cs.dim, r->p);
    if (!c->x0) return CL_ENOMEM;
    for (size_t i = 0; i < r->cs.dim; i++) mpfr_set(c->x0 + i, r->x + i, MPFR_RNDN);
    if (r->gr.event < 0)
        return r->cs.sys->lie_simulate(r->cs.inst, r->cs.form, r->m->name, r->x, r->t1, r->h, r->tol, r->tol, r->max_steps,
                                       lie_observer, c, err, errlen);
    cl_sim_lie run = {.cs = &r->cs, .method = r->m->name, .h = r->h, .tol = r->tol, .max_steps = r->max_steps,
                      .obs = lie_observer, .obs_ctx = c, .err = err, .errlen = errlen};
    c->events_only = 1;
    mpfr_set_zero(r->t, 1);
    return cl_sim_lie_event_run(&run, &r->gr, r->t, r->x, r->t1, event_row, c);
}

static int run_ode(sim_run *r, sim_ctx *c, cl_ode_stats *stats)
{
    cl_ode_method method = (cl_ode_method)r->m->method;
    int param = method == CL_ODE_GAUSS ? (int)r->o.stages : method == CL_ODE_GBS ? (int)r->o.columns : 0;
    cl_sim_ode run = {.a = &r->a, .cs = &r->cs, .method = method, .param = param, .tol = r->m->adaptive ? r->tol : NULL,
                      .max_steps = r->max_steps, .obs = ode_observer, .obs_ctx = c};
    mpfr_set_zero(r->t, 1);
    if (method != CL_ODE_TAYLOR && r->gr.event < 0) return cl_sim_ode_run(&run, r->t, r->x, r->t1, r->h, stats);
    c->events_only = r->gr.event >= 0;
    return cl_sim_graph_run(&r->gr, &run, method == CL_ODE_TAYLOR, r->t, r->x, r->t1, r->h, stats, event_row, c);
}

/* The initial state, kept for the end-of-run error estimate of an adaptive run (NULL: none). */
static mpfr_ptr estimate_start(const sim_run *r)
{
    int taylor = r->m->method == CL_ODE_TAYLOR && !r->m->lie; /* its order and step as heyoka's: no rerun unless asked */
    if (!r->m->adaptive || r->o.estimate == 2 || (taylor && r->o.estimate != 1) || r->o.event || mpfr_zero_p(r->t1))
        return NULL;
    mpfr_ptr x0 = cl_rvec_new_mp(r->cs.dim, r->p);
    for (size_t i = 0; x0 && i < r->cs.dim; i++) mpfr_set(x0 + i, r->x + i, MPFR_RNDN);
    return x0;
}

/* The integration, SIGINT and SIGTERM caught while it runs; its status
   (negative: failed, with a message in err). */
static int run(sim_run *r, sim_ctx *c, char *err, size_t errlen)
{
    while (r->cs.sys->invariant_names && r->cs.sys->invariant_names[c->ninv]) c->ninv++;
    c->inv = c->ninv ? cl_rvec_new_mp((size_t)c->ninv, r->p) : NULL;
    if (c->ninv && !c->inv) return CL_ENOMEM;
    cl_ode_stats stats = {0};
    cl_sim_catch_stop_signals(1);
    cl_cli_progress_start(&c->progress);
    int st = r->m->lie ? run_lie(r, c, err, errlen) : run_ode(r, c, &stats);
    cl_sim_catch_stop_signals(0);
    cl_cli_progress_end(&c->progress);
    if (st >= 0 && !r->m->lie && (c->progress.shown || c->progress.tty) && !cl_sim_stop_signal())
        fprintf(stderr, "simulate: %ld steps, %ld rejected, %ld evaluations in %.1f s\n", stats.steps, stats.rejected,
                stats.rhs_evals, cl_cli_seconds() - c->progress.start);
    return st;
}

/* ------------------------------------------------------------ emit */

/* `error: the integration failed: ...` for a run that ended in error \p st. */
static int report_failure(const sim_run *r, int st, const char *err)
{
    if (st == CL_ENOCONV && r->m->adaptive) {
        fprintf(stderr, "error: the integration failed: no end within --max-steps %ld steps\n", r->max_steps);
    } else if (st == CL_EDOMAIN || st == CL_EPARAM) { /* the integrator refused the run it was given */
        char msg[300];
        snprintf(msg, sizeof msg, "the integration failed: %s", err[0] ? err : cl_strerror(st));
        return cl_cli_error(msg, r->o.integrator);
    } else
        fprintf(stderr, "error: the integration failed: %s\n", err[0] ? err : cl_strerror(st));
    return CL_EXIT_FAIL;
}

/* An interrupted run: its rows kept (FILE.partial, or what went to stdout) and where it stopped said. */
static int keep_partial(sim_run *r, sim_ctx *c)
{
    char partial[4096] = "", msg[4400];
    int st = CL_EXIT_OK;
    if (r->o.out) {
        snprintf(partial, sizeof partial, "%s.partial", r->o.out);
        r->out.path = partial;
        st = cl_cli_out_commit(&r->out);
    } else if (r->target) { /* --plot alone: the CSV was going to stdout */
        if (!(st = cl_cli_out_close(&r->out))) st = copy_to_stdout(r->out.tmp);
    }
    snprintf(msg, sizeof msg, "interrupted by %s after %ld steps, at t = %.10g of --t %s; the rows computed so far %s",
             cl_sim_stop_signal() == SIGINT ? "SIGINT" : "SIGTERM", c->step > 0 ? c->step - 1 : 0, mpfr_get_d(c->tlast, MPFR_RNDN),
             r->o.t, st ? "are lost" : r->o.out ? "are kept in" : "went to standard output");
    cl_cli_error(msg, r->o.out && !st ? partial : "the final state is the last row");
    return st;
}

/* The last row, the verdict, and the files: committed, kept as partial, or removed. */
static int emit(sim_run *r, sim_ctx *c, int st, const char *err)
{
    errno = 0;
    if (st >= 0) {
        start_output(c, r->x);                              /* a run that took no step */
        if (!c->last_written) write_row(c, c->tlast, r->x); /* the final state always */
    }
    if (ferror(c->f) || (c->f == stdout && fflush(stdout))) {
        int err = c->write_errno ? c->write_errno : errno;
        if (!r->target) return cl_cli_stdout_failed(err);
        char what[200];
        snprintf(what, sizeof what, "cannot write%s%s", err ? ": " : "", err ? strerror(err) : "");
        return cl_cli_error(what, r->target);
    }
    if (cl_sim_stop_signal()) return keep_partial(r, c);
    if (st < 0) return report_failure(r, st, err);
    if (!r->target) return CL_EXIT_OK;
    int ret = cl_cli_out_close(&r->out);
    if (!ret && r->o.plot &&
        !(ret = cl_cli_plot_simulation(&r->cs, r->out.tmp, r->png.tmp, r->o.plot, c->ninv, c->e0 ? energy_error_name(c) : NULL)))
        ret = cl_cli_out_commit(&r->png);
    if (!ret && r->o.out) ret = cl_cli_out_commit(&r->out);
    if (!ret && !r->o.out) ret = copy_to_stdout(r->out.tmp);
    return ret;
}

/* ------------------------------------------------------------ the command */

static void free_run(sim_run *r, sim_ctx *c)
{
    cl_cli_out_abort(&r->out);
    cl_cli_out_abort(&r->png);
    cl_rvec_free_mp(c->inv);
    cl_rvec_free_mp(c->x0);
    cl_rvec_free_mp(c->e0);
    cl_rvec_free_mp(r->x);
    cl_rvec_free_mp(r->sc);
    cl_sim_graph_close(&r->gr);
    cl_cmd_close_system(&r->cs);
    cl_cmd_args_free(&r->a);
}

static int cmd_simulate(int argc, char **argv)
{
    int json, jst = cl_json_take_format(&argc, argv, &json);
    if (jst || json) return jst ? jst : cl_json_csv_command(cmd_simulate, argc, argv, "chartless-simulate/1");
    static const cl_cmd_option extra[] = {
        CL_CMD_TEXT_OPTION("integrator", sim_opts, integrator), CL_CMD_TEXT_OPTION("t", sim_opts, t),
        CL_CMD_TEXT_OPTION("h", sim_opts, h), CL_CMD_TEXT_OPTION("tol", sim_opts, tol),
        CL_CMD_OPTION("stages", OPT_STAGES), CL_CMD_OPTION("columns", OPT_COLUMNS), CL_CMD_OPTION("every", OPT_EVERY),
        CL_CMD_TEXT_OPTION("out", sim_opts, out), CL_CMD_TEXT_OPTION("plot", sim_opts, plot),
        CL_CMD_OPTION("max-steps", OPT_MAX_STEPS), CL_CMD_OPTION("estimate", OPT_ESTIMATE),
        CL_CMD_TEXT_OPTION("event", sim_opts, event), CL_CMD_TEXT_OPTION("events", sim_opts, events),
        CL_CMD_TEXT_OPTION("event-direction", sim_opts, event_dir), CL_CMD_OPTIONS_END};
    sim_run r = {.o = {.integrator = NULL, .t = "10", .stages = 2, .columns = 0, .every = 1},
                 .out = {.slot = -1}, .png = {.slot = -1}};
    r.o.enclose = cl_cli_take_flag(&argc, argv, "--enclose");
    int st = cl_cmd_scan(argc, argv, extra, on_option, &r.o, 0, &r.a);
    if (st) return st;
    if (r.a.help) {
        fputs(help_text, stdout);
        if (r.a.system || r.a.model) cl_cmd_help_system(&r.a);
        cl_cmd_args_free(&r.a);
        return CL_EXIT_OK;
    }
    sim_ctx c = {.cs = &r.cs, .every = r.o.every};
    char err[256] = "";
    st = validate(&r);
    if (!st && r.o.enclose) {
        st = cl_sim_enclose_run(&r.cs, &r.gr, r.x, r.t, r.t1, r.p);
        free_run(&r, &c);
        return st;
    }
    if (!st) st = open_outputs(&r, &c);
    if (!st) {
        c.t1 = mpfr_get_d(r.t1, MPFR_RNDN);
        c.tlast = r.sc + 4;
        mpfr_ptr x0 = estimate_start(&r);
        int ran = run(&r, &c, err, sizeof err);
        st = emit(&r, &c, ran, err);
        if (!st && ran == 0 && x0 && !cl_sim_stop_signal()) cl_sim_report_error(&r.a, r.cs.dim, x0, r.x, r.t1, r.tol, r.max_steps);
        cl_rvec_free_mp(x0);
    }
    free_run(&r, &c);
    if (cl_sim_stop_signal()) cl_sim_die_of_stop_signal();
    return st;
}

static const cl_command simulate_command = {"simulate", "integrate a system and write CSV (t, state, invariants), optionally a plot",
                                            cmd_simulate};
CL_COMMAND_REGISTER(simulate_command)

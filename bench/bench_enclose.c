/*
 * The validated integrator (enclose.h, `simulate --enclose`) against the
 * floating Taylor integrator on the same graph (taylor.h, what `simulate
 * --integrator taylor` runs), at 128 bits and the same order (46), in one
 * process, on the graph simulate builds (cl_model_eom_taylor_new()).
 *
 * The first table: the spherical pendulum (models/spherical.model) from
 * q = (0.6, 0, -0.8), q' = (0, 1, 0) and the double spherical pendulum
 * (models/chain2.model) from q1 = (0.6, 0, -0.8), q2 = (0, 0.6, -0.8),
 * q1' = (0, 1, 0), q2' = (0.5, 0, 0), each to t = 1, 2 and 5: the widest
 * radius of the enclosure's box there, the steps of both runs, their CPU
 * seconds (best of 3) and the ratio enclosure/floating.
 *
 * The second: how long each example stays proven within a radius of
 * 1e-10 — the pendulum, the double pendulum, the heavy top
 * (models/heavy-top.model, R = I, W = (0.3, 1.2, 2.5)) and the Hamiltonian
 * heavy top (models/heavy-top-hamiltonian.model, R = I, Pi = (0.3, 2.4,
 * 8.75), the same motion): one run each, step by step until the widest
 * radius exceeds 1e-10, the enclosure is lost, or t = 1000; the last time
 * within the radius, the radius at t = 10, 100 and where the run ended, the
 * steps and the CPU seconds. The whole benchmark takes about 7 minutes of
 * CPU, most of it the double pendulum's run to t = 332.
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "enclose.h"
#include "model_taylor.h"
#include "bench.h"

static const char about[] =
    "simulate --enclose's validated integrator (Lohner's method over ball Taylor series) against\n"
    "the floating Taylor integrator on the same graph at 128 bits and order 46: the\n"
    "spherical and the double spherical pendulum to t = 1, 2, 5 (the widest radius, the\n"
    "steps, CPU seconds best of 3, the ratio enclosure/floating); then the longest t each\n"
    "example (the pendulums, the heavy top, the Hamiltonian heavy top) stays below a radius\n"
    "of 1e-10, up to t = 1000.\n";

typedef struct bench_case {
    const char *model, *state;
} bench_case;

static const bench_case RATIO_CASES[] = {
    {"spherical", "0.6 0 -0.8 0 1 0"},
    {"chain2", "0.6 0 -0.8 0 0.6 -0.8 0 1 0 0.5 0 0"},
};
static const bench_case LONG_CASES[] = {
    {"spherical", "0.6 0 -0.8 0 1 0"},
    {"chain2", "0.6 0 -0.8 0 0.6 -0.8 0 1 0 0.5 0 0"},
    {"heavy-top", "1 0 0 0 1 0 0 0 1 0.3 1.2 2.5"},
    {"heavy-top-hamiltonian", "1 0 0 0 1 0 0 0 1 0.3 2.4 8.75"},
};
static const int TIMES[] = {1, 2, 5};
#define NTIMES (sizeof TIMES / sizeof TIMES[0])
#define LONG_RADIUS 1e-10
#define LONG_TMAX 1000

enum { PREC = 128, MAXDIM = 24 };

typedef struct field {
    cl_expr_dag *g;
    int out[MAXDIM];
    size_t n;
} field;

static int open_field(field *f, const char *name)
{
    cl_model *m;
    cl_model_eom *q;
    cl_sys_error e;
    if (cl_model_load_shipped(&m, name, &e)) return -1;
    if (cl_model_eom_taylor_new(&q, m, &e)) {
        cl_model_free(m);
        return -1;
    }
    f->n = q->dim;
    cl_expr_dag_new(&f->g);
    int st = f->n > MAXDIM || cl_model_eom_field(f->g, q, (const char *const *)m->pdef, (long)f->n, f->out);
    cl_model_eom_free(q);
    cl_model_free(m);
    return st ? -1 : 0;
}

/* The state's decimal numbers read at PREC bits into x (MPFR) and xb (balls holding them). */
static void read_state(const char *s, size_t n, mpfr_ptr x, arb_ptr xb)
{
    char *end;
    for (size_t i = 0; i < n; i++) {
        mpfr_strtofr(x + i, s, &end, 10, MPFR_RNDN);
        char *word = strndup(s, (size_t)(end - s));
        arb_set_str(xb + i, word, PREC);
        free(word);
        s = end;
    }
}

/* A case opened: its field and its initial state at PREC bits, as numbers and as balls. */
typedef struct opened {
    field f;
    mpfr_ptr x;
    arb_ptr xb;
} opened;

static int open_case(opened *c, const bench_case *k)
{
    if (open_field(&c->f, k->model)) return -1;
    c->x = cl_rvec_new_mp(c->f.n, PREC);
    c->xb = _arb_vec_init((slong)c->f.n);
    read_state(k->state, c->f.n, c->x, c->xb);
    return 0;
}

static void close_case(opened *c)
{
    cl_rvec_free_mp(c->x);
    _arb_vec_clear(c->xb, (slong)c->f.n);
    cl_expr_dag_free(c->f.g);
}

/* The widest radius of the enclosure's current box. */
static double widest(const cl_enclose *e, arb_ptr x, size_t n)
{
    double w = 0;
    cl_enclose_hull(e, x);
    for (size_t i = 0; i < n; i++) w = fmax(w, mag_get_d(arb_radref(x + i)));
    return w;
}

/* The enclosure to tend: the widest radius there into *rad; returns the steps, −1 when lost. */
static long enclose_run(const field *f, arb_srcptr x0, int tend, double *rad)
{
    cl_enclose *e;
    if (cl_enclose_new(&e, f->g, f->out, f->n, 0, (long)f->n, 0, PREC)) return -1;
    arb_t t, t1;
    arb_init(t);
    arb_init(t1);
    arb_ptr x = _arb_vec_init((slong)f->n);
    cl_enclose_start(e, t, x0);
    arb_set_si(t1, tend);
    long steps = 0;
    while (steps >= 0 && arb_lt(cl_enclose_time(e), t1))
        if (cl_enclose_step(e, t1)) steps = -1;
    *rad = widest(e, x, f->n);
    if (steps >= 0) steps = cl_enclose_steps(e);
    _arb_vec_clear(x, (slong)f->n);
    arb_clear(t);
    arb_clear(t1);
    cl_enclose_free(e);
    return steps;
}

/* What a long run found: the last time within LONG_RADIUS, why it ended, the radius at t = 10, 100 and at its end. */
typedef struct long_found {
    double t_within, rad10, rad100, rad_end;
    long steps;
    const char *end;
} long_found;

/* Step by step from x0 until the widest radius passes LONG_RADIUS, the enclosure is lost, or t = LONG_TMAX. */
static void long_run(const field *f, arb_srcptr x0, long_found *o)
{
    cl_enclose *e;
    o->t_within = 0, o->rad10 = o->rad100 = o->rad_end = NAN, o->steps = 0, o->end = "setup failed";
    if (cl_enclose_new(&e, f->g, f->out, f->n, 0, (long)f->n, 0, PREC)) return;
    arb_t t, t1;
    arb_init(t);
    arb_init(t1);
    arb_ptr x = _arb_vec_init((slong)f->n);
    cl_enclose_start(e, t, x0);
    o->end = "t = 1000 reached";
    for (int mark = 10; mark <= LONG_TMAX; mark *= 10) { /* the runs land on t = 10, 100, 1000 */
        arb_set_si(t1, mark);
        while (arb_lt(cl_enclose_time(e), t1)) {
            if (cl_enclose_step(e, t1)) {
                o->end = "enclosure lost";
                mark = 10 * LONG_TMAX;
                break;
            }
            if (widest(e, x, f->n) > LONG_RADIUS) {
                o->end = "radius above 1e-10";
                mark = 10 * LONG_TMAX;
                break;
            }
            o->t_within = arf_get_d(arb_midref(cl_enclose_time(e)), ARF_RND_DOWN);
        }
        if (mark == 10) o->rad10 = widest(e, x, f->n);
        if (mark == 100) o->rad100 = widest(e, x, f->n);
    }
    o->steps = cl_enclose_steps(e);
    o->rad_end = widest(e, x, f->n);
    _arb_vec_clear(x, (slong)f->n);
    arb_clear(t);
    arb_clear(t1);
    cl_enclose_free(e);
}

/* The floating Taylor run of the same order to tend: its steps. */
static long taylor_run(const field *f, mpfr_srcptr x0, int tend)
{
    cl_taylor_mp *ws;
    if (cl_taylor_new_mp(&ws, f->g, f->out, f->n, 0, (long)f->n, cl_taylor_order_for_tol(-PREC), PREC)) return -1;
    mpfr_ptr v = cl_rvec_new_mp(f->n + 2, PREC), t = v + f->n, t1 = t + 1;
    cl_rvec_copy_mp(v, x0, f->n);
    mpfr_set_si(t1, tend, MPFR_RNDN);
    cl_ode_stats s = {0};
    int st = cl_taylor_integrate_mp(ws, t, v, t1, 0, NULL, NULL, -1, 0, &s);
    cl_rvec_free_mp(v);
    cl_taylor_free_mp(ws);
    return st ? -1 : s.steps;
}

static int run(int option)
{
    (void)option;
    cl_arb_set_prec(PREC);
    printf("CPU seconds (process CPU time), 128 bits, order 46; enclosure/floating = the ratio of the two runs' CPU\n");
    printf("%-10s %4s  %-10s %6s %6s %10s %10s %7s\n", "case", "t", "radius", "steps", "fsteps", "enclose s", "taylor s", "ratio");
    for (size_t c = 0; c < sizeof RATIO_CASES / sizeof RATIO_CASES[0]; c++) {
        const bench_case *k = RATIO_CASES + c;
        opened o;
        if (open_case(&o, k)) return 1;
        for (size_t j = 0; j < NTIMES; j++) {
            double rad = NAN, te, tf;
            long se = 0, sf = 0;
            BENCH_TIME(te, 3, 0.2, 60, se = enclose_run(&o.f, o.xb, TIMES[j], &rad));
            BENCH_TIME(tf, 3, 0.2, 60, sf = taylor_run(&o.f, o.x, TIMES[j]));
            printf("%-10s %4d  %-10.3e %6ld %6ld %10.4f %10.4f %7.2f\n", k->model, TIMES[j], rad, se, sf, te, tf, te / tf);
        }
        close_case(&o);
    }
    printf("\nthe longest t within a radius of 1e-10 (one run each, up to t = 1000)\n");
    printf("%-22s %10s  %-19s %-10s %-10s %-10s %6s %9s\n", "case", "t within", "ended by", "rad(t=10)", "rad(t=100)", "rad(end)", "steps",
           "CPU s");
    for (size_t c = 0; c < sizeof LONG_CASES / sizeof LONG_CASES[0]; c++) {
        const bench_case *k = LONG_CASES + c;
        opened oc;
        if (open_case(&oc, k)) return 1;
        long_found o;
        double t0 = bench_cpu_seconds();
        long_run(&oc.f, oc.xb, &o);
        double cpu = bench_cpu_seconds() - t0;
        printf("%-22s %10.4f  %-19s %-10.3e %-10.3e %-10.3e %6ld %9.2f\n", k->model, o.t_within, o.end, o.rad10, o.rad100, o.rad_end,
               o.steps, cpu);
        close_case(&oc);
    }
    return 0;
}

BENCH_MAIN("bench_enclose", about, NULL, run)

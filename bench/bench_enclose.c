/*
 * The validated integrator (enclose.h, `simulate --enclose`) against the
 * floating Taylor integrator on the same graph (taylor.h, what `simulate
 * --integrator taylor` runs), at 128 bits and the same order (46), in one
 * process: the spherical pendulum (models/spherical.model) from
 * q = (0.6, 0, -0.8), q' = (0, 1, 0) to t = 5 and the double spherical
 * pendulum (models/chain2.model) from q1 = (0.6, 0, -0.8), q2 = (0, 0.6,
 * -0.8), q1' = (0, 1, 0), q2' = (0.5, 0, 0) to t = 2. Printed: the widest
 * radius of the enclosure at t = 1, 2, 3, 4, 5 (the growth with t), the
 * steps of each, and the CPU seconds (best of 3) with their ratio
 * enclosure/floating.
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
    "simulate --enclose's validated integrator (Lohner's QR over ball Taylor series) against\n"
    "the floating Taylor integrator on the same graph at 128 bits and order 46: the\n"
    "spherical pendulum to t = 5 and the double spherical pendulum to t = 2; the widest\n"
    "radius at t = 1, 2, ..., the steps, CPU seconds (best of 3) and the ratio\n"
    "enclosure/floating.\n";

typedef struct bench_case {
    const char *model, *state;
    int tend;
} bench_case;

static const bench_case CASES[] = {
    {"spherical", "0.6 0 -0.8 0 1 0", 5},
    {"chain2", "0.6 0 -0.8 0 0.6 -0.8 0 1 0 0.5 0 0", 2},
};

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
    if (cl_model_load_shipped(&m, name, &e) || cl_model_eom_new(&q, m, &e)) return -1;
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

/* The enclosure to t = 1, 2, ..., tend: the widest radius at each into rad; returns the steps, −1 when lost. */
static long enclose_run(const field *f, arb_srcptr x0, int tend, double *rad)
{
    cl_enclose *e;
    if (cl_enclose_new(&e, f->g, f->out, f->n, 0, (long)f->n, 0, PREC)) return -1;
    arb_t t, t1;
    arb_init(t);
    arb_init(t1);
    arb_ptr x = _arb_vec_init((slong)f->n);
    cl_enclose_start(e, t, x0);
    long steps = 0;
    for (int k = 1; k <= tend && steps >= 0; k++) {
        arb_set_si(t1, k);
        while (arb_lt(cl_enclose_time(e), t1))
            if (cl_enclose_step(e, t1)) {
                steps = -1;
                break;
            }
        cl_enclose_hull(e, x);
        rad[k - 1] = 0;
        for (size_t i = 0; i < f->n; i++) rad[k - 1] = fmax(rad[k - 1], mag_get_d(arb_radref(x + i)));
    }
    if (steps >= 0) steps = cl_enclose_steps(e);
    _arb_vec_clear(x, (slong)f->n);
    arb_clear(t);
    arb_clear(t1);
    cl_enclose_free(e);
    return steps;
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
    printf("%-10s %5s  %-10s %-10s %-10s %-10s %-10s %6s %6s %9s %9s %6s\n", "case", "t", "rad(t=1)", "rad(t=2)",
           "rad(t=3)", "rad(t=4)", "rad(t=5)", "steps", "fsteps", "enclose s", "taylor s", "ratio");
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const bench_case *k = CASES + c;
        field f;
        if (open_field(&f, k->model)) return 1;
        mpfr_ptr x = cl_rvec_new_mp(f.n, PREC);
        arb_ptr xb = _arb_vec_init((slong)f.n);
        read_state(k->state, f.n, x, xb);
        double rad[5] = {0}, te, tf;
        long se = 0, sf = 0;
        BENCH_TIME(te, 3, 0.2, 30, se = enclose_run(&f, xb, k->tend, rad));
        BENCH_TIME(tf, 3, 0.2, 30, sf = taylor_run(&f, x, k->tend));
        printf("%-10s %5d ", k->model, k->tend);
        for (int j = 0; j < 5; j++) {
            if (j < k->tend) printf(" %-10.3e", rad[j]);
            else printf(" %-10s", "-");
        }
        printf(" %6ld %6ld %9.4f %9.4f %6.1f\n", se, sf, te, tf, te / tf);
        cl_rvec_free_mp(x);
        _arb_vec_clear(xb, (slong)f.n);
        cl_expr_dag_free(f.g);
    }
    return 0;
}

BENCH_MAIN("bench_enclose", about, NULL, run)

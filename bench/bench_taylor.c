/*
 * Benchmark of the Taylor integrator (taylor.h) on heyoka's multiprecision
 * benchmark, the pendulum x'' = −9.8 sin x from x = 1 at rest, integrated
 * to t = 10 at 256 and 1024 bits, three ways:
 *   peer    the same method coded by hand for the pendulum in plain C and
 *           MPFR (below: the x, v, sin x, cos x coefficient recurrences,
 *           heyoka's order and the Jorba–Zou step);
 *   graph   cl_taylor_integrate_mp() on the pendulum written as a graph
 *           (x' = v, v' = −(9.8 · sin x)), which computes the high orders
 *           at the fewer bits their terms need (taylor.c, the precision
 *           plan) where the peer computes every order at full precision;
 *   gbs     cl_ode_integrate_mp() with CL_ODE_GBS (the default columns and
 *           the global tolerance 2^−p), on the field coded by hand in C
 *           and on the field of the model `manifold x : R1, lagrangian
 *           1/2*x'^2 + 9.8*cos(x)` (what `chartless simulate --model
 *           --integrator gbs` integrates).
 * Every time is process CPU time, the best of three runs (of those that
 * fit in 2 s), in one process,
 * so the ratios are measured on one machine under one load. The error is
 * max |x − x*|, |v − v*| at t = 10 against a Taylor run at 64 more bits.
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chartless.h"
#include "scalar.h"
#include "bench.h"

static const char about[] =
    "The pendulum x'' = -9.8 sin x from x = 1 to t = 10 at 256 and 1024 bits: a Taylor\n"
    "integrator coded by hand for it (the peer), the graph Taylor integrator of taylor.h,\n"
    "and GBS on the same field coded in C and on the field of the pendulum written as a\n"
    "model; CPU seconds (best of 3, or of the runs\n"
    "that fit in 2 s), the ratios, and the errors against a Taylor run at\n"
    "64 more bits.\n";

static const bench_option options[] = {
    {"--quick", "256 bits only\n"},
    {NULL, NULL},
};

/* ------------------------------------------------------------ the peer */

/* The hand-written Taylor integrator of the pendulum: order p, coefficient arrays of x, v, sin x, cos x. */
typedef struct peer {
    int p;
    mpfr_t *x, *v, *s, *c;
    mpfr_t acc, tmp, g, h, hmax;
} peer;

static void peer_init(peer *P, cl_prec_t prec, int p)
{
    P->p = p;
    mpfr_t **rows[4] = {&P->x, &P->v, &P->s, &P->c};
    for (int r = 0; r < 4; r++) {
        *rows[r] = malloc((size_t)(p + 1) * sizeof(mpfr_t));
        for (int k = 0; k <= p; k++) mpfr_init2((*rows[r])[k], prec);
    }
    mpfr_inits2(prec, P->acc, P->tmp, P->g, P->h, P->hmax, (mpfr_ptr)0);
    mpfr_set_str(P->g, "9.8", 10, MPFR_RNDN);
}

static void peer_clear(peer *P)
{
    mpfr_t *rows[4] = {P->x, P->v, P->s, P->c};
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k <= P->p; k++) mpfr_clear(rows[r][k]);
        free(rows[r]);
    }
    mpfr_clears(P->acc, P->tmp, P->g, P->h, P->hmax, (mpfr_ptr)0);
}

/* The coefficients at (x0, v0): x_{k+1} = v_k/(k+1), v_{k+1} = −g s_k/(k+1),
   s_k = (1/k) Σ j x_j c_{k−j}, c_k = −(1/k) Σ j x_j s_{k−j}. */
static void peer_expand(peer *P, mpfr_srcptr x0, mpfr_srcptr v0)
{
    mpfr_set(P->x[0], x0, MPFR_RNDN);
    mpfr_set(P->v[0], v0, MPFR_RNDN);
    mpfr_sin_cos(P->s[0], P->c[0], x0, MPFR_RNDN);
    for (int k = 1; k <= P->p; k++) {
        mpfr_div_si(P->x[k], P->v[k - 1], k, MPFR_RNDN);
        mpfr_mul(P->v[k], P->g, P->s[k - 1], MPFR_RNDN);
        mpfr_div_si(P->v[k], P->v[k], -k, MPFR_RNDN);
        for (int f = 0; f < 2; f++) {
            mpfr_t *other = f ? P->s : P->c, *out = f ? P->c : P->s;
            mpfr_set_zero(P->acc, 1);
            for (int j = 1; j <= k; j++) {
                mpfr_mul(P->tmp, P->x[j], other[k - j], MPFR_RNDN);
                mpfr_mul_si(P->tmp, P->tmp, j, MPFR_RNDN);
                mpfr_add(P->acc, P->acc, P->tmp, MPFR_RNDN);
            }
            mpfr_div_si(out[k], P->acc, f ? -k : k, MPFR_RNDN);
        }
    }
}

/* log2 max(|x_k|, |v_k|). */
static double peer_log2(const peer *P, int k)
{
    return fmax(cl_mpfr_log2(P->x[k]), cl_mpfr_log2(P->v[k]));
}

/* Jorba–Zou: h = ρ e^(−2) e^(−0.7/(p−1)), ρ = min over m = p − 1, p of (N / max |coef_m|)^(1/m). */
static void peer_step_size(peer *P)
{
    int p = P->p;
    double lx = peer_log2(P, 0), num = lx > 0 ? lx : 0;
    double rho = fmin((num - peer_log2(P, p)) / p, (num - peer_log2(P, p - 1)) / (p - 1));
    double l = rho + (-2.0 - 0.7 / (p - 1)) / log(2.0), e = floor(l);
    mpfr_set_d(P->h, exp2(l - e), MPFR_RNDN);
    mpfr_mul_2si(P->h, P->h, (long)e, MPFR_RNDN);
}

/* Horner: y = Σ a_k h^k. */
static void peer_horner(const peer *P, mpfr_t *a, mpfr_ptr y)
{
    mpfr_set(y, a[P->p], MPFR_RNDN);
    for (int k = P->p - 1; k >= 0; k--) mpfr_fma(y, y, P->h, a[k], MPFR_RNDN);
}

/* From (0, x, v) to t1; returns the steps. */
static long peer_run(peer *P, mpfr_ptr x, mpfr_ptr v, mpfr_srcptr t1)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x));
    mpfr_set_zero(t, 1);
    long steps = 0;
    while (mpfr_cmp(t, t1) < 0) {
        peer_expand(P, x, v);
        peer_step_size(P);
        mpfr_sub(P->hmax, t1, t, MPFR_RNDN);
        if (mpfr_cmp(P->h, P->hmax) >= 0) mpfr_set(P->h, P->hmax, MPFR_RNDN);
        peer_horner(P, P->x, x);
        peer_horner(P, P->v, v);
        mpfr_add(t, t, P->h, MPFR_RNDN);
        steps++;
    }
    mpfr_clear(t);
    return steps;
}

/* ------------------------------------------------------------ the graph and gbs */

static cl_expr_dag *pendulum_graph(int *out)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x = cl_expr_input(g, 0), v = cl_expr_input(g, 1);
    int s = cl_expr_op(g, CL_EXPR_SIN, x, -1, 0, -1);
    int m = cl_expr_op(g, CL_EXPR_MUL, cl_expr_const(g, "9.8", 3, -1), s, 0, -1);
    out[0] = v;
    out[1] = cl_expr_op(g, CL_EXPR_NEG, m, -1, 0, -1);
    return g;
}

/* x' = v, v' = −g sin x, g (ctx) read once at the precision GBS calls the field with. */
static int pendulum_rhs(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    (void)t;
    mpfr_set(dx, x + 1, MPFR_RNDN);
    mpfr_sin(dx + 1, x, MPFR_RNDN);
    mpfr_mul(dx + 1, dx + 1, (mpfr_srcptr)ctx, MPFR_RNDN);
    mpfr_neg(dx + 1, dx + 1, MPFR_RNDN);
    return 0;
}

/* The pendulum as a model, and its field at a precision. */
static const char *model_path;
typedef struct model_field {
    const cl_system *sys;
    cl_params prm;
    void *inst;
} model_field;

static int model_open(model_field *m, cl_prec_t prec)
{
    cl_sys_error e;
    memset(m, 0, sizeof *m);
    if (cl_model_system_new(&m->sys, model_path, &e)) return -1;
    if (cl_params_parse(&m->prm, m->sys->params, 0, NULL, NULL, prec, &e) || m->sys->create(&m->inst, &m->prm, prec, &e)) {
        fprintf(stderr, "bench_taylor: the model: %s\n", e.what);
        return -1;
    }
    return 0;
}

static void model_close(model_field *m)
{
    if (m->inst) m->sys->destroy(m->inst);
    cl_params_free(&m->prm);
    if (m->sys) cl_model_system_free(m->sys);
}

static int model_rhs(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    (void)t;
    model_field *m = ctx;
    return m->sys->rhs(m->inst, 0, dx, x);
}

/* GBS on the pendulum, the field in C or from the model; the steps, or −1. */
static long run_gbs(int model, cl_prec_t prec, mpfr_ptr t, mpfr_ptr xv, mpfr_srcptr t1, mpfr_ptr h)
{
    cl_ode_ws_mp *ws;
    cl_ode_stats st;
    long steps = -1;
    mpfr_set_ui_2exp(h, 1, -(long)prec, MPFR_RNDN); /* the tolerance 2^-p, then the step */
    if (!cl_ode_ws_new_mp(&ws, 2, prec, CL_ODE_GBS, 0) && !cl_ode_set_global_tol_mp(ws, h)) {
        cl_prec_t fp = cl_ode_ws_rhs_prec_mp(ws);
        mpfr_t g;
        model_field m;
        mpfr_init2(g, fp);
        mpfr_set_str(g, "9.8", 10, MPFR_RNDN);
        mpfr_set_zero(h, 1);
        if (!model && !cl_ode_integrate_mp(ws, pendulum_rhs, g, t, xv, t1, h, &st)) steps = st.steps;
        if (model && !model_open(&m, fp) && !cl_ode_integrate_mp(ws, model_rhs, &m, t, xv, t1, h, &st)) steps = st.steps;
        if (model) model_close(&m);
        mpfr_clear(g);
    }
    cl_ode_ws_free_mp(ws);
    return steps;
}

enum { PEER, GRAPH, GBS, GBS_MODEL, NWAYS };
static const char *way_names[NWAYS] = {"peer (hand-written Taylor)", "graph Taylor (taylor.h)", "gbs, field in C",
                                       "gbs, field of the model"};

/* One run of way w at prec bits from x = 1, v = 0 to t = 10; the end state in xv, the steps returned (< 0: failed). */
static long run_way(int w, cl_prec_t prec, mpfr_ptr xv)
{
    mpfr_t t, t1, h;
    mpfr_inits2(prec, t, t1, h, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    mpfr_set_si(t1, 10, MPFR_RNDN);
    mpfr_set_zero(h, 1);
    mpfr_set_si(xv, 1, MPFR_RNDN);
    mpfr_set_zero(xv + 1, 1);
    int order = cl_taylor_order_for_tol(-(double)prec);
    long steps = -1;
    if (w == PEER) {
        peer P;
        peer_init(&P, prec, order);
        steps = peer_run(&P, xv, xv + 1, t1);
        peer_clear(&P);
    } else if (w == GRAPH) {
        int out[2];
        cl_expr_dag *g = pendulum_graph(out);
        cl_taylor_mp *ws;
        cl_ode_stats st;
        if (!cl_taylor_new_mp(&ws, g, out, 2, 0, -1, order, prec) &&
            !cl_taylor_integrate_mp(ws, t, xv, t1, 0, NULL, NULL, -1, 0, &st))
            steps = st.steps;
        cl_taylor_free_mp(ws);
        cl_expr_dag_free(g);
    } else {
        steps = run_gbs(w == GBS_MODEL, prec, t, xv, t1, h);
    }
    mpfr_clears(t, t1, h, (mpfr_ptr)0);
    return steps;
}

static void bench_prec(cl_prec_t prec)
{
    mpfr_ptr ref = cl_rvec_new_mp(2, prec + 64), xv = cl_rvec_new_mp(2, prec);
    run_way(GRAPH, prec + 64, ref);
    double sec[NWAYS];
    printf("%ld bits, order %d, to t = 10:\n", (long)prec, cl_taylor_order_for_tol(-(double)prec));
    for (int w = 0; w < NWAYS; w++) {
        long steps = 0;
        BENCH_TIME(sec[w], 3, 0, 2, steps = run_way(w, prec, xv)); /* best of 3, or of the runs that fit in 2 s */
        mpfr_t e, d;
        mpfr_inits2(64, e, d, (mpfr_ptr)0);
        mpfr_sub(e, xv, ref, MPFR_RNDN);
        mpfr_sub(d, xv + 1, ref + 1, MPFR_RNDN);
        mpfr_abs(e, e, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_max(e, e, d, MPFR_RNDN);
        mpfr_printf("  %-28s %9.4f s  %5ld steps  error %.2Re\n", way_names[w], sec[w], steps, e);
        mpfr_clears(e, d, (mpfr_ptr)0);
    }
    printf("  graph / peer = %.2f (target <= 1.5); gbs / graph = %.1f with the field in C, %.1f with the model's "
           "(target >= %d)\n", sec[GRAPH] / sec[PEER], sec[GBS] / sec[GRAPH], sec[GBS_MODEL] / sec[GRAPH],
           prec > 512 ? 20 : 10);
    cl_rvec_free_mp(ref);
    cl_rvec_free_mp(xv);
}

static int measure(int option)
{
    int quick = option == 0;
    char path[] = "/tmp/bench_taylor_XXXXXX";
    int fd = mkstemp(path);
    static const char text[] = "manifold x : R1\nlagrangian 1/2*x'^2 + 9.8*cos(x)\n";
    if (fd < 0 || write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1)) {
        fprintf(stderr, "bench_taylor: cannot write the model file\n");
        return 1;
    }
    close(fd);
    model_path = path;
    bench_prec(256);
    if (!quick) bench_prec(1024);
    unlink(path);
    return 0;
}

BENCH_MAIN("bench_taylor", about, options, measure)

/*
 * Compiled fields against the chapter: the chain pendulum of n links
 * written as a model, its (q, q̇) field evaluated four ways in one run —
 * S2 V's O(n) chapter code (cl_chain_rhs), the model's engine
 * (cl_lagr_s2_rhs: reverse-mode derivatives of L at each call), the
 * equations of motion as a graph interpreted (cl_model_eom_new,
 * cl_expr_eval_run) and the same graph compiled (cl_expr_jit) — in double
 * and at 256 bits, CPU time per call and the ratios to the chapter.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "chartless.h"
#include "expr_jit.h"
#include "bench.h"
#include "chain_model.h"

/* The four evaluations of one chain at one precision. */
#define DEFINE_KIND(S, RPTR)                                                                                   \
    typedef struct chain##S {                                                                                  \
        cl_chain##S *ch;                                                                                       \
        cl_lagr_s2##S *lg;                                                                                     \
        cl_expr_eval##S *ev;                                                                                   \
        const cl_model_eom *q;                                                                                 \
        RPTR in;                                                                                               \
        RPTR d[4];                                                                                             \
    } chain##S;                                                                                                \
    static void interpret##S(chain##S *c, RPTR dx)                                                             \
    {                                                                                                          \
        int upto = 0;                                                                                          \
        for (size_t i = 0; i < c->q->dim; i++) upto = c->q->out[i] > upto ? c->q->out[i] : upto;               \
        cl_expr_eval_run##S(c->ev, c->in, upto, 1);                                                            \
        for (size_t i = 0; i < c->q->dim; i++) cl_rvec_copy##S(dx + i, cl_expr_eval_value##S(c->ev, c->q->out[i]), 1); \
    }
DEFINE_KIND(_d, double *)
DEFINE_KIND(_mp, mpfr_ptr)

/* CPU seconds per call of one of the four ways (0 chapter, 1 engine, 2 interpreted, 3 compiled). */
#define DEFINE_TIME(S, RPTR, RUNNER)                                                    \
    static double time##S(chain##S *c, RUNNER *r, int way)                             \
    {                                                                                  \
        double t;                                                                      \
        RPTR dx = c->d[way];                                                           \
        BENCH_SECONDS_PER_CALL(t, 0.2, switch (way) {                                  \
            case 0: cl_chain_rhs##S(c->ch, CL_S2_QDOT, dx, c->in); break;              \
            case 1: cl_lagr_s2_rhs##S(c->lg, CL_S2_QDOT, dx, c->in); break;            \
            case 2: interpret##S(c, dx); break;                                        \
            default: cl_expr_jit_run##S(r, dx, c->in); break;                          \
        });                                                                            \
        return t;                                                                      \
    }
DEFINE_TIME(_d, double *, const cl_expr_jit)
DEFINE_TIME(_mp, mpfr_ptr, cl_expr_jit_mp)

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The chain's model, its graph and its compiled field (compiled now when not cached: the wall time into *build). */
static int open_model(int n, cl_model **m, cl_model_eom **q, cl_expr_jit **j, double *build)
{
    char *text = chain_model(n), why[400];
    cl_sys_error e;
    int st = cl_model_parse(m, "chain", text, strlen(text), &e);
    free(text);
    if (!st) st = cl_model_eom_new(q, *m, &e);
    if (st) {
        printf("model: %s (%s)\n", e.what, e.arg);
        return st;
    }
    double t0 = wall_seconds();
    long before = cl_expr_jit_compilations();
    st = cl_expr_jit_new(j, (*q)->g, (*q)->out, (*q)->dim, (long)(*q)->param0, 1, why, sizeof why);
    *build = cl_expr_jit_compilations() > before ? wall_seconds() - t0 : 0;
    if (st) printf("compiled field: %s\n", why);
    return st;
}

/* One chain at one precision: its four evaluations, their ratios to the chapter, how far each is from it. */
#define DEFINE_RUN(S, RPTR, SETUP_RUNNER, TIME_COMPILED, FREE_RUNNER)                                             \
    static void run##S(int n, cl_prec_t p, const char *kind)                                                     \
    {                                                                                                            \
        cl_model *m = NULL;                                                                                      \
        cl_model_eom *q = NULL;                                                                                  \
        cl_expr_jit *j = NULL;                                                                                   \
        double build = 0;                                                                                        \
        if (open_model(n, &m, &q, &j, &build)) exit(1);                                                          \
        size_t dim = q->dim, nin = (size_t)cl_expr_dag_ninputs(q->g);                                            \
        chain##S c = {.q = q, .in = cl_rvec_new##S(nin, p)};                                                     \
        RPTR par = cl_rvec_new##S((size_t)(2 * n + 1), p);                                                       \
        for (int i = 0; i < 2 * n; i++) cl_real_from_str##S(par + i, "1");                                       \
        cl_real_from_str##S(par + 2 * n, "9.81");                                                                \
        cl_chain_new##S(&c.ch, (size_t)n, par, par + n, par + 2 * n, p);                                         \
        cl_lagr_s2_new##S(&c.lg, m->g, m->L, m->n, m->nparam, p);                                                \
        cl_lagr_s2_set_param##S(c.lg, 0, par + 2 * n);                                                           \
        cl_expr_eval_new##S(&c.ev, q->g, p);                                                                     \
        for (int k = 0; k < 4; k++) c.d[k] = cl_rvec_new##S(dim, p);                                             \
        cl_rng g;                                                                                                \
        cl_rng_seed(&g, 7);                                                                                      \
        for (int i = 0; i < n; i++) {                                                                            \
            cl_v3_random_unit##S(c.in + 3 * i, &g);                                                              \
            cl_v3_random_tangent##S(c.in + 3 * (n + i), c.in + 3 * i, 1.0, &g);                                  \
        }                                                                                                        \
        cl_rvec_copy##S(c.in + q->param0, par + 2 * n, 1);                                                       \
        SETUP_RUNNER;                                                                                            \
        double t[4];                                                                                             \
        for (int k = 0; k < 3; k++) t[k] = time##S(&c, RUNNER_ARG);                                           \
        t[3] = TIME_COMPILED;                                                                                    \
        int same = cl_rvec_log2_maxdiff##S(c.d[2], c.d[3], dim) == -INFINITY;                                    \
        printf("%-9s %2d %11.3g %6.2f %6.2f %6.2f   %-5s %8.0f %8.0f %8.0f %8.2f\n", kind, n, t[0], t[1] / t[0],      \
               t[2] / t[0], t[3] / t[0], same ? "yes" : "NO",                                                    \
               cl_rvec_log2_maxdiff##S(c.d[0], c.d[1], dim), cl_rvec_log2_maxdiff##S(c.d[0], c.d[2], dim),       \
               cl_rvec_log2_maxdiff##S(c.d[0], c.d[3], dim), build);                                             \
        FREE_RUNNER;                                                                                             \
        for (int k = 0; k < 4; k++) cl_rvec_free##S(c.d[k]);                                                     \
        cl_rvec_free##S(c.in); cl_rvec_free##S(par);                                                             \
        cl_expr_eval_free##S(c.ev); cl_lagr_s2_free##S(c.lg); cl_chain_free##S(c.ch);                            \
        cl_expr_jit_free(j); cl_model_eom_free(q); cl_model_free(m);                                             \
    }
#define RUNNER_ARG j, k
DEFINE_RUN(_d, double *, (void)0, time_d(&c, j, 3), (void)0)
#undef RUNNER_ARG
#define RUNNER_ARG r, k
DEFINE_RUN(_mp, mpfr_ptr, cl_expr_jit_mp *r; cl_expr_jit_mp_new(&r, j, q->g, p), time_mp(&c, r, 3), cl_expr_jit_mp_free(r))
#undef RUNNER_ARG

static const char about[] =
    "Compiled fields against the chapter: the (q, qdot) field of the n-link chain\n"
    "pendulum written as a model file, evaluated four ways in one run, in double and at\n"
    "256 bits: S2 V's O(n) chapter code (cl_chain_rhs), the model's engine (reverse-mode\n"
    "derivatives of L at each call), the equations of motion as one graph interpreted,\n"
    "and that graph compiled by the system's C compiler (cached; the first run compiles).\n"
    "Prints the chapter's CPU time per call, the ratios engine/chapter, interpreted/chapter\n"
    "and compiled/chapter, whether compiled and interpreted agree bit for bit, log2 of the\n"
    "largest difference of each field from the chapter's, and the compiler's wall time\n"
    "when it ran.\n";

static int measure(int option)
{
    printf("the (q, qdot) field of an n-link chain: ratios of CPU time per call to S2 V's chapter code\n");
    printf("%-9s %2s %11s %6s %6s %6s   %-5s %8s %8s %8s %8s\n", "kind", "n", "chapter s", "engine", "interp", "compil",
           "bits=", "log2|e-c|", "log2|i-c|", "log2|j-c|", "cc s");
    static const int ns[] = {2, 4, 8};
    for (size_t k = 0; k < 3; k++) run_d(ns[k], 53, "double");
    for (size_t k = 0; k < 3; k++) run_mp(ns[k], 256, "256 bits");
    return 0;
}

BENCH_MAIN("bench_compiled", about, NULL, measure)

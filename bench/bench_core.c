/*
 * Cost of the two scalar kinds on the core operations, against what a user
 * would write by hand in double: an R³ cross product and the solution of a
 * 6×6 linear system (Gaussian elimination with partial pivoting).
 *
 * Each variant runs over a batch of varied inputs; a timing repeats the
 * batch for about 40 ms of thread CPU time, and the best of 7 timings is
 * kept (interference from other processes only makes a timing slower). The table gives nanoseconds per call and
 * the ratio to the hand-written double code, all measured in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "chartless.h"
#include "bench.h"

#define BATCH 64
#define N 6

/* Keep the compiler from discarding results it cannot see used. */
static void sink(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

/* Nanoseconds per call of batch(ctx) (BATCH calls): the best of 7 timings of about 40 ms. */
static double time_best(void (*batch)(void *), void *ctx)
{
    double t;
    BENCH_BEST_SECONDS_PER_CALL(t, 7, 0.04, batch(ctx));
    return 1e9 * t / BATCH;
}

/* ------------------------------------------------------------ cross product */

static inline void cross_hand(double *r, const double *a, const double *b)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static double da[BATCH * 3], db[BATCH * 3], dr[BATCH * 3];

static void batch_cross_hand(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < BATCH; i++) cross_hand(dr + 3 * i, da + 3 * i, db + 3 * i);
    sink(dr);
}

static void batch_cross_d(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < BATCH; i++) cl_v3_cross_d(dr + 3 * i, da + 3 * i, db + 3 * i);
    sink(dr);
}

/* Inputs and outputs of the MPFR variants, at one precision. */
typedef struct mp_data { mpfr_ptr a, b, r; } mp_data;

static void batch_cross_mp(void *ctx)
{
    mp_data *m = ctx;
    for (int i = 0; i < BATCH; i++) cl_v3_cross_mp(m->r + 3 * i, m->a + 3 * i, m->b + 3 * i);
    sink(m->r);
}

static double time_cross_mp(cl_prec_t p)
{
    mp_data m = {cl_rvec_new_mp(BATCH * 3, p), cl_rvec_new_mp(BATCH * 3, p), cl_rvec_new_mp(BATCH * 3, p)};
    for (int i = 0; i < BATCH * 3; i++) {
        mpfr_set_d(m.a + i, da[i], MPFR_RNDN);
        mpfr_set_d(m.b + i, db[i], MPFR_RNDN);
    }
    double ns = time_best(batch_cross_mp, &m);
    cl_rvec_free_mp(m.a);
    cl_rvec_free_mp(m.b);
    cl_rvec_free_mp(m.r);
    return ns;
}

/* ---------------------------------------------------------------- 6×6 solve */

/* Gaussian elimination with partial pivoting on a copy, as a user would write it. */
static int solve_hand(double *x, const double *A0, const double *b0)
{
    double A[N * N], b[N];
    memcpy(A, A0, sizeof A);
    memcpy(b, b0, sizeof b);
    for (int k = 0; k < N; k++) {
        int piv = k;
        for (int i = k + 1; i < N; i++)
            if (fabs(A[i * N + k]) > fabs(A[piv * N + k])) piv = i;
        if (A[piv * N + k] == 0.0) return -1;
        if (piv != k) {
            for (int j = 0; j < N; j++) {
                double t = A[k * N + j]; A[k * N + j] = A[piv * N + j]; A[piv * N + j] = t;
            }
            double t = b[k]; b[k] = b[piv]; b[piv] = t;
        }
        for (int i = k + 1; i < N; i++) {
            double l = A[i * N + k] / A[k * N + k];
            for (int j = k + 1; j < N; j++) A[i * N + j] -= l * A[k * N + j];
            b[i] -= l * b[k];
        }
    }
    for (int i = N - 1; i >= 0; i--) {
        double s = b[i];
        for (int j = i + 1; j < N; j++) s -= A[i * N + j] * x[j];
        x[i] = s / A[i * N + i];
    }
    return 0;
}

static double dA[BATCH * N * N], dbv[BATCH * N], dx[BATCH * N], dx2[BATCH * N];

static void batch_solve_hand(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < BATCH; i++) solve_hand(dx + N * i, dA + N * N * i, dbv + N * i);
    sink(dx);
}

static void batch_solve_d(void *ctx)
{
    (void)ctx;
    for (int i = 0; i < BATCH; i++) cl_linsolve_d(dx2 + N * i, dA + N * N * i, dbv + N * i, N);
    sink(dx2);
}

static void batch_solve_mp(void *ctx)
{
    mp_data *m = ctx; /* a: the matrices, b: right-hand sides, r: solutions */
    for (int i = 0; i < BATCH; i++) cl_linsolve_mp(m->r + N * i, m->a + N * N * i, m->b + N * i, N);
    sink(m->r);
}

static double time_solve_mp(cl_prec_t p, double *maxdiff)
{
    mp_data m = {cl_rvec_new_mp(BATCH * N * N, p), cl_rvec_new_mp(BATCH * N, p), cl_rvec_new_mp(BATCH * N, p)};
    for (int i = 0; i < BATCH * N * N; i++) mpfr_set_d(m.a + i, dA[i], MPFR_RNDN);
    for (int i = 0; i < BATCH * N; i++) mpfr_set_d(m.b + i, dbv[i], MPFR_RNDN);
    double ns = time_best(batch_solve_mp, &m);
    *maxdiff = 0;
    for (int i = 0; i < BATCH * N; i++) {
        double d = fabs(mpfr_get_d(m.r + i, MPFR_RNDN) - dx[i]);
        if (d > *maxdiff) *maxdiff = d;
    }
    cl_rvec_free_mp(m.a);
    cl_rvec_free_mp(m.b);
    cl_rvec_free_mp(m.r);
    return ns;
}

static void row(const char *what, double ns, double base)
{
    printf("  ");
    bench_print_time_ratio(what, 34, 1e-9 * ns, "ns", 1e-9 * base);
    putchar('\n');
}

static const char about[] =
    "The cost of the scalar kinds on two core operations against hand-written\n"
    "double code: an R^3 cross product (cl_v3_cross_d, and _mp at 53, 256 and 1024\n"
    "bits) and a 6x6 linear solve with partial pivoting (cl_linsolve_d and _mp),\n"
    "each over a batch of 64 varied inputs. Prints nanoseconds per call and the\n"
    "ratio to the hand-written double code; a time is the best of 7 timings of\n"
    "about 40 ms of CPU time each.\n";

static int measure(int option)
{
    cl_rng g;
    cl_rng_seed(&g, 2024);
    for (int i = 0; i < BATCH * 3; i++) { da[i] = cl_rng_normal(&g); db[i] = cl_rng_normal(&g); }
    /* Diagonally weighted random systems: well conditioned, pivoting still active. */
    for (int m = 0; m < BATCH; m++) {
        for (int i = 0; i < N * N; i++) dA[m * N * N + i] = cl_rng_normal(&g);
        for (int i = 0; i < N; i++) dA[m * N * N + i * N + i] += 2.0;
        for (int i = 0; i < N; i++) dbv[m * N + i] = cl_rng_normal(&g);
    }
    static const cl_prec_t precs[] = {53, 256, 1024};
    char name[64];

    printf("%-36s %13s %9s\n", "variant", "time/call", "ratio");
    printf("R^3 cross product (batch of %d)\n", BATCH);
    double base = time_best(batch_cross_hand, NULL);
    row("hand-written double, inline", base, base);
    row("cl_v3_cross_d", time_best(batch_cross_d, NULL), base);
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "cl_v3_cross_mp, %ld bits", (long)precs[k]);
        row(name, time_cross_mp(precs[k]), base);
    }

    printf("6x6 linear solve, partial pivoting (batch of %d)\n", BATCH);
    base = time_best(batch_solve_hand, NULL);
    row("hand-written double elimination", base, base);
    row("cl_linsolve_d", time_best(batch_solve_d, NULL), base);
    double diff = 0, worst = 0;
    for (int i = 0; i < BATCH * N; i++) {
        double d = fabs(dx[i] - dx2[i]);
        if (d > diff) diff = d;
    }
    for (int k = 0; k < 3; k++) {
        double md;
        snprintf(name, sizeof name, "cl_linsolve_mp, %ld bits", (long)precs[k]);
        row(name, time_solve_mp(precs[k], &md), base);
        if (md > worst) worst = md;
    }
    printf("largest |x - x_hand|: cl_linsolve_d %.2g; cl_linsolve_mp at any precision %.2g,\n"
           "the rounding error of the double solutions\n", diff, worst);
    return 0;
}

BENCH_MAIN("bench_core", about, NULL, measure)

/*
 * The benchmarks' harness (bench.h): the command line with the --help made
 * from each benchmark's description, the CPU clock, the timing loop, the
 * time-and-ratio columns and the scaled error the integrator benchmarks
 * report. Linked into every bench/bench_*.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpfr.h>
#include "bench.h"

static void print_help(const bench_def *b)
{
    printf("usage: %s [-h]", b->name);
    for (int k = 0; b->options && b->options[k].name; k++) printf("%s%s", k ? " | " : " [", b->options[k].name);
    printf("%s\n\n%s\noptions:\n", b->options && b->options[0].name ? "]" : "", b->about);
    for (int k = 0; b->options && b->options[k].name; k++) printf("  %-12s %s", b->options[k].name, b->options[k].help);
    printf("  %-12s this text\n", "-h, --help");
}

int bench_main(const bench_def *b, int argc, char **argv)
{
    int given = -1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            print_help(b);
            return 0;
        }
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (b->options && b->options[k].name && strcmp(argv[i], b->options[k].name)) k++;
        if (!b->options || !b->options[k].name) {
            fprintf(stderr, "error: unknown option (%s)\n", argv[i]);
            return 2;
        }
        if (given < 0) given = k;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    return b->run(given);
}

double bench_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_clock_start(bench_clock *c, double min_seconds, int best_of, double budget)
{
    *c = (bench_clock){.min_seconds = min_seconds, .budget = budget, .best = INFINITY, .batch = 1,
                       .best_of = best_of > 0 ? best_of : 1};
}

int bench_clock_pass(bench_clock *c)
{
    if (c->running) {
        double dt = bench_cpu_seconds() - c->t0;
        if (!c->timed && dt < c->min_seconds) c->batch *= 2; /* still finding the batch */
        else {
            c->best = fmin(c->best, dt / (double)c->batch);
            c->spent += dt;
            if (++c->timed >= c->best_of || c->spent >= c->budget) return 0;
        }
    }
    c->running = 1;
    c->t0 = bench_cpu_seconds();
    return 1;
}

void bench_print_time_ratio(const char *label, int width, double seconds, const char *unit, double base)
{
    double scale = !strcmp(unit, "ns") ? 1e9 : !strcmp(unit, "us") ? 1e6 : !strcmp(unit, "ms") ? 1e3 : 1;
    printf("%-*s %10.2f %-2s %9.2f", width, label, scale * seconds, unit, seconds / base);
}

double bench_scaled_error(mpfr_srcptr x, mpfr_srcptr ref, size_t n)
{
    mpfr_t d, s;
    mpfr_inits2(64, d, s, (mpfr_ptr)0);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        mpfr_sub(d, x + i, ref + i, MPFR_RNDN);
        mpfr_abs(s, ref + i, MPFR_RNDN);
        mpfr_add_si(s, s, 1, MPFR_RNDN);
        mpfr_div(d, d, s, MPFR_RNDN);
        worst = fmax(worst, fabs(mpfr_get_d(d, MPFR_RNDN)));
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
    return worst;
}

void bench_both_kinds(void (*part_d)(mpfr_prec_t p, const char *kind), void (*part_mp)(mpfr_prec_t p, const char *kind))
{
    part_d(53, "double");
    part_mp(256, "256 bits");
}

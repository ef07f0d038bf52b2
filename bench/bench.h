/*
 * The harness every benchmark runs in (bench.c): the command line and its
 * --help, the CPU clock, the one timing loop, the time-and-ratio columns
 * the tables print, and the scaled error of an integrator's end state.
 *
 * Every time is process CPU time (CLOCK_PROCESS_CPUTIME_ID), so that other
 * load on a shared machine does not enter the ratios the benchmarks print.
 */
#ifndef CHARTLESS_BENCH_H
#define CHARTLESS_BENCH_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

/** An option of a benchmark: its name ("--quick") and its --help text (later lines indented by 15). */
typedef struct bench_option {
    const char *name, *help;
} bench_option;

/** A benchmark: what `NAME -h` prints and what it runs. */
typedef struct bench_def {
    const char *name;              /**< "bench_ode": the first line of --help is `usage: NAME [-h] ...` */
    const char *about;             /**< what it measures and prints, lines ending in a newline */
    const bench_option *options;   /**< ended by {NULL}; NULL for none */
    int (*run)(int option);        /**< the index of the option given (the first), -1 for none; the exit status */
} bench_def;

/**
 * The benchmark's command line: `-h` or `--help` prints the help made of
 * \p b (usage, what it measures, its options) on stdout and returns 0
 * without running anything; an argument that is neither that nor one of its
 * options is refused with `error: unknown option (ARG)` and exit status 2.
 * Otherwise stdout is line-buffered and b->run runs; its status.
 */
int bench_main(const bench_def *b, int argc, char **argv);

/** The main() of a benchmark: BENCH_MAIN("bench_x", about, options, run). */
#define BENCH_MAIN(NAME, ABOUT, OPTIONS, RUN)                                        \
    int main(int argc, char **argv)                                                  \
    {                                                                                \
        static const bench_def bench_def_ = {NAME, ABOUT, OPTIONS, RUN};             \
        return bench_main(&bench_def_, argc, argv);                                  \
    }

/** A part of a benchmark compiled for both kinds (NAME_d, NAME_mp, each taking the precision and the
    kind's label), run in double and then at 256 bits, the precision every benchmark compares at. */
void bench_both_kinds(void (*part_d)(mpfr_prec_t p, const char *kind), void (*part_mp)(mpfr_prec_t p, const char *kind));

/** Process CPU time in seconds since an arbitrary origin. */
double bench_cpu_seconds(void);

/**
 * The timing loop's state. A pass runs `batch` calls between two readings of
 * the clock; the batch is doubled until a pass takes at least min_seconds
 * (so the clock is read only around whole passes), and that pass and
 * best_of − 1 more are timed: the best is kept (interference from other
 * processes only makes a timing slower).
 */
typedef struct bench_clock {
    double min_seconds, budget, t0, spent, best; /**< best: CPU seconds per call, when done */
    long batch;
    int best_of, timed, running;
} bench_clock;

/** Time passes of at least \p min_seconds, the best of \p best_of, fewer when the timed passes
    have taken \p budget seconds (INFINITY: no budget). */
void bench_clock_start(bench_clock *c, double min_seconds, int best_of, double budget);
/** Before each pass: 1 when a pass of c->batch calls is to run now, 0 when the timing is done. */
int bench_clock_pass(bench_clock *c);

/** CPU seconds per evaluation of \p call into \p out: the best of \p best_of timings of at least
    \p min_seconds, no more once the timings have taken \p budget seconds. */
#define BENCH_TIME(out, best_of, min_seconds, budget, call)                            \
    do {                                                                             \
        bench_clock bench_c_;                                                        \
        bench_clock_start(&bench_c_, (min_seconds), (best_of), (budget));            \
        while (bench_clock_pass(&bench_c_))                                          \
            for (long bench_r_ = 0; bench_r_ < bench_c_.batch; bench_r_++) { call; } \
        (out) = bench_c_.best;                                                       \
    } while (0)

/** As BENCH_TIME without a budget. */
#define BENCH_BEST_SECONDS_PER_CALL(out, best_of, min_seconds, call) BENCH_TIME(out, best_of, min_seconds, INFINITY, call)

/** CPU seconds per evaluation of \p call into \p out, from one timing of at least \p min_seconds. */
#define BENCH_SECONDS_PER_CALL(out, min_seconds, call) BENCH_BEST_SECONDS_PER_CALL(out, 1, min_seconds, call)

/** The columns `LABEL  TIME UNIT  RATIO` (label padded to \p width, the time in ns, us, ms or s
    as \p unit says, its ratio to \p base), no newline: a row may go on with columns of its own. */
void bench_print_time_ratio(const char *label, int width, double seconds, const char *unit, double base);

/** max_i |x_i − r_i| / (1 + |r_i|): an error in the measure of a tolerance used as rtol = atol. */
double bench_scaled_error(mpfr_srcptr x, mpfr_srcptr ref, size_t n);

#endif

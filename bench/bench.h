/*
 * What the benchmarks share: the clock and the repeat-until loop.
 *
 * Every time is process CPU time (CLOCK_PROCESS_CPUTIME_ID), so that other
 * load on a shared machine does not enter the ratios the benchmarks print.
 */
#ifndef CHARTLESS_BENCH_H
#define CHARTLESS_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/**
 * The benchmark's command line. `-h` or `--help` prints \p help (what the
 * benchmark measures and its options) on stdout and exits 0 without running
 * anything; an argument that is neither that nor one of the NULL-terminated
 * \p options (may be NULL) is refused with `error: unknown option (ARG)` and
 * exit status 2. Returns the index in \p options of the option given (the
 * first one), or -1 when none is.
 */
static inline int bench_args(int argc, char **argv, const char *help, const char *const *options)
{
    int given = -1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            exit(0);
        }
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (options && options[k] && strcmp(argv[i], options[k])) k++;
        if (!options || !options[k]) {
            fprintf(stderr, "error: unknown option (%s)\n", argv[i]);
            exit(2);
        }
        if (given < 0) given = k;
    }
    return given;
}

/** Process CPU time in seconds since an arbitrary origin. */
static inline double bench_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/** Runs `call` until at least `min_seconds` of CPU time have passed (at
    least once) and stores the CPU seconds per call in `out`. */
#define BENCH_SECONDS_PER_CALL(out, min_seconds, call)                                 \
    do {                                                                               \
        long bench_reps_ = 0;                                                          \
        double bench_t0_ = bench_cpu_seconds(), bench_t_;                              \
        do {                                                                           \
            call;                                                                      \
            bench_reps_++;                                                             \
            bench_t_ = bench_cpu_seconds() - bench_t0_;                                \
        } while (bench_t_ < (min_seconds));                                            \
        (out) = bench_t_ / (double)bench_reps_;                                        \
    } while (0)

#endif

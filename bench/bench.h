/*
 * What the benchmarks share: the clock and the repeat-until loop.
 *
 * Every time is process CPU time (CLOCK_PROCESS_CPUTIME_ID), so that other
 * load on a shared machine does not enter the ratios the benchmarks print.
 */
#ifndef CHARTLESS_BENCH_H
#define CHARTLESS_BENCH_H

#include <time.h>

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

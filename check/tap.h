/**
 * \file tap.h
 * \brief A small Test Anything Protocol producer for the test programs.
 *
 * `plan(n)`, `ok(cond, name...)`, `is_double(got, want, tol, name...)`,
 * `diag(...)`, `done_testing()` (returns the exit status). Each test
 * program prints one TAP stream; `prove` reads it.
 */
#ifndef CL_TAP_H
#define CL_TAP_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_run_, tap_failed_, tap_planned_ = -1;

static inline void plan(int n)
{
    tap_planned_ = n;
    printf("1..%d\n", n);
}

static inline void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

static inline int vok_(int cond, const char *fmt, va_list ap)
{
    tap_run_++;
    if (!cond) tap_failed_++;
    printf("%sok %d - ", cond ? "" : "not ", tap_run_);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    return cond;
}

/** One test: passes when cond is non-zero. Returns cond. */
static inline int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vok_(cond, fmt, ap);
    va_end(ap);
    return r;
}

/** Passes when |got − want| ≤ tol; on failure prints both and the gap. */
static inline int is_double(double got, double want, double tol, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vok_(fabs(got - want) <= tol, fmt, ap);
    va_end(ap);
    if (!r) diag("  got %.17g, want %.17g, |diff| %.3g > tol %.3g", got, want, fabs(got - want), tol);
    return r;
}

/** Passes when a log2 error is at most a log2 tolerance (both printed on failure). */
static inline int is_log2_below(double log2_err, double log2_tol, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vok_(log2_err <= log2_tol, fmt, ap);
    va_end(ap);
    if (!r) diag("  error 2^%.1f exceeds tolerance 2^%.1f", log2_err, log2_tol);
    return r;
}

/** Print the plan if none was given and return the exit status. */
static inline int done_testing(void)
{
    if (tap_planned_ < 0) printf("1..%d\n", tap_run_);
    else if (tap_planned_ != tap_run_) {
        diag("planned %d tests but ran %d", tap_planned_, tap_run_);
        return 1;
    }
    return tap_failed_ ? 1 : 0;
}
#endif

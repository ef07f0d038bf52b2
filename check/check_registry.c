/* The registry of checks, filled at program start, and the running and
   judging of one check on one rung of the precision ladder (check.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "chartless_base.h"

static const cl_check **checks;
static size_t nchecks, capchecks;

void cl_check_register(const cl_check *c, size_t n)
{
    if (nchecks + n > capchecks) {
        size_t cap = 2 * (nchecks + n) + 16;
        const cl_check **p = realloc(checks, cap * sizeof *p);
        if (!p) abort();
        checks = p;
        capchecks = cap;
    }
    for (size_t i = 0; i < n; i++) checks[nchecks++] = c + i;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const cl_check *const *)a)->name, (*(const cl_check *const *)b)->name);
}

size_t cl_check_count(void) { return nchecks; }

const cl_check *cl_check_get(size_t i)
{
    static size_t sorted;
    if (sorted != nchecks) {
        qsort(checks, nchecks, sizeof *checks, by_name);
        sorted = nchecks;
    }
    return i < nchecks ? checks[i] : NULL;
}

int cl_check_worst(cl_check_result *res, double e, const char *fmt, ...)
{
    if (!(isnan(e) || e > res->log2_err)) return 0;
    res->log2_err = isnan(e) ? INFINITY : e;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(res->note, sizeof res->note, fmt, ap);
        va_end(ap);
    }
    return 1;
}

int cl_check_measured_once(cl_check_result *res, cl_check_once *once, double tol,
                           double (*measure)(const void *arg, char *note, size_t len), const void *arg)
{
    if (!once->done) {
        once->offset = measure(arg, once->note, sizeof once->note);
        once->done = 1;
    }
    cl_check_begin(res);
    if (!(fabs(once->offset) <= tol)) cl_check_worst(res, log2(fabs(once->offset)), NULL); /* NaN fails */
    snprintf(res->note, sizeof res->note, "%s", once->note);
    return CL_OK;
}

/* The last rung run in this process (the oracle runs a check's rungs in
   increasing precision in a process of its own). */
static struct { const cl_check *c; long bits; double seconds; int spent; } last_rung;

double cl_check_rung_budget(const cl_check *c, long bits)
{
    if (last_rung.c == c && bits > last_rung.bits && !last_rung.spent) {
        double r = (double)bits / (double)last_rung.bits;
        return fmax(CL_CHECK_BUDGET_FLOOR, CL_CHECK_BUDGET_FACTOR * last_rung.seconds * r * r * r);
    }
    return CL_CHECK_BUDGET_FIRST * fmax(1.0, pow((double)bits / 256.0, 3));
}

/* Why the current rung could not draw a state inside the domain (cl_check_undefined()). */
static char undefined_why[sizeof ((cl_check_result *)0)->note];

void cl_check_undefined(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(undefined_why, sizeof undefined_why, fmt, ap);
    va_end(ap);
}

int cl_check_run(const cl_check *c, long bits, cl_check_result *res)
{
    res->log2_err = NAN;
    res->note[0] = 0;
    undefined_why[0] = 0;
    if (last_rung.c == c && last_rung.spent && bits > last_rung.bits) {
        snprintf(res->note, sizeof res->note, "not run: the rung at %ld bits ran out of its CPU time", last_rung.bits);
        return CL_ETIME;
    }
    double budget = cl_check_rung_budget(c, bits), t0 = cl_cpu_seconds();
    cl_cpu_budget_set(budget);
    int st = bits == 53 ? c->fn_d(res, 53) : c->fn_mp(res, (cl_prec_t)bits);
    /* A check that went on after its integrators refused has no result either. */
    int spent = st == CL_ETIME || cl_cpu_budget_spent();
    cl_cpu_budget_set(0);
    mpfr_free_cache();
    last_rung.c = c;
    last_rung.bits = bits;
    last_rung.seconds = cl_cpu_seconds() - t0;
    last_rung.spent = spent;
    if (spent) {
        snprintf(res->note, sizeof res->note, "stopped after %.1f s of CPU time, its budget at %ld bits (%.1f s)",
                 last_rung.seconds, bits, budget);
        return CL_ETIME;
    }
    if (st == CL_EUNDEFINED && !res->note[0]) snprintf(res->note, sizeof res->note, "%s", undefined_why);
    return st;
}

double cl_check_log2_tol(const cl_check *c, long bits)
{
    return c->kind == CL_CHECK_EXACT ? -INFINITY : log2(c->cond) + 1.0 - (double)bits;
}

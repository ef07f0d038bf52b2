/* Registries of checks and systems, filled at program start. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "system.h"

static const cl_check **checks;
static size_t nchecks, capchecks;

void cl_oracle_register(const cl_check *c, size_t n)
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

size_t cl_oracle_count(void) { return nchecks; }

const cl_check *cl_oracle_get(size_t i)
{
    static size_t sorted;
    if (sorted != nchecks) {
        qsort(checks, nchecks, sizeof *checks, by_name);
        sorted = nchecks;
    }
    return i < nchecks ? checks[i] : NULL;
}

static const cl_system *systems[64];
static size_t nsystems;

/* A registration beyond the fixed tables is a build error, never a silent drop. */
static void registry_full(const char *what, const char *name)
{
    fprintf(stderr, "chartless: too many %s registered (%s); enlarge the table in check/registry.c\n", what, name);
    abort();
}

void cl_system_register(const cl_system *s)
{
    if (nsystems >= sizeof systems / sizeof systems[0]) registry_full("systems", s->name);
    systems[nsystems++] = s;
}

const cl_system *cl_system_find(const char *name)
{
    for (size_t i = 0; i < nsystems; i++)
        if (strcmp(systems[i]->name, name) == 0) return systems[i];
    return NULL;
}

size_t cl_system_count(void) { return nsystems; }
const cl_system *cl_system_get(size_t i) { return i < nsystems ? systems[i] : NULL; }

int cl_system_form_index(const cl_system *s, const char *form)
{
    for (int i = 0; s->forms[i]; i++)
        if (strcmp(s->forms[i], form) == 0) return i;
    return -1;
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

int cl_check_run(const cl_check *c, long bits, cl_check_result *res)
{
    res->log2_err = NAN;
    res->note[0] = 0;
    int st = bits == 53 ? c->fn_d(res, 53) : c->fn_mp(res, (cl_prec_t)bits);
    mpfr_free_cache();
    return st;
}

double cl_check_log2_tol(const cl_check *c, long bits)
{
    return c->kind == CL_CHECK_EXACT ? -INFINITY : log2(c->cond) + 1.0 - (double)bits;
}

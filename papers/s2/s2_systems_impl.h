/*
 * Helpers shared by the command-line systems on (S²)ⁿ (papers/s2, and the
 * chain of papers/nfold): parameter lists, loose validation of an input
 * state, component names and constraint drift. Internal: not installed.
 */
#ifndef CL_S2_SYSTEMS_IMPL_H
#define CL_S2_SYSTEMS_IMPL_H
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "system.h"

/* |‖q_i‖ − 1| and |q_i·v_i| (relative to ‖v_i‖) must be below this on input;
 * q_i is then normalized and v_i projected at the working precision. */
#define S2_INPUT_TOL 0x1p-40

static const char *const s2_forms[] __attribute__((unused)) = {"qdot", "omega", "mu", "pi", NULL};
static const char *const s2_vname[] __attribute__((unused)) = {"qdot", "w", "mu", "pi"};

/* ------------------------------------------------------------ parsing */

/* Number of comma-separated items of s. */
static inline size_t count_items(const char *s)
{
    size_t k = 1;
    for (; *s; s++) k += *s == ',';
    return k;
}

/* Read a comma-separated list of exactly k numbers at the precision of v. */
static inline int parse_list(mpfr_ptr v, size_t k, const char *s, const char *key, char *err, size_t errlen)
{
    if (count_items(s) != k) {
        snprintf(err, errlen, "--%s needs %zu comma-separated values, got %zu", key, k, count_items(s));
        return CL_EDIM;
    }
    char buf[512];
    const char *p = s;
    for (size_t i = 0; i < k; i++) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, p, len);
        buf[len] = 0;
        int st = cl_real_from_str_mp(v + i, buf);
        if (st) {
            snprintf(err, errlen, "--%s: not a number: '%s'", key, buf);
            return st;
        }
        p = e ? e + 1 : p + len;
    }
    return CL_OK;
}

/* Parse --n: a whole number ≥ 1. */
static inline int parse_n(const char *s, size_t *n, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 100000) {
        snprintf(err, errlen, "--n must be a whole number from 1 to 100000, got '%s'", s);
        return CL_EDIM;
    }
    *n = (size_t)v;
    return CL_OK;
}

/* Find key in the options (NULL when absent); unknown keys are an error. */
static const char *opt(int nopt, char *const *keys, char *const *vals, const char *key)
{
    for (int i = 0; i < nopt; i++)
        if (!strcmp(keys[i], key)) return vals[i];
    return NULL;
}

static inline int check_known(int nopt, char *const *keys, const char *const *known, char *err, size_t errlen)
{
    for (int i = 0; i < nopt; i++) {
        int ok = 0;
        for (int k = 0; known[k]; k++) ok |= !strcmp(keys[i], known[k]);
        if (!ok) {
            snprintf(err, errlen, "unknown parameter --%s for this system", keys[i]);
            return CL_EPARAM;
        }
    }
    return CL_OK;
}

/* Validate (q, v) on (S²)ⁿ loosely (S2_INPUT_TOL), for messages. */
static inline int s2_check_input(size_t n, mpfr_srcptr x, char *err, size_t errlen)
{
    mpfr_t s, t;
    mpfr_init2(s, mpfr_get_prec(x));
    mpfr_init2(t, mpfr_get_prec(x));
    int st = CL_OK;
    for (size_t i = 0; i < n && !st; i++) {
        mpfr_srcptr q = x + 3 * i, v = x + 3 * (n + i);
        cl_v3_norm_mp(s, q);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        if (fabs(mpfr_get_d(s, MPFR_RNDN)) > S2_INPUT_TOL) {
            snprintf(err, errlen, "q%zu is not a unit vector (|q%zu| - 1 = %.3g)", i + 1, i + 1, mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTUNIT;
            break;
        }
        cl_v3_dot_mp(s, q, v);
        cl_v3_norm_mp(t, v);
        double rel = fabs(mpfr_get_d(s, MPFR_RNDN)) / fmax(1.0, mpfr_get_d(t, MPFR_RNDN));
        if (rel > S2_INPUT_TOL) {
            snprintf(err, errlen, "velocity %zu is not tangent to the sphere (q%zu . v%zu = %.3g)", i + 1, i + 1, i + 1,
                     mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTTANGENT;
        }
    }
    mpfr_clear(s);
    mpfr_clear(t);
    return st;
}

static inline void s2_component_name(size_t n, int form, size_t i, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    if (i < 3 * n) snprintf(buf, len, "q%zu.%c", i / 3 + 1, xyz[i % 3]);
    else snprintf(buf, len, "%s%zu.%c", s2_vname[form], (i - 3 * n) / 3 + 1, xyz[i % 3]);
}

/* Invariants shared by systems on (S²)ⁿ: max |‖q_i‖ − 1| and max |q_i·v_i|. */
static inline void s2_constraint_drift(size_t n, mpfr_ptr out2, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(x));
    mpfr_set_zero(out2, 1);
    mpfr_set_zero(out2 + 1, 1);
    for (size_t i = 0; i < n; i++) {
        cl_v3_norm_mp(s, x + 3 * i);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        mpfr_abs(s, s, MPFR_RNDN);
        if (mpfr_cmp(s, out2) > 0) mpfr_set(out2, s, MPFR_RNDN);
        cl_v3_dot_mp(s, x + 3 * i, x + 3 * (n + i));
        mpfr_abs(s, s, MPFR_RNDN);
        if (mpfr_cmp(s, out2 + 1) > 0) mpfr_set(out2 + 1, s, MPFR_RNDN);
    }
    mpfr_clear(s);
}
#endif

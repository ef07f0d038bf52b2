/**
 * \file oracle.h
 * \brief The oracle's registry of checks and its precision-ladder verdict.
 *
 * A check compares two computations that must agree (two forms of the same
 * vector field, an identity, a conservation law, a closed form) and reports
 * the largest discrepancy it saw, as log2, at one precision. The oracle runs
 * it on the ladder (53 bits through the double instantiation, higher rungs
 * through MPFR) and classifies the sequence (see verdict.c):
 *  - *rounding*: below tolerance at every rung and shrinking like 2^−p;
 *  - *pass*: below tolerance at every rung (e.g. exactly zero throughout);
 *  - *mismatch*: above tolerance at some rung.
 * The tolerance at p bits is cond·2^(1−p) (relative where the check scales
 * its discrepancy), with the condition factor `cond` and its reason stated
 * by the check.
 *
 * Checks are written once in a templated source (compiled twice) and
 * registered from its MPFR copy with CL_ORACLE_REGISTER.
 */
#ifndef CL_ORACLE_H
#define CL_ORACLE_H
#include <stddef.h>
#include "cl_types.h"

/** What one run of a check at one precision found. */
typedef struct cl_check_result {
    double log2_err;   /**< log2 of the largest discrepancy (−inf: none) */
    char note[200];    /**< optional: where the worst case occurred */
} cl_check_result;

/** One run at precision \p prec; 0 or a CL_E status (reported as an error). */
typedef int (*cl_check_fn)(cl_check_result *res, cl_prec_t prec);

/** How a check's discrepancies are judged. */
enum cl_check_kind {
    CL_CHECK_ROUNDING = 0, /**< a discrepancy expected to shrink like 2^−p */
    CL_CHECK_EXACT = 1     /**< a yes/no agreement: log2_err = −inf means agree */
};

/** A registered check. */
typedef struct cl_check {
    const char *name;    /**< unique dotted name, e.g. "s2.hat.45" */
    const char *chapter; /**< e.g. "S2 II" */
    const char *tags;    /**< equation tags, e.g. "[S2 (45)]" */
    const char *what;    /**< one line: what is compared with what */
    double cond;         /**< condition factor: tolerance cond·2^(1−p) */
    const char *why;     /**< why that factor */
    cl_check_fn fn_d;    /**< double instantiation (the 53-bit rung) */
    cl_check_fn fn_mp;   /**< MPFR instantiation (every other rung) */
    int kind;            /**< enum cl_check_kind */
    int slow;            /**< 1: left out of `oracle --quick` */
} cl_check;

/** Add \p n checks to the registry (called by CL_ORACLE_REGISTER). */
void cl_oracle_register(const cl_check *checks, size_t n);
/** Number of registered checks. */
size_t cl_oracle_count(void);
/** Registered check \p i, in name order. */
const cl_check *cl_oracle_get(size_t i);

#define CL_ORACLE_CAT_(a, b) a##b
#define CL_ORACLE_CAT(a, b) CL_ORACLE_CAT_(a, b)
/** Register a static array of cl_check at program start. */
#define CL_ORACLE_REGISTER(arr) \
    static void __attribute__((constructor)) CL_ORACLE_CAT(cl_oracle_reg_, __LINE__)(void) \
    { cl_oracle_register(arr, sizeof(arr) / sizeof((arr)[0])); }

/** Verdict of a check over a ladder. */
enum cl_verdict { CL_V_ROUNDING, CL_V_PASS, CL_V_MISMATCH, CL_V_ERROR };

/**
 * Classify discrepancies \p log2_err[k] at precisions \p bits[k] (increasing)
 * against tolerances log2(cond) + 1 − bits[k]. See verdict.c.
 */
enum cl_verdict cl_oracle_verdict(const cl_check *c, int n, const long *bits,
                                  const double *log2_err, const int *status);
/** "rounding", "pass", "mismatch" or "error". */
const char *cl_verdict_name(enum cl_verdict v);
#endif

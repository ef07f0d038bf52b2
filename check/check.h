/**
 * \file check.h
 * \brief The check kit: a check written once (CL_CHECK), its registry, the
 *        "worst discrepancy" bookkeeping and the precision-ladder verdict.
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
 * A check is one block in a templated source (compiled once per scalar
 * kind): CL_CHECK gives its description and its body, and registers it.
 */
#ifndef CL_CHECK_H
#define CL_CHECK_H
#include <stddef.h>
#include <math.h>
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

/** Add \p n checks to the registry (called by CL_CHECK). */
void cl_check_register(const cl_check *checks, size_t n);
/** Number of registered checks. */
size_t cl_check_count(void);
/** Registered check \p i, in name order. */
const cl_check *cl_check_get(size_t i);

/**
 * \brief Define and register a check in one block.
 *
 * \code
 * CL_CHECK(core_r3_lagrange, "core.r3.lagrange", .chapter = "core", .tags = "",
 *          .what = "|a x b|^2 + (a.b)^2 against |a|^2 |b|^2 (relative)",
 *          .cond = 16, .why = "about ten roundings on each side")
 * {
 *     cl_check_begin(res);
 *     ... cl_check_worst(res, log2_discrepancy, "at draw %d", k); ...
 *     return CL_OK;
 * }
 * \endcode
 *
 * \p id is a C identifier, \p name the dotted name the oracle prints; the
 * remaining arguments are designated initializers of cl_check. The body sees
 * `cl_check_result *res` and `cl_prec_t prec`; it is compiled once per
 * scalar kind (`check_<id>_d` runs the 53-bit rung, `check_<id>_mp` every
 * other), and the MPFR copy registers the description at program start.
 */
#if defined(CL_PREC) && CL_PREC == CL_MPFR
#define CL_CHECK(id, name_, ...) \
    int check_##id##_d(cl_check_result *res, cl_prec_t prec); \
    int check_##id##_mp(cl_check_result *res, cl_prec_t prec); \
    static const cl_check cl_check_desc_##id = {.name = name_, __VA_ARGS__, \
                                               .fn_d = check_##id##_d, .fn_mp = check_##id##_mp}; \
    static void __attribute__((constructor)) cl_check_reg_##id(void) { cl_check_register(&cl_check_desc_##id, 1); } \
    int check_##id##_mp(cl_check_result *res, cl_prec_t prec)
#else
#define CL_CHECK(id, name_, ...) \
    int check_##id##_d(cl_check_result *res, cl_prec_t prec); \
    int check_##id##_d(cl_check_result *res, cl_prec_t prec)
#endif

/** Start a result: no discrepancy seen yet (log2_err = −inf, empty note). */
static inline void cl_check_begin(cl_check_result *res)
{
    res->log2_err = -INFINITY;
    res->note[0] = 0;
}

/**
 * Record a discrepancy of log2 size \p e: when it is the largest so far (or
 * NaN, which always wins), it becomes res->log2_err and the note is set from
 * \p fmt (NULL keeps the note). Returns 1 when \p e became the worst.
 */
int cl_check_worst(cl_check_result *res, double e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** A verdict measured once per process, for a property of a method (its
    convergence order) that every rung of the ladder reports alike. */
typedef struct cl_check_once {
    int done;
    double offset;  /**< the measured quantity's offset from the expected one */
    char note[200]; /**< how it was measured */
} cl_check_once;

/**
 * The first call runs \p measure (it returns the offset of the measured
 * quantity from the expected one and writes a note) and keeps its result in
 * \p once; every call reports it: the row passes when |offset| ≤ \p tol, and
 * a NaN offset (a failed measurement) fails it.
 */
int cl_check_measured_once(cl_check_result *res, cl_check_once *once, double tol,
                           double (*measure)(const void *arg, char *note, size_t len), const void *arg);

/**
 * Run check \p c once at \p bits (53: the double body, else MPFR); its status.
 *
 * The rung runs under a CPU-time budget (cl_cpu_budget_set(),
 * cl_check_rung_budget()): past it the integrators fail with CL_ETIME, and
 * so does the rung, with a note of the time spent. A rung that ran out ends
 * the check: its higher rungs in the same process return CL_ETIME at once.
 * The verdict of such a row is *error*, a failed row.
 */
int cl_check_run(const cl_check *c, long bits, cl_check_result *res);

/**
 * Say why no state inside the domain of the formula could be drawn (the
 * subexpression that left its domain, a degenerate Lagrangian): a check
 * whose rung then returns CL_EUNDEFINED with no note of its own gets this
 * one (cl_check_run()). Its verdict is *undefined*, neither a pass nor a
 * mismatch. printf-style \p fmt.
 */
void cl_check_undefined(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** \name The CPU-time budget of a rung, scaled to the check's normal cost */
/**@{*/
#define CL_CHECK_BUDGET_FLOOR 4.0  /**< seconds: no rung is given less */
#define CL_CHECK_BUDGET_FACTOR 4.0 /**< times the previous rung's CPU time, scaled by (p / p_prev)³ */
#define CL_CHECK_BUDGET_FIRST 20.0 /**< seconds for the first rung a process runs, times max(1, (p/256)³) */
/**@}*/

/**
 * The CPU-time budget cl_check_run() gives \p c at \p bits: when the last
 * rung this process ran was the same check at a lower precision p′ and
 * took s seconds, max(CL_CHECK_BUDGET_FLOOR, CL_CHECK_BUDGET_FACTOR · s ·
 * (p/p′)³) — the cost of a rung grows with p about as p², its step count
 * with the tolerance, and the factor leaves room for both; otherwise
 * CL_CHECK_BUDGET_FIRST · max(1, (p/256)³). On the full oracle every
 * rung takes a quarter of its budget or less (the most: skate.fig4.fall at
 * 1024 bits); a wrong integrator coefficient that makes a trajectory row
 * shrink its step ends in seconds.
 */
double cl_check_rung_budget(const cl_check *c, long bits);

/** log2 of the tolerance of \p c at \p bits: log2(cond) + 1 − bits (−inf for exact checks). */
double cl_check_log2_tol(const cl_check *c, long bits);

/** Verdict of a check over a ladder. */
enum cl_verdict { CL_V_ROUNDING, CL_V_PASS, CL_V_MISMATCH, CL_V_ERROR, CL_V_UNDEFINED };

/**
 * Classify discrepancies \p log2_err[k] at precisions \p bits[k] (increasing)
 * against tolerances log2(cond) + 1 − bits[k]. See verdict.c.
 */
enum cl_verdict cl_check_verdict(const cl_check *c, int n, const long *bits,
                                  const double *log2_err, const int *status);
/** "rounding", "pass", "mismatch", "error" or "undefined". */
const char *cl_verdict_name(enum cl_verdict v);

/** Largest number of rungs cl_ladder_compare() takes. */
#define CL_LADDER_MAX 16

/**
 * A user's comparison at one rung of the ladder: compute the two sides at
 * \p prec bits (53: in double or in MPFR at 53 bits) and write their
 * discrepancy |a − b| (relative where that is meaningful) into \p err, an
 * MPFR number of \p prec bits set to 0 on entry. Return 0, or a CL_E
 * status when the computation failed (the verdict is then *error*).
 */
typedef int (*cl_ladder_fn)(void *ctx, cl_prec_t prec, mpfr_ptr err);

/** What cl_ladder_compare() found, rung by rung. */
typedef struct cl_ladder_result {
    int n;                           /**< rungs run */
    long bits[CL_LADDER_MAX];        /**< their precisions */
    double log2_err[CL_LADDER_MAX];  /**< e_p = log2 of the discrepancy (−inf: exactly 0; NaN: not a number) */
    double digits[CL_LADDER_MAX];    /**< −log10 of the discrepancy: decimal digits of agreement (+inf: exact) */
    double log2_tol[CL_LADDER_MAX];  /**< log2 τ_p = log2(cond) + 1 − p */
    int status[CL_LADDER_MAX];       /**< what the user's function returned */
    enum cl_verdict verdict;         /**< as the oracle judges a check (docs/verdict.md) */
} cl_ladder_result;

/**
 * \brief Judge a user's comparison on the precision ladder, as the oracle
 *        judges its own checks.
 *
 * Calls \p fn(\p ctx, p, err) at each precision p of \p bits (\p n rungs,
 * increasing, each at least 2; \p bits NULL or \p n 0: the default ladder
 * 53, 113, 256, 1024), records e_p = log2 err and the digits −log10 err,
 * and classifies the sequence against the tolerances
 * \f[ \tau_p = c\,2^{1-p}, \qquad c = \text{cond} \ge 1 , \f]
 * in this order (cl_check_verdict()):
 *  - CL_V_ERROR: \p fn returned non-zero at some rung, or the arguments are
 *    invalid (status CL_EPARAM at rung 0: cond not finite or below 1, n above
 *    CL_LADDER_MAX, bits not increasing or below 2);
 *  - CL_V_MISMATCH: e_p > log2 τ_p at some rung, or err is NaN — a
 *    discrepancy that does not shrink like 2^−p: the two sides differ;
 *  - CL_V_ROUNDING: within tolerance at every rung, some err non-zero;
 *  - CL_V_PASS: err exactly zero at every rung.
 * The condition factor states how many roundings the two computations may
 * accumulate and how much they amplify them (docs/verdict.md); it is the
 * same at every rung, so a wrong formula cannot hide behind it at 1024
 * bits. Returns the verdict, also in \p res (which may be NULL).
 */
enum cl_verdict cl_ladder_compare(cl_ladder_fn fn, void *ctx, double cond, int n, const long *bits, cl_ladder_result *res);
#endif

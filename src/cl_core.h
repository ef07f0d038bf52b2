/**
 * \file cl_core.h
 * \brief Precision-independent part of chartless: status codes, precision
 *        limits and the seeded random generator shared by both scalar kinds,
 *        the constructor convention's last step, releasing an object's
 *        arrays, and the lines of a text.
 */
#ifndef CL_CORE_H
#define CL_CORE_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <mpfr.h>

/** \name Scalar kinds a templated source can be compiled for (`-DCL_PREC=...`). */
/**@{*/
#define CL_DOUBLE 1 /**< IEEE binary64; symbols end in `_d`. */
#define CL_MPFR 2   /**< GNU MPFR, precision chosen at run time; symbols end in `_mp`. */
#define CL_ARB 3    /**< Arb midpoint–radius balls (rigorous enclosures); symbols end in `_arb`. */
#define CL_TRACE 4  /**< Tracing: each operation appends a node to an expression graph (trace.h); symbols end in `_tr`. Internal. */
/**@}*/

/** \name Status codes. Library calls return 0 or one of these (negative). */
/**@{*/
#define CL_OK 0
#define CL_EPREC (-1)        /**< precision (bits) out of [CL_PREC_MIN, CL_PREC_MAX] */
#define CL_ENOTUNIT (-2)     /**< a point of S² is not a unit vector */
#define CL_ENOTTANGENT (-3)  /**< a velocity is not tangent to the manifold */
#define CL_ENAN (-4)         /**< NaN or infinity among the inputs */
#define CL_ESINGULAR (-5)    /**< a matrix is singular to working precision */
#define CL_EDIM (-6)         /**< a dimension is out of range or inconsistent */
#define CL_ENOMEM (-7)       /**< memory allocation failed */
#define CL_ENOCONV (-8)      /**< an iteration did not converge */
#define CL_EDOMAIN (-9)      /**< an argument is outside the domain of the formula */
#define CL_EPARSE (-10)      /**< a number or list could not be read */
#define CL_EPARAM (-11)      /**< a physical parameter is invalid (mass, length, inertia) */
#define CL_ESTEP (-12)       /**< the integrator step size underflowed */
#define CL_EBUDGET (-13)     /**< an integration ran out of its evaluation budget */
#define CL_EUNDECIDED (-14)  /**< a sign or comparison that decides the result is not proven (a ball contains zero) */
#define CL_ETIME (-15)       /**< an integration ran past the CPU time this thread allows (cl_cpu_budget_set()) */
#define CL_EUNDEFINED (-16)  /**< no state inside the domain of the formula could be drawn (a check is undefined there) */
/**@}*/

/**
 * Result of r_cmp3() and r_sgn3() when balls overlap: neither less, equal
 * nor greater is proven. Never returned for double or MPFR scalars.
 */
#define CL_UNDECIDED 2

/** Smallest precision in bits accepted by any `_mp` routine. */
#define CL_PREC_MIN 2
/** Largest precision in bits accepted by any `_mp` routine. */
#define CL_PREC_MAX 65536

/** Precision in bits (MPFR's `mpfr_prec_t`). Double routines ignore it (53). */
typedef mpfr_prec_t cl_prec_t;

/** Message for a status code; never NULL. */
const char *cl_strerror(int status);

/**
 * The last step of a constructor, `return CL_HAND_OUT(out, obj, st, release);`: with the status \p st
 * (a variable: it is read twice) nonzero, \p obj released by \p release (which takes a half-built
 * object) and \p st returned; else \p obj handed out through \p out and CL_OK returned.
 */
#define CL_HAND_OUT(out, obj, st, release) ((st) ? ((release)(obj), (st)) : (*(out) = (obj), CL_OK))

/** free() each of the \p n pointers \p p (NULL allowed): the arrays an object owns, released by one call. */
void cl_free_each(void *const *p, size_t n);
/** cl_free_each() over the listed pointers: `CL_FREE_EACH(m->names, m->nodes, m);`. */
#define CL_FREE_EACH(...) cl_free_each((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/** The line of text that starts at \p s: its length, without the newline, into *\p len; returns where the
    next line starts (past the newline, or at the terminating NUL of the last line). */
const char *cl_next_line(const char *s, size_t *len);
/** A new string made of \p text line by line: \p line writes what line (\p s, \p len bytes, without its
    newline) becomes into \p out, nonzero to give up. NULL when one gave up or out of memory (free() it). */
char *cl_text_by_lines(const char *text, int (*line)(FILE *out, const char *s, size_t len, void *ctx), void *ctx);

/** 0 when \p prec lies in [CL_PREC_MIN, CL_PREC_MAX], else CL_EPREC. */
int cl_prec_check(long prec);

/**
 * \brief Seeded pseudo-random generator (xoshiro256**).
 *
 * Random states are drawn as doubles and converted exactly to the working
 * precision, so the same seed gives the same inputs in every precision and
 * results differ only by rounding.
 */
typedef struct cl_rng { uint64_t s[4]; } cl_rng;

/** Seed \p g from a 64-bit integer (splitmix64 expansion). */
void cl_rng_seed(cl_rng *g, uint64_t seed);
/** Next 64 random bits. */
uint64_t cl_rng_u64(cl_rng *g);
/** Uniform double in [0, 1) with 53 random bits. */
double cl_rng_uniform(cl_rng *g);
/** Uniform double in [a, b). */
double cl_rng_range(cl_rng *g, double a, double b);
/** Standard normal double (Box–Muller, computed in double). */
double cl_rng_normal(cl_rng *g);

/** CPU seconds this thread has used (CLOCK_THREAD_CPUTIME_ID). */
double cl_cpu_seconds(void);
/**
 * \brief A CPU-time budget for this thread: from now on, at most \p seconds
 *        more of CPU time in the integrators.
 *
 * Every right-hand side evaluation of cl_ode_integrate(), cl_ode_step() and
 * the Lie-group integrators looks at the clock (every 16th evaluation) and,
 * once the budget is spent, fails with CL_ETIME with the last accepted point
 * kept, as the evaluation budget fails with CL_EBUDGET. The check kit gives
 * each rung of a check such a budget, so that a wrong coefficient which
 * makes an adaptive integrator shrink its step ends the row as an error in
 * seconds (cl_check_run()). \p seconds ≤ 0 or NaN removes the budget (the
 * default).
 */
void cl_cpu_budget_set(double seconds);
/** 1 when this thread's CPU-time budget is set and spent, else 0 (reads the clock). */
int cl_cpu_budget_spent(void);

/** log2 of a positive MPFR number as a double (−inf for 0), exact in range. */
double cl_mpfr_log2(mpfr_srcptr x);

#endif

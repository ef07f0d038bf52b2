/**
 * \file cl_types.h
 * \brief The three scalar kinds as C types.
 *
 * A scalar is passed by pointer in both kinds, in MPFR's calling style:
 * `cl_rptr_d` is `double *` and `cl_rptr_mp` is `mpfr_ptr`. A vector of n
 * scalars is a pointer to its first element, so `v + i` is element i in
 * every kind; a matrix is a row-major vector. The third kind, Arb balls
 * (`cl_rptr_arb` is `arb_ptr`), encloses every result rigorously; see
 * scalar.h for how its precision and comparisons are defined.
 */
#ifndef CL_TYPES_H
#define CL_TYPES_H
#include "cl_core.h"
#include <arb.h>

typedef double cl_real_d[1];      /**< one double, addressable like mpfr_t */
typedef double *cl_rptr_d;        /**< writable double scalar or vector */
typedef const double *cl_rsrc_d;  /**< read-only double scalar or vector */
typedef mpfr_t cl_real_mp;        /**< one MPFR number */
typedef mpfr_ptr cl_rptr_mp;      /**< writable MPFR scalar or vector */
typedef mpfr_srcptr cl_rsrc_mp;   /**< read-only MPFR scalar or vector */
typedef arb_t cl_real_arb;        /**< one Arb ball (midpoint, radius) */
typedef arb_ptr cl_rptr_arb;      /**< writable ball or vector of balls */
typedef arb_srcptr cl_rsrc_arb;   /**< read-only ball or vector of balls */
/** One traced scalar (trace.h): the graph node that computes it, and its value at the traced point. */
typedef struct cl_trace_scalar { int id; double v; } cl_trace_scalar;
typedef cl_trace_scalar cl_real_tr[1];          /**< one traced scalar */
typedef cl_trace_scalar *cl_rptr_tr;            /**< writable traced scalar or vector */
typedef const cl_trace_scalar *cl_rsrc_tr;      /**< read-only traced scalar or vector */

/** The ball kind's working precision in bits, one per thread (128 until set). */
cl_prec_t cl_arb_get_prec(void);
/** Set this thread's ball precision; CL_EPREC outside [CL_PREC_MIN, CL_PREC_MAX]. */
int cl_arb_set_prec(cl_prec_t prec);
/** Release the caches MPFR, FLINT and Arb keep for the calling thread
    (constants such as π at the largest precision used, small integers), so
    that a program ends with nothing a leak checker would report. */
void cl_free_caches(void);

/** \name One named part of a block from cl_rvec_slices(): where its first scalar goes, and its length */
/**@{*/
typedef struct cl_slice_d { cl_rptr_d *at; size_t n; } cl_slice_d;
typedef struct cl_slice_mp { cl_rptr_mp *at; size_t n; } cl_slice_mp;
typedef struct cl_slice_arb { cl_rptr_arb *at; size_t n; } cl_slice_arb;
typedef struct cl_slice_tr { cl_rptr_tr *at; size_t n; } cl_slice_tr;
/**@}*/

/** \name One block carved into named parts: cl_rvec_slices() with its parts counted */
/**@{*/
#define CL_RVEC_SLICES_MP(prec, ...) \
    cl_rvec_slices_mp((prec), (const cl_slice_mp[]){__VA_ARGS__}, sizeof((const cl_slice_mp[]){__VA_ARGS__}) / sizeof(cl_slice_mp))
#define CL_RVEC_SLICES_ARB(prec, ...) \
    cl_rvec_slices_arb((prec), (const cl_slice_arb[]){__VA_ARGS__}, sizeof((const cl_slice_arb[]){__VA_ARGS__}) / sizeof(cl_slice_arb))
/**@}*/

#endif

/**
 * \file deriv.h
 * \brief Callback types of the derivative routines (deriv_decl.h), the same
 *        for both scalar kinds.
 *
 * A function to be differentiated is always given in MPFR form, because
 * cl_jacobian_d / cl_jacobian_mp and the others evaluate it at a precision
 * raised well above the target one (see deriv.c for how that precision and
 * the steps are chosen). The callback must evaluate at the precision of its
 * output argument(s); parameters it reads from \p ctx may be stored at a
 * lower precision (they are then simply exact constants of the function).
 */
#ifndef CL_DERIV_H
#define CL_DERIV_H
#include "cl_types.h"

/**
 * A vector field y = f(x), R^n_in → R^n_out: writes the n_out entries of
 * \p y (each at the precision of y[0]) from the n_in entries of \p x. The
 * dimensions are known to the caller through \p ctx. Returns 0, or a
 * negative status that the derivative routine passes on unchanged.
 */
typedef int (*cl_field_mp_fn)(mpfr_ptr y, mpfr_srcptr x, void *ctx);

/**
 * A scalar function f = f(x), R^n → R: writes \p f at its own precision.
 * Returns 0, or a negative status that is passed on unchanged.
 */
typedef int (*cl_scalar_mp_fn)(mpfr_ptr f, mpfr_srcptr x, void *ctx);

#endif

/* Templated prototypes of deriv.c (derivatives at raised internal precision). */
#include "deriv.h"

/**
 * \brief Jacobian J = ∂f/∂x of a vector field, accurate to the precision of J.
 *
 * J is n_out × n_in, row-major: J[i·n_in + j] = ∂f_i/∂x_j at \p x. The point
 * x is converted exactly to MPFR; central differences with absolute steps
 * h_k = 2^(−3−k) are combined by Richardson extrapolation at an internal
 * precision P raised above the target p (53 for `_d`, the precision of J for
 * `_mp`), until the last two diagonal entries of the table agree to
 * 2^(−p−8) relative to |∂f_i/∂x_j| or to the rounding of f (deriv.c
 * documents P, the steps and the stopping rule). The result is rounded once
 * into J: within 2^(1−p) of the derivative relative to
 * max(|∂f_i/∂x_j|, 2^−12·max(1, |f(x)|)) for a function that satisfies the
 * assumption below.
 *
 * The function must be analytic in a complex neighbourhood of radius ≳ 1/4
 * around x in each coordinate (rescale the variables otherwise); the error
 * estimate shows when it is not.
 *
 * \param J        n_out·n_in outputs.
 * \param err_est  NULL, or n_out·n_in outputs: a bound of |J_ij − ∂f_i/∂x_j|
 *                 (last Richardson correction + rounding of f and of the
 *                 final result), rounded upwards.
 * \param f        the field, evaluated at the precision of its output.
 * \param ctx      passed to f.
 * \param x        n_in inputs.
 * \return 0; CL_EDIM if a dimension is 0; CL_ENAN if x or a value of f is
 *         not finite; CL_EPREC if the internal precision would exceed
 *         CL_PREC_MAX; CL_ENOMEM; CL_ENOCONV if the table did not settle
 *         within its rows (J and err_est are then filled with the last
 *         diagonal entries and their last corrections, which are no longer
 *         a bound: f is not smooth enough at the scale of the steps); or the
 *         callback's own negative status.
 */
int CL_FN(cl_jacobian)(cl_rptr J, cl_rptr err_est, cl_field_mp_fn f, void *ctx, cl_rsrc x,
                       size_t n_in, size_t n_out);

/**
 * \brief Gradient g = ∇f of a scalar function, accurate to the precision of g.
 *
 * The 1 × n Jacobian of f (see cl_jacobian): same steps, precision, stopping
 * rule, error estimate and status codes.
 */
int CL_FN(cl_gradient)(cl_rptr g, cl_rptr err_est, cl_scalar_mp_fn f, void *ctx, cl_rsrc x, size_t n);

/**
 * \brief Hessian H = ∂²f/∂x∂x of a scalar function, accurate to the
 *        precision of H, symmetric by construction.
 *
 * H is n × n row-major. Diagonal entries come from the second central
 * difference (f(x+h e_i) − 2f(x) + f(x−h e_i))/h², off-diagonal entries
 * (i < j) from the four-point difference
 * (f(x+he_i+he_j) − f(x+he_i−he_j) − f(x−he_i+he_j) + f(x−he_i−he_j))/(4h²),
 * both even series in h, extrapolated like cl_jacobian at an internal
 * precision raised by twice as many step bits; H_ji is set equal to H_ij.
 * Same analyticity assumption, error estimate (n × n) and status codes as
 * cl_jacobian.
 */
int CL_FN(cl_hessian)(cl_rptr H, cl_rptr err_est, cl_scalar_mp_fn f, void *ctx, cl_rsrc x, size_t n);

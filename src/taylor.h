/**
 * \file taylor.h
 * \brief Taylor integration of a field given as an expression graph: the
 *        normalized Taylor coefficients of every node by the recurrences of
 *        automatic differentiation, the order from the tolerance and the
 *        step from the last two coefficients (Jorba and Zou; heyoka's
 *        rules), dense output and event location on the step's polynomial
 *        (prototypes in taylor_decl.h).
 *
 * A field x' = f(t, x) is a graph (expr.h) and n node ids: x_i' is node
 * out[i], the state x_i is the graph's input i (i < n) and the time, when
 * the field depends on it, the input \p tin. More nodes (event functions,
 * quantities wanted along the motion) may follow the n outputs: their
 * coefficients are computed with the field's, so their value over the step
 * is a polynomial too.
 *
 * Normalized coefficients: a node's value along the step is
 * \f$u(t_0 + s) = \sum_{k=0}^{p} u_k s^k\f$, \f$u_k = u^{(k)}(t_0)/k!\f$.
 * For x' = f the coefficients of the state follow from those of the
 * outputs, \f$x_{i,k+1} = f_{i,k}/(k+1)\f$, and each node's order-k
 * coefficient from its arguments' orders 0..k (Leibniz's rule for
 * products, a division's quotient recurrence, sin and cos computed as a
 * pair, tan with 1 + tan², exp, log, sqrt from its square, whole powers,
 * atan2 with x² + y²); see taylor_coef.c.
 *
 * Precision: at MPFR precisions P ≥ 192 bits an adaptive step computes the
 * order-k coefficients at the bits their terms \f$x_k h^k\f$ need (about
 * \f$P - 2k\log_2 e\f$ under the Jorba–Zou step, learned from the
 * previous step), and caps the step so that each term stays within 2^(−P)
 * of the state's scale; the first step is planned from a pilot expansion at
 * 64 bits, a step that hmax shortens for its length, and fixed steps use P
 * bits at every order. At order 350 and 1024 bits that makes a step 1.4 to 2 times cheaper
 * (the n = 2 chain, the pendulum of bench_taylor).
 *
 * Balls (_arb): the coefficients, the polynomials and cl_taylor_step() on
 * Arb balls, every coefficient a ball that encloses the exact coefficient
 * of every point of the input balls (no precision plan; the driver and the
 * event search stay double/MPFR). enclose.h builds the validated step on
 * them.
 */
#ifndef CL_TAYLOR_H
#define CL_TAYLOR_H
#include <stddef.h>
#include "cl_types.h"
#include "expr.h"

/* The driver reports with the ODE integrators' observer and statistics. */
#define CL_TEMPLATE_HEADER "ode_decl.h"
#include "cl_instantiate.h"

/** Largest order of cl_taylor_new(). */
#define CL_TAYLOR_MAX_ORDER 10000

#define CL_TEMPLATE_HEADER "taylor_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#endif

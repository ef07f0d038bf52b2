/**
 * \file enclose.h
 * \brief A validated integrator on Arb balls: the C⁰ Lohner algorithm with
 *        parallelepiped and QR wrapping control (as in CAPD) over the Taylor coefficients of
 *        an expression graph (taylor.h, _arb).
 *
 * The set that holds the exact solution is \f$ m + B r \f$: a point m, an
 * n × n matrix B (orthogonal up to rounding) and a box r of balls centred
 * at 0. One step of length h from the set X = hull(m + B r):
 *  - the a-priori enclosure W of every solution from X over [0, h]: the
 *    high-order test of Corliss and Rihm, \f$ W \supseteq \sum_{j \le p}
 *    [0,h]^j x_j(X) + [0,h]^{p+1} x_{p+1}(W) \f$ (x_j the Taylor
 *    coefficients, the time a ball [t, t + h] where the field depends on
 *    it);
 *  - the Taylor polynomial at the point m on balls plus the remainder
 *    \f$ h^{p+1} x_{p+1}(W) \f$, whose midpoint is the next m;
 *  - the Jacobian of the Taylor polynomial over X, \f$ J = \sum_{j \le p}
 *    V_j(X) h^j \f$, from the Taylor coefficients of the variational
 *    system V' = Df(x) V, V(0) = I (Df by symbolic differentiation of the
 *    graph);
 *  - the new frame: A = J B and B' = mid(A) (the parallelepiped) while
 *    its condition number stays below 2^(prec/8), else Lohner's QR, B' = Q
 *    of the QR factorization of mid(A) with its columns sorted by the
 *    length of mid(A) diag(rad r); then
 *    \f$ r' = (B'^{-1} A) r + B'^{-1}(z − m') \f$ with an enclosure of
 *    \f$ B'^{-1} \f$ by an LU solve on balls.
 * So \f$ x(t + h) \in m' + B' r' \f$ for every exact solution from a point
 * of the set. The order is cl_taylor_order_for_tol(−prec) (46 at 128 bits)
 * and the step Jorba and Zou's from the point expansion, shortened until
 * the a-priori test holds and the remainder is within 2^(8 − prec) of the
 * state's scale.
 */
#ifndef CL_ENCLOSE_H
#define CL_ENCLOSE_H
#include <stddef.h>
#include <arb.h>
#include "cl_types.h"
#include "expr.h"

/** A validated integrator (opaque). */
typedef struct cl_enclose cl_enclose;

/** Testing only: leave out the remainder term, from the set and from the choice of the step (the enclosure is then no proof). */
#define CL_ENCLOSE_DROP_REMAINDER 1
/** Lohner's QR frame at every step, never the parallelepiped (still a proof; wider sets). */
#define CL_ENCLOSE_QR_ONLY 2

/**
 * \brief The integrator of the field of \p g: \p nodes holds the n output
 *        ids (x_i' = node i, the state input i), then \p nextra ids whose
 *        values are enclosed on the set (cl_enclose_extras()); \p tin is
 *        the time's input (−1: none); \p order the Taylor order (0: from
 *        the precision, cl_taylor_order_for_tol(−prec)).
 *
 * The graph is copied with the variational system added; \p g may change
 * or go after the call. The working precision is Arb's of the thread
 * (cl_arb_set_prec()), which must be \p prec. Returns 0, CL_EDIM,
 * CL_EPARAM, CL_EPREC, CL_EPARSE or CL_ENOMEM.
 */
int cl_enclose_new(cl_enclose **out, const cl_expr_dag *g, const int *nodes, size_t n, size_t nextra, long tin,
                   int order, cl_prec_t prec);
void cl_enclose_free(cl_enclose *e);
/** Options (CL_ENCLOSE_DROP_REMAINDER, CL_ENCLOSE_QR_ONLY), or-ed. */
void cl_enclose_set_flags(cl_enclose *e, int flags);

/** The initial set: the time \p t and the balls \p x (m their midpoints, B = I, r their radii). */
void cl_enclose_start(cl_enclose *e, arb_srcptr t, arb_srcptr x);

/**
 * \brief One step toward \p t1 (> the current time; the step lands on it
 *        when it reaches it). Returns 0, or CL_ESTEP with the reason in
 *        cl_enclose_reason() when no step of at least 2^(−prec) max(1, |t|)
 *        passes its tests (the set is then that of the last step).
 */
int cl_enclose_step(cl_enclose *e, arb_srcptr t1);
/** Why the last cl_enclose_step() failed. */
const char *cl_enclose_reason(const cl_enclose *e);

/** The current time (a ball when t1 was one). */
arb_srcptr cl_enclose_time(const cl_enclose *e);
/** The box hull(m + B r) of the current set into \p x (n balls). */
void cl_enclose_hull(const cl_enclose *e, arb_ptr x);
/** The extras enclosed on the box \p x (n balls) at the time \p t into \p v: 0 or a CL_E code. */
int cl_enclose_extras(cl_enclose *e, arb_srcptr t, arb_srcptr x, arb_ptr v);
/**
 * A box of the motion at the offset \p s (a ball within [0, h]) into the
 * last step, from the set at its start: the step's polynomial at s, the
 * remainder \f$ s^{p+1} x_{p+1}(W) \f$ and its Jacobian at s on the set (no QR).
 * Returns 0, or CL_EPARAM before the first step.
 */
int cl_enclose_within(cl_enclose *e, arb_srcptr s, arb_ptr x);
/** The time at the start of the last step, and its length h. */
arb_srcptr cl_enclose_step_start(const cl_enclose *e);
arb_srcptr cl_enclose_step_length(const cl_enclose *e);
/** The order of the Taylor polynomials, and the steps taken so far. */
int cl_enclose_order(const cl_enclose *e);
long cl_enclose_steps(const cl_enclose *e);
#endif

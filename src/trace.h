/**
 * \file trace.h
 * \brief The tracing scalar kind: a templated routine run once on traced
 *        scalars writes itself into an expression graph.
 *
 * A source compiled with `-DCL_PREC=CL_TRACE` (symbols `_tr`) does its
 * arithmetic on cl_trace_scalar: every r_add(), r_mul(), r_sin(), … appends
 * (or finds, the graph being hash-consed) the node of that operation in the
 * graph given to cl_trace_begin(), and carries the double value of the
 * operation at the traced point beside it. Running a vector field written
 * once in templated C (a paper's hand-written field) on traced inputs gives
 * the same field as a graph, for the Taylor integrator (taylor.h), with
 * nothing written twice.
 *
 * Branches are taken once, at the traced point, and frozen in the graph:
 * comparisons (r_cmp(), r_cmpabs(), r_sgn(), pivoting in linalg) read the
 * double values, and r_abs() becomes a or −a by the sign there. A routine
 * whose branches depend on the state is traced correctly only where they
 * go the same way; elimination with pivots chosen at one point is the same
 * rational function everywhere its pivots do not vanish. r_is_zero() is
 * true only of the graph's exact zero, so that a term skipped for being 0 is
 * 0 everywhere. Constants become decimal constant nodes read at the
 * working precision of the evaluator (integers exactly; r_set_q() as a
 * quotient node, correctly rounded at every precision; a double or an MPFR
 * number as its exact integer mantissa over a power of two).
 *
 * The graph and the traced precision are per thread; tracing is for the
 * modules that define CL_TEMPLATE_TRACE in their header (the Makefile's
 * SRC_TRACE and a paper.def's `trace` field).
 */
#ifndef CL_TRACE_H
#define CL_TRACE_H
#include "cl_types.h"
#include "expr.h"

/**
 * Start tracing into \p g on this thread; \p prec is what r_prec() returns
 * while tracing (a routine that sizes its temporaries or its tolerances by
 * it sees the precision it will be evaluated at). Returns 0, or CL_EPARAM
 * when \p g is NULL or a trace is already under way on this thread.
 */
int cl_trace_begin(cl_expr_dag *g, cl_prec_t prec);
/** End the trace: 0, or CL_ENOMEM when a node could not be added (some id is −1). */
int cl_trace_end(void);
/** The graph being traced into (NULL when none). */
cl_expr_dag *cl_trace_dag(void);
/** The precision given to cl_trace_begin() (53 when none). */
cl_prec_t cl_trace_prec(void);
/** x[i] = input i of the graph, valued v[i] (the traced point), for i < n. */
void cl_trace_inputs(cl_rptr_tr x, const double *v, size_t n);

/** \name The node operations of the tracing kind (used by scalar.h) */
/**@{*/
/** The node of op on a (and b, or −1), exponent k for POWI; −1 when out of memory (the trace then fails). */
int cl_trace_node(int op, int a, int b, long k);
/** The constant node of decimal \p s (a leading '-' as a negation node). */
int cl_trace_const_str(const char *s);
/** The constant node of the whole number \p a. */
int cl_trace_const_si(long a);
/** The constant node of \p a, exactly: m/2^e or m·2^e with m the integer mantissa. */
int cl_trace_const_double(double a);
/** The constant node of \p w, exactly (as cl_trace_const_double()). */
int cl_trace_const_mpfr(mpfr_srcptr w);
/** The constant node of 2^k, exactly. */
int cl_trace_const_2exp(long k);
/** The graph's exact zero. */
int cl_trace_zero(void);
/**@}*/
#endif

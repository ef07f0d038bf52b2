/**
 * \file expr_nodes_impl.h
 * \brief Internal (never installed): arithmetic on the nodes of an
 *        expression graph with the exact rewritings of the symbolic
 *        derivative (expr_diff.c), for the code that writes equations of
 *        motion as nodes (model_graph*.c).
 *
 * Each returns the node of the result, or −1 when out of memory or when an
 * argument is −1 (so a chain of calls fails once, at its end). The
 * rewritings are those exact in every rounding to nearest: 0 + v, 0·v, 1·v,
 * v − v, (−a)·b = −(a·b), a + (−b) = a − b, a − (−b) = a + b, 0/b = 0.
 */
#ifndef CL_EXPR_NODES_IMPL_H
#define CL_EXPR_NODES_IMPL_H
#include <stddef.h>
#include "expr.h"

/** a + b */
int cl_expr_node_add(cl_expr_dag *g, int a, int b);
/** a − b */
int cl_expr_node_sub(cl_expr_dag *g, int a, int b);
/** a·b */
int cl_expr_node_mul(cl_expr_dag *g, int a, int b);
/** −a */
int cl_expr_node_neg(cl_expr_dag *g, int a);
/** a/b (b nonzero where the quotient is evaluated) */
int cl_expr_node_div(cl_expr_dag *g, int a, int b);
/** \f$ \sum_{k<n} a_{k s_a} b_{k s_b} \f$ */
int cl_expr_node_dot(cl_expr_dag *g, const int *a, size_t sa, const int *b, size_t sb, size_t n);
#endif

/**
 * \file expr_share.h
 * \brief Common sub-products of an expression graph (expr_share.c): a
 *        product of two factors that appears inside two or more products
 *        the roots need becomes one node each of them uses.
 *
 * Run after the simplifier (expr_simplify.h), whose products are whole
 * nodes: a part of a product shared by several, such as sin θ/(M + m sin²θ)
 * in both accelerations of the cart pendulum, is what SymPy's cse finds
 * and the simplifier does not. The products are read flattened (a chain of
 * ·, / and unary − whose inner nodes are used once, and through every
 * product of two leaves, which the printer writes inline), the pair of factors
 * shared by most of them is made a node, and so on while a pair is shared;
 * each product changed is then written again: its numerator's factors in
 * order over its denominator's, negated when its sign is. A pair of two
 * leaves (inputs or constants) is left alone: the printer writes such a
 * node inline, so naming it would only move its operation.
 *
 * The rewriting reassociates products: it is an identity of the real
 * functions (up to rounding).
 */
#ifndef CL_EXPR_SHARE_H
#define CL_EXPR_SHARE_H
#include <stddef.h>
#include "expr.h"

/**
 * Share the common sub-products of the \p n nodes \p roots of \p g: the
 * new nodes are added to \p g and the roots' ids written to \p out (\p out
 * may be \p roots). Returns 0 or CL_ENOMEM (out is then \p roots copied).
 */
int cl_expr_share_products(cl_expr_dag *g, const int *roots, size_t n, int *out);

/**
 * The pure sign flips of a term of a sum in the \p n nodes \p roots of
 * \p g: a − (−b) is a + b, a − x·(−b) is a + x·b, a + x·(−b) is a − x·b,
 * x·(−a) + b is b − x·a
 * (the term and its negated factor each used once, so no node is made a
 * negation and none longer); a value changes by no rounding. The new nodes are added to \p
 * g and the roots' ids written to \p out (may be \p roots). Returns 0 or
 * CL_ENOMEM (out is then \p roots copied).
 */
int cl_expr_share_signs(cl_expr_dag *g, const int *roots, size_t n, int *out);

#endif

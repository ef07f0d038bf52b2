/**
 * \file expr_simplify.h
 * \brief The simplifier of an expression graph (expr_simplify.c): the
 *        nodes some roots need rewritten in a normal form with exact
 *        rational constants, for every derived graph before it is printed,
 *        compiled or interpreted.
 *
 * Each node becomes a quotient N/D of two polynomials with rational
 * coefficients (FLINT's fmpq_mpoly) in the graph's inputs and in "atoms":
 * sin, cos, tan, exp, log, sqrt and atan2 of simplified arguments, and any
 * subexpression whose polynomials grow past a budget of terms (kept as a
 * node of its own). So constants fold exactly (no 1 + 1, no 1/2·2), like
 * terms collect (x − x is 0), sums and products are flattened and ordered
 * canonically, and N/D is reduced by the gcd of N and D. Polynomials are
 * also reduced modulo the relations the caller gives as nodes that vanish
 * on the manifold (|q|² − 1 on S², q·q̇ on its tangent bundle, the entries
 * of RᵀR − I on SO(3)) and sin² u + cos² u − 1 for every angle u, a
 * reduction kept only where it makes a polynomial shorter. Written back as
 * nodes, common factors are pulled out (the monomial gcd of a sum, then the
 * variable most terms share), a negative term is subtracted, and a quotient
 * is one division with its denominator a node shared by all its uses.
 *
 * The relations make the result equal to the input on the manifold only
 * (where the equations are used); without relations the rewriting is an
 * identity of rational functions (up to rounding: a domain edge such as
 * x/x may be lifted).
 */
#ifndef CL_EXPR_SIMPLIFY_H
#define CL_EXPR_SIMPLIFY_H
#include <stddef.h>
#include "expr.h"

/** Default number of terms past which a subexpression is kept as an atom of its own. */
#define CL_EXPR_SIMPLIFY_TERMS 40
/** Default number of terms past which a shared subexpression (an argument of two nodes) is kept as an atom: its sharing is kept. */
#define CL_EXPR_SIMPLIFY_SHARED_TERMS 8
/** Default CPU seconds of one cl_expr_simplify() call. */
#define CL_EXPR_SIMPLIFY_SECONDS 4.0

/** What cl_expr_simplify() may assume and spend. */
typedef struct cl_expr_simplify_opts {
    const int *zero;  /**< nodes of the same graph, polynomials in the inputs, that vanish on the manifold */
    size_t nzero;
    size_t max_terms; /**< a polynomial longer than this is kept as a node of its own (0: CL_EXPR_SIMPLIFY_TERMS) */
    size_t max_shared; /**< the same for a subexpression that two nodes use (0: CL_EXPR_SIMPLIFY_SHARED_TERMS) */
    double seconds;   /**< CPU time allowed (0: CL_EXPR_SIMPLIFY_SECONDS) */
    long lead, nlead; /**< inputs lead … lead + nlead − 1 are pulled out of sums first (a mass form's accelerations) */
    const int *atoms; /**< nodes of the same graph each kept as an atom of its own, whatever its terms: its simplified value written once, every node that uses it a polynomial in it (a model's named velocity) */
    size_t natoms;
    int strip;        /**< an atom past the budget leaves its rational content and monomial factors outside (m·(a + b)/l is m/l times the atom a + b), where they cancel with the nodes using it */
    int atom_relations; /**< an atom past the budget brings its relation (v·D − N) to the manifold's, so that its sum met again expanded is written as the atom: shorter equations to read, for a few times the simplifier's CPU on large models */
} cl_expr_simplify_opts;

/**
 * Simplify the \p n nodes \p roots of \p g: the simplified nodes are added
 * to \p g and their ids written to \p out (n of them; \p out may be \p
 * roots). \p opts may be NULL (no relations, the default budget). Returns
 * 0; CL_ENOCONV when the budget ran out (out is then \p roots copied: the
 * caller keeps the unsimplified graph, and says so); CL_ENOMEM.
 */
int cl_expr_simplify(cl_expr_dag *g, const int *roots, size_t n, int *out, const cl_expr_simplify_opts *opts);

#endif

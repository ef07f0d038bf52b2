/**
 * \file expr_simplify_state.h
 * \brief Internal (never installed): the state of one cl_expr_simplify()
 *        call and its CPU budget, beneath both the normal form
 *        (expr_simplify.c) and the writing back as nodes
 *        (expr_simplify_emit.c, which the normal form calls).
 */
#ifndef CL_EXPR_SIMPLIFY_STATE_H
#define CL_EXPR_SIMPLIFY_STATE_H
#include <time.h>
#include <flint/fmpq_mpoly.h>
#include "cl_core.h"
#include "expr_simplify.h"

/** A node's value n/d: polynomials in the variables (inputs, then atoms). */
typedef struct cl_simp_rf {
    fmpq_mpoly_t n, d;
} cl_simp_rf;

typedef struct cl_simp {
    cl_expr_dag *g;
    fmpq_mpoly_ctx_t ctx;
    slong ninputs;          /**< variables 0 … ninputs − 1 are the inputs */
    slong nvars, nvar;      /**< variables available, in use */
    int *var_node;          /**< variable → its node (an input's made when first written: −1) */
    size_t n0;              /**< the graph's nodes before the call (val, have, emitted index them) */
    cl_simp_rf *val;        /**< node → its normal form */
    char *have;             /**< val[i] is initialized */
    char *shared;           /**< node i is an argument of two needed nodes or more (or a root and an argument); bit 2: an atom whatever its terms (opts.atoms) */
    int *emitted;           /**< node → its simplified node, −1 not yet written */
    fmpq_mpoly_struct *rel; /**< the relations, polynomials that vanish on the manifold */
    size_t nrel, caprel;
    size_t max_terms, max_shared; /**< the budgets of terms of a node, of a shared node */
    int strip;              /**< opts.strip */
    int atom_relations;     /**< opts.atom_relations */
    const int *zero;        /**< opts.zero: the relations' nodes */
    size_t nzero;
    slong first, nfirst;    /**< variables pulled out of sums before the others */
    clock_t deadline;
    int failed;             /**< CL_ENOCONV (budget), CL_ENOMEM */
    long pos;               /**< the source offset given to the nodes being written */
    ulong *exp, *lead;      /**< exponent vectors (nvars) */
    slong *count;           /**< per variable, the terms it divides (nvars) */
} cl_simp;

/** 1 (and s->failed set) once the CPU budget is spent or something failed, else 0. */
static inline int cl_simp_out_of_time(cl_simp *s)
{
    if (!s->failed && clock() > s->deadline) s->failed = CL_ENOCONV;
    return s->failed;
}
/** The simplified node of node \p i (written once, then remembered), or −1 (s->failed set). */
int cl_simp_emit_node(cl_simp *s, int i);
/** The node of the value \p n / \p d (written as cl_simp_emit_node() writes a node's), or −1 (s->failed set). */
int cl_simp_emit_value(cl_simp *s, const fmpq_mpoly_struct *n, const fmpq_mpoly_struct *d);
#endif

/**
 * \file expr_emit.h
 * \brief An expression graph's outputs written out (expr_emit.c): as text,
 *        LaTeX or C, one expression per output with every subexpression
 *        used more than once named once (`chartless eom`), and as the C
 *        source of a compiled field with a double and an MPFR back end
 *        (expr_jit.h compiles and loads it).
 *
 * The printer writes a node as one expression, its arguments written out
 * where they are used unless they carry a name (temp[id] = k: `tk`,
 * `t_{k}` in LaTeX). In C the expression evaluates, operation by
 * operation, as the interpreter (expr_eval.c) does: the same operations in
 * the same order (no contraction into fused multiply–adds when compiled
 * with -ffp-contract=off), `pow(a, k)` for a whole power, so in double the
 * two agree bit for bit.
 */
#ifndef CL_EXPR_EMIT_H
#define CL_EXPR_EMIT_H
#include <stdio.h>
#include "expr.h"

/** What the printer writes. */
enum cl_expr_format {
    CL_EXPR_TEXT,  /**< the model's notation: sin(x), x^2, a*b */
    CL_EXPR_LATEX, /**< for MathJax or LaTeX (fractions, sin with sized parentheses) */
    CL_EXPR_C      /**< C99 with <math.h>: pow(a, k), constants as double literals */
};

/** A printer of the nodes of one graph (cl_expr_printer_init()). */
typedef struct cl_expr_printer {
    const cl_expr_dag *g;
    int fmt;             /**< enum cl_expr_format */
    int *temp;           /**< node → k, the number of its name tk (1, 2, …); 0: written out where used */
    char (*in)[96];      /**< the name of input k in the format, set by the caller */
    char *used;          /**< input k is used by the outputs (set by cl_expr_printer_name_shared()) */
    const double *cval;  /**< C: constant k as read in double, printed exactly (hexadecimal); NULL: as written */
    char **label;        /**< node → a name of its own (cl_expr_printer_label()), NULL: tk when named */
    FILE *f;
} cl_expr_printer;

/** A printer of \p g in \p fmt to \p f, no node named and every input's name empty. 0 or CL_ENOMEM. */
int cl_expr_printer_init(cl_expr_printer *p, const cl_expr_dag *g, int fmt, FILE *f);
/** Release what cl_expr_printer_init() allocated. */
void cl_expr_printer_free(cl_expr_printer *p);
/**
 * Name every operation that the \p nout outputs \p out use more than once
 * (as an argument of two operations they need, or as an output and an
 * argument), t1, t2, … in the order of the nodes (a node with a label
 * by its label), and mark the inputs they
 * use (used). In text and LaTeX a number (a node of constants only) and an
 * operation on names and numbers alone (a·b, x², −x) are written out
 * instead. Returns the number of names, or −1 when out of memory.
 */
int cl_expr_printer_name_shared(cl_expr_printer *p, const int *out, size_t nout);
/**
 * Give node \p id the name \p name (copied; in the format, as the
 * inputs' names are): before cl_expr_printer_name_shared(), which then
 * names it by it wherever the outputs use it more than once, even when it
 * would be written out (a·b), and not otherwise. 0 or CL_ENOMEM.
 */
int cl_expr_printer_label(cl_expr_printer *p, int id, const char *name);
/** Node \p id written out, in brackets when it binds less tightly than \p min (1 sums, 2 products, 4 powers). */
void cl_expr_printer_node(cl_expr_printer *p, int id, int min);
/**
 * One line `LHS = node`: in C `    LHS = …;` (`const double LHS` when \p
 * define), in LaTeX `LHS &= … \\\\` (the line break left out when \p last).
 * With \p define, LHS is the node's own name and the node is written out.
 */
void cl_expr_printer_assign(cl_expr_printer *p, const char *lhs, int id, int define, int last);
/** The definition of every named node (cl_expr_printer_assign()), in the order of the nodes. */
void cl_expr_printer_temps(cl_expr_printer *p);
/** A decimal constant as written; in C a double literal (2 → 2.0, so that 1/2 is no integer division). */
void cl_expr_print_constant(FILE *f, int fmt, const char *s);

/**
 * \brief The C source of a compiled field: the outputs \p out[0 … nout) of
 *        \p g as functions of its inputs, in double and in MPFR.
 *
 * Written to \p f:
 * \verbatim
 *   int cl_jit_d(double *out, const double *x);
 *   int cl_jit_mp_fixed(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr c, mpfr_ptr w);
 *   int cl_jit_mp(mpfr_ptr out, mpfr_srcptr x, mpfr_srcptr c, mpfr_ptr w);
 *   const long cl_jit_nslots, cl_jit_nconst, cl_jit_nout, cl_jit_ninputs;
 * \endverbatim
 * x holds the inputs, x_k at x[k] (cl_expr_dag_ninputs() of them). The
 * double back end is the printer's C (cl_expr_printer) with the constants
 * as read by cl_real_from_str_d() printed exactly; it returns 0, or 1 when
 * an output is not finite (a division by zero, the logarithm or square root
 * of a number out of its domain, an overflow). The MPFR back end is one
 * call per operation node, the calls of the interpreter (expr_eval.c) in
 * the same order, or calls of the same correctly rounded value (x·x a
 * square, x + x a doubling), at the precision of \p out and \p w: c[k] is
 * constant k read at that precision (cl_real_from_str_mp()), w
 * cl_jit_nslots work numbers (the nodes' values, a number reused once its
 * node's last use is past). The nodes that depend on no input x_k with
 * k < \p nvary (on constants and parameters only) are computed by
 * cl_jit_mp_fixed, once for as long as those inputs stay, into work numbers
 * cl_jit_mp leaves alone; cl_jit_mp computes the others. Each returns 0, or
 * 1 when a node left its domain as the interpreter finds it (by MPFR's
 * flags: a NaN for the sqrt or log of a negative number and 0/0, a division
 * by zero for x/0 and log 0, an overflow; the caller's flags are kept). Only
 * the nodes the outputs depend on are written. Returns 0, CL_ENOMEM, or
 * CL_EPARSE when a constant cannot be read in double.
 */
int cl_expr_emit_field(FILE *f, const cl_expr_dag *g, const int *out, size_t nout, long nvary);
/**
 * A new graph of the nodes the \p nout outputs \p out of \p g depend on,
 * in their order (the same operations on the same constants and inputs),
 * its outputs into \p new_out; NULL when out of memory. An interpreter of
 * it (expr_eval.c) evaluates what a compiled field of \p g evaluates, and
 * nothing else.
 */
cl_expr_dag *cl_expr_dag_prune(const cl_expr_dag *g, const int *out, size_t nout, int *new_out);
#endif

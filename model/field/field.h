/**
 * \file field.h
 * \brief Field files: a hand-derived vector field of a model (model.h),
 *        written in the model's formula language, one line per 3-vector
 *        block of dx/dt, and evaluated at the working precision.
 *
 * A field file names the form it is written in and gives the derivative of
 * every block of the state of that form (docs/own_derivation.md):
 * \verbatim
 *   # the (q, omega) field of models/spring.model, derived by hand
 *   form omega
 *   let d = q1 - q2
 *   q1' = cross(w1, q1)
 *   q2' = cross(w2, q2)
 *   w1' = cross(q1, -k*(1 - r0/norm(d))*d - m1*g*[0, 0, 1]) / m1
 *   w2' = cross(q2,  k*(1 - r0/norm(d))*d - m2*g*[0, 0, 1]) / m2
 * \endverbatim
 * Statements, one per line (a line that begins with white space continues
 * the one above; `#` starts a comment):
 *  - `form F` — once, before any other statement: a form of the model
 *    (`qdot`, `omega`, `mu`, `pi` on (S²)ⁿ; `qdot`, `p` on S¹ and Rᵏ;
 *    `ROmega`, `RRdot`, `Rmu` on SO(3); `qdot`, `omega`, `p`, `pi` on
 *    products and constrained models; `p`, `qdot`, `pi`, `omega` for a
 *    Hamiltonian);
 *  - `let NAME = EXPR` — a name for a scalar, vector or matrix, in scope
 *    in the statements below it;
 *  - `NAME' = EXPR` (`NAME'' = EXPR`) — the time derivative of the block
 *    NAME (of the velocity NAME'): a scalar, vector or matrix as the block.
 *
 * In scope: the state of the form by name (cl_field_layout), the model's
 * parameters and the lets. On (S²)ⁿ: the unit vectors q_i, and `q1'` (q̇_i)
 * in form qdot, `w1` … (ω_i) in omega, `mu1` … in mu, `pi1` … in pi,
 * numbered in the order of the manifold. On a flat factor x: x, and x' or
 * p_x; on S² in a product: q, and q', w_q, mu_q or pi_q; on SO(3) R (a
 * matrix) and W (p_W in the momentum forms), on SE(3) also x and V; a
 * Hamiltonian's momenta as H names them (p_x, mu_q, Pi, P), its group
 * velocities Omega and V. The blocks to give: the derivative of every
 * configuration (x', q', R') and of every velocity-like part (x'', q'' in
 * form qdot; W', p_x', mu_q' ...); `x' = x'` is implied where the state
 * holds x'. Every block exactly once.
 */
#ifndef CL_FIELD_H
#define CL_FIELD_H
#include <stddef.h>
#include "expr.h"
#include "model.h"
#include "system.h"

/** Largest size of a field file, in bytes (as for a model). */
#define CL_FIELD_MAX_BYTES CL_MODEL_MAX_BYTES
/** Largest number of `let` names in one field file. */
#define CL_FIELD_MAX_LETS 256

/** A name of the state in scope in a field file. */
typedef struct cl_field_name {
    char name[CL_MODEL_MAX_NAME + 8]; /**< as written, without a trailing prime */
    int prime;                         /**< 1: written with a trailing `'` (x') */
    int shape;                         /**< 1, 3 or 9 numbers */
    size_t at;                         /**< its first component in the state */
} cl_field_name;

/** A block of dx/dt that a field file gives. */
typedef struct cl_field_block {
    char name[CL_MODEL_MAX_NAME + 8]; /**< the left-hand side without its primes: x (of x''), W, p_x */
    int primes;                        /**< 1 (W') or 2 (x'') */
    int shape;                         /**< 1, 3 or 9 numbers */
    size_t at;                         /**< its first component in the state */
    long implied;                      /**< the input it equals when not given (x' = x' in form qdot), or −1 */
} cl_field_block;

/** The names and blocks of a form of a model (field_layout.c). */
typedef struct cl_field_layout {
    size_t dim;            /**< numbers of the state */
    size_t nname, nblock;
    cl_field_name *name;   /**< the state's names, configuration first */
    cl_field_block *block; /**< the blocks, in the state's order */
} cl_field_layout;

/** The layout of form \p form of \p m into \p L: 0, CL_EDOMAIN for a form field files are not written in, CL_ENOMEM. */
int cl_field_layout_new(cl_field_layout *L, const cl_model *m, int form);
void cl_field_layout_free(cl_field_layout *L);
/** The name of block \p b with its primes (x'', W') into \p buf. */
void cl_field_block_name(const cl_field_block *b, char *buf, size_t len);
/** Index of the state's name at \p s (\p n bytes, \p prime: written with `'`), or −1. */
long cl_field_layout_find(const cl_field_layout *L, const char *s, size_t n, int prime);

/** A parsed field file. */
typedef struct cl_field {
    char *source;   /**< the file's name, for messages */
    char *text;     /**< the file's text (node positions are offsets into it) */
    cl_expr_dag *g; /**< inputs: the state of the form (dim numbers), then the model's parameters */
    int form;       /**< index in the model's forms (its system's forms) */
    size_t n;       /**< unit vectors of the model on (S²)ⁿ (0 for other kinds) */
    size_t dim;     /**< numbers of the state of the form */
    size_t nparam;  /**< parameters of the model, in its order */
    int *comp;      /**< dim nodes: dx/dt component by component, in the state's order */
    cl_field_layout lay; /**< the names and blocks of the form */
} cl_field;

/**
 * Parse the field in \p len bytes of \p text for the model \p m; \p source
 * names it in messages. Errors: CL_EPARSE with `SOURCE:LINE:COL` in e->arg
 * and what was expected in e->what (a syntax error, an unknown name, a
 * block that is not a vector, a block given twice or missing, no `form`);
 * CL_EDIM beyond a documented limit; CL_ENOMEM.
 */
int cl_field_parse(cl_field **out, const cl_model *m, const char *source, const char *text, size_t len, cl_sys_error *e);
/** Read and parse the file \p path (errors as cl_field_parse, and CL_EPARSE when it cannot be read). */
int cl_field_load(cl_field **out, const cl_model *m, const char *path, cl_sys_error *e);
void cl_field_free(cl_field *f);
/** `SOURCE:LINE:COL` of byte offset \p pos of the field's text, into \p buf. */
void cl_field_where(const cl_field *f, long pos, char *buf, size_t len);

/** An evaluator of a field at one precision (opaque). */
typedef struct cl_field_eval cl_field_eval;
/** A new evaluator of \p f at \p prec bits (constants read at that precision) into *\p out; 0, or CL_ENOMEM with *\p out NULL. */
int cl_field_eval_new(cl_field_eval **out, const cl_field *f, cl_prec_t prec);
void cl_field_eval_free(cl_field_eval *fe);
/**
 * dx = the field at the state \p x (f->dim numbers, in the field's form) and
 * the model's parameters \p par (f->nparam numbers, in the model's order).
 * Returns 0, or CL_EDOMAIN when an operation leaves its domain; then \p err
 * names the subexpression (`SOURCE:LINE:COL: 'text'`).
 */
int cl_field_eval_run(cl_field_eval *fe, mpfr_ptr dx, mpfr_srcptr x, mpfr_srcptr par, char *err, size_t errlen);
#endif

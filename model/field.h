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
 *  - `form F` — once, before any other statement: `qdot`, `omega`, `mu` or `pi`;
 *  - `let NAME = EXPR` — a name for a scalar, vector or matrix, in scope
 *    in the statements below it;
 *  - `NAME' = EXPR` — a 3-vector, the time derivative of the block NAME.
 *
 * In scope: the model's unit vectors (its manifold names q_i), its
 * parameters, and the velocity-like vectors of the form: `q1'` (q̇_i) in
 * form qdot, `w1` … (ω_i) in omega, `mu1` … in mu, `pi1` … in pi, numbered
 * in the order of the manifold. The blocks to give: in form qdot `q1''` …
 * (q̈_i; `q1' = q1'` is implied and may be omitted); in the other forms
 * `q1'` … and `w1'` … (or `mu1'`, `pi1'`). Every block exactly once.
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

/** A parsed field file. */
typedef struct cl_field {
    char *source;   /**< the file's name, for messages */
    char *text;     /**< the file's text (node positions are offsets into it) */
    cl_expr_dag *g; /**< inputs: the state of the form (6n numbers), then the model's parameters */
    int form;       /**< index in the model's forms: 0 qdot, 1 omega, 2 mu, 3 pi */
    size_t n;       /**< unit vectors of the model */
    size_t nparam;  /**< parameters of the model, in its order */
    int *comp;      /**< 6n nodes: dx/dt component by component, in the state's order */
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
 * dx = the field at the state \p x (6n numbers, in the field's form) and
 * the model's parameters \p par (f->nparam numbers, in the model's order).
 * Returns 0, or CL_EDOMAIN when an operation leaves its domain; then \p err
 * names the subexpression (`SOURCE:LINE:COL: 'text'`).
 */
int cl_field_eval_run(cl_field_eval *fe, mpfr_ptr dx, mpfr_srcptr x, mpfr_srcptr par, char *err, size_t errlen);
#endif

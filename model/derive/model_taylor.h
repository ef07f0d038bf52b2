/**
 * \file model_taylor.h
 * \brief A model's equations of motion (cl_model_eom_new(), form qdot) as
 *        the field of the Taylor integrator (src/taylor.h): the graph with
 *        its parameters as constants, and a run of it (prototypes of the
 *        run in model_taylor_decl.h).
 */
#ifndef CL_MODEL_TAYLOR_H
#define CL_MODEL_TAYLOR_H
#include "model_eom.h"
#include "taylor.h"

/**
 * The equations of \p m for the Taylor integrator: cl_model_eom_new()'s
 * simplified ones, or the derived ones (cl_model_eom_build(), simplify 0)
 * where a Taylor order costs fewer convolutions on them. The simplifier's
 * normal form expands products of sums: on the double spherical pendulum
 * it doubles a Taylor step's work, on the heavy top it saves a tenth.
 * Errors as cl_model_eom_new().
 */
int cl_model_eom_taylor_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e);
/**
 * Copy the equations \p q into \p g: each parameter input k becomes the
 * constant of the decimal text \p param[k], the time input the input
 * \p tin; out[i] (i < q->dim) receives the node of x_i'. Returns 0, or
 * CL_ENOMEM (out of memory, a parameter NULL, or the graph full).
 */
int cl_model_eom_field(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, int *out);
/**
 * Every node of \p q's graph copied into \p g as cl_model_eom_field() does,
 * map[id] receiving the node of q's node id (map holds
 * cl_expr_dag_size(q->g) ids). Returns 0 or CL_ENOMEM.
 */
int cl_model_eom_copy(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, int *map);

#define CL_TEMPLATE_HEADER "model_taylor_decl.h"
#include "cl_instantiate.h"
#endif

/**
 * \file model_rows.h
 * \brief What model/rows/ offers: the oracle's rows of any model file,
 *        judged on the precision ladder (check.h), and their templated
 *        helpers (model_rows_decl.h).
 */
#ifndef CL_MODEL_ROWS_H
#define CL_MODEL_ROWS_H
#include "check.h"
#include "model_lang.h"

/**
 * The oracle's rows for the model file \p path (`chartless oracle --model`):
 * MODEL.forms, MODEL.legendre, MODEL.el, MODEL.conserve (the energy, or
 * the balance E + ∫ ∂L/∂t dt when L depends on t, unless a force is
 * declared, and the declared invariants; absent when there is nothing to
 * conserve) and MODEL.eq.NAME per declared
 * equilibrium, MODEL the file's base name; for a model of SO(3), S¹ or Rᵏ
 * factors, through its system's descriptor, MODEL.forms, MODEL.legendre,
 * MODEL.invariants and MODEL.conserve. \p set holds \p nset
 * `name=value` overrides of the parameters' defaults. The model becomes the
 * current one (cl_model_oracle_model()) until cl_model_oracle_rows_free().
 * Errors as cl_model_load(), and CL_EPARAM / CL_EPARSE for a bad override.
 */
int cl_model_oracle_rows(const cl_check **rows, size_t *nrows, const char *path, int nset, const char *const *set,
                         cl_sys_error *e);
/** Release the rows and the current model. */
void cl_model_oracle_rows_free(void);
/**
 * The short versions of the rows (`oracle --quick`), for the rows
 * cl_model_oracle_rows() makes after this call: a quarter of the random
 * states (at least one) and trajectories 8 times shorter.
 */
void cl_model_oracle_set_quick(int on);
/**
 * Run the short version (--quick) of row MODEL.\p suffix of \p m (taken
 * over, and released) at precision \p prec, its double copy when \p in_double:
 * the registered checks model.engine.* that take the model rows into the
 * quick oracle. CL_EPARAM when \p m has no such row; the current model and
 * rows are released.
 */
int cl_model_oracle_run_short(cl_model *m, const char *suffix, int in_double, cl_check_result *res, cl_prec_t prec);
/** The model the rows look at, or NULL. */
const cl_model *cl_model_oracle_model(void);

#define CL_TEMPLATE_HEADER "model_rows_decl.h"
#include "cl_instantiate.h"
#endif

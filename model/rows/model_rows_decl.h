/* Templated prototypes of model_rows.c: the oracle's rows of a model file. */

/** The model's parameter values (its defaults, or --param) at the precision of \p v, in table order. */
int CL_FN(cl_model_param_values)(const cl_model *m, cl_rptr v);
/**
 * Declared equilibrium \p k of \p m in form \p form into \p x (6n): the
 * points q_i of the file normalized, q̇ = 0, carried to the form by \p lg's
 * Legendre map. CL_EDOMAIN when there is no equilibrium k or a point is 0.
 */
int CL_FN(cl_model_equilibrium_state)(CL_FN(cl_lagr_s2) *lg, const cl_model *m, int k, int form, cl_rptr x);
/**
 * Eigenvalues wr + i·wi (4n) of the linearization at equilibrium \p k in
 * form \p form, on the tangent space of T(S²)ⁿ (the Jacobian of the field
 * in two tangent coordinates per q_i and per v_i, by cl_jacobian), at
 * precision \p prec; \p acc (may be NULL) receives max |field| there.
 */
int CL_FN(cl_model_eq_eigs)(const cl_model *m, int k, int form, cl_prec_t prec, cl_rptr wr, cl_rptr wi, cl_rptr acc);
int CL_FN(cl_model_row_forms)(cl_check_result *res, cl_prec_t prec);
int CL_FN(cl_model_row_legendre)(cl_check_result *res, cl_prec_t prec);
int CL_FN(cl_model_row_el)(cl_check_result *res, cl_prec_t prec);
int CL_FN(cl_model_row_conserve)(cl_check_result *res, cl_prec_t prec);
/** The row MODEL.eq.NAME of declared equilibrium k, for k = 0 … CL_MODEL_MAX_EQUILIBRIA − 1. */
#define CL_MODEL_ROW_EQ(k) int CL_FN(cl_model_row_eq##k)(cl_check_result *res, cl_prec_t prec)
CL_MODEL_ROW_EQ(0); CL_MODEL_ROW_EQ(1); CL_MODEL_ROW_EQ(2); CL_MODEL_ROW_EQ(3);
CL_MODEL_ROW_EQ(4); CL_MODEL_ROW_EQ(5); CL_MODEL_ROW_EQ(6); CL_MODEL_ROW_EQ(7);
#undef CL_MODEL_ROW_EQ

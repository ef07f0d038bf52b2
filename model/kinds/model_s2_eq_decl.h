/* Templated prototypes of model_s2_eq.c (model_kinds.h). */

/**
 * Declared equilibrium \p k of \p m in form \p form into \p x (6n): the
 * points q_i of the file normalized, q̇ = 0, carried to the form by \p lg's
 * Legendre map. CL_EDOMAIN when there is no equilibrium k or a point is 0.
 */
int CL_FN(cl_model_equilibrium_state)(CL_FN(cl_lagr_s2) *lg, const cl_model *m, int k, int form, cl_rptr x);

/* Templated prototypes of model_taylor.c (model_taylor.h). */

/**
 * \brief Integrate the equations of \p m (parameters at their defaults in
 *        m->pdef) with the Taylor integrator from (*t, x) to \p t1, of
 *        order cl_taylor_order_for_tol(\p log2tol); x in form \p form.
 *
 * \p obs (may be NULL) is called as by cl_taylor_integrate(); \p steps (may
 * be NULL) receives the steps taken. Returns CL_EDIM when the model has no
 * graph (cl_model_eom_new() refuses it) or not one of form \p form and length \p dim,
 * otherwise as cl_taylor_integrate() or CL_ENOMEM.
 */
int CL_FN(cl_model_taylor_run)(const cl_model *m, const char *form, size_t dim, double log2tol, cl_rptr t, cl_rptr x, cl_rsrc t1,
                               CL_FN(cl_ode_observer) obs, void *octx, long *steps);

/* Templated prototypes of model_taylor.c (model_taylor.h). */

/**
 * \brief Integrate the equations of \p m (parameters at their defaults in
 *        m->pdef) with the Taylor integrator of order \p order from
 *        (*t, x) to \p t1; x in form \p form.
 *
 * With \p balance (L depends on t) x holds dim + 1 numbers, the last the
 * energy balance's W, integrated with the motion as W' = ∂L/∂t. \p obs (may
 * be NULL) is called as by cl_taylor_integrate(); \p steps (may be NULL)
 * receives the steps taken. Returns CL_EDIM when the model has no graph
 * (cl_model_eom_new() refuses it), not one of form \p form and length
 * \p dim, or (balance) none with t; otherwise as cl_taylor_integrate() or
 * CL_ENOMEM.
 */
int CL_FN(cl_model_taylor_run)(const cl_model *m, const char *form, size_t dim, int balance, int order, cl_rptr t, cl_rptr x, cl_rsrc t1,
                               CL_FN(cl_ode_observer) obs, void *octx, long *steps);

/**
 * \brief log2 of the radius of convergence ρ of the motion from (t, x)
 *        (arguments as cl_model_taylor_run()), as the Jorba–Zou step reads it
 *        from an expansion of order 16: ρ = min_m (N / max_i |x_(i,m)|)^(1/m),
 *        m ∈ {15, 16} (cl_taylor_step_size()); +∞ for a polynomial motion.
 *
 * A step of length h by a method of order k then errs by about (h/ρ)^k
 * relative. Returns 0, or as cl_model_taylor_run().
 */
int CL_FN(cl_model_taylor_radius)(const cl_model *m, const char *form, size_t dim, int balance, cl_rsrc t, cl_rsrc x, double *log2rho);

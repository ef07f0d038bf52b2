/**
 * \file sim_ode.h
 * \brief `chartless simulate`'s runs with the integrators of src/ode, and its
 *        end-of-run error estimate by a rerun.
 */
#ifndef CL_SIM_ODE_H
#define CL_SIM_ODE_H
#include "chartless.h"
#include "cmd_system.h"

/** One integration of an open system with a method of src/ode. */
typedef struct cl_sim_ode {
    const cl_cmd_args *a;     /**< the command line the system was opened from (reopened for GBS's guard bits) */
    const cl_cmd_system *cs;  /**< the system, at the precision of the state */
    cl_ode_method method;
    int param;                /**< Gauss-Legendre stages or GBS columns (0: the default) */
    mpfr_srcptr tol;          /**< the global tolerance (cl_ode_set_global_tol); NULL for a fixed step */
    long max_steps;           /**< with tol: the steps an adaptive run may take */
    cl_ode_observer_mp obs;   /**< called at every accepted step (may be NULL) */
    void *obs_ctx;
    cl_ode_event_fn_mp event; /**< stop at its zeros (cl_ode_set_event_mp; NULL: none) */
    void *event_ctx;
    int event_dir;
} cl_sim_ode;

/**
 * Integrate from (*t, x) to \p t1 (the initial step in \p h, 0: chosen), the
 * field on a second instance at the guard precision GBS asks for. Returns
 * what cl_ode_integrate_mp() returns (CL_ENOMEM when the system cannot be
 * opened at the guard precision).
 */
int cl_sim_ode_run(const cl_sim_ode *r, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1, mpfr_ptr h, cl_ode_stats *stats);

/** Bits the error-estimating rerun adds to the run's precision, and log2 of the factor its tolerance is tighter by. */
enum { CL_SIM_ESTIMATE_BITS = 32, CL_SIM_ESTIMATE_TOL_LOG2 = 10 };

/**
 * The error the run of \p a reached at \p t1: its end state \p x1 (from \p x0
 * at t = 0) against a rerun from x0 with GBS at CL_SIM_ESTIMATE_BITS more
 * bits and a tolerance 2^CL_SIM_ESTIMATE_TOL_LOG2 times tighter than \p tol,
 * as max_i |x1_i - x*_i| / (1 + |x*_i|), printed on stderr with the
 * tolerance it is measured against: a note when within it, a warning
 * when above. The rerun's own error is, by its tolerance, about 1/1000 of
 * the run's, so the difference is the run's error to a few percent, the
 * growth of the errors along the motion included (which the per-step
 * estimates of the integrator do not see). Nothing is printed but a note
 * saying so when the rerun fails.
 */
void cl_sim_report_error(const cl_cmd_args *a, size_t dim, mpfr_srcptr x0, mpfr_srcptr x1, mpfr_srcptr t1,
                         mpfr_srcptr tol, long max_steps);
#endif

/**
 * \file sim_lie.h
 * \brief `chartless simulate --event` with the Lie group integrators: the
 *        event located in a step of the system's lie_simulate hook as the
 *        other non-Taylor integrators locate it (cl_ode_locate_root()).
 */
#ifndef CL_SIM_LIE_H
#define CL_SIM_LIE_H
#include "sim_graph.h"

/** A run of a Lie group method through the system's lie_simulate hook (system.h). */
typedef struct cl_sim_lie {
    const cl_cmd_system *cs;
    const char *method;  /**< lie-euler, rkmk4, cf4, rkmk45 */
    mpfr_srcptr h;       /**< the step (rkmk45: the output interval, its first step) */
    mpfr_srcptr tol;     /**< rkmk45's rtol and atol */
    long max_steps;      /**< rkmk45's steps per leg */
    int (*obs)(void *ctx, mpfr_srcptr t, mpfr_srcptr x); /**< after every step (may be NULL); nonzero stops */
    void *obs_ctx;
    char *err;           /**< the hook's message of a failure */
    size_t errlen;
} cl_sim_lie;

/**
 * Integrate from (*t, x) to \p t1 with the Lie group method of \p r,
 * stopping at the zeros of the event of \p gr in its direction: after each
 * step from t_n to t_n + h whose end has crossed, the event time is located
 * by cl_ode_locate_root() on θ ↦ g(t_n + θh, Φ_{θh}(x_n)), Φ the same method
 * re-run by the hook from the step's start (one step of θh; rkmk45 its
 * adaptive steps to θh at the same tolerances), to a bracket of
 * 4·2^(−p)·max(|t_n|, |t_n + h|). At each zero \p on_event gets the far end of
 * the bracket; with mode first the run ends there, with every it resumes
 * from it (the hook's steps then start at the event). The system is
 * autonomous (the hook integrates from t = 0, each leg as its own run).
 * Returns 0, a positive status when the observer stopped the run, or a
 * negative CL_E code (the hook's message in r->err).
 */
int cl_sim_lie_event_run(const cl_sim_lie *r, cl_sim_graph *gr, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1,
                         cl_sim_event_fn on_event, void *ectx);
#endif

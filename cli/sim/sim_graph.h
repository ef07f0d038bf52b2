/**
 * \file sim_graph.h
 * \brief `chartless simulate`'s graphs: the field of `--integrator taylor`
 *        (from a provider registered for the system) and the expression of
 *        `--event EXPR`, in one graph; the runs that stop at its zeros.
 */
#ifndef CL_SIM_GRAPH_H
#define CL_SIM_GRAPH_H
#include "chartless.h"
#include "cmd_system.h"
#include "sim_ode.h"

/**
 * A provider of a system's field as a graph: when it knows \p cs, it adds
 * the field to \p g, the state component i being input i and the time
 * input cs->dim, writes the cs->dim output ids into \p out and returns 1;
 * else 0 (or a negative CL_E code).
 */
typedef int (*cl_sim_graph_provider)(const cl_cmd_system *cs, cl_expr_dag *g, int *out);
/** Register a provider (at most 16; the first that knows a system gives its graph). */
void cl_sim_graph_register(cl_sim_graph_provider fn);

/**
 * Whether a provider knows the field of \p cs as a graph (what --integrator
 * taylor needs): 1 or 0. \p transcendental (may be NULL) receives whether the
 * field computes sin, cos, tan, exp, log, sqrt or atan2 of the state.
 */
int cl_sim_graph_offers(const cl_cmd_system *cs, int *transcendental);

/** What --event and --integrator taylor set up. */
typedef struct cl_sim_graph {
    cl_expr_dag *g;
    int *nodes;       /**< the field's dim outputs (taylor), then the event's node */
    size_t dim;
    int has_field;    /**< a provider gave the field */
    int event;        /**< the event's node, −1: none */
    int direction;    /**< CL_ODE_EVENT_ANY, _RISING or _FALLING */
    int every;        /**< every zero, else stop at the first */
    cl_expr_eval_mp *ev; /**< the event's evaluator (integrators other than taylor) */
    mpfr_ptr in;      /**< its inputs: the state, then t */
} cl_sim_graph;

/**
 * Set up \p gr for \p cs at \p prec bits: the field when \p taylor (exit 2
 * with a message when no provider knows the system), the event \p event
 * (NULL: none; the state components by name or as x0, x1, ..., the time
 * as t) with \p direction ("any", "rising", "falling") and \p mode
 * ("first", "every"). Returns 0 or exit status 2 (message printed).
 */
int cl_sim_graph_open(cl_sim_graph *gr, const cl_cmd_system *cs, cl_prec_t prec, int taylor, const char *event,
                      const char *direction, const char *mode);
void cl_sim_graph_close(cl_sim_graph *gr);

/** The event's value at (t, x) into \p v (\p ctx the graph; the signature of cl_ode_set_event_mp()): 0 or a CL_E code. */
int cl_sim_graph_event_value(mpfr_ptr v, mpfr_srcptr t, mpfr_srcptr x, void *ctx);

/** Called at each zero located (t, x the event point): 0 to go on, else the status to end with. */
typedef int (*cl_sim_event_fn)(void *ctx, mpfr_srcptr t, mpfr_srcptr x);

/**
 * Integrate from (*t, x) to \p t1: with taylor (tolerance \p r->tol sets the
 * order) when \p taylor, else by cl_sim_ode_run() with the event as its
 * event function. At each zero \p on_event is called; with mode first the
 * run ends there (0, (t, x) the event point), with every it resumes from
 * the point past the zero. Returns 0 or a negative CL_E code.
 */
int cl_sim_graph_run(cl_sim_graph *gr, cl_sim_ode *r, int taylor, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1, mpfr_ptr h,
                     cl_ode_stats *stats, cl_sim_event_fn on_event, void *ectx);
#endif

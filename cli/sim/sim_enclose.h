/**
 * \file sim_enclose.h
 * \brief `chartless simulate --enclose`: the validated integrator of
 *        src/enclose.h on the system's field as a graph, its rows (each
 *        component's midpoint and radius, the energy and invariants on the
 *        set), the summary and the loss of the enclosure.
 */
#ifndef CL_SIM_ENCLOSE_H
#define CL_SIM_ENCLOSE_H
#include "cmd_system.h"
#include "sim_graph.h"

/**
 * The energy (named E; not for a time-dependent or constrained model) and
 * the declared invariants of a model as nodes of \p g over the state of
 * its field (cl_sim_graph's inputs), at most \p max, their names in
 * \p names. Returns how many, or a negative CL_E code.
 */
int cl_sim_graph_model_invariants(const cl_cmd_system *cs, cl_expr_dag *g, int *out, const char **names, size_t max);

/**
 * The factors of a model whose configuration lies on a manifold embedded
 * in its state: off[k] the first state component of factor k, rot[k] 1 for
 * a rotation R (9, row by row: SO(3), SE(3)'s attitude), 0 for a unit
 * vector (S², 3); at most \p max. Returns how many (0 for other systems).
 */
int cl_sim_graph_model_manifold(const cl_cmd_system *cs, size_t *off, int *rot, size_t max);

/**
 * Enclose the motion of \p cs from the state \p x0 (read at \p prec bits,
 * correctly rounded: the ball of one ulp around it holds the decimal
 * input) at time \p t0 to \p t1, with the field of \p gr (opened with its
 * field). Writes CSV to stdout: a row per step; the widest radius and the
 * steps on stderr. Returns the exit status: 0, 1 when the enclosure was
 * lost (`error: enclosure lost at t = ... (reason)` after the last proven
 * row), 2 when the system has no field graph. For tests, the environment's
 * CHARTLESS_ENCLOSE_ORDER sets the Taylor order and
 * CHARTLESS_ENCLOSE_DROP_REMAINDER (set) leaves out the remainder term,
 * CHARTLESS_ENCLOSE_QR_ONLY (set) keeps Lohner's QR frame at every step.
 */
int cl_sim_enclose_run(const cl_cmd_system *cs, cl_sim_graph *gr, mpfr_srcptr x0, mpfr_srcptr t0, mpfr_srcptr t1,
                       cl_prec_t prec);
#endif

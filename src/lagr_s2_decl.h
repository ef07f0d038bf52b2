/* Templated prototypes of lagr_s2.c: a general Lagrangian on (S²)ⁿ from an expression graph.
 */

typedef struct CL_FN(cl_lagr_s2) CL_FN(cl_lagr_s2);

/**
 * The Lagrangian node \p L of graph \p g on (S²)ⁿ with \p nparam parameters
 * (inputs 6n + 1 … 6n + nparam, all zero until set) and the time t (input
 * 6n, zero until set), at precision \p prec.
 * The graph must outlive the object and not grow. Everything later runs in
 * the object's own storage. Returns CL_OK with the object in \p *out, or,
 * with \p *out NULL and nothing left allocated: CL_EDIM (\p n is 0 or above
 * CL_LAGR_MAX_SPHERES, or \p L is not a node of \p g), CL_EPREC (\p prec out
 * of range, MPFR), CL_EPARSE or CL_ENAN (a constant of the graph cannot be
 * read), CL_ENOMEM.
 */
int CL_FN(cl_lagr_s2_new)(CL_FN(cl_lagr_s2) **out, const cl_expr_dag *g, int L, size_t n, size_t nparam, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_lagr_s2_free)(CL_FN(cl_lagr_s2) *lg);
/** Set parameter \p k to \p v (rounded to the object's precision). */
void CL_FN(cl_lagr_s2_set_param)(CL_FN(cl_lagr_s2) *lg, size_t k, cl_rsrc v);
/** Set the time t (input 6n) of a time-dependent L. */
void CL_FN(cl_lagr_s2_set_time)(CL_FN(cl_lagr_s2) *lg, cl_rsrc t);
/**
 * Generalized forces: \p force holds 3n node ids of \p lg's graph (−1: no
 * force on that component), F_i on q_i, a function of q, q̇, t and the
 * parameters; its tangential part enters the equations of motion,
 * \f$(I_3 - q_iq_i^T)\big(\frac{d}{dt}\partial L/\partial\dot q_i - \partial L/\partial q_i - F_i\big) = 0\f$,
 * in every form (the energy is then conserved only when F does no work).
 * Returns 0, CL_ENOMEM or CL_EDIM (a node not in the graph).
 */
int CL_FN(cl_lagr_s2_set_forces)(CL_FN(cl_lagr_s2) *lg, const int *force);
/** The time t into \p t. */
void CL_FN(cl_lagr_s2_get_time)(const CL_FN(cl_lagr_s2) *lg, cl_rptr t);
/**
 * ∂L/∂t at the state x of form \p form and the time set by
 * cl_lagr_s2_set_time() (0 when L does not depend on t): along a motion
 * without forces dE/dt = −∂L/∂t. Returns as cl_lagr_s2_rhs().
 */
int CL_FN(cl_lagr_s2_dldt)(CL_FN(cl_lagr_s2) *lg, int form, cl_rptr out, cl_rsrc x);
/** 1 when L depends on t (its energy is then not conserved: dE/dt = −∂L/∂t), else 0. */
int CL_FN(cl_lagr_s2_timed)(const CL_FN(cl_lagr_s2) *lg);
/** 1 when node \p id of \p g (a graph on (S²)ⁿ) depends on the time t, input 6n, else 0. */
int CL_FN(cl_lagr_s2_depends_on_time)(const cl_expr_dag *g, int id, size_t n);
/** The node at which the last call failed with CL_EDOMAIN, or −1. */
int CL_FN(cl_lagr_s2_bad_node)(const CL_FN(cl_lagr_s2) *lg);

/**
 * \brief Accelerations of Proposition 1 [S2 (11)] for a general L.
 *
 * With q̈_i = a_i − ‖q̇_i‖²q_i (a_i tangent, so that ‖q_i‖ = 1 is kept) and
 * \f$\frac{d}{dt}\partial L/\partial\dot q_i = \sum_j L_{\dot q_i\dot q_j}\ddot q_j + \sum_j L_{\dot q_iq_j}\dot q_j + L_{\dot q_it}\f$, the projected
 * equations and the normal rows q_i·q̈_i = −‖q̇_i‖² are one 3n×3n system
 * \f[ (I_3 - q_iq_i^T)\sum_j L_{\dot q_i\dot q_j}\ddot q_j + q_iq_i^T\ddot q_i
 *     = (I_3 - q_iq_i^T)\Big(\frac{\partial L}{\partial q_i} - \sum_j L_{\dot q_iq_j}\dot q_j - L_{\dot q_it}\Big)
 *       - \|\dot q_i\|^2q_i , \f]
 * (the term \f$L_{\dot q_i t}\f$ only when L depends on t, at the time set by
 * cl_lagr_s2_set_time(); a generalized force F_i of cl_lagr_s2_set_forces()
 * is added to ∂L/∂q_i), regular exactly when the velocity Hessian restricted to the tangent
 * space T_q(S²)ⁿ is. Returns 0, CL_ESINGULAR (L degenerate at the state),
 * CL_EDOMAIN (an operation of L left its domain; see cl_lagr_s2_bad_node).
 */
int CL_FN(cl_lagr_s2_qddot)(CL_FN(cl_lagr_s2) *lg, cl_rptr qdd, cl_rsrc q, cl_rsrc qdot);

/**
 * \brief Vector field in form \p form (enum cl_lagr_form): x = (q, v),
 *        dx = (q̇, v̇), 6n numbers each.
 *
 * (q, q̇): (q̇, q̈). (q, ω): q̇_i = ω_i × q_i [S2 (3)], ω̇_i = q_i × q̈_i.
 * (q, μ): q̇ solves μ_i = (I − q_iq_iᵀ)∂L/∂q̇_i by Newton's method (one step
 * for a quadratic L), and with D_i = d/dt ∂L/∂q̇_i along the motion
 * \f[ \dot\mu_i = (I_3 - q_iq_i^T)D_i - \dot q_i\,(q_i\cdot\partial_{\dot q_i}L)
 *     - q_i\,(\dot q_i\cdot\partial_{\dot q_i}L) . \f]
 * (q, π): μ_i = π_i × q_i and π̇_i = q̇_i × μ_i + q_i × μ̇_i.
 * Returns 0, CL_ESINGULAR, CL_EDOMAIN, CL_ENOCONV (the Legendre map was
 * not inverted) or CL_EDIM (unknown form).
 */
int CL_FN(cl_lagr_s2_rhs)(CL_FN(cl_lagr_s2) *lg, int form, cl_rptr dx, cl_rsrc x);

/**
 * \brief The rate of μ = (I − qqᵀ)p on one sphere, given f = (I − qqᵀ)ṗ
 *        up to a normal part (\p mudot may not alias an input):
 * \f[ \dot\mu = (I_3 - qq^T)f - \dot q\,(q\cdot p) - q\,(\dot q\cdot p) . \f]
 * With f = d/dt ∂L/∂q̇ it is the mu field; with f = ∂L/∂q, by the
 * Euler–Lagrange equations [S2 (11)], the same field from the gradient alone.
 */
void CL_FN(cl_lagr_s2_mudot)(cl_rptr mudot, cl_rsrc q, cl_rsrc qdot, cl_rsrc p, cl_rsrc f);

/**
 * Carry a state from form \p from to form \p to through (q, q̇), by [S2 (5),
 * (3), (20), (28)] and the inverse Legendre map. y may be x. Returns as
 * cl_lagr_s2_rhs().
 */
int CL_FN(cl_lagr_s2_convert)(CL_FN(cl_lagr_s2) *lg, int from, cl_rsrc x, int to, cl_rptr y);

/**
 * Value of any node \p id of the graph (an invariant) at the state x of form
 * \p form, with the energy for \p id < 0:
 * \f[ E = \sum_i \dot q_i\cdot\frac{\partial L}{\partial\dot q_i} - L . \f]
 * Returns as cl_lagr_s2_rhs().
 */
int CL_FN(cl_lagr_s2_value)(CL_FN(cl_lagr_s2) *lg, int id, int form, cl_rptr out, cl_rsrc x);

/* Templated prototypes of lagr_flat.c: a general Lagrangian on a product of S¹ and Rᵏ factors.
 */

typedef struct CL_FN(cl_lagr_flat) CL_FN(cl_lagr_flat);

/**
 * The Lagrangian node \p L of graph \p g in \p d coordinates with \p nparam
 * parameters (inputs 2d … 2d + nparam − 1, all zero until set), at
 * precision \p prec. The graph must outlive the object and not grow.
 * Returns CL_OK with the object in \p *out, or, with \p *out NULL and
 * nothing left allocated: CL_EDIM (\p d is 0 or above CL_LAGR_FLAT_MAX_DIM,
 * or \p L is not a node of \p g), CL_EPREC (\p prec out of range, MPFR),
 * CL_EPARSE or CL_ENAN (a constant of the graph cannot be read), CL_ENOMEM.
 */
int CL_FN(cl_lagr_flat_new)(CL_FN(cl_lagr_flat) **out, const cl_expr_dag *g, int L, size_t d, size_t nparam, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_lagr_flat_free)(CL_FN(cl_lagr_flat) *lg);
/** Set parameter \p k to \p v (rounded to the object's precision). */
void CL_FN(cl_lagr_flat_set_param)(CL_FN(cl_lagr_flat) *lg, size_t k, cl_rsrc v);
/** The node at which the last call failed with CL_EDOMAIN, or −1. */
int CL_FN(cl_lagr_flat_bad_node)(const CL_FN(cl_lagr_flat) *lg);

/**
 * \brief Vector field in form \p form (enum cl_lagr_flat_form): x = (q, v),
 *        dx = (q̇, v̇), 2d numbers each.
 *
 * (q, q̇): the Euler–Lagrange equations solved for q̈,
 * \f[ L_{\dot q\dot q}\,\ddot q = \frac{\partial L}{\partial q} - L_{\dot qq}\,\dot q , \f]
 * regular exactly when the velocity Hessian is. (q, p): q̇ solves
 * ∂L/∂q̇(q, q̇) = p by Newton's method (one step for a quadratic L), and
 * \f$ \dot p = \partial L/\partial q \f$ (Hamilton's equations, H = p·q̇ − L).
 * Returns 0, CL_ESINGULAR, CL_EDOMAIN, CL_ENOCONV or CL_EDIM (unknown form).
 */
int CL_FN(cl_lagr_flat_rhs)(CL_FN(cl_lagr_flat) *lg, int form, cl_rptr dx, cl_rsrc x);

/** Carry a state from form \p from to form \p to (the Legendre map p = ∂L/∂q̇ or its inverse). y may be x. */
int CL_FN(cl_lagr_flat_convert)(CL_FN(cl_lagr_flat) *lg, int from, cl_rsrc x, int to, cl_rptr y);

/**
 * Value of any node \p id of the graph at the state x of form \p form, with
 * the energy \f$ E = \dot q\cdot\partial L/\partial\dot q - L \f$ for \p id < 0.
 * Returns as cl_lagr_flat_rhs().
 */
int CL_FN(cl_lagr_flat_value)(CL_FN(cl_lagr_flat) *lg, int id, int form, cl_rptr out, cl_rsrc x);

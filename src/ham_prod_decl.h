/* Templated prototypes of ham_prod.c: a Hamiltonian on a product of S¹, Rᵏ, S², SO(3) and SE(3) factors.
 */

typedef struct CL_FN(cl_ham_prod) CL_FN(cl_ham_prod);

/**
 * The Hamiltonian node \p H of graph \p g on the product of the \p nf
 * factors \p f, as cl_lagr_prod_new() sets up a Lagrangian: the inputs of
 * H are the configurations (nq numbers), the momenta (nv) in the place of
 * the velocities, the time t, then the parameters; the same limits and the
 * same status codes.
 */
int CL_FN(cl_ham_prod_new)(CL_FN(cl_ham_prod) **out, const cl_expr_dag *g, int H, const cl_lagr_factor *f, size_t nf,
                           size_t nparam, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_ham_prod_free)(CL_FN(cl_ham_prod) *h);
/** Set parameter \p k to \p v (rounded to the object's precision). */
void CL_FN(cl_ham_prod_set_param)(CL_FN(cl_ham_prod) *h, size_t k, cl_rsrc v);
/** Set the time t of the next evaluations (0 until set). */
void CL_FN(cl_ham_prod_set_time)(CL_FN(cl_ham_prod) *h, cl_rsrc t);
/** Generalized forces, one node per momentum (−1: none), as cl_lagr_prod_set_forces(): they add to ṗ. */
int CL_FN(cl_ham_prod_set_forces)(CL_FN(cl_ham_prod) *h, const int *force);
/** The node at which the last call failed with CL_EDOMAIN, or −1. */
int CL_FN(cl_ham_prod_bad_node)(const CL_FN(cl_ham_prod) *h);

/**
 * \brief Vector field in form \p form (enum cl_ham_prod_form): x = (q, p)
 *        or (q, u), dx = (q̇, ṗ) or (q̇, u̇), nq + nv numbers each.
 *
 * The momentum form is Hamilton's equations (ham_prod.h) from the gradient
 * of H. The velocity form first finds p with ∂H/∂p(q, p) = u (damped
 * Newton's method with the matrix H_pp, lagr_core_impl.h), then
 * \f[ \dot u = H_{pq}\,\dot q + H_{pp}\,\dot p + H_{pt} . \f]
 * H must be regular in the momenta: H_pp is factored at every state, and a
 * singular H_pp (a degenerate Hamiltonian, whose velocities do not
 * determine the momenta) is CL_ESINGULAR in either form. Returns 0,
 * CL_ESINGULAR, CL_EDOMAIN, CL_ENOCONV or CL_EDIM (unknown form).
 */
int CL_FN(cl_ham_prod_rhs)(CL_FN(cl_ham_prod) *h, int form, cl_rptr dx, cl_rsrc x);

/** Map a state of form \p from to form \p to (\p y may be \p x): u = ∂H/∂p, or p by Newton's method. Returns as cl_ham_prod_rhs(). */
int CL_FN(cl_ham_prod_convert)(CL_FN(cl_ham_prod) *h, int from, cl_rsrc x, int to, cl_rptr y);

/** Node \p id at the state x of form \p form into \p out; \p id < 0: the energy H. */
int CL_FN(cl_ham_prod_value)(CL_FN(cl_ham_prod) *h, int id, int form, cl_rptr out, cl_rsrc x);

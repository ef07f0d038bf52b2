/* Templated prototypes of chapter S2 IV.A (s2_mu.c). Needs s2_qdot_decl.h. */

/** μ_i = (I₃ − q_iq_iᵀ) ∂L/∂q̇_i, the Legendre transform [S2 (20)] of a general L. */
void CL_FN(cl_s2_legendre_mu)(size_t n, cl_rptr mu, cl_rsrc q, cl_rsrc dLdqdot);

/**
 * \brief Hamilton's equations in (q, μ), Proposition 3 [S2 (23)], for a
 *        general Hamiltonian given by its gradients.
 *
 * dx = (q̇, μ̇) (6n) from q, μ, ∂H/∂q (\p dHdq), ∂H/∂μ (\p dHdmu) and forces
 * \p f (NULL: none), all 3n. dx may not overlap the inputs.
 */
void CL_FN(cl_s2_hamilton_mu)(size_t n, cl_rptr dx, cl_rsrc q, cl_rsrc mu, cl_rsrc dHdq, cl_rsrc dHdmu, cl_rsrc f);

/** μ = Legendre transform [S2 (24)] of a cl_s2_quad system at (q, q̇). */
int CL_FN(cl_s2_quad_legendre_mu)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr mu, cl_rsrc q, cl_rsrc qdot);

/**
 * \brief Vector field of the (q, μ) form: Corollary 3 [S2 (25), (27)].
 *
 * x = (q, μ) (6n), dx = (q̇, μ̇). Returns 0, CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_rhs_mu)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr dx, cl_rsrc x);

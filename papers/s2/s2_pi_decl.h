/* Templated prototypes of chapter S2 IV.B (s2_pi.c). Needs s2_qdot_decl.h. */

/** π_i = (I₃ − q_iq_iᵀ) ∂L̃/∂ω_i, the Legendre transform [S2 (28)] of a general L̃. */
void CL_FN(cl_s2_legendre_pi)(size_t n, cl_rptr pi, cl_rsrc q, cl_rsrc dLdw);

/** π_i = S(q_i) μ_i = q_i × μ_i: the two momenta of one motion (pi may not alias mu). */
void CL_FN(cl_s2_pi_from_mu)(size_t n, cl_rptr pi, cl_rsrc q, cl_rsrc mu);
/** μ_i = π_i × q_i, the inverse of cl_s2_pi_from_mu on T*(S²)ⁿ (mu may not alias pi). */
void CL_FN(cl_s2_mu_from_pi)(size_t n, cl_rptr mu, cl_rsrc q, cl_rsrc pi);

/**
 * \brief Hamilton's equations in (q, π), Proposition 4 [S2 (31), (32)], for
 *        a general modified Hamiltonian given by its gradients.
 *
 * dx = (q̇, π̇) (6n) from q, π, ∂H̃/∂q, ∂H̃/∂π and forces \p f (NULL: none),
 * all 3n. dx may not overlap the inputs.
 */
void CL_FN(cl_s2_hamilton_pi)(size_t n, cl_rptr dx, cl_rsrc q, cl_rsrc pi, cl_rsrc dHdq, cl_rsrc dHdpi, cl_rsrc f);

/** π = Legendre transform [S2 (33)] of a cl_s2_quad system at (q, ω). */
int CL_FN(cl_s2_quad_legendre_pi)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr pi, cl_rsrc q, cl_rsrc w);

/**
 * \brief Vector field of the (q, π) form: Corollary 4 [S2 (36)], [S2 (37)] (q̇ and π̇).
 *
 * x = (q, π) (6n), dx = (q̇, π̇). Returns 0, CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_rhs_pi)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr dx, cl_rsrc x);

/* Templated prototypes of chapter S2 III.B (s2_omega.c). Needs s2_qdot_decl.h. */

/** ω_i = S(q_i) q̇_i = q_i × q̇_i [S2 (5)] for each of n spheres (cl_s2_omega_from_qdot for one) (w may not alias qdot). */
void CL_FN(cl_s2n_omega_from_qdot)(size_t n, cl_rptr w, cl_rsrc q, cl_rsrc qdot);
/** q̇_i = S(ω_i) q_i = ω_i × q_i [S2 (3)] for each of n spheres (cl_s2_qdot_from_omega for one) (qdot may not alias w). */
void CL_FN(cl_s2n_qdot_from_omega)(size_t n, cl_rptr qdot, cl_rsrc q, cl_rsrc w);

/**
 * \brief Residual of Proposition 2 [S2 (17)] for a general modified
 *        Lagrangian L̃(q, ω).
 *
 * res_i = (I − q_iq_iᵀ){d/dt ∂L̃/∂ω_i − 2S(ω_i) ∂L̃/∂ω_i} − S(q_i)(∂L̃/∂q_i + f_i),
 * for given ω (\p w), d/dt ∂L̃/∂ω, ∂L̃/∂ω, ∂L̃/∂q and forces \p f (NULL:
 * none); zero along a motion. All vectors 3n.
 */
void CL_FN(cl_s2_el_residual_omega)(size_t n, cl_rptr res, cl_rsrc q, cl_rsrc w, cl_rsrc ddt_dLdw,
                                    cl_rsrc dLdw, cl_rsrc dLdq, cl_rsrc f);

/** L̃ = modified Lagrangian [S2 (18)] of a cl_s2_quad system at (q, ω). */
int CL_FN(cl_s2_quad_lagrangian_omega)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr L, cl_rsrc q, cl_rsrc w);

/** F_i(q, ω) of Corollary 2 [S2 (19)] (F_i of (13) at q̇_j = S(ω_j)q_j). */
int CL_FN(cl_s2_quad_F_omega)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr F, cl_rsrc q, cl_rsrc w);

/**
 * \brief Vector field of the (q, ω) form: kinematics [S2 (3)] and
 *        Corollary 2 [S2 (19)].
 *
 * x = (q, ω) (6n), dx = (q̇, ω̇). Returns 0, CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_rhs_omega)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr dx, cl_rsrc x);

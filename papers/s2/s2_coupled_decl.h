/* Templated types and prototypes of s2_coupled.c. Needs s2_qdot_decl.h. */

#if CL_T == CL_DOUBLE
#ifndef CL_S2_COUPLED_TYPES_D
#define CL_S2_COUPLED_TYPES_D
typedef struct cl_s2_coupled_d cl_s2_coupled_d;
#endif
#else
#ifndef CL_S2_COUPLED_TYPES_MP
#define CL_S2_COUPLED_TYPES_MP
typedef struct cl_s2_coupled_mp cl_s2_coupled_mp;
#endif
#endif

/**
 * \brief n coupled spheres with configuration-dependent inertia (see s2_coupled.c):
 * m_ii = a_i + b (e₃·q_i)², m_ij = c (q_i·q_j), U = Σ k_i e₃·q_i + κ Σ_{i<j} q_i·q_j,
 * f_i = −δ q̇_i.
 *
 * \p a and \p k have n entries; b, c, kappa, damping are scalars.
 * \return 0; CL_EDIM when n < 1; CL_ENAN; CL_EPARAM unless b ≥ 0, δ ≥ 0 and
 *         a_i > |c|(n − 1) for every i (which makes the kinetic energy
 *         positive definite); CL_ENOMEM.
 */
int CL_FN(cl_s2_coupled_new)(CL_FN(cl_s2_coupled) **out, size_t n, rsrc a, rsrc b, rsrc c,
                             rsrc k, rsrc kappa, rsrc damping, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_s2_coupled_free)(CL_FN(cl_s2_coupled) *s);
/** The system as a cl_s2_quad [S2 (12)]. */
const CL_FN(cl_s2_quad) *CL_FN(cl_s2_coupled_quad)(const CL_FN(cl_s2_coupled) *s);
/** Its workspace (owned by the system). */
CL_FN(cl_s2_quad_ws) *CL_FN(cl_s2_coupled_ws)(CL_FN(cl_s2_coupled) *s);
/**
 * F_i(q, q̇) of [S2 (13)] from the hand derivation in s2_coupled.c
 * (independent of the generic assembly in cl_s2_quad_F_qdot):
 * F_i = Σ_j ṁ_ij q̇_j − b(e₃·q_i)‖q̇_i‖² e₃ − c Σ_{j≠i}(q̇_i·q̇_j) q_j.
 */
void CL_FN(cl_s2_coupled_F_hand)(const CL_FN(cl_s2_coupled) *s, rptr F, rsrc q, rsrc qdot);

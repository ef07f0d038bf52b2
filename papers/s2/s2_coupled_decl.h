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
 * \brief n coupled spheres with configuration-dependent inertia (\ref ch_s2_coupled):
 * \f$m_{ii} = a_i + b\,(e_3\cdot q_i)^2\f$, \f$m_{ij} = c\,(q_i\cdot q_j)\f$,
 * \f$U = \sum_i k_i\,e_3\cdot q_i + \kappa\sum_{i<j} q_i\cdot q_j\f$, \f$f_i = -\delta\,\dot q_i\f$.
 *
 * \p a and \p k have n entries; b, c, kappa, damping are scalars.
 * \return 0; CL_EDIM when n < 1; CL_ENAN; CL_EPARAM unless b ≥ 0, δ ≥ 0 and
 *         a_i > |c|(n − 1) for every i (which makes the kinetic energy
 *         positive definite); CL_ENOMEM.
 */
int CL_FN(cl_s2_coupled_new)(CL_FN(cl_s2_coupled) **out, size_t n, cl_rsrc a, cl_rsrc b, cl_rsrc c,
                             cl_rsrc k, cl_rsrc kappa, cl_rsrc damping, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_s2_coupled_free)(CL_FN(cl_s2_coupled) *s);
/** The system as a cl_s2_quad [S2 (12)]. */
const CL_FN(cl_s2_quad) *CL_FN(cl_s2_coupled_quad)(const CL_FN(cl_s2_coupled) *s);
/** Its workspace (owned by the system). */
CL_FN(cl_s2_quad_ws) *CL_FN(cl_s2_coupled_ws)(CL_FN(cl_s2_coupled) *s);
/**
 * F_i(q, q̇) of [S2 (13)] from the hand derivation of \ref ch_s2_coupled
 * (independent of the generic assembly in cl_s2_quad_F_qdot):
 * \f$F_i = \sum_j \dot m_{ij}\dot q_j - b\,(e_3\cdot q_i)\|\dot q_i\|^2e_3 - c\sum_{j\ne i}(\dot q_i\cdot\dot q_j)\,q_j\f$.
 */
void CL_FN(cl_s2_coupled_F_hand)(const CL_FN(cl_s2_coupled) *s, cl_rptr F, cl_rsrc q, cl_rsrc qdot);

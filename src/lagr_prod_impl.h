/**
 * \file lagr_prod_impl.h
 * \brief Internal to lagr_prod.c and ham_prod.c (templated, never
 *        installed): the kinematics and the momentum balance of every
 *        factor kind of a product, shared by the Lagrangian and the
 *        Hamiltonian engines.
 */
#ifndef CL_LAGR_PROD_IMPL_H
#define CL_LAGR_PROD_IMPL_H
#include "lagr_core_impl.h"
#include "lagr_prod.h"

/**
 * \brief The rates and the momentum balance of the \p nf factors \p f.
 *
 * With u the velocities (q̇ on S¹, Rᵏ, S²; Ω on SO(3); (Ω, V) on SE(3)),
 * Lq the gradient of L in the configuration and Lu = ∂L/∂u: the
 * configuration's rate into \p qd (q̇ = u, Ṙ = RΩ̂, ẋ = RV) and the right
 * side G + F of d/dt ∂L/∂u = G + F into \p G (lagr_prod.h; on S² without its
 * multiplier), \p F the generalized forces (nv numbers). A Hamiltonian gives
 * the same terms with u = ∂H/∂p, Lq = −∂H/∂q and Lu = p. Returns 0, or
 * CL_EDIM for an unknown factor or a product too large.
 */
int CL_FN(cl_lagr_prod_terms)(const cl_lagr_factor *f, size_t nf, rptr qd, rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, rsrc F);
/** The generalized forces of the core's last run (zero where none is set) into \p F (nv numbers). */
void CL_FN(cl_lagr_prod_forces)(CL_FN(cl_lagr_core) *c, rptr F);
/** Every S² block of the velocity-sized vector \p v made tangent: v ← (I − qqᵀ/|q|²)v. */
void CL_FN(cl_lagr_prod_project_s2)(const cl_lagr_factor *f, size_t nf, rptr v, rsrc q);
/** On every S² block of the velocity part: out ← v × q (\p v_cross_q) or q × v (\p out may be \p v). */
void CL_FN(cl_lagr_prod_cross_s2)(const cl_lagr_factor *f, size_t nf, rptr out, rsrc v, rsrc q, int v_cross_q);
/**
 * The velocity block of the Hessian rows of \p c (after cl_lagr_core_derivs()) into c->M, made
 * P M P + QQᵀ on the S² blocks (P = I − qqᵀ, Q the unit vectors), and factored: regular exactly
 * when M restricted to the product's tangent space is. Returns 0, CL_ESINGULAR or CL_EDIM.
 */
int CL_FN(cl_lagr_prod_factor_tangent)(CL_FN(cl_lagr_core) *c, const cl_lagr_factor *f, size_t nf, rsrc q);
/**
 * \brief The distribution form's basis and its null-space solve (lagr_prod_dist.c).
 *
 * W is nr × nv, the velocity rows (constraints' rows A P, then qᵀ per S²
 * block). cl_lagr_dist_choose() picks the nr dependent velocities D by
 * complete pivoting on W (CL_ESINGULAR: W has lower rank); the other nd =
 * nv − nr are the quasivelocities. cl_lagr_dist_velocity() adds
 * −W_D⁻¹ rho to u_D (rho the rows' values at u); cl_lagr_dist_solve()
 * replaces r by the w with W w = g and Bᵀ(M w − r) = 0 (M nv × nv).
 */
typedef struct CL_FN(cl_lagr_dist) CL_FN(cl_lagr_dist);
CL_FN(cl_lagr_dist) *CL_FN(cl_lagr_dist_new)(size_t nv, size_t nr, cl_prec_t prec);
void CL_FN(cl_lagr_dist_free)(CL_FN(cl_lagr_dist) *d);
size_t CL_FN(cl_lagr_dist_dim)(const CL_FN(cl_lagr_dist) *d);
/** The velocity component of quasivelocity \p k, or −1 before a choice. */
int CL_FN(cl_lagr_dist_index)(const CL_FN(cl_lagr_dist) *d, size_t k);
int CL_FN(cl_lagr_dist_choose)(CL_FN(cl_lagr_dist) *d, rsrc W);
/** I ← \p ind (nd increasing components), D its complement. 0 or CL_EDIM. */
int CL_FN(cl_lagr_dist_set)(CL_FN(cl_lagr_dist) *d, const int *ind);
int CL_FN(cl_lagr_dist_velocity)(CL_FN(cl_lagr_dist) *d, rsrc W, rsrc rho, rptr u);
/** s ← u_I (nd numbers). */
void CL_FN(cl_lagr_dist_reduce)(const CL_FN(cl_lagr_dist) *d, rptr s, rsrc u);
/** u ← s on I, zero on D. */
void CL_FN(cl_lagr_dist_expand)(const CL_FN(cl_lagr_dist) *d, rptr u, rsrc s);
int CL_FN(cl_lagr_dist_solve)(CL_FN(cl_lagr_dist) *d, rsrc W, rsrc M, rsrc g, rptr r);
#endif

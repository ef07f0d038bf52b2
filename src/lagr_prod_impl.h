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
#endif

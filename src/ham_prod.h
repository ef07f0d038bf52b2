/**
 * \file ham_prod.h
 * \brief A Hamiltonian on a product of the factors S¹, Rᵏ, SO(3) and SE(3),
 *        given as an expression graph (expr.h): Hamilton's equations in the
 *        momentum form, the velocity form through the inverse Legendre map
 *        u = ∂H/∂p, the maps between them and the energy H, from the exact
 *        derivatives of the expression engine.
 *
 * The factors are those of lagr_prod.h (S² factors excepted). The inputs of
 * H are every factor's configuration in order (an angle, a point of Rᵏ, a
 * rotation R row by row, R then a position x), then every factor's
 * momentum in order (p conjugate to an angle or a point; the body angular
 * momentum Π on SO(3); Π and the body linear momentum P on SE(3)), then the
 * time t, then the parameters.
 *
 * With u = ∂H/∂p the velocities, the configuration moves by the kinematics
 * of its factor (q̇ = u, Ṙ = RΩ̂, ẋ = RV) and the momenta by
 * \f[ \dot p = -\frac{\partial H}{\partial q} + F \f]
 * on S¹ and Rᵏ, the Lie–Poisson equations with the attitude on the groups
 * [EMB §3.4]: \f$ \dot\Pi = \Pi\times\Omega - \tau_H \f$,
 * \f$ \tau_H = (R^T H_R - H_R^T R)^\vee \f$, and on SE(3)
 * \f$ \dot\Pi = \Pi\times\Omega + P\times V - \tau_H \f$,
 * \f$ \dot P = P\times\Omega - R^T H_x \f$ (plus the forces, as lagr_prod.h).
 */
#ifndef CL_HAM_PROD_H
#define CL_HAM_PROD_H
#include "expr.h"
#include "lagr_prod.h"

/** The forms of a state: the momenta (native) or the velocities u = ∂H/∂p. */
enum cl_ham_prod_form {
    CL_HAM_PROD_MOM = 0, /**< p on S¹ and Rᵏ; μ ⊥ q on S²; Π on SO(3); (Π, P) on SE(3) */
    CL_HAM_PROD_VEL = 1, /**< q̇ on S¹, Rᵏ and S²; Ω on SO(3); (Ω, V) on SE(3) */
    CL_HAM_PROD_PI = 2,  /**< as MOM, but π = q × μ on S² */
    CL_HAM_PROD_OMEGA = 3 /**< as VEL, but ω = q × q̇ on S² */
};

#define CL_TEMPLATE_HEADER "ham_prod_decl.h"
#include "cl_instantiate.h"
#endif

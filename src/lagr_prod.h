/**
 * \file lagr_prod.h
 * \brief A general Lagrangian on any product of the factors S¹, Rᵏ, S²,
 *        SO(3) and SE(3), given as an expression graph (expr.h): the
 *        equations of motion of the product in velocity and momentum forms,
 *        the maps between them and the energy, from the exact derivatives
 *        of the expression engine.
 *
 * Each factor has a configuration part, embedded in some Rᵐ (an angle, a
 * point of Rᵏ, a unit vector of R³, a rotation R row by row, a rotation and
 * a position (R, x)), and a velocity part: q̇ for S¹, Rᵏ and S², the body
 * angular velocity Ω for SO(3), Ω and the body linear velocity V = Rᵀẋ for
 * SE(3). The inputs of L are every factor's configuration in order, then
 * every factor's velocity in order, then the time t, then the parameters.
 *
 * The equations are the projected Euler–Lagrange equations [EMB (2.8)] on
 * the embedded factors and the reduced Euler–Poincaré equations on the
 * groups [EMB §3.4], coupled through one velocity Hessian on the product's
 * tangent space (see lagr_prod.c).
 */
#ifndef CL_LAGR_PROD_H
#define CL_LAGR_PROD_H
#include "expr.h"

/** The kinds of factor. */
enum cl_lagr_factor_kind {
    CL_LAGR_S1 = 0, /**< an angle; velocity its rate */
    CL_LAGR_RK = 1, /**< a point of Rᵏ; velocity ẋ */
    CL_LAGR_S2 = 2, /**< a unit vector q of R³; velocity q̇ ⊥ q */
    CL_LAGR_SO3 = 3, /**< a rotation R (9, row by row); velocity Ω = (RᵀṘ)^∨ */
    CL_LAGR_SE3 = 4  /**< a rotation R (9) and a position x (3); velocities Ω and V = Rᵀẋ */
};

/** One factor: its kind and, for Rᵏ, k. */
typedef struct cl_lagr_factor {
    int kind; /**< enum cl_lagr_factor_kind */
    int k;    /**< the dimension of an Rᵏ factor (ignored otherwise) */
} cl_lagr_factor;

/**
 * The forms of a state, chosen for the whole product; they differ on S²
 * factors only (and, for the momentum forms, in the velocity part of every
 * factor).
 */
enum cl_lagr_prod_form {
    CL_LAGR_PROD_VEL = 0,   /**< q̇ on S¹, Rᵏ, S²; Ω on SO(3); (Ω, V) on SE(3) */
    CL_LAGR_PROD_OMEGA = 1, /**< as VEL, but ω = q × q̇ on S² */
    CL_LAGR_PROD_MOM = 2,   /**< p = ∂L/∂(velocity); on S² μ = (I − qqᵀ)∂L/∂q̇ */
    CL_LAGR_PROD_PI = 3,    /**< as MOM, but π = q × μ on S² */
    CL_LAGR_PROD_DIST = 4   /**< constrained products: the quasivelocities, coordinates in a basis of the admissible directions (lagr_prod_dist.c) */
};

/** Most factors of a product, and most numbers of its configuration or velocity (documented limits of models). */
#define CL_LAGR_PROD_MAX_FACTORS 64
#define CL_LAGR_PROD_MAX_DIM 192

#define CL_TEMPLATE_HEADER "lagr_prod_decl.h"
#include "cl_instantiate.h"
#endif

/**
 * \file lagr_flat.h
 * \brief A general Lagrangian L(q, q̇) on a product of circles S¹ (an angle
 *        each) and Euclidean spaces Rᵏ (Cartesian coordinates), given as an
 *        expression graph (expr.h): the Euler–Lagrange equations in (q, q̇),
 *        Hamilton's equations in (q, p), the Legendre map between them and
 *        the energy, all from the exact derivatives of the expression engine.
 *
 * These factors are flat: their tangent bundles are products with R^d, the
 * velocity of an angle is a number, and the Euler–Lagrange equations need
 * no projection. The inputs of L are numbered \f$x_0 \dots x_{d-1} = q\f$,
 * \f$x_d \dots x_{2d-1} = \dot q\f$, then the parameters. See lagr_flat.c.
 */
#ifndef CL_LAGR_FLAT_H
#define CL_LAGR_FLAT_H
#include "expr.h"

/** The forms of a state on the tangent or cotangent bundle. */
enum cl_lagr_flat_form {
    CL_LAGR_FLAT_QDOT = 0, /**< (q, q̇) */
    CL_LAGR_FLAT_P = 1     /**< (q, p), p = ∂L/∂q̇ */
};

/** Largest number of coordinates d (a documented limit of models). */
#define CL_LAGR_FLAT_MAX_DIM 64

#define CL_TEMPLATE_HEADER "lagr_flat_decl.h"
#include "cl_instantiate.h"
#endif

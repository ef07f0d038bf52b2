/**
 * \file lagr_s2.h
 * \brief A general Lagrangian L(q, q̇) on (S²)ⁿ given as an expression graph
 *        (expr.h): its vector field in the four forms of [S2 III–IV], the
 *        Legendre maps between them and its energy, all from the exact
 *        derivatives of the expression engine.
 *
 * The inputs of L are numbered \f$x_0 \dots x_{3n-1} = q_1 \dots q_n\f$,
 * \f$x_{3n} \dots x_{6n-1} = \dot q_1 \dots \dot q_n\f$, \f$x_{6n} = t\f$, then the parameters. See lagr_s2.c.
 */
#ifndef CL_LAGR_S2_H
#define CL_LAGR_S2_H
#include "expr.h"

/** The forms of a state (q, v) on T(S²)ⁿ or T*(S²)ⁿ, numbered as enum cl_s2_form of [S2]. */
enum cl_lagr_form {
    CL_LAGR_QDOT = 0,  /**< v = q̇ */
    CL_LAGR_OMEGA = 1, /**< v = ω, ω_i = q_i × q̇_i [S2 (5)] */
    CL_LAGR_MU = 2,    /**< v = μ, μ_i = (I − q_iq_iᵀ) ∂L/∂q̇_i [S2 (20)] */
    CL_LAGR_PI = 3     /**< v = π, π_i = q_i × μ_i [S2 (28)] */
};

/** Largest number of unit vectors of a Lagrangian on (S²)ⁿ (a documented limit of models). */
#define CL_LAGR_MAX_SPHERES 64

#define CL_TEMPLATE_HEADER "lagr_s2_decl.h"
#include "cl_instantiate.h"
#endif

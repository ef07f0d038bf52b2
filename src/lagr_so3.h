/**
 * \file lagr_so3.h
 * \brief A general Lagrangian L(R, Ω) on SO(3) given as an expression graph
 *        (expr.h), Ω = (RᵀṘ)^∨ the body angular velocity: its vector field in
 *        the forms of the rigid body of [EMB §3.4], the maps between them and
 *        its energy, all from the exact derivatives of the expression engine.
 *
 * The inputs of L are numbered \f$x_0 \dots x_8 = R\f$ (row by row),
 * \f$x_9, x_{10}, x_{11} = \Omega\f$, then the parameters. See lagr_so3.c.
 */
#ifndef CL_LAGR_SO3_H
#define CL_LAGR_SO3_H
#include "expr.h"

/** The forms of a state on T SO(3) or T* SO(3), in the layout of the heavy top of [EMB §3.4]. */
enum cl_lagr_so3_form {
    CL_LAGR_SO3_ROMEGA = 0, /**< (R, Ω): 9 + 3 numbers */
    CL_LAGR_SO3_RRDOT = 1,  /**< (R, Ṙ): 9 + 9, Ṙ = RΩ̂ */
    CL_LAGR_SO3_RMU = 2     /**< (R, μ): 9 + 9, μ = ½R Π̂ with Π = ∂L/∂Ω ([EMB (2.4)] with (3.7)) */
};

/** Number of inputs of L before the parameters: R (9) and Ω (3). */
#define CL_LAGR_SO3_NSTATE 12

#define CL_TEMPLATE_HEADER "lagr_so3_decl.h"
#include "cl_instantiate.h"
#endif

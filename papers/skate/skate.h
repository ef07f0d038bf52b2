/**
 * \file skate.h
 * \brief The pendulum skate [SKATE]: parameter layout, state layouts and the
 *        templated prototypes of chapters/skate_*.c.
 *
 * Parameters are one flat vector `par` of CL_SKATE_NPAR scalars, indexed by
 * the enum below. States:
 *  - z-form [SKATE (21)]: z = (Ω, Y, Γ), 9 numbers; with the internal rotor
 *    of [SKATE §6] one more, the rotor rate θ̇ (10 numbers);
 *  - ζ-form [SKATE (38)]: ζ = (v¹, v², v³, Γ₂, Γ₃), 5 numbers.
 */
#ifndef CL_SKATE_H
#define CL_SKATE_H
#include "cl_types.h"
#include "energy_casimir.h"

/** Indices into the parameter vector of the pendulum skate. */
enum cl_skate_param {
    CL_SKATE_M = 0,  /**< total mass m (rotor included in [SKATE §6]) */
    CL_SKATE_L = 1,  /**< height l of the centre of mass above the blade */
    CL_SKATE_G = 2,  /**< gravitational acceleration g */
    CL_SKATE_I1 = 3, /**< principal moments I₁, I₂, I₃ (3 entries) */
    CL_SKATE_I2 = 4,
    CL_SKATE_I3 = 5,
    CL_SKATE_J1 = 6, /**< rotor moments J₁, J₂, J₃ [SKATE (55)] (3 entries; 0 without rotor) */
    CL_SKATE_J2 = 7,
    CL_SKATE_J3 = 8,
    CL_SKATE_NPAR = 9
};

/** Length of the z-form state without and with the rotor. */
#define CL_SKATE_NZ 9
#define CL_SKATE_NZ_ROTOR 10
/** Length of the ζ-form state. */
#define CL_SKATE_NZETA 5
/** Scalars a caller provides as storage for cl_skate_hamel(). */
#define CL_SKATE_HAMEL_STORE (216 + 54 + 54 + 36 + CL_SKATE_NPAR)

/**
 * The field (38) in the form src/deriv differentiates: y = f(x) at the
 * precision of y, ctx the parameter vector as CL_SKATE_NPAR mpfr numbers.
 */
int cl_skate_zeta_field(mpfr_ptr y, mpfr_srcptr x, void *ctx);

#define CL_TEMPLATE_HEADER "skate_decl.h"
#define CL_TEMPLATE_ARB
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

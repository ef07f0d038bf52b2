/**
 * \file lie.h
 * \brief Exponentials of SO(3) and SE(3), dexp⁻¹ on se(3), and Lie group
 *        integrators on homogeneous manifolds (Lie–Euler, RKMK4, CF4, RKMK45).
 *
 * The integrators solve y′ = f(y)·y on a manifold M acted on by a group G:
 * the problem supplies the map f: M → 𝔤, the action of the exponential and
 * (for RKMK) dexp⁻¹ or the bracket. See lie_decl.h for the templated calls.
 */
#ifndef CL_LIE_H
#define CL_LIE_H
#include "cl_types.h"

/** Lie group integrators. */
enum cl_lie_method {
    CL_LIE_EULER = 1, /**< Lie–Euler, order 1, one field evaluation */
    CL_LIE_RKMK4 = 2, /**< Runge–Kutta–Munthe-Kaas with classical RK4, order 4 */
    CL_LIE_CF4 = 3,   /**< commutator-free method of order 4, two exponentials */
    CL_LIE_RKMK45 = 4 /**< RKMK Dormand–Prince 5(4), embedded pair */
};

/**
 * Method from its command-line name: "lie-euler", "rkmk4", "cf4", "rkmk45".
 * Returns the enum value, or CL_EPARAM for an unknown name.
 */
int cl_lie_method_from_name(const char *name);
/** Command-line name of a method ("?" if unknown). */
const char *cl_lie_method_name(int method);
/** Classical order of a method (RKMK45: 5), or 0 if unknown. */
int cl_lie_method_order(int method);

#define CL_TEMPLATE_HEADER "lie_decl.h"
#include "cl_instantiate.h"
#endif

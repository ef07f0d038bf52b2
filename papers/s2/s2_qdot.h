/**
 * \file s2_qdot.h
 * \brief Chapter S2 III.A: systems with a quadratic Lagrangian on (S²)ⁿ and
 *        the Euler–Lagrange equations in (q, q̇). See \ref ch_s2_qdot.
 */
#ifndef CL_S2_QDOT_H
#define CL_S2_QDOT_H
#include "cl_types.h"
#define CL_TEMPLATE_HEADER "s2_qdot_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

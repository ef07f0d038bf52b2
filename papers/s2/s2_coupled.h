/**
 * \file s2_coupled.h
 * \brief An example for chapters S2 III–IV: coupled spheres whose inertia
 *        depends on the configuration, so that F_i of [S2 (13)] is non-zero.
 */
#ifndef CL_S2_COUPLED_H
#define CL_S2_COUPLED_H
#include "s2_qdot.h"
#define CL_TEMPLATE_HEADER "s2_coupled_decl.h"
#include "cl_instantiate.h"
#endif

/**
 * \file s2.h
 * \brief Public header of the paper S2 (papers/s2): the two-sphere and the
 *        hat map, the four forms (q, q̇), (q, ω), (q, μ), (q, π), the chain
 *        pendulum and the coupled spheres, in both scalar kinds.
 */
#ifndef CL_S2_H
#define CL_S2_H
#include "cl_types.h"
#define CL_TEMPLATE_HEADER "s2_sphere_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#include "s2_qdot.h"
#include "s2_omega.h"
#include "s2_mu.h"
#include "s2_pi.h"
#include "s2_chain.h"
#include "s2_coupled.h"
#endif

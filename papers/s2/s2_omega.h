/**
 * \file s2_omega.h
 * \brief Chapter S2 III.B: Euler–Lagrange equations in (q, ω). See \ref ch_s2_omega.
 */
#ifndef CL_S2_OMEGA_H
#define CL_S2_OMEGA_H
#include "s2_qdot.h"
#define CL_TEMPLATE_HEADER "s2_omega_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

/**
 * \file s2_pi.h
 * \brief Chapter S2 IV.B: Hamilton's equations in (q, π). See \ref ch_s2_pi.
 */
#ifndef CL_S2_PI_H
#define CL_S2_PI_H
#include "s2_qdot.h"
#define CL_TEMPLATE_HEADER "s2_pi_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

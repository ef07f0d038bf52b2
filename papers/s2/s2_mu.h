/**
 * \file s2_mu.h
 * \brief Chapter S2 IV.A: Hamilton's equations in (q, μ). See \ref ch_s2_mu.
 */
#ifndef CL_S2_MU_H
#define CL_S2_MU_H
#include "s2_qdot.h"
#define CL_TEMPLATE_HEADER "s2_mu_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

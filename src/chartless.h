/**
 * \file chartless.h
 * \brief Public interface of libchartless: every numeric routine in its
 *        double (`_d`) and MPFR (`_mp`) instantiation.
 */
#ifndef CHARTLESS_H
#define CHARTLESS_H
#include "cl_types.h"

#define CL_TEMPLATE_HEADER "scalar_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "r3_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "ode_decl.h"
#include "cl_instantiate.h"

#endif

/**
 * \file ode.h
 * \brief ODE integrators at the working precision, for templated sources:
 *        RK4, Fehlberg 7(8), Gauss–Legendre, Gragg–Bulirsch–Stoer, with a
 *        driver, error control and event location (prototypes in ode_decl.h).
 */
#ifndef CL_ODE_H
#define CL_ODE_H
#include "scalar.h"

#define CL_TEMPLATE_HEADER "ode_decl.h"
#include "cl_instantiate.h"

#endif

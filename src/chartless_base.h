/**
 * \file chartless_base.h
 * \brief The core of libchartless (src/): scalar layer, R³, linear algebra,
 *        derivatives, ODE and Lie-group integrators, Energy–Casimir, each
 *        routine in its double (`_d`) and MPFR (`_mp`) instantiation, and
 *        the scalar layer, R³, linear algebra and Energy–Casimir also on
 *        Arb balls (`_arb`).
 *
 * `chartless.h` (generated from the papers' `paper.def`) includes this,
 * the check kit and every paper's public header.
 */
#ifndef CHARTLESS_BASE_H
#define CHARTLESS_BASE_H
#include "cl_types.h"

#define CL_TEMPLATE_HEADER "scalar_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "r3_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "linalg_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "ode_decl.h"
#include "cl_instantiate.h"
#include "lie.h"
#include "energy_casimir.h"
#include "expr.h"
#include "taylor.h"
#include "lagr_s2.h"
#include "lagr_so3.h"
#include "lagr_flat.h"
#include "ham_prod.h"

#endif

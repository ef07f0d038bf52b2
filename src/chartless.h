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
#define CL_TEMPLATE_HEADER "linalg_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_qdot_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_omega_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_mu_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_pi_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_chain_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_coupled_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "s2_sphere_decl.h"
#include "cl_instantiate.h"
#include "lie.h"
#include "nfold.h"
#define CL_TEMPLATE_HEADER "emb_general_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "emb_subspace_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "emb_circle_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "emb_sphere_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "emb_so3_decl.h"
#include "cl_instantiate.h"
#include "energy_casimir.h"
#include "skate.h"
#define CL_TEMPLATE_HEADER "ode_decl.h"
#include "cl_instantiate.h"

#endif

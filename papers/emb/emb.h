/**
 * \file emb.h
 * \brief Public header of the paper EMB (papers/emb): dynamics on a manifold
 *        embedded in Rⁿ through the projection P(x), and its examples — a
 *        subspace, S¹, S², the rigid body and the heavy top — in both scalar kinds.
 */
#ifndef CL_EMB_H
#define CL_EMB_H
#include "cl_types.h"
#include "lie.h"
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
#endif

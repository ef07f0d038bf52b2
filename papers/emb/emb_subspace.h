/**
 * \file emb_subspace.h
 * \brief [EMB §3.1]: dynamics on a subspace {Ax = 0} (see emb_subspace_decl.h).
 */
#ifndef CL_EMB_SUBSPACE_H
#define CL_EMB_SUBSPACE_H
#include "emb_general.h"

#define CL_TEMPLATE_HEADER "emb_subspace_decl.h"
#include "cl_instantiate.h"
#endif

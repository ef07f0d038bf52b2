/**
 * \file emb_so3.h
 * \brief [EMB §3.4]: the rigid body and the heavy top on SO(3) (see emb_so3_decl.h).
 */
#ifndef CL_EMB_SO3_H
#define CL_EMB_SO3_H
#include "emb_general.h"
#include "lie.h"

#define CL_TEMPLATE_HEADER "emb_so3_decl.h"
#include "cl_instantiate.h"
#endif

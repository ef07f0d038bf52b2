/**
 * \file emb_general.h
 * \brief [EMB §2]: Euler–Lagrange and Hamilton's equations on a manifold
 *        embedded in Rⁿ, for templated sources (see emb_general_decl.h).
 */
#ifndef CL_EMB_GENERAL_H
#define CL_EMB_GENERAL_H
#include "scalar.h"

#define CL_TEMPLATE_HEADER "emb_general_decl.h"
#include "cl_instantiate.h"
#endif

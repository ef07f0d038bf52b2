/**
 * \file nfold.h
 * \brief The N-fold 3D pendulum through SE(3)ᴺ [NFOLD (1)–(9)]; see \ref ch_nfold.
 */
#ifndef CL_NFOLD_H
#define CL_NFOLD_H
#include "cl_types.h"
#include "lie.h"
#include "s2_chain.h"

#define CL_TEMPLATE_HEADER "nfold_decl.h"
#include "cl_instantiate.h"
#endif

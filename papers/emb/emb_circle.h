/**
 * \file emb_circle.h
 * \brief [EMB §3.2]: the planar pendulum on S¹, and the pendulum model on
 *        \f$S^{d-1}\f$ shared with §3.3 (see emb_circle_decl.h).
 */
#ifndef CL_EMB_CIRCLE_H
#define CL_EMB_CIRCLE_H
#include "emb_general.h"

#define CL_TEMPLATE_HEADER "emb_circle_decl.h"
#include "cl_instantiate.h"
#endif

/**
 * \file emb_sphere.h
 * \brief [EMB §3.3]: dynamics on S² (see emb_sphere_decl.h).
 */
#ifndef CL_EMB_SPHERE_H
#define CL_EMB_SPHERE_H
#include "emb_circle.h"

#define CL_TEMPLATE_HEADER "emb_sphere_decl.h"
#include "cl_instantiate.h"
#endif

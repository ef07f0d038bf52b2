/**
 * \file s2_chain.h
 * \brief Chapter S2 V: the chain pendulum on (S²)ⁿ, with an O(n) solve of
 *        its equations of motion. See \ref ch_s2_chain.
 */
#ifndef CL_S2_CHAIN_H
#define CL_S2_CHAIN_H
#include "s2_omega.h"
#include "s2_mu.h"
#include "s2_pi.h"
#define CL_TEMPLATE_HEADER "s2_chain_decl.h"
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"
#endif

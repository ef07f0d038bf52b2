/*
 * Declare the templated prototypes of CL_TEMPLATE_HEADER for both scalar
 * kinds, and for Arb balls too when the module also defines CL_TEMPLATE_ARB
 * (only the modules the Makefile's SRC_ARB and a paper's `arb` field compile
 * for balls do). A module header sets CL_TEMPLATE_HEADER and includes this
 * file; the tracing kind (trace.h) likewise for the modules that define
 * CL_TEMPLATE_TRACE (SRC_TRACE and a paper's `trace` field); inside a library source (CL_PREC defined) the names of that source's
 * own kind are restored afterwards.
 */
#include "cl_templates_off.h"
#define CL_T CL_DOUBLE
#include "cl_templates_on.h"
#include CL_TEMPLATE_HEADER
#include "cl_templates_off.h"
#define CL_T CL_MPFR
#include "cl_templates_on.h"
#include CL_TEMPLATE_HEADER
#include "cl_templates_off.h"
#ifdef CL_TEMPLATE_ARB
#define CL_T CL_ARB
#include "cl_templates_on.h"
#include CL_TEMPLATE_HEADER
#include "cl_templates_off.h"
#undef CL_TEMPLATE_ARB
#endif
#ifdef CL_TEMPLATE_TRACE
#define CL_T CL_TRACE
#include "cl_templates_on.h"
#include CL_TEMPLATE_HEADER
#include "cl_templates_off.h"
#undef CL_TEMPLATE_TRACE
#endif
#ifdef CL_PREC
#define CL_T CL_PREC
#include "cl_templates_on.h"
#endif
#undef CL_TEMPLATE_HEADER

/**
 * \file linalg.h
 * \brief Small dense linear algebra for templated sources: LU with partial
 *        pivoting, Householder QR, null spaces, inertia of symmetric
 *        matrices (Bunch–Kaufman) and eigenvalues (Hessenberg + Francis QR).
 *
 * The routines are in linalg.c, linalg_inertia.c, linalg_francis.c (double
 * and MPFR eigenvalues) and linalg_eig_arb.c (balls); their prototypes and
 * exact semantics in linalg_decl.h.
 */
#ifndef CL_LINALG_H
#define CL_LINALG_H
#include "scalar.h"

#define CL_TEMPLATE_HEADER "linalg_decl.h"
#define CL_TEMPLATE_ARB
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"

#endif

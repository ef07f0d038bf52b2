/*
 * What the files of the dense linear algebra share (linalg.c, the inertia in
 * linalg_inertia.c, the eigenvalues in linalg_francis.c and linalg_eig_arb.c):
 * the row-major entry, the finiteness guard, Householder reflections and the
 * order of eigenvalues. Templated; internal: not installed.
 */
#ifndef CL_LINALG_IMPL_H
#define CL_LINALG_IMPL_H
#include "linalg.h"

/* Entry (i, j) of a row-major matrix with row length ld. */
#define AT(M, ld, i, j) ((M) + (size_t)(i) * (size_t)(ld) + (size_t)(j))

static inline int finite_all(rsrc a, size_t n) { return CL_FN(cl_rvec_is_finite)(a, n); }

/*
 * Overwrite x (len entries, stride ld) by a Householder vector v such that
 * (I − beta v vᵀ) x_old = alpha e1, alpha = −sign(x0)‖x‖. beta = 0 when
 * x = 0. The norm is summed after scaling by an exact power of 2, so double
 * neither overflows nor underflows. t is a scratch scalar.
 */
void CL_FN(cl_house)(rptr alpha, rptr beta, rptr x, size_t ld, int len, rptr t);

/* y ← (I − beta v vᵀ) y for len entries; v with stride ldv, y with stride ldy. */
void CL_FN(cl_house_apply)(rsrc beta, rsrc v, size_t ldv, rptr y, size_t ldy, int len, rptr s);

/* Order eigenvalues by real part, then imaginary part. */
void CL_FN(cl_eig_sort)(rptr wr, rptr wi, int n);

#endif

/**
 * \file emb_impl.h
 * \brief Internal to the EMB chapters (templated, never installed): the few
 *        compositions of src/linalg the chapters share. All arithmetic is
 *        that of src/linalg; nothing here eliminates or factors by itself.
 */
#ifndef CL_EMB_IMPL_H
#define CL_EMB_IMPL_H
#include "scalar.h"
#include "linalg.h"

/**
 * The cl_emb_model on Rⁿ (n_) with context ctx_ whose callbacks are the
 * chapter's prefix_proj, prefix_dproj, prefix_lag, prefix_lag_dx,
 * prefix_lag_dv, prefix_lag_dvdv, prefix_lag_dvdx, prefix_ham, prefix_ham_dx
 * and prefix_ham_dmu.
 */
#define EMB_MODEL(n_, ctx_, prefix)                                                                          \
    ((CL_FN(cl_emb_model)){.n = (n_), .ctx = (ctx_), .proj = prefix##_proj, .dproj = prefix##_dproj,         \
                           .lagrangian = prefix##_lag, .lag_dx = prefix##_lag_dx, .lag_dv = prefix##_lag_dv, \
                           .lag_dvdv = prefix##_lag_dvdv, .lag_dvdx = prefix##_lag_dvdx,                    \
                           .hamiltonian = prefix##_ham, .ham_dx = prefix##_ham_dx, .ham_dmu = prefix##_ham_dmu})

/** d = a · b over n entries (the 1×n by n×1 product of src/linalg). */
static inline void emb_dot(rptr d, rsrc a, rsrc b, size_t n)
{
    CL_FN(cl_mat_mul)(d, a, b, 1, (int)n, 1);
}

/** out = DP[v] y = −v (x·y) − x (v·y), the derivative of P = I − xxᵀ along v
    on the unit sphere of R^d. */
static inline void emb_sphere_dproj(rptr out, rsrc x, rsrc v, rsrc y, size_t d)
{
    cl_prec_t p = r_prec(out);
    R_DECL(xy, p); R_DECL(vy, p);
    emb_dot(xy, x, y, d);
    emb_dot(vy, v, y, d);
    for (size_t i = 0; i < d; i++) {
        r_mul(out + i, v + i, xy);
        r_addmul(out + i, x + i, vy);
        r_neg(out + i, out + i);
    }
}

/** y = Aᵀ x for A r×c, as the row vector xᵀA (y must not alias x or A). */
static inline void emb_matT_vec(rptr y, rsrc A, rsrc x, size_t r, size_t c)
{
    CL_FN(cl_mat_mul)(y, x, A, 1, (int)r, (int)c);
}

/**
 * Solve A X = B in place: A n×n (n ≤ 64) is overwritten by its LU factors
 * (cl_lu_factor), B n×nrhs by X. Returns 0, CL_ESINGULAR by the singularity
 * rule of cl_lu_factor (a pivot ≤ n·2^(1−p)·max|A|), CL_ENAN or CL_EDIM.
 */
static inline int emb_lu_solve(rptr A, rptr B, size_t n, size_t nrhs)
{
    int perm[64];
    if (n > 64) return CL_EDIM;
    int st = CL_FN(cl_lu_factor)(A, perm, (int)n);
    return st ? st : CL_FN(cl_lu_solve)(A, perm, B, (int)n, (int)nrhs);
}
#endif

/*
 * The distribution form of a constrained product (lagr_prod.h,
 * CL_LAGR_PROD_DIST): the velocities in a basis of the admissible
 * directions, and the equations of motion by the null-space method.
 *
 * The velocity rows W (nr × nv) are the constraints' rows A P (P the
 * projection of the S² blocks) and one row qᵀ per S² block (its velocity is
 * tangent). A set D of nr velocity components is chosen once, by
 * elimination with complete pivoting on W at a state; the others, I, are
 * the quasivelocities s = u_I, and the columns of
 *   B = [ I ; −W_D⁻¹ W_I ]   (rows I, then D)
 * are a basis of the admissible directions, continuous in q wherever W_D is
 * regular. A velocity is u_I = s, u_D = −W_D⁻¹(W_I s + a), a the
 * constraints' velocity-free part. The accelerations solve, instead of the
 * bordered system of the multiplier form,
 *   W w = g,   Bᵀ(M w − r) = 0:   w = B z + w_p,  (BᵀMB) z = Bᵀ(r − M w_p),
 * w_p the solution of W w_p = g that vanishes on I: no multiplier appears.
 */
#include <stdlib.h>
#include "lagr_prod_impl.h"
#include "linalg.h"

struct CL_FN(cl_lagr_dist) {
    size_t nv, nr, nd;
    int chosen;
    int *dep, *ind, *perm; /* D (nr), I (nd), pivots */
    rptr block, Wd, B, Mb, N, t, z;
};

CL_FN(cl_lagr_dist) *CL_FN(cl_lagr_dist_new)(size_t nv, size_t nr, cl_prec_t prec)
{
    if (nr >= nv) return NULL;
    CL_FN(cl_lagr_dist) *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    size_t nd = nv - nr;
    d->nv = nv;
    d->nr = nr;
    d->nd = nd;
    d->dep = malloc((nv + nv) * sizeof *d->dep);
    d->block = CL_FN(cl_rvec_new)(nr * nr + nv * nd + nv * nd + nd * nd + nv + nv, prec);
    if (!d->dep || !d->block) {
        CL_FN(cl_lagr_dist_free)(d);
        return NULL;
    }
    d->ind = d->dep + nr;
    d->perm = d->dep + nv;
    rptr p = d->block;
    d->Wd = p; p += nr * nr;
    d->B = p; p += nv * nd;
    d->Mb = p; p += nv * nd;
    d->N = p; p += nd * nd;
    d->t = p; p += nv;
    d->z = p;
    return d;
}

void CL_FN(cl_lagr_dist_free)(CL_FN(cl_lagr_dist) *d)
{
    if (!d) return;
    free(d->dep);
    CL_FN(cl_rvec_free)(d->block);
    free(d);
}

size_t CL_FN(cl_lagr_dist_dim)(const CL_FN(cl_lagr_dist) *d) { return d ? d->nd : 0; }

int CL_FN(cl_lagr_dist_index)(const CL_FN(cl_lagr_dist) *d, size_t k) { return d && d->chosen && k < d->nd ? d->ind[k] : -1; }

/*
 * D by elimination with complete pivoting on a copy of W (nr × nv): at each
 * step the largest |entry| of the rows left, over the columns not yet taken.
 */
int CL_FN(cl_lagr_dist_choose)(CL_FN(cl_lagr_dist) *d, rsrc W)
{
    size_t nv = d->nv, nr = d->nr;
    rptr E = CL_FN(cl_rvec_new)(nr * nv + 2, r_prec(W));
    char *used = calloc(nv + nr, 1);
    if (!E || !used) {
        CL_FN(cl_rvec_free)(E);
        free(used);
        return CL_ENOMEM;
    }
    char *done = used + nv;
    rptr f = E + nr * nv, mx = f + 1;
    CL_FN(cl_rvec_copy)(E, W, nr * nv);
    int st = CL_OK;
    for (size_t k = 0; k < nr && !st; k++) {
        size_t pi = 0, pj = 0;
        r_set_zero(mx);
        for (size_t i = 0; i < nr; i++)
            for (size_t j = 0; j < nv; j++)
                if (!done[i] && !used[j] && r_cmpabs(E + i * nv + j, mx) > 0) {
                    r_abs(mx, E + i * nv + j);
                    pi = i;
                    pj = j;
                }
        if (r_sgn(mx) <= 0) {
            st = CL_ESINGULAR;
            break;
        }
        done[pi] = used[pj] = 1;
        d->dep[k] = (int)pj;
        for (size_t i = 0; i < nr; i++) {
            if (done[i]) continue;
            r_div(f, E + i * nv + pj, E + pi * nv + pj);
            for (size_t j = 0; j < nv; j++) r_submul(E + i * nv + j, f, E + pi * nv + j);
        }
    }
    for (size_t j = 0, k = 0; j < nv && !st; j++)
        if (!used[j]) d->ind[k++] = (int)j;
    if (!st) d->chosen = 1;
    CL_FN(cl_rvec_free)(E);
    free(used);
    return st;
}

int CL_FN(cl_lagr_dist_set)(CL_FN(cl_lagr_dist) *d, const int *ind)
{
    if (!d) return CL_EDIM;
    for (size_t k = 0; k < d->nd; k++)
        if (ind[k] < (k ? ind[k - 1] + 1 : 0) || ind[k] >= (int)d->nv) return CL_EDIM;
    for (size_t a = 0, k = 0, j = 0; a < d->nv; a++) {
        if (k < d->nd && ind[k] == (int)a) d->ind[k++] = (int)a;
        else d->dep[j++] = (int)a;
    }
    d->chosen = 1;
    return CL_OK;
}

/* W_D (the dependent columns of W) into d->Wd, factored; CL_ESINGULAR where the basis fails. */
static int factor_dependent(CL_FN(cl_lagr_dist) *d, rsrc W)
{
    size_t nr = d->nr, nv = d->nv;
    if (!d->chosen) return CL_EDIM;
    for (size_t i = 0; i < nr; i++)
        for (size_t k = 0; k < nr; k++) r_set(d->Wd + i * nr + k, W + i * nv + (size_t)d->dep[k]);
    return CL_FN(cl_lu_factor)(d->Wd, d->perm, (int)nr);
}

int CL_FN(cl_lagr_dist_velocity)(CL_FN(cl_lagr_dist) *d, rsrc W, rsrc rho, rptr u)
{
    int st = factor_dependent(d, W);
    if (st) return st;
    for (size_t i = 0; i < d->nr; i++) r_neg(d->t + i, rho + i);
    st = CL_FN(cl_lu_solve)(d->Wd, d->perm, d->t, (int)d->nr, 1);
    for (size_t k = 0; k < d->nr && !st; k++) r_add(u + d->dep[k], u + d->dep[k], d->t + k);
    return st;
}

void CL_FN(cl_lagr_dist_reduce)(const CL_FN(cl_lagr_dist) *d, rptr s, rsrc u)
{
    for (size_t k = 0; k < d->nd; k++) r_set(s + k, u + d->ind[k]);
}

void CL_FN(cl_lagr_dist_expand)(const CL_FN(cl_lagr_dist) *d, rptr u, rsrc s)
{
    for (size_t a = 0; a < d->nv; a++) r_set_zero(u + a);
    for (size_t k = 0; k < d->nd; k++) r_set(u + d->ind[k], s + k);
}

/* B (nv × nd) from the factored W_D: B_I = identity, B_D = −W_D⁻¹ W_I. */
static int basis(CL_FN(cl_lagr_dist) *d, rsrc W)
{
    size_t nv = d->nv, nr = d->nr, nd = d->nd;
    for (size_t a = 0; a < nv * nd; a++) r_set_zero(d->B + a);
    for (size_t k = 0; k < nd; k++) {
        for (size_t i = 0; i < nr; i++) r_neg(d->t + i, W + i * nv + (size_t)d->ind[k]);
        int st = CL_FN(cl_lu_solve)(d->Wd, d->perm, d->t, (int)nr, 1);
        if (st) return st;
        for (size_t i = 0; i < nr; i++) r_set(d->B + (size_t)d->dep[i] * nd + k, d->t + i);
        r_set_si(d->B + (size_t)d->ind[k] * nd + k, 1);
    }
    return CL_OK;
}

int CL_FN(cl_lagr_dist_solve)(CL_FN(cl_lagr_dist) *d, rsrc W, rsrc M, rsrc g, rptr r)
{
    size_t nv = d->nv, nr = d->nr, nd = d->nd;
    int st = factor_dependent(d, W);
    if (!st) st = basis(d, W);
    if (st) return st;
    rptr wp = d->z; /* w_p: zero on I, W_D⁻¹ g on D */
    for (size_t i = 0; i < nr; i++) r_set(d->t + i, g + i);
    st = CL_FN(cl_lu_solve)(d->Wd, d->perm, d->t, (int)nr, 1);
    if (st) return st;
    for (size_t a = 0; a < nv; a++) r_set_zero(wp + a);
    for (size_t k = 0; k < nr; k++) r_set(wp + d->dep[k], d->t + k);
    for (size_t a = 0; a < nv; a++) /* r ← r − M w_p; Mb ← M B */
        for (size_t b = 0; b < nv; b++) r_submul(r + a, M + a * nv + b, wp + b);
    for (size_t a = 0; a < nv; a++)
        for (size_t k = 0; k < nd; k++) {
            r_set_zero(d->Mb + a * nd + k);
            for (size_t b = 0; b < nv; b++) r_addmul(d->Mb + a * nd + k, M + a * nv + b, d->B + b * nd + k);
        }
    for (size_t k = 0; k < nd; k++) { /* N = BᵀMB, z = Bᵀ(r − M w_p) */
        r_set_zero(d->t + k);
        for (size_t a = 0; a < nv; a++) r_addmul(d->t + k, d->B + a * nd + k, r + a);
        for (size_t l = 0; l < nd; l++) {
            r_set_zero(d->N + k * nd + l);
            for (size_t a = 0; a < nv; a++) r_addmul(d->N + k * nd + l, d->B + a * nd + k, d->Mb + a * nd + l);
        }
    }
    st = CL_FN(cl_lu_factor)(d->N, d->perm, (int)nd);
    if (!st) st = CL_FN(cl_lu_solve)(d->N, d->perm, d->t, (int)nd, 1);
    if (st) return st;
    for (size_t a = 0; a < nv; a++) { /* w = B z + w_p */
        r_set(r + a, wp + a);
        for (size_t k = 0; k < nd; k++) r_addmul(r + a, d->B + a * nd + k, d->t + k);
    }
    return CL_OK;
}

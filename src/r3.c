/* Exported R³ routines; the inline bodies are in r3.h. */
#include "r3.h"

void CL_FN(cl_v3_dot)(rptr d, rsrc a, rsrc b) { v3_dot(d, a, b); }
void CL_FN(cl_v3_norm)(rptr n, rsrc a) { v3_norm(n, a); }
void CL_FN(cl_v3_cross)(rptr r, rsrc a, rsrc b) { v3_cross(r, a, b); }
void CL_FN(cl_v3_proj_tangent)(rptr r, rsrc q, rsrc v) { v3_proj_tangent(r, q, v); }
void CL_FN(cl_m3_hat)(rptr M, rsrc x) { m3_hat(M, x); }
void CL_FN(cl_m3_mul_v3)(rptr r, rsrc M, rsrc a) { m3_mul_v3(r, M, a); }
void CL_FN(cl_m3_mul)(rptr C, rsrc A, rsrc B) { m3_mul(C, A, B); }

void CL_FN(cl_v3_random_unit)(rptr q, cl_rng *g)
{
    R_DECL(n, r_prec(q));
    do {
        v3_set_d(q, cl_rng_normal(g), cl_rng_normal(g), cl_rng_normal(g));
        v3_norm(n, q);
    } while (r_cmp_d(n, 1e-3) < 0);
    for (int i = 0; i < 3; i++) r_div(q + i, q + i, n);
}

void CL_FN(cl_v3_random_tangent)(rptr v, rsrc q, double scale, cl_rng *g)
{
    v3_set_d(v, scale * cl_rng_normal(g), scale * cl_rng_normal(g), scale * cl_rng_normal(g));
    v3_proj_tangent(v, q, v);
}

/* Tolerance tol_ulps·2^(1−p) as log2, compared with log2 of the residual. */
static double log2_tol(cl_prec_t p, double tol_ulps) { return log2(tol_ulps) + 1.0 - (double)p; }

int CL_FN(cl_v3_check_unit)(rsrc q, double tol_ulps)
{
    if (!CL_FN(cl_rvec_is_finite)(q, 3)) return CL_ENAN;
    R_DECL(s, r_prec(q));
    v3_dot(s, q, q);
    r_add_si(s, s, -1);
    return r_log2abs(s) <= log2_tol(r_prec(q), tol_ulps) ? CL_OK : CL_ENOTUNIT;
}

int CL_FN(cl_v3_check_tangent)(rsrc q, rsrc v, double tol_ulps)
{
    if (!CL_FN(cl_rvec_is_finite)(q, 3) || !CL_FN(cl_rvec_is_finite)(v, 3)) return CL_ENAN;
    R_DECL(s, r_prec(v));
    v3_dot(s, q, v);
    double scale = CL_FN(cl_rvec_log2_maxabs)(v, 3);
    if (scale < 0) scale = 0;
    return r_log2abs(s) <= log2_tol(r_prec(v), tol_ulps) + scale + 1.0 ? CL_OK : CL_ENOTTANGENT;
}

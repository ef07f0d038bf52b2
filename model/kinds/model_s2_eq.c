/*
 * The declared equilibria of an (S²)ⁿ model as states (model_kinds.h), in
 * each scalar kind: the points the model's nodes give, normalized, zero
 * velocities, carried to the form asked for. The (S²)ⁿ kind's equilibrium
 * hook runs the MPFR copy; the oracle's eq.NAME rows both.
 */
#include "lagr_s2.h"
#include "model_kinds.h"
#include "r3.h"

int CL_FN(cl_model_equilibrium_state)(CL_FN(cl_lagr_s2) *lg, const cl_model *m, int k, int form, rptr x)
{
    size_t n = m->n, n3 = 3 * n;
    if (k < 0 || (size_t)k >= m->neq) return CL_EDOMAIN;
    rptr y = CL_FN(cl_rvec_new)(2 * n3, r_prec(x));
    if (!y) return CL_ENOMEM;
    for (size_t i = 0; i < n; i++) r_set_si(y + 3 * i + 2, 1); /* any state: the points depend on the parameters only */
    int st = CL_OK;
    for (size_t a = 0; a < n3 && !st; a++) st = CL_FN(cl_lagr_s2_value)(lg, m->eq[(size_t)k * n3 + a], CL_LAGR_QDOT, x + a, y);
    CL_FN(cl_rvec_free)(y);
    R_DECL(r, r_prec(x));
    for (size_t i = 0; i < n && !st; i++) {
        v3_norm(r, x + 3 * i);
        if (r_is_zero(r)) return CL_EDOMAIN;
        for (int c = 0; c < 3; c++) r_div(x + 3 * i + c, x + 3 * i + c, r);
    }
    for (size_t a = n3; a < 2 * n3; a++) r_set_zero(x + a);
    if (!st && form != CL_LAGR_QDOT) st = CL_FN(cl_lagr_s2_convert)(lg, CL_LAGR_QDOT, x, form, x);
    return st;
}

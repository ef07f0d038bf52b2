/*
 * Models on SO(3) (model_ext.h): a rigid body written as a formula.
 *
 *   manifold   R : SO3 (W)       the rotation R (body to space) and the body
 *                                angular velocity W = (RᵀṘ)^∨ (named W when
 *                                the parentheses are left out)
 *
 * In an expression R is a 3×3 matrix (R*v, transpose(R), matrix products),
 * R' the matrix Ṙ = R hat(W), W a vector. The equations of motion are the
 * Euler–Poincaré equations of [EMB §3.4] derived from L(R, W) by the
 * expression engine (lagr_so3.h), and the state is laid out as for
 * `--system heavy-top`: R (9 numbers, row by row) then W (form ROmega), Ṙ
 * (RRdot) or μ = ½R(∂L/∂W)^ (Rmu).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_so3.h"
#include "model_ext.h"
#include "system_impl.h"

int cl_model_so3_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    if (cl_text_name_is(m->so3name[0], name, len)) {
        out->shape = 9;
        for (int k = 0; k < 9; k++) out->id[k] = cl_expr_input(g, k);
        if (!prime) return 0;
        int w[3], R[9];
        for (int k = 0; k < 3; k++) w[k] = cl_expr_input(g, 9 + k);
        for (int k = 0; k < 9; k++) R[k] = out->id[k];
        return cl_model_rdot_nodes(g, R, w, out->id);
    }
    if (prime) return -1; /* only R has a velocity */
    if (cl_text_name_is(m->so3name[1], name, len)) {
        out->shape = 3;
        for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, 9 + k);
        return 0;
    }
    return cl_model_lookup_param(m, g, name, len, CL_LAGR_SO3_NSTATE, out);
}

/* ------------------------------------------------------------ the kind */

static const char *const so3_forms[] = {"ROmega", "RRdot", "Rmu", NULL};

static int so3_open(void **out, const cl_model *m, cl_prec_t prec)
{
    cl_lagr_so3_mp *lg;
    int st = cl_lagr_so3_new_mp(&lg, m->g, m->L, m->nparam, prec);
    *out = lg;
    return st;
}
static size_t so3_dim(const cl_model *m, int form) { return cl_lagr_so3_dim_mp(form); }
CL_MODEL_KIND_LAGR_DEFINE(so3)
static void so3_what(const cl_model *m, char *buf, size_t len) { snprintf(buf, len, "a rotation on SO(3)"); }
static const char *const so3_drift_names[] = {"max|RtR-I|", NULL};

/* Validate and project the state in place (lagr_so3.h), naming what is wrong. */
static int so3_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen)
{
    const char *R = m->so3name[0], *V = form == CL_LAGR_SO3_RRDOT ? "Rdot" : "mu";
    double defect;
    int st = cl_lagr_so3_project_state_mp(form, x, CL_SYS_UNIT_TOL_LOG2, &defect);
    if (st == CL_EDOMAIN && defect == INFINITY) snprintf(err, errlen, "%s must have determinant +1", R);
    else if (st == CL_EDOMAIN) snprintf(err, errlen, "%s is not orthogonal (|%s^T %s - I| = 2^%.1f)", R, R, R, defect);
    else if (st == CL_ENOTTANGENT) snprintf(err, errlen, "%s^T %s is not skew (|sym(%s^T %s)| = 2^%.1f)", R, V, R, V, defect);
    else if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    return st;
}

void cl_model_rotation_drift(mpfr_ptr d, mpfr_srcptr R)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(d));
    mpfr_set_zero(d, 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            mpfr_set_si(s, i == j ? -1 : 0, MPFR_RNDN);
            for (int k = 0; k < 3; k++) mpfr_fma(s, R + 3 * k + i, R + 3 * k + j, s, MPFR_RNDN);
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(d, d, s, MPFR_RNDN);
        }
    mpfr_clear(s);
}

static void so3_drift(const cl_model *m, int form, mpfr_ptr d, mpfr_srcptr x) { cl_model_rotation_drift(d, x); }

/* R = exp(θ^) and Ω with normal entries of standard deviation 2, as the heavy top draws them. */
static int so3_random(const cl_model *m, mpfr_ptr x, cl_rng *g)
{
    mpfr_ptr th = cl_rvec_new_mp(3, mpfr_get_prec(x));
    if (!th) return CL_ENOMEM;
    for (int i = 0; i < 3; i++) mpfr_set_d(x + 9 + i, 2.0 * cl_rng_normal(g), MPFR_RNDN);
    for (int i = 0; i < 3; i++) mpfr_set_d(th + i, 2.0 * cl_rng_normal(g), MPFR_RNDN);
    int st = cl_so3_exp_mp(x, th);
    cl_rvec_free_mp(th);
    return st;
}

static void so3_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    const char *R = m->so3name[0];
    size_t j = i < 9 ? i : i - 9;
    if (i < 9) snprintf(buf, len, "%s%zu%zu", R, j / 3 + 1, j % 3 + 1);
    else if (form == CL_LAGR_SO3_ROMEGA) snprintf(buf, len, "%s%zu", m->so3name[1], j + 1);
    else snprintf(buf, len, "%s%s%zu%zu", form == CL_LAGR_SO3_RRDOT ? R : "mu", form == CL_LAGR_SO3_RRDOT ? "dot" : "", j / 3 + 1,
                  j % 3 + 1);
}

const cl_model_kind cl_model_kind_so3 = {
    .state_help = "ROmega: R (9, row by row) then the body angular velocity (3); RRdot: R (9) Rdot (9); Rmu: R (9) mu (9),\n"
                  "mu = R (dL/dW)^ / 2. R within 2^-40 of SO(3) is made orthogonal at the working precision and R^T Rdot (R^T mu)\n"
                  "skew; beyond it refused.\n",
    .drift_names = so3_drift_names,
    .singular = "the Lagrangian is degenerate at this state: its Hessian in the body angular velocity is singular",
    CL_MODEL_KIND_HOOKS(so3),
    .drift = so3_drift,
};

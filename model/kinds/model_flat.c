/*
 * Models on products of circles and Euclidean spaces (model_ext.h):
 *
 *   manifold   theta : S1        an angle (a number; its velocity theta')
 *   manifold   x : R1            a number
 *   manifold   r : R3            a vector of R³ (r.x, r', cross(r, r'), ...)
 *
 * in any number and order; the state is the coordinates of the factors in
 * the order declared, then their velocities (form qdot) or the canonical
 * momenta p = ∂L/∂q̇ (form p). The equations are the Euler–Lagrange
 * equations of L derived by the expression engine (lagr_flat.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_flat.h"
#include "model_ext.h"

int cl_model_flat_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    for (size_t i = 0; i < m->nflat; i++) {
        const cl_model_flat *f = m->flat + i;
        if (!cl_text_name_is(f->name, name, len)) continue;
        out->shape = f->dim;
        for (int k = 0; k < f->dim; k++) out->id[k] = cl_expr_input(g, (long)((prime ? m->d : 0) + f->at) + k);
        return 0;
    }
    if (prime) return -1; /* only the manifold's names have velocities */
    return cl_model_lookup_param(m, g, name, len, (long)(2 * m->d), out);
}

static const char *const flat_forms[] = {"qdot", "p", NULL};

static int flat_open(void **out, const cl_model *m, cl_prec_t prec)
{
    cl_lagr_flat_mp *lg;
    int st = cl_lagr_flat_new_mp(&lg, m->g, m->L, m->d, m->nparam, prec);
    *out = lg;
    return st;
}
static size_t flat_dim(const cl_model *m, int form) { return 2 * m->d; }
CL_MODEL_KIND_LAGR_DEFINE(flat)
static void flat_what(const cl_model *m, char *buf, size_t len) { snprintf(buf, len, "angles and coordinates of S1 and R^k factors"); }
/* Every finite state is on the manifold (an angle is any number). */
static int flat_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen) { return CL_OK; }

/* Coordinates and velocities with standard normal entries. */
static int flat_random(const cl_model *m, mpfr_ptr x, cl_rng *g)
{
    for (size_t i = 0; i < 2 * m->d; i++) mpfr_set_d(x + i, cl_rng_normal(g), MPFR_RNDN);
    return CL_OK;
}

/* theta, r.x, ..., then theta', r'.x (qdot) or p_theta, p_r.x (p) */
static void flat_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    size_t j = i % m->d;
    const cl_model_flat *f = m->flat;
    while (j >= f->at + (size_t)f->dim) f++;
    const char *pre = i >= m->d && form == CL_LAGR_FLAT_P ? "p_" : "", *post = i >= m->d && form == CL_LAGR_FLAT_QDOT ? "'" : "";
    if (f->dim == 1) snprintf(buf, len, "%s%s%s", pre, f->name, post);
    else snprintf(buf, len, "%s%s%s.%c", pre, f->name, post, xyz[j - f->at]);
}

const cl_model_kind cl_model_kind_flat = {
    .state_help = "qdot: the coordinates of the factors in the order declared (an angle of S1, a number of R1, three of R3),\n"
                  "then their velocities; p: the coordinates, then the canonical momenta p = dL/dqdot.\n",
    .singular = "the Lagrangian is degenerate at this state: its velocity Hessian is singular",
    CL_MODEL_KIND_HOOKS(flat),
};

/*
 * Models on (S²)ⁿ (model_kinds.h): unit vectors q_i of R³, their velocities,
 * the Lagrangian engine of lagr_s2.h, and the state laid out as q then the
 * velocities (qdot), angular velocities (omega), or the momenta (mu, pi).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_s2.h"
#include "model_kinds.h"
#include "system_impl.h"

static const char *const s2_forms[] = {"qdot", "omega", "mu", "pi", NULL};
static const char *const s2_vname[] = {"qdot", "w", "mu", "pi"};

static int s2_open(void **out, const cl_model *m, cl_prec_t prec)
{
    cl_lagr_s2_mp *lg;
    int st = cl_lagr_s2_new_mp(&lg, m->g, m->L, m->n, m->nparam, prec);
    if (!st && m->force) st = cl_lagr_s2_set_forces_mp(lg, m->force);
    if (st) {
        cl_lagr_s2_free_mp(lg);
        lg = NULL;
    }
    *out = lg;
    return st;
}

static size_t s2_dim(const cl_model *m, int form) { return 6 * m->n; }
CL_MODEL_KIND_LAGR_DEFINE(s2)
static void s2_set_time(void *core, mpfr_srcptr t) { cl_lagr_s2_set_time_mp(core, t); }

static void s2_what(const cl_model *m, char *buf, size_t len)
{
    snprintf(buf, len, "%zu unit vector%s", m->n, m->n > 1 ? "s" : "");
}

/* Validate a state loosely, then normalize q_i and project v_i in place. */
static int s2_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen)
{
    size_t n = m->n;
    mpfr_t s, t;
    mpfr_inits2(mpfr_get_prec(x), s, t, (mpfr_ptr)0);
    int st = CL_OK;
    for (size_t i = 0; i < n && !st; i++) {
        mpfr_srcptr q = x + 3 * i, v = x + 3 * (n + i);
        cl_v3_norm_mp(s, q);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        if (!(fabs(mpfr_get_d(s, MPFR_RNDN)) <= CL_SYS_UNIT_TOL)) {
            snprintf(err, errlen, "%s is not a unit vector (|%s| - 1 = %.3g)", m->qname[i], m->qname[i], mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTUNIT;
            break;
        }
        cl_v3_dot_mp(s, q, v);
        cl_v3_norm_mp(t, v);
        if (!(fabs(mpfr_get_d(s, MPFR_RNDN)) / fmax(1.0, mpfr_get_d(t, MPFR_RNDN)) <= CL_SYS_UNIT_TOL)) {
            snprintf(err, errlen, "velocity %zu is not tangent to the sphere (%s . v%zu = %.3g)", i + 1, m->qname[i], i + 1,
                     mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTTANGENT;
        }
    }
    for (size_t i = 0; i < n && !st; i++) {
        mpfr_ptr q = x + 3 * i;
        cl_v3_norm_mp(s, q);
        for (int k = 0; k < 3; k++) mpfr_div(q + k, q + k, s, MPFR_RNDN);
        cl_v3_proj_tangent_mp(x + 3 * (n + i), q, x + 3 * (n + i));
    }
    mpfr_clears(s, t, (mpfr_ptr)0);
    return st;
}

/* max |‖q_i‖ − 1|, max |q_i·v_i| */
static void s2_drift(const cl_model *m, int form, mpfr_ptr d, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(d));
    mpfr_set_zero(d, 1);
    mpfr_set_zero(d + 1, 1);
    for (size_t i = 0; i < m->n; i++) {
        cl_v3_norm_mp(s, x + 3 * i);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        mpfr_abs(s, s, MPFR_RNDN);
        mpfr_max(d, d, s, MPFR_RNDN);
        cl_v3_dot_mp(s, x + 3 * i, x + 3 * (m->n + i));
        mpfr_abs(s, s, MPFR_RNDN);
        mpfr_max(d + 1, d + 1, s, MPFR_RNDN);
    }
    mpfr_clear(s);
}

static const char *const s2_drift_names[] = {"max|q|-1", "max|q.v|", NULL};

/* Unit q_i and tangent q̇_i of unit speed (form qdot). */
static int s2_random(const cl_model *m, mpfr_ptr x, cl_rng *g)
{
    for (size_t i = 0; i < m->n; i++) {
        cl_v3_random_unit_mp(x + 3 * i, g);
        cl_v3_random_tangent_mp(x + 3 * (m->n + i), x + 3 * i, 1.0, g);
    }
    return CL_OK;
}

static void s2_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    if (i < 3 * m->n) snprintf(buf, len, "%s.%c", m->qname[i / 3], xyz[i % 3]);
    else if (form == 0) snprintf(buf, len, "%s'.%c", m->qname[(i - 3 * m->n) / 3], xyz[i % 3]); /* q' as the model writes it */
    else snprintf(buf, len, "%s%zu.%c", s2_vname[form], (i - 3 * m->n) / 3 + 1, xyz[i % 3]);
}

/* Declared equilibrium k: the points normalized, zero velocities (q̇ = 0), carried to form \p form. */
static int s2_equilibrium(void *core, const cl_model *m, int k, int form, mpfr_ptr x)
{
    return cl_model_equilibrium_state_mp(core, m, k, form, x);
}

const cl_model_kind cl_model_kind_s2 = {
    .state_help = "q1 ... qn (the manifold's unit vectors, in the order declared) then v1 ... vn, 3 numbers each;\n"
                  "v is qdot, omega, mu or pi by --form. q_i must be unit and v_i tangent (q_i . v_i = 0) to 2^-40;\n"
                  "they are then normalized and projected at the working precision.\n",
    .drift_names = s2_drift_names,
    .singular = "the Lagrangian is degenerate at this state: its velocity Hessian restricted to the tangent space is singular",
    .unit_vectors = 1,
    CL_MODEL_KIND_HOOKS(s2),
    .set_time = s2_set_time,
    .drift = s2_drift,
    .equilibrium = s2_equilibrium,
};

int cl_model_s2_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    long i = cl_model_name_index(m->qname, m->n, name, len);
    if (i >= 0) {
        out->shape = 3;
        for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, 3 * (prime ? (long)m->n + i : i) + k);
        return 0;
    }
    if (prime) return -1; /* only the manifold's names have velocities */
    if (!cl_model_lookup_param(m, g, name, len, (long)(6 * m->n + 1), out)) return 0;
    if (len == 1 && name[0] == 't') {
        *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, (long)(6 * m->n))}};
        return 0;
    }
    return -1;
}


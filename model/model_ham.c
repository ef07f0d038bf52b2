/*
 * Hamiltonian models (model_ext.h): `hamiltonian EXPR` in the place of
 * `lagrangian EXPR`, run by the Hamiltonian product engine (ham_prod.h) on
 * S¹, R¹, R³, SO(3) and SE(3) factors.
 *
 *   manifold    x : R1              p_x is the momentum of x (p_r of an R3 factor r: a vector)
 *   manifold    R : SO3 (Pi)        Pi the body angular momentum (the default name)
 *   manifold    B, r : SE3 (Pi, P)  Pi and the body linear momentum P (the defaults)
 *   hamiltonian EXPR                H in the configuration, the momenta, t and the parameters
 *
 * A Hamiltonian model has no velocities: x' anywhere in it is refused. Its
 * forms are p (the native one: every factor's configuration, then its
 * momentum) and qdot (the velocities u = ∂H/∂p in the place of the momenta).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "ham_prod.h"
#include "model_ext.h"
#include "system_impl.h"

/* ------------------------------------------------------------ parsing */

long cl_model_ham_prescan(const char *s, size_t len)
{
    for (size_t at = 0; at < len;) {
        size_t n = cl_text_name(s, at, len);
        if (cl_text_name_is("hamiltonian", s + at, n)) return (long)at;
        at = cl_text_statement_end(s, len, at);
    }
    return -1;
}

/* The first name of the manifold statement declaring \p f (its position is the end of the keyword). */
static long factor_at(const cl_model *m, const cl_model_factor *f)
{
    long at = f->pos;
    while (m->text[at] == ' ' || m->text[at] == '\t') at++;
    return at;
}

/* 1 for a factor whose momentum is named p_NAME (S¹, Rᵏ); the groups name theirs in the manifold statement. */
static int flat_factor(const cl_model_factor *f) { return f->kind == CL_LAGR_S1 || f->kind == CL_LAGR_RK; }

int cl_model_ham_lookup(cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (prime && (cl_text_name_is(f->name[0], name, len) || cl_text_name_is(f->name[1], name, len))) {
            m->ham_prime = 1;
            return -1;
        }
        if (!prime && flat_factor(f) && len == strlen(f->name[0]) + 2 && !memcmp(name, "p_", 2) && !memcmp(name + 2, f->name[0], len - 2)) {
            out->shape = f->kind == CL_LAGR_RK ? f->k : 1;
            for (int k = 0; k < out->shape; k++) out->id[k] = cl_expr_input(g, (long)(m->nq + f->v) + k);
            return 0;
        }
    }
    return cl_model_prod_lookup(m, g, name, len, prime, out);
}

int cl_model_ham_settle(cl_model *m, int *failed, cl_sys_error *e)
{
    for (size_t i = 0; i < m->nfac; i++)
        if (m->fac[i].kind == CL_LAGR_S2)
            return cl_text_fail(failed, e, m->source, m->text, factor_at(m, m->fac + i), CL_EPARSE,
                                "a hamiltonian is taken on S1, R1, R3, SO3 and SE3 factors (%s is on S2: write its lagrangian)",
                                m->fac[i].name[0]);
    m->prod = 1;
    return 0;
}

/* 1 when \p name is a parameter, a let, an invariant, an equilibrium or a factor's name of \p m. */
static int name_taken(const cl_model *m, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < m->nfac; i++)
        for (int j = 0; j < 2; j++)
            if (!strcmp(m->fac[i].name[j], name) || !strcmp(m->fac[i].vname[j], name)) return 1;
    return cl_model_name_index(m->pname, m->nparam, name, n) >= 0 || cl_model_name_index(m->letname, m->nlet, name, n) >= 0 ||
           cl_model_name_index(m->invname, m->ninv, name, n) >= 0 || cl_model_name_index(m->eqname, m->neq, name, n) >= 0;
}

static void momentum_name(const cl_model *m, size_t a, char *buf, size_t len);

int cl_model_ham_finish(cl_model *m, int *failed, cl_sys_error *e)
{
    char name[CL_MODEL_MAX_NAME + 16];
    for (size_t i = 0; i < m->nfac; i++) {
        snprintf(name, sizeof name, "p_%s", m->fac[i].name[0]);
        if (flat_factor(m->fac + i) && name_taken(m, name))
            return cl_text_fail(failed, e, m->source, m->text, factor_at(m, m->fac + i), CL_EPARSE,
                                "'%s' names the momentum of %s in a hamiltonian model: it cannot name anything else", name, m->fac[i].name[0]);
    }
    for (size_t a = 0; a < m->nv; a++)
        if (!cl_expr_depends_on_input(m->g, m->L, (long)(m->nq + a))) {
            momentum_name(m, a, name, sizeof name);
            return cl_text_fail(failed, e, m->source, m->text, m->hampos, CL_EPARSE,
                                "the hamiltonian does not depend on the momentum %s: it is degenerate in the momenta "
                                "(d2H/dp2 is singular at every state, the velocities dH/dp do not determine p)", name);
        }
    return 0;
}

/* ------------------------------------------------------------ the kind */

static const char *const ham_forms[] = {"p", "qdot", NULL};

static void *ham_open(const cl_model *m, cl_prec_t prec)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
    cl_ham_prod_mp *h = cl_ham_prod_new_mp(m->g, m->L, f, m->nfac, m->nparam, prec);
    if (h && m->force && cl_ham_prod_set_forces_mp(h, m->force)) {
        cl_ham_prod_free_mp(h);
        return NULL;
    }
    return h;
}

static void ham_close(void *core) { cl_ham_prod_free_mp(core); }
static void ham_set_param(void *core, size_t k, mpfr_srcptr v) { cl_ham_prod_set_param_mp(core, k, v); }
static void ham_set_time(void *core, mpfr_srcptr t) { cl_ham_prod_set_time_mp(core, t); }
static int ham_bad_node(const void *core) { return cl_ham_prod_bad_node_mp(core); }
static int ham_rhs(void *core, int form, mpfr_ptr dx, mpfr_srcptr x) { return cl_ham_prod_rhs_mp(core, form, dx, x); }
static int ham_convert(void *core, int from, mpfr_srcptr x, int to, mpfr_ptr y) { return cl_ham_prod_convert_mp(core, from, x, to, y); }
static int ham_value(void *core, int id, int form, mpfr_ptr out, mpfr_srcptr x) { return cl_ham_prod_value_mp(core, id, form, out, x); }
static size_t ham_dim(const cl_model *m, int form) { return form == CL_HAM_PROD_MOM || form == CL_HAM_PROD_VEL ? m->nq + m->nv : 0; }

static void ham_what(const cl_model *m, char *buf, size_t len) { cl_model_kind_prod.what(m, buf, len); }

/* Rotations within 2^-40 of SO(3) made orthogonal (the product's check; no S² factor here). */
static int ham_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen)
{
    return cl_model_kind_prod.project(m, CL_LAGR_PROD_VEL, x, err, errlen);
}

static const char *const ham_drift_names[] = {"max|RtR-I|", NULL};

static void ham_drift(const cl_model *m, int form, mpfr_ptr d, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(d));
    mpfr_set_zero(d, 1);
    for (size_t i = 0; i < m->nfac; i++)
        if (!flat_factor(m->fac + i)) {
            cl_model_rotation_drift(s, x + m->fac[i].q);
            mpfr_max(d, d, s, MPFR_RNDN);
        }
    mpfr_clear(s);
}

/* Form p: normal numbers, random rotations (the product's draw, its velocities read as momenta). */
static int ham_random(const cl_model *m, mpfr_ptr x, cl_rng *g) { return cl_model_kind_prod.random(m, x, g); }

/* The factor holding velocity number \p a, and a's place in it. */
static const cl_model_factor *velocity_factor(const cl_model *m, size_t a, size_t *j)
{
    size_t k = 0;
    while (k + 1 < m->nfac && a >= m->fac[k + 1].v) k++;
    *j = a - m->fac[k].v;
    return m->fac + k;
}

/* p_x, p_r.x; Pi1, P1 on the groups */
static void momentum_name(const cl_model *m, size_t a, char *buf, size_t len)
{
    size_t j;
    const cl_model_factor *f = velocity_factor(m, a, &j);
    if (flat_factor(f)) cl_model_kind_prod.component_name(m, CL_LAGR_PROD_MOM, m->nq + a, buf, len);
    else snprintf(buf, len, "%s%zu", f->vname[j / 3], j % 3 + 1);
}

/* The configuration as the product names it; form p: p_x, Pi1; form qdot: x', Omega1, V1. */
static void ham_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    static const char *const group_velocity[] = {"Omega", "V"};
    size_t j;
    if (i < m->nq) cl_model_kind_prod.component_name(m, CL_LAGR_PROD_VEL, i, buf, len);
    else if (form == CL_HAM_PROD_MOM) momentum_name(m, i - m->nq, buf, len);
    else if (flat_factor(velocity_factor(m, i - m->nq, &j))) cl_model_kind_prod.component_name(m, CL_LAGR_PROD_VEL, i, buf, len);
    else snprintf(buf, len, "%s%zu", group_velocity[j / 3], j % 3 + 1);
}

/* Declared equilibrium k: its configuration, zero velocities, and for form p the momenta with ∂H/∂p = 0. */
static int ham_equilibrium(void *core, const cl_model *m, int k, int form, mpfr_ptr x)
{
    return cl_model_rest_equilibrium(core, m, k, form, CL_HAM_PROD_VEL, x);
}

static int ham_constraints(const cl_model *m, int form, mpfr_ptr out, mpfr_srcptr x)
{
    return cl_model_kind_prod.constraints(m, CL_LAGR_PROD_VEL, out, x);
}

const cl_model_kind cl_model_kind_ham = {
    .state_help = "every factor's configuration in the order declared (S1: an angle, R1/R3: 1 or 3 numbers, SO3: R row by row,\n"
                  "SE3: R then the position), then every factor's momentum in the same order: p (the default): p_x of S1 and R\n"
                  "factors, the body momenta (Pi; Pi, P) of SO3 and SE3; qdot: the velocities dH/dp instead (x'; Omega; Omega, V).\n"
                  "Rotations within 2^-40 are cleaned at the working precision; beyond it refused.\n",
    .drift_names = ham_drift_names,
    .singular = "the Hamiltonian is degenerate in the momenta at this state: its Hessian d2H/dp2 is singular "
                "(the velocities dH/dp do not determine the momenta)",
    .forms = ham_forms,
    .what = ham_what,
    .open = ham_open,
    .close = ham_close,
    .set_param = ham_set_param,
    .set_time = ham_set_time,
    .bad_node = ham_bad_node,
    .dim = ham_dim,
    .rhs = ham_rhs,
    .convert = ham_convert,
    .value = ham_value,
    .project = ham_project,
    .drift = ham_drift,
    .random = ham_random,
    .component_name = ham_component_name,
    .equilibrium = ham_equilibrium,
    .constraints = ham_constraints,
};

/*
 * Hamiltonian models (model_ext.h): `hamiltonian EXPR` in the place of
 * `lagrangian EXPR`, run by the Hamiltonian product engine (ham_prod.h) on
 * S¹, R¹, R³, SO(3) and SE(3) factors.
 *
 *   manifold    x : R1              p_x is the momentum of x (p_r of an R3 factor r: a vector)
 *   manifold    q : S2              mu_q the momentum μ ⊥ q [S2 IV.A]; pi_q = q × mu_q [S2 IV.B]
 *   manifold    R : SO3 (Pi)        Pi the body angular momentum (the default name)
 *   manifold    B, r : SE3 (Pi, P)  Pi and the body linear momentum P (the defaults)
 *   hamiltonian EXPR                H in the configuration, the momenta, t and the parameters
 *
 * A Hamiltonian model has no velocities: x' anywhere in it is refused. Its
 * forms are p (the native one: every factor's configuration, then its
 * momentum), qdot (the velocities u = ∂H/∂p in the place of the momenta),
 * and on S² pi (π = q × μ) and omega (ω = q × q̇).
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

/* 1 when the \p len bytes at \p name are PREFIX followed by the factor's name. */
static int prefixed(const char *prefix, const cl_model_factor *f, const char *name, size_t len)
{
    size_t n = strlen(prefix);
    return len == strlen(f->name[0]) + n && !memcmp(name, prefix, n) && !memcmp(name + n, f->name[0], len - n);
}

/* The nodes of a × b (3 nodes each) into \p out; 0, or −1 when the graph is full. */
static int cross_nodes(cl_expr_dag *g, const int *a, const int *b, int *out)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        int s = cl_expr_op(g, CL_EXPR_MUL, a[j], b[k], 0, -1), t = cl_expr_op(g, CL_EXPR_MUL, a[k], b[j], 0, -1);
        out[i] = s < 0 || t < 0 ? -1 : cl_expr_op(g, CL_EXPR_SUB, s, t, 0, -1);
        if (out[i] < 0) return -1;
    }
    return 0;
}

int cl_model_ham_lookup(cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    for (size_t i = 0; i < m->nfac && !prime; i++) {
        const cl_model_factor *f = m->fac + i;
        int s2 = f->kind == CL_LAGR_S2, pi = s2 && prefixed("pi_", f, name, len);
        if (!(flat_factor(f) && prefixed("p_", f, name, len)) && !(s2 && prefixed("mu_", f, name, len)) && !pi) continue;
        out->shape = f->kind == CL_LAGR_RK ? f->k : s2 ? 3 : 1;
        for (int k = 0; k < out->shape; k++) out->id[k] = cl_expr_input(g, (long)(m->nq + f->v) + k);
        if (!pi) return 0;
        int q[3], mu[3] = {out->id[0], out->id[1], out->id[2]};
        for (int k = 0; k < 3; k++) q[k] = cl_expr_input(g, (long)f->q + k);
        return cross_nodes(g, q, mu, out->id);
    }
    for (size_t i = 0; i < m->nfac && prime; i++)
        if (cl_text_name_is(m->fac[i].name[0], name, len) || cl_text_name_is(m->fac[i].name[1], name, len)) {
            m->ham_prime = 1;
            return -1;
        }
    return cl_model_prod_lookup(m, g, name, len, prime, out);
}

int cl_model_ham_settle(cl_model *m, int *failed, cl_sys_error *e)
{
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
    static const char *const prefix[] = {"p_", "mu_", "pi_"};
    char name[CL_MODEL_MAX_NAME + 16];
    for (size_t i = 0; i < m->nfac; i++)
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "%s%s", prefix[k], m->fac[i].name[0]);
            if ((k == 0 ? flat_factor(m->fac + i) : m->fac[i].kind == CL_LAGR_S2) && name_taken(m, name))
                return cl_text_fail(failed, e, m->source, m->text, factor_at(m, m->fac + i), CL_EPARSE,
                                    "'%s' names a momentum of %s in a hamiltonian model: it cannot name anything else", name, m->fac[i].name[0]);
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

static const char *const ham_forms[] = {"p", "qdot", "pi", "omega", NULL};
/* The product kind's form of the same names (its component names) */
static const int prod_form[] = {CL_LAGR_PROD_MOM, CL_LAGR_PROD_VEL, CL_LAGR_PROD_PI, CL_LAGR_PROD_OMEGA};

static int ham_open(void **out, const cl_model *m, cl_prec_t prec)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
    cl_ham_prod_mp *h;
    int st = cl_ham_prod_new_mp(&h, m->g, m->L, f, m->nfac, m->nparam, prec);
    if (!st && m->force) st = cl_ham_prod_set_forces_mp(h, m->force);
    if (st) {
        cl_ham_prod_free_mp(h);
        h = NULL;
    }
    *out = h;
    return st;
}

static void ham_close(void *core) { cl_ham_prod_free_mp(core); }
static void ham_set_param(void *core, size_t k, mpfr_srcptr v) { cl_ham_prod_set_param_mp(core, k, v); }
static void ham_set_time(void *core, mpfr_srcptr t) { cl_ham_prod_set_time_mp(core, t); }
static int ham_bad_node(const void *core) { return cl_ham_prod_bad_node_mp(core); }
static int ham_rhs(void *core, int form, mpfr_ptr dx, mpfr_srcptr x) { return cl_ham_prod_rhs_mp(core, form, dx, x); }
static int ham_convert(void *core, int from, mpfr_srcptr x, int to, mpfr_ptr y) { return cl_ham_prod_convert_mp(core, from, x, to, y); }
static int ham_value(void *core, int id, int form, mpfr_ptr out, mpfr_srcptr x) { return cl_ham_prod_value_mp(core, id, form, out, x); }
static size_t ham_dim(const cl_model *m, int form) { return form >= CL_HAM_PROD_MOM && form <= CL_HAM_PROD_OMEGA ? m->nq + m->nv : 0; }

static void ham_what(const cl_model *m, char *buf, size_t len) { cl_model_kind_prod.what(m, buf, len); }

/* Unit vectors, tangent velocity parts and rotations within 2^-40 cleaned (the product's check). */
static int ham_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen)
{
    return cl_model_kind_prod.project(m, CL_LAGR_PROD_VEL, x, err, errlen);
}

static const char *const ham_drift_names[] = {"max||q|-1|", "max|q.v|", "max|RtR-I|", NULL};

/* The product's constraint drifts: unit vectors, their tangency, orthogonality of rotations. */
static void ham_drift(const cl_model *m, int form, mpfr_ptr d, mpfr_srcptr x) { cl_model_kind_prod.drift(m, form, d, x); }

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

/* p_x, p_r.x, mu_q.x; Pi1, P1 on the groups */
static void momentum_name(const cl_model *m, size_t a, char *buf, size_t len)
{
    size_t j;
    const cl_model_factor *f = velocity_factor(m, a, &j);
    if (f->kind != CL_LAGR_SO3 && f->kind != CL_LAGR_SE3) cl_model_kind_prod.component_name(m, CL_LAGR_PROD_MOM, m->nq + a, buf, len);
    else snprintf(buf, len, "%s%zu", f->vname[j / 3], j % 3 + 1);
}

/* The names of the product's forms; on the groups Pi1, P1 (momentum forms), Omega1, V1 (velocity forms). */
static void ham_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    static const char *const group_velocity[] = {"Omega", "V"};
    size_t j;
    int kind = i < m->nq ? -1 : velocity_factor(m, i - m->nq, &j)->kind, group = kind == CL_LAGR_SO3 || kind == CL_LAGR_SE3;
    if (!group) cl_model_kind_prod.component_name(m, prod_form[form], i, buf, len);
    else if (form == CL_HAM_PROD_MOM || form == CL_HAM_PROD_PI) momentum_name(m, i - m->nq, buf, len);
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
    .state_help = "every factor's configuration in the order declared (S1: an angle, R1/R3: 1 or 3 numbers, S2: a unit vector,\n"
                  "SO3: R row by row, SE3: R then the position), then every factor's momentum in the same order: p (the default):\n"
                  "p_x of S1 and R factors, mu_q (normal to q) of S2, the body momenta (Pi; Pi, P) of SO3 and SE3; qdot: the\n"
                  "velocities dH/dp instead (x'; q'; Omega; Omega, V); pi and omega: as p and qdot, but q x mu and q x q' on S2.\n"
                  "Unit vectors, tangent velocities and rotations within 2^-40 are cleaned at the working precision; beyond it refused.\n",
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

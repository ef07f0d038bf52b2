/*
 * Models on any product of factors (model_kinds.h), run by the product
 * engine (lagr_prod.h):
 *
 *   manifold   x : R1                 a number (x' its velocity)
 *   manifold   q : S2                 a unit vector (q' its velocity)
 *   manifold   R : SO3 (W)            a rotation and its body angular velocity
 *   manifold   B, r : SE3 (W, V)      a rotation B, a position r, the body angular
 *                                     and linear velocities (r' = B V)
 *
 * in any number and order. The state is every factor's configuration in the
 * order declared (an angle, k numbers, 3, R row by row, R then x), then
 * every factor's velocity part in the same order, by form: qdot (q̇, Ω,
 * (Ω, V)), omega (ω = q × q̇ on S²), p (the momenta ∂L/∂u; μ on S²), pi
 * (π = q × μ on S²).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_kinds.h"
#include "system_impl.h"

/* ------------------------------------------------------------ names */

static void inputs(cl_expr_dag *g, size_t at, int n, int *id)
{
    for (int k = 0; k < n; k++) id[k] = cl_expr_input(g, (long)at + k);
}

/* Configuration name \p j of factor \p f (or its rate with \p prime) into out. */
static int configuration(const cl_model *m, cl_expr_dag *g, const cl_model_factor *f, int j, int prime, cl_expr_value *out)
{
    int rot = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3, R[9], u[3];
    out->shape = rot && !j ? 9 : f->kind == CL_LAGR_RK ? f->k : f->kind == CL_LAGR_S1 ? 1 : 3;
    if (!rot) {
        inputs(g, (prime ? m->nq + f->v : f->q), out->shape, out->id);
        return 0;
    }
    inputs(g, f->q + 9 * (size_t)j, out->shape, out->id);
    if (!prime) return 0;
    inputs(g, f->q, 9, R);
    inputs(g, m->nq + f->v + 3 * (size_t)j, 3, u);
    return j ? cl_model_mat_vec_nodes(g, R, u, out->id) : cl_model_rdot_nodes(g, R, u, out->id); /* x' = RV, R' = RŴ */
}

int cl_model_prod_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        for (int j = 0; j < 2; j++) {
            if (cl_text_name_is(f->name[j], name, len)) return configuration(m, g, f, j, prime, out);
            if (!prime && cl_text_name_is(f->vname[j], name, len)) {
                out->shape = 3;
                inputs(g, m->nq + f->v + 3 * (size_t)j, 3, out->id);
                return 0;
            }
        }
    }
    if (prime) return -1; /* only the manifold's names have velocities */
    if (len == 1 && name[0] == 't') {
        *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, (long)(m->nq + m->nv))}};
        return 0;
    }
    return cl_model_lookup_param(m, g, name, len, (long)(m->nq + m->nv + 1), out);
}

/* ------------------------------------------------------------ the kind */

static const char *const prod_forms[] = {"qdot", "omega", "p", "pi", NULL};
static const char *const prod_con_forms[] = {"qdot", "omega", "p", "pi", "dist", NULL}; /* with constraints */

/* The factors of \p m for the engine. */
static void engine_factors(const cl_model *m, cl_lagr_factor *f)
{
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
}

static int prod_open(void **out, const cl_model *m, cl_prec_t prec)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    engine_factors(m, f);
    cl_lagr_prod_mp *lg;
    int st = cl_lagr_prod_new_mp(&lg, m->g, m->L, f, m->nfac, m->nparam, prec);
    if (!st && m->force) st = cl_lagr_prod_set_forces_mp(lg, m->force);
    if (!st) st = cl_lagr_prod_set_constraints_mp(lg, m->con, m->conh, m->ncon);
    if (!st && m->ncon) st = cl_lagr_prod_set_constraint_rates_mp(lg, m->cont);
    if (st) {
        cl_lagr_prod_free_mp(lg);
        lg = NULL;
    }
    *out = lg;
    return st;
}

/* A state checked against the model's constraints and brought onto them (lagr_prod.h), naming the constraint. */
static int prod_constrain(void *core, const cl_model *m, int form, mpfr_ptr x, double tol_log2, char *err, size_t errlen)
{
    size_t k = 0;
    double defect;
    int st = cl_lagr_prod_constraint_clean_mp(core, form, x, tol_log2, &k, &defect);
    const char *c = m->ncon ? m->conname[k] : "";
    if (st == CL_EDOMAIN && m->conh[k] >= 0)
        snprintf(err, errlen, "the state is off the constraint set: the holonomic constraint %s is %.3g in magnitude, not 0", c, exp2(defect));
    else if (st == CL_ENOTTANGENT)
        snprintf(err, errlen, "the state is off the constraint set: the constraint %s%s is %.3g in magnitude, not 0", c,
                 m->conh[k] >= 0 ? "'" : "", exp2(defect));
    else if (st == CL_ESINGULAR && form == CL_LAGR_PROD_DIST)
        snprintf(err, errlen, "the basis of the form dist is singular at this state: its quasivelocities do not determine the other "
                              "velocities here (the velocity components it leaves free are chosen once per model; use another form)");
    else if (st == CL_ESINGULAR) snprintf(err, errlen, "the constraints are dependent at this state (their rows on the tangent space have lower rank)");
    else if (st == CL_ENOCONV) snprintf(err, errlen, "the configuration could not be brought onto the holonomic constraints (Newton's method did not converge)");
    else if (st) snprintf(err, errlen, "the constraints are not defined at this state (%s)", cl_strerror(st));
    return st;
}

static int prod_constraint_values(void *core, int form, mpfr_ptr out, mpfr_srcptr x)
{
    return cl_lagr_prod_constraint_values_mp(core, form, out, x);
}

static int prod_multipliers(void *core, int form, mpfr_ptr lam, mpfr_srcptr x) { return cl_lagr_prod_multipliers_mp(core, form, lam, x); }

static size_t prod_dim(const cl_model *m, int form)
{
    return form >= 0 && form < 4 ? m->nq + m->nv : form == CL_LAGR_PROD_DIST && m->ncon ? m->nq + cl_model_dist_dim(m) : 0;
}
CL_MODEL_KIND_LAGR_DEFINE(prod)
static void prod_set_time(void *core, mpfr_srcptr t) { cl_lagr_prod_set_time_mp(core, t); }
/* The basis of the form dist, once the parameters are set (a holonomic constraint's set depends on them). */
static int prod_ready(void *core, const cl_model *m, cl_prec_t prec) { return m->ncon ? cl_model_dist_choose(m, core, prec) : CL_OK; }

static void prod_what(const cl_model *m, char *buf, size_t len)
{
    static const char *const word[] = {"S1", "R", "S2", "SO3", "SE3"};
    size_t at = (size_t)snprintf(buf, len, "a product");
    for (size_t i = 0; i < m->nfac && at < len; i++) {
        const cl_model_factor *f = m->fac + i;
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " x " : " ", word[f->kind]);
        if (f->kind == CL_LAGR_RK && at < len) at += (size_t)snprintf(buf + at, len - at, "%d", f->k);
    }
}

/* Validate and clean the state in place (lagr_prod.h), naming the factor and what is wrong. */
static int prod_project(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    engine_factors(m, f);
    size_t which = 0;
    double defect;
    int st = cl_lagr_prod_project_state_mp(f, m->nfac, form, x, CL_SYS_UNIT_TOL_LOG2, &which, &defect);
    const char *q = m->fac[which].name[0];
    if (st == CL_ENOTUNIT) snprintf(err, errlen, "%s is not a unit vector (||%s| - 1| = 2^%.1f)", q, q, defect);
    else if (st == CL_ENOTTANGENT) snprintf(err, errlen, "the velocity part of %s is not tangent to the sphere (%s . v = 2^%.1f)", q, q, defect);
    else if (st == CL_EDOMAIN && defect == INFINITY) snprintf(err, errlen, "%s must have determinant +1", q);
    else if (st == CL_EDOMAIN) snprintf(err, errlen, "%s is not orthogonal (|%s^T %s - I| = 2^%.1f)", q, q, q, defect);
    else if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    return st;
}

static const char *const prod_drift_names[] = {"max||q|-1|", "max|q.v|", "max|RtR-I|", NULL};

/* The constraint drifts: unit vectors, their tangency, orthogonality of rotations. */
static void prod_drift(const cl_model *m, int form, mpfr_ptr d, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(d));
    for (int k = 0; k < 3; k++) mpfr_set_zero(d + k, 1);
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind == CL_LAGR_S2) {
            cl_v3_norm_mp(s, x + f->q);
            mpfr_sub_ui(s, s, 1, MPFR_RNDN);
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(d, d, s, MPFR_RNDN);
            if (form == CL_LAGR_PROD_DIST) continue; /* quasivelocities: tangent by construction */
            cl_v3_dot_mp(s, x + f->q, x + m->nq + f->v);
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(d + 1, d + 1, s, MPFR_RNDN);
        } else if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            cl_model_rotation_drift(s, x + f->q);
            mpfr_max(d + 2, d + 2, s, MPFR_RNDN);
        }
    }
    mpfr_clear(s);
}

/* A random rotation exp(θ̂), θ with normal entries of standard deviation 2 (as the heavy top draws them). */
static int random_rotation(mpfr_ptr R, cl_rng *g)
{
    mpfr_ptr th = cl_rvec_new_mp(3, mpfr_get_prec(R));
    if (!th) return CL_ENOMEM;
    for (int i = 0; i < 3; i++) mpfr_set_d(th + i, 2.0 * cl_rng_normal(g), MPFR_RNDN);
    int st = cl_so3_exp_mp(R, th);
    cl_rvec_free_mp(th);
    return st;
}

/* Form qdot: unit vectors with tangent velocities of unit speed, random rotations, normal numbers elsewhere. */
static int prod_random(const cl_model *m, mpfr_ptr x, cl_rng *g)
{
    for (size_t a = 0; a < m->nq + m->nv; a++) mpfr_set_d(x + a, cl_rng_normal(g), MPFR_RNDN);
    int st = CL_OK;
    for (size_t i = 0; i < m->nfac && !st; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind == CL_LAGR_S2) {
            cl_v3_random_unit_mp(x + f->q, g);
            cl_v3_random_tangent_mp(x + m->nq + f->v, x + f->q, 1.0, g);
        } else if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) st = random_rotation(x + f->q, g);
    }
    return st;
}

/* Names of the velocity part by form: qdot, omega, p, pi (S² blocks: q', w_q, mu_q, pi_q). */
static void velocity_name(const cl_model_factor *f, int form, size_t j, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    int mom = form >= 2, rot = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3;
    if (rot) {
        const char *v = f->vname[j / 3];
        if (mom) snprintf(buf, len, "p_%s%zu", v, j % 3 + 1);
        else snprintf(buf, len, "%s%zu", v, j % 3 + 1);
        return;
    }
    static const char *const s2pre[] = {"", "w_", "mu_", "pi_"};
    int s2 = f->kind == CL_LAGR_S2;
    const char *pre = s2 ? s2pre[form] : mom ? "p_" : "", *post = !mom && !(s2 && form == 1) ? "'" : ""; /* x' in qdot and omega */
    if (f->kind == CL_LAGR_S1 || f->k == 1) snprintf(buf, len, "%s%s%s", pre, f->name[0], post);
    else snprintf(buf, len, "%s%s%s.%c", pre, f->name[0], post, xyz[j]);
}

static void prod_component_name(const cl_model *m, int form, size_t i, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    int vel = i >= m->nq;
    if (vel && form == CL_LAGR_PROD_DIST) { /* the name of the velocity each quasivelocity is */
        if (i - m->nq >= m->ndist) {
            snprintf(buf, len, "s%zu", i - m->nq + 1);
            return;
        }
        i = m->nq + (size_t)m->dist[i - m->nq];
        form = CL_LAGR_PROD_VEL;
    }
    size_t a = vel ? i - m->nq : i, k = 0;
    while (k + 1 < m->nfac && a >= (vel ? m->fac[k + 1].v : m->fac[k + 1].q)) k++;
    const cl_model_factor *f = m->fac + k;
    size_t j = a - (vel ? f->v : f->q);
    int rot = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3;
    if (vel) velocity_name(f, form, j, buf, len);
    else if (rot && j < 9) snprintf(buf, len, "%s%zu%zu", f->name[0], j / 3 + 1, j % 3 + 1);
    else if (rot) snprintf(buf, len, "%s.%c", f->name[1], xyz[j - 9]);
    else if (f->kind == CL_LAGR_S1 || f->k == 1) snprintf(buf, len, "%s", f->name[0]);
    else snprintf(buf, len, "%s.%c", f->name[0], xyz[j]);
}

/* Zero velocities, S² factors at (0, 0, 1), rotations the identity, zero elsewhere. */
static void reference_state(const cl_model *m, mpfr_ptr x)
{
    for (size_t a = 0; a < m->nq + m->nv; a++) mpfr_set_zero(x + a, 1);
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind == CL_LAGR_S2) mpfr_set_si(x + f->q + 2, 1, MPFR_RNDN);
        if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3)
            for (int k = 0; k < 3; k++) mpfr_set_si(x + f->q + 4 * k, 1, MPFR_RNDN);
    }
}

int cl_model_rest_equilibrium(void *core, const cl_model *m, const cl_model_kind *kind, int k, int form, int vel, mpfr_ptr x)
{
    size_t nq = m->nq, n = nq + m->nv;
    if (k < 0 || (size_t)k >= m->neq) return CL_EDOMAIN;
    mpfr_ptr y = cl_rvec_new_mp(n, mpfr_get_prec(x));
    if (!y) return CL_ENOMEM;
    reference_state(m, y); /* any state: the points depend on the parameters only */
    int st = CL_OK;
    /* form 0 (qdot of the product, p of a Hamiltonian) reads the reference state without a Legendre inversion */
    for (size_t a = 0; a < nq && !st; a++) st = kind->value(core, m->eq[(size_t)k * nq + a], 0, x + a, y);
    for (size_t a = 0; a < m->nv && !st; a++) {
        int id = m->eqv[(size_t)k * m->nv + a]; /* the body velocities of a steady rotation, else zero */
        if (id >= 0) st = kind->value(core, id, 0, x + nq + a, y);
        else mpfr_set_zero(x + nq + a, 1);
    }
    cl_rvec_free_mp(y);
    char err[160];
    if (!st) st = kind->project(m, vel, x, err, sizeof err) ? CL_EDOMAIN : CL_OK;
    if (!st && m->ncon) st = kind->constrain(core, m, vel, x, CL_SYS_UNIT_TOL_LOG2, err, sizeof err) ? CL_EPARAM : CL_OK; /* on them */
    if (!st && form != vel) st = kind->convert(core, vel, x, form, x);
    return st;
}

int cl_model_prod_equilibrium(void *core, const cl_model *m, int k, int form, mpfr_ptr x)
{
    return cl_model_rest_equilibrium(core, m, m->ncon ? &cl_model_kind_prod_constrained : &cl_model_kind_prod, k, form, CL_LAGR_PROD_VEL, x);
}

/* ------------------------------------------------------------ relative equilibria */

static int nonzero3(mpfr_srcptr a) { return !mpfr_zero_p(a) || !mpfr_zero_p(a + 1) || !mpfr_zero_p(a + 2); }

/* 1 when equilibrium k gives a body velocity (a steady rotation). */
static int is_relative(const cl_model *m, int k)
{
    for (size_t a = 0; a < m->nv; a++)
        if (m->eqv[(size_t)k * m->nv + a] >= 0) return 1;
    return 0;
}

/* 1 when neither L nor a force depends on the configuration of rotation factor f (its attitude, and an SE(3) position). */
int cl_model_factor_cyclic(const cl_model *m, const cl_model_factor *f)
{
    size_t nconf = f->kind == CL_LAGR_SE3 ? 12 : 9;
    for (size_t a = 0; a < nconf; a++) {
        long in = (long)(f->q + a);
        if (cl_expr_depends_on_input(m->g, m->L, in)) return 0;
        for (size_t c = 0; c < m->ncon; c++) /* a constraint on the configuration breaks the symmetry too */
            if (cl_expr_depends_on_input(m->g, m->con[c], in) || (m->conh[c] >= 0 && cl_expr_depends_on_input(m->g, m->conh[c], in))) return 0;
        for (size_t b = 0; m->force && b < m->nv; b++)
            if (m->force[b] >= 0 && cl_expr_depends_on_input(m->g, m->force[b], in)) return 0;
    }
    return 1;
}

/* The frame's field on factor f at x: (ŵ R, w × r + v) into out (its configuration entries), w, v in space. */
static void frame_field(const cl_model_factor *f, mpfr_srcptr w, mpfr_srcptr v, mpfr_ptr out, mpfr_srcptr x, mpfr_ptr t)
{
    for (int j = 0; j < 3; j++) { /* column j of ŵR is w × (column j of R) */
        mpfr_set(t, x + f->q + j, MPFR_RNDN), mpfr_set(t + 1, x + f->q + 3 + j, MPFR_RNDN), mpfr_set(t + 2, x + f->q + 6 + j, MPFR_RNDN);
        cl_v3_cross_mp(t + 3, w, t);
        for (int i = 0; i < 3; i++) mpfr_set(out + f->q + 3 * i + j, t + 3 + i, MPFR_RNDN);
    }
    if (f->kind != CL_LAGR_SE3) return;
    cl_v3_cross_mp(t, w, x + f->q + 9);
    for (int i = 0; i < 3; i++) mpfr_add(out + f->q + 9 + i, t + i, v + i, MPFR_RNDN);
}

/* The spatial velocities of the frame of rotation factor f at equilibrium e (form qdot): w = R W, v = R V − w × r. */
static void frame_velocity(const cl_model *m, const cl_model_factor *f, mpfr_srcptr e, mpfr_ptr w, mpfr_ptr v, mpfr_ptr t)
{
    mpfr_srcptr R = e + f->q, W = e + m->nq + f->v;
    for (int i = 0; i < 3; i++) {
        mpfr_set_zero(w + i, 1), mpfr_set_zero(v + i, 1);
        for (int j = 0; j < 3; j++) {
            mpfr_fma(w + i, R + 3 * i + j, W + j, w + i, MPFR_RNDN);
            if (f->kind == CL_LAGR_SE3) mpfr_fma(v + i, R + 3 * i + j, W + 3 + j, v + i, MPFR_RNDN);
        }
    }
    if (f->kind != CL_LAGR_SE3) return;
    cl_v3_cross_mp(t, w, e + f->q + 9);
    for (int i = 0; i < 3; i++) mpfr_sub(v + i, v + i, t + i, MPFR_RNDN);
}

/* Directions of the symmetry of a cyclic factor f at x into Y (columns of N): its rotations (ê_i R) and translations. */
static int cyclic_directions(const cl_model_factor *f, size_t N, mpfr_ptr Y, mpfr_srcptr x, mpfr_ptr t)
{
    int s = 0;
    for (int i = 0; i < 3; i++, s++) {
        for (int a = 0; a < 3; a++) mpfr_set_si(t + 6 + a, a == i, MPFR_RNDN), mpfr_set_zero(t + 9 + a, 1);
        if (Y) frame_field(f, t + 6, t + 9, Y + (size_t)s * N, x, t);
    }
    for (int i = 0; f->kind == CL_LAGR_SE3 && i < 3; i++, s++)
        if (Y) mpfr_set_ui(Y + (size_t)s * N + f->q + 9 + i, 1, MPFR_RNDN);
    return s;
}

/*
 * Relative equilibrium k (a steady rotation R(t) = exp(t ŵ) R₀ of each spinning rotation factor, w = R₀W₀ in
 * space; SE(3): the screw (w, v)): the field of the frame turning with it at x into xi (the equations of
 * motion minus xi vanish at the equilibrium, and their linearization is that in the turning frame), and the
 * directions of the symmetry at x into Y: every rotation of a factor whose configuration L and the forces do
 * not use, else the frame's own turning. Returns their number; 0 for an equilibrium at rest.
 */
static int prod_relative(void *core, const cl_model *m, int k, int form, mpfr_ptr xi, mpfr_ptr Y, mpfr_srcptr x)
{
    size_t N = m->nq + m->nv;
    if (xi) for (size_t a = 0; a < N; a++) mpfr_set_zero(xi + a, 1);
    if (k < 0 || (size_t)k >= m->neq || !is_relative(m, k)) return 0;
    mpfr_ptr e = cl_rvec_new_mp(N + 18 + N, mpfr_get_prec(x)), w = e ? e + N : NULL, v = w ? w + 3 : NULL, t = v ? v + 3 : NULL;
    if (!e) return CL_ENOMEM;
    mpfr_ptr col = t + 12;
    int st = cl_model_prod_equilibrium(core, m, k, CL_LAGR_PROD_VEL, e), s = 0;
    if (Y && !st) for (size_t a = 0; a < N * N; a++) mpfr_set_zero(Y + a, 1);
    for (size_t i = 0; i < m->nfac && !st; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_SO3 && f->kind != CL_LAGR_SE3) continue;
        frame_velocity(m, f, e, w, v, t);
        if (xi) frame_field(f, w, v, xi, x, t);
        if (cl_model_factor_cyclic(m, f)) s += cyclic_directions(f, N, Y ? Y + (size_t)s * N : NULL, x, t);
        else if (nonzero3(w) || nonzero3(v)) {
            for (size_t a = 0; a < N; a++) mpfr_set_zero(col + a, 1);
            frame_field(f, w, v, col, x, t);
            if (Y) for (size_t a = 0; a < N; a++) mpfr_set(Y + (size_t)s * N + a, col + a, MPFR_RNDN);
            s++;
        }
    }
    cl_rvec_free_mp(e);
    return st ? st : s;
}

/*
 * The state's constraints: |q|² − 1 and q·v for each S² factor (its velocity
 * part is normal to q in every form), the six entries of RᵀR − I on and above
 * the diagonal for each rotation.
 */
static int prod_constraints(const cl_model *m, int form, mpfr_ptr out, mpfr_srcptr x)
{
    int k = 0;
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind == CL_LAGR_S2) {
            if (out) {
                cl_v3_dot_mp(out + k, x + f->q, x + f->q);
                mpfr_sub_ui(out + k, out + k, 1, MPFR_RNDN);
                if (form == CL_LAGR_PROD_DIST) mpfr_set_zero(out + k + 1, 1); /* quasivelocities: tangent by construction */
                else cl_v3_dot_mp(out + k + 1, x + f->q, x + m->nq + f->v);
            }
            k += 2;
        } else if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            for (int a = 0; a < 3; a++)
                for (int b = a; b < 3; b++, k++) {
                    if (!out) continue;
                    mpfr_set_si(out + k, a == b ? -1 : 0, MPFR_RNDN);
                    for (int c = 0; c < 3; c++) mpfr_fma(out + k, x + f->q + 3 * c + a, x + f->q + 3 * c + b, out + k, MPFR_RNDN);
                }
        }
    }
    return k;
}

#define PROD_KIND_HOOKS                                                                                                  \
    .drift_names = prod_drift_names,                                                                                  \
    .singular = "the Lagrangian is degenerate at this state: its velocity Hessian on the tangent space of the product is singular", \
    .what = prod_what, .open = prod_open, .close = prod_close, .set_param = prod_set_param, .bad_node = prod_bad_node,    \
    .dim = prod_dim, .rhs = prod_rhs, .convert = prod_convert, .value = prod_value, .project = prod_project,             \
    .random = prod_random, .component_name = prod_component_name, .set_time = prod_set_time, .drift = prod_drift, .equilibrium = cl_model_prod_equilibrium, \
    .relative = prod_relative, .constraints = prod_constraints, .constrain = prod_constrain,                              \
    .constraint_values = prod_constraint_values, .multipliers = prod_multipliers, .ready = prod_ready

#define PROD_STATE_HELP                                                                                                   \
    "every factor's configuration in the order declared (S1: an angle, R1/R3: 1 or 3 numbers, S2: a unit\n"           \
    "vector, SO3: R row by row, SE3: R then the position), then every factor's velocity part in the same order:\n"     \
    "qdot: q', the body angular velocity W of SO3, W and the body linear velocity V of SE3; omega: as qdot but\n"      \
    "w = q x q' on S2; p: the momenta dL/d(velocity), mu = (I - qq^T) dL/dq' on S2; pi: as p but pi = q x mu on S2.\n"

const cl_model_kind cl_model_kind_prod = {
    .state_help = PROD_STATE_HELP "Unit vectors, tangent velocities and rotations within 2^-40 are cleaned at the working precision; beyond it refused.\n",
    .forms = prod_forms,
    PROD_KIND_HOOKS,
};

/* A product with constraints: the form dist too (velocities in a basis of the admissible directions). */
const cl_model_kind cl_model_kind_prod_constrained = {
    .state_help = PROD_STATE_HELP
    "dist: the quasivelocities, the velocity components left free by the constraints (one per admissible direction;\n"
    "`simulate --form dist` names them), the others following from the constraints.\n"
    "Unit vectors, tangent velocities and rotations within 2^-40 are cleaned at the working precision; beyond it refused;\n"
    "a state must satisfy the constraints within 2^-40.\n",
    .forms = prod_con_forms,
    PROD_KIND_HOOKS,
};

/* ------------------------------------------------------------ the form dist */

size_t cl_model_dist_dim(const cl_model *m)
{
    size_t n = m->nv - m->ncon;
    for (size_t i = 0; i < m->nfac; i++) n -= m->fac[i].kind == CL_LAGR_S2;
    return n;
}

/*
 * One draw of form qdot (seeded: the same for every core, a generic configuration), brought onto the
 * constraints, and the basis chosen there. On the constraints, not merely on the product: the velocity
 * rows of a holonomic h are dh/dq there, and a column that vanishes on the whole constraint set may be the
 * largest entry off it (the skate's contact row (R Y).z = Gamma.Y has Gamma.x Y.x, zero wherever the pitch
 * constraint Gamma.x = 0 holds: a basis with Y.x dependent is singular at every state of the model).
 */
static int choose_at_draw(const cl_model *m, cl_lagr_prod_mp *lg, mpfr_ptr x, uint64_t seed)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
    cl_rng g;
    cl_rng_seed(&g, seed);
    size_t which;
    double defect;
    int st = cl_model_kind_prod_constrained.random(m, x, &g);
    if (!st) st = cl_lagr_prod_project_state_mp(f, m->nfac, CL_LAGR_PROD_VEL, x, -20, &which, &defect);
    if (!st) st = cl_lagr_prod_constraint_clean_mp(lg, CL_LAGR_PROD_VEL, x, INFINITY, &which, &defect);
    if (!st) st = cl_lagr_prod_dist_choose_mp(lg, CL_LAGR_PROD_VEL, x);
    return st;
}

int cl_model_dist_choose(const cl_model *m, void *core, cl_prec_t prec)
{
    cl_lagr_prod_mp *lg = core;
    size_t nd = cl_lagr_prod_dist_dim_mp(lg);
    if (!nd) return CL_OK; /* no admissible direction: no form dist */
    if (!m->ndist) { /* the first core chooses, at its parameters; every later one takes its choice */
        mpfr_ptr x = cl_rvec_new_mp(m->nq + m->nv, prec);
        if (!x) return CL_ENOMEM;
        int st = CL_EDOMAIN;
        for (uint64_t seed = 0; seed < 8 && st && st != CL_ENOMEM; seed++) st = choose_at_draw(m, lg, x, 0x64697374 + seed);
        cl_rvec_free_mp(x);
        if (st) return st == CL_ENOMEM ? st : CL_OK;
        cl_model *w = (cl_model *)m;
        for (size_t k = 0; k < nd; k++) w->dist[k] = cl_lagr_prod_dist_index_mp(lg, k);
        w->ndist = nd;
    }
    return cl_lagr_prod_dist_set_mp(lg, m->dist);
}

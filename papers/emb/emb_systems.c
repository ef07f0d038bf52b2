/* The EMB systems for the command line (`chartless rhs|simulate --system NAME`):
 * subspace, circle, sphere, rigid-body, heavy-top. The command line works in
 * MPFR, so only the MPFR copy of this templated file registers anything. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "system_impl.h"
#include "emb_subspace.h"
#include "emb_sphere.h"
#include "emb_so3.h"
#include "lagr_so3.h"
#include "r3.h"
#include "emb_impl.h"

#if CL_PREC == CL_MPFR
enum { K_SUBSPACE, K_CIRCLE, K_SPHERE, K_RIGID, K_HEAVY };

typedef struct emb_inst {
    int kind;
    cl_prec_t prec;
    size_t n, k;                       /* subspace: dimension and reduced dimension */
    CL_FN(cl_emb_pendulum) *pend;
    CL_FN(cl_emb_subspace) *sub;
    CL_FN(cl_emb_top) *top;
    CL_FN(cl_emb_model) model;
    CL_FN(cl_emb_work) *work;
    rptr tmp;                          /* 64 scratch scalars */
    rptr eq;                           /* tops: axis of the centre of mass (unit, 3), omega, m g l, l */
    char eqname[2][160];               /* heavy top: names of the equilibria, with the fast-top criterion */
} emb_inst;

/* States read from decimal input are on the manifold only to the digits
 * given; constraints are checked to this absolute tolerance. */
#define STATE_TOL 1e-12

/* A rejected state: the command line names the state after the message. */
static int fail(char *err, size_t errlen, int code, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return code;
}

static void inst_destroy(void *p)
{
    emb_inst *in = p;
    if (!in) return;
    CL_FN(cl_emb_pendulum_free)(in->pend);
    CL_FN(cl_emb_subspace_free)(in->sub);
    CL_FN(cl_emb_top_free)(in->top);
    CL_FN(cl_emb_work_free)(in->work);
    CL_FN(cl_rvec_free)(in->tmp);
    CL_FN(cl_rvec_free)(in->eq);
    free(in);
}

/* The end of every create: a workspace for the model just filled, then the
 * instance handed out, or released when anything failed (st). */
static int inst_finish(emb_inst *in, int st, void **out)
{
    if (!st) {
        in->work = CL_FN(cl_emb_work_new)(in->model.n, in->prec);
        if (!in->work) st = CL_ENOMEM;
    }
    return cl_sys_create_end(out, in, st, inst_destroy);
}

static int pend_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y);
static int subspace_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y);
static int top_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y);
static int top_reduced_invariants(emb_inst *in, mpfr_ptr out, mpfr_srcptr x);

/* The invariants of every kind: the state carried to form 0 (at most 16
 * numbers), then the energy, or the invariants of a top. */
static int inst_invariants(void *p, int form, mpfr_ptr out, mpfr_srcptr x)
{
    emb_inst *in = p;
    rptr s = in->tmp + 16;
    if (in->top && form == 3) return top_reduced_invariants(in, out, x);
    int st = in->pend ? pend_convert(p, form, x, 0, s) : in->sub ? subspace_convert(p, form, x, 0, s)
                                                              : top_convert(p, form, x, 0, s);
    if (st) return st;
    if (in->pend) CL_FN(cl_emb_pendulum_energy)(in->pend, out, s, s + in->model.n);
    else if (in->sub) CL_FN(cl_emb_subspace_energy)(in->sub, out, s, s + in->n);
    else CL_FN(cl_emb_top_invariants)(in->top, out, s, s + 9);
    return CL_OK;
}

/* Names of the state components: position then velocity (or momentum), by kind and form;
 * R row by row (R11 ... R33) for the tops, with W1 W2 W3 the body angular velocity Omega. */
static void inst_component_name(void *p, int form, size_t i, char *buf, size_t len)
{
    emb_inst *in = p;
    if (in->top && form == 3) {
        snprintf(buf, len, "%s%zu", i < 3 ? "Pi" : "Gamma", i % 3 + 1);
        return;
    }
    if (in->top) {
        size_t j = i < 9 ? i : i - 9;
        if (i < 9) snprintf(buf, len, "R%zu%zu", j / 3 + 1, j % 3 + 1);
        else if (form == 0) snprintf(buf, len, "W%zu", j + 1);
        else snprintf(buf, len, "%s%zu%zu", form == 1 ? "Rdot" : "mu", j / 3 + 1, j % 3 + 1);
        return;
    }
    if (in->kind == K_CIRCLE && form == 2) {
        snprintf(buf, len, "%s", i ? "thetadot" : "theta");
        return;
    }
    size_t d = in->pend ? (in->kind == K_CIRCLE ? 2 : 3) : form == 2 ? in->k : in->n;
    static const char *const pos[] = {"x", "x", "q"}, *const vel[] = {"xdot", "mu", "qdot"};
    snprintf(buf, len, "%s%zu", i < d ? pos[form] : vel[form], i % d + 1);
}

/* Length of a state of each kind in each form: the pendulums' (x, v) and the circle's angle,
 * the tops' (R, Omega), (R, Rdot), (R, mu) and reduced form (Pi, or Pi and Gamma), and the
 * subspace's (x, xdot), (x, mu) in R^n and reduced coordinates in R^k. */
static size_t inst_dim(void *p, int form)
{
    static const size_t len[][4] = {[K_CIRCLE] = {4, 4, 2}, [K_SPHERE] = {6, 6}, [K_RIGID] = {12, 18, 18, 3},
                                    [K_HEAVY] = {12, 18, 18, 6}};
    emb_inst *in = p;
    if (in->kind == K_SUBSPACE) return form == 2 ? 2 * in->k : 2 * in->n;
    return len[in->kind][form];
}

/* A system's create hook for one kind: the create of its family with the kind fixed. */
#define KIND_CREATE(name, family, kind)                                                              \
    static int name##_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)       \
    {                                                                                                \
        return family##_create(out, kind, p, prec, e);                                               \
    }

static emb_inst *inst_alloc(int kind, cl_prec_t prec)
{
    emb_inst *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->kind = kind;
    in->prec = prec;
    in->tmp = CL_FN(cl_rvec_new)(64, prec);
    if (!in->tmp) { free(in); return NULL; }
    return in;
}

/* ------------------------------------------------------------ pendulums */

static int pend_create(void **out, int kind, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    emb_inst *in = inst_alloc(kind, prec);
    if (!in) return CL_ENOMEM;
    size_t d = kind == K_CIRCLE ? 2 : 3;
    int st = CL_FN(cl_emb_pendulum_new)(&in->pend, d, cl_params_x(p, "m"), cl_params_x(p, "l"), cl_params_x(p, "g"));
    if (st) cl_sys_error_set(e, st, "--m, --l", "mass and length must be positive");
    else CL_FN(cl_emb_pendulum_model)(in->pend, &in->model);
    return inst_finish(in, st, out);
}

KIND_CREATE(circle, pend, K_CIRCLE)
KIND_CREATE(sphere, pend, K_SPHERE)

/* Normalise the unit vector x (d numbers) and project its velocity or momentum v onto the
 * tangent space, in place; refused beyond CL_SYS_UNIT_TOL: 0 or a CL_E code with the message. */
static int unit_and_tangent(emb_inst *in, rptr x, rptr v, size_t d, const char *vname, char *err, size_t errlen)
{
    rptr s = in->tmp, c = in->tmp + 1;
    int st = cl_sys_unit_vector(x, d, "x", err, errlen);
    if (st) return st;
    emb_dot(s, x, v, d);
    emb_dot(c, v, v, d);
    r_sqrt(c, c);
    if (fabs(r_get_d(s)) > CL_SYS_UNIT_TOL * fmax(1.0, r_get_d(c))) {
        snprintf(err, errlen, "%s is not tangent (x . %s = %.3g)", vname, vname, r_get_d(s));
        return CL_ENOTTANGENT;
    }
    for (size_t i = 0; i < d; i++) r_submul(v + i, s, x + i);
    return CL_OK;
}

/* Validate an input state, normalising x and projecting its velocity in place (x is the
 * command line's buffer, read from the user's decimals). */
static int pend_check(void *p, int form, mpfr_ptr x, char *err, size_t errlen)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    if (!CL_FN(cl_rvec_is_finite)(x, inst_dim(p, form))) return fail(err, errlen, CL_ENAN, "NaN or infinity");
    if (in->kind == K_CIRCLE && form == 2) return CL_OK;
    return unit_and_tangent(in, x, x + d, d, form ? "mu" : "xdot", err, errlen);
}

static int pend_rhs(void *p, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    if (in->kind == K_CIRCLE && form == 2) {
        r_set(dx, x + 1);
        CL_FN(cl_emb_circle_angle_accel)(in->pend, dx + 1, x);
        return CL_OK;
    }
    if (form == 0) {
        CL_FN(cl_rvec_copy)(dx, x + d, d);
        return d == 2 ? CL_FN(cl_emb_circle_el_accel)(in->pend, dx + d, x, x + d)
                      : CL_FN(cl_emb_sphere_el_accel)(in->pend, dx + d, x, x + d);
    }
    rptr hx = in->tmp, hm = in->tmp + 3;
    in->model.ham_dx(in->model.ctx, hx, x, x + d);
    in->model.ham_dmu(in->model.ctx, hm, x, x + d);
    if (d == 2) CL_FN(cl_emb_circle_hamilton)(dx, dx + d, x, x + d, hx, hm);
    else CL_FN(cl_emb_sphere_hamilton)(dx, dx + d, x, x + d, hx, hm);
    return CL_OK;
}

static int pend_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    rptr s = in->tmp + 8;              /* (x, ẋ) in tmp[8..13] */
    switch (from) {
    case 0: CL_FN(cl_rvec_copy)(s, x, 2 * d); break;
    case 1: {
        CL_FN(cl_rvec_copy)(s, x, d);
        int st = CL_FN(cl_emb_legendre_inv)(&in->model, in->work, s + d, x, x + d);
        if (st) return st;
        break;
    }
    default: CL_FN(cl_emb_circle_from_angle)(s, s + 2, x, x + 1); break;
    }
    switch (to) {
    case 0: CL_FN(cl_rvec_copy)(y, s, 2 * d); return CL_OK;
    case 1: CL_FN(cl_rvec_copy)(y, s, d); return CL_FN(cl_emb_legendre)(&in->model, in->work, y + d, s, s + d);
    default: CL_FN(cl_emb_circle_to_angle)(y, y + 1, s, s + 2); return CL_OK;
    }
}

static int pend_random(void *p, int form, mpfr_ptr x, cl_rng *g)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    rptr s = in->tmp + 24;             /* (x, ẋ) in tmp[24..29] */
    R_DECL(c, in->prec);
    for (size_t i = 0; i < d; i++) r_set_d(s + i, cl_rng_normal(g));
    emb_dot(c, s, s, d);
    r_sqrt(c, c);
    for (size_t i = 0; i < d; i++) r_div(s + i, s + i, c);
    for (size_t i = 0; i < d; i++) r_set_d(s + d + i, 2.0 * cl_rng_normal(g));
    emb_dot(c, s, s + d, d);
    for (size_t i = 0; i < d; i++) r_submul(s + d + i, c, s + i);
    return pend_convert(p, 0, s, form, x);
}

/* 0: hanging at rest (stable), 1: inverted at rest (unstable). */
static int pend_equilibrium(void *p, int k, int form, mpfr_ptr x, const char **name)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    if (k < 0 || k > 1) return CL_EDOMAIN;
    rptr s = in->tmp + 24;
    for (size_t i = 0; i < 2 * d; i++) r_set_zero(s + i);
    r_set_si(s + d - 1, k ? 1 : -1);
    *name = k ? "inverted" : "hanging";
    return pend_convert(p, 0, s, form, x);
}

/* The state manifold: |x|² − 1 = 0 and x·v = 0 (v = ẋ or μ); the angle fills an open set. */
static int pend_constraints(void *p, int form, mpfr_ptr out, mpfr_srcptr x)
{
    emb_inst *in = p;
    size_t d = in->kind == K_CIRCLE ? 2 : 3;
    if (in->kind == K_CIRCLE && form == 2) return 0;
    if (!out) return 2;
    R_DECL(t, r_prec(out));
    emb_dot(t, x, x, d);
    r_add_si(out, t, -1);
    emb_dot(out + 1, x, x + d, d);
    return 2;
}

static const char *const energy_names[] = {"energy", NULL};
static const char *const circle_forms[] = {"xv", "xmu", "angle", NULL};
static const char *const sphere_forms[] = {"xv", "xmu", NULL};

#define PENDULUM_PARAMS(down)                                                                                  \
    {.name = "m", .shape = CL_PARAM_NUMBER, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "mass",        \
     .metavar = "MASS", .help = "bob mass"},                                                                    \
    {.name = "l", .shape = CL_PARAM_NUMBER, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "length",      \
     .metavar = "LENGTH", .help = "rod length"},                                                                \
    {.name = "g", .shape = CL_PARAM_NUMBER, .def = "9.81", .metavar = "GRAVITY", .help = "gravity along " down}, \
    CL_PARAM_END

static const cl_param circle_params[] = {PENDULUM_PARAMS("-e2")};
static const cl_param sphere_params[] = {PENDULUM_PARAMS("-e3")};

/* The descriptor fields both pendulums fill alike. */
#define PENDULUM_HOOKS                                                                                      \
    .destroy = inst_destroy, .dim = inst_dim, .check_state = pend_check, .rhs = pend_rhs,                   \
    .invariant_names = energy_names, .invariants = inst_invariants, .convert = pend_convert,                \
    .random_state = pend_random, .equilibrium = pend_equilibrium, .component_name = inst_component_name, \
    .constraints = pend_constraints

static const cl_system sys_circle = {
    .name = "circle", .create = circle_create, .params = circle_params, .forms = circle_forms, PENDULUM_HOOKS,
    .summary = "planar pendulum on S^1 [EMB 3.2]: (3.3) in (x, xdot), (3.4) in (x, mu), and the angle form",
    .state_help = "xv: x1 x2 xdot1 xdot2 (|x| = 1, x.xdot = 0); xmu: x1 x2 mu1 mu2 (mu = m l^2 xdot); angle: theta thetadot (x = (sin theta, -cos theta)). Within 2^-40 x is normalised and xdot (mu) projected; beyond it refused",
};
CL_SYSTEM_REGISTER(sys_circle)

static const cl_system sys_sphere = {
    .name = "sphere", .create = sphere_create, .params = sphere_params, .forms = sphere_forms, PENDULUM_HOOKS,
    .summary = "spherical pendulum on S^2 [EMB 3.3]: (3.5) in (x, xdot), (3.6) in (x, mu)",
    .state_help = "xv: x1 x2 x3 xdot1 xdot2 xdot3 (|x| = 1, x.xdot = 0); xmu: x1 x2 x3 mu1 mu2 mu3 (mu = m l^2 xdot). Within 2^-40 x is normalised and xdot (mu) projected; beyond it refused",
};
CL_SYSTEM_REGISTER(sys_sphere)

/* ------------------------------------------------------------- subspace */

enum { MAXN = 8 };

static const cl_param subspace_params[] = {
    {.name = "n", .shape = CL_PARAM_SIZE, .def = "3", .lo = 2, .hi = MAXN, .help = "dimension of the embedding space"},
    {.name = "A", .shape = CL_PARAM_ANYLIST, .count = MAXN * MAXN, .def = "1,1,1",
     .help = "constraint matrix, m*n numbers row by row, 1 <= m < n"},
    {.name = "mass", .shape = CL_PARAM_ANYLIST, .count = MAXN * MAXN, .help = "mass matrix: n numbers (diagonal) or n*n (default 1,2,...,n)"},
    {.name = "k", .shape = CL_PARAM_ANYLIST, .count = MAXN * MAXN, .help = "stiffness matrix: n or n*n numbers (default 2,...,2)"},
    {.name = "f", .shape = CL_PARAM_ANYLIST, .count = MAXN, .help = "constant force term f in L = ... - f.x: n numbers (default 0)"},
    CL_PARAM_END,
};

/* The n×n matrix of a parameter given as n numbers (diagonal) or n·n (row by row); absent: diag(d_i). */
static int square_matrix(rptr S, const cl_param_value *v, size_t n, long d0, long dstep, const char *arg, const char *what,
                         cl_sys_error *e)
{
    if (v->len && v->len != n && v->len != n * n) return cl_sys_error_set(e, CL_EPARAM, arg, "%s needs n or n*n entries", what);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            rptr s = S + i * n + j;
            if (v->len == n * n) r_set(s, v->x + i * n + j);
            else if (i != j) r_set_zero(s);
            else if (v->len) r_set(s, v->x + i);
            else r_set_si(s, d0 + dstep * (long)i);
        }
    return CL_OK;
}

static int subspace_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    emb_inst *in = inst_alloc(K_SUBSPACE, prec);
    if (!in) return CL_ENOMEM;
    rptr M = CL_FN(cl_rvec_new)(2 * MAXN * MAXN, prec);
    if (!M) { inst_destroy(in); return CL_ENOMEM; }
    rptr K = M + MAXN * MAXN;
    size_t n = p->n;
    const cl_param_value *A = cl_params_get(p, "A"), *f = cl_params_get(p, "f");
    int st = CL_OK;
    if (A->len % n || A->len / n >= n) st = cl_sys_error_set(e, CL_EPARAM, "--A", "A needs m*n entries, 1 <= m < n");
    if (!st) st = square_matrix(M, cl_params_get(p, "mass"), n, 1, 1, "--mass", "mass", e);
    if (!st) st = square_matrix(K, cl_params_get(p, "k"), n, 2, 0, "--k", "stiffness", e);
    if (!st && f->len && f->len != n) st = cl_sys_error_set(e, CL_EPARAM, "--f", "force needs n entries");
    if (!st) {
        st = CL_FN(cl_emb_subspace_new)(&in->sub, n, A->len / n, A->x, M, K, f->len ? f->x : NULL);
        if (st == CL_ESINGULAR) cl_sys_error_set(e, st, "--A", "A must have full row rank");
        else if (st) cl_sys_error_set(e, st, "--mass", "mass must be positive definite on ker A");
    }
    CL_FN(cl_rvec_free)(M);
    if (!st) {
        CL_FN(cl_emb_subspace_dims)(in->sub, &in->n, &in->k);
        CL_FN(cl_emb_subspace_model)(in->sub, &in->model);
    }
    return inst_finish(in, st, out);
}

static int subspace_check(void *p, int form, mpfr_ptr x, char *err, size_t errlen)
{
    emb_inst *in = p;
    size_t n = in->n;
    if (!CL_FN(cl_rvec_is_finite)(x, inst_dim(p, form))) return fail(err, errlen, CL_ENAN, "NaN or infinity");
    if (form == 2) return CL_OK;
    rptr t = in->tmp;
    for (int part = 0; part < 2; part++) {
        /* x − Px measures the distance from ker A */
        in->model.proj(in->model.ctx, t, x + part * n, x + part * n);
        double worst = CL_FN(cl_rvec_log2_maxdiff)(t, x + part * n, n);
        double sc = CL_FN(cl_rvec_log2_maxabs)(x + part * n, n);
        if (worst > log2(STATE_TOL) + (sc > 0 ? sc : 0))
            return fail(err, errlen, part ? CL_ENOTTANGENT : CL_EDOMAIN,
                        part ? (form ? "mu must lie in ker A to 1e-12" : "xdot must lie in ker A to 1e-12")
                             : "x must lie in ker A to 1e-12");
    }
    return CL_OK;
}

static int subspace_rhs(void *p, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    emb_inst *in = p;
    size_t n = in->n, k = in->k;
    if (form == 0) {
        CL_FN(cl_rvec_copy)(dx, x + n, n);
        return CL_FN(cl_emb_subspace_el_accel)(in->sub, dx + n, x, x + n);
    }
    if (form == 1) return CL_FN(cl_emb_subspace_hamilton)(in->sub, dx, dx + n, x, x + n);
    CL_FN(cl_rvec_copy)(dx, x + k, k);
    CL_FN(cl_emb_subspace_reduced_accel)(in->sub, dx + k, x, x + k);
    return CL_OK;
}

static int subspace_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    emb_inst *in = p;
    size_t n = in->n, k = in->k;
    rptr s = in->tmp + 32;             /* (x, ẋ), 2n ≤ 16 */
    int st = CL_OK;
    switch (from) {
    case 0: CL_FN(cl_rvec_copy)(s, x, 2 * n); break;
    case 1:
        CL_FN(cl_rvec_copy)(s, x, n);
        st = CL_FN(cl_emb_legendre_inv)(&in->model, in->work, s + n, x, x + n);
        break;
    default:
        CL_FN(cl_emb_subspace_from_reduced)(in->sub, s, x);
        CL_FN(cl_emb_subspace_from_reduced)(in->sub, s + n, x + k);
    }
    if (st) return st;
    switch (to) {
    case 0: CL_FN(cl_rvec_copy)(y, s, 2 * n); return CL_OK;
    case 1: CL_FN(cl_rvec_copy)(y, s, n); return CL_FN(cl_emb_legendre)(&in->model, in->work, y + n, s, s + n);
    default:
        CL_FN(cl_emb_subspace_to_reduced)(in->sub, y, s);
        CL_FN(cl_emb_subspace_to_reduced)(in->sub, y + k, s + n);
        return CL_OK;
    }
}

static int subspace_random(void *p, int form, mpfr_ptr x, cl_rng *g)
{
    emb_inst *in = p;
    rptr q = in->tmp + 16;             /* (q, q̇), 2k ≤ 14 */
    for (size_t i = 0; i < 2 * in->k; i++) r_set_d(q + i, cl_rng_normal(g));
    return subspace_convert(p, 2, q, form, x);
}

static const char *const subspace_forms[] = {"xv", "xmu", "reduced", NULL};

static const cl_system sys_subspace = {
    .name = "subspace", .create = subspace_create, .params = subspace_params, .forms = subspace_forms,
    .destroy = inst_destroy, .dim = inst_dim, .check_state = subspace_check, .rhs = subspace_rhs,
    .invariant_names = energy_names, .invariants = inst_invariants, .convert = subspace_convert, .random_state = subspace_random,
    .component_name = inst_component_name,
    .summary = "linear masses and springs held on {x : Ax = 0} [EMB 3.1]: (3.1), (3.2), and reduced coordinates x = N q",
    .state_help = "xv: x (n) xdot (n), both in ker A; xmu: x (n) mu (n), mu = P M xdot; reduced: q (n-m) qdot (n-m), q the free entries of x in the echelon form of A",
};
CL_SYSTEM_REGISTER(sys_subspace)

/* ------------------------------------------------- rigid body, heavy top */

#define INERTIA_PARAM(about)                                                                                  \
    {.name = "J", .shape = CL_PARAM_ANYLIST, .count = 9, .def = "1,2,3.5",                                        \
     .help = "inertia" about ": 3 principal moments or 9 entries"}

#define OMEGA_PARAM(dflt, what, form)                                                                     \
    {.name = "omega", .shape = CL_PARAM_NUMBER, .def = dflt, .metavar = "W",                                   \
     .help = "rate of " what " (equilibria and stability, form " form ")"}

static const cl_param rigid_params[] = {INERTIA_PARAM(""), OMEGA_PARAM("1", "the steady rotations", "Pi"), CL_PARAM_END};
static const cl_param heavy_params[] = {
    INERTIA_PARAM(" about the fixed point"),
    {.name = "m", .shape = CL_PARAM_NUMBER, .def = "1", .metavar = "MASS", .help = "mass"},
    {.name = "g", .shape = CL_PARAM_NUMBER, .def = "9.81", .metavar = "GRAVITY", .help = "gravity"},
    {.name = "l", .shape = CL_PARAM_NUMBER, .def = "0.25", .metavar = "LENGTH",
     .help = "distance of the centre of mass from the fixed point"},
    {.name = "axis", .shape = CL_PARAM_LIST, .count = 3, .def = "0,0,1", .help = "body axis of the centre of mass, normalized"},
    OMEGA_PARAM("10", "the sleeping top", "PiGamma"),
    CL_PARAM_END,
};

static int top_equilibria_setup(emb_inst *in, int kind, const cl_params *p);
static int top_reduced_rhs(emb_inst *in, rptr dx, rsrc x);

static int top_create(void **out, int kind, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    emb_inst *in = inst_alloc(kind, prec);
    if (!in) return CL_ENOMEM;
    rptr J = in->tmp, rho = in->tmp + 24, s = in->tmp + 27;
    const cl_param_value *lst = cl_params_get(p, "J");
    int st = CL_OK;
    if (lst->len != 3 && lst->len != 9) st = cl_sys_error_set(e, CL_EPARAM, "--J", "inertia needs 3 (principal) or 9 numbers");
    for (int i = 0; !st && i < 9; i++) {
        if (lst->len == 9) r_set(J + i, lst->x + i);
        else if (i % 4 == 0) r_set(J + i, lst->x + i / 4);
        else r_set_zero(J + i);
    }
    if (!st && kind == K_HEAVY) {
        rsrc ax = cl_params_x(p, "axis");
        v3_norm(s, ax);
        if (r_is_zero(s)) st = cl_sys_error_set(e, CL_EPARAM, "--axis", "axis must be non-zero");
        else for (int i = 0; i < 3; i++) { r_div(rho + i, ax + i, s); r_mul(rho + i, rho + i, cl_params_x(p, "l")); }
    }
    if (!st) {
        st = kind == K_HEAVY ? CL_FN(cl_emb_heavy_top_new)(&in->top, J, cl_params_x(p, "m"), cl_params_x(p, "g"), rho)
                             : CL_FN(cl_emb_rigid_new)(&in->top, J);
        if (st) cl_sys_error_set(e, st, "--J, --m", "inertia must be symmetric positive definite, mass non-negative");
    }
    if (!st) CL_FN(cl_emb_top_model)(in->top, &in->model);
    if (!st) st = top_equilibria_setup(in, kind, p);
    return inst_finish(in, st, out);
}

KIND_CREATE(rigid, top, K_RIGID)
KIND_CREATE(heavy, top, K_HEAVY)

/* d = det R = r₀ · (r₁ × r₂) for the rows rᵢ. */
static void det3(rptr d, rsrc R)
{
    RV_DECL(c, 3, r_prec(d));
    v3_cross(c, R + 3, R + 6);
    v3_dot(d, R, c);
}

/* Validate an input state: R within 2^-40 of SO(3) is made orthogonal at the working
 * precision and R^T Rdot (R^T mu) within it of skew is replaced by its skew part, in place
 * (x is the command line's buffer, read from the user's decimals), by the core's
 * cl_lagr_so3_project_state (Newton-Schulz), which the SO(3) models use too. */
static int top_check(void *p, int form, mpfr_ptr x, char *err, size_t errlen)
{
    if (!CL_FN(cl_rvec_is_finite)(x, inst_dim(p, form))) return fail(err, errlen, CL_ENAN, "NaN or infinity");
    emb_inst *in = p;
    if (form == 3) return in->kind == K_RIGID ? CL_OK : cl_sys_unit_vector(x + 3, 3, "Gamma", err, errlen);
    double defect;
    int st = CL_FN(cl_lagr_so3_project_state)(form, x, CL_SYS_UNIT_TOL_LOG2, &defect);
    if (st == CL_EDOMAIN && defect == INFINITY) return fail(err, errlen, CL_EDOMAIN, "R must have determinant +1");
    if (st == CL_EDOMAIN) snprintf(err, errlen, "R is not orthogonal (|R^T R - I| = 2^%.1f)", defect);
    else if (st == CL_ENOTTANGENT)
        snprintf(err, errlen, "R^T %s is not skew (|sym(R^T %s)| = 2^%.1f)", form == 1 ? "Rdot" : "mu", form == 1 ? "Rdot" : "mu", defect);
    else if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    return st;
}

static int top_rhs(void *p, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    emb_inst *in = p;
    if (form == 3) return top_reduced_rhs(in, dx, x);
    if (form == 0) {
        rptr W = in->tmp;
        m3_hat(W, x + 9);
        m3_mul(dx, x, W);
        CL_FN(cl_emb_top_euler)(in->top, dx + 9, x + 9, x + 6);
        return CL_OK;
    }
    if (form == 1) {
        CL_FN(cl_rvec_copy)(dx, x + 9, 9);
        return CL_FN(cl_emb_top_accel_38)(in->top, dx + 9, x, x + 9);
    }
    return CL_FN(cl_emb_hamilton)(&in->model, in->work, dx, dx + 9, x, x + 9);
}

static int top_reduce(emb_inst *in, int from, mpfr_srcptr x, int to, mpfr_ptr y);

static int top_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    emb_inst *in = p;
    rptr s = in->tmp + 32, T = in->tmp + 44, W = in->tmp + 53;   /* (R, Ω) in s */
    if (from == 3 || to == 3) return top_reduce(in, from, x, to, y);
    CL_FN(cl_rvec_copy)(s, x, 9);
    if (from == 0) v3_set(s + 9, x + 9);
    else if (from == 1) {
        m3_transpose(T, x);
        m3_mul(T, T, x + 9);
        CL_FN(cl_emb_so3_vee)(s + 9, T);
    } else {
        CL_FN(cl_emb_top_body_momentum)(T, x, x + 9);
        CL_FN(cl_emb_top_inertia)(in->top, NULL, W, NULL);
        m3_mul_v3(s + 9, W, T);
    }
    CL_FN(cl_rvec_copy)(y, s, 9);
    if (to == 0) v3_set(y + 9, s + 9);
    else if (to == 1) {
        m3_hat(W, s + 9);
        m3_mul(y + 9, s, W);
    } else CL_FN(cl_emb_top_momentum)(in->top, y + 9, s, s + 9);
    return CL_OK;
}

static int top_random(void *p, int form, mpfr_ptr x, cl_rng *g)
{
    emb_inst *in = p;
    rptr s = in->tmp + 16;             /* (R, Ω) */
    for (int i = 0; i < 3; i++) r_set_d(s + 9 + i, 2.0 * cl_rng_normal(g));
    rptr th = in->tmp + 40;
    v3_set_d(th, 2.0 * cl_rng_normal(g), 2.0 * cl_rng_normal(g), 2.0 * cl_rng_normal(g));
    CL_FN(cl_emb_so3_exp)(s, th);
    return top_convert(p, 0, s, form, x);
}


/* ------------------------------------------- tops: the reduced forms and their equilibria */
/*
 * The reduced forms carry what the dynamics of Π = JΩ and Γ = Rᵀe₃ need and
 * nothing of R: "Pi" for the free body (Euler's equations Π̇ = Π × J⁻¹Π on R³)
 * and "PiGamma" for the heavy top (the Euler–Poisson equations
 * Π̇ = Π × Ω + m g Γ × ρ, Γ̇ = Γ × Ω on R⁶). Their equilibria are the relative
 * equilibria of the full forms: steady rotations about a principal axis, and
 * the top spinning about the vertical axis of its centre of mass.
 */

/* The axis ρ̂ of the centre of mass, the rate ω and m g l (heavy top; ω alone for the free body). */
static int top_equilibria_setup(emb_inst *in, int kind, const cl_params *p)
{
    in->eq = CL_FN(cl_rvec_new)(8, in->prec);
    if (!in->eq) return CL_ENOMEM;
    r_set(in->eq + 3, cl_params_x(p, "omega"));
    if (kind != K_HEAVY) return CL_OK;
    rsrc ax = cl_params_x(p, "axis");
    R_DECL(t, in->prec);
    v3_norm(t, ax);
    for (int i = 0; i < 3; i++) r_div(in->eq + i, ax + i, t);
    r_mul(in->eq + 4, cl_params_x(p, "m"), cl_params_x(p, "g"));
    r_mul(in->eq + 4, in->eq + 4, cl_params_x(p, "l"));
    r_set(in->eq + 5, cl_params_x(p, "l"));
    return CL_OK;
}

/* The heavy top's centre of mass in space, l R rho^, in the forms that carry R. */
static int heavy_bodies(void *p, int form, mpfr_ptr out, mpfr_srcptr x)
{
    emb_inst *in = p;
    if (form == 3) return 0;
    if (out) {
        m3_mul_v3(out, x, in->eq);
        v3_scale(out, in->eq + 5, out);
    }
    return 1;
}

/* Euler's equations (Pi) or the Euler–Poisson equations (PiGamma). */
static int top_reduced_rhs(emb_inst *in, rptr dx, rsrc x)
{
    rptr G = in->tmp, Gd = in->tmp + 3;
    if (in->kind == K_RIGID) {
        v3_zero(G);
        CL_FN(cl_emb_top_reduced_rhs)(in->top, dx, Gd, x, G);
    } else
        CL_FN(cl_emb_top_reduced_rhs)(in->top, dx, dx + 3, x, x + 3);
    return CL_OK;
}

/* Into the reduced form (Π = JΩ, Γ = third row of R); out of it there is no way back (R is not carried). */
static int top_reduce(emb_inst *in, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    size_t n = inst_dim(in, 3);
    if (from == 3 && to == 3) { CL_FN(cl_rvec_copy)(y, x, n); return CL_OK; }
    if (from == 3) return CL_EDOMAIN;
    rptr s = in->tmp + 20, J = in->tmp + 40;
    int st = top_convert(in, from, x, 0, s);
    if (st) return st;
    CL_FN(cl_emb_top_inertia)(in->top, J, NULL, NULL);
    m3_mul_v3(y, J, s + 9);
    if (n == 6) v3_set(y + 3, s + 6);
    return CL_OK;
}

/* The invariants of the reduced form through those of (R, Ω) with R = (0; 0; Γ) (only Γ = Rᵀe₃ enters
 * the energy and the Casimirs) and Ω = J⁻¹Π; what needs all of R is NaN. */
static int top_reduced_invariants(emb_inst *in, mpfr_ptr out, mpfr_srcptr x)
{
    rptr R = in->tmp + 20, Om = in->tmp + 29, Ji = in->tmp + 40;
    for (int i = 0; i < 9; i++) r_set_zero(R + i);
    if (in->kind == K_HEAVY) v3_set(R + 6, x + 3);
    CL_FN(cl_emb_top_inertia)(in->top, NULL, Ji, NULL);
    m3_mul_v3(Om, Ji, x);
    CL_FN(cl_emb_top_invariants)(in->top, out, R, Om);
    for (int i = 2; i < CL_EMB_TOP_NINV; i++)
        if (in->kind == K_RIGID ? i >= 2 : i <= 3) mpfr_set_nan(out + i);
    return CL_OK;
}

/*
 * Equilibria of the reduced forms. Free body (Pi): k = 0, 1, 2 the steady rotation at rate ω about the
 * principal axis of the smallest, middle and largest moment, Π₀ = ω J_k e_k (e_k from the null space of
 * J − J_k I). Heavy top (PiGamma), the axis ρ̂ of the centre of mass a principal axis of J: k = 0 the
 * sleeping top Γ₀ = ρ̂ (centre of mass above the pivot), k = 1 the hanging top Γ₀ = −ρ̂, both with
 * Π₀ = ω J ρ̂. The sleeping top's name states the fast-top criterion (J₃ω)² > 4 J₁ m g l when J₁ = J₂.
 */
static int top_equilibrium(void *p, int k, int form, mpfr_ptr x, const char **name)
{
    emb_inst *in = p;
    if (form != 3 || k < 0 || k > (in->kind == K_RIGID ? 2 : 1)) return CL_EDOMAIN;
    rptr J = in->tmp, A = in->tmp + 9, wr = in->tmp + 18, wi = in->tmp + 21, v = in->tmp + 24, N = in->tmp + 27,
         t = in->tmp + 36, u = in->tmp + 37, zero = in->tmp + 38;
    r_set_zero(zero);
    CL_FN(cl_emb_top_inertia)(in->top, J, NULL, NULL);
    if (in->kind == K_RIGID) {
        static const char *const names[] = {"steady rotation about the axis of the smallest moment",
                                            "steady rotation about the axis of the middle moment",
                                            "steady rotation about the axis of the largest moment"};
        int st = CL_FN(cl_eig)(wr, wi, J, 3), d = 0;
        for (int i = 0; !st && i < 9; i++) {
            r_set(A + i, J + i);
            if (i % 4 == 0) r_sub(A + i, A + i, wr + k);
        }
        if (!st) st = CL_FN(cl_nullspace)(N, &d, A, 3, 3, 0);
        if (st || d < 1) return st ? st : CL_EDOMAIN;
        int big = 0;
        for (int i = 0; i < 3; i++) {
            r_set(v + i, N + (size_t)i * d);   /* the first column */
            if (r_cmpabs(v + i, v + big) > 0) big = i;
        }
        if (r_sgn(v + big) < 0) v3_neg(v, v);
        r_mul(t, wr + k, in->eq + 3);
        v3_scale(x, t, v);
        for (int i = 0; i < 3; i++) r_add(x + i, x + i, zero);   /* −0 + 0 = +0 */
        *name = names[k];
        return CL_OK;
    }
    rsrc rh = in->eq, w = in->eq + 3, mgl = in->eq + 4;
    m3_mul_v3(v, J, rh);
    v3_cross(A, v, rh);                          /* J ρ̂ ∥ ρ̂: a principal axis */
    v3_norm(t, A);
    v3_norm(u, v);
    if (r_log2abs(t) > r_log2abs(u) - 40) return CL_EDOMAIN;
    v3_scale(x, w, v);                           /* Π₀ = ω J ρ̂ */
    v3_set(x + 3, rh);
    if (k == 1) v3_neg(x + 3, x + 3);
    for (int i = 0; i < 6; i++) r_add(x + i, x + i, zero);   /* −0 + 0 = +0 */
    /* moments: C = ρ̂ᵀJρ̂; the transverse ones have sum tr J − C and product det J / C */
    R_DECL(C, in->prec);
    R_DECL(S, in->prec);
    R_DECL(P, in->prec);
    v3_dot(C, rh, v);
    r_add(S, J, J + 4);
    r_add(S, S, J + 8);
    r_sub(S, S, C);
    det3(P, J);
    r_div(P, P, C);
    r_mul(t, S, S);
    r_mul_2si(u, P, 2);
    r_sub(t, t, u);                              /* (J1 − J2)² */
    /* symmetric when S² − 4P vanishes to the rounding of its terms (2^8 units of S²) */
    int sym = r_log2abs(t) <= 2 * r_log2abs(S) + 8 - (double)in->prec;
    if (k == 1)
        snprintf(in->eqname[1], sizeof in->eqname[1], "hanging spinning top (centre of mass below the pivot)");
    else if (!sym)
        snprintf(in->eqname[0], sizeof in->eqname[0],
                 "sleeping top (centre of mass above the pivot; asymmetric about its axis: no fast-top criterion)");
    else {
        r_mul(t, C, w);
        r_sqr(t, t);                             /* (J3 ω)² */
        r_mul_2si(u, S, 1);                      /* 4 J1 m g l = 2 (J1 + J2) m g l */
        r_mul(u, u, mgl);
        snprintf(in->eqname[0], sizeof in->eqname[0],
                 "sleeping top (centre of mass above the pivot; fast-top criterion (J3 w)^2 > 4 J1 m g l: %.6g %s %.6g)",
                 r_get_d(t), r_cmp(t, u) > 0 ? ">" : "<=", r_get_d(u));
    }
    *name = in->eqname[k];
    return CL_OK;
}

/* Conserved quantities the Energy–Casimir test uses (indices into top_invariant_names). */
static const int rigid_casimirs[] = {1, -1};     /* |Pi|^2 */
static const int heavy_casimirs[] = {5, 6, -1};  /* Gamma.Pi, |Gamma|^2 */

static const char *const rigid_forms[] = {"ROmega", "RRdot", "Rmu", "Pi", NULL};
static const char *const heavy_forms[] = {"ROmega", "RRdot", "Rmu", "PiGamma", NULL};
static const char *const top_invariant_names[] = {"energy", "|Pi|^2", "m_x", "m_y", "m_z", "Gamma.Pi", "|Gamma|^2", NULL};

/* The descriptor fields the free and the heavy top fill alike. */
#define TOP_HOOKS                                                                                            \
    .destroy = inst_destroy, .dim = inst_dim, .check_state = top_check, .rhs = top_rhs,  \
    .invariant_names = top_invariant_names, .invariants = inst_invariants, .convert = top_convert,           \
    .random_state = top_random, .component_name = inst_component_name, .equilibrium = top_equilibrium

static const cl_system sys_rigid = {
    .name = "rigid-body", .create = rigid_create, .params = rigid_params, TOP_HOOKS, .forms = rigid_forms,
    .casimirs = rigid_casimirs,
    .summary = "free rigid body on SO(3) [EMB 3.4]: Euler in (R, Omega), (3.8) in (R, Rdot), (2.7)-(2.8) in (R, mu)",
    .state_help = "ROmega: R (9, row by row) Omega (3, body frame); RRdot: R (9) Rdot (9); Rmu: R (9) mu (9), mu = R (J Omega)^ / 2. Invariants: energy, |Pi|^2, spatial momentum m = R Pi, Gamma.Pi, |Gamma|^2 (Gamma = R^T e3). R within 2^-40 of SO(3) is made orthogonal and R^T Rdot (R^T mu) skew; beyond it refused.\n"
                  "Pi: the body angular momentum Pi = J Omega (3), Euler's equations Pidot = Pi x J^-1 Pi, the reduced form\n"
                  "(R is not carried: m and Gamma are NaN there, other forms cannot be reached from it); its equilibria\n"
                  "are the steady rotations about the principal axes, at the rate --omega",
};
CL_SYSTEM_REGISTER(sys_rigid)

static const cl_system sys_heavy = {
    .name = "heavy-top", .create = heavy_create, .params = heavy_params, TOP_HOOKS, .forms = heavy_forms,
    .casimirs = heavy_casimirs, .bodies = heavy_bodies,
    .summary = "heavy top about a fixed point [EMB 3.4]: centre of mass at l*axis (body frame), gravity along -e3",
    .state_help = "as rigid-body; the energy includes m g e3.R rho; Gamma.Pi and |Gamma|^2 are the Casimirs, m_z is conserved.\n"
                  "PiGamma: Pi (3) Gamma (3), Gamma = R^T e3 (unit), the Euler-Poisson equations\n"
                  "Pidot = Pi x Omega + m g Gamma x rho, Gammadot = Gamma x Omega (R is not carried: m_x, m_y are NaN there);\n"
                  "its equilibria are the sleeping top (centre of mass above the pivot) and the hanging spinning top,\n"
                  "spinning at --omega about the axis of the centre of mass (a principal axis of J)",
};
CL_SYSTEM_REGISTER(sys_heavy)
#endif

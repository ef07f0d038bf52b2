/* The EMB systems for the command line (`chartless rhs|simulate --system NAME`):
 * subspace, circle and sphere here, rigid-body and heavy-top in
 * emb_top_systems.c, the instance and the hooks of every kind beneath both
 * in emb_inst_systems.c. The command line works in MPFR: these files are
 * compiled in MPFR only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emb_inst_systems_impl.h"
#include "lagr_so3.h"
#include "r3.h"
#include "emb_impl.h"

#if CL_PREC == CL_MPFR

static int pend_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y);
static int subspace_convert(void *p, int from, mpfr_srcptr x, int to, mpfr_ptr y);

/* The invariants of a pendulum or the subspace: the state carried to form 0
 * (at most 16 numbers), then the energy. */
static int energy_invariants(void *p, int form, mpfr_ptr out, mpfr_srcptr x)
{
    emb_inst *in = p;
    rptr s = in->tmp + 16;
    int st = in->pend ? pend_convert(p, form, x, 0, s) : subspace_convert(p, form, x, 0, s);
    if (st) return st;
    if (in->pend) CL_FN(cl_emb_pendulum_energy)(in->pend, out, s, s + in->model.n);
    else CL_FN(cl_emb_subspace_energy)(in->sub, out, s, s + in->n);
    return CL_OK;
}

/* ------------------------------------------------------------ pendulums */

static int pend_create(void **out, int kind, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    emb_inst *in = emb_inst_alloc(kind, prec);
    if (!in) return CL_ENOMEM;
    size_t d = kind == K_CIRCLE ? 2 : 3;
    int st = CL_FN(cl_emb_pendulum_new)(&in->pend, d, cl_params_x(p, "m"), cl_params_x(p, "l"), cl_params_x(p, "g"));
    if (st) cl_sys_error_set(e, st, "--m, --l", "mass and length must be positive");
    else CL_FN(cl_emb_pendulum_model)(in->pend, &in->model);
    return emb_inst_finish(in, st, out);
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
    if (!CL_FN(cl_rvec_is_finite)(x, emb_inst_dim(p, form))) return emb_sys_fail(err, errlen, CL_ENAN, "NaN or infinity");
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
    .destroy = emb_inst_destroy, .dim = emb_inst_dim, .check_state = pend_check, .rhs = pend_rhs,                   \
    .invariant_names = energy_names, .invariants = energy_invariants, .convert = pend_convert,                \
    .random_state = pend_random, .equilibrium = pend_equilibrium, .component_name = emb_inst_component_name, \
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
    emb_inst *in = emb_inst_alloc(K_SUBSPACE, prec);
    if (!in) return CL_ENOMEM;
    rptr M = CL_FN(cl_rvec_new)(2 * MAXN * MAXN, prec);
    if (!M) { emb_inst_destroy(in); return CL_ENOMEM; }
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
    return emb_inst_finish(in, st, out);
}

static int subspace_check(void *p, int form, mpfr_ptr x, char *err, size_t errlen)
{
    emb_inst *in = p;
    size_t n = in->n;
    if (!CL_FN(cl_rvec_is_finite)(x, emb_inst_dim(p, form))) return emb_sys_fail(err, errlen, CL_ENAN, "NaN or infinity");
    if (form == 2) return CL_OK;
    rptr t = in->tmp;
    for (int part = 0; part < 2; part++) {
        /* x − Px measures the distance from ker A */
        in->model.proj(in->model.ctx, t, x + part * n, x + part * n);
        double worst = CL_FN(cl_rvec_log2_maxdiff)(t, x + part * n, n);
        double sc = CL_FN(cl_rvec_log2_maxabs)(x + part * n, n);
        if (worst > log2(STATE_TOL) + (sc > 0 ? sc : 0))
            return emb_sys_fail(err, errlen, part ? CL_ENOTTANGENT : CL_EDOMAIN,
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
    .destroy = emb_inst_destroy, .dim = emb_inst_dim, .check_state = subspace_check, .rhs = subspace_rhs,
    .invariant_names = energy_names, .invariants = energy_invariants, .convert = subspace_convert, .random_state = subspace_random,
    .component_name = emb_inst_component_name,
    .summary = "linear masses and springs held on {x : Ax = 0} [EMB 3.1]: (3.1), (3.2), and reduced coordinates x = N q",
    .state_help = "xv: x (n) xdot (n), both in ker A; xmu: x (n) mu (n), mu = P M xdot; reduced: q (n-m) qdot (n-m), q the free entries of x in the echelon form of A",
};
CL_SYSTEM_REGISTER(sys_subspace)

#endif

/*
 * The shipped model of the double chain pendulum (models/chain2.model)
 * against the chapter S2 V: the vector fields the engine derives from the
 * Lagrangian written as a formula, and its Legendre maps, against the
 * chain's hand-derived O(n) fields and transforms, in every form. The
 * generic path and the paper's derivation check each other.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "model.h"
#include "lagr_s2.h"
#include "s2_fixtures_impl.h"

#define DRAWS 20

/* The shipped model models/NAME.model (embedded, or from $CHARTLESS_MODELS when set); a failure said in the row's note. */
static int load_model(cl_model **m, const char *name, cl_check_result *res)
{
    cl_sys_error e;
    int st = cl_model_load_shipped(m, name, &e);
    if (st) snprintf(res->note, sizeof res->note, "%.120s (%.70s)", e.what, e.arg);
    return st;
}

/* Set the model's parameter \p name to \p v; CL_EPARAM when the model has no such parameter. */
static int set_param(CL_FN(cl_lagr_s2) *lg, const cl_model *m, const char *name, double v)
{
    R_DECL(x, 64);
    r_set_d(x, v);
    for (size_t k = 0; k < m->nparam; k++)
        if (!strcmp(m->pname[k], name)) {
            CL_FN(cl_lagr_s2_set_param)(lg, k, x);
            return CL_OK;
        }
    return CL_EPARAM;
}

/*
 * chain2.model with the random masses and lengths of a chain of two links
 * (g = 9.81 from the same decimal string), at DRAWS random states of every
 * form: \p measure compares one model-derived quantity with the chapter's.
 */
typedef double (*chain_measure)(CL_FN(cl_lagr_s2) *lg, CL_FN(cl_chain) *ch, int form, rsrc x, rptr a, rptr b);

static int over_chain2(cl_check_result *res, cl_prec_t prec, uint64_t seed, chain_measure measure)
{
    cl_model *m;
    int st = load_model(&m, "chain2", res);
    if (st) return st;
    cl_rng g;
    cl_rng_seed(&g, seed);
    s2t_chain_par par;
    CL_FN(cl_chain) *ch = s2t_random_chain_par(2, prec, &g, 0, &par);
    CL_FN(cl_lagr_s2) *lg;
    st = CL_FN(cl_lagr_s2_new)(&lg, m->g, m->L, m->n, m->nparam, prec);
    if (!st && !ch) st = CL_ENOMEM;
    if (!st) {
        R_DECL(v, prec);
        for (size_t k = 0; k < m->nparam; k++) {
            CL_FN(cl_real_from_str)(v, m->pdef[k]);
            CL_FN(cl_lagr_s2_set_param)(lg, k, v);
        }
        const char *mn[2] = {"m1", "m2"}, *ln[2] = {"l1", "l2"};
        for (int i = 0; i < 2 && !st; i++) {
            st = set_param(lg, m, mn[i], par.m[i]);
            if (!st) st = set_param(lg, m, ln[i], par.l[i]);
        }
    }
    RV_DECL(x, 12, prec); RV_DECL(y, 12, prec); RV_DECL(a, 12, prec); RV_DECL(b, 12, prec);
    CL_FN(cl_s2_quad_ws) *ws = ch ? CL_FN(cl_chain_ws)(ch) : NULL;
    cl_check_begin(res);
    static const char *const forms[] = {"qdot", "omega", "mu", "pi"};
    for (int k = 0; k < DRAWS && !st; k++) {
        for (int i = 0; i < 2; i++) {
            CL_FN(cl_v3_random_unit)(x + 3 * i, &g);
            CL_FN(cl_v3_random_tangent)(x + 6 + 3 * i, x + 3 * i, 1.0, &g);
        }
        for (int form = 0; form < 4 && !st; form++) {
            st = CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y); /* the chapter's state of this form */
            if (!st) cl_check_worst(res, measure(lg, ch, form, y, a, b), "%s form, draw %d", forms[form], k);
        }
    }
    CL_FN(cl_lagr_s2_free)(lg);
    CL_FN(cl_chain_free)(ch);
    cl_model_free(m);
    return st;
}

/* |model field − chapter field| relative to the largest entry of the chapter's; NaN when either fails. */
static double field_gap(CL_FN(cl_lagr_s2) *lg, CL_FN(cl_chain) *ch, int form, rsrc x, rptr a, rptr b)
{
    if (CL_FN(cl_lagr_s2_rhs)(lg, form, a, x) || CL_FN(cl_chain_rhs)(ch, form, b, x)) return NAN;
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, 12) - CL_FN(cl_rvec_log2_maxabs)(b, 12);
}

/* The model's Legendre maps and kinematics back to (q, q̇) against the chapter's, relative. */
static double state_gap(CL_FN(cl_lagr_s2) *lg, CL_FN(cl_chain) *ch, int form, rsrc x, rptr a, rptr b)
{
    if (CL_FN(cl_lagr_s2_convert)(lg, form, x, CL_S2_QDOT, a) ||
        CL_FN(cl_s2_quad_convert)(CL_FN(cl_chain_ws)(ch), form, x, CL_S2_QDOT, b))
        return NAN;
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, 12) - CL_FN(cl_rvec_log2_maxabs)(b, 12);
}

CL_CHECK(s2_model_chain2_rhs, "s2.model.chain2.rhs", .chapter = "S2 V", .tags = "[S2 (11),(13),(20),(40),(41),(42)]", .what = "models/chain2.model (random m, l) at 20 random states: the fields derived from L by the engine's exact gradient and Hessian against the chain's O(n) fields, in the forms qdot, omega, mu, pi (relative)", .cond = 64, .why = "a dense 6x6 solve (and for mu, pi a Newton step with the same matrix) against the chain's tridiagonal tension solve; the inertia's condition is < 10^2; measured at most 5 units over the draws and rungs")
{
    return over_chain2(res, prec, 5150, field_gap);
}

CL_CHECK(s2_model_chain2_legendre, "s2.model.chain2.legendre", .chapter = "S2 III-IV", .tags = "[S2 (3),(5),(20),(25),(28)]", .what = "models/chain2.model (random m, l): the model's inverse Legendre map (Newton on the velocity Hessian) and kinematics from omega, mu, pi back to qdot against the chapter's transforms (relative)", .cond = 64, .why = "one 6x6 solve per Newton step on each side; the inertia's condition is < 10^2; measured at most 5 units over the draws and rungs")
{
    return over_chain2(res, prec, 5151, state_gap);
}

/* The model's maps from (q, q̇) into the form and its energy E = Σ q̇_i·∂L/∂q̇_i − L
 * against the chapter's transforms and energy (S2 (38)–(39)), relative. */
static double forward_energy_gap(CL_FN(cl_lagr_s2) *lg, CL_FN(cl_chain) *ch, int form, rsrc x, rptr a, rptr b)
{
    cl_prec_t p = r_prec(a);
    R_DECL(E1, p); R_DECL(E2, p);
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
    if (CL_FN(cl_s2_quad_convert)(ws, form, x, CL_S2_QDOT, b) || CL_FN(cl_lagr_s2_convert)(lg, CL_S2_QDOT, b, form, a) ||
        CL_FN(cl_lagr_s2_value)(lg, -1, form, E1, x) || CL_FN(cl_s2_quad_energy)(ws, form, E2, x))
        return NAN;
    double e1 = CL_FN(cl_rvec_log2_maxdiff)(a, x, 12) - CL_FN(cl_rvec_log2_maxabs)(x, 12);
    double e2 = CL_FN(cl_rvec_log2_maxdiff)(E1, E2, 1) - fmax(0, r_log2abs(E2));
    return e1 > e2 ? e1 : e2;
}

CL_CHECK(s2_model_chain2_forward, "s2.model.chain2.forward_energy", .chapter = "S2 III-IV", .tags = "[S2 (3),(5),(20),(28),(38),(39)]", .what = "models/chain2.model (random m, l): the model's maps from qdot into omega, mu, pi and its energy sum qdot.dL/dqdot - L against the chapter's transforms and energy (relative)", .cond = 64, .why = "a 6x6 solve on the chapter's side of the round trip; the inertia's condition is < 10^2; measured at most 8 units over the draws and rungs")
{
    return over_chain2(res, prec, 5152, forward_energy_gap);
}

/*
 * The coupled spheres of s2_coupled.c (n = 2, undamped) written as a model:
 * their inertia depends on q, so the terms ∂²L/∂q̇∂q of the generic fields,
 * which vanish for the chain, enter. The model's fields in every form
 * against the chapter's hand-derived ones.
 */
static const char coupled2_model[] =
    "manifold q1, q2 : S2\n"
    "parameters a1 = 2, a2 = 2.5, b = 0.7, c = 0.5, k1 = 1, k2 = -1.5, kappa = 0.3\n"
    "lagrangian 1/2*((a1 + b*q1.z^2)*dot(q1', q1') + (a2 + b*q2.z^2)*dot(q2', q2')\n"
    "                + 2*c*dot(q1, q2)*dot(q1', q2'))\n"
    "           - (k1*q1.z + k2*q2.z + kappa*dot(q1, q2))\n";

CL_CHECK(s2_model_coupled_rhs, "s2.model.coupled.rhs", .chapter = "S2 III-IV", .tags = "[S2 (11),(13),(19),(27),(36)]", .what = "the coupled spheres (n = 2, inertia depending on q) written as a model: the engine's fields in the forms qdot, omega, mu, pi against the chapter's hand-derived ones at 20 random states (relative)", .cond = 128, .why = "a dense 6x6 solve (and for mu, pi a Newton step with the same matrix) on each side; the inertia's condition is < 10^2; measured at most 14 units over the draws and rungs")
{
    cl_model *m = NULL;
    cl_sys_error e;
    int st = cl_model_parse(&m, "coupled2", coupled2_model, sizeof coupled2_model - 1, &e);
    if (st) return st;
    RV_DECL(par, 7, prec); /* a1, a2, b, c, k1, k2, kappa: the defaults of the model text */
    for (size_t k = 0; k < 7 && !st; k++) st = k < m->nparam ? CL_FN(cl_real_from_str)(par + k, m->pdef[k]) : CL_EPARSE;
    R_DECL(zero, prec);
    r_set_zero(zero);
    RV_DECL(a2, 2, prec); RV_DECL(k2, 2, prec);
    r_set(a2, par); r_set(a2 + 1, par + 1); r_set(k2, par + 4); r_set(k2 + 1, par + 5);
    CL_FN(cl_s2_coupled) *cp = NULL;
    CL_FN(cl_lagr_s2) *lg = NULL;
    if (!st) st = CL_FN(cl_lagr_s2_new)(&lg, m->g, m->L, m->n, m->nparam, prec);
    if (!st) st = CL_FN(cl_s2_coupled_new)(&cp, 2, a2, par + 2, par + 3, k2, par + 6, zero, prec);
    for (size_t k = 0; k < m->nparam && !st; k++) CL_FN(cl_lagr_s2_set_param)(lg, k, par + k);
    CL_FN(cl_s2_quad_ws) *ws = cp ? CL_FN(cl_s2_coupled_ws)(cp) : NULL;
    cl_rng g;
    cl_rng_seed(&g, 5153);
    RV_DECL(x, 12, prec); RV_DECL(y, 12, prec); RV_DECL(a, 12, prec); RV_DECL(b, 12, prec);
    static const char *const forms[] = {"qdot", "omega", "mu", "pi"};
    cl_check_begin(res);
    for (int k = 0; k < DRAWS && !st; k++) {
        s2t_random_state(x, 2, 1.0, &g);
        for (int form = 0; form < 4 && !st; form++) {
            if ((st = CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y))) break;
            if ((st = CL_FN(cl_lagr_s2_rhs)(lg, form, a, y)) || (st = CL_FN(cl_s2_quad_rhs)(ws, form, b, y))) break;
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(a, b, 12) - CL_FN(cl_rvec_log2_maxabs)(b, 12),
                           "%s form, draw %d", forms[form], k);
        }
    }
    CL_FN(cl_lagr_s2_free)(lg);
    CL_FN(cl_s2_coupled_free)(cp);
    cl_model_free(m);
    return st;
}

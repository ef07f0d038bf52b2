/*
 * The shipped models of the rigid body and the heavy top
 * (models/rigid-body.model, models/heavy-top.model) against the chapter
 * [EMB §3.4]: the vector fields the engine derives from L(R, Ω) written as a
 * formula (the Euler–Poincaré equations with the torque read off ∂L/∂R, in
 * src/lagr_so3) against Euler's equation with the gravity torque, the
 * embedded (3.8) and the embedded Hamiltonian form (2.7)–(2.8), and the
 * model's Legendre map against μ = ½R(JΩ)^. The generic path and the
 * paper's derivation check each other. States and parameters are drawn as
 * doubles and are the same at every precision.
 */
#include <math.h>
#include <string.h>
#include "emb_fixtures_impl.h"
#include "model.h"
#include "lagr_so3.h"
#include "r3.h"

#define DRAWS 12

/* Set the model's parameter \p name to \p v; CL_EPARAM when the model has no such parameter. */
static int set_param(CL_FN(cl_lagr_so3) *lg, const cl_model *m, const char *name, rsrc v)
{
    for (size_t k = 0; k < m->nparam; k++)
        if (!strcmp(m->pname[k], name)) {
            CL_FN(cl_lagr_so3_set_param)(lg, k, v);
            return CL_OK;
        }
    return CL_EPARAM;
}

/* One model and the chapter's body with the same random parameters. */
typedef struct {
    cl_model *m;
    CL_FN(cl_lagr_so3) *lg;
    emb_fixture f;
    rptr Jinv;
} so3_pair;

static void pair_close(so3_pair *p)
{
    CL_FN(cl_lagr_so3_free)(p->lg);
    cl_model_free(p->m);
    emb_fixture_close(&p->f);
    CL_FN(cl_rvec_free)(p->Jinv);
}

/*
 * The model \p name ("heavy-top" or "rigid-body") with random principal
 * moments J_i in [1/2, 4) and, for the heavy top, a random mass, length and
 * body axis (g = 9.81 from the model's decimal string on both sides), and the
 * chapter's top with J = diag(J_i), ρ = l·axis/|axis|.
 */
static int pair_open(so3_pair *p, const char *name, cl_prec_t prec, cl_rng *g, cl_check_result *res)
{
    *p = (so3_pair){0};
    cl_sys_error e;
    int st = cl_model_load_shipped(&p->m, name, &e);
    if (st) {
        snprintf(res->note, sizeof res->note, "%.120s (%.70s)", e.what, e.arg);
        return st;
    }
    int heavy = !strcmp(name, "heavy-top");
    st = CL_FN(cl_lagr_so3_new)(&p->lg, p->m->g, p->m->L, p->m->nparam, prec);
    p->Jinv = CL_FN(cl_rvec_new)(9, prec);
    if (!st && !p->Jinv) st = CL_ENOMEM;
    if (st) return st;
    R_DECL(v, prec);
    for (size_t k = 0; k < p->m->nparam; k++) {
        CL_FN(cl_real_from_str)(v, p->m->pdef[k]);
        CL_FN(cl_lagr_so3_set_param)(p->lg, k, v);
    }
    RV_DECL(J, 9, prec); RV_DECL(ax, 3, prec); RV_DECL(rho, 3, prec);
    R_DECL(mass, prec); R_DECL(l, prec); R_DECL(gg, prec); R_DECL(s, prec);
    static const char *const Jn[3] = {"J1", "J2", "J3"}, *const an[3] = {"ax", "ay", "az"};
    for (int i = 0; i < 3 && !st; i++) {
        r_set_d(J + 4 * i, 0.5 + 3.5 * cl_rng_uniform(g));
        st = set_param(p->lg, p->m, Jn[i], J + 4 * i);
    }
    if (st || !heavy) {
        if (!st) st = CL_FN(cl_emb_rigid_new)(&p->f.top, J);
    } else {
        r_set_d(mass, 0.5 + cl_rng_uniform(g));
        r_set_d(l, 0.1 + cl_rng_uniform(g));
        emb_random_vec(ax, 3, 1.0, g);
        st = set_param(p->lg, p->m, "m", mass);
        if (!st) st = set_param(p->lg, p->m, "l", l);
        for (int i = 0; i < 3 && !st; i++) st = set_param(p->lg, p->m, an[i], ax + i);
        CL_FN(cl_real_from_str)(gg, "9.81");
        v3_norm(s, ax);
        r_div(s, l, s);
        v3_scale(rho, s, ax);
        if (!st) st = CL_FN(cl_emb_heavy_top_new)(&p->f.top, J, mass, gg, rho);
    }
    if (!st) st = emb_fixture_model(&p->f, prec);
    if (!st) CL_FN(cl_emb_top_inertia)(p->f.top, NULL, p->Jinv, NULL);
    return st;
}

/* A random state (R, Ω): R = exp(θ^), θ and Ω normal with deviation 2. */
static void random_state(rptr x, cl_rng *g)
{
    RV_DECL(th, 3, r_prec(x));
    emb_random_vec(th, 3, 2.0, g);
    CL_FN(cl_emb_so3_exp)(x, th);
    emb_random_vec(x + 9, 3, 2.0, g);
}

/* The chapter's state of form \p form from (R, Ω): Ṙ = RΩ̂, μ = ½R(JΩ)^. */
static void chapter_state(const so3_pair *p, int form, rsrc x, rptr y)
{
    CL_FN(cl_rvec_copy)(y, x, 9);
    RV_DECL(M, 9, r_prec(x));
    if (form == CL_LAGR_SO3_ROMEGA) v3_set(y + 9, x + 9);
    else if (form == CL_LAGR_SO3_RRDOT) {
        m3_hat(M, x + 9);
        m3_mul(y + 9, x, M);
    } else CL_FN(cl_emb_top_momentum)(p->f.top, y + 9, x, x + 9);
}

/* The chapter's field of form \p form at y: Euler's equation, (3.8), (2.7)–(2.8). */
static int chapter_rhs(so3_pair *p, int form, rptr dy, rsrc y)
{
    RV_DECL(M, 9, r_prec(y));
    switch (form) {
    case CL_LAGR_SO3_ROMEGA:
        m3_hat(M, y + 9);
        m3_mul(dy, y, M);
        CL_FN(cl_emb_top_euler)(p->f.top, dy + 9, y + 9, y + 6); /* Γ = Rᵀe₃, the third row of R */
        return CL_OK;
    case CL_LAGR_SO3_RRDOT:
        CL_FN(cl_rvec_copy)(dy, y + 9, 9);
        return CL_FN(cl_emb_top_accel_38)(p->f.top, dy + 9, y, y + 9);
    default: return CL_FN(cl_emb_hamilton)(&p->f.m, p->f.w, dy, dy + 9, y, y + 9);
    }
}

static const char *const form_names[] = {"ROmega", "RRdot", "Rmu"};

/*
 * DRAWS random states x = (R, Ω) of the pair of model \p name (parameters and
 * states drawn from \p seed), each carried through \p form_row for the forms
 * from \p form0 to (R, μ); the pair closed, the first failure returned.
 */
static int pair_rows(cl_check_result *res, cl_prec_t prec, const char *name, uint64_t seed, int form0,
                     int (*form_row)(cl_check_result *res, so3_pair *p, int form, rsrc x, int k))
{
    cl_rng g = emb_rng(seed);
    so3_pair p;
    cl_check_begin(res);
    int st = pair_open(&p, name, prec, &g, res);
    RV_DECL(x, 12, prec);
    for (int k = 0; k < DRAWS && !st; k++) {
        random_state(x, &g);
        for (int form = form0; form < 3 && !st; form++) st = form_row(res, &p, form, x, k);
    }
    pair_close(&p);
    return st;
}

/* |model field − chapter field| relative to the chapter's in one form at the state x. */
static int field_row(cl_check_result *res, so3_pair *p, int form, rsrc x, int k)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(y, 18, prec); RV_DECL(a, 18, prec); RV_DECL(b, 18, prec);
    size_t n = CL_FN(cl_lagr_so3_dim)(form);
    chapter_state(p, form, x, y);
    int st = CL_FN(cl_lagr_so3_rhs)(p->lg, form, a, y);
    if (!st) st = chapter_rhs(p, form, b, y);
    if (!st) cl_check_worst(res, emb_rel_err(a, b, n), "%s form, draw %d", form_names[form], k);
    return st;
}

/* The fields of every form, DRAWS states. */
static int fields(cl_check_result *res, cl_prec_t prec, const char *name)
{
    return pair_rows(res, prec, name, 7340 + (uint64_t)(name[0] == 'r'), 0, field_row);
}

/*
 * The model's Legendre map and kinematics: (R, Ω) carried to each form
 * against the chapter's state, and each chapter state carried back to
 * (R, Ω) (for μ the inverse Legendre map, Newton on L_ΩΩ, against
 * Ω = J⁻¹(Rᵀμ − μᵀR)^∨), relative: one form at the state x.
 */
static int legendre_row(cl_check_result *res, so3_pair *p, int form, rsrc x, int k)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(y, 18, prec); RV_DECL(a, 18, prec); RV_DECL(Pi, 3, prec);
    chapter_state(p, form, x, y);
    int st = CL_FN(cl_lagr_so3_convert)(p->lg, CL_LAGR_SO3_ROMEGA, x, form, a);
    if (!st) cl_check_worst(res, emb_rel_err(a, y, 18), "(R, Omega) to %s, draw %d", form_names[form], k);
    if (!st) st = CL_FN(cl_lagr_so3_convert)(p->lg, form, y, CL_LAGR_SO3_ROMEGA, a);
    if (st) return st;
    if (form == CL_LAGR_SO3_RMU) { /* the chapter's own inverse: Ω = J⁻¹Π */
        CL_FN(cl_emb_top_body_momentum)(Pi, y, y + 9);
        m3_mul_v3(y + 9, p->Jinv, Pi);
    } else v3_set(y + 9, x + 9);
    cl_check_worst(res, emb_rel_err(a, y, 12), "%s to (R, Omega), draw %d", form_names[form], k);
    return CL_OK;
}

/* The Legendre map and kinematics of the forms (R, Rdot) and (R, mu), DRAWS states. */
static int legendre(cl_check_result *res, cl_prec_t prec, const char *name)
{
    return pair_rows(res, prec, name, 7342, 1, legendre_row);
}

EMB_CHECK_CALL(emb_model_heavy_top_rhs, "emb.model.heavy_top.rhs", fields, "heavy-top", .chapter = "EMB 3.4",
               .tags = "[EMB (3.8)] [EMB (2.7)] [EMB (2.8)]",
               .what = "models/heavy-top.model (random J, m, l, axis) at 12 random states: the Euler-Poincare field derived from L(R, W) by the engine's exact gradient and Hessian against Euler's equation with the gravity torque (ROmega), (3.8) (RRdot) and (2.7)-(2.8) (Rmu) (relative)",
               .cond = 16, .why = "3x3 solves on both sides (a 9x9 one for (2.7)-(2.8)) with inertia ratio < 8, |W| up to ~6, torque m g l up to ~20; measured at most 3 units over the draws and rungs")
EMB_CHECK_CALL(emb_model_rigid_body_rhs, "emb.model.rigid_body.rhs", fields, "rigid-body", .chapter = "EMB 3.4",
               .tags = "[EMB (3.8)] [EMB (2.7)] [EMB (2.8)]",
               .what = "models/rigid-body.model (random J) at 12 random states: the field derived from L(W) against Euler's equation (ROmega), (3.8) (RRdot) and (2.7)-(2.8) (Rmu) (relative)",
               .cond = 16, .why = "3x3 solves on both sides (a 9x9 one for (2.7)-(2.8)) with inertia ratio < 8, |W| up to ~6; measured at most 3 units over the draws and rungs")
EMB_CHECK_CALL(emb_model_heavy_top_legendre, "emb.model.heavy_top.legendre", legendre, "heavy-top", .chapter = "EMB 3.4",
               .tags = "[EMB (2.4)] [EMB 3.4]",
               .what = "models/heavy-top.model (random parameters): the model's kinematics and Legendre map mu = R (dL/dW)^ / 2 from (R, W), and back (Newton on L_WW), against Rdot = R W^, mu = R (J W)^ / 2 and W = J^-1 (R^T mu - mu^T R)^v (relative)",
               .cond = 16, .why = "a 3x3 Newton step against a 3x3 inverse, inertia ratio < 8; measured at most 3 units over the draws and rungs")

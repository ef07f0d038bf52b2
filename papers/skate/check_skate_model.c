/*
 * The shipped model of the pendulum skate (models/skate.model) against the
 * chapter [SKATE §2–5]: the field the product engine derives from the
 * Lagrangian (7) on SE(3) with the constraints as the paper states them —
 * pitch constancy Γ₁ = (Rᵀe₃)₁ = 0 (19), contact x₃ = 0 and no
 * side sliding ⟨ẋ, RE₁ × e₃⟩ = 0 (Example 3), the first two holonomic, the
 * third linear in the velocities — against the chapter's z-form with
 * multipliers (21) and its quasivelocity field (38). The generic path and
 * the paper's derivation check each other.
 *
 * The model's state (form qdot) is (R, x, Ω, Y): R row by row, the contact
 * point x, the body velocities Ω = (RᵀṘ)^∨ and Y = Rᵀẋ. The chapter's are
 * the reduced z = (Ω, Y, Γ) and ζ = (v¹, v², v³, Γ₂, Γ₃). The maps:
 *
 *   down  (R, x, Ω, Y) ↦ z = (Ω, Y, Γ = Rᵀe₃, the third row of R),
 *         then ζ by (33): v¹ = Ω₁, v² = Ω·Γ, v³ = Y₁;
 *   up    z ↦ (R, x, Ω, Y) with R = R_z(ψ) R_x(φ), (sin φ, cos φ) = (Γ₂, Γ₃),
 *         whose third row is (0, Γ₂, Γ₃) = Γ, any heading ψ and any contact
 *         point x = (a, b, 0): the reduced state forgets them (SE(3) acts on
 *         them and the field of Ω, Y and Γ does not depend on them); ζ ↦ z
 *         by Ω = v¹E₁ + v²Γ, Y = v³E₁;
 *
 * and for the fields: Ω̇, Ẏ as they are, Γ̇ = Ṙᵀe₃ (the third row of Ṙ),
 * ζ̇ from ż by differentiating (33). Heading, contact point and states are
 * drawn as doubles and are the same at every precision.
 */
#include <math.h>
#include <string.h>
#include "check.h"
#include "model.h"
#include "lagr_prod.h"
#include "skate_fixtures_impl.h"

#define DRAWS 12
#define NX 18 /* R (9), x (3), Ω (3), Y (3) */

/* The model's parameter names in the order of enum cl_skate_param (the rotor's J absent from the model). */
static const char *const skate_param_name[CL_SKATE_NPAR] = {"m", "l", "g", "I1", "I2", "I3", NULL, NULL, NULL};

/* The shipped model with the engine at \p prec and the parameters of set \p set on both sides. */
typedef struct skate_pair {
    cl_model *m;
    CL_FN(cl_lagr_prod) *lg;
} skate_pair;

static void pair_close(skate_pair *p)
{
    CL_FN(cl_lagr_prod_free)(p->lg);
    cl_model_free(p->m);
}

static int pair_open(skate_pair *p, cl_prec_t prec, cl_check_result *res)
{
    *p = (skate_pair){0};
    cl_sys_error e;
    int st = cl_model_load_shipped(&p->m, "skate", &e);
    if (st) {
        snprintf(res->note, sizeof res->note, "%.120s (%.70s)", e.what, e.arg);
        return st;
    }
    const cl_model *m = p->m;
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    if (!m->prod || m->nfac > CL_LAGR_PROD_MAX_FACTORS) return CL_EDIM;
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
    st = CL_FN(cl_lagr_prod_new)(&p->lg, m->g, m->L, f, m->nfac, m->nparam, prec);
    if (st) return st;
    size_t nq, nv;
    CL_FN(cl_lagr_prod_sizes)(p->lg, &nq, &nv);
    if (nq + nv != NX || m->ncon != 3) return CL_EDIM;
    return CL_FN(cl_lagr_prod_set_constraints)(p->lg, m->con, m->conh, m->ncon);
}

/* The parameters of set \p set into \p par and into the model (each from the same decimal string). */
static int pair_params(skate_pair *p, rptr par, int set)
{
    skate_set_params(par, set);
    for (int k = 0; k < CL_SKATE_NPAR; k++) {
        if (!skate_param_name[k]) continue;
        long i = cl_model_param_index(p->m, skate_param_name[k]);
        if (i < 0) return CL_EPARAM;
        CL_FN(cl_lagr_prod_set_param)(p->lg, (size_t)i, par + k);
    }
    return CL_OK;
}

/* Up: the model's state from z, with heading \p psi and contact point (a, b, 0). */
static void model_state(rptr x, rsrc z, double psi, double a, double b)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(Rz, 9, prec); RV_DECL(Rx, 9, prec);
    R_DECL(c, prec); R_DECL(s, prec);
    r_set_d(c, psi);
    r_sin(s, c);
    r_cos(c, c);
    for (int k = 0; k < 9; k++) r_set_zero(Rz + k), r_set_zero(Rx + k);
    r_set(Rz, c), r_neg(Rz + 1, s), r_set(Rz + 3, s), r_set(Rz + 4, c), r_set_si(Rz + 8, 1);
    r_set_si(Rx, 1);
    r_set(Rx + 4, z + 8), r_neg(Rx + 5, z + 7), r_set(Rx + 7, z + 7), r_set(Rx + 8, z + 8); /* (sin φ, cos φ) = (Γ₂, Γ₃) */
    m3_mul(x, Rz, Rx);
    r_set_d(x + 9, a), r_set_d(x + 10, b), r_set_zero(x + 11);
    for (int k = 0; k < 6; k++) r_set(x + 12 + k, z + k);
}

/* Down: z from the model's state, or ż from its field (\p x the state or dx the field: Γ from the third row of R or Ṙ). */
static void reduced(rptr z, rsrc x)
{
    for (int k = 0; k < 6; k++) r_set(z + k, x + 12 + k);
    for (int k = 0; k < 3; k++) r_set(z + 6 + k, x + 6 + k);
}

/*
 * What a row compares at one draw: the model's state x (form qdot), the
 * chapter's z and ζ at it, the parameters par; \p st the status.
 */
typedef double (*skate_model_measure)(skate_pair *p, rsrc par, rsrc x, rsrc z, rsrc zeta, int *st);

/* \p measure at DRAWS random consistent states of each uncontrolled parameter set, the model's state built up from ζ. */
static int over_model_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, skate_model_measure measure)
{
    cl_rng g;
    cl_rng_seed(&g, seed);
    skate_pair p;
    cl_check_begin(res);
    int st = pair_open(&p, prec, res);
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(z, 9, prec); RV_DECL(x, NX, prec);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED && !st; s++) {
        st = pair_params(&p, par, s);
        for (int k = 0; k < DRAWS && !st; k++) {
            skate_random_zeta(zeta, &g);
            CL_FN(cl_skate_zeta_to_z)(z, zeta);
            double psi = cl_rng_range(&g, -M_PI, M_PI), a = cl_rng_normal(&g), b = cl_rng_normal(&g);
            model_state(x, z, psi, a, b);
            reduced(z, x); /* the chapter sees the model's rounded state */
            CL_FN(cl_skate_z_to_zeta)(zeta, z);
            double e = measure(&p, par, x, z, zeta, &st);
            if (!st) cl_check_worst(res, e, "parameter set %d, draw %d", s, k);
        }
    }
    pair_close(&p);
    return st;
}

/* The model's field carried down to ż = (Ω̇, Ẏ, Γ̇) against the z-form (21), relative. */
static double z_gap(skate_pair *p, rsrc par, rsrc x, rsrc z, rsrc zeta, int *st)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(dx, NX, prec); RV_DECL(a, 9, prec); RV_DECL(b, 9, prec);
    if ((*st = CL_FN(cl_lagr_prod_rhs)(p->lg, CL_LAGR_PROD_VEL, dx, x))) return NAN;
    if ((*st = CL_FN(cl_skate_rhs_z)(b, NULL, par, z))) return NAN;
    reduced(a, dx);
    return skate_log2_relerr(a, b, 9);
}

/* The model's field carried down to ζ̇ (by (33) differentiated) against the quasivelocity field (38), relative. */
static double zeta_gap(skate_pair *p, rsrc par, rsrc x, rsrc z, rsrc zeta, int *st)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(dx, NX, prec); RV_DECL(dz, 9, prec); RV_DECL(a, 5, prec); RV_DECL(b, 5, prec);
    if ((*st = CL_FN(cl_lagr_prod_rhs)(p->lg, CL_LAGR_PROD_VEL, dx, x))) return NAN;
    if ((*st = CL_FN(cl_skate_rhs_zeta)(b, par, zeta))) return NAN;
    reduced(dz, dx);
    skate_zdot_to_zetadot(a, z, dz);
    return skate_log2_relerr(a, b, 5);
}

/*
 * The model's multipliers (pitch, contact, noslip) against λ₁, λ₂, λ₃ of (21): the rates of the holonomic
 * constraints are ⟨ψ¹, ξ⟩ = (E₁×Γ)·Ω and ⟨ψ², ξ⟩ = Γ·Y, the nonholonomic one ⟨ψ³, ξ⟩ = (E₁×Γ)·Y, so
 * their rows are the ψᵃ and the multipliers the same; relative to max(1, |λ|).
 */
static double multipliers_gap(skate_pair *p, rsrc par, rsrc x, rsrc z, rsrc zeta, int *st)
{
    cl_prec_t prec = r_prec(x);
    RV_DECL(dz, 9, prec); RV_DECL(a, 3, prec); RV_DECL(b, 3, prec);
    if ((*st = CL_FN(cl_lagr_prod_multipliers)(p->lg, CL_LAGR_PROD_VEL, a, x))) return NAN;
    if ((*st = CL_FN(cl_skate_rhs_z)(dz, b, par, z))) return NAN;
    return skate_log2_relerr(a, b, 3);
}

/* The model's energy u·∂L/∂u − L against the constrained energy (30) in ζ, relative. */
static double energy_gap(skate_pair *p, rsrc par, rsrc x, rsrc z, rsrc zeta, int *st)
{
    cl_prec_t prec = r_prec(x);
    R_DECL(a, prec); R_DECL(b, prec);
    if ((*st = CL_FN(cl_lagr_prod_value)(p->lg, -1, CL_LAGR_PROD_VEL, a, x))) return NAN;
    CL_FN(cl_skate_energy_zeta)(b, par, zeta);
    return skate_log2_diff(a, b, b);
}

CL_CHECK(skate_model_skate_z, "skate.model.skate.z", .chapter = "SKATE 2-3", .tags = "[SKATE (7), (19), (21)]",
         .what = "models/skate.model (the paper's three skates) at 36 random consistent states carried up to SE(3) with a random heading and contact point: the field the engine derives from L (7) with the constraints Gamma_1 = 0, x_3 = 0 (holonomic) and no side sliding (Lagrange-d'Alembert, bordered velocity Hessian), carried down to (Omega', Y', Gamma' = third row of R'), against the z-form (21) with its multipliers (relative)",
         .cond = 1024, .why = "a 9x9 bordered solve against a 6x6 solve and a 3x3 Schur system, cond(G) about 1e3 for these inertias (as skate.forms.z_zeta)")
{
    return over_model_states(res, prec, 2140, z_gap);
}

CL_CHECK(skate_model_skate_zeta, "skate.model.skate.zeta", .chapter = "SKATE 4-5", .tags = "[SKATE (7), (33), (35), (38)]",
         .what = "models/skate.model (the paper's three skates) at 36 random states built up from the quasivelocities zeta (Omega = v1 E1 + v2 Gamma, Y = v3 E1, R = Rz(psi) Rx(phi)): the engine's field carried down by (33) differentiated against the quasivelocity field f(zeta) of (38), which has no multipliers (relative)",
         .cond = 1024, .why = "a 9x9 bordered solve with cond(G) about 1e3 against (38), which divides by I2 G2^2 + I3 G3^2 >= I3")
{
    return over_model_states(res, prec, 2141, zeta_gap);
}

CL_CHECK(skate_model_skate_multipliers, "skate.model.skate.multipliers", .chapter = "SKATE 3", .tags = "[SKATE (19), (21)]",
         .what = "models/skate.model: the multipliers of its constraints pitch, contact, noslip (rows the rates of Gamma_1 and x_3 and the no-side-sliding form) against lambda_1, lambda_2, lambda_3 of the z-form (21), 36 random states (relative to max(1, |lambda|))",
         .cond = 1024, .why = "the multipliers of a 9x9 bordered solve against a 3x3 Schur system, cond(G) about 1e3")
{
    return over_model_states(res, prec, 2142, multipliers_gap);
}

CL_CHECK(skate_model_skate_energy, "skate.model.skate.energy", .chapter = "SKATE 2, 4", .tags = "[SKATE (7), (30)]",
         .what = "models/skate.model: the energy u.dL/du - L of the model's state against the constrained energy (30) at its quasivelocities, 36 random states (relative)",
         .cond = 64, .why = "a few dozen roundings of O(1) terms, the model's through the expression engine's gradient")
{
    return over_model_states(res, prec, 2143, energy_gap);
}

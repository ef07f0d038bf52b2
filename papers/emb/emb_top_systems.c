/* The EMB tops for the command line: rigid-body and heavy-top on SO(3)
 * [EMB 3.4], their reduced forms (Pi; Pi and Gamma), invariants and
 * equilibria. The instance and the hooks of every kind are in
 * emb_inst_systems.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emb_inst_systems_impl.h"
#include "lagr_so3.h"
#include "r3.h"
#include "emb_impl.h"

#if CL_PREC == CL_MPFR
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
    emb_inst *in = emb_inst_alloc(kind, prec);
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
    return emb_inst_finish(in, st, out);
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
    if (!CL_FN(cl_rvec_is_finite)(x, emb_inst_dim(p, form))) return emb_sys_fail(err, errlen, CL_ENAN, "NaN or infinity");
    emb_inst *in = p;
    if (form == 3) return in->kind == K_RIGID ? CL_OK : cl_sys_unit_vector(x + 3, 3, "Gamma", err, errlen);
    double defect;
    int st = CL_FN(cl_lagr_so3_project_state)(form, x, CL_SYS_UNIT_TOL_LOG2, &defect);
    if (st == CL_EDOMAIN && defect == INFINITY) return emb_sys_fail(err, errlen, CL_EDOMAIN, "R must have determinant +1");
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
    size_t n = emb_inst_dim(in, 3);
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

/* The invariants of a top in any form: the state carried to (R, Omega) (in
 * the reduced form, as top_reduced_invariants says). */
static int top_invariants(void *p, int form, mpfr_ptr out, mpfr_srcptr x)
{
    emb_inst *in = p;
    rptr s = in->tmp + 16;
    if (form == 3) return top_reduced_invariants(in, out, x);
    int st = top_convert(p, form, x, 0, s);
    if (st) return st;
    CL_FN(cl_emb_top_invariants)(in->top, out, s, s + 9);
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
    .destroy = emb_inst_destroy, .dim = emb_inst_dim, .check_state = top_check, .rhs = top_rhs,              \
    .invariant_names = top_invariant_names, .invariants = top_invariants, .convert = top_convert,            \
    .random_state = top_random, .component_name = emb_inst_component_name, .equilibrium = top_equilibrium

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

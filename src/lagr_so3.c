/*
 * A general Lagrangian on SO(3) written as a formula (lagr_so3.h). The
 * configuration is the rotation R, the velocity the body angular velocity
 * Ω = (RᵀṘ)^∨, and the equations of motion are the reduced Euler–Poincaré
 * equations of the rigid body of [EMB §3.4], d/dt ∂L/∂Ω = ∂L/∂Ω × Ω + τ,
 * with the torque τ of the configuration dependence read off the exact
 * gradient of L in the nine entries of R, and Ω̇ solved with the exact
 * velocity Hessian L_ΩΩ from the expression engine. The other forms of the
 * heavy top's chapter, (R, Ṙ) and the embedded momentum (R, μ) of [EMB 2.4],
 * follow from the kinematics Ṙ = RΩ̂ and the Legendre map μ = ½R(∂L/∂Ω)^.
 */
#include "lagr_so3.h"
#include "lagr_core_impl.h"
#include "linalg.h"
#include "r3.h"

struct CL_FN(cl_lagr_so3) {
    CL_FN(cl_lagr_core) core; /* inputs R (9), Ω (3), parameters; M = L_ΩΩ */
    rptr R, W, Rd, Wd, tau; /* the current state (R, Ω), Ṙ = RΩ̂, Ω̇, τ */
};

int CL_FN(cl_lagr_so3_new)(CL_FN(cl_lagr_so3) **out, const cl_expr_dag *g, int L, size_t nparam, cl_prec_t prec)
{
    *out = NULL;
    cl_lagr_layout lay = {.nq = 9, .nv = 3, .nparam = nparam};
    CL_FN(cl_lagr_core) *c;
    int st = CL_FN(cl_lagr_core_new)(&c, sizeof(CL_FN(cl_lagr_so3)), g, L, &lay, 9 + 3 + 9 + 3 + 3, prec);
    if (st) return st;
    CL_FN(cl_lagr_so3) *lg = (CL_FN(cl_lagr_so3) *)c;
    rptr p = lg->core.scratch;
    lg->R = p; p += 9;
    lg->W = p; p += 3;
    lg->Rd = p; p += 9;
    RV_CARVE(p, 3, &lg->Wd, &lg->tau);
    *out = lg;
    return CL_OK;
}

void CL_FN(cl_lagr_so3_free)(CL_FN(cl_lagr_so3) *lg) { CL_FN(cl_lagr_core_free)(lg ? &lg->core : NULL); }

void CL_FN(cl_lagr_so3_set_param)(CL_FN(cl_lagr_so3) *lg, size_t k, rsrc v) { CL_FN(cl_lagr_core_set_param)(&lg->core, k, v); }

int CL_FN(cl_lagr_so3_bad_node)(const CL_FN(cl_lagr_so3) *lg) { return lg->core.bad; }

size_t CL_FN(cl_lagr_so3_dim)(int form)
{
    return form == CL_LAGR_SO3_ROMEGA ? 12 : form == CL_LAGR_SO3_RRDOT || form == CL_LAGR_SO3_RMU ? 18 : 0;
}

/* v = (½(M − Mᵀ))^∨ for a row-major 3×3 M (\p half = 1), or (M − Mᵀ)^∨ (half = 0). */
static void vee_skew(rptr v, rsrc M, int half)
{
    m3_vee_skew2(v, M);
    if (half)
        for (int i = 0; i < 3; i++) r_mul_2si(v + i, v + i, -1);
}

/* grad, the Ω rows of the Hessian and L_ΩΩ factored, at (lg->R, lg->W); Π = ∂L/∂Ω is then c->grad + 9. */
static int derivs(CL_FN(cl_lagr_so3) *lg)
{
    int st = CL_FN(cl_lagr_core_derivs)(&lg->core, lg->R, lg->W);
    return st ? st : CL_FN(cl_lagr_core_factor)(&lg->core);
}

/* Ṙ = RΩ̂ and τ = (RᵀL_R − L_RᵀR)^∨ into lg->Rd, lg->tau, from the gradient. */
static void rates(CL_FN(cl_lagr_so3) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    RV_DECL(M, 9, c->prec);
    m3_hat(M, lg->W);
    m3_mul(lg->Rd, lg->R, M);
    m3_transpose(M, lg->R);
    m3_mul(M, M, c->grad);
    vee_skew(lg->tau, M, 0);
}

/* Ṙ, τ and Ω̇ into lg->Rd, lg->tau, lg->Wd, after derivs(). */
static int accel(CL_FN(cl_lagr_so3) *lg)
{
    CL_FN(cl_lagr_core) *c = &lg->core;
    rates(lg);
    /* L_ΩΩ Ω̇ = Π × Ω + τ − L_ΩR Ṙ */
    v3_cross(lg->Wd, c->grad + 9, lg->W);
    v3_add(lg->Wd, lg->Wd, lg->tau);
    CL_FN(cl_lagr_core_sub_mixed)(c, lg->Wd, lg->Rd);
    return CL_FN(cl_lu_solve)(c->M, c->perm, lg->Wd, 3, 1);
}

int CL_FN(cl_lagr_so3_omegadot)(CL_FN(cl_lagr_so3) *lg, rptr Wdot, rsrc R, rsrc W)
{
    CL_FN(cl_rvec_copy)(lg->R, R, 9);
    v3_set(lg->W, W);
    int st = derivs(lg);
    if (!st) st = accel(lg);
    if (!st) v3_set(Wdot, lg->Wd);
    return st;
}

/* (R, Ω) into lg->R, lg->W from a state of form \p form. */
static int to_omega(CL_FN(cl_lagr_so3) *lg, int form, rsrc x)
{
    RV_DECL(M, 9, lg->core.prec);
    CL_FN(cl_rvec_copy)(lg->R, x, 9);
    switch (form) {
    case CL_LAGR_SO3_ROMEGA: v3_set(lg->W, x + 9); return CL_OK;
    case CL_LAGR_SO3_RRDOT:
        m3_transpose(M, x);
        m3_mul(M, M, x + 9);
        vee_skew(lg->W, M, 1);
        return CL_OK;
    case CL_LAGR_SO3_RMU: {
        RV_DECL(Pi, 3, lg->core.prec);
        m3_transpose(M, x);
        m3_mul(M, M, x + 9); /* Rᵀμ; (Rᵀμ − μᵀR)^∨ = (M − Mᵀ)^∨ */
        vee_skew(Pi, M, 0);
        /* ∂L/∂Ω(R, Ω) = Π by Newton's method with the velocity Hessian L_ΩΩ */
        return CL_FN(cl_lagr_core_legendre_inverse)(&lg->core, lg->W, lg->R, Pi);
    }
    default: return CL_EDIM;
    }
}

/* V = ½ R Π̂ */
static void momentum(rptr V, rsrc R, rsrc Pi)
{
    RV_DECL(M, 9, r_prec(V));
    m3_hat(M, Pi);
    m3_mul(V, R, M);
    for (int k = 0; k < 9; k++) r_mul_2si(V + k, V + k, -1);
}

int CL_FN(cl_lagr_so3_rhs)(CL_FN(cl_lagr_so3) *lg, int form, rptr dx, rsrc x)
{
    int st = to_omega(lg, form, x);
    if (!st && form == CL_LAGR_SO3_RMU) { /* μ̇ needs Ṙ, Π and τ only: the gradient */
        st = CL_FN(cl_lagr_core_gradient)(&lg->core, lg->R, lg->W);
        if (!st) rates(lg);
    } else {
        if (!st) st = derivs(lg);
        if (!st) st = accel(lg);
    }
    if (st) return st;
    cl_prec_t prec = lg->core.prec;
    rsrc Pi = lg->core.grad + 9;
    RV_DECL(M, 9, prec);
    RV_DECL(N, 9, prec);
    switch (form) {
    case CL_LAGR_SO3_ROMEGA:
        CL_FN(cl_rvec_copy)(dx, lg->Rd, 9);
        v3_set(dx + 9, lg->Wd);
        return CL_OK;
    case CL_LAGR_SO3_RRDOT: /* R̈ = R(Ω̂² + (Ω̇)^) */
        CL_FN(cl_rvec_copy)(dx, lg->Rd, 9);
        m3_hat(M, lg->W);
        m3_mul(M, M, M);
        m3_hat(N, lg->Wd);
        for (int k = 0; k < 9; k++) r_add(M + k, M + k, N + k);
        m3_mul(dx + 9, lg->R, M);
        return CL_OK;
    default: { /* μ̇ = ½(Ṙ Π̂ + R (Π × Ω + τ)^) */
        RV_DECL(Pid, 3, prec);
        CL_FN(cl_rvec_copy)(dx, lg->Rd, 9);
        v3_cross(Pid, Pi, lg->W);
        v3_add(Pid, Pid, lg->tau);
        momentum(M, lg->Rd, Pi);
        momentum(N, lg->R, Pid);
        for (int k = 0; k < 9; k++) r_add(dx + 9 + k, M + k, N + k);
        return CL_OK;
    }
    }
}

int CL_FN(cl_lagr_so3_convert)(CL_FN(cl_lagr_so3) *lg, int from, rsrc x, int to, rptr y)
{
    if (!CL_FN(cl_lagr_so3_dim)(to)) return CL_EDIM;
    int st = to_omega(lg, from, x);
    if (st) return st;
    CL_FN(cl_rvec_copy)(y, lg->R, 9);
    RV_DECL(M, 9, lg->core.prec);
    switch (to) {
    case CL_LAGR_SO3_ROMEGA: v3_set(y + 9, lg->W); return CL_OK;
    case CL_LAGR_SO3_RRDOT:
        m3_hat(M, lg->W);
        m3_mul(y + 9, lg->R, M);
        return CL_OK;
    default:
        st = CL_FN(cl_lagr_core_gradient)(&lg->core, lg->R, lg->W);
        if (!st) momentum(y + 9, lg->R, lg->core.grad + 9);
        return st;
    }
}

int CL_FN(cl_lagr_so3_value)(CL_FN(cl_lagr_so3) *lg, int id, int form, rptr out, rsrc x)
{
    int st = to_omega(lg, form, x);
    return st ? st : CL_FN(cl_lagr_core_value)(&lg->core, id, out, lg->R, lg->W);
}

/* d = det R = r₀ · (r₁ × r₂) for the rows rᵢ. */
static void det3(rptr d, rsrc R)
{
    RV_DECL(c, 3, r_prec(d));
    v3_cross(c, R + 3, R + 6);
    v3_dot(d, R, c);
}

int CL_FN(cl_lagr_so3_project_state)(int form, rptr x, double tol_log2, double *defect)
{
    size_t dim = CL_FN(cl_lagr_so3_dim)(form);
    *defect = -INFINITY;
    if (!dim) return CL_EDIM;
    if (!(tol_log2 < 0)) return CL_EPARAM; /* Newton–Schulz contracts only for |RᵀR − I| < 1 */
    if (!CL_FN(cl_rvec_is_finite)(x, dim)) return CL_ENAN;
    cl_prec_t prec = r_prec(x);
    rptr R = x, V = x + 9;
    RV_DECL(T, 9, prec);
    RV_DECL(S, 9, prec);
    R_DECL(d, prec);
    m3_transpose(T, R);
    m3_mul(T, T, R);
    r_set_si(d, 1);
    for (int i = 0; i < 3; i++) r_sub(T + 4 * i, T + 4 * i, d);
    *defect = CL_FN(cl_rvec_log2_maxabs)(T, 9);
    if (*defect > tol_log2) return CL_EDOMAIN;
    det3(d, R);
    if (r_sgn(d) <= 0) {
        *defect = INFINITY;
        return CL_EDOMAIN;
    }
    for (double bits = -*defect; bits < 2.0 * (double)prec + 80; bits *= 2) {
        m3_transpose(T, R);
        m3_mul(T, T, R);
        for (int i = 0; i < 9; i++) {
            r_neg(T + i, T + i);
            if (i % 4 == 0) r_add_si(T + i, T + i, 3);
            r_mul_2si(T + i, T + i, -1);
        }
        m3_mul(R, R, T);
    }
    *defect = -INFINITY;
    if (form == CL_LAGR_SO3_ROMEGA) return CL_OK;
    /* S = RᵀV; its symmetric part T must vanish */
    m3_transpose(T, R);
    m3_mul(S, T, V);
    m3_transpose(T, S);
    for (int i = 0; i < 9; i++) r_add(T + i, T + i, S + i);
    double sc = CL_FN(cl_rvec_log2_maxabs)(V, 9), sym = CL_FN(cl_rvec_log2_maxabs)(T, 9) - 1;
    if (sym > tol_log2 + (sc > 0 ? sc : 0)) {
        *defect = sym;
        return CL_ENOTTANGENT;
    }
    for (int i = 0; i < 9; i++) { /* S − T/2: the skew part */
        r_mul_2si(T + i, T + i, -1);
        r_sub(S + i, S + i, T + i);
    }
    m3_mul(V, R, S);
    return CL_OK;
}

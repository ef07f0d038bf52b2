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
#include <stdlib.h>
#include "lagr_so3.h"
#include "linalg.h"
#include "r3.h"

#define NS CL_LAGR_SO3_NSTATE

struct CL_FN(cl_lagr_so3) {
    const cl_expr_dag *g;
    int L;
    size_t nparam;
    cl_prec_t prec;
    CL_FN(cl_expr_eval) *ev;
    rptr block;
    rptr in;   /* R, Ω, parameters */
    rptr grad; /* ∂L/∂R (9), ∂L/∂Ω (3) */
    rptr H;    /* rows ∂²L/∂Ω_a∂x_b, 3 × 12 */
    rptr A;    /* L_ΩΩ, factored */
    rptr R, W, Rd, Wd, tau, Pi; /* the current state (R, Ω), Ṙ = RΩ̂, Ω̇, τ, Π */
    int perm[3];
    int bad;
};

CL_FN(cl_lagr_so3) *CL_FN(cl_lagr_so3_new)(const cl_expr_dag *g, int L, size_t nparam, cl_prec_t prec)
{
    if (L < 0 || (size_t)L >= cl_expr_dag_size(g)) return NULL;
    CL_FN(cl_lagr_so3) *lg = calloc(1, sizeof *lg);
    if (!lg) return NULL;
    lg->g = g;
    lg->L = L;
    lg->nparam = nparam;
    lg->prec = prec;
    lg->bad = -1;
    lg->ev = CL_FN(cl_expr_eval_new)(g, prec);
    lg->block = CL_FN(cl_rvec_new)(NS + nparam + NS + 3 * NS + 9 + 9 + 3 + 9 + 3 + 3 + 3, prec);
    if (!lg->ev || !lg->block) {
        CL_FN(cl_lagr_so3_free)(lg);
        return NULL;
    }
    rptr p = lg->block;
    lg->in = p; p += NS + nparam;
    lg->grad = p; p += NS;
    lg->H = p; p += 3 * NS;
    lg->A = p; p += 9;
    lg->R = p; p += 9;
    lg->W = p; p += 3;
    lg->Rd = p; p += 9;
    RV_CARVE(p, 3, &lg->Wd, &lg->tau, &lg->Pi);
    return lg;
}

void CL_FN(cl_lagr_so3_free)(CL_FN(cl_lagr_so3) *lg)
{
    if (!lg) return;
    CL_FN(cl_expr_eval_free)(lg->ev);
    CL_FN(cl_rvec_free)(lg->block);
    free(lg);
}

void CL_FN(cl_lagr_so3_set_param)(CL_FN(cl_lagr_so3) *lg, size_t k, rsrc v)
{
    if (k < lg->nparam) r_set(lg->in + NS + k, v);
}

int CL_FN(cl_lagr_so3_bad_node)(const CL_FN(cl_lagr_so3) *lg) { return lg->bad; }

size_t CL_FN(cl_lagr_so3_dim)(int form)
{
    return form == CL_LAGR_SO3_ROMEGA ? 12 : form == CL_LAGR_SO3_RRDOT || form == CL_LAGR_SO3_RMU ? 18 : 0;
}

/* v = (½(M − Mᵀ))^∨ for a row-major 3×3 M (\p half = 1), or (M − Mᵀ)^∨ (half = 0). */
static void vee_skew(rptr v, rsrc M, int half)
{
    r_sub(v, M + 7, M + 5);
    r_sub(v + 1, M + 2, M + 6);
    r_sub(v + 2, M + 3, M + 1);
    if (half)
        for (int i = 0; i < 3; i++) r_mul_2si(v + i, v + i, -1);
}

/* Run the graph at (lg->R, lg->W) up to node \p upto (order 0: values, 2: local partials). */
static int run(CL_FN(cl_lagr_so3) *lg, int upto, int order)
{
    CL_FN(cl_rvec_copy)(lg->in, lg->R, 9);
    CL_FN(cl_rvec_copy)(lg->in + 9, lg->W, 3);
    int st = CL_FN(cl_expr_eval_run)(lg->ev, lg->in, upto, order);
    lg->bad = st ? CL_FN(cl_expr_eval_bad)(lg->ev) : -1;
    return st;
}

/* grad, the Ω rows of the Hessian, Π = ∂L/∂Ω and L_ΩΩ factored, at (lg->R, lg->W). */
static int derivs(CL_FN(cl_lagr_so3) *lg)
{
    int st = run(lg, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_hessian)(lg->ev, lg->L, lg->grad, lg->H, NS, 9);
    v3_set(lg->Pi, lg->grad + 9);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) r_set(lg->A + 3 * a + b, lg->H + a * NS + 9 + b);
    return CL_FN(cl_lu_factor)(lg->A, lg->perm, 3);
}

/* Ṙ, τ and Ω̇ into lg->Rd, lg->tau, lg->Wd, after derivs(). */
static int accel(CL_FN(cl_lagr_so3) *lg)
{
    RV_DECL(M, 9, lg->prec);
    m3_hat(M, lg->W);
    m3_mul(lg->Rd, lg->R, M);
    /* τ = (RᵀL_R − L_RᵀR)^∨ */
    m3_transpose(M, lg->R);
    m3_mul(M, M, lg->grad);
    vee_skew(lg->tau, M, 0);
    /* L_ΩΩ Ω̇ = Π × Ω + τ − L_ΩR Ṙ */
    v3_cross(lg->Wd, lg->Pi, lg->W);
    v3_add(lg->Wd, lg->Wd, lg->tau);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 9; b++) r_submul(lg->Wd + a, lg->H + a * NS + b, lg->Rd + b);
    return CL_FN(cl_lu_solve)(lg->A, lg->perm, lg->Wd, 3, 1);
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

#define NEWTON_MAXIT 64

/*
 * Ω (into lg->W) with ∂L/∂Ω(R, Ω) = Π, by Newton's method from Ω = 0 with
 * the velocity Hessian L_ΩΩ. Once a step is below 2^(−p/2)‖Ω‖ the next
 * error is of the order of its square, so that step is the last; a
 * quadratic L converges in one step and confirms in a second.
 */
static int legendre_inverse(CL_FN(cl_lagr_so3) *lg, rsrc Pi)
{
    RV_DECL(c, 3, lg->prec);
    v3_zero(lg->W);
    for (int it = 0; it < NEWTON_MAXIT; it++) {
        int st = derivs(lg);
        if (st) return st;
        v3_sub(c, Pi, lg->Pi);
        st = CL_FN(cl_lu_solve)(lg->A, lg->perm, c, 3, 1);
        if (st) return st;
        v3_add(lg->W, lg->W, c);
        double step = CL_FN(cl_rvec_log2_maxabs)(c, 3), size = CL_FN(cl_rvec_log2_maxabs)(lg->W, 3);
        if (step == -INFINITY || step <= size - 0.5 * (double)r_prec(c)) return CL_OK;
    }
    return CL_ENOCONV;
}

/* (R, Ω) into lg->R, lg->W from a state of form \p form. */
static int to_omega(CL_FN(cl_lagr_so3) *lg, int form, rsrc x)
{
    RV_DECL(M, 9, lg->prec);
    CL_FN(cl_rvec_copy)(lg->R, x, 9);
    switch (form) {
    case CL_LAGR_SO3_ROMEGA: v3_set(lg->W, x + 9); return CL_OK;
    case CL_LAGR_SO3_RRDOT:
        m3_transpose(M, x);
        m3_mul(M, M, x + 9);
        vee_skew(lg->W, M, 1);
        return CL_OK;
    case CL_LAGR_SO3_RMU: {
        RV_DECL(Pi, 3, lg->prec);
        m3_transpose(M, x);
        m3_mul(M, M, x + 9); /* Rᵀμ; (Rᵀμ − μᵀR)^∨ = (M − Mᵀ)^∨ */
        vee_skew(Pi, M, 0);
        return legendre_inverse(lg, Pi);
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
    if (!st) st = derivs(lg);
    if (!st) st = accel(lg);
    if (st) return st;
    RV_DECL(M, 9, lg->prec);
    RV_DECL(N, 9, lg->prec);
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
        RV_DECL(Pid, 3, lg->prec);
        CL_FN(cl_rvec_copy)(dx, lg->Rd, 9);
        v3_cross(Pid, lg->Pi, lg->W);
        v3_add(Pid, Pid, lg->tau);
        momentum(M, lg->Rd, lg->Pi);
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
    RV_DECL(M, 9, lg->prec);
    switch (to) {
    case CL_LAGR_SO3_ROMEGA: v3_set(y + 9, lg->W); return CL_OK;
    case CL_LAGR_SO3_RRDOT:
        m3_hat(M, lg->W);
        m3_mul(y + 9, lg->R, M);
        return CL_OK;
    default:
        st = run(lg, lg->L, 2);
        if (st) return st;
        CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, NS);
        momentum(y + 9, lg->R, lg->grad + 9);
        return CL_OK;
    }
}

int CL_FN(cl_lagr_so3_value)(CL_FN(cl_lagr_so3) *lg, int id, int form, rptr out, rsrc x)
{
    int st = to_omega(lg, form, x);
    if (st) return st;
    if (id >= 0) {
        st = run(lg, id, 0);
        if (!st) r_set(out, CL_FN(cl_expr_eval_value)(lg->ev, id));
        return st;
    }
    st = run(lg, lg->L, 2);
    if (st) return st;
    CL_FN(cl_expr_eval_gradient)(lg->ev, lg->L, lg->grad, NS);
    r_neg(out, CL_FN(cl_expr_eval_value)(lg->ev, lg->L));
    for (int a = 0; a < 3; a++) r_addmul(out, lg->W + a, lg->grad + 9 + a);
    return CL_OK;
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

/*
 * MODEL.el of a model that is a system (S¹, Rᵏ, S², SO(3) and SE(3)
 * factors in any product; not a Hamiltonian model): the field of the first
 * form put back into each factor's own Euler–Lagrange equations, evaluated
 * by an evaluator of its own (the gradient and the velocity rows of the
 * Hessian of L, one sweep each). With u the velocities and
 * D = L_uu u̇ + L_uq q̇ (+ L_ut) = d/dt ∂L/∂u along the field:
 *
 *   S¹, Rᵏ  D − ∂L/∂x − F = 0                                  (Euler–Lagrange)
 *   S²      (I − qqᵀ)(D − ∂L/∂q − F) = 0 and q·q̈ + |q̇|² = 0    [EMB (2.8)]
 *   SO(3)   D − ∂L/∂Ω × Ω − Σ_a ℓ_a × ρ_a − T = 0             (Euler–Poincaré [EMB 3.4];
 *           ρ_a, ℓ_a the rows a of R and of ∂L/∂R: the torque (RᵀL_R − L_RᵀR)^∨ written by rows)
 *   SE(3)   the SO(3) rows with + ∂L/∂V × V, and D_V − ∂L/∂V × Ω − Rᵀ(∂L/∂x + F) = 0
 *
 * minus Aᵀλ with constraints (A = ∂c/∂u, λ the system's multipliers), and
 * the kinematics of the field: q̇ = u (S¹, Rᵏ, S²), the rows of Ṙ are
 * ρ_a × Ω (Ṙ = RΩ̂), ẋ = RV. The table is model_rows.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "lagr_prod.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"
#include "r3.h"

#if CL_T == CL_MPFR

/* The evaluation of one state: L's gradient (nin) and velocity rows of its Hessian (nv·nin). */
typedef struct el_eval {
    const cl_model *m;
    size_t nq, nv, nin; /* nin: the differentiated inputs (q, u, and t for the product engine) */
    mpfr_ptr grad, H, G, D, lam, w;
} el_eval;

/* The right side G of the factor \p f's velocity rows (its kind's general forces), from L's gradient. */
static void el_general(el_eval *e, const cl_model_factor *f, mpfr_srcptr x)
{
    size_t q = f->q, v = e->nq + f->v;
    mpfr_srcptr Lq = e->grad + q, Lu = e->grad + v, u = x + v;
    mpfr_ptr G = e->G + f->v, t = e->w;
    if (f->kind != CL_LAGR_SO3 && f->kind != CL_LAGR_SE3) {
        size_t k = f->kind == CL_LAGR_S1 ? 1 : f->kind == CL_LAGR_S2 ? 3 : (size_t)f->k;
        for (size_t a = 0; a < k; a++) mpfr_set(G + a, Lq + a, MPFR_RNDN);
        return;
    }
    cl_v3_cross_mp(G, Lu, u);
    for (int a = 0; a < 3; a++) { /* Σ_a ℓ_a × ρ_a */
        cl_v3_cross_mp(t, Lq + 3 * a, x + q + 3 * a);
        for (int c = 0; c < 3; c++) mpfr_add(G + c, G + c, t + c, MPFR_RNDN);
    }
    if (f->kind == CL_LAGR_SO3) return;
    cl_v3_cross_mp(t, Lu + 3, u + 3);
    for (int c = 0; c < 3; c++) mpfr_add(G + c, G + c, t + c, MPFR_RNDN);
    cl_v3_cross_mp(G + 3, Lu + 3, u);
    for (int c = 0; c < 3; c++) /* + Rᵀ ∂L/∂x: column c of R */
        for (int a = 0; a < 3; a++) mpfr_fma(G + 3 + c, x + q + 3 * a + c, Lq + 9 + a, G + 3 + c, MPFR_RNDN);
}

/* The forces on the velocity rows (an SE(3) position's in space, entering as RᵀF). */
static void el_forces(el_eval *e, CL_FN(cl_expr_eval) *ev, mpfr_srcptr x)
{
    const cl_model *m = e->m;
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        size_t nvf = i + 1 < m->nfac ? m->fac[i + 1].v - f->v : e->nv - f->v;
        for (size_t a = 0; a < nvf; a++) {
            int id = m->force[f->v + a];
            if (id < 0) continue;
            mpfr_srcptr F = CL_FN(cl_expr_eval_value)(ev, id);
            if (f->kind == CL_LAGR_SE3 && a >= 3) /* column a − 3 of R against F's component: (RᵀF)_c = Σ_b R_bc F_b */
                for (int c = 0; c < 3; c++) mpfr_fma(e->G + f->v + 3 + c, x + f->q + 3 * (a - 3) + c, F, e->G + f->v + 3 + c, MPFR_RNDN);
            else mpfr_add(e->G + f->v + a, e->G + f->v + a, F, MPFR_RNDN);
        }
    }
}

/* The kinematics of the field: q̇ of it against the rate of u, relative; on S² also the normal row. */
static double el_kinematics(el_eval *e, mpfr_srcptr x, mpfr_srcptr dx)
{
    const cl_model *m = e->m;
    mpfr_ptr rate = e->w + 3, t = e->w;
    double worst = -INFINITY, s = cl_rvec_log2_maxabs_mp(dx, e->nq);
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        size_t q = f->q, v = e->nq + f->v, k = f->kind == CL_LAGR_S1 ? 1 : f->kind == CL_LAGR_RK ? (size_t)f->k : 3;
        if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            for (int a = 0; a < 3; a++) cl_v3_cross_mp(rate + 3 * a, x + q + 3 * a, x + v);
            for (int c = 0; c < 3 * (f->kind == CL_LAGR_SE3); c++) { /* ẋ = RV */
                mpfr_set_zero(rate + 9 + c, 1);
                for (int b = 0; b < 3; b++) mpfr_fma(rate + 9 + c, x + q + 3 * c + b, x + v + 3 + b, rate + 9 + c, MPFR_RNDN);
            }
            k = f->kind == CL_LAGR_SE3 ? 12 : 9;
        } else cl_rvec_copy_mp(rate, x + v, k);
        worst = fmax(worst, rows_rel(dx + q, rate, k, s));
        if (f->kind == CL_LAGR_S2) { /* q·q̈ + |q̇|² = 0 */
            cl_v3_dot_mp(t, x + q, dx + v);
            cl_v3_dot_mp(t + 1, x + v, x + v);
            mpfr_add(t, t, t + 1, MPFR_RNDN);
            worst = fmax(worst, r_log2abs(t) - fmax(0, r_log2abs(t + 1)));
        }
    }
    return worst;
}

/* The velocity rows' residual D − G − F − Aᵀλ (S² rows projected), relative to max(|D|, |G|). */
static double el_residual(el_eval *e, CL_FN(cl_expr_eval) *ev, mpfr_srcptr x, mpfr_srcptr dx)
{
    const cl_model *m = e->m;
    size_t nq = e->nq, nv = e->nv, nin = e->nin;
    for (size_t j = 0; j < nv; j++) { /* D_j = Σ_b L_{u_j u_b} u̇_b + Σ_a L_{u_j q_a} q̇_a (+ L_{u_j t}) */
        mpfr_srcptr row = e->H + j * nin;
        mpfr_ptr D = e->D + j;
        if (nin > nq + nv) mpfr_set(D, row + nq + nv, MPFR_RNDN);
        else mpfr_set_zero(D, 1);
        for (size_t a = 0; a < nq + nv; a++) mpfr_fma(D, row + a, dx + a, D, MPFR_RNDN);
    }
    for (size_t i = 0; i < m->nfac; i++) el_general(e, m->fac + i, x);
    if (m->force) el_forces(e, ev, x);
    for (size_t k = 0; k < m->ncon; k++) { /* + Aᵀλ */
        CL_FN(cl_expr_eval_gradient)(ev, m->con[k], e->w, (int)nin);
        for (size_t j = 0; j < nv; j++) mpfr_fma(e->G + j, e->w + nq + j, e->lam + k, e->G + j, MPFR_RNDN);
    }
    double scale = fmax(fmax(cl_rvec_log2_maxabs_mp(e->D, nv), cl_rvec_log2_maxabs_mp(e->G, nv)), -20);
    for (size_t j = 0; j < nv; j++) mpfr_sub(e->D + j, e->D + j, e->G + j, MPFR_RNDN);
    for (size_t i = 0; i < m->nfac; i++) /* the multiplier of |q| = 1 is normal: (I − qqᵀ) */
        if (m->fac[i].kind == CL_LAGR_S2) cl_v3_proj_tangent_mp(e->D + m->fac[i].v, x + m->fac[i].q, e->D + m->fac[i].v);
    return cl_rvec_log2_maxabs_mp(e->D, nv) - scale;
}

static int el_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t Dn, int nf, int draw)
{
    const cl_model *m = cl_model_oracle_model();
    cl_prec_t prec = mpfr_get_prec(x);
    size_t nq = m->nq, nv = m->nv, nin = nq + nv + (size_t)(m->prod != 0), nx = nin + m->nparam;
    (void)rg, (void)nf, (void)Dn;
    el_eval e = {.m = m, .nq = nq, .nv = nv, .nin = nin};
    mpfr_ptr in = cl_rvec_new_mp(nx + nin + (nin - nq) * nin + 2 * nv + m->ncon + nin + 15, prec);
    CL_FN(cl_expr_eval) *ev;
    int st = CL_FN(cl_expr_eval_new)(&ev, m->g, prec);
    if (!st && !in) st = CL_ENOMEM;
    if (!st) {
        e.grad = in + nx, e.H = e.grad + nin, e.G = e.H + (nin - nq) * nin, e.D = e.G + nv, e.lam = e.D + nv, e.w = e.lam + m->ncon;
        mpfr_ptr dx = w;
        cl_rvec_copy_mp(in, x, nq + nv); /* t = 0 (the draw's time; an input of the product engine's L), then the parameters */
        mpfr_set_zero(in + nq + nv, 1);
        st = cl_model_param_values_mp(m, in + nin);
        if (!st && m->prod && r->s->set_time) st = r->s->set_time(r->inst, in + nq + nv);
        if (!st) st = r->s->rhs(r->inst, 0, dx, x);
        if (!st && m->ncon) st = r->s->multipliers(r->inst, 0, e.lam, x);
        int upto = m->L;
        for (size_t a = 0; m->force && a < nv; a++) upto = m->force[a] > upto ? m->force[a] : upto;
        for (size_t k = 0; k < m->ncon; k++) upto = m->con[k] > upto ? m->con[k] : upto;
        if (!st) st = CL_FN(cl_expr_eval_run)(ev, in, upto, 2);
        if (!st) {
            CL_FN(cl_expr_eval_hessian)(ev, m->L, e.grad, e.H, (int)nin, (int)nq);
            cl_check_worst(res, el_residual(&e, ev, x, dx), "draw %d: the Euler-Lagrange (Euler-Poincare on SO3, SE3) residual", draw);
            cl_check_worst(res, el_kinematics(&e, x, dx), "draw %d: the kinematics of the field", draw);
        }
    }
    CL_FN(cl_expr_eval_free)(ev);
    cl_rvec_free_mp(in);
    return st;
}

int cl_model_ext_row_el(cl_check_result *res, cl_prec_t prec)
{
    return cl_model_ext_over_states(res, prec, 7103, cl_model_rows_draws(CL_MODEL_ROWS_DRAWS), 1, 0, el_gap);
}
#endif

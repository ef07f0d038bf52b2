/* Oracle checks of [EMB §3.4]: the projection (3.7), the rigid body and the
 * heavy top through (3.8), through the general (2.3) and (2.7)–(2.8) on
 * R^{3×3}, and through Euler's equation; invariants, the Lie group
 * integrator, and the stability of steady rotations. States are drawn as
 * doubles and are the same at every precision. */
#include <stdio.h>
#include "emb_fixtures_impl.h"
#include "emb_so3.h"
#include "r3.h"
#include "deriv.h"
#include "linalg.h"
#include "energy_casimir.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

#define NSTATES 12

static void random_rotation(rptr R, cl_rng *g)
{
    RV_DECL(th, 3, r_prec(R));
    emb_random_vec(th, 3, 2.0, g);
    CL_FN(cl_emb_so3_exp)(R, th);
}

/* Principal moments (1, 2, 7/2) in a rotated frame Q: J = Q diag Qᵀ. */
static void test_inertia(rptr J, rptr Q, rptr diag, cl_rng *g)
{
    cl_prec_t p = r_prec(J);
    RV_DECL(D, 9, p); RV_DECL(T, 9, p);
    r_set_si(diag, 1); r_set_si(diag + 1, 2); r_set_q(diag + 2, 7, 2);
    for (int i = 0; i < 3; i++) r_set(D + 4 * i, diag + i);
    random_rotation(Q, g);
    m3_mul(J, Q, D);
    m3_transpose(T, Q);
    m3_mul(J, J, T);
}

/* rigid = 1: free body; else heavy top with m = 3/2, g = 9.81, ρ = (0.1, −0.2, 0.6). */
static int make_top(CL_FN(cl_emb_top) **t, int rigid, cl_prec_t prec, cl_rng *g)
{
    RV_DECL(J, 9, prec); RV_DECL(Q, 9, prec); RV_DECL(d, 3, prec); RV_DECL(rho, 3, prec);
    R_DECL(m, prec); R_DECL(gg, prec);
    test_inertia(J, Q, d, g);
    if (rigid) return CL_FN(cl_emb_rigid_new)(t, J);
    r_set_q(m, 3, 2);
    CL_FN(cl_real_from_str)(gg, "9.81");
    CL_FN(cl_real_from_str)(rho, "0.1");
    CL_FN(cl_real_from_str)(rho + 1, "-0.2");
    CL_FN(cl_real_from_str)(rho + 2, "0.6");
    return CL_FN(cl_emb_heavy_top_new)(t, J, m, gg, rho);
}

/* make_top() with its model and a workspace. */
static int open_top(emb_fixture *f, int rigid, cl_prec_t prec, cl_rng *g)
{
    *f = (emb_fixture){0};
    int st = make_top(&f->top, rigid, prec, g);
    if (!st) st = emb_fixture_model(f, prec);
    if (st) emb_fixture_close(f);
    return st;
}

/* What a row compares at one state (R, Ω) of a free body (rigid) or heavy
 * top f; R and Ω are its own to overwrite. 0, or an error that ends the row. */
typedef int (*top_row)(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec);

enum { FREE_BODY = 1, HEAVY_TOP = 2, BOTH_TOPS = FREE_BODY | HEAVY_TOP };

/* A row over the tops of `which` (the free body first; each from open_top()
 * on the generator seeded by seed) at nstates states each: a random R and Ω
 * of entries ~spin. */
static int top_rows(cl_check_result *res, cl_prec_t prec, uint64_t seed, int which, int nstates, double spin, top_row row)
{
    cl_rng g = emb_rng(seed);
    RV_DECL(R, 9, prec); RV_DECL(Om, 3, prec);
    cl_check_begin(res);
    int st = CL_OK;
    for (int rigid = 1; rigid >= 0 && !st; rigid--) {
        if (!(which & (rigid ? FREE_BODY : HEAVY_TOP))) continue;
        emb_fixture f;
        if ((st = open_top(&f, rigid, prec, &g))) return st;
        for (int k = 0; k < nstates && !st; k++) {
            random_rotation(R, &g);
            emb_random_vec(Om, 3, spin, &g);
            st = row(res, &f, rigid, R, Om, prec);
        }
        emb_fixture_close(&f);
    }
    return st;
}

/* (3.7): orthogonal, symmetric, idempotent, tangent; DP by an exact central difference. */
CL_CHECK(emb_so3_projection, "emb.so3.projection", .chapter = "EMB 3.4", .tags = "[EMB (3.7)] [EMB (2.5)]", .what = "(3.7): (Y - P).R z^ = 0, Z.P(Y) = Y.P(Z), P(P(Y)) = P(Y), R^T P skew; DP[V]Y vs exact central difference", .cond = 64, .why = "products of three O(1) 3x3 matrices")
{
    cl_rng g = emb_rng(307);
    RV_DECL(R, 9, prec); RV_DECL(Y, 9, prec); RV_DECL(Z, 9, prec); RV_DECL(P, 9, prec);
    RV_DECL(P2, 9, prec); RV_DECL(T, 9, prec); RV_DECL(z, 3, prec); RV_DECL(V, 9, prec);
    RV_DECL(Rp, 9, prec); RV_DECL(Rm, 9, prec); RV_DECL(D, 9, prec);
    R_DECL(a, prec); R_DECL(b, prec);
    cl_check_begin(res);
    for (int k = 0; k < NSTATES; k++) {
        random_rotation(R, &g);
        emb_random_vec(Y, 9, 1.0, &g);
        emb_random_vec(Z, 9, 1.0, &g);
        emb_random_vec(z, 3, 1.0, &g);
        CL_FN(cl_emb_so3_proj)(P, R, Y);
        /* (Y − P)·Rẑ = 0 */
        m3_hat(T, z);
        m3_mul(T, R, T);
        for (int i = 0; i < 9; i++) r_sub(P2 + i, Y + i, P + i);
        CL_FN(cl_emb_so3_inner)(a, P2, T);
        cl_check_worst(res, r_log2abs(a), NULL);
        /* Z·P(R, Y) = Y·P(R, Z) */
        CL_FN(cl_emb_so3_inner)(a, Z, P);
        CL_FN(cl_emb_so3_proj)(P2, R, Z);
        CL_FN(cl_emb_so3_inner)(b, Y, P2);
        r_sub(a, a, b);
        cl_check_worst(res, r_log2abs(a), NULL);
        /* P(R, P(R, Y)) = P(R, Y) */
        CL_FN(cl_emb_so3_proj)(P2, R, P);
        cl_check_worst(res, emb_rel_err(P2, P, 9), NULL);
        /* RᵀP + PᵀR = 0 */
        m3_transpose(T, R);
        m3_mul(P2, T, P);
        m3_transpose(T, P2);
        for (int i = 0; i < 9; i++) r_add(T + i, T + i, P2 + i);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(T, 9), NULL);
        /* DP[V]Y = (P(R + V, Y) − P(R − V, Y))/2, exact for the quadratic (3.7) */
        emb_random_vec(V, 9, 1.0, &g);
        for (int i = 0; i < 9; i++) { r_add(Rp + i, R + i, V + i); r_sub(Rm + i, R + i, V + i); }
        CL_FN(cl_emb_so3_proj)(P, Rp, Y);
        CL_FN(cl_emb_so3_proj)(P2, Rm, Y);
        for (int i = 0; i < 9; i++) { r_sub(P + i, P + i, P2 + i); r_mul_2si(P + i, P + i, -1); }
        CL_FN(cl_emb_so3_dproj)(D, R, V, Y);
        cl_check_worst(res, emb_rel_err(D, P, 9), NULL);
    }
    return CL_OK;
}

/* Trace-form Lagrangian vs ½ΩᵀJΩ; Legendre (2.4) vs ½R(JΩ)^; its inverse;
 * H = μ·Ṙ − L vs the closed-form H; for the rigid body and the heavy top. */
static int legendre_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(Rd, 9, prec); RV_DECL(W, 9, prec); RV_DECL(mu, 9, prec); RV_DECL(mu2, 9, prec);
    RV_DECL(Rd2, 9, prec); RV_DECL(Pi, 3, prec); RV_DECL(J, 9, prec); RV_DECL(inv, CL_EMB_TOP_NINV, prec);
    R_DECL(L, prec); R_DECL(T, prec); R_DECL(H, prec); R_DECL(H2, prec); R_DECL(V, prec);
    int st;
    CL_FN(cl_emb_top_inertia)(f->top, J, NULL, NULL);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    CL_FN(cl_emb_top_invariants)(f->top, inv, R, Om);    /* inv[0] = ½ΩᵀJΩ + V */
    CL_FN(cl_emb_top_lagrangian)(f->top, L, R, Rd);
    m3_mul_v3(Pi, J, Om);
    v3_dot(T, Pi, Om);
    r_mul_2si(T, T, -1);                              /* ½ΩᵀJΩ */
    r_sub(V, inv, T);                                 /* V = E − T */
    r_sub(H, T, V);                                   /* L = T − V */
    cl_check_worst(res, emb_rel_err(L, H, 1), NULL);
    if ((st = CL_FN(cl_emb_legendre)(&f->m, f->w, mu, R, Rd))) return st;
    CL_FN(cl_emb_top_momentum)(f->top, mu2, R, Om);
    cl_check_worst(res, emb_rel_err(mu, mu2, 9), NULL);
    CL_FN(cl_emb_top_body_momentum)(Pi, R, mu);
    m3_mul_v3(Om, J, Om);
    cl_check_worst(res, emb_rel_err(Pi, Om, 3), NULL);
    if ((st = CL_FN(cl_emb_legendre_inv)(&f->m, f->w, Rd2, R, mu))) return st;
    cl_check_worst(res, emb_rel_err(Rd2, Rd, 9), NULL);
    if ((st = CL_FN(cl_emb_hamiltonian_from_lagrangian)(&f->m, f->w, H, R, mu))) return st;
    f->m.hamiltonian(f->m.ctx, H2, R, mu);
    cl_check_worst(res, emb_rel_err(H, inv, 1), NULL);
    cl_check_worst(res, emb_rel_err(H2, inv, 1), NULL);
    return CL_OK;
}

CL_CHECK(emb_so3_legendre, "emb.so3.legendre", .chapter = "EMB 3.4", .tags = "[EMB (2.4)] [EMB 3.4]", .what = "rigid body and heavy top: tr-form L vs 1/2 W^T J W - V; (2.4) mu vs 1/2 R (J W)^; inverse Legendre (9x9 Newton); H = mu.Rdot - L vs closed-form H", .cond = 1024, .why = "a 9x9 elimination with inertia ratio 3.5 and |W| up to ~5")
{
    return top_rows(res, prec, 308, BOTH_TOPS, NSTATES, 1.5, legendre_row);
}

/* R̈ from (3.8) (numerical solve) and from the general (2.3) on R^{3×3}
 * against Euler's equation; residual of (3.8) at Euler's R̈. */
static int el_vs_euler_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(Rd, 9, prec); RV_DECL(W, 9, prec); RV_DECL(A1, 9, prec); RV_DECL(A2, 9, prec);
    RV_DECL(A3, 9, prec); RV_DECL(T, 9, prec); RV_DECL(Od, 3, prec); RV_DECL(Oe, 3, prec);
    RV_DECL(Ga, 3, prec); RV_DECL(r, 9, prec); RV_DECL(J, 9, prec);
    int st;
    CL_FN(cl_emb_top_inertia)(f->top, J, NULL, NULL);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    for (int i = 0; i < 3; i++) r_set(Ga + i, R + 6 + i);
    CL_FN(cl_emb_top_euler)(f->top, Oe, Om, Ga);
    if ((st = CL_FN(cl_emb_top_accel_38)(f->top, A1, R, Rd))) return st;
    if ((st = CL_FN(cl_emb_el_accel)(&f->m, f->w, A2, R, Rd))) return st;
    m3_transpose(T, R);
    m3_mul(T, T, A1);
    CL_FN(cl_emb_so3_vee)(Od, T);                 /* Ω̇ = (RᵀR̈)^∨, skew part */
    cl_check_worst(res, emb_rel_err(Od, Oe, 3), NULL);
    cl_check_worst(res, emb_rel_err(A2, A1, 9), NULL);
    /* Euler's R̈ = R(Ω̂² + Ω̇̂) satisfies (3.8) */
    m3_mul(A3, W, W);
    m3_hat(T, Oe);
    for (int i = 0; i < 9; i++) r_add(A3 + i, A3 + i, T + i);
    m3_mul(A3, R, A3);
    CL_FN(cl_emb_top_residual_38)(f->top, r, R, A3);
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(r, 9) - CL_FN(cl_rvec_log2_maxabs)(A3, 9)
                  - CL_FN(cl_rvec_log2_maxabs)(J, 9), NULL);
    return CL_OK;
}

/* General (2.7)–(2.8) on R^{3×3} at μ = ½R(JΩ)^ against the reduced
 * equations: Ṙ = RΩ̂, Π̇ = (Ṙᵀμ + Rᵀμ̇ − transpose)^∨, Γ̇ = Γ × Ω; and dH/dt = 0. */
static int hamilton_vs_euler_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(W, 9, prec); RV_DECL(mu, 9, prec); RV_DECL(Rd, 9, prec); RV_DECL(md, 9, prec);
    RV_DECL(T, 9, prec); RV_DECL(U, 9, prec); RV_DECL(Pi, 3, prec); RV_DECL(Pd, 3, prec);
    RV_DECL(Pd2, 3, prec); RV_DECL(Ga, 3, prec); RV_DECL(Gd, 3, prec); RV_DECL(hx, 9, prec); RV_DECL(hm, 9, prec);
    R_DECL(rate, prec);
    int st;
    CL_FN(cl_emb_top_momentum)(f->top, mu, R, Om);
    if ((st = CL_FN(cl_emb_hamilton)(&f->m, f->w, Rd, md, R, mu))) return st;
    m3_hat(W, Om);
    m3_mul(T, R, W);
    cl_check_worst(res, emb_rel_err(Rd, T, 9), NULL);
    /* Π = 2(skew Rᵀμ)^∨ ⇒ Π̇ = 2(skew(Ṙᵀμ + Rᵀμ̇))^∨ */
    m3_transpose(T, Rd);
    m3_mul(T, T, mu);
    m3_transpose(U, R);
    m3_mul(U, U, md);
    for (int i = 0; i < 9; i++) r_add(T + i, T + i, U + i);
    CL_FN(cl_emb_so3_vee)(Pd, T);
    for (int i = 0; i < 3; i++) r_mul_2si(Pd + i, Pd + i, 1);
    CL_FN(cl_emb_top_body_momentum)(Pi, R, mu);
    for (int i = 0; i < 3; i++) r_set(Ga + i, R + 6 + i);
    CL_FN(cl_emb_top_reduced_rhs)(f->top, Pd2, Gd, Pi, Ga);
    cl_check_worst(res, emb_rel_err(Pd, Pd2, 3), NULL);
    for (int i = 0; i < 3; i++) r_set(T + i, Rd + 6 + i);   /* Γ̇ = (Ṙᵀe₃) */
    cl_check_worst(res, emb_rel_err(T, Gd, 3), NULL);
    /* dH/dt along (2.7)–(2.8), relative to |H_x||Ṙ| + |H_μ||μ̇| */
    if ((st = CL_FN(cl_emb_energy_rate)(&f->m, f->w, rate, R, mu, Rd, md))) return st;
    f->m.ham_dx(f->m.ctx, hx, R, mu);
    f->m.ham_dmu(f->m.ctx, hm, R, mu);
    double s1 = CL_FN(cl_rvec_log2_maxabs)(hx, 9) + CL_FN(cl_rvec_log2_maxabs)(Rd, 9);
    double s2 = CL_FN(cl_rvec_log2_maxabs)(hm, 9) + CL_FN(cl_rvec_log2_maxabs)(md, 9);
    double sc = s1 > s2 ? s1 : s2;
    cl_check_worst(res, r_log2abs(rate) - (sc > 0 ? sc : 0), NULL);
    return CL_OK;
}

CL_CHECK(emb_rigid_el38, "emb.so3.rigid_el38_vs_euler", .chapter = "EMB 3.4", .tags = "[EMB (3.8)] [EMB (2.3)]", .what = "free rigid body: Rddot from (3.8) and from general (2.3) on R^3x3 vs Euler J W' + W x J W = 0; (3.8) residual at Euler's Rddot", .cond = 1024, .why = "3x3 and 9x9 eliminations, inertia ratio 3.5, |W|^2 up to ~25")
{
    return top_rows(res, prec, 381, FREE_BODY, NSTATES, 2.0, el_vs_euler_row);
}

CL_CHECK(emb_heavy_top_el38, "emb.heavy_top.el38_vs_euler", .chapter = "EMB 3.4", .tags = "[EMB (3.8)] [EMB (2.3)]", .what = "heavy top: Rddot from (3.8)+gravity and general (2.3) vs J W' = J W x W + m g Gamma x rho", .cond = 1024, .why = "3x3 and 9x9 eliminations, inertia ratio 3.5, torque m g l ~ 10")
{
    return top_rows(res, prec, 380, HEAVY_TOP, NSTATES, 2.0, el_vs_euler_row);
}

CL_CHECK(emb_rigid_hamilton, "emb.so3.rigid_hamilton_vs_euler", .chapter = "EMB 3.4", .tags = "[EMB (2.7)] [EMB (2.8)] [EMB Prop. 2]", .what = "free rigid body: general (2.7)-(2.8) on R^3x3 vs Rdot = R W^, Pi' = Pi x W; dH/dt = 0", .cond = 256, .why = "9x9 Jacobian (2.5) products and cancellation in dH/dt")
{
    return top_rows(res, prec, 271, FREE_BODY, NSTATES, 2.0, hamilton_vs_euler_row);
}

CL_CHECK(emb_heavy_top_hamilton, "emb.heavy_top.hamilton_vs_euler", .chapter = "EMB 3.4", .tags = "[EMB (2.7)] [EMB (2.8)] [EMB Prop. 2]", .what = "heavy top: general (2.7)-(2.8) vs Pi' = Pi x W + m g Gamma x rho, Gamma' = Gamma x W; dH/dt = 0", .cond = 256, .why = "9x9 Jacobian (2.5) products and cancellation in dH/dt")
{
    return top_rows(res, prec, 270, HEAVY_TOP, NSTATES, 2.0, hamilton_vs_euler_row);
}

/* Rates of the invariants along the (3.8) flow (Ω̇ from cl_emb_top_accel_38):
 * free body: energy, |Π|², RΠ; heavy top: energy, Γ·Π, e₃·RΠ. */
static int invariants_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(Rd, 9, prec); RV_DECL(A, 9, prec); RV_DECL(W, 9, prec); RV_DECL(T, 9, prec);
    RV_DECL(Od, 3, prec); RV_DECL(Pi, 3, prec); RV_DECL(Pd, 3, prec); RV_DECL(Ga, 3, prec);
    RV_DECL(Gd, 3, prec); RV_DECL(J, 9, prec); RV_DECL(u, 3, prec); RV_DECL(rho, 3, prec);
    RV_DECL(inv, CL_EMB_TOP_NINV, prec);
    R_DECL(r1, prec); R_DECL(r2, prec); R_DECL(mg, prec);
    /* the heavy top of make_top(): m g = (3/2)·9.81, ρ = (0.1, −0.2, 0.6) */
    CL_FN(cl_real_from_str)(mg, "9.81");
    r_mul_si(mg, mg, 3);
    r_mul_2si(mg, mg, -1);
    CL_FN(cl_real_from_str)(rho, "0.1");
    CL_FN(cl_real_from_str)(rho + 1, "-0.2");
    CL_FN(cl_real_from_str)(rho + 2, "0.6");
    CL_FN(cl_emb_top_inertia)(f->top, J, NULL, NULL);
    double sJ = CL_FN(cl_rvec_log2_maxabs)(J, 9);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    int st = CL_FN(cl_emb_top_accel_38)(f->top, A, R, Rd);
    if (st) return st;
    m3_transpose(T, R);
    m3_mul(T, T, A);
    CL_FN(cl_emb_so3_vee)(Od, T);
    m3_mul_v3(Pi, J, Om);
    m3_mul_v3(Pd, J, Od);                       /* Π̇ = JΩ̇ */
    for (int i = 0; i < 3; i++) r_set(Ga + i, R + 6 + i);
    v3_cross(Gd, Ga, Om);                       /* Γ̇ = Γ × Ω */
    double sc = sJ + 2 * CL_FN(cl_rvec_log2_maxabs)(Om, 3);   /* |J||Ω|² */
    /* the energy invariant itself: ½ΩᵀJΩ + m g Γ·ρ with m g, ρ of make_top() */
    CL_FN(cl_emb_top_invariants)(f->top, inv, R, Om);
    v3_dot(r1, Om, Pi);
    r_mul_2si(r1, r1, -1);
    if (!rigid) {
        v3_dot(r2, Ga, rho);
        r_addmul(r1, mg, r2);
    }
    cl_check_worst(res, emb_rel_err(inv, r1, 1), NULL);
    v3_dot(r1, Pi, Pi);
    cl_check_worst(res, emb_rel_err(inv + 1, r1, 1), NULL);
    v3_dot(r1, Ga, Pi);
    cl_check_worst(res, emb_rel_err(inv + 5, r1, 1), NULL);
    m3_mul_v3(u, R, Pi);
    cl_check_worst(res, emb_rel_err(inv + 2, u, 3), NULL);
    /* d/dt(½ΩᵀJΩ + m g Γ·ρ) = Ω·Π̇ + m g Γ̇·ρ */
    v3_dot(r1, Om, Pd);
    if (!rigid) {
        v3_dot(r2, Gd, rho);
        r_addmul(r1, mg, r2);
    }
    cl_check_worst(res, r_log2abs(r1) - sc, NULL);
    if (rigid) {
        v3_dot(r1, Pi, Pd);                     /* ½ d|Π|²/dt */
        cl_check_worst(res, r_log2abs(r1) - sc - sJ, NULL);
        v3_cross(u, Om, Pi);
        v3_add(u, u, Pd);
        m3_mul_v3(u, R, u);                     /* d(RΠ)/dt = R(Ω × Π + Π̇) */
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(u, 3) - sc, NULL);
    } else {
        v3_dot(r1, Gd, Pi);
        v3_dot(r2, Ga, Pd);
        r_add(r1, r1, r2);                      /* d(Γ·Π)/dt */
        cl_check_worst(res, r_log2abs(r1) - sc, NULL);
        v3_cross(u, Om, Pi);
        v3_add(u, u, Pd);
        m3_mul_v3(u, R, u);
        cl_check_worst(res, r_log2abs(u + 2) - sc, NULL);       /* d(e₃·RΠ)/dt */
    }
    return CL_OK;
}

CL_CHECK(emb_so3_invariants, "emb.so3.invariants", .chapter = "EMB 3.4", .tags = "[EMB (3.8)]", .what = "rates along (3.8): free body energy, |Pi|^2, spatial R Pi; heavy top energy, Casimir Gamma.Pi, e3.R Pi", .cond = 1024, .why = "a 3x3 elimination and cancellation between terms of size |J||W|^2")
{
    return top_rows(res, prec, 360, BOTH_TOPS, NSTATES, 2.0, invariants_row);
}

/* The chapter's RK4 step on (R, Ṙ) through (3.8) against classical RK4
 * written out here on the first-order field (Ṙ, R̈) with R̈ from
 * cl_emb_top_accel_38: the same method on the same field, so 20 steps of
 * h = 1/32 agree to rounding. (The general field cl_emb_el_rhs agrees with
 * (3.8) on T SO(3) only — emb.so3.rigid_el38_vs_euler — while RK4 stages
 * leave the manifold at the truncation error, where the two extensions
 * differ.) */
static int field_38(const void *top, rptr dy, rsrc y)
{
    CL_FN(cl_rvec_copy)(dy, y + 9, 9);
    return CL_FN(cl_emb_top_accel_38)(top, dy + 9, y, y + 9);
}

static int rk4_38_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(Rd, 9, prec); RV_DECL(W, 9, prec); RV_DECL(s, 18, prec); RV_DECL(k, 72, prec); RV_DECL(y, 18, prec);
    R_DECL(h, prec);
    r_set_q(h, 1, 32);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    CL_FN(cl_rvec_copy)(s, R, 9);
    CL_FN(cl_rvec_copy)(s + 9, Rd, 9);
    int st = CL_OK;
    for (int n = 0; n < 20 && !st; n++) {
        if ((st = CL_FN(cl_emb_top_rk4_38_step)(f->top, R, Rd, h))) break;
        st = emb_rk4_written_out(field_38, f->top, 18, s, h, k, y);
    }
    cl_check_worst(res, emb_rel_err(R, s, 9), NULL);
    cl_check_worst(res, emb_rel_err(Rd, s + 9, 9), NULL);
    return st;
}

CL_CHECK(emb_so3_rk4_38, "emb.so3.rk4_38_step", .chapter = "EMB 3.4", .tags = "[EMB (3.8)]", .what = "chapter RK4 step on (R, Rdot) through (3.8) vs classical RK4 written out on the same field: 20 steps", .cond = 1024, .why = "20 steps of the same arithmetic in a different order of summation")
{
    return top_rows(res, prec, 46, BOTH_TOPS, 1, 2.0, rk4_38_row);
}

/* RKMK4 keeps R on SO(3): RᵀR − I after 200 steps of h = 1/64 (free body
 * and heavy top), against 200 steps of the exponential's rounding. */
static int rkmk4_orth_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    R_DECL(h, prec);
    r_set_q(h, 1, 64);
    for (int k = 0; k < 200; k++) CL_FN(cl_emb_top_rkmk4_step)(f->top, R, Om, h);
    cl_check_worst(res, CL_FN(cl_emb_so3_log2_orth_defect)(R), NULL);
    return CL_OK;
}

CL_CHECK(emb_so3_rkmk4_orth, "emb.so3.rkmk4_orthogonality", .chapter = "EMB 3.4", .tags = "[EMB 3.4]", .what = "RKMK4 (Rodrigues exp) on (R, W): |R^T R - I| after 200 steps, free body and heavy top", .cond = 2048, .why = "200 steps, each a product with exp(theta) orthogonal to a few ulps")
{
    return top_rows(res, prec, 44, BOTH_TOPS, 1, 2.0, rkmk4_orth_row);
}

/* Π₀ = J_k ω Q e_k, the steady rotation about principal axis k of J = Q diag Qᵀ
 * (d = diag), and c = ω²(J_k − J_i)(J_k − J_j)/(J_iJ_j) for the axes i, j ≠ k. */
static void steady_axis(rptr Pi0, rptr c, rsrc Q, rsrc d, rsrc om, int k)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    R_DECL(a, r_prec(c)); R_DECL(b, r_prec(c));
    for (int l = 0; l < 3; l++) {
        r_mul(Pi0 + l, Q + 3 * l + k, d + k);
        r_mul(Pi0 + l, Pi0 + l, om);
    }
    r_sub(a, d + k, d + i);
    r_sub(b, d + k, d + j);
    r_mul(c, a, b);
    r_mul(c, c, om);
    r_mul(c, c, om);
    r_div(c, c, d + i);
    r_div(c, c, d + j);
}

/* Steady rotation Π₀ = J_k ω Q e_k about principal axis k of J = Q diag Qᵀ.
 * For axes i, j ≠ k the closed forms are
 *   det of the restricted linearization = ω² (J_k − J_i)(J_k − J_j)/(J_i J_j),
 *   Energy–Casimir eigenvalues = 1/J_i − 1/J_k, 1/J_j − 1/J_k;
 * stable (det > 0, definite) for the largest and smallest J_k, unstable
 * (det < 0, indefinite) for the middle one. A wrong verdict reports +inf. */
static int steady(cl_check_result *res, cl_prec_t prec, int energy_casimir)
{
    cl_rng g = emb_rng(99);
    RV_DECL(J, 9, prec); RV_DECL(Q, 9, prec); RV_DECL(d, 3, prec); RV_DECL(Pi0, 3, prec);
    RV_DECL(eig, 2, prec); RV_DECL(want, 2, prec);
    RV_DECL(DE, 3, prec); RV_DECL(DC, 3, prec); RV_DECL(HE, 9, prec); RV_DECL(HC, 9, prec);
    RV_DECL(cm, 1, prec); RV_DECL(eg, 2, prec);
    R_DECL(om, prec); R_DECL(tr, prec); R_DECL(det, prec); R_DECL(fv, prec); R_DECL(c, prec); R_DECL(a, prec);
    CL_FN(cl_real_from_str)(om, "1.7");
    cl_check_begin(res);
    for (int rep = 0; rep < 4; rep++) {
        test_inertia(J, Q, d, &g);
        CL_FN(cl_emb_top) *t;
        int st = CL_FN(cl_emb_rigid_new)(&t, J);
        if (st) return st;
        for (int k = 0; k < 3; k++) {
            int i = (k + 1) % 3, j = (k + 2) % 3;
            steady_axis(Pi0, c, Q, d, om, k);   /* c = ω²(J_k − J_i)(J_k − J_j)/(J_iJ_j) */
            int stable = k != 1;   /* moments 1 < 2 < 7/2: axis 1 is the middle one */
            if (!energy_casimir) {
                r_set_si(tr, 1);                  /* must be overwritten by the trace, 0 */
                if ((st = CL_FN(cl_emb_rigid_steady_linearization)(t, tr, det, fv, Pi0))) break;
                cl_check_worst(res, emb_rel_err(det, c, 1), NULL);
                cl_check_worst(res, r_log2abs(tr), NULL);
                cl_check_worst(res, r_log2abs(fv), NULL);
                if ((r_sgn(det) > 0) != stable) cl_check_worst(res, INFINITY, NULL);
            } else {
                if ((st = CL_FN(cl_emb_rigid_energy_casimir)(t, eig, fv, Pi0))) break;
                r_si_div(a, 1, d + k);
                r_si_div(want, 1, d + i);
                r_sub(want, want, a);
                r_si_div(want + 1, 1, d + j);
                r_sub(want + 1, want + 1, a);
                if (r_cmp(want, want + 1) > 0) r_swap(want, want + 1);
                cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(eig, want, 2), NULL);
                cl_check_worst(res, r_log2abs(fv), NULL);
                int definite = r_sgn(eig) * r_sgn(eig + 1) > 0;
                if (definite != stable) cl_check_worst(res, INFINITY, NULL);
                /* the same test by src/energy_casimir: ℰ = ½ΠᵀJ⁻¹Π, C = |Π|², DC = 2Π₀, D²C = 2I */
                CL_FN(cl_emb_top_inertia)(t, NULL, HE, NULL);
                m3_mul_v3(DE, HE, Pi0);
                for (int l = 0; l < 3; l++) r_mul_si(DC + l, Pi0 + l, 2);
                for (int l = 0; l < 9; l++) r_set_si(HC + l, l % 4 == 0 ? 2 : 0);
                cl_ec_report rep;
                if ((st = CL_FN(cl_energy_casimir)(&rep, cm, NULL, NULL, eg, DE, DC, HE, HC, 3, 1, 0))) break;
                cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(eg, want, 2), NULL);
                if ((rep.definite != 0) != stable) cl_check_worst(res, INFINITY, NULL);
            }
        }
        CL_FN(cl_emb_top_free)(t);
        if (st) return st;
    }
    return CL_OK;
}

/* dst (MPFR, its own precision) = src (current kind), exactly when the precisions allow. */
static void to_mpfr(mpfr_ptr dst, rsrc src, size_t n)
{
#if CL_PREC == CL_DOUBLE
    for (size_t i = 0; i < n; i++) mpfr_set_d(dst + i, src[i], MPFR_RNDN);
#else
    for (size_t i = 0; i < n; i++) mpfr_set(dst + i, src + i, MPFR_RNDN);
#endif
}

/* The reduced field Π ↦ Π̇ of the free body carried through (3.8): at the
 * fixed attitude R₀, Ω = J⁻¹Π, Ṙ = R₀Ω̂, R̈ from cl_emb_top_accel_38 and
 * Π̇ = J (R₀ᵀR̈)^∨. Evaluated in MPFR at the precision of its output, for
 * cl_jacobian at raised precision. */
typedef struct { cl_emb_top_mp *top; mpfr_srcptr R0, J, Jinv; } red38_ctx;

static int reduced_38(mpfr_ptr y, mpfr_srcptr x, void *vctx)
{
    const red38_ctx *c = vctx;
    mpfr_prec_t p = mpfr_get_prec(y);
    __mpfr_struct buf[48];
    for (int i = 0; i < 48; i++) mpfr_init2(buf + i, p);
    mpfr_ptr Om = buf, W = buf + 3, Rd = buf + 12, A = buf + 21, T = buf + 30, Od = buf + 39;
    cl_m3_mul_v3_mp(Om, c->Jinv, x);
    cl_m3_hat_mp(W, Om);
    cl_m3_mul_mp(Rd, c->R0, W);
    int st = cl_emb_top_accel_38_mp(c->top, A, c->R0, Rd);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) mpfr_set(T + 3 * i + j, c->R0 + 3 * j + i, MPFR_RNDN);
    cl_m3_mul_mp(T, T, A);
    cl_emb_so3_vee_mp(Od, T);
    cl_m3_mul_v3_mp(y, c->J, Od);
    for (int i = 0; i < 48; i++) mpfr_clear(buf + i);
    return st;
}

/* Eigenvalues of the linearization at a steady rotation Π₀ = J_k ω Q e_k,
 * with the Jacobian of the field carried through (3.8) taken by cl_jacobian
 * (raised precision) and its spectrum by cl_eig: {0, ±λ} with
 * λ² = ω²(J_k − J_i)(J_j − J_k)/(J_iJ_j); a pair ±i|λ| (centre) about the
 * largest and smallest axes, a real pair ±|λ| (saddle) about the middle one. */
CL_CHECK(emb_rigid_steady_spectrum, "emb.so3.steady_rotation_spectrum", .chapter = "EMB 3.4", .tags = "[EMB (3.8)]", .what = "steady rotations: spectrum (cl_eig) of the Jacobian (cl_jacobian, raised precision) of Pi -> Pi' carried through (3.8) is {0, +-lambda}, lambda^2 = w^2 (Jk-Ji)(Jj-Jk)/(Ji Jj): centre about largest/smallest, saddle about middle axis", .cond = 1024, .why = "a Jacobian exact to 2^(1-p) relative, a backward-stable 3x3 eigensolver, and |lambda| ~ 1 against |A| ~ 3")
{
    cl_rng g = emb_rng(98);
    RV_DECL(J, 9, prec); RV_DECL(Q, 9, prec); RV_DECL(d, 3, prec); RV_DECL(Pi0, 3, prec);
    RV_DECL(Jac, 9, prec); RV_DECL(wr, 3, prec); RV_DECL(wi, 3, prec); RV_DECL(R0, 9, prec);
    R_DECL(om, prec); R_DECL(c, prec); R_DECL(a, prec); R_DECL(b, prec); R_DECL(lam, prec);
    CL_FN(cl_real_from_str)(om, "1.7");
    mpfr_ptr Jm = cl_rvec_new_mp(27, prec);
    if (!Jm) return CL_ENOMEM;
    mpfr_ptr Jinvm = Jm + 9, R0m = Jm + 18;
    cl_check_begin(res);
    int st = 0;
    for (int rep = 0; rep < 2 && !st; rep++) {
        test_inertia(J, Q, d, &g);
        random_rotation(R0, &g);
        /* the same J and R₀ as MPFR numbers (the field runs in MPFR at raised precision) */
        to_mpfr(Jm, J, 9);
        to_mpfr(R0m, R0, 9);
        cl_emb_top_mp *tm;
        if ((st = cl_emb_rigid_new_mp(&tm, Jm))) break;
        cl_emb_top_inertia_mp(tm, NULL, Jinvm, NULL);
        red38_ctx ctx = {tm, R0m, Jm, Jinvm};
        for (int k = 0; k < 3 && !st; k++) {
            /* λ² = ω²(J_k − J_i)(J_j − J_k)/(J_iJ_j) = −c */
            steady_axis(Pi0, c, Q, d, om, k);
            if ((st = CL_FN(cl_jacobian)(Jac, NULL, reduced_38, &ctx, Pi0, 3, 3))) break;
            if ((st = CL_FN(cl_eig)(wr, wi, Jac, 3))) break;
            r_abs(lam, c);
            r_sqrt(lam, lam);
            int stable = k != 1;
            /* sorted by real part, then imaginary: centre → (0,−λ), (0,0), (0,λ) up to rounding
             * of the zero real parts; saddle → −λ, 0, λ */
            if (stable) {
                /* real parts 0; imaginary parts −λ, 0, λ in an order set by the rounding of the real parts */
                int top = 0;
                for (int q = 0; q < 3; q++) {
                    cl_check_worst(res, r_log2abs(wr + q) - r_log2abs(lam), NULL);
                    if (r_cmp(wi + q, wi + top) > 0) top = q;
                }
                r_sub(a, wi + top, lam);
                cl_check_worst(res, r_log2abs(a) - r_log2abs(lam), NULL);
            } else {
                r_add(a, wr, lam);
                r_sub(b, wr + 2, lam);
                cl_check_worst(res, r_log2abs(a) - r_log2abs(lam), NULL);
                cl_check_worst(res, r_log2abs(b) - r_log2abs(lam), NULL);
                cl_check_worst(res, r_log2abs(wr + 1), NULL);
                for (int q = 0; q < 3; q++) cl_check_worst(res, r_log2abs(wi + q), NULL);
            }
        }
        cl_emb_top_free_mp(tm);
    }
    cl_rvec_free_mp(Jm);
    return st;
}

EMB_CHECK_CALL(emb_rigid_steady_eigen, "emb.so3.steady_rotation_eigen", steady, 0, .chapter = "EMB 3.4", .tags = "[EMB 3.4]", .what = "steady rotations about the principal axes: restricted linearization det vs w^2 (Jk-Ji)(Jk-Jj)/(Ji Jj), trace 0; centre about largest/smallest, saddle about middle axis", .cond = 256, .why = "a rotated inertia Q diag Q^T and 3x3 products")

EMB_CHECK_CALL(emb_rigid_energy_casimir, "emb.so3.energy_casimir", steady, 1, .chapter = "EMB 3.4", .tags = "[EMB 3.4]", .what = "Energy-Casimir with C(|Pi|^2), by the chapter and by src/energy_casimir: second variation on Pi0-perp has eigenvalues 1/Ji - 1/Jk, 1/Jj - 1/Jk; definite about largest/smallest axis, indefinite about middle", .cond = 256, .why = "a rotated inertia Q diag Q^T, its 3x3 inverse and a 2x2 eigenproblem")

/* The chapter's RKMK4 step against src/lie's RKMK4 on the problem of
 * cl_emb_top_lie_problem() with dexp⁻¹ as the Bernoulli series truncated
 * after ad² (the truncation the chapter's step uses): the same method, so
 * 40 steps of h = 1/32 agree to rounding (free body and heavy top). */
static int rkmk4_vs_lie_row(cl_check_result *res, emb_fixture *f, int rigid, rptr R, rptr Om, cl_prec_t prec)
{
    RV_DECL(y, 12, prec);
    R_DECL(h, prec);
    r_set_q(h, 1, 32);
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_emb_top_lie_problem)(f->top, &pb);
    CL_FN(cl_lie_integrator) *li;
    int st = CL_FN(cl_lie_new)(&li, &pb, CL_LIE_RKMK4, prec);
    if (st) return st;
    st = CL_FN(cl_lie_set_dexpinv_series)(li, 2);
    CL_FN(cl_rvec_copy)(y, R, 9);
    v3_set(y + 9, Om);
    for (int k = 0; k < 40 && !st; k++) {
        CL_FN(cl_emb_top_rkmk4_step)(f->top, R, Om, h);
        st = CL_FN(cl_lie_step)(li, y, h);
    }
    cl_check_worst(res, emb_rel_err(R, y, 9), NULL);
    cl_check_worst(res, emb_rel_err(Om, y + 9, 3), NULL);
    CL_FN(cl_lie_free)(li);
    return st;
}

CL_CHECK(emb_so3_rkmk4_vs_lie, "emb.so3.rkmk4_vs_src_lie", .chapter = "EMB 3.4", .tags = "[EMB 3.4]", .what = "chapter RKMK4 on (R, W) vs src/lie RKMK4 (dexpinv series to ad^2) on cl_emb_top_lie_problem: 40 steps", .cond = 4096, .why = "40 steps, each a dozen 3x3 products and an exponential, with error growth along the flow")
{
    return top_rows(res, prec, 45, BOTH_TOPS, 1, 2.0, rkmk4_vs_lie_row);
}

/*
 * The shipped product models (models/cart-spherical, body-on-pendulum,
 * two-bodies, free-body, quadrotor-load) against derivations of their own
 * written here the other way round: Newton–Euler with the constraint forces
 * as unknowns (rod tensions, joint forces, a cable's tension), in Cartesian
 * coordinates and space or body frames, one dense linear system each,
 * solved at the working precision. The model's qdot field (from L by the
 * product engine) must agree to 2^(24−p) relative to max(1, |expected|) at
 * p = 256 (≥ 70 digits) at 4 random states with parameters away from their
 * defaults (zeros made nonzero). Then a relativistic particle, whose
 * Legendre map leaves the domain of L on a full Newton step from v = 0: at
 * p = 10 mc its p form gives v = p/√(m² + p²/c²) and ṗ = −kx, its qdot form
 * ẍ = −kx/(mγ³), to 2^(8−p). Then the constrained models (sleigh,
 * rolling-disk, rod-pendulum) against their classical equations, the field
 * and the multipliers, to 2^(24−p) at random states on the constraints.
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "scalar.h"
#include "r3.h"
#include "linalg.h"
#include "model.h"
#include "system.h"
#include "tap.h"

#define P 256
#define DRAWS 4

#include "model_fixture_impl.h"

static mpfr_srcptr par(const fixture *f, const char *name) { return cl_params_x(&f->p, name); }

/* The derivation of one model: the expected velocity rates (nv numbers) at the qdot state x. */
typedef int (*derivation)(const fixture *f, rsrc x, rptr want);

/*
 * Compare the model's qdot field with \p d at DRAWS random states; with \p nc
 * constraints, \p d gives their multipliers after the rates, compared too.
 */
static void compare_with(const char *path, int n, const char *const *keys, const char *const *vals, derivation d, size_t nq, size_t nv,
                         size_t nc, const char *how)
{
    fixture f;
    open_model(&f, path, n, keys, vals, P);
    double worst = -INFINITY, worst_lam = -INFINITY;
    int st = f.ok ? CL_OK : CL_EPARAM;
    mpfr_ptr x = cl_rvec_new_mp(4 * (nq + nv), P), dx = x + nq + nv, want = dx + nq + nv, lam = want + nq + nv;
    cl_rng g;
    cl_rng_seed(&g, 2026);
    for (int k = 0; k < DRAWS && !st; k++) {
        st = f.s->random_state(f.inst, 0, x, &g);
        if (!st) st = f.s->rhs(f.inst, 0, dx, x);
        if (!st && nc) st = f.s->multipliers(f.inst, 0, lam, x);
        if (!st) st = d(&f, x, want);
        if (!st) worst = fmax(worst, rel_gap(dx + nq, want, nv));
        if (!st && nc) worst_lam = fmax(worst_lam, rel_gap(lam, want + nv, nc));
    }
    ok(!st && worst <= 24 - P, "%s: the qdot field against %s at %d random states: 2^%.1f (%.1f digits), within 2^(24-p)",
       path, how, DRAWS, worst, -worst * log10(2));
    if (nc)
        ok(!st && worst_lam <= 24 - P, "%s: its multipliers (rhs --multipliers) against the same: 2^%.1f (%.1f digits), within 2^(24-p)",
           path, worst_lam, -worst_lam * log10(2));
    cl_rvec_free_mp(x);
    close_model(&f);
}

static void compare(const char *path, int n, const char *const *keys, const char *const *vals, derivation d, size_t nq, size_t nv)
{
    compare_with(path, n, keys, vals, d, nq, nv, 0, "Newton-Euler");
}

/* Solve the n×n system A z = b in place (b becomes z). */
static int solve(rptr A, rptr b, int n)
{
    int perm[16];
    int st = cl_lu_factor_mp(A, perm, n);
    return st ? st : cl_lu_solve_mp(A, perm, b, n, 1);
}

/* A[r0.., c0..] += s·M (3×3) in an n-column matrix; M NULL: s·I. */
static void put3(rptr A, int n, int r0, int c0, rsrc M, rsrc s)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (M) r_addmul(A + (r0 + i) * n + c0 + j, M + 3 * i + j, s);
            else if (i == j) r_add(A + (r0 + i) * n + c0 + j, A + (r0 + i) * n + c0 + j, s);
        }
}

/*
 * Cart and spherical pendulum: the bob at p = x e1 + l q. Unknowns ẍ, p̈, λ:
 *   m p̈ − λ l q = −m g e3,   M ẍ + λ l q_x = 0,   q·p̈ − q_x ẍ = −l |q̇|²,
 * then q̈ = (p̈ − ẍ e1)/l.
 */
static int cart_spherical(const fixture *f, rsrc x, rptr want)
{
    RV_DECL(A, 25, P);
    RV_DECL(b, 5, P);
    R_DECL(t, P);
    rsrc q = x + 1, qd = x + 5, M = par(f, "M"), m = par(f, "m"), l = par(f, "l"), g = par(f, "g");
    put3(A, 5, 0, 1, NULL, m);
    for (int i = 0; i < 3; i++) r_neg(A + 5 * i + 4, q + i), r_mul(A + 5 * i + 4, A + 5 * i + 4, l);
    r_mul(b + 2, m, g), r_neg(b + 2, b + 2);
    r_set(A + 15, M);
    r_mul(A + 19, l, q);
    for (int i = 0; i < 3; i++) r_set(A + 21 + i, q + i);
    r_neg(A + 20, q);
    v3_dot(t, qd, qd);
    r_mul(b + 4, t, l), r_neg(b + 4, b + 4);
    int st = solve(A, b, 5);
    r_set(want, b);
    r_sub(b + 1, b + 1, b);
    for (int i = 0; i < 3; i++) r_div(want + 1 + i, b + 1 + i, l);
    return st;
}

/* hat(c) scaled by s into M */
static void hat_scaled(rptr M, rsrc c, rsrc s)
{
    m3_hat(M, c);
    for (int k = 0; k < 9; k++) r_mul(M + k, M + k, s);
}

/* a ← Ω × (Ω × c) */
static void double_cross(rptr a, rsrc W, rsrc c)
{
    RV_DECL(t, 3, P);
    v3_cross(t, W, c);
    v3_cross(a, W, t);
}

/*
 * Body under a spherical pendulum. Unknowns q̈, Ω̇, the joint force f on the
 * body, the rod's tension λ (10):
 *   m(l q̈ − Rĉ Ω̇) − f = −m g e3 − m R(Ω × (Ω × c))     (the body's centre)
 *   J Ω̇ + ĉ Rᵀf = −Ω × JΩ                                (about it, body frame)
 *   m0 l q̈ + f − λ q = −m0 g e3                           (the point mass)
 *   q·q̈ = −|q̇|²
 */
static int body_on_pendulum(const fixture *f, rsrc x, rptr want)
{
    enum { N = 10 };
    RV_DECL(A, N * N, P);
    RV_DECL(b, N, P);
    RV_DECL(c, 3, P);
    RV_DECL(J, 3, P);
    RV_DECL(M, 9, P);
    RV_DECL(T, 9, P);
    RV_DECL(v, 3, P);
    R_DECL(s, P);
    rsrc q = x, R = x + 3, qd = x + 12, W = x + 15, m = par(f, "m"), m0 = par(f, "m0"), l = par(f, "l"), g = par(f, "g");
    static const char *const cn[] = {"c1", "c2", "c3"}, *const jn[] = {"J1", "J2", "J3"};
    for (int i = 0; i < 3; i++) r_set(c + i, par(f, cn[i])), r_set(J + i, par(f, jn[i]));
    r_mul(s, m, l);
    put3(A, N, 0, 0, NULL, s);
    m3_hat(T, c);
    m3_mul(M, R, T);
    r_neg(s, m);
    put3(A, N, 0, 3, M, s);
    r_set_si(s, -1);
    put3(A, N, 0, 6, NULL, s);
    double_cross(v, W, c);
    m3_mul_v3(v, R, v);
    for (int i = 0; i < 3; i++) r_mul(b + i, m, v + i), r_neg(b + i, b + i);
    r_submul(b + 2, m, g);
    for (int i = 0; i < 3; i++) r_set(A + (3 + i) * N + 3 + i, J + i);
    m3_transpose(M, R);
    m3_mul(M, T, M);
    r_set_si(s, 1);
    put3(A, N, 3, 6, M, s);
    for (int i = 0; i < 3; i++) r_mul(v + i, J + i, W + i);
    v3_cross(b + 3, W, v);
    for (int i = 0; i < 3; i++) r_neg(b + 3 + i, b + 3 + i);
    r_mul(s, m0, l);
    put3(A, N, 6, 0, NULL, s);
    r_set_si(s, 1);
    put3(A, N, 6, 6, NULL, s);
    for (int i = 0; i < 3; i++) r_neg(A + (6 + i) * N + 9, q + i), r_set(A + 9 * N + i, q + i);
    r_mul(b + 8, m0, g), r_neg(b + 8, b + 8);
    v3_dot(b + 9, qd, qd);
    r_neg(b + 9, b + 9);
    int st = solve(A, b, N);
    cl_rvec_copy_mp(want, b, 6);
    return st;
}

/* v ← diag(d) w */
static void diag_mul(rptr v, rsrc d, rsrc w)
{
    for (int i = 0; i < 3; i++) r_mul(v + i, d + i, w + i);
}

static void read3(const fixture *f, rptr v, const char *a, const char *b, const char *c)
{
    r_set(v, par(f, a));
    r_set(v + 1, par(f, b));
    r_set(v + 2, par(f, c));
}

/*
 * Two bodies and a ball joint. Unknowns Ω̇₁ (U), Ω̇₂ (W), the joint force f
 * on body 2 (9), with d = (0, 0, d3), a = (0, 0, a3), c the centre of body 2:
 *   −m₂(A d̂ Ω̇₁ + B ĉ Ω̇₂) − f = −m₂ g e3 − m₂(A(Ω₁×(Ω₁×d)) + B(Ω₂×(Ω₂×c)))
 *   J Ω̇₂ + ĉ Bᵀf = −Ω₂ × JΩ₂
 *   K Ω̇₁ + d̂ Aᵀf = −Ω₁ × KΩ₁ − m₁ g a × Aᵀe3
 */
static int two_bodies(const fixture *f, rsrc x, rptr want)
{
    enum { N = 9 };
    RV_DECL(A9, N * N, P);
    RV_DECL(b, N, P);
    RV_DECL(a, 3, P);
    RV_DECL(d, 3, P);
    RV_DECL(c, 3, P);
    RV_DECL(J, 3, P);
    RV_DECL(K, 3, P);
    RV_DECL(M, 9, P);
    RV_DECL(T, 9, P);
    RV_DECL(v, 3, P);
    RV_DECL(w, 3, P);
    R_DECL(s, P);
    rsrc RA = x, RB = x + 9, U = x + 18, W = x + 21, m1 = par(f, "m1"), m2 = par(f, "m2"), g = par(f, "g");
    r_set(a + 2, par(f, "a3"));
    r_set(d + 2, par(f, "d3"));
    read3(f, c, "c1", "c2", "c3");
    read3(f, J, "J1", "J2", "J3");
    read3(f, K, "K1", "K2", "K3");
    r_neg(s, m2);
    hat_scaled(T, d, s);
    m3_mul(M, RA, T);
    r_set_si(s, 1);
    put3(A9, N, 0, 0, M, s);
    r_neg(s, m2);
    hat_scaled(T, c, s);
    m3_mul(M, RB, T);
    r_set_si(s, 1);
    put3(A9, N, 0, 3, M, s);
    r_set_si(s, -1);
    put3(A9, N, 0, 6, NULL, s);
    double_cross(v, U, d);
    m3_mul_v3(v, RA, v);
    double_cross(w, W, c);
    m3_mul_v3(w, RB, w);
    v3_add(v, v, w);
    for (int i = 0; i < 3; i++) r_mul(b + i, m2, v + i), r_neg(b + i, b + i);
    r_submul(b + 2, m2, g);
    for (int i = 0; i < 3; i++) r_set(A9 + (3 + i) * N + 3 + i, J + i), r_set(A9 + (6 + i) * N + i, K + i);
    m3_hat(T, c);
    m3_transpose(M, RB);
    m3_mul(M, T, M);
    r_set_si(s, 1);
    put3(A9, N, 3, 6, M, s);
    diag_mul(v, J, W);
    v3_cross(b + 3, W, v);
    m3_hat(T, d);
    m3_transpose(M, RA);
    m3_mul(M, T, M);
    put3(A9, N, 6, 6, M, s);
    diag_mul(v, K, U);
    v3_cross(b + 6, U, v);
    for (int i = 0; i < 3; i++) r_set(w + i, RA + 6 + i); /* Aᵀe3: the third row of A */
    v3_cross(v, a, w);
    r_mul(s, m1, g);
    for (int i = 0; i < 3; i++) {
        r_neg(b + 3 + i, b + 3 + i);
        r_neg(b + 6 + i, b + 6 + i);
        r_submul(b + 6 + i, s, v + i);
    }
    int st = solve(A9, b, N);
    cl_rvec_copy_mp(want, b, 6);
    return st;
}

/* Free body under gravity: Euler's equations JΩ̇ = JΩ × Ω, and r̈ = −g e3 carried to the body, V̇ = −Ω × V − g Rᵀe3. */
static int free_body(const fixture *f, rsrc x, rptr want)
{
    RV_DECL(J, 3, P);
    RV_DECL(v, 3, P);
    rsrc R = x, W = x + 12, V = x + 15, g = par(f, "g");
    read3(f, J, "J1", "J2", "J3");
    diag_mul(v, J, W);
    v3_cross(want, v, W);
    for (int i = 0; i < 3; i++) r_div(want + i, want + i, J + i);
    v3_cross(want + 3, W, V);
    for (int i = 0; i < 3; i++) {
        r_neg(want + 3 + i, want + 3 + i);
        r_submul(want + 3 + i, g, R + 6 + i);
    }
    return CL_OK;
}

/*
 * Quadrotor and load (Sreenath, Lee and Kumar): unknowns ẍ, q̈, the cable's tension T (7):
 *   mQ ẍ − T q = f R e3 − mQ g e3,   mL(ẍ + l q̈) + T q = −mL g e3,   q·q̈ = −|q̇|²;
 * then JΩ̇ = M − Ω × JΩ and V̇ = Rᵀẍ − Ω × V.
 */
static int quadrotor_load(const fixture *f, rsrc x, rptr want)
{
    enum { N = 7 };
    RV_DECL(A, N * N, P);
    RV_DECL(b, N, P);
    RV_DECL(J, 3, P);
    RV_DECL(Mt, 3, P);
    RV_DECL(v, 3, P);
    R_DECL(s, P);
    rsrc R = x, q = x + 12, W = x + 15, V = x + 18, qd = x + 21;
    rsrc mQ = par(f, "mQ"), mL = par(f, "mL"), l = par(f, "l"), g = par(f, "g"), th = par(f, "f");
    read3(f, J, "J1", "J2", "J3");
    read3(f, Mt, "M1", "M2", "M3");
    put3(A, N, 0, 0, NULL, mQ);
    put3(A, N, 3, 0, NULL, mL);
    r_mul(s, mL, l);
    put3(A, N, 3, 3, NULL, s);
    for (int i = 0; i < 3; i++) {
        r_neg(A + i * N + 6, q + i);
        r_set(A + (3 + i) * N + 6, q + i);
        r_set(A + 6 * N + 3 + i, q + i);
        r_mul(b + i, th, R + 3 * i + 2); /* f R e3: the third column of R */
    }
    r_submul(b + 2, mQ, g);
    r_mul(b + 5, mL, g), r_neg(b + 5, b + 5);
    v3_dot(b + 6, qd, qd);
    r_neg(b + 6, b + 6);
    int st = solve(A, b, N);
    diag_mul(v, J, W); /* JΩ̇ = M − Ω × JΩ */
    v3_cross(want, W, v);
    for (int i = 0; i < 3; i++) r_sub(want + i, Mt + i, want + i), r_div(want + i, want + i, J + i);
    m3_transpose(A, R); /* V̇ = Rᵀẍ − Ω × V */
    m3_mul_v3(want + 3, A, b);
    v3_cross(v, W, V);
    v3_sub(want + 3, want + 3, v);
    cl_rvec_copy_mp(want + 6, b + 3, 3);
    return st;
}

/*
 * The Chaplygin sleigh by its classical reduced equations (Neimark and Fufaev;
 * Bloch, Nonholonomic Mechanics §1.7): with v = cos θ ẋ + sin θ ẏ the speed
 * of the contact point along the blade and ω = θ̇,
 *   v̇ = a ω²,   ω̇ = −m a v ω/(I + m a²),
 * then ẍ = v̇ cos θ − v ω sin θ, ÿ = v̇ sin θ + v ω cos θ; the multiplier is
 * the blade's lateral force, the mass times the lateral acceleration of the
 * centre of mass: λ = m(v ω + a ω̇).
 */
static int sleigh(const fixture *f, rsrc x, rptr want)
{
    R_DECL(v, P);
    R_DECL(c, P);
    R_DECL(sn, P);
    R_DECL(t, P);
    rsrc th = x + 2, w = x + 5, m = par(f, "m"), I = par(f, "I"), a = par(f, "a");
    r_cos(c, th);
    r_sin(sn, th);
    r_mul(v, c, x + 3);
    r_addmul(v, sn, x + 4);
    r_mul(want + 2, m, a); /* ω̇ */
    r_mul(t, want + 2, a);
    r_add(t, t, I);
    r_mul(want + 2, want + 2, v);
    r_mul(want + 2, want + 2, w);
    r_div(want + 2, want + 2, t);
    r_neg(want + 2, want + 2);
    r_mul(t, w, w); /* v̇ = a ω² */
    r_mul(t, t, a);
    r_mul(want, t, c);
    r_mul(want + 1, t, sn);
    r_mul(t, v, w);
    r_submul(want, t, sn);
    r_addmul(want + 1, t, c);
    r_mul(want + 3, a, want + 2); /* λ */
    r_add(want + 3, want + 3, t);
    r_mul(want + 3, want + 3, m);
    return CL_OK;
}

/*
 * The vertical rolling disk (Bloch §1.4): ẋ = R cos φ θ̇, ẏ = R sin φ θ̇
 * leave θ̈ = φ̈ = 0, so ẍ = −R sin φ φ̇ θ̇, ÿ = R cos φ φ̇ θ̇, and the
 * multipliers are the contact forces m ẍ, m ÿ.
 */
static int rolling_disk(const fixture *f, rsrc x, rptr want)
{
    R_DECL(t, P);
    rsrc phi = x + 2, m = par(f, "m"), R = par(f, "R");
    r_mul(t, R, x + 6);
    r_mul(t, t, x + 7);
    r_sin(want, phi);
    r_mul(want, want, t);
    r_neg(want, want);
    r_cos(want + 1, phi);
    r_mul(want + 1, want + 1, t);
    r_set_zero(want + 2);
    r_set_zero(want + 3);
    r_mul(want + 4, m, want);
    r_mul(want + 5, m, want + 1);
    return CL_OK;
}

/*
 * A point held at |p| = l by a rod (h = (|p|² − l²)/2): p̈ = −g e3 + μ p with
 * μ = (g p_z − |ṗ|²)/l² (from p·p̈ = −|ṗ|²), the multiplier λ = m μ.
 */
static int rod_pendulum(const fixture *f, rsrc x, rptr want)
{
    R_DECL(mu, P);
    R_DECL(t, P);
    rsrc p = x, pd = x + 3, m = par(f, "m"), g = par(f, "g"), l = par(f, "l");
    r_mul(mu, g, p + 2);
    v3_dot(t, pd, pd);
    r_sub(mu, mu, t);
    r_mul(t, l, l);
    r_div(mu, mu, t);
    for (int i = 0; i < 3; i++) r_mul(want + i, mu, p + i);
    r_sub(want + 2, want + 2, g);
    r_mul(want + 3, m, mu);
    return CL_OK;
}

/*
 * The Veselova system (SKATE Example 7) by its classical reduced equations:
 * with Γ = Rᵀe3 (the third row of R) and M = JΩ,
 *   M' = M × Ω + λΓ,   Γ·Ω = 0,   so   λ = −Γ·J⁻¹(M × Ω)/(Γ·J⁻¹Γ)
 * (Γ' = Γ × Ω is normal to Ω, so Γ·Ω' = 0), and Ω' = J⁻¹(M × Ω + λΓ).
 */
static int veselova(const fixture *f, rsrc x, rptr want)
{
    RV_DECL(Jinv, 3, P);
    RV_DECL(M, 3, P);
    RV_DECL(T, 3, P);
    R_DECL(num, P);
    R_DECL(den, P);
    R_DECL(t, P);
    rsrc G = x + 6, W = x + 9;
    const char *J[] = {"J1", "J2", "J3"};
    for (int i = 0; i < 3; i++) {
        r_mul(M + i, par(f, J[i]), W + i);
        r_si_div(Jinv + i, 1, par(f, J[i]));
    }
    v3_cross(T, M, W);
    r_set_zero(num);
    r_set_zero(den);
    for (int i = 0; i < 3; i++) {
        r_mul(t, G + i, Jinv + i);
        r_addmul(num, t, T + i);
        r_addmul(den, t, G + i);
    }
    r_div(want + 3, num, den); /* λ */
    r_neg(want + 3, want + 3);
    for (int i = 0; i < 3; i++) {
        r_mul(t, want + 3, G + i);
        r_add(t, t, T + i);
        r_mul(want + i, t, Jinv + i);
    }
    return CL_OK;
}

/* The relativistic particle at x = 1/2, p = 10 mc (m = c = k = 1): v = 10/√101, ṗ = −x; ẍ = −x/γ³, γ = √101. */
/*
 * The bead on the hoop turned at the rate Ω about its vertical diameter, by the classical reduced equation in
 * the hoop angle θ from the bottom: p = a(sin θ e_r − cos θ e3) with e_r = (cos Ωt, sin Ωt, 0),
 * e_φ = (−sin Ωt, cos Ωt, 0), θ'' = sin θ (Ω² cos θ − g/a), and
 *   p'' = a[θ''(cos θ e_r + sin θ e3) + θ'²(cos θ e3 − sin θ e_r) + 2θ'Ω cos θ e_φ − Ω² sin θ e_r],
 * θ and θ' read off the state at the time t of the fixture.
 */
static int hoop_bead(const fixture *f, rsrc x, rptr want)
{
    RV_DECL(v, 12, P);
    rptr er = v, ephi = v + 3, s = v + 6; /* s: sin θ, cos θ, θ', θ'', Ωt, t */
    rsrc p = x, pd = x + 3, g = par(f, "g"), a = par(f, "a"), W = par(f, "Omega");
    r_mul(s + 4, W, par(f, "time"));
    mpfr_sin_cos(er + 1, er, s + 4, MPFR_RNDN);
    r_set_zero(er + 2);
    r_neg(ephi, er + 1);
    r_set(ephi + 1, er);
    r_set_zero(ephi + 2);
    v3_dot(s, p, er);
    r_div(s, s, a); /* sin θ */
    r_div(s + 1, p + 2, a);
    r_neg(s + 1, s + 1); /* cos θ */
    v3_dot(s + 2, pd, er); /* a θ' cos θ */
    r_mul(s + 2, s + 2, s + 1);
    r_fma(s + 2, pd + 2, s, s + 2); /* + a θ' sin θ · sin θ */
    r_div(s + 2, s + 2, a);
    r_mul(s + 3, W, W);
    r_mul(s + 3, s + 3, s + 1);
    r_div(s + 5, g, a);
    r_sub(s + 3, s + 3, s + 5);
    r_mul(s + 3, s + 3, s); /* θ'' */
    R_DECL(c1, P); R_DECL(c2, P); R_DECL(c3, P);
    r_mul(c1, s + 3, s + 1); /* e_r: θ'' cos θ − θ'² sin θ − Ω² sin θ */
    r_mul(c2, s + 2, s + 2);
    r_mul(c3, W, W);
    r_add(c2, c2, c3);
    r_mul(c2, c2, s);
    r_sub(c1, c1, c2);
    r_mul(c2, s + 2, W); /* e_φ: 2θ'Ω cos θ */
    r_mul(c2, c2, s + 1);
    r_mul_2si(c2, c2, 1);
    for (int i = 0; i < 3; i++) {
        r_mul(want + i, c1, er + i);
        r_fma(want + i, c2, ephi + i, want + i);
        r_mul(want + i, want + i, a);
    }
    r_mul(c1, s + 3, s); /* e3: θ'' sin θ + θ'² cos θ */
    r_mul(c2, s + 2, s + 2);
    r_fma(c1, c2, s + 1, c1);
    r_mul(want + 2, c1, a);
    return CL_OK;
}

static void relativistic(void)
{
    fixture f;
    open_model(&f, "models/relativistic.model", 0, NULL, NULL, P);
    int P_form = f.ok ? cl_system_form_index(f.s, "p") : -1;
    mpfr_ptr x = cl_rvec_new_mp(8, P), y = x + 2, dx = x + 4, want = x + 6;
    mpfr_set_d(x, 0.5, MPFR_RNDN);
    mpfr_set_ui(x + 1, 10, MPFR_RNDN);
    int st = P_form < 0 ? CL_EPARAM : f.s->convert(f.inst, P_form, x, 0, y);
    mpfr_set_ui(want + 1, 101, MPFR_RNDN); /* γ² */
    mpfr_sqrt(want, want + 1, MPFR_RNDN);
    mpfr_ui_div(want, 10, want, MPFR_RNDN);
    ok(!st && rel_gap(y + 1, want, 1) <= 8 - P, "relativistic particle: p = 10 mc gives v = p/sqrt(m^2 + p^2/c^2) (2^%.1f)",
       st ? NAN : rel_gap(y + 1, want, 1));
    if (!st) st = f.s->rhs(f.inst, P_form, dx, x);
    mpfr_set_d(want + 1, -0.5, MPFR_RNDN);
    ok(!st && rel_gap(dx, want, 2) <= 8 - P, "its p form: (xdot, pdot) = (v, -k x)");
    if (!st) st = f.s->rhs(f.inst, 0, dx, y);
    mpfr_set_ui(want + 1, 101, MPFR_RNDN);
    mpfr_pow_si(want + 1, want + 1, 3, MPFR_RNDN);
    mpfr_sqrt(want + 1, want + 1, MPFR_RNDN);
    mpfr_ui_div(want + 1, 1, want + 1, MPFR_RNDN);
    mpfr_mul_d(want + 1, want + 1, -0.5, MPFR_RNDN);
    ok(!st && rel_gap(dx, want, 2) <= 8 - P, "its qdot form: xddot = -k x / (m gamma^3)");
    cl_rvec_free_mp(x);
    close_model(&f);
}

int main(void)
{
    plan(17);
    static const char *const k1[] = {"M", "m", "l"}, *const v1[] = {"2.5", "0.7", "1.3"};
    compare("models/cart-spherical.model", 3, k1, v1, cart_spherical, 4, 4);
    static const char *const k2[] = {"c1", "c2", "c3", "m0"}, *const v2[] = {"0.13", "-0.21", "-0.55", "0.4"};
    compare("models/body-on-pendulum.model", 4, k2, v2, body_on_pendulum, 12, 6);
    static const char *const k3[] = {"c1", "c2", "a3", "d3"}, *const v3[] = {"0.17", "-0.09", "-0.45", "-1.1"};
    compare("models/two-bodies.model", 4, k3, v3, two_bodies, 18, 6);
    compare("models/free-body.model", 0, NULL, NULL, free_body, 12, 6);
    static const char *const k5[] = {"M1", "M2", "M3", "f"}, *const v5[] = {"0.01", "-0.02", "0.005", "19.1"};
    compare("models/quadrotor-load.model", 4, k5, v5, quadrotor_load, 15, 9);
    relativistic();
    static const char *const k6[] = {"m", "I", "a"}, *const v6[] = {"2.1", "0.35", "0.55"};
    compare_with("models/sleigh.model", 3, k6, v6, sleigh, 3, 3, 1, "the reduced equations v' = a w^2, w' = -m a v w/(I + m a^2)");
    static const char *const k7[] = {"m", "R", "I", "J"}, *const v7[] = {"0.9", "0.45", "0.3", "0.17"};
    compare_with("models/rolling-disk.model", 4, k7, v7, rolling_disk, 4, 4, 2, "the rolling disk's theta'' = phi'' = 0");
    static const char *const k8[] = {"m", "g", "l"}, *const v8[] = {"0.7", "9.5", "1.4"};
    compare_with("models/rod-pendulum.model", 3, k8, v8, rod_pendulum, 3, 3, 1, "the spherical pendulum p'' = -g e3 + (g p.z - |p'|^2) p/l^2");
    static const char *const k9[] = {"J1", "J2", "J3"}, *const v9[] = {"0.8", "1.7", "2.9"};
    compare_with("models/veselova.model", 3, k9, v9, veselova, 9, 3, 1, "the Veselova equations M' = M x W + lambda Gamma, Gamma . W = 0");
    static const char *const k10[] = {"m", "g", "a", "Omega", "time"}, *const v10[] = {"0.45", "9.7", "0.35", "5.3", "0.83"};
    compare_with("models/hoop-bead.model", 5, k10, v10, hoop_bead, 3, 3, 0,
                 "the bead on the turning hoop, theta'' = sin(theta) (Omega^2 cos(theta) - g/a), at t = 0.83");
    cl_free_caches();
    return done_testing();
}

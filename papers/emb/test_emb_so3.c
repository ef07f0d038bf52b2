/* [EMB §3.4]: SO(3) basics, the rigid body and the heavy top — closed forms,
 * error codes, and the two integrators against the exact motion of an
 * axisymmetric body. */
#include "tap_main.h"
#include "emb_so3.h"
#include "r3.h"

/* Exact motion of the axisymmetric free body J = diag(a, a, c):
 * R(t) = exp(t m̂/a) R₀ exp(t κ ê₃), κ = (1/c − 1/a)Π₃, m = R₀Π₀ (a hand
 * derivation: Ṙ = R((Rᵀm)/a + κe₃)^ = RΩ̂ since Π₃ = (Re₃)·m is constant). */
static void axisym_exact(rptr R, rptr Om, rsrc R0, rsrc Om0, rsrc a, rsrc c, rsrc t)
{
    cl_prec_t p = r_prec(R);
    RV_DECL(Pi, 3, p); RV_DECL(m, 3, p); RV_DECL(th, 3, p); RV_DECL(E1, 9, p); RV_DECL(E2, 9, p);
    RV_DECL(T, 9, p);
    R_DECL(k, p); R_DECL(s, p);
    r_mul(Pi, a, Om0); r_mul(Pi + 1, a, Om0 + 1); r_mul(Pi + 2, c, Om0 + 2);
    m3_mul_v3(m, R0, Pi);
    r_div(s, t, a);
    v3_scale(th, s, m);
    CL_FN(cl_emb_so3_exp)(E1, th);
    r_si_div(k, 1, c);
    r_si_div(s, 1, a);
    r_sub(k, k, s);
    r_mul(k, k, Pi + 2);
    r_mul(k, k, t);
    v3_zero(th);
    r_set(th + 2, k);
    CL_FN(cl_emb_so3_exp)(E2, th);
    m3_mul(R, E1, R0);
    m3_mul(R, R, E2);
    m3_transpose(T, R);
    m3_mul_v3(Pi, T, m);
    r_div(Om, Pi, a); r_div(Om + 1, Pi + 1, a); r_div(Om + 2, Pi + 2, c);
}

/* J = diag(d0, d1, d2). */
static void set_diag(rptr J, double d0, double d1, double d2)
{
    for (int k = 0; k < 9; k++) r_set_zero(J + k);
    r_set_d(J, d0); r_set_d(J + 4, d1); r_set_d(J + 8, d2);
}

/* exp on so(3): a quarter turn, a fixed axis, orthogonality, a tiny angle. */
static void test_exp(cl_prec_t p)
{
    RV_DECL(R, 9, p); RV_DECL(th, 3, p); RV_DECL(v, 3, p);
    R_DECL(s, p); R_DECL(want, p);
    /* exp of a quarter turn about e₃ is [[0,−1,0],[1,0,0],[0,0,1]] */
    r_const_pi(s);
    r_mul_2si(s, s, -1);
    v3_zero(th);
    r_set(th + 2, s);
    CL_FN(cl_emb_so3_exp)(R, th);
    r_set_si(want, -1);
    is_real(R + 1, want, 4, "exp(pi/2 e3^)_12 = -1");
    r_set_si(want, 1);
    is_real(R + 3, want, 4, "exp(pi/2 e3^)_21 = 1");
    is_tiny(R, 4, "exp(pi/2 e3^)_11 = cos(pi/2) = 0");
    /* exp(θ^) fixes θ and is orthogonal */
    v3_set_d(th, 0.3, -1.1, 2.0);
    CL_FN(cl_emb_so3_exp)(R, th);
    m3_mul_v3(v, R, th);
    v3_sub(v, v, th);
    v3_norm(s, v);
    is_tiny(s, 16, "exp(theta^) theta = theta");
    ok(CL_FN(cl_emb_so3_log2_orth_defect)(R) <= tol_log2(p, 16), "exp(theta^) orthogonal [%s, %ld]", TEST_KIND, (long)p);
    /* small angle about e₁: the half-angle form keeps sin and 1 − cos exact to rounding */
    v3_set_d(th, 0x1p-40, 0, 0);
    CL_FN(cl_emb_so3_exp)(R, th);
    r_sin(want, th);
    r_neg(want, want);
    is_real(R + 5, want, 4, "exp of a 2^-40 turn: entry 23 = -sin(2^-40)");
    r_set_si(want, 1);
    is_real(R, want, 4, "exp of a 2^-40 turn: entry 11 = 1");
}

/* The non-standard inertia J_d and the inertias cl_emb_rigid_new refuses. */
static void test_inertia(cl_prec_t p)
{
    RV_DECL(J, 9, p); RV_DECL(Jd, 9, p); RV_DECL(A, 9, p);
    R_DECL(want, p);
    CL_FN(cl_emb_top) *t = NULL;
    /* J_d = ½ tr J I − J for J = diag(1, 2, 7/2) is diag(9/4, 5/4, −1/4), exactly */
    set_diag(J, 1, 2, 3.5);
    CL_FN(cl_emb_so3_inertia_nonstandard)(Jd, J);
    r_set_q(want, 9, 4); ok(r_cmp(Jd, want) == 0, "J_d[0] = 9/4 [%s, %ld]", TEST_KIND, (long)p);
    r_set_q(want, -1, 4); ok(r_cmp(Jd + 8, want) == 0, "J_d[2] = -1/4 [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_copy)(A, J, 9);
    r_set_d(A + 1, 0.5);
    ok(CL_FN(cl_emb_rigid_new)(&t, A) == CL_EPARAM && !t, "non-symmetric J rejected [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_copy)(A, J, 9);
    r_set_si(A + 8, -1);
    ok(CL_FN(cl_emb_rigid_new)(&t, A) == CL_EPARAM, "indefinite J rejected [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_copy)(A, J, 9);
    r_set_d(A + 4, NAN);
    ok(CL_FN(cl_emb_rigid_new)(&t, A) == CL_ENAN, "NaN in J rejected [%s, %ld]", TEST_KIND, (long)p);
}

/* The rigid body's Lagrangian in the trace form, and a steady rotation through (3.8) and Euler. */
static void test_rigid_body(cl_prec_t p)
{
    RV_DECL(J, 9, p); RV_DECL(R, 9, p); RV_DECL(th, 3, p); RV_DECL(Om, 3, p); RV_DECL(Od, 3, p);
    RV_DECL(Rd, 9, p); RV_DECL(A, 9, p); RV_DECL(W, 9, p);
    R_DECL(s, p); R_DECL(want, p);
    CL_FN(cl_emb_top) *t = NULL;
    set_diag(J, 1, 2, 3.5);
    /* L = ½ tr[Ṙ J_d Ṙᵀ] = ½ΩᵀJΩ: Ω = (1, 1, 1) gives (1 + 2 + 7/2)/2 = 13/4 */
    ok(CL_FN(cl_emb_rigid_new)(&t, J) == CL_OK, "rigid body created [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(th, 0.4, 0.5, -0.6);
    CL_FN(cl_emb_so3_exp)(R, th);
    v3_set_d(Om, 1, 1, 1);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    CL_FN(cl_emb_top_lagrangian)(t, s, R, Rd);
    r_set_q(want, 13, 4);
    is_real(s, want, 32, "tr-form Lagrangian = 1/2 W^T J W = 13/4");
    /* steady rotation about a principal axis: Euler gives Ω̇ = 0, (3.8) gives R̈ = RΩ̂² */
    v3_set_d(Om, 0, 0, 1.5);
    m3_hat(W, Om);
    m3_mul(Rd, R, W);
    ok(CL_FN(cl_emb_top_accel_38)(t, A, R, Rd) == CL_OK, "(3.8) solved [%s, %ld]", TEST_KIND, (long)p);
    m3_mul(W, W, W);
    m3_mul(W, R, W);
    for (int k = 0; k < 9; k++) r_sub(A + k, A + k, W + k);
    r_set_d(s, 0);
    for (int k = 0; k < 9; k++) if (r_cmpabs(A + k, s) > 0) r_abs(s, A + k);
    is_tiny(s, 64, "(3.8) at a steady rotation: Rddot = R W^2");
    CL_FN(cl_emb_top_euler)(t, Od, Om, NULL);
    v3_norm(s, Od);
    ok(r_is_zero(s), "Euler at a steady rotation: W' = 0 exactly [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_top_free)(t);
}

/* The tumbling state both integrator tests start from: R0 = exp((0.2, 1, −0.3)^), Ω0 = (0.7, −0.4, 1.3). */
static void tumbling_state(rptr R0, rptr O0)
{
    cl_prec_t p = r_prec(R0);
    RV_DECL(th, 3, p);
    v3_set_d(th, 0.2, 1.0, -0.3);
    CL_FN(cl_emb_so3_exp)(R0, th);
    v3_set_d(O0, 0.7, -0.4, 1.3);
}

/* log2 of the errors of the chapter's RKMK4 (eg) and of RK4 through (3.8) (er) at n = 16, 32 steps
 * against the exact (Rx, Ox) at T = 1, and the largest orthogonality defect of each. */
static void chapter_integrators(const CL_FN(cl_emb_top) *t, rsrc R0, rsrc O0, rsrc Rx, rsrc Ox, double eg[2], double er[2],
                                double *orth_g, double *orth_r)
{
    cl_prec_t p = r_prec(R0);
    RV_DECL(R, 9, p); RV_DECL(Om, 3, p); RV_DECL(Rd, 9, p); RV_DECL(A, 9, p); RV_DECL(W, 9, p);
    R_DECL(h, p);
    *orth_g = *orth_r = -INFINITY;
    for (int lev = 0; lev < 2; lev++) {
        int n = 16 << lev;
        r_set_q(h, 1, n);
        CL_FN(cl_rvec_copy)(R, R0, 9);
        v3_set(Om, O0);
        for (int k = 0; k < n; k++) CL_FN(cl_emb_top_rkmk4_step)(t, R, Om, h);
        double e1 = CL_FN(cl_rvec_log2_maxdiff)(R, Rx, 9), e2 = CL_FN(cl_rvec_log2_maxdiff)(Om, Ox, 3);
        eg[lev] = e1 > e2 ? e1 : e2;
        *orth_g = fmax(*orth_g, CL_FN(cl_emb_so3_log2_orth_defect)(R));
        CL_FN(cl_rvec_copy)(R, R0, 9);
        m3_hat(W, O0);
        m3_mul(Rd, R, W);
        for (int k = 0; k < n; k++) CL_FN(cl_emb_top_rk4_38_step)(t, R, Rd, h);
        e1 = CL_FN(cl_rvec_log2_maxdiff)(R, Rx, 9);
        m3_hat(W, Ox);
        m3_mul(A, Rx, W);
        e2 = CL_FN(cl_rvec_log2_maxdiff)(Rd, A, 9);
        er[lev] = e1 > e2 ? e1 : e2;
        *orth_r = fmax(*orth_r, CL_FN(cl_emb_so3_log2_orth_defect)(R));
    }
}

/* src/lie's RKMK4 and CF4 (closed-form dexp⁻¹) on cl_emb_top_lie_problem: order 4 too. */
static void lie_integrators(CL_FN(cl_emb_top) *t, rsrc R0, rsrc O0, rsrc Rx, rsrc Ox)
{
    cl_prec_t p = r_prec(R0);
    RV_DECL(y, 12, p); RV_DECL(yx, 12, p);
    R_DECL(h, p);
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_emb_top_lie_problem)(t, &pb);
    CL_FN(cl_rvec_copy)(yx, Rx, 9);
    v3_set(yx + 9, Ox);
    for (int meth = 0; meth < 2; meth++) {
        double el[2];
        CL_FN(cl_lie_integrator) *li;
        CL_FN(cl_lie_new)(&li, &pb, meth ? CL_LIE_CF4 : CL_LIE_RKMK4, p);
        for (int lev = 0; lev < 2; lev++) {
            int n = 16 << lev;
            r_set_q(h, 1, n);
            CL_FN(cl_rvec_copy)(y, R0, 9);
            v3_set(y + 9, O0);
            CL_FN(cl_lie_integrate_fixed)(li, y, h, n);
            el[lev] = CL_FN(cl_rvec_log2_maxdiff)(y, yx, 12);
        }
        CL_FN(cl_lie_free)(li);
        diag("src/lie %s on the axisymmetric body: error 2^%.1f, 2^%.1f", meth ? "CF4" : "RKMK4", el[0], el[1]);
        ok(el[0] - el[1] > 3.5 && el[0] - el[1] < 4.5, "src/lie %s on cl_emb_top_lie_problem is of order 4 [%s, %ld]",
           meth ? "CF4" : "RKMK4", TEST_KIND, (long)p);
    }
}

/* Axisymmetric body diag(1, 1, 5/2): RKMK4 on (R, Ω) and RK4 on (R, Ṙ)
 * through (3.8) against the exact motion at T = 1; both of order 4, so
 * halving h divides the error by about 16 (accepted: 2^3.5 to 2^4.5). */
static void test_axisymmetric(cl_prec_t p)
{
    RV_DECL(J, 9, p); RV_DECL(R0, 9, p); RV_DECL(O0, 3, p); RV_DECL(Rx, 9, p); RV_DECL(Ox, 3, p);
    R_DECL(T, p); R_DECL(a, p); R_DECL(c, p);
    CL_FN(cl_emb_top) *t = NULL;
    r_set_si(a, 1);
    r_set_q(c, 5, 2);
    set_diag(J, 1, 1, 2.5);
    CL_FN(cl_emb_rigid_new)(&t, J);
    tumbling_state(R0, O0);
    r_set_si(T, 1);
    axisym_exact(Rx, Ox, R0, O0, a, c, T);
    double eg[2], er[2], orth_g, orth_r;
    chapter_integrators(t, R0, O0, Rx, Ox, eg, er, &orth_g, &orth_r);
    diag("axisymmetric body, T = 1: RKMK4 error 2^%.1f, 2^%.1f; RK4 (3.8) error 2^%.1f, 2^%.1f", eg[0], eg[1], er[0], er[1]);
    ok(eg[0] - eg[1] > 3.5 && eg[0] - eg[1] < 4.5, "RKMK4 is of order 4 (ratio 2^%.2f) [%s, %ld]", eg[0] - eg[1], TEST_KIND, (long)p);
    ok(er[0] - er[1] > 3.5 && er[0] - er[1] < 4.5, "RK4 through (3.8) is of order 4 (ratio 2^%.2f) [%s, %ld]", er[0] - er[1], TEST_KIND, (long)p);
    /* RKMK4 stays on SO(3) to rounding (32 steps, a few ulps each); RK4 in R^{3x3} drifts like h^4 */
    ok(orth_g <= tol_log2(p, 512), "RKMK4: |R^T R - I| = 2^%.1f at rounding level [%s, %ld]", orth_g, TEST_KIND, (long)p);
    ok(orth_r > tol_log2(p, 1e6), "RK4 through (3.8): |R^T R - I| = 2^%.1f drifts with the truncation error [%s, %ld]",
       orth_r, TEST_KIND, (long)p);
    lie_integrators(t, R0, O0, Rx, Ox);
    CL_FN(cl_emb_top_free)(t);
}

/* Heavy top: energy and the Casimir Γ·Π along RKMK4, 64 steps of 1/64;
 * order 4 with an error constant of order 1 bounds the drift by 2^-20. */
static void test_heavy_top(cl_prec_t p)
{
    RV_DECL(J, 9, p); RV_DECL(R, 9, p); RV_DECL(Om, 3, p); RV_DECL(O0, 3, p); RV_DECL(rho, 3, p);
    RV_DECL(inv0, CL_EMB_TOP_NINV, p); RV_DECL(inv1, CL_EMB_TOP_NINV, p);
    R_DECL(s, p); R_DECL(h, p); R_DECL(mass, p); R_DECL(g, p);
    CL_FN(cl_emb_top) *t = NULL;
    set_diag(J, 1, 2, 3.5);
    r_set_si(mass, 1);
    CL_FN(cl_real_from_str)(g, "9.81");
    v3_zero(rho);
    CL_FN(cl_real_from_str)(rho + 2, "0.25");
    ok(CL_FN(cl_emb_heavy_top_new)(&t, J, mass, g, rho) == CL_OK, "heavy top created [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_top_free)(t);
    r_set_si(s, -1);
    ok(CL_FN(cl_emb_heavy_top_new)(&t, J, s, g, rho) == CL_EPARAM, "negative mass rejected [%s, %ld]",
       TEST_KIND, (long)p);
    CL_FN(cl_emb_heavy_top_new)(&t, J, mass, g, rho);
    tumbling_state(R, O0);
    v3_set_d(Om, 0.3, -1.2, 2.0);
    CL_FN(cl_emb_top_invariants)(t, inv0, R, Om);
    r_set_q(h, 1, 64);
    for (int k = 0; k < 64; k++) CL_FN(cl_emb_top_rkmk4_step)(t, R, Om, h);
    CL_FN(cl_emb_top_invariants)(t, inv1, R, Om);
    double de = CL_FN(cl_rvec_log2_maxdiff)(inv0, inv1, 1), dc = CL_FN(cl_rvec_log2_maxdiff)(inv0 + 5, inv1 + 5, 1);
    diag("heavy top, 64 RKMK4 steps: energy drift 2^%.1f, Casimir Gamma.Pi drift 2^%.1f", de, dc);
    ok(de < -20 && dc < -20, "heavy top: energy and Gamma.Pi conserved to the truncation error [%s, %ld]", TEST_KIND, (long)p);
    ok(CL_FN(cl_rvec_log2_maxdiff)(inv0 + 6, inv1 + 6, 1) <= tol_log2(p, 512), "heavy top: |Gamma|^2 = 1 to rounding [%s, %ld]",
       TEST_KIND, (long)p);
    CL_FN(cl_emb_top_free)(t);
}

/* The steps, in the order their TAP lines come. */
static void (*const steps[])(cl_prec_t) = {test_exp, test_inertia, test_rigid_body, test_axisymmetric, test_heavy_top};

static void run(cl_prec_t p)
{
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) steps[i](p);
}

int main(void) { return cl_test_main(run); }

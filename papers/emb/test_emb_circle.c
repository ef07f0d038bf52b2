/* [EMB §3.2]: the planar pendulum on S¹ — closed forms at chosen states and
 * integration of (3.3) against the separatrix motion θ(t) = 4 atan(e^{ωt}) − π,
 * ω² = g/ℓ (θ̇ = 2ω/cosh ωt: energy at the top). The angle form against
 * (3.3), (3.4) and the angle round trip: oracle row emb.circle.angle. */
#include "tap_main.h"
#include "emb_circle.h"
#include "emb_fixtures_impl.h"

/* (x, ẋ) ↦ (ẋ, ẍ) with ẍ from (3.3). */
static int circle_field(const void *pd, rptr dy, rsrc y)
{
    r_set(dy, y + 2);
    r_set(dy + 1, y + 3);
    return CL_FN(cl_emb_circle_el_accel)(pd, dy + 2, y, y + 2);
}

/* n steps of RK4 on (x, ẋ) ∈ R⁴. */
static void rk4_circle(const CL_FN(cl_emb_pendulum) *pd, rptr s, rsrc h, int n)
{
    cl_prec_t p = r_prec(s);
    RV_DECL(k, 16, p); RV_DECL(y, 4, p);
    for (int step = 0; step < n; step++) emb_rk4_written_out(circle_field, pd, 4, s, h, k, y);
}

static void run(cl_prec_t p)
{
    R_DECL(m, p); R_DECL(l, p); R_DECL(g, p); R_DECL(th, p); R_DECL(thd, p); R_DECL(want, p);
    R_DECL(s, p); R_DECL(h, p); R_DECL(c, p); R_DECL(E0, p);
    R_DECL(E1, p);
    RV_DECL(x, 2, p); RV_DECL(v, 2, p); RV_DECL(a, 2, p); RV_DECL(mu, 2, p); RV_DECL(xd, 2, p);
    RV_DECL(md, 2, p); RV_DECL(hx, 2, p); RV_DECL(hm, 2, p); RV_DECL(st, 4, p); RV_DECL(ex, 4, p);
    CL_FN(cl_emb_pendulum) *pd = NULL;
    r_set_si(m, 1); r_set_si(l, 1); r_set_si(g, 4);    /* ω = 2 */
    ok(CL_FN(cl_emb_pendulum_new)(&pd, 2, m, l, g) == CL_OK, "planar pendulum created [%s, %ld]", TEST_KIND, (long)p);

    /* horizontal at rest (θ = π/2): ẍ = −(g/ℓ) e₂ */
    r_const_pi(th); r_mul_2si(th, th, -1);
    r_set_zero(thd);
    CL_FN(cl_emb_circle_from_angle)(x, v, th, thd);
    CL_FN(cl_emb_circle_el_accel)(pd, a, x, v);
    r_set_si(want, -4);
    is_real(a + 1, want, 8, "(3.3): bob at the horizontal falls with -g/l");
    is_tiny(a, 8, "(3.3): no radial acceleration at rest");
    /* bottom, θ̇ = 3: centripetal ẍ = −θ̇² x = (0, 9) */
    r_set_zero(th); r_set_si(thd, 3);
    CL_FN(cl_emb_circle_from_angle)(x, v, th, thd);
    CL_FN(cl_emb_circle_el_accel)(pd, a, x, v);
    r_set_si(want, 9);
    is_real(a + 1, want, 8, "(3.3): centripetal acceleration at the bottom");
    /* P(x) = I − xxᵀ annihilates the radius x and keeps the tangent (cos θ, sin θ):
     * it projects onto the tangent line, not onto "the line normal to x" */
    {
        CL_FN(cl_emb_model) pm;
        CL_FN(cl_emb_pendulum_model)(pd, &pm);
        RV_DECL(tn, 2, p); RV_DECL(out, 2, p);
        r_set_d(th, 0.9); r_set_si(thd, 1);
        CL_FN(cl_emb_circle_from_angle)(x, tn, th, thd);
        pm.proj(pm.ctx, out, x, x);
        r_hypot(s, out, out + 1);
        is_tiny(s, 4, "S1: P(x) x = 0 (the normal line is removed)");
        pm.proj(pm.ctx, out, x, tn);
        r_sub(out, out, tn); r_sub(out + 1, out + 1, tn + 1);
        r_hypot(s, out, out + 1);
        is_tiny(s, 4, "S1: P(x) t = t for the tangent t (P projects onto the tangent line)");
    }

    /* Separatrix: from the bottom with θ̇ = 2ω = 4, integrate (3.3) with RK4
     * to T = 1 at h = 1/32 and 1/64; error against the closed form falls by
     * about 16 (order 4); the energy mℓ²θ̇²/2 − mgℓ cos θ = 4 stays within the
     * truncation error. */
    double err[2];
    for (int lev = 0; lev < 2; lev++) {
        r_set_zero(th); r_set_si(thd, 4);
        CL_FN(cl_emb_circle_from_angle)(st, st + 2, th, thd);
        CL_FN(cl_emb_pendulum_energy)(pd, E0, st, st + 2);
        int n = 32 << lev;
        r_set_q(h, 1, n);
        rk4_circle(pd, st, h, n);
        r_set_si(c, 2);
        r_exp(c, c);
        r_atan2(th, c, m);
        r_mul_2si(th, th, 2);
        r_const_pi(s);
        r_sub(th, th, s);                               /* θ(1) = 4 atan(e²) − π */
        r_set_si(c, 2);
        r_cosh(c, c);
        r_si_div(thd, 4, c);                            /* θ̇(1) = 4/cosh 2 */
        CL_FN(cl_emb_circle_from_angle)(ex, ex + 2, th, thd);
        err[lev] = CL_FN(cl_rvec_log2_maxdiff)(st, ex, 4);
        CL_FN(cl_emb_pendulum_energy)(pd, E1, st, st + 2);
    }
    r_set_si(want, 4);
    is_real(E0, want, 8, "separatrix energy m l^2 thetadot^2/2 - m g l = 4");
    diag("separatrix, T = 1: RK4 on (3.3) error 2^%.1f (h = 1/32), 2^%.1f (h = 1/64)", err[0], err[1]);
    ok(err[0] - err[1] > 3.5 && err[0] - err[1] < 4.5, "RK4 on (3.3) converges with order 4 to the separatrix [%s, %ld]",
       TEST_KIND, (long)p);
    /* bound: 4× the error at h = 1/32 divided by 2⁴ */
    ok(err[1] < err[0] - 2, "RK4 on (3.3) at h = 1/64 within 2^(e(1/32) - 2) of the closed form [%s, %ld]", TEST_KIND, (long)p);
    r_sub(E1, E1, want);
    diag("separatrix energy drift at h = 1/64: 2^%.1f", r_log2abs(E1));
    ok(r_log2abs(E1) < err[0], "energy drift below the h = 1/32 trajectory error [%s, %ld]", TEST_KIND, (long)p);

    /* errors */
    CL_FN(cl_emb_pendulum) *bad = NULL;
    ok(CL_FN(cl_emb_pendulum_new)(&bad, 4, m, l, g) == CL_EDIM && !bad, "d = 4 rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(s, 0);
    ok(CL_FN(cl_emb_pendulum_new)(&bad, 2, m, s, g) == CL_EPARAM, "zero length rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_q(x, 3, 5); r_set_q(x + 1, 4, 5);
    r_set_si(v, 4); r_set_si(v + 1, -3);
    ok(CL_FN(cl_emb_pendulum_check_state)(pd, x, v, 8) == CL_OK, "unit x, tangent v accepted [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(v, 1);
    ok(CL_FN(cl_emb_pendulum_check_state)(pd, x, v, 8) == CL_ENOTTANGENT, "non-tangent v rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(x, 1);
    ok(CL_FN(cl_emb_pendulum_check_state)(pd, x, v, 8) == CL_ENOTUNIT, "non-unit x rejected [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_pendulum_free)(pd);
}

int main(void) { return cl_test_main(run); }

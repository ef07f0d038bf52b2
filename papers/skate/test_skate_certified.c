/* Certified thresholds of the pendulum skate: the brackets of (42) and (58)
 * from cl_skate_spinning_bracket / cl_skate_sigma_bracket on Arb balls at
 * the test's precision, their widths (at most 2^(32-p) relative), the
 * closed forms inside them, the same bracket
 * in this test's own kind, and the undecided cases. The balls are built
 * from this kind's parameters taken as exact. */
#include "tap_main.h"
#include "skate_fixtures_impl.h"


/* log2 of the width of the hull of lo and hi relative to its midpoint */
static double log2_relwidth(arb_srcptr lo, arb_srcptr hi, slong prec)
{
    arb_t h;
    arb_init(h);
    arb_union(h, lo, hi, prec);
    double w = mag_get_d_log2_approx(arb_radref(h)) + 1.0 - (double)arf_abs_bound_lt_2exp_si(arb_midref(h)) + 1.0;
    arb_clear(h);
    return w;
}

static void run(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p);
    R_DECL(lo, p); R_DECL(hi, p); R_DECL(l, p); R_DECL(h, p); R_DECL(Y0, p);
    slong ap = (slong)p;
    cl_arb_set_prec(p);
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 10, 0);
    arb_ptr pb = B, lb = B + CL_SKATE_NPAR, hb = lb + 1, l0 = lb + 2, h0 = lb + 3, cf = lb + 4, yb = lb + 5,
            hull = lb + 6;
    /* the bisection stops where a verdict is no longer proven: about 25 bits short of p
       (the balls of the restricted Hessian carry the QR and null-space overestimation) */
    double want = 32.0 - (double)p;

    /* (42) at the paper's skate */
    skate_set_params(par, SKATE_PAPER);
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_of(pb + i, par + i);
    r_set_q(lo, 1, 100); r_set_si(hi, 100);
    skate_ball_of(l0, lo); skate_ball_of(h0, hi);
    int st = cl_skate_spinning_bracket_arb(lb, hb, pb, l0, h0);
    double w = log2_relwidth(lb, hb, ap);
    ok(st == CL_OK && w <= want, "(42) enclosed to relative width 2^%.1f <= 2^%.0f [%s, %ld bits]", w, want, TEST_KIND, (long)p);
    cl_arb_set_prec(2 * p); /* the closed form from the exact parameters, at twice the precision */
    cl_skate_closed_threshold_arb(cf, pb, 1);
    cl_arb_set_prec(p);
    arb_union(hull, lb, hb, ap);
    ok(arb_contains(hull, cf) && arb_lt(lb, cf) && arb_lt(cf, hb),
       "sqrt(mgl/(I3 + ml^2 - I2)) inside, strictly between the two proven ends [%s, %ld bits]", TEST_KIND, (long)p);
    /* the same bisection in this kind: its bracket holds the closed form within its rounding, 2^(12-p) relative */
    st = CL_FN(cl_skate_spinning_bracket)(l, h, par, lo, hi);
    mpfr_t m, e;
    mpfr_init2(m, 2 * p);
    mpfr_init2(e, 2 * p);
    arf_get_mpfr(m, arb_midref(cf), MPFR_RNDN);
    mpfr_mul_2si(e, m, 12 - (long)p, MPFR_RNDN);
    r_get_mpfr(m, l); /* l − cf ≤ tol and cf − h ≤ tol */
    mpfr_sub(m, m, e, MPFR_RNDN);
    int below = 0, above = 0;
    {
        mpfr_t c2;
        mpfr_init2(c2, 2 * p);
        arf_get_mpfr(c2, arb_midref(cf), MPFR_RNDN);
        below = mpfr_cmp(m, c2) <= 0;
        r_get_mpfr(m, h);
        mpfr_add(m, m, e, MPFR_RNDN);
        above = mpfr_cmp(m, c2) >= 0;
        mpfr_clear(c2);
    }
    ok(st == CL_OK && below && above, "the %s bracket ends on both sides of (42), within 2^(12-p) [%s, %ld bits]", TEST_KIND,
       TEST_KIND, (long)p);
    mpfr_clear(m);
    mpfr_clear(e);

    /* one cell's verdict and margin: the smallest restricted eigenvalue, min(I1 + ml^2,
       ((I3 + ml^2 - I2) W0^2 - mgl)/(1 + 4 l^2 W0^2)) (App. A.1 in an orthonormal basis) */
    for (int q = 0; q < 2; q++) {
        R_DECL(W, p); R_DECL(mg, p);
        int v = 0, vb = 0;
        r_set_si(W, q ? 3 : 5);
        st = CL_FN(cl_skate_spinning_verdict)(&v, l, par, W);
        arb_ptr Wb = cl_rvec_new_arb(3, p), mb = Wb + 1, ub = Wb + 2;
        skate_ball_of(Wb, W);
        int stb = cl_skate_spinning_verdict_arb(&vb, mb, pb, Wb);
        skate_mgl(mg, par);
        skate_I_ml2(h, par, CL_SKATE_I3);
        r_sub(h, h, par + CL_SKATE_I2);
        r_sqr(hi, W); r_mul(h, h, hi); r_sub(h, h, mg);
        r_mul(hi, par + CL_SKATE_L, W); r_sqr(hi, hi); r_mul_2si(hi, hi, 2); r_add_si(hi, hi, 1);
        r_div(h, h, hi); /* the s2 eigenvalue, below I1 + ml^2 here */
        skate_ball_of(ub, h);
        arb_sub(ub, ub, mb, ap);
        ok(st == CL_OK && stb == CL_OK && v == (q ? -1 : 1) && vb == v && r_sgn(l) == v,
           "cell at Omega0 = %d: verdict %d proven, margin of its sign [%s, %ld bits]", q ? 3 : 5, vb, TEST_KIND, (long)p);
        is_real(l, h, 1024, "margin = ((I3 + ml^2 - I2) W0^2 - mgl)/(1 + 4 l^2 W0^2)");
        /* the closed form at this kind's precision lies in the ball margin, or outside by at most its rounding */
        arf_t lb;
        arf_init(lb);
        arb_get_abs_lbound_arf(lb, ub, 64);
        double out = arf_is_zero(lb) ? -INFINITY : (double)arf_abs_bound_lt_2exp_si(lb);
        ok(out <= r_log2abs(h) + tol_log2(p, 64), "the ball margin holds the closed form within 2^%.1f [%s, %ld bits]", out,
           TEST_KIND, (long)p);
        arf_clear(lb);
        cl_rvec_free_arb(Wb);
    }

    /* no threshold when I3 + ml^2 < I2 */
    skate_set_params(par, SKATE_SPIN_UNSTABLE);
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_of(pb + i, par + i);
    ok(cl_skate_spinning_bracket_arb(lb, hb, pb, l0, h0) == CL_EDOMAIN, "no certified threshold when I3 + ml^2 < I2 [%s, %ld bits]",
       TEST_KIND, (long)p);

    /* (58) at the controlled skate, Y0 = 1 */
    skate_set_params(par, SKATE_CONTROLLED);
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_of(pb + i, par + i);
    r_set_si(Y0, 1);
    skate_ball_of(yb, Y0);
    r_set_q(lo, -1, 10000); r_set_q(hi, -1, 10000000);
    skate_ball_of(l0, lo); skate_ball_of(h0, hi);
    st = cl_skate_sigma_bracket_arb(lb, hb, pb, yb, l0, h0);
    w = log2_relwidth(lb, hb, ap);
    ok(st == CL_OK && w <= want, "(58) enclosed to relative width 2^%.1f <= 2^%.0f [%s, %ld bits]", w, want, TEST_KIND, (long)p);
    cl_arb_set_prec(2 * p);
    cl_skate_closed_threshold_arb(cf, pb, 0);
    cl_arb_set_prec(p);
    arb_union(hull, lb, hb, ap);
    ok(arb_contains(hull, cf), "-J1^2/(I1 + ml^2) inside the certified interval [%s, %ld bits]", TEST_KIND, (long)p);
    /* an end whose verdict cannot be proven: σ as a ball straddling (58) */
    arb_set(l0, cf);
    arb_add_error_2exp_si(l0, -30);
    ok(cl_skate_sigma_bracket_arb(lb, hb, pb, yb, l0, h0) == CL_EUNDECIDED,
       "a starting end straddling (58) is undecided, not guessed [%s, %ld bits]", TEST_KIND, (long)p);
    /* same verdict at both ends */
    ok(cl_skate_sigma_bracket_arb(lb, hb, pb, yb, h0, h0) == CL_EDOMAIN, "equal verdicts at both ends refused [%s, %ld bits]",
       TEST_KIND, (long)p);
    cl_rvec_free_arb(B);
}

int main(void)
{
    int r = cl_test_main(run);
    cl_free_caches();
    return r;
}

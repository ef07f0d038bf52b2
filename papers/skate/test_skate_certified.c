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

/* the bisection stops where a verdict is no longer proven: about 25 bits short of p
   (the balls of the restricted Hessian carry the QR and null-space overestimation) */
static double wanted_width(cl_prec_t p) { return 32.0 - (double)p; }

/* The parameters of the skate \p which, in this kind (par) and as exact balls (pb). */
static void skate_params_both(rptr par, arb_ptr pb, int which)
{
    skate_set_params(par, which);
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_of(pb + i, par + i);
}

/* The bisection in this kind from [lo, hi]: its bracket [l, h] holds the closed form cf (a ball
   at twice the precision) within its rounding, 2^(12-p) relative: l − cf ≤ tol and cf − h ≤ tol. */
static void own_kind_bracket_42(rsrc par, arb_srcptr cf, rsrc lo, rsrc hi, cl_prec_t p)
{
    R_DECL(l, p); R_DECL(h, p);
    int st = CL_FN(cl_skate_spinning_bracket)(l, h, par, lo, hi);
    mpfr_t m, e, c2;
    mpfr_inits2(2 * p, m, e, c2, (mpfr_ptr)0);
    arf_get_mpfr(c2, arb_midref(cf), MPFR_RNDN);
    mpfr_mul_2si(e, c2, 12 - (long)p, MPFR_RNDN);
    r_get_mpfr(m, l);
    mpfr_sub(m, m, e, MPFR_RNDN);
    int below = mpfr_cmp(m, c2) <= 0;
    r_get_mpfr(m, h);
    mpfr_add(m, m, e, MPFR_RNDN);
    int above = mpfr_cmp(m, c2) >= 0;
    mpfr_clears(m, e, c2, (mpfr_ptr)0);
    ok(st == CL_OK && below && above, "the %s bracket ends on both sides of (42), within 2^(12-p) [%s, %ld bits]", TEST_KIND,
       TEST_KIND, (long)p);
}

/* one cell's verdict and margin at Omega0 = W: the smallest restricted eigenvalue, min(I1 + ml^2,
   ((I3 + ml^2 - I2) W0^2 - mgl)/(1 + 4 l^2 W0^2)) (App. A.1 in an orthonormal basis) */
static void cell_verdict(rsrc par, arb_srcptr pb, int W0, cl_prec_t p)
{
    R_DECL(W, p); R_DECL(mg, p); R_DECL(l, p); R_DECL(h, p); R_DECL(t, p);
    slong ap = (slong)p;
    int v = 0, vb = 0;
    r_set_si(W, W0);
    int st = CL_FN(cl_skate_spinning_verdict)(&v, l, par, W);
    arb_ptr Wb = cl_rvec_new_arb(3, p), mb = Wb + 1, ub = Wb + 2;
    skate_ball_of(Wb, W);
    int stb = cl_skate_spinning_verdict_arb(&vb, mb, pb, Wb);
    skate_mgl(mg, par);
    skate_I_ml2(h, par, CL_SKATE_I3);
    r_sub(h, h, par + CL_SKATE_I2);
    r_sqr(t, W); r_mul(h, h, t); r_sub(h, h, mg);
    r_mul(t, par + CL_SKATE_L, W); r_sqr(t, t); r_mul_2si(t, t, 2); r_add_si(t, t, 1);
    r_div(h, h, t); /* the s2 eigenvalue, below I1 + ml^2 here */
    skate_ball_of(ub, h);
    arb_sub(ub, ub, mb, ap);
    int want = W0 == 3 ? -1 : 1;
    ok(st == CL_OK && stb == CL_OK && v == want && vb == v && r_sgn(l) == v,
       "cell at Omega0 = %d: verdict %d proven, margin of its sign [%s, %ld bits]", W0, vb, TEST_KIND, (long)p);
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

/* (42) at the paper's skate, the cells at Omega0 = 5 and 3, and no threshold when I3 + ml^2 < I2. */
static void spinning(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p);
    R_DECL(lo, p); R_DECL(hi, p);
    slong ap = (slong)p;
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 7, 0);
    arb_ptr pb = B, lb = B + CL_SKATE_NPAR, hb = lb + 1, l0 = lb + 2, h0 = lb + 3, cf = lb + 4, hull = lb + 5;
    double want = wanted_width(p);
    skate_params_both(par, pb, SKATE_PAPER);
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
    own_kind_bracket_42(par, cf, lo, hi, p);
    cell_verdict(par, pb, 5, p);
    cell_verdict(par, pb, 3, p);
    skate_params_both(par, pb, SKATE_SPIN_UNSTABLE);
    ok(cl_skate_spinning_bracket_arb(lb, hb, pb, l0, h0) == CL_EDOMAIN, "no certified threshold when I3 + ml^2 < I2 [%s, %ld bits]",
       TEST_KIND, (long)p);
    cl_rvec_free_arb(B);
}

/* (58) at the controlled skate, Y0 = 1: the interval, the closed form in it, undecided and refused ends. */
static void sliding(cl_prec_t p)
{
    RV_DECL(par, CL_SKATE_NPAR, p);
    R_DECL(lo, p); R_DECL(hi, p); R_DECL(Y0, p);
    slong ap = (slong)p;
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 7, 0);
    arb_ptr pb = B, lb = B + CL_SKATE_NPAR, hb = lb + 1, l0 = lb + 2, h0 = lb + 3, cf = lb + 4, yb = lb + 5, hull = lb + 6;
    double want = wanted_width(p);
    skate_params_both(par, pb, SKATE_CONTROLLED);
    r_set_si(Y0, 1);
    skate_ball_of(yb, Y0);
    r_set_q(lo, -1, 10000); r_set_q(hi, -1, 10000000);
    skate_ball_of(l0, lo); skate_ball_of(h0, hi);
    int st = cl_skate_sigma_bracket_arb(lb, hb, pb, yb, l0, h0);
    double w = log2_relwidth(lb, hb, ap);
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

static void run(cl_prec_t p)
{
    cl_arb_set_prec(p);
    spinning(p);
    sliding(p);
}

int main(void)
{
    int r = cl_test_main(run);
    cl_free_caches();
    return r;
}

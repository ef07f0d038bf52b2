/*
 * Oracle rows for the certified verdicts of the pendulum skate: at every
 * rung, the same quantities on Arb balls (the `_arb` instantiation of the
 * skate chapters and of src/energy_casimir, at the rung's precision, from
 * the rung's parameters taken as exact points) must contain the rung's
 * values. A rung's value is allowed outside its ball by no more than the
 * rung's own tolerance (cond·2^(1−p), relative): the discrepancy reported
 * is how far outside the ball it lies (−inf when inside). A ball that
 * misses the value by more is a bug in the ball code or in the double/MPFR
 * code; a proven ball verdict that disagrees with the rung's verdict is
 * reported as an infinite discrepancy.
 */
#include "check.h"
#include "linalg.h"
#include "skate_fixtures_impl.h"


/* log2 of how far x lies outside the ball b, relative to max(1, |x|); −inf inside. */
static double outside(arb_srcptr b, rsrc x)
{
    arb_t t;
    arf_t lb;
    arb_init(t);
    arf_init(lb);
    skate_ball_of(t, x);
    double scale = fmax(0.0, r_log2abs(x));
    arb_sub(t, t, b, cl_arb_get_prec());
    double e = -INFINITY;
    if (!arb_is_finite(t)) e = INFINITY;
    else if (!arb_contains_zero(t)) {
        arb_get_abs_lbound_arf(lb, t, 64);
        e = arf_get_d(lb, ARF_RND_UP);
        e = log2(e) - scale;
        if (!isfinite(e)) { /* below the double range: take the exponent */
            e = (double)arf_abs_bound_lt_2exp_si(lb) - scale;
        }
    }
    arb_clear(t);
    arf_clear(lb);
    return e;
}

/* Balls for the parameter vector, and the ball kind's precision = the rung's. */
static void balls_of_params(arb_ptr pb, rsrc par, cl_prec_t prec)
{
    cl_arb_set_prec(prec);
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_of(pb + i, par + i);
}

/* App. A.1 at the spinning and sliding equilibria: multipliers and restricted eigenvalues. */
CL_CHECK(skate_certified_ec, "skate.certified.ec", .chapter = "SKATE App. A.1", .tags = "[SKATE (36), (37), (41), (42), App. A.1]", .what = "Energy-Casimir multipliers and restricted Hessian eigenvalues of the rung inside their Arb balls (distance outside, relative); proven ball verdicts against the rung's", .cond = 1024, .why = "the rung's own error: Householder QR of a 5x3, a 5x5 Hessian product and a 2x2 eigenproblem")
{
    static const char *const xs[] = {"0.5", "3", "-12.5", "40", "1", "-0.3"};
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(c, 3, prec); RV_DECL(eig, 2, prec);
    R_DECL(x, prec);
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 24, 0);
    if (!B) return CL_ENOMEM;
    arb_ptr pb = B, zb = B + CL_SKATE_NPAR, cb = zb + 5, Hb = cb + 3, eb = Hb + 4, xb = eb + 4;
    cl_ec_report rep, repb;
    int st = CL_OK;
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED && !st; s++) {
        skate_set_params(par, s);
        balls_of_params(pb, par, prec);
        for (int q = 0; q < 6 && !st; q++) {
            int spin = q < 4;
            CL_FN(cl_real_from_str)(x, xs[q]);
            skate_ball_of(xb, x);
            if (spin) { CL_FN(cl_skate_spinning)(zeta, x); cl_skate_spinning_arb(zb, xb); }
            else { CL_FN(cl_skate_sliding)(zeta, x); cl_skate_sliding_arb(zb, xb); }
            if ((st = CL_FN(cl_skate_energy_casimir)(&rep, c, NULL, eig, par, zeta, 0))) break;
            if ((st = cl_skate_energy_casimir_arb(&repb, cb, Hb, NULL, pb, zb, 0))) break;
            for (int i = 0; i < 3; i++)
                cl_check_worst(res, outside(cb + i, c + i), "multiplier c%d, set %d, %s #%d", i + 1, s, spin ? "Omega0" : "Y0", q);
            cl_sym2_eig_arb(eb, Hb); /* the restricted Hessian is symmetric 2x2: closed form, cannot fail */
            for (int i = 0; i < 2; i++) {
                double e = fmin(outside(eb, eig + i), outside(eb + 1, eig + i));
                cl_check_worst(res, e, "restricted eigenvalue %d, set %d, %s #%d", i, s, spin ? "Omega0" : "Y0", q);
            }
            int vb = cl_ec_verdict(&repb, 0), vr = cl_ec_verdict(&rep, 0);
            if (vb != CL_UNDECIDED && vb != vr)
                cl_check_worst(res, INFINITY, "proven verdict %d against the rung's %d, set %d, #%d", vb, vr, s, q);
        }
    }
    cl_rvec_free_arb(B);
    return st;
}

/* Propositions 11-12: the rung's eigenvalues of the hand Jacobian inside the Rump enclosures. */
CL_CHECK(skate_certified_eig, "skate.certified.eig", .chapter = "SKATE 5.4", .tags = "[SKATE (38), (40), (41), Prop. 11, Prop. 12]", .what = "eigenvalues of the hand-derived Df at the sliding and spinning equilibria (Francis QR of the rung) inside their certified Arb enclosures (Rump; distance outside, relative)", .cond = 4096, .why = "the rung's QR on a matrix with a triple eigenvalue 0, which it finds exactly (the zero rows and columns deflate) and +-sqrt(kappa) to about 10 roundings")
{
    static const char *const xs[] = {"0.25", "2", "-9.5", "30"};
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(zeta, 5, prec); RV_DECL(J, 25, prec);
    RV_DECL(wr, 5, prec); RV_DECL(wi, 5, prec);
    R_DECL(x, prec);
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 48, 0);
    if (!B) return CL_ENOMEM;
    arb_ptr pb = B, zb = B + CL_SKATE_NPAR, Jb = zb + 5, wrb = Jb + 25, wib = wrb + 5, xb = wib + 5;
    int st = CL_OK;
    cl_check_begin(res);
    for (int s = 0; s < SKATE_NSETS_UNCONTROLLED && !st; s++) {
        skate_set_params(par, s);
        balls_of_params(pb, par, prec);
        for (int which = 0; which < 2 && !st; which++)
            for (int q = 0; q < 4 && !st; q++) {
                CL_FN(cl_real_from_str)(x, xs[q]);
                skate_ball_of(xb, x);
                if (which) { CL_FN(cl_skate_spinning)(zeta, x); cl_skate_spinning_arb(zb, xb); }
                else { CL_FN(cl_skate_sliding)(zeta, x); cl_skate_sliding_arb(zb, xb); }
                if ((st = CL_FN(cl_skate_jacobian_zeta)(J, par, zeta)) || (st = CL_FN(cl_eig)(wr, wi, J, 5))) break;
                if ((st = cl_skate_jacobian_zeta_arb(Jb, pb, zb)) || (st = cl_eig_arb(wrb, wib, Jb, 5))) break;
                for (int i = 0; i < 5; i++) {
                    double best = INFINITY;
                    for (int j = 0; j < 5; j++) best = fmin(best, fmax(outside(wrb + j, wr + i), outside(wib + j, wi + i)));
                    cl_check_worst(res, best, "eigenvalue %d, set %d, %s #%d", i, s, which ? "spinning" : "sliding", q);
                }
            }
    }
    cl_rvec_free_arb(B);
    return st;
}

/* (42) (spin) or (58) from the exact parameters, enclosed at twice the precision */
static void closed_form(arb_ptr cf, arb_srcptr pb, int spin, cl_prec_t prec)
{
    cl_arb_set_prec(2 * prec);
    cl_skate_closed_threshold_arb(cf, pb, spin);
    cl_arb_set_prec(prec);
}

/* (42) and (58): the rung's bisection value inside the certified interval. */
CL_CHECK(skate_certified_thresholds, "skate.certified.thresholds", .chapter = "SKATE 5.4, 7.1", .tags = "[SKATE (42), (58), Prop. 16]", .what = "thresholds by bisection of the rung inside the certified intervals (proven verdict at both ends, Arb balls) around (42) and (58) (distance outside, relative); the closed forms inside the intervals", .cond = 4096, .why = "the rung's bracket is 2^(8-p) wide and its verdict moves by its rounding over the slope")
{
    RV_DECL(par, CL_SKATE_NPAR, prec);
    R_DECL(lo, prec); R_DECL(hi, prec); R_DECL(thr, prec); R_DECL(Y0, prec);
    arb_ptr B = cl_rvec_new_arb(CL_SKATE_NPAR + 8, 0);
    if (!B) return CL_ENOMEM;
    arb_ptr pb = B, lb = B + CL_SKATE_NPAR, hb = lb + 1, l0 = lb + 2, h0 = lb + 3, hull = lb + 4, cf = lb + 5, yb = lb + 6;
    slong ap = (slong)prec;
    int st = CL_OK;
    cl_check_begin(res);
    for (int s = 0; s < 2 && !st; s++) {
        skate_set_params(par, s);
        balls_of_params(pb, par, prec);
        r_set_q(lo, 1, 100); r_set_si(hi, 100);
        skate_ball_of(l0, lo); skate_ball_of(h0, hi);
        if ((st = CL_FN(cl_skate_spinning_threshold)(thr, par, lo, hi))) break;
        if ((st = cl_skate_spinning_bracket_arb(lb, hb, pb, l0, h0))) break;
        arb_union(hull, lb, hb, ap);
        cl_check_worst(res, outside(hull, thr), "(42), set %d", s);
        closed_form(cf, pb, 1, prec);
        if (!arb_contains(hull, cf)) cl_check_worst(res, INFINITY, "(42) outside its certified interval, set %d", s);
    }
    skate_set_params(par, SKATE_CONTROLLED);
    balls_of_params(pb, par, prec);
    static const char *const y0s[] = {"1", "-0.3"};
    for (int q = 0; q < 2 && !st; q++) {
        CL_FN(cl_real_from_str)(Y0, y0s[q]);
        skate_ball_of(yb, Y0);
        r_set_q(lo, -1, 10000); r_set_q(hi, -1, 10000000);
        skate_ball_of(l0, lo); skate_ball_of(h0, hi);
        if ((st = CL_FN(cl_skate_sigma_threshold)(thr, par, Y0, lo, hi))) break;
        if ((st = cl_skate_sigma_bracket_arb(lb, hb, pb, yb, l0, h0))) break;
        arb_union(hull, lb, hb, ap);
        cl_check_worst(res, outside(hull, thr), "(58), Y0 #%d", q);
        closed_form(cf, pb, 0, prec);
        if (!arb_contains(hull, cf)) cl_check_worst(res, INFINITY, "(58) outside its certified interval, Y0 #%d", q);
    }
    cl_rvec_free_arb(B);
    return st;
}

/*
 * Oracle checks of the equilibria of the rigid body and the heavy top
 * [EMB 3.4] in their reduced forms, through the generic linearization of the
 * check kit (cl_system_linearize()), against closed forms:
 *  - free body (Pi), steady rotation at rate ω about principal axis k, the
 *    other two i, j: eigenvalues 0, ±√Λ with
 *    \f[ \Lambda = \omega^2\,\frac{(J_j - J_k)(J_k - J_i)}{J_i J_j}, \f]
 *    negative (a centre) about the largest and the smallest axis, positive
 *    (a saddle) about the middle one;
 *  - heavy top (PiGamma), symmetric (J₁ = J₂ = A, J₃ = C about the pivot),
 *    spinning at ω about its vertical axis, centre of mass at distance l
 *    above (sleeping) or below (hanging) the pivot: linearizing the
 *    Euler–Poisson equations in z = δΠ₁ + iδΠ₂, w = δΓ₁ + iδΓ₂ gives
 *    eigenvalues 0, 0 and ±iμ for the roots μ of
 *    \f[ \mu^2 - \frac{(2A - C)\,\omega}{A}\,\mu + \frac{(A - C)\,\omega^2 + \sigma m g l}{A} = 0,\quad
 *        \mu = \frac{(2A - C)\omega \pm \sqrt{C^2\omega^2 - 4\sigma A m g l}}{2A}, \f]
 *    σ = +1 sleeping, −1 hanging: the sleeping top is spectrally stable
 *    exactly when (Cω)² > 4 A m g l (the fast-top criterion), the hanging
 *    one always.
 * The MPFR body runs at every rung (the 53-bit rung at 53 bits).
 */
#include <math.h>
#include <stdlib.h>
#include "chartless_base.h"
#include "check.h"
#include "system.h"

/* x = the decimal s at precision prec. */
static void embe_set(mpfr_ptr x, const char *s) { mpfr_set_str(x, s, 10, MPFR_RNDN); }

CL_CHECK(emb_equilibria_rigid, "emb.equilibria.rigid", .chapter = "EMB 3.4", .tags = "[EMB 3.4]",
         .what = "rigid body J = (1, 2, 3.5), omega = 1.3, form Pi: eigenvalues at the three steady rotations against 0, +-sqrt(omega^2 (Jj - Jk)(Jk - Ji)/(Ji Jj))",
         .cond = 16, .why = "a 3x3 Jacobian by Richardson extrapolation (2^-p relative) and its eigenvalues")
{
    static const char *const keys[] = {"J", "omega"}, *const vals[] = {"1,2,3.5", "1.3"};
    static const char *const Js[] = {"1", "2", "3.5"};
    mpfr_ptr v = cl_rvec_new_mp(20, prec);
    if (!v) return CL_ENOMEM;
    mpfr_ptr wr = v, wi = v + 3, cr = v + 6, ci = v + 9, J = v + 12, w = v + 15, L = v + 16, t = v + 17;
    for (int i = 0; i < 3; i++) embe_set(J + i, Js[i]);
    embe_set(w, "1.3");
    int st = CL_OK;
    cl_check_begin(res);
    for (int k = 0; k < 3 && !st; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3, d = 0;
        st = cl_system_linearize_named("rigid-body", "Pi", 2, keys, vals, prec, k, wr, wi, &d);
        if (st) break;
        mpfr_sub(L, J + j, J + k, MPFR_RNDN);
        mpfr_sub(t, J + k, J + i, MPFR_RNDN);
        mpfr_mul(L, L, t, MPFR_RNDN);
        mpfr_mul(t, J + i, J + j, MPFR_RNDN);
        mpfr_div(L, L, t, MPFR_RNDN);
        mpfr_mul(L, L, w, MPFR_RNDN);
        mpfr_mul(L, L, w, MPFR_RNDN);
        for (int r = 0; r < 3; r++) { mpfr_set_zero(cr + r, 1); mpfr_set_zero(ci + r, 1); }
        mpfr_abs(t, L, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_ptr a = mpfr_sgn(L) < 0 ? ci : cr;
        mpfr_set(a + 1, t, MPFR_RNDN);
        mpfr_neg(a + 2, t, MPFR_RNDN);
        cl_check_worst(res, cl_eig_match_log2(wr, wi, d, cr, ci, 3), "axis %d", k + 1);
    }
    cl_rvec_free_mp(v);
    return st;
}

/*
 * The symmetric heavy top J = (1, 1, 1.5), m = 1, g = 9.81, l = 0.25 at the equilibrium k
 * (0 sleeping, 1 hanging) spinning at omega: computed eigenvalues against 0, 0, ±iμ±.
 */
static int embe_top(cl_check_result *res, cl_prec_t prec, const char *omega, int k)
{
    const char *const keys[] = {"J", "m", "g", "l", "omega"}, *const vals[] = {"1,1,1.5", "1", "9.81", "0.25", omega};
    mpfr_ptr v = cl_rvec_new_mp(32, prec);
    if (!v) return CL_ENOMEM;
    mpfr_ptr wr = v, wi = v + 6, cr = v + 12, ci = v + 18, A = v + 24, C = v + 25, w = v + 26, mgl = v + 27,
             D = v + 28, t = v + 29, a = v + 30, b = v + 31;
    int d = 0, st = cl_system_linearize_named("heavy-top", "PiGamma", 5, keys, vals, prec, k, wr, wi, &d);
    if (!st) {
        embe_set(A, "1");
        embe_set(C, "1.5");
        embe_set(w, omega);
        embe_set(mgl, "9.81");
        embe_set(t, "0.25");
        mpfr_mul(mgl, mgl, t, MPFR_RNDN);           /* m = 1 */
        if (k) mpfr_neg(mgl, mgl, MPFR_RNDN);       /* hanging: σ = −1 */
        /* D = C²ω² − 4 σ A m g l; centre a = (2A − C) ω / 2A, spread b = √|D| / 2A */
        mpfr_mul(D, C, w, MPFR_RNDN);
        mpfr_sqr(D, D, MPFR_RNDN);
        mpfr_mul(t, A, mgl, MPFR_RNDN);
        mpfr_mul_2ui(t, t, 2, MPFR_RNDN);
        mpfr_sub(D, D, t, MPFR_RNDN);
        mpfr_mul_2ui(t, A, 1, MPFR_RNDN);
        mpfr_sub(a, t, C, MPFR_RNDN);
        mpfr_mul(a, a, w, MPFR_RNDN);
        mpfr_div(a, a, t, MPFR_RNDN);
        mpfr_abs(b, D, MPFR_RNDN);
        mpfr_sqrt(b, b, MPFR_RNDN);
        mpfr_div(b, b, t, MPFR_RNDN);
        for (int r = 0; r < 6; r++) { mpfr_set_zero(cr + r, 1); mpfr_set_zero(ci + r, 1); }
        if (mpfr_sgn(D) >= 0) {
            /* μ = a ± b real: ±iμ */
            mpfr_add(ci + 2, a, b, MPFR_RNDN);
            mpfr_sub(ci + 3, a, b, MPFR_RNDN);
            mpfr_neg(ci + 4, ci + 2, MPFR_RNDN);
            mpfr_neg(ci + 5, ci + 3, MPFR_RNDN);
        } else
            /* μ = a ± ib: ±iμ = ±b ± ia */
            for (int r = 0; r < 4; r++) {
                mpfr_set(cr + 2 + r, b, MPFR_RNDN);
                mpfr_set(ci + 2 + r, a, MPFR_RNDN);
                if (r & 1) mpfr_neg(cr + 2 + r, cr + 2 + r, MPFR_RNDN);
                if (r & 2) mpfr_neg(ci + 2 + r, ci + 2 + r, MPFR_RNDN);
            }
        cl_check_worst(res, cl_eig_match_log2(wr, wi, d, cr, ci, 6), "%s, omega = %s", k ? "hanging" : "sleeping", omega);
    }
    cl_rvec_free_mp(v);
    return st;
}

CL_CHECK(emb_equilibria_heavy_top, "emb.equilibria.heavy_top", .chapter = "EMB 3.4", .tags = "[EMB 3.4]",
         .what = "symmetric heavy top J = (1, 1, 1.5), m g l = 9.81/4, form PiGamma: eigenvalues 0, 0, +-i mu, mu = ((2A - C) w +- sqrt(C^2 w^2 - 4 s A m g l)) / 2A, sleeping at w = 3 (fast) and 1 (slow), hanging at 3",
         .cond = 64, .why = "a 6x6 Jacobian by Richardson extrapolation (2^-p relative) with a double zero eigenvalue (the two Casimirs), eigenvalues by hqr: measured 2^2.4 ulps")
{
    cl_check_begin(res);
    int st = embe_top(res, prec, "3", 0);
    if (!st) st = embe_top(res, prec, "1", 0);
    if (!st) st = embe_top(res, prec, "3", 1);
    return st;
}

/*
 * Certified verdicts of the skate on Arb balls (`--certify` of equilibria,
 * stability and sweep): each parameter a ball containing the decimal the
 * user gave, the eigenvalue enclosures, the proven Energy–Casimir verdict
 * and the certified threshold intervals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"

/* ------------------------------------------------- certified verdicts (Arb balls) */

/* 1 when --certify is given, with the Arb precision then set to the working precision; else 0. */
int skate_certify_wanted(const cl_params *p, cl_prec_t prec)
{
    if (!cl_params_get(p, "certify")->given) return 0;
    cl_arb_set_prec(prec);
    return 1;
}

/* b = a ball containing the number the user wrote: x is that decimal read at
   its precision, rounded to nearest, so within half an ulp of it. */
void skate_ball_around(arb_ptr b, mpfr_srcptr x)
{
    arf_set_mpfr(arb_midref(b), x);
    if (mpfr_zero_p(x)) mag_zero(arb_radref(b));
    else mag_set_ui_2exp_si(arb_radref(b), 1, (slong)mpfr_get_exp(x) - (slong)mpfr_get_prec(x));
}

void skate_print_ball(arb_srcptr x)
{
    char *str = arb_get_str(x, (slong)(cl_arb_get_prec() * 0.30102999566398120) + 2, 0);
    fputs(str, stdout);
    flint_free(str);
}

/* The five enclosures (real imag) one per line after \p indent; 1 when one has a certified positive real part. */
int skate_print_enclosures(const char *indent, arb_srcptr wr, arb_srcptr wi)
{
    int unstable = 0;
    for (int i = 0; i < 5; i++) {
        fputs(indent, stdout);
        skate_print_ball(wr + i);
        putchar(' ');
        skate_print_ball(wi + i);
        putchar('\n');
        unstable |= arb_is_positive(wr + i);
    }
    return unstable;
}

/* log2 of radius / |midpoint| of x (its relative width is twice that) */
double skate_log2_relrad(arb_srcptr x)
{
    if (mag_is_zero(arb_radref(x))) return -INFINITY;
    return mag_get_d_log2_approx(arb_radref(x)) - (double)arf_abs_bound_lt_2exp_si(arb_midref(x)) + 1.0;
}

/* Certified eigenvalues of Df at the equilibrium k (0 sliding, 1 spinning) against 0, 0, 0, ±√κ. */
int skate_equilibria_certify(mpfr_srcptr par, mpfr_srcptr x, int k, cl_sys_error *e)
{
    slong prec = (slong)cl_arb_get_prec();
    arb_ptr pb, zeta, J, wr, wi, xb, kap, sq, t;
    arb_ptr v = CL_RVEC_SLICES_ARB(0, {&pb, CL_SKATE_NPAR}, {&zeta, 5}, {&J, 25}, {&wr, 5}, {&wi, 5}, {&xb, 1}, {&kap, 1}, {&sq, 1}, {&t, 1});
    if (!v) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    int ret = CL_EXIT_OK;
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_around(pb + i, par + i);
    skate_ball_around(xb, x);
    if (k) cl_skate_spinning_arb(zeta, xb); else cl_skate_sliding_arb(zeta, xb);
    int st = cl_skate_jacobian_zeta_arb(J, pb, zeta);
    if (!st) st = cl_eig_arb(wr, wi, J, 5);
    printf("  certified (Arb balls at %ld bits, parameters as balls around the decimals given):\n", (long)prec);
    if (st) {
        printf("  eigenvalues of Df: undecided (%s)\n", cl_strerror(st));
        goto out;
    }
    cl_skate_equilibrium_kappa_arb(kap, pb, k, xb);
    arb_abs(sq, kap);
    arb_sqrt(sq, sq, prec);
    /* Propositions 11-12: each of 0, 0, 0, +√κ, −√κ (times i when κ < 0) inside a distinct enclosure */
    int used[5] = {0}, inside = 1, contained = 1, unstable = 0;
    for (int q = 0; q < 5; q++) {
        int found = 0;
        for (int i = 0; i < 5 && !found; i++) {
            if (used[i]) continue;
            arb_srcptr re = wr + i, im = wi + i;
            int ok, in;
            if (q < 3) ok = in = arb_contains_zero(re) && arb_contains_zero(im);
            else {
                if (q == 4) arb_neg(t, sq); else arb_set(t, sq);
                arb_srcptr on = arb_is_negative(kap) ? im : re, off = arb_is_negative(kap) ? re : im;
                ok = arb_overlaps(on, t) && arb_contains_zero(off);
                in = ok && arb_contains(on, t);
            }
            if (ok) { used[i] = 1; found = 1; contained &= in; }
        }
        inside &= found;
    }
    printf("  eigenvalue enclosures (real imag):\n");
    unstable = skate_print_enclosures("    ", wr, wi);
    printf("  kappa: ");
    skate_print_ball(kap);
    printf("\n  Proposition %s values 0, 0, 0, +-%ssqrt|kappa| in distinct enclosures: %s\n", k ? "11" : "12",
           arb_is_negative(kap) ? "i*" : "",
           !inside ? "NO" : contained ? "yes (each ball of the closed form inside)" : "yes (the balls of the closed form meet them)");
    printf("  linearization, certified: %s\n\n", unstable ? "unstable (an eigenvalue with certified positive real part)"
                                                           : "undecided (no eigenvalue with certified positive real part)");
out:
    cl_rvec_free_arb(v);
    return ret;
}


/* Certified Energy–Casimir report and Df eigenvalues at ζ for the balls pb; the
   verdict line. want: 0 definite of either sign, −1 negative definite. */
static int certify_at(arb_srcptr pb, arb_srcptr zeta, int want, cl_sys_error *e)
{
    arb_ptr c, Hr, heig, J, wr, wi; /* heig: re, im of 2 */
    arb_ptr v = CL_RVEC_SLICES_ARB(0, {&c, 3}, {&Hr, 4}, {&heig, 4}, {&J, 25}, {&wr, 5}, {&wi, 5});
    if (!v) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    cl_ec_report rep;
    int ret = CL_EXIT_OK;
    /* on balls a failing step (a QR pivot or a null space not separated from 0) leaves the test undecided */
    int st = cl_skate_energy_casimir_arb(&rep, c, Hr, NULL, pb, zeta, 0);
    if (st == CL_ENOMEM) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    if (st) printf("Energy-Casimir procedure on balls: %s\n", cl_strerror(st));
    else {
        int hst = cl_eig_arb(heig, heig + 2, Hr, rep.d);
        printf("multipliers c1 c2 c3:");
        for (int i = 0; i < 3; i++) { putchar(' '); skate_print_ball(c + i); }
        printf("\nrestricted Hessian eigenvalues:");
        if (hst) printf(" not enclosed (%s)", cl_strerror(hst));
        else for (int i = 0; i < rep.d; i++) { putchar(' '); skate_print_ball(heig + i); }
        if (rep.undecided)
            printf("\ninertia: (%d, %d) proven positive, negative; %d undecided (a pivot's ball contains 0)\n", rep.npos,
                   rep.nneg, rep.undecided);
        else
            printf("\ninertia proven (positive, negative, zero) = (%d, %d, %d): every pivot's ball excludes 0\n", rep.npos,
                   rep.nneg, rep.nzero);
    }
    int est = cl_skate_jacobian_zeta_arb(J, pb, zeta);
    if (!est) est = cl_eig_arb(wr, wi, J, 5);
    int unstable = 0;
    if (est) printf("Df eigenvalues: not enclosed (%s)\n", cl_strerror(est));
    else {
        printf("Df eigenvalue enclosures (real imag):\n");
        unstable = skate_print_enclosures("  ", wr, wi);
    }
    int verdict = st ? CL_UNDECIDED : cl_ec_verdict(&rep, want);
    if (verdict == 1)
        printf("verdict: proven stable (restricted Hessian %s definite, Aeyels' Energy-Casimir theorem)\n",
               rep.definite > 0 ? "positive" : "negative");
    else if (unstable)
        printf("verdict: proven unstable (an eigenvalue of Df with certified positive real part%s)\n",
               !st && rep.nneg && rep.npos ? "; a negative direction of the restricted Hessian certified" : "");
    else if (verdict == -1)
        printf("verdict: undecided (restricted Hessian proven not %sdefinite, which proves no instability, and no eigenvalue of Df "
               "with certified positive real part)\n", want < 0 ? "negative " : "");
    else if (st)
        printf("verdict: undecided (the Energy-Casimir procedure failed on balls at %ld bits: %s)\n", (long)cl_arb_get_prec(),
               cl_strerror(st));
    else
        printf("verdict: undecided (%d sign%s of the restricted Hessian not proven at %ld bits)\n", rep.undecided,
               rep.undecided == 1 ? "" : "s", (long)cl_arb_get_prec());
out:
    cl_rvec_free_arb(v);
    return ret;
}

/* `chartless stability --certify`: the same equilibrium on balls. */
int skate_stability_certify(mpfr_srcptr par, mpfr_srcptr x, mpfr_srcptr sigma, int spin, cl_sys_error *e)
{
    arb_ptr pb, pmb, zeta, xb, sb;
    arb_ptr v = CL_RVEC_SLICES_ARB(0, {&pb, CL_SKATE_NPAR}, {&pmb, CL_SKATE_NPAR}, {&zeta, 5}, {&xb, 1}, {&sb, 1});
    if (!v) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_around(pb + i, par + i);
    skate_ball_around(xb, x);
    int ret = CL_EXIT_OK;
    if (sigma) {
        skate_ball_around(sb, sigma);
        int st = cl_skate_matched_params_arb(pmb, pb, sb);
        if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "matched parameters: %s", cl_strerror(st)); goto out; }
    } else
        cl_rvec_copy_arb(pmb, pb, CL_SKATE_NPAR);
    if (spin) cl_skate_spinning_arb(zeta, xb); else cl_skate_sliding_arb(zeta, xb);
    printf("certified (Arb balls at %ld bits; each parameter a ball around the decimal given)\n", (long)cl_arb_get_prec());
    ret = certify_at(pmb, zeta, sigma ? -1 : 0, e);
out:
    cl_rvec_free_arb(v);
    return ret;
}

/* The verdict at one point, three-way (1, −1, CL_UNDECIDED). */
static int verdict_at(arb_srcptr pb, arb_srcptr Y0, arb_srcptr x, int spin)
{
    int v = CL_UNDECIDED;
    if (spin) cl_skate_spinning_verdict_arb(&v, NULL, pb, x);
    else cl_skate_sigma_verdict_arb(&v, NULL, pb, Y0, x);
    return v;
}

/* `chartless stability --threshold --certify`: a certified interval around (42) or (58). */
int skate_threshold_certify(mpfr_srcptr par, mpfr_srcptr Y0m, int spin, cl_sys_error *e)
{
    slong prec = (slong)cl_arb_get_prec();
    arb_ptr pb, lo, hi, lo0, hi0, hull, cf, Y0;
    arb_ptr v = CL_RVEC_SLICES_ARB(0, {&pb, CL_SKATE_NPAR}, {&lo, 1}, {&hi, 1}, {&lo0, 1}, {&hi0, 1}, {&hull, 1}, {&cf, 1}, {&Y0, 1});
    if (!v) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    int ret = CL_EXIT_OK, st = CL_OK;
    for (int i = 0; i < CL_SKATE_NPAR; i++) skate_ball_around(pb + i, par + i);
    skate_ball_around(Y0, Y0m);
    /* starting bracket: as the MPFR search, each end's verdict proven */
    if (spin) {
        arb_zero(lo0);
        arb_one(hi0);
        for (int k = 0; k < 200 && verdict_at(pb, Y0, hi0, 1) != 1; k++) arb_mul_2exp_si(hi0, hi0, 1);
        st = cl_skate_spinning_bracket_arb(lo, hi, pb, lo0, hi0);
        cl_skate_closed_threshold_arb(cf, pb, 1);
    } else {
        arb_set_si(hi0, -1);
        arb_mul_2exp_si(hi0, hi0, -60);
        arb_mul_2exp_si(lo0, hi0, 1);
        for (int k = 0; k < 400 && verdict_at(pb, Y0, lo0, 0) == 1; k++) arb_mul_2exp_si(lo0, lo0, 1);
        st = cl_skate_sigma_bracket_arb(lo, hi, pb, Y0, lo0, hi0);
        cl_skate_closed_threshold_arb(cf, pb, 0);
    }
    if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "certified bisection failed: %s", cl_strerror(st)); goto out; }
    arb_union(hull, lo, hi, prec);
    printf("certified (Arb balls at %ld bits; each parameter a ball around the decimal given)\n", (long)prec);
    printf("%s threshold enclosed: the verdict is proven %s at every point of\n  ", spin ? "Omega0" : "sigma",
           spin ? "not definite below and definite above" : "negative definite on one side and not on the other");
    skate_print_ball(lo);
    printf("\n  and the other at every point of\n  ");
    skate_print_ball(hi);
    printf("\ninterval (hull): ");
    skate_print_ball(hull);
    printf("\nrelative width: 2^%.1f\n", skate_log2_relrad(hull) + 1.0);
    printf("%s: ", spin ? "(42) sqrt(mgl/(I3 + ml^2 - I2))" : "(58) -J1^2/(I1 + ml^2)");
    skate_print_ball(cf);
    printf("\nclosed form inside the interval: %s\n", arb_overlaps(hull, cf) ? (arb_contains(hull, cf) ? "yes" : "overlaps") : "NO");
out:
    cl_rvec_free_arb(v);
    return ret;
}



/*
 * The certified verdict (`chartless sweep --certify`): the same tests on Arb
 * balls at the working precision, for every parameter within one ulp of the
 * cell's (skate_ball_around(): the decimal values as given, and the cell's values
 * as printed, are inside). Stable: the restricted Hessian proven definite
 * (cl_skate_spinning_verdict(), cl_skate_sigma_verdict() through the matched
 * system, cl_ec_verdict() for the uncontrolled sliding equilibrium).
 * Unstable: an eigenvalue of the Jacobian of (38) (of the matched system
 * with sigma, computed on the balls) whose real part is proven positive
 * (Lyapunov's indirect method), looked for only when stability is not
 * proven. Undecided otherwise. The margin is the MPFR cell's.
 */
int skate_sweep_cell_certified(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e)
{
    int mp_verdict, ret = skate_sweep_cell(p, prec, &mp_verdict, margin, e), sliding, singular, ec = CL_UNDECIDED;
    if (ret) return ret;
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec);
    cl_prec_t saved = cl_arb_get_prec();
    cl_arb_set_prec(prec);
    arb_ptr bpar, bpm, x, sigma, zeta, c, J, wr, wi;
    arb_ptr b = CL_RVEC_SLICES_ARB(prec, {&bpar, CL_SKATE_NPAR}, {&bpm, CL_SKATE_NPAR}, {&x, 1}, {&sigma, 1}, {&zeta, 5},
                                   {&c, 3}, {&J, 25}, {&wr, 5}, {&wi, 5});
    *verdict = CL_SWEEP_UNDECIDED;
    if (!par || !b) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    if ((ret = skate_sweep_cell_params(par, par + CL_SKATE_NPAR, &sliding, &singular, p, e)) || singular) goto out;
    for (int k = 0; k < CL_SKATE_NPAR; k++) skate_ball_around(bpar + k, par + k);
    skate_ball_around(x, cl_params_x(p, sliding ? "Y0" : "Omega0"));
    if (sliding) cl_skate_sliding_arb(zeta, x);
    else cl_skate_spinning_arb(zeta, x);
    cl_rvec_copy_arb(bpm, bpar, CL_SKATE_NPAR);
    if (cl_params_get(p, "sigma")->given) {
        skate_ball_around(sigma, cl_params_x(p, "sigma"));
        if (cl_skate_sigma_verdict_arb(&ec, NULL, bpar, x, sigma) || cl_skate_matched_params_arb(bpm, bpar, sigma)) goto out;
    } else if (sliding) {
        cl_ec_report rep;
        if (!cl_skate_energy_casimir_arb(&rep, c, NULL, NULL, bpar, zeta, 0.0)) ec = cl_ec_verdict(&rep, 0);
    } else if (cl_skate_spinning_verdict_arb(&ec, NULL, bpar, x))
        goto out;
    if (ec == 1) { *verdict = CL_SWEEP_STABLE; goto out; }
    if (!cl_skate_jacobian_zeta_arb(J, bpm, zeta) && !cl_eig_arb(wr, wi, J, 5))
        for (int i = 0; i < 5; i++)
            if (arb_is_positive(wr + i)) *verdict = CL_SWEEP_UNSTABLE;
out:
    cl_rvec_free_arb(b);
    cl_arb_set_prec(saved);
    cl_rvec_free_mp(par);
    return ret;
}

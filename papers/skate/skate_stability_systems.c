/*
 * `chartless stability --system skate`: the Energy–Casimir test (App. A.1)
 * at an equilibrium, the conditions (42) and (58) (skate_cell_systems.c),
 * and their thresholds by bisection on the verdict (certified:
 * skate_certified_systems.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"

static const cl_param stability_params[] = {
    SKATE_BODY(NULL, NULL, NULL, NULL, NULL, NULL),
    SKATE_ROTOR(NULL, NULL, NULL),
    {.name = "equilibrium", .shape = CL_PARAM_WORD, .choices = "sliding|spinning", .help = "the equilibrium tested (required)"},
    {.name = "Omega0", .shape = CL_PARAM_NUMBER, .alias = "omega0", .metavar = "W",
     .help = "spin rate of the spinning equilibrium (41) (required there)"},
    SKATE_Y0,
    {.name = "sigma", .shape = CL_PARAM_NUMBER, .constraint = CL_PARAM_NONZERO, .metavar = "S",
     .help = "control gain of (47), (52): the controlled skate's sliding equilibrium"},
    {.name = "threshold", .shape = CL_PARAM_FLAG,
     .help = "instead: find by bisection on the verdict the Omega0 (spinning) or the sigma (sliding,\n"
             "                    controlled; no --sigma needed) where the verdict changes, beside (42) and (58)"},
    {.name = "certify", .shape = CL_PARAM_FLAG,
     .help = "also on Arb balls at --bits: proven stable / proven unstable / undecided with the enclosures\n"
             "                    (with --threshold: a certified interval around (42) or (58))"},
    CL_PARAM_END,
};

/* Bisection on the Energy–Casimir verdict: Ω₀ for spinning (from 0, where the form is
 * indefinite, and a doubling search for a definite end) and σ for the controlled sliding
 * equilibrium (from a tiny negative σ, definite, and a doubling search towards −∞). */
static int stability_threshold(const cl_params *p, cl_prec_t prec, int spin, cl_sys_error *e)
{
    mpfr_ptr lo, hi, thr, f, u, zeta, c;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec),
             v = CL_RVEC_SLICES_MP(prec, {&lo, 1}, {&hi, 1}, {&thr, 1}, {&f, 1}, {&u, 2}, {&zeta, 5}, {&c, 5});
    int ret = CL_EXIT_OK;
    if (!par || !v) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    mpfr_srcptr Y0 = cl_params_x(p, "Y0");
    /* The sliding threshold is the controlled skate's (58), whatever --sigma says. */
    if ((ret = skate_sys_params(par, p, spin ? skate_paper_uncontrolled : skate_paper_controlled, !spin, e))) goto out;
    int st = CL_OK;
    if (spin) {
        if (!skate_spin_bound_42(f, u, par)) {
            printf("I3 + ml^2 <= I2: no threshold, the spinning equilibrium is unstable for every Omega0 (Prop. 11 (i))\n");
            goto out;
        }
        mpfr_set_zero(lo, 1);
        mpfr_set_ui(hi, 1, MPFR_RNDN);
        for (int k = 0; k < 200; k++) {
            cl_ec_report rep;
            cl_skate_spinning_mp(zeta, hi);
            if ((st = cl_skate_energy_casimir_mp(&rep, c, NULL, NULL, par, zeta, 0))) break;
            if (rep.definite) break;
            mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
        }
        if (!st) st = cl_skate_spinning_threshold_mp(thr, par, lo, hi);
    } else {
        mpfr_set_si(hi, -1, MPFR_RNDN);
        mpfr_mul_2si(hi, hi, -60, MPFR_RNDN);
        mpfr_set_si(lo, -1, MPFR_RNDN);
        mpfr_mul_2si(lo, lo, -59, MPFR_RNDN);
        for (int k = 0; k < 400; k++) {
            mpfr_ptr pmv = cl_rvec_new_mp(CL_SKATE_NPAR, prec);
            cl_ec_report rep;
            if (!pmv) { st = CL_ENOMEM; break; }
            cl_skate_matched_params_mp(pmv, par, lo);
            cl_skate_sliding_mp(zeta, Y0);
            st = cl_skate_energy_casimir_mp(&rep, c, NULL, NULL, pmv, zeta, 0);
            cl_rvec_free_mp(pmv);
            if (st || rep.definite != -1) break;
            mpfr_mul_2ui(lo, lo, 1, MPFR_RNDN);
        }
        if (!st) st = cl_skate_sigma_threshold_mp(thr, par, Y0, lo, hi);
        skate_sigma_bound_58(f, u, par);
    }
    if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "bisection failed: %s", cl_strerror(st)); goto out; }
    printf("%s threshold by bisection on the Energy-Casimir verdict: ", spin ? "Omega0" : "sigma");
    cl_sys_print_real(stdout, thr);
    printf("\n%s: ", spin ? "(42) sqrt(mgl/(I3 + ml^2 - I2))" : "(58) -J1^2/(I1 + ml^2)");
    cl_sys_print_real(stdout, f);
    mpfr_sub(u, thr, f, MPFR_RNDN);
    mpfr_div(u, u, f, MPFR_RNDN);
    printf("\nrelative difference: 2^%.1f\n", cl_mpfr_log2(u));
    if (skate_certify_wanted(p, prec)) ret = skate_threshold_certify(par, Y0, spin, e);
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

static int stability_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const char *which = cl_params_get(p, "equilibrium")->word;
    const cl_param_value *sigma = cl_params_get(p, "sigma");
    if (!which) return cl_sys_error_set(e, CL_EXIT_USAGE, "--equilibrium", "--equilibrium is required (sliding or spinning)");
    int spin = !strcmp(which, "spinning");
    if (cl_params_get(p, "threshold")->given) return stability_threshold(p, prec, spin, e);
    if (spin && !cl_params_get(p, "Omega0")->given)
        return cl_sys_error_set(e, CL_EXIT_USAGE, "--omega0", "the spinning equilibrium needs --omega0");
    if (spin && sigma->given) return cl_sys_error_set(e, CL_EXIT_USAGE, "--sigma", "--sigma applies to the sliding equilibrium (Prop. 16)");
    mpfr_ptr zeta, c, Hr, eig, t, u;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec), pm = cl_rvec_new_mp(CL_SKATE_NPAR, prec),
             v = CL_RVEC_SLICES_MP(prec, {&zeta, 5}, {&c, 3}, {&Hr, 4}, {&eig, 3}, {&t, 1}, {&u, 16});
    int ret = CL_EXIT_OK;
    if (!par || !pm || !v) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    if ((ret = skate_sys_params(par, p, sigma->given ? skate_paper_controlled : skate_paper_uncontrolled, sigma->given, e))) goto out;
    mpfr_srcptr x = cl_params_x(p, spin ? "Omega0" : "Y0");
    cl_rvec_copy_mp(pm, par, CL_SKATE_NPAR);
    if (sigma->given) {
        cl_skate_matched_params_mp(pm, par, sigma->x);
        skate_moment_about_contact(u, par, P(I1));
        mpfr_add(u, u, pm + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sub(u, u, P(I1), MPFR_RNDN);
        if (mpfr_zero_p(u)) {
            ret = cl_sys_error_set(e, CL_EXIT_USAGE, "--sigma", "I1 + ml^2 + J1^2/sigma = 0: the matched system (57) is singular");
            goto out;
        }
    }
    if (spin) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
    cl_ec_report rep;
    int st = cl_skate_energy_casimir_mp(&rep, c, Hr, eig, pm, zeta, 1024);
    if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "Energy-Casimir test failed: %s", cl_strerror(st)); goto out; }
    printf("%s equilibrium%s, %s = ", spin ? "spinning (41)" : "sliding (40)",
           sigma->given ? " of the controlled skate (matched inertia (57))" : "", spin ? "Omega0" : "Y0");
    cl_sys_print_real(stdout, x);
    putchar('\n');
    skate_print_vec("zeta", zeta, 5);
    skate_print_vec("multipliers c1 c2 c3", c, 3);
    printf("residual |DE + sum c_j DC_j| / max(1, |DE|) = 2^%.1f\n", rep.log2_residual);
    printf("restricted Hessian (orthonormal basis of ker DC, dimension %d):\n", rep.d);
    for (int i = 0; i < rep.d; i++) skate_print_vec("  ", Hr + rep.d * i, rep.d);
    skate_print_vec("eigenvalues", eig, rep.d);
    printf("inertia (positive, negative, zero) = (%d, %d, %d)\n", rep.npos, rep.nneg, rep.nzero);
    printf("verdict: %s\n", rep.definite ? (rep.definite > 0 ? "stable (restricted Hessian positive definite)" : "stable (restricted Hessian negative definite)")
                                         : "Energy-Casimir test inconclusive (restricted Hessian not definite)");
    if (spin) {
        /* (42): |Ω₀| > √(mgl/(I₃ + ml² − I₂)) */
        if (skate_spin_bound_42(t, u, par)) {
            printf("condition (42): |Omega0| > ");
            cl_sys_print_real(stdout, t);
            printf(" -- %s\n", mpfr_cmpabs(x, t) > 0 ? "holds" : "fails");
        } else
            printf("condition (42) fails: I3 + ml^2 <= I2 (Prop. 11 (i): unstable)\n");
    } else if (sigma->given) {
        skate_sigma_bound_58(t, u, par);
        printf("condition (58): ");
        cl_sys_print_real(stdout, t);
        printf(" < sigma < 0\n");
    }
    if (skate_certify_wanted(p, prec)) ret = skate_stability_certify(par, x, sigma->given ? sigma->x : NULL, spin, e);
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(pm);
    cl_rvec_free_mp(v);
    return ret;
}

const cl_system_tool skate_stability = {
    .usage = "usage: chartless stability --system skate --equilibrium spinning --omega0 W [PARAMETERS]\n"
             "       chartless stability --system skate --equilibrium sliding [--Y0 Y] [--sigma S [--J1 X --J2 X --J3 X]]\n"
             "       chartless stability --system skate --equilibrium spinning|sliding --threshold [PARAMETERS]\n\n"
             "Energy-Casimir test (App. A.1) with the energy (30) and the invariants C1 (36), C2 (37), C3:\n"
             "least-squares multipliers c with the residual, the Hessian restricted to the tangent space of\n"
             "the level set, its inertia and the verdict. Defaults: the paper's Sec. 7.2 skate (m = 2,\n"
             "l = 0.8, g = 9.8, I = (0.35, 0.35, 0.004)). With --sigma the sliding equilibrium of the\n"
             "controlled skate (Prop. 16) is tested through the matched inertia (57); its defaults are the\n"
             "paper's Sec. 7.3 skate (m = 3, J = (0.005, 0.0025, 0.0025)).\n\n"
             "--certify repeats the test on Arb balls at --bits (each parameter a ball containing the decimal\n"
             "given): 'proven stable' when every pivot of the restricted Hessian is proven of one sign,\n"
             "'proven unstable' when an eigenvalue of Df has a certified positive real part, else 'undecided'\n"
             "with the reason; the enclosures are printed.\n",
    .params = stability_params,
    .run = stability_run,
};

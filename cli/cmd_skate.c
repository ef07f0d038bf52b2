/*
 * Command-line access to the pendulum skate [SKATE]:
 *   chartless equilibria --system skate ...   Jacobian eigenvalues at sliding (40) and spinning (41)
 *   chartless stability --system skate ...    the Energy–Casimir verdict (App. A.1, A.4)
 *   chartless reproduce skate-fig4|skate-fig5 Figures 4 and 5 (CSV, PNG, the event times)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "chartless.h"

/* ---------------------------------------------------------- common parsing */

typedef struct skate_opts {
    long bits;
    const char *system, *equilibrium, *out;
    const char *par[CL_SKATE_NPAR];
    const char *Y0, *Omega0, *sigma, *phi0, *tend;
    int help, threshold;
} skate_opts;

static const char *const par_keys[CL_SKATE_NPAR] = {"m", "l", "g", "I1", "I2", "I3", "J1", "J2", "J3"};

/* --key value pairs; returns CL_EXIT_OK or CL_EXIT_USAGE (message printed). */
static int parse_opts(int argc, char **argv, skate_opts *o, const char *const *positional, int npos)
{
    int np = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { o->help = 1; continue; }
        if (!strcmp(a, "--threshold")) { o->threshold = 1; continue; }
        if (strncmp(a, "--", 2)) {
            if (np < npos) { ((const char **)positional)[np++] = a; continue; }
            return cl_cli_error("unexpected argument", a);
        }
        const char *key = a + 2;
        if (i + 1 >= argc) return cl_cli_error("option needs a value", a);
        const char *v = argv[++i];
        int found = 0;
        for (int k = 0; k < CL_SKATE_NPAR && !found; k++)
            if (!strcmp(key, par_keys[k])) { o->par[k] = v; found = 1; }
        if (found) continue;
        if (!strcmp(key, "bits")) { if (cl_cli_parse_bits(v, &o->bits)) return CL_EXIT_USAGE; }
        else if (!strcmp(key, "system")) o->system = v;
        else if (!strcmp(key, "equilibrium")) o->equilibrium = v;
        else if (!strcmp(key, "Y0") || !strcmp(key, "y0")) o->Y0 = v;
        else if (!strcmp(key, "Omega0") || !strcmp(key, "omega0")) o->Omega0 = v;
        else if (!strcmp(key, "sigma")) o->sigma = v;
        else if (!strcmp(key, "phi0")) o->phi0 = v;
        else if (!strcmp(key, "t-end")) o->tend = v;
        else if (!strcmp(key, "out")) o->out = v;
        else return cl_cli_error("unknown option", a);
    }
    return CL_EXIT_OK;
}

/* Parameters at precision prec from the options and defaults; CL_EXIT_USAGE with a message. */
static int make_params(mpfr_ptr par, const skate_opts *o, const char *const *defaults, int need_I2_gt_I3, int rotor)
{
    for (int k = 0; k < CL_SKATE_NPAR; k++) {
        const char *s = o->par[k] ? o->par[k] : defaults[k];
        if (!rotor && k >= CL_SKATE_J1 && o->par[k]) return cl_cli_error("rotor moments need the controlled skate (--sigma)", par_keys[k]);
        if (cl_real_from_str_mp(par + k, s)) {
            char buf[32];
            snprintf(buf, sizeof buf, "--%s", par_keys[k]);
            return cl_cli_error("parameter is not a finite number", buf);
        }
    }
    int st = cl_skate_params_check_mp(par, need_I2_gt_I3);
    if (st == CL_OK && rotor && mpfr_sgn(par + CL_SKATE_J1) <= 0) return cl_cli_error("the rotor needs J1 > 0", "--J1");
    if (st == CL_OK) return CL_EXIT_OK;
    if (mpfr_sgn(par + CL_SKATE_M) <= 0) return cl_cli_error("mass must be positive", "--m");
    if (mpfr_sgn(par + CL_SKATE_L) <= 0) return cl_cli_error("height of the centre of mass must be positive", "--l");
    if (mpfr_sgn(par + CL_SKATE_G) < 0) return cl_cli_error("gravity must not be negative", "--g");
    for (int k = 0; k < 3; k++)
        if (mpfr_sgn(par + CL_SKATE_I1 + k) <= 0) return cl_cli_error("moments of inertia must be positive", par_keys[CL_SKATE_I1 + k]);
    for (int k = 0; k < 3; k++)
        if (mpfr_sgn(par + CL_SKATE_J1 + k) < 0) return cl_cli_error("rotor moments must not be negative", par_keys[CL_SKATE_J1 + k]);
    return cl_cli_error("I2 must exceed I3 (C2 of (37) and Propositions 11-12 assume it)", "--I2, --I3");
}

static const char *const paper_uncontrolled[CL_SKATE_NPAR] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"};
static const char *const paper_controlled[CL_SKATE_NPAR] = {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"};

static void print_vec(const char *label, mpfr_srcptr x, int n)
{
    printf("%s", label);
    for (int i = 0; i < n; i++) { putchar(' '); cl_cli_print_real(stdout, x + i); }
    putchar('\n');
}

static const char *params_help =
    "  --m M --l L --g G        mass, height of the centre of mass, gravity\n"
    "  --I1 A --I2 B --I3 C     principal moments (I2 > I3); defaults: the paper's Sec. 7.2 skate\n"
    "                           m = 2, l = 0.8, g = 9.8, I = (0.35, 0.35, 0.004)\n"
    "  --bits B                 working precision (default 53)\n";

/* ------------------------------------------------------------ equilibria */

static int cmd_equilibria(int argc, char **argv)
{
    skate_opts o = {.bits = 53};
    int r = parse_opts(argc, argv, &o, NULL, 0);
    if (r) return r;
    if (o.help) {
        printf("usage: chartless equilibria --system skate [--equilibrium sliding|spinning|all] [--Y0 Y] [--Omega0 W] [PARAMETERS]\n\n"
               "Jacobian Df of (38) (src/deriv) at the sliding equilibrium (40) zeta = (0, 0, Y0, 0, 1) and the\n"
               "spinning equilibrium (41) zeta = (0, W, 0, 0, 1), its eigenvalues (src/linalg), and beside them\n"
               "Propositions 11-12: {0, 0, 0, +-sqrt(kappa)}.\n\n%s"
               "  --Y0 Y, --Omega0 W       the equilibria (default 1 and 5)\n", params_help);
        return CL_EXIT_OK;
    }
    if (!o.system) return cl_cli_error("--system is required (the skate: --system skate)", NULL);
    if (strcmp(o.system, "skate")) return cl_cli_error("equilibria knows the skate only", o.system);
    const char *which = o.equilibrium ? o.equilibrium : "all";
    if (strcmp(which, "all") && strcmp(which, "sliding") && strcmp(which, "spinning"))
        return cl_cli_error("--equilibrium must be sliding, spinning or all", which);
    cl_prec_t p = (cl_prec_t)o.bits;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, p), v = cl_rvec_new_mp(64, p);
    if (!par || !v) { cl_rvec_free_mp(par); cl_rvec_free_mp(v); return cl_cli_error("out of memory", NULL); }
    mpfr_ptr zeta = v, J = v + 5, wr = v + 30, wi = v + 35, x = v + 40, kap = v + 41, sq = v + 42;
    int ret = make_params(par, &o, paper_uncontrolled, 1, 0);
    for (int e = 0; e < 2 && !ret; e++) {
        if ((e == 0 && !strcmp(which, "spinning")) || (e == 1 && !strcmp(which, "sliding"))) continue;
        const char *xs = e ? (o.Omega0 ? o.Omega0 : "5") : (o.Y0 ? o.Y0 : "1");
        if (cl_real_from_str_mp(x, xs)) { ret = cl_cli_error("equilibrium parameter is not a number", xs); break; }
        if (e) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
        int st = cl_skate_jacobian_deriv_mp(J, NULL, par, zeta);
        if (!st) st = cl_eig_mp(wr, wi, J, 5);
        if (st) { fprintf(stderr, "error: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; break; }
        cl_skate_equilibrium_kappa_mp(kap, par, e, x);
        printf("%s equilibrium %s = ", e ? "spinning (41)" : "sliding (40)", e ? "Omega0" : "Y0");
        cl_cli_print_real(stdout, x);
        putchar('\n');
        print_vec("  zeta", zeta, 5);
        for (int i = 0; i < 5; i++) { printf("  Df row %d", i + 1); print_vec("", J + 5 * i, 5); }
        printf("  eigenvalues (real imag):\n");
        for (int i = 0; i < 5; i++) {
            printf("   ");
            cl_cli_print_real(stdout, wr + i);
            putchar(' ');
            cl_cli_print_real(stdout, wi + i);
            putchar('\n');
        }
        mpfr_abs(sq, kap, MPFR_RNDN);
        mpfr_sqrt(sq, sq, MPFR_RNDN);
        printf("  Proposition %s: 0, 0, 0, +-%s", e ? "11 (App. A.1)" : "12", mpfr_sgn(kap) < 0 ? "i*" : "");
        cl_cli_print_real(stdout, sq);
        printf("  (kappa = ");
        cl_cli_print_real(stdout, kap);
        printf(")\n  linearization: %s\n\n",
               mpfr_sgn(kap) > 0 ? "unstable (a positive real eigenvalue)"
                                 : "inconclusive (all eigenvalues on the imaginary axis); see chartless stability");
    }
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

/* ------------------------------------------------------------- stability */

/* Bisection on the Energy–Casimir verdict: Ω₀ for spinning (from 0, where the form is
 * indefinite, and a doubling search for a definite end) and σ for the controlled sliding
 * equilibrium (from a tiny negative σ, definite, and a doubling search towards −∞). */
static int stability_threshold(const skate_opts *o, int spin)
{
    cl_prec_t p = (cl_prec_t)o->bits;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, p), v = cl_rvec_new_mp(16, p);
    int ret = CL_EXIT_OK;
    if (!par || !v) { ret = cl_cli_error("out of memory", NULL); goto out; }
    mpfr_ptr lo = v, hi = v + 1, thr = v + 2, f = v + 3, u = v + 4, Y0 = v + 5, zeta = v + 6, c = v + 11;
    if (!spin && !o->sigma) { ret = cl_cli_error("the sliding threshold is that of the controlled skate: give --sigma (any value) to select it", NULL); goto out; }
    if ((ret = make_params(par, o, spin ? paper_uncontrolled : paper_controlled, 1, !spin))) goto out;
    int st = CL_OK;
    if (spin) {
        mpfr_mul(u, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I3, MPFR_RNDN);
        mpfr_sub(u, u, par + CL_SKATE_I2, MPFR_RNDN);
        if (mpfr_sgn(u) <= 0) {
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
        mpfr_mul(f, par + CL_SKATE_M, par + CL_SKATE_G, MPFR_RNDN);
        mpfr_mul(f, f, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_div(f, f, u, MPFR_RNDN);
        mpfr_sqrt(f, f, MPFR_RNDN);
    } else {
        if (cl_real_from_str_mp(Y0, o->Y0 ? o->Y0 : "1")) { ret = cl_cli_error("--Y0 is not a number", o->Y0); goto out; }
        mpfr_set_si(hi, -1, MPFR_RNDN);
        mpfr_mul_2si(hi, hi, -60, MPFR_RNDN);
        mpfr_set_si(lo, -1, MPFR_RNDN);
        mpfr_mul_2si(lo, lo, -59, MPFR_RNDN);
        for (int k = 0; k < 400; k++) {
            mpfr_ptr pmv = cl_rvec_new_mp(CL_SKATE_NPAR, p);
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
        mpfr_mul(u, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sqr(f, par + CL_SKATE_J1, MPFR_RNDN);
        mpfr_div(f, f, u, MPFR_RNDN);
        mpfr_neg(f, f, MPFR_RNDN);
    }
    if (st) { fprintf(stderr, "error: bisection failed: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; goto out; }
    printf("%s threshold by bisection on the Energy-Casimir verdict: ", spin ? "Omega0" : "sigma");
    cl_cli_print_real(stdout, thr);
    printf("\n%s: ", spin ? "(42) sqrt(mgl/(I3 + ml^2 - I2))" : "(58) -J1^2/(I1 + ml^2)");
    cl_cli_print_real(stdout, f);
    mpfr_sub(u, thr, f, MPFR_RNDN);
    mpfr_div(u, u, f, MPFR_RNDN);
    printf("\nrelative difference: 2^%.1f\n", cl_mpfr_log2(u));
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

static int cmd_stability(int argc, char **argv)
{
    skate_opts o = {.bits = 53};
    int r = parse_opts(argc, argv, &o, NULL, 0);
    if (r) return r;
    if (o.help) {
        printf("usage: chartless stability --system skate --equilibrium spinning --omega0 W [PARAMETERS]\n"
               "       chartless stability --system skate --equilibrium sliding [--Y0 Y] [--sigma S [--J1 --J2 --J3]]\n\n"
               "Energy-Casimir test (App. A.1) with the energy (30) and the invariants C1 (36), C2 (37), C3:\n"
               "least-squares multipliers c with the residual, the Hessian restricted to the tangent space of\n"
               "the level set, its inertia and the verdict. With --sigma the sliding equilibrium of the\n"
               "controlled skate (Prop. 16) is tested through the matched inertia (57); its defaults are the\n"
               "paper's Sec. 7.3 skate (m = 3, J = (0.005, 0.0025, 0.0025)).\n\n%s"
               "  --omega0 W               spin rate of the spinning equilibrium (41)\n"
               "  --Y0 Y                   speed of the sliding equilibrium (40) (default 1)\n"
               "  --sigma S                control gain of (47), (52); S != 0\n"
               "  --threshold              instead: find by bisection on the verdict the Omega0 (spinning) or\n"
               "                           the sigma (sliding, controlled) where the verdict changes, beside\n"
               "                           (42) and (58)\n", params_help);
        return CL_EXIT_OK;
    }
    if (!o.system) return cl_cli_error("--system is required (the skate: --system skate)", NULL);
    if (strcmp(o.system, "skate")) return cl_cli_error("stability knows the skate only", o.system);
    if (!o.equilibrium) return cl_cli_error("--equilibrium is required (sliding or spinning)", NULL);
    int spin = !strcmp(o.equilibrium, "spinning");
    if (!spin && strcmp(o.equilibrium, "sliding")) return cl_cli_error("--equilibrium must be sliding or spinning", o.equilibrium);
    if (o.threshold) return stability_threshold(&o, spin);
    if (spin && !o.Omega0) return cl_cli_error("the spinning equilibrium needs --omega0", NULL);
    if (spin && o.sigma) return cl_cli_error("--sigma applies to the sliding equilibrium (Prop. 16)", o.sigma);
    cl_prec_t p = (cl_prec_t)o.bits;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, p), pm = cl_rvec_new_mp(CL_SKATE_NPAR, p), v = cl_rvec_new_mp(32, p);
    int ret = CL_EXIT_OK;
    if (!par || !pm || !v) { ret = cl_cli_error("out of memory", NULL); goto out; }
    mpfr_ptr zeta = v, c = v + 5, Hr = v + 8, eig = v + 12, x = v + 14, t = v + 15, u = v + 16;
    if ((ret = make_params(par, &o, o.sigma ? paper_controlled : paper_uncontrolled, 1, o.sigma != NULL))) goto out;
    const char *xs = spin ? o.Omega0 : (o.Y0 ? o.Y0 : "1");
    if (cl_real_from_str_mp(x, xs)) { ret = cl_cli_error("equilibrium parameter is not a number", xs); goto out; }
    cl_rvec_copy_mp(pm, par, CL_SKATE_NPAR);
    if (o.sigma) {
        if (cl_real_from_str_mp(t, o.sigma) || mpfr_zero_p(t)) { ret = cl_cli_error("--sigma must be a non-zero number", o.sigma); goto out; }
        cl_skate_matched_params_mp(pm, par, t);
        mpfr_mul(u, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I1, MPFR_RNDN);
        mpfr_add(u, u, pm + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sub(u, u, par + CL_SKATE_I1, MPFR_RNDN);
        if (mpfr_zero_p(u)) { ret = cl_cli_error("I1 + ml^2 + J1^2/sigma = 0: the matched system (57) is singular", o.sigma); goto out; }
    }
    if (spin) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
    cl_ec_report rep;
    int st = cl_skate_energy_casimir_mp(&rep, c, Hr, eig, pm, zeta, 1024);
    if (st) { fprintf(stderr, "error: Energy-Casimir test failed: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; goto out; }
    printf("%s equilibrium%s, %s = ", spin ? "spinning (41)" : "sliding (40)", o.sigma ? " of the controlled skate (matched inertia (57))" : "", spin ? "Omega0" : "Y0");
    cl_cli_print_real(stdout, x);
    putchar('\n');
    print_vec("zeta", zeta, 5);
    print_vec("multipliers c1 c2 c3", c, 3);
    printf("residual |DE + sum c_j DC_j| / max(1, |DE|) = 2^%.1f\n", rep.log2_residual);
    printf("restricted Hessian (orthonormal basis of ker DC, dimension %d):\n", rep.d);
    for (int i = 0; i < rep.d; i++) print_vec("  ", Hr + rep.d * i, rep.d);
    print_vec("eigenvalues", eig, rep.d);
    printf("inertia (positive, negative, zero) = (%d, %d, %d)\n", rep.npos, rep.nneg, rep.nzero);
    printf("verdict: %s\n", rep.definite ? (rep.definite > 0 ? "stable (restricted Hessian positive definite)" : "stable (restricted Hessian negative definite)")
                                         : "Energy-Casimir test inconclusive (restricted Hessian not definite)");
    if (spin) {
        /* (42): |Ω₀| > √(mgl/(I₃ + ml² − I₂)) */
        mpfr_mul(u, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I3, MPFR_RNDN);
        mpfr_sub(u, u, par + CL_SKATE_I2, MPFR_RNDN);
        if (mpfr_sgn(u) > 0) {
            mpfr_mul(t, par + CL_SKATE_M, par + CL_SKATE_G, MPFR_RNDN);
            mpfr_mul(t, t, par + CL_SKATE_L, MPFR_RNDN);
            mpfr_div(t, t, u, MPFR_RNDN);
            mpfr_sqrt(t, t, MPFR_RNDN);
            printf("condition (42): |Omega0| > ");
            cl_cli_print_real(stdout, t);
            printf(" -- %s\n", mpfr_cmpabs(x, t) > 0 ? "holds" : "fails");
        } else
            printf("condition (42) fails: I3 + ml^2 <= I2 (Prop. 11 (i): unstable)\n");
    } else if (o.sigma) {
        mpfr_mul(u, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(u, u, par + CL_SKATE_L, par + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sqr(t, par + CL_SKATE_J1, MPFR_RNDN);
        mpfr_div(t, t, u, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        printf("condition (58): ");
        cl_cli_print_real(stdout, t);
        printf(" < sigma < 0\n");
    }
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(pm);
    cl_rvec_free_mp(v);
    return ret;
}

static const cl_command equilibria_command = {"equilibria", "Jacobian eigenvalues at a system's equilibria (skate: sliding, spinning)", cmd_equilibria};
CL_COMMAND_REGISTER(equilibria_command)
static const cl_command stability_command = {"stability", "Energy-Casimir stability verdict at an equilibrium (skate)", cmd_stability};
CL_COMMAND_REGISTER(stability_command)

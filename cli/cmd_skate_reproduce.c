/*
 * `chartless reproduce skate-fig4|skate-fig5`: the simulations of [SKATE §7]
 * as CSV and PNG (gnuplot), with the fall time of Figure 4 and the lowest Γ₃
 * of Figure 5 located by events of the integrator.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "chartless.h"

static const char *const fig4_defaults[CL_SKATE_NPAR] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"};
static const char *const fig5_defaults[CL_SKATE_NPAR] = {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"};
static const char *const keys[CL_SKATE_NPAR] = {"m", "l", "g", "I1", "I2", "I3", "J1", "J2", "J3"};

static const char *help_text =
    "usage: chartless reproduce skate-fig4|skate-fig5 [OPTIONS] [PARAMETERS]\n"
    "\n"
    "skate-fig4  the uncontrolled skate (38) from the initial state (59) until it falls\n"
    "            (Gamma3 = 0, located by an event to working precision); defaults of Sec. 7.2:\n"
    "            m = 2, l = 0.8, g = 9.8, I = (0.35, 0.35, 0.004), phi0 = 0.1\n"
    "skate-fig5  the controlled skate (44) with the control law (53) (v1-dot from the closed\n"
    "            loop; see docs/errata_SKATE.md on (56)) over 0 <= t <= 10; every local\n"
    "            minimum of Gamma3 is located by the event dGamma3/dt = 0; defaults of Sec. 7.3:\n"
    "            m = 3, J = (0.005, 0.0025, 0.0025), sigma = -1e-5; the rotor starts at rest\n"
    "            (its rate does not enter Omega, Y, Gamma: only Pi_1 carries it, and Pi_1\n"
    "            drops out of (35))\n"
    "\n"
    "Writes DIR/skate-figN.csv (t, Omega, Y, Gamma[, theta-dot, u]) and DIR/skate-figN.png\n"
    "(gnuplot; skipped with a warning when gnuplot is missing), and prints the event times.\n"
    "\n"
    "options:\n"
    "  --out DIR          output directory (default .)\n"
    "  --bits B           working precision (default 53)\n"
    "  --phi0 X           tilt of (59) (default 0.1)\n"
    "  --state LIST       initial z = Omega1,Omega2,Omega3,Y1,Y2,Y3,Gamma1,Gamma2,Gamma3 instead of\n"
    "                     (59); it must satisfy |Gamma| = 1, Gamma1 = 0 and the constraints (19)\n"
    "  --sigma S          control gain (skate-fig5, default -0.00001)\n"
    "  --law matched|printed  control law (skate-fig5): the one that matches (57) (default) or (56)\n"
    "                     as printed\n"
    "  --t-end T          end time (default 5 for fig4, 10 for fig5)\n"
    "  --m --l --g --I1 --I2 --I3 [--J1 --J2 --J3]  parameters\n"
    "\n"
    "exit status: 0 done, 1 the integration failed, 2 bad input\n";

typedef struct fig_ctx { mpfr_srcptr par, sigma; int printed, controlled; } fig_ctx;

static int fig_rhs(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    const fig_ctx *c = ctx;
    (void)t;
    if (c->controlled) return cl_skate_rhs_z_controlled_mp(dx, c->par, c->sigma, x, c->printed);
    return cl_skate_rhs_zeta_mp(dx, c->par, x);
}

static void csv_real(FILE *f, mpfr_srcptr x) { mpfr_fprintf(f, ",%.17Rg", x); }

static int run_gnuplot(const char *dir, const char *name, int controlled)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        fprintf(stderr, "warning: gnuplot not found (tools/need cmd:gnuplot:gnuplot-nox); %s.png not drawn\n", name);
        return 0;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "gnuplot 2>/dev/null");
    FILE *g = popen(cmd, "w");
    if (!g) return -1;
    fprintf(g, "set terminal pngcairo size 900,900 font ',10'\n"
               "set output '%s/%s.png'\n"
               "set datafile separator ','\n"
               "set key top left\nset grid\nset autoscale xfix\nset xlabel 't'\n"
               "set multiplot layout 3,1 title '%s'\n",
            dir, name, controlled ? "Controlled pendulum skate (44), (53): Fig. 5" : "Uncontrolled pendulum skate (38): Fig. 4");
    fprintf(g, "set ylabel '{/Symbol W}'\n"
               "plot '%s/%s.csv' u 1:2 w l lw 2 t '{/Symbol W}_1', '' u 1:3 w l lw 2 t '{/Symbol W}_2', '' u 1:4 w l lw 2 t '{/Symbol W}_3'\n",
            dir, name);
    fprintf(g, "set ylabel 'Y'\n"
               "plot '%s/%s.csv' u 1:5 w l lw 2 t 'Y_1', '' u 1:6 w l lw 2 t 'Y_2', '' u 1:7 w l lw 2 t 'Y_3'\n",
            dir, name);
    fprintf(g, "set ylabel '{/Symbol G}'\n"
               "plot '%s/%s.csv' u 1:8 w l lw 2 t '{/Symbol G}_1', '' u 1:9 w l lw 2 t '{/Symbol G}_2', '' u 1:10 w l lw 2 t '{/Symbol G}_3'\n"
               "unset multiplot\n",
            dir, name);
    return pclose(g) == 0 ? 0 : -1;
}

static int cmd_reproduce(int argc, char **argv)
{
    const char *what = NULL, *out = ".", *phi0s = "0.1", *states = NULL, *sigmas = "-0.00001", *law = "matched", *tends = NULL;
    const char *pv[CL_SKATE_NPAR] = {0};
    long bits = 53;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(help_text, stdout); return CL_EXIT_OK; }
        if (strncmp(a, "--", 2)) {
            if (what) return cl_cli_error("one figure at a time", a);
            what = a;
            continue;
        }
        if (i + 1 >= argc) return cl_cli_error("option needs a value", a);
        const char *v = argv[++i], *k = a + 2;
        int found = 0;
        for (int j = 0; j < CL_SKATE_NPAR; j++)
            if (!strcmp(k, keys[j])) { pv[j] = v; found = 1; }
        if (found) continue;
        if (!strcmp(k, "out")) out = v;
        else if (!strcmp(k, "bits")) { if (cl_cli_parse_bits(v, &bits)) return CL_EXIT_USAGE; }
        else if (!strcmp(k, "phi0")) phi0s = v;
        else if (!strcmp(k, "state")) states = v;
        else if (!strcmp(k, "sigma")) sigmas = v;
        else if (!strcmp(k, "law")) law = v;
        else if (!strcmp(k, "t-end")) tends = v;
        else return cl_cli_error("unknown option", a);
    }
    if (!what) return cl_cli_error("which figure? skate-fig4 or skate-fig5 (chartless reproduce --help)", NULL);
    int fig5 = !strcmp(what, "skate-fig5");
    if (!fig5 && strcmp(what, "skate-fig4")) return cl_cli_error("unknown figure (skate-fig4, skate-fig5)", what);
    if (strcmp(law, "matched") && strcmp(law, "printed")) return cl_cli_error("--law must be matched or printed", law);
    if (!fig5) {
        for (int j = CL_SKATE_J1; j < CL_SKATE_NPAR; j++)
            if (pv[j]) return cl_cli_error("rotor moments belong to skate-fig5", keys[j]);
    }
    cl_prec_t p = (cl_prec_t)bits;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, p), v = cl_rvec_new_mp(64, p);
    int ret = CL_EXIT_OK;
    FILE *csv = NULL;
    cl_ode_ws_mp *ws = NULL;
    char path[4096], name[32];
    if (!par || !v) { ret = cl_cli_error("out of memory", NULL); goto out; }
    mpfr_ptr z = v, zeta = v + 10, x = v + 20, t = v + 32, t1 = v + 33, h = v + 34, tend = v + 35, sig = v + 36,
             tf = v + 37, tz = v + 38, a = v + 39, b = v + 40, u = v + 43, xe = v + 44;
    for (int j = 0; j < CL_SKATE_NPAR; j++) {
        const char *s = pv[j] ? pv[j] : (fig5 ? fig5_defaults : fig4_defaults)[j];
        if (cl_real_from_str_mp(par + j, s)) { ret = cl_cli_error("parameter is not a finite number", keys[j]); goto out; }
    }
    if (cl_skate_params_check_mp(par, 1)) {
        ret = cl_cli_error("parameters need m, l, I1, I2, I3 > 0, g >= 0, J >= 0 and I2 > I3", NULL);
        goto out;
    }
    if (fig5 && mpfr_sgn(par + CL_SKATE_J1) <= 0) { ret = cl_cli_error("the rotor needs J1 > 0", "--J1"); goto out; }
    if (cl_real_from_str_mp(sig, sigmas) || mpfr_zero_p(sig)) { ret = cl_cli_error("--sigma must be a non-zero number", sigmas); goto out; }
    if (cl_real_from_str_mp(tend, tends ? tends : (fig5 ? "10" : "5")) || mpfr_sgn(tend) <= 0) {
        ret = cl_cli_error("--t-end must be a positive number", tends);
        goto out;
    }
    /* initial state: (59) or --state, checked against the constraints */
    if (states) {
        FILE *f = fmemopen((void *)states, strlen(states), "r");
        size_t got = 0;
        int st = f ? cl_cli_read_state(f, z, 9, &got) : CL_ENOMEM;
        if (f) fclose(f);
        if (st) { ret = cl_cli_error("--state needs 9 numbers Omega, Y, Gamma", states); goto out; }
    } else {
        if (cl_real_from_str_mp(a, phi0s)) { ret = cl_cli_error("--phi0 is not a number", phi0s); goto out; }
        if (cl_skate_initial_59_mp(z, a)) { ret = cl_cli_error("(59) is undefined at cos(phi0) = 0", phi0s); goto out; }
    }
    int cst = cl_skate_check_z_mp(z, 64);
    if (cst == CL_ENOTUNIT) { ret = cl_cli_error("initial state: |Gamma| must be 1", states); goto out; }
    if (cst) {
        ret = cl_cli_error("initial state violates the constraints Gamma1 = 0, (E1 x Gamma).Omega = Gamma.Y = (E1 x Gamma).Y = 0 (19)", states);
        goto out;
    }
    if (fig5) {
        mpfr_mul(a, par + CL_SKATE_M, par + CL_SKATE_L, MPFR_RNDN);
        mpfr_fma(a, a, par + CL_SKATE_L, par + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sqr(b, par + CL_SKATE_J1, MPFR_RNDN);
        mpfr_div(b, b, sig, MPFR_RNDN);
        mpfr_add(a, a, b, MPFR_RNDN);
        if (mpfr_zero_p(a)) { ret = cl_cli_error("I1 + ml^2 + J1^2/sigma = 0: the control law is singular", sigmas); goto out; }
    }
    /* output directory and files, after all input is validated */
    if (mkdir(out, 0777) && errno != EEXIST) { ret = cl_cli_error("cannot create the output directory", out); goto out; }
    snprintf(name, sizeof name, "%s", what);
    snprintf(path, sizeof path, "%s/%s.csv", out, name);
    csv = fopen(path, "w");
    if (!csv) { ret = cl_cli_error("cannot write", path); goto out; }

    fig_ctx fc = {par, sig, !strcmp(law, "printed"), fig5};
    size_t n = fig5 ? CL_SKATE_NZ_ROTOR : CL_SKATE_NZETA;
    mpfr_set_zero(z + 9, 1); /* rotor at rest at t = 0 */
    if (fig5) cl_rvec_copy_mp(x, z, 10);
    else cl_skate_z_to_zeta_mp(x, z);
    int st = cl_ode_ws_new_mp(&ws, n, p, CL_ODE_GBS, 0);
    const long q = 12; /* the tolerance 2^(12−p) of cl_skate_fall_time() */
    mpfr_set_ui_2exp(a, 1, q - (long)p, MPFR_RNDN);
    if (!st) st = cl_ode_set_tol_mp(ws, a, a);
    if (st) { fprintf(stderr, "error: integrator: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; goto out; }
    /* the event time first (Fig. 4), so that sampling stops there */
    if (!fig5) {
        st = cl_skate_fall_time_mp(tf, xe, par, 0, x, tend);
        if (st == CL_EDOMAIN) { fprintf(stderr, "note: Gamma3 does not reach 0 before t = %g\n", mpfr_get_d(tend, MPFR_RNDN)); mpfr_set(tf, tend, MPFR_RNDN); }
        else if (st) { fprintf(stderr, "error: integration failed: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; goto out; }
    } else
        mpfr_set(tf, tend, MPFR_RNDN);
    fprintf(csv, "t,Omega1,Omega2,Omega3,Y1,Y2,Y3,Gamma1,Gamma2,Gamma3%s\n", fig5 ? ",thetadot,u" : ",v1,v2,v3");
    /* samples every 0.005 (Fig. 4) or 0.01 (Fig. 5), the last at the event or end time */
    mpfr_set_zero(t, 1);
    mpfr_set_zero(h, 1);
    for (long k = 0;; k++) {
        mpfr_set_si(t1, k, MPFR_RNDN);
        mpfr_div_si(t1, t1, fig5 ? 100 : 200, MPFR_RNDN);
        int last = mpfr_cmp(t1, tf) >= 0;
        if (last) mpfr_set(t1, tf, MPFR_RNDN);
        if (k > 0 && (st = cl_ode_integrate_mp(ws, fig_rhs, &fc, t, x, t1, h, NULL)) < 0) {
            fprintf(stderr, "error: integration failed at t = %g: %s\n", mpfr_get_d(t, MPFR_RNDN), cl_strerror(st));
            ret = CL_EXIT_FAIL;
            goto out;
        }
        if (fig5) cl_rvec_copy_mp(zeta, x, 9);
        else cl_skate_zeta_to_z_mp(zeta, x);
        mpfr_fprintf(csv, "%.17Rg", t);
        for (int i = 0; i < 9; i++) csv_real(csv, zeta + i);
        if (fig5) {
            csv_real(csv, x + 9);
            if (fc.printed) cl_skate_control_law_printed_mp(u, par, sig, x);
            else cl_skate_control_law_mp(u, par, sig, x);
            csv_real(csv, u);
        } else
            for (int i = 0; i < 3; i++) csv_real(csv, x + i);
        fputc('\n', csv);
        if (last) break;
    }
    if (fclose(csv)) { csv = NULL; ret = cl_cli_error("cannot write", path); goto out; }
    csv = NULL;
    printf("wrote %s/%s.csv\n", out, name);
    if (run_gnuplot(out, name, fig5)) fprintf(stderr, "warning: gnuplot failed; %s/%s.png not drawn\n", out, name);
    else if (system("command -v gnuplot >/dev/null 2>&1") == 0) printf("wrote %s/%s.png\n", out, name);
    if (!fig5) {
        if (mpfr_cmp(tf, tend) < 0) {
            printf("fall time (Gamma3 = 0, event on (38)): ");
            cl_cli_print_real(stdout, tf);
            /* the same event on the z-form (21), an independent computation */
            st = cl_skate_fall_time_mp(tz, xe, par, 1, z, tend);
            if (!st) {
                mpfr_sub(a, tf, tz, MPFR_RNDN);
                printf("\nfall time on the z-form (21):           ");
                cl_cli_print_real(stdout, tz);
                mpfr_printf("\ndifference: %.3Rg (paper: t = 1.025)\n", a);
            } else
                printf("\n(z-form: %s)\n", cl_strerror(st));
        }
    } else {
        int nmin = 0, nties = 0;
        st = cl_skate_controlled_min_mp(a, b, &nmin, &nties, par, sig, z, tend, fc.printed);
        if (st) { fprintf(stderr, "error: integration failed: %s\n", cl_strerror(st)); ret = CL_EXIT_FAIL; goto out; }
        printf("min Gamma3 on [0, %g] = ", mpfr_get_d(tend, MPFR_RNDN));
        cl_cli_print_real(stdout, b);
        printf("\nfirst reached at t = ");
        cl_cli_print_real(stdout, a);
        printf("\n%d local minima located by the event dGamma3/dt = 0 (rising); %d of them at the lowest level\n"
               "to within 2^%ld (integration tolerance 2^%ld)\n", nmin, nties, q + 12 - (long)p, q - (long)p);
    }
out:
    if (csv) { fclose(csv); remove(path); }
    cl_ode_ws_free_mp(ws);
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

static const cl_command reproduce_command = {"reproduce", "reproduce a paper's figure (skate-fig4, skate-fig5): CSV, PNG, event times", cmd_reproduce};
CL_COMMAND_REGISTER(reproduce_command)

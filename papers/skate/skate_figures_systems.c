/*
 * SKATE Figures 4 and 5 (`chartless reproduce skate.fig4|skate.fig5`): the
 * fall of the uncontrolled skate and the controlled skate, CSV and PNG.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"
#include <errno.h>
#include <sys/stat.h>


/* ------------------------------------------------- Figures 4 and 5 */

typedef struct fig_ctx { mpfr_srcptr par, sigma; int printed, controlled; } fig_ctx;

static int fig_rhs(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    const fig_ctx *c = ctx;
    (void)t;
    if (c->controlled) return cl_skate_rhs_z_controlled_mp(dx, c->par, c->sigma, x, c->printed);
    return cl_skate_rhs_zeta_mp(dx, c->par, x);
}

/* A CSV field with the digits of the working precision. */
static void csv_real(FILE *f, mpfr_srcptr x)
{
    fputc(',', f);
    cl_sys_print_real(f, x);
}

/* Γ₃ of the controlled skate's state: a fall is this event falling through 0. */
static int fig_gamma3(mpfr_ptr g, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    (void)t;
    (void)ctx;
    mpfr_set(g, x + 8, MPFR_RNDN);
    return CL_OK;
}

/* The command line's plotter, when it can draw here. */
static const cl_plotter *figure_plotter(void)
{
    const cl_plotter *d = cl_plotter_installed();
    return d && d->available() ? d : NULL;
}

/* The PNG of the CSV file \p csv into \p png (both temporary names until the figure is complete):
   Omega, Y and Gamma against t, a panel each. */
static int draw_figure(const cl_plotter *d, const char *png, const char *csv, const char *title)
{
    static const cl_plot_panel panels[] = {{"Omega", 2, 3}, {"Y", 5, 3}, {"Gamma", 8, 3}};
    cl_plot_request r = {.png = png, .csv = csv, .title = title, .panels = panels, .npanels = 3, .grid_columns = 1};
    char err[600];
    if (!d->draw(&r, err, sizeof err)) return 0;
    fprintf(stderr, "%s\n", err);
    return -1;
}

/* The fall time of Fig. 4 on (38), and the same event on the z-form (21) beside it. */
static int report_fall(mpfr_srcptr par, mpfr_srcptr z, mpfr_srcptr tf, mpfr_srcptr tend, mpfr_ptr w)
{
    mpfr_ptr tz = w, a = w + 1, xe = w + 2;
    if (mpfr_cmp(tf, tend) >= 0) return CL_EXIT_OK;
    printf("fall time (Gamma3 = 0, event on (38)): ");
    cl_sys_print_real(stdout, tf);
    int st = cl_skate_fall_time_mp(tz, xe, par, 1, z, tend);
    if (!st) {
        mpfr_sub(a, tf, tz, MPFR_RNDN);
        printf("\nfall time on the z-form (21):           ");
        cl_sys_print_real(stdout, tz);
        mpfr_printf("\ndifference: %.3Rg (paper: t = 1.025)\n", a);
    } else
        printf("\n(z-form: %s)\n", cl_strerror(st));
    return CL_EXIT_OK;
}

/* The lowest Γ₃ of Fig. 5, every local minimum located by an event. */
static int report_minimum(mpfr_srcptr par, mpfr_srcptr sig, mpfr_srcptr z, mpfr_srcptr tend, int printed, long q,
                          cl_prec_t prec, mpfr_ptr w, cl_sys_error *e)
{
    mpfr_ptr a = w, b = w + 1;
    int nmin = 0, nties = 0;
    int st = cl_skate_controlled_min_mp(a, b, &nmin, &nties, par, sig, z, tend, printed);
    if (st) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "integration failed: %s", cl_strerror(st));
    printf("min Gamma3 on [0, %g] = ", mpfr_get_d(tend, MPFR_RNDN));
    cl_sys_print_real(stdout, b);
    printf("\nfirst reached at t = ");
    cl_sys_print_real(stdout, a);
    printf("\n%d local minima located by the event dGamma3/dt = 0 (rising); %d of them at the lowest level\n"
           "to within 2^%ld (integration tolerance 2^%ld)\n", nmin, nties, q + 12 - (long)prec, q - (long)prec);
    return CL_EXIT_OK;
}

/* A fall of the controlled skate (the law (56) as printed makes it fall), located by the event Γ₃ = 0. */
static void report_controlled_fall(mpfr_srcptr tf, int printed)
{
    printf("fall time (Gamma3 = 0, event on (44) with the control law %s): ", printed ? "(56) as printed" : "(53)");
    cl_sys_print_real(stdout, tf);
    if (printed) printf("\n(the law as printed does not match (57): see docs/errata_SKATE.md)");
    putchar('\n');
}

/* The initial state of the figure into z: (59) or --state, checked against the
   constraints; with the control law, that it is not singular (a, b: temporaries). */
static int figure_initial(mpfr_ptr z, mpfr_ptr a, mpfr_ptr b, mpfr_srcptr par, mpfr_srcptr sig, const cl_params *p, int fig5,
                          cl_sys_error *e)
{
    const cl_param_value *state = cl_params_get(p, "state");
    if (state->given) cl_rvec_copy_mp(z, state->x, 9);
    else if (cl_skate_initial_59_mp(z, cl_params_x(p, "phi0")))
        return cl_sys_error_set(e, CL_EXIT_USAGE, "--phi0", "(59) is undefined at cos(phi0) = 0");
    int cst = cl_skate_check_z_mp(z, 64);
    if (cst == CL_ENOTUNIT) return cl_sys_error_set(e, CL_EXIT_USAGE, "--state", "initial state: |Gamma| must be 1");
    if (cst)
        return cl_sys_error_set(e, CL_EXIT_USAGE, "--state",
                                "initial state violates the constraints Gamma1 = 0, (E1 x Gamma).Omega = Gamma.Y = (E1 x Gamma).Y = 0 (19)");
    if (fig5) {
        skate_moment_about_contact(a, par, P(I1));
        mpfr_sqr(b, P(J1), MPFR_RNDN);
        mpfr_div(b, b, sig, MPFR_RNDN);
        mpfr_add(a, a, b, MPFR_RNDN);
        if (mpfr_zero_p(a)) return cl_sys_error_set(e, CL_EXIT_USAGE, "--sigma", "I1 + ml^2 + J1^2/sigma = 0: the control law is singular");
    }
    return CL_EXIT_OK;
}

/* The samples every 0.005 (Fig. 4) or 0.01 (Fig. 5) from x at t = 0, the last at
   the event or end time tf, as CSV lines into f; a fall of Fig. 5 (the event)
   moves tf there and sets *fell. */
static int figure_samples(FILE *f, cl_ode_ws_mp *ws, const fig_ctx *fc, mpfr_ptr x, mpfr_ptr tf, int *fell, cl_sys_error *e)
{
    cl_prec_t prec = mpfr_get_prec(x);
    int fig5 = fc->controlled, st, ret = CL_EXIT_OK;
    mpfr_ptr t, t1, h, u, zeta;
    mpfr_ptr v = CL_RVEC_SLICES_MP(prec, {&t, 1}, {&t1, 1}, {&h, 1}, {&u, 1}, {&zeta, 9});
    if (!v) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    mpfr_set_zero(t, 1);
    mpfr_set_zero(h, 1);
    for (long k = 0;; k++) {
        mpfr_set_si(t1, k, MPFR_RNDN);
        mpfr_div_si(t1, t1, fig5 ? 100 : 200, MPFR_RNDN);
        int last = mpfr_cmp(t1, tf) >= 0;
        if (last) mpfr_set(t1, tf, MPFR_RNDN);
        if (k > 0 && (st = cl_ode_integrate_mp(ws, fig_rhs, (void *)fc, t, x, t1, h, NULL)) < 0) {
            ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "integration failed at t = %g: %s", mpfr_get_d(t, MPFR_RNDN), cl_strerror(st));
            break;
        }
        if (k > 0 && st == CL_ODE_EVENT) {
            mpfr_set(tf, t, MPFR_RNDN);
            *fell = last = 1;
        }
        if (fig5) cl_rvec_copy_mp(zeta, x, 9);
        else cl_skate_zeta_to_z_mp(zeta, x);
        cl_sys_print_real(f, t);
        for (int i = 0; i < 9; i++) csv_real(f, zeta + i);
        if (fig5) {
            csv_real(f, x + 9);
            if (fc->printed) cl_skate_control_law_printed_mp(u, fc->par, fc->sigma, x);
            else cl_skate_control_law_mp(u, fc->par, fc->sigma, x);
            csv_real(f, u);
        } else
            for (int i = 0; i < 3; i++) csv_real(f, x + i);
        fputc('\n', f);
        if (last) break;
    }
    cl_rvec_free_mp(v);
    return ret;
}

/* Figure 4 (uncontrolled, until the fall) or 5 (controlled, (53)): CSV, PNG, the event times.
   Both files are written under temporary names and renamed into place once complete. */
static int skate_figure(const cl_params *p, cl_prec_t prec, int fig5, cl_sys_error *e)
{
    const char *out = cl_params_get(p, "out")->word;
    int printed = fig5 && !strcmp(cl_params_get(p, "law")->word, "printed");
    /* each law its own files: the printed law never replaces the figure */
    const char *name = fig5 ? (printed ? "skate-fig5-printed" : "skate-fig5") : "skate-fig4";
    mpfr_ptr z, x, tf, a, b, w; /* w: room for the reports' temporaries */
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec),
             v = CL_RVEC_SLICES_MP(prec, {&z, 10}, {&x, 12}, {&tf, 2}, {&a, 1}, {&b, 3}, {&w, 20});
    int ret = CL_EXIT_OK, fell = 0;
    cl_output csv = {.slot = -1}, png = {.slot = -1};
    cl_ode_ws_mp *ws = NULL;
    char csv_path[4096], png_path[4096];
    if (!par || !v) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    mpfr_srcptr tend = cl_params_x(p, "t-end"), sig = fig5 ? cl_params_x(p, "sigma") : NULL;
    if ((ret = skate_sys_params(par, p, fig5 ? skate_paper_controlled : skate_paper_uncontrolled, fig5, e))) goto out;
    if ((ret = figure_initial(z, a, b, par, sig, p, fig5, e))) goto out;
    /* output directory and files, after all input is validated */
    if (mkdir(out, 0777) && errno != EEXIST) { ret = cl_sys_error_set(e, CL_EXIT_USAGE, out, "cannot create the output directory"); goto out; }
    if (snprintf(csv_path, sizeof csv_path, "%s/%s.csv", out, name) >= (int)sizeof csv_path ||
        snprintf(png_path, sizeof png_path, "%s/%s.png", out, name) >= (int)sizeof png_path) {
        ret = cl_sys_error_set(e, CL_EXIT_USAGE, out, "file name too long");
        goto out;
    }
    const cl_plotter *plotter = figure_plotter();
    int plot = plotter != NULL;
    if ((ret = cl_output_open(&csv, csv_path, e)) || (plot && (ret = cl_output_open(&png, png_path, e)))) goto out;
    /* warned only once the output is known to be valid, so that an error comes first */
    if (!plot) fprintf(stderr, "warning: gnuplot not found (tools/need cmd:gnuplot:gnuplot-nox); %s.png not drawn\n", name);

    fig_ctx fc = {par, sig, printed, fig5};
    size_t n = fig5 ? CL_SKATE_NZ_ROTOR : CL_SKATE_NZETA;
    mpfr_set_zero(z + 9, 1); /* rotor at rest at t = 0 */
    if (fig5) cl_rvec_copy_mp(x, z, 10);
    else cl_skate_z_to_zeta_mp(x, z);
    int st = cl_ode_ws_new_mp(&ws, n, prec, CL_ODE_GBS, 0);
    const long q = 12; /* the tolerance 2^(12−p) of cl_skate_fall_time() */
    mpfr_set_ui_2exp(a, 1, q - (long)prec, MPFR_RNDN);
    if (!st) st = cl_ode_set_tol_mp(ws, a, a);
    /* Fig. 5: a fall (under the law (56) as printed, or at other parameters) ends the figure there */
    if (!st && fig5) st = cl_ode_set_event_mp(ws, fig_gamma3, NULL, CL_ODE_EVENT_FALLING);
    if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "integrator: %s", cl_strerror(st)); goto out; }
    /* the event time first (Fig. 4), so that sampling stops there */
    if (!fig5) {
        st = cl_skate_fall_time_mp(tf, w, par, 0, x, tend);
        if (st == CL_EDOMAIN) { fprintf(stderr, "note: Gamma3 does not reach 0 before t = %g\n", mpfr_get_d(tend, MPFR_RNDN)); mpfr_set(tf, tend, MPFR_RNDN); }
        else if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "integration failed: %s", cl_strerror(st)); goto out; }
    } else
        mpfr_set(tf, tend, MPFR_RNDN);
    fprintf(csv.f, "t,Omega1,Omega2,Omega3,Y1,Y2,Y3,Gamma1,Gamma2,Gamma3%s\n", fig5 ? ",thetadot,u" : ",v1,v2,v3");
    if ((ret = figure_samples(csv.f, ws, &fc, x, tf, &fell, e))) goto out;
    if ((ret = cl_output_close(&csv, e))) goto out;
    if (plot && draw_figure(plotter, png.tmp, csv.tmp,
                            !fig5 ? "Uncontrolled pendulum skate (38): Fig. 4"
                                  : printed ? "Controlled pendulum skate (44), the law (56) as printed"
                                            : "Controlled pendulum skate (44), (53): Fig. 5")) {
        fprintf(stderr, "warning: gnuplot failed; %s not drawn\n", png_path);
        cl_output_abort(&png);
        plot = 0;
    }
    if ((ret = cl_output_commit(&csv, e)) || (plot && (ret = cl_output_commit(&png, e)))) goto out;
    printf("wrote %s\n", csv_path);
    if (plot) printf("wrote %s\n", png_path);
    if (fell) { report_controlled_fall(tf, printed); ret = CL_EXIT_OK; }
    else ret = fig5 ? report_minimum(par, sig, z, tend, printed, q, prec, w, e) : report_fall(par, z, tf, tend, w);
out:
    cl_output_abort(&csv);
    cl_output_abort(&png);
    cl_ode_ws_free_mp(ws);
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

#define FIGURE_OPTIONS(t_end)                                                                                     \
    {.name = "out", .shape = CL_PARAM_WORD, .def = ".", .metavar = "DIR", .help = "output directory"},          \
    {.name = "phi0", .shape = CL_PARAM_NUMBER, .def = "0.1", .metavar = "X", .help = "tilt of (59)"},           \
    {.name = "state", .shape = CL_PARAM_LIST, .count = 9, .metavar = "LIST",                                    \
     .help = "initial z = Omega1,Omega2,Omega3,Y1,Y2,Y3,Gamma1,Gamma2,Gamma3 instead of (59);\n"                \
             "                    it must satisfy |Gamma| = 1, Gamma1 = 0 and the constraints (19)"},               \
    {.name = "t-end", .shape = CL_PARAM_NUMBER, .def = t_end, .constraint = CL_PARAM_POSITIVE, .metavar = "T", \
     .help = "end time"}

static const cl_param fig4_params[] = {FIGURE_OPTIONS("5"), SKATE_UNCONTROLLED, CL_PARAM_END};
static const cl_param fig5_params[] = {
    FIGURE_OPTIONS("10"),
    {.name = "sigma", .shape = CL_PARAM_NUMBER, .def = "-0.00001", .constraint = CL_PARAM_NONZERO, .metavar = "S", .help = "control gain"},
    {.name = "law", .shape = CL_PARAM_WORD, .def = "matched", .choices = "matched|printed",
     .help = "control law: the one that matches (57), or (56) as printed"},
    SKATE_BODY("3", "0.8", "9.8", "0.35", "0.35", "0.004"),
    SKATE_ROTOR("0.005", "0.0025", "0.0025"),
    CL_PARAM_END,
};

static int fig4_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e) { return skate_figure(p, prec, 0, e); }
static int fig5_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e) { return skate_figure(p, prec, 1, e); }

static const cl_figure skate_fig4 = {
    .name = "skate-fig4",
    .help = "SKATE Fig. 4: the uncontrolled skate (38) from the initial state (59) until it falls (Gamma3 = 0,\n"
            "located by an event to working precision); defaults of Sec. 7.2. Writes DIR/skate-fig4.csv\n"
            "(t, Omega, Y, Gamma, v) and DIR/skate-fig4.png, and prints the fall time.\n",
    .params = fig4_params,
    .run = fig4_run,
};
CL_FIGURE_REGISTER(skate_fig4)

static const cl_figure skate_fig5 = {
    .name = "skate-fig5",
    .help = "SKATE Fig. 5: the controlled skate (44) with the control law (53) (v1-dot from the closed loop;\n"
            "see docs/errata_SKATE.md on (56)) over 0 <= t <= 10; every local minimum of Gamma3 is located\n"
            "by the event dGamma3/dt = 0; defaults of Sec. 7.3. The rotor starts at rest (its rate does not\n"
            "enter Omega, Y, Gamma: only Pi_1 carries it, and Pi_1 drops out of (35)). Writes\n"
            "DIR/skate-fig5.csv (t, Omega, Y, Gamma, theta-dot, u) and DIR/skate-fig5.png; with --law printed\n"
            "DIR/skate-fig5-printed.csv and .png, up to the fall (Gamma3 = 0, located by an event), and its time.\n"
            "CSV numbers carry the digits of the working precision.\n",
    .params = fig5_params,
    .run = fig5_run,
};
CL_FIGURE_REGISTER(skate_fig5)

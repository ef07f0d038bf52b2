/*
 * `chartless equilibria --system skate`: the Jacobian of (38) at the sliding
 * (40) and spinning (41) equilibria, its eigenvalues beside Propositions
 * 11-12 (certified enclosures: skate_certified_systems.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"


static const cl_param equilibria_params[] = {
    SKATE_UNCONTROLLED,
    SKATE_ROTOR(NULL, NULL, NULL),
    {.name = "equilibrium", .shape = CL_PARAM_WORD, .def = "all", .choices = "sliding|spinning|all", .help = "which equilibria"},
    SKATE_Y0,
    {.name = "Omega0", .shape = CL_PARAM_NUMBER, .def = "5", .alias = "omega0", .metavar = "W",
     .help = "spin rate of the spinning equilibrium (41)"},
    {.name = "certify", .shape = CL_PARAM_FLAG,
     .help = "also: certified enclosures (Arb balls at --bits) of the eigenvalues of the hand-derived Df,\n"
             "                    and whether Propositions 11-12's values lie inside them"},
    CL_PARAM_END,
};



static int equilibria_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const char *which = cl_params_get(p, "equilibrium")->word;
    mpfr_ptr zeta, J, wr, wi, kap, sq;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec),
             v = CL_RVEC_SLICES_MP(prec, {&zeta, 5}, {&J, 25}, {&wr, 5}, {&wi, 5}, {&kap, 1}, {&sq, 1});
    if (!par || !v) { cl_rvec_free_mp(par); cl_rvec_free_mp(v); return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); }
    int ret = skate_sys_params(par, p, skate_paper_uncontrolled, 0, e);
    for (int k = 0; k < 2 && !ret; k++) {
        if ((k == 0 && !strcmp(which, "spinning")) || (k == 1 && !strcmp(which, "sliding"))) continue;
        mpfr_srcptr x = cl_params_x(p, k ? "Omega0" : "Y0");
        if (k) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
        int st = cl_skate_jacobian_deriv_mp(J, NULL, par, zeta);
        if (!st) st = cl_eig_mp(wr, wi, J, 5);
        if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "%s", cl_strerror(st)); break; }
        cl_skate_equilibrium_kappa_mp(kap, par, k, x);
        printf("%s equilibrium %s = ", k ? "spinning (41)" : "sliding (40)", k ? "Omega0" : "Y0");
        cl_sys_print_real(stdout, x);
        putchar('\n');
        skate_print_vec("  zeta", zeta, 5);
        for (int i = 0; i < 5; i++) { printf("  Df row %d", i + 1); skate_print_vec("", J + 5 * i, 5); }
        printf("  eigenvalues (real imag):\n");
        for (int i = 0; i < 5; i++) {
            printf("   ");
            cl_sys_print_real(stdout, wr + i);
            putchar(' ');
            cl_sys_print_real(stdout, wi + i);
            putchar('\n');
        }
        mpfr_abs(sq, kap, MPFR_RNDN);
        mpfr_sqrt(sq, sq, MPFR_RNDN);
        printf("  Proposition %s: 0, 0, 0, +-%s", k ? "11 (App. A.1)" : "12", mpfr_sgn(kap) < 0 ? "i*" : "");
        cl_sys_print_real(stdout, sq);
        printf("  (kappa = ");
        cl_sys_print_real(stdout, kap);
        printf(")\n  linearization: %s\n\n",
               mpfr_sgn(kap) > 0 ? "unstable (a positive real eigenvalue)"
                                 : "inconclusive (all eigenvalues on the imaginary axis); see chartless stability");
        if (skate_certify_wanted(p, prec) && (ret = skate_equilibria_certify(par, x, k, e))) break;
    }
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

const cl_system_tool skate_equilibria = {
    .usage = "usage: chartless equilibria --system skate [--equilibrium sliding|spinning|all] [--Y0 Y] [--Omega0 W] [PARAMETERS]\n\n"
             "Jacobian Df of (38) (src/deriv) at the sliding equilibrium (40) zeta = (0, 0, Y0, 0, 1) and the\n"
             "spinning equilibrium (41) zeta = (0, W, 0, 0, 1), its eigenvalues (src/linalg), and beside them\n"
             "Propositions 11-12: {0, 0, 0, +-sqrt(kappa)}. Defaults: the paper's Sec. 7.2 skate.\n"
             "--certify adds certified enclosures of the eigenvalues of the hand-derived Df on Arb balls at\n"
             "--bits (Rump's method; the triple 0 as one cluster), each parameter a ball around the decimal given.\n",
    .params = equilibria_params,
    .run = equilibria_run,
};

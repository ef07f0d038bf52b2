/*
 * `chartless sweep --system skate`: the spinning equilibrium (41), and the
 * sliding equilibrium (40) of the controlled skate through its matched
 * system (57), over a grid: the table, the boundary (42) or (58) the plot
 * draws, the cells (skate_cell_systems.c; certified:
 * skate_certified_systems.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"

/* ------------------------------------------------- stability maps */

/* The spinning equilibrium (41), and the sliding equilibrium (40) of the
 * controlled skate through its matched system (57), over a grid
 * (`chartless sweep --system skate`): each cell's Energy–Casimir verdict, and
 * the linear instability of Props. 11 and 12 where the form is indefinite. */

static const cl_param sweep_params[] = {
    SKATE_BODY(NULL, NULL, NULL, NULL, NULL, NULL),
    SKATE_ROTOR(NULL, NULL, NULL),
    {.name = "equilibrium", .shape = CL_PARAM_WORD, .def = "spinning", .choices = "spinning|sliding",
     .help = "the equilibrium tested: spinning (41) or sliding (40)"},
    {.name = "Omega0", .shape = CL_PARAM_NUMBER, .def = "5", .alias = "omega0", .metavar = "W",
     .help = "spin rate of the spinning equilibrium (41)"},
    SKATE_Y0,
    {.name = "sigma", .shape = CL_PARAM_NUMBER, .constraint = CL_PARAM_NONZERO, .metavar = "S",
     .help = "control gain of (47), (52): the controlled skate's sliding equilibrium (Prop. 16)"},
    {.name = "asym", .shape = CL_PARAM_NUMBER, .constraint = CL_PARAM_POSITIVE, .metavar = "R",
     .help = "(I2 - I3)/I3: sets I2 = I3 (1 + R) instead of --I2"},
    CL_PARAM_END,
};

/* Spinning: (42) solved for Omega0 (±√(mgl/(I₃ + ml² − I₂))) or for asym ((ml² − mgl/Ω₀²)/I₃,
 * from I₂ = I₃ + ml² − mgl/Ω₀²). Sliding with sigma: (58) solved for sigma (−J₁²/(I₁ + ml²)) or
 * for J1 (√(−σ(I₁ + ml²)), σ < 0). None for the other parameters. */
static int sweep_boundary(const cl_params *p, cl_prec_t prec, const char *name, mpfr_ptr at, const char **label)
{
    int n = 0, sliding, singular;
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(2, prec);
    cl_sys_error e;
    if (!par || !v || skate_sweep_cell_params(par, par + CL_SKATE_NPAR, &sliding, &singular, p, &e)) goto out;
    *label = sliding ? "(58)" : "(42)";
    if (!sliding && !strcmp(name, "Omega0")) {
        if (skate_spin_bound_42(at, v, par)) {
            mpfr_neg(at + 1, at, MPFR_RNDN);
            n = 2;
        }
    } else if (!sliding && !strcmp(name, "asym") && !mpfr_zero_p(cl_params_x(p, "Omega0"))) {
        mpfr_mul(v, P(M), P(G), MPFR_RNDN);
        mpfr_mul(v, v, P(L), MPFR_RNDN);
        mpfr_div(v, v, cl_params_x(p, "Omega0"), MPFR_RNDN);
        mpfr_div(v, v, cl_params_x(p, "Omega0"), MPFR_RNDN);
        skate_moment_about_contact(v + 1, par, P(I3));
        mpfr_sub(at, v + 1, v, MPFR_RNDN);
        mpfr_div(at, at, P(I3), MPFR_RNDN);
        mpfr_sub_ui(at, at, 1, MPFR_RNDN); /* (I3 + ml^2 - mgl/W^2)/I3 - 1 */
        n = mpfr_sgn(at) > 0;
    } else if (sliding && cl_params_get(p, "sigma")->given && !strcmp(name, "sigma")) {
        skate_sigma_bound_58(at, v, par);
        n = 1;
    } else if (sliding && cl_params_get(p, "sigma")->given && !strcmp(name, "J1") && mpfr_sgn(cl_params_x(p, "sigma")) < 0) {
        skate_moment_about_contact(v, par, P(I1));
        mpfr_mul(at, v, cl_params_x(p, "sigma"), MPFR_RNDN);
        mpfr_neg(at, at, MPFR_RNDN);
        mpfr_sqrt(at, at, MPFR_RNDN);
        n = 1;
    }
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return n;
}

const cl_system_sweep skate_sweep = {
    .usage = "skate: an equilibrium over a grid of its parameters: the spinning equilibrium (41), zeta =\n"
             "(0, Omega0, 0, 0, 1) (the paper's Sec. 7.2 skate), or with --equilibrium sliding the sliding\n"
             "equilibrium (40), zeta = (0, 0, Y0, 0, 1), of the skate (Prop. 12) or with sigma of the\n"
             "controlled skate through its matched system (57) (Prop. 16; the Sec. 7.3 skate). Axes: any\n"
             "number parameter, e.g. Omega0 x asym = (I2 - I3)/I3, or sigma x J1. Verdict: stable when the\n"
             "Energy-Casimir form (App. A.1) restricted to the level set is definite; unstable when it is\n"
             "indefinite and the Jacobian of (38) has an eigenvalue with a positive real part (Props. 11,\n"
             "12); undecided otherwise (a pivot within 1024 d 2^(1-p) max|H| of zero, the spectrum on the\n"
             "imaginary axis to within sqrt(1024 2^(1-p)) max|Df|, or I1 + ml^2 + J1^2/sigma = 0). Margin:\n"
             "min|eig H_r| / max|eig H_r| (0 on the boundary). The boundary drawn by --plot is (42),\n"
             "|Omega0| = sqrt(mgl/(I3 + ml^2 - I2)), or (58), sigma = -J1^2/(I1 + ml^2).\n",
    .params = sweep_params,
    .cell = skate_sweep_cell,
    .cell_certified = skate_sweep_cell_certified,
    .boundary = sweep_boundary,
};

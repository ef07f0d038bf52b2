/*
 * `chartless sweep --system skate`: the spinning equilibrium (41), and the
 * sliding equilibrium (40) of the controlled skate through its matched
 * system (57), over a grid (certified cells: skate_certified_systems.c).
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

/* Inertia of the restricted Hessian: pivots within SWEEP_ZERO_TOL·d·2^(1−p)·max|H| of zero count as zero. */
#define SWEEP_ZERO_TOL 1024

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

/*
 * A cell's parameters: the body's into par (the table's, the paper's Sec. 7.2
 * skate or with --sigma its Sec. 7.3 one, I₂ = I₃(1 + asym) when asym is
 * given) and those the test runs on into pm (the matched system (57) with
 * --sigma, else par). *sliding: the equilibrium. *singular: the matched
 * Ī₁ = I₁ + ml² + J₁²/σ is 0, where (57) has no equations (the boundary (58)).
 */
int skate_sweep_cell_params(mpfr_ptr par, mpfr_ptr pm, int *sliding, int *singular, const cl_params *p, cl_sys_error *e)
{
    const cl_param_value *asym = cl_params_get(p, "asym"), *sigma = cl_params_get(p, "sigma");
    *sliding = !strcmp(cl_params_get(p, "equilibrium")->word, "sliding");
    *singular = 0;
    if (asym->given && cl_params_get(p, "I2")->given)
        return cl_sys_error_set(e, CL_EXIT_USAGE, "--I2", "give --I2 or asym = (I2 - I3)/I3, not both");
    if (!*sliding && sigma->given) return cl_sys_error_set(e, CL_EXIT_USAGE, "sigma", "sigma applies to the sliding equilibrium (Prop. 16)");
    if (*sliding && cl_params_get(p, "Omega0")->given)
        return cl_sys_error_set(e, CL_EXIT_USAGE, "Omega0", "Omega0 applies to the spinning equilibrium");
    if (!*sliding && cl_params_get(p, "Y0")->given) return cl_sys_error_set(e, CL_EXIT_USAGE, "Y0", "Y0 applies to the sliding equilibrium");
    int ret = skate_sys_params(par, p, sigma->given ? skate_paper_controlled : skate_paper_uncontrolled, sigma->given, e);
    if (ret) return ret;
    if (asym->given) {
        mpfr_add_ui(P(I2), asym->x, 1, MPFR_RNDN);
        mpfr_mul(P(I2), P(I2), P(I3), MPFR_RNDN);
        if (cl_skate_params_check_mp(par, 1))
            return cl_sys_error_set(e, CL_EXIT_USAGE, "asym", "I2 = I3 (1 + asym) must exceed I3");
    }
    cl_rvec_copy_mp(pm, par, CL_SKATE_NPAR);
    if (sigma->given) {
        cl_skate_matched_params_mp(pm, par, sigma->x);
        mpfr_t u;
        mpfr_init2(u, mpfr_get_prec(pm));
        skate_moment_about_contact(u, pm, pm + CL_SKATE_I1);
        *singular = mpfr_zero_p(u);
        mpfr_clear(u);
    }
    return CL_OK;
}

/*
 * Stable: the restricted Hessian of App. A.1 (of the matched system with
 * sigma) definite. Unstable: it is indefinite and the Jacobian of (38)
 * (by hand, cl_skate_jacobian_zeta(); with sigma of the matched system,
 * whose equations the closed loop obeys) has an eigenvalue of real part above
 * √(SWEEP_ZERO_TOL·2^(1−p))·max|Df| (an error δ in Df moves the pair ±√κ that
 * meets at 0 on the boundary by up to √δ, so a smaller real part is no
 * evidence). Undecided otherwise: a pivot within the zero tolerance, an
 * indefinite form with the spectrum on the imaginary axis, or a singular
 * matched system. Margin: min |λ(H_r)| / max |λ(H_r)|, the distance of the
 * restricted Hessian from singular relative to its scale (0 on (42)).
 */
int skate_sweep_cell(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e)
{
    mpfr_ptr zeta, c, eig, t, u, J, wr, wi;
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec),
             v = CL_RVEC_SLICES_MP(prec, {&zeta, 5}, {&c, 3}, {&eig, 5}, {&t, 1}, {&u, 1}, {&J, 25}, {&wr, 5}, {&wi, 5});
    int ret = CL_EXIT_OK, sliding, singular;
    if (!par || !v) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory"); goto out; }
    mpfr_ptr pm = par + CL_SKATE_NPAR;
    if ((ret = skate_sweep_cell_params(par, pm, &sliding, &singular, p, e))) goto out;
    *verdict = CL_SWEEP_UNDECIDED;
    mpfr_set_zero(margin, 1);
    if (singular) goto out;
    if (sliding) cl_skate_sliding_mp(zeta, cl_params_x(p, "Y0"));
    else cl_skate_spinning_mp(zeta, cl_params_x(p, "Omega0"));
    cl_ec_report rep;
    int st = cl_skate_energy_casimir_mp(&rep, c, NULL, eig, pm, zeta, SWEEP_ZERO_TOL);
    if (st) { ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "Energy-Casimir test failed: %s", cl_strerror(st)); goto out; }
    mpfr_abs(t, eig, MPFR_RNDN);
    mpfr_abs(u, eig, MPFR_RNDN);
    for (int i = 1; i < rep.d; i++) {
        if (mpfr_cmpabs(eig + i, t) < 0) mpfr_abs(t, eig + i, MPFR_RNDN);
        if (mpfr_cmpabs(eig + i, u) > 0) mpfr_abs(u, eig + i, MPFR_RNDN);
    }
    if (!mpfr_zero_p(u)) mpfr_div(margin, t, u, MPFR_RNDN);
    if (rep.nzero) goto out;
    if (rep.definite) { *verdict = CL_SWEEP_STABLE; goto out; }
    if ((st = cl_skate_jacobian_zeta_mp(J, pm, zeta)) || (st = cl_eig_mp(wr, wi, J, 5))) {
        ret = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "Jacobian eigenvalues failed: %s", cl_strerror(st));
        goto out;
    }
    mpfr_set_zero(u, 1);
    for (int i = 0; i < 25; i++)
        if (mpfr_cmpabs(J + i, u) > 0) mpfr_abs(u, J + i, MPFR_RNDN);
    mpfr_set_ui_2exp(t, SWEEP_ZERO_TOL, 1 - (long)prec, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_mul(t, t, u, MPFR_RNDN);
    for (int i = 0; i < 5; i++)
        if (mpfr_cmp(wr + i, t) > 0) *verdict = CL_SWEEP_UNSTABLE;
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

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

/*
 * One cell of the skate's stability map in MPFR (`chartless sweep --system
 * skate`, and beneath its certified cells): the cell's parameters and its
 * Energy–Casimir verdict and margin; and the bounds (42) and (58) that the
 * map, the threshold search of `stability` and the figures are held
 * against. Beneath skate_sweep_systems.c, skate_stability_systems.c and
 * skate_certified_systems.c.
 */
#include <stdio.h>
#include <string.h>
#include "skate_systems_impl.h"

/* u = I + ml² for the moment I (I1 or I3 ...). */
void skate_moment_about_contact(mpfr_ptr u, mpfr_srcptr par, mpfr_srcptr I)
{
    mpfr_mul(u, P(M), P(L), MPFR_RNDN);
    mpfr_fma(u, u, P(L), I, MPFR_RNDN);
}

/* The bound of (42), √(mgl/(I₃ + ml² − I₂)), into f; 0 when I₃ + ml² ≤ I₂ (no bound). */
int skate_spin_bound_42(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par)
{
    skate_moment_about_contact(u, par, P(I3));
    mpfr_sub(u, u, P(I2), MPFR_RNDN);
    if (mpfr_sgn(u) <= 0) return 0;
    mpfr_mul(f, P(M), P(G), MPFR_RNDN);
    mpfr_mul(f, f, P(L), MPFR_RNDN);
    mpfr_div(f, f, u, MPFR_RNDN);
    mpfr_sqrt(f, f, MPFR_RNDN);
    return 1;
}

/* The bound of (58), −J₁²/(I₁ + ml²), into f. */
void skate_sigma_bound_58(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par)
{
    skate_moment_about_contact(u, par, P(I1));
    mpfr_sqr(f, P(J1), MPFR_RNDN);
    mpfr_div(f, f, u, MPFR_RNDN);
    mpfr_neg(f, f, MPFR_RNDN);
}

/* Inertia of the restricted Hessian: pivots within SWEEP_ZERO_TOL·d·2^(1−p)·max|H| of zero count as zero. */
#define SWEEP_ZERO_TOL 1024

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

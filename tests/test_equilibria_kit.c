/*
 * The generic equilibria tools of the system descriptor (system/equilibria.c) on
 * registered systems, at 53 and 200 bits, against hand derivations:
 *  - cl_eig_match_log2, the judge of the oracle rows *.equilibria.*: exact
 *    sets give −inf, a value moved by 2^-59 gives −60 (relative to
 *    max(1, |c|) = 2), a set that repeats one value where the closed form has
 *    two ({1, 1} against ±1) misses −1 by 2 = 2^1 (relative to max(1, 1)), sets of
 *    different sizes NaN;
 *  - cl_system_linearize on the spherical pendulum at the hanging state
 *    (m = l = 1, g): T(S²) has dimension 4 in R⁶ and A = ZᵀDf Z has the
 *    eigenvalues ±i√g twice (A² = −g I on the tangent space);
 *  - cl_system_energy_casimir at the same state: with E = ½|v|² + g q₃ and
 *    the constraints |q|² − 1, q·v, the multipliers are (g/2, 0) (DE = g e₃
 *    against Dc₁ = −2e₃), the Hessian of E + (g/2)(|q|² − 1) is diag(g I, I)
 *    and its restriction to δq, δv ⊥ e₃ has the eigenvalues 1, 1, g, g:
 *    positive definite;
 *  - the refusals: no such system or form (CL_EPARAM), no equilibrium 2
 *    (CL_EDOMAIN), a state the field moves (the chain with a control torque:
 *    CL_EPARAM), a state longer than the Energy–Casimir test takes (CL_EDIM).
 * Tolerances: 2^(8−p) relative to g, a Jacobian and an eigenproblem of
 * size 4 at the working precision p.
 */
#include <string.h>
#include <math.h>
#include <stdio.h>
#include "chartless_base.h"
#include "system.h"
#include "tap.h"

static void match_cases(void)
{
    mpfr_ptr v = cl_rvec_new_mp(8, 200);
    mpfr_ptr wr = v, wi = v + 2, cr = v + 4, ci = v + 6;
    for (int i = 0; i < 8; i++) mpfr_set_zero(v + i, 1);
    mpfr_set_si(wr, 2, MPFR_RNDN);
    mpfr_set_si(wr + 1, -1, MPFR_RNDN);
    mpfr_set_si(cr, -1, MPFR_RNDN);
    mpfr_set_si(cr + 1, 2, MPFR_RNDN);
    ok(cl_eig_match_log2(wr, wi, 2, cr, ci, 2) == -INFINITY, "match: the same set in another order is exact");
    mpfr_set_ui_2exp(wi, 1, -59, MPFR_RNDN);
    is_double(cl_eig_match_log2(wr, wi, 2, cr, ci, 2), -60, 1e-9, "match: 2 + 2^-59 i against 2 is 2^-60 relative to 2");
    mpfr_set_zero(wi, 1);
    mpfr_set_si(wr, 1, MPFR_RNDN);
    mpfr_set_si(wr + 1, 1, MPFR_RNDN);
    mpfr_set_si(cr, 1, MPFR_RNDN);
    mpfr_set_si(cr + 1, -1, MPFR_RNDN);
    is_double(cl_eig_match_log2(wr, wi, 2, cr, ci, 2), 1, 1e-12, "match: {1, 1} against {1, -1} misses -1 by 2 (2^1 relative to 1)");
    ok(isnan(cl_eig_match_log2(wr, wi, 2, cr, ci, 1)), "match: sets of different sizes are NaN");
    cl_rvec_free_mp(v);
}

static void spherical_cases(cl_prec_t p)
{
    static const char *const keys[] = {"g"}, *const vals[] = {"9.81"};
    const cl_system *s = cl_system_find("spherical");
    mpfr_ptr v = cl_rvec_new_mp(6 + 36 + 6 + 6 + 6 + 2, p);
    mpfr_ptr x = v, A = v + 6, wr = A + 36, wi = wr + 6, c = wi + 6, g = c + 6, t = g + 1;
    mpfr_set_str(g, "9.81", 10, MPFR_RNDN);
    double tol = 8 - (double)p + log2(9.81);
    cl_params prm;
    cl_sys_error e = {"", ""};
    int st = s ? cl_params_parse(&prm, s->params, 1, keys, vals, p, &e) : CL_EPARAM;
    ok(!st, "%ld bits: spherical pendulum parameters parsed", (long)p);
    if (st) { cl_rvec_free_mp(v); return; }
    int d = 0;
    char name[64] = "";
    st = cl_system_linearize(s, &prm, p, 1, 0, x, A, wr, wi, &d, name, sizeof name, &e);
    ok(!st && !strncmp(name, "hanging", 7), "%ld bits: the equilibrium's name is copied out (%s)", (long)p, name);
    ok(!st && d == 4, "%ld bits: hanging state linearized on a tangent space of dimension 4 (status %d, d = %d)", (long)p, st, d);
    double worst = -INFINITY;
    for (int i = 0; !st && i < 4; i++) {
        mpfr_sqr(t, wi + i, MPFR_RNDN);
        mpfr_sub(t, t, g, MPFR_RNDN);
        worst = fmax(worst, fmax(cl_mpfr_log2(t), cl_mpfr_log2(wr + i)));
    }
    is_log2_below(worst, tol, "%ld bits: eigenvalues +-i sqrt(g), twice", (long)p);
    struct cl_ec_report rep;
    int ncas = -1;
    st = cl_system_energy_casimir(s, &prm, p, 1, 0, &rep, c, A, wr, &ncas, NULL, &e);
    ok(!st && rep.k == 2 && ncas == 0 && rep.d == 4 && rep.definite == 1,
       "%ld bits: Energy-Casimir with the two constraints, no Casimir: positive definite on dimension 4", (long)p);
    worst = -INFINITY;
    for (int i = 0; !st && i < 4; i++) {
        if (i < 2) mpfr_sub_ui(t, wr + i, 1, MPFR_RNDN);
        else mpfr_sub(t, wr + i, g, MPFR_RNDN);
        worst = fmax(worst, cl_mpfr_log2(t));
    }
    mpfr_div_2ui(t, g, 1, MPFR_RNDN);
    mpfr_sub(t, c, t, MPFR_RNDN);
    worst = fmax(worst, fmax(cl_mpfr_log2(t), cl_mpfr_log2(c + 1)));
    is_log2_below(worst, tol, "%ld bits: restricted Hessian eigenvalues 1, 1, g, g and multipliers (g/2, 0)", (long)p);
    ok(cl_system_linearize(s, &prm, p, 1, 2, x, A, wr, wi, &d, name, sizeof name, &e) == CL_EDOMAIN, "%ld bits: no equilibrium 2", (long)p);
    cl_params_free(&prm);
    cl_rvec_free_mp(v);
}

static void refusals(void)
{
    mpfr_ptr v = cl_rvec_new_mp(2 * 36, 53);
    int d = 0;
    static const char *const k1[] = {"n"}, *const v1[] = {"6"};
    static const char *const k2[] = {"tau"}, *const v2[] = {"0,1,0"};
    ok(cl_system_linearize_named("nosuch", "qdot", 0, NULL, NULL, 53, 0, v, v + 36, &d) == CL_EPARAM, "no such system: CL_EPARAM");
    ok(cl_system_linearize_named("chain", "nosuch", 0, NULL, NULL, 53, 0, v, v + 36, &d) == CL_EPARAM, "no such form: CL_EPARAM");
    ok(cl_system_linearize_named("chain", "qdot", 1, k2, v2, 53, 0, v, v + 36, &d) == CL_EPARAM,
       "a control torque moves the hanging chain: CL_EPARAM");
    const cl_system *s = cl_system_find("chain");
    cl_params prm;
    cl_sys_error e = {"", ""};
    struct cl_ec_report rep;
    int ncas, st = cl_params_parse(&prm, s->params, 1, k1, v1, 53, &e);
    ok(!st && cl_system_energy_casimir(s, &prm, 53, 0, 0, &rep, v, v, v, &ncas, NULL, &e) == CL_EDIM,
       "the chain of 6 links (36 numbers) is beyond the Energy-Casimir test: CL_EDIM");
    if (!st) cl_params_free(&prm);
    cl_rvec_free_mp(v);
}

int main(void)
{
    plan(4 + 2 * 7 + 4);
    match_cases();
    spherical_cases(53);
    spherical_cases(200);
    refusals();
    return done_testing();
}

/*
 * The pendulum skate [SKATE] as a named system for the command line:
 * forms "zeta" (ζ = (v¹, v², v³, Γ₂, Γ₃), the field (38)) and "z"
 * (z = (Ω, Y, Γ), the nonholonomic Euler–Poincaré equations (21)); the
 * analyses it offers (`chartless equilibria|stability --system skate`:
 * Propositions 11, 12 and 16) and Figures 4 and 5 (`chartless reproduce`).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "system_impl.h"
#include "chartless_base.h"
#include "skate.h"

typedef struct skate_inst {
    cl_prec_t prec;
    mpfr_ptr par;   /* CL_SKATE_NPAR */
    mpfr_ptr eq;    /* Y0, Omega0 */
} skate_inst;

static const char *const skate_forms[] = {"zeta", "z", NULL};
static const char *const skate_invariant_names[] = {"energy", "C1", "C2", "C3", NULL};

/* The body's parameters in the order of CL_SKATE_M ... CL_SKATE_J3, with their
 * defaults: the paper's Sec. 7.2 skate and the controlled skate of Sec. 7.3. */
static const char *const skate_keys[CL_SKATE_NPAR] = {"m", "l", "g", "I1", "I2", "I3", "J1", "J2", "J3"};
static const char *const paper_uncontrolled[CL_SKATE_NPAR] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"};
static const char *const paper_controlled[CL_SKATE_NPAR] = {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"};

/* Table entries of the body (defaults given, or NULL when the command chooses them) and of the rotor. */
#define SKATE_NUMBER(key, dflt, rule, what, text) \
    {.name = key, .shape = CL_PARAM_NUMBER, .def = dflt, .constraint = rule, .noun = what, .help = text}
#define SKATE_BODY(m, l, g, I1, I2, I3)                                                                        \
    SKATE_NUMBER("m", m, CL_PARAM_POSITIVE, "mass", "mass"),                                                    \
    SKATE_NUMBER("l", l, CL_PARAM_POSITIVE, "height of the centre of mass", "height of the centre of mass"),    \
    SKATE_NUMBER("g", g, CL_PARAM_NONNEGATIVE, "gravity", "gravity"),                                           \
    SKATE_NUMBER("I1", I1, CL_PARAM_POSITIVE, "moments of inertia", "principal moment"),                        \
    SKATE_NUMBER("I2", I2, CL_PARAM_POSITIVE, "moments of inertia", "principal moment, I2 > I3"),               \
    SKATE_NUMBER("I3", I3, CL_PARAM_POSITIVE, "moments of inertia", "principal moment")
#define SKATE_ROTOR(J1, J2, J3)                                                                       \
    SKATE_NUMBER("J1", J1, CL_PARAM_NONNEGATIVE, "rotor moments", "rotor moment (controlled skate)"), \
    SKATE_NUMBER("J2", J2, CL_PARAM_NONNEGATIVE, "rotor moments", "rotor moment"),                    \
    SKATE_NUMBER("J3", J3, CL_PARAM_NONNEGATIVE, "rotor moments", "rotor moment")
#define SKATE_UNCONTROLLED SKATE_BODY("2", "0.8", "9.8", "0.35", "0.35", "0.004")
#define SKATE_Y0 {.name = "Y0", .shape = CL_PARAM_NUMBER, .def = "1", .alias = "y0", .metavar = "Y", \
                  .help = "speed of the sliding equilibrium (40)"}

/*
 * The parameters into par: given, else from the table's default, else from
 * \p defaults (the variant of the paper the command stands for); then the
 * rules across parameters. CL_RUN_BADINPUT with a message, or 0.
 */
static int skate_params(mpfr_ptr par, const cl_params *p, const char *const *defaults, int rotor, cl_sys_error *e)
{
    for (int k = 0; k < CL_SKATE_NPAR; k++) {
        const cl_param *d = cl_param_find(p->table, skate_keys[k]);
        const cl_param_value *v = d ? p->v + (d - p->table) : NULL;
        if (v && v->given && !rotor && k >= CL_SKATE_J1) {
            char arg[8];
            snprintf(arg, sizeof arg, "--%s", skate_keys[k]);
            return cl_sys_error_set(e, CL_RUN_BADINPUT, arg, "rotor moments need the controlled skate (--sigma)");
        }
        if (v && v->len) mpfr_set(par + k, v->x, MPFR_RNDN);
        else cl_real_from_str_mp(par + k, defaults[k]);
    }
    if (rotor && mpfr_sgn(par + CL_SKATE_J1) <= 0) return cl_sys_error_set(e, CL_RUN_BADINPUT, "--J1", "the rotor needs J1 > 0");
    if (cl_skate_params_check_mp(par, 1))
        return cl_sys_error_set(e, CL_RUN_BADINPUT, "--I2, --I3", "I2 must exceed I3 (C2 of (37) and Propositions 11-12 assume it)");
    return CL_OK;
}

static const cl_param skate_system_params[] = {
    SKATE_UNCONTROLLED,
    SKATE_Y0,
    {.name = "Omega0", .shape = CL_PARAM_NUMBER, .def = "5", .metavar = "W", .help = "spin rate of the spinning equilibrium (41)"},
    CL_PARAM_END,
};

static void skate_destroy(void *p)
{
    skate_inst *s = p;
    if (!s) return;
    cl_rvec_free_mp(s->par);
    cl_rvec_free_mp(s->eq);
    free(s);
}

static int skate_create(void **inst, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    skate_inst *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->prec = prec;
    s->par = cl_rvec_new_mp(CL_SKATE_NPAR, prec);
    s->eq = cl_rvec_new_mp(2, prec);
    int st = s->par && s->eq ? CL_OK : CL_ENOMEM;
    if (!st && skate_params(s->par, p, paper_uncontrolled, 0, e)) st = CL_EPARAM;
    if (!st) {
        mpfr_set(s->eq, cl_params_x(p, "Y0"), MPFR_RNDN);
        mpfr_set(s->eq + 1, cl_params_x(p, "Omega0"), MPFR_RNDN);
    }
    return cl_sys_create_end(inst, s, st, skate_destroy);
}

static size_t skate_dim(void *inst, int form)
{
    (void)inst;
    return form ? CL_SKATE_NZ : CL_SKATE_NZETA;
}

/* Validate an input state; Gamma within CL_SYS_UNIT_TOL of unit length is normalised in place
 * (x is the command line's buffer, read from the user's decimals). */
static int skate_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    (void)inst;
    if (!cl_rvec_is_finite_mp(x, form ? 9 : 5)) { snprintf(err, errlen, "state is not finite"); return CL_ENAN; }
    int st = cl_sys_unit_vector(x + (form ? 6 : 3), form ? 3 : 2, "Gamma", err, errlen);
    if (st || form == 0) return st;
    st = cl_skate_check_z_mp(x, 64);
    if (st == CL_ENOTTANGENT)
        snprintf(err, errlen, "state violates the constraints: Gamma_1 = 0 (19) and psi^a(Gamma).(Omega, Y) = 0");
    else if (st) snprintf(err, errlen, "Gamma is not a unit vector (z-form state)");
    return st;
}

static int skate_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    skate_inst *s = inst;
    return form ? cl_skate_rhs_z_mp(dx, NULL, s->par, x) : cl_skate_rhs_zeta_mp(dx, s->par, x);
}

static int skate_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    skate_inst *s = inst;
    mpfr_ptr zeta = cl_rvec_new_mp(5, s->prec);
    if (!zeta) return CL_ENOMEM;
    if (form) cl_skate_z_to_zeta_mp(zeta, x);
    else cl_rvec_copy_mp(zeta, x, 5);
    cl_skate_energy_zeta_mp(out, s->par, zeta);
    int st = cl_skate_invariants_mp(out + 1, s->par, zeta);
    cl_rvec_free_mp(zeta);
    return st;
}

static int skate_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    (void)inst;
    if (from == to) { cl_rvec_copy_mp(y, x, from ? 9 : 5); return CL_OK; }
    if (from == 1) cl_skate_z_to_zeta_mp(y, x);
    else cl_skate_zeta_to_z_mp(y, x);
    return CL_OK;
}

static int skate_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    skate_inst *s = inst;
    mpfr_ptr zeta = cl_rvec_new_mp(5, s->prec);
    if (!zeta) return CL_ENOMEM;
    mpfr_t phi;
    mpfr_init2(phi, s->prec);
    for (int i = 0; i < 3; i++) mpfr_set_d(zeta + i, cl_rng_normal(g), MPFR_RNDN);
    mpfr_set_d(phi, cl_rng_range(g, -1.2, 1.2), MPFR_RNDN);
    mpfr_sin_cos(zeta + 3, zeta + 4, phi, MPFR_RNDN);
    mpfr_clear(phi);
    skate_convert(inst, 0, zeta, form, x);
    cl_rvec_free_mp(zeta);
    return CL_OK;
}

static int skate_equilibrium(void *inst, int k, int form, mpfr_ptr x, const char **name)
{
    skate_inst *s = inst;
    if (k < 0 || k > 1) return CL_EDOMAIN;
    mpfr_ptr zeta = cl_rvec_new_mp(5, s->prec);
    if (!zeta) return CL_ENOMEM;
    if (k == 0) { cl_skate_sliding_mp(zeta, s->eq); *name = "sliding (40)"; }
    else { cl_skate_spinning_mp(zeta, s->eq + 1); *name = "spinning (41)"; }
    skate_convert(inst, 0, zeta, form, x);
    cl_rvec_free_mp(zeta);
    return CL_OK;
}

static void skate_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    (void)inst;
    static const char *const zn[] = {"v1", "v2", "v3", "Gamma2", "Gamma3"};
    static const char *const zz[] = {"Omega1", "Omega2", "Omega3", "Y1", "Y2", "Y3", "Gamma1", "Gamma2", "Gamma3"};
    snprintf(buf, len, "%s", form ? (i < 9 ? zz[i] : "?") : (i < 5 ? zn[i] : "?"));
}

/* ------------------------------------------------- equilibria, stability */

#define P(k) (par + CL_SKATE_##k)

static void print_vec(const char *label, mpfr_srcptr x, int n)
{
    printf("%s", label);
    for (int i = 0; i < n; i++) { putchar(' '); cl_sys_print_real(stdout, x + i); }
    putchar('\n');
}

/* u = I + ml² for the moment I (I1 or I3 ...). */
static void moment_about_contact(mpfr_ptr u, mpfr_srcptr par, mpfr_srcptr I)
{
    mpfr_mul(u, P(M), P(L), MPFR_RNDN);
    mpfr_fma(u, u, P(L), I, MPFR_RNDN);
}

/* The bound of (42), √(mgl/(I₃ + ml² − I₂)), into f; 0 when I₃ + ml² ≤ I₂ (no bound). */
static int spin_bound_42(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par)
{
    moment_about_contact(u, par, P(I3));
    mpfr_sub(u, u, P(I2), MPFR_RNDN);
    if (mpfr_sgn(u) <= 0) return 0;
    mpfr_mul(f, P(M), P(G), MPFR_RNDN);
    mpfr_mul(f, f, P(L), MPFR_RNDN);
    mpfr_div(f, f, u, MPFR_RNDN);
    mpfr_sqrt(f, f, MPFR_RNDN);
    return 1;
}

/* The bound of (58), −J₁²/(I₁ + ml²), into f. */
static void sigma_bound_58(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par)
{
    moment_about_contact(u, par, P(I1));
    mpfr_sqr(f, P(J1), MPFR_RNDN);
    mpfr_div(f, f, u, MPFR_RNDN);
    mpfr_neg(f, f, MPFR_RNDN);
}

/* ------------------------------------------------- certified verdicts (Arb balls) */

/* 1 when --certify is given, with the Arb precision then set to the working precision; else 0. */
static int certify_wanted(const cl_params *p, cl_prec_t prec)
{
    if (!cl_params_get(p, "certify")->given) return 0;
    cl_arb_set_prec(prec);
    return 1;
}

/* b = a ball containing the number the user wrote: x is that decimal read at
   its precision, rounded to nearest, so within half an ulp of it. */
static void ball_around(arb_ptr b, mpfr_srcptr x)
{
    arf_set_mpfr(arb_midref(b), x);
    if (mpfr_zero_p(x)) mag_zero(arb_radref(b));
    else mag_set_ui_2exp_si(arb_radref(b), 1, (slong)mpfr_get_exp(x) - (slong)mpfr_get_prec(x));
}

static void print_ball(arb_srcptr x)
{
    char *str = arb_get_str(x, (slong)(cl_arb_get_prec() * 0.30102999566398120) + 2, 0);
    fputs(str, stdout);
    flint_free(str);
}

/* The five enclosures (real imag) one per line after \p indent; 1 when one has a certified positive real part. */
static int print_enclosures(const char *indent, arb_srcptr wr, arb_srcptr wi)
{
    int unstable = 0;
    for (int i = 0; i < 5; i++) {
        fputs(indent, stdout);
        print_ball(wr + i);
        putchar(' ');
        print_ball(wi + i);
        putchar('\n');
        unstable |= arb_is_positive(wr + i);
    }
    return unstable;
}

/* log2 of radius / |midpoint| of x (its relative width is twice that) */
static double log2_relrad(arb_srcptr x)
{
    if (mag_is_zero(arb_radref(x))) return -INFINITY;
    return mag_get_d_log2_approx(arb_radref(x)) - (double)arf_abs_bound_lt_2exp_si(arb_midref(x)) + 1.0;
}

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

/* Certified eigenvalues of Df at the equilibrium k (0 sliding, 1 spinning) against 0, 0, 0, ±√κ. */
static int equilibria_certify(mpfr_srcptr par, mpfr_srcptr x, int k, cl_sys_error *e)
{
    slong prec = (slong)cl_arb_get_prec();
    arb_ptr v = cl_rvec_new_arb(CL_SKATE_NPAR + 48, 0);
    if (!v) return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory");
    arb_ptr pb = v, zeta = v + CL_SKATE_NPAR, J = zeta + 5, wr = J + 25, wi = wr + 5, xb = wi + 5, kap = xb + 1, sq = kap + 1;
    int ret = CL_RUN_OK;
    for (int i = 0; i < CL_SKATE_NPAR; i++) ball_around(pb + i, par + i);
    ball_around(xb, x);
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
                arb_t t;
                arb_init(t);
                if (q == 4) arb_neg(t, sq); else arb_set(t, sq);
                arb_srcptr on = arb_is_negative(kap) ? im : re, off = arb_is_negative(kap) ? re : im;
                ok = arb_overlaps(on, t) && arb_contains_zero(off);
                in = ok && arb_contains(on, t);
                arb_clear(t);
            }
            if (ok) { used[i] = 1; found = 1; contained &= in; }
        }
        inside &= found;
    }
    printf("  eigenvalue enclosures (real imag):\n");
    unstable = print_enclosures("    ", wr, wi);
    printf("  kappa: ");
    print_ball(kap);
    printf("\n  Proposition %s values 0, 0, 0, +-%ssqrt|kappa| in distinct enclosures: %s\n", k ? "11" : "12",
           arb_is_negative(kap) ? "i*" : "",
           !inside ? "NO" : contained ? "yes (each ball of the closed form inside)" : "yes (the balls of the closed form meet them)");
    printf("  linearization, certified: %s\n\n", unstable ? "unstable (an eigenvalue with certified positive real part)"
                                                           : "undecided (no eigenvalue with certified positive real part)");
out:
    cl_rvec_free_arb(v);
    return ret;
}

static int equilibria_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const char *which = cl_params_get(p, "equilibrium")->word;
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(64, prec);
    if (!par || !v) { cl_rvec_free_mp(par); cl_rvec_free_mp(v); return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); }
    mpfr_ptr zeta = v, J = v + 5, wr = v + 30, wi = v + 35, kap = v + 41, sq = v + 42;
    int ret = skate_params(par, p, paper_uncontrolled, 0, e);
    for (int k = 0; k < 2 && !ret; k++) {
        if ((k == 0 && !strcmp(which, "spinning")) || (k == 1 && !strcmp(which, "sliding"))) continue;
        mpfr_srcptr x = cl_params_x(p, k ? "Omega0" : "Y0");
        if (k) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
        int st = cl_skate_jacobian_deriv_mp(J, NULL, par, zeta);
        if (!st) st = cl_eig_mp(wr, wi, J, 5);
        if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "%s", cl_strerror(st)); break; }
        cl_skate_equilibrium_kappa_mp(kap, par, k, x);
        printf("%s equilibrium %s = ", k ? "spinning (41)" : "sliding (40)", k ? "Omega0" : "Y0");
        cl_sys_print_real(stdout, x);
        putchar('\n');
        print_vec("  zeta", zeta, 5);
        for (int i = 0; i < 5; i++) { printf("  Df row %d", i + 1); print_vec("", J + 5 * i, 5); }
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
        if (certify_wanted(p, prec) && (ret = equilibria_certify(par, x, k, e))) break;
    }
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

static const cl_system_tool skate_equilibria = {
    .usage = "usage: chartless equilibria --system skate [--equilibrium sliding|spinning|all] [--Y0 Y] [--Omega0 W] [PARAMETERS]\n\n"
             "Jacobian Df of (38) (src/deriv) at the sliding equilibrium (40) zeta = (0, 0, Y0, 0, 1) and the\n"
             "spinning equilibrium (41) zeta = (0, W, 0, 0, 1), its eigenvalues (src/linalg), and beside them\n"
             "Propositions 11-12: {0, 0, 0, +-sqrt(kappa)}. Defaults: the paper's Sec. 7.2 skate.\n"
             "--certify adds certified enclosures of the eigenvalues of the hand-derived Df on Arb balls at\n"
             "--bits (Rump's method; the triple 0 as one cluster), each parameter a ball around the decimal given.\n",
    .params = equilibria_params,
    .run = equilibria_run,
};

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

/* Certified Energy–Casimir report and Df eigenvalues at ζ for the balls pb; the
   verdict line. want: 0 definite of either sign, −1 negative definite. */
static int certify_at(arb_srcptr pb, arb_srcptr zeta, int want, cl_sys_error *e)
{
    arb_ptr v = cl_rvec_new_arb(48, 0);
    if (!v) return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory");
    arb_ptr c = v, Hr = v + 3, heig = v + 7, J = v + 11, wr = v + 36, wi = v + 41; /* heig: re, im of 2 */
    cl_ec_report rep;
    int ret = CL_RUN_OK;
    /* on balls a failing step (a QR pivot or a null space not separated from 0) leaves the test undecided */
    int st = cl_skate_energy_casimir_arb(&rep, c, Hr, NULL, pb, zeta, 0);
    if (st == CL_ENOMEM) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    if (st) printf("Energy-Casimir procedure on balls: %s\n", cl_strerror(st));
    else {
        int hst = cl_eig_arb(heig, heig + 2, Hr, rep.d);
        printf("multipliers c1 c2 c3:");
        for (int i = 0; i < 3; i++) { putchar(' '); print_ball(c + i); }
        printf("\nrestricted Hessian eigenvalues:");
        if (hst) printf(" not enclosed (%s)", cl_strerror(hst));
        else for (int i = 0; i < rep.d; i++) { putchar(' '); print_ball(heig + i); }
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
        unstable = print_enclosures("  ", wr, wi);
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
static int stability_certify(mpfr_srcptr par, mpfr_srcptr x, mpfr_srcptr sigma, int spin, cl_sys_error *e)
{
    arb_ptr v = cl_rvec_new_arb(2 * CL_SKATE_NPAR + 8, 0);
    if (!v) return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory");
    arb_ptr pb = v, pmb = v + CL_SKATE_NPAR, zeta = v + 2 * CL_SKATE_NPAR, xb = zeta + 5, sb = xb + 1;
    for (int i = 0; i < CL_SKATE_NPAR; i++) ball_around(pb + i, par + i);
    ball_around(xb, x);
    int ret = CL_RUN_OK;
    if (sigma) {
        ball_around(sb, sigma);
        int st = cl_skate_matched_params_arb(pmb, pb, sb);
        if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "matched parameters: %s", cl_strerror(st)); goto out; }
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
static int threshold_certify(mpfr_srcptr par, mpfr_srcptr Y0m, int spin, cl_sys_error *e)
{
    slong prec = (slong)cl_arb_get_prec();
    arb_ptr v = cl_rvec_new_arb(CL_SKATE_NPAR + 10, 0);
    if (!v) return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory");
    arb_ptr pb = v, lo = v + CL_SKATE_NPAR, hi = lo + 1, lo0 = lo + 2, hi0 = lo + 3, hull = lo + 4, cf = lo + 5, Y0 = lo + 6;
    int ret = CL_RUN_OK, st = CL_OK;
    for (int i = 0; i < CL_SKATE_NPAR; i++) ball_around(pb + i, par + i);
    ball_around(Y0, Y0m);
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
    if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "certified bisection failed: %s", cl_strerror(st)); goto out; }
    arb_union(hull, lo, hi, prec);
    printf("certified (Arb balls at %ld bits; each parameter a ball around the decimal given)\n", (long)prec);
    printf("%s threshold enclosed: the verdict is proven %s at every point of\n  ", spin ? "Omega0" : "sigma",
           spin ? "not definite below and definite above" : "negative definite on one side and not on the other");
    print_ball(lo);
    printf("\n  and the other at every point of\n  ");
    print_ball(hi);
    printf("\ninterval (hull): ");
    print_ball(hull);
    printf("\nrelative width: 2^%.1f\n", log2_relrad(hull) + 1.0);
    printf("%s: ", spin ? "(42) sqrt(mgl/(I3 + ml^2 - I2))" : "(58) -J1^2/(I1 + ml^2)");
    print_ball(cf);
    printf("\nclosed form inside the interval: %s\n", arb_overlaps(hull, cf) ? (arb_contains(hull, cf) ? "yes" : "overlaps") : "NO");
out:
    cl_rvec_free_arb(v);
    return ret;
}

/* Bisection on the Energy–Casimir verdict: Ω₀ for spinning (from 0, where the form is
 * indefinite, and a doubling search for a definite end) and σ for the controlled sliding
 * equilibrium (from a tiny negative σ, definite, and a doubling search towards −∞). */
static int stability_threshold(const cl_params *p, cl_prec_t prec, int spin, cl_sys_error *e)
{
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(16, prec);
    int ret = CL_RUN_OK;
    if (!par || !v) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    mpfr_ptr lo = v, hi = v + 1, thr = v + 2, f = v + 3, u = v + 4, zeta = v + 6, c = v + 11;
    mpfr_srcptr Y0 = cl_params_x(p, "Y0");
    /* The sliding threshold is the controlled skate's (58), whatever --sigma says. */
    if ((ret = skate_params(par, p, spin ? paper_uncontrolled : paper_controlled, !spin, e))) goto out;
    int st = CL_OK;
    if (spin) {
        if (!spin_bound_42(f, u, par)) {
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
        sigma_bound_58(f, u, par);
    }
    if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "bisection failed: %s", cl_strerror(st)); goto out; }
    printf("%s threshold by bisection on the Energy-Casimir verdict: ", spin ? "Omega0" : "sigma");
    cl_sys_print_real(stdout, thr);
    printf("\n%s: ", spin ? "(42) sqrt(mgl/(I3 + ml^2 - I2))" : "(58) -J1^2/(I1 + ml^2)");
    cl_sys_print_real(stdout, f);
    mpfr_sub(u, thr, f, MPFR_RNDN);
    mpfr_div(u, u, f, MPFR_RNDN);
    printf("\nrelative difference: 2^%.1f\n", cl_mpfr_log2(u));
    if (certify_wanted(p, prec)) ret = threshold_certify(par, Y0, spin, e);
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(v);
    return ret;
}

static int stability_run(const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const char *which = cl_params_get(p, "equilibrium")->word;
    const cl_param_value *sigma = cl_params_get(p, "sigma");
    if (!which) return cl_sys_error_set(e, CL_RUN_BADINPUT, "--equilibrium", "--equilibrium is required (sliding or spinning)");
    int spin = !strcmp(which, "spinning");
    if (cl_params_get(p, "threshold")->given) return stability_threshold(p, prec, spin, e);
    if (spin && !cl_params_get(p, "Omega0")->given)
        return cl_sys_error_set(e, CL_RUN_BADINPUT, "--omega0", "the spinning equilibrium needs --omega0");
    if (spin && sigma->given) return cl_sys_error_set(e, CL_RUN_BADINPUT, "--sigma", "--sigma applies to the sliding equilibrium (Prop. 16)");
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec), pm = cl_rvec_new_mp(CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(32, prec);
    int ret = CL_RUN_OK;
    if (!par || !pm || !v) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    mpfr_ptr zeta = v, c = v + 5, Hr = v + 8, eig = v + 12, t = v + 15, u = v + 16;
    if ((ret = skate_params(par, p, sigma->given ? paper_controlled : paper_uncontrolled, sigma->given, e))) goto out;
    mpfr_srcptr x = cl_params_x(p, spin ? "Omega0" : "Y0");
    cl_rvec_copy_mp(pm, par, CL_SKATE_NPAR);
    if (sigma->given) {
        cl_skate_matched_params_mp(pm, par, sigma->x);
        moment_about_contact(u, par, P(I1));
        mpfr_add(u, u, pm + CL_SKATE_I1, MPFR_RNDN);
        mpfr_sub(u, u, P(I1), MPFR_RNDN);
        if (mpfr_zero_p(u)) {
            ret = cl_sys_error_set(e, CL_RUN_BADINPUT, "--sigma", "I1 + ml^2 + J1^2/sigma = 0: the matched system (57) is singular");
            goto out;
        }
    }
    if (spin) cl_skate_spinning_mp(zeta, x); else cl_skate_sliding_mp(zeta, x);
    cl_ec_report rep;
    int st = cl_skate_energy_casimir_mp(&rep, c, Hr, eig, pm, zeta, 1024);
    if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "Energy-Casimir test failed: %s", cl_strerror(st)); goto out; }
    printf("%s equilibrium%s, %s = ", spin ? "spinning (41)" : "sliding (40)",
           sigma->given ? " of the controlled skate (matched inertia (57))" : "", spin ? "Omega0" : "Y0");
    cl_sys_print_real(stdout, x);
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
        if (spin_bound_42(t, u, par)) {
            printf("condition (42): |Omega0| > ");
            cl_sys_print_real(stdout, t);
            printf(" -- %s\n", mpfr_cmpabs(x, t) > 0 ? "holds" : "fails");
        } else
            printf("condition (42) fails: I3 + ml^2 <= I2 (Prop. 11 (i): unstable)\n");
    } else if (sigma->given) {
        sigma_bound_58(t, u, par);
        printf("condition (58): ");
        cl_sys_print_real(stdout, t);
        printf(" < sigma < 0\n");
    }
    if (certify_wanted(p, prec)) ret = stability_certify(par, x, sigma->given ? sigma->x : NULL, spin, e);
out:
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(pm);
    cl_rvec_free_mp(v);
    return ret;
}

static const cl_system_tool skate_stability = {
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
static int sweep_cell_params(mpfr_ptr par, mpfr_ptr pm, int *sliding, int *singular, const cl_params *p, cl_sys_error *e)
{
    const cl_param_value *asym = cl_params_get(p, "asym"), *sigma = cl_params_get(p, "sigma");
    *sliding = !strcmp(cl_params_get(p, "equilibrium")->word, "sliding");
    *singular = 0;
    if (asym->given && cl_params_get(p, "I2")->given)
        return cl_sys_error_set(e, CL_RUN_BADINPUT, "--I2", "give --I2 or asym = (I2 - I3)/I3, not both");
    if (!*sliding && sigma->given) return cl_sys_error_set(e, CL_RUN_BADINPUT, "sigma", "sigma applies to the sliding equilibrium (Prop. 16)");
    if (*sliding && cl_params_get(p, "Omega0")->given)
        return cl_sys_error_set(e, CL_RUN_BADINPUT, "Omega0", "Omega0 applies to the spinning equilibrium");
    if (!*sliding && cl_params_get(p, "Y0")->given) return cl_sys_error_set(e, CL_RUN_BADINPUT, "Y0", "Y0 applies to the sliding equilibrium");
    int ret = skate_params(par, p, sigma->given ? paper_controlled : paper_uncontrolled, sigma->given, e);
    if (ret) return ret;
    if (asym->given) {
        mpfr_add_ui(P(I2), asym->x, 1, MPFR_RNDN);
        mpfr_mul(P(I2), P(I2), P(I3), MPFR_RNDN);
        if (cl_skate_params_check_mp(par, 1))
            return cl_sys_error_set(e, CL_RUN_BADINPUT, "asym", "I2 = I3 (1 + asym) must exceed I3");
    }
    cl_rvec_copy_mp(pm, par, CL_SKATE_NPAR);
    if (sigma->given) {
        cl_skate_matched_params_mp(pm, par, sigma->x);
        mpfr_t u;
        mpfr_init2(u, mpfr_get_prec(pm));
        moment_about_contact(u, pm, pm + CL_SKATE_I1);
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
static int sweep_cell(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e)
{
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(50, prec);
    int ret = CL_RUN_OK, sliding, singular;
    if (!par || !v) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    mpfr_ptr pm = par + CL_SKATE_NPAR, zeta = v, c = v + 5, eig = v + 8, t = v + 13, u = v + 14, J = v + 15, wr = v + 40, wi = v + 45;
    if ((ret = sweep_cell_params(par, pm, &sliding, &singular, p, e))) goto out;
    *verdict = CL_SWEEP_UNDECIDED;
    mpfr_set_zero(margin, 1);
    if (singular) goto out;
    if (sliding) cl_skate_sliding_mp(zeta, cl_params_x(p, "Y0"));
    else cl_skate_spinning_mp(zeta, cl_params_x(p, "Omega0"));
    cl_ec_report rep;
    int st = cl_skate_energy_casimir_mp(&rep, c, NULL, eig, pm, zeta, SWEEP_ZERO_TOL);
    if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "Energy-Casimir test failed: %s", cl_strerror(st)); goto out; }
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
        ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "Jacobian eigenvalues failed: %s", cl_strerror(st));
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

/*
 * The certified verdict (`chartless sweep --certify`): the same tests on Arb
 * balls at the working precision, for every parameter within one ulp of the
 * cell's (ball_around(): the decimal values as given, and the cell's values
 * as printed, are inside). Stable: the restricted Hessian proven definite
 * (cl_skate_spinning_verdict(), cl_skate_sigma_verdict() through the matched
 * system, cl_ec_verdict() for the uncontrolled sliding equilibrium).
 * Unstable: an eigenvalue of the Jacobian of (38) (of the matched system
 * with sigma, computed on the balls) whose real part is proven positive
 * (Lyapunov's indirect method), looked for only when stability is not
 * proven. Undecided otherwise. The margin is the MPFR cell's.
 */
static int sweep_cell_certified(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e)
{
    int mp_verdict, ret = sweep_cell(p, prec, &mp_verdict, margin, e), sliding, singular, ec = CL_UNDECIDED;
    if (ret) return ret;
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec);
    cl_prec_t saved = cl_arb_get_prec();
    cl_arb_set_prec(prec);
    arb_ptr b = cl_rvec_new_arb(2 * CL_SKATE_NPAR + 2 + 5 + 3 + 25 + 10, prec);
    *verdict = CL_SWEEP_UNDECIDED;
    if (!par || !b) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    arb_ptr bpar = b, bpm = b + CL_SKATE_NPAR, x = bpm + CL_SKATE_NPAR, sigma = x + 1, zeta = sigma + 1, c = zeta + 5,
            J = c + 3, wr = J + 25, wi = wr + 5;
    if ((ret = sweep_cell_params(par, par + CL_SKATE_NPAR, &sliding, &singular, p, e)) || singular) goto out;
    for (int k = 0; k < CL_SKATE_NPAR; k++) ball_around(bpar + k, par + k);
    ball_around(x, cl_params_x(p, sliding ? "Y0" : "Omega0"));
    if (sliding) cl_skate_sliding_arb(zeta, x);
    else cl_skate_spinning_arb(zeta, x);
    cl_rvec_copy_arb(bpm, bpar, CL_SKATE_NPAR);
    if (cl_params_get(p, "sigma")->given) {
        ball_around(sigma, cl_params_x(p, "sigma"));
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

/* Spinning: (42) solved for Omega0 (±√(mgl/(I₃ + ml² − I₂))) or for asym ((ml² − mgl/Ω₀²)/I₃,
 * from I₂ = I₃ + ml² − mgl/Ω₀²). Sliding with sigma: (58) solved for sigma (−J₁²/(I₁ + ml²)) or
 * for J1 (√(−σ(I₁ + ml²)), σ < 0). None for the other parameters. */
static int sweep_boundary(const cl_params *p, cl_prec_t prec, const char *name, mpfr_ptr at, const char **label)
{
    int n = 0, sliding, singular;
    mpfr_ptr par = cl_rvec_new_mp(2 * CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(2, prec);
    cl_sys_error e;
    if (!par || !v || sweep_cell_params(par, par + CL_SKATE_NPAR, &sliding, &singular, p, &e)) goto out;
    *label = sliding ? "(58)" : "(42)";
    if (!sliding && !strcmp(name, "Omega0")) {
        if (spin_bound_42(at, v, par)) {
            mpfr_neg(at + 1, at, MPFR_RNDN);
            n = 2;
        }
    } else if (!sliding && !strcmp(name, "asym") && !mpfr_zero_p(cl_params_x(p, "Omega0"))) {
        mpfr_mul(v, P(M), P(G), MPFR_RNDN);
        mpfr_mul(v, v, P(L), MPFR_RNDN);
        mpfr_div(v, v, cl_params_x(p, "Omega0"), MPFR_RNDN);
        mpfr_div(v, v, cl_params_x(p, "Omega0"), MPFR_RNDN);
        moment_about_contact(v + 1, par, P(I3));
        mpfr_sub(at, v + 1, v, MPFR_RNDN);
        mpfr_div(at, at, P(I3), MPFR_RNDN);
        mpfr_sub_ui(at, at, 1, MPFR_RNDN); /* (I3 + ml^2 - mgl/W^2)/I3 - 1 */
        n = mpfr_sgn(at) > 0;
    } else if (sliding && cl_params_get(p, "sigma")->given && !strcmp(name, "sigma")) {
        sigma_bound_58(at, v, par);
        n = 1;
    } else if (sliding && cl_params_get(p, "sigma")->given && !strcmp(name, "J1") && mpfr_sgn(cl_params_x(p, "sigma")) < 0) {
        moment_about_contact(v, par, P(I1));
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

static const cl_system_sweep skate_sweep = {
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
    .cell = sweep_cell,
    .cell_certified = sweep_cell_certified,
    .boundary = sweep_boundary,
};

static const cl_system skate_system = {
    .name = "skate",
    .summary = "pendulum skate [SKATE]: nonholonomic Euler-Poincare (21) and quasivelocities (38)",
    .params = skate_system_params,
    .state_help = "zeta: v1 v2 v3 Gamma2 Gamma3 (v1 = Omega1, v2 = Omega.Gamma, v3 = Y1; Gamma2^2 + Gamma3^2 = 1: normalised within 2^-40, refused beyond)\n"
                  "z:    Omega1 Omega2 Omega3 Y1 Y2 Y3 Gamma1 Gamma2 Gamma3 (|Gamma| = 1, Gamma1 = 0,\n"
                  "      (E1 x Gamma).Omega = Gamma.Y = (E1 x Gamma).Y = 0)\n",
    .forms = skate_forms,
    CL_SYSTEM_CORE_HOOKS(skate),
    CL_SYSTEM_STATE_HOOKS(skate),
    .equilibrium = skate_equilibrium,
    .equilibria = &skate_equilibria,
    .stability = &skate_stability,
    .sweep = &skate_sweep,
};
CL_SYSTEM_REGISTER(skate_system)

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
    if (mpfr_cmp(tf, tend) >= 0) return CL_RUN_OK;
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
    return CL_RUN_OK;
}

/* The lowest Γ₃ of Fig. 5, every local minimum located by an event. */
static int report_minimum(mpfr_srcptr par, mpfr_srcptr sig, mpfr_srcptr z, mpfr_srcptr tend, int printed, long q,
                          cl_prec_t prec, mpfr_ptr w, cl_sys_error *e)
{
    mpfr_ptr a = w, b = w + 1;
    int nmin = 0, nties = 0;
    int st = cl_skate_controlled_min_mp(a, b, &nmin, &nties, par, sig, z, tend, printed);
    if (st) return cl_sys_error_set(e, CL_RUN_FAIL, NULL, "integration failed: %s", cl_strerror(st));
    printf("min Gamma3 on [0, %g] = ", mpfr_get_d(tend, MPFR_RNDN));
    cl_sys_print_real(stdout, b);
    printf("\nfirst reached at t = ");
    cl_sys_print_real(stdout, a);
    printf("\n%d local minima located by the event dGamma3/dt = 0 (rising); %d of them at the lowest level\n"
           "to within 2^%ld (integration tolerance 2^%ld)\n", nmin, nties, q + 12 - (long)prec, q - (long)prec);
    return CL_RUN_OK;
}

/* A fall of the controlled skate (the law (56) as printed makes it fall), located by the event Γ₃ = 0. */
static void report_controlled_fall(mpfr_srcptr tf, int printed)
{
    printf("fall time (Gamma3 = 0, event on (44) with the control law %s): ", printed ? "(56) as printed" : "(53)");
    cl_sys_print_real(stdout, tf);
    if (printed) printf("\n(the law as printed does not match (57): see docs/errata_SKATE.md)");
    putchar('\n');
}

/* Figure 4 (uncontrolled, until the fall) or 5 (controlled, (53)): CSV, PNG, the event times.
   Both files are written under temporary names and renamed into place once complete. */
static int skate_figure(const cl_params *p, cl_prec_t prec, int fig5, cl_sys_error *e)
{
    const char *out = cl_params_get(p, "out")->word;
    int printed = fig5 && !strcmp(cl_params_get(p, "law")->word, "printed");
    /* each law its own files: the printed law never replaces the figure */
    const char *name = fig5 ? (printed ? "skate-fig5-printed" : "skate-fig5") : "skate-fig4";
    mpfr_ptr par = cl_rvec_new_mp(CL_SKATE_NPAR, prec), v = cl_rvec_new_mp(64, prec);
    int ret = CL_RUN_OK, fell = 0;
    cl_output csv = {.slot = -1}, png = {.slot = -1};
    cl_ode_ws_mp *ws = NULL;
    char csv_path[4096], png_path[4096];
    if (!par || !v) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "out of memory"); goto out; }
    mpfr_ptr z = v, zeta = v + 10, x = v + 20, t = v + 32, t1 = v + 33, h = v + 34, tf = v + 37, a = v + 39, b = v + 40,
             u = v + 43, w = v + 44;
    mpfr_srcptr tend = cl_params_x(p, "t-end"), sig = fig5 ? cl_params_x(p, "sigma") : NULL;
    const cl_param_value *state = cl_params_get(p, "state");
    if ((ret = skate_params(par, p, fig5 ? paper_controlled : paper_uncontrolled, fig5, e))) goto out;
    /* initial state: (59) or --state, checked against the constraints */
    if (state->given) cl_rvec_copy_mp(z, state->x, 9);
    else if (cl_skate_initial_59_mp(z, cl_params_x(p, "phi0"))) {
        ret = cl_sys_error_set(e, CL_RUN_BADINPUT, "--phi0", "(59) is undefined at cos(phi0) = 0");
        goto out;
    }
    int cst = cl_skate_check_z_mp(z, 64);
    if (cst == CL_ENOTUNIT) { ret = cl_sys_error_set(e, CL_RUN_BADINPUT, "--state", "initial state: |Gamma| must be 1"); goto out; }
    if (cst) {
        ret = cl_sys_error_set(e, CL_RUN_BADINPUT, "--state",
                               "initial state violates the constraints Gamma1 = 0, (E1 x Gamma).Omega = Gamma.Y = (E1 x Gamma).Y = 0 (19)");
        goto out;
    }
    if (fig5) {
        moment_about_contact(a, par, P(I1));
        mpfr_sqr(b, P(J1), MPFR_RNDN);
        mpfr_div(b, b, sig, MPFR_RNDN);
        mpfr_add(a, a, b, MPFR_RNDN);
        if (mpfr_zero_p(a)) { ret = cl_sys_error_set(e, CL_RUN_BADINPUT, "--sigma", "I1 + ml^2 + J1^2/sigma = 0: the control law is singular"); goto out; }
    }
    /* output directory and files, after all input is validated */
    if (mkdir(out, 0777) && errno != EEXIST) { ret = cl_sys_error_set(e, CL_RUN_BADINPUT, out, "cannot create the output directory"); goto out; }
    if (snprintf(csv_path, sizeof csv_path, "%s/%s.csv", out, name) >= (int)sizeof csv_path ||
        snprintf(png_path, sizeof png_path, "%s/%s.png", out, name) >= (int)sizeof png_path) {
        ret = cl_sys_error_set(e, CL_RUN_BADINPUT, out, "file name too long");
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
    if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "integrator: %s", cl_strerror(st)); goto out; }
    /* the event time first (Fig. 4), so that sampling stops there */
    if (!fig5) {
        st = cl_skate_fall_time_mp(tf, w, par, 0, x, tend);
        if (st == CL_EDOMAIN) { fprintf(stderr, "note: Gamma3 does not reach 0 before t = %g\n", mpfr_get_d(tend, MPFR_RNDN)); mpfr_set(tf, tend, MPFR_RNDN); }
        else if (st) { ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "integration failed: %s", cl_strerror(st)); goto out; }
    } else
        mpfr_set(tf, tend, MPFR_RNDN);
    fprintf(csv.f, "t,Omega1,Omega2,Omega3,Y1,Y2,Y3,Gamma1,Gamma2,Gamma3%s\n", fig5 ? ",thetadot,u" : ",v1,v2,v3");
    /* samples every 0.005 (Fig. 4) or 0.01 (Fig. 5), the last at the event or end time */
    mpfr_set_zero(t, 1);
    mpfr_set_zero(h, 1);
    for (long k = 0;; k++) {
        mpfr_set_si(t1, k, MPFR_RNDN);
        mpfr_div_si(t1, t1, fig5 ? 100 : 200, MPFR_RNDN);
        int last = mpfr_cmp(t1, tf) >= 0;
        if (last) mpfr_set(t1, tf, MPFR_RNDN);
        if (k > 0 && (st = cl_ode_integrate_mp(ws, fig_rhs, &fc, t, x, t1, h, NULL)) < 0) {
            ret = cl_sys_error_set(e, CL_RUN_FAIL, NULL, "integration failed at t = %g: %s", mpfr_get_d(t, MPFR_RNDN), cl_strerror(st));
            goto out;
        }
        if (k > 0 && st == CL_ODE_EVENT) {
            mpfr_set(tf, t, MPFR_RNDN);
            fell = last = 1;
        }
        if (fig5) cl_rvec_copy_mp(zeta, x, 9);
        else cl_skate_zeta_to_z_mp(zeta, x);
        cl_sys_print_real(csv.f, t);
        for (int i = 0; i < 9; i++) csv_real(csv.f, zeta + i);
        if (fig5) {
            csv_real(csv.f, x + 9);
            if (fc.printed) cl_skate_control_law_printed_mp(u, par, sig, x);
            else cl_skate_control_law_mp(u, par, sig, x);
            csv_real(csv.f, u);
        } else
            for (int i = 0; i < 3; i++) csv_real(csv.f, x + i);
        fputc('\n', csv.f);
        if (last) break;
    }
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
    if (fell) { report_controlled_fall(tf, printed); ret = CL_RUN_OK; }
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

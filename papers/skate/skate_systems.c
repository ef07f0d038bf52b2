/*
 * The pendulum skate [SKATE] as a named system for the command line:
 * forms "zeta" (ζ = (v¹, v², v³, Γ₂, Γ₃), the field (38)) and "z"
 * (z = (Ω, Y, Γ), the nonholonomic Euler–Poincaré equations (21)), its
 * parameters, and the analyses it offers, each in a file of its own:
 * skate_equilibria_systems.c (Propositions 11, 12), skate_stability_systems.c
 * (Proposition 16, the thresholds (42), (58)), skate_sweep_systems.c (the
 * stability maps), skate_certified_systems.c (the same verdicts on Arb
 * balls) and skate_figures_systems.c (Figures 4 and 5, `chartless reproduce`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skate_systems_impl.h"

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
const char *const skate_paper_uncontrolled[CL_SKATE_NPAR] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"};
const char *const skate_paper_controlled[CL_SKATE_NPAR] = {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"};


/*
 * The parameters into par: given, else from the table's default, else from
 * \p defaults (the variant of the paper the command stands for); then the
 * rules across parameters. CL_EXIT_USAGE with a message, or 0.
 */
int skate_sys_params(mpfr_ptr par, const cl_params *p, const char *const *defaults, int rotor, cl_sys_error *e)
{
    for (int k = 0; k < CL_SKATE_NPAR; k++) {
        const cl_param *d = cl_param_find(p->table, skate_keys[k]);
        const cl_param_value *v = d ? p->v + (d - p->table) : NULL;
        if (v && v->given && !rotor && k >= CL_SKATE_J1) {
            char arg[8];
            snprintf(arg, sizeof arg, "--%s", skate_keys[k]);
            return cl_sys_error_set(e, CL_EXIT_USAGE, arg, "rotor moments need the controlled skate (--sigma)");
        }
        if (v && v->len) mpfr_set(par + k, v->x, MPFR_RNDN);
        else cl_real_from_str_mp(par + k, defaults[k]);
    }
    if (rotor && mpfr_sgn(par + CL_SKATE_J1) <= 0) return cl_sys_error_set(e, CL_EXIT_USAGE, "--J1", "the rotor needs J1 > 0");
    if (cl_skate_params_check_mp(par, 1))
        return cl_sys_error_set(e, CL_EXIT_USAGE, "--I2, --I3", "I2 must exceed I3 (C2 of (37) and Propositions 11-12 assume it)");
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
    if (!st && skate_sys_params(s->par, p, skate_paper_uncontrolled, 0, e)) st = CL_EPARAM;
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


void skate_print_vec(const char *label, mpfr_srcptr x, int n)
{
    printf("%s", label);
    for (int i = 0; i < n; i++) { putchar(' '); cl_sys_print_real(stdout, x + i); }
    putchar('\n');
}

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

/*
 * The pendulum skate [SKATE] as a named system for the command line:
 * forms "zeta" (ζ = (v¹, v², v³, Γ₂, Γ₃), the field (38)) and "z"
 * (z = (Ω, Y, Γ), the nonholonomic Euler–Poincaré equations (21)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "system.h"
#include "chartless_base.h"
#include "skate.h"

typedef struct skate_inst {
    cl_prec_t prec;
    mpfr_ptr par;   /* CL_SKATE_NPAR */
    mpfr_ptr eq;    /* Y0, Omega0 */
} skate_inst;

static const char *const skate_forms[] = {"zeta", "z", NULL};
static const char *const skate_invariant_names[] = {"energy", "C1", "C2", "C3", NULL};

static const char *const skate_keys[] = {"m", "l", "g", "I1", "I2", "I3"};
static const char *const skate_defaults[] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004"};

static void skate_destroy(void *p)
{
    skate_inst *s = p;
    if (!s) return;
    cl_rvec_free_mp(s->par);
    cl_rvec_free_mp(s->eq);
    free(s);
}

static int skate_create(void **inst, int nopt, char *const *keys, char *const *vals,
                        cl_prec_t prec, char *err, size_t errlen)
{
    skate_inst *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->prec = prec;
    s->par = cl_rvec_new_mp(CL_SKATE_NPAR, prec);
    s->eq = cl_rvec_new_mp(2, prec);
    if (!s->par || !s->eq) { skate_destroy(s); return CL_ENOMEM; }
    for (int i = 0; i < 6; i++) cl_real_from_str_mp(s->par + i, skate_defaults[i]);
    cl_real_from_str_mp(s->eq, "1");
    cl_real_from_str_mp(s->eq + 1, "5");
    for (int k = 0; k < nopt; k++) {
        int found = 0;
        for (int i = 0; i < 6 && !found; i++)
            if (!strcmp(keys[k], skate_keys[i])) {
                found = 1;
                if (cl_real_from_str_mp(s->par + i, vals[k])) {
                    snprintf(err, errlen, "--%s is not a number (%s)", keys[k], vals[k]);
                    skate_destroy(s);
                    return CL_EPARSE;
                }
            }
        if (!found && (!strcmp(keys[k], "Y0") || !strcmp(keys[k], "Omega0"))) {
            found = 1;
            if (cl_real_from_str_mp(s->eq + (keys[k][0] == 'O'), vals[k])) {
                snprintf(err, errlen, "--%s is not a number (%s)", keys[k], vals[k]);
                skate_destroy(s);
                return CL_EPARSE;
            }
        }
        if (!found) {
            snprintf(err, errlen, "unknown parameter of the skate (--%s)", keys[k]);
            skate_destroy(s);
            return CL_EPARAM;
        }
    }
    int st = cl_skate_params_check_mp(s->par, 1);
    if (st) {
        const char *what = "I2 must exceed I3 (C2 of (37) and Props. 11-12 assume it) (--I2, --I3)";
        if (st == CL_ENAN) what = "parameters must be finite numbers";
        else if (mpfr_sgn(s->par + CL_SKATE_M) <= 0) what = "mass must be positive (--m)";
        else if (mpfr_sgn(s->par + CL_SKATE_L) <= 0) what = "height of the centre of mass must be positive (--l)";
        else if (mpfr_sgn(s->par + CL_SKATE_G) < 0) what = "gravity must not be negative (--g)";
        else if (mpfr_sgn(s->par + CL_SKATE_I1) <= 0 || mpfr_sgn(s->par + CL_SKATE_I2) <= 0 ||
                 mpfr_sgn(s->par + CL_SKATE_I3) <= 0)
            what = "moments of inertia must be positive (--I1, --I2, --I3)";
        snprintf(err, errlen, "%s", what);
        skate_destroy(s);
        return st;
    }
    *inst = s;
    return CL_OK;
}

static size_t skate_dim(void *inst, int form)
{
    (void)inst;
    return form ? CL_SKATE_NZ : CL_SKATE_NZETA;
}

static int skate_check_state(void *inst, int form, mpfr_srcptr x, char *err, size_t errlen)
{
    skate_inst *s = inst;
    if (form == 1) {
        int st = cl_skate_check_z_mp(x, 64);
        if (st == CL_ENOTUNIT) snprintf(err, errlen, "|Gamma| must be 1 (z-form state)");
        else if (st == CL_ENOTTANGENT)
            snprintf(err, errlen, "state violates the constraints: Gamma_1 = 0 (19) and psi^a(Gamma).(Omega, Y) = 0");
        else if (st) snprintf(err, errlen, "state is not finite");
        return st;
    }
    if (!cl_rvec_is_finite_mp(x, 5)) { snprintf(err, errlen, "state is not finite"); return CL_ENAN; }
    mpfr_t t, u;
    mpfr_inits2(s->prec, t, u, (mpfr_ptr)0);
    mpfr_sqr(t, x + 3, MPFR_RNDN);
    mpfr_sqr(u, x + 4, MPFR_RNDN);
    mpfr_add(t, t, u, MPFR_RNDN);
    mpfr_sub_ui(t, t, 1, MPFR_RNDN);
    int bad = mpfr_get_d(t, MPFR_RNDN) != 0 && cl_mpfr_log2(t) > 7.0 - (double)s->prec;
    mpfr_clears(t, u, (mpfr_ptr)0);
    if (bad) { snprintf(err, errlen, "Gamma_2^2 + Gamma_3^2 must be 1 (zeta-form state)"); return CL_ENOTUNIT; }
    return CL_OK;
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

static const cl_system skate_system = {
    .name = "skate",
    .summary = "pendulum skate [SKATE]: nonholonomic Euler-Poincare (21) and quasivelocities (38)",
    .params_help = "  --m M --l L --g G        mass, height of the centre of mass, gravity (default 2, 0.8, 9.8)\n"
                   "  --I1 --I2 --I3           principal moments, I2 > I3 (default 0.35, 0.35, 0.004)\n"
                   "  --Y0 --Omega0            the sliding (40) and spinning (41) equilibria offered (default 1, 5)\n",
    .state_help = "zeta: v1 v2 v3 Gamma2 Gamma3 (v1 = Omega1, v2 = Omega.Gamma, v3 = Y1; Gamma2^2 + Gamma3^2 = 1)\n"
                  "z:    Omega1 Omega2 Omega3 Y1 Y2 Y3 Gamma1 Gamma2 Gamma3 (|Gamma| = 1, Gamma1 = 0,\n"
                  "      (E1 x Gamma).Omega = Gamma.Y = (E1 x Gamma).Y = 0)\n",
    .forms = skate_forms,
    .create = skate_create,
    .destroy = skate_destroy,
    .dim = skate_dim,
    .check_state = skate_check_state,
    .rhs = skate_rhs,
    .invariant_names = skate_invariant_names,
    .invariants = skate_invariants,
    .convert = skate_convert,
    .random_state = skate_random_state,
    .equilibrium = skate_equilibrium,
    .component_name = skate_component_name,
};
CL_SYSTEM_REGISTER(skate_system)

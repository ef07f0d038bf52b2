/*
 * What the skate's command-line files (skate_*_systems.c) share: the
 * parameter tables' entries, the parameters with their defaults, the bounds
 * (42) and (58), and the ball helpers of the certified verdicts. Internal
 * (not installed).
 */
#ifndef SKATE_SYSTEMS_IMPL_H
#define SKATE_SYSTEMS_IMPL_H
#include "system_impl.h"
#include "chartless_base.h"
#include "skate.h"

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

#define P(k) (par + CL_SKATE_##k)

/* The body's parameters of the paper's Sec. 7.2 skate and of the controlled skate of Sec. 7.3. */
extern const char *const skate_paper_uncontrolled[CL_SKATE_NPAR];
extern const char *const skate_paper_controlled[CL_SKATE_NPAR];
extern const cl_system_tool skate_equilibria, skate_stability;
extern const cl_system_sweep skate_sweep;

int skate_sys_params(mpfr_ptr par, const cl_params *p, const char *const *defaults, int rotor, cl_sys_error *e);
void skate_print_vec(const char *label, mpfr_srcptr x, int n);
/* skate_cell_systems.c, beneath the verdicts: the bounds (42), (58) and one MPFR cell of the map. */
void skate_moment_about_contact(mpfr_ptr u, mpfr_srcptr par, mpfr_srcptr I);
int skate_spin_bound_42(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par);
void skate_sigma_bound_58(mpfr_ptr f, mpfr_ptr u, mpfr_srcptr par);
int skate_sweep_cell_params(mpfr_ptr par, mpfr_ptr pm, int *sliding, int *singular, const cl_params *p, cl_sys_error *e);
int skate_sweep_cell(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e);
/* skate_certified_systems.c: the certified verdicts on Arb balls. */
int skate_certify_wanted(const cl_params *p, cl_prec_t prec);
void skate_ball_around(arb_ptr b, mpfr_srcptr x);
void skate_print_ball(arb_srcptr x);
int skate_print_enclosures(const char *indent, arb_srcptr wr, arb_srcptr wi);
double skate_log2_relrad(arb_srcptr x);
int skate_equilibria_certify(mpfr_srcptr par, mpfr_srcptr x, int k, cl_sys_error *e);
int skate_stability_certify(mpfr_srcptr par, mpfr_srcptr x, mpfr_srcptr sigma, int spin, cl_sys_error *e);
int skate_threshold_certify(mpfr_srcptr par, mpfr_srcptr Y0m, int spin, cl_sys_error *e);
int skate_sweep_cell_certified(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e);

#endif

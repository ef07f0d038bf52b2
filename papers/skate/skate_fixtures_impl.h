/* Shared by the checks and the tests of the pendulum skate: parameter sets,
 * random constraint-consistent states and the comparisons between the forms,
 * at the working precision. */
#ifndef SKATE_FIXTURES_H
#define SKATE_FIXTURES_H
#include <math.h>
#include "r3.h"
#include "skate.h"

/* m, l, g, I1, I2, I3, J1, J2, J3 as decimal strings. */
static const char *const SKATE_SETS[][CL_SKATE_NPAR] = {
    {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"},
    {"1.5", "0.5", "9.81", "0.2", "0.3", "0.05", "0", "0", "0"},
    {"0.5", "0.2", "9.81", "0.3", "0.4", "0.01", "0", "0", "0"},
    {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"},
};
enum skate_set {
    SKATE_PAPER = 0,      /* the paper's uncontrolled skate (§7.2) */
    SKATE_GENERIC = 1,    /* a generic one */
    SKATE_SPIN_UNSTABLE = 2, /* I3 + ml² < I2: spinning always unstable (Prop. 11 (i)) */
    SKATE_CONTROLLED = 3, /* the controlled skate of §7.3 */
    SKATE_NSETS = 4
};
/* The sets without a rotor (J = 0). */
#define SKATE_NSETS_UNCONTROLLED 3

static inline void skate_set_params(rptr par, int set)
{
    for (int i = 0; i < CL_SKATE_NPAR; i++) CL_FN(cl_real_from_str)(par + i, SKATE_SETS[set][i]);
}

/* b = x exactly, as a point ball (the rung's number taken as exact): for
   comparing a double or MPFR value with the ball kind. */
static inline void skate_ball_of(arb_ptr b, rsrc x)
{
    mpfr_t w;
    mpfr_init2(w, r_prec(x) > 53 ? r_prec(x) : 53);
    r_get_mpfr(w, x);
    arf_set_mpfr(arb_midref(b), w);
    mag_zero(arb_radref(b));
    mpfr_clear(w);
}

/* mgl */
static inline void skate_mgl(rptr r, rsrc par)
{
    r_mul(r, par + CL_SKATE_M, par + CL_SKATE_G);
    r_mul(r, r, par + CL_SKATE_L);
}

/* Iᵢ + ml² for the moment at index \p I (CL_SKATE_I1, I2 or I3) */
static inline void skate_I_ml2(rptr r, rsrc par, int I)
{
    r_mul(r, par + CL_SKATE_M, par + CL_SKATE_L);
    r_fma(r, r, par + CL_SKATE_L, par + I);
}

/* Figure 4's start: the paper's skate, the state (59) with φ₀ = 0.1 in the
 * z-form (9 numbers) and in ζ, and the horizon 5 for the fall. */
static inline void skate_fig4_start(rptr par, rptr z, rptr zeta, rptr tmax)
{
    R_DECL(phi, r_prec(z));
    skate_set_params(par, SKATE_PAPER);
    r_set_q(phi, 1, 10);
    CL_FN(cl_skate_initial_59)(z, phi);
    CL_FN(cl_skate_z_to_zeta)(zeta, z);
    r_set_si(tmax, 5);
}

/* ζ with v ~ N(0, 1) and Γ = (0, sin φ, cos φ), φ ∈ (−1.2, 1.2): exactly on the circle up to rounding. */
static inline void skate_random_zeta(rptr zeta, cl_rng *g)
{
    R_DECL(phi, r_prec(zeta));
    for (int i = 0; i < 3; i++) r_set_d(zeta + i, cl_rng_normal(g));
    r_set_d(phi, cl_rng_range(g, -1.2, 1.2));
    r_sin(zeta + 3, phi);
    r_cos(zeta + 4, phi);
}

/* ζ̇ from ż by differentiating (33): v̇¹ = Ω̇₁, v̇² = Ω̇·Γ + Ω·Γ̇, v̇³ = Ẏ₁. */
static inline void skate_zdot_to_zetadot(rptr dzeta, rsrc z, rsrc dz)
{
    R_DECL(t, r_prec(dzeta));
    R_DECL(u, r_prec(dzeta));
    v3_dot(t, dz, z + 6);
    v3_dot(u, z, dz + 6);
    r_set(dzeta, dz);
    r_add(dzeta + 1, t, u);
    r_set(dzeta + 2, dz + 3);
    r_set(dzeta + 3, dz + 7);
    r_set(dzeta + 4, dz + 8);
}

/* log2 of max_i |a_i − b_i| / max(1, max_i |b_i|) */
static inline double skate_log2_relerr(rsrc a, rsrc b, size_t n)
{
    double s = CL_FN(cl_rvec_log2_maxabs)(b, n);
    if (!(s > 0)) s = 0;
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, n) - s;
}

/* log2 of |a − b| / max(1, |scale|), the difference rounded once */
static inline double skate_log2_diff(rsrc a, rsrc b, rsrc scale)
{
    R_DECL(t, r_prec(a));
    r_sub(t, a, b);
    return r_log2abs(t) - fmax(0, r_log2abs(scale));
}
#endif

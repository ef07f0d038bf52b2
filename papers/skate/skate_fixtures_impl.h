/* Shared by the tests of the pendulum skate: parameter sets and random
 * constraint-consistent states, at the working precision. */
#ifndef SKATE_COMMON_H
#define SKATE_COMMON_H
#include "tap_real.h"
#include "r3.h"
#include "skate.h"

/* m, l, g, I1, I2, I3, J1, J2, J3 as decimal strings. Set 0 is the paper's
 * uncontrolled skate (§7.2), set 1 a generic one, set 2 has I3 + ml² < I2
 * (spinning always unstable, Prop. 11 (i)), set 3 the controlled skate of §7.3. */
static const char *const SKATE_SETS[][CL_SKATE_NPAR] = {
    {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"},
    {"1.5", "0.5", "9.81", "0.2", "0.3", "0.05", "0", "0", "0"},
    {"0.5", "0.2", "9.81", "0.3", "0.4", "0.01", "0", "0", "0"},
    {"3", "0.8", "9.8", "0.35", "0.35", "0.004", "0.005", "0.0025", "0.0025"},
};
#define SKATE_NSETS 4

static inline void skate_set_params(rptr par, int set)
{
    for (int i = 0; i < CL_SKATE_NPAR; i++) CL_FN(cl_real_from_str)(par + i, SKATE_SETS[set][i]);
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
#endif

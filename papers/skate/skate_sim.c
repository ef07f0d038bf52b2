/**
 * \page ch_skate_sim SKATE §7.2–7.3 — the simulations of Figures 4 and 5
 *
 * The paper ends with two simulations from one initial state, a small tilt
 * φ₀ = 0.1 away from the sliding equilibrium (40) [SKATE (59)]:
 * \f[ Ω(0) = (0.1,\ 0.1\tanφ_0,\ 0.1),\qquad Y(0) = (1, 0, 0),\qquad
 *     Γ(0) = (0,\ \sinφ_0,\ \cosφ_0). \f]
 * It satisfies Γ₁ = 0 and the three constraints ψ¹, ψ², ψ³ exactly for
 * every φ₀ (Ω₂Γ₃ = 0.1 sin φ₀ = Ω₃Γ₂), so it is used as given
 * (cl_skate_initial_59_d()).
 *
 * <b>Figure 4, uncontrolled.</b> The skate of §7.2 (m = 2, l = 0.8,
 * I = (0.35, 0.35, 0.004)) falls: Γ₃ reaches 0 at t ≈ 1.025.
 * cl_skate_fall_time_d() integrates the quasivelocity form (38),
 * \f$\dotζ = f(ζ)\f$ with ζ = (v¹, v², v³, Γ₂, Γ₃), or the z-form (21) with
 * its multipliers, by Gragg–Bulirsch–Stoer with tolerance
 * \f$2^{12-p}\f$, and locates the fall as an event of the integrator
 * (Γ₃ = 0 falling) rather than by sampling, so the fall time is known to
 * the working precision. The oracle rows skate.fig4.flow (the path to
 * t = 13/16) and skate.fig4.fall (the fall from there) compare the two
 * forms on the ladder, and the errata page \ref errata_SKATE gives the
 * confirmed time to 50 digits.
 *
 * <b>Figure 5, controlled.</b> With a rotor (m = 3, J = (0.005, 0.0025,
 * 0.0025)) and σ = −10⁻⁵ inside the stability range (58), the closed loop
 * (44) with the control law of chapter \ref ch_skate_control
 * \f[ u = \frac{J_1^2}{σ}\,\frac{R_1}{I_1 + ml^2 + J_1^2/σ},\qquad
 *     R_1 = Γ_2\big(mgl + (ml^2 + \mathcal I_2 - \mathcal I_3)Γ_3(v^2)^2\big) + mlΓ_3v^2v^3 \f]
 * keeps Γ₃ near 1 over 0 ≤ t ≤ 10. cl_skate_controlled_min_d() finds the
 * lowest Γ₃: every local minimum is an event
 * \f$\dotΓ_3 = Γ_1Ω_2 - Γ_2Ω_1\f$ rising through 0; among Γ₃(0), the minima
 * and Γ₃ at the end it takes the lowest value and the first time it is
 * reached to within \f$2^{24-p}\f$ (the closed loop is periodic, so later
 * minima repeat the value up to the integration error). With the law as
 * printed in (56), which divides by I₁ + ml² instead, the skate falls
 * within t = 2 (\ref errata_SKATE).
 *
 * The command line draws both figures: `chartless reproduce skate-fig4`
 * and `chartless reproduce skate-fig5` (`--law printed` for the printed law).
 */
#include "r3.h"
#include "ode.h"
#include "skate.h"
#include "deriv.h"

#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

/* Df of (38) by src/deriv, for the oracle's comparison with the hand
   Jacobian of §5.4 (skate_stability.c). */
#if CL_PREC == CL_MPFR
int cl_skate_zeta_field(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    return cl_skate_rhs_zeta_mp(y, (mpfr_srcptr)ctx, x);
}
#endif

int CL_FN(cl_skate_jacobian_deriv)(rptr Df, rptr err, rsrc par, rsrc zeta)
{
    cl_prec_t p = r_prec(Df);
    mpfr_ptr pm = cl_rvec_new_mp(CL_SKATE_NPAR, p);
    if (!pm) return CL_ENOMEM;
    for (int i = 0; i < CL_SKATE_NPAR; i++) r_get_mpfr(pm + i, par + i);
    int st = CL_FN(cl_jacobian)(Df, err, cl_skate_zeta_field, pm, zeta, 5, 5);
    cl_rvec_free_mp(pm);
    return st;
}

/* integration tolerance 2^(SIM_Q − p) */
#define SIM_Q 12

typedef struct sim_ctx {
    rsrc par, sigma;
    int form, printed;
} sim_ctx;

/** (59) */
int CL_FN(cl_skate_initial_59)(rptr z, rsrc phi0)
{
    cl_prec_t p = r_prec(z);
    R_DECL(c, p); R_DECL(s, p); R_DECL(t, p);
    r_cos(c, phi0);
    if (r_is_zero(c) || !r_is_number(phi0)) return CL_EDOMAIN;
    r_sin(s, phi0);
    for (int i = 0; i < 9; i++) r_set_zero(z + i);
    r_set_q(z, 1, 10);
    r_div(t, s, c);
    r_div_si(z + 1, t, 10);
    r_set_q(z + 2, 1, 10);
    r_set_si(z + 3, 1);
    r_set(z + 7, s);
    r_set(z + 8, c);
    return CL_OK;
}

static int sim_rhs(rptr dx, rsrc t, rsrc x, void *ctx)
{
    const sim_ctx *c = ctx;
    (void)t;
    if (c->sigma) return CL_FN(cl_skate_rhs_z_controlled)(dx, c->par, c->sigma, x, c->printed);
    return c->form ? CL_FN(cl_skate_rhs_z)(dx, NULL, c->par, x) : CL_FN(cl_skate_rhs_zeta)(dx, c->par, x);
}

/* Γ₃ in either form */
static int ev_gamma3(rptr g, rsrc t, rsrc x, void *ctx)
{
    const sim_ctx *c = ctx;
    (void)t;
    r_set(g, x + (c->form ? 8 : 4));
    return CL_OK;
}

/* Γ̇₃ = Γ₁Ω₂ − Γ₂Ω₁ (z-form) */
static int ev_gamma3_rate(rptr g, rsrc t, rsrc x, void *ctx)
{
    (void)t; (void)ctx;
    r_mul(g, x + 6, x + 1);
    r_submul(g, x + 7, x);
    return CL_OK;
}

static int make_ws(CL_FN(cl_ode_ws) **ws, size_t n, cl_prec_t p)
{
    int st = CL_FN(cl_ode_ws_new)(ws, n, p, CL_ODE_GBS, 0);
    if (st) return st;
    long q = SIM_Q;
    R_DECL(tol, p);
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, q - (long)p);
    return CL_FN(cl_ode_set_tol)(*ws, tol, tol);
}

int CL_FN(cl_skate_fall_time)(rptr tfall, rptr xend, rsrc par, int form, rsrc x0, rsrc tmax)
{
    cl_prec_t p = r_prec(tfall);
    size_t n = form ? CL_SKATE_NZ : CL_SKATE_NZETA;
    sim_ctx c = {par, NULL, form, 0};
    CL_FN(cl_ode_ws) *ws = NULL;
    rptr x = CL_FN(cl_rvec_new)(n, p);
    if (!x) return CL_ENOMEM;
    R_DECL(t, p); R_DECL(h, p);
    int st = make_ws(&ws, n, p);
    if (!st) st = CL_FN(cl_ode_set_event)(ws, ev_gamma3, &c, CL_ODE_EVENT_FALLING);
    if (!st) {
        CL_FN(cl_rvec_copy)(x, x0, n);
        r_set_zero(t);
        r_set_zero(h);
        st = CL_FN(cl_ode_integrate)(ws, sim_rhs, &c, t, x, tmax, h, NULL);
        if (st == 0) st = CL_EDOMAIN;
        else if (st == CL_ODE_EVENT) {
            r_set(tfall, t);
            CL_FN(cl_rvec_copy)(xend, x, n);
            st = CL_OK;
        }
    }
    CL_FN(cl_ode_ws_free)(ws);
    CL_FN(cl_rvec_free)(x);
    return st;
}

int CL_FN(cl_skate_controlled_min)(rptr tmin, rptr g3min, int *nmin, int *nties, rsrc par, rsrc sigma, rsrc z0,
                                   rsrc tend, int printed)
{
    cl_prec_t p = r_prec(tmin);
    const size_t n = CL_SKATE_NZ_ROTOR;
    const int cap = 4096;
    sim_ctx c = {par, sigma, 1, printed};
    CL_FN(cl_ode_ws) *ws = NULL;
    rptr x = CL_FN(cl_rvec_new)(n, p), tl = CL_FN(cl_rvec_new)(cap + 1, p), gl = CL_FN(cl_rvec_new)(cap + 1, p);
    R_DECL(t, p); R_DECL(h, p); R_DECL(tie, p); R_DECL(d, p);
    int st = (!x || !tl || !gl) ? CL_ENOMEM : make_ws(&ws, n, p);
    if (!st) st = CL_FN(cl_ode_set_event)(ws, ev_gamma3_rate, &c, CL_ODE_EVENT_RISING);
    *nmin = *nties = 0;
    int nl = 0;
    if (!st) {
        /* candidates: Γ₃(0), every local minimum, Γ₃(tend) */
        CL_FN(cl_rvec_copy)(x, z0, n);
        r_set_zero(t);
        r_set_zero(h);
        r_set_zero(tl);
        r_set(gl, x + 8);
        nl = 1;
        for (;;) {
            st = CL_FN(cl_ode_integrate)(ws, sim_rhs, &c, t, x, tend, h, NULL);
            if (st < 0) break;
            if (st == CL_ODE_EVENT) ++*nmin;
            if (nl < cap + 1) {
                r_set(tl + nl, t);
                r_set(gl + nl, x + 8);
                nl++;
            }
            if (st == 0) break;
        }
        if (st > 0) st = CL_OK;
    }
    if (!st) {
        /* the lowest value, then the first candidate within 2^(SIM_Q+12−p) of it */
        r_set(g3min, gl);
        for (int i = 1; i < nl; i++)
            if (r_cmp(gl + i, g3min) < 0) r_set(g3min, gl + i);
        long q = SIM_Q;
        r_set_si(tie, 1);
        r_mul_2si(tie, tie, q + 12 - (long)p);
        int first = -1;
        for (int i = 0; i < nl; i++) {
            r_sub(d, gl + i, g3min);
            if (r_cmp(d, tie) <= 0) {
                if (first < 0) first = i;
                ++*nties;
            }
        }
        r_set(tmin, tl + first);
        r_set(g3min, gl + first); /* the earliest occurrence carries the least integration error */
    }
    CL_FN(cl_ode_ws_free)(ws);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_rvec_free)(tl);
    CL_FN(cl_rvec_free)(gl);
    return st;
}

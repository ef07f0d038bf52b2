/*
 * Oracle checks of the pendulum skate along trajectories [SKATE §3, §5, §6]:
 * the two forms integrated side by side with the invariants and constraints
 * along each (one row, each trajectory integrated once), and the matched
 * closed loop. Integration by the Taylor method (src/taylor) of the order
 * for 2^(24−p) per step (2^(12−p) for the stiffer closed loop), so
 * integration errors scale with the working precision. The horizon is 0.5 up to 256
 * bits and 1/16 above (1/64 for the matched closed loop, whose sigma = -1e-5
 * case needs the shortest steps), to keep the top rung within seconds.
 * Figure 4's two rows follow its whole path to the fall at every rung, with
 * tolerance 2^(12−p) as cl_skate_fall_time(). skate.traj.advected checks
 * (12), Γ(t) = R(t)ᵀe₃, against the rotation reconstructed along the path.
 *
 * Each field is traced once into an expression graph by its templated C
 * body compiled for the tracing kind (trace.h), so the equation the Taylor
 * recurrences expand is the one the C code evaluates; the fall is located
 * on the step's polynomial, not by re-integrated partial steps. Gragg–
 * Bulirsch–Stoer (src/ode, TAYLOR_NEVER) on the C fields is slower on every
 * row and rung (1024 bits: forms 7.4 s against 3.3, the matched loop's 256
 * bits 3.5 against 2.2).
 */
#include <math.h>
#include "check.h"
#include "ode.h"
#include "taylor.h"
#include "trace.h"
#include "skate_fixtures_impl.h"

/* Where a run uses the Taylor method instead of GBS (traj_ctx.taylor): never,
   at every rung, or above 256 bits only. */
enum { TAYLOR_NEVER = 0, TAYLOR_ALWAYS = 1, TAYLOR_ABOVE_256 = 2 };

/* fast: the horizon above 256 bits is 1/64 instead of 1/16; rows: the z-form
   with the first two rows of R reconstructed beside it; taylor: where the
   Taylor method on the field traced into a graph replaces GBS; event:
   1 + the component whose falling zero ends the run (Γ₃; 0: none) */
typedef struct traj_ctx {
    rsrc par, sigma;
    int form, fast, rows;
    rsrc t1;  /* the horizon; NULL: by the precision */
    long q;   /* the tolerance 2^(q-p) per step; 0: 2^(24-p) */
    int taylor;
    int event;
} traj_ctx;

#define SK_(f, S) CL_CAT(f, S)
/* The field of a row in the kind of suffix S (CL_SUFFIX, or _tr to trace it):
   the z-form (21), with the reconstruction Ṙ = RΩ^ of the first two rows of R,
   ṙᵢ = rᵢ × Ω, on x = (z, r₁, r₂) (the rows never see Γ); the closed loop
   (44); or the ζ-form (38). Written once for both. */
#define TRAJ_FIELD(S, st_, dx_, c_, par_, sig_, x_)                                              \
    do {                                                                                     \
        if ((c_)->rows) {                                                                     \
            st_ = SK_(cl_skate_rhs_z, S)(dx_, NULL, par_, x_);                                   \
            SK_(cl_v3_cross, S)((dx_) + 9, (x_) + 9, x_);                                       \
            SK_(cl_v3_cross, S)((dx_) + 12, (x_) + 12, x_);                                     \
        } else if ((c_)->sigma)                                                               \
            st_ = SK_(cl_skate_rhs_z_controlled, S)(dx_, par_, sig_, x_, 0);                    \
        else                                                                                 \
            st_ = (c_)->form ? SK_(cl_skate_rhs_z, S)(dx_, NULL, par_, x_) : SK_(cl_skate_rhs_zeta, S)(dx_, par_, x_); \
    } while (0)

static int traj_rhs(rptr dx, rsrc t, rsrc x, void *ctx)
{
    const traj_ctx *c = ctx;
    int st;
    (void)t;
    TRAJ_FIELD(CL_SUFFIX, st, dx, c, c->par, c->sigma, x);
    return st;
}

#define TRAJ_NMAX 15
/* The row's field traced at x into *g: out[0..n−1] its components, out[n] Γ₃
   when the run has an event. Its parameters enter as constants holding exactly
   the row's values at p. */
static int traj_graph(cl_expr_dag **g, int *out, size_t n, const traj_ctx *c, rsrc x, cl_prec_t p)
{
    cl_trace_scalar par[CL_SKATE_NPAR], sig[1], xt[TRAJ_NMAX], dx[TRAJ_NMAX];
    double xv[TRAJ_NMAX];
    int st = cl_expr_dag_new(g);
    if (!st) st = cl_trace_begin(*g, p);
    if (st) return st;
    for (int i = 0; i < CL_SKATE_NPAR; i++) par[i] = r_traced(c->par + i);
    if (c->sigma) sig[0] = r_traced(c->sigma);
    for (size_t i = 0; i < n; i++) xv[i] = r_get_d(x + i);
    cl_trace_inputs(xt, xv, n);
    TRAJ_FIELD(_tr, st, dx, c, par, c->sigma ? sig : NULL, xt);
    int st2 = cl_trace_end();
    if (!st) st = st2;
    for (size_t i = 0; i < n; i++) out[i] = dx[i].id;
    if (c->event) out[n] = xt[c->event - 1].id;
    return st;
}

/*
 * Taylor: x (n) from t = 0 to t1, or to the event (its time into t); the
 * order for 2^(q-p) (cl_taylor_order_for_tol()), the Jorba–Zou step, and the
 * event located on the step's polynomial (no step re-integrated), at the
 * working precision: the precision plan measures the terms of every node
 * (taylor.c), so the solves in (21), whose nodes' series converge more
 * slowly than the state's, need no guard bits (Figure 4's path at 1024 bits:
 * 2^-1019.6 from the ζ-form, against 2^-959 when the plan measured only the
 * state's terms).
 */
static int integrate_taylor(rptr x, rptr t, size_t n, const traj_ctx *c, rsrc t1, long q, cl_prec_t p)
{
    cl_expr_dag *g = NULL;
    CL_FN(cl_taylor) *ws = NULL;
    int out[TRAJ_NMAX + 1];
    r_set_zero(t);
    int st = traj_graph(&g, out, n, c, x, p);
    if (!st) st = CL_FN(cl_taylor_new)(&ws, g, out, n, c->event != 0, -1, cl_taylor_order_for_tol((double)(q - (long)p)), p);
    if (!st) st = CL_FN(cl_taylor_integrate)(ws, t, x, t1, 0, NULL, NULL, c->event ? 0 : -1, CL_ODE_EVENT_FALLING, NULL);
    CL_FN(cl_taylor_free)(ws);
    cl_expr_dag_free(g);
    return st;
}

/* Integrate x (n) from 0 to the horizon of precision p (t: the end, the event's time when there is one). */
static int integrate_to(rptr x, rptr t, size_t n, const traj_ctx *c, cl_prec_t p)
{
    CL_FN(cl_ode_ws) *ws = NULL;
    R_DECL(t1, p); R_DECL(h, p); R_DECL(tol, p);
    long q = c->q ? c->q : 24;
    r_set_si(t1, 1);
    r_mul_2si(t1, t1, p <= 256 ? -1 : c->fast ? -6 : -4);
    if (c->t1) r_set(t1, c->t1);
    if (c->taylor == TAYLOR_ALWAYS || (c->taylor == TAYLOR_ABOVE_256 && p > 256))
        return integrate_taylor(x, t, n, c, t1, q, p);
    int st = CL_FN(cl_ode_ws_new)(&ws, n, p, CL_ODE_GBS, 0);
    if (st) return st;
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, q - (long)p);
    st = CL_FN(cl_ode_set_tol)(ws, tol, tol);
    r_set_zero(t);
    if (!st) st = CL_FN(cl_ode_integrate)(ws, traj_rhs, (void *)c, t, x, t1, h, NULL);
    CL_FN(cl_ode_ws_free)(ws);
    return st;
}

static int integrate(rptr x, size_t n, const traj_ctx *c, cl_prec_t p)
{
    R_DECL(t, p);
    return integrate_to(x, t, n, c, p);
}

/* initial states: (59) with φ₀ = 0.1 and 0.3, and a generic consistent state */
static void initial(rptr z, int k)
{
    cl_prec_t p = r_prec(z);
    R_DECL(phi, p);
    RV_DECL(zeta, 5, p);
    if (k < 2) {
        r_set_q(phi, k ? 3 : 1, 10);
        CL_FN(cl_skate_initial_59)(z, phi);
        return;
    }
    r_set_q(zeta, 3, 4); r_set_q(zeta + 1, -2, 1); r_set_q(zeta + 2, 1, 2);
    r_set_q(phi, -1, 5);
    r_sin(zeta + 3, phi); r_cos(zeta + 4, phi);
    CL_FN(cl_skate_zeta_to_z)(z, zeta);
}

/*
 * From each initial state, integrate the z-form (nz numbers: 9, or 10 with the
 * rotor at rest) under \p cz and the ζ-form under \p cs over the horizon,
 * then compare ζ(T) with z(T) projected by (33), relative.
 */
static int compare_flows(cl_check_result *res, const traj_ctx *cz, size_t nz, const traj_ctx *cs, cl_prec_t p,
                         const char *what)
{
    RV_DECL(z, 10, p); RV_DECL(zeta, 5, p); RV_DECL(zz, 5, p);
    for (int k = 0; k < 3; k++) {
        initial(z, k);
        r_set_zero(z + 9);
        CL_FN(cl_skate_z_to_zeta)(zeta, z);
        int st = integrate(z, nz, cz, p);
        if (!st) st = integrate(zeta, 5, cs, p);
        if (st) return st;
        CL_FN(cl_skate_z_to_zeta)(zz, z);
        cl_check_worst(res, skate_log2_relerr(zz, zeta, 5), "%s, initial state %d", what, k);
    }
    return CL_OK;
}

/* The invariants ℰ, C₁, C₂, C₃ at ζ into I (4). */
static void invariants(rptr I, rsrc par, rsrc zeta)
{
    CL_FN(cl_skate_energy_zeta)(I, par, zeta);
    CL_FN(cl_skate_invariants)(I + 1, par, zeta);
}

/*
 * Both forms integrated once from each initial state, and everything those
 * runs show: ζ(T) of (38) against z(T) of (21) projected by (33); the drift
 * of ℰ, C₁, C₂, C₃ along each form; the constraints Γ₁, ψᵃ, |Γ|² − 1 at the
 * end of the z-form (one row, so that no trajectory is integrated twice).
 */
CL_CHECK(skate_traj_forms, "skate.traj.forms", .chapter = "SKATE 3, 5", .tags = "[SKATE (19), (21), (30), (36), (37), (38), (59)]", .what = "zeta-form (38) and z-form (21) integrated side by side from (59) and a generic state: zeta(T) compared (relative), the drift of E, C1, C2, C3 along both forms and of Gamma1, psi^a, |Gamma|^2 - 1 along the z-form", .cond = 268435456, .why = "each integration by the Taylor method of order for 2^(24-p) (truncation about 2^(24-p) per step relative to max(1, |x|)) on the fields traced from (38) and (21), over a few steps, and error growth over the horizon; measured at most 2^(-11) of the tolerance over the rungs", .slow = 1)
{
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(z, 9, prec); RV_DECL(zeta, 5, prec); RV_DECL(zz, 5, prec);
    RV_DECL(I0, 4, prec); RV_DECL(I1, 4, prec); RV_DECL(cr, 5, prec);
    cl_check_begin(res);
    for (int s = 0; s < 2; s++) {
        const char *who = s ? "generic skate" : "paper's skate";
        skate_set_params(par, s ? SKATE_GENERIC : SKATE_PAPER);
        traj_ctx cz = {par, NULL, 1, 0, 0, NULL, 0, TAYLOR_ALWAYS, 0}, cs = {par, NULL, 0, 0, 0, NULL, 0, TAYLOR_ALWAYS, 0};
        for (int k = 0; k < 3; k++) {
            initial(z, k);
            CL_FN(cl_skate_z_to_zeta)(zeta, z);
            invariants(I0, par, zeta);
            int st = integrate(z, 9, &cz, prec);
            if (!st) st = integrate(zeta, 5, &cs, prec);
            if (st) return st;
            CL_FN(cl_skate_z_to_zeta)(zz, z);
            cl_check_worst(res, skate_log2_relerr(zz, zeta, 5), "%s, initial state %d", who, k);
            invariants(I1, par, zeta);
            cl_check_worst(res, skate_log2_relerr(I1, I0, 4), "%s, invariants along (38), initial state %d", who, k);
            invariants(I1, par, zz);
            cl_check_worst(res, skate_log2_relerr(I1, I0, 4), "%s, invariants along the z-form, initial state %d", who, k);
            CL_FN(cl_skate_constraint_residuals)(cr, z);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(cr, 5), "%s, constraints along the z-form, initial state %d", who, k);
        }
    }
    return CL_OK;
}

/*
 * The advected parameter is the vertical seen from the body, Γ(t) = s(t)⁻¹γ₀
 * = R(t)ᵀe₃ [SKATE (12)]: the z-form carries Γ by (17b) while the first two
 * rows r₁, r₂ of R are reconstructed from Ω alone (Ṙ = RΩ^), from R(0) whose
 * third row is Γ(0); at T the third row of R, r₁ × r₂, must be Γ(T).
 */
CL_CHECK(skate_traj_advected, "skate.traj.advected", .chapter = "SKATE 3", .tags = "[SKATE (12), (17b), (21)]", .what = "Gamma(T) of the z-form (21), carried by (17b), against R(T)^T e3 = r1 x r2 of the rotation reconstructed beside it (Rdot = R Omega^, rows 1 and 2 only) from R(0)^T e3 = Gamma(0): the paper's skate from (59), a generic one from a generic state (relative)", .cond = 268435456, .why = "one integration by the Taylor method of order for 2^(24-p) per step on the traced field, over a few steps: Gamma and the rows of R carry independent truncation errors, grown over the horizon", .slow = 1)
{
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(x, 15, prec); RV_DECL(r3, 3, prec); RV_DECL(e1, 3, prec);
    R_DECL(d, prec);
    cl_check_begin(res);
    for (int s = 0; s < 2; s++) { /* the paper's skate from (59), a generic one from a generic state */
        skate_set_params(par, s ? SKATE_GENERIC : SKATE_PAPER);
        traj_ctx c = {par, NULL, 1, 0, 1, NULL, 0, TAYLOR_ALWAYS, 0};
        initial(x, s ? 2 : 0);
        /* R(0): third row Γ(0), first row e₁ made orthogonal to it, second row r₃ × r₁ */
        r_set_si(e1, 1); r_set_zero(e1 + 1); r_set_zero(e1 + 2);
        CL_FN(cl_v3_proj_tangent)(x + 9, x + 6, e1);
        CL_FN(cl_v3_norm)(d, x + 9);
        for (int i = 9; i < 12; i++) r_div(x + i, x + i, d);
        CL_FN(cl_v3_cross)(x + 12, x + 6, x + 9);
        int st = integrate(x, 15, &c, prec);
        if (st) return st;
        CL_FN(cl_v3_cross)(r3, x + 9, x + 12);
        cl_check_worst(res, skate_log2_relerr(r3, x + 6, 3), s ? "generic skate, generic state" : "paper's skate, (59)");
    }
    return CL_OK;
}

/* Closed loop (44) + control law (rotor z-form) against the unforced skate with Ĩ (57), ζ(T). */
CL_CHECK(skate_traj_matching, "skate.traj.matching", .chapter = "SKATE 6", .tags = "[SKATE (44), (53), (56), (57)]", .what = "controlled skate (44) with the control law against the unforced skate with inertia (57), same trajectories", .cond = 4294967296, .why = "two systems by the Taylor method of order for 2^(12-p) (truncation about 2^(12-p) per step relative to max(1, |x|)) on the traced fields; the closed loop is stiffer (I1 + ml^2 + J1^2/sigma = -0.23 against O(1) inertias), so its steps are many and short and their errors add up; measured at most 2^(-12.5) of the tolerance over the rungs", .slow = 1)
{
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(pm, CL_SKATE_NPAR, prec);
    R_DECL(sig, prec);
    cl_check_begin(res);
    skate_set_params(par, SKATE_CONTROLLED);
    for (int q = 0; q < 2; q++) {
        r_set_q(sig, -1, q ? 1000 : 100000);
        CL_FN(cl_skate_matched_params)(pm, par, sig);
        traj_ctx cc = {par, sig, 1, 1, 0, NULL, 12, TAYLOR_ALWAYS, 0}, cm = {pm, NULL, 0, 1, 0, NULL, 12, TAYLOR_ALWAYS, 0};
        int st = compare_flows(res, &cc, 10, &cm, prec, q ? "sigma = -1e-3" : "sigma = -1e-5");
        if (st) return st;
    }
    return CL_OK;
}

/*
 * Figure 4 in two rows that run side by side (the whole took about half of
 * the oracle's wall time on two cores): the two forms' flow from (59) to
 * t = 13/16, and the fall from Figure 4's state there. Together they compare
 * (38) with (21) along the whole path to the fall, as one row did.
 */
/* where the path is split: t = 13/16 (chosen when the fall's event cost re-integrated GBS steps; on its Taylor polynomial it costs nothing) */
#define FIG4_MID_NUM 13
#define FIG4_MID_DEN 16

static int fig4_rhs_d(double *dx, const double *t, const double *x, void *par)
{
    (void)t;
    return cl_skate_rhs_zeta_d(dx, par, x);
}

/* ζ(13/16) of Figure 4 on (38), in double (GBS to 2^-48 from (59), φ₀ = 0.1): the start of the fall row, the same numbers at every rung. */
static int fig4_mid_d(double zeta[5])
{
    double par[CL_SKATE_NPAR], z[9], phi = 0.1, t = 0, t1 = (double)FIG4_MID_NUM / FIG4_MID_DEN, h = 0, tol = 0x1p-48;
    for (int i = 0; i < CL_SKATE_NPAR; i++) cl_real_from_str_d(par + i, SKATE_SETS[SKATE_PAPER][i]);
    int st = cl_skate_initial_59_d(z, &phi);
    cl_skate_z_to_zeta_d(zeta, z);
    cl_ode_ws_d *ws = NULL;
    if (!st) st = cl_ode_ws_new_d(&ws, 5, 53, CL_ODE_GBS, 0);
    if (!st) st = cl_ode_set_tol_d(ws, &tol, &tol);
    if (!st) st = cl_ode_integrate_d(ws, fig4_rhs_d, par, &t, zeta, &t1, &h, NULL);
    cl_ode_ws_free_d(ws);
    return st;
}

/* Figure 4 from (59) to t = 13/16: ζ of (38) against z of (21) projected by (33), relative. */
CL_CHECK(skate_fig4_flow, "skate.fig4.flow", .chapter = "SKATE 7.2", .tags = "[SKATE (21), (33), (38), (59), Fig. 4]", .what = "Figure 4's path to t = 13/16 (from (59), phi0 = 0.1): zeta of (38) against z of the z-form (21) projected by (33) (relative); the path to the fall up to its last 0.21, skate.fig4.fall the rest", .cond = 1048576, .why = "both integrations by the Taylor method of order for 2^(12-p) (truncation about 2^(12-p) per step relative to max(1, |x|)) on the fields traced from (38) and (21), as the fall's, over the path to t = 13/16; measured at most 2^11 units over the rungs", .slow = 1)
{
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(z, 9, prec); RV_DECL(zeta, 5, prec); RV_DECL(zz, 5, prec);
    R_DECL(tmax, prec); R_DECL(t1, prec);
    cl_check_begin(res);
    skate_fig4_start(par, z, zeta, tmax);
    r_set_q(t1, FIG4_MID_NUM, FIG4_MID_DEN);
    traj_ctx cz = {par, NULL, 1, 0, 0, t1, 12, TAYLOR_ALWAYS, 0}, cs = {par, NULL, 0, 0, 0, t1, 12, TAYLOR_ALWAYS, 0};
    int st = integrate(z, 9, &cz, prec);
    if (!st) st = integrate(zeta, 5, &cs, prec);
    if (st) return st;
    CL_FN(cl_skate_z_to_zeta)(zz, z);
    cl_check_worst(res, skate_log2_relerr(zz, zeta, 5), "zeta at t = 13/16");
    return CL_OK;
}

/* Figure 4's fall (Γ₃ = 0) from its state at t = 13/16, located on (38) and on (21), relative to the fall time;
   integrated as cl_skate_fall_time() does (tolerance 2^(12−p), falling Γ₃), by Taylor on the traced fields. */
CL_CHECK(skate_fall, "skate.fig4.fall", .chapter = "SKATE 7.2", .tags = "[SKATE (21), (38), (59), Fig. 4]", .what = "fall time of Figure 4 (event Gamma3 = 0) from its state at t = 13/16 (zeta of (38) from (59), phi0 = 0.1, in double, Gamma normalized at the rung's precision), on (38) against the z-form (21) (Taylor on the traced fields), relative to the fall time; skate.fig4.flow compares the path to t = 13/16", .cond = 1048576, .why = "both integrations by the Taylor method of order for 2^(12-p) on the fields traced from (38) and (21), over the last 0.21 of the path, the zero of Gamma3 located on the step's polynomial to 4 ulps; the crossing is transversal (dGamma3/dt about -4)", .slow = 1)
{
    RV_DECL(par, CL_SKATE_NPAR, prec); RV_DECL(z, 9, prec); RV_DECL(zeta, 5, prec);
    R_DECL(tmax, prec); R_DECL(tf, prec); R_DECL(tz, prec); R_DECL(n, prec);
    cl_check_begin(res);
    skate_fig4_start(par, z, zeta, tmax);
    double mid[5];
    int st = fig4_mid_d(mid);
    if (st) return st;
    for (int i = 0; i < 5; i++) r_set_d(zeta + i, mid[i]);
    r_sqr(n, zeta + 3);
    r_fma(n, zeta + 4, zeta + 4, n);
    r_sqrt(n, n);
    r_div(zeta + 3, zeta + 3, n);
    r_div(zeta + 4, zeta + 4, n);
    CL_FN(cl_skate_zeta_to_z)(z, zeta);
    traj_ctx cs = {par, NULL, 0, 0, 0, tmax, 12, TAYLOR_ALWAYS, 5}, cz = {par, NULL, 1, 0, 0, tmax, 12, TAYLOR_ALWAYS, 9};
    st = integrate_to(zeta, tf, 5, &cs, prec);
    if (st == CL_ODE_EVENT) st = integrate_to(z, tz, 9, &cz, prec);
    if (st != CL_ODE_EVENT) return st ? st : CL_EDOMAIN;
    r_sub(tz, tz, tf);
    r_add_d(tf, tf, (double)FIG4_MID_NUM / FIG4_MID_DEN); /* the fall time from t = 0 */
    cl_check_worst(res, r_log2abs(tz) - r_log2abs(tf), "fall time %.15g", r_get_d(tf));
    return CL_OK;
}

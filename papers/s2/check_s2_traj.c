/*
 * S2 III–V along trajectories: the four forms (q, q̇), (q, ω), (q, μ),
 * (q, π) of the double spherical pendulum integrated from one state end in
 * the same state. The span is t = 5 up to 256 bits and 5/16 above, so that
 * the row stays affordable; the verdict needs only that the agreement
 * follows the working precision. s2.traj.forms integrates by the Taylor
 * method on each form's field traced into an expression graph (trace.h):
 * the chain's templated C body compiled for the tracing kind, so the
 * equation the recurrences expand is the one the C code evaluates (its LU
 * pivots chosen at the start, where the 6×6 system is far from singular).
 * By GBS (s2t_traj_forms(), tol 2^(12−p)) the row took 6.4 s at 1024 bits.
 */
#include <math.h>
#include "check.h"
#include "taylor.h"
#include "trace.h"
#include "s2_fixtures_impl.h"

/*
 * s2t_traj_forms() by Taylor: the same chain, state and span, each form's
 * traced field integrated with the order for 2^(12−p) (the tolerance GBS
 * had) from the (q, q̇) state converted into the form; log2 of the largest
 * distance of the other forms' end, converted back, from the (q, q̇) run's,
 * relative to max(1, |x|) (NaN on failure).
 */
static double traj_forms_taylor(cl_prec_t prec, long t1_num, long t1_den)
{
    cl_rng g;
    cl_rng_seed(&g, 9090);
    const size_t n = S2T_N, N = S2T_DIM;
    RV_DECL(mm, S2T_N, prec); RV_DECL(ll, S2T_N, prec); R_DECL(grav, prec);
    s2t_traj_params(mm, ll, grav, n, &g); /* as s2t_traj_forms() */
    CL_FN(cl_chain) *ch = NULL;
    if (CL_FN(cl_chain_new)(&ch, n, mm, ll, grav, prec)) return NAN;
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
    RV_DECL(x0, S2T_DIM, prec); RV_DECL(x, S2T_DIM, prec); RV_DECL(ref, S2T_DIM, prec); RV_DECL(y, S2T_DIM, prec);
    R_DECL(t, prec); R_DECL(t1, prec);
    s2t_hanging_state(x0, n, 0.4, 0.02, &g, prec);
    r_set_q(t1, t1_num, t1_den);
    double worst = -INFINITY;
    int st = CL_OK;
    for (int form = CL_S2_QDOT; !st && form <= CL_S2_PI; form++) {
        cl_expr_dag *gr = NULL;
        CL_FN(cl_taylor) *tw = NULL;
        int out[S2T_DIM];
        CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x0, form, x);
        r_set_zero(t);
        st = s2t_forms_graph(&gr, out, form, mm, ll, grav, x, prec);
        if (!st) st = CL_FN(cl_taylor_new)(&tw, gr, out, N, 0, -1, cl_taylor_order_for_tol(12 - (double)prec), prec);
        if (!st) st = CL_FN(cl_taylor_integrate)(tw, t, x, t1, 0, NULL, NULL, -1, 0, NULL);
        CL_FN(cl_taylor_free)(tw);
        cl_expr_dag_free(gr);
        if (!st) s2t_form_gap(ws, form, x, y, ref, N, &worst);
    }
    CL_FN(cl_chain_free)(ch);
    return st ? NAN : worst;
}

CL_CHECK(s2_traj_forms, "s2.traj.forms", .chapter = "S2 III-IV", .tags = "[S2 (13),(19),(27),(36)]", .what = "final states of the four forms integrated by Taylor on their traced fields (order for 2^(12-p)) from one state, carried to (q, qdot)", .cond = 0x1p20, .why = "each run's truncation is about 2^12 units per step (the order's tolerance) relative to max(1, |x|), times the growth of errors over the span", .slow = 1)
{
    long den = prec <= 256 ? 1 : 16;
    double e = traj_forms_taylor(prec, 5, den);
    cl_check_begin(res);
    cl_check_worst(res, e, "integrated to t = 5/%ld", den);
    return isnan(e) ? CL_ENOCONV : CL_OK;
}

typedef struct energy_ctx {
    CL_FN(cl_s2_quad_ws) *ws;
} energy_ctx;

static int energy_rhs(rptr dx, rsrc t, rsrc x, void *vctx)
{
    (void)t;
    return CL_FN(cl_s2_quad_rhs)(((energy_ctx *)vctx)->ws, CL_S2_QDOT, dx, x);
}

/*
 * Energy along a trajectory: the (q, q̇) field (13) of a double spherical
 * pendulum (coupled = 0) or of the configuration-dependent system
 * (coupled = 1, undamped) integrated by GBS at tolerance 2^(12−p) over
 * t = 1 (1/64 above 256 bits, where GBS's many columns cost most and a
 * span of a few steps reads the tolerance as well); log2 of |E(t) − E(0)|
 * relative to max(1, |E|).
 * This ties the energy function (values of T and U) to the vector field
 * (their derivatives): a wrong potential or kinetic term in either shows.
 */
static double traj_energy(cl_prec_t prec, int coupled, cl_rng *g)
{
    const size_t n = 2, N = 6 * n;
    cl_prec_t pin = prec + (cl_prec_t)(1.2 * cl_ode_gbs_default_columns(prec)) + 8; /* GBS guard bits */
    CL_FN(cl_chain) *ch = NULL;
    CL_FN(cl_s2_coupled) *cp = NULL;
    if (coupled) cp = s2t_random_coupled(n, pin, g, 0);
    else ch = s2t_random_chain_par(n, pin, g, 0, NULL);
    if (!ch && !cp) return NAN;
    energy_ctx c = {coupled ? CL_FN(cl_s2_coupled_ws)(cp) : CL_FN(cl_chain_ws)(ch)};
    rptr x = CL_FN(cl_rvec_new)(N, prec), sc = CL_FN(cl_rvec_new)(6, prec);
    rptr t = sc, t1 = sc + 1, h = sc + 2, tol = sc + 3, E0 = sc + 4, E1 = sc + 5;
    s2t_random_state(x, n, 0.5, g);
    r_set_q(t1, 1, prec <= 256 ? 1 : 64);
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, 12 - (long)prec);
    double e = NAN;
    CL_FN(cl_ode_ws) *ode = NULL;
    int st = CL_FN(cl_s2_quad_energy)(c.ws, CL_S2_QDOT, E0, x);
    if (!st) st = CL_FN(cl_ode_ws_new)(&ode, N, prec, CL_ODE_GBS, 0);
    if (!st) st = CL_FN(cl_ode_set_tol)(ode, tol, tol);
    if (!st) st = CL_FN(cl_ode_integrate)(ode, energy_rhs, &c, t, x, t1, h, NULL);
    if (!st) st = CL_FN(cl_s2_quad_energy)(c.ws, CL_S2_QDOT, E1, x);
    if (!st) {
        r_sub(E1, E1, E0);
        e = r_log2abs(E1) - fmax(0, r_log2abs(E0));
    }
    CL_FN(cl_ode_ws_free)(ode);
    CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(sc);
    if (ch) CL_FN(cl_chain_free)(ch);
    if (cp) CL_FN(cl_s2_coupled_free)(cp);
    return e;
}

CL_CHECK(s2_traj_energy, "s2.traj.energy", .chapter = "S2 III", .tags = "[S2 (12),(13),(38),(39)]", .what = "energy of the chain and of the configuration-dependent system along a GBS trajectory of (13), start against end (relative)", .cond = 0x1p17, .why = "the integration tolerance 2^12 units, times the growth of errors over the span (observed up to 2^13)")
{
    cl_rng g;
    cl_rng_seed(&g, 5151);
    cl_check_begin(res);
    for (int coupled = 0; coupled <= 1; coupled++) {
        double e = traj_energy(prec, coupled, &g);
        if (isnan(e)) return CL_ENOCONV;
        cl_check_worst(res, e, "%s system", coupled ? "coupled" : "chain");
    }
    return CL_OK;
}


/*
 * Convergence orders of the ODE integrators of src/ode.c, one quick row per
 * method: fixed steps on a nonlinear, non-autonomous system in R³ (so every
 * node c_i and every coupling of the tableau enters), read off the ratio of
 * successive differences y_N − y_2N and y_2N − y_4N, which is 2^order up to
 * a factor 1 + O(h). The reading is taken at 256 bits whatever the rung (the
 * order is a property of the method, and 256 bits leave the differences far
 * above rounding), once per method; both copies report the same reading.
 */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "ode.h"

/* What one order row measures: the method, its parameter, the step counts N, 2N, 4N to t = 1. */
typedef struct ode_order_case {
    cl_ode_method method;
    int param;   /* stages (GAUSS), columns (GBS) */
    long n0;     /* N */
} ode_order_case;

#if CL_PREC == CL_MPFR
/* y' = (y₂y₃, t/2 − y₁y₃, −y₁y₂/2): bounded and smooth on [0, 1] from (1, 1/2, 1/4). */
static int order_rhs(rptr dy, rsrc t, rsrc y, void *ctx)
{
    (void)ctx;
    R_DECL(u, r_prec(dy));
    r_mul(dy, y + 1, y + 2);
    r_mul(u, y, y + 2);
    r_mul_2si(dy + 1, t, -1);
    r_sub(dy + 1, dy + 1, u);
    r_mul(dy + 2, y, y + 1);
    r_mul_2si(dy + 2, dy + 2, -1);
    r_neg(dy + 2, dy + 2);
    return CL_OK;
}

/* y at t = 1 after n fixed steps of 1/n. */
static int fixed_run(CL_FN(cl_ode_ws) *ws, rptr y, long n)
{
    cl_prec_t p = r_prec(y);
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p);
    r_set_zero(t);
    r_set_si(t1, 1);
    r_set_q(h, 1, n);
    r_set_si(y, 1);
    r_set_q(y + 1, 1, 2);
    r_set_q(y + 2, 1, 4);
    cl_ode_stats s;
    return CL_FN(cl_ode_integrate)(ws, order_rhs, NULL, t, y, t1, h, &s);
}

/*
 * The observed order log2(|y_N − y_2N| / |y_2N − y_4N|) at 256 bits minus the
 * method's order, with the readings in \p note.
 */
static double ode_order_offset(const ode_order_case *oc, char *note, size_t len)
{
    const cl_prec_t p = 256;
    CL_FN(cl_ode_ws) *ws;
    if (CL_FN(cl_ode_ws_new)(&ws, 3, p, oc->method, oc->param)) return NAN;
    if (oc->method == CL_ODE_RKF78 || oc->method == CL_ODE_GBS) CL_FN(cl_ode_set_adaptive)(ws, 0);
    rptr y = CL_FN(cl_rvec_new)(9, p);
    int st = CL_OK;
    for (int k = 0; k < 3 && !st; k++) st = fixed_run(ws, y + 3 * k, oc->n0 << k);
    int order = CL_FN(cl_ode_ws_order)(ws);
    double d1 = CL_FN(cl_rvec_log2_maxdiff)(y, y + 3, 3), d2 = CL_FN(cl_rvec_log2_maxdiff)(y + 3, y + 6, 3);
    double off = st ? NAN : d1 - d2 - order;
    snprintf(note, len, "%s: log2|y_N - y_2N| = %.1f, log2|y_2N - y_4N| = %.1f (N = %ld): observed order %.2f, order %d",
             cl_ode_method_name(oc->method), d1, d2, oc->n0, d1 - d2, order);
    CL_FN(cl_rvec_free)(y);
    CL_FN(cl_ode_ws_free)(ws);
    return off;
}

/* The order rows: each measured once, passing when the offset from the order is within 0.5. */
static cl_check_once ode_order_once[6];

static double ode_order_measure(const void *arg, char *note, size_t len) { return ode_order_offset(arg, note, len); }

/*
 * The local error estimate of RKF78 (the difference of its order-7 and
 * order-8 solutions, which only the step control reads): one step of h and
 * of h/2 from (0, y₀) at 256 bits with atol = 1, rtol = 0, so the estimate
 * is |e| itself, O(h⁸). Returns log2(e(h)/e(h/2)) − 8 for h = 1/8, with the
 * readings in the note.
 */
static double ode_rkf78_estimate_measure(const void *arg, char *note, size_t len)
{
    (void)arg;
    const cl_prec_t p = 256;
    CL_FN(cl_ode_ws) *ws;
    if (CL_FN(cl_ode_ws_new)(&ws, 3, p, CL_ODE_RKF78, 0)) return NAN;
    RV_DECL(y, 3, p); RV_DECL(yo, 3, p); RV_DECL(e, 2, p);
    R_DECL(t, p); R_DECL(h, p); R_DECL(one, p); R_DECL(zero, p);
    r_set_si(one, 1);
    r_set_zero(zero);
    r_set_zero(t);
    int st = CL_FN(cl_ode_set_tol)(ws, zero, one);
    for (int k = 0; k < 2 && !st; k++) {
        r_set_si(y, 1);
        r_set_q(y + 1, 1, 2);
        r_set_q(y + 2, 1, 4);
        r_set_q(h, 1, 8 << k);
        st = CL_FN(cl_ode_step)(ws, order_rhs, NULL, t, y, h, yo, e + k);
    }
    double d1 = r_log2abs(e), d2 = r_log2abs(e + 1);
    snprintf(note, len, "rkf78 error estimate: log2 e(1/8) = %.1f, log2 e(1/16) = %.1f: observed order %.2f, 8 expected (status %d)",
             d1, d2, d1 - d2, st);
    CL_FN(cl_ode_ws_free)(ws);
    return st ? NAN : d1 - d2 - 8;
}

int check_ode_rkf78_estimate_run(cl_check_result *res)
{
    return cl_check_measured_once(res, ode_order_once + 5, 0.5, ode_rkf78_estimate_measure, NULL);
}

int check_ode_order_run(cl_check_result *res, int which, const ode_order_case *oc)
{
    return cl_check_measured_once(res, ode_order_once + which, 0.5, ode_order_measure, oc);
}
#endif

/* Measured by the MPFR copy at 256 bits on every rung: both copies call the same run. */
int check_ode_order_run(cl_check_result *res, int which, const ode_order_case *oc);
int check_ode_rkf78_estimate_run(cl_check_result *res);

#define ODE_ORDER_WHY "the order is an integer and the reading is 2^order (1 + O(h)): within 0.5 it is nearer the order than either neighbour"

/* One row per method: the same measurement, each with its own description. */
#define ODE_ORDER_CHECK(id, name, tags_, what_, which, method, param, n0) \
    CL_CHECK(id, name, .chapter = "core", .tags = tags_, .what = what_, .cond = 1, .why = ODE_ORDER_WHY, \
             .kind = CL_CHECK_EXACT) \
    { static const ode_order_case oc = {method, param, n0}; return check_ode_order_run(res, which, &oc); }

ODE_ORDER_CHECK(ode_order_rk4, "ode.order.rk4", "", "observed order of classical RK4 on a nonlinear non-autonomous system in R^3, N = 16, 32, 64 steps to t = 1, within 0.5 of 4 (at 256 bits on every rung)", 0, CL_ODE_RK4, 0, 16)
ODE_ORDER_CHECK(ode_order_rkf78, "ode.order.rkf78", "", "observed order of the propagated Fehlberg 8 solution with fixed steps, N = 4, 8, 16 to t = 1, within 0.5 of 8 (at 256 bits on every rung)", 1, CL_ODE_RKF78, 0, 4)
ODE_ORDER_CHECK(ode_order_gauss2, "ode.order.gauss2", "", "observed order of 2-stage Gauss-Legendre collocation, N = 8, 16, 32 to t = 1, within 0.5 of 4 (at 256 bits on every rung)", 2, CL_ODE_GAUSS, 2, 8)
ODE_ORDER_CHECK(ode_order_gauss3, "ode.order.gauss3", "", "observed order of 3-stage Gauss-Legendre collocation, N = 4, 8, 16 to t = 1, within 0.5 of 6 (at 256 bits on every rung)", 3, CL_ODE_GAUSS, 3, 4)
ODE_ORDER_CHECK(ode_order_gbs4, "ode.order.gbs4", "", "observed order of Gragg-Bulirsch-Stoer with 4 columns and fixed steps, N = 4, 8, 16 to t = 1, within 0.5 of 8 (at 256 bits on every rung)", 4, CL_ODE_GBS, 4, 4)

CL_CHECK(ode_rkf78_estimate, "ode.rkf78.estimate", .chapter = "core", .tags = "", .what = "local error estimate of RKF78 (order-7 minus order-8 solution) after one step of 1/8 and of 1/16 on the order rows' system: their ratio is 2^8 within a factor 2^0.5 (at 256 bits on every rung)", .cond = 1, .why = ODE_ORDER_WHY, .kind = CL_CHECK_EXACT)
{
    return check_ode_rkf78_estimate_run(res);
}

/* ----------------------------------------------------------- event location */


/* y′ = (1, 2t): every method of order ≥ 2 integrates y = (t, t²) exactly. */
static int event_rhs(rptr dy, rsrc t, rsrc y, void *ctx)
{
    (void)ctx; (void)y;
    r_set_si(dy, 1);
    r_mul_2si(dy + 1, t, 1);
    return CL_OK;
}

/* g = y₂ − 2/3, rising through 0 at t* = √(2/3). */
static int event_g(rptr g, rsrc t, rsrc y, void *ctx)
{
    (void)ctx; (void)t;
    R_DECL(c, r_prec(g));
    r_set_q(c, 2, 3);
    r_sub(g, y + 1, c);
    return CL_OK;
}

CL_CHECK(ode_event_location, "ode.event.location", .chapter = "core", .tags = "", .what = "event y2 = 2/3 on y' = (1, 2t) (solution (t, t^2), exact for every method used) by RK4 and fixed-step RKF78, h = 1/4: event time against sqrt(2/3), and the state there against (t, t^2) (relative)", .cond = 16, .why = "the bracket ends within 4 2^-p max|t| of the root (src/ode.c), the solution's rounding a few ulps of t^2 over a slope 2t > 1.6")
{
    static const cl_ode_method methods[2] = {CL_ODE_RK4, CL_ODE_RKF78};
    R_DECL(t, prec); R_DECL(t1, prec); R_DECL(h, prec); R_DECL(ts, prec); R_DECL(u, prec);
    RV_DECL(y, 2, prec);
    cl_check_begin(res);
    for (int k = 0; k < 2; k++) {
        CL_FN(cl_ode_ws) *ws;
        int st = CL_FN(cl_ode_ws_new)(&ws, 2, prec, methods[k], 0);
        if (st) return st;
        if (methods[k] == CL_ODE_RKF78) CL_FN(cl_ode_set_adaptive)(ws, 0);
        CL_FN(cl_ode_set_event)(ws, event_g, NULL, CL_ODE_EVENT_RISING);
        r_set_zero(t);
        r_set_si(t1, 2);
        r_set_q(h, 1, 4);
        r_set_zero(y);
        r_set_zero(y + 1);
        cl_ode_stats s;
        st = CL_FN(cl_ode_integrate)(ws, event_rhs, NULL, t, y, t1, h, &s);
        CL_FN(cl_ode_ws_free)(ws);
        if (st != CL_ODE_EVENT) {
            cl_check_worst(res, INFINITY, "%s: no event (status %d)", cl_ode_method_name(methods[k]), st);
            continue;
        }
        r_set_q(ts, 2, 3);
        r_sqrt(ts, ts);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(t, ts, 1), "%s: event time", cl_ode_method_name(methods[k]));
        r_sqr(u, t);
        cl_check_worst(res, fmax(CL_FN(cl_rvec_log2_maxdiff)(y, t, 1), CL_FN(cl_rvec_log2_maxdiff)(y + 1, u, 1)),
                       "%s: state at the event", cl_ode_method_name(methods[k]));
    }
    return CL_OK;
}

/*
 * The Taylor driver (cl_taylor_integrate) and event location on the step's
 * polynomial (cl_taylor_event), over the coefficients of taylor.c.
 */
#include <math.h>
#include "ode.h"
#include "taylor.h"
#include "taylor_impl.h"

/* The polynomial of item i and its derivative at s (Horner). */
static void poly_deriv(const CL_FN(cl_taylor) *ws, size_t i, rsrc s, rptr v, rptr dv)
{
    rsrc c = CL_FN(cl_taylor_coef)(ws, i, 0);
    r_set(v, c + ws->p);
    r_set_zero(dv);
    for (int k = ws->p - 1; k >= 0; k--) {
        r_fma(dv, dv, s, v);
        r_fma(v, v, s, c + k);
    }
}

/* Whether the sign change from sign a to sign b is one in direction dir. */
static int crosses(int a, int b, int dir)
{
    if (a == 0 || a == b) return 0;
    return dir == 0 || (dir > 0 ? a < 0 : a > 0);
}

/* Move the bracket end (lo or hi) that has the sign of s to s. */
static void narrow(rptr lo, rptr hi, int slo, rsrc s, int ss)
{
    if (ss == slo) r_set(lo, s);
    else r_set(hi, s);
}

/* Newton has converged to z: the points z ∓ w/4 (in the step's direction)
   narrow the bracket to about w/2 around the zero. */
static void straddle(const CL_FN(cl_taylor) *ws, size_t i, rptr lo, rptr hi, int slo, rsrc z, rsrc w, rsrc h)
{
    rptr q = ws->ev + 6, y = ws->ev + 7, v = ws->ev + 8, dv = ws->ev + 9;
    r_mul_2si(q, w, -2);
    if (r_sgn(h) < 0) r_neg(q, q);
    for (int side = -1; side <= 1; side += 2) {
        if (side < 0) r_sub(y, z, q);
        else r_add(y, z, q);
        if (r_cmp(y, lo) * r_cmp(y, hi) >= 0) continue;
        poly_deriv(ws, i, y, v, dv);
        narrow(lo, hi, slo, y, r_sgn(v));
    }
}

int CL_FN(cl_taylor_event)(const CL_FN(cl_taylor) *ws, size_t e, int direction, rsrc t0, rsrc h, rptr s)
{
    size_t i = ws->n + e;
    rptr lo = ws->ev, hi = ws->ev + 1, v = ws->ev + 2, dv = ws->ev + 3, x = ws->ev + 4, w = ws->ev + 5;
    rsrc c0 = CL_FN(cl_taylor_coef)(ws, i, 0);
    CL_FN(cl_taylor_poly)(ws, i, h, v);
    int slo = r_sgn(c0), shi = r_sgn(v);
    if (!crosses(slo, shi, direction)) return 0;
    /* the bracket's length to reach: 4·2^(−prec)·max(|t0|, |t0 + h|), at least that of |h| */
    r_add(w, t0, h);
    r_abs(w, w);
    r_abs(x, t0);
    if (r_cmp(x, w) > 0) r_set(w, x);
    if (r_is_zero(w)) r_abs(w, h);
    r_set_eps(x);
    r_mul(w, w, x);
    r_mul_2si(w, w, 1);
    r_set_zero(lo);
    r_set(hi, h);
    r_set(x, h);
    r_mul_2si(x, x, -1);
    for (int it = 0; it < 4 * (int)ws->prec + 100; it++) {
        r_sub(v, hi, lo);
        if (r_cmpabs(v, w) <= 0) break;
        poly_deriv(ws, i, x, v, dv);
        int sx = r_sgn(v);
        if (sx == 0) { /* an exact zero: the far end closes on it */
            r_set(hi, x);
            break;
        }
        narrow(lo, hi, slo, x, sx);
        /* Newton from x, bisection when it leaves the bracket */
        int newton = !r_is_zero(dv);
        if (newton) {
            r_div(v, v, dv);
            r_sub(dv, x, v); /* the Newton point */
            newton = r_cmp(dv, lo) * r_cmp(dv, hi) < 0;
        }
        if (newton && r_cmpabs(v, w) <= 0) straddle(ws, i, lo, hi, slo, dv, w, h);
        if (newton) r_set(x, dv);
        else {
            r_add(x, lo, hi);
            r_mul_2si(x, x, -1);
        }
    }
    r_set(s, hi);
    return 1;
}

/* The step's end when an event lies in it: (t, x) moved to the zero s of the step from (t0, x0 = the expansion point). */
static void land_on_event(const CL_FN(cl_taylor) *ws, rptr t, rptr x, rsrc t0, rsrc s)
{
    CL_FN(cl_taylor_dense)(ws, s, x);
    r_add(t, t0, s);
}

int CL_FN(cl_taylor_integrate)(CL_FN(cl_taylor) *ws, rptr t, rptr x, rsrc t1, long max_steps,
                               CL_FN(cl_ode_observer) obs, void *octx, long event, int direction, cl_ode_stats *stats)
{
    cl_ode_stats own = {0};
    if (!stats) stats = &own;
    *stats = (cl_ode_stats){0};
    if (max_steps <= 0) max_steps = 1000000000L;
    if (!r_is_number(t) || !r_is_number(t1) || !CL_FN(cl_rvec_is_finite)(x, ws->n)) return CL_ENAN;
    /* the plan learned by an earlier run is not this run's: it starts as a new workspace does */
    CL_FN(cl_taylor_plan_reset)(ws);
    R_DECL(hmax, ws->prec);
    R_DECL(h, ws->prec);
    R_DECL(t0, ws->prec);
    R_DECL(s, ws->prec);
    int st = obs ? obs(t, x, ws->n, octx) : 0;
    if (st) return st < 0 ? st : CL_ODE_STOPPED;
    while (r_cmp(t, t1) != 0) {
        if (stats->steps >= max_steps) return CL_ENOCONV;
        if ((stats->steps & 15) == 15 && cl_cpu_budget_spent()) return CL_ETIME;
        r_sub(hmax, t1, t);
        r_set(t0, t);
        st = CL_FN(cl_taylor_step)(ws, t, x, hmax, 0, h);
        stats->rhs_evals++;
        if (st) { /* back to the last point: the expansion's order 0 */
            r_set(t, t0);
            for (size_t i = 0; i < ws->n; i++) r_set(x + i, CL_FN(cl_taylor_coef)(ws, i, 0));
            return st;
        }
        stats->steps++;
        if (r_cmp(t, t0) == 0) return CL_ESTEP;
        if (r_cmpabs(h, hmax) >= 0) r_set(t, t1); /* the last step lands on t1 exactly */
        if (event >= 0 && CL_FN(cl_taylor_event)(ws, (size_t)event, direction, t0, h, s)) {
            land_on_event(ws, t, x, t0, s);
            stats->event_evals++;
            st = obs ? obs(t, x, ws->n, octx) : 0;
            return st < 0 ? st : CL_ODE_EVENT;
        }
        st = obs ? obs(t, x, ws->n, octx) : 0;
        if (st) return st < 0 ? st : CL_ODE_STOPPED;
    }
    return CL_OK;
}

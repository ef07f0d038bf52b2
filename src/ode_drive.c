/*
 * The ODE integrators' steps and driver at the working precision: one step
 * with its error estimate (cl_ode_step), the adaptive driver with error
 * control, an observer and event location (cl_ode_integrate,
 * cl_ode_locate_root), over the workspace of ode.c and the methods of
 * ode_methods.c. Nothing is allocated here.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ode.h"
#include "ode_impl.h"

/* ----------------------------------------------------------------- steps
 * Each writes Φ_h(x) into xout (never aliasing x or the stage vectors) and,
 * for the embedded methods, the error estimate into err when not NULL. */

/* log2 of max_i |e_i| / (atol + rtol·max(|x_i|, |xn_i|)); +inf if not finite. */
static double err_log2(CL_FN(cl_ode_ws) *ws, rsrc x, rsrc xn, rsrc e)
{
    cl_prec_t p = ws->prec;
    R_DECL(sc, p); R_DECL(r, p); R_DECL(m, p); R_DECL(emax, p); R_DECL(xmax, p);
    for (size_t i = 0; i < ws->n; i++) {
        if (!r_is_number(e + i) || !r_is_number(xn + i)) return INFINITY;
        if (r_cmpabs(x + i, xn + i) >= 0) r_abs(sc, x + i);
        else r_abs(sc, xn + i);
        if (r_cmp(sc, xmax) > 0) r_set(xmax, sc);
        if (r_cmpabs(e + i, emax) > 0) r_abs(emax, e + i);
        r_fma(sc, sc, ws->rtol, ws->atol);
        if (r_is_zero(e + i)) continue;
        if (r_is_zero(sc)) return INFINITY;
        r_div(r, e + i, sc);
        if (r_cmpabs(r, m) > 0) r_abs(m, r);
    }
    /* within a unit of rounding of the state's largest entry: noise of the estimate */
    r_mul_2si(xmax, xmax, -(long)p);
    ws->at_floor = r_cmp(emax, xmax) <= 0;
    return r_log2abs(m);
}

int CL_FN(cl_ode_step)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout,
                       rptr err)
{
    int est = err && ws->est_order;
    ws->nfev = 0;
    ws->budget = ws->max_evals > 0 ? ws->max_evals : LONG_MAX;
    int st = CL_FN(cl_ode_one_step)(ws, f, ctx, t, x, h, ws->xnew, est ? ws->xerr : NULL);
    if (st) return st;
    if (!CL_FN(cl_rvec_is_finite)(ws->xnew, ws->n)) return CL_ENAN;
    if (err) {
        if (est) {
            double l = err_log2(ws, x, ws->xnew, ws->xerr);
            if (isinf(l) && l < 0) r_set_zero(err);
            else cl_ode_set_pow2(err, l);
        } else {
            r_set_zero(err);
        }
    }
    CL_FN(cl_rvec_copy)(xout, ws->xnew, ws->n);
    return CL_OK;
}

/* ------------------------------------------------------------- the driver */

/* Did g cross from ga to gb in direction dir? */
static int crossed(int dir, rsrc ga, rsrc gb)
{
    int sa = r_sgn(ga), sb = r_sgn(gb);
    int up = sa < 0 && sb >= 0, down = sa > 0 && sb <= 0;
    return dir > 0 ? up : dir < 0 ? down : (up || down);
}

int CL_FN(cl_ode_locate_root)(rptr theta, rsrc ga_in, rsrc gb_in, rsrc wtol, CL_FN(cl_ode_root_fn) at, void (*far)(void *ctx),
                               void *ctx, cl_prec_t p)
{
    R_DECL(a, p); R_DECL(b, p); R_DECL(ga, p); R_DECL(gb, p); R_DECL(th, p); R_DECL(gt, p);
    R_DECL(w, p); R_DECL(wref, p); R_DECL(d, p);
    r_set_zero(a);
    r_set_si(b, 1);
    r_set(ga, ga_in);
    r_set(gb, gb_in);
    int pre = r_sgn(ga), last_side = 0, since = 0, st;
    r_set_si(wref, 1);
    int done = r_is_zero(gb);
    for (long it = 0; !done; it++) {
        r_sub(w, b, a);
        if (r_cmp(w, wtol) <= 0) break;
        if (it > 2 * (long)p + 64) return CL_ENOCONV;
        int bisect = since >= 3;
        if (!bisect) {
            /* θ = a − ga (b − a)/(gb − ga), kept wtol/2 inside the bracket
             * (Brent's minimal step) so that a root sitting at one end is
             * bracketed tightly at once */
            r_sub(d, gb, ga);
            r_div(th, w, d);
            r_mul(th, th, ga);
            r_sub(th, a, th);
            if (!r_is_number(th)) {
                bisect = 1;
            } else {
                r_mul_2si(d, wtol, -1);
                r_add(d, a, d);
                if (r_cmp(th, d) < 0) r_set(th, d);
                r_mul_2si(d, wtol, -1);
                r_sub(d, b, d);
                if (r_cmp(th, d) > 0) r_set(th, d);
            }
        }
        if (bisect) {
            r_add(th, a, b);
            r_mul_2si(th, th, -1);
        }
        if (r_cmp(th, a) <= 0 || r_cmp(th, b) >= 0) break; /* no scalar strictly inside */
        if ((st = at(ctx, gt, th))) return st;
        if (!r_is_number(gt)) return CL_ENAN;
        if (r_sgn(gt) == pre) {
            r_set(a, th);
            r_set(ga, gt);
            if (last_side == -1) r_mul_2si(gb, gb, -1);
            last_side = -1;
        } else {
            r_set(b, th);
            r_set(gb, gt);
            far(ctx);
            if (last_side == 1) r_mul_2si(ga, ga, -1);
            last_side = 1;
            if (r_is_zero(gt)) done = 1;
        }
        r_sub(w, b, a);
        r_mul_2si(d, wref, -1);
        if (r_cmp(w, d) <= 0) {
            r_set(wref, w);
            since = 0;
        } else {
            since++;
        }
    }
    r_set(theta, b);
    return CL_OK;
}

/* The partial steps of an event's location: from (tn, x), θ hs long. */
typedef struct partial_step {
    CL_FN(cl_ode_ws) *ws;
    CL_FN(cl_ode_fn) f;
    void *ctx;
    rsrc tn, x, hs;
} partial_step;

static int partial_at(void *ctx, rptr gt, rsrc th)
{
    partial_step *ps = ctx;
    CL_FN(cl_ode_ws) *ws = ps->ws;
    R_DECL(ht, ws->prec); R_DECL(tt, ws->prec);
    r_mul(ht, th, ps->hs);
    r_add(tt, ps->tn, ht);
    int st = CL_FN(cl_ode_one_step)(ws, ps->f, ps->ctx, ps->tn, ps->x, ht, ws->eva, NULL);
    if (st) return st;
    ws->nevent++;
    if (!CL_FN(cl_rvec_is_finite)(ws->eva, ws->n)) return CL_ENAN;
    return ws->g(gt, tt, ws->eva, ws->gctx);
}

static void partial_far(void *ctx)
{
    partial_step *ps = ctx;
    CL_FN(cl_rvec_copy)(ps->ws->evb, ps->ws->eva, ps->ws->n);
}

/* The step from (tn, x) of length hs ended at (t1s, xnew) with g going from
 * ga to gb across zero. Locate θ with g(tn + θ hs, Φ_{θ hs}(x)) = 0
 * (cl_ode_locate_root()) and write the far end of the final bracket into (t, x). */
static int locate_event(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rptr t, rptr x, rsrc tn, rsrc hs,
                        rsrc ga, rsrc gb, rsrc t1s, rsrc xnew)
{
    cl_prec_t p = ws->prec;
    size_t n = ws->n;
    R_DECL(b, p); R_DECL(wtol, p); R_DECL(ht, p);
    CL_FN(cl_rvec_copy)(ws->evb, xnew, n);
    /* bracket tolerance in θ: 4·2^(−p)·max(|tn|, |tn + hs|) / |hs| */
    if (r_cmpabs(tn, t1s) >= 0) r_abs(wtol, tn);
    else r_abs(wtol, t1s);
    r_mul_2si(wtol, wtol, 2 - (long)p);
    r_div(wtol, wtol, hs);
    r_abs(wtol, wtol);
    partial_step ps = {.ws = ws, .f = f, .ctx = ctx, .tn = tn, .x = x, .hs = hs};
    int st = CL_FN(cl_ode_locate_root)(b, ga, gb, wtol, partial_at, partial_far, &ps, p);
    if (st) return st;
    if (r_cmp_d(b, 1.0) == 0) {
        r_set(t, t1s);
    } else {
        r_mul(ht, b, hs);
        r_add(t, tn, ht);
    }
    CL_FN(cl_rvec_copy)(x, ws->evb, n);
    return CL_ODE_EVENT;
}

/* Hairer's starting step (Solving ODE I, II.4) in the scaled max norm, as a
 * magnitude; dir is the sign of t1 − t0. */
static int initial_step(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t0, rsrc x, rsrc span, int dir,
                        rptr h)
{
    size_t n = ws->n;
    cl_prec_t p = ws->prec;
    rptr f0 = ws->f0, f1 = ws->u, y = ws->y;
    R_DECL(sc, p); R_DECL(r, p); R_DECL(h0, p); R_DECL(t, p);
    int st;
    if ((st = call_f(ws, f, ctx, f0, t0, x))) return st;
    double d0 = -INFINITY, d1 = -INFINITY, d2 = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        r_abs(sc, x + i);
        r_fma(sc, sc, ws->rtol, ws->atol);
        r_div(r, x + i, sc);
        d0 = fmax(d0, r_log2abs(r));
        r_div(r, f0 + i, sc);
        d1 = fmax(d1, r_log2abs(r));
    }
    if (!isfinite(d1) && d1 > 0) return CL_ENAN;
    double l0 = (d0 < log2(1e-5) || d1 < log2(1e-5)) ? log2(1e-6) : log2(0.01) + d0 - d1;
    cl_ode_set_pow2(h0, l0);
    if (r_cmpabs(h0, span) > 0) {
        r_abs(h0, span);
        l0 = r_log2abs(h0);
    }
    if (dir < 0) r_neg(h0, h0);
    for (size_t i = 0; i < n; i++) r_fma(y + i, h0, f0 + i, x + i);
    r_add(t, t0, h0);
    if ((st = call_f(ws, f, ctx, f1, t, y))) return st;
    for (size_t i = 0; i < n; i++) {
        r_abs(sc, x + i);
        r_fma(sc, sc, ws->rtol, ws->atol);
        r_sub(r, f1 + i, f0 + i);
        r_div(r, r, sc);
        d2 = fmax(d2, r_log2abs(r));
    }
    d2 -= l0;
    double dm = fmax(d1, d2), q1 = ws->est_order + 1;
    double l1 = dm <= log2(1e-15) ? fmax(log2(1e-6), l0 - log2(1e3)) : (log2(0.01) - dm) / q1;
    double l = fmin(l0 + log2(100.0), l1);
    if (!isfinite(l)) l = l0;
    cl_ode_set_pow2(h, l);
    if (r_cmpabs(h, span) > 0) r_abs(h, span);
    if (!r_is_zero(ws->hmax) && r_cmp(h, ws->hmax) > 0) r_set(h, ws->hmax);
    if (dir < 0) r_neg(h, h);
    return CL_OK;
}

/* The integration under way: the problem, the current point (tc, x), the
   step hc proposed and hs taken, the end tn of an accepted step, the event
   function's values gp (at tc) and gn (at tn), scratch, and the counts. */
typedef struct {
    CL_FN(cl_ode_ws) *ws;
    CL_FN(cl_ode_fn) f;
    void *ctx;
    rsrc t1, h;
    rptr x, tc, t0, tn, hc, hs, rem, lim, gp, gn, span, hl;
    long steps, rejected;
    int dir, reject_prev;
    double q1;
} ode_drive;

#define DRIVE_SCALARS 11

/* The observer at (tc, x): 0, CL_ODE_STOPPED when it asked to stop, or its error. */
static int drive_observe(ode_drive *d)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    int st = ws->obs ? ws->obs(d->tc, d->x, ws->n, ws->octx) : 0;
    return st > 0 ? CL_ODE_STOPPED : st;
}

/* hc within hmax, in the direction of integration. */
static void drive_clamp_hmax(ode_drive *d)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    if (!r_is_zero(ws->hmax) && r_cmpabs(d->hc, ws->hmax) > 0) {
        r_set(d->hc, ws->hmax);
        if (d->dir < 0) r_neg(d->hc, d->hc);
    }
}

/* Before the first step: the event function at the start, and the first
   step hc (Hairer's guess when h is 0 on an adaptive method). */
static int drive_start(ode_drive *d)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    int st;
    if (ws->g) {
        if ((st = ws->g(d->gp, d->tc, d->x, ws->gctx))) return st;
        if (!r_is_number(d->gp)) return CL_ENAN;
    }
    r_set(d->hc, d->h);
    if (ws->adaptive) {
        if (r_is_zero(d->hc) && (st = initial_step(ws, d->f, d->ctx, d->tc, d->x, d->span, d->dir, d->hc)))
            return st;
        drive_clamp_hmax(d);
    }
    return CL_OK;
}

/* The step hs from tc: hc, or the rest of the span when that is within hc
   plus 16 units of rounding of t (the last step). CL_ESTEP when an adaptive
   step falls below those 16 units (lim) or below hmin. */
static int drive_step_size(ode_drive *d, int *last)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    rptr lim = d->lim, hl = d->hl;
    r_sub(d->rem, d->t1, d->tc);
    /* 16 units of rounding of t: the smallest meaningful step */
    if (r_cmpabs(d->tc, d->t1) >= 0) r_abs(lim, d->tc);
    else r_abs(lim, d->t1);
    r_mul_2si(lim, lim, 4 - (long)ws->prec);
    r_abs(hl, d->hc);
    r_add(hl, hl, lim);
    *last = r_cmpabs(d->rem, hl) <= 0;
    r_set(d->hs, *last ? d->rem : d->hc);
    if (ws->adaptive && !*last && (r_cmpabs(d->hs, lim) < 0 || r_cmpabs(d->hs, ws->hmin) < 0)) return CL_ESTEP;
    return CL_OK;
}

/* One trial step of length hs into ws->xnew, with log2 of its scaled error
   estimate in *le (−inf on a fixed-step method). */
static int drive_try(ode_drive *d, double *le)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    int st = CL_FN(cl_ode_one_step)(ws, d->f, d->ctx, d->tc, d->x, d->hs, ws->xnew, ws->adaptive ? ws->xerr : NULL);
    if (st) return st;
    *le = -INFINITY;
    if (ws->adaptive) *le = err_log2(ws, d->x, ws->xnew, ws->xerr);
    else if (!CL_FN(cl_rvec_is_finite)(ws->xnew, ws->n)) return CL_ENAN;
    return CL_OK;
}

/* A rejected step: the next try shrinks hs by the estimate, 5 times at most. */
static void drive_reject(ode_drive *d, double le)
{
    d->rejected++;
    double fac = isinf(le) || isnan(le) ? log2(0.2) : fmax(log2(0.2), fmin(0.0, log2(0.9) - le / d->q1));
    cl_ode_set_pow2(d->lim, fac);
    r_mul(d->hc, d->hs, d->lim);
    d->reject_prev = 1;
}

/* The end tn of the accepted step: t1 exactly for the last one, t0 + (steps
   + 1) h on a fixed-step method (no drift from summed steps). */
static void drive_end_time(ode_drive *d, int last)
{
    if (last) {
        r_set(d->tn, d->t1);
    } else if (d->ws->adaptive) {
        r_add(d->tn, d->tc, d->hs);
    } else {
        r_mul_si(d->tn, d->h, d->steps + 1);
        r_add(d->tn, d->tn, d->t0);
    }
}

/* The event function at the end of the accepted step: 0 to go on, or the
   status that ends the run (CL_ODE_EVENT once the crossing is located). */
static int drive_event(ode_drive *d)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    int st;
    if (!ws->g) return CL_OK;
    if ((st = ws->g(d->gn, d->tn, ws->xnew, ws->gctx))) return st;
    if (!r_is_number(d->gn)) return CL_ENAN;
    if (crossed(ws->gdir, d->gp, d->gn)) {
        d->steps++;
        return locate_event(ws, d->f, d->ctx, d->tc, d->x, d->tc, d->hs, d->gp, d->gn, d->tn, ws->xnew);
    }
    r_set(d->gp, d->gn);
    return CL_OK;
}

/* The step after an accepted one on an adaptive method.
 *
 * An estimate at the rounding of the state says only that the step is well
 * inside the tolerance (with a high order, err^(−1/q1) of rounding noise is
 * close to 1 and would hold the step near its first guess): double the
 * step. Quadrupling overshoots into rejections more often and leaves the
 * steps closer to the tolerance. A growth bounded by the floor's distance to
 * the tolerance, 2^(−l/q1), saved a fifth of the 1024-bit chain benchmark
 * (fewer rejections at order ~200) but tripled the oracle's long skate
 * trajectory (76 s against 22 s of CPU), whose steps then grow by 2^(1/8)
 * at a time. */
static void drive_grow(ode_drive *d, double le)
{
    double fac = d->ws->at_floor ? 1.0 : fmax(log2(0.2), fmin(2.0, log2(0.9) - le / d->q1));
    if (d->reject_prev) fac = fmin(fac, 0.0);
    cl_ode_set_pow2(d->lim, fac);
    r_mul(d->hc, d->hs, d->lim);
    drive_clamp_hmax(d);
    d->reject_prev = 0;
}

/* Steps from tc to t1: 0 at t1, or the status that ended the run. */
static int drive_run(ode_drive *d)
{
    CL_FN(cl_ode_ws) *ws = d->ws;
    for (;;) {
        if (d->steps + d->rejected >= ws->max_steps) return CL_ENOCONV;
        int last, st;
        double le;
        if ((st = drive_step_size(d, &last)) || (st = drive_try(d, &le))) return st;
        if (isnan(le) || le > 0) {
            drive_reject(d, le);
            continue;
        }
        drive_end_time(d, last);
        if ((st = drive_event(d))) return st;
        CL_FN(cl_rvec_copy)(d->x, ws->xnew, ws->n);
        r_set(d->tc, d->tn);
        d->steps++;
        if ((st = drive_observe(d))) return st;
        if (last) return CL_OK;
        if (ws->adaptive) drive_grow(d, le);
    }
}

int CL_FN(cl_ode_integrate)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rptr t, rptr x, rsrc t1, rptr h,
                            cl_ode_stats *stats)
{
    size_t n = ws->n;
    cl_prec_t p = ws->prec;
    ws->nfev = ws->iters = ws->nevent = 0;
    ws->budget = CL_FN(cl_ode_budget)(ws, t, t1);
    if (stats) memset(stats, 0, sizeof *stats);
    for (size_t i = 0; i < n; i++)
        if (r_prec(x + i) != p) return CL_EPREC;
    if (!r_is_number(t) || !r_is_number(t1) || !r_is_number(h) || !CL_FN(cl_rvec_is_finite)(x, n)) return CL_ENAN;
    RV_DECL(sc, DRIVE_SCALARS, p);
    ode_drive d = {.ws = ws, .f = f, .ctx = ctx, .t1 = t1, .h = h, .x = x, .tc = sc, .t0 = sc + 1, .tn = sc + 2,
                   .hc = sc + 3, .hs = sc + 4, .rem = sc + 5, .lim = sc + 6, .gp = sc + 7, .gn = sc + 8,
                   .span = sc + 9, .hl = sc + 10, .q1 = ws->est_order + 1};
    r_set(d.tc, t);
    r_set(d.t0, t);
    r_sub(d.span, t1, d.t0);
    d.dir = r_sgn(d.span);
    if (!ws->adaptive && r_is_zero(h) && d.dir != 0) return CL_EDOMAIN;
    if (!r_is_zero(h) && d.dir != 0 && r_sgn(h) != d.dir) return CL_EDOMAIN;
    int st = drive_observe(&d);
    if (!st && d.dir != 0) st = drive_start(&d);
    if (!st && d.dir != 0) st = drive_run(&d);
    r_set(t, d.tc);
    if (ws->adaptive) r_set(h, d.hc);
    if (stats) {
        stats->steps = d.steps;
        stats->rejected = d.rejected;
        stats->rhs_evals = ws->nfev;
        stats->iterations = ws->iters;
        stats->event_evals = ws->nevent;
    }
    return st;
}

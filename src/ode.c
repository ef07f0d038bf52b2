/*
 * ODE integrators at the working precision: the workspace and its settings,
 * one driver with error control, an observer and event location, over the
 * methods of ode_methods.c (classical RK4, Fehlberg's embedded 7(8) pair,
 * implicit Gauss–Legendre collocation with s stages and Gragg–Bulirsch–Stoer
 * extrapolation). Nothing is allocated after cl_ode_ws_new().
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ode.h"
#include "ode_impl.h"
#include "lie.h"

#if CL_PREC == CL_MPFR
/* Precision-independent helpers, defined once (in the MPFR object). */
const char *cl_ode_method_name(cl_ode_method m)
{
    switch (m) {
    case CL_ODE_RK4: return "rk4";
    case CL_ODE_RKF78: return "rkf78";
    case CL_ODE_GAUSS: return "gauss";
    case CL_ODE_GBS: return "gbs";
    }
    return "?";
}

cl_ode_method cl_ode_method_from_name(const char *name)
{
    static const cl_ode_method all[] = {CL_ODE_RK4, CL_ODE_RKF78, CL_ODE_GAUSS, CL_ODE_GBS};
    for (size_t i = 0; name && i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(name, cl_ode_method_name(all[i]))) return all[i];
    return (cl_ode_method)0;
}

static const cl_integrator integrators[] = {
    {"rkf78", NULL, 8, 1, 0, CL_ODE_RKF78, 7, -96, "adaptive Fehlberg 7(8)"},
    {"gbs", NULL, 0, 1, 0, CL_ODE_GBS, 0, 0, "adaptive Gragg-Bulirsch-Stoer, order growing with the precision"},
    {"gauss", "gl", 0, 0, 0, CL_ODE_GAUSS, 0, 0, "implicit Gauss-Legendre, symplectic, fixed step, order 2 x stages"},
    {"rk4", NULL, 4, 0, 0, CL_ODE_RK4, 0, 0, "classical Runge-Kutta, fixed step"},
    {"taylor", NULL, 0, 1, 0, CL_ODE_TAYLOR, 0, 0, "Taylor series of the field's graph, order from the tolerance (taylor.h)"},
    {"lie-euler", NULL, 1, 0, 1, CL_LIE_EULER, 0, 0, "Lie-Euler, fixed step"},
    {"rkmk4", NULL, 4, 0, 1, CL_LIE_RKMK4, 0, 0, "Runge-Kutta-Munthe-Kaas 4, fixed step"},
    {"cf4", NULL, 4, 0, 1, CL_LIE_CF4, 0, 0, "commutator-free of order 4, fixed step"},
    {"rkmk45", NULL, 5, 1, 1, CL_LIE_RKMK45, 4, -50, "adaptive Runge-Kutta-Munthe-Kaas 5(4)"},
};

const cl_integrator *cl_integrator_get(size_t i)
{
    return i < sizeof integrators / sizeof integrators[0] ? integrators + i : NULL;
}

const cl_integrator *cl_integrator_find(const char *name)
{
    const cl_integrator *m;
    for (size_t i = 0; name && (m = cl_integrator_get(i)); i++)
        if (!strcmp(name, m->name) || (m->alias && !strcmp(name, m->alias))) return m;
    return NULL;
}

double cl_ode_global_tol_factor(cl_ode_method m)
{
    return m == CL_ODE_RKF78 ? 0x1p-5 : m == CL_ODE_GBS ? 0x1p-4 : 1.0;
}

int cl_ode_gbs_default_columns(cl_prec_t prec)
{
    long k = lround(0.1 * (double)prec);
    if (k < 4) k = 4;
    if (k > CL_ODE_GBS_MAX_COLUMNS) k = CL_ODE_GBS_MAX_COLUMNS;
    return (int)k;
}
#endif

/* r = 2^l (l a finite double, any magnitude). */
static void set_pow2(rptr r, double l)
{
    double k = floor(l);
    r_set_d(r, exp2(l - k));
    r_mul_2si(r, r, (long)k);
}

void CL_FN(cl_ode_ws_free)(CL_FN(cl_ode_ws) *ws)
{
    if (!ws) return;
    CL_FN(cl_rvec_free)(ws->mem);
    CL_FN(cl_rvec_free)(ws->gmem);
    free(ws);
}

int CL_FN(cl_ode_ws_new)(CL_FN(cl_ode_ws) **out, size_t n, cl_prec_t prec, cl_ode_method method, int param)
{
    if (!out) return CL_EPARAM;
    *out = NULL;
    if (n == 0) return CL_EDIM;
    if (cl_prec_check(prec)) return CL_EPREC;
    int stages, order, est = 0, adaptive = 0;
    size_t ncoef, nstage;
    switch (method) {
    case CL_ODE_RK4:
        stages = 4; order = 4; ncoef = 0; nstage = 4;
        break;
    case CL_ODE_RKF78:
        stages = 13; order = 8; est = 7; adaptive = 1; ncoef = 13 + 169 + 13 + 13; nstage = 13;
        break;
    case CL_ODE_GAUSS:
        if (param < 1 || param > CL_ODE_GAUSS_MAX_STAGES) return CL_EPARAM;
        stages = param; order = 2 * param;
        ncoef = (size_t)(param * param + 2 * param); nstage = (size_t)(2 * param);
        break;
    case CL_ODE_GBS:
        if (param == 0) param = cl_ode_gbs_default_columns(prec);
        if (param < 2 || param > CL_ODE_GBS_MAX_COLUMNS) return CL_EPARAM;
        stages = param; order = 2 * param; est = 2 * param - 1; adaptive = 1;
        ncoef = (size_t)(param * param); nstage = (size_t)param;
        break;
    default:
        return CL_EPARAM;
    }
    CL_FN(cl_ode_ws) *ws = calloc(1, sizeof *ws);
    if (!ws) return CL_ENOMEM;
    /* GBS works on a copy of the state with guard bits: the Aitken–Neville
     * extrapolation of the harmonic sequence amplifies rounding by its
     * Lebesgue constant Σ_j Π_{i≠j} j²/|j² − i²| ≈ 2^(1.15k − 2), so
     * 1.2k + 8 extra bits keep T_kk accurate to the working precision. */
    int guard = method == CL_ODE_GBS ? (int)ceil(1.2 * stages) + 8 : 0;
    size_t nvec = method == CL_ODE_GBS ? 8 : nstage + 8;
    size_t ncoef_main = method == CL_ODE_GBS ? 0 : ncoef;
    ws->mem = CL_FN(cl_rvec_new)(4 + ncoef_main + nvec * n, prec);
    if (method == CL_ODE_GBS && ws->mem)
        ws->gmem = CL_FN(cl_rvec_new)(ncoef + (nstage + 7) * n, prec + guard);
    if (!ws->mem || (method == CL_ODE_GBS && !ws->gmem)) {
        CL_FN(cl_ode_ws_free)(ws);
        return CL_ENOMEM;
    }
    ws->n = n;
    ws->prec = r_prec(ws->mem);
    ws->gprec = ws->gmem ? r_prec(ws->gmem) : ws->prec;
    ws->method = method;
    ws->stages = stages;
    ws->order = order;
    ws->est_order = est;
    ws->adaptive = adaptive;
    ws->max_steps = 1000000000L;
    ws->budget = LONG_MAX;
    rptr coef = RV_CARVE(ws->mem, 1, &ws->rtol, &ws->atol, &ws->hmin, &ws->hmax);
    ws->K = coef + ncoef_main;
    RV_CARVE(ws->K + (nvec - 8) * n, n, &ws->y, &ws->u, &ws->v, &ws->f0, &ws->xnew, &ws->xerr, &ws->eva, &ws->evb);
    if (ws->gmem) { /* GBS: the coefficients and the vectors it steps with, at the guarded precision */
        coef = ws->gmem;
        ws->K = coef + ncoef;
        RV_CARVE(ws->K + nstage * n, n, &ws->y, &ws->u, &ws->v, &ws->f0, &ws->gx, &ws->gout, &ws->gerr);
    }
    /* RKF78 needs about tol^(−1/8) steps per unit time: its default stops at 2^−64 */
    set_pow2(ws->rtol, method == CL_ODE_RKF78 ? fmax(20.0 - (double)ws->prec, -64.0) : 20.0 - (double)ws->prec);
    r_set(ws->atol, ws->rtol);
    int st = CL_OK;
    if (method == CL_ODE_RKF78) {
        ws->c = coef; ws->A = coef + 13; ws->b = coef + 13 + 169; ws->e = ws->b + 13;
        CL_FN(cl_ode_rkf78_tableau)(ws->c, ws->A, ws->b, ws->e);
    } else if (method == CL_ODE_GAUSS) {
        ws->c = coef; ws->A = coef + stages; ws->b = coef + stages + stages * stages;
        st = CL_FN(cl_ode_gauss_tableau)(stages, ws->c, ws->A, ws->b);
    } else if (method == CL_ODE_GBS) {
        /* Neville factor of row j, column m (1-based, n_j = 2j):
         * 1/((n_j/n_{j−m})² − 1) = (j−m)² / (j² − (j−m)²), exact rational. */
        ws->A = coef;
        for (long j = 1; j <= stages; j++)
            for (long m = 1; m < j; m++)
                r_set_q(ws->A + (j - 1) * stages + (m - 1), (j - m) * (j - m), j * j - (j - m) * (j - m));
    }
    if (st) {
        CL_FN(cl_ode_ws_free)(ws);
        return st;
    }
    *out = ws;
    return CL_OK;
}

size_t CL_FN(cl_ode_ws_dim)(const CL_FN(cl_ode_ws) *ws) { return ws->n; }
int CL_FN(cl_ode_ws_stages)(const CL_FN(cl_ode_ws) *ws) { return ws->stages; }
int CL_FN(cl_ode_ws_order)(const CL_FN(cl_ode_ws) *ws) { return ws->order; }
cl_prec_t CL_FN(cl_ode_ws_rhs_prec)(const CL_FN(cl_ode_ws) *ws) { return ws->gprec; }

int CL_FN(cl_ode_set_tol)(CL_FN(cl_ode_ws) *ws, rsrc rtol, rsrc atol)
{
    if (!r_is_number(rtol) || !r_is_number(atol)) return CL_ENAN;
    if (r_sgn(rtol) < 0 || r_sgn(atol) < 0 || (r_is_zero(rtol) && r_is_zero(atol))) return CL_EPARAM;
    r_set(ws->rtol, rtol);
    r_set(ws->atol, atol);
    return CL_OK;
}

int CL_FN(cl_ode_set_global_tol)(CL_FN(cl_ode_ws) *ws, rsrc tol)
{
    if (!r_is_number(tol)) return CL_ENAN;
    if (r_sgn(tol) <= 0) return CL_EPARAM;
    R_DECL(loc, ws->prec);
    R_DECL(floor, ws->prec);
    r_mul_d(loc, tol, cl_ode_global_tol_factor(ws->method));
    /* not below what the error estimate can still resolve at this precision */
    r_set_si(floor, 1);
    r_mul_2si(floor, floor, 12 - (long)ws->prec);
    if (r_cmp(loc, floor) < 0) r_set(loc, floor);
    return CL_FN(cl_ode_set_tol)(ws, loc, loc);
}

int CL_FN(cl_ode_set_adaptive)(CL_FN(cl_ode_ws) *ws, int on)
{
    if (on && ws->est_order == 0) return CL_EPARAM;
    ws->adaptive = on ? 1 : 0;
    return CL_OK;
}

int CL_FN(cl_ode_set_limits)(CL_FN(cl_ode_ws) *ws, rsrc hmin, rsrc hmax, long max_steps)
{
    if (!r_is_number(hmin) || !r_is_number(hmax)) return CL_ENAN;
    if (r_sgn(hmin) < 0 || r_sgn(hmax) < 0) return CL_EPARAM;
    if (!r_is_zero(hmax) && r_cmp(hmin, hmax) > 0) return CL_EPARAM;
    r_set(ws->hmin, hmin);
    r_set(ws->hmax, hmax);
    ws->max_steps = max_steps > 0 ? max_steps : 1000000000L;
    return CL_OK;
}

int CL_FN(cl_ode_set_event)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_event_fn) g, void *ctx, int direction)
{
    if (direction < -1 || direction > 1) return CL_EPARAM;
    ws->g = g;
    ws->gctx = ctx;
    ws->gdir = direction;
    return CL_OK;
}

void CL_FN(cl_ode_set_budget)(CL_FN(cl_ode_ws) *ws, long max_evals) { ws->max_evals = max_evals > 0 ? max_evals : 0; }

long CL_FN(cl_ode_budget)(const CL_FN(cl_ode_ws) *ws, rsrc t0, rsrc t1)
{
    if (ws->max_evals > 0) return ws->max_evals;
    R_DECL(d, ws->prec);
    r_sub(d, t1, t0);
    double span = r_is_number(d) ? fabs(r_get_d(d)) : 0;
    double b = (double)CL_ODE_BUDGET_PER_TIME * fmax(1.0, span);
    return b < (double)LONG_MAX ? (long)b : LONG_MAX;
}

void CL_FN(cl_ode_set_observer)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_observer) obs, void *ctx)
{
    ws->obs = obs;
    ws->octx = ctx;
}

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
            else set_pow2(err, l);
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
    set_pow2(h0, l0);
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
    set_pow2(h, l);
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
    set_pow2(d->lim, fac);
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
    set_pow2(d->lim, fac);
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

/*
 * ODE integrators at the working precision: the workspace and its settings
 * (the steps and the driver with error control, an observer and event
 * location are ode_drive.c's), over the methods of ode_methods.c (classical RK4, Fehlberg's embedded 7(8) pair,
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
    cl_ode_set_pow2(ws->rtol, method == CL_ODE_RKF78 ? fmax(20.0 - (double)ws->prec, -64.0) : 20.0 - (double)ws->prec);
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

/*
 * The ODE workspace as ode.c (settings), ode_drive.c (steps, driver, events) and ode_methods.c
 * (one step of each method) both see it. Internal: not installed.
 */
#ifndef CL_ODE_IMPL_H
#define CL_ODE_IMPL_H
#include <math.h>
#include "ode.h"

struct CL_FN(cl_ode_ws) {
    size_t n;
    cl_prec_t prec;
    cl_ode_method method;
    int stages;   /* explicit stages, Gauss stages s, or GBS columns k */
    int order;    /* order of the propagated solution */
    int est_order; /* order q of the error estimate (adaptive methods) */
    int adaptive;
    long max_steps;
    long max_evals; /* evaluation budget set by cl_ode_set_budget(); 0: the default, scaled by the span */
    long budget;    /* budget of the current call: call_f fails with CL_EBUDGET beyond it */
    int at_floor;   /* the last error estimate was within the rounding of the state */
    rptr mem;     /* every scalar of the workspace, one block */
    rptr rtol, atol, hmin, hmax;
    rptr c, A, b, e; /* method coefficients (GBS: A holds the Neville factors) */
    rptr K;       /* stage vectors, n scalars each (GAUSS: F then Z; GBS: the table) */
    rptr y, u, v, f0, xnew, xerr, eva, evb;
    /* GBS: extrapolation at precision gprec = prec + guard bits */
    cl_prec_t gprec;
    rptr gmem, gx, gout, gerr;
    CL_FN(cl_ode_event_fn) g;
    void *gctx;
    int gdir;
    CL_FN(cl_ode_observer) obs;
    void *octx;
    long nfev, iters, nevent;
};

/* One evaluation of f, counted against the evaluation and CPU-time budgets. */
static inline int call_f(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rptr dx, rsrc t, rsrc x)
{
    if (ws->nfev >= ws->budget) return CL_EBUDGET;
    if (!(ws->nfev & 15) && cl_cpu_budget_spent()) return CL_ETIME;
    ws->nfev++;
    return f(dx, t, x, ctx);
}

/* Fehlberg 7(8) at the precision of the arguments: nodes c (13), the matrix A
   (13 × 13, row i holds i entries), the order-8 weights b and the order-7
   minus order-8 weights e. */
void CL_FN(cl_ode_rkf78_tableau)(rptr c, rptr A, rptr b, rptr e);

/* One step of the workspace's method from (t, x) with step h into xout, and
   the error estimate into xerr when it is not NULL (adaptive methods). */
int CL_FN(cl_ode_one_step)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, rsrc t, rsrc x, rsrc h, rptr xout, rptr xerr);

/* r = 2^l (l a finite double, any magnitude). */
static inline void cl_ode_set_pow2(rptr r, double l)
{
    double k = floor(l);
    r_set_d(r, exp2(l - k));
    r_mul_2si(r, r, (long)k);
}
#endif

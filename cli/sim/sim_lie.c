/**
 * \file sim_lie.c
 * \brief `chartless simulate --event` with the Lie group integrators (sim_lie.h).
 */
#include <string.h>
#include "sim_lie.h"

/* A leg of the run: the hook's steps watched for a crossing of the event. */
typedef struct lie_leg {
    const cl_sim_lie *r;
    cl_sim_graph *gr;
    mpfr_ptr t0;         /* the leg's start (the hook counts from 0) */
    mpfr_ptr tp, gp, xp; /* the last step's end: time, event value, state */
    mpfr_ptr tc, gc, xc; /* the end of the step that crossed */
    mpfr_ptr xa, xb, s;  /* a partial step's end, the far end of the bracket, scratch (2) */
    int crossed;
} lie_leg;

static void copy(mpfr_ptr y, mpfr_srcptr x, size_t n)
{
    for (size_t i = 0; i < n; i++) mpfr_set(y + i, x + i, MPFR_RNDN);
}

/* Did g cross from ga to gb in direction dir (as ode.c judges it)? */
static int crossed(int dir, mpfr_srcptr ga, mpfr_srcptr gb)
{
    int sa = mpfr_sgn(ga), sb = mpfr_sgn(gb);
    int up = sa < 0 && sb >= 0, down = sa > 0 && sb <= 0;
    return dir == CL_ODE_EVENT_RISING ? up : dir == CL_ODE_EVENT_FALLING ? down : (up || down);
}

/* After every step of the hook: the event at its end; a crossing stops the leg. */
static int on_step(void *ctx, mpfr_srcptr tau, mpfr_srcptr y)
{
    lie_leg *L = ctx;
    size_t n = L->r->cs->dim;
    mpfr_add(L->tc, L->t0, tau, MPFR_RNDN);
    int st = cl_sim_graph_event_value(L->gc, L->tc, y, L->gr);
    if (st) return st;
    if (!mpfr_number_p(L->gc)) return CL_ENAN;
    if (crossed(L->gr->direction, L->gp, L->gc)) {
        copy(L->xc, y, n);
        L->crossed = 1;
        return CL_ODE_EVENT;
    }
    mpfr_set(L->tp, L->tc, MPFR_RNDN);
    mpfr_set(L->gp, L->gc, MPFR_RNDN);
    copy(L->xp, y, n);
    return L->r->obs ? L->r->obs(L->r->obs_ctx, L->tc, y) : 0;
}

/* g at θ of the step that crossed: the hook re-run from its start for θ times its length. */
static int partial_at(void *ctx, mpfr_ptr g, mpfr_srcptr th)
{
    lie_leg *L = ctx;
    const cl_sim_lie *r = L->r;
    mpfr_ptr hs = L->s, tt = L->s + 1;
    mpfr_sub(hs, L->tc, L->tp, MPFR_RNDN);
    mpfr_mul(hs, hs, th, MPFR_RNDN);
    copy(L->xa, L->xp, r->cs->dim);
    int st = r->cs->sys->lie_simulate(r->cs->inst, r->cs->form, r->method, L->xa, hs, hs, r->tol, r->tol, r->max_steps, NULL,
                                      NULL, r->err, r->errlen);
    if (st) return st < 0 ? st : CL_ENAN;
    mpfr_add(tt, L->tp, hs, MPFR_RNDN);
    return cl_sim_graph_event_value(g, tt, L->xa, L->gr);
}

static void partial_far(void *ctx)
{
    lie_leg *L = ctx;
    copy(L->xb, L->xa, L->r->cs->dim);
}

/* The crossing of the last step located: (t, x) the far end of the final bracket. */
static int locate(lie_leg *L, mpfr_ptr t, mpfr_ptr x)
{
    cl_prec_t p = mpfr_get_prec(x);
    size_t n = L->r->cs->dim;
    mpfr_t th, wtol, hs;
    mpfr_inits2(p, th, wtol, hs, (mpfr_ptr)0);
    mpfr_sub(hs, L->tc, L->tp, MPFR_RNDN);
    /* bracket tolerance in θ: 4·2^(−p)·max(|t_n|, |t_n + h|) / h, as ode.c's */
    if (mpfr_cmpabs(L->tp, L->tc) >= 0) mpfr_abs(wtol, L->tp, MPFR_RNDN);
    else mpfr_abs(wtol, L->tc, MPFR_RNDN);
    mpfr_mul_2si(wtol, wtol, 2 - (long)p, MPFR_RNDN);
    mpfr_div(wtol, wtol, hs, MPFR_RNDN);
    copy(L->xb, L->xc, n);
    int st = cl_ode_locate_root_mp(th, L->gp, L->gc, wtol, partial_at, partial_far, L, p);
    if (!st && mpfr_cmp_ui(th, 1) == 0) mpfr_set(t, L->tc, MPFR_RNDN);
    else if (!st) mpfr_fma(t, th, hs, L->tp, MPFR_RNDN);
    if (!st) copy(x, L->xb, n);
    mpfr_clears(th, wtol, hs, (mpfr_ptr)0);
    return st;
}

/* One leg from (t, x): to t1 (0), to a located zero (CL_ODE_EVENT, (t, x) there), or the run's end. */
static int leg(lie_leg *L, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1)
{
    const cl_sim_lie *r = L->r;
    size_t n = r->cs->dim;
    mpfr_set(L->t0, t, MPFR_RNDN);
    mpfr_set(L->tp, t, MPFR_RNDN);
    copy(L->xp, x, n);
    int st = cl_sim_graph_event_value(L->gp, t, x, L->gr);
    if (st) return st;
    mpfr_ptr span = L->s;
    mpfr_sub(span, t1, t, MPFR_RNDN);
    L->crossed = 0;
    st = r->cs->sys->lie_simulate(r->cs->inst, r->cs->form, r->method, x, span, r->h, r->tol, r->tol, r->max_steps, on_step,
                                  L, r->err, r->errlen);
    if (L->crossed) return (st = locate(L, t, x)) ? st : CL_ODE_EVENT;
    if (!st) mpfr_set(t, t1, MPFR_RNDN);
    return st;
}

int cl_sim_lie_event_run(const cl_sim_lie *r, cl_sim_graph *gr, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1,
                         cl_sim_event_fn on_event, void *ectx)
{
    size_t n = r->cs->dim;
    cl_prec_t p = mpfr_get_prec(x);
    lie_leg L = {.r = r, .gr = gr};
    mpfr_ptr w = cl_rvec_new_mp(7 + 4 * n, p);
    if (!w) return CL_ENOMEM;
    L.t0 = w, L.tp = w + 1, L.gp = w + 2, L.tc = w + 3, L.gc = w + 4, L.s = w + 5; /* s: 2 */
    L.xp = w + 7, L.xc = L.xp + n, L.xa = L.xc + n, L.xb = L.xa + n;
    int st;
    for (;;) {
        st = leg(&L, t, x, t1);
        if (st != CL_ODE_EVENT) break;
        if ((st = on_event(ectx, t, x)) || !gr->every || mpfr_cmp(t, t1) >= 0) break;
    }
    cl_rvec_free_mp(w);
    return st;
}

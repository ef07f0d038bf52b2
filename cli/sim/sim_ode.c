/**
 * \file sim_ode.c
 * \brief `chartless simulate`'s runs with the integrators of src/ode, and its
 *        end-of-run error estimate by a rerun (sim_ode.h).
 */
#include <stdio.h>
#include "sim_ode.h"

static int field(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    const cl_cmd_system *cs = ctx;
    if (cs->sys->set_time) cs->sys->set_time(cs->inst, t);
    return cs->sys->rhs(cs->inst, cs->form, dx, x);
}

int cl_sim_ode_run(const cl_sim_ode *r, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1, mpfr_ptr h, cl_ode_stats *stats)
{
    cl_prec_t p = mpfr_get_prec(x);
    cl_ode_ws_mp *ws = NULL;
    int st = cl_ode_ws_new_mp(&ws, r->cs->dim, p, r->method, r->param);
    /* GBS calls the field with guard bits: the system is set up a second time
       at that precision, its parameters read from their decimal strings there */
    cl_cmd_system gcs = {0};
    const cl_cmd_system *fcs = r->cs;
    if (!st && cl_ode_ws_rhs_prec_mp(ws) != p) {
        cl_cmd_args ga = *r->a;
        ga.bits = (long)cl_ode_ws_rhs_prec_mp(ws);
        if (cl_cmd_open_system(&ga, &gcs)) st = CL_ENOMEM;
        else fcs = &gcs;
    }
    if (!st && r->tol) st = cl_ode_set_global_tol_mp(ws, r->tol);
    if (!st && r->tol) {
        mpfr_t zero;
        mpfr_init2(zero, p);
        mpfr_set_zero(zero, 1);
        st = cl_ode_set_limits_mp(ws, zero, zero, r->max_steps);
        mpfr_clear(zero);
    }
    if (!st && r->event) st = cl_ode_set_event_mp(ws, r->event, r->event_ctx, r->event_dir);
    if (!st) {
        cl_ode_set_observer_mp(ws, r->obs, r->obs_ctx);
        st = cl_ode_integrate_mp(ws, field, (void *)fcs, t, x, t1, h, stats);
    }
    cl_ode_ws_free_mp(ws);
    if (fcs == &gcs) cl_cmd_close_system(&gcs);
    return st;
}

/* max_i |x_i - y_i| / (1 + |y_i|) into e, at e's precision. */
static void scaled_maxdiff(mpfr_ptr e, mpfr_srcptr x, mpfr_srcptr y, size_t n)
{
    mpfr_t d, s;
    mpfr_inits2(mpfr_get_prec(e), d, s, (mpfr_ptr)0);
    mpfr_set_zero(e, 1);
    for (size_t i = 0; i < n; i++) {
        mpfr_sub(d, x + i, y + i, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(s, y + i, MPFR_RNDN);
        mpfr_add_ui(s, s, 1, MPFR_RNDN);
        mpfr_div(d, d, s, MPFR_RNDN);
        mpfr_max(e, e, d, MPFR_RNDN);
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
}

/* The rerun from x0 to t1 with GBS at pb bits and tol 2^-CL_SIM_ESTIMATE_TOL_LOG2 into xb (pb bits). */
static int rerun(const cl_cmd_args *a, size_t dim, mpfr_srcptr x0, mpfr_srcptr t1, mpfr_srcptr tol, long max_steps,
                 mpfr_ptr xb)
{
    cl_prec_t pb = mpfr_get_prec(xb);
    cl_cmd_args ga = *a;
    ga.bits = (long)pb;
    cl_cmd_system gb;
    if (cl_cmd_open_system(&ga, &gb)) return CL_ENOMEM;
    mpfr_t sc[4]; /* t, t1, h, tol at pb bits */
    for (int i = 0; i < 4; i++) mpfr_init2(sc[i], pb);
    mpfr_set_zero(sc[0], 1);
    mpfr_set(sc[1], t1, MPFR_RNDN);
    mpfr_set_zero(sc[2], 1);
    mpfr_mul_2si(sc[3], tol, -CL_SIM_ESTIMATE_TOL_LOG2, MPFR_RNDN);
    for (size_t i = 0; i < dim; i++) mpfr_set(xb + i, x0 + i, MPFR_RNDN);
    cl_sim_ode r = {.a = &ga, .cs = &gb, .method = CL_ODE_GBS, .tol = sc[3], .max_steps = max_steps};
    int st = cl_sim_ode_run(&r, sc[0], xb, sc[1], sc[2], NULL);
    for (int i = 0; i < 4; i++) mpfr_clear(sc[i]);
    cl_cmd_close_system(&gb);
    return st;
}

void cl_sim_report_error(const cl_cmd_args *a, size_t dim, mpfr_srcptr x0, mpfr_srcptr x1, mpfr_srcptr t1,
                         mpfr_srcptr tol, long max_steps)
{
    cl_prec_t pb = mpfr_get_prec(x1) + CL_SIM_ESTIMATE_BITS;
    mpfr_ptr xb = cl_rvec_new_mp(dim, pb);
    if (!xb) return;
    int st = rerun(a, dim, x0, t1, tol, max_steps, xb);
    if (st) {
        fprintf(stderr, "note: no error estimate: the rerun with gbs at %ld bits failed (%s)\n", (long)pb, cl_strerror(st));
    } else {
        mpfr_t e;
        mpfr_init2(e, 64);
        scaled_maxdiff(e, x1, xb, dim);
        int above = mpfr_cmp(e, tol) > 0;
        mpfr_fprintf(stderr, "%s: error at t = %.6Rg estimated %.2Re (max |x - x*|/(1 + |x*|), x* a rerun with gbs at %ld bits "
                     "and tol/%d); %s the tolerance %.3Rg\n", above ? "warning" : "note", t1, e, (long)pb,
                     1 << CL_SIM_ESTIMATE_TOL_LOG2, above ? "above" : "within", tol);
        mpfr_clear(e);
    }
    cl_rvec_free_mp(xb);
}

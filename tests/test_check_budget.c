/*
 * A row never hangs: each rung of a check runs under a CPU-time budget
 * (cl_check_run(), cl_check_rung_budget()), and a rung whose integrator
 * cannot reach its end in that time fails with CL_ETIME in seconds.
 *
 * The stand-in for a wrong coefficient is a trajectory row whose adaptive
 * integrator must shrink its step: x' = −K (x − cos t) with K = 10⁶ on
 * [0, 100], explicit RKF78 at 113 bits. Stability caps the step near 5/K, so
 * the run needs about 2·10⁷ steps (3·10⁸ evaluations, far inside the
 * evaluation budget of 2^24 per unit of time): without the time budget it
 * runs for hours, as the trajectory row with a mistyped tableau entry ran
 * past 300 s. The 53-bit rung of the same check is a quick one, so the
 * 113-bit rung gets the floor, CL_CHECK_BUDGET_FLOOR seconds.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "chartless_base.h"
#include "check.h"
#include "tap.h"

static int stiff(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    (void)ctx;
    mpfr_cos(dx, t, MPFR_RNDN);
    mpfr_sub(dx, x, dx, MPFR_RNDN);
    mpfr_mul_si(dx, dx, -1000000L, MPFR_RNDN);
    return 0;
}

/* x(0) = 1 integrated to t1 at prec bits with RKF78; the status, and the time reached in *t_end. */
static int integrate_stiff(cl_prec_t prec, double t1, double *t_end)
{
    cl_ode_ws_mp *ws;
    int st = cl_ode_ws_new_mp(&ws, 1, prec, CL_ODE_RKF78, 0);
    if (st) return st;
    mpfr_t t, x, end, h;
    mpfr_inits2(prec, t, x, end, h, (mpfr_ptr)0);
    mpfr_set_ui(t, 0, MPFR_RNDN);
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_set_d(end, t1, MPFR_RNDN);
    mpfr_set_d(h, 1e-3, MPFR_RNDN);
    st = cl_ode_integrate_mp(ws, stiff, NULL, t, x, end, h, NULL);
    *t_end = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(t, x, end, h, (mpfr_ptr)0);
    cl_ode_ws_free_mp(ws);
    return st;
}

static int quick_d(cl_check_result *res, cl_prec_t prec)
{
    cl_check_begin(res);
    return 0;
}

static int hanging_mp(cl_check_result *res, cl_prec_t prec)
{
    cl_check_begin(res);
    double t_end;
    return integrate_stiff(prec, 100.0, &t_end);
}

static int short_mp(cl_check_result *res, cl_prec_t prec)
{
    cl_check_begin(res);
    double t_end;
    return integrate_stiff(prec, 1e-3, &t_end);
}

int main(void)
{
    plan(7);
    const cl_check hanging = {.name = "test.budget.hanging", .cond = 1, .fn_d = quick_d, .fn_mp = hanging_mp};
    const cl_check fine = {.name = "test.budget.fine", .cond = 1, .fn_d = quick_d, .fn_mp = short_mp};
    static const long bits[] = {53, 113, 256, 1024};
    double e[4];
    int st[4];
    char note[4][200];
    double cpu[4];
    for (int k = 0; k < 4; k++) {
        cl_check_result r;
        double t0 = cl_cpu_seconds();
        st[k] = cl_check_run(&hanging, bits[k], &r);
        cpu[k] = cl_cpu_seconds() - t0;
        e[k] = r.log2_err;
        snprintf(note[k], sizeof note[k], "%s", r.note);
    }
    ok(st[0] == 0, "the 53-bit rung of the row runs as usual (status %d)", st[0]);
    ok(st[1] == CL_ETIME && cpu[1] >= CL_CHECK_BUDGET_FLOOR - 0.5 && cpu[1] < CL_CHECK_BUDGET_FLOOR + 2,
       "the 113-bit rung stops with CL_ETIME after %.2f s of CPU time, its budget being %g s (%s)", cpu[1],
       CL_CHECK_BUDGET_FLOOR, note[1]);
    ok(st[2] == CL_ETIME && st[3] == CL_ETIME && cpu[2] + cpu[3] < 0.1 && strstr(note[3], "113 bits"),
       "the rungs above it are not run: CL_ETIME in %.3f s (%s)", cpu[2] + cpu[3], note[3]);
    enum cl_verdict v = cl_check_verdict(&hanging, 4, bits, e, st);
    ok(v == CL_V_ERROR, "the row's verdict is %s, a failed row", cl_verdict_name(v));

    /* The budget is over with the rung: the next check and plain calls run free. */
    cl_check_result r;
    int s1 = cl_check_run(&fine, 53, &r), s2 = cl_check_run(&fine, 113, &r);
    ok(s1 == 0 && s2 == 0 && !cl_cpu_budget_spent(), "another row afterwards runs to its end (status %d, %d)", s1, s2);
    double b = cl_check_rung_budget(&fine, 256);
    ok(b == CL_CHECK_BUDGET_FLOOR && cl_check_rung_budget(&hanging, 53) == CL_CHECK_BUDGET_FIRST &&
           cl_check_rung_budget(&hanging, 1024) == CL_CHECK_BUDGET_FIRST * 64,
       "budgets: %g s after a quick rung, %g s for a first rung at 53 bits, 64 times that at 1024", b,
       cl_check_rung_budget(&hanging, 53));

    /* The library call itself: a budget of 0.5 s ends the integration with the last accepted point. */
    double t_end = 0, t0 = cl_cpu_seconds();
    cl_cpu_budget_set(0.5);
    int s = integrate_stiff(113, 100.0, &t_end);
    double spent = cl_cpu_seconds() - t0;
    cl_cpu_budget_set(0);
    ok(s == CL_ETIME && t_end > 0 && t_end < 100 && spent < 1.5,
       "cl_ode_integrate_mp under cl_cpu_budget_set(0.5): %s after %.2f s, at t = %.3g of 100", cl_strerror(s), spent,
       t_end);
    mpfr_free_cache();
    return done_testing();
}

/*
 * Jacobian of f(x) = (sin x0x1, e^x0 x2², x0x1x2, log(1 + x1²)) at one point:
 * cl_jacobian_d / cl_jacobian_mp (Richardson at raised precision) against what
 * a user would otherwise write, a double central difference with the step
 * h = ε^(1/3)·max(1, |x_j|). Columns: time per Jacobian, ratio to the plain
 * central difference, evaluations of f per Jacobian, and the largest error
 * against the closed form (computed at p + 64 bits), as log2 relative to
 * max(1, |J_ij|).
 */
#include <math.h>
#include <stdio.h>
#include "chartless.h"
#include "deriv_cases_impl.h"
#include "bench.h"

static long evals;

static void field4_d(double *y, const double *x)
{
    evals++;
    y[0] = sin(x[0] * x[1]);
    y[1] = exp(x[0]) * x[2] * x[2];
    y[2] = x[0] * x[1] * x[2];
    y[3] = log1p(x[1] * x[1]);
}

static const double X[3] = {0.71875, -1.3125, 0.40625};

/* log2 of max |J − exact| / max(1, |exact|); J given as MPFR values. */
static double worst(mpfr_srcptr J, long p)
{
    mpfr_ptr xr = cl_rvec_new_mp(3, p + 64), ref = cl_rvec_new_mp(12, p + 64);
    mpfr_t d, s;
    mpfr_inits2(p + 64, d, s, (mpfr_ptr)0);
    for (int i = 0; i < 3; i++) mpfr_set_d(xr + i, X[i], MPFR_RNDN);
    field4_jac(ref, xr);
    double w = -INFINITY;
    for (int k = 0; k < 12; k++) {
        mpfr_sub(d, J + k, ref + k, MPFR_RNDN);
        mpfr_abs(s, ref + k, MPFR_RNDN);
        if (mpfr_cmp_ui(s, 1) < 0) mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_div(d, d, s, MPFR_RNDN);
        double l = cl_mpfr_log2(d);
        if (l > w) w = l;
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
    cl_rvec_free_mp(xr); cl_rvec_free_mp(ref);
    return w;
}

/* The double central difference a user would write, step h = eps^(1/3) max(1, |x_j|), into Jn. */
static void central_difference(double *Jn)
{
    double x[3] = {X[0], X[1], X[2]}, fp[4], fm[4];
    for (int j = 0; j < 3; j++) {
        double h = cbrt(0x1p-52) * fmax(1.0, fabs(X[j]));
        volatile double xp = X[j] + h, xm = X[j] - h; /* steps exactly representable */
        x[j] = xp; field4_d(fp, x);
        x[j] = xm; field4_d(fm, x);
        x[j] = X[j];
        for (int i = 0; i < 4; i++) Jn[3 * i + j] = (fp[i] - fm[i]) / (xp - xm);
    }
}

static const char about[] =
    "The Jacobian of f(x) = (sin x0x1, e^x0 x2^2, x0x1x2, log(1 + x1^2)) at one\n"
    "point: cl_jacobian_d and cl_jacobian_mp (Richardson extrapolation at raised\n"
    "precision) against a double central difference with the step\n"
    "eps^(1/3) max(1, |x_j|). Prints the CPU time per Jacobian, the ratio to the\n"
    "central difference, the evaluations of f per Jacobian, and the largest error\n"
    "against the closed form (log2, relative to max(1, |J_ij|)).\n";

static int measure(int option)
{
    double J[12], Jn[12], E[12], t, t_naive;
    mpfr_ptr Jm = cl_rvec_new_mp(12, 1024 + 64);

    /* Plain double central difference. */
    BENCH_SECONDS_PER_CALL(t_naive, 0.2, central_difference(Jn));
    evals = 0;
    central_difference(Jn);
    for (int k = 0; k < 12; k++) mpfr_set_d(Jm + k, Jn[k], MPFR_RNDN);
    printf("%-34s %13s %9s %7s %12s\n", "method", "time/Jac", "ratio", "evals", "log2 error");
    bench_print_time_ratio("double central difference", 34, t_naive, "us", t_naive);
    printf(" %7ld %12.1f\n", evals, worst(Jm, 53));

    BENCH_SECONDS_PER_CALL(t, 0.2, cl_jacobian_d(J, E, field4, &evals, X, 3, 4));
    evals = 0;
    cl_jacobian_d(J, E, field4, &evals, X, 3, 4);
    for (int k = 0; k < 12; k++) mpfr_set_d(Jm + k, J[k], MPFR_RNDN);
    bench_print_time_ratio("cl_jacobian_d (53 bits)", 34, t, "us", t_naive);
    printf(" %7ld %12.1f\n", evals, worst(Jm, 53));

    const long bits[] = {113, 256, 1024};
    for (int b = 0; b < 3; b++) {
        long p = bits[b];
        mpfr_ptr x = cl_rvec_new_mp(3, p), Jp = cl_rvec_new_mp(12, p);
        for (int i = 0; i < 3; i++) mpfr_set_d(x + i, X[i], MPFR_RNDN);
        BENCH_SECONDS_PER_CALL(t, 0.2, cl_jacobian_mp(Jp, NULL, field4, &evals, x, 3, 4));
        evals = 0;
        cl_jacobian_mp(Jp, NULL, field4, &evals, x, 3, 4);
        char name[64];
        snprintf(name, sizeof name, "cl_jacobian_mp (%ld bits)", p);
        for (int k = 0; k < 12; k++) mpfr_set(Jm + k, Jp + k, MPFR_RNDN);
        bench_print_time_ratio(name, 34, t, "us", t_naive);
        printf(" %7ld %12.1f\n", evals, worst(Jm, p));
        cl_rvec_free_mp(x); cl_rvec_free_mp(Jp);
    }
    cl_rvec_free_mp(Jm);
    return 0;
}

BENCH_MAIN("bench_deriv", about, NULL, measure)

/*
 * The free rigid body J = diag(1, 2, 7/2) integrated to T = 20 from a
 * tumbling state, four ways: classical RK4 on (R, Ṙ) ∈ R^{3×3}×R^{3×3}
 * through (3.8) [EMB (3.8)], the chapter's RKMK4 on (R, Ω) ∈ SO(3)×R³, and
 * src/lie's RKMK4 and CF4 on the same problem (cl_emb_top_lie_problem). For
 * each step size: the largest drift along the run of the kinetic energy,
 * |JΩ|², the spatial angular momentum RJΩ and of RᵀR − I, and the cost per
 * step as a ratio to the chapter's RKMK4. Runs in the MPFR instantiation at
 * 53 bits (the rounding of double) and at 256 bits: the Lie group methods
 * keep RᵀR − I at the rounding of the precision, RK4 in the embedding space
 * lets it drift with its truncation error; the other drifts are truncation
 * errors of order 4 for all four methods.
 */
#include <math.h>
#include <stdio.h>
#include "chartless.h"
#include "bench.h"

enum { M_RK4_38, M_RKMK4, M_LIE_RKMK4, M_LIE_CF4, NMETH };
static const char *const mname[NMETH] = {"RK4 (R,Rdot) (3.8)", "RKMK4 chapter", "RKMK4 src/lie", "CF4 src/lie"};

/* log2 max |a[i] − b[i]| */
static double l2diff(mpfr_srcptr a, mpfr_srcptr b, int n, mpfr_ptr t)
{
    double w = -INFINITY;
    for (int i = 0; i < n; i++) {
        mpfr_sub(t, a + i, b + i, MPFR_RNDN);
        double l = mpfr_zero_p(t) ? -INFINITY : log2(fabs(mpfr_get_d(t, MPFR_RNDN)));
        if (l > w) w = l;
    }
    return w;
}

/* (R, Ω) of method k's state y into s; RK4 (3.8) stores (R, Ṙ). */
static void to_ROmega(int k, mpfr_ptr s, mpfr_srcptr y, mpfr_ptr T)
{
    for (int i = 0; i < 9; i++) mpfr_set(s + i, y + i, MPFR_RNDN);
    if (k != M_RK4_38) {
        for (int i = 9; i < 12; i++) mpfr_set(s + i, y + i, MPFR_RNDN);
        return;
    }
    for (int i = 0; i < 3; i++)       /* T = RᵀṘ */
        for (int j = 0; j < 3; j++) {
            mpfr_set_zero(T + 3 * i + j, 1);
            for (int l = 0; l < 3; l++) mpfr_fma(T + 3 * i + j, y + 3 * l + i, y + 9 + 3 * l + j, T + 3 * i + j, MPFR_RNDN);
        }
    cl_emb_so3_vee_mp(s + 9, T);
}

static void run(cl_prec_t p)
{
    mpfr_ptr J = cl_rvec_new_mp(9, p), y = cl_rvec_new_mp(18, p), s = cl_rvec_new_mp(12, p),
             inv0 = cl_rvec_new_mp(CL_EMB_TOP_NINV, p), inv = cl_rvec_new_mp(CL_EMB_TOP_NINV, p),
             T = cl_rvec_new_mp(9, p), th = cl_rvec_new_mp(3, p), R0 = cl_rvec_new_mp(9, p),
             O0 = cl_rvec_new_mp(3, p), h = cl_rvec_new_mp(1, p), tmp = cl_rvec_new_mp(1, p);
    mpfr_set_si(J, 1, MPFR_RNDN); mpfr_set_si(J + 4, 2, MPFR_RNDN); mpfr_set_d(J + 8, 3.5, MPFR_RNDN);
    cl_emb_top_mp *top;
    cl_emb_rigid_new_mp(&top, J);
    mpfr_set_d(th, 0.3, MPFR_RNDN); mpfr_set_d(th + 1, -0.8, MPFR_RNDN); mpfr_set_d(th + 2, 1.1, MPFR_RNDN);
    cl_emb_so3_exp_mp(R0, th);
    mpfr_set_d(O0, 0.05, MPFR_RNDN); mpfr_set_d(O0 + 1, 1.5, MPFR_RNDN); mpfr_set_d(O0 + 2, 0.1, MPFR_RNDN);
    cl_emb_top_invariants_mp(top, inv0, R0, O0);
    cl_lie_problem_mp pb;
    cl_emb_top_lie_problem_mp(top, &pb);
    printf("%ld bits, T = 20, J = diag(1, 2, 7/2), W0 = (0.05, 1.5, 0.1): log2 of the largest drift\n", (long)p);
    printf("%-20s %6s %8s %8s %8s %8s %10s %6s\n", "method", "h", "energy", "|JW|^2", "R J W", "R^TR-I", "s/step", "ratio");
    for (int lev = 0; lev < 3; lev++) {
        long n = 20L * (16L << lev);
        mpfr_set_si(h, 1, MPFR_RNDN);
        mpfr_div_si(h, h, 16L << lev, MPFR_RNDN);
        double cost[NMETH], drift[NMETH][4];
        for (int k = 0; k < NMETH; k++) {
            cl_lie_integrator_mp *li = NULL;
            if (k == M_LIE_RKMK4) cl_lie_new_mp(&li, &pb, CL_LIE_RKMK4, p);
            if (k == M_LIE_CF4) cl_lie_new_mp(&li, &pb, CL_LIE_CF4, p);
            for (int i = 0; i < 9; i++) mpfr_set(y + i, R0 + i, MPFR_RNDN);
            if (k == M_RK4_38) {
                cl_m3_hat_mp(T, O0);
                cl_m3_mul_mp(y + 9, R0, T);
            } else
                for (int i = 0; i < 3; i++) mpfr_set(y + 9 + i, O0 + i, MPFR_RNDN);
            double de = -INFINITY, dp = -INFINITY, dm = -INFINITY, dorth = -INFINITY, t0 = bench_cpu_seconds();
            for (long step = 0; step < n; step++) {
                if (k == M_RK4_38) cl_emb_top_rk4_38_step_mp(top, y, y + 9, h);
                else if (k == M_RKMK4) cl_emb_top_rkmk4_step_mp(top, y, y + 9, h);
                else cl_lie_step_mp(li, y, h);
                if (step % 16 == 15) {
                    to_ROmega(k, s, y, T);
                    cl_emb_top_invariants_mp(top, inv, s, s + 9);
                    double a = l2diff(inv, inv0, 1, tmp), b = l2diff(inv + 1, inv0 + 1, 1, tmp),
                           c = l2diff(inv + 2, inv0 + 2, 3, tmp), d = cl_emb_so3_log2_orth_defect_mp(s);
                    if (a > de) de = a;
                    if (b > dp) dp = b;
                    if (c > dm) dm = c;
                    if (d > dorth) dorth = d;
                }
            }
            cost[k] = (bench_cpu_seconds() - t0) / (double)n;
            drift[k][0] = de; drift[k][1] = dp; drift[k][2] = dm; drift[k][3] = dorth;
            cl_lie_free_mp(li);
        }
        for (int k = 0; k < NMETH; k++)
            printf("%-20s 1/%-4ld %8.1f %8.1f %8.1f %8.1f %10.2e %6.2f\n", mname[k], 16L << lev, drift[k][0],
                   drift[k][1], drift[k][2], drift[k][3], cost[k], cost[k] / cost[M_RKMK4]);
    }
    cl_emb_top_free_mp(top);
    mpfr_ptr all[] = {J, y, s, inv0, inv, T, th, R0, O0, h, tmp};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) cl_rvec_free_mp(all[i]);
}

static const char about[] =
    "The free rigid body J = diag(1, 2, 7/2) integrated to T = 20 from a tumbling\n"
    "state four ways: RK4 on (R, Rdot) through [EMB (3.8)], the chapter's RKMK4 on\n"
    "(R, Omega) in SO(3) x R^3, and src/lie's RKMK4 and CF4 on the same problem,\n"
    "with h = 1/16, 1/32 and 1/64, at 53 and 256 bits (MPFR). Prints the largest drift\n"
    "of the kinetic energy, |J Omega|^2, the spatial angular momentum and\n"
    "R^T R - I along each run, and the CPU cost per step as a ratio to the\n"
    "chapter's RKMK4.\n";

static int measure(int option)
{
    run(53);
    run(256);
    return 0;
}

BENCH_MAIN("bench_emb_so3", about, NULL, measure)

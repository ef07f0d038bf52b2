/*
 * Benchmark of the high-precision integrators on the double spherical
 * pendulum [S2 V] (m1 = m2 = l1 = l2 = 1, g = 9.81) from a fixed generic
 * state, integrated to t = 2: Gragg–Bulirsch–Stoer extrapolation (columns
 * chosen from the precision) against Fehlberg 7(8), the alternative a user
 * would pick, at the same tolerance, at 113, 256 and 1024 bits. The error is
 * measured against a reference run of GBS at 32 more bits from the same
 * initial numbers, with a tolerance near that precision.
 *
 * The bench calls the MPFR instantiation (the *_mp symbols) directly; it is
 * not templated, so it builds one binary. With --sweep it also times GBS
 * for a range of column counts at each precision (how the default of
 * cl_ode_gbs_default_columns() was chosen).
 *
 * State: q1, q2 ∈ S² (directions of the links) and their velocities
 * v1 = q̇1, v2 = q̇2 (12 numbers). The right-hand side is the chain pendulum
 * of [S2 V] for n = 2 written with the rod tensions T1, T2 as Lagrange
 * multipliers of |q_i| = 1, which reduces the linear system of (40) to 2×2:
 *   m1 l1 q̈1 = −m1 g e3 − T1 q1 + T2 q2,   m2 (l1 q̈1 + l2 q̈2) = −m2 g e3 − T2 q2,
 * with q_i·q̈_i = −|v_i|² fixing T1, T2. The bench checks once that the
 * resulting ω̇_i = q_i × q̈_i satisfy [S2 (40)] at the initial state.
 */
#define CL_PREC CL_MPFR
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ode.h"
#include "r3.h"
#include "s2_chain.h"
#include "bench.h"

typedef struct {
    mpfr_t m1, m2, l1, l2, g;
    mpfr_t im1, im2, il1, il2; /* 1/m1, 1/m2, 1/l1, 1/l2 */
} pendulum;

static void pendulum_init(pendulum *P, cl_prec_t prec)
{
    mpfr_inits2(prec, P->m1, P->m2, P->l1, P->l2, P->g, P->im1, P->im2, P->il1, P->il2, (mpfr_ptr)0);
    cl_real_from_str_mp(P->m1, "1");
    cl_real_from_str_mp(P->m2, "1");
    cl_real_from_str_mp(P->l1, "1");
    cl_real_from_str_mp(P->l2, "1");
    cl_real_from_str_mp(P->g, "9.81");
    r_si_div(P->im1, 1, P->m1);
    r_si_div(P->im2, 1, P->m2);
    r_si_div(P->il1, 1, P->l1);
    r_si_div(P->il2, 1, P->l2);
}

static void pendulum_clear(pendulum *P)
{
    mpfr_clears(P->m1, P->m2, P->l1, P->l2, P->g, P->im1, P->im2, P->il1, P->il2, (mpfr_ptr)0);
}

/* q̈1, q̈2 from (q, v); everything at the precision of the output. */
static void pendulum_accel(const pendulum *P, rsrc x, rptr a1, rptr a2)
{
    cl_prec_t p = r_prec(a1);
    rsrc q1 = x, q2 = x + 3, v1 = x + 6, v2 = x + 9;
    R_DECL(c, p); R_DECL(w1, p); R_DECL(w2, p); R_DECL(num, p); R_DECL(den, p);
    R_DECL(A, p); R_DECL(T2, p); R_DECL(s, p);
    rsrc im1 = P->im1, im2 = P->im2;
    v3_dot(c, q1, q2);
    v3_dot(w1, v1, v1);
    v3_dot(w2, v2, v2);
    /* A = T1/m1 = (c/m1) T2 + l1|v1|² − g q1z;
     * T2 = (l2|v2|² + c (l1|v1|² − g q1z)) / ((1 − c²)/m1 + 1/m2) */
    r_mul(w1, w1, P->l1);
    r_submul(w1, P->g, q1 + 2);
    r_mul(w2, w2, P->l2);
    r_fma(num, c, w1, w2);
    r_sqr(den, c);
    r_si_sub(den, 1, den);
    r_fma(den, den, im1, im2);
    r_div(T2, num, den);
    r_mul(A, c, T2);
    r_fma(A, A, im1, w1);
    /* l1 q̈1 = −g e3 − A q1 + (T2/m1) q2 */
    r_mul(s, T2, im1);
    for (int i = 0; i < 3; i++) {
        r_mul(a1 + i, s, q2 + i);
        r_submul(a1 + i, A, q1 + i);
    }
    r_sub(a1 + 2, a1 + 2, P->g);
    /* l2 q̈2 = A q1 − T2 (1/m1 + 1/m2) q2 */
    r_add(s, im1, im2);
    r_mul(s, s, T2);
    for (int i = 0; i < 3; i++) {
        r_mul(a2 + i, A, q1 + i);
        r_submul(a2 + i, s, q2 + i);
        r_mul(a2 + i, a2 + i, P->il2);
        r_mul(a1 + i, a1 + i, P->il1);
    }
}

static int pendulum_rhs(rptr dx, rsrc t, rsrc x, void *ctx)
{
    for (int i = 0; i < 6; i++) r_set(dx + i, x + 6 + i);
    pendulum_accel(ctx, x, dx + 6, dx + 9);
    return 0;
}

/* E = ½ m1 l1²|v1|² + ½ m2 |l1 v1 + l2 v2|² + g (m1 l1 q1z + m2 (l1 q1z + l2 q2z)). */
static void pendulum_energy(const pendulum *P, rsrc x, rptr E)
{
    cl_prec_t p = r_prec(E);
    RV_DECL(u, 3, p);
    R_DECL(s, p); R_DECL(w, p);
    v3_dot(s, x + 6, x + 6);
    r_mul(s, s, P->m1);
    r_mul(s, s, P->l1);
    r_mul(s, s, P->l1);
    for (int i = 0; i < 3; i++) {
        r_mul(u + i, P->l1, x + 6 + i);
        r_addmul(u + i, P->l2, x + 9 + i);
    }
    v3_dot(w, u, u);
    r_fma(s, w, P->m2, s);
    r_mul_2si(E, s, -1);
    r_add(s, P->m1, P->m2);
    r_mul(s, s, P->l1);
    r_mul(s, s, x + 2);
    r_mul(w, P->m2, P->l2);
    r_fma(s, w, x + 5, s);
    r_fma(E, P->g, s, E);
}

/* Residual of [S2 (40)] (no forces) with ω_i = q_i × v_i, ω̇_i = q_i × q̈_i:
 * M_ii l_i² ω̇_i + Σ_{j≠i} M_ij l_i l_j S(q_i)ᵀS(q_j) ω̇_j
 *   − Σ_{j≠i} M_ij l_i l_j |ω_j|² S(q_i) q_j − Σ_{j≥i} m_j g l_i S(e3) q_i,
 * M_11 = m1 + m2, M_12 = M_21 = M_22 = m2. Returns log2 of its largest entry. */
static double pendulum_residual40(const pendulum *P, rsrc x)
{
    cl_prec_t p = r_prec(x);
    RV_DECL(a, 6, p); RV_DECL(om, 6, p); RV_DECL(dom, 6, p); RV_DECL(res, 6, p);
    RV_DECL(u, 3, p); RV_DECL(w, 3, p); RV_DECL(e3, 3, p);
    RV_DECL(M, 4, p); RV_DECL(l, 2, p); RV_DECL(grav, 2, p);
    R_DECL(s, p); R_DECL(k, p);
    pendulum_accel(P, x, a, a + 3);
    r_add(M, P->m1, P->m2);
    r_set(M + 1, P->m2);
    r_set(M + 2, P->m2);
    r_set(M + 3, P->m2);
    r_set(l, P->l1);
    r_set(l + 1, P->l2);
    r_mul(grav, M, P->g);
    r_mul(grav + 1, P->m2, P->g);
    v3_set_d(e3, 0, 0, 1);
    for (int i = 0; i < 2; i++) {
        v3_cross(om + 3 * i, x + 3 * i, x + 6 + 3 * i);
        v3_cross(dom + 3 * i, x + 3 * i, a + 3 * i);
    }
    for (int i = 0; i < 2; i++) {
        rsrc qi = x + 3 * i;
        r_mul(k, l + i, l + i);
        r_mul(k, k, M + 3 * i);
        v3_scale(res + 3 * i, k, dom + 3 * i);
        int j = 1 - i;
        rsrc qj = x + 3 * j;
        r_mul(k, l + i, l + j);
        r_mul(k, k, M + 2 * i + j);
        /* S(q_i)ᵀ S(q_j) ω̇_j = −q_i × (q_j × ω̇_j) */
        v3_cross(u, qj, dom + 3 * j);
        v3_cross(u, qi, u);
        r_neg(s, k);
        v3_axpy(res + 3 * i, s, u);
        /* − M_ij l_i l_j |ω_j|² q_i × q_j */
        v3_dot(s, om + 3 * j, om + 3 * j);
        r_mul(s, s, k);
        r_neg(s, s);
        v3_cross(u, qi, qj);
        v3_axpy(res + 3 * i, s, u);
        /* − (Σ_{j≥i} m_j) g l_i e3 × q_i */
        v3_cross(w, e3, qi);
        r_mul(s, grav + i, l + i);
        r_neg(s, s);
        v3_axpy(res + 3 * i, s, w);
    }
    return cl_rvec_log2_maxabs_mp(res, 6);
}

/* A fixed generic state: q_i = w_i/|w_i|, v_i = (I − q_i q_iᵀ) u_i, from
 * decimal strings at the working precision. */
static void pendulum_state(rptr x)
{
    static const char *w[2][3] = {{"0.6", "0.3", "-0.74"}, {"-0.25", "0.8", "0.1"}};
    static const char *u[2][3] = {{"1.1", "-0.7", "0.4"}, {"-2.3", "0.9", "1.7"}};
    cl_prec_t p = r_prec(x);
    R_DECL(nrm, p);
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 3; k++) {
            cl_real_from_str_mp(x + 3 * i + k, w[i][k]);
            cl_real_from_str_mp(x + 6 + 3 * i + k, u[i][k]);
        }
        v3_norm(nrm, x + 3 * i);
        for (int k = 0; k < 3; k++) r_div(x + 3 * i + k, x + 3 * i + k, nrm);
        v3_proj_tangent(x + 6 + 3 * i, x + 3 * i, x + 6 + 3 * i);
    }
}

typedef struct {
    double t_start, budget;
} budget_ctx;

/* Observer that stops a run once it has used its CPU-time budget. */
static int obs_budget(rsrc t, rsrc x, size_t n, void *ctx)
{
    budget_ctx *b = ctx;
    return bench_cpu_seconds() - b->t_start > b->budget ? 1 : 0;
}

typedef struct {
    int rc;
    double cpu, t_reached;
    cl_ode_stats st;
} run_result;

/* Integrate x from 0 to T with the given method/tolerance (log2), at the
 * precision of x; budget ≤ 0 means none. */
static run_result run(cl_ode_method m, int param, rptr x, size_t n, const pendulum *P, double log2tol,
                      double budget)
{
    cl_prec_t p = r_prec(x);
    run_result r = {0};
    cl_ode_ws_mp *ws;
    r.rc = cl_ode_ws_new_mp(&ws, n, p, m, param);
    if (r.rc) return r;
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p); R_DECL(tol, p);
    r_set_si(tol, 1);
    r_mul_2si(tol, tol, (long)floor(log2tol));
    r_set_d(h, exp2(log2tol - floor(log2tol)));
    r_mul(tol, tol, h);
    r_set_zero(h);
    cl_ode_set_tol_mp(ws, tol, tol);
    budget_ctx b = {bench_cpu_seconds(), budget};
    if (budget > 0) cl_ode_set_observer_mp(ws, obs_budget, &b);
    r_set_si(t1, 2);
    double c0 = bench_cpu_seconds();
    r.rc = cl_ode_integrate_mp(ws, pendulum_rhs, (void *)P, t, x, t1, h, &r.st);
    r.cpu = bench_cpu_seconds() - c0;
    r.t_reached = r_get_d(t);
    cl_ode_ws_free_mp(ws);
    return r;
}

static void copy_to(rptr dst, rsrc src, size_t n)
{
    for (size_t i = 0; i < n; i++) r_set(dst + i, src + i);
}

/* ---- the chain of [S2 V] through cl_chain_rhs, as `chartless simulate --system chain` runs it ---- */

/* The command's benchmark: n = 2, m = l = 1, g = 9.81, (q, q̇) form, from
 * q1 = −e3, q2 = (0.6, 0, −0.8), q̇1 = e1, q̇2 = 2e2, to t = 2. */
static const char *const chain_x0[12] = {"0", "0", "-1", "0.6", "0", "-0.8", "1", "0", "0", "0", "2", "0"};

static int chain_field(rptr dx, rsrc t, rsrc x, void *ctx)
{
    (void)t;
    return cl_chain_rhs_mp(ctx, CL_S2_QDOT, dx, x);
}

/* A chain at precision p, its parameters read from decimal strings there. */
static cl_chain_mp *chain_at(cl_prec_t p)
{
    cl_rptr_mp par = cl_rvec_new_mp(5, p);
    cl_real_from_str_mp(par, "1");
    cl_real_from_str_mp(par + 1, "1");
    cl_real_from_str_mp(par + 2, "1");
    cl_real_from_str_mp(par + 3, "1");
    cl_real_from_str_mp(par + 4, "9.81");
    cl_chain_mp *ch = NULL;
    cl_chain_new_mp(&ch, 2, par, par + 2, par + 4, p);
    cl_rvec_free_mp(par);
    return ch;
}

/* Integrate the chain benchmark at p bits with method m to t = 2, the global
 * tolerance tol set with cl_ode_set_global_tol(); the field runs on a chain
 * made at the precision the method calls it with. x (12) is the result. */
static run_result chain_run(cl_ode_method m, cl_prec_t p, rsrc tol, rptr x)
{
    run_result r = {0};
    cl_ode_ws_mp *ws;
    for (int i = 0; i < 12; i++) cl_real_from_str_mp(x + i, chain_x0[i]);
    r.rc = cl_ode_ws_new_mp(&ws, 12, p, m, 0);
    if (r.rc) return r;
    cl_chain_mp *ch = chain_at(cl_ode_ws_rhs_prec_mp(ws));
    R_DECL(t, p); R_DECL(t1, p); R_DECL(h, p);
    cl_ode_set_global_tol_mp(ws, tol);
    r_set_si(t1, 2);
    double c0 = bench_cpu_seconds();
    r.rc = cl_ode_integrate_mp(ws, chain_field, ch, t, x, t1, h, &r.st);
    r.cpu = bench_cpu_seconds() - c0;
    r.t_reached = r_get_d(t);
    cl_chain_free_mp(ch);
    cl_ode_ws_free_mp(ws);
    return r;
}

/* Delivered global error against the requested tolerance at each rung, and
 * the 1024-bit target; references from GBS at 76 more bits, tolerance 10^−20 of the run's. */
static void chain_table(void)
{
    static const struct { cl_prec_t p; const char *tol; int rkf; } rows[] = {
        {53, "1e-10", 1}, {113, "1e-28", 1}, {256, "1e-70", 0}, {512, "1e-150", 0}, {1024, "1e-300", 0}};
    printf("\nchain n = 2 [S2 V] through cl_chain_rhs (what `chartless simulate --system chain --n 2` runs),\n"
           "q1 = -e3, q2 = (0.6, 0, -0.8), qdot1 = e1, qdot2 = 2 e2, t in [0, 2]; --tol is the global error asked for\n");
    printf("%5s %7s %6s | %8s %6s %4s %8s %9s %10s\n", "bits", "tol", "method", "cpu", "steps", "rej", "evals",
           "err", "err/tol");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        cl_prec_t p = rows[i].p, pr = p + 76;
        cl_rptr_mp x = cl_rvec_new_mp(12, p), xr = cl_rvec_new_mp(12, pr);
        R_DECL(tol, p); R_DECL(tolr, pr);
        cl_real_from_str_mp(tol, rows[i].tol);
        cl_real_from_str_mp(tolr, rows[i].tol);
        r_mul_2si(tolr, tolr, -66);
        run_result ref = chain_run(CL_ODE_GBS, pr, tolr, xr);
        if (ref.rc) printf("reference failed at %ld bits: %s\n", (long)pr, cl_strerror(ref.rc));
        for (int k = 0; k < 2; k++) {
            cl_ode_method m = k == 0 ? CL_ODE_GBS : CL_ODE_RKF78;
            if (k == 1 && !rows[i].rkf) continue;
            run_result r = chain_run(m, p, tol, x);
            double e = bench_scaled_error(x, xr, 12);
            printf("%5ld %7s %6s | %7.3fs %6ld %4ld %8ld %9.2e %10.3g%s\n", (long)p, rows[i].tol,
                   cl_ode_method_name(m), r.cpu, r.st.steps, r.st.rejected, r.st.rhs_evals, e,
                   e / r_get_d(tol), r.rc ? " (failed)" : "");
        }
        cl_rvec_free_mp(x);
        cl_rvec_free_mp(xr);
    }
    printf("err: max_i |x_i - x_ref,i| / (1 + |x_ref,i|) at t = 2 (the measure of rtol = atol = tol)\n");
}

static const char about[] =
    "The high-precision integrators on the double spherical pendulum [S2 V]\n"
    "(m = l = 1, g = 9.81) from a fixed state to t = 2: Gragg-Bulirsch-Stoer\n"
    "(columns from the precision) against Fehlberg 7(8) at the same tolerance, at\n"
    "113, 256 and 1024 bits (RKF78 stopped after 5 s of CPU and extrapolated).\n"
    "Prints the CPU time, steps, rejections, evaluations, the error against a GBS\n"
    "run at 32 more bits, and the energy drift.\n";

static const bench_option options[] = {
    {"--chain", "instead, the table behind simulate --tol: the delivered error\n"
                 "               max |x - x*| / (1 + |x*|) over the requested tolerance, for GBS\n"
                 "               at 53 to 1024 bits and RKF78 at 53 and 113, against GBS at 76 more bits\n"},
    {"--sweep", "also time GBS for a range of column counts at each precision\n"
                 "               (how cl_ode_gbs_default_columns() was chosen)\n"},
    {NULL, NULL},
};

static int measure(int option)
{
    enum { CHAIN, SWEEP }; /* the options' order */
    int sweep = option == SWEEP;
    if (option == CHAIN) {
        chain_table();
        return 0;
    }
    /* the three rows asked for, and 256 bits at a tolerance that gives an error below 1e-70 */
    enum { NROW = 4 };
    const cl_prec_t precs[NROW] = {113, 256, 256, 1024};
    const char *tolstr[NROW] = {"1e-30", "1e-70", "1e-72", "1e-300"};
    const int tolexp[NROW] = {-30, -70, -72, -300};
    const size_t n = 12;
    const double rkf_budget = 5.0;

    {
        pendulum P;
        pendulum_init(&P, 256);
        cl_rptr_mp x = cl_rvec_new_mp(n, 256);
        pendulum_state(x);
        printf("double spherical pendulum [S2 V], m1 = m2 = l1 = l2 = 1, g = 9.81, t in [0, 2]\n");
        printf("check: residual of [S2 (40)] at the initial state, 256 bits: 2^%.1f\n\n", pendulum_residual40(&P, x));
        cl_rvec_free_mp(x);
        pendulum_clear(&P);
    }
    printf("%5s %7s %4s | %8s %6s %4s %8s %8s %9s | %9s %8s %8s %9s\n", "bits", "tol", "k", "GBS cpu", "steps",
           "rej", "evals", "err", "dE", "RKF78 cpu", "steps", "err", "RKF/GBS");
    for (int ip = 0; ip < NROW; ip++) {
        cl_prec_t p = precs[ip], pr = p + 32;
        double log2tol = tolexp[ip] * log2(10.0);
        pendulum P, Pr;
        pendulum_init(&P, p);
        pendulum_init(&Pr, pr);
        cl_rptr_mp x0 = cl_rvec_new_mp(n, p), x = cl_rvec_new_mp(n, p), xr = cl_rvec_new_mp(n, pr);
        cl_rptr_mp d = cl_rvec_new_mp(n, pr);
        pendulum_state(x0);
        /* reference: same initial numbers (exact at pr bits), tolerance 2^(16−pr) */
        copy_to(xr, x0, n);
        run_result ref = run(CL_ODE_GBS, 0, xr, n, &Pr, 16.0 - (double)pr, 0);
        if (ref.rc) {
            printf("reference failed at %ld bits: %s\n", (long)pr, cl_strerror(ref.rc));
            return 1;
        }
        R_DECL(E0, p); R_DECL(E1, p);
        pendulum_energy(&P, x0, E0);

        copy_to(x, x0, n);
        run_result gb = run(CL_ODE_GBS, 0, x, n, &P, log2tol, 0);
        double egb = cl_rvec_log2_maxdiff_mp(x, xr, n);
        pendulum_energy(&P, x, E1);
        r_sub(E1, E1, E0);
        double dE = r_log2abs(E1);

        copy_to(x, x0, n);
        run_result rk = run(CL_ODE_RKF78, 0, x, n, &P, log2tol, rkf_budget);
        double erk = rk.rc == 0 ? cl_rvec_log2_maxdiff_mp(x, xr, n) : NAN;
        /* a run stopped by its budget is extrapolated linearly in t */
        double rk_cpu = rk.rc == CL_ODE_STOPPED ? rk.cpu * 2.0 / rk.t_reached : rk.cpu;
        double rk_steps = rk.rc == CL_ODE_STOPPED ? rk.st.steps * 2.0 / rk.t_reached : (double)rk.st.steps;
        char rkerr[24] = "-";
        if (rk.rc == 0) snprintf(rkerr, sizeof rkerr, "10^%.1f", erk * 0.30103);
        int stopped = rk.rc == CL_ODE_STOPPED;
        printf("%5ld %7s %4d | %7.3fs %6ld %4ld %8ld 10^%-5.1f 10^%-5.1f | %8.3gs%s %8.3g%s %8s %8.3g%s\n", (long)p,
               tolstr[ip], cl_ode_gbs_default_columns(p), gb.cpu, gb.st.steps, gb.st.rejected, gb.st.rhs_evals,
               egb * 0.30103, dE * 0.30103, rk_cpu, stopped ? "*" : " ", rk_steps, stopped ? "*" : " ", rkerr,
               rk_cpu / gb.cpu, stopped ? "*" : "");
        if (gb.rc) printf("GBS failed: %s\n", cl_strerror(gb.rc));
        if (rk.rc && rk.rc != CL_ODE_STOPPED) printf("RKF78 failed: %s\n", cl_strerror(rk.rc));

        if (sweep && p < 1024) {
            int k0 = cl_ode_gbs_default_columns(p);
            for (int k = k0 / 2 > 2 ? k0 / 2 : 2; k <= 2 * k0 && k <= CL_ODE_GBS_MAX_COLUMNS; k += (k0 + 7) / 8) {
                copy_to(x, x0, n);
                run_result s = run(CL_ODE_GBS, k, x, n, &P, log2tol, 60.0);
                double e = cl_rvec_log2_maxdiff_mp(x, xr, n);
                printf("   sweep %ld bits k = %3d: %7.3fs %5ld steps %4ld rejected %8ld evals  err 10^%.1f%s\n", (long)p,
                       k, s.cpu, s.st.steps, s.st.rejected, s.st.rhs_evals, e * 0.30103,
                       s.rc ? " (stopped)" : "");
            }
        }
        cl_rvec_free_mp(x0);
        cl_rvec_free_mp(x);
        cl_rvec_free_mp(xr);
        cl_rvec_free_mp(d);
        pendulum_clear(&P);
        pendulum_clear(&Pr);
    }
    printf("\nerr: max |x - x_ref| over the 12 state entries at t = 2; x_ref from GBS at 32 more bits,\n"
           "tolerance 2^(16 - bits); dE: energy change over the run. CPU time of this process.\n"
           "* RKF78 stopped after %.0f s of CPU time; its time and steps are extrapolated linearly to t = 2.\n",
           rkf_budget);
    return 0;
}

BENCH_MAIN("bench_ode", about, options, measure)

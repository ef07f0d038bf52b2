/*
 * One right-hand-side evaluation of the chain pendulum in (q, ω) [S2 (40)]:
 * the O(n) tension solve (cl_chain_rhs) against the dense 3n×3n solve of
 * Corollary 2 (cl_s2_quad_rhs_omega), in double and at 256 bits, side by
 * side as ratios, with the largest difference of the two fields. The dense
 * solve at 256 bits and n = 512 (about 2·10⁹ MPFR operations, minutes) is
 * left out. Then the set-up time and memory of long chains (n = 10⁵ at 53
 * bits, 10⁴ at 256): the O(n) field keeps an O(n) workspace, the dense one
 * is made only when cl_chain_ws() is asked for.
 */
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include "chartless.h"
#include "s2_chain.h"
#include "bench.h"

static void set_d_d(double *v, double a) { *v = a; }
static void set_d_mp(mpfr_ptr v, double a) { mpfr_set_d(v, a, MPFR_RNDN); }
static void set_g_d(double *v) { cl_real_from_str_d(v, "9.81"); }
static void set_g_mp(mpfr_ptr v) { cl_real_from_str_mp(v, "9.81"); }

/* One table for scalar kind S (_d or _mp) at precision P. */
#define DEFINE_RUN(S, RPTR)                                                                     \
    static double time_##S(cl_chain##S *ch, int dense, RPTR dx, RPTR x)                         \
    {                                                                                           \
        double t;                                                                               \
        BENCH_SECONDS_PER_CALL(t, 0.2,                                                          \
            if (dense) cl_s2_quad_rhs_omega##S(cl_chain_ws##S(ch), dx, x);                      \
            else cl_chain_rhs##S(ch, CL_S2_OMEGA, dx, x));                                      \
        return t;                                                                               \
    }                                                                                           \
    static void run##S(cl_prec_t p, const char *kind)                                           \
    {                                                                                           \
        static const size_t ns[] = {2, 8, 32, 128, 512};                                        \
        cl_rng g;                                                                               \
        cl_rng_seed(&g, 99);                                                                    \
        printf("%-9s %5s %13s %13s %9s %10s\n", kind, "n", "O(n) s/call", "dense s/call",       \
               "ratio", "max|diff|");                                                           \
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {                                 \
            size_t n = ns[k];                                                                   \
            RPTR par = cl_rvec_new##S(2 * n + 7, p);                                            \
            for (size_t i = 0; i < n; i++) {                                                    \
                set_d##S(par + i, cl_rng_range(&g, 0.5, 2));                                    \
                set_d##S(par + n + i, cl_rng_range(&g, 0.5, 1.5));                              \
            }                                                                                   \
            set_g##S(par + 2 * n);                                                              \
            for (int c = 0; c < 6; c++) set_d##S(par + 2 * n + 1 + c, cl_rng_range(&g, -1, 1)); \
            cl_chain##S *ch = NULL;                                                             \
            if (cl_chain_new##S(&ch, n, par, par + n, par + 2 * n, p)) return;                  \
            cl_chain_set_control##S(ch, par + 2 * n + 1, par + 2 * n + 4);                      \
            RPTR x = cl_rvec_new##S(6 * n, p), a = cl_rvec_new##S(6 * n, p),                    \
                 b = cl_rvec_new##S(6 * n, p), v = cl_rvec_new##S(3 * n, p);                    \
            for (size_t i = 0; i < n; i++) {                                                    \
                cl_v3_random_unit##S(x + 3 * i, &g);                                            \
                cl_v3_random_tangent##S(v + 3 * i, x + 3 * i, 1.0, &g);                         \
            }                                                                                   \
            cl_s2n_omega_from_qdot##S(n, x + 3 * n, x, v);                                      \
            double t_on = time_##S(ch, 0, a, x);                                                \
            if (p > 53 && n > 128) {                                                            \
                printf("%-9s %5zu %13.3e %13s\n", "", n, t_on, "(left out)");                   \
            } else {                                                                            \
                double t_dense = time_##S(ch, 1, b, x);                                         \
                printf("%-9s %5zu %13.3e %13.3e %9.1f %10.1e\n", "", n, t_on, t_dense,          \
                       t_dense / t_on, exp2(cl_rvec_log2_maxdiff##S(a, b, 6 * n)));             \
            }                                                                                   \
            fflush(stdout);                                                                     \
            cl_rvec_free##S(x); cl_rvec_free##S(a); cl_rvec_free##S(b); cl_rvec_free##S(v);     \
            cl_rvec_free##S(par);                                                               \
            cl_chain_free##S(ch);                                                               \
        }                                                                                       \
    }

DEFINE_RUN(_d, cl_rptr_d)
DEFINE_RUN(_mp, cl_rptr_mp)

/* Resident memory of this process in MB (/proc/self/statm), or -1. */
static double rss_mb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = -1, res = -1;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = -1;
        fclose(f);
    }
    return res < 0 ? -1.0 : (double)res * (double)sysconf(_SC_PAGESIZE) / 1048576.0;
}

/* Memory and set-up time of a long chain in MPFR, as `chartless rhs --system chain --n N` has it:
   the O(n) field's workspace (34n + 7 numbers) and one evaluation. */
static void long_chain(size_t n, cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 7);
    double m0 = rss_mb(), t0 = bench_cpu_seconds();
    mpfr_ptr par = cl_rvec_new_mp(2 * n + 1, p), x = cl_rvec_new_mp(6 * n, p), dx = cl_rvec_new_mp(6 * n, p);
    cl_chain_mp *ch = NULL;
    if (par) {
        for (size_t i = 0; i < 2 * n; i++) mpfr_set_ui(par + i, 1, MPFR_RNDN);
        set_g_mp(par + 2 * n);
    }
    if (!par || !x || !dx || cl_chain_new_mp(&ch, n, par, par + n, par + 2 * n, p)) {
        printf("%8zu %5ld  could not be set up\n", n, (long)p);
        cl_rvec_free_mp(par);
        cl_rvec_free_mp(x);
        cl_rvec_free_mp(dx);
        return;
    }
    double t_setup = bench_cpu_seconds() - t0;
    for (size_t i = 0; i < n; i++) {
        cl_v3_random_unit_mp(x + 3 * i, &g);
        cl_v3_random_tangent_mp(x + 3 * (n + i), x + 3 * i, 1.0, &g);
    }
    double t1 = bench_cpu_seconds();
    int st = cl_chain_rhs_mp(ch, CL_S2_OMEGA, dx, x);
    double t_rhs = bench_cpu_seconds() - t1, m1 = rss_mb();
    printf("%8zu %5ld %10.3f s %10.3f s %10.0f MB%s\n", n, (long)p, t_setup, t_rhs, m1 - m0, st ? " (failed)" : "");
    cl_chain_free_mp(ch);
    cl_rvec_free_mp(par);
    cl_rvec_free_mp(x);
    cl_rvec_free_mp(dx);
}

static const char about[] =
    "One evaluation of the chain pendulum's (q, omega) field [S2 (40)]: the O(n)\n"
    "tension solve (cl_chain_rhs) against the dense 3n x 3n solve of Corollary 2\n"
    "(cl_s2_quad_rhs_omega), in double and at 256 bits, as CPU time per call and\n"
    "ratio, with the largest difference of the two fields (the dense solve at 256\n"
    "bits and n = 512 is left out). Then the set-up time, one evaluation and the\n"
    "memory of long chains: n = 10^4 at 256 bits and n = 10^5 at 53 bits.\n";

static int measure(int option)
{
    printf("chain pendulum, one evaluation of the (q, omega) field [S2 (40)]: O(n) vs dense 3n x 3n LU\n");
    bench_both_kinds(run_d, run_mp);
    printf("\nlong chains in MPFR: set-up (parameters, chain, O(n) workspace), one (q, omega) evaluation,\n"
           "and the memory they take (state, field and parameters included)\n");
    printf("%8s %5s %12s %12s %13s\n", "n", "bits", "set-up", "one rhs", "memory");
    long_chain(10000, 256); /* the smaller first: memory freed by one is reused by the next */
    long_chain(100000, 53);
    return 0;
}

BENCH_MAIN("bench_chain", about, NULL, measure)

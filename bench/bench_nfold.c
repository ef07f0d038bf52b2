/*
 * Cost of one Lie group step (RKMK4, closed-form dexp⁻¹) of the N-fold
 * pendulum [NFOLD (9)] against N, in double and at 256 bits: steps per
 * second and time per step per link (flat when the cost grows linearly).
 * Then, at N = 64, the same step with h from the dense 3N×3N solve of
 * R(q) h = r assembled at every stage (as the public reference
 * implementations do), side by side as a ratio. Times are process CPU
 * time, so other load on the machine does not enter.
 */
#include <math.h>
#include <stdio.h>
#include "chartless.h"
#include "bench.h"

static void set_q_d(double *v, long a, long b) { *v = (double)a / (double)b; }
static void set_q_mp(mpfr_ptr v, long a, long b) { mpfr_set_si(v, a, MPFR_RNDN); mpfr_div_si(v, v, b, MPFR_RNDN); }
static void set_g_d(double *v) { cl_real_from_str_d(v, "9.81"); }
static void set_g_mp(mpfr_ptr v) { cl_real_from_str_mp(v, "9.81"); }

#define DEFINE_RUN(S, RPTR)                                                                    \
    static cl_nfold##S *make##S(size_t n, cl_prec_t p, int dense)                              \
    {                                                                                          \
        RPTR par = cl_rvec_new##S(2 * n + 1, p);                                               \
        for (size_t i = 0; i < n; i++) {                                                       \
            set_q##S(par + i, 3 + (long)(i % 3), 4);                                           \
            set_q##S(par + n + i, 5 + (long)((2 * i) % 5), 8);                                 \
        }                                                                                      \
        set_g##S(par + 2 * n);                                                                 \
        cl_nfold##S *s;                                                                        \
        cl_nfold_new##S(&s, n, par, par + n, par + 2 * n, p, dense);                           \
        cl_rvec_free##S(par);                                                                  \
        return s;                                                                              \
    }                                                                                          \
    /* Seconds per RKMK4 step of size 1/1000 (at least 0.3 s of steps, at least one). */       \
    static double step_time##S(cl_nfold##S *s, cl_prec_t p, int dense)                         \
    {                                                                                          \
        size_t n = s->n;                                                                       \
        cl_rng g;                                                                              \
        cl_rng_seed(&g, 5);                                                                    \
        RPTR y = cl_rvec_new##S(6 * n + 1, p);                                                 \
        RPTR h = y + 6 * n;                                                                    \
        for (size_t i = 0; i < n; i++) {                                                       \
            cl_v3_random_unit##S(y + 3 * i, &g);                                               \
            cl_v3_random_tangent##S(y + 3 * (n + i), y + 3 * i, 0.5, &g);                      \
        }                                                                                      \
        set_q##S(h, 1, 1000);                                                                  \
        cl_lie_problem##S pb;                                                                  \
        cl_nfold_lie_problem##S(s, &pb, dense);                                                \
        cl_lie_integrator##S *w;                                                               \
        cl_lie_new##S(&w, &pb, CL_LIE_RKMK4, p);                                               \
        double t;                                                                              \
        BENCH_SECONDS_PER_CALL(t, 0.3, cl_lie_step##S(w, y, h));                               \
        cl_lie_free##S(w);                                                                     \
        cl_rvec_free##S(y);                                                                    \
        return t;                                                                              \
    }                                                                                          \
    static void scaling##S(cl_prec_t p, const char *kind)                                      \
    {                                                                                          \
        printf("%-10s %5s %14s %14s %18s\n", kind, "N", "steps/s", "s/step", "s/(step*link)"); \
        for (size_t n = 2; n <= 512; n *= 2) {                                                 \
            cl_nfold##S *s = make##S(n, p, 0);                                                 \
            double t = step_time##S(s, p, 0);                                                  \
            printf("%-10s %5zu %14.1f %14.3e %18.3e\n", "", n, 1.0 / t, t, t / (double)n);     \
            fflush(stdout);                                                                    \
            cl_nfold_free##S(s);                                                               \
        }                                                                                      \
    }                                                                                          \
    static void ratio##S(cl_prec_t p, const char *kind)                                        \
    {                                                                                          \
        size_t n = 64;                                                                         \
        cl_nfold##S *s = make##S(n, p, 1);                                                     \
        double t_on = step_time##S(s, p, 0), t_dense = step_time##S(s, p, 1);                  \
        printf("%-10s N = 64: O(N) step %.3e s, dense step %.3e s, ratio dense/O(N) = %.0f\n", \
               kind, t_on, t_dense, t_dense / t_on);                                           \
        fflush(stdout);                                                                        \
        cl_nfold_free##S(s);                                                                   \
    }

DEFINE_RUN(_d, double *)
DEFINE_RUN(_mp, mpfr_ptr)

static const char about[] =
    "One Lie group step (RKMK4, closed-form dexp^-1) of the N-fold pendulum\n"
    "[NFOLD (9)] against N, in double and at 256 bits: steps per second and CPU\n"
    "time per step per link (flat when the cost grows linearly in N). Then, at\n"
    "N = 64, the same step with h from the dense 3N x 3N solve of R(q) h = r at\n"
    "every stage, as a ratio.\n";

static int measure(int option)
{
    printf("RKMK4 step of the N-fold pendulum (4 evaluations of f [NFOLD (9)], 4 exp, 3 dexp^-1 per link)\n");
    bench_both_kinds(scaling_d, scaling_mp);
    printf("\nthe same step with h from the dense 3N x 3N solve of R(q) h = r at every stage\n");
    bench_both_kinds(ratio_d, ratio_mp);
    return 0;
}

BENCH_MAIN("bench_nfold", about, NULL, measure)

/*
 * Certified against floating verdicts on a map of the spinning skate: a
 * grid of cells (Ω₀, (I₂ − I₃)/I₃) around the paper's skate (m = 2, l = 0.8,
 * g = 9.8, I₁ = 0.35, I₃ = 0.004, I₂ = I₃(1 + ratio)), each cell's
 * Energy–Casimir verdict and margin at the spinning equilibrium (41)
 * computed by cl_skate_spinning_verdict_mp (MPFR) and by
 * cl_skate_spinning_verdict_arb (Arb balls) at the same precision. Reports the time per
 * cell of each and their ratio, the cells left undecided and whether every
 * decided ball verdict agrees with MPFR's. Each timing is the best of 3 runs
 * over the whole grid.
 */
#include <math.h>
#include <stdio.h>
#include "chartless.h"
#include "bench.h"

#define NO 40
#define NR 25

/* cell (i, j): Ω₀ = 0.5 + 9.5 i/(NO − 1), ratio = 100 + 200 j/(NR − 1), so I₂ from 0.404 to 1.204
   and the threshold (42) from 4.2 to 13.9: the grid crosses it */
static void cell(char *om, char *i2, int i, int j)
{
    snprintf(om, 32, "%.6f", 0.5 + 9.5 * i / (NO - 1));
    snprintf(i2, 32, "%.6f", 0.004 * (1.0 + 100.0 + 200.0 * j / (NR - 1)));
}

/* The verdict of every cell into v, in MPFR (_mp) or on balls containing the decimals (_arb); 0 or the first failure. */
#define DEFINE_GRID(S, PTR)                                                                  \
    static int grid##S(int v[NO][NR], PTR par, PTR x)                                        \
    {                                                                                        \
        char om[32], i2[32];                                                                 \
        int st = CL_OK;                                                                      \
        for (int i = 0; i < NO && !st; i++)                                                  \
            for (int j = 0; j < NR && !st; j++) {                                            \
                cell(om, i2, i, j);                                                          \
                st = cl_real_from_str##S(par + CL_SKATE_I2, i2);                             \
                st = st ? st : cl_real_from_str##S(x, om);                                   \
                st = st ? st : cl_skate_spinning_verdict##S(&v[i][j], x + 1, par, x);        \
            }                                                                                \
        return st;                                                                           \
    }
DEFINE_GRID(_mp, mpfr_ptr)
DEFINE_GRID(_arb, arb_ptr)

static int run(cl_prec_t p)
{
    static const char *const base[CL_SKATE_NPAR] = {"2", "0.8", "9.8", "0.35", "0.35", "0.004", "0", "0", "0"};
    mpfr_ptr pm = cl_rvec_new_mp(CL_SKATE_NPAR, p), vm = cl_rvec_new_mp(16, p);
    cl_arb_set_prec(p);
    arb_ptr pa = cl_rvec_new_arb(CL_SKATE_NPAR, p), va = cl_rvec_new_arb(16, p);
    static int vmp[NO][NR], varb[NO][NR];
    double tm = INFINITY, ta = INFINITY;
    int st = CL_OK;
    for (int k = 0; k < CL_SKATE_NPAR; k++) {
        st = st ? st : cl_real_from_str_mp(pm + k, base[k]);
        st = st ? st : cl_real_from_str_arb(pa + k, base[k]);
    }
    if (!st) BENCH_BEST_SECONDS_PER_CALL(tm, 3, 0, st = st ? st : grid_mp(vmp, pm, vm));
    if (!st) BENCH_BEST_SECONDS_PER_CALL(ta, 3, 0, st = st ? st : grid_arb(varb, pa, va));
    int undecided = 0, disagree = 0, stable = 0;
    for (int i = 0; i < NO; i++)
        for (int j = 0; j < NR; j++) {
            if (varb[i][j] == CL_UNDECIDED) undecided++;
            else if (varb[i][j] != vmp[i][j]) disagree++;
            stable += vmp[i][j] == 1;
        }
    if (st) printf("  failed: %s\n", cl_strerror(st));
    else
        printf("%5ld bits  %4d cells (%d stable)  MPFR %8.1f us/cell  Arb %8.1f us/cell  ratio %.2f  undecided %d  "
               "disagreeing %d\n",
               (long)p, NO * NR, stable, 1e6 * tm / (NO * NR), 1e6 * ta / (NO * NR), ta / tm, undecided, disagree);
    cl_rvec_free_mp(pm); cl_rvec_free_mp(vm);
    cl_rvec_free_arb(pa); cl_rvec_free_arb(va);
    return st || disagree ? 1 : 0;
}

static const char about[] =
    "Certified (Arb balls) against floating (MPFR) Energy-Casimir verdicts on a map\n"
    "of the spinning skate [SKATE (41), (42)]: a grid of 40 x 25 cells (Omega0 from\n"
    "0.5 to 10, (I2 - I3)/I3 from 100 to 300) around the paper's skate, each cell's\n"
    "verdict and margin by cl_skate_spinning_verdict_mp and _arb at 64, 128, 256\n"
    "and 1024 bits. Prints the CPU time per cell of each and their ratio, the cells\n"
    "the balls leave undecided, and whether every decided ball verdict agrees with\n"
    "MPFR's (exit status 1 if not). Each time is the best of 3 runs over the grid.\n";

static int measure(int option)
{
    printf("certified (Arb) against MPFR Energy-Casimir verdicts, spinning skate, grid Omega0 x (I2-I3)/I3\n");
    int bad = 0;
    static const cl_prec_t ps[] = {64, 128, 256, 1024};
    for (int k = 0; k < 4; k++) bad |= run(ps[k]);
    cl_free_caches();
    return bad;
}

BENCH_MAIN("bench_certify", about, NULL, measure)

/*
 * The tracing kind (trace.h): templated code run on traced scalars writes
 * a graph that, evaluated (expr.h) at the working precision, computes what
 * the same code computes in the kind under test. Constants exactly (a
 * quotient of integers, a double, a power of two far outside double's
 * range, π, the unit roundoff): the graph's value equals the kind's, bit for
 * bit, since each is one correctly rounded operation on exact inputs. A
 * linear solve (linalg, with pivoting) traced at one point and evaluated at
 * another against cl_linsolve there: the same rational function, to
 * 2^(1−p) times a factor 2^8 (a diagonally dominant 4×4 system, condition
 * below 10, and elimination's growth), with the pivots frozen at the traced
 * point where they differ from those chosen at the other. The trace's own errors.
 */
#include <stdlib.h>
#include "tap_main.h"
#include "expr.h"
#include "linalg.h"
#include "trace.h"

enum { N = 4, NIN = N * N + N };
/* a power of two beyond double's range in MPFR (its denominator 2^1100 too); within it in double */
#if CL_PREC == CL_DOUBLE
#define BIGEXP (-1000)
#define BIGEXP_S "-1000"
#else
#define BIGEXP (-1100)
#define BIGEXP_S "-1100"
#endif

/* the value of node id of g at inputs x (NULL: none), at precision p, into r */
static int eval_node(rptr r, const cl_expr_dag *g, int id, rsrc x, cl_prec_t p)
{
    CL_FN(cl_expr_eval) *ev = NULL;
    RV_DECL(none, 1, p);
    int st = CL_FN(cl_expr_eval_new)(&ev, g, p);
    if (!st) st = CL_FN(cl_expr_eval_run)(ev, x ? x : none, (int)cl_expr_dag_size(g) - 1, 0);
    if (!st) r_set(r, CL_FN(cl_expr_eval_value)(ev, id));
    CL_FN(cl_expr_eval_free)(ev);
    return st;
}

static void test_constants(cl_prec_t p)
{
    cl_expr_dag *g = NULL;
    cl_expr_dag_new(&g);
    ok(cl_trace_begin(g, p) == CL_OK, "trace begun [%s, %ld bits]", TEST_KIND, (long)p);
    ok(cl_trace_begin(g, p) == CL_EPARAM, "a second trace on the thread: CL_EPARAM [%s]", TEST_KIND);
    mpfr_t w;
    mpfr_init2(w, 200);
    mpfr_set_ui(w, 3, MPFR_RNDN);
    mpfr_div_ui(w, w, 7, MPFR_RNDN); /* 3/7 rounded to 200 bits: a 200-bit mantissa over 2^201 */
    /* the nodes of r_set_q(1, 10), r_set_d(0.1), 2^-1100 (r_mul_2si), -7 and an MPFR number (r_set_mpfr) */
    int id[5] = {cl_trace_node(CL_EXPR_DIV, cl_trace_const_si(1), cl_trace_const_si(10), 0), cl_trace_const_double(0.1),
                 cl_trace_const_2exp(BIGEXP), cl_trace_const_si(-7), cl_trace_const_mpfr(w)};
    cl_real_tr s;
    int st = cl_real_from_str_tr(s, "-2.5e-3");
    ok(st == CL_OK && s->v == -2.5e-3, "cl_real_from_str on the tracing kind: a constant node valued -2.5e-3 [%s]", TEST_KIND);
    ok(cl_trace_end() == CL_OK, "trace ended [%s]", TEST_KIND);
    R_DECL(got, p); R_DECL(want, p);
    const char *what[6] = {"r_set_q(1, 10)", "r_set_d(0.1)", "2^" BIGEXP_S, "-7", "3/7 at 200 bits (r_set_mpfr)", "-2.5e-3 (decimal)"};
    for (int i = 0; i < 6; i++) {
        switch (i) {
        case 0: r_set_q(want, 1, 10); break;
        case 1: r_set_d(want, 0.1); break;
        case 2: r_set_si(want, 1); r_mul_2si(want, want, BIGEXP); break;
        case 3: r_set_si(want, -7); break;
        case 4: r_set_mpfr(want, w, MPFR_RNDN); break;
        default: CL_FN(cl_real_from_str)(want, "-2.5e-3"); break;
        }
        int e = eval_node(got, g, i < 5 ? id[i] : s->id, NULL, p);
        int same = r_cmp(got, want) == 0 && !r_is_zero(want) == !r_is_zero(got);
        if (e) diag("  evaluation: %s", cl_strerror(e));
        ok(e == CL_OK && same, "traced %s evaluates to the kind's own value, exactly [%s, %ld bits]", what[i], TEST_KIND, (long)p);
    }
    mpfr_clear(w);
    cl_expr_dag_free(g);
}

/* A (4×4, 4 + U(−1, 1) on the diagonal, U(−1, 1) off it) and b, in x */
static void random_system(double *x, cl_rng *rng)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) x[i * N + j] = cl_rng_range(rng, -1, 1) + (i == j ? 4 : 0);
    for (int i = 0; i < N; i++) x[N * N + i] = cl_rng_range(rng, -1, 1);
    /* the first column's largest entry below the diagonal, so that pivoting swaps rows at the traced point */
    x[3 * N] = 9;
}

static void test_solve(cl_prec_t p)
{
    cl_rng rng;
    cl_rng_seed(&rng, 3401);
    double x0[NIN], x1[NIN];
    random_system(x0, &rng);
    random_system(x1, &rng);
    x1[3 * N] = 0.5; /* at the point evaluated, no swap: the frozen pivots are not the ones chosen there */
    cl_expr_dag *g = NULL;
    cl_expr_dag_new(&g);
    cl_trace_begin(g, p);
    cl_trace_scalar in[NIN], sol[N];
    cl_trace_inputs(in, x0, NIN);
    int st = cl_linsolve_tr(sol, in, in + N * N, N);
    int tst = cl_trace_end();
    ok(st == CL_OK && tst == CL_OK, "cl_linsolve traced [%s, %ld bits]", TEST_KIND, (long)p);
    RV_DECL(X, NIN, p); RV_DECL(want, N, p); R_DECL(got, p);
    for (int i = 0; i < NIN; i++) r_set_d(X + i, x1[i]);
    st = CL_FN(cl_linsolve)(want, X, X + N * N, N);
    for (int i = 0; i < N; i++) {
        char what[96];
        snprintf(what, sizeof what, "x_%d of A x = b: the traced solve at another point against cl_linsolve there", i);
        if (eval_node(got, g, sol[i].id, X, p) || st) ok(0, "%s (not evaluated)", what);
        else is_real(got, want + i, 256, what);
    }
    cl_expr_dag_free(g);
}

static void test_errors(cl_prec_t p)
{
    ok(cl_trace_begin(NULL, p) == CL_EPARAM, "no graph: CL_EPARAM [%s]", TEST_KIND);
    ok(cl_trace_const_si(1) < 0 && cl_trace_end() == CL_ENOMEM,
       "a node asked for outside a trace: id -1, and the next end reports it [%s]", TEST_KIND);
    ok(cl_trace_end() == CL_OK, "the report cleared by that end [%s]", TEST_KIND);
}

static void run(cl_prec_t p)
{
    test_constants(p);
    test_solve(p);
    test_errors(p);
}

int main(void) { return cl_test_main(run); }

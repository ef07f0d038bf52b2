/*
 * The Taylor integrator of src/taylor.c on the ladder, on a field in R¹²
 * whose every component has a closed-form solution and which takes every
 * node kind's coefficient rule (sin and cos alone and as a pair, tan, exp,
 * log, sqrt, whole powers as products and by Miller's recurrence, a
 * division by a series, atan2, products of two series, the time input):
 *
 *   x0' = sin x0 (sin² 2x0 + cos² 2x0) x0 = 2 atan(tan(1/2) eᵗ)
 *   x1' = cos x1                       x1 = asin(tanh(t + atanh(sin 1/2)))
 *   x2' = tan x2                       x2 = asin(sin(0.3) eᵗ)
 *   x3' = −x3 log x3                   x3 = exp(log(1/2) e⁻ᵗ)
 *   x4' = exp(−x4)                     x4 = log(t + e^0.2)
 *   x5' = √x5                          x5 = (√0.6 + t/2)²
 *   x6' = x6³                          x6 = (1/2)/√(1 − t/2)
 *   x7' = x7⁻²                         x7 = (1 + 3t)^(1/3)
 *   x8' = 2t/(2 x8)                    x8 = √(1 + t²)
 *   x9' = −x10, x10' = x9              (x9, x10) = (cos, sin)(θ0 + t), θ0 = atan2(0.8, 0.6)
 *   x11' = atan2(x10, x9)              x11 = 0.1 + θ0 t + t²/2
 *
 * taylor.order: the order p that a run at the rung's precision takes
 * (cl_taylor_order_for_tol(−prec), heyoka's p = ⌈−ln tol/2 + 1⌉) measured
 * as the local error of one step: the step's polynomial at the method's own
 * step H (Jorba–Zou) and at H/2 against the closed forms, whose ratio is
 * 2^(p+1) (1 + O(H/ρ)). The nearest singularity is x7's branch point at
 * t = −1/3, alone and real (the others lie at |t| ≥ 1), so the error is
 * one geometric tail and H/ρ ≈ e⁻² puts the correction near 0.1 in log2.
 * At H/2 the error is about 2^(−1.35 prec), below the rung's rounding: the
 * step is expanded at 1.5 prec + 64 bits, where it is far above it. A
 * coefficient rule wrong from order k on makes the local error O(h^k) and
 * the reading k; one wrong at order 0 (the field itself) leaves an O(1)
 * error that does not shrink.
 *
 * taylor.error: the same field integrated at the rung's precision (the
 * double copy at 53 bits) with the order p of the rung and the method's
 * steps to t = 1/8, against the closed forms.
 */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "expr.h"
#include "scalar.h"
#include "taylor.h"

enum { TN = 12 }; /* state components; the time is input TN */

/* The initial state as decimals, read at the working precision. */
static const char *const taylor_x0[TN] = {"1", "0.5", "0.3", "0.5", "0.2", "0.6", "0.5", "1", "1", "0.6", "0.8", "0.1"};

#if CL_PREC == CL_MPFR
static int konst(cl_expr_dag *g, const char *s) { return cl_expr_const(g, s, strlen(s), -1); }
static int op2(cl_expr_dag *g, int op, int a, int b) { return cl_expr_op(g, op, a, b, 0, -1); }
static int op1(cl_expr_dag *g, int op, int a) { return cl_expr_op(g, op, a, -1, 0, -1); }

/* The field of the header's table into out[0..TN−1]; NULL when out of memory. */
cl_expr_dag *check_taylor_graph(int *out)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    if (!g) return NULL;
    int x[TN], t = cl_expr_input(g, TN);
    for (int i = 0; i < TN; i++) x[i] = cl_expr_input(g, i);
    int u0 = op2(g, CL_EXPR_MUL, konst(g, "2"), x[0]); /* sin x0 alone (its cos a row of its own), sin 2x0 and cos 2x0 a pair */
    int s0 = op1(g, CL_EXPR_SIN, u0), c0 = op1(g, CL_EXPR_COS, u0);
    int one = op2(g, CL_EXPR_ADD, cl_expr_op(g, CL_EXPR_POWI, s0, -1, 2, -1), op2(g, CL_EXPR_MUL, c0, c0));
    out[0] = op2(g, CL_EXPR_MUL, op1(g, CL_EXPR_SIN, x[0]), one);
    out[1] = op1(g, CL_EXPR_COS, x[1]);
    out[2] = op1(g, CL_EXPR_TAN, x[2]);
    out[3] = op1(g, CL_EXPR_NEG, op2(g, CL_EXPR_MUL, x[3], op1(g, CL_EXPR_LOG, x[3])));
    out[4] = op1(g, CL_EXPR_EXP, op1(g, CL_EXPR_NEG, x[4]));
    out[5] = op1(g, CL_EXPR_SQRT, x[5]);
    out[6] = cl_expr_op(g, CL_EXPR_POWI, x[6], -1, 3, -1);
    out[7] = cl_expr_op(g, CL_EXPR_POWI, x[7], -1, -2, -1);
    out[8] = op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_MUL, konst(g, "2"), t), op2(g, CL_EXPR_MUL, x[8], konst(g, "2")));
    out[9] = op1(g, CL_EXPR_NEG, x[10]);
    out[10] = x[9];
    out[11] = op2(g, CL_EXPR_ATAN2, x[10], x[9]);
    for (int i = 0; i < TN; i++)
        if (out[i] < 0) {
            cl_expr_dag_free(g);
            return NULL;
        }
    return g;
}

/* The closed forms of the header at time t into xs[0..TN−1] (the precision of xs; t exact in it), each
   from its component's initial value taylor_x0. */
void check_taylor_exact(mpfr_ptr xs, mpfr_srcptr t)
{
    mpfr_prec_t p = mpfr_get_prec(xs);
    mpfr_t a, b, th, et, x0[TN];
    mpfr_inits2(p, a, b, th, et, (mpfr_ptr)0);
    for (int i = 0; i < TN; i++) {
        mpfr_init2(x0[i], p);
        mpfr_set_str(x0[i], taylor_x0[i], 10, MPFR_RNDN);
    }
    mpfr_exp(et, t, MPFR_RNDN); /* eᵗ */
    mpfr_mul_2si(a, x0[0], -1, MPFR_RNDN); /* x0 = 2 atan(tan(x0(0)/2) eᵗ) */
    mpfr_tan(a, a, MPFR_RNDN);
    mpfr_mul(a, a, et, MPFR_RNDN);
    mpfr_atan(a, a, MPFR_RNDN);
    mpfr_mul_2si(xs, a, 1, MPFR_RNDN);
    mpfr_sin(a, x0[1], MPFR_RNDN); /* x1 = asin(tanh(t + atanh(sin x1(0)))) */
    mpfr_atanh(a, a, MPFR_RNDN);
    mpfr_add(a, a, t, MPFR_RNDN);
    mpfr_tanh(a, a, MPFR_RNDN);
    mpfr_asin(xs + 1, a, MPFR_RNDN);
    mpfr_sin(a, x0[2], MPFR_RNDN); /* x2 = asin(sin(x2(0)) eᵗ) */
    mpfr_mul(a, a, et, MPFR_RNDN);
    mpfr_asin(xs + 2, a, MPFR_RNDN);
    mpfr_log(a, x0[3], MPFR_RNDN); /* x3 = exp(log(x3(0)) e⁻ᵗ) */
    mpfr_div(a, a, et, MPFR_RNDN);
    mpfr_exp(xs + 3, a, MPFR_RNDN);
    mpfr_exp(a, x0[4], MPFR_RNDN); /* x4 = log(t + e^x4(0)) */
    mpfr_add(a, a, t, MPFR_RNDN);
    mpfr_log(xs + 4, a, MPFR_RNDN);
    mpfr_sqrt(a, x0[5], MPFR_RNDN); /* x5 = (√x5(0) + t/2)² */
    mpfr_mul_2si(b, t, -1, MPFR_RNDN);
    mpfr_add(a, a, b, MPFR_RNDN);
    mpfr_sqr(xs + 5, a, MPFR_RNDN);
    mpfr_ui_sub(a, 1, b, MPFR_RNDN); /* x6 = x6(0)/√(1 − t/2), x6(0) = 1/2 */
    mpfr_rec_sqrt(a, a, MPFR_RNDN);
    mpfr_mul(xs + 6, a, x0[6], MPFR_RNDN);
    mpfr_pow_ui(b, x0[7], 3, MPFR_RNDN); /* x7 = (x7(0)³ + 3t)^(1/3) */
    mpfr_mul_ui(a, t, 3, MPFR_RNDN);
    mpfr_add(a, a, b, MPFR_RNDN);
    mpfr_cbrt(xs + 7, a, MPFR_RNDN);
    mpfr_hypot(xs + 8, t, x0[8], MPFR_RNDN); /* x8 = √(x8(0)² + t²) */
    mpfr_atan2(th, x0[10], x0[9], MPFR_RNDN); /* θ0 */
    mpfr_add(a, th, t, MPFR_RNDN);
    mpfr_sin_cos(xs + 10, xs + 9, a, MPFR_RNDN);
    mpfr_sqr(a, t, MPFR_RNDN); /* x11 = x11(0) + θ0 t + t²/2 */
    mpfr_mul_2si(a, a, -1, MPFR_RNDN);
    mpfr_fma(a, th, t, a, MPFR_RNDN);
    mpfr_add(xs + 11, a, x0[11], MPFR_RNDN);
    for (int i = 0; i < TN; i++) mpfr_clear(x0[i]);
    mpfr_clears(a, b, th, et, (mpfr_ptr)0);
}

/* log2 of max_i |x_i(s) − x*_i(s)| for the step's polynomial of ws at s against the closed forms (xs scratch). */
static double local_error(const cl_taylor_mp *ws, mpfr_srcptr s, mpfr_ptr x, mpfr_ptr xs)
{
    cl_taylor_dense_mp(ws, s, x);
    check_taylor_exact(xs, s);
    return cl_rvec_log2_maxdiff_mp(x, xs, TN);
}

/* The order of a run at \p prec bits measured at 1.5 prec + 64 bits: the observed order minus p + 1, the readings in \p note. */
static double order_offset(cl_prec_t prec, char *note, size_t len)
{
    int p = cl_taylor_order_for_tol(-(double)prec);
    cl_prec_t P = prec + prec / 2 + 64;
    int nodes[TN];
    cl_expr_dag *g = check_taylor_graph(nodes);
    cl_taylor_mp *ws = NULL;
    int st = g ? cl_taylor_new_mp(&ws, g, nodes, TN, 0, TN, p, P) : CL_ENOMEM;
    mpfr_ptr v = st ? NULL : cl_rvec_new_mp(3 * TN + 2, P);
    double off = NAN;
    if (v) {
        mpfr_ptr x = v, xs = v + TN, x0 = v + 2 * TN, t = v + 3 * TN, h = t + 1;
        for (int i = 0; i < TN; i++) mpfr_set_str(x0 + i, taylor_x0[i], 10, MPFR_RNDN);
        mpfr_set_zero(t, 1);
        st = cl_taylor_expand_mp(ws, t, x0);
        if (!st) {
            cl_taylor_step_size_mp(ws, h);
            double e1 = local_error(ws, h, x, xs);
            mpfr_mul_2si(h, h, -1, MPFR_RNDN);
            double e2 = local_error(ws, h, x, xs);
            off = e1 - e2 - (p + 1);
            snprintf(note, len, "p = %d: log2 e(H) = %.1f, log2 e(H/2) = %.1f (H = %.3g, at %ld bits): observed order %.2f, p + 1 = %d",
                     p, e1, e2, 2 * mpfr_get_d(h, MPFR_RNDN), (long)P, e1 - e2, p + 1);
        }
    }
    if (st) snprintf(note, len, "p = %d: %s", p, cl_strerror(st));
    cl_rvec_free_mp(v);
    cl_taylor_free_mp(ws);
    cl_expr_dag_free(g);
    return off;
}

int check_taylor_order_run(cl_check_result *res, cl_prec_t prec)
{
    cl_check_begin(res);
    double off = order_offset(prec, res->note, sizeof res->note);
    if (!(fabs(off) <= 0.5)) cl_check_worst(res, fabs(off) > 0 ? log2(fabs(off)) : NAN, NULL); /* NaN fails */
    return CL_OK;
}
#endif

/* Shared by both copies (defined in the MPFR one). */
cl_expr_dag *check_taylor_graph(int *out);
void check_taylor_exact(mpfr_ptr xs, mpfr_srcptr t);
int check_taylor_order_run(cl_check_result *res, cl_prec_t prec);

CL_CHECK(taylor_order, "taylor.order", .chapter = "core", .tags = "", .what = "order of the Taylor method a run at the rung's precision takes (p = ceil(-ln tol/2 + 1), tol = 2^-prec): local error of one step, at the Jorba-Zou step H and H/2 against closed forms on a field in R^12 that takes every node kind, ratio 2^(p+1) within 2^0.5 (expanded at 1.5 prec + 64 bits)", .cond = 1, .why = "the reading is 2^(p+1) (1 + O(H/rho)) with H/rho about e^-2 (about 0.1 in log2): within 0.5 it is nearer p + 1 than either neighbour", .kind = CL_CHECK_EXACT)
{
    return check_taylor_order_run(res, prec);
}

static int taylor_error_run(cl_check_result *res, cl_prec_t prec)
{
    int p = cl_taylor_order_for_tol(-(double)prec), nodes[TN];
    cl_expr_dag *g = check_taylor_graph(nodes);
    CL_FN(cl_taylor) *ws = NULL;
    int st = g ? CL_FN(cl_taylor_new)(&ws, g, nodes, TN, 0, TN, p, prec) : CL_ENOMEM;
    rptr x = st ? NULL : CL_FN(cl_rvec_new)(2 * TN + 2, prec);
    mpfr_ptr xs = x ? cl_rvec_new_mp(TN + 1, prec + 64) : NULL;
    cl_check_begin(res);
    if (!st && !xs) st = CL_ENOMEM;
    if (!st) {
        rptr ref = x + TN, t = x + 2 * TN, t1 = t + 1;
        mpfr_t m;
        mpfr_init2(m, prec + 64);
        for (int i = 0; i < TN && !st; i++) {
            mpfr_set_str(m, taylor_x0[i], 10, MPFR_RNDN);
            r_set_mpfr(x + i, m, MPFR_RNDN);
        }
        r_set_zero(t);
        r_set_q(t1, 1, 8);
        cl_ode_stats stats;
        st = CL_FN(cl_taylor_integrate)(ws, t, x, t1, 10000, NULL, NULL, -1, 0, &stats);
        mpfr_set_d(xs + TN, 0.125, MPFR_RNDN);
        check_taylor_exact(xs, xs + TN);
        double worst = -INFINITY;
        for (int i = 0; i < TN && !st; i++) {
            r_set_mpfr(ref + i, xs + i, MPFR_RNDN);
            R_DECL(d, prec);
            r_sub(d, x + i, ref + i);
            double e = r_log2abs(d) - fmax(0, r_log2abs(ref + i));
            worst = isnan(e) || e > worst ? e : worst;
        }
        if (!st) cl_check_worst(res, worst, "p = %d, %ld steps to t = 1/8", p, stats.steps);
        mpfr_clear(m);
    }
    cl_rvec_free_mp(xs);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_taylor_free)(ws);
    cl_expr_dag_free(g);
    return st;
}

CL_CHECK(taylor_error, "taylor.error", .chapter = "core", .tags = "", .what = "the Taylor integrator at the rung's precision (order ceil(-ln tol/2 + 1), tol = 2^-prec, Jorba-Zou steps) to t = 1/8 on the field of taylor.order, against its closed forms, max |x - x*| / max(1, |x*|)", .cond = 16, .why = "measured within 2 units on every rung: each step's truncation about the tolerance 2^-p (relative to max |x|) plus a few roundings per coefficient, over a few steps, and the initial state rounded to p bits (sensitivity of order 1 over t <= 1/8)")
{
    return taylor_error_run(res, prec);
}

/*
 * expr.diff.fd: the graph's derivative rule of every node kind (src/expr_diff.c)
 * against Richardson-extrapolated central differences of the node itself.
 * Each kind is one node f(x, y) of two inputs (sums, products, a division,
 * negation, whole powers, sin, cos, tan, exp, log, sqrt, atan2); its exact
 * partials ∂f/∂x, ∂f/∂y, evaluated at the rung's precision, are compared with
 * D(h) = (f(x+h) − f(x−h))/(2h) extrapolated twice (error O(h⁶)) at
 * h = 2^−(p/4+4), evaluated at 2p + 64 bits, so the reference is good to far
 * more than p bits. A rule with a wrong sign or factor (d√a without its 2,
 * d atan2 with + for −) stays put down the ladder.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "expr.h"
#include "scalar.h"

#if CL_PREC == CL_MPFR
enum { FD_KINDS = 14 };
static const char *const fd_name[FD_KINDS] = {"add", "sub", "mul", "div", "neg", "powi3", "powi-2", "sin", "cos",
                                              "tan", "exp", "log", "sqrt", "atan2"};

/* f_i(x, y) of kind i into g; the node id or −1. */
static int fd_node(cl_expr_dag *g, int i, int x, int y)
{
    static const int bin[] = {CL_EXPR_ADD, CL_EXPR_SUB, CL_EXPR_MUL, CL_EXPR_DIV};
    static const int un[] = {CL_EXPR_SIN, CL_EXPR_COS, CL_EXPR_TAN, CL_EXPR_EXP, CL_EXPR_LOG, CL_EXPR_SQRT};
    int xy = cl_expr_op(g, CL_EXPR_MUL, x, y, 0, -1); /* a composite argument: both partials reach the rule */
    if (i < 4) return cl_expr_op(g, bin[i], x, y, 0, -1);
    if (i == 4) return cl_expr_op(g, CL_EXPR_NEG, xy, -1, 0, -1);
    if (i == 5) return cl_expr_op(g, CL_EXPR_POWI, xy, -1, 3, -1);
    if (i == 6) return cl_expr_op(g, CL_EXPR_POWI, xy, -1, -2, -1);
    if (i < 13) return cl_expr_op(g, un[i - 7], xy, -1, 0, -1);
    return cl_expr_op(g, CL_EXPR_ATAN2, x, y, 0, -1);
}

/* f at (x, y) evaluated at the precision of the evaluator into out; 0 or a status. */
static int fd_eval(cl_expr_eval_mp *ev, int id, mpfr_srcptr xy, mpfr_ptr out)
{
    int st = cl_expr_eval_run_mp(ev, xy, id, 0);
    if (!st) mpfr_set(out, cl_expr_eval_value_mp(ev, id), MPFR_RNDN);
    return st;
}

/* The extrapolated central difference of node id along input k at xy (precision W) into out. */
static int fd_richardson(cl_expr_eval_mp *ev, int id, int k, mpfr_srcptr xy, long p, mpfr_ptr out)
{
    mpfr_prec_t W = mpfr_get_prec(out);
    mpfr_t D[3], z[2], fp, fm, h;
    int st = 0;
    for (int j = 0; j < 3; j++) mpfr_init2(D[j], W);
    mpfr_inits2(W, z[0], z[1], fp, fm, h, (mpfr_ptr)0);
    for (int j = 0; j < 3 && !st; j++) { /* h, h/2, h/4 */
        mpfr_set_ui_2exp(h, 1, -(p / 4 + 4 + j), MPFR_RNDN);
        mpfr_set(z[0], xy, MPFR_RNDN);
        mpfr_set(z[1], xy + 1, MPFR_RNDN);
        mpfr_add(z[k], z[k], h, MPFR_RNDN);
        st = fd_eval(ev, id, z[0], fp);
        mpfr_sub(z[k], z[k], h, MPFR_RNDN);
        mpfr_sub(z[k], z[k], h, MPFR_RNDN);
        if (!st) st = fd_eval(ev, id, z[0], fm);
        mpfr_sub(D[j], fp, fm, MPFR_RNDN);
        mpfr_div(D[j], D[j], h, MPFR_RNDN);
        mpfr_mul_2si(D[j], D[j], -1, MPFR_RNDN);
    }
    /* error c2 h² + c4 h⁴ + …: E = (4 D(h/2) − D(h))/3 twice, then (16 E(h/4) − E(h/2))/15 */
    for (int j = 0; j < 2; j++) {
        mpfr_mul_2si(fp, D[j + 1], 2, MPFR_RNDN);
        mpfr_sub(D[j], fp, D[j], MPFR_RNDN);
        mpfr_div_ui(D[j], D[j], 3, MPFR_RNDN);
    }
    mpfr_mul_2si(fp, D[1], 4, MPFR_RNDN);
    mpfr_sub(fp, fp, D[0], MPFR_RNDN);
    mpfr_div_ui(out, fp, 15, MPFR_RNDN);
    mpfr_clears(z[0], z[1], fp, fm, h, (mpfr_ptr)0);
    for (int j = 0; j < 3; j++) mpfr_clear(D[j]);
    return st;
}

/* The largest relative discrepancy of the derivative rules at \p prec (MPFR at every rung; the 53-bit one too). */
int check_expr_fd_run(cl_check_result *res, cl_prec_t prec)
{
    static const char *const at[2] = {"0.7", "0.45"}; /* x, y: inside every domain (x y > 0, y != 0) */
    long W = 2 * (long)prec + 64;
    cl_expr_dag *g = NULL;
    cl_expr_dag_new(&g);
    if (!g) return CL_ENOMEM;
    int x = cl_expr_input(g, 0), y = cl_expr_input(g, 1), f[FD_KINDS], df[FD_KINDS][2], st = CL_OK;
    for (int i = 0; i < FD_KINDS && !st; i++) {
        f[i] = fd_node(g, i, x, y);
        for (int k = 0; k < 2 && !st; k++) df[i][k] = f[i] < 0 ? -1 : cl_expr_diff(g, f[i], k);
        if (f[i] < 0 || df[i][0] < 0 || df[i][1] < 0) st = CL_ENOMEM;
    }
    cl_expr_eval_mp *lo = NULL, *hi = NULL;
    if (!st) st = cl_expr_eval_new_mp(&lo, g, prec);
    if (!st) st = cl_expr_eval_new_mp(&hi, g, W);
    mpfr_t xl[2], xh[2], ref, got;
    for (int k = 0; k < 2; k++) {
        mpfr_init2(xl[k], prec);
        mpfr_init2(xh[k], W);
        mpfr_set_str(xl[k], at[k], 10, MPFR_RNDN);
        mpfr_set(xh[k], xl[k], MPFR_RNDN); /* the same point on both sides */
    }
    mpfr_inits2(W, ref, got, (mpfr_ptr)0);
    cl_check_begin(res);
    int top = (int)cl_expr_dag_size(g) - 1;
    if (!st) st = cl_expr_eval_run_mp(lo, xl[0], top, 0);
    for (int i = 0; i < FD_KINDS && !st; i++)
        for (int k = 0; k < 2 && !st; k++) {
            st = fd_richardson(hi, f[i], k, xh[0], prec, ref);
            if (st) break;
            mpfr_sub(got, cl_expr_eval_value_mp(lo, df[i][k]), ref, MPFR_RNDN);

            double l2 = mpfr_zero_p(got) ? -INFINITY : log2(fabs(mpfr_get_d(got, MPFR_RNDN)));
            if (!mpfr_zero_p(ref)) l2 -= fmax(0, log2(fabs(mpfr_get_d(ref, MPFR_RNDN))));
            cl_check_worst(res, l2, "d %s / d%c", fd_name[i], k ? 'y' : 'x');
        }
    mpfr_clears(ref, got, xl[0], xl[1], xh[0], xh[1], (mpfr_ptr)0);
    cl_expr_eval_free_mp(lo);
    cl_expr_eval_free_mp(hi);
    cl_expr_dag_free(g);
    return st;
}
#endif

int check_expr_fd_run(cl_check_result *res, cl_prec_t prec);

CL_CHECK(expr_diff_fd, "expr.diff.fd", .chapter = "core", .tags = "", .what = "the graph's derivative of every node kind (+, -, *, /, neg, whole powers, sin, cos, tan, exp, log, sqrt, atan2) in x and y at the rung's precision against central differences extrapolated twice (error O(h^6), h = 2^-(p/4+4)) at 2p + 64 bits, relative to max(1, |df|)", .cond = 16, .why = "a few roundings in each derivative node (at most about 6 operations deep) on values of order 1; the reference is good to about 1.5 p bits")
{
    return check_expr_fd_run(res, prec);
}

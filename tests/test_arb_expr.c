/* The expression graph on Arb balls (expr_eval.c compiled with
 * -DCL_PREC=CL_ARB): values, gradients and Hessians are balls that enclose
 * the exact values at decimal inputs (enclosed, never rounded through a
 * double), with radii within 2^20 units of the working precision; a sqrt,
 * log or division whose argument ball touches its domain's edge is
 * CL_EDOMAIN naming the node, never a wrong ball.
 *
 * Where the exact values come from: the same graph evaluated on balls at 4p
 * bits must lie inside the p-bit balls (two enclosures of one exact number,
 * the finer inside the coarser when both are right), and a closed form
 * written with Arb's own functions (f = x y^2 + sin x: gradient
 * (y^2 + cos x, 2 x y), Hessian [[-sin x, 2 y], [2 y, 2 x]]) must meet them.
 * Compiled once, with -DCL_PREC=CL_ARB; every assertion at each precision
 * of TEST_PRECISIONS. */
#include <string.h>
#include "tap_real.h"
#include "expr.h"
#include "expr_names_impl.h"


/* The graph of text, its root in *root; 0 or the parse status. */
static int parse(cl_expr_dag **g, const char *text, int *root)
{
    cl_expr_error e;
    cl_expr_value v;
    if (cl_expr_dag_new(g)) return CL_ENOMEM;
    int st = cl_expr_parse(*g, text, strlen(text), 0, lookup, NULL, &v, &e);
    if (st) diag("parse error at %ld: %s", e.pos, e.msg);
    *root = v.id[0];
    return st;
}

/* The test point, read as balls around the decimals at the thread's precision. */
static void point(rptr x)
{
    static const char *const s[NIN] = {"0.7", "-1.3", "0.3", "-0.4", "1.2", "0.5", "0.25", "-0.75"};
    for (int k = 0; k < NIN; k++) CL_FN(cl_real_from_str)(x + k, s[k]);
}

/* Value, gradient and Hessian of the root at the test point at precision p (balls). 0 or a status. */
static int sweep_at(const cl_expr_dag *g, int root, cl_prec_t p, rptr f, rptr grad, rptr H)
{
    cl_arb_set_prec(p);
    RV_DECL(x, NIN, p);
    point(x);
    cl_expr_eval_arb *ev = NULL;
    int st = cl_expr_eval_new_arb(&ev, g, p);
    if (!st) st = cl_expr_eval_run_arb(ev, x, root, 2);
    if (!st) {
        r_set(f, cl_expr_eval_value_arb(ev, root));
        cl_expr_eval_hessian_arb(ev, root, grad, H, NIN, 0);
    }
    cl_expr_eval_free_arb(ev);
    return st;
}

/* log2 of the radius of x over max(1, |x|) */
static double rel_rad(rsrc x) { return r_log2rad(x) - fmax(0, r_log2abs(x)); }

/* Every ball of a (n) contains the one of fine, and the worst relative radius of a into *worst. */
static int all_inside(rsrc a, rsrc fine, int n, double *worst)
{
    int in = 1;
    for (int i = 0; i < n; i++) {
        in &= arb_contains(a + i, fine + i);
        *worst = fmax(*worst, rel_rad(a + i));
    }
    return in;
}

/* Every node kind in one formula: p-bit balls contain the 4p-bit ones, radii within 2^20 units. */
static void encloses(cl_prec_t p)
{
    static const char *const text = "sin(x)*exp(y)/sqrt(x^2 + 1) + log(2 + cos(x*y)) + atan2(y, x) + tan(x/10)"
                                    " + dot(u, cross(u, u')) + norm(u)^3 - x^-2 + 0.1*y - 1/3";
    cl_expr_dag *g = NULL;
    int root;
    int st = parse(&g, text, &root);
    RV_DECL(a, 1 + NIN + NIN * NIN, p);
    RV_DECL(b, 1 + NIN + NIN * NIN, p);
    if (!st) st = sweep_at(g, root, 4 * p, b, b + 1, b + 1 + NIN);
    if (!st) st = sweep_at(g, root, p, a, a + 1, a + 1 + NIN);
    double wv = -INFINITY, wd = -INFINITY;
    int inv = !st && all_inside(a, b, 1, &wv), ind = !st && all_inside(a + 1, b + 1, NIN + NIN * NIN, &wd);
    ok(inv && wv <= 20.0 + 1 - (double)p, "value: the %ld-bit ball contains the %ld-bit one, radius 2^%.1f of max(1, |f|) <= 2^(21-p) [arb]",
       (long)p, 4 * (long)p, wv);
    ok(ind && wd <= 20.0 + 1 - (double)p + 4, "gradient and Hessian: every %ld-bit ball contains the %ld-bit one, radii <= 2^(25-p) (2^%.1f) [arb]",
       (long)p, 4 * (long)p, wd);
    cl_expr_dag_free(g);
}

/* f = x y^2 + sin x against its closed-form derivatives, computed with Arb's functions at the same point. */
static void closed_form(cl_prec_t p)
{
    cl_expr_dag *g = NULL;
    int root;
    int st = parse(&g, "x*y^2 + sin(x)", &root);
    RV_DECL(a, 1 + NIN + NIN * NIN, p);
    RV_DECL(x, NIN, p);
    RV_DECL(w, 6, p); /* f, f_x, f_y, f_xx, f_xy, f_yy */
    if (!st) st = sweep_at(g, root, p, a, a + 1, a + 1 + NIN);
    point(x);
    rptr X = x, Y = x + 1;
    arb_sqr(w + 2, Y, p);
    arb_mul(w, X, w + 2, p);
    arb_sin(w + 3, X, p);
    arb_add(w, w, w + 3, p);       /* f */
    arb_neg(w + 3, w + 3);         /* f_xx = -sin x */
    arb_cos(w + 1, X, p);
    arb_add(w + 1, w + 1, w + 2, p); /* f_x = y^2 + cos x */
    arb_mul(w + 2, X, Y, p);
    arb_mul_2exp_si(w + 2, w + 2, 1); /* f_y = 2 x y */
    arb_mul_2exp_si(w + 4, Y, 1);     /* f_xy = 2 y */
    arb_mul_2exp_si(w + 5, X, 1);     /* f_yy = 2 x */
    rsrc H = a + 1 + NIN;
    int meet = !st && arb_overlaps(a, w) && arb_overlaps(a + 1, w + 1) && arb_overlaps(a + 2, w + 2) &&
               arb_overlaps(H, w + 3) && arb_overlaps(H + 1, w + 4) && arb_overlaps(H + NIN, w + 4) &&
               arb_overlaps(H + NIN + 1, w + 5) && arb_is_zero(a + 3) && arb_is_zero(H + 2);
    ok(meet, "x y^2 + sin x: value, gradient and Hessian meet the closed forms (st %d), the others exactly 0 [arb, %ld bits]", st, (long)p);
    cl_expr_dag_free(g);
}

/* Evaluate text at order `order` with x = the ball xb (y = 0.5 exact): the status, and the op of the bad node into *op. */
static int at_edge(const char *text, rsrc xb, int order, int *op)
{
    cl_expr_dag *g = NULL;
    int root;
    *op = -1;
    int st = parse(&g, text, &root);
    cl_prec_t p = cl_arb_get_prec();
    RV_DECL(x, NIN, p);
    r_set(x, xb);
    arb_set_d(x + 1, 0.5);
    cl_expr_eval_arb *ev = NULL;
    if (!st) st = cl_expr_eval_new_arb(&ev, g, p);
    if (!st) st = cl_expr_eval_run_arb(ev, x, root, order);
    if (st == CL_EDOMAIN && cl_expr_eval_bad_arb(ev) >= 0) *op = cl_expr_dag_node(g, cl_expr_eval_bad_arb(ev))->op;
    cl_expr_eval_free_arb(ev);
    cl_expr_dag_free(g);
    return st;
}

/* A domain edge inside the ball is an error naming the operation; an argument proven inside is not. */
static void domain_edges(cl_prec_t p)
{
    cl_arb_set_prec(p);
    R_DECL(x, p);
    int op;
    CL_FN(cl_real_from_str)(x, "0.7"); /* x − 0.7 is [0 ± r]: the exact 0, but the ball cannot say */
    ok(at_edge("sqrt(x - 0.7)", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_SQRT, "sqrt of [0 +- r] is a domain error at the sqrt [arb, %ld bits]", (long)p);
    ok(at_edge("log(x - 0.7)", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_LOG, "log of [0 +- r]: a domain error at the log [arb, %ld bits]", (long)p);
    ok(at_edge("1/(x - 0.7)", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_DIV, "1/[0 +- r]: a domain error at the division [arb, %ld bits]", (long)p);
    ok(at_edge("y^-1 + x^-3 + (x - 0.7)^-1", x, 1, &op) == CL_EDOMAIN && (op == CL_EXPR_POWI || op == CL_EXPR_DIV), "[0 +- r]^-1: a domain error at the power (or its division) [arb, %ld bits]", (long)p);
    ok(at_edge("sqrt(x - 0.5)", x, 2, &op) == CL_OK, "sqrt of a ball proven positive: no error [arb, %ld bits]", (long)p);
    arb_set_d(x, 0.25);
    mag_set_d(arb_radref(x), 0.25); /* [0.25 ± 0.25] = [0, 0.5]: touches 0 from inside */
    ok(at_edge("sqrt(x)", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_SQRT, "sqrt of [0, 0.5] (touching the edge) is a domain error [arb, %ld bits]", (long)p);
    ok(at_edge("log(x)", x, 1, &op) == CL_EDOMAIN, "log of [0, 0.5] is a domain error [arb, %ld bits]", (long)p);
    arb_zero(x);
    ok(at_edge("sqrt(x)", x, 1, &op) == CL_OK, "sqrt of the exact 0 (values only) is 0 [arb, %ld bits]", (long)p);
    ok(at_edge("sqrt(x)", x, 2, &op) == CL_EDOMAIN && op == CL_EXPR_SQRT, "sqrt of the exact 0 with derivatives: a domain error [arb, %ld bits]", (long)p);
    ok(at_edge("atan2(x, x) + tan(y)", x, 2, &op) == CL_EDOMAIN && op == CL_EXPR_ATAN2, "atan2 at the origin with derivatives: a domain error [arb, %ld bits]", (long)p);
    arb_set_d(x, 1.0);
    mag_inf(arb_radref(x));
    ok(at_edge("x + y", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_INPUT, "an input of infinite radius is a domain error at the input [arb, %ld bits]", (long)p);
    arb_indeterminate(x);
    ok(at_edge("y*x", x, 1, &op) == CL_EDOMAIN && op == CL_EXPR_INPUT, "a NaN input is a domain error at the input [arb, %ld bits]", (long)p);
}

/* Decimal constants are enclosed: the ball of "0.1" contains the 4p-bit MPFR 0.1, and has non-zero radius. */
static void constants(cl_prec_t p)
{
    cl_expr_dag *g = NULL;
    int root;
    int st = parse(&g, "0.1", &root);
    cl_arb_set_prec(p);
    cl_expr_eval_arb *ev = NULL;
    RV_DECL(x, NIN, p);
    if (!st) st = cl_expr_eval_new_arb(&ev, g, p);
    if (!st) st = cl_expr_eval_run_arb(ev, x, root, 1);
    mpfr_t w;
    mpfr_init2(w, 4 * p);
    mpfr_set_str(w, "0.1", 10, MPFR_RNDN);
    ok(!st && arb_contains_mpfr(cl_expr_eval_value_arb(ev, root), w) && r_log2rad(cl_expr_eval_value_arb(ev, root)) > -INFINITY,
       "the constant 0.1 is a ball around the exact 0.1 [arb, %ld bits]", (long)p);
    mpfr_clear(w);
    cl_expr_eval_free_arb(ev);
    cl_expr_dag_free(g);
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) {
        cl_prec_t p = TEST_PRECISIONS[k];
        encloses(p);
        closed_form(p);
        domain_edges(p);
        constants(p);
    }
    cl_free_caches();
    return done_testing();
}

/*
 * Checks of the R³ layer itself (identities every later chapter leans on),
 * and of the expression engine against src/deriv,
 * at seeded random vectors.
 */
#include <math.h>
#include "check.h"
#include "r3.h"
#include "expr.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

#define DRAWS 200

CL_CHECK(core_r3_lagrange, "core.r3.lagrange", .chapter = "core", .tags = "", .what = "|a x b|^2 + (a.b)^2 against |a|^2 |b|^2 at 200 random pairs (relative)", .cond = 16, .why = "about ten roundings on each side, each at most 2^-p relative")
{
    cl_rng g;
    cl_rng_seed(&g, 2026);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec);
    R_DECL(lhs, prec); R_DECL(rhs, prec); R_DECL(t, prec);
    cl_check_begin(res);
    for (int k = 0; k < DRAWS; k++) {
        for (int i = 0; i < 3; i++) {
            r_set_d(a + i, cl_rng_range(&g, -2, 2));
            r_set_d(b + i, cl_rng_range(&g, -2, 2));
        }
        v3_cross(c, a, b);
        v3_dot(lhs, c, c);
        v3_dot(t, a, b);
        r_addmul(lhs, t, t);
        v3_dot(rhs, a, a);
        v3_dot(t, b, b);
        r_mul(rhs, rhs, t);
        r_sub(t, lhs, rhs);
        cl_check_worst(res, r_log2abs(t) - r_log2abs(rhs), "worst at draw %d", k);
    }
    return CL_OK;
}

CL_CHECK(core_r3_hat, "core.r3.hat", .chapter = "core", .tags = "[S2 (4)]", .what = "S(a)b against a x b, and S(a)^T against -S(a), at 200 random unit pairs", .cond = 2, .why = "both sides are the same two products and one subtraction per entry")
{
    cl_rng g;
    cl_rng_seed(&g, 7);
    RV_DECL(a, 3, prec); RV_DECL(b, 3, prec); RV_DECL(c, 3, prec); RV_DECL(d, 3, prec);
    RV_DECL(M, 9, prec); RV_DECL(Mt, 9, prec);
    cl_check_begin(res);
    for (int k = 0; k < DRAWS; k++) {
        CL_FN(cl_v3_random_unit)(a, &g);
        CL_FN(cl_v3_random_unit)(b, &g);
        m3_hat(M, a);
        m3_mul_v3(c, M, b);
        v3_cross(d, a, b);
        double e = CL_FN(cl_rvec_log2_maxdiff)(c, d, 3);
        m3_transpose(Mt, M);
        for (int i = 0; i < 9; i++) r_neg(Mt + i, Mt + i);
        double e2 = CL_FN(cl_rvec_log2_maxdiff)(M, Mt, 9);
        cl_check_worst(res, e2 > e ? e2 : e, NULL);
    }
    return CL_OK;
}

/* ------------------------------------------ expression engine, derivatives */

/*
 * One formula in x, y, z with every operation of the expression engine
 * (+ − × ÷, negation, an integer power, sin cos tan exp log sqrt atan2):
 * its value against the same formula written out in the scalar layer, and
 * its exact gradient and Hessian (forward-over-reverse sweeps) against
 * src/deriv's Richardson-extrapolated central differences at raised
 * precision — two methods that share nothing but the formula.
 */
#define CORE_EXPR_TEXT "sin(x)*cos(y) - tan(x*y/3) + exp(x - z)/y + log(2 + x*z)*sqrt(3 + y*z) + atan2(y, x + 2) - (x + y)^3 + (-z)^2*x"

static int core_expr_lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    (void)ctx;
    if (len != 1 || prime || name[0] < 'x' || name[0] > 'z') return -1;
    *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, name[0] - 'x')}};
    return out->id[0] < 0 ? -1 : 0;
}

/* The formula by the scalar layer, at the precision of f. */
static void core_expr_direct(rptr f, rsrc x)
{
    cl_prec_t p = r_prec(f);
    R_DECL(t, p); R_DECL(u, p);
    r_sin(f, x); r_cos(t, x + 1); r_mul(f, f, t);
    r_mul(t, x, x + 1); r_div_si(t, t, 3); r_tan(t, t); r_sub(f, f, t);
    r_sub(t, x, x + 2); r_exp(t, t); r_div(t, t, x + 1); r_add(f, f, t);
    r_mul(t, x, x + 2); r_add_si(t, t, 2); r_log(t, t);
    r_mul(u, x + 1, x + 2); r_add_si(u, u, 3); r_sqrt(u, u); r_mul(t, t, u); r_add(f, f, t);
    r_add_si(u, x, 2); r_atan2(t, x + 1, u); r_add(f, f, t);
    r_add(t, x, x + 1); r_pow_si(t, t, 3); r_sub(f, f, t);
    r_sqr(t, x + 2); r_addmul(f, t, x);
}

/* What the Richardson callback evaluates: the graph by an evaluator at the callback's precision. */
typedef struct { const cl_expr_dag *g; int root; cl_expr_eval_mp *ev; long prec; } core_expr_fn;

static int core_expr_value_mp(mpfr_ptr f, mpfr_srcptr x, void *ctx)
{
    core_expr_fn *c = ctx;
    long p = (long)mpfr_get_prec(f);
    if (!c->ev || c->prec != p) {
        cl_expr_eval_free_mp(c->ev);
        c->prec = p;
        int st = cl_expr_eval_new_mp(&c->ev, c->g, p);
        if (st) return st;
    }
    int st = cl_expr_eval_run_mp(c->ev, x, c->root, 0);
    if (!st) mpfr_set(f, cl_expr_eval_value_mp(c->ev, c->root), MPFR_RNDN);
    return st;
}

CL_CHECK(core_expr_derivatives, "core.expr.derivatives", .chapter = "core", .tags = "", .what = "a formula with every operation of the expression engine at 3 random points: its value against the scalar layer, its exact gradient and Hessian against src/deriv's Richardson differences, whose symmetric error estimate must bound the difference (relative to max(1, |f|, |H|))", .cond = 32, .why = "src/deriv promises 2^-p relative to max(|H|, 2^-12 |f|) (its file comment), which the scale max(1, |f|, |H|) bounds; the exact sweeps are a few dozen roundings of O(10) partials")
{
    cl_rng g;
    cl_rng_seed(&g, 4242);
    cl_expr_dag *dag;
    cl_expr_dag_new(&dag);
    cl_expr_value v;
    cl_expr_error err;
    if (!dag) return CL_ENOMEM;
    int st = cl_expr_parse(dag, CORE_EXPR_TEXT, sizeof CORE_EXPR_TEXT - 1, 0, core_expr_lookup, NULL, &v, &err);
    CL_FN(cl_expr_eval) *ev = NULL;
    if (!st) st = CL_FN(cl_expr_eval_new)(&ev, dag, prec);
    core_expr_fn fn = {dag, v.id[0], NULL, 0};
    RV_DECL(x, 3, prec); RV_DECL(ge, 3, prec); RV_DECL(He, 9, prec); RV_DECL(gd, 3, prec); RV_DECL(Hd, 9, prec);
    RV_DECL(Ed, 9, prec);
    R_DECL(f, prec); R_DECL(t, prec); R_DECL(margin, prec);
    cl_check_begin(res);
    for (int k = 0; k < 3 && !st; k++) {
        r_set_d(x, cl_rng_range(&g, -1, 1));
        r_set_d(x + 1, cl_rng_range(&g, 0.5, 1.5));
        r_set_d(x + 2, cl_rng_range(&g, -1, 1));
        if ((st = CL_FN(cl_expr_eval_run)(ev, x, v.id[0], 2))) break;
        CL_FN(cl_expr_eval_hessian)(ev, v.id[0], ge, He, 3, 0);
        core_expr_direct(f, x);
        double s = r_log2abs(f), sh = CL_FN(cl_rvec_log2_maxabs)(He, 9);
        if (sh > s) s = sh;
        if (s < 0) s = 0;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(CL_FN(cl_expr_eval_value)(ev, v.id[0]), f, 1) - s,
                       "value at point %d", k);
        if ((st = CL_FN(cl_gradient)(gd, NULL, core_expr_value_mp, &fn, x, 3))) break;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(ge, gd, 3) - s, "gradient at point %d", k);
        if ((st = CL_FN(cl_hessian)(Hd, Ed, core_expr_value_mp, &fn, x, 3))) break;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(He, Hd, 9) - s, "Hessian at point %d", k);
        /* and src/deriv's error estimate bounds what it missed, |Hd − He| ≤ E
           up to He's own rounding (the row's tolerance at the scale), and is
           symmetric like H (the entry below the diagonal is the one above) */
        r_set_si(margin, 32);
        r_mul_2si(margin, margin, 1 - (long)prec + (long)ceil(s));
        for (int i = 0; i < 9; i++) {
            if (r_cmp(Ed + i, Ed + 3 * (i % 3) + i / 3) != 0)
                cl_check_worst(res, INFINITY, "error estimate not symmetric at point %d", k);
            r_sub(t, Hd + i, He + i);
            r_abs(t, t);
            r_sub(t, t, Ed + i);
            r_sub(t, t, margin);
            if (!(r_sgn(t) <= 0) || !r_is_number(Ed + i))
                cl_check_worst(res, INFINITY, "error estimate below the error at point %d, entry %d", k, i);
        }
    }
    cl_expr_eval_free_mp(fn.ev);
    CL_FN(cl_expr_eval_free)(ev);
    cl_expr_dag_free(dag);
    return st;
}

/* The expression engine: values, exact gradients and Hessians against closed
 * forms at every precision, shared subexpressions, constants read at the
 * working precision, parse errors with their positions, domain errors. */
#include <stdlib.h>
#include <string.h>
#include "tap_main.h"
#include "expr.h"
#include "expr_names_impl.h"


typedef struct compiled {
    cl_expr_dag *g;
    cl_expr_value v;
    CL_FN(cl_expr_eval) *ev;
} compiled;

static int compile(compiled *c, const char *text, cl_prec_t p)
{
    cl_expr_error e;
    cl_expr_dag_new(&c->g);
    c->ev = NULL;
    int st = cl_expr_parse(c->g, text, strlen(text), 0, lookup, NULL, &c->v, &e);
    if (st) diag("parse error at %ld: %s", e.pos, e.msg);
    else st = CL_FN(cl_expr_eval_new)(&c->ev, c->g, p);
    return st;
}

static void release(compiled *c)
{
    CL_FN(cl_expr_eval_free)(c->ev);
    cl_expr_dag_free(c->g);
}

/* The test point: x = 0.7, y = −1.3 (decimal, read at p), u = (0.3, −0.4, 1.2), u' = (0.5, 0.25, −0.75). */
static void point(rptr x)
{
    static const char *const s[NIN] = {"0.7", "-1.3", "0.3", "-0.4", "1.2", "0.5", "0.25", "-0.75"};
    for (int k = 0; k < NIN; k++) CL_FN(cl_real_from_str)(x + k, s[k]);
}

/* Compiles text and evaluates it at the test point x with its gradient and
   Hessian in all NIN inputs. The root's id, or -1 after a failed test when
   the formula does not compile or evaluate. */
static int differentiate(compiled *c, const char *text, cl_prec_t p, rptr x, rptr grad, rptr H)
{
    point(x);
    if (compile(c, text, p)) {
        ok(0, "%s compiles [%s, %ld]", text, TEST_KIND, (long)p);
        return -1;
    }
    int root = c->v.id[0];
    if (CL_FN(cl_expr_eval_run)(c->ev, x, root, 2) != CL_OK) {
        ok(0, "%s evaluates [%s, %ld]", text, TEST_KIND, (long)p);
        release(c);
        return -1;
    }
    CL_FN(cl_expr_eval_hessian)(c->ev, root, grad, H, NIN, 0);
    return root;
}

/* worst = max(worst, log2|t|). */
static void worsen(double *worst, rsrc t)
{
    double e = r_log2abs(t);
    if (e > *worst) *worst = e;
}

/*
 * f = x²y + sin(x)eʸ + atan2(y, x) + log(x) + x/y, whose derivatives by hand:
 * f_x = 2xy + cos x eʸ − y/ρ + 1/x + 1/y,       f_y = x² + sin x eʸ + x/ρ − x/y²,
 * f_xx = 2y − sin x eʸ + 2xy/ρ² − 1/x²,           f_xy = 2x + cos x eʸ + (y² − x²)/ρ² − 1/y²,
 * f_yy = sin x eʸ − 2xy/ρ² + 2x/y³,               ρ = x² + y².
 */
static void scalar_closed_form(rptr F, rptr grad, rptr H, rsrc x, rsrc y)
{
    cl_prec_t p = r_prec(F);
    R_DECL(s, p); R_DECL(c, p); R_DECL(e, p); R_DECL(rho, p); R_DECL(r2, p); R_DECL(t, p);
    r_sin(s, x); r_cos(c, x); r_exp(e, y);
    r_sqr(rho, x); r_addmul(rho, y, y); r_sqr(r2, rho);
    /* F */
    r_sqr(F, x); r_mul(F, F, y); r_addmul(F, s, e);
    r_atan2(t, y, x); r_add(F, F, t);
    r_log(t, x); r_add(F, F, t);
    r_div(t, x, y); r_add(F, F, t);
    /* f_x */
    r_mul(grad, x, y); r_mul_2si(grad, grad, 1); r_addmul(grad, c, e);
    r_div(t, y, rho); r_sub(grad, grad, t);
    r_si_div(t, 1, x); r_add(grad, grad, t);
    r_si_div(t, 1, y); r_add(grad, grad, t);
    /* f_y */
    r_sqr(grad + 1, x); r_addmul(grad + 1, s, e);
    r_div(t, x, rho); r_add(grad + 1, grad + 1, t);
    r_sqr(t, y); r_div(t, x, t); r_sub(grad + 1, grad + 1, t);
    /* f_xx */
    r_mul_2si(H, y, 1); r_submul(H, s, e);
    r_mul(t, x, y); r_mul_2si(t, t, 1); r_div(t, t, r2); r_add(H, H, t);
    r_sqr(t, x); r_si_div(t, 1, t); r_sub(H, H, t);
    /* f_xy = f_yx */
    r_mul_2si(H + 1, x, 1); r_addmul(H + 1, c, e);
    r_sqr(t, y); r_submul(t, x, x); r_div(t, t, r2); r_add(H + 1, H + 1, t);
    r_sqr(t, y); r_si_div(t, 1, t); r_sub(H + 1, H + 1, t);
    r_set(H + 2, H + 1);
    /* f_yy */
    r_mul(H + 3, s, e);
    r_mul(t, x, y); r_mul_2si(t, t, 1); r_div(t, t, r2); r_sub(H + 3, H + 3, t);
    r_pow_si(t, y, 3); r_div(t, x, t); r_mul_2si(t, t, 1); r_add(H + 3, H + 3, t);
}

static void test_scalar(cl_prec_t p)
{
    compiled c;
    RV_DECL(x, NIN, p); RV_DECL(grad, NIN, p); RV_DECL(H, NIN * NIN, p);
    RV_DECL(F, 1, p); RV_DECL(g2, 2, p); RV_DECL(H2, 4, p); RV_DECL(h, 4, p);
    int root = differentiate(&c, "x^2*y + sin(x)*exp(y) + atan2(y, x) + log(x) + x/y", p, x, grad, H);
    ok(root >= 0, "scalar formula evaluates [%s, %ld]", TEST_KIND, (long)p);
    if (root < 0) return;
    scalar_closed_form(F, g2, H2, x, x + 1);
    /* 32: each side is a few dozen roundings of terms of size ≲ 4 (|f| ≈ 3). */
    is_real(CL_FN(cl_expr_eval_value)(c.ev, root), F, 32, "value against the closed form");
    is_real(grad, g2, 32, "df/dx against the closed form");
    is_real(grad + 1, g2 + 1, 32, "df/dy against the closed form");
    for (int k = 0; k < 2; k++) r_set(h + k, H + k);
    r_set(h + 2, H + NIN);
    r_set(h + 3, H + NIN + 1);
    static const char *const hn[4] = {"d2f/dx2", "d2f/dxdy", "d2f/dydx", "d2f/dy2"};
    for (int k = 0; k < 4; k++) is_real(h + k, H2 + k, 32, hn[k]);
    int zero = 1;
    for (int k = 2; k < NIN; k++) zero = zero && r_is_zero(grad + k) && r_is_zero(H + k) && r_is_zero(H + (size_t)k * NIN);
    ok(zero, "derivatives in inputs the formula does not use are exactly zero [%s, %ld]", TEST_KIND, (long)p);
    release(&c);
}

/*
 * g = |u × u'|² = |u|²|u'|² − (u·u')² (Lagrange): with w = u',
 * ∂g/∂u_i = 2u_i|w|² − 2(u·w)w_i and ∂²g/∂u_i∂w_j = 4u_iw_j − 2u_jw_i − 2(u·w)δ_ij,
 * ∂²g/∂u_i∂u_j = 2|w|²δ_ij − 2w_iw_j.
 */
static void test_vector(cl_prec_t p)
{
    compiled c;
    RV_DECL(x, NIN, p); RV_DECL(grad, NIN, p); RV_DECL(H, NIN * NIN, p);
    R_DECL(ww, p); R_DECL(uw, p); R_DECL(want, p); R_DECL(t, p);
    int root = differentiate(&c, "dot(cross(u, u'), cross(u, u'))", p, x, grad, H);
    if (root < 0) return;
    rsrc u = x + 2, w = x + 5;
    r_set_zero(ww); r_set_zero(uw);
    for (int k = 0; k < 3; k++) { r_addmul(ww, w + k, w + k); r_addmul(uw, u + k, w + k); }
    double worst = -INFINITY, scale = 4;
    for (int i = 0; i < 3; i++) {
        r_mul(want, u + i, ww); r_submul(want, uw, w + i); r_mul_2si(want, want, 1);
        r_sub(t, grad + 2 + i, want);
        worsen(&worst, t);
        for (int j = 0; j < 3; j++) {
            r_mul(want, u + i, w + j); r_mul_2si(want, want, 1); r_submul(want, u + j, w + i);
            if (i == j) r_sub(want, want, uw);
            r_mul_2si(want, want, 1);
            r_sub(t, H + (size_t)(2 + i) * NIN + 5 + j, want);
            worsen(&worst, t);
            r_sub(t, H + (size_t)(5 + j) * NIN + 2 + i, want); /* the Hessian is symmetric */
            worsen(&worst, t);
            r_mul(want, w + i, w + j); r_neg(want, want);
            if (i == j) r_add(want, want, ww);
            r_mul_2si(want, want, 1);
            r_sub(t, H + (size_t)(2 + i) * NIN + 2 + j, want);
            worsen(&worst, t);
        }
    }
    /* 32 units relative to 4 (the size of the entries): each entry is a dozen roundings on each side. */
    is_log2_below(worst, tol_log2(p, 32) + log2(scale), "gradient and Hessian of |u x u'|^2 against Lagrange's identity [%s, %ld]",
                  TEST_KIND, (long)p);
    release(&c);
}

/* norm(u): gradient n = u/|u|, Hessian (I − n nᵀ)/|u|. */
static void test_norm(cl_prec_t p)
{
    compiled c;
    RV_DECL(x, NIN, p); RV_DECL(grad, NIN, p); RV_DECL(H, NIN * NIN, p);
    R_DECL(r, p); R_DECL(want, p); R_DECL(t, p);
    int root = differentiate(&c, "norm(u)", p, x, grad, H);
    if (root < 0) return;
    rsrc u = x + 2;
    r_set_zero(r);
    for (int k = 0; k < 3; k++) r_addmul(r, u + k, u + k);
    r_sqrt(r, r);
    double worst = -INFINITY;
    for (int i = 0; i < 3; i++) {
        r_div(want, u + i, r);
        r_sub(t, grad + 2 + i, want);
        worsen(&worst, t);
        for (int j = 0; j < 3; j++) {
            r_mul(want, u + i, u + j); r_div(want, want, r); r_div(want, want, r); r_neg(want, want);
            if (i == j) r_add_si(want, want, 1);
            r_div(want, want, r);
            r_sub(t, H + (size_t)(2 + i) * NIN + 2 + j, want);
            worsen(&worst, t);
        }
    }
    /* 16: a handful of roundings on each side, entries of size ≤ 1/|u| < 1. */
    is_log2_below(worst, tol_log2(p, 16), "gradient and Hessian of norm(u) against u/|u| and (I - nn^T)/|u| [%s, %ld]", TEST_KIND,
                  (long)p);
    release(&c);
}

/* Constants, powers, sharing and the matrix hat. */
static void test_forms(cl_prec_t p)
{
    compiled c;
    RV_DECL(x, NIN, p); RV_DECL(v, 3, p);
    R_DECL(want, p);
    point(x);
    /* 0.1 is read at p bits from its decimal string, not through a double */
    if (!compile(&c, "0.1", p)) {
        CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 0);
        r_set_q(want, 1, 10);
        ok(r_cmp(CL_FN(cl_expr_eval_value)(c.ev, c.v.id[0]), want) == 0, "0.1 is 1/10 correctly rounded at p [%s, %ld]", TEST_KIND, (long)p);
        release(&c);
    }
    /* x^-2 and y^3 are exact repeated multiplication: pow_si */
    if (!compile(&c, "x^-2 + y^3", p)) {
        CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 0);
        r_pow_si(want, x, -2);
        r_pow_si(v, x + 1, 3);
        r_add(want, want, v);
        ok(r_cmp(CL_FN(cl_expr_eval_value)(c.ev, c.v.id[0]), want) == 0, "integer powers are pow_si [%s, %ld]", TEST_KIND, (long)p);
        release(&c);
    }
    /* x^0.5 = exp(0.5 log x) against sqrt x: a few roundings of size 1 */
    if (!compile(&c, "x^0.5 - sqrt(x)", p)) {
        CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 0);
        is_tiny(CL_FN(cl_expr_eval_value)(c.ev, c.v.id[0]), 8, "x^0.5 = sqrt(x)");
        release(&c);
    }
    /* sin(x)*y written twice is one node: x, y, sin, product, sum = 5 nodes */
    if (!compile(&c, "sin(x)*y + sin(x)*y", p)) {
        ok(cl_expr_dag_size(c.g) == 5, "a repeated subexpression is shared (%zu nodes) [%s, %ld]", cl_expr_dag_size(c.g), TEST_KIND, (long)p);
        release(&c);
    }
    /* hat(u) u' = u × u' to the last bit (the same products, the sum in another order) */
    if (!compile(&c, "hat(u)*u' - cross(u, u')", p)) {
        for (int k = 0; k < 3; k++) CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[k], 0);
        int exact = 1;
        for (int k = 0; k < 3; k++) exact = exact && r_is_zero(CL_FN(cl_expr_eval_value)(c.ev, c.v.id[k]));
        ok(c.v.shape == 3 && exact, "hat(u)*u' = cross(u, u') exactly [%s, %ld]", TEST_KIND, (long)p);
        release(&c);
    }
}

/* A parse error: its offset and the start of its message. */
static void parse_error(const char *text, long pos, const char *msg)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    cl_expr_value v;
    cl_expr_error e;
    int st = cl_expr_parse(g, text, strlen(text), 0, lookup, NULL, &v, &e);
    ok(st == CL_EPARSE && e.pos == pos && !strncmp(e.msg, msg, strlen(msg)), "'%s' is refused at %ld: %s", text, pos, msg);
    if (st != CL_EPARSE || e.pos != pos || strncmp(e.msg, msg, strlen(msg))) diag("  got status %d at %ld: %s", st, e.pos, e.msg);
    cl_expr_dag_free(g);
}

static void test_errors(cl_prec_t p)
{
    parse_error("x + * y", 4, "expected a number, a name");
    parse_error("dot(x, u)", 4, "dot needs a vector, got a scalar");
    parse_error("u * u'", 2, "'*' between a vector and a vector");
    parse_error("x + u", 2, "'+' between a scalar and a vector");
    parse_error("foo(x)", 0, "unknown function 'foo'");
    parse_error("x + z'", 4, "unknown name 'z''");
    parse_error("sin(x", 3, "this '(' is never closed: a ')' is missing");
    /* a bracket left open is named, not the confusion it causes further on */
    parse_error("dot(u, u + x", 3, "this '(' is never closed: a ')' is missing");
    parse_error("x*[1, 2, 3 + u", 2, "this '[' is never closed: a ']' is missing");
    /* a Unicode minus pasted from a document: the ASCII sign to use */
    parse_error("x \xe2\x88\x92 1", 2, "expected an operator or the end of the expression, found U+2212 '\xe2\x88\x92': use ASCII '-' instead of U+2212");
    parse_error("\xc3\xa9", 0, "expected a number, a name, '(' or '[', found U+00E9 '\xc3\xa9' (the model language is ASCII)");
    parse_error("u.w", 1, "expected .x, .y or .z");
    parse_error("x y", 2, "expected an operator");
    parse_error("1.2.3", 0, "malformed number");
    parse_error("", 0, "expected an expression");
    /* a domain error names the node: the division written at offset 2 */
    compiled c;
    RV_DECL(x, NIN, p);
    point(x);
    if (!compile(&c, "x/(y - y)", p)) {
        int st = CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 0);
        int bad = CL_FN(cl_expr_eval_bad)(c.ev);
        ok(st == CL_EDOMAIN && bad >= 0 && cl_expr_dag_node(c.g, bad)->pos == 1, "division by zero is a domain error at the '/' [%s, %ld]",
           TEST_KIND, (long)p);
        release(&c);
    }
    if (!compile(&c, "norm(u - u)", p)) {
        ok(CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 0) == CL_OK && CL_FN(cl_expr_eval_run)(c.ev, x, c.v.id[0], 2) == CL_EDOMAIN,
           "norm at 0 has a value but no derivative [%s, %ld]", TEST_KIND, (long)p);
        release(&c);
    }
}

/* An evaluator that cannot be made says why and leaves nothing behind: *out NULL, not the value it had. */
static void test_new_fails(cl_prec_t p)
{
    cl_expr_dag *g;
    CL_FN(cl_expr_eval) *ev = NULL;
    int st = cl_expr_dag_new(&g);
    if (!st && cl_expr_const(g, "one", 3, 0) < 0) st = CL_ENOMEM;
    if (!st) {
        ev = (CL_FN(cl_expr_eval) *)g;
        st = CL_FN(cl_expr_eval_new)(&ev, g, p);
    }
    ok(st == CL_EPARSE && !ev, "a constant 'one' is refused by the evaluator: %s [%s, %ld]", cl_strerror(st), TEST_KIND, (long)p);
    CL_FN(cl_expr_eval_free)(ev);
    if (CL_PREC == CL_MPFR) {
        ev = (CL_FN(cl_expr_eval) *)g;
        st = CL_FN(cl_expr_eval_new)(&ev, g, 1);
        ok(st == CL_EPREC && !ev, "an evaluator at 1 bit is refused: %s [%s]", cl_strerror(st), TEST_KIND);
        CL_FN(cl_expr_eval_free)(ev);
    }
    cl_expr_dag_free(g);
}

/* The parse and domain errors do not depend on the precision: at the last one only. */
static void run(cl_prec_t p)
{
    test_scalar(p);
    test_vector(p);
    test_norm(p);
    test_forms(p);
    if (p == TEST_PRECISIONS[TEST_NPREC - 1]) test_errors(p);
    if (p == TEST_PRECISIONS[TEST_NPREC - 1]) test_new_fails(p);
}

int main(void) { return cl_test_main(run); }

/*
 * The Taylor coefficients of a graph on Arb balls (taylor.h, _arb) against
 * the MPFR coefficients at four times the precision: from a point state
 * every ball contains the MPFR coefficient and its radius stays within a
 * stated number of units of 2^-p of the coefficients' scale; from a state
 * ball [x0 ± 2^-10] the ball coefficients contain the MPFR coefficients of
 * five points of the ball (the enclosure property the validated step of
 * enclose.c rests on). The field uses every node kind of the recurrences.
 */
#include <stdlib.h>
#include "tap_real.h"
#include "expr.h"
#include "taylor.h"

static int konst(cl_expr_dag *g, const char *s) { return cl_expr_const(g, s, strlen(s), -1); }
static int op2(cl_expr_dag *g, int op, int a, int b) { return cl_expr_op(g, op, a, b, 0, -1); }
static int op1(cl_expr_dag *g, int op, int a) { return cl_expr_op(g, op, a, -1, 0, -1); }
static int powi(cl_expr_dag *g, int a, long k) { return cl_expr_op(g, CL_EXPR_POWI, a, -1, k, -1); }

enum { DIM = 2, NEXTRA = 3, ITEMS = DIM + NEXTRA };

/* x' = v, v' = −sin x · exp(v/4) / sqrt(2 + x²) + log(1.5 + cos x) tan(v/3) + v³ (1 + x²)^−2
   + atan2(v, 2)/10 + t x^11/50; the extras x^8, cos v (sin v is not a node) and 1/(2 + x v). */
static cl_expr_dag *field_graph(int *nodes)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x = cl_expr_input(g, 0), v = cl_expr_input(g, 1), t = cl_expr_input(g, 2);
    int x2 = powi(g, x, 2);
    int a = op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_MUL, op1(g, CL_EXPR_SIN, x), op1(g, CL_EXPR_EXP, op2(g, CL_EXPR_DIV, v, konst(g, "4")))),
                op1(g, CL_EXPR_SQRT, op2(g, CL_EXPR_ADD, konst(g, "2"), x2)));
    int b = op2(g, CL_EXPR_MUL, op1(g, CL_EXPR_LOG, op2(g, CL_EXPR_ADD, konst(g, "1.5"), op1(g, CL_EXPR_COS, x))),
                op1(g, CL_EXPR_TAN, op2(g, CL_EXPR_DIV, v, konst(g, "3"))));
    int c = op2(g, CL_EXPR_MUL, powi(g, v, 3), powi(g, op2(g, CL_EXPR_ADD, konst(g, "1"), x2), -2));
    int d = op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_ATAN2, v, konst(g, "2")), konst(g, "10"));
    int e = op2(g, CL_EXPR_DIV, op2(g, CL_EXPR_MUL, t, powi(g, x, 11)), konst(g, "50"));
    nodes[0] = v;
    nodes[1] = op2(g, CL_EXPR_ADD, op2(g, CL_EXPR_ADD, op2(g, CL_EXPR_SUB, b, a), c), op2(g, CL_EXPR_ADD, d, e));
    nodes[2] = powi(g, x, 8);
    nodes[3] = op1(g, CL_EXPR_COS, v);
    nodes[4] = op2(g, CL_EXPR_DIV, konst(g, "1"), op2(g, CL_EXPR_ADD, konst(g, "2"), op2(g, CL_EXPR_MUL, x, v)));
    return g;
}

static const char *X0[DIM] = {"0.7", "-0.4"}, *T0 = "0.25";

/* The MPFR coefficients at state x0 + dx·(2^-10, −2^-11) (dx in −1..1) and t0, at precision q, into c[i][k]. */
static int mpfr_coefs(cl_taylor_mp *ws, mpfr_t *c, int order, double dx, cl_prec_t q)
{
    __mpfr_struct x[DIM];
    mpfr_t t;
    for (int i = 0; i < DIM; i++) {
        mpfr_init2(x + i, q);
        mpfr_set_str(x + i, X0[i], 10, MPFR_RNDN);
    }
    mpfr_init2(t, q);
    mpfr_add_d(x, x, dx * 0x1p-10, MPFR_RNDN);
    mpfr_sub_d(x + 1, x + 1, dx * 0x1p-11, MPFR_RNDN);
    mpfr_set_str(t, T0, 10, MPFR_RNDN);
    int st = cl_taylor_expand_mp(ws, t, x);
    for (int i = 0; i < ITEMS && !st; i++)
        for (int k = 0; k <= order; k++) mpfr_set(c[i * (order + 1) + k], cl_taylor_coef_mp(ws, (size_t)i, k), MPFR_RNDN);
    for (int i = 0; i < DIM; i++) mpfr_clear(x + i);
    mpfr_clear(t);
    return st;
}

/* The two expansions compared: the ball one at p from the balls x (the state x0) and t (t0), the MPFR one
   at q with its coefficients c[i][k] (nc of them), both of the field's graph at order \p order; st their
   first failure. */
typedef struct expansions {
    cl_taylor_arb *ws;
    cl_taylor_mp *wm;
    mpfr_t *c;
    size_t nc;
    arb_ptr x, t;
    int st;
} expansions;

static void expansions_open(expansions *e, const cl_expr_dag *g, const int *nodes, int order, cl_prec_t p, cl_prec_t q)
{
    *e = (expansions){.nc = (size_t)ITEMS * (size_t)(order + 1), .x = cl_rvec_new_arb(DIM + 1, p)};
    e->st = e->x ? cl_taylor_new_arb(&e->ws, g, nodes, DIM, NEXTRA, DIM, order, p) : CL_ENOMEM;
    if (!e->st) e->st = cl_taylor_new_mp(&e->wm, g, nodes, DIM, NEXTRA, DIM, order, q);
    e->c = malloc(e->nc * sizeof *e->c);
    for (size_t j = 0; j < e->nc; j++) mpfr_init2(e->c[j], q);
    e->t = e->x ? e->x + DIM : NULL;
    for (int i = 0; i < DIM && !e->st; i++) e->st = cl_real_from_str_arb(e->x + i, X0[i]);
    if (!e->st) e->st = cl_real_from_str_arb(e->t, T0);
}

static void expansions_close(expansions *e)
{
    for (size_t j = 0; j < e->nc; j++) mpfr_clear(e->c[j]);
    free(e->c);
    cl_rvec_free_arb(e->x);
    cl_taylor_free_arb(e->ws);
    cl_taylor_free_mp(e->wm);
}

/* Point state: containment and the radius against 2^-p times the scale max(1, |c_k|) of each coefficient. */
static void point_state(cl_prec_t p, const cl_expr_dag *g, const int *nodes, int order)
{
    cl_prec_t q = 4 * p;
    expansions e;
    expansions_open(&e, g, nodes, order, p, q);
    int st = e.st ? e.st : cl_taylor_expand_arb(e.ws, e.t, e.x);
    if (!st) st = mpfr_coefs(e.wm, e.c, order, 0, q);
    int inside = 1;
    double worst = -INFINITY;
    for (int i = 0; i < ITEMS && !st; i++)
        for (int k = 0; k <= order; k++) {
            arb_srcptr b = cl_taylor_coef_arb(e.ws, (size_t)i, k);
            mpfr_srcptr w = e.c[i * (order + 1) + k];
            inside &= arb_contains_mpfr(b, w);
            double scale = fmax(0, cl_mpfr_log2(w));
            worst = fmax(worst, r_log2rad(b) - scale);
        }
    ok(!st && inside, "every coefficient of orders 0..%d of 2 states and 3 extras contains the %ld-bit MPFR one (st %d) [arb, %ld bits]",
       order, (long)q, st, (long)p);
    ok(!st && worst <= tol_log2(p, 1 << 10), "their radii within 2^10 units of 2^-p of max(1, |c_k|): 2^%.1f [arb, %ld bits]",
       worst - tol_log2(p, 1), (long)p);
    expansions_close(&e);
}

/* State ball [x0 ± 2^-10] × [v0 ± 2^-11]: the MPFR coefficients of five points of it inside every ball. */
static void ball_state(cl_prec_t p, const cl_expr_dag *g, const int *nodes, int order)
{
    cl_prec_t q = 2 * p;
    expansions e;
    expansions_open(&e, g, nodes, order, p, q);
    if (!e.st) {
        mag_set_d(arb_radref(e.x), 0x1p-10);
        mag_set_d(arb_radref(e.x + 1), 0x1p-11);
    }
    int st = e.st ? e.st : cl_taylor_expand_arb(e.ws, e.t, e.x);
    static const double pts[] = {-1, -0.3, 0, 0.5, 1};
    int inside = 1;
    for (int s = 0; s < 5 && !st; s++) {
        st = mpfr_coefs(e.wm, e.c, order, pts[s], q);
        for (int i = 0; i < ITEMS && !st; i++)
            for (int k = 0; k <= order; k++) inside &= arb_contains_mpfr(cl_taylor_coef_arb(e.ws, (size_t)i, k), e.c[i * (order + 1) + k]);
    }
    ok(!st && inside, "from a state ball, the coefficients of orders 0..%d of five points of it enclosed (st %d) [arb, %ld bits]",
       order, st, (long)p);
    expansions_close(&e);
}

/* A division by a ball that contains 0 is refused or gives a ball that is not finite, never a finite wrong one. */
static void domain_edge(cl_prec_t p)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x = cl_expr_input(g, 0);
    int nodes[1] = {op2(g, CL_EXPR_DIV, konst(g, "1"), x)};
    cl_taylor_arb *ws = NULL;
    int st = cl_taylor_new_arb(&ws, g, nodes, 1, 0, -1, 8, p);
    R_DECL(x0, p);
    R_DECL(t, p);
    mag_set_d(arb_radref(x0), 0x1p-20); /* [0 ± 2^-20] */
    if (!st) st = cl_taylor_expand_arb(ws, t, x0);
    ok(st == CL_ENAN || st == CL_EDOMAIN, "x' = 1/x from [0 ± 2^-20]: refused (st %d) [arb, %ld bits]", st, (long)p);
    cl_taylor_free_arb(ws);
    cl_expr_dag_free(g);
}

int main(void)
{
    int nodes[ITEMS];
    cl_expr_dag *g = field_graph(nodes);
    static const cl_prec_t precs[] = {64, 128, 256};
    for (int k = 0; k < 3; k++) {
        cl_prec_t p = precs[k];
        cl_arb_set_prec(p);
        int order = cl_taylor_order_for_tol(-(double)p);
        point_state(p, g, nodes, order);
        ball_state(p, g, nodes, order);
        domain_edge(p);
    }
    cl_expr_dag_free(g);
    cl_free_caches();
    return done_testing();
}

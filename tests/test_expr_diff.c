/* Symbolic differentiation (expr_diff.c): on random graphs holding every
 * kind of node, the derivative nodes evaluate to the evaluator's forward
 * tangent bit for bit in double and within a stated number of units of the
 * last place in MPFR (the evaluator fuses ∂_aφ·ȧ + ∂_bφ·ḃ into one rounding,
 * the graph rounds twice); second derivatives agree with the evaluator's
 * Hessian; a subexpression is differentiated once, and an input a node does
 * not depend on gives the exact zero with no new node. The saddle-point
 * solve in nodes (cl_expr_solve_saddle) satisfies both block rows to the
 * working precision, and a block-diagonal H keeps its blocks apart. */
#include <stdlib.h>
#include <string.h>
#include "tap_main.h"
#include "expr.h"

enum { NIN = 4, NRAND = 40, NOPS = 16, POOL = NIN + 3 + 4 * NOPS };
static const char *const X[NIN] = {"0.3", "-0.7", "1.1", "0.45"};
static const int kinds[] = {CL_EXPR_ADD, CL_EXPR_SUB,  CL_EXPR_MUL, CL_EXPR_DIV, CL_EXPR_NEG, CL_EXPR_POWI, CL_EXPR_SIN,
                            CL_EXPR_COS, CL_EXPR_TAN, CL_EXPR_EXP, CL_EXPR_LOG, CL_EXPR_SQRT, CL_EXPR_ATAN2};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

static unsigned long rng_state;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)(rng_state >> 33) % n;
}

static int konst(cl_expr_dag *g, const char *s) { return cl_expr_const(g, s, strlen(s), -1); }
static int op(cl_expr_dag *g, int o, int a, int b) { return cl_expr_op(g, o, a, b, 0, -1); }
/* 3/2 + a²: an argument kept inside the domain of log, sqrt and division. */
static int positive(cl_expr_dag *g, int a) { return op(g, CL_EXPR_ADD, konst(g, "1.5"), op(g, CL_EXPR_MUL, a, a)); }

/* A node of kind \p kind on arguments drawn from pool[0..n), inside its domain. */
static int random_node(cl_expr_dag *g, int kind, const int *pool, int n)
{
    int a = pool[n - 1 - (int)rnd((unsigned)(n < 6 ? n : 6))], b = pool[rnd((unsigned)n)];
    switch (kind) {
    case CL_EXPR_DIV: return op(g, kind, a, positive(g, b));
    case CL_EXPR_LOG: case CL_EXPR_SQRT: return cl_expr_op(g, kind, positive(g, a), -1, 0, -1);
    case CL_EXPR_TAN: case CL_EXPR_EXP: return cl_expr_op(g, kind, op(g, CL_EXPR_SIN, a, -1), -1, 0, -1);
    case CL_EXPR_POWI: {
        static const long k[] = {2, 3, -2, 5};
        long e = k[rnd(4)];
        return cl_expr_op(g, kind, e < 0 ? positive(g, a) : a, -1, e, -1);
    }
    case CL_EXPR_NEG: return cl_expr_op(g, kind, a, -1, 0, -1);
    case CL_EXPR_SIN: case CL_EXPR_COS: return cl_expr_op(g, kind, a, -1, 0, -1);
    default: return op(g, kind, a, b);
    }
}

/* A random graph: the inputs, three constants and NOPS operations; their ids in pool. Returns the pool's size. */
static int random_graph(cl_expr_dag *g, int *pool, int *seen)
{
    int n = 0;
    for (int k = 0; k < NIN; k++) pool[n++] = cl_expr_input(g, k);
    pool[n++] = konst(g, "2");
    pool[n++] = konst(g, "0.25");
    pool[n++] = konst(g, "-1.75");
    for (int i = 0; i < NOPS; i++) {
        int kind = kinds[rnd(NKINDS)];
        int id = random_node(g, kind, pool, n);
        if (id < 0) return -1;
        seen[cl_expr_dag_node(g, id)->op] = 1;
        if (id >= pool[n - 1]) pool[n++] = id;
    }
    return n;
}

/* Worst log2 of |tangent − symbolic| / max(1, |tangent|) over every node and input, and the count of differing values. */
typedef struct tally { double worst; long differ, compared, domain; } tally;

static void compare_graph(cl_prec_t p, tally *t, int *seen)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int pool[POOL], sym[NIN][POOL];
    int n = random_graph(g, pool, seen);
    for (int j = 0; j < NIN && n > 0; j++)
        if (cl_expr_diff_many(g, pool, (size_t)n, j, sym[j])) n = -1;
    CL_FN(cl_expr_eval) *ev = NULL;
    if (n > 0) CL_FN(cl_expr_eval_new)(&ev, g, p);
    rptr x = CL_FN(cl_rvec_new)(NIN + 2, p), got = x + NIN, want = x + NIN + 1;
    for (int k = 0; k < NIN; k++) CL_FN(cl_real_from_str)(x + k, X[k]);
    if (!ev || CL_FN(cl_expr_eval_run)(ev, x, (int)cl_expr_dag_size(g) - 1, 2)) t->domain++;
    else
        for (int j = 0; j < NIN; j++)
            for (int i = 0; i < n; i++) {
                CL_FN(cl_expr_eval_tangent)(ev, pool[i], j, want);
                r_set(got, CL_FN(cl_expr_eval_value)(ev, sym[j][i]));
                t->compared++;
                if (r_cmp(got, want) != 0 || r_is_zero(got) != r_is_zero(want)) t->differ++;
                double scale = r_log2abs(want);
                r_sub(got, got, want);
                double e = r_log2abs(got) - (scale > 0 ? scale : 0);
                if (e > t->worst) t->worst = e;
            }
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_expr_eval_free)(ev);
    cl_expr_dag_free(g);
}

static void test_random(cl_prec_t p)
{
    tally t = {-INFINITY, 0, 0, 0};
    int seen[CL_EXPR_ATAN2 + 1] = {0};
    rng_state = 12345;
    for (int r = 0; r < NRAND; r++) compare_graph(p, &t, seen);
    int all = 1;
    for (int k = 0; k < NKINDS; k++) all &= seen[kinds[k]];
    ok(all && t.domain == 0, "%d random graphs hold every kind of operation and evaluate [%s, %ld]", NRAND, TEST_KIND, (long)p);
    diag("compared %ld derivatives, %ld differ, worst relative gap 2^%.1f", t.compared, t.differ, t.worst);
    if (CL_PREC == CL_DOUBLE)
        ok(t.compared > 1000 && t.differ == 0, "the symbolic derivatives equal the tangents bit for bit [%s]", TEST_KIND);
    else
        is_log2_below(t.worst, tol_log2(p, 8), "the symbolic derivatives are the tangents within 8 ulp [%s, %ld bits]", TEST_KIND,
                      (long)p);
}

/* ∂²f/∂x_j∂x_k as the derivative of a derivative, against the evaluator's Hessian (forward over reverse). */
static void test_second(cl_prec_t p)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x0 = cl_expr_input(g, 0), x1 = cl_expr_input(g, 1);
    int f = op(g, CL_EXPR_ATAN2, op(g, CL_EXPR_MUL, cl_expr_op(g, CL_EXPR_SIN, x0, -1, 0, -1), x1),
               op(g, CL_EXPR_DIV, cl_expr_op(g, CL_EXPR_EXP, x1, -1, 0, -1), positive(g, x0)));
    int d2[2][2];
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 2; k++) d2[j][k] = cl_expr_diff(g, cl_expr_diff(g, f, j), k);
    CL_FN(cl_expr_eval) *ev;
    int st = CL_FN(cl_expr_eval_new)(&ev, g, p);
    rptr x = CL_FN(cl_rvec_new)(8, p), grad = x + 2, H = x + 4;
    CL_FN(cl_real_from_str)(x, "0.8");
    CL_FN(cl_real_from_str)(x + 1, "-0.35");
    if (!st) st = CL_FN(cl_expr_eval_run)(ev, x, (int)cl_expr_dag_size(g) - 1, 2);
    ok(st == CL_OK, "a second derivative graph evaluates [%s, %ld]", TEST_KIND, (long)p);
    if (!st) {
        CL_FN(cl_expr_eval_hessian)(ev, f, grad, H, 2, 0);
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) is_real(CL_FN(cl_expr_eval_value)(ev, d2[j][k]), H + 2 * j + k, 32, "d2f/dxj dxk = the Hessian");
    }
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_expr_eval_free)(ev);
    cl_expr_dag_free(g);
}

/* sin(sin(...sin(x)...)) k deep: its derivative adds a cos and a product per level; by y it is 0 with no new node. */
static void test_sharing(void)
{
    enum { DEPTH = 50 };
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x = cl_expr_input(g, 0), y = cl_expr_input(g, 1), f = x;
    int zero = cl_expr_zero(g);
    for (int i = 0; i < DEPTH; i++) f = cl_expr_op(g, CL_EXPR_SIN, f, -1, 0, -1);
    f = op(g, CL_EXPR_MUL, f, f); /* f² shares f */
    size_t before = cl_expr_dag_size(g);
    int df = cl_expr_diff(g, f, 0);
    size_t grown = cl_expr_dag_size(g) - before;
    ok(df >= 0 && grown <= 2 * DEPTH + 4, "d(sin^%d(x))^2/dx adds %zu nodes (at most 2 per level and 4 for the square)", DEPTH, grown);
    before = cl_expr_dag_size(g);
    ok(cl_expr_diff(g, f, 1) == zero && cl_expr_dag_size(g) == before, "by an input it does not depend on: the zero node, no new node");
    ok(cl_expr_diff(g, x, 0) == cl_expr_one(g) && cl_expr_diff(g, y, 0) == zero, "dx/dx = 1, dy/dx = 0");
    cl_expr_dag_free(g);
}

/* Node of a decimal constant, or the zero node for "0". */
static int entry(cl_expr_dag *g, const char *s) { return strcmp(s, "0") ? konst(g, s) : cl_expr_zero(g); }

/* cl_expr_solve_saddle on a constant H (4 × 4) bordered by two input-dependent rows: the residuals of both block rows. */
static void test_saddle(cl_prec_t p)
{
    enum { N = 4, K = 2 };
    static const char *const Hs[N * N] = {"4", "1", "0", "0", "1", "3", "0.5", "0", "0", "0.5", "2", "0.25", "0", "0", "0.25", "5"};
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x[N], H[N * N], B[K * N], r[N], beta[K], a[N], nu[K];
    for (int i = 0; i < N; i++) x[i] = cl_expr_input(g, i);
    for (int i = 0; i < N * N; i++) H[i] = entry(g, Hs[i]);
    int zero = cl_expr_zero(g), one = cl_expr_one(g);
    int rows[K * N] = {x[0], x[1], zero, zero, zero, x[2], x[3], one};
    for (int i = 0; i < K * N; i++) B[i] = rows[i];
    int rhs[N] = {op(g, CL_EXPR_MUL, x[0], x[1]), one, x[2], cl_expr_op(g, CL_EXPR_NEG, x[3], -1, 0, -1)};
    for (int i = 0; i < N; i++) r[i] = rhs[i];
    beta[0] = x[1];
    beta[1] = op(g, CL_EXPR_MUL, x[0], x[2]);
    int st = cl_expr_solve_saddle(g, H, r, B, beta, N, K, a, nu);
    CL_FN(cl_expr_eval) *ev = NULL;
    if (!st) st = CL_FN(cl_expr_eval_new)(&ev, g, p);
    rptr v = CL_FN(cl_rvec_new)(N + 3, p), acc = v + N, t = v + N + 1, worst = v + N + 2;
    static const char *const X0[N] = {"0.7", "-1.3", "0.4", "2.1"};
    for (int i = 0; i < N; i++) CL_FN(cl_real_from_str)(v + i, X0[i]);
    if (!st) st = CL_FN(cl_expr_eval_run)(ev, v, (int)cl_expr_dag_size(g) - 1, 1);
    ok(st == CL_OK, "the saddle solve's nodes evaluate [%s, %ld]", TEST_KIND, (long)p);
    r_set_zero(worst);
#define VAL(id) CL_FN(cl_expr_eval_value)(ev, id)
    for (int i = 0; i < N + K && !st; i++) { /* row i of [H Bᵀ; B 0][a; ν] − [r; β] */
        r_neg(acc, i < N ? VAL(r[i]) : VAL(beta[i - N]));
        for (int c = 0; c < N; c++) {
            r_mul(t, VAL(i < N ? H[i * N + c] : B[(i - N) * N + c]), VAL(a[c]));
            r_add(acc, acc, t);
        }
        for (int j = 0; j < K && i < N; j++) {
            r_mul(t, VAL(B[j * N + i]), VAL(nu[j]));
            r_add(acc, acc, t);
        }
        r_abs(acc, acc);
        if (r_cmp(acc, worst) > 0) r_set(worst, acc);
    }
#undef VAL
    if (!st) is_log2_below(r_log2abs(worst), tol_log2(p, 64), "H a + B^T nu = r and B a = beta within 64 ulp [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_free)(v);
    CL_FN(cl_expr_eval_free)(ev);
    cl_expr_dag_free(g);
}

/* A block-diagonal constant H with no border: each block's accelerations read only its own right sides (the zero blocks fold). */
static void test_saddle_blocks(void)
{
    cl_expr_dag *g;
    cl_expr_dag_new(&g);
    int x[4], H[16], a[4], nu[1];
    static const char *const Hs[16] = {"2", "1", "0", "0", "1", "3", "0", "0", "0", "0", "5", "2", "0", "0", "2", "4"};
    for (int i = 0; i < 4; i++) x[i] = cl_expr_input(g, i);
    for (int i = 0; i < 16; i++) H[i] = entry(g, Hs[i]);
    int st = cl_expr_solve_saddle(g, H, x, NULL, NULL, 4, 0, a, nu);
    int apart = !st;
    for (int i = 0; i < 4 && apart; i++)
        for (int k = 0; k < 4; k++) apart &= cl_expr_depends_on_input(g, a[i], k) == ((i < 2) == (k < 2));
    ok(apart, "a block-diagonal H: each block's solution depends on its own right sides only");
    cl_expr_dag_free(g);
}

static void run(cl_prec_t p)
{
    test_random(p);
    test_second(p);
    test_saddle(p);
    if (p == TEST_PRECISIONS[0]) test_sharing(), test_saddle_blocks();
}

int main(void) { return cl_test_main(run); }

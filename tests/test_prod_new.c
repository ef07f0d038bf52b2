/* The constructors of the product engines refuse what they cannot build,
 * each with its own status, and leave *out NULL (whatever it held) with
 * nothing allocated (valgrind): no factor, too many, a kind they do not
 * know, an R^0, a product beyond CL_LAGR_PROD_MAX_DIM numbers, L not a node
 * of the graph, a constant that cannot be read and, in MPFR, 1 bit. A
 * product they can build is built. */
#include <string.h>
#include "lagr_prod.h"
#include "ham_prod.h"
#include "tap_main.h"

/* A graph whose node 0 is input 0 and, with \p bad, node 1 the constant "one", which no reader accepts. */
static cl_expr_dag *graph(int bad)
{
    cl_expr_dag *g;
    if (cl_expr_dag_new(&g)) return NULL;
    if (cl_expr_input(g, 0) != 0 || (bad && cl_expr_const(g, "one", 3, 0) != 1)) {
        cl_expr_dag_free(g);
        return NULL;
    }
    return g;
}

/* One case: factors, their number, the node of L, the precision (0: the test's), and the status expected. */
typedef struct refusal {
    const char *what;
    int nf, L, bits, want;
    cl_lagr_factor f[2];
} refusal;

static const refusal cases[] = {
    {"no factor", 0, 0, 0, CL_EDIM, {{CL_LAGR_S2, 0}}},
    {"more than CL_LAGR_PROD_MAX_FACTORS factors", CL_LAGR_PROD_MAX_FACTORS + 1, 0, 0, CL_EDIM, {{CL_LAGR_S1, 0}}},
    {"a factor of kind 99", 2, 0, 0, CL_EDIM, {{CL_LAGR_S2, 0}, {99, 0}}},
    {"an R^0 factor", 1, 0, 0, CL_EDIM, {{CL_LAGR_RK, 0}}},
    {"an R^k beyond CL_LAGR_PROD_MAX_DIM", 1, 0, 0, CL_EDIM, {{CL_LAGR_RK, CL_LAGR_PROD_MAX_DIM + 1}}},
    {"L not a node of the graph", 1, 1, 0, CL_EDIM, {{CL_LAGR_S2, 0}}},
    {"a constant 'one'", 1, 1, 0, CL_EPARSE, {{CL_LAGR_S2, 0}}},
    {"1 bit", 1, 0, 1, CL_EPREC, {{CL_LAGR_S2, 0}}},
    {"S2 x SO(3)", 2, 0, 0, CL_OK, {{CL_LAGR_S2, 0}, {CL_LAGR_SO3, 0}}},
};

/* The factors of case \p c: its first two, then copies of the first. */
static void factors(const refusal *c, cl_lagr_factor *f)
{
    for (int i = 0; i < c->nf; i++) f[i] = c->f[i < 2 ? i : 0];
}

/* The graph of case \p c: the one with the bad constant for CL_EPARSE. */
static const cl_expr_dag *graph_of(const refusal *c, cl_expr_dag *const g[2]) { return g[c->want == CL_EPARSE]; }

/* Build case \p c with *out first pointing elsewhere; its status, and in *set whether *out was left set. Freed. */
static int lagr_prod(const cl_expr_dag *g, int L, const cl_lagr_factor *f, size_t nf, cl_prec_t p, int *set)
{
    CL_FN(cl_lagr_prod) *lg = (CL_FN(cl_lagr_prod) *)g;
    int st = CL_FN(cl_lagr_prod_new)(&lg, g, L, f, nf, 0, p);
    *set = lg != NULL;
    CL_FN(cl_lagr_prod_free)(lg);
    return st;
}

static int ham_prod(const cl_expr_dag *g, int H, const cl_lagr_factor *f, size_t nf, cl_prec_t p, int *set)
{
    CL_FN(cl_ham_prod) *h = (CL_FN(cl_ham_prod) *)g;
    int st = CL_FN(cl_ham_prod_new)(&h, g, H, f, nf, 0, p);
    *set = h != NULL;
    CL_FN(cl_ham_prod_free)(h);
    return st;
}

typedef int (*constructor)(const cl_expr_dag *g, int L, const cl_lagr_factor *f, size_t nf, cl_prec_t p, int *set);

static void test_cases(const char *name, constructor make, cl_expr_dag *const g[2], cl_prec_t p)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS + 1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const refusal *c = cases + i;
        if (c->bits && CL_PREC != CL_MPFR) continue;
        factors(c, f);
        int set, st = make(graph_of(c, g), c->L, f, (size_t)c->nf, c->bits ? (cl_prec_t)c->bits : p, &set);
        ok(st == c->want && set == !st, "%s, %s: %s, *out %s [%s, %ld]", name, c->what, cl_strerror(st), set ? "set" : "NULL",
           TEST_KIND, (long)p);
    }
}

static void run(cl_prec_t p)
{
    cl_expr_dag *g[2] = {graph(0), graph(1)};
    if (ok(g[0] && g[1], "the graphs [%s, %ld]", TEST_KIND, (long)p)) {
        test_cases("cl_lagr_prod_new", lagr_prod, g, p);
        test_cases("cl_ham_prod_new", ham_prod, g, p);
    }
    cl_expr_dag_free(g[0]);
    cl_expr_dag_free(g[1]);
}

int main(void) { return cl_test_main(run); }

/* The constructors of the product engines refuse what they cannot build,
 * each with its own status, and leave *out NULL (whatever it held) with
 * nothing allocated (valgrind): no factor, too many, a kind they do not
 * know, an R^0, a product beyond CL_LAGR_PROD_MAX_DIM numbers, L not a node
 * of the graph, a constant that cannot be read and, in MPFR, 1 bit. A
 * product they can build is built. */
#include <string.h>
#include "lagr_prod.h"
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

static void test_lagr_prod(cl_expr_dag *const g[2], cl_prec_t p)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS + 1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const refusal *c = cases + i;
        if (c->bits && CL_PREC != CL_MPFR) continue;
        factors(c, f);
        CL_FN(cl_lagr_prod) *lg = (CL_FN(cl_lagr_prod) *)g[0];
        int st = CL_FN(cl_lagr_prod_new)(&lg, graph_of(c, g), c->L, f, (size_t)c->nf, 0, c->bits ? (cl_prec_t)c->bits : p);
        ok(st == c->want && (st ? !lg : !!lg), "cl_lagr_prod_new, %s: %s, *out %s [%s, %ld]", c->what, cl_strerror(st),
           lg ? "set" : "NULL", TEST_KIND, (long)p);
        CL_FN(cl_lagr_prod_free)(lg);
    }
}

static void run(cl_prec_t p)
{
    cl_expr_dag *g[2] = {graph(0), graph(1)};
    if (ok(g[0] && g[1], "the graphs [%s, %ld]", TEST_KIND, (long)p)) test_lagr_prod(g, p);
    cl_expr_dag_free(g[0]);
    cl_expr_dag_free(g[1]);
}

int main(void) { return cl_test_main(run); }

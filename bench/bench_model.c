/*
 * A model's vector field against the hand-written chapter's: the chain
 * pendulum of n links written as a model (its Lagrangian a formula, the
 * equations derived by the expression engine with exact derivatives and
 * one dense 3n×3n solve) against cl_chain_rhs (S2 V, the O(n) tension
 * solve), one (q, ω) evaluation each, in double and at 256 bits, side by
 * side as a ratio, with the largest difference of the two fields. Then
 * the eom graph's field interpreted, as derived against simplified: for
 * the chains, and for every shipped model (the files models/NAME.model)
 * at a random state of its own.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "expr_emit.h"
#include "bench.h"
#include "chain_model.h"

/* A random state of the n-link chain in the (q, ω) form: unit q_i, tangent ω_i of unit speed (seed 7). */
#define DEFINE_STATE(S, RPTR)                                             \
    static void chain_state##S(RPTR x, int n)                             \
    {                                                                     \
        cl_rng g;                                                         \
        cl_rng_seed(&g, 7);                                               \
        for (int i = 0; i < n; i++) {                                     \
            cl_v3_random_unit##S(x + 3 * i, &g);                          \
            cl_v3_random_tangent##S(x + 3 * (n + i), x + 3 * i, 1.0, &g); \
        }                                                                 \
    }
DEFINE_STATE(_d, double *)
DEFINE_STATE(_mp, mpfr_ptr)

#define DEFINE_RUN(S, RPTR)                                                                           \
    static double time_##S(cl_chain##S *ch, cl_lagr_s2##S *lg, RPTR dx, RPTR x)                       \
    {                                                                                                 \
        double t;                                                                                     \
        BENCH_SECONDS_PER_CALL(t, 0.2,                                                                \
            if (lg) cl_lagr_s2_rhs##S(lg, CL_S2_OMEGA, dx, x);                                        \
            else cl_chain_rhs##S(ch, CL_S2_OMEGA, dx, x));                                            \
        return t;                                                                                     \
    }                                                                                                 \
    static void run##S(cl_prec_t p, const char *kind)                                                 \
    {                                                                                                 \
        static const int ns[] = {2, 4, 8};                                                            \
        printf("%-9s %3s %14s %14s %8s %10s\n", kind, "n", "chapter s/call", "model s/call", "ratio", \
               "max|diff|");                                                                          \
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {                                       \
            int n = ns[k];                                                                            \
            cl_model *m = chain_model_parsed(n);                                                      \
            RPTR par = cl_rvec_new##S((size_t)(2 * n + 1), p);                                        \
            for (int i = 0; i < 2 * n; i++) cl_real_from_str##S(par + i, "1");                        \
            cl_real_from_str##S(par + 2 * n, "9.81");                                                 \
            cl_chain##S *ch;                                                                          \
            cl_chain_new##S(&ch, (size_t)n, par, par + n, par + 2 * n, p);                            \
            cl_lagr_s2##S *lg;                                                                        \
            cl_lagr_s2_new##S(&lg, m->g, m->L, m->n, m->nparam, p);                                   \
            cl_lagr_s2_set_param##S(lg, 0, par + 2 * n);                                              \
            RPTR x = cl_rvec_new##S((size_t)(6 * n), p);                                              \
            RPTR d1 = cl_rvec_new##S((size_t)(6 * n), p);                                             \
            RPTR d2 = cl_rvec_new##S((size_t)(6 * n), p);                                             \
            chain_state##S(x, n);                                                                     \
            double tc = time_##S(ch, NULL, d1, x), tm = time_##S(ch, lg, d2, x);                      \
            printf("%-9s %3d %14.3g %14.3g %8.1f %10.2g\n", kind, n, tc, tm, tm / tc,                 \
                   ldexp(1.0, (int)fmax(-1074, cl_rvec_log2_maxdiff##S(d1, d2, (size_t)(6 * n)))));   \
            cl_rvec_free##S(x); cl_rvec_free##S(d1); cl_rvec_free##S(d2); cl_rvec_free##S(par);       \
            cl_lagr_s2_free##S(lg); cl_chain_free##S(ch); cl_model_free(m);                           \
        }                                                                                             \
    }
DEFINE_RUN(_d, double *)
DEFINE_RUN(_mp, mpfr_ptr)

/* The equations of eom for the chain (form qdot) as derived (simplify 0) or simplified, reduced to the field's nodes. */
static cl_expr_dag *eom_graph(const cl_model *m, int simplify, int *out, size_t *dim)
{
    cl_model_eom *q;
    cl_sys_error e;
    if (cl_model_eom_build(&q, m, simplify, &e)) {
        printf("eom: %s\n", e.what);
        exit(1);
    }
    *dim = q->dim;
    cl_expr_dag *g = cl_expr_dag_prune(q->g, q->out, q->dim, out);
    cl_model_eom_free(q);
    return g;
}

/* One interpreted evaluation of every node of g (its field) at x. */
#define DEFINE_GRAPH(S, RPTR)                                                                                      \
    static double time_graph##S(cl_expr_dag *g, RPTR x, cl_prec_t p)                                               \
    {                                                                                                              \
        cl_expr_eval##S *ev;                                                                                       \
        double t;                                                                                                  \
        cl_expr_eval_new##S(&ev, g, p);                                                                            \
        BENCH_BEST_SECONDS_PER_CALL(t, 5, 0.05, cl_expr_eval_run##S(ev, x, (int)cl_expr_dag_size(g) - 1, 0));      \
        cl_expr_eval_free##S(ev);                                                                                  \
        return t;                                                                                                  \
    }                                                                                                              \
    static void graphs##S(cl_prec_t p, const char *kind)                                                           \
    {                                                                                                              \
        static const int ns[] = {2, 4, 8};                                                                         \
        printf("%-9s %3s %14s %14s %14s %9s %9s %7s %7s\n", kind, "n", "chapter s/call", "derived s/call",         \
               "simpl. s/call", "der./ch.", "simp./ch.", "nodes", "nodes");                                        \
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {                                                    \
            int n = ns[k];                                                                                         \
            cl_model *m = chain_model_parsed(n);                                                                   \
            size_t dim;                                                                                            \
            int *out = malloc((size_t)(6 * n) * sizeof *out);                                                      \
            cl_expr_dag *gd = eom_graph(m, 0, out, &dim), *gs = eom_graph(m, 1, out, &dim);                        \
            RPTR x = cl_rvec_new##S(dim + 2, p); /* the state, t (unused), g */                                    \
            RPTR par = cl_rvec_new##S((size_t)(2 * n + 1), p);                                                     \
            RPTR dx = cl_rvec_new##S(dim, p);                                                                      \
            for (int i = 0; i < 2 * n; i++) cl_real_from_str##S(par + i, "1");                                     \
            cl_real_from_str##S(par + 2 * n, "9.81");                                                              \
            cl_chain##S *ch;                                                                                       \
            cl_chain_new##S(&ch, (size_t)n, par, par + n, par + 2 * n, p);                                         \
            chain_state##S(x, n); /* (q, omega) for the chapter; the graph's (q, q') field costs the same anywhere */ \
            double tc = time_##S(ch, NULL, dx, x);                                                                 \
            cl_real_from_str##S(x + dim, "0");                                                                     \
            cl_real_from_str##S(x + dim + 1, "9.81");                                                              \
            double td = time_graph##S(gd, x, p), ts = time_graph##S(gs, x, p);                                     \
            printf("%-9s %3d %14.3g %14.3g %14.3g %9.1f %9.1f %7zu %7zu\n", kind, n, tc, td, ts, td / tc, ts / tc,   \
                   cl_expr_dag_size(gd), cl_expr_dag_size(gs));                                                    \
            cl_rvec_free##S(x); cl_rvec_free##S(par); cl_rvec_free##S(dx); cl_chain_free##S(ch);                   \
            cl_expr_dag_free(gd), cl_expr_dag_free(gs), free(out), cl_model_free(m);                               \
        }                                                                                                          \
    }
DEFINE_GRAPH(_d, double *)
DEFINE_GRAPH(_mp, mpfr_ptr)

/* A shipped model's eom graph as derived (simplify 0) and simplified (1), its inputs at a random state (seed 7) at 256 bits. */
typedef struct shipped {
    cl_expr_dag *g[2];
    size_t nin;
    mpfr_ptr x; /* the inputs of both graphs */
    double *xd;
} shipped;

static int shipped_open(shipped *o, const char *path)
{
    *o = (shipped){0};
    cl_sys_error e = {"", ""};
    const cl_system *s;
    cl_params par;
    void *inst = NULL;
    if (cl_model_system_new(&s, path, &e)) return printf("%s: %s\n", path, e.what), -1;
    const cl_model *m = cl_model_system_model(s);
    const char *key[] = {"time"}, *val[] = {"0.7"};
    int st = cl_params_parse(&par, s->params, m->timed, key, val, 256, &e), have_par = !st;
    if (!st) st = s->create(&inst, &par, 256, &e);
    cl_model_eom *q[2] = {NULL, NULL};
    for (int k = 0; k < 2 && !st; k++) st = cl_model_eom_build(q + k, m, k, &e);
    if (!st) {
        o->nin = q[0]->param0 + q[0]->nparam;
        o->x = cl_rvec_new_mp(o->nin + 1, 256);
        o->xd = calloc(o->nin + 1, sizeof *o->xd);
        cl_rng g;
        cl_rng_seed(&g, 7);
        st = s->random_state(inst, 0, o->x, &g);
        if (q[0]->time >= 0) mpfr_set_str(o->x + q[0]->time, "0.7", 10, MPFR_RNDN);
        for (size_t k = 0; k < q[0]->nparam && !st; k++) st = cl_real_from_str_mp(o->x + q[0]->param0 + k, m->pdef[k]);
        for (size_t k = 0; k < o->nin; k++) o->xd[k] = mpfr_get_d(o->x + k, MPFR_RNDN);
        int *out = malloc((q[0]->dim + 1) * sizeof *out);
        for (int k = 0; k < 2 && out; k++) o->g[k] = cl_expr_dag_prune(q[k]->g, q[k]->out, q[k]->dim, out);
        free(out);
        if (!st && (!o->g[0] || !o->g[1])) st = CL_ENOMEM;
    }
    if (st) printf("%s: %s\n", path, e.what[0] ? e.what : "no state drawn");
    cl_model_eom_free(q[0]), cl_model_eom_free(q[1]);
    if (inst) s->destroy(inst);
    if (have_par) cl_params_free(&par);
    cl_model_system_free(s);
    return st ? -1 : 0;
}

static void shipped_close(shipped *o)
{
    cl_expr_dag_free(o->g[0]), cl_expr_dag_free(o->g[1]);
    if (o->x) cl_rvec_free_mp(o->x);
    free(o->xd);
}

/*
 * Every shipped model's field (form 0: qdot, p for a Hamiltonian), its eom
 * graph interpreted as derived and as simplified, in double and at 256 bits:
 * CPU time per evaluation, the ratio simplified/derived, nodes of each.
 */
static void shipped_table(void)
{
    glob_t paths;
    if (glob("models/*.model", 0, NULL, &paths)) {
        printf("no models/*.model here (run from the source tree)\n");
        return;
    }
    printf("%-24s %7s %7s %12s %12s %6s %12s %12s %6s\n", "model", "nodes", "nodes", "double", "double", "", "256 bits",
           "256 bits", "");
    printf("%-24s %7s %7s %12s %12s %6s %12s %12s %6s\n", "", "derived", "simpl.", "derived s", "simpl. s", "ratio", "derived s",
           "simpl. s", "ratio");
    for (size_t i = 0; i < paths.gl_pathc; i++) {
        shipped o;
        if (shipped_open(&o, paths.gl_pathv[i])) continue;
        double t[2][2];
        for (int k = 0; k < 2; k++) t[k][0] = time_graph_d(o.g[k], o.xd, 53), t[k][1] = time_graph_mp(o.g[k], o.x, 256);
        char name[64];
        const char *base = strrchr(paths.gl_pathv[i], '/');
        snprintf(name, sizeof name, "%.*s", (int)strcspn(base + 1, "."), base + 1);
        printf("%-24s %7zu %7zu %12.3g %12.3g %6.2f %12.3g %12.3g %6.2f\n", name, cl_expr_dag_size(o.g[0]), cl_expr_dag_size(o.g[1]),
               t[0][0], t[1][0], t[1][0] / t[0][0], t[0][1], t[1][1], t[1][1] / t[0][1]);
        shipped_close(&o);
    }
    globfree(&paths);
}

static const char about[] =
    "A model's vector field against the hand-written chapter's: the chain pendulum\n"
    "of n links written as a model file (its Lagrangian a formula, the equations\n"
    "derived by the expression engine and one dense 3n x 3n solve) against\n"
    "cl_chain_rhs (S2 V, the O(n) tension solve), one (q, omega) evaluation each,\n"
    "in double and at 256 bits. Prints the CPU time per evaluation of each, their\n"
    "ratio, and the largest difference of the two fields. Then the chapter against\n"
    "the (q, qdot) field of chartless eom for the same chains, its graph\n"
    "interpreted, as derived and as simplified (docs/eom.md): CPU time per\n"
    "evaluation (the graph's the best of five timings), ratios, nodes of each;\n"
    "and the derived and simplified graphs of every shipped model (models/*.model,\n"
    "run from the source tree) at a random state of its own.\n";

static const bench_option options[] = {
    {"--models", "only the last table: every shipped model's eom graph, derived\n"
                 "               against simplified\n"},
    {NULL, NULL}};

static int measure(int option)
{
    if (option == 0) {
        shipped_table();
        return 0;
    }
    printf("the (q, omega) field of an n-link chain: S2 V's O(n) chapter code against a model file\n");
    bench_both_kinds(run_d, run_mp);
    printf("\nthe chapter against the (q, qdot) field of chartless eom for the same chain, its graph interpreted: as derived and\n"
           "simplified\n");
    bench_both_kinds(graphs_d, graphs_mp);
    printf("\nevery shipped model's field (form 0), its eom graph interpreted: as derived against simplified\n");
    shipped_table();
    return 0;
}

BENCH_MAIN("bench_model", about, options, measure)

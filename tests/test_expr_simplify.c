/*
 * The simplifier of the expression graph (expr_simplify.h): each case a
 * formula, the text the simplifier writes for it (exact rational constants,
 * like terms collected, common factors pulled out, one fraction, the
 * relations of the unit sphere), and its value against the formula as
 * parsed at a point on the sphere, at 53 and 256 bits to 2^(8−p) of the
 * formula's scale (both sides a few dozen roundings).
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scalar.h"
#include "expr.h"
#include "expr_emit.h"
#include "expr_simplify.h"
#include "expr_share.h"
#include "tap.h"

/* Scalars a, b, c, x, y, z (inputs 0 … 5), a unit vector q (6 … 8) and a tangent vector v (9 … 11). */
static const char *const NAMES = "abcxyz";
enum { NIN = 12 };
static int lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    (void)ctx, (void)prime;
    if (len != 1) return -1;
    const char *at = strchr(NAMES, name[0]);
    if (at) {
        *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, at - NAMES)}};
        return 0;
    }
    if (name[0] != 'q' && name[0] != 'v') return -1;
    out->shape = 3;
    for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, (name[0] == 'q' ? 6 : 9) + k);
    return 0;
}

/* a = 0.7, b = −1.3, c = 2.5, x = 0.3, y = −0.45, z = 1.1, q = (0.6, 0, 0.8), v = (0.4, 0.3, −0.3) */
static const char *const POINT[NIN] = {"0.7", "-1.3", "2.5", "0.3", "-0.45", "1.1", "0.6", "0", "0.8", "0.4", "0.3", "-0.3"};

static const struct { const char *in, *out; int sphere; } CASES[] = {
    {"1 + 1", "2", 0},
    {"x + x", "2*x", 0},
    {"1/2*x*2", "x", 0},
    {"x - x", "0", 0},
    {"a - b", "a - b", 0},
    {"b - a", "b - a", 0},
    {"-x - 2*a*x*y", "-x*(2*a*y + 1)", 0},
    {"(x + y)^2 - x^2 - y^2", "2*x*y", 0},
    {"x/(2*x*y)", "1/(2*y)", 0},
    {"1/(1/2*a*(1 + 1))", "1/a", 0},
    {"a*x + a*y + b", "b + a*(x + y)", 0},
    {"0.5*x + 1.5*x", "2*x", 0},
    {"sin(x)^2 + cos(x)^2", "1", 0},
    {"3*sin(x)^2 + 3*cos(x)^2 + y", "3 + y", 0},
    {"x*y/3 - y*x/3", "0", 0},
    {"a/(dot(q, q))", "a", 1},
    {"dot(q, v) + a", "a", 1},
    {"(q.x*q.x + q.y*q.y + q.z*q.z)*b - b", "0", 1},
};

/* The simplified root printed as text. */
static void print_root(cl_expr_dag *g, int root, char *buf, size_t len)
{
    FILE *f = fmemopen(buf, len, "w");
    cl_expr_printer p;
    if (!f || cl_expr_printer_init(&p, g, CL_EXPR_TEXT, f)) {
        if (f) fclose(f);
        snprintf(buf, len, "(no printer)");
        return;
    }
    for (long k = 0; k < cl_expr_dag_ninputs(g); k++) { /* the printer holds a name per input of the graph */
        if (k < 6) snprintf(p.in[k], sizeof p.in[k], "%c", NAMES[k]);
        else snprintf(p.in[k], sizeof p.in[k], "%c.%c", k < 9 ? 'q' : 'v', "xyz"[(k - 6) % 3]);
    }
    cl_expr_printer_node(&p, root, 0);
    cl_expr_printer_free(&p);
    fclose(f);
}

/* The sphere's relations |q|² − 1 and q·v as nodes of g. */
static size_t sphere(cl_expr_dag *g, int *rel)
{
    cl_expr_value v;
    cl_expr_error e;
    const char *const text[2] = {"dot(q, q) - 1", "dot(q, v)"};
    for (int k = 0; k < 2; k++) {
        if (cl_expr_parse(g, text[k], strlen(text[k]), 0, lookup, NULL, &v, &e)) return 0;
        rel[k] = v.id[0];
    }
    return 2;
}

/* Each rewritten root got[k] against the formula want[k] at POINT (its first six inputs \p pt[0 … 5] instead when pt is
   not NULL: point \p t), at 53 and 256 bits, to 2^(8-p) of its scale. */
static void same_values_at(cl_expr_dag *g, const int *want, const int *got, int n, const char *what, const double *pt, int t)
{
    static const cl_prec_t precs[] = {53, 256};
    char where[32] = "";
    if (pt) snprintf(where, sizeof where, ", point %d", t);
    for (int p = 0; p < 2; p++) {
        cl_expr_eval_mp *ev;
        mpfr_ptr x = cl_rvec_new_mp(NIN, precs[p]);
        for (int j = 0; j < NIN; j++) {
            if (pt && j < 6) mpfr_set_d(x + j, pt[j], MPFR_RNDN);
            else cl_real_from_str_mp(x + j, POINT[j]);
        }
        int st = cl_expr_eval_new_mp(&ev, g, precs[p]);
        if (!st) st = cl_expr_eval_run_mp(ev, x, (int)cl_expr_dag_size(g) - 1, 0);
        for (int k = 0; k < n; k++) {
            if (st) { ok(0, "%s%s, root %d, evaluates at %ld bits (status %d)", what, where, k, (long)precs[p], st); continue; }
            mpfr_srcptr w = cl_expr_eval_value_mp(ev, want[k]), v = cl_expr_eval_value_mp(ev, got[k]);
            double gap = cl_rvec_log2_maxdiff_mp(v, w, 1) - fmax(0, cl_rvec_log2_maxabs_mp(w, 1));
            is_log2_below(gap, 8 - (double)precs[p], "%s%s, root %d: the value at %ld bits", what, where, k, (long)precs[p]);
        }
        cl_expr_eval_free_mp(ev);
        cl_rvec_free_mp(x);
    }
}

static void same_values(cl_expr_dag *g, const int *want, const int *got, int n, const char *what)
{
    same_values_at(g, want, got, n, what, NULL, 0);
}

static void one_case(size_t i)
{
    cl_expr_dag *g;
    cl_expr_value v;
    cl_expr_error e;
    int rel[2], out = -1;
    cl_expr_dag_new(&g);
    int st = cl_expr_parse(g, CASES[i].in, strlen(CASES[i].in), 0, lookup, NULL, &v, &e);
    cl_expr_simplify_opts o = {.zero = rel, .nzero = CASES[i].sphere && !st ? sphere(g, rel) : 0};
    if (!st) st = cl_expr_simplify(g, v.id, 1, &out, &o);
    char text[256] = "";
    if (!st) print_root(g, out, text, sizeof text);
    if (!ok(!strcmp(text, CASES[i].out), "%s simplifies to %s (status %d)", CASES[i].in, CASES[i].out, st)) diag("got %s", text);
    if (!st) same_values(g, v.id, &out, 1, CASES[i].in);
    cl_expr_dag_free(g);
}

/* A budget too small to finish: the roots come back as they were, CL_ENOCONV. */
static void budget(void)
{
    cl_expr_dag *g;
    cl_expr_value v;
    cl_expr_error e;
    cl_expr_dag_new(&g);
    const char *text = "(a + b + c + x + y + z)^12 - (a + b + c + x + y + z)^11*(a + b + c + x + y + z)";
    int st = cl_expr_parse(g, text, strlen(text), 0, lookup, NULL, &v, &e), out = -7;
    cl_expr_simplify_opts o = {.seconds = 1e-6};
    if (!st) st = cl_expr_simplify(g, v.id, 1, &out, &o);
    ok(st == CL_ENOCONV && out == v.id[0], "past its budget the simplifier says so (status %d) and leaves the root (%d, %d)", st, out, v.id[0]);
    cl_expr_dag_free(g);
}

/* Node id is root or an argument below it. */
static int reaches(const cl_expr_dag *g, int root, int id)
{
    if (root == id) return 1;
    if (root < id) return 0; /* arguments come before their nodes */
    const cl_expr_node *r = cl_expr_dag_node(g, root);
    if (r->op == CL_EXPR_INPUT || r->op == CL_EXPR_CONST) return 0;
    return reaches(g, r->a, id) || (r->b >= 0 && reaches(g, r->b, id));
}

/* A new graph with the \p n formulas \p text parsed, their nodes into \p root; 0 or the first error. */
static int new_roots(cl_expr_dag **g, const char *const *text, int n, int *root)
{
    cl_expr_value v;
    cl_expr_error e;
    int st = cl_expr_dag_new(g);
    for (int k = 0; k < n && !st; k++)
        if (!(st = cl_expr_parse(*g, text[k], strlen(text[k]), 0, lookup, NULL, &v, &e))) root[k] = v.id[0];
    return st;
}

/* The cart pendulum's two accelerations share sin(x)/(a + b sin(x)^2): one node of both after cl_expr_share_products(),
   the printed roots shorter, the values those of the formulas at 53 and 256 bits; a pair that would write a·y/a is left. */
static void shared_products(void)
{
    static const char *const text[] = {"c*(y + z)*sin(x)/(a + b*sin(x)^2)", "-(a*y + b*z)*sin(x)/(c*(a + b*sin(x)^2))",
                                       "x*(a*(y + z))/a", "z*(a*(y + z))/a"};
    cl_expr_dag *g;
    cl_expr_value v;
    cl_expr_error e;
    int root[4], out[4], st = new_roots(&g, text, 4, root);
    if (!st) st = cl_expr_share_products(g, root, 4, out);
    char t0[256] = "", t1[256] = "", t2[256] = "";
    if (!st) print_root(g, out[0], t0, sizeof t0), print_root(g, out[1], t1, sizeof t1), print_root(g, out[2], t2, sizeof t2);
    /* the node sin(x)/(a + b*sin(x)^2), built as the parser builds it, is an argument inside both roots */
    const char *part = "sin(x)/(a + b*sin(x)^2)";
    int common = !st && !cl_expr_parse(g, part, strlen(part), 0, lookup, NULL, &v, &e) && reaches(g, out[0], v.id[0]) &&
                 reaches(g, out[1], v.id[0]) && !reaches(g, root[0], v.id[0]);
    if (!ok(!st && common && strstr(t0, part) && strstr(t1, part),
            "the two accelerations share sin(x)/(a + b*sin(x)^2) (status %d)", st))
        diag("got %s and %s", t0, t1);
    if (!ok(!st && out[2] == root[2] && out[3] == root[3], "a pair that would write a*(y + z)/a is not made")) diag("got %s", t2);
    if (!st) same_values(g, root, out, 4, "shared products");
    cl_expr_dag_free(g);
}

/* same_values_at() at \p npt random points: a, b, c, z in [1/2, 3/2], x, y in [−1, 1] (seed 33). */
static void same_values_random(cl_expr_dag *g, const int *want, const int *got, int n, int npt, const char *what)
{
    srand48(33);
    for (int t = 0; t < npt; t++) {
        double pt[6];
        for (int j = 0; j < 6; j++) pt[j] = j == 3 || j == 4 ? 2 * drand48() - 1 : 0.5 + drand48();
        same_values_at(g, want, got, n, what, pt, t);
    }
}

/* How often \p part occurs in \p text. */
static int occurrences(const char *text, const char *part)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, part)) != NULL; at += strlen(part)) n++;
    return n;
}

/*
 * Common factors pulled out of the groups of a split fraction (the spring's
 * k Δx/m − r0 k Δx/(m |Δq|)): in three roots, two of them one component
 * each, the third with the opposite sign, another denominator and a term
 * of its own, the sum 1 − c/z is one node all three reach (the formulas do
 * not), printed once in each; a factoring that would cost an operation
 * more (x y/c − x y/b as x y (1/c − 1/b)) is not made. The values are the
 * formulas' at random points.
 */
static void factored_sums(void)
{
    static const char *const text[] = {"a*(x - y)/b - c*a*(x - y)/(b*z)", "a*(x + y)/b - c*a*(x + y)/(b*z)",
                                       "c*a*(x - y)/(b^2*z) - a*(x - y)/b^2 - y", "x*y/c - x*y/b"};
    cl_expr_dag *g;
    int root[4], out[4], st = new_roots(&g, text, 4, root);
    if (!st) st = cl_expr_simplify(g, root, 4, out, NULL);
    char t[4][256] = {"", "", "", ""};
    for (int k = 0; k < 4 && !st; k++) print_root(g, out[k], t[k], sizeof t[k]);
    const char *part = "1 - c/z";
    cl_expr_value v;
    cl_expr_error e;
    int node = -1;
    if (!st && !cl_expr_parse(g, part, strlen(part), 0, lookup, NULL, &v, &e)) node = v.id[0];
    for (int k = 0; k < 3; k++) {
        int shape = !st && node >= 0 && reaches(g, out[k], node) && !reaches(g, root[k], node) && occurrences(t[k], part) == 1;
        if (!ok(shape, "%s: the common factor pulled out, 1 - c/z once (status %d)", text[k], st)) diag("got %s", t[k]);
    }
    if (!ok(!st && !strcmp(t[3], "x*y/c - x*y/b"), "x*y/c - x*y/b is left as it is: factored it costs an operation more"))
        diag("got %s", t[3]);
    if (!st) same_values_random(g, root, out, 4, 8, "factored sums");
    cl_expr_dag_free(g);
}

/*
 * A shared subexpression past the budget of terms is an atom (max_shared
 * 1 makes a − x² … one): its relation rewrites the same sum met expanded
 * as the atom, so x² + (a² − x²) is a², the atom cancelled; with strip,
 * the atom (x + z)/b is b's multiple of the atom x + z, so b·((x + z)/b)
 * is x + z; without strip it stays a product over the atom. The values
 * are the formulas' at random points (within 2^(8−p) of their scale,
 * same_values_at()).
 */
static void budget_atoms(void)
{
    static const char *const text[] = {"y*(a^2 - x^2)", "z*(a^2 - x^2)", "x^2 + (a^2 - x^2)",
                                       "y*((x + z)/b)", "z*((x + z)/b)", "b*((x + z)/b)"};
    for (int strip = 0; strip < 2; strip++) {
        cl_expr_dag *g;
        int root[6], out[6], st = new_roots(&g, text, 6, root);
        cl_expr_simplify_opts o = {.max_terms = 40, .max_shared = 1, .strip = strip, .atom_relations = 1};
        if (!st) st = cl_expr_simplify(g, root, 6, out, &o);
        char t2[256] = "", t5[256] = "";
        if (!st) print_root(g, out[2], t2, sizeof t2), print_root(g, out[5], t5, sizeof t5);
        if (!ok(!st && !strcmp(t2, "a^2"), "strip %d: x^2 + (a^2 - x^2), its sum an atom, is a^2 by the atom's relation (status %d)",
                strip, st))
            diag("got %s", t2);
        int want = strip ? !strcmp(t5, "x + z") : strstr(t5, "b*") != NULL && strstr(t5, "/b") != NULL;
        if (!ok(!st && want, "strip %d: b*((x + z)/b) is %s", strip, strip ? "x + z, b outside the atom" : "a product over the atom (x + z)/b"))
            diag("got %s", t5);
        if (!st) same_values_random(g, root, out, 6, 8, strip ? "budget atoms, stripped" : "budget atoms");
        cl_expr_dag_free(g);
    }
}

/*
 * An atom hiding part of |q|² from the sphere's relation: with
 * q_y² + q_z² an atom v (shared, max_shared 1; not a node of the relation,
 * which is (q_x² + q_y²) + q_z² − 1), the relation is rewritten as
 * v + q_x² − 1, so a/(q_x² + (q_y² + q_z²)) is a; its value at POINT (on
 * the sphere).
 */
static void sphere_atom(void)
{
    static const char *const text[] = {"y*(q.y*q.y + q.z*q.z)", "z*(q.y*q.y + q.z*q.z)", "a/(q.x*q.x + (q.y*q.y + q.z*q.z))"};
    cl_expr_dag *g;
    int root[3], out[3], rel[2], st = new_roots(&g, text, 3, root);
    size_t nrel = st ? 0 : sphere(g, rel);
    cl_expr_simplify_opts o = {.zero = rel, .nzero = nrel, .max_terms = 40, .max_shared = 1, .atom_relations = 1};
    if (!st) st = cl_expr_simplify(g, root, 3, out, &o);
    char t[256] = "";
    if (!st) print_root(g, out[2], t, sizeof t);
    if (!ok(!st && nrel == 2 && !strcmp(t, "a"), "a/(q.x^2 + t), t = q.y^2 + q.z^2 an atom, is a on the sphere (status %d)", st))
        diag("got %s", t);
    if (!st) same_values(g, root, out, 3, "sphere atom");
    cl_expr_dag_free(g);
}

/*
 * The pure sign flips of a term of a sum (cl_expr_share_signs()): a − x·(−b)
 * is a + x·b, a term negated down a chain of products too, x·(−a) + b is
 * b − x·a, a − (−b) is a + b; a negation used twice stays (moving it would
 * write it at each use). The values are the formulas' (same_values()).
 */
static void sign_flips(void)
{
    static const char *const text[] = {"a - x*(-(b + c))", "a + y*(z*(-(b - c)))", "x*(-(a + c)) + b", "a - (-(x*y*z))",
                                       "b - x*(-(y*z))", "a*(-(y*z))"};
    static const char *const want[] = {"a + x*(b + c)", "a - y*z*(b - c)", "b - x*(a + c)", "a + x*y*z", "b - x*(-y*z)",
                                       "a*(-y*z)"};
    cl_expr_dag *g;
    int root[6], out[6], st = new_roots(&g, text, 6, root);
    if (!st) st = cl_expr_share_signs(g, root, 6, out);
    for (int k = 0; k < 6; k++) {
        char t[256] = "";
        if (!st) print_root(g, out[k], t, sizeof t);
        if (!ok(!st && !strcmp(t, want[k]), "%s is %s%s", text[k], want[k], k >= 4 ? ": its negation used twice stays" : ""))
            diag("got %s", t);
    }
    if (!st) same_values(g, root, out, 6, "sign flips");
    cl_expr_dag_free(g);
}

int main(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) one_case(i);
    budget();
    shared_products();
    factored_sums();
    budget_atoms();
    sign_flips();
    sphere_atom();
    return done_testing();
}

/*
 * The equations of motion of a model as one expression graph (model.h,
 * cl_model_eom_new()): a copy of the model's graph grown by the symbolic
 * derivatives of L or H (expr_diff.c) up to the field, for the consumers
 * that want the field itself rather than its values: the printed equations
 * (`chartless eom`), generated code and Taylor integration.
 *
 * Built for every model, whichever engine runs it: the Lagrangian ones by
 * the product engine's equations (model_graph_lagr.c: Euler–Lagrange on
 * S¹, Rᵏ and S², Euler–Poincaré on SO(3) and SE(3), the unit vectors'
 * multipliers removed by projection, constraints bordering the velocity
 * Hessian), the Hamiltonian ones by Hamilton's (model_graph_ham.c), the
 * factors' kinematics and balances shared (model_graph_kin.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cl_core.h"
#include "model_kinds.h"
#include "expr_nodes_impl.h"
#include "expr_share.h"
#include "expr_simplify.h"
#include "model_graph_impl.h"

/* rel[k] = the k-th dot product of rows (or columns, \p stride 1 and 3 swapped) a and b of R minus δ_ab. */
static int rotation_relations(cl_expr_dag *g, const int *R, int *rel)
{
    int k = 0, one = cl_expr_one(g);
    for (int cols = 0; cols < 2; cols++)
        for (int a = 0; a < 3; a++)
            for (int b = a; b < 3; b++) {
                size_t along = cols ? 3 : 1, at = cols ? 1 : 3;
                int d = cl_expr_node_dot(g, R + a * at, along, R + b * at, along, 3);
                rel[k++] = a == b ? cl_expr_node_sub(g, d, one) : d;
            }
    return k;
}

/*
 * The nodes that vanish on the model's manifold, for the simplifier:
 * |q|² − 1 and q·q' on each S² factor (q·p for a Hamiltonian's momentum
 * too: p is tangent), the entries of R Rᵀ − I and Rᵀ R − I on each SO(3)
 * and SE(3) factor. Returns their number (rel holds 12 per factor), or −1.
 */
static int manifold_relations(cl_expr_dag *g, const cl_model *m, int *rel)
{
    int k = 0, x[9];
    for (size_t j = 0; j < m->nfac; j++) {
        const cl_model_factor *f = m->fac + j;
        if (f->kind == CL_LAGR_S2) {
            int v[3];
            for (int i = 0; i < 3; i++) x[i] = cl_expr_input(g, (long)(f->q + i)), v[i] = cl_expr_input(g, (long)(m->nq + f->v + i));
            rel[k++] = cl_expr_node_sub(g, cl_expr_node_dot(g, x, 1, x, 1, 3), cl_expr_one(g));
            rel[k++] = cl_expr_node_dot(g, x, 1, v, 1, 3);
        } else if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            for (int i = 0; i < 9; i++) x[i] = cl_expr_input(g, (long)(f->q + i));
            k += rotation_relations(g, x, rel + k);
        }
    }
    for (int i = 0; i < k; i++)
        if (rel[i] < 0) return -1;
    return k;
}

static int is_leaf(const cl_expr_dag *g, int i)
{
    int op = cl_expr_dag_node(g, i)->op;
    return op == CL_EXPR_INPUT || op == CL_EXPR_CONST;
}

/*
 * The operations of the \p n roots as `eom` prints them (0 when out of
 * memory): a node used twice or more is named once (its operations counted
 * once), except an operation on names and numbers alone (a·b, x², −x) and
 * a node of numbers, which the printer writes out at each use
 * (cl_expr_printer_name_shared(), src/expr_emit.c), and a node of \p
 * label (a model's named velocity) is named wherever it is used twice. A negation is not
 * counted: which sums come out negated follows from the signs of the
 * atoms, and counting it chose printed equations longer by SymPy's
 * count_ops (bench/eom_sympy.py) on four shipped models.
 */
static size_t printed_operations(const cl_expr_dag *g, const int *roots, size_t n, const int *label, size_t nlabel)
{
    size_t size = cl_expr_dag_size(g), count = 0;
    int *uses = calloc(size + 1, sizeof *uses);
    size_t *cost = calloc(size + 1, sizeof *cost);
    char *named = calloc(size + 1, 2), *numeric = named ? named + size + 1 : NULL;
    if (!uses || !cost || !named) {
        free(uses), free(cost), free(named);
        return 0;
    }
    for (size_t k = 0; k < n; k++) uses[roots[k]]++;
    for (size_t i = size; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!uses[i] || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        uses[e->a]++;
        if (e->b >= 0) uses[e->b]++;
    }
    for (size_t k = 0; k < nlabel; k++) /* a node with a name of its own is named wherever it is used twice */
        if (label[k] >= 0 && uses[label[k]] > 1 && !is_leaf(g, label[k])) named[label[k]] = 1;
    for (size_t i = 0; i < size; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        int leaf = is_leaf(g, (int)i);
        numeric[i] = e->op == CL_EXPR_CONST || (!leaf && numeric[e->a] && (e->b < 0 || numeric[e->b]));
        if (!uses[i] || leaf) continue;
        int on_leaves = is_leaf(g, e->a) && (e->b < 0 || is_leaf(g, e->b));
        int arith = e->op == CL_EXPR_ADD || e->op == CL_EXPR_SUB || e->op == CL_EXPR_MUL || e->op == CL_EXPR_DIV ||
                    e->op == CL_EXPR_NEG || e->op == CL_EXPR_POWI;
        named[i] |= uses[i] > 1 && !numeric[i] && !(arith && on_leaves);
        cost[i] = (e->op != CL_EXPR_NEG) + (named[e->a] ? 0 : cost[e->a]) + (e->b < 0 || named[e->b] ? 0 : cost[e->b]);
        if (named[i]) count += cost[i];
    }
    for (size_t k = 0; k < n; k++) count += named[roots[k]] ? 0 : cost[roots[k]];
    free(uses), free(cost), free(named);
    return count;
}

/*
 * The budgets of terms the simplifier is run with (a node's, a shared
 * node's), the result with the fewest operations kept: large budgets find
 * the cancellations of small models, small ones keep the sharing of the
 * derived graph (the LDLᵀ pivots of a product of many factors). The
 * products of the result then share their common parts (expr_share.h).
 The operations are counted as the equations are printed
 * (printed_operations()).
 */
static const size_t budgets[][2] = {{CL_EXPR_SIMPLIFY_TERMS, CL_EXPR_SIMPLIFY_SHARED_TERMS}, {8, 2}, {3, 1}, {1, 1}};

/* The roots \p try, simplified with \p o, and their shared products into \p try; their operations with the last \p nlabel
   of them named (0 when that failed), *st CL_ENOMEM when out of memory. */
static size_t attempt(cl_expr_dag *g, const int *roots, size_t n, size_t nlabel, int *try, const cl_expr_simplify_opts *o, int *st)
{
    int sk = cl_expr_simplify(g, roots, n, try, o);
    if (!sk && cl_expr_share_products(g, try, n, try)) sk = CL_ENOMEM;
    if (sk == CL_ENOMEM) *st = CL_ENOMEM;
    return sk ? 0 : printed_operations(g, try, n - nlabel, try + n - nlabel, nlabel);
}

/* cl_model_simplify_named(); \p printed: the equations are to be read, so the attempts are made twice, the second time with
   the atoms' factors left outside them (cl_expr_simplify_opts.strip), which costs twice the time of those consumers that only
   evaluate them */
static int simplify_named(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, const int *atoms, size_t natoms,
                          int *atoms_out, long lead, long nlead, int printed)
{
    size_t na = 0, nall = n + natoms;
    int *rel = malloc((12 * m->nfac + 1) * sizeof *rel), *best = malloc((3 * nall + 1) * sizeof *best), *try = best + nall;
    int *all = best ? try + nall : NULL;
    int nrel = rel && best ? manifold_relations(g, m, rel) : -1, st = nrel < 0 ? CL_ENOMEM : CL_ENOCONV;
    if (all) {
        memcpy(all, roots, n * sizeof *all);
        for (size_t k = 0; k < natoms; k++) /* the atoms that are nodes, after the roots */
            if (atoms[k] >= 0) all[n + na++] = atoms[k];
    }
    size_t fewest = 0, nb = sizeof budgets / sizeof budgets[0];
    /* each run its own budget, far above what the shipped models take (two-bodies' largest run 1.6 s): a budget
       shared by the runs left the later ones to the machine's load, and the equations with them */
    for (size_t k = 0; k < (printed ? 2 : 1) * nb && nrel >= 0 && st != CL_ENOMEM; k++) {
        cl_expr_simplify_opts o = {.zero = rel, .nzero = (size_t)nrel, .lead = lead, .nlead = nlead, .max_terms = budgets[k % nb][0],
                                   .max_shared = budgets[k % nb][1], .atoms = all + n, .natoms = na, .strip = k >= nb,
                                   .atom_relations = printed};
        size_t ops = attempt(g, all, n + na, na, try, &o, &st);
        if (ops && (st == CL_ENOCONV || ops < fewest)) memcpy(best, try, (n + na) * sizeof *best), fewest = ops, st = CL_OK;
    }
    /* the pure sign flips after the choice, which they would only blur (a negation is not counted there) */
    if (!st && cl_expr_share_signs(g, best, n + na, best)) st = CL_ENOMEM;
    if (!st) memcpy(out, best, n * sizeof *out);
    else if (out != roots) memcpy(out, roots, n * sizeof *out);
    for (size_t k = 0, j = n; atoms_out && k < natoms; k++) atoms_out[k] = atoms[k] < 0 ? -1 : st ? atoms[k] : best[j++];
    free(rel), free(best);
    if (st == CL_ENOCONV)
        fprintf(stderr, "warning: the equations of motion of %s were not simplified within %.0f s of CPU time per attempt; the unsimplified ones are used\n",
                m->source, CL_EXPR_SIMPLIFY_SECONDS);
    return st;
}

int cl_model_simplify_named(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, const int *atoms, size_t natoms,
                            int *atoms_out, long lead, long nlead)
{
    return simplify_named(g, m, roots, n, out, atoms, natoms, atoms_out, lead, nlead, 1);
}

int cl_model_simplify(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, long lead, long nlead)
{
    return simplify_named(g, m, roots, n, out, NULL, 0, NULL, lead, nlead, 1);
}

/* A graph, its nodes' ids and the structure holding them, released. */
static void free_graph(void *holder, cl_expr_dag *g, int *ids)
{
    cl_expr_dag_free(g);
    free(ids);
    free(holder);
}

/* What a constructor of the equations returns for status \p st: CL_OK, or the error with its message in \p e. */
static int built(int st, cl_sys_error *e)
{
    return st ? cl_sys_error_set(e, st, NULL, st == CL_ENOMEM ? "out of memory" : "the equations of motion could not be built") : CL_OK;
}

int cl_model_mass_new(cl_model_mass **out, const cl_model *m, cl_sys_error *e)
{
    *out = NULL;
    cl_model_mass *q = calloc(1, sizeof *q);
    if (!q) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    q->nq = m->nq, q->nv = m->nv, q->nb = m->ncon;
    for (size_t i = 0; i < m->nfac; i++) q->nb += m->fac[i].kind == CL_LAGR_S2;
    long tin = m->so3 || m->nflat ? -1 : (long)(m->nq + m->nv);
    q->g = cl_expr_dag_copy(m->g);
    q->qd = malloc((q->nq + q->nv * q->nv + q->nv + q->nb * q->nv + q->nb + 1) * sizeof *q->qd);
    int st = !q->g || !q->qd ? CL_ENOMEM : CL_OK;
    if (!st) {
        q->M = q->qd + q->nq, q->F = q->M + q->nv * q->nv, q->B = q->F + q->nv, q->beta = q->B + q->nb * q->nv;
        st = cl_model_graph_mass(q->g, m, m->timed ? tin : -1, q->qd, q->M, q->F, q->B, q->beta);
    }
    if (st) cl_model_mass_free(q);
    else *out = q;
    return built(st, e);
}

void cl_model_mass_free(cl_model_mass *q)
{
    if (q) free_graph(q, q->g, q->qd);
}

/* The nodes the \p n roots need, or 0 when out of memory. */
static size_t reached(const cl_expr_dag *g, const int *roots, size_t n)
{
    size_t size = cl_expr_dag_size(g), count = 0;
    char *need = calloc(size + 1, 1);
    if (!need) return 0;
    for (size_t k = 0; k < n; k++) need[roots[k]] = 1;
    for (size_t i = size; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!need[i]) continue;
        count++;
        if (e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        need[e->a] = 1;
        if (e->b >= 0) need[e->b] = 1;
    }
    free(need);
    return count;
}

/*
 * The outputs and multipliers of \p q simplified on the manifold of \p m
 * (\p smaller: only when the simplified field has no more nodes than the
 * derived one, for the consumers that evaluate it); 0, CL_ENOCONV past the
 * budget (q unchanged, a warning said so), CL_ENOMEM.
 */
static int simplify_eom(cl_model_eom *q, const cl_model *m, int smaller)
{
    size_t n = q->dim + q->ncon, nv = q->vel ? m->nv : 0;
    int *out = malloc((n + nv + 1) * sizeof *out), *vel = out ? out + n : NULL;
    int st = out ? simplify_named(q->g, m, q->out, n, out, q->vel, nv, vel, 0, 0, !smaller) : CL_ENOMEM;
    if (!st && (!smaller || reached(q->g, out, n) <= reached(q->g, q->out, n))) {
        memcpy(q->out, out, n * sizeof *out);
        if (nv) memcpy(q->vel, vel, nv * sizeof *vel);
    } else if (!st) st = CL_EDIM; /* kept as derived: shorter */
    free(out);
    return st;
}

int cl_model_eom_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e) { return cl_model_eom_build(out, m, 2, e); }

int cl_model_eom_build(cl_model_eom **out, const cl_model *m, int simplify, cl_sys_error *e)
{
    *out = NULL;
    size_t dim = m->nq + m->nv;
    long tin = m->so3 || m->nflat ? -1 : (long)dim; /* the kinds without t have no input for it */
    cl_model_eom *q = calloc(1, sizeof *q);
    if (!q) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    q->dim = dim;
    q->time = m->timed ? tin : -1;
    q->param0 = tin >= 0 ? dim + 1 : dim;
    q->nparam = m->nparam;
    q->form = cl_model_kind_of(m)->forms[0];
    q->g = cl_expr_dag_copy(m->g);
    q->ncon = m->ncon;
    q->out = malloc((dim + m->ncon + m->nv + 1) * sizeof *q->out);
    q->mult = q->out ? q->out + dim : NULL;
    q->vel = q->out && m->ham ? q->mult + m->ncon : NULL;
    int st = !q->g || !q->out ? CL_ENOMEM
             : m->ham         ? cl_model_graph_hamilton(q->g, m, q->time, q->out, q->vel)
                              : cl_model_graph_lagrange(q->g, m, q->time, q->out, q->mult);
    if (!st && simplify) {
        st = simplify_eom(q, m, simplify == 2);
        q->simplified = st == CL_EDIM ? 0 : st ? -1 : 1;
        if (st == CL_ENOCONV || st == CL_EDIM) st = CL_OK;
    }
    if (st) cl_model_eom_free(q);
    else *out = q;
    return built(st, e);
}

void cl_model_eom_free(cl_model_eom *eom)
{
    if (eom) free_graph(eom, eom->g, eom->out);
}

void cl_model_eom_input_name(const cl_model *m, const cl_model_eom *eom, long k, char *buf, size_t len)
{
    if (k >= 0 && (size_t)k < eom->dim) cl_model_kind_of(m)->component_name(m, 0, (size_t)k, buf, len);
    else if (k == eom->time) snprintf(buf, len, "t");
    else if (k >= (long)eom->param0 && (size_t)k < eom->param0 + eom->nparam) snprintf(buf, len, "%s", m->pname[k - (long)eom->param0]);
    else snprintf(buf, len, "x%ld", k);
}

void cl_model_eom_velocity_name(const cl_model *m, size_t a, char *buf, size_t len)
{
    const cl_model_kind *kind = cl_model_kind_of(m);
    int form = 0;
    while (kind->forms[form] && strcmp(kind->forms[form], "qdot")) form++;
    kind->component_name(m, kind->forms[form] ? form : 0, m->nq + a, buf, len);
}

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

/* The operations the \p n roots need (each once: what the printed equations write with their temporaries), or 0 when out of memory. */
static size_t operations(const cl_expr_dag *g, const int *roots, size_t n)
{
    size_t size = cl_expr_dag_size(g), count = 0;
    char *need = calloc(size + 1, 1);
    if (!need) return 0;
    for (size_t k = 0; k < n; k++) need[roots[k]] = 1;
    for (size_t i = size; i-- > 0;) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (!need[i] || e->op == CL_EXPR_INPUT || e->op == CL_EXPR_CONST) continue;
        count++;
        need[e->a] = 1;
        if (e->b >= 0) need[e->b] = 1;
    }
    free(need);
    return count;
}

/*
 * The budgets of terms the simplifier is run with (a node's, a shared
 * node's), the result with the fewest operations kept: large budgets find
 * the cancellations of small models, small ones keep the sharing of the
 * derived graph (the LDLᵀ pivots of a product of many factors). The
 * products of the result then share their common parts (expr_share.h).
 */
static const size_t budgets[][2] = {{CL_EXPR_SIMPLIFY_TERMS, CL_EXPR_SIMPLIFY_SHARED_TERMS}, {8, 2}, {3, 1}, {1, 1}};

int cl_model_simplify(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, long lead, long nlead)
{
    int *rel = malloc((12 * m->nfac + 1) * sizeof *rel), *best = malloc((2 * n + 1) * sizeof *best), *try = best + n;
    int nrel = rel && best ? manifold_relations(g, m, rel) : -1, st = nrel < 0 ? CL_ENOMEM : CL_ENOCONV;
    size_t fewest = 0;
    /* each run its own budget, far above what the shipped models take (two-bodies' largest run 1.6 s): a budget
       shared by the runs left the later ones to the machine's load, and the equations with them */
    for (size_t k = 0; k < sizeof budgets / sizeof budgets[0] && nrel >= 0; k++) {
        cl_expr_simplify_opts o = {.zero = rel, .nzero = (size_t)nrel, .lead = lead, .nlead = nlead, .max_terms = budgets[k][0],
                                   .max_shared = budgets[k][1]};
        int sk = cl_expr_simplify(g, roots, n, try, &o);
        size_t ops = sk ? 0 : operations(g, try, n);
        if (!sk && (st || ops < fewest)) memcpy(best, try, n * sizeof *best), fewest = ops, st = CL_OK;
        if (sk == CL_ENOMEM) st = CL_ENOMEM;
        if (sk == CL_ENOMEM) break;
    }
    if (!st) memcpy(out, best, n * sizeof *out);
    else if (out != roots) memcpy(out, roots, n * sizeof *out);
    if (!st && cl_expr_share_products(g, out, n, out)) st = CL_ENOMEM;
    free(rel), free(best);
    if (st == CL_ENOCONV)
        fprintf(stderr, "warning: the equations of motion of %s were not simplified within %.0f s of CPU time per attempt; the unsimplified ones are used\n",
                m->source, CL_EXPR_SIMPLIFY_SECONDS);
    return st;
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
    if (st) {
        cl_model_mass_free(q);
        return cl_sys_error_set(e, st, NULL, "out of memory");
    }
    *out = q;
    return CL_OK;
}

void cl_model_mass_free(cl_model_mass *q)
{
    if (!q) return;
    cl_expr_dag_free(q->g);
    free(q->qd);
    free(q);
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
    size_t n = q->dim + q->ncon;
    int *out = malloc((n + 1) * sizeof *out);
    int st = out ? cl_model_simplify(q->g, m, q->out, n, out, 0, 0) : CL_ENOMEM;
    if (!st && (!smaller || reached(q->g, out, n) <= reached(q->g, q->out, n))) memcpy(q->out, out, n * sizeof *out);
    else if (!st) st = CL_EDIM; /* kept as derived: shorter */
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
    q->out = malloc((dim + m->ncon + 1) * sizeof *q->out);
    q->mult = q->out ? q->out + dim : NULL;
    int st = !q->g || !q->out ? CL_ENOMEM
             : m->ham         ? cl_model_graph_hamilton(q->g, m, q->time, q->out)
                              : cl_model_graph_lagrange(q->g, m, q->time, q->out, q->mult);
    if (!st && simplify) {
        st = simplify_eom(q, m, simplify == 2);
        q->simplified = st == CL_EDIM ? 0 : st ? -1 : 1;
        if (st == CL_ENOCONV || st == CL_EDIM) st = CL_OK;
    }
    if (st) {
        cl_model_eom_free(q);
        return cl_sys_error_set(e, st, NULL, st == CL_ENOMEM ? "out of memory" : "the equations of motion could not be built");
    }
    *out = q;
    return CL_OK;
}

void cl_model_eom_free(cl_model_eom *eom)
{
    if (!eom) return;
    cl_expr_dag_free(eom->g);
    free(eom->out);
    free(eom);
}

void cl_model_eom_input_name(const cl_model *m, const cl_model_eom *eom, long k, char *buf, size_t len)
{
    if (k >= 0 && (size_t)k < eom->dim) cl_model_kind_of(m)->component_name(m, 0, (size_t)k, buf, len);
    else if (k == eom->time) snprintf(buf, len, "t");
    else if (k >= (long)eom->param0 && (size_t)k < eom->param0 + eom->nparam) snprintf(buf, len, "%s", m->pname[k - (long)eom->param0]);
    else snprintf(buf, len, "x%ld", k);
}

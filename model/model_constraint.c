/*
 * Constraints of a model (`constraint NAME = EXPR`, model.h): the kind of
 * each, decided on the expression graph, and the velocity-level node the
 * product engine enforces (lagr_prod.h).
 *
 * A constraint c(q, u) whose graph reaches no velocity is holonomic: h(q) =
 * 0. Its rate along the motion ḣ = Σ_b ∂h/∂q_b q̇_b is built as a node of
 * the graph by forward differentiation of the nodes (the rates q̇_b being
 * the nodes of the manifold's primed names: u, RŴ, RV), and the engine
 * enforces ḣ = 0 with its derivative (the acceleration level); h itself
 * is checked on the states and its drift reported. A constraint whose
 * graph reaches a velocity is nonholonomic when it is linear in the
 * velocities: every ∂c/∂u_a, built the same way, reaches no velocity (its
 * second velocity derivatives vanish identically). Anything else is
 * refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_ext.h"

/* ------------------------------------------------------------ derivative nodes (−1: zero) */

static int op2(cl_expr_dag *g, int op, int a, int b) { return cl_expr_op(g, op, a, b, 0, -1); }

static int num(cl_expr_dag *g, long k)
{
    char s[24];
    int n = snprintf(s, sizeof s, "%ld", k);
    return cl_expr_const(g, s, (size_t)n, -1);
}

/* −d, d + e, d − e, a·d with −1 for zero; −2 when the graph is full. */
static int d_neg(cl_expr_dag *g, int d)
{
    if (d < 0) return d;
    int r = op2(g, CL_EXPR_NEG, d, -1);
    return r < 0 ? -2 : r;
}

static int d_add(cl_expr_dag *g, int a, int b, int sub)
{
    if (a == -2 || b == -2) return -2;
    if (b == -1) return a;
    if (a == -1) return sub ? d_neg(g, b) : b;
    int r = op2(g, sub ? CL_EXPR_SUB : CL_EXPR_ADD, a, b);
    return r < 0 ? -2 : r;
}

static int d_mul(cl_expr_dag *g, int a, int d)
{
    if (d < 0 || a == -2) return d == -2 || a == -2 ? -2 : -1;
    int r = op2(g, CL_EXPR_MUL, a, d);
    return r < 0 ? -2 : r;
}

/* d/b (b a node, or −2) */
static int d_div(cl_expr_dag *g, int d, int b)
{
    if (d < 0 || b < 0) return d == -1 ? -1 : -2;
    int r = op2(g, CL_EXPR_DIV, d, b);
    return r < 0 ? -2 : r;
}

/* The derivative of node i from those of its arguments (dd[]), −1 for zero, −2 when the graph is full. */
static int d_node(cl_expr_dag *g, int i, const int *dd)
{
    const cl_expr_node n = *cl_expr_dag_node(g, i);
    int da = n.a >= 0 ? dd[n.a] : -1, db = n.b >= 0 ? dd[n.b] : -1;
    switch (n.op) {
    case CL_EXPR_ADD: return d_add(g, da, db, 0);
    case CL_EXPR_SUB: return d_add(g, da, db, 1);
    case CL_EXPR_MUL: return d_add(g, d_mul(g, n.b, da), d_mul(g, n.a, db), 0);
    case CL_EXPR_DIV: { /* (a/b)' = (a' − (a/b) b')/b */
        return d_div(g, d_add(g, da, d_mul(g, i, db), 1), n.b);
    }
    case CL_EXPR_NEG: return d_neg(g, da);
    case CL_EXPR_POWI: {
        if (n.k == 0 || da < 0) return n.k == 0 ? -1 : da;
        int p = n.k == 2 ? n.a : cl_expr_op(g, CL_EXPR_POWI, n.a, -1, n.k - 1, -1);
        return p < 0 ? -2 : d_mul(g, d_mul(g, num(g, n.k), p), da);
    }
    case CL_EXPR_SIN: return d_mul(g, op2(g, CL_EXPR_COS, n.a, -1), da);
    case CL_EXPR_COS: return d_neg(g, d_mul(g, op2(g, CL_EXPR_SIN, n.a, -1), da));
    case CL_EXPR_TAN: return d_add(g, da, d_mul(g, d_mul(g, i, i), da), 0); /* (1 + tan²) a' */
    case CL_EXPR_EXP: return d_mul(g, i, da);
    case CL_EXPR_LOG: return d_div(g, da, n.a);
    case CL_EXPR_SQRT: return d_div(g, da, d_mul(g, num(g, 2), i));
    case CL_EXPR_ATAN2: { /* atan2(y, x)' = (x y' − y x')/(x² + y²) */
        int t = d_add(g, d_mul(g, n.b, da), d_mul(g, n.a, db), 1);
        int s = d_add(g, d_mul(g, n.a, n.a), d_mul(g, n.b, n.b), 0);
        return s == -2 ? -2 : d_div(g, t, s);
    }
    default: return -1;
    }
}

/*
 * The node of Σ_k ∂root/∂x_k ẋ_k, ẋ_k = rate[k] for the inputs k < nrate
 * (−1: zero), into *out (−1: identically zero). 0, or −1 when out of memory.
 */
static int derivative_node(cl_expr_dag *g, int root, const int *rate, long nrate, int *out)
{
    int *dd = malloc(((size_t)root + 1) * sizeof *dd);
    if (!dd) return -1;
    for (int i = 0; i <= root; i++) {
        const cl_expr_node *n = cl_expr_dag_node(g, i);
        if (n->op == CL_EXPR_CONST) dd[i] = -1;
        else if (n->op == CL_EXPR_INPUT) dd[i] = n->k < nrate ? rate[n->k] : -1;
        else dd[i] = d_node(g, i, dd);
        if (dd[i] < -1) break;
    }
    *out = dd[root];
    free(dd);
    return *out < -1 ? -1 : 0;
}

/* ------------------------------------------------------------ the kinds of constraint */

static int reaches_velocity(const cl_model *m, int id)
{
    for (size_t a = 0; a < m->nv; a++)
        if (cl_expr_depends_on_input(m->g, id, (long)(m->nq + a))) return 1;
    return 0;
}

/* The rates of the configuration inputs: the nodes of the primed names of the factors. */
static int configuration_rates(const cl_model *m, int *rate)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        for (int j = 0; j < 2 && f->name[j][0]; j++) {
            cl_expr_value v;
            if (cl_model_prod_lookup(m, m->g, f->name[j], strlen(f->name[j]), 1, &v)) return -1;
            for (int k = 0; k < v.shape; k++) rate[f->q + 9 * (size_t)j + (size_t)k] = v.id[k];
        }
    }
    return 0;
}

/* 1 when c is linear in the velocities (each ∂c/∂u_a reaches no velocity), 0 when not, −1 when out of memory. */
static int linear_in_velocities(cl_model *m, int c)
{
    size_t n = m->nq + m->nv;
    int *rate = malloc(n * sizeof *rate), one = cl_expr_const(m->g, "1", 1, -1), linear = 1;
    if (!rate || one < 0) {
        free(rate);
        return -1;
    }
    for (size_t a = 0; a < m->nv && linear == 1; a++) {
        for (size_t k = 0; k < n; k++) rate[k] = k == m->nq + a ? one : -1;
        int d;
        if (derivative_node(m->g, c, rate, (long)n, &d)) linear = -1;
        else if (d >= 0 && reaches_velocity(m, d)) linear = 0;
    }
    free(rate);
    return linear;
}

int cl_model_constraint_settle(cl_model *m, size_t k, char *why, size_t len)
{
    int c = m->con[k];
    const char *name = m->conname[k];
    if (cl_model_depends_on_time(m, c)) {
        snprintf(why, len, "the constraint %s depends on the time t (constraints are functions of the state only)", name);
        return CL_EPARSE;
    }
    if (reaches_velocity(m, c)) {
        int lin = linear_in_velocities(m, c);
        if (lin < 0) return CL_ENOMEM;
        if (!lin) {
            snprintf(why, len, "the constraint %s is neither linear in the velocities (nonholonomic) nor a function of the configuration only (holonomic)", name);
            return CL_EPARSE;
        }
        m->conh[k] = -1;
        return CL_OK;
    }
    int *rate = malloc(m->nq * sizeof *rate), d = -1;
    int st = !rate || configuration_rates(m, rate) || derivative_node(m->g, c, rate, (long)m->nq, &d) ? CL_ENOMEM : CL_OK;
    free(rate);
    if (st) return st;
    if (d < 0 || !reaches_velocity(m, d)) {
        snprintf(why, len, "the constraint %s does not depend on the configuration (it constrains nothing)", name);
        return CL_EPARSE;
    }
    m->conh[k] = c;
    m->con[k] = d;
    return CL_OK;
}

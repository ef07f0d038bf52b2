/*
 * A model's equations of motion as the Taylor integrator's field
 * (model_taylor.h): the simplified or the derived graph of the equations,
 * whichever costs a Taylor order less (cl_model_eom_taylor_new()), copied with the parameters
 * as constants, and a run over it. The oracle's integrating rows of a
 * model (MODEL.conserve) run it beside GBS, with the energy balance's W
 * as a state of its own when L depends on t, and read the motion's radius
 * of convergence from a low-order expansion to fit the run's order and the
 * GBS columns to their span; `simulate --integrator taylor --model` builds
 * its field with cl_model_eom_field().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model_taylor.h"
#include "scalar.h"

#if CL_PREC == CL_MPFR
/* A Taylor order's work on q's field: a convolution (a product or quotient of two moving nodes, a
   function of a moving node) counts CONV_WEIGHT, a linear operation 1; parameters do not move. */
#define CONV_WEIGHT 40
static double taylor_cost(const cl_model_eom *q)
{
    size_t n = cl_expr_dag_size(q->g);
    char *mark = calloc(2 * n + 1, 1), *needed = mark, *moves = mark + n;
    double cost = 0;
    if (!mark) return INFINITY;
    for (size_t i = 0; i < q->dim; i++) needed[q->out[i]] = 1;
    for (size_t id = n; id-- > 0;) { /* arguments have smaller ids than their node */
        const cl_expr_node *d = cl_expr_dag_node(q->g, (int)id);
        if (needed[id] && d->a >= 0) needed[d->a] = 1;
        if (needed[id] && d->b >= 0) needed[d->b] = 1;
    }
    for (size_t id = 0; id < n; id++) {
        const cl_expr_node *d = cl_expr_dag_node(q->g, (int)id);
        int ma = d->a >= 0 && moves[d->a], mb = d->b >= 0 && moves[d->b];
        moves[id] = d->op == CL_EXPR_INPUT ? (size_t)d->k < q->dim || d->k == q->time : ma || mb;
        if (!needed[id] || !moves[id] || d->op == CL_EXPR_INPUT) continue;
        int conv = d->op == CL_EXPR_MUL ? ma && mb : d->op == CL_EXPR_DIV ? mb
                 : d->op != CL_EXPR_ADD && d->op != CL_EXPR_SUB && d->op != CL_EXPR_NEG;
        cost += conv ? CONV_WEIGHT : 1;
    }
    free(mark);
    return cost;
}

int cl_model_eom_taylor_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e)
{
    cl_model_eom *derived = NULL;
    int st = cl_model_eom_new(out, m, e);
    if (st || (*out)->simplified != 1 || cl_model_eom_build(&derived, m, 0, e)) return st;
    if (taylor_cost(derived) < taylor_cost(*out)) {
        cl_model_eom_free(*out);
        *out = derived;
    } else {
        cl_model_eom_free(derived);
    }
    return CL_OK;
}

/* Node id of q's graph in g (its arguments mapped already in map). */
static int copy_node(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, const int *map, int id)
{
    const cl_expr_node *d = cl_expr_dag_node(q->g, id);
    if (d->op == CL_EXPR_CONST) {
        const char *s = cl_expr_dag_const(q->g, d->k);
        return cl_expr_const(g, s, strlen(s), -1);
    }
    if (d->op == CL_EXPR_INPUT) {
        if ((size_t)d->k < q->dim) return cl_expr_input(g, d->k);
        if (d->k == q->time) return cl_expr_input(g, tin);
        size_t k = (size_t)d->k - q->param0;
        return k < q->nparam && param[k] ? cl_expr_const(g, param[k], strlen(param[k]), -1) : -1;
    }
    return cl_expr_op(g, d->op, d->a >= 0 ? map[d->a] : -1, d->b >= 0 ? map[d->b] : -1, d->k, -1);
}

int cl_model_eom_copy(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, int *map)
{
    size_t n = cl_expr_dag_size(q->g);
    for (size_t id = 0; id < n; id++)
        if ((map[id] = copy_node(g, q, param, tin, map, (int)id)) < 0) return CL_ENOMEM;
    return CL_OK;
}

int cl_model_eom_field(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, int *out)
{
    size_t n = cl_expr_dag_size(q->g);
    int *map = malloc((n ? n : 1) * sizeof *map);
    int st = map ? cl_model_eom_copy(g, q, param, tin, map) : CL_ENOMEM;
    for (size_t i = 0; !st && i < q->dim; i++) out[i] = map[q->out[i]];
    free(map);
    return st;
}
#endif

/* The integrator of order \p order for m's equations in form \p form of length dim (CL_EDIM when eom builds none), at precision
   prec; with \p balance the state carries W after them, W' = ∂L/∂t (the time input then follows W). */
static int model_taylor_new(CL_FN(cl_taylor) **ws, cl_expr_dag **g, const cl_model *m, const char *form, size_t dim, int balance,
                            int order, cl_prec_t prec)
{
    cl_model_eom *q;
    cl_sys_error e;
    size_t n = dim + (balance ? 1 : 0);
    *ws = NULL;
    *g = NULL;
    if (cl_model_eom_taylor_new(&q, m, &e)) return CL_EDIM;
    int same = q->dim == dim && q->form && !strcmp(q->form, form) && (!balance || q->time >= 0);
    int *out = same ? malloc(n * sizeof *out) : NULL;
    int *map = same ? malloc((cl_expr_dag_size(q->g) + 1) * sizeof *map) : NULL;
    int st = !same ? CL_EDIM : !out || !map || cl_expr_dag_new(g) ? CL_ENOMEM : CL_OK;
    if (!st) st = cl_model_eom_copy(*g, q, (const char *const *)m->pdef, (long)n, map);
    for (size_t i = 0; !st && i < dim; i++) out[i] = map[q->out[i]];
    if (!st && balance && cl_expr_diff_many(*g, map + m->L, 1, (long)n, out + dim)) st = CL_ENOMEM; /* q->g copies m->g: L's id */
    if (!st) st = CL_FN(cl_taylor_new)(ws, *g, out, n, 0, (long)n, order, prec);
    free(map);
    free(out);
    cl_model_eom_free(q);
    return st;
}

int CL_FN(cl_model_taylor_radius)(const cl_model *m, const char *form, size_t dim, int balance, rsrc t, rsrc x, double *log2rho)
{
    CL_FN(cl_taylor) *ws;
    cl_expr_dag *g;
    const int p = 16; /* the step's formula reads the coefficients of orders p − 1 and p */
    int st = model_taylor_new(&ws, &g, m, form, dim, balance, p, r_prec(x));
    if (!st) st = CL_FN(cl_taylor_expand)(ws, t, x);
    if (!st) {
        R_DECL(h, r_prec(x));
        CL_FN(cl_taylor_step_size)(ws, h); /* h = ρ e^−2 e^(−0.7/(p−1)) */
        *log2rho = r_is_number(h) ? r_log2abs(h) + (2 + 0.7 / (p - 1)) / M_LN2 : INFINITY;
    }
    CL_FN(cl_taylor_free)(ws);
    cl_expr_dag_free(g);
    return st;
}

int CL_FN(cl_model_taylor_run)(const cl_model *m, const char *form, size_t dim, int balance, int order, rptr t, rptr x, rsrc t1,
                               CL_FN(cl_ode_observer) obs, void *octx, long *steps)
{
    CL_FN(cl_taylor) *ws;
    cl_expr_dag *g;
    int st = model_taylor_new(&ws, &g, m, form, dim, balance, order, r_prec(x));
    cl_ode_stats s = {0};
    if (!st) st = CL_FN(cl_taylor_integrate)(ws, t, x, t1, 0, obs, octx, -1, 0, &s);
    if (steps) *steps = s.steps;
    CL_FN(cl_taylor_free)(ws);
    cl_expr_dag_free(g);
    return st;
}

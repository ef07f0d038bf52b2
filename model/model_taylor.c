/*
 * A model's equations of motion as the Taylor integrator's field
 * (model_taylor.h): cl_model_eom_new()'s graph copied with the parameters
 * as constants, and a run over it. The oracle's integrating rows of a
 * model (MODEL.conserve) run it beside GBS; `simulate --integrator taylor
 * --model` builds its field with cl_model_eom_field().
 */
#include <stdlib.h>
#include <string.h>
#include "model_taylor.h"
#include "scalar.h"

#if CL_PREC == CL_MPFR
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

int cl_model_eom_field(cl_expr_dag *g, const cl_model_eom *q, const char *const *param, long tin, int *out)
{
    size_t n = cl_expr_dag_size(q->g);
    int *map = malloc((n ? n : 1) * sizeof *map);
    int st = map ? CL_OK : CL_ENOMEM;
    for (size_t id = 0; !st && id < n; id++)
        if ((map[id] = copy_node(g, q, param, tin, map, (int)id)) < 0) st = CL_ENOMEM;
    for (size_t i = 0; !st && i < q->dim; i++) out[i] = map[q->out[i]];
    free(map);
    return st;
}
#endif

/* The integrator of m's equations at precision prec; CL_EDIM when there are none in form \p form of length dim. */
static int model_taylor_new(CL_FN(cl_taylor) **ws, cl_expr_dag **g, const cl_model *m, const char *form, size_t dim, double log2tol,
                            cl_prec_t prec)
{
    cl_model_eom *q;
    cl_sys_error e;
    *ws = NULL;
    *g = NULL;
    if (cl_model_eom_new(&q, m, &e)) return CL_EDIM;
    int same = q->dim == dim && q->form && !strcmp(q->form, form);
    int *out = same ? malloc(dim * sizeof *out) : NULL;
    int st = !same ? CL_EDIM : !out || cl_expr_dag_new(g) ? CL_ENOMEM : CL_OK;
    if (!st) st = cl_model_eom_field(*g, q, (const char *const *)m->pdef, (long)dim, out);
    if (!st) st = CL_FN(cl_taylor_new)(ws, *g, out, dim, 0, (long)dim, cl_taylor_order_for_tol(log2tol), prec);
    free(out);
    cl_model_eom_free(q);
    return st;
}

int CL_FN(cl_model_taylor_run)(const cl_model *m, const char *form, size_t dim, double log2tol, rptr t, rptr x, rsrc t1,
                               CL_FN(cl_ode_observer) obs, void *octx, long *steps)
{
    CL_FN(cl_taylor) *ws;
    cl_expr_dag *g;
    int st = model_taylor_new(&ws, &g, m, form, dim, log2tol, r_prec(x));
    cl_ode_stats s = {0};
    if (!st) st = CL_FN(cl_taylor_integrate)(ws, t, x, t1, 0, obs, octx, -1, 0, &s);
    if (steps) *steps = s.steps;
    CL_FN(cl_taylor_free)(ws);
    cl_expr_dag_free(g);
    return st;
}

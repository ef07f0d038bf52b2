/**
 * \file sim_graph_model.c
 * \brief The field of a model (form qdot) as an expression graph for
 *        `simulate --integrator taylor`: the equations of motion of
 *        cl_model_eom_new() copied into the run's graph, each parameter
 *        input replaced by its value (given or default) as a constant.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_graph.h"

/* The constant node of \p x, written with the digits that read back to the same number. */
static int value_node(cl_expr_dag *g, mpfr_srcptr x)
{
    int digits = (int)ceil((double)mpfr_get_prec(x) * log10(2.0)) + 2;
    char buf[32000];
    int n = mpfr_snprintf(buf, sizeof buf, "%.*Re", digits, x);
    return n > 0 && (size_t)n < sizeof buf ? cl_expr_const(g, buf, (size_t)n, -1) : -1;
}

/* Node \p id of the equations' graph, in \p g (its arguments mapped already). */
static int copy_node(const cl_cmd_system *cs, const cl_model *m, const cl_model_eom *q, cl_expr_dag *g, const int *map, int id)
{
    const cl_expr_node *d = cl_expr_dag_node(q->g, id);
    if (d->op == CL_EXPR_CONST) {
        const char *s = cl_expr_dag_const(q->g, d->k);
        return cl_expr_const(g, s, strlen(s), -1);
    }
    if (d->op == CL_EXPR_INPUT) {
        if ((size_t)d->k < q->dim) return cl_expr_input(g, d->k);
        if (d->k == q->time) return cl_expr_input(g, (long)q->dim); /* the run's time input */
        size_t k = (size_t)d->k - q->param0;
        return k < q->nparam ? value_node(g, cl_params_get(&cs->params, m->pname[k])->x) : -1;
    }
    return cl_expr_op(g, d->op, d->a >= 0 ? map[d->a] : -1, d->b >= 0 ? map[d->b] : -1, d->k, -1);
}

static int model_field(const cl_cmd_system *cs, cl_expr_dag *g, int *out)
{
    if (!cs->from_model || cs->form != 0) return 0;
    const cl_model *m = cl_model_system_model(cs->sys);
    cl_model_eom *q;
    cl_sys_error e;
    if (!m || cl_model_eom_new(&q, m, &e)) return 0; /* not built for this model: no graph */
    size_t n = cl_expr_dag_size(q->g);
    int *map = q->dim == cs->dim ? malloc((n ? n : 1) * sizeof *map) : NULL;
    int st = map ? 1 : q->dim == cs->dim ? CL_ENOMEM : 0;
    for (size_t id = 0; map && id < n && st > 0; id++)
        if ((map[id] = copy_node(cs, m, q, g, map, (int)id)) < 0) st = CL_ENOMEM;
    for (size_t i = 0; st > 0 && i < cs->dim; i++) out[i] = map[q->out[i]];
    free(map);
    cl_model_eom_free(q);
    return st;
}

__attribute__((constructor)) static void register_model(void) { cl_sim_graph_register(model_field); }

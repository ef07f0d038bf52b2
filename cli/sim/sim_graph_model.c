/**
 * \file sim_graph_model.c
 * \brief The field of a model (form qdot) as an expression graph for
 *        `simulate --integrator taylor`: the equations of motion of
 *        cl_model_eom_new() copied into the run's graph by
 *        cl_model_eom_field(), each parameter input replaced by its value
 *        (given or default) as a constant.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model_taylor.h"
#include "sim_graph.h"

/* The decimal text of \p x with the digits that read back to the same number (malloc'd; NULL: out of memory). */
static char *value_text(mpfr_srcptr x)
{
    int digits = (int)ceil((double)mpfr_get_prec(x) * log10(2.0)) + 2;
    char *s = NULL, *out = NULL;
    if (mpfr_asprintf(&s, "%.*Re", digits, x) < 0) return NULL;
    out = strdup(s);
    mpfr_free_str(s);
    return out;
}

static int model_field(const cl_cmd_system *cs, cl_expr_dag *g, int *out)
{
    if (!cs->from_model || cs->form != 0) return 0;
    const cl_model *m = cl_model_system_model(cs->sys);
    cl_model_eom *q;
    cl_sys_error e;
    if (!m || cl_model_eom_new(&q, m, &e)) return 0; /* not built for this model: no graph */
    int st = q->dim == cs->dim;
    char **text = st ? calloc(q->nparam + 1, sizeof *text) : NULL;
    if (st && !text) st = CL_ENOMEM;
    for (size_t k = 0; st > 0 && k < q->nparam; k++)
        if (!(text[k] = value_text(cl_params_get(&cs->params, m->pname[k])->x))) st = CL_ENOMEM;
    if (st > 0 && cl_model_eom_field(g, q, (const char *const *)text, (long)cs->dim, out)) st = CL_ENOMEM;
    for (size_t k = 0; text && k < q->nparam; k++) free(text[k]);
    free(text);
    cl_model_eom_free(q);
    return st;
}

__attribute__((constructor)) static void register_model(void) { cl_sim_graph_register(model_field); }

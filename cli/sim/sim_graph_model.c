/**
 * \file sim_graph_model.c
 * \brief The field of a model (form qdot) as an expression graph for
 *        `simulate --integrator taylor`: the equations of motion of
 *        cl_model_eom_taylor_new() copied into the run's graph by
 *        cl_model_eom_field(), each parameter input replaced by its value
 *        (given or default) as a constant.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model_taylor.h"
#include "sim_graph.h"
#include "sim_enclose.h"

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

/* The model's equations copied into g (map: the eom graph's node → g's node, which holds L and
   the invariants at their ids in the model's graph), the parameters as constants; *eom set.
   1, 0 when the model has no such graph for this form, or a negative CL_E code. */
static int model_copy(const cl_cmd_system *cs, cl_expr_dag *g, cl_model_eom **eom, int **map)
{
    *eom = NULL, *map = NULL;
    if (!cs->from_model || cs->form != 0) return 0;
    const cl_model *m = cl_model_system_model(cs->sys);
    cl_sys_error e;
    if (!m || cl_model_eom_taylor_new(eom, m, &e)) return 0; /* not built for this model: no graph */
    const cl_model_eom *q = *eom;
    int st = q->dim == cs->dim;
    char **text = st ? calloc(q->nparam + 1, sizeof *text) : NULL;
    *map = st ? malloc((cl_expr_dag_size(q->g) + 1) * sizeof **map) : NULL;
    if (st && (!text || !*map)) st = CL_ENOMEM;
    for (size_t k = 0; st > 0 && k < q->nparam; k++)
        if (!(text[k] = value_text(cl_params_get(&cs->params, m->pname[k])->x))) st = CL_ENOMEM;
    if (st > 0 && cl_model_eom_copy(g, q, (const char *const *)text, (long)cs->dim, *map)) st = CL_ENOMEM;
    for (size_t k = 0; text && k < q->nparam; k++) free(text[k]);
    free(text);
    return st;
}

static int model_field(const cl_cmd_system *cs, cl_expr_dag *g, int *out)
{
    cl_model_eom *q;
    int *map, st = model_copy(cs, g, &q, &map);
    for (size_t i = 0; st > 0 && i < q->dim; i++) out[i] = map[q->out[i]];
    free(map);
    cl_model_eom_free(q);
    return st;
}

int cl_sim_graph_model_invariants(const cl_cmd_system *cs, cl_expr_dag *g, int *out, const char **names, size_t max)
{
    cl_model_eom *q;
    int *map, st = model_copy(cs, g, &q, &map);
    const cl_model *m = st > 0 ? cl_model_system_model(cs->sys) : NULL;
    size_t k = 0;
    if (m && !m->timed && !m->constrained && m->nq + m->nv == cs->dim && max > 0) { /* E = H, or Σ v ∂L/∂v − L */
        int E = map[m->L];
        if (!m->ham) {
            size_t nv = m->nv, v0 = m->nq; /* the state: the configuration, then the velocities */
            int acc = cl_expr_op(g, CL_EXPR_NEG, E, -1, 0, -1);
            for (size_t i = 0; i < nv && acc >= 0; i++) {
                int d = cl_expr_diff(g, E, (long)(v0 + i)), v = cl_expr_input(g, (long)(v0 + i));
                acc = cl_expr_op(g, CL_EXPR_ADD, acc, cl_expr_op(g, CL_EXPR_MUL, v, d, 0, -1), 0, -1);
            }
            E = acc;
        }
        if (E < 0) st = CL_ENOMEM;
        names[k] = "E", out[k++] = E;
    }
    for (size_t i = 0; m && i < m->ninv && k < max; i++) names[k] = m->invname[i], out[k++] = map[m->inv[i]];
    free(map);
    cl_model_eom_free(q);
    return st < 0 ? st : (int)k;
}

__attribute__((constructor)) static void register_model(void) { cl_sim_graph_register(model_field); }

int cl_sim_graph_model_manifold(const cl_cmd_system *cs, size_t *off, int *rot, size_t max)
{
    const cl_model *m = cs->from_model && cs->form == 0 ? cl_model_system_model(cs->sys) : NULL;
    size_t k = 0;
    for (size_t i = 0; m && m->nq + m->nv == cs->dim && i < m->nfac && k < max; i++) {
        int kind = m->fac[i].kind;
        if (kind != CL_LAGR_S2 && kind != CL_LAGR_SO3 && kind != CL_LAGR_SE3) continue;
        off[k] = m->fac[i].q, rot[k++] = kind != CL_LAGR_S2;
    }
    return (int)k;
}

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
#include "cl_core.h"
#include "model_kinds.h"
#include "model_graph_impl.h"

int cl_model_eom_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e)
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

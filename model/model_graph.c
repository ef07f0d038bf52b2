/*
 * The equations of motion of a model as one expression graph (model.h,
 * cl_model_eom_new()): a copy of the model's graph grown by the symbolic
 * derivatives of L (expr_diff.c) up to the accelerations, for the consumers
 * that want the field itself rather than its values: the printed equations
 * (`chartless eom`), generated code and Taylor integration.
 *
 * Built for the models on S¹, Rᵏ and S² factors, whichever engine runs
 * them (the flat kind, the (S²)ⁿ kind, or the product engine): their
 * velocities are the rates of their coordinates, so the equations are
 * cl_expr_euler_lagrange()'s, with the unit vectors' constraint
 * multipliers removed by projection as the product engine removes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cl_core.h"
#include "lagr_prod.h"
#include "model_ext.h"

/* 1 when every factor of \p m is an S¹, an Rᵏ or an S², the first coordinates of the S² factors into unit. */
static int embedded(const cl_model *m, size_t *unit, size_t *nunit)
{
    *nunit = 0;
    if (m->so3) return 0;
    if (m->nflat) return 1;
    for (size_t i = 0; i < m->nfac; i++) {
        int k = m->fac[i].kind;
        if (k != CL_LAGR_S1 && k != CL_LAGR_RK && k != CL_LAGR_S2) return 0;
        if (k == CL_LAGR_S2) unit[(*nunit)++] = m->prod ? m->fac[i].q : 3 * i;
    }
    return 1;
}

int cl_model_eom_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e)
{
    *out = NULL;
    if (m->ham) return cl_sys_error_set(e, CL_EDIM, m->source, "the equations of motion as a graph are built from a lagrangian, not a hamiltonian");
    if (m->ncon)
        return cl_sys_error_set(e, CL_EDIM, m->source, "the equations of motion as a graph are not built for a model with constraints");
    size_t unit[CL_LAGR_PROD_MAX_FACTORS + CL_LAGR_MAX_SPHERES], nunit;
    if (m->nfac > CL_LAGR_PROD_MAX_FACTORS + CL_LAGR_MAX_SPHERES || !embedded(m, unit, &nunit))
        return cl_sys_error_set(e, CL_EDIM, m->source,
                                "the equations of motion as a graph are built for models on S1, R^k and S2 factors only");
    size_t d = m->nflat ? m->d : m->prod ? m->nq : 3 * m->n;
    long tin = m->prod ? (long)(2 * d) : m->nflat ? -1 : (long)(6 * m->n);
    cl_model_eom *q = calloc(1, sizeof *q);
    if (!q) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    q->dim = 2 * d;
    q->time = m->timed ? tin : -1;
    q->param0 = tin >= 0 ? 2 * d + 1 : 2 * d;
    q->nparam = m->nparam;
    q->g = cl_expr_dag_copy(m->g);
    q->out = malloc(2 * d * sizeof *q->out);
    int st = !q->g || !q->out ? CL_ENOMEM : cl_expr_euler_lagrange(q->g, m->L, d, q->time, m->force, unit, nunit, q->out);
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

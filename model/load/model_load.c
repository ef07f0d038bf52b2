/*
 * A parsed model (model.h) as a whole: loading it from a file or the
 * shipped set, freeing it, its time dependence, its kind, and the model
 * as a system of the command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model.h"
#include "model_ext.h"
#include "system_impl.h"

int cl_model_load(cl_model **out, const char *path, cl_sys_error *e)
{
    *out = NULL;
    char *buf;
    size_t len;
    int st = cl_text_read(path, CL_MODEL_MAX_BYTES, "model", &buf, &len, e);
    if (!st) st = cl_model_parse(out, path, buf, len, e);
    free(buf);
    return st;
}

int cl_model_load_shipped(cl_model **out, const char *name, cl_sys_error *e)
{
    const char *dir = getenv("CHARTLESS_MODELS");
    char path[512];
    snprintf(path, sizeof path, "%s/%s.model", dir ? dir : "models", name);
    if (dir) return cl_model_load(out, path, e);
    *out = NULL;
    size_t len;
    const char *text = cl_model_shipped_text(name, &len);
    if (!text) return cl_sys_error_set(e, CL_EPARSE, name, "no shipped model of that name");
    return cl_model_parse(out, path, text, len, e);
}

void cl_model_free(cl_model *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->nparam; i++) free(m->pdef[i]);
    free(m->pdef);
    free(m->pname);
    free(m->qname);
    free(m->flat);
    free(m->invname);
    free(m->inv);
    free(m->eqname);
    free(m->eq);
    free(m->eqv);
    free(m->eqpos);
    free(m->force);
    free(m->fac);
    free(m->letname);
    free(m->let);
    free(m->conname);
    free(m->con);
    free(m->conh);
    free(m->cont);
    free(m->conpos);
    cl_expr_dag_free(m->g);
    free(m->source);
    free(m->text);
    free(m);
}

long cl_model_time_input(const cl_model *m)
{
    return m->prod ? (long)(m->nq + m->nv) : (m->so3 || m->nflat) ? -1 : (long)(6 * m->n);
}

int cl_model_depends_on_time(const cl_model *m, int id)
{
    long t = cl_model_time_input(m);
    return t >= 0 && cl_expr_depends_on_input(m->g, id, t);
}

void cl_model_system_free(const cl_system *s) { cl_model_ext_system_free(s); }

int cl_model_system_new(const cl_system **out, const char *path, cl_sys_error *e)
{
    *out = NULL;
    cl_model *m;
    int st = cl_model_load(&m, path, e);
    if (st) return st;
    return cl_model_ext_system_new(out, m, cl_model_kind_of(m), e);
}

const cl_model_kind *cl_model_kind_of(const cl_model *m)
{
    return m->ham ? &cl_model_kind_ham : m->prod ? (m->ncon ? &cl_model_kind_prod_constrained : &cl_model_kind_prod) : m->so3 ? &cl_model_kind_so3 : m->nflat ? &cl_model_kind_flat : &cl_model_kind_s2;
}

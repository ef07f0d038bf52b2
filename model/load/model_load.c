/*
 * Opening a model (model_system.h): parsing it with the names of every
 * factor kind (cl_model_kinds_grammar), loading it from a file or the
 * shipped set, and the model as a system of the command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
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

void cl_model_system_free(const cl_system *s) { cl_model_ext_system_free(s); }

int cl_model_system_new(const cl_system **out, const char *path, cl_sys_error *e)
{
    *out = NULL;
    cl_model *m;
    int st = cl_model_load(&m, path, e);
    if (st) return st;
    return cl_model_ext_system_new(out, m, cl_model_kind_of(m), e);
}

int cl_model_parse(cl_model **out, const char *source, const char *text, size_t len, cl_sys_error *e)
{
    return cl_model_lang_parse(out, source, text, len, &cl_model_kinds_grammar, e);
}

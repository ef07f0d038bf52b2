/*
 * One system of the command line for every kind of model other than
 * (S²)ⁿ (model_ext.h): parameters from the model, the fields, maps and
 * values of the kind's core, and the model's invariants after the energy.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_ext.h"

typedef struct ext_system {
    cl_system sys; /* first: cl_model_ext_system_free() receives it */
    const cl_model_kind *kind;
    cl_model *m;
    cl_param *table;
    const char **invnames;
    char *summary, *name;
    struct ext_system *next;
} ext_system;

typedef struct ext_inst {
    const ext_system *es;
    void *core;
    cl_prec_t prec;
} ext_inst;

/* The systems open now: create() finds its model by the parameter table it is given. */
static ext_system *open_ext;

static int ext_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const ext_system *es = open_ext;
    while (es && es->table != p->table) es = es->next;
    if (!es) return cl_sys_error_set(e, CL_EPARAM, NULL, "no model is open for these parameters");
    ext_inst *in = calloc(1, sizeof *in);
    if (in) in->core = es->kind->open(es->m, prec);
    if (!in || !in->core) {
        free(in);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    in->es = es;
    in->prec = prec;
    for (size_t k = 0; k < es->m->nparam; k++) es->kind->set_param(in->core, k, cl_params_x(p, es->m->pname[k]));
    *out = in;
    return CL_OK;
}

static void ext_destroy(void *inst)
{
    ext_inst *in = inst;
    if (!in) return;
    in->es->kind->close(in->core);
    free(in);
}

static size_t ext_dim(void *inst, int form)
{
    const ext_inst *in = inst;
    return in->es->kind->dim(in->es->m, form);
}

int cl_model_lookup_param(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, long base, cl_expr_value *out)
{
    for (size_t i = 0; i < m->nparam; i++)
        if (strlen(m->pname[i]) == len && !memcmp(m->pname[i], name, len)) {
            *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, base + (long)i)}};
            return 0;
        }
    return -1;
}

void cl_model_explain(const cl_model *m, int bad, int st, const char *singular, char *err, size_t errlen)
{
    if (st == CL_EDOMAIN && bad >= 0 && cl_expr_dag_node(m->g, bad)->pos >= 0) {
        long pos = cl_expr_dag_node(m->g, bad)->pos;
        char where[240];
        cl_model_where(m, pos, where, sizeof where);
        int len = 0;
        while (m->text[pos + len] && m->text[pos + len] != '\n' && len < 24) len++;
        snprintf(err, errlen, "the model is not defined at this state: %s: '%.*s' leaves its domain (division by zero, "
                 "log/sqrt of x <= 0, or no derivative)", where, len, m->text + pos);
    } else if (st == CL_ESINGULAR) snprintf(err, errlen, "%s", singular);
    else if (st == CL_ENOCONV)
        snprintf(err, errlen, "the Legendre map could not be inverted at this state (Newton's method did not converge)");
    else snprintf(err, errlen, "%s", cl_strerror(st));
}

/* Validate and project the state in place, then make sure the vector field is defined there. */
static int ext_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    ext_inst *in = inst;
    const cl_model_kind *kind = in->es->kind;
    size_t n = kind->dim(in->es->m, form);
    if (!cl_rvec_is_finite_mp(x, n)) {
        snprintf(err, errlen, "NaN or infinity in the state");
        return CL_ENAN;
    }
    int st = kind->project(in->es->m, form, x, err, errlen);
    if (st) return st;
    mpfr_ptr dx = cl_rvec_new_mp(n, in->prec);
    if (!dx) return CL_ENOMEM;
    st = kind->rhs(in->core, form, dx, x);
    cl_rvec_free_mp(dx);
    if (st) cl_model_explain(in->es->m, kind->bad_node(in->core), st, kind->singular, err, errlen);
    return st;
}

static int ext_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    ext_inst *in = inst;
    return in->es->kind->rhs(in->core, form, dx, x);
}

/* energy, the declared invariants, the constraint drift */
static int ext_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    ext_inst *in = inst;
    const cl_model *m = in->es->m;
    const cl_model_kind *kind = in->es->kind;
    int st = kind->value(in->core, -1, form, out, x);
    for (size_t k = 0; k < m->ninv && !st; k++) st = kind->value(in->core, m->inv[k], form, out + 1 + k, x);
    if (!st && kind->drift_name) kind->drift(m, form, out + 1 + m->ninv, x);
    return st;
}

static int ext_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    ext_inst *in = inst;
    return in->es->kind->convert(in->core, from, x, to, y);
}

static int ext_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    ext_inst *in = inst;
    int st = in->es->kind->random(in->es->m, x, g);
    if (!st && form != 0) st = ext_convert(inst, 0, x, form, x);
    return st;
}

static void ext_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    const ext_inst *in = inst;
    in->es->kind->component_name(in->es->m, form, i, buf, len);
}

void cl_model_ext_system_free(const cl_system *s)
{
    ext_system *es = (ext_system *)s;
    if (!es) return;
    for (ext_system **p = &open_ext; *p; p = &(*p)->next)
        if (*p == es) {
            *p = es->next;
            break;
        }
    cl_model_free(es->m);
    free(es->table);
    free(es->invnames);
    free(es->summary);
    free(es->name);
    free(es);
}

int cl_model_ext_system_new(const cl_system **out, cl_model *m, const cl_model_kind *kind, cl_sys_error *e)
{
    *out = NULL;
    ext_system *es = calloc(1, sizeof *es);
    if (es) {
        es->m = m;
        es->kind = kind;
        es->table = calloc(m->nparam + 1, sizeof *es->table);
        es->invnames = calloc(m->ninv + 3, sizeof *es->invnames);
        size_t len = strlen(m->source) + strlen(kind->what) + 40;
        es->summary = malloc(len);
        es->name = strdup(m->source);
        if (es->summary) snprintf(es->summary, len, "model %s: %s, L from the file", m->source, kind->what);
    }
    if (!es || !es->table || !es->invnames || !es->summary || !es->name) {
        if (es) cl_model_ext_system_free(&es->sys);
        else cl_model_free(m);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    for (size_t k = 0; k < m->nparam; k++)
        es->table[k] = (cl_param){.name = m->pname[k], .shape = CL_PARAM_NUMBER, .def = m->pdef[k], .metavar = "X",
                                  .help = "parameter of the model"};
    es->table[m->nparam] = (cl_param)CL_PARAM_END;
    size_t k = 0;
    es->invnames[k++] = "energy";
    for (size_t i = 0; i < m->ninv; i++) es->invnames[k++] = m->invname[i];
    if (kind->drift_name) es->invnames[k++] = kind->drift_name;
    es->invnames[k] = NULL;
    es->sys = (cl_system){
        .name = es->name,
        .summary = es->summary,
        .params = es->table,
        .state_help = kind->state_help,
        .forms = kind->forms,
        .create = ext_create,
        .destroy = ext_destroy,
        .dim = ext_dim,
        .check_state = ext_check_state,
        .rhs = ext_rhs,
        .invariant_names = es->invnames,
        .invariants = ext_invariants,
        .convert = ext_convert,
        .random_state = ext_random_state,
        .component_name = ext_component_name,
    };
    es->next = open_ext;
    open_ext = es;
    *out = &es->sys;
    return CL_OK;
}

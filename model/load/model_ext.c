/*
 * One system of the command line for every kind of model (model_ext.h):
 * parameters from the model (and the time t when L or a force depends on
 * it), the fields, maps and values of the kind's core, the model's
 * invariants after the energy, then the kind's constraint drifts, and the
 * declared equilibria.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "field.h"
#include "field_compiled.h"
#include "model_ext.h"
#include "system_impl.h"

typedef struct ext_system {
    cl_system sys; /* first: cl_model_ext_system_free() receives it */
    const cl_model_kind *kind;
    cl_model *m;
    cl_param *table;
    const char **invnames;
    int *conserved;  /* the declared invariants (indices 1 … ninv, −1 ended): a relative equilibrium's candidates */
    char *summary;
    size_t ndrift;
    char (*connames)[CL_MODEL_MAX_NAME + 2]; /* the constraints' names, and NAME' for the rate of a holonomic one */
    cl_model_fast *fast; /* the field of form 0 from the graph (field_compiled.c), NULL: the engine's */
    struct ext_system *next;
} ext_system;

typedef struct ext_inst {
    const ext_system *es;
    void *core;
    cl_prec_t prec;
    cl_model_fast_inst *fast;
    cl_model_domain_mp *dom; /* the domain of the model's formulas, for its random states */
} ext_inst;

/* The systems open now: create() finds its model by the parameter table it is given. */
static ext_system *open_ext;

static int ext_set_time(void *inst, mpfr_srcptr t)
{
    ext_inst *in = inst;
    in->es->kind->set_time(in->core, t);
    if (in->fast) cl_model_fast_set_time(in->fast, t);
    if (in->dom) cl_model_domain_set_time_mp(in->dom, t);
    return CL_OK;
}

static void ext_destroy(void *inst)
{
    ext_inst *in = inst;
    if (!in) return;
    in->es->kind->close(in->core);
    cl_model_fast_inst_free(in->fast);
    cl_model_domain_free_mp(in->dom);
    free(in);
}

static int ext_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const ext_system *es = open_ext;
    while (es && es->table != p->table) es = es->next;
    if (!es) return cl_sys_error_set(e, CL_EPARAM, NULL, "no model is open for these parameters");
    ext_inst *in = calloc(1, sizeof *in);
    int st = in ? es->kind->open(&in->core, es->m, prec) : CL_ENOMEM;
    if (st) {
        free(in);
        return cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
    }
    in->es = es;
    in->prec = prec;
    in->fast = cl_model_fast_inst_new(es->fast, prec);
    st = cl_model_domain_new_mp(&in->dom, es->m, prec);
    if (st) {
        ext_destroy(in);
        return cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
    }
    for (size_t k = 0; k < es->m->nparam; k++) {
        es->kind->set_param(in->core, k, cl_params_x(p, es->m->pname[k]));
        if (in->fast) cl_model_fast_set_param(in->fast, k, cl_params_x(p, es->m->pname[k]));
        cl_model_domain_set_param_mp(in->dom, k, cl_params_x(p, es->m->pname[k]));
    }
    if (es->m->timed) ext_set_time(in, cl_params_x(p, "time"));
    st = es->kind->ready ? es->kind->ready(in->core, es->m, prec) : CL_OK;
    if (st) {
        ext_destroy(in);
        return cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
    }
    *out = in;
    return CL_OK;
}

static size_t ext_dim(void *inst, int form)
{
    const ext_inst *in = inst;
    return in->es->kind->dim(in->es->m, form);
}

void cl_model_explain(const cl_model *m, int bad, int st, const char *singular, char *err, size_t errlen)
{
    if (st == CL_EDOMAIN && bad >= 0 && cl_expr_dag_node(m->g, bad)->pos >= 0)
        cl_text_domain_error(m->source, m->text, cl_expr_dag_node(m->g, bad)->pos, "model",
                             "division by zero, log/sqrt of x <= 0, a result that is not finite, or no derivative", err, errlen);
    else if (st == CL_ESINGULAR) snprintf(err, errlen, "%s", singular);
    else if (st == CL_ENOCONV)
        snprintf(err, errlen, "the Legendre map could not be inverted at this state (Newton's method did not converge)");
    else snprintf(err, errlen, "%s", cl_strerror(st));
}

/*
 * Validate the state and bring it onto the manifold in place, then make sure
 * the vector field is defined there. A state of unit vectors is left as
 * given (the command line normalizes it after this check) and the field
 * tried on its normalized copy, as the command line will evaluate it.
 */
static int ext_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    ext_inst *in = inst;
    const cl_model_kind *kind = in->es->kind;
    const cl_model *m = in->es->m;
    size_t n = kind->dim(m, form);
    if (!cl_rvec_is_finite_mp(x, n)) {
        snprintf(err, errlen, "NaN or infinity in the state");
        return CL_ENAN;
    }
    mpfr_ptr y = cl_rvec_new_mp(2 * n, in->prec);
    if (!y) return CL_ENOMEM;
    cl_rvec_copy_mp(y, x, n);
    int st = kind->project(m, form, y, err, errlen);
    if (!st && m->ncon) st = kind->constrain(in->core, m, form, y, CL_SYS_UNIT_TOL_LOG2, err, errlen);
    if (!st && !kind->unit_vectors) cl_rvec_copy_mp(x, y, n);
    if (!st) {
        st = kind->rhs(in->core, form, y + n, y);
        if (st) cl_model_explain(m, kind->bad_node(in->core), st, kind->singular, err, errlen);
    }
    cl_rvec_free_mp(y);
    return st;
}

/* Form 0 from the graph when it covers the model; the engine otherwise, and to say why the field is not defined. */
static int ext_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    ext_inst *in = inst;
    int st = form == 0 && in->fast ? cl_model_fast_rhs(in->fast, dx, x) : CL_EDIM;
    return st == CL_OK || st == CL_ENOMEM ? st : in->es->kind->rhs(in->core, form, dx, x);
}

/* energy, the declared invariants, the constraint drifts */
static int ext_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    ext_inst *in = inst;
    const cl_model *m = in->es->m;
    const cl_model_kind *kind = in->es->kind;
    int st = kind->value(in->core, -1, form, out, x);
    for (size_t k = 0; k < m->ninv && !st; k++) st = kind->value(in->core, m->inv[k], form, out + 1 + k, x);
    if (!st && kind->drift_names) kind->drift(m, form, out + 1 + m->ninv, x);
    if (!st && m->ncon) st = kind->constraint_values(in->core, form, out + 1 + m->ninv + in->es->ndrift, x);
    return st < 0 ? st : CL_OK;
}

static int ext_multipliers(void *inst, int form, mpfr_ptr lam, mpfr_srcptr x)
{
    ext_inst *in = inst;
    return in->es->kind->multipliers(in->core, form, lam, x);
}

static int ext_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    ext_inst *in = inst;
    return in->es->kind->convert(in->core, from, x, to, y);
}

/* A state where the basis of the form dist is singular lies outside that form's chart (docs/models.md): drawn again. */
static int dist_chart(ext_inst *in, mpfr_srcptr x, mpfr_ptr y)
{
    const char *const *f = in->es->kind->forms;
    for (int k = 0; f[k]; k++)
        if (!strcmp(f[k], "dist")) return in->es->kind->convert(in->core, 0, x, k, y);
    return CL_OK;
}

/* The kind's draw of form 0, brought onto the model's constraints. */
static int ext_draw(void *ctx, mpfr_ptr x, cl_rng *g)
{
    ext_inst *in = ctx;
    const cl_model *m = in->es->m;
    char err[200];
    int st = in->es->kind->random(m, x, g);
    if (!st && m->ncon) st = in->es->kind->constrain(in->core, m, 0, x, INFINITY, err, sizeof err);
    return st;
}

/* The engine's field of form 0 (it says where the velocity Hessian is singular), and the chart of the form dist. */
static int ext_draw_field(void *ctx, mpfr_ptr dx, mpfr_srcptr x)
{
    ext_inst *in = ctx;
    int st = in->es->kind->rhs(in->core, 0, dx, x);
    return !st && in->es->m->ncon ? dist_chart(in, x, dx) : st;
}

static int ext_draw_bad(void *ctx)
{
    ext_inst *in = ctx;
    return in->es->kind->bad_node(in->core);
}

/*
 * A random state of form 0 inside the domain of the model (model_draw_decl.h), so that no row judges a
 * state outside it; CL_EUNDEFINED, with the reason, when none is found.
 */
static int random_inside(ext_inst *in, mpfr_ptr x, cl_rng *g)
{
    mpfr_ptr dx = cl_rvec_new_mp(in->es->kind->dim(in->es->m, 0), in->prec);
    if (!dx) return CL_ENOMEM;
    cl_model_drawer_mp k = {.draw = ext_draw, .field = ext_draw_field, .bad_node = ext_draw_bad, .singular = in->es->kind->singular, .ctx = in};
    int st = cl_model_domain_draw_mp(in->dom, &k, x, dx, g);
    cl_rvec_free_mp(dx);
    return st;
}

cl_model_domain_mp *cl_model_ext_domain(void *inst) { return ((ext_inst *)inst)->dom; }

static int ext_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    ext_inst *in = inst;
    const cl_model_kind *kind = in->es->kind;
    size_t n0 = kind->dim(in->es->m, 0);
    if (form == 0 || kind->dim(in->es->m, form) == n0) {
        int st = random_inside(in, x, g);
        return !st && form != 0 ? ext_convert(inst, 0, x, form, x) : st;
    }
    mpfr_ptr y = cl_rvec_new_mp(n0, in->prec); /* a form of fewer numbers (dist): drawn in form 0, then carried */
    if (!y) return CL_ENOMEM;
    int st = random_inside(in, y, g);
    if (!st) st = ext_convert(inst, 0, y, form, x);
    cl_rvec_free_mp(y);
    return st;
}

static void ext_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    const ext_inst *in = inst;
    in->es->kind->component_name(in->es->m, form, i, buf, len);
}

/*
 * The state's constraints: the kind's (unit vectors, rotations), then the model's own, h and ḣ per
 * holonomic constraint and c per nonholonomic one; in a form whose velocities solve them by construction
 * (dist) the holonomic h only. The equilibria and stability tools work on the tangent space they define.
 */
static int ext_constraints(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    const ext_inst *in = inst;
    const cl_model *m = in->es->m;
    int k = in->es->kind->constraints(m, form, out, x);
    if (k < 0 || !m->ncon) return k;
    int dist = !strcmp(in->es->kind->forms[form], "dist"), n = 0;
    for (size_t i = 0; i < m->ncon; i++) n += (m->conh[i] >= 0) + !dist;
    if (!out) return k + n;
    mpfr_ptr v = cl_rvec_new_mp(2 * m->ncon, mpfr_get_prec(out));
    int st = v ? in->es->kind->constraint_values(in->core, form, v, x) : CL_ENOMEM;
    for (size_t i = 0, j = 0, o = (size_t)k; i < m->ncon && st >= 0; i++) {
        if (m->conh[i] >= 0) mpfr_set(out + o++, v + j++, MPFR_RNDN);
        if (!dist) mpfr_set(out + o++, v + j, MPFR_RNDN);
        j++;
    }
    cl_rvec_free_mp(v);
    return st < 0 ? st : k + n;
}

static int ext_unit_vectors(void *inst) { return (int)((const ext_inst *)inst)->es->m->n; }



/* Declared equilibrium k, its name in *name. */
static int ext_equilibrium(void *inst, int k, int form, mpfr_ptr x, const char **name)
{
    ext_inst *in = inst;
    const cl_model *m = in->es->m;
    if (k < 0 || (size_t)k >= m->neq) return CL_EDOMAIN;
    if (name) *name = m->eqname[k];
    return in->es->kind->equilibrium(in->core, m, k, form, x);
}

/* Relative equilibrium k: its frame's field and symmetry directions (the kind's hook). */
static int ext_relative(void *inst, int k, int form, mpfr_ptr xi, mpfr_ptr Y, mpfr_srcptr x)
{
    ext_inst *in = inst;
    return in->es->kind->relative(in->core, in->es->m, k, form, xi, Y, x);
}

const cl_model *cl_model_system_model(const cl_system *s)
{
    for (const ext_system *es = open_ext; es; es = es->next)
        if (&es->sys == s) return es->m;
    return NULL;
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
    cl_model_fast_free(es->fast);
    cl_model_free(es->m);
    CL_FREE_EACH(es->table, es->invnames, es->conserved, es->connames, es->summary, es);
}

/* The field of relative equilibrium k in its turning frame at the defaults (\p inst): log2 of its largest
   number over max(1, |x|) into *defect (+inf where it is not defined). */
static int relative_defect(const ext_system *es, void *inst, int k, cl_prec_t prec, double *defect)
{
    size_t N = es->sys.dim(inst, 0);
    mpfr_ptr x = cl_rvec_new_mp(2 * N, prec);
    if (!x) return CL_ENOMEM;
    int st = ext_equilibrium(inst, k, 0, x, NULL);
    if (!st) st = cl_system_rest_field(&es->sys, inst, k, 0, x + N, x);
    *defect = st ? INFINITY : cl_rvec_log2_maxabs_mp(x + N, N) - fmax(0, cl_rvec_log2_maxabs_mp(x, N));
    cl_rvec_free_mp(x);
    return st == CL_ENOMEM ? st : CL_OK;
}

/*
 * Each declared relative equilibrium (a steady rotation) is one at the defaults: the body
 * velocities' rates and the rest of the field in its turning frame vanish there, at 128 bits,
 * within 2^(32 − 128) of max(1, |x|), as the equilibria tools ask at the working precision.
 */
static int check_relative(const ext_system *es, cl_sys_error *e)
{
    const cl_model *m = es->m;
    const cl_prec_t prec = 128;
    cl_params p;
    void *inst = NULL;
    int st = cl_params_parse(&p, es->table, 0, NULL, NULL, prec, e);
    if (st) return st;
    st = ext_create(&inst, &p, prec, e);
    for (size_t k = 0; !st && k < m->neq; k++) {
        mpfr_ptr x = cl_rvec_new_mp(es->sys.dim(inst, 0), prec);
        int on = x && m->ncon ? ext_equilibrium(inst, (int)k, 0, x, NULL) : CL_OK; /* its point on the constraints */
        int rel = !x ? CL_ENOMEM : on ? on : ext_relative(inst, (int)k, 0, NULL, NULL, x);
        cl_rvec_free_mp(x);
        double defect = 0;
        char where[300];
        cl_model_where(m, m->eqpos[k], where, sizeof where);
        if (on == CL_EPARAM)
            st = cl_sys_error_set(e, CL_EPARSE, where, "the equilibrium %s is off the constraint set at the defaults (at rest its point must "
                                  "satisfy every constraint within 2^-40)", m->eqname[k]);
        else if (rel < 0) st = cl_sys_error_set(e, rel, NULL, "%s", cl_strerror(rel));
        else if (rel > 0 && !(st = relative_defect(es, inst, (int)k, prec, &defect)) && !(defect <= 32 - (double)prec)) {
            st = cl_sys_error_set(e, CL_EPARSE, where, "the equilibrium %s is not a relative equilibrium: in the frame turning with it the "
                                  "field (the rates of the body velocities and of the other velocities) does not vanish at the defaults (2^%.1f)",
                                  m->eqname[k], defect);
        }
    }
    if (inst) ext_destroy(inst);
    cl_params_free(&p);
    return st;
}

int cl_model_ext_system_new(const cl_system **out, cl_model *m, const cl_model_kind *kind, cl_sys_error *e)
{
    *out = NULL;
    size_t ndrift = 0;
    while (kind->drift_names && kind->drift_names[ndrift]) ndrift++;
    ext_system *es = calloc(1, sizeof *es);
    if (es) {
        es->m = m;
        es->kind = kind;
        es->table = calloc(m->nparam + 2, sizeof *es->table);
        es->invnames = calloc(m->ninv + ndrift + 3 * m->ncon + 3, sizeof *es->invnames); /* then the multipliers' names */
        es->connames = calloc(2 * m->ncon + 1, sizeof *es->connames);
        es->ndrift = ndrift;
        es->conserved = calloc(m->ninv + 1, sizeof *es->conserved);
        es->fast = cl_model_fast_new(m, kind->dim(m, 0));
        char what[80];
        kind->what(m, what, sizeof what);
        size_t len = strlen(m->source) + strlen(what) + 80;
        es->summary = malloc(len);
        if (es->summary)
            snprintf(es->summary, len, "model %s: %s, %s from the file%s", m->source, what, m->ham ? "H" : "L",
                     m->timed ? ", depending on t (E(t) is not conserved)" : "");
    }
    if (!es || !es->table || !es->invnames || !es->conserved || !es->summary || !es->connames) {
        if (es) cl_model_ext_system_free(&es->sys);
        else cl_model_free(m);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    for (size_t k = 0; k < m->nparam; k++)
        es->table[k] = (cl_param){.name = m->pname[k], .shape = CL_PARAM_NUMBER, .def = m->pdef[k], .metavar = "X",
                                  .help = "parameter of the model"};
    size_t np = m->nparam;
    if (m->timed)
        es->table[np++] = (cl_param){.name = "time", .shape = CL_PARAM_NUMBER, .def = "0", .metavar = "T",
                                     .help = "the time t of the state (the model depends on t)"};
    es->table[np] = (cl_param)CL_PARAM_END;
    size_t k = 0;
    es->invnames[k++] = m->timed ? "E(t)" : "energy"; /* not conserved when L depends on t */
    for (size_t i = 0; i < m->ninv; i++) es->invnames[k++] = m->invname[i];
    for (size_t i = 0; i < ndrift; i++) es->invnames[k++] = kind->drift_names[i];
    for (size_t i = 0, j = 0; i < m->ncon; i++) {
        if (m->conh[i] >= 0) {
            snprintf(es->connames[j], sizeof *es->connames, "%s", m->conname[i]);
            es->invnames[k++] = es->connames[j++];
        }
        snprintf(es->connames[j], sizeof *es->connames, "%s%s", m->conname[i], m->conh[i] >= 0 ? "'" : "");
        es->invnames[k++] = es->connames[j++];
    }
    es->invnames[k] = NULL;
    for (size_t i = 0; i < m->ninv; i++) es->conserved[i] = (int)i + 1;
    es->conserved[m->ninv] = -1;
    for (size_t i = 0; i < m->ncon; i++) es->invnames[k + 1 + i] = m->conname[i];
    es->sys = (cl_system){
        .name = m->source, /* the model's file, owned by the system with the model */
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
        .unit_vectors = kind->unit_vectors ? ext_unit_vectors : NULL,
        .set_time = m->timed ? ext_set_time : NULL,
        .equilibrium = m->neq ? ext_equilibrium : NULL,
        .constraints = kind->constraints ? ext_constraints : NULL,
        .relative = m->neq && kind->relative ? ext_relative : NULL,
        .relative_conserved = es->conserved,
        .multiplier_names = m->ncon ? es->invnames + k + 1 : NULL,
        .multipliers = m->ncon ? ext_multipliers : NULL,
    };
    es->next = open_ext;
    open_ext = es;
    int st = es->sys.relative ? check_relative(es, e) : CL_OK;
    if (st) {
        cl_model_ext_system_free(&es->sys);
        return st;
    }
    *out = &es->sys;
    return CL_OK;
}

/*
 * The field of a model's first form (qdot, ROmega, or p) from its equations of motion
 * as one graph (cl_model_eom_new(), reduced to the nodes the field needs):
 * interpreted (expr_eval.c) until the model has been evaluated
 * $CHARTLESS_COMPILE_AFTER times (20000 unless set), then compiled
 * (expr_jit.h) — at once when the compiled field is in the cache already.
 * Both give the same numbers bit for bit, so when the compiler runs does
 * not change a result. Without a compiler, when it fails, or when the cache
 * cannot be written, the graph stays interpreted and stderr says why, once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "expr_emit.h"
#include "expr_jit.h"
#include "field.h"
#include "field_compiled.h"

/* Evaluations of a model before its field is compiled: about where the compiler's time is paid back. */
#define COMPILE_AFTER 20000

static int field_mode = CL_MODEL_FIELD_COMPILED;

void cl_model_field_mode(int mode) { field_mode = mode; }
int cl_model_field_mode_get(void) { return field_mode; }

struct cl_model_fast {
    const cl_model *m;
    size_t dim0;        /* the dimension of the system's form 0, which the graph's state must have */
    int built;          /* 0: not yet; 1: the graph is built; −1: the graph does not cover the model */
    cl_expr_dag *g;     /* the field's nodes only */
    int *out;
    size_t dim, nin, param0;
    long time;
    cl_expr_jit *jit;
    int tried;          /* 1: the compiler ran (or will not) */
    long evals, after;
};

struct cl_model_fast_inst {
    cl_model_fast *f;
    cl_prec_t prec;
    mpfr_ptr par;       /* the parameters, then t */
    mpfr_ptr in;        /* the graph's inputs, once it is built */
    cl_expr_eval_mp *ev;
    cl_expr_jit_mp *run;
};

cl_model_fast *cl_model_fast_new(const cl_model *m, size_t dim0)
{
    if (field_mode == CL_MODEL_FIELD_ENGINE) return NULL;
    cl_model_fast *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->m = m;
    f->dim0 = dim0;
    const char *after = getenv("CHARTLESS_COMPILE_AFTER");
    f->after = after && *after ? strtol(after, NULL, 10) : COMPILE_AFTER;
    return f;
}

void cl_model_fast_free(cl_model_fast *f)
{
    if (!f) return;
    cl_expr_jit_free(f->jit);
    cl_expr_dag_free(f->g);
    free(f->out);
    free(f);
}

/* Say once on stderr why the field is interpreted. */
static void warn_once(const char *why)
{
    static int said;
    if (said || !why[0]) return;
    said = 1;
    fprintf(stderr, "warning: the model's field is interpreted, not compiled: %s\n", why);
}

/* The compiled field: from the cache only (\p build 0), or compiled now when it is not there. */
static void compile(cl_model_fast *f, int build)
{
    char why[600];
    int st = cl_expr_jit_new(&f->jit, f->g, f->out, f->dim, (long)f->param0, build, why, sizeof why);
    if (build) f->tried = 1;
    if (st && build) warn_once(why);
}

/*
 * The field graphs built in this process, by the text of their model (the
 * graph depends on nothing else: the parameters and t are inputs). A model
 * loaded again -- the oracle loads one for each row and each precision --
 * takes a copy instead of running the simplifier again, which costs most
 * of a short row.
 */
typedef struct built_field {
    char *text;
    size_t dim0, dim, param0;
    long time;
    cl_expr_dag *g;
    int *out;
    struct built_field *next;
} built_field;
static built_field *built_fields;
static pthread_mutex_t built_lock = PTHREAD_MUTEX_INITIALIZER;

/* f's graph, output nodes and inputs from an entry (copies): 0, or −1 when out of memory. */
static int take(cl_model_fast *f, const built_field *b)
{
    f->out = malloc((b->dim + 1) * sizeof *f->out);
    f->g = f->out ? cl_expr_dag_copy(b->g) : NULL;
    if (!f->g) return -1;
    memcpy(f->out, b->out, b->dim * sizeof *f->out);
    f->dim = b->dim;
    f->param0 = b->param0;
    f->time = b->time;
    f->nin = b->param0 + f->m->nparam;
    return 0;
}

/* How many graphs the cache keeps: the oracle reloads one model at a time, a
   long-lived process (the Python module) may open many. */
#define BUILT_MAX 16

static void built_free(built_field *b)
{
    if (b) free(b->text), cl_expr_dag_free(b->g), free(b->out);
    free(b);
}

/* The entries past the first BUILT_MAX released: the least recently used. */
static void built_trim(void)
{
    built_field **at = &built_fields;
    for (int n = 0; *at && n < BUILT_MAX; n++) at = &(*at)->next;
    while (*at) {
        built_field *b = *at;
        *at = b->next;
        built_free(b);
    }
}

size_t cl_model_fast_cached(void)
{
    size_t n = 0;
    pthread_mutex_lock(&built_lock);
    for (const built_field *b = built_fields; b; b = b->next) n++;
    pthread_mutex_unlock(&built_lock);
    return n;
}

/* The cache emptied when the process ends (so that a leak checker sees every block released). */
__attribute__((destructor)) static void built_clear(void)
{
    while (built_fields) {
        built_field *b = built_fields;
        built_fields = b->next;
        built_free(b);
    }
}

/* Keep a copy of f's graph for the next model of the same text (nothing when out of memory). */
static void keep(const cl_model_fast *f)
{
    built_field *b = calloc(1, sizeof *b);
    if (b) *b = (built_field){.text = strdup(f->m->text), .dim0 = f->dim0, .dim = f->dim, .param0 = f->param0, .time = f->time,
                              .g = cl_expr_dag_copy(f->g), .out = malloc((f->dim + 1) * sizeof *b->out)};
    if (!b || !b->text || !b->g || !b->out) {
        built_free(b);
        return;
    }
    memcpy(b->out, f->out, f->dim * sizeof *b->out);
    b->next = built_fields;
    built_fields = b;
    built_trim();
}

/* The graph of the field; built = −1 when the graph does not cover the model. */
static void build_graph(cl_model_fast *f)
{
    cl_model_eom *q = NULL;
    cl_sys_error e;
    f->built = -1;
    pthread_mutex_lock(&built_lock);
    built_field **at = &built_fields, *b;
    while ((b = *at) && (b->dim0 != f->dim0 || strcmp(b->text, f->m->text))) at = &b->next;
    if (b) { /* the most recently used first, so that built_trim() drops the least */
        *at = b->next;
        b->next = built_fields;
        built_fields = b;
    }
    int found = b != NULL, st = b ? take(f, b) : 0;
    pthread_mutex_unlock(&built_lock);
    if (found && st) return;
    if (!found) {
        if (cl_model_eom_new(&q, f->m, &e)) return;
        if (q->dim != f->dim0) { /* not the state of the system's first form */
            cl_model_eom_free(q);
            return;
        }
        f->out = malloc(q->dim * sizeof *f->out);
        f->g = f->out ? cl_expr_dag_prune(q->g, q->out, q->dim, f->out) : NULL;
        f->dim = q->dim;
        f->param0 = q->param0;
        f->time = q->time;
        f->nin = q->param0 + f->m->nparam;
        cl_model_eom_free(q);
        if (!f->g) return;
        pthread_mutex_lock(&built_lock);
        keep(f);
        pthread_mutex_unlock(&built_lock);
    }
    f->built = 1;
    if (field_mode == CL_MODEL_FIELD_COMPILED) compile(f, 0);
}

cl_model_fast_inst *cl_model_fast_inst_new(cl_model_fast *f, cl_prec_t prec)
{
    if (!f) return NULL;
    cl_model_fast_inst *fi = calloc(1, sizeof *fi);
    if (!fi) return NULL;
    *fi = (cl_model_fast_inst){.f = f, .prec = prec, .par = cl_rvec_new_mp(f->m->nparam + 1, prec)};
    if (fi->par) return fi;
    free(fi);
    return NULL;
}

void cl_model_fast_inst_free(cl_model_fast_inst *fi)
{
    if (!fi) return;
    cl_expr_jit_mp_free(fi->run);
    cl_expr_eval_free_mp(fi->ev);
    cl_rvec_free_mp(fi->in);
    cl_rvec_free_mp(fi->par);
    free(fi);
}

void cl_model_fast_set_param(cl_model_fast_inst *fi, size_t k, mpfr_srcptr v)
{
    mpfr_set(fi->par + k, v, MPFR_RNDN);
    if (fi->in) mpfr_set(fi->in + fi->f->param0 + k, v, MPFR_RNDN);
    if (fi->run) cl_expr_jit_mp_changed(fi->run);
}

void cl_model_fast_set_time(cl_model_fast_inst *fi, mpfr_srcptr t)
{
    mpfr_set(fi->par + fi->f->m->nparam, t, MPFR_RNDN);
    if (fi->in && fi->f->time >= 0) mpfr_set(fi->in + fi->f->time, t, MPFR_RNDN);
}

/* The instance's inputs and interpreter, once the graph is built: 0 or the status of cl_expr_eval_new(). */
static int prepare(cl_model_fast_inst *fi)
{
    const cl_model_fast *f = fi->f;
    fi->in = cl_rvec_new_mp(f->nin + 1, fi->prec);
    if (!fi->in) return CL_ENOMEM;
    int st = cl_expr_eval_new_mp(&fi->ev, f->g, fi->prec);
    if (st) return st;
    for (size_t k = 0; k < f->m->nparam; k++) mpfr_set(fi->in + f->param0 + k, fi->par + k, MPFR_RNDN);
    if (f->time >= 0) mpfr_set(fi->in + f->time, fi->par + f->m->nparam, MPFR_RNDN);
    return CL_OK;
}

int cl_model_fast_rhs(cl_model_fast_inst *fi, mpfr_ptr dx, mpfr_srcptr x)
{
    cl_model_fast *f = fi->f;
    if (!f->built) build_graph(f);
    if (f->built < 0) return CL_EDIM;
    int st = fi->ev ? CL_OK : prepare(fi);
    if (st) return st;
    if (!f->jit && !f->tried && field_mode == CL_MODEL_FIELD_COMPILED && ++f->evals > f->after) compile(f, 1);
    if (f->jit && !fi->run && (st = cl_expr_jit_mp_new(&fi->run, f->jit, f->g, fi->prec))) return st;
    for (size_t k = 0; k < f->dim; k++) mpfr_set(fi->in + k, x + k, MPFR_RNDN);
    if (fi->run) return cl_expr_jit_run_mp(fi->run, dx, fi->in);
    st = cl_expr_eval_run_mp(fi->ev, fi->in, (int)cl_expr_dag_size(f->g) - 1, 1);
    for (size_t k = 0; k < f->dim && !st; k++) mpfr_set(dx + k, cl_expr_eval_value_mp(fi->ev, f->out[k]), MPFR_RNDN);
    return st;
}

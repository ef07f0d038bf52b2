/*
 * The oracle's row MODEL.graph (a model that is a system): the equations of
 * motion as a graph (cl_model_eom_build(), as derived: what eom prints before
 * simplifying, what the Taylor integrator and compiled fields run) against
 * the field of the engine that interprets the model (lagr_prod.c,
 * ham_prod.c: a numeric solve, no graph), at the same random states in the
 * graph's form, and the multipliers of the constraints alike. The two are
 * independent derivations of one field: Hamilton's equations written as
 * nodes (model_graph_ham.c) against the Hamiltonian engine's, the bordered
 * or Schur-complement solve of a constrained model (model_graph_lagr.c)
 * against the engine's, a constraint moving with t (−∂c/∂t) on both sides.
 * A sign or a dropped term on either side leaves a gap of order one. (The
 * system's own form 0 runs that graph, cl_model_fast_rhs(): the engine is
 * opened here by itself.)
 */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "expr.h"
#include "model_ext.h"
#include "model_kinds.h"
#include "model_rows.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR
const cl_check cl_model_graph_row = {
    .name = "graph", .tags = "",
    .what = "the equations of motion as a graph (eom as derived: what taylor and compiled fields run) against the field of the engine that interprets the model (a numeric solve), and the multipliers of the constraints, at 12 random states in the graph's form (relative to the largest)",
    .cond = 4096, .why = "two evaluations of the same field by different orders of operations: a velocity Hessian solve (condition below 10^2 for the shipped models) as nodes and as numbers",
    .fn_d = cl_model_row_graph, .fn_mp = cl_model_row_graph};

static cl_model_eom *graph_eom; /* the graph of the current row's run */

/* The engine's core of the model at r's parameters and time (the system's form 0 runs the graph itself, cl_model_fast_rhs()). */
static int engine_open(void **core, const cl_model *m, const ext_run *r)
{
    const cl_model_kind *kind = cl_model_kind_of(m);
    int st = kind->open(core, m, r->prec);
    if (st) return st;
    for (size_t k = 0; k < m->nparam; k++) kind->set_param(*core, k, cl_params_x(&r->p, m->pname[k]));
    if (m->timed && kind->set_time) kind->set_time(*core, cl_params_x(&r->p, "time"));
    st = kind->ready ? kind->ready(*core, m, r->prec) : CL_OK;
    if (st) kind->close(*core);
    return st;
}

/* The graph's field and multipliers at the state x of form 0 carried to the graph's form, against the engine's. */
static int graph_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    const cl_model *m = cl_model_oracle_model();
    const cl_model_kind *kind = cl_model_kind_of(m);
    const cl_model_eom *q = graph_eom;
    int form = cl_system_form_index(s, q->form);
    size_t dim = q->dim, nc = q->ncon, nin = (size_t)cl_expr_dag_ninputs(q->g), nout = dim + nc;
    (void)rg, (void)nf, (void)D, (void)w;
    if (form < 0 || s->dim(r->inst, form) != dim || (nc && !kind->multipliers)) return CL_EDIM;
    void *core = NULL;
    mpfr_ptr in = cl_rvec_new_mp(nin + 2 * nout + 1, r->prec), fe = in + nin, fg = fe + nout;
    cl_expr_eval_mp *ev = NULL;
    int st = in ? engine_open(&core, m, r) : CL_ENOMEM;
    for (size_t i = 0; i < nin && !st; i++) mpfr_set_zero(in + i, 1);
    for (size_t i = 0; i < m->nparam && !st; i++) mpfr_set(in + q->param0 + i, cl_params_x(&r->p, m->pname[i]), MPFR_RNDN);
    if (!st && q->time >= 0 && m->timed) mpfr_set(in + q->time, cl_params_x(&r->p, "time"), MPFR_RNDN);
    if (!st) st = s->convert(r->inst, 0, x, form, in);
    if (!st) st = kind->rhs(core, form, fe, in);
    if (!st && nc) st = kind->multipliers(core, form, fe + dim, in);
    if (!st) st = cl_expr_eval_new_mp(&ev, q->g, r->prec);
    if (!st && cl_expr_eval_run_mp(ev, in, (int)cl_expr_dag_size(q->g) - 1, 0)) {
        cl_check_worst(res, INFINITY, "draw %d: the graph leaves its domain where the engine does not", k);
        st = CL_OK;
    } else if (!st) {
        for (size_t i = 0; i < dim; i++) mpfr_set(fg + i, cl_expr_eval_value_mp(ev, q->out[i]), MPFR_RNDN);
        for (size_t i = 0; i < nc; i++) mpfr_set(fg + dim + i, cl_expr_eval_value_mp(ev, q->mult[i]), MPFR_RNDN);
        cl_check_worst(res, rows_rel(fg, fe, dim, cl_rvec_log2_maxabs_mp(fe, dim)), "draw %d: the graph's field (form %s) against the engine's", k, q->form);
        if (nc)
            cl_check_worst(res, rows_rel(fg + dim, fe + dim, nc, cl_rvec_log2_maxabs_mp(fe + dim, nc)),
                           "draw %d: the graph's multipliers against the engine's", k);
    }
    cl_expr_eval_free_mp(ev);
    if (core) kind->close(core);
    cl_rvec_free_mp(in);
    return st;
}

int cl_model_row_graph(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    cl_check_begin(res);
    if (!m || !cl_model_oracle_system()) return CL_EPARAM;
    cl_sys_error e;
    int st = cl_model_eom_build(&graph_eom, m, 0, &e); /* as derived: cheap to build, so once per rung */
    if (!st) st = cl_model_ext_over_states(res, prec, 7111, cl_model_rows_draws(CL_MODEL_ROWS_DRAWS), 1, 0, graph_gap);
    cl_model_eom_free(graph_eom);
    graph_eom = NULL;
    return st;
}
#endif

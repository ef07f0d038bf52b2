/*
 * The oracle's row MODEL.simplify (every model): the equations of motion
 * as the simplifier writes them (expr_simplify.h: exact rational constants,
 * collected terms, one fraction, the manifold's relations |q| = 1, q.q' = 0,
 * R^T R = I) against the equations as derived, both graphs of
 * cl_model_eom_build() evaluated at the same random states on the manifold.
 * Two graphs of the same field differ by rounding, shrinking like 2^-p on
 * the ladder; a rewrite rule that changes a value (a - b collected as
 * a + b) leaves a gap of order one.
 */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "expr.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR

/* The two graphs, their evaluators and one input vector. */
typedef struct simplify_run {
    const cl_model_eom *raw, *simp;
    cl_expr_eval_mp *ev_raw, *ev_simp;
    mpfr_ptr in, a, b;
    size_t nin, nout;
} simplify_run;

static void run_free(simplify_run *r)
{
    cl_expr_eval_free_mp(r->ev_raw), cl_expr_eval_free_mp(r->ev_simp);
    cl_rvec_free_mp(r->in); /* the graphs stay for the next rung */
}

/* The two graphs of the current model, built once per process for every rung (the simplifier's runs cost most of the row). */
static const cl_model *built_for;
static cl_model_eom *built_raw, *built_simp;

void cl_model_row_simplify_free(void)
{
    cl_model_eom_free(built_raw), cl_model_eom_free(built_simp);
    built_raw = built_simp = NULL, built_for = NULL;
}

static int run_open(simplify_run *r, const cl_model *m, cl_prec_t prec)
{
    cl_sys_error e;
    int st = CL_OK;
    if (built_for != m) {
        cl_model_eom_free(built_raw), cl_model_eom_free(built_simp);
        built_raw = built_simp = NULL, built_for = NULL;
        st = cl_model_eom_build(&built_raw, m, 0, &e);
        if (!st) st = cl_model_eom_build(&built_simp, m, 1, &e);
        if (st) return st;
        built_for = m;
    }
    r->raw = built_raw, r->simp = built_simp;
    long n1 = cl_expr_dag_ninputs(r->raw->g), n2 = cl_expr_dag_ninputs(r->simp->g);
    r->nin = (size_t)(n1 > n2 ? n1 : n2);
    r->nout = r->raw->dim + r->raw->ncon;
    if (!st) st = cl_expr_eval_new_mp(&r->ev_raw, r->raw->g, prec);
    if (!st) st = cl_expr_eval_new_mp(&r->ev_simp, r->simp->g, prec);
    if (!st && !(r->in = cl_rvec_new_mp(r->nin + 2 * r->nout + 1, prec))) st = CL_ENOMEM;
    if (st) return st;
    r->a = r->in + r->nin, r->b = r->a + r->nout;
    for (size_t k = 0; k < r->nin; k++) mpfr_set_zero(r->in + k, 1);
    return cl_model_param_values_mp(m, r->in + r->raw->param0);
}

/* The outputs (field, multipliers) of graph ev at the inputs into out. */
static int outputs(cl_expr_eval_mp *ev, const cl_model_eom *q, mpfr_srcptr in, mpfr_ptr out)
{
    int st = cl_expr_eval_run_mp(ev, in, (int)cl_expr_dag_size(q->g) - 1, 0);
    for (size_t i = 0; !st && i < q->dim + q->ncon; i++) mpfr_set(out + i, cl_expr_eval_value_mp(ev, q->out[i]), MPFR_RNDN);
    return st;
}

/* The rows' draw (model_draw_decl.h) on the derived graph: the kind's random state, its time, and the derived field. */
typedef struct simplify_draw {
    const cl_model *m;
    simplify_run *r;
    cl_model_domain_mp *d;
} simplify_draw;

static int simplify_draw_state(void *ctx, mpfr_ptr x, cl_rng *g)
{
    simplify_draw *c = ctx;
    int st = cl_model_kind_of(c->m)->random(c->m, x, g);
    if (!st && c->r->raw->time >= 0) {
        mpfr_set_d(x + c->r->raw->time, cl_rng_range(g, 0, 1), MPFR_RNDN);
        cl_model_domain_set_time_mp(c->d, x + c->r->raw->time);
    }
    return st;
}

/* The derived field at the inputs x (r->in): it fails where the velocity Hessian is singular too. */
static int simplify_draw_field(void *ctx, mpfr_ptr dx, mpfr_srcptr x)
{
    simplify_draw *c = ctx;
    return outputs(c->r->ev_raw, c->r->raw, x, dx) ? CL_EDOMAIN : CL_OK;
}

/* The node of the model's own text that left its domain (the derived graph copies the model's first). */
static int simplify_draw_bad(void *ctx)
{
    simplify_draw *c = ctx;
    int bad = cl_expr_eval_bad_mp(c->r->ev_raw);
    return bad >= 0 && (size_t)bad < cl_expr_dag_size(c->m->g) ? bad : -1;
}

int cl_model_row_simplify(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    cl_check_begin(res);
    if (!m) return CL_EPARAM;
    simplify_run r = {0};
    simplify_draw c = {.m = m, .r = &r};
    int st = run_open(&r, m, prec);
    if (!st) st = cl_model_domain_new_mp(&c.d, m, prec);
    cl_model_drawer_mp k = {.draw = simplify_draw_state, .field = simplify_draw_field, .bad_node = simplify_draw_bad,
                            .singular = cl_model_kind_of(m)->singular, .ctx = &c};
    cl_rng g;
    cl_rng_seed(&g, 7120);
    int draws = cl_model_rows_draws_at(CL_MODEL_ROWS_DRAWS, prec), done = 0;
    for (; done < draws && !st; done++) { /* states inside the domain of the derived equations */
        st = cl_model_domain_draw_mp(c.d, &k, r.in, r.a, &g);
        if (!st && outputs(r.ev_simp, r.simp, r.in, r.b))
            cl_check_worst(res, INFINITY, "draw %d: the simplified equations leave their domain where the derived ones do not", done);
        else if (!st)
            cl_check_worst(res, rows_rel(r.b, r.a, r.nout, cl_rvec_log2_maxabs_mp(r.a, r.nout)),
                           "draw %d: the simplified equations%s against the derived ones", done, r.simp->simplified == 1 ? "" : " (past the budget: not simplified)");
    }
    if (!st) st = cl_model_domain_done_mp(c.d, res, done);
    cl_model_domain_free_mp(c.d);
    run_free(&r);
    return st;
}
#endif

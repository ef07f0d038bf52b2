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
#include "model.h"
#include "model_ext.h"
#include "model_rows_impl.h"

#if CL_T == CL_MPFR

/* The two graphs, their evaluators and one input vector. */
typedef struct simplify_run {
    cl_model_eom *raw, *simp;
    cl_expr_eval_mp *ev_raw, *ev_simp;
    mpfr_ptr in, a, b;
    size_t nin, nout;
} simplify_run;

static void run_free(simplify_run *r)
{
    cl_expr_eval_free_mp(r->ev_raw), cl_expr_eval_free_mp(r->ev_simp);
    cl_model_eom_free(r->raw), cl_model_eom_free(r->simp);
    cl_rvec_free_mp(r->in);
}

static int run_open(simplify_run *r, const cl_model *m, cl_prec_t prec)
{
    cl_sys_error e;
    int st = cl_model_eom_build(&r->raw, m, 0, &e);
    if (!st) st = cl_model_eom_build(&r->simp, m, 1, &e);
    if (st) return st;
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

int cl_model_row_simplify(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    cl_check_begin(res);
    if (!m) return CL_EPARAM;
    simplify_run r = {0};
    int st = run_open(&r, m, prec);
    cl_rng g;
    cl_rng_seed(&g, 7120);
    int draws = cl_model_rows_draws_at(CL_MODEL_ROWS_DRAWS, prec), done = 0;
    for (int k = 0; done < draws && k < 8 * draws && !st; k++) { /* a state where the derived field leaves its domain is drawn again */
        st = cl_model_kind_of(m)->random(m, r.in, &g);
        if (!st && r.raw->time >= 0) mpfr_set_d(r.in + r.raw->time, cl_rng_range(&g, 0, 1), MPFR_RNDN);
        if (!st && outputs(r.ev_raw, r.raw, r.in, r.a)) continue;
        done++;
        if (!st && outputs(r.ev_simp, r.simp, r.in, r.b))
            cl_check_worst(res, INFINITY, "draw %d: the simplified equations leave their domain where the derived ones do not", k);
        else if (!st)
            cl_check_worst(res, rows_rel(r.b, r.a, r.nout, cl_rvec_log2_maxabs_mp(r.a, r.nout)),
                           "draw %d: the simplified equations%s against the derived ones", k, r.simp->simplified == 1 ? "" : " (past the budget: not simplified)");
    }
    if (!st && !done) st = CL_EDOMAIN; /* no state inside the domain: the verdict is undefined */
    run_free(&r);
    return st;
}
#endif

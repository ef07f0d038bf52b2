/*
 * The oracle's rows of a model with constraints (`constraint NAME = EXPR`),
 * through its system's descriptor like model_rows_ext.c:
 *
 *   MODEL.constraints  each constraint's rate along the field vanishes, on
 *                      the field of every form: dc/dt = 0 for a
 *                      nonholonomic c, dh/dt = 0 and d(ḣ)/dt = 0 (the first
 *                      and second derivatives of h) for a holonomic h
 *   MODEL.multipliers  the multipliers λ at a state carried to every form
 *                      agree with those of the first form
 *
 * The energy of a constrained model is judged by MODEL.invariants and
 * MODEL.conserve, as any model's.
 */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR

/*
 * The constraints' values are the last invariants of the descriptor: h and ḣ per holonomic one, c per nonholonomic one.
 * Their gradients (a Richardson table per coordinate, each value through the Newton-inverted Legendre map in a
 * momentum form) cost most of a constrained model's rows: 12 states up to 113 bits, 3 from 256 bits on.
 */
int cl_model_row_constraints(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    const cl_system *s = cl_model_oracle_system();
    if (!m || !s) return CL_EPARAM;
    size_t n = 0, nvals = m->ncon;
    while (s->invariant_names[n]) n++;
    for (size_t k = 0; k < m->ncon; k++) nvals += m->conh[k] >= 0;
    int draws = prec >= 256 ? (CL_MODEL_ROWS_DRAWS + 3) / 4 : cl_model_rows_draws(CL_MODEL_ROWS_DRAWS);
    return cl_model_ext_rates_vanish(res, prec, 7107, draws, n - nvals, n);
}

/* λ of form 0 at x against λ at x carried to every other form (relative to max |λ|). */
static int multipliers_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    mpfr_ptr y = w, lam0 = y + D, lam = lam0 + D;
    size_t nc = cl_model_oracle_model()->ncon;
    int st = s->multipliers(r->inst, 0, lam0, x);
    double scale = st ? 0 : cl_rvec_log2_maxabs_mp(lam0, nc);
    (void)rg;
    for (int f = 1; f < nf && !st; f++) {
        st = s->convert(r->inst, 0, x, f, y);
        if (!st) st = s->multipliers(r->inst, f, lam, y);
        if (!st) cl_check_worst(res, rows_rel(lam, lam0, nc, scale), "draw %d: the multipliers in form %s against form %s", k, s->forms[f], s->forms[0]);
    }
    return st;
}

int cl_model_row_multipliers(cl_check_result *res, cl_prec_t prec)
{
    return cl_model_ext_over_states(res, prec, 7108, CL_MODEL_ROWS_DRAWS, 3, 0, multipliers_gap);
}

/*
 * The field of the form dist at x carried there against the qdot field at x: the configuration rates alike, and
 * the rate of each quasivelocity against the rate of the velocity component it is (relative to the largest rate).
 */
static int distribution_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    const cl_model *m = cl_model_oracle_model();
    int dist = cl_system_form_index(s, "dist");
    mpfr_ptr y = w, f0 = y + D, fd = f0 + D;
    size_t nq = m->nq, nd = s->dim(r->inst, dist) - nq;
    (void)rg;
    (void)nf;
    if (dist < 0 || m->ndist != nd) return CL_EDIM;
    int st = s->convert(r->inst, 0, x, dist, y);
    if (!st) st = s->rhs(r->inst, 0, f0, x);
    if (!st) st = s->rhs(r->inst, dist, fd, y);
    if (st) return st;
    for (size_t a = 0; a < nd; a++) mpfr_set(f0 + nq + a, f0 + nq + (size_t)m->dist[a], MPFR_RNDN);
    double scale = cl_rvec_log2_maxabs_mp(f0, nq + nd);
    cl_check_worst(res, rows_rel(fd, f0, nq + nd, scale), "draw %d: the field of the form dist against the qdot field", k);
    return CL_OK;
}

int cl_model_row_distribution(cl_check_result *res, cl_prec_t prec)
{
    return cl_model_ext_over_states(res, prec, 7109, cl_model_rows_draws(CL_MODEL_ROWS_DRAWS), 3, 0, distribution_gap);
}
#endif

/*
 * MODEL.enclose: the validated integrator of `simulate --enclose`
 * (src/enclose.h, on Arb balls at the rung's precision p) from a random
 * state of the model, and a floating reference of the same motion (the
 * Taylor integrator on the same graph at p + 64 bits, its tolerance
 * 2^-(p+48)) at every output time: four times spread over the trajectory
 * rows' span [0, 1/d] (cl_model_rows_span()) and the end of every step
 * whose time is an exact binary number. Each component of the reference,
 * as a ball of radius 2^-(p+40) of the state's scale (its own error, with
 * a margin), must meet the enclosure's ball; one that does not is an
 * infinite discrepancy. Otherwise the row reports the widest radius
 * relative to max(1, |x|), which follows 2^-p down the ladder: a wrapping
 * effect or a loose remainder shows as a radius past the condition factor.
 *
 * The field is the model's equations of motion as the Taylor integrator
 * reads them (cl_model_eom_taylor_new(), the graph `simulate --enclose`
 * runs), in the kind's first form. The orders of both runs fit the span:
 * cl_model_rows_order_for_span() for a step between output times, the
 * motion's radius of convergence read from an expansion of order 16 at
 * the start, at most the precision's own order (cl_taylor_order_for_tol()).
 *
 * As `simulate --enclose`, the row reads CHARTLESS_ENCLOSE_ORDER (the
 * order of the enclosure) and CHARTLESS_ENCLOSE_DROP_REMAINDER (leave out
 * the remainder term: the enclosure is then no proof, and the row must
 * find the reference outside it): for testing the row itself.
 *
 * Compiled with the templated rows, one copy (MPFR). The table is
 * model_rows.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb.h>
#include "chartless_base.h"
#include "check.h"
#include "enclose.h"
#include "model_rows_kit.h"
#include "model_taylor.h"

#if CL_T == CL_MPFR /* one copy: the MPFR instantiation */

/** Output times over the span, and the steps the enclosure may take in all. */
enum { ENC_OUTPUTS = 4, ENC_MAX_STEPS = 20000 };
/**
 * The enclosure's remainder is bounded on the a-priori box, whose coefficients exceed those at the point that give the radius
 * of convergence: its order is fitted to a radius 2^ENC_RHO_MARGIN times smaller (on the product models, one step between
 * output times instead of four, a third of the work).
 */
enum { ENC_RHO_MARGIN = 2 };
/** The reference: its guard bits over the rung, its tolerance's and its error margin's bits past p. */
enum { REF_GUARD = 64, REF_TOL = 48, REF_MARGIN = 40 };

#define ENC_WHAT                                                                                                                  \
    "the validated enclosure (simulate --enclose: Taylor series on Arb balls at p bits, a-priori enclosure, remainder, Lohner's "   \
    "wrapping control) from a random state over t in [0, 1/4] (1/16 at 256 bits, 1/4096 above) contains the motion of the Taylor " \
    "integrator on the same graph at p + 64 bits (tolerance 2^-(p+48), each component a ball of radius 2^-(p+40) of the scale) "   \
    "at 4 output times and every exact step end: a reference outside is an infinite discrepancy; else the widest radius relative " \
    "to max(1, |x|)"
#define ENC_WHY                                                                                                                   \
    "the remainder of each step is kept below 2^(8-p) of the state's scale, the rounding of each step's Taylor sums on balls adds " \
    "a few hundred ulps, and the flow carries them over the span's dozens of steps: radii up to 2^16 ulps on the shipped models "  \
    "(the skate: 83 steps over [0, 1/4])"
static const cl_check enclose_row = {.name = "enclose", .tags = "", .what = ENC_WHAT, .cond = 0x1p20, .why = ENC_WHY,
                                     .fn_d = cl_model_row_enclose, .fn_mp = cl_model_row_enclose};
static const cl_check enclose_row_slow = {.name = "enclose", .tags = "", .what = ENC_WHAT, .cond = 0x1p20, .why = ENC_WHY,
                                          .fn_d = cl_model_row_enclose, .fn_mp = cl_model_row_enclose, .slow = 1};

const cl_check *cl_model_enclose_row(const cl_model *m)
{
    /* Every kind's first form is the form of the graph (qdot, ROmega, p); a model whose graph cannot be built is the row's error.
       Slow (left out of --quick): a rotation beside another factor or a constraint over 18 state numbers or more, where the
       variational system's n^2 series on the product engine's graph cost seconds a rung. */
    int rot = 0;
    for (size_t i = 0; i < m->nfac; i++) rot |= m->fac[i].kind == CL_LAGR_SO3 || m->fac[i].kind == CL_LAGR_SE3;
    int slow = rot && m->nq + m->nv >= 18 && (m->nfac > 1 || m->ncon > 0);
    return slow ? &enclose_row_slow : &enclose_row;
}

/* The row's run: the field's graph, its probe (order 16 at p bits) and the reference at P bits. */
typedef struct enc_row {
    const cl_model *m;
    const cl_model_eom *q;
    cl_expr_dag *g;
    int *out;
    size_t n;
    long tin;
    cl_taylor_mp *probe, *ref;
    cl_model_domain_mp *dom;
} enc_row;

/* The equations of the current model, derived once per process for every rung (the derivation can cost more than a rung). */
static const cl_model *built_for;
static cl_model_eom *built;

void cl_model_row_enclose_free(void)
{
    cl_model_eom_free(built);
    built = NULL, built_for = NULL;
}

static void row_close(enc_row *r)
{
    cl_taylor_free_mp(r->probe);
    cl_taylor_free_mp(r->ref);
    cl_model_domain_free_mp(r->dom);
    cl_expr_dag_free(r->g);
    free(r->out);
}

/* The graph of the field in the kind's first form, the parameters as constants: 0, CL_EDIM (no such graph), or a CL_E code. */
static int row_open(enc_row *r, const cl_model *m, cl_prec_t prec, char *why, size_t len)
{
    cl_sys_error e = {"", ""};
    memset(r, 0, sizeof *r);
    r->m = m;
    const cl_model_kind *kind = cl_model_kind_of(m);
    int st = CL_OK;
    if (built_for != m) {
        cl_model_row_enclose_free();
        st = cl_model_eom_taylor_new(&built, m, &e);
        if (st) {
            snprintf(why, len, "no equations of motion as a graph: %.100s", e.what);
            return st;
        }
        built_for = m;
    }
    r->q = built;
    r->n = r->q->dim;
    if (r->n != kind->dim(m, 0) || !r->q->form || strcmp(r->q->form, kind->forms[0])) {
        snprintf(why, len, "the graph's form %s is not the kind's first form %s", r->q->form ? r->q->form : "?", kind->forms[0]);
        return CL_EDIM;
    }
    r->tin = (long)r->n;
    r->out = malloc(r->n * sizeof *r->out);
    if (!r->out || cl_expr_dag_new(&r->g)) return CL_ENOMEM;
    st = cl_model_eom_field(r->g, r->q, (const char *const *)m->pdef, r->tin, r->out);
    if (!st) st = cl_taylor_new_mp(&r->probe, r->g, r->out, r->n, 0, r->tin, 16, prec);
    if (!st) st = cl_model_domain_new_mp(&r->dom, m, prec);
    return st;
}

/* The rows' draw (model_draw_decl.h): the kind's random state of form 0 (on the model's constraints), the field from the probe. */
static int enc_draw_state(void *ctx, mpfr_ptr x, cl_rng *g)
{
    const enc_row *r = ctx;
    int st = cl_model_kind_of(r->m)->random(r->m, x, g);
    if (!st && r->m->ncon) { /* brought onto the constraints as the systems' draw does */
        void *core = NULL;
        char err[200];
        const cl_model_kind *kind = cl_model_kind_of(r->m);
        st = kind->open(&core, r->m, mpfr_get_prec(x));
        mpfr_ptr pv = st ? NULL : cl_rvec_new_mp(r->m->nparam + 1, mpfr_get_prec(x));
        if (!st && !pv) st = CL_ENOMEM;
        if (!st) st = cl_model_param_values_mp(r->m, pv);
        for (size_t k = 0; !st && k < r->m->nparam; k++) kind->set_param(core, k, pv + k);
        if (!st && kind->ready) st = kind->ready(core, r->m, mpfr_get_prec(x));
        if (!st) st = kind->constrain(core, r->m, 0, x, INFINITY, err, sizeof err);
        cl_rvec_free_mp(pv);
        if (core) kind->close(core);
    }
    return st;
}

static int enc_draw_field(void *ctx, mpfr_ptr dx, mpfr_srcptr x)
{
    const enc_row *r = ctx;
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x));
    mpfr_set_zero(t, 1);
    int st = cl_taylor_expand_to_mp(r->probe, t, x, 1);
    for (size_t i = 0; !st && i < r->n; i++) mpfr_set(dx + i, cl_taylor_coef_mp(r->probe, i, 1), MPFR_RNDN);
    mpfr_clear(t);
    return st ? CL_EDOMAIN : CL_OK;
}

static int enc_draw_bad(void *ctx)
{
    (void)ctx;
    return -1;
}

/* log2 of the motion's radius of convergence at (0, x), as the Jorba–Zou step reads it from the probe (+inf: a polynomial motion). */
static double log2_radius(enc_row *r, mpfr_srcptr x)
{
    mpfr_t t, h;
    mpfr_inits2(mpfr_get_prec(x), t, h, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    double l = -INFINITY;
    if (!cl_taylor_expand_mp(r->probe, t, x)) {
        cl_taylor_step_size_mp(r->probe, h); /* h = ρ e^−2 e^(−0.7/15) */
        l = mpfr_number_p(h) && !mpfr_zero_p(h) ? r_log2abs(h) + (2 + 0.7 / 15) / M_LN2 : mpfr_inf_p(h) ? INFINITY : -INFINITY;
    }
    mpfr_clears(t, h, (mpfr_ptr)0);
    return l;
}

/* The order for a step between output times (2^lstep long) to err by 2^ltol, at most \p full and at least 4 (lrho: the radius of
   convergence the step sees, log2). */
static int fitted_order(double ltol, double lstep, double lrho, int full)
{
    int k = cl_model_rows_order_for_span(ltol, lstep, lrho, full);
    return k < 4 ? 4 : k;
}

/* What one trajectory found. */
typedef struct enc_found {
    double worst;     /* log2 of the widest radius relative to the scale; +inf: the reference outside */
    double t_worst;
    double frac;      /* the largest |reference − centre| / radius */
    int outside;
    double t_out;
    size_t i_out;
    int checked;      /* times compared */
    long steps, ref_steps;
    int order, ref_order;
} enc_found;

/* Compare the reference xr (P bits) with the enclosure's box x at time t; margin = 2^-(p+REF_MARGIN). */
static void compare(enc_found *f, arb_srcptr x, mpfr_srcptr xr, size_t n, double t, cl_prec_t prec)
{
    double scale = fmax(0, cl_rvec_log2_maxabs_mp(xr, n));
    arb_t b, d;
    arb_init(b);
    arb_init(d);
    for (size_t i = 0; i < n; i++) {
        arf_set_mpfr(arb_midref(b), xr + i);
        mag_set_ui_2exp_si(arb_radref(b), 1, (slong)floor(scale) + 1 - (slong)prec - REF_MARGIN);
        if (!arb_overlaps(x + i, b) && !f->outside) f->outside = 1, f->t_out = t, f->i_out = i;
        double lr = (mag_is_zero(arb_radref(x + i)) ? -INFINITY : mag_get_d_log2_approx(arb_radref(x + i))) - scale;
        if (lr > f->worst) f->worst = lr, f->t_worst = t;
        if (!mag_is_zero(arb_radref(x + i))) { /* |reference − centre| / radius */
            arf_sub(arb_midref(d), arb_midref(x + i), arb_midref(b), 2 * prec, ARF_RND_NEAR);
            arf_abs(arb_midref(d), arb_midref(d));
            arf_set_mag(arb_midref(b), arb_radref(x + i));
            arf_div(arb_midref(d), arb_midref(d), arb_midref(b), 30, ARF_RND_UP);
            f->frac = fmax(f->frac, arf_get_d(arb_midref(d), ARF_RND_UP));
        }
    }
    arb_clear(b);
    arb_clear(d);
}

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* One trajectory from x (p bits, form 0) over [0, 1/d]: the enclosure at p bits against the reference at P bits. */
static int trajectory(enc_row *r, mpfr_srcptr x, cl_prec_t prec, enc_found *f, char *why, size_t len)
{
    size_t n = r->n;
    cl_prec_t P = prec + REF_GUARD;
    unsigned d = cl_model_rows_span(prec);
    double lstep = -log2((double)d * ENC_OUTPUTS), lrho = log2_radius(r, x);
    const char *order = env("CHARTLESS_ENCLOSE_ORDER");
    f->order = order ? atoi(order) : fitted_order(8 - (double)prec, lstep, lrho - ENC_RHO_MARGIN, cl_taylor_order_for_tol(-(double)prec));
    f->ref_order = fitted_order(-(double)(prec + REF_TOL), lstep, lrho, cl_taylor_order_for_tol(-(double)(prec + REF_TOL)));
    cl_enclose *e = NULL;
    int st = cl_enclose_new(&e, r->g, r->out, n, 0, r->tin, f->order, prec);
    if (!st) st = cl_taylor_new_mp(&r->ref, r->g, r->out, n, 0, r->tin, f->ref_order, P);
    mpfr_ptr xr = st ? NULL : cl_rvec_new_mp(n + 2, P);
    arb_ptr xb = st ? NULL : _arb_vec_init((slong)n + 2);
    if (!st && !xr) st = CL_ENOMEM;
    if (st) {
        snprintf(why, len, "the integrators could not be set up (%s)", cl_strerror(st));
        cl_enclose_free(e);
        cl_rvec_free_mp(xr);
        if (xb) _arb_vec_clear(xb, (slong)n + 2);
        return st;
    }
    if (env("CHARTLESS_ENCLOSE_DROP_REMAINDER")) cl_enclose_set_flags(e, CL_ENCLOSE_DROP_REMAINDER);
    mpfr_ptr tr = xr + n, t1 = tr + 1;
    arb_ptr t0 = xb + n, tk = t0 + 1;
    for (size_t i = 0; i < n; i++) {
        mpfr_set(xr + i, x + i, MPFR_RNDN); /* exact: P > p */
        arf_set_mpfr(arb_midref(xb + i), x + i);
        mag_zero(arb_radref(xb + i));
    }
    mpfr_set_zero(tr, 1);
    arb_zero(t0);
    cl_enclose_start(e, t0, xb);
    cl_ode_stats s = {0};
    for (int k = 1; k <= ENC_OUTPUTS && !st; k++) {
        arb_set_si(tk, k);
        arb_div_ui(tk, tk, (ulong)d * ENC_OUTPUTS, prec); /* exact: d and ENC_OUTPUTS are powers of 2 */
        while (!st && arb_lt(cl_enclose_time(e), tk)) {
            if (cl_enclose_steps(e) >= ENC_MAX_STEPS) {
                snprintf(why, len, "more than %d steps", ENC_MAX_STEPS);
                st = CL_ENOCONV;
            } else if (cl_cpu_budget_spent()) {
                st = CL_ETIME;
            } else if (cl_enclose_step(e, tk)) {
                snprintf(why, len, "enclosure lost at t = %.6g (%.120s)", arf_get_d(arb_midref(cl_enclose_time(e)), ARF_RND_NEAR),
                         cl_enclose_reason(e));
                st = CL_ESTEP;
            } else if (arb_is_exact(cl_enclose_time(e))) { /* an exact time: the reference carried there */
                arf_get_mpfr(t1, arb_midref(cl_enclose_time(e)), MPFR_RNDN);
                cl_ode_stats one = {0};
                st = cl_taylor_integrate_mp(r->ref, tr, xr, t1, 0, NULL, NULL, -1, 0, &one);
                s.steps += one.steps;
                if (st) {
                    snprintf(why, len, "the reference run failed at t = %.6g (%s)", mpfr_get_d(tr, MPFR_RNDN), cl_strerror(st));
                } else {
                    cl_enclose_hull(e, xb);
                    compare(f, xb, xr, n, mpfr_get_d(t1, MPFR_RNDN), prec);
                    f->checked++;
                }
            }
        }
    }
    f->steps = cl_enclose_steps(e);
    f->ref_steps = s.steps;
    cl_enclose_free(e);
    cl_taylor_free_mp(r->ref);
    r->ref = NULL;
    cl_rvec_free_mp(xr);
    _arb_vec_clear(xb, (slong)n + 2);
    return st;
}

int cl_model_row_enclose(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model();
    cl_check_begin(res);
    if (!m) return CL_EPARAM;
    cl_prec_t saved = cl_arb_get_prec();
    cl_arb_set_prec(prec);
    enc_row r;
    char why[160] = "";
    int st = row_open(&r, m, prec, why, sizeof why), measured = 0;
    mpfr_ptr x = st ? NULL : cl_rvec_new_mp(2 * r.n + 2, prec);
    if (!st && !x) st = CL_ENOMEM;
    cl_model_drawer_mp k = {.draw = enc_draw_state, .field = enc_draw_field, .bad_node = enc_draw_bad,
                            .singular = cl_model_kind_of(m)->singular, .ctx = &r};
    cl_rng g;
    cl_rng_seed(&g, 7121);
    while (!st && !measured && cl_model_domain_more_mp(r.dom)) { /* one trajectory that stays inside the domain */
        enc_found f = {.worst = -INFINITY};
        st = cl_model_domain_draw_mp(r.dom, &k, x, x + r.n, &g);
        if (!st) st = trajectory(&r, x, prec, &f, why, sizeof why);
        if (st == CL_EDOMAIN) {
            cl_model_domain_reject_mp(r.dom, st), st = CL_OK;
            continue;
        }
        if (st) break;
        measured = 1;
        if (f.outside)
            cl_check_worst(res, INFINITY, "the reference outside the enclosure at t = %.6g, component %zu (order %d, %ld steps over [0, 1/%u])",
                           f.t_out, f.i_out, f.order, f.steps, cl_model_rows_span(prec));
        else
            cl_check_worst(res, f.worst, "widest radius 2^%.1f of the scale at t = %.4g; the reference inside at %d times, at most %.2f "
                           "of a radius from the centre (order %d, %ld steps over [0, 1/%u]; reference order %d, %ld steps)",
                           f.worst, f.t_worst, f.checked, f.frac, f.order, f.steps, cl_model_rows_span(prec), f.ref_order, f.ref_steps);
    }
    if (!st) st = cl_model_domain_done_mp(r.dom, res, measured);
    else if (why[0]) snprintf(res->note, sizeof res->note, "%s", why);
    cl_rvec_free_mp(x);
    row_close(&r);
    cl_arb_set_prec(saved);
    return st;
}
#endif

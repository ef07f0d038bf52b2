/*
 * A model of SO(3), S¹ or Rᵏ factors is a system of the command line
 * (model_ext.h); its rows use that system's descriptor only (forms, dim,
 * rhs, convert, random_state, invariants), so they hold for any kind of
 * model. They run in MPFR on every rung (at 53 bits too: the descriptor
 * works in MPFR).
 *
 *   MODEL.legendre  form 0 → k → 0 returns the state, and 0 → j → k agrees with 0 → k
 *   MODEL.forms     the field of every form against the field of form 0
 *                   carried by the derivative of the conversion
 *   MODEL.invariants dI/dt = d/ds I(x + s f) vanishes on the field f of every
 *                   form (by src/deriv) for the energy and the declared invariants
 *   MODEL.conserve  the energy, the declared invariants and the kind's
 *                   constraint drift along a trajectory of form 0
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#include "lagr_s2.h"
#include "linalg.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"
#include "model_taylor.h"
#include "ode.h"
#include "r3.h"

#if CL_T == CL_MPFR



static void ext_close(ext_run *r)
{
    if (r->inst) r->s->destroy(r->inst);
    r->inst = NULL;
    cl_params_free(&r->p);
}

static int ext_open(ext_run *r, cl_prec_t prec)
{
    cl_sys_error e;
    memset(r, 0, sizeof *r);
    r->s = cl_model_oracle_system();
    r->prec = prec;
    if (!r->s) return CL_EPARAM;
    int st = cl_params_parse(&r->p, r->s->params, 0, NULL, NULL, prec, &e);
    if (!st) st = r->s->create(&r->inst, &r->p, prec, &e);
    if (st) ext_close(r);
    return st;
}

/* The number of forms and the largest state length over them. */
static int ext_forms(const ext_run *r, size_t *maxdim)
{
    int k = 0;
    *maxdim = 0;
    for (; r->s->forms[k]; k++)
        if (r->s->dim(r->inst, k) > *maxdim) *maxdim = r->s->dim(r->inst, k);
    return k;
}

int cl_model_ext_over_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, int draws, size_t nw, int guard, ext_measure measure)
{
    ext_run r, rg = {0};
    int st = ext_open(&r, prec);
    cl_check_begin(res);
    if (st) return st;
    if (guard && (st = ext_open(&rg, cl_model_rows_gbs_guarded(prec)))) {
        ext_close(&r);
        return st;
    }
    size_t D;
    int nf = ext_forms(&r, &D);
    mpfr_ptr x = cl_rvec_new_mp(D * (nw + 1), prec);
    if (!x) st = CL_ENOMEM;
    cl_rng g;
    cl_rng_seed(&g, seed);
    cl_model_domain_mp *dom = cl_model_ext_domain(r.inst);
    int measured = 0;
    while (!st && measured < draws && cl_model_domain_more_mp(dom)) { /* a state where the row leaves the domain: another */
        st = r.s->random_state(r.inst, 0, x, &g);
        if (!st) st = measure(res, &r, guard ? &rg : NULL, x, x + D, D, nf, measured);
        if (cl_model_outside(st)) cl_model_domain_reject_mp(dom, st), st = CL_OK;
        else measured += !st;
    }
    if (!st) st = cl_model_domain_done_mp(dom, res, measured);
    cl_rvec_free_mp(x);
    if (guard) ext_close(&rg);
    ext_close(&r);
    return st;
}

/* Round trips 0 → k → 0, and 0 → j → k against 0 → k (relative). */
static int ext_legendre_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t d0 = s->dim(r->inst, 0);
    mpfr_ptr y = w, z = y + D, u = z + D;
    double sx = cl_rvec_log2_maxabs_mp(x, d0);
    int st = CL_OK;
    (void)rg;
    for (int f = 1; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        st = s->convert(r->inst, 0, x, f, y);
        if (!st) st = s->convert(r->inst, f, y, 0, z);
        if (!st) cl_check_worst(res, rows_rel(z, x, d0, sx), "draw %d: %s -> %s -> %s", k, s->forms[0], s->forms[f], s->forms[0]);
        for (int j = 1; j < nf && !st; j++) {
            if (j == f) continue;
            st = s->convert(r->inst, 0, x, j, z);
            if (!st) st = s->convert(r->inst, j, z, f, u);
            if (!st)
                cl_check_worst(res, rows_rel(u, y, df, cl_rvec_log2_maxabs_mp(y, df)), "draw %d: %s -> %s -> %s against %s -> %s", k,
                               s->forms[0], s->forms[j], s->forms[f], s->forms[0], s->forms[f]);
        }
    }
    return st;
}

int cl_model_ext_row_legendre(cl_check_result *res, cl_prec_t prec) { return cl_model_ext_over_states(res, prec, 7102, cl_model_rows_draws(CL_MODEL_ROWS_DRAWS), 3, 0, ext_legendre_gap); }

/* The field of one form for the integrator, evaluated at the instance's precision (guard bits above the state's). */
typedef struct ext_flow {
    ext_run *r;
    int form;
    size_t dim;
    mpfr_ptr xin, dxin; /* at the instance's precision */
    mpfr_ptr I0, I;     /* MODEL.conserve: the invariants at t = 0 and now */
    size_t ni;
    double worst;
} ext_flow;

static int ext_flow_field(mpfr_ptr dx, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    ext_flow *c = ctx;
    if (c->r->s->set_time) c->r->s->set_time(c->r->inst, t); /* a time-dependent model moves with the integration */
    cl_rvec_copy_mp(c->xin, x, c->dim);
    int st = c->r->s->rhs(c->r->inst, c->form, c->dxin, c->xin);
    if (!st) cl_rvec_copy_mp(dx, c->dxin, c->dim);
    return st;
}

/*
 * Integrate x (form \p form, at precision \p prec) over [0, t1], t1 = 1/4 (1/16
 * at 256 bits, 1/4096 above; 8 times shorter under --quick, cl_model_rows_span()),
 * by Gragg–Bulirsch–Stoer of \p columns columns (0: the default) with
 * tolerance 2^(12−p); the
 * field is evaluated by \p r, whose precision carries GBS's guard bits (its
 * extrapolation amplifies the field's rounding), as MODEL.conserve of S²
 * models. \p obs (may be NULL) is called after every step with \p c.
 */
static int ext_integrate(ext_flow *c, mpfr_ptr x, cl_prec_t prec, long tol_exp, int columns, cl_ode_observer_mp obs)
{
    cl_ode_ws_mp *ode = NULL;
    mpfr_ptr w = cl_rvec_new_mp(4, prec);
    c->xin = cl_rvec_new_mp(2 * c->dim, c->r->prec);
    c->dxin = c->xin ? c->xin + c->dim : NULL;
    int st = w && c->xin ? cl_ode_ws_new_mp(&ode, c->dim, prec, CL_ODE_GBS, columns) : CL_ENOMEM;
    if (!st) {
        mpfr_ptr t = w, t1 = w + 1, h = w + 2, tol = w + 3;
        mpfr_set_zero(t, 1);
        mpfr_set_ui(t1, 1, MPFR_RNDN);
        mpfr_div_ui(t1, t1, cl_model_rows_span(prec), MPFR_RNDN);
        mpfr_set_zero(h, 1);
        mpfr_set_ui_2exp(tol, 1, tol_exp, MPFR_RNDN);
        st = cl_ode_set_tol_mp(ode, tol, tol);
        if (obs) cl_ode_set_observer_mp(ode, obs, c);
        if (!st) st = cl_ode_integrate_mp(ode, ext_flow_field, c, t, x, t1, h, NULL);
    }
    cl_ode_ws_free_mp(ode);
    cl_rvec_free_mp(c->xin);
    c->xin = c->dxin = NULL;
    cl_rvec_free_mp(w);
    return st;
}

/*
 * MODEL.forms: the field of every form at
 * the state carried from x against the field of the first form carried by
 * the derivative of the conversion, f_k(c(x)) = Dc(x)·f_0(x) (+ ∂c/∂t when
 * the model depends on t), the derivative along the line x + s f_0/|f_0|
 * (t + s/|f_0|) by src/deriv at a precision of its own (an instance per
 * precision, reopened when it changes).
 */
typedef struct ext_carry_ctx {
    ext_run r;
    int form, open;
    mpfr_srcptr x, dir; /* the state of the first form and the field's direction, at the working precision */
    mpfr_srcptr speed;  /* |f_0(x)| */
    size_t d0;
    mpfr_ptr xs;        /* x + s dir, at r.prec */
} ext_carry_ctx;

static int ext_carry_eval(mpfr_ptr y, mpfr_srcptr s, void *ctx)
{
    ext_carry_ctx *c = ctx;
    cl_prec_t P = mpfr_get_prec(y);
    if (!c->open || c->r.prec != P) {
        if (c->open) ext_close(&c->r);
        cl_rvec_free_mp(c->xs);
        c->open = 0;
        c->xs = NULL;
        int st = ext_open(&c->r, P);
        if (st) return st;
        c->open = 1;
        c->xs = cl_rvec_new_mp(c->d0 + 1, P);
        if (!c->xs) return CL_ENOMEM;
    }
    mpfr_ptr t = c->xs + c->d0;
    for (size_t a = 0; a < c->d0; a++) mpfr_fma(c->xs + a, s, c->dir + a, c->x + a, MPFR_RNDN);
    if (c->r.s->set_time) {
        mpfr_div(t, s, c->speed, MPFR_RNDN);
        c->r.s->set_time(c->r.inst, t);
    }
    return c->r.s->convert(c->r.inst, 0, c->xs, c->form, y);
}

static int ext_carry_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t d0 = s->dim(r->inst, 0);
    cl_prec_t prec = mpfr_get_prec(x);
    mpfr_ptr F0 = w, y = F0 + D, Ff = y + D, J = Ff + D, speed = J + D, s0 = speed + 1;
    (void)rg;
    mpfr_set_zero(s0, 1);
    if (s->set_time) s->set_time(r->inst, s0); /* t = 0, the time of s = 0 */
    int st = s->rhs(r->inst, 0, F0, x);
    if (!st) {
        mpfr_set_zero(speed, 1);
        for (size_t a = 0; a < d0; a++) mpfr_hypot(speed, speed, F0 + a, MPFR_RNDN);
        if (mpfr_zero_p(speed)) mpfr_set_ui(speed, 1, MPFR_RNDN);
        for (size_t a = 0; a < d0; a++) mpfr_div(F0 + a, F0 + a, speed, MPFR_RNDN);
    }
    ext_carry_ctx c = {.x = x, .dir = F0, .speed = speed, .d0 = d0};
    for (int f = 1; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        c.form = f;
        st = s->convert(r->inst, 0, x, f, y);
        if (!st) st = s->rhs(r->inst, f, Ff, y);
        if (!st) st = cl_jacobian_mp(J, NULL, ext_carry_eval, &c, s0, 1, df);
        for (size_t a = 0; a < df && !st; a++) mpfr_mul(J + a, J + a, speed, MPFR_RNDN);
        if (!st)
            cl_check_worst(res, rows_rel(Ff, J, df, cl_rvec_log2_maxabs_mp(Ff, df)), "draw %d: the %s field against the %s field carried by the conversion's derivative",
                           k, s->forms[f], s->forms[0]);
    }
    if (c.open) ext_close(&c.r);
    cl_rvec_free_mp(c.xs);
    (void)prec;
    return st;
}

int cl_model_ext_row_forms(cl_check_result *res, cl_prec_t prec)
{
    return cl_model_ext_over_states(res, prec, 7101, cl_model_oracle_quick() ? 3 : cl_model_rows_draws_at(CL_MODEL_ROWS_DRAWS, prec), 5, 0,
                                    ext_carry_gap);
}

/* 0 when a force is declared or L depends on t: the energy is then no invariant of the rows. */
static int ext_energy_conserved(void) { return !cl_model_oracle_model()->force && !cl_model_oracle_model()->timed; }

/* The invariants at the precision of the output, by an instance at that precision (reopened when it changes). */
typedef struct ext_inv_ctx {
    ext_run r;
    int form, open;
    size_t dim, from, ni; /* the outputs: invariants [from, ni) of the descriptor */
    mpfr_ptr all;         /* every invariant of the descriptor, at r.prec */
} ext_inv_ctx;

static int ext_inv_eval(mpfr_ptr y, mpfr_srcptr x, void *ctx)
{
    ext_inv_ctx *c = ctx;
    cl_prec_t P = mpfr_get_prec(y);
    int st = CL_OK;
    if (!c->open || c->r.prec != P) {
        if (c->open) ext_close(&c->r);
        cl_rvec_free_mp(c->all);
        c->all = NULL;
        c->open = 0;
        st = ext_open(&c->r, P);
        if (st) return st;
        c->open = 1;
        size_t nall = 0;
        while (c->r.s->invariant_names[nall]) nall++;
        c->all = cl_rvec_new_mp(nall, P);
        if (!c->all) return CL_ENOMEM;
    }
    st = c->r.s->invariants(c->r.inst, c->form, c->all, x);
    if (!st) cl_rvec_copy_mp(y, c->all + c->from, c->ni - c->from);
    return st;
}

/*
 * The energy and the declared invariants do not change along the field of
 * any form: dI/dt = Σ_i ∂I/∂x_i f_i = 0 at x carried to every form, the
 * gradient by src/deriv (cl_jacobian), relative to Σ_i |∂I/∂x_i| max_j |f_j|
 * (the field's rounding is normwise: a solve's; a component f_i that
 * vanishes, as ẋ₃ of a skate kept on the ice, carries the error of the
 * others). Only
 * the judged invariants are differentiated: the kind's drifts between them
 * (max |RᵀR − I|, a maximum of absolute values) have no derivative.
 */
static size_t rates_from, rates_to; /* the invariants whose rates ext_invariants_gap() judges: [from, to) */

/* The invariants at the state y and the time s, the instance back at t = 0 after (the rows' states are at t = 0). */
typedef struct ext_time_ctx {
    ext_inv_ctx *inv;
    mpfr_srcptr y;
} ext_time_ctx;

static int ext_inv_time_eval(mpfr_ptr out, mpfr_srcptr s, void *ctx)
{
    ext_time_ctx *c = ctx;
    int st = ext_inv_eval(out, c->y, c->inv); /* the instance at the precision of out */
    if (st) return st;
    mpfr_t zero;
    mpfr_init2(zero, 2);
    mpfr_set_zero(zero, 1);
    c->inv->r.s->set_time(c->inv->r.inst, s);
    st = ext_inv_eval(out, c->y, c->inv);
    c->inv->r.s->set_time(c->inv->r.inst, zero);
    mpfr_clear(zero);
    return st;
}

/*
 * ∂I/∂t at (y, t = 0) into Jt (n numbers; zero for a model that does not depend on t), its error estimate
 * joined to Jt's magnitude when it does not settle (a rate that vanishes but for roundings).
 */
static int time_rates(ext_inv_ctx *inv, const cl_system *s, mpfr_srcptr y, mpfr_ptr Jt, mpfr_ptr Et, size_t n)
{
    for (size_t i = 0; i < n; i++) mpfr_set_zero(Jt + i, 1);
    if (!s->set_time || !cl_model_oracle_model()->timed) return CL_OK;
    ext_time_ctx c = {.inv = inv, .y = y};
    mpfr_t s0;
    mpfr_init2(s0, mpfr_get_prec(Jt));
    mpfr_set_zero(s0, 1);
    int st = cl_jacobian_mp(Jt, Et, ext_inv_time_eval, &c, s0, 1, n);
    mpfr_clear(s0);
    if (st != CL_ENOCONV) return st;
    for (size_t i = 0; i < n; i++) mpfr_add(Jt + i, Jt + i, Et + i, MPFR_RNDN); /* |error| joins the rate */
    return CL_OK;
}

static int ext_invariants_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t ni = rates_to, i0 = rates_from;
    mpfr_ptr y = w, F = y + D, J = F + D, E = J + ni * D;
    cl_prec_t prec = mpfr_get_prec(x);
    ext_inv_ctx c = {.from = i0, .ni = ni};
    mpfr_ptr Jt = cl_rvec_new_mp(2 * (ni - i0), prec);
    int st = Jt ? CL_OK : CL_ENOMEM;
    (void)rg;
    mpfr_t d, u, sc;
    mpfr_inits2(prec, d, u, sc, (mpfr_ptr)0);
    for (int f = 0; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        st = f ? s->convert(r->inst, 0, x, f, y) : (cl_rvec_copy_mp(y, x, df), CL_OK);
        c.form = f;
        c.dim = df;
        if (!st) st = cl_jacobian_mp(J, E, ext_inv_eval, &c, y, df, ni - i0);
        /* a derivative that is zero but for the rounding of a sum that cancels does not settle to p bits of
           itself: its error estimate then joins the discrepancy */
        int unsettled = st == CL_ENOCONV;
        if (unsettled) st = CL_OK;
        if (!st) st = s->rhs(r->inst, f, F, y);
        if (!st) st = time_rates(&c, s, y, Jt, Jt + ni - i0, ni - i0); /* + ∂I/∂t: a constraint moving with t */
        for (size_t i = i0; i < ni && !st; i++) {
            mpfr_set(d, Jt + i - i0, MPFR_RNDN);
            mpfr_set_zero(sc, 1);
            for (size_t a = 0; a < df; a++) {
                mpfr_mul(u, J + (i - i0) * df + a, F + a, MPFR_RNDN);
                mpfr_add(d, d, u, MPFR_RNDN);
                mpfr_abs(u, J + (i - i0) * df + a, MPFR_RNDN);
                mpfr_add(sc, sc, u, MPFR_RNDN);
            }
            mpfr_mul_2si(u, sc, (long)fmax(-1e6, ceil(cl_rvec_log2_maxabs_mp(F, df))), MPFR_RNDN);
            mpfr_abs(sc, Jt + i - i0, MPFR_RNDN);
            mpfr_add(sc, sc, u, MPFR_RNDN);
            for (size_t a = 0; a < df && unsettled; a++) {
                mpfr_mul(u, E + (i - i0) * df + a, F + a, MPFR_RNDU);
                mpfr_abs(u, u, MPFR_RNDU);
                mpfr_abs(d, d, MPFR_RNDU);
                mpfr_add(d, d, u, MPFR_RNDU);
            }
            cl_check_worst(res, r_log2abs(d) - fmax(r_log2abs(sc), -20), "draw %d, form %s: d%s/dt", k, s->forms[f], s->invariant_names[i]);
        }
    }
    mpfr_clears(d, u, sc, (mpfr_ptr)0);
    cl_rvec_free_mp(Jt);
    if (c.open) ext_close(&c.r);
    cl_rvec_free_mp(c.all);
    return st;
}

/*
 * MODEL.invariants: dI/dt = d/ds I(y + s f/|f|)·|f| at s = 0, one
 * derivative along the field (src/deriv), relative to |f| max(1, |I(y)|).
 */
typedef struct ext_line_ctx {
    ext_inv_ctx inv;
    mpfr_srcptr y, dir;
    mpfr_ptr ys; /* y + s dir, at the precision of the evaluation */
} ext_line_ctx;

static int ext_inv_line_eval(mpfr_ptr out, mpfr_srcptr s, void *ctx)
{
    ext_line_ctx *c = ctx;
    cl_prec_t P = mpfr_get_prec(out);
    if (!c->ys || mpfr_get_prec(c->ys) != P) {
        cl_rvec_free_mp(c->ys);
        if (!(c->ys = cl_rvec_new_mp(c->inv.dim, P))) return CL_ENOMEM;
    }
    for (size_t a = 0; a < c->inv.dim; a++) mpfr_fma(c->ys + a, s, c->dir + a, c->y + a, MPFR_RNDN);
    return ext_inv_eval(out, c->ys, &c->inv);
}

static int ext_invariants_line_gap(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int k)
{
    const cl_system *s = r->s;
    size_t ni = 1 + cl_model_oracle_model()->ninv, i0 = ext_energy_conserved() ? 0 : 1;
    mpfr_ptr y = w, F = y + D, I = F + D, dI = I + ni, speed = dI + ni, s0 = speed + 1;
    ext_line_ctx c = {.inv = {.ni = ni}, .y = y, .dir = F};
    int st = CL_OK;
    (void)rg;
    mpfr_set_zero(s0, 1);
    for (int f = 0; f < nf && !st; f++) {
        size_t df = s->dim(r->inst, f);
        st = f ? s->convert(r->inst, 0, x, f, y) : (cl_rvec_copy_mp(y, x, df), CL_OK);
        c.inv.form = f;
        c.inv.dim = df;
        if (!st) st = s->rhs(r->inst, f, F, y);
        if (!st) {
            mpfr_set_zero(speed, 1);
            for (size_t a = 0; a < df; a++) mpfr_hypot(speed, speed, F + a, MPFR_RNDN);
            if (mpfr_zero_p(speed)) mpfr_set_ui(speed, 1, MPFR_RNDN);
            for (size_t a = 0; a < df; a++) mpfr_div(F + a, F + a, speed, MPFR_RNDN);
            st = ext_inv_line_eval(I, s0, &c);
        }
        if (!st) st = cl_jacobian_mp(dI, NULL, ext_inv_line_eval, &c, s0, 1, ni);
        for (size_t i = i0; i < ni && !st; i++)
            cl_check_worst(res, r_log2abs(dI + i) - fmax(0, r_log2abs(I + i)), "draw %d, form %s: d%s/dt along the field", k, s->forms[f],
                           s->invariant_names[i]);
    }
    if (c.inv.open) ext_close(&c.inv.r);
    cl_rvec_free_mp(c.inv.all);
    cl_rvec_free_mp(c.ys);
    return st;
}

int cl_model_ext_rates_vanish(cl_check_result *res, cl_prec_t prec, uint64_t seed, int draws, size_t from, size_t to)
{
    rates_from = from;
    rates_to = to;
    return cl_model_ext_over_states(res, prec, seed, draws, 2 + 2 * to, 0, ext_invariants_gap);
}

int cl_model_ext_row_invariants(cl_check_result *res, cl_prec_t prec)
{
    const cl_model *m = cl_model_oracle_model(); /* energy first, then the declared ones (not the kind's drift, a maximum) */
    if (!m) return CL_EPARAM;
    return cl_model_ext_over_states(res, prec, 7105, cl_model_rows_draws_at(CL_MODEL_ROWS_DRAWS, prec), 4 + 2 * m->ninv, 0,
                                    ext_invariants_line_gap);
}

/* The invariants at a state of the run, the instance moved to its time first (a constraint may move with t). */
static int ext_conserve_observe(mpfr_srcptr t, mpfr_srcptr x, size_t n, void *ctx)
{
    ext_flow *c = ctx;
    (void)n;
    if (c->r->s->set_time) c->r->s->set_time(c->r->inst, t);
    cl_rvec_copy_mp(c->xin, x, c->dim);
    int st = c->r->s->invariants(c->r->inst, c->form, c->I, c->xin);
    mpfr_t d;
    mpfr_init2(d, c->r->prec);
    for (size_t k = ext_energy_conserved() ? 0 : 1; k < c->ni && !st; k++) {
        mpfr_sub(d, c->I + k, c->I0 + k, MPFR_RNDN);
        c->worst = fmax(c->worst, r_log2abs(d) - fmax(0, r_log2abs(c->I0 + k)));
    }
    mpfr_clear(d);
    return st;
}

/* The field at declared equilibrium k vanishes in every form, relative to max(1, |x|). */
static int ext_row_eq(cl_check_result *res, cl_prec_t prec, int k)
{
    ext_run r;
    int st = ext_open(&r, prec);
    cl_check_begin(res);
    if (st) return st;
    size_t D;
    int nf = ext_forms(&r, &D);
    mpfr_ptr x = cl_rvec_new_mp(2 * D, prec);
    if (!x) st = CL_ENOMEM;
    for (int f = 0; f < nf && !st; f++) {
        size_t df = r.s->dim(r.inst, f);
        st = r.s->equilibrium(r.inst, k, f, x, NULL);
        if (!st) st = cl_system_rest_field(r.s, r.inst, k, f, x + D, x); /* a relative equilibrium: in its turning frame */
        if (!st)
            cl_check_worst(res, cl_rvec_log2_maxabs_mp(x + D, df) - fmax(0, cl_rvec_log2_maxabs_mp(x, df)), "form %s: the field at the equilibrium",
                           r.s->forms[f]);
    }
    cl_rvec_free_mp(x);
    ext_close(&r);
    return st;
}
#define EXT_EQ(K) int cl_model_ext_row_eq##K(cl_check_result *res, cl_prec_t prec) { return ext_row_eq(res, prec, K); }
EXT_EQ(0) EXT_EQ(1) EXT_EQ(2) EXT_EQ(3) EXT_EQ(4) EXT_EQ(5) EXT_EQ(6) EXT_EQ(7)

/* The motion from xq (form 0) again by the Taylor integrator of order \p order on the model's graph, when it has one in form 0 (*steps −1: none). */
static int ext_conserve_taylor(ext_flow *c, mpfr_ptr xq, cl_prec_t prec, int order, long *steps)
{
    *steps = -1;
    mpfr_ptr w = cl_rvec_new_mp(2, prec);
    c->xin = cl_rvec_new_mp(c->dim, c->r->prec); /* the observer's copy at the instance's precision */
    if (!w || !c->xin) {
        cl_rvec_free_mp(w);
        cl_rvec_free_mp(c->xin);
        c->xin = NULL;
        return CL_ENOMEM;
    }
    mpfr_set_zero(w, 1);
    mpfr_set_ui(w + 1, 1, MPFR_RNDN);
    mpfr_div_ui(w + 1, w + 1, cl_model_rows_taylor_span(prec), MPFR_RNDN);
    int st = cl_model_taylor_run_mp(cl_model_oracle_model(), c->r->s->forms[0], c->dim, 0, order, w, xq, w + 1, ext_conserve_observe, c, steps);
    cl_rvec_free_mp(w);
    cl_rvec_free_mp(c->xin);
    c->xin = NULL;
    if (st == CL_EDIM) *steps = -1;
    return st == CL_EDIM ? CL_OK : st;
}

/* The invariants of the descriptor (energy first) along one trajectory of form 0, relative to max(1, |I(0)|). */
int cl_model_ext_row_conserve(cl_check_result *res, cl_prec_t prec)
{
    ext_run r;
    int st = ext_open(&r, cl_model_rows_gbs_guarded(prec));
    cl_check_begin(res);
    if (st) return st;
    const cl_system *s = r.s;
    size_t d0 = s->dim(r.inst, 0), ni = 0;
    while (s->invariant_names[ni]) ni++;
    mpfr_ptr x = cl_rvec_new_mp(2 * d0, prec), I = cl_rvec_new_mp(2 * ni + d0, r.prec);
    ext_flow c = {.r = &r, .form = 0, .dim = d0, .ni = ni, .worst = -INFINITY};
    if (!x || !I) st = CL_ENOMEM;
    else {
        c.I0 = I;
        c.I = I + ni;
        mpfr_ptr xg = c.I + ni;
        cl_rng g;
        cl_rng_seed(&g, 7104);
        cl_model_domain_mp *dom = cl_model_ext_domain(r.inst);
        int measured = 0;
        while (!st && !measured && cl_model_domain_more_mp(dom)) { /* one trajectory that stays inside the domain */
            c.worst = -INFINITY;
            st = s->random_state(r.inst, 0, x, &g);
            cl_rvec_copy_mp(xg, x, d0); /* exact: the invariants at the field's precision */
            if (!st) st = s->invariants(r.inst, 0, c.I0, xg);
            cl_rvec_copy_mp(x + d0, x, d0);
            cl_model_rows_orders ord;
            if (!st) st = cl_model_rows_orders_for(&ord, cl_model_oracle_model(), s->forms[0], d0, 0, x, prec);
            if (!st) st = ext_integrate(&c, x, prec, 12 - (long)prec, ord.columns, ext_conserve_observe);
            long steps = -1;
            if (!st) st = ext_conserve_taylor(&c, x + d0, prec, ord.taylor, &steps);
            char by[120] = "";
            cl_model_rows_orders_say(by, sizeof by, &ord, prec, steps);
            if (!st)
                cl_check_worst(res, c.worst, "%zu invariant%s over t in [0, 1/%u] (integrated with tolerance 2^(12-p)%s)", ni,
                               ni == 1 ? "" : "s", cl_model_rows_span(prec), by);
            if (cl_model_outside(st)) cl_model_domain_reject_mp(dom, st), st = CL_OK;
            else measured = !st;
        }
        if (!st) st = cl_model_domain_done_mp(dom, res, measured);
    }
    cl_rvec_free_mp(I);
    cl_rvec_free_mp(x);
    ext_close(&r);
    return st;
}
#endif

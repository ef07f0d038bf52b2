/*
 * The random states of a model's rows, drawn inside the domain of its
 * formulas (model_draw_decl.h): the one place every row of `oracle
 * --model`, and every command that draws a model's states (the system's
 * random_state: grade), takes its states from. A state is inside when L
 * (or H) with its first and second derivatives, the forces, the invariants
 * and the constraints are finite there, and the kind's field is defined
 * (its velocity Hessian regular), at the state and at twice its
 * velocities. A row that finds no such state is undefined and names the
 * subexpression that left its domain: a domain edge is never a mismatch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "expr.h"
#include "r3.h"
#include "model_ext.h"

int CL_FN(cl_model_param_values)(const cl_model *m, rptr v)
{
    for (size_t k = 0; k < m->nparam; k++)
        if (CL_FN(cl_real_from_str)(v + k, m->pdef[k])) return CL_EPARSE;
    return CL_OK;
}

struct CL_FN(cl_model_domain) {
    const cl_model *m;
    CL_FN(cl_expr_eval) *ev;
    rptr in;              /* the graph's inputs: the state, t (when the kind has it), the parameters */
    size_t dim, nq, nv;   /* form 0's numbers, its configuration and velocities */
    long time, param0;
    int upto;             /* the last node the rows use */
    int bad, last;        /* the node that left its domain at the last test; the last failure's status */
    char why[160];        /* why the last state was refused */
    int draws, redrawn;   /* states drawn, and drawn again (outside the domain) */
    int halved;           /* velocities halved to bring a state inside */
};

/* The largest node of the \p n nodes at \p ids (−1 entries skipped) and \p upto. */
static int last_of(const int *ids, size_t n, int upto)
{
    for (size_t k = 0; ids && k < n; k++) upto = ids[k] > upto ? ids[k] : upto;
    return upto;
}

int CL_FN(cl_model_domain_new)(CL_FN(cl_model_domain) **out, const cl_model *m, cl_prec_t prec)
{
    *out = NULL;
    CL_FN(cl_model_domain) *d = calloc(1, sizeof *d);
    if (!d) return CL_ENOMEM;
    d->m = m;
    d->nq = m->nq;
    d->nv = m->nv;
    d->dim = m->nq + m->nv;
    d->time = cl_model_time_input(m);
    d->param0 = d->time >= 0 ? d->time + 1 : (long)d->dim;
    d->upto = last_of(m->force, m->nv, m->L);
    d->upto = last_of(m->inv, m->ninv, d->upto);
    d->upto = last_of(m->con, m->ncon, d->upto);
    d->upto = last_of(m->conh, m->ncon, d->upto);
    d->upto = last_of(m->cont, m->ncon, d->upto);
    d->bad = -1;
    long nin = cl_expr_dag_ninputs(m->g), need = d->param0 + (long)m->nparam;
    int st = CL_FN(cl_expr_eval_new)(&d->ev, m->g, prec);
    if (!st) d->in = CL_FN(cl_rvec_new)((size_t)(nin > need ? nin : need), prec);
    if (!st && !d->in) st = CL_ENOMEM;
    if (!st) st = CL_FN(cl_model_param_values)(m, d->in + d->param0);
    return CL_HAND_OUT(out, d, st, CL_FN(cl_model_domain_free));
}

void CL_FN(cl_model_domain_free)(CL_FN(cl_model_domain) *d)
{
    if (!d) return;
    CL_FN(cl_expr_eval_free)(d->ev);
    CL_FN(cl_rvec_free)(d->in);
    free(d);
}

void CL_FN(cl_model_domain_set_param)(CL_FN(cl_model_domain) *d, size_t k, rsrc v)
{
    if (k < d->m->nparam) r_set(d->in + d->param0 + (long)k, v);
}

void CL_FN(cl_model_domain_set_time)(CL_FN(cl_model_domain) *d, rsrc t)
{
    if (d->time >= 0) r_set(d->in + d->time, t);
}

int CL_FN(cl_model_domain_at)(CL_FN(cl_model_domain) *d, rsrc x)
{
    CL_FN(cl_rvec_copy)(d->in, x, d->dim);
    int st = CL_FN(cl_expr_eval_run)(d->ev, d->in, d->upto, 2);
    d->bad = st ? CL_FN(cl_expr_eval_bad)(d->ev) : -1;
    return st == CL_ENOMEM ? st : st ? CL_EDOMAIN : CL_OK;
}

/* The formulas and the field at x: 0, or why not (the reason kept in d->why). */
static int defined_at(CL_FN(cl_model_domain) *d, const CL_FN(cl_model_drawer) *k, rsrc x, rptr dx)
{
    int st = CL_FN(cl_model_domain_at)(d, x), bad = d->bad;
    if (!st) {
        st = k->field(k->ctx, dx, x);
        if (!st && !CL_FN(cl_rvec_is_finite)(dx, d->dim)) st = CL_EDOMAIN;
        bad = st == CL_EDOMAIN && k->bad_node ? k->bad_node(k->ctx) : -1;
    }
    if (st && st != CL_ENOMEM) {
        cl_model_explain(d->m, bad, st, k->singular, d->why, sizeof d->why);
        d->last = st;
    }
    return st;
}

/* The formulas and the field at x with its velocities times 2^e (x is given back as it was). */
static int at_scale(CL_FN(cl_model_domain) *d, const CL_FN(cl_model_drawer) *k, rptr x, rptr dx, long e)
{
    for (size_t a = d->nq; a < d->dim; a++) r_mul_2si(x + a, x + a, e);
    int st = defined_at(d, k, x, dx);
    for (size_t a = d->nq; a < d->dim; a++) r_mul_2si(x + a, x + a, -e);
    return st;
}

/*
 * One draw, its velocities halved until the state and twice it are inside: 0, or the last status. A
 * configuration outside the domain at velocities 2^-24 times the drawn ones, or where the velocity Hessian
 * is singular, is given up at once (no halving brings it inside).
 */
static int draw_once(CL_FN(cl_model_domain) *d, const CL_FN(cl_model_drawer) *k, rptr x, rptr dx, cl_rng *g)
{
    int st = k->draw(k->ctx, x, g), h = 0;
    if (st) return st;
    while ((st = at_scale(d, k, x, dx, 1)) && cl_model_outside(st) && st != CL_ESINGULAR && h < 24) {
        if (!h && (st = at_scale(d, k, x, dx, -24))) return st;
        for (size_t a = d->nq; a < d->dim; a++) r_mul_2si(x + a, x + a, -1);
        h++;
    }
    if (!st) st = defined_at(d, k, x, dx);
    if (!st) d->halved += h;
    return st;
}

int CL_FN(cl_model_domain_draw)(CL_FN(cl_model_domain) *d, const CL_FN(cl_model_drawer) *k, rptr x, rptr dx, cl_rng *g)
{
    int st = CL_EDOMAIN;
    for (int tries = 0; tries < CL_MODEL_DRAW_TRIES && cl_model_outside(st); tries++) {
        if (tries) d->redrawn++;
        d->draws++;
        st = draw_once(d, k, x, dx, g);
    }
    if (!cl_model_outside(st)) return st;
    cl_check_undefined("no random state inside the domain of the model in %d draws: %s", CL_MODEL_DRAW_TRIES, d->why);
    return CL_EUNDEFINED;
}

void CL_FN(cl_model_domain_reject)(CL_FN(cl_model_domain) *d, int st)
{
    d->redrawn++;
    d->last = st;
    cl_model_explain(d->m, -1, st, "the row's computation met a singular matrix", d->why, sizeof d->why);
}

int CL_FN(cl_model_domain_more)(const CL_FN(cl_model_domain) *d) { return d->redrawn < CL_MODEL_DRAW_TRIES; }

int CL_FN(cl_model_domain_done)(CL_FN(cl_model_domain) *d, cl_check_result *res, int measured)
{
    if (!measured) {
        cl_check_undefined("no state of %d drawn where the row's computation stays inside the domain: %s", d->draws, d->why);
        return CL_EUNDEFINED;
    }
    size_t n = strlen(res->note);
    if (d->redrawn && n < sizeof res->note)
        n += (size_t)snprintf(res->note + n, sizeof res->note - n, "%s%d draws, %d outside the domain drawn again", n ? "; " : "",
                              d->draws, d->redrawn);
    if (d->halved && n < sizeof res->note)
        snprintf(res->note + n, sizeof res->note - n, "%svelocities halved %d times into the domain", n ? "; " : "", d->halved);
    return CL_OK;
}

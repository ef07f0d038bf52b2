/**
 * \file sim_graph.c
 * \brief `chartless simulate`'s graphs: the field of --integrator taylor,
 *        the expression of --event, and the runs that stop at its zeros
 *        (sim_graph.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sim_graph.h"

enum { MAX_PROVIDERS = 16 };
static cl_sim_graph_provider providers[MAX_PROVIDERS];
static int nproviders;

void cl_sim_graph_register(cl_sim_graph_provider fn)
{
    if (nproviders < MAX_PROVIDERS) providers[nproviders++] = fn;
}

/* The state component named \p want (its name or x<i>), or −1. */
static long component(const cl_cmd_system *cs, const char *want)
{
    for (size_t i = 0; i < cs->dim; i++) {
        char buf[80], alt[32];
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, buf, sizeof buf);
        snprintf(alt, sizeof alt, "x%zu", i);
        if (!strcmp(buf, want) || !strcmp(alt, want)) return (long)i;
    }
    return -1;
}

/* The names of the event expression: a state component by its name (a model's
   velocities written x'), or as x<i>, a vector of components q.x, q.y, q.z by
   its name q (so q.x, dot(q, q') read as in the model), and t. */
static int lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    const cl_cmd_system *cs = ctx;
    char want[80];
    if (len + 2 > sizeof want) return -1;
    memcpy(want, name, len);
    strcpy(want + len, prime ? "'" : "");
    out->shape = 1;
    if (!strcmp(want, "t")) {
        out->id[0] = cl_expr_input(g, (long)cs->dim);
        return out->id[0] < 0 ? -1 : 0;
    }
    long i = component(cs, want);
    if (i >= 0) {
        out->id[0] = cl_expr_input(g, i);
        return out->id[0] < 0 ? -1 : 0;
    }
    for (int k = 0; k < 3; k++) {
        char comp[96];
        snprintf(comp, sizeof comp, "%s.%c", want, "xyz"[k]);
        if ((i = component(cs, comp)) < 0 || (out->id[k] = cl_expr_input(g, i)) < 0) return -1;
    }
    out->shape = 3;
    return 0;
}

static int parse_event(cl_sim_graph *gr, const cl_cmd_system *cs, const char *text)
{
    cl_expr_value v;
    cl_expr_error err;
    int st = cl_expr_parse(gr->g, text, strlen(text), 0, lookup, (void *)cs, &v, &err);
    if (st == CL_ENOMEM) return cl_cli_error("out of memory", NULL);
    if (st) {
        char msg[400];
        snprintf(msg, sizeof msg, "--event: %s at byte %ld (the state components by name or as x0, x1, ..., "
                 "the vectors of a model by name, and t are known)", err.msg, err.pos + 1);
        return cl_cli_error(msg, text);
    }
    if (v.shape != 1) return cl_cli_error("--event must be a scalar expression", text);
    gr->event = v.id[0];
    return 0;
}

static int read_choices(cl_sim_graph *gr, const char *direction, const char *mode)
{
    if (!direction || !strcmp(direction, "any")) gr->direction = CL_ODE_EVENT_ANY;
    else if (!strcmp(direction, "rising")) gr->direction = CL_ODE_EVENT_RISING;
    else if (!strcmp(direction, "falling")) gr->direction = CL_ODE_EVENT_FALLING;
    else return cl_cli_error("--event-direction must be any, rising or falling", direction);
    if (mode && strcmp(mode, "first") && strcmp(mode, "every")) return cl_cli_error("--events must be first or every", mode);
    gr->every = mode && !strcmp(mode, "every");
    return 0;
}

/* The field of cs into g and nodes from the first provider that knows it: 1, 0 when none
   does, or a negative CL_E code. */
static int ask_providers(const cl_cmd_system *cs, cl_expr_dag *g, int *nodes)
{
    for (int i = 0; i < nproviders; i++) {
        int st = providers[i](cs, g, nodes);
        if (st) return st < 0 ? st : 1;
    }
    return 0;
}

/* The field from the first provider that knows the system. */
static int add_field(cl_sim_graph *gr, const cl_cmd_system *cs)
{
    int st = ask_providers(cs, gr->g, gr->nodes);
    if (st < 0) return cl_cli_error("out of memory", NULL);
    if ((gr->has_field = st > 0)) return 0;
    return cl_cli_error("--integrator taylor needs the system's field as an expression graph, and this system has "
                        "none yet; use rkf78 or gbs", "taylor");
}

/* Whether a node the outputs need is a transcendental function (sin, cos, tan, exp, log, sqrt, atan2) of
   the state: each costs a GBS evaluation many multiplications, a Taylor order two convolutions. */
static int is_transcendental(int op)
{
    switch (op) {
    case CL_EXPR_SIN: case CL_EXPR_COS: case CL_EXPR_TAN: case CL_EXPR_EXP: case CL_EXPR_LOG: case CL_EXPR_SQRT:
    case CL_EXPR_ATAN2: return 1;
    }
    return 0;
}

static int moving_transcendental(const cl_expr_dag *g, const int *out, size_t dim)
{
    size_t n = cl_expr_dag_size(g);
    char *mark = calloc(2 * n + 1, 1), *needed = mark, *moves = mark + n;
    int found = 0;
    if (!mark) return 0;
    for (size_t i = 0; i < dim; i++) needed[out[i]] = 1;
    for (size_t id = n; id-- > 0;) { /* arguments have smaller ids than their node */
        const cl_expr_node *d = cl_expr_dag_node(g, (int)id);
        if (!needed[id]) continue;
        if (d->a >= 0) needed[d->a] = 1;
        if (d->b >= 0) needed[d->b] = 1;
    }
    for (size_t id = 0; id < n && !found; id++) {
        const cl_expr_node *d = cl_expr_dag_node(g, (int)id);
        moves[id] = d->op == CL_EXPR_INPUT ? d->k >= 0 && (size_t)d->k < dim
                                           : (d->a >= 0 && moves[d->a]) || (d->b >= 0 && moves[d->b]);
        found = needed[id] && moves[id] && is_transcendental(d->op);
    }
    free(mark);
    return found;
}

int cl_sim_graph_offers(const cl_cmd_system *cs, int *transcendental)
{
    cl_expr_dag *g = NULL;
    int *nodes = malloc((cs->dim + 1) * sizeof *nodes), has = 0;
    if (nodes && !cl_expr_dag_new(&g)) has = ask_providers(cs, g, nodes) > 0;
    if (transcendental) *transcendental = has && moving_transcendental(g, nodes, cs->dim);
    cl_expr_dag_free(g);
    free(nodes);
    return has;
}

int cl_sim_graph_open(cl_sim_graph *gr, const cl_cmd_system *cs, cl_prec_t prec, int taylor, const char *event,
                      const char *direction, const char *mode)
{
    memset(gr, 0, sizeof *gr);
    gr->dim = cs->dim;
    gr->event = -1;
    int st = read_choices(gr, direction, mode);
    if (st || (!taylor && !event)) return st;
    cl_expr_dag_new(&gr->g);
    gr->nodes = malloc((cs->dim + 1) * sizeof *gr->nodes);
    gr->in = cl_rvec_new_mp(cs->dim + 1, prec);
    if (!gr->g || !gr->nodes || !gr->in) return cl_cli_error("out of memory", NULL);
    if (taylor && (st = add_field(gr, cs))) return st;
    if (event && (st = parse_event(gr, cs, event))) return st;
    if (event) gr->nodes[cs->dim] = gr->event;
    if (event && !taylor && (st = cl_expr_eval_new_mp(&gr->ev, gr->g, prec)))
        return cl_cli_error(cl_strerror(st), event);
    return 0;
}

void cl_sim_graph_close(cl_sim_graph *gr)
{
    cl_expr_eval_free_mp(gr->ev);
    cl_rvec_free_mp(gr->in);
    free(gr->nodes);
    cl_expr_dag_free(gr->g);
    memset(gr, 0, sizeof *gr);
}

int cl_sim_graph_event_value(mpfr_ptr v, mpfr_srcptr t, mpfr_srcptr x, void *ctx)
{
    cl_sim_graph *gr = ctx;
    for (size_t i = 0; i < gr->dim; i++) mpfr_set(gr->in + i, x + i, MPFR_RNDN);
    mpfr_set(gr->in + gr->dim, t, MPFR_RNDN);
    int st = cl_expr_eval_run_mp(gr->ev, gr->in, gr->event, 0);
    if (st) return st;
    mpfr_set(v, cl_expr_eval_value_mp(gr->ev, gr->event), MPFR_RNDN);
    return 0;
}

static void add_stats(cl_ode_stats *sum, const cl_ode_stats *s)
{
    sum->steps += s->steps, sum->rejected += s->rejected, sum->rhs_evals += s->rhs_evals;
    sum->iterations += s->iterations, sum->event_evals += s->event_evals;
}

/* One leg: to t1 or to the next zero, with taylor (ws) or the method of r. */
static int leg(cl_sim_graph *gr, cl_sim_ode *r, cl_taylor_mp *ws, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1, mpfr_ptr h,
               cl_ode_stats *s)
{
    if (ws)
        return cl_taylor_integrate_mp(ws, t, x, t1, r->max_steps, r->obs, r->obs_ctx, gr->event >= 0 ? 0 : -1,
                                      gr->direction, s);
    r->event = cl_sim_graph_event_value;
    r->event_ctx = gr;
    r->event_dir = gr->direction;
    return cl_sim_ode_run(r, t, x, t1, h, s);
}

/* The Taylor integrator of the graph, its order from the tolerance. */
static int taylor_new(cl_sim_graph *gr, const cl_sim_ode *r, cl_prec_t prec, cl_taylor_mp **ws)
{
    long e;
    double m = mpfr_get_d_2exp(&e, r->tol, MPFR_RNDN);
    int order = cl_taylor_order_for_tol(log2(m) + (double)e);
    return cl_taylor_new_mp(ws, gr->g, gr->nodes, gr->dim, gr->event >= 0, (long)gr->dim, order, prec);
}

int cl_sim_graph_run(cl_sim_graph *gr, cl_sim_ode *r, int taylor, mpfr_ptr t, mpfr_ptr x, mpfr_srcptr t1, mpfr_ptr h,
                     cl_ode_stats *stats, cl_sim_event_fn on_event, void *ectx)
{
    cl_taylor_mp *ws = NULL;
    int st = taylor ? taylor_new(gr, r, mpfr_get_prec(x), &ws) : 0;
    *stats = (cl_ode_stats){0};
    while (!st) {
        cl_ode_stats s = {0};
        st = leg(gr, r, ws, t, x, t1, h, &s);
        add_stats(stats, &s);
        if (st != CL_ODE_EVENT) break;
        st = on_event(ectx, t, x);
        if (st || !gr->every) break;
        if (mpfr_equal_p(t, t1)) break;
    }
    cl_taylor_free_mp(ws);
    return st == CL_ODE_STOPPED ? 0 : st;
}

/*
 * A model's equations of motion on Arb balls (model_ball.h): the graph of
 * cl_model_eom_build() unsimplified (the simplifier's result equals the
 * field on the manifold only, and a ball holds points off it) grown by the nodes the proofs need (the energy, the
 * constraints, each declared equilibrium's point, its turning frame's field
 * and its symmetry directions), evaluated by the ball kind of expr_eval.c.
 * A domain error names the subexpression of the model's text.
 */
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_ball_impl.h"
#include "model_ext.h"
#include "model_graph_impl.h"

/* The energy: H, or Σ u ∂L/∂u − L over the velocity inputs; −1 when L depends on t (not conserved). */
static int energy_node(cl_expr_dag *g, const cl_model *m)
{
    if (m->timed) return -1;
    if (m->ham) return m->L;
    int E = cl_expr_node_neg(g, m->L);
    for (size_t a = 0; a < m->nv; a++) {
        long u = (long)(m->nq + a);
        E = cl_expr_node_add(g, E, cl_expr_node_mul(g, cl_expr_input(g, u), cl_expr_diff(g, m->L, u)));
    }
    return E;
}

/* The constraints of the state (model_ball.h's order) into c (NULL: count them); their number, or −1 out of memory. */
static int constraint_nodes(cl_expr_dag *g, const cl_model *m, int *c)
{
    int k = 0, one = cl_expr_one(g);
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        int q[9], v[3];
        for (int a = 0; a < 9; a++) q[a] = cl_expr_input(g, (long)(f->q + (size_t)a));
        for (int a = 0; a < 3; a++) v[a] = cl_expr_input(g, (long)(m->nq + f->v + (size_t)a));
        if (f->kind == CL_LAGR_S2) {
            if (c) c[k] = cl_expr_node_sub(g, cl_expr_node_dot(g, q, 1, q, 1, 3), one);
            if (c) c[k + 1] = cl_expr_node_dot(g, q, 1, v, 1, 3);
            k += 2;
        } else if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            for (int a = 0; a < 3; a++)
                for (int bb = a; bb < 3; bb++, k++) {
                    if (!c) continue;
                    int d = cl_expr_node_dot(g, q + a, 3, q + bb, 3, 3); /* (RᵀR)_ab, columns a and b */
                    c[k] = a == bb ? cl_expr_node_sub(g, d, one) : d;
                }
        }
    }
    for (size_t i = 0; i < m->ncon; i++) {
        if (m->conh[i] >= 0 && c) c[k] = m->conh[i];
        k += m->conh[i] >= 0;
        if (c) c[k] = m->con[i];
        k++;
    }
    if (c)
        for (int j = 0; j < k; j++)
            if (c[j] < 0) return -1;
    return k;
}

/* a × b in nodes */
static void cross_nodes(cl_expr_dag *g, const int *a, const int *b, int *out)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, l = (i + 2) % 3;
        out[i] = cl_expr_node_sub(g, cl_expr_node_mul(g, a[j], b[l]), cl_expr_node_mul(g, a[l], b[j]));
    }
}

/* The field of the frame turning with spatial velocities (w, v) on rotation factor f, added to out (N nodes): ŵR, and w × r + v on SE(3). */
static void frame_nodes(cl_expr_dag *g, const cl_model *m, const cl_model_factor *f, const int *w, const int *v, int *out)
{
    for (int j = 0; j < 3; j++) {
        int col[3], t[3];
        for (int i = 0; i < 3; i++) col[i] = cl_expr_input(g, (long)(f->q + 3 * (size_t)i + (size_t)j));
        cross_nodes(g, w, col, t);
        for (int i = 0; i < 3; i++) out[f->q + 3 * (size_t)i + (size_t)j] = cl_expr_node_add(g, out[f->q + 3 * (size_t)i + (size_t)j], t[i]);
    }
    if (f->kind != CL_LAGR_SE3) return;
    int r[3], t[3];
    for (int i = 0; i < 3; i++) r[i] = cl_expr_input(g, (long)(f->q + 9 + (size_t)i));
    cross_nodes(g, w, r, t);
    for (int i = 0; i < 3; i++) out[f->q + 9 + (size_t)i] = cl_expr_node_add(g, out[f->q + 9 + (size_t)i], cl_expr_node_add(g, t[i], v[i]));
    (void)m;
}

/* The spatial velocities of rotation factor f at equilibrium point p (N nodes): w = R W, v = R V − w × r. */
static void frame_velocity_nodes(cl_expr_dag *g, const cl_model *m, const cl_model_factor *f, const int *p, int *w, int *v)
{
    const int *R = p + f->q, *W = p + m->nq + f->v;
    for (int i = 0; i < 3; i++) {
        w[i] = cl_expr_node_dot(g, R + 3 * i, 1, W, 1, 3);
        v[i] = f->kind == CL_LAGR_SE3 ? cl_expr_node_dot(g, R + 3 * i, 1, W + 3, 1, 3) : cl_expr_zero(g);
    }
    if (f->kind != CL_LAGR_SE3) return;
    int t[3];
    cross_nodes(g, w, p + f->q + 9, t);
    for (int i = 0; i < 3; i++) v[i] = cl_expr_node_sub(g, v[i], t[i]);
}

/* Equilibrium k: its point, its turning frame's field subtracted from the field, its symmetry directions. */
static void equilibrium_nodes(cl_model_ball *b, size_t k)
{
    const cl_model *m = b->m;
    cl_expr_dag *g = b->eom->g;
    size_t N = b->N;
    int *p = b->point + k * N, *r = b->rest + k * N, *Y = b->sym + k * CL_MODEL_BALL_MAXSYM * N, zero = cl_expr_zero(g);
    int *xi = malloc(N * sizeof *xi);
    if (!xi) { b->last = -1; return; }
    for (size_t a = 0; a < N; a++) {
        p[a] = a < m->nq ? m->eq[k * m->nq + a] : m->eqv[k * m->nv + (a - m->nq)];
        if (p[a] < 0) p[a] = zero;
        b->relative[k] |= a >= m->nq && m->eqv[k * m->nv + (a - m->nq)] >= 0;
        xi[a] = zero;
    }
    int s = 0;
    for (size_t i = 0; i < m->nfac && b->relative[k]; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_SO3 && f->kind != CL_LAGR_SE3) continue;
        int w[3], v[3];
        frame_velocity_nodes(g, m, f, p, w, v);
        frame_nodes(g, m, f, w, v, xi);
        int *y = Y + (size_t)s * N;
        if (!cl_model_factor_cyclic(m, f)) { /* the frame's own turning (dropped later where it is exactly 0) */
            for (size_t a = 0; a < N; a++) y[a] = zero;
            frame_nodes(g, m, f, w, v, y);
            s++;
            continue;
        }
        for (int e = 0; e < (f->kind == CL_LAGR_SE3 ? 6 : 3) && s < CL_MODEL_BALL_MAXSYM; e++, s++) {
            int ew[3] = {zero, zero, zero}, ev[3] = {zero, zero, zero};
            (e < 3 ? ew : ev)[e % 3] = cl_expr_one(g);
            y = Y + (size_t)s * N;
            for (size_t a = 0; a < N; a++) y[a] = zero;
            if (e < 3) frame_nodes(g, m, f, ew, ev, y);
            else y[f->q + 9 + (size_t)(e - 3)] = cl_expr_one(g);
        }
    }
    b->nsym[k] = s;
    for (size_t a = 0; a < N; a++) r[a] = cl_expr_node_sub(g, b->eom->out[a], xi[a]);
    free(xi);
}

/* The image of node id under x_a ↦ point[a] (a < N), memoized in img (−2: not yet); −1 when out of memory. */
static int substitute(cl_expr_dag *g, int id, const int *point, size_t N, int *img)
{
    if (id < 0) return -1;
    if (img[id] != -2) return img[id];
    const cl_expr_node d = *cl_expr_dag_node(g, id); /* a copy: the graph grows below */
    int a = d.a >= 0 ? substitute(g, d.a, point, N, img) : -1, bb = d.b >= 0 ? substitute(g, d.b, point, N, img) : -1, r;
    if ((d.a >= 0 && a < 0) || (d.b >= 0 && bb < 0)) return -1;
    switch (d.op) {
    case CL_EXPR_CONST: r = id; break;
    case CL_EXPR_INPUT: r = d.k >= 0 && (size_t)d.k < N ? point[d.k] : id; break;
    case CL_EXPR_ADD: r = cl_expr_node_add(g, a, bb); break;
    case CL_EXPR_SUB: r = cl_expr_node_sub(g, a, bb); break;
    case CL_EXPR_MUL: r = cl_expr_node_mul(g, a, bb); break;
    case CL_EXPR_DIV: r = cl_expr_node_div(g, a, bb); break;
    case CL_EXPR_NEG: r = cl_expr_node_neg(g, a); break;
    default: r = cl_expr_op(g, d.op, a, bb, d.k, d.pos); break;
    }
    return img[id] = r;
}

/* Node id of g copied into dst (the same inputs), memoized in img (−2: not yet); −1 when out of memory. */
static int copy_node(cl_expr_dag *dst, const cl_expr_dag *g, int id, int *img)
{
    if (id < 0) return -1;
    if (img[id] != -2) return img[id];
    const cl_expr_node *d = cl_expr_dag_node(g, id);
    int a = d->a >= 0 ? copy_node(dst, g, d->a, img) : -1, bb = d->b >= 0 ? copy_node(dst, g, d->b, img) : -1;
    if ((d->a >= 0 && a < 0) || (d->b >= 0 && bb < 0)) return -1;
    const char *s = d->op == CL_EXPR_CONST ? cl_expr_dag_const(g, d->k) : NULL;
    return img[id] = s ? cl_expr_const(dst, s, strlen(s), d->pos)
                       : d->op == CL_EXPR_INPUT ? cl_expr_input(dst, d->k) : cl_expr_op(dst, d->op, a, bb, d->k, d->pos);
}

/* The equilibria's points in a graph of their own, so that a point is computed without the field at any state. */
static int point_graph(cl_model_ball *b)
{
    size_t n = cl_expr_dag_size(b->eom->g), N = b->N, neq = b->m->neq;
    int *img = malloc(n * sizeof *img);
    b->ppoint = malloc((neq ? neq : 1) * N * sizeof *b->ppoint);
    int st = !img || !b->ppoint ? CL_ENOMEM : cl_expr_dag_new(&b->pg);
    for (size_t i = 0; !st && i < n; i++) img[i] = -2;
    for (size_t a = 0; !st && a < neq * N; a++)
        if ((b->ppoint[a] = copy_node(b->pg, b->eom->g, b->point[a], img)) < 0) st = CL_ENOMEM;
    free(img);
    return st ? st : cl_expr_eval_new_arb(&b->pev, b->pg, cl_arb_get_prec());
}

int cl_model_ball_point(cl_model_ball *b, int k, arb_ptr x, cl_sys_error *e)
{
    size_t N = b->N;
    int last = 0;
    for (size_t a = 0; a < N; a++)
        if (b->ppoint[(size_t)k * N + a] > last) last = b->ppoint[(size_t)k * N + a];
    if (cl_expr_eval_run_arb(b->pev, b->in, last, 1)) {
        int bad = cl_expr_eval_bad_arb(b->pev), pos = bad >= 0 ? (int)cl_expr_dag_node(b->pg, bad)->pos : -1;
        char msg[400] = "the equilibrium's point is not enclosed at these parameters";
        if (pos >= 0) cl_text_domain_error(b->m->source, b->m->text, pos, "equilibrium", "its argument's ball touches the edge of the domain", msg, sizeof msg);
        return cl_sys_error_set(e, CL_EDOMAIN, NULL, "%s", msg);
    }
    for (size_t a = 0; a < N; a++) arb_set(x + a, cl_expr_eval_value_arb(b->pev, b->ppoint[(size_t)k * N + a]));
    return CL_OK;
}

/* The field in the turning frame and the constraints of equilibrium k written at its point (zrest, zcons): x − x of
   the same subexpression is then the node 0, so a zero that holds for every parameter shows as an exact zero ball. */
static void point_nodes(cl_model_ball *b, size_t k)
{
    cl_expr_dag *g = b->eom->g;
    size_t n = cl_expr_dag_size(g), N = b->N;
    int *img = malloc(n * sizeof *img);
    if (!img) { b->last = -1; return; }
    for (size_t i = 0; i < n; i++) img[i] = -2;
    const int *p = b->point + k * N;
    for (size_t a = 0; a < N && b->last >= 0; a++)
        if ((b->zrest[k * N + a] = substitute(g, b->rest[k * N + a], p, N, img)) < 0) b->last = -1;
    for (int c = 0; c < b->ncons && b->last >= 0; c++)
        if ((b->zcons[k * (size_t)b->ncons + (size_t)c] = substitute(g, b->cons[c], p, N, img)) < 0) b->last = -1;
    free(img);
}

/* The nodes the proofs evaluate; b->last −1 when out of memory. */
static void grow(cl_model_ball *b)
{
    const cl_model *m = b->m;
    cl_expr_dag *g = b->eom->g;
    b->energy = energy_node(g, m);
    b->ncons = constraint_nodes(g, m, NULL);
    b->cons = malloc(((size_t)b->ncons + 1) * sizeof *b->cons);
    size_t neq = m->neq ? m->neq : 1, N = b->N;
    b->point = malloc(neq * N * sizeof *b->point);
    b->rest = malloc(neq * N * sizeof *b->rest);
    b->sym = malloc(neq * CL_MODEL_BALL_MAXSYM * N * sizeof *b->sym);
    b->nsym = calloc(neq, sizeof *b->nsym);
    b->relative = calloc(neq, sizeof *b->relative);
    b->zrest = malloc(neq * N * sizeof *b->zrest);
    b->zcons = malloc(neq * ((size_t)b->ncons + 1) * sizeof *b->zcons);
    if (!b->zrest || !b->zcons || !b->cons || !b->point || !b->rest || !b->sym || !b->nsym || !b->relative || constraint_nodes(g, m, b->cons) < 0) {
        b->last = -1;
        return;
    }
    for (size_t k = 0; k < m->neq; k++) equilibrium_nodes(b, k);
    for (size_t k = 0; k < m->neq && b->last >= 0; k++) point_nodes(b, k);
    b->last = b->last < 0 ? -1 : (int)cl_expr_dag_size(g) - 1;
    for (size_t a = 0; a < N; a++)
        if (b->eom->out[a] > b->field_last) b->field_last = b->eom->out[a];
    int bad = (m->timed ? 0 : b->energy < 0);
    for (size_t a = 0; a < m->neq * N; a++) bad |= b->point[a] < 0 || b->rest[a] < 0;
    for (size_t k = 0; k < m->neq; k++)
        for (size_t a = 0; a < (size_t)b->nsym[k] * N; a++) bad |= b->sym[k * CL_MODEL_BALL_MAXSYM * N + a] < 0;
    if (bad) b->last = -1;
}

int cl_model_ball_new(cl_model_ball **out, const cl_model *m, cl_sys_error *e)
{
    *out = NULL;
    cl_model_ball *b = calloc(1, sizeof *b);
    if (!b) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    b->m = m;
    int st = cl_model_eom_build(&b->eom, m, 0, e); /* unsimplified: equal to the field off the manifold too */
    if (st) { free(b); return st; }
    b->N = b->eom->dim;
    grow(b);
    b->conservative = !m->timed && !m->force;
    for (size_t i = 0; i < m->ncon; i++) b->conservative &= m->conh[i] >= 0;
    size_t nin = (size_t)cl_expr_dag_ninputs(b->eom->g), need = b->eom->param0 + m->nparam;
    b->nin = nin > need ? nin : need;
    b->in = b->last < 0 ? NULL : cl_rvec_new_arb(b->nin + 1, 0);
    st = !b->in ? CL_ENOMEM : cl_expr_eval_new_arb(&b->ev, b->eom->g, cl_arb_get_prec());
    if (!st) st = point_graph(b);
    for (size_t k = 0; !st && k < m->nparam; k++) {
        if (cl_real_from_str_arb(b->in + b->eom->param0 + k, m->pdef[k])) st = CL_EPARSE;
    }
    if (st) {
        cl_model_ball_free(b);
        return cl_sys_error_set(e, st, NULL, "%s", st == CL_ENOMEM ? "out of memory" : "a parameter's default cannot be enclosed");
    }
    *out = b;
    return CL_OK;
}

void cl_model_ball_free(cl_model_ball *b)
{
    if (!b) return;
    cl_expr_eval_free_arb(b->ev);
    cl_expr_eval_free_arb(b->pev);
    cl_expr_dag_free(b->pg);
    cl_rvec_free_arb(b->in);
    cl_model_eom_free(b->eom);
    CL_FREE_EACH(b->ppoint, b->cons, b->point, b->rest, b->sym, b->nsym, b->relative, b->zrest, b->zcons, b);
}

size_t cl_model_ball_dim(const cl_model_ball *b) { return b->N; }
const cl_model *cl_model_ball_model(const cl_model_ball *b) { return b->m; }

int cl_model_ball_set_param(cl_model_ball *b, size_t k, arb_srcptr v)
{
    if (k >= b->m->nparam) return CL_EPARAM;
    if (!arb_is_finite(v)) return CL_ENAN;
    arb_set(b->in + b->eom->param0 + k, v);
    return CL_OK;
}

void cl_model_ball_set_time(cl_model_ball *b, arb_srcptr t)
{
    if (b->eom->time >= 0) arb_set(b->in + b->eom->time, t);
}

/* The first node at or below id (depth first) that the model's text wrote, preferring the operations with a domain; −1 when none. */
static int written_node(const cl_expr_dag *g, int id, int depth)
{
    if (id < 0 || depth > 64) return -1;
    const cl_expr_node *d = cl_expr_dag_node(g, id);
    if (d->pos >= 0) return id;
    int a = written_node(g, d->a, depth + 1);
    return a >= 0 ? a : written_node(g, d->b, depth + 1);
}

/* The message of a domain error at node bad. */
static int domain_error(const cl_model_ball *b, int bad, cl_sys_error *e)
{
    const cl_expr_dag *g = b->eom->g;
    int op = bad >= 0 ? cl_expr_dag_node(g, bad)->op : -1;
    if (op == CL_EXPR_INPUT)
        return cl_sys_error_set(e, CL_ENAN, "state", "a ball of the state or of a parameter is not finite (NaN or infinite radius)");
    int w = written_node(g, bad, 0);
    if (w < 0 && op == CL_EXPR_DIV)
        return cl_sys_error_set(e, CL_EDOMAIN, b->m->source, "the linear solve of the accelerations: a pivot of the velocity Hessian "
                                "(bordered by the constraints) is not proven nonzero on these balls");
    if (w < 0) return cl_sys_error_set(e, CL_EDOMAIN, b->m->source, "the field is not enclosed on these balls");
    char msg[400];
    cl_text_domain_error(b->m->source, b->m->text, cl_expr_dag_node(g, w)->pos, "field",
                         "its argument's ball touches the edge of the domain of sqrt, log or a division", msg, sizeof msg);
    return cl_sys_error_set(e, CL_EDOMAIN, NULL, "%s", msg);
}

/* Evaluate nodes 0 … upto at the state balls x. */
static int run_upto(cl_model_ball *b, arb_srcptr x, int upto, int order, cl_sys_error *e)
{
    for (size_t i = 0; i < b->N; i++) {
        if (!arb_is_finite(x + i)) return cl_sys_error_set(e, CL_ENAN, "state", "a ball of the state is not finite (NaN or infinite radius)");
        arb_set(b->in + i, x + i);
    }
    if (cl_expr_eval_run_arb(b->ev, b->in, upto, order)) return domain_error(b, cl_expr_eval_bad_arb(b->ev), e);
    return CL_OK;
}

int cl_model_ball_run(cl_model_ball *b, arb_srcptr x, int order, cl_sys_error *e) { return run_upto(b, x, b->last, order, e); }

arb_srcptr cl_model_ball_value(const cl_model_ball *b, int id) { return cl_expr_eval_value_arb(b->ev, id); }
void cl_model_ball_gradient(cl_model_ball *b, int id, arb_ptr grad) { cl_expr_eval_gradient_arb(b->ev, id, grad, (int)b->N); }
void cl_model_ball_hessian(cl_model_ball *b, int id, arb_ptr grad, arb_ptr H) { cl_expr_eval_hessian_arb(b->ev, id, grad, H, (int)b->N, 0); }

int cl_model_ball_field(cl_model_ball *b, arb_ptr dx, arb_srcptr x, cl_sys_error *e)
{
    int st = run_upto(b, x, b->field_last, 1, e);
    for (size_t i = 0; !st && i < b->N; i++) arb_set(dx + i, cl_model_ball_value(b, b->eom->out[i]));
    return st;
}

int cl_model_ball_jacobian(cl_model_ball *b, arb_ptr J, arb_srcptr x, cl_sys_error *e)
{
    int st = run_upto(b, x, b->field_last, 2, e);
    for (size_t i = 0; !st && i < b->N; i++) cl_model_ball_gradient(b, b->eom->out[i], J + i * b->N);
    return st;
}

int cl_model_ball_energy_hessian(cl_model_ball *b, arb_ptr grad, arb_ptr H, arb_srcptr x, cl_sys_error *e)
{
    if (b->energy < 0) return cl_sys_error_set(e, CL_EDOMAIN, b->m->source, "the energy is not conserved (L depends on t)");
    int st = cl_model_ball_run(b, x, 2, e);
    if (!st) cl_model_ball_hessian(b, b->energy, grad, H);
    return st;
}

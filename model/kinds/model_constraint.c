/*
 * Constraints of a model (`constraint NAME = EXPR`, model.h): the kind of
 * each, decided on the expression graph, and the velocity-level node the
 * product engine enforces (lagr_prod.h).
 *
 * A constraint c(q, u) whose graph reaches no velocity is holonomic: h(q) =
 * 0. Its rate along the motion ḣ = Σ_b ∂h/∂q_b q̇_b (+ ∂h/∂t when h depends
 * on the time t) is built as a node of
 * the graph (cl_expr_diff(), the rates q̇_b being the nodes of the
 * manifold's primed names: u, RŴ, RV), and the engine
 * enforces ḣ = 0 with its derivative (the acceleration level); h itself
 * is checked on the states and its drift reported. A constraint whose
 * graph reaches a velocity is nonholonomic when it is linear in the
 * velocities: every ∂c/∂u_a, a node too, reaches no velocity (its
 * second velocity derivatives vanish identically). Anything else is
 * refused. A constraint may depend on t (a hoop turned at a prescribed
 * rate): the node ∂c/∂t of its velocity-level c joins the rate the engine
 * enforces, ċ = A u̇ + ∂c/∂q·q̇ + ∂c/∂t, and the model is then timed (its
 * energy is no invariant).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_ext.h"

/* ------------------------------------------------------------ the kinds of constraint */

static int reaches_velocity(const cl_model *m, int id)
{
    for (size_t a = 0; a < m->nv; a++)
        if (cl_expr_depends_on_input(m->g, id, (long)(m->nq + a))) return 1;
    return 0;
}

/* The rates of the configuration inputs: the nodes of the primed names of the factors. */
static int configuration_rates(const cl_model *m, int *rate)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        for (int j = 0; j < 2 && f->name[j][0]; j++) {
            cl_expr_value v;
            if (cl_model_prod_lookup(m, m->g, f->name[j], strlen(f->name[j]), 1, &v)) return -1;
            for (int k = 0; k < v.shape; k++) rate[f->q + 9 * (size_t)j + (size_t)k] = v.id[k];
        }
    }
    return 0;
}

/* 1 when c is linear in the velocities (each ∂c/∂u_a reaches no velocity), 0 when not, −1 when out of memory. */
static int linear_in_velocities(cl_model *m, int c)
{
    for (size_t a = 0; a < m->nv; a++) {
        int d = cl_expr_diff(m->g, c, (long)(m->nq + a));
        if (d < 0) return -1;
        if (reaches_velocity(m, d)) return 0;
    }
    return 1;
}

/* The node of ḣ = Σ_b ∂h/∂q_b q̇_b + ∂h/∂t into *out; 0, or −1 when out of memory. */
static int rate_node(cl_model *m, int h, int *out)
{
    int *rate = malloc(m->nq * sizeof *rate), sum = cl_model_depends_on_time(m, h) ? cl_expr_diff(m->g, h, cl_model_time_input(m)) : cl_expr_zero(m->g);
    int st = !rate || sum < 0 || configuration_rates(m, rate) ? -1 : 0;
    for (size_t b = 0; b < m->nq && !st; b++) {
        int d = cl_expr_diff(m->g, h, (long)b);
        int t = d < 0 ? -1 : cl_expr_op(m->g, CL_EXPR_MUL, d, rate[b], 0, -1);
        sum = t < 0 ? -1 : cl_expr_op(m->g, CL_EXPR_ADD, sum, t, 0, -1);
        if (sum < 0) st = -1;
    }
    free(rate);
    *out = sum;
    return st;
}

/* m->cont[k]: the node ∂c/∂t of the velocity-level node c = m->con[k] when it depends on t, else −1. */
static int time_rate(cl_model *m, size_t k)
{
    m->cont[k] = -1;
    if (!cl_model_depends_on_time(m, m->con[k])) return CL_OK;
    m->cont[k] = cl_expr_diff(m->g, m->con[k], cl_model_time_input(m));
    return m->cont[k] < 0 ? CL_ENOMEM : CL_OK;
}

int cl_model_constraint_settle(cl_model *m, size_t k, char *why, size_t len)
{
    int c = m->con[k];
    const char *name = m->conname[k];
    m->cont[k] = -1;
    if (reaches_velocity(m, c)) {
        int lin = linear_in_velocities(m, c);
        if (lin < 0) return CL_ENOMEM;
        if (!lin) {
            snprintf(why, len, "the constraint %s is neither linear in the velocities (nonholonomic) nor a function of the configuration only (holonomic)", name);
            return CL_EPARSE;
        }
        m->conh[k] = -1;
        return time_rate(m, k);
    }
    int d;
    if (rate_node(m, c, &d)) return CL_ENOMEM;
    if (!reaches_velocity(m, d)) {
        snprintf(why, len, "the constraint %s does not depend on the configuration (it constrains nothing)", name);
        return CL_EPARSE;
    }
    m->conh[k] = c;
    m->con[k] = d;
    return time_rate(m, k);
}

/* ------------------------------------------------------------ the form dist */

size_t cl_model_dist_dim(const cl_model *m)
{
    size_t n = m->nv - m->ncon;
    for (size_t i = 0; i < m->nfac; i++) n -= m->fac[i].kind == CL_LAGR_S2;
    return n;
}

/*
 * One draw of form qdot (seeded: the same for every core, a generic configuration), brought onto the
 * constraints, and the basis chosen there. On the constraints, not merely on the product: the velocity
 * rows of a holonomic h are dh/dq there, and a column that vanishes on the whole constraint set may be the
 * largest entry off it (the skate's contact row (R Y).z = Gamma.Y has Gamma.x Y.x, zero wherever the pitch
 * constraint Gamma.x = 0 holds: a basis with Y.x dependent is singular at every state of the model).
 */
static int choose_at_draw(const cl_model *m, cl_lagr_prod_mp *lg, mpfr_ptr x, uint64_t seed)
{
    cl_lagr_factor f[CL_LAGR_PROD_MAX_FACTORS];
    for (size_t i = 0; i < m->nfac; i++) f[i] = (cl_lagr_factor){.kind = m->fac[i].kind, .k = m->fac[i].k};
    cl_rng g;
    cl_rng_seed(&g, seed);
    size_t which;
    double defect;
    int st = cl_model_kind_prod_constrained.random(m, x, &g);
    if (!st) st = cl_lagr_prod_project_state_mp(f, m->nfac, CL_LAGR_PROD_VEL, x, -20, &which, &defect);
    if (!st) st = cl_lagr_prod_constraint_clean_mp(lg, CL_LAGR_PROD_VEL, x, INFINITY, &which, &defect);
    if (!st) st = cl_lagr_prod_dist_choose_mp(lg, CL_LAGR_PROD_VEL, x);
    return st;
}

int cl_model_dist_choose(const cl_model *m, void *core, cl_prec_t prec)
{
    cl_lagr_prod_mp *lg = core;
    size_t nd = cl_lagr_prod_dist_dim_mp(lg);
    if (!nd) return CL_OK; /* no admissible direction: no form dist */
    if (!m->ndist) { /* the first core chooses, at its parameters; every later one takes its choice */
        mpfr_ptr x = cl_rvec_new_mp(m->nq + m->nv, prec);
        if (!x) return CL_ENOMEM;
        int st = CL_EDOMAIN;
        for (uint64_t seed = 0; seed < 8 && st && st != CL_ENOMEM; seed++) st = choose_at_draw(m, lg, x, 0x64697374 + seed);
        cl_rvec_free_mp(x);
        if (st) return st == CL_ENOMEM ? st : CL_OK;
        cl_model *w = (cl_model *)m;
        for (size_t k = 0; k < nd; k++) w->dist[k] = cl_lagr_prod_dist_index_mp(lg, k);
        w->ndist = nd;
    }
    return cl_lagr_prod_dist_set_mp(lg, m->dist);
}

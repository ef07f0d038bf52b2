/*
 * The equations of motion of a model as one graph (cl_model_eom_new(): the
 * symbolic derivatives of L and the LDLᵀ solve in nodes) against the field
 * `rhs --model` computes (the engine's automatic differentiation and LU
 * solve) for models on S¹, Rᵏ and S² factors: the shipped cart pendulum,
 * relativistic particle, spherical and damped pendulums, chain2, chain3,
 * spring and cart with a spherical pendulum (unit vectors: the multipliers
 * removed by projection), a planar double and triple pendulum (chains of
 * circles), a particle on R³ coupled to an angle, a driven damped pendulum
 * (a force depending on t) and a Lagrangian depending on t
 * (Caldirola–Kanai, whose ∂²L/∂ẋ∂t enters). The two agree to
 * 2^(7−p)·max(1, |ẋ|) at p = 53, 113, 256 and 1024 bits at a fixed state.
 * Then every shipped model — SO(3) and SE(3) factors and their products
 * with S² (Euler–Poincaré), Hamiltonians (Hamilton, Lie–Poisson), the
 * constrained sleigh, rolling disk and rod pendulum (the bordered solve) —
 * at 16 random valid states of the system's own draw (and the multipliers
 * of the constraints, rhs --multipliers's), to 2^(16−p)·max(1, |ẋ|)
 * at 53 and 256 bits (the worst measured over 64 states: 2^(10.2−p)).
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scalar.h"
#include "expr.h"
#include "model.h"
#include "system.h"
#include "tap.h"

static const cl_prec_t PRECS[] = {53, 113, 256, 1024};
static const char *const STATE[] = {"0.3", "-0.5", "1.1", "0.7", "-0.2", "0.45", "0.35", "-0.25", "0.15", "0.4", "-0.6", "0.2"};
/* States of the models with unit vectors: q_i of norm 1, q_i·v_i = 0 (in exact decimals). */
static const char *const UNIT_STATE[][1][20] = {
    {{"0.6", "0", "0.8", "0.4", "0.3", "-0.3"}},
    {{"0.6", "0", "0.8", "0", "0.6", "-0.8", "0.4", "0.3", "-0.3", "0.25", "0.4", "0.3"}},
    {{"0.6", "0", "0.8", "0", "0.6", "-0.8", "0.8", "-0.6", "0", "0.4", "0.3", "-0.3", "0.25", "0.4", "0.3", "0.3", "0.4", "0.7"}},
    {{"0.3", "0.6", "0", "0.8", "-0.4", "0.4", "0.3", "-0.3"}},
};

static const struct { const char *name, *text; int unit_state; } MODELS[] = {
    {"cart-pendulum", NULL, -1},
    {"relativistic", NULL, -1},
    {"spherical", NULL, 0},
    {"damped", NULL, 0},
    {"chain2", NULL, 1},
    {"spring", NULL, 1},
    {"chain3", NULL, 2},
    {"cart-spherical", NULL, 3},
    {"double-pendulum",
     "manifold a : S1\nmanifold b : S1\nparameters m1 = 1.5, m2 = 0.8, l1 = 1.2, l2 = 0.9, g = 9.81\n"
     "lagrangian 1/2*(m1 + m2)*l1^2*a'^2 + 1/2*m2*l2^2*b'^2 + m2*l1*l2*a'*b'*cos(a - b)\n"
     "           + (m1 + m2)*g*l1*cos(a) + m2*g*l2*cos(b)\n", -1},
    {"triple-pendulum",
     "manifold a : S1\nmanifold b : S1\nmanifold c : S1\nparameters m = 1, l = 1, g = 9.81\n"
     "let u1 = l*cos(a)*a'\nlet w1 = l*sin(a)*a'\nlet u2 = u1 + l*cos(b)*b'\nlet w2 = w1 + l*sin(b)*b'\n"
     "let u3 = u2 + l*cos(c)*c'\nlet w3 = w2 + l*sin(c)*c'\n"
     "lagrangian 1/2*m*(u1^2 + w1^2 + u2^2 + w2^2 + u3^2 + w3^2) + m*g*l*(3*cos(a) + 2*cos(b) + cos(c))\n", -1},
    {"bead-on-r3",
     "manifold r : R3\nmanifold phi : S1\nparameters m = 2, k = 3, I = 0.7\n"
     "lagrangian 1/2*m*dot(r', r') + 1/2*I*phi'^2 + 0.3*phi'*cross(r, r').z + k/norm(r) - sin(phi)*r.x\n", -1},
    {"driven-damped",
     "manifold th : S1\nparameters b = 0.3, A = 1.2, w = 0.9\n"
     "lagrangian 1/2*th'^2 + cos(th)\nforce th = -b*th' + A*cos(w*t)\n", -1},
    {"caldirola-kanai",
     "manifold x : R1\nparameters m = 1.3, k = 2, gam = 0.4\n"
     "lagrangian exp(gam*t)*(1/2*m*x'^2 - 1/2*k*x^2)\n", -1},
};
enum { NMODELS = sizeof MODELS / sizeof MODELS[0] };

/* The model's file: shipped, or written to a temporary file. */
static void model_path(int i, char *path, size_t len)
{
    if (!MODELS[i].text) {
        snprintf(path, len, "models/%s.model", MODELS[i].name);
        return;
    }
    snprintf(path, len, "%s/test_model_eom_%s.model", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", MODELS[i].name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(MODELS[i].text, f);
        fclose(f);
    }
}

/* Inputs of the graph: the state, t, the parameters as the system holds them. */
static void graph_inputs(const cl_model_eom *q, const cl_model *m, const cl_params *p, mpfr_ptr in, mpfr_srcptr x)
{
    for (size_t k = 0; k < q->dim; k++) mpfr_set(in + k, x + k, MPFR_RNDN);
    if (q->time >= 0) mpfr_set(in + q->time, cl_params_x(p, "time"), MPFR_RNDN);
    for (size_t k = 0; k < q->nparam; k++) mpfr_set(in + q->param0 + k, cl_params_x(p, m->pname[k]), MPFR_RNDN);
}

/* log2 max_i |a_i − b_i| / max(1, |b_i|). */
static double gap(mpfr_srcptr a, mpfr_srcptr b, size_t n, mpfr_ptr t)
{
    double worst = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        mpfr_sub(t, a + i, b + i, MPFR_RNDN);
        double e = r_log2abs(t), s = r_log2abs(b + i);
        e -= s > 0 ? s : 0;
        if (e > worst) worst = e;
    }
    return worst;
}

/* A model opened as a system at the time 0.7 (when it depends on time), its instance and its graph. */
typedef struct opened {
    const cl_system *s;
    void *inst;
    cl_params par;
    int have_par;
    cl_model_eom *q;
    cl_sys_error e;
} opened;

static int open_model(opened *o, const char *path, cl_prec_t prec)
{
    const char *key[] = {"time"}, *val[] = {"0.7"};
    *o = (opened){.e = {"", ""}};
    int st = cl_model_system_new(&o->s, path, &o->e);
    int timed = !st && cl_model_system_model(o->s)->timed;
    if (!st) o->have_par = !(st = cl_params_parse(&o->par, o->s->params, timed, key, val, prec, &o->e));
    if (!st) st = o->s->create(&o->inst, &o->par, prec, &o->e);
    if (!st) st = cl_model_eom_new(&o->q, cl_model_system_model(o->s), &o->e);
    return st;
}

static void close_model(opened *o)
{
    cl_model_eom_free(o->q);
    if (o->inst) o->s->destroy(o->inst);
    if (o->s) {
        if (o->have_par) cl_params_free(&o->par);
        cl_model_system_free(o->s);
    }
}

static void compare(int i, cl_prec_t prec)
{
    char path[512];
    model_path(i, path, sizeof path);
    opened o;
    int st = open_model(&o, path, prec);
    const cl_system *s = o.s;
    cl_model_eom *q = o.q;
    size_t dim = q ? q->dim : 0, nin = q ? (size_t)cl_expr_dag_ninputs(q->g) : 0;
    mpfr_ptr x = CL_FN(cl_rvec_new)(3 * dim + nin + 1, prec), dx = x + dim, want = dx + dim, in = want + dim, t = in + nin;
    for (size_t k = 0; k < dim; k++)
        mpfr_set_str(x + k, MODELS[i].unit_state < 0 ? STATE[k] : UNIT_STATE[MODELS[i].unit_state][0][k], 10, MPFR_RNDN);
    cl_expr_eval_mp *ev = NULL;
    if (!st) st = cl_expr_eval_new_mp(&ev, q->g, prec);
    if (!st) st = s->rhs(o.inst, 0, want, x);
    if (!st) {
        graph_inputs(q, cl_model_system_model(s), &o.par, in, x);
        st = cl_expr_eval_run_mp(ev, in, (int)cl_expr_dag_size(q->g) - 1, 0);
        for (size_t k = 0; k < dim && !st; k++) mpfr_set(dx + k, cl_expr_eval_value_mp(ev, q->out[k]), MPFR_RNDN);
    }
    double g = st ? INFINITY : gap(dx, want, dim, t), tol = 7.0 - (double)prec;
    ok(!st && g <= tol, "%s: the graph's field is rhs's to 2^%.1f (tolerance 2^%.0f) [%ld bits, %zu nodes]", MODELS[i].name, g, tol,
       (long)prec, q ? cl_expr_dag_size(q->g) : 0);
    if (st) diag("status %d: %s (%s)", st, o.e.what, o.e.arg);
    cl_expr_eval_free_mp(ev);
    CL_FN(cl_rvec_free)(x);
    close_model(&o);
    if (MODELS[i].text) remove(path);
}

/*
 * Every shipped model at random valid states (the system's own draw: unit
 * vectors, rotations, states on the constraints): the graph's field against
 * rhs's to 2^(SHIPPED_C − p)·max(1, |dx_i|).
 */
enum { SHIPPED_C = 16, SHIPPED_STATES = 16 };

static double shipped_gap(const cl_system *s, void *inst, const cl_params *par, const cl_model_eom *q, cl_prec_t prec, cl_rng *rng,
                          int *st)
{
    const cl_model *m = cl_model_system_model(s);
    size_t dim = q->dim, nin = (size_t)cl_expr_dag_ninputs(q->g);
    size_t nc = q->ncon;
    mpfr_ptr x = CL_FN(cl_rvec_new)(3 * (dim + nc) + nin + 1, prec), dx = x + dim + nc, want = dx + dim + nc, in = want + dim + nc,
             t = in + nin;
    cl_expr_eval_mp *ev;
    double worst = -INFINITY;
    *st = cl_expr_eval_new_mp(&ev, q->g, prec);
    if (!*st && !x) *st = CL_ENOMEM;
    for (int k = 0; k < SHIPPED_STATES && !*st; k++) {
        *st = s->random_state(inst, 0, x, rng);
        if (!*st) *st = s->rhs(inst, 0, want, x);
        if (!*st && nc) *st = s->multipliers(inst, 0, want + dim, x); /* λ compared as components past the field */
        if (*st) break;
        graph_inputs(q, m, par, in, x);
        *st = cl_expr_eval_run_mp(ev, in, (int)cl_expr_dag_size(q->g) - 1, 0);
        for (size_t i = 0; i < dim && !*st; i++) mpfr_set(dx + i, cl_expr_eval_value_mp(ev, q->out[i]), MPFR_RNDN);
        for (size_t i = 0; i < nc && !*st; i++) mpfr_set(dx + dim + i, cl_expr_eval_value_mp(ev, q->mult[i]), MPFR_RNDN);
        double gk = gap(dx, want, dim + nc, t);
        if (gk > worst) worst = gk;
    }
    cl_expr_eval_free_mp(ev);
    CL_FN(cl_rvec_free)(x);
    return worst;
}

static void shipped(const char *name, cl_prec_t prec)
{
    char path[512];
    snprintf(path, sizeof path, "models/%s.model", name);
    opened o;
    int st = open_model(&o, path, prec);
    cl_model_eom *q = o.q;
    cl_rng rng;
    cl_rng_seed(&rng, 22);
    double g = st ? INFINITY : shipped_gap(o.s, o.inst, &o.par, q, prec, &rng, &st), tol = SHIPPED_C - (double)prec;
    ok(!st && g <= tol, "shipped %s: the graph against rhs (field%s) at %d random states: 2^%.1f (tolerance 2^(%d-%ld)) [%zu nodes]",
       name, q && q->ncon ? " and multipliers" : "", SHIPPED_STATES, g, SHIPPED_C, (long)prec, q ? cl_expr_dag_size(q->g) : 0);
    if (st) diag("status %d: %s (%s)", st, o.e.what, o.e.arg);
    close_model(&o);
}

int main(void)
{
    cl_model_field_mode(CL_MODEL_FIELD_ENGINE); /* rhs is the engine's, not the graph's own field */
    for (size_t p = 0; p < sizeof PRECS / sizeof PRECS[0]; p++)
        for (int i = 0; i < NMODELS; i++) compare(i, PRECS[p]);
    static const cl_prec_t SHIPPED_PRECS[] = {53, 256};
    for (size_t p = 0; p < 2; p++)
        for (size_t i = 0; cl_model_shipped_name(i); i++) shipped(cl_model_shipped_name(i), SHIPPED_PRECS[p]);
    return done_testing();
}

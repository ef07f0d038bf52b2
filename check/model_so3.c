/*
 * Models on SO(3) (model_so3.h): a rigid body written as a formula.
 *
 *   manifold   R : SO3 (W)       the rotation R (body to space) and the body
 *                                angular velocity W = (RᵀṘ)^∨ (named W when
 *                                the parentheses are left out)
 *
 * In an expression R is a 3×3 matrix (R*v, transpose(R), matrix products),
 * R' the matrix Ṙ = R hat(W), W a vector. The equations of motion are the
 * Euler–Poincaré equations of [EMB §3.4] derived from L(R, W) by the
 * expression engine (lagr_so3.h), and the state is laid out as for
 * `--system heavy-top`: R (9 numbers, row by row) then W (form ROmega), Ṙ
 * (RRdot) or μ = ½R(∂L/∂W)^ (Rmu).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_so3.h"
#include "model_so3.h"

static int is_name(const char *a, const char *name, size_t len) { return strlen(a) == len && !memcmp(a, name, len); }

int cl_model_so3_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    if (is_name(m->so3name[0], name, len)) {
        out->shape = 9;
        for (int k = 0; k < 9; k++) out->id[k] = cl_expr_input(g, k);
        if (!prime) return 0;
        /* Ṙ = R hat(W): (RŴ)_ij = Σ_k R_ik Ŵ_kj with Ŵ = [[0, −w3, w2], [w3, 0, −w1], [−w2, w1, 0]] */
        int w[3], R[9];
        for (int k = 0; k < 3; k++) w[k] = cl_expr_input(g, 9 + k);
        for (int k = 0; k < 9; k++) R[k] = out->id[k];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                int a = (j + 1) % 3, b = (j + 2) % 3; /* column j of Ŵ: Ŵ_aj = w_b, Ŵ_bj = −w_a */
                int t1 = cl_expr_op(g, CL_EXPR_MUL, R[3 * i + a], w[b], 0, -1);
                int t2 = cl_expr_op(g, CL_EXPR_MUL, R[3 * i + b], w[a], 0, -1);
                out->id[3 * i + j] = t1 < 0 || t2 < 0 ? -1 : cl_expr_op(g, CL_EXPR_SUB, t1, t2, 0, -1);
                if (out->id[3 * i + j] < 0) return -1;
            }
        return 0;
    }
    if (prime) return -1; /* only R has a velocity */
    if (is_name(m->so3name[1], name, len)) {
        out->shape = 3;
        for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, 9 + k);
        return 0;
    }
    for (size_t i = 0; i < m->nparam; i++)
        if (is_name(m->pname[i], name, len)) {
            *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, (long)(CL_LAGR_SO3_NSTATE + i))}};
            return 0;
        }
    return -1;
}

/* ------------------------------------------------------------ the model as a system */

/* Largest |(RᵀR − I)ᵢⱼ| (and |sym(RᵀV)| relative to max(1, |V|)) accepted on input. */
#define INPUT_TOL_LOG2 (-40.0)

static const char *const so3_forms[] = {"ROmega", "RRdot", "Rmu", NULL};

typedef struct so3_system {
    cl_system sys; /* first: cl_model_so3_system_free() receives it */
    cl_model *m;
    cl_param *table;
    const char **invnames;
    char *summary, *name;
    struct so3_system *next;
} so3_system;

typedef struct so3_inst {
    const so3_system *ss;
    cl_lagr_so3_mp *lg;
    cl_prec_t prec;
} so3_inst;

/* The systems open now: create() finds its model by the parameter table it is given. */
static so3_system *open_so3;

static int so3_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    const so3_system *ss = open_so3;
    while (ss && ss->table != p->table) ss = ss->next;
    if (!ss) return cl_sys_error_set(e, CL_EPARAM, NULL, "no model is open for these parameters");
    so3_inst *in = calloc(1, sizeof *in);
    if (in) in->lg = cl_lagr_so3_new_mp(ss->m->g, ss->m->L, ss->m->nparam, prec);
    if (!in || !in->lg) {
        free(in);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    in->ss = ss;
    in->prec = prec;
    for (size_t k = 0; k < ss->m->nparam; k++) cl_lagr_so3_set_param_mp(in->lg, k, cl_params_x(p, ss->m->pname[k]));
    *out = in;
    return CL_OK;
}

static void so3_destroy(void *inst)
{
    so3_inst *in = inst;
    if (!in) return;
    cl_lagr_so3_free_mp(in->lg);
    free(in);
}

static size_t so3_dim(void *inst, int form) { return cl_lagr_so3_dim_mp(form); }

/* What went wrong at a state, naming the subexpression of the model for a domain error. */
static void explain(const so3_inst *in, int st, char *err, size_t errlen)
{
    int bad = cl_lagr_so3_bad_node_mp(in->lg);
    const cl_model *m = in->ss->m;
    if (st == CL_EDOMAIN && bad >= 0 && cl_expr_dag_node(m->g, bad)->pos >= 0) {
        long pos = cl_expr_dag_node(m->g, bad)->pos;
        char where[240];
        cl_model_where(m, pos, where, sizeof where);
        int len = 0;
        while (m->text[pos + len] && m->text[pos + len] != '\n' && len < 24) len++;
        snprintf(err, errlen, "the model is not defined at this state: %s: '%.*s' leaves its domain (division by zero, "
                 "log/sqrt of x <= 0, or no derivative)", where, len, m->text + pos);
    } else if (st == CL_ESINGULAR)
        snprintf(err, errlen, "the Lagrangian is degenerate at this state: its Hessian in the body angular velocity is singular");
    else if (st == CL_ENOCONV)
        snprintf(err, errlen, "the Legendre map could not be inverted at this state (Newton's method did not converge)");
    else snprintf(err, errlen, "%s", cl_strerror(st));
}

/* Validate and project the state in place (lagr_so3.h), then make sure the vector field is defined there. */
static int so3_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    so3_inst *in = inst;
    const char *R = in->ss->m->so3name[0];
    double defect;
    int st = cl_lagr_so3_project_state_mp(form, x, INPUT_TOL_LOG2, &defect);
    if (st == CL_ENAN) snprintf(err, errlen, "NaN or infinity in the state");
    else if (st == CL_EDOMAIN && defect == INFINITY) snprintf(err, errlen, "%s must have determinant +1", R);
    else if (st == CL_EDOMAIN) snprintf(err, errlen, "%s is not orthogonal (|%s^T %s - I| = 2^%.1f)", R, R, R, defect);
    else if (st == CL_ENOTTANGENT)
        snprintf(err, errlen, "%s^T %s is not skew (|sym(%s^T %s)| = 2^%.1f)", R, form == 1 ? "Rdot" : "mu", R, form == 1 ? "Rdot" : "mu",
                 defect);
    else if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    if (st) return st;
    mpfr_ptr dx = cl_rvec_new_mp(18, in->prec);
    if (!dx) return CL_ENOMEM;
    st = cl_lagr_so3_rhs_mp(in->lg, form, dx, x);
    cl_rvec_free_mp(dx);
    if (st) explain(in, st, err, errlen);
    return st;
}

static int so3_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    return cl_lagr_so3_rhs_mp(((so3_inst *)inst)->lg, form, dx, x);
}

/* energy, the declared invariants, max |(RᵀR − I)ᵢⱼ| */
static int so3_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    so3_inst *in = inst;
    const cl_model *m = in->ss->m;
    int st = cl_lagr_so3_value_mp(in->lg, -1, form, out, x);
    for (size_t k = 0; k < m->ninv && !st; k++) st = cl_lagr_so3_value_mp(in->lg, m->inv[k], form, out + 1 + k, x);
    if (st) return st;
    mpfr_ptr d = out + 1 + m->ninv;
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(out));
    mpfr_set_zero(d, 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            mpfr_set_si(s, i == j ? -1 : 0, MPFR_RNDN);
            for (int k = 0; k < 3; k++) mpfr_fma(s, x + 3 * k + i, x + 3 * k + j, s, MPFR_RNDN);
            mpfr_abs(s, s, MPFR_RNDN);
            mpfr_max(d, d, s, MPFR_RNDN);
        }
    mpfr_clear(s);
    return CL_OK;
}

static int so3_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    return cl_lagr_so3_convert_mp(((so3_inst *)inst)->lg, from, x, to, y);
}

/* R = exp(θ^) and Ω with normal entries of standard deviation 2, as the heavy top draws them. */
static int so3_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    so3_inst *in = inst;
    mpfr_ptr th = cl_rvec_new_mp(3, in->prec);
    if (!th) return CL_ENOMEM;
    for (int i = 0; i < 3; i++) mpfr_set_d(x + 9 + i, 2.0 * cl_rng_normal(g), MPFR_RNDN);
    for (int i = 0; i < 3; i++) mpfr_set_d(th + i, 2.0 * cl_rng_normal(g), MPFR_RNDN);
    int st = cl_so3_exp_mp(x, th);
    cl_rvec_free_mp(th);
    if (!st && form != CL_LAGR_SO3_ROMEGA) st = so3_convert(inst, CL_LAGR_SO3_ROMEGA, x, form, x);
    return st;
}

static void so3_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    const so3_inst *in = inst;
    const char *R = in->ss->m->so3name[0];
    size_t j = i < 9 ? i : i - 9;
    if (i < 9) snprintf(buf, len, "%s%zu%zu", R, j / 3 + 1, j % 3 + 1);
    else if (form == CL_LAGR_SO3_ROMEGA) snprintf(buf, len, "%s%zu", in->ss->m->so3name[1], j + 1);
    else snprintf(buf, len, "%s%s%zu%zu", form == CL_LAGR_SO3_RRDOT ? R : "mu", form == CL_LAGR_SO3_RRDOT ? "dot" : "", j / 3 + 1,
                  j % 3 + 1);
}

#define SO3_STATE_HELP                                                                                                      \
    "ROmega: R (9, row by row) then the body angular velocity (3); RRdot: R (9) Rdot (9); Rmu: R (9) mu (9),\n"           \
    "mu = R (dL/dW)^ / 2. R within 2^-40 of SO(3) is made orthogonal at the working precision and R^T Rdot (R^T mu)\n"      \
    "skew; beyond it refused.\n"

void cl_model_so3_system_free(const cl_system *s)
{
    so3_system *ss = (so3_system *)s;
    if (!ss) return;
    for (so3_system **p = &open_so3; *p; p = &(*p)->next)
        if (*p == ss) {
            *p = ss->next;
            break;
        }
    cl_model_free(ss->m);
    free(ss->table);
    free(ss->invnames);
    free(ss->summary);
    free(ss->name);
    free(ss);
}

int cl_model_so3_system_new(const cl_system **out, cl_model *m, cl_sys_error *e)
{
    *out = NULL;
    so3_system *ss = calloc(1, sizeof *ss);
    if (ss) {
        ss->m = m;
        ss->table = calloc(m->nparam + 1, sizeof *ss->table);
        ss->invnames = calloc(m->ninv + 3, sizeof *ss->invnames);
        size_t len = strlen(m->source) + 80;
        ss->summary = malloc(len);
        ss->name = strdup(m->source);
        if (ss->summary) snprintf(ss->summary, len, "model %s: a rotation on SO(3), L from the file", m->source);
    }
    if (!ss || !ss->table || !ss->invnames || !ss->summary || !ss->name) {
        if (ss) cl_model_so3_system_free(&ss->sys);
        else cl_model_free(m);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    for (size_t k = 0; k < m->nparam; k++)
        ss->table[k] = (cl_param){.name = m->pname[k], .shape = CL_PARAM_NUMBER, .def = m->pdef[k], .metavar = "X",
                                  .help = "parameter of the model"};
    ss->table[m->nparam] = (cl_param)CL_PARAM_END;
    size_t k = 0;
    ss->invnames[k++] = "energy";
    for (size_t i = 0; i < m->ninv; i++) ss->invnames[k++] = m->invname[i];
    ss->invnames[k++] = "max|RtR-I|";
    ss->invnames[k] = NULL;
    ss->sys = (cl_system){
        .name = ss->name,
        .summary = ss->summary,
        .params = ss->table,
        .state_help = SO3_STATE_HELP,
        .forms = so3_forms,
        .create = so3_create,
        .destroy = so3_destroy,
        .dim = so3_dim,
        .check_state = so3_check_state,
        .rhs = so3_rhs,
        .invariant_names = ss->invnames,
        .invariants = so3_invariants,
        .convert = so3_convert,
        .random_state = so3_random_state,
        .component_name = so3_component_name,
    };
    ss->next = open_so3;
    open_so3 = ss;
    *out = &ss->sys;
    return CL_OK;
}

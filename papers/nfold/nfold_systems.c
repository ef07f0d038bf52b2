/*
 * The chain pendulum for the command line (`chartless rhs|simulate --system
 * chain`): the four O(n) forms of S2 V, and the Lie group integrators of
 * NFOLD through the SE(3)^N action. Everything runs in MPFR at the precision
 * the user asks for.
 */
#include "nfold.h"
#include "s2_chain.h"
#include "s2_systems_impl.h"
/* ------------------------------------------------------------ chain */

typedef struct chain_inst {
    size_t n;
    cl_prec_t prec;
    cl_chain_mp *ch;
    mpfr_ptr params; /* m (n), l (n), g: kept for the Lie group integrators of NFOLD */
} chain_inst;

static int chain_create(void **out, int nopt, char *const *keys, char *const *vals, cl_prec_t prec, char *err,
                        size_t errlen)
{
    static const char *const known[] = {"n", "m", "l", "g", "tau", "d", NULL};
    *out = NULL;
    int st = check_known(nopt, keys, known, err, errlen);
    if (st) return st;
    size_t n = 1;
    const char *sn = opt(nopt, keys, vals, "n"), *sm = opt(nopt, keys, vals, "m"), *sl = opt(nopt, keys, vals, "l");
    if (sn) st = parse_n(sn, &n, err, errlen);
    else if (sm) n = count_items(sm);
    else if (sl) n = count_items(sl);
    if (st) return st;
    mpfr_ptr p = cl_rvec_new_mp(2 * n + 7, prec);
    if (!p) return CL_ENOMEM;
    mpfr_ptr m = p, l = p + n, g = p + 2 * n, tau = g + 1, d = g + 4;
    for (size_t i = 0; i < 2 * n; i++) mpfr_set_ui(p + i, 1, MPFR_RNDN);
    cl_real_from_str_mp(g, "9.81");
    const char *s;
    if (!st && sm) st = parse_list(m, n, sm, "m", err, errlen);
    if (!st && sl) st = parse_list(l, n, sl, "l", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "g"))) st = parse_list(g, 1, s, "g", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "tau"))) st = parse_list(tau, 3, s, "tau", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "d"))) st = parse_list(d, 3, s, "d", err, errlen);
    for (size_t i = 0; !st && i < n; i++) {
        if (mpfr_sgn(m + i) <= 0) { snprintf(err, errlen, "masses must be positive (m%zu)", i + 1); st = CL_EPARAM; }
        else if (mpfr_sgn(l + i) <= 0) { snprintf(err, errlen, "lengths must be positive (l%zu)", i + 1); st = CL_EPARAM; }
    }
    if (!st && mpfr_sgn(g) < 0) { snprintf(err, errlen, "gravity g must not be negative"); st = CL_EPARAM; }
    chain_inst *c = NULL;
    if (!st) {
        c = calloc(1, sizeof *c);
        if (!c) st = CL_ENOMEM;
    }
    if (!st) {
        c->n = n;
        c->prec = prec;
        st = cl_chain_new_mp(&c->ch, n, m, l, g, prec);
        if (st) snprintf(err, errlen, "%s", cl_strerror(st));
        else cl_chain_set_control_mp(c->ch, tau, d);
    }
    if (!st) c->params = p;
    else cl_rvec_free_mp(p);
    if (st) {
        free(c);
        return st;
    }
    *out = c;
    return CL_OK;
}

static void chain_destroy(void *inst)
{
    chain_inst *c = inst;
    if (!c) return;
    cl_chain_free_mp(c->ch);
    cl_rvec_free_mp(c->params);
    free(c);
}

static size_t chain_dim(void *inst, int form) { (void)form; return 6 * ((chain_inst *)inst)->n; }

static int chain_check_state(void *inst, int form, mpfr_srcptr x, char *err, size_t errlen)
{
    (void)form;
    return s2_check_input(((chain_inst *)inst)->n, x, err, errlen);
}

static int chain_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    return cl_chain_rhs_mp(((chain_inst *)inst)->ch, form, dx, x);
}

static const char *const chain_invariant_names[] = {"energy", "Lz", "max|q|-1", "max|q.v|", NULL};

static int chain_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    chain_inst *c = inst;
    int st = cl_chain_invariants_mp(c->ch, form, out, x);
    if (!st) s2_constraint_drift(c->n, out + 2, x);
    return st;
}

static int chain_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    return cl_s2_quad_convert_mp(cl_chain_ws_mp(((chain_inst *)inst)->ch), from, x, to, y);
}

static int chain_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    chain_inst *c = inst;
    for (size_t i = 0; i < c->n; i++) {
        cl_v3_random_unit_mp(x + 3 * i, g);
        cl_v3_random_tangent_mp(x + 3 * (c->n + i), x + 3 * i, 1.0, g);
    }
    return form == CL_S2_QDOT ? CL_OK : chain_convert(inst, CL_S2_QDOT, x, form, x);
}

static int chain_equilibrium(void *inst, int k, int form, mpfr_ptr x, const char **name)
{
    (void)form; /* (q, 0) in every form */
    int st = cl_chain_equilibrium_mp(((chain_inst *)inst)->ch, k, x);
    if (!st && name) *name = k == 0 ? "hanging (q_i = -e3)" : "inverted (q_i = +e3)";
    return st;
}

static void chain_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    s2_component_name(((chain_inst *)inst)->n, form, i, buf, len);
}

static int chain_sphere_count(void *inst) { return (int)((chain_inst *)inst)->n; }

/* The chain through the SE(3)^N action of NFOLD, integrated by a Lie group method. */
static int chain_lie_simulate(void *inst, int form, const char *method, mpfr_ptr x, mpfr_srcptr t1, mpfr_srcptr h,
                              mpfr_srcptr rtol, mpfr_srcptr atol, int (*out)(void *ctx, mpfr_srcptr t, mpfr_srcptr x),
                              void *ctx, char *err, size_t errlen)
{
    chain_inst *c = inst;
    if (form != 1) {
        snprintf(err, errlen, "the Lie group integrators work on the (q, omega) form: use --form omega");
        return CL_EDOMAIN;
    }
    int m = cl_lie_method_from_name(method);
    if (m <= 0) {
        snprintf(err, errlen, "unknown Lie group integrator %s", method);
        return CL_EPARAM;
    }
    int st = CL_OK;
    cl_nfold_mp *nf = cl_nfold_new_mp(c->n, c->params, c->params + c->n, c->params + 2 * c->n, c->prec, 0, &st);
    if (!nf) {
        snprintf(err, errlen, "%s", cl_strerror(st));
        return st;
    }
    st = cl_nfold_simulate_mp(nf, m, x, t1, h, rtol, atol, out, ctx);
    if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    cl_nfold_free_mp(nf);
    return st;
}

static const cl_system chain_system = {
    .name = "chain",
    .summary = "chain pendulum of n spherical links [S2 V], O(n) fields in four forms",
    .params_help = "  --n N            number of links (default: the length of --m or --l, else 1)\n"
                   "  --m m1,...,mn    masses at the outboard ends (default all 1), > 0\n"
                   "  --l l1,...,ln    link lengths (default all 1), > 0\n"
                   "  --g G            gravitational acceleration along -e3 (default 9.81), >= 0\n"
                   "  --tau x,y,z      control torque on the base joint (default 0)\n"
                   "  --d x,y,z        disturbance force at the tip of the last link (default 0)\n",
    .state_help = "q1 ... qn (unit vectors) then v1 ... vn, 3 numbers each; v is qdot, omega, mu or pi by --form.\n"
                  "q_i must be unit and v_i tangent (q_i . v_i = 0) to 2^-40; they are then normalized and\n"
                  "projected at the working precision.\n",
    .forms = s2_forms,
    .create = chain_create,
    .destroy = chain_destroy,
    .dim = chain_dim,
    .check_state = chain_check_state,
    .rhs = chain_rhs,
    .invariant_names = chain_invariant_names,
    .invariants = chain_invariants,
    .convert = chain_convert,
    .random_state = chain_random_state,
    .equilibrium = chain_equilibrium,
    .component_name = chain_component_name,
    .sphere_count = chain_sphere_count,
    .lie_simulate = chain_lie_simulate,
};
CL_SYSTEM_REGISTER(chain_system)


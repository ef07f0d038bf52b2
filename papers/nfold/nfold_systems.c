/*
 * The chain pendulum for the command line (`chartless rhs|simulate --system
 * chain`): the four O(n) forms of S2 V, and the Lie group integrators of
 * NFOLD through the SE(3)^N action. Everything runs in MPFR at the precision
 * the user asks for.
 */
#include <limits.h>
#include "nfold.h"
#include "s2_chain.h"
#include "s2_systems_impl.h"
/* ------------------------------------------------------------ chain */

typedef struct chain_inst {
    s2n_inst s; /* first: the shared hooks see it */
    cl_prec_t prec;
    s2_chain_part c; /* par: m (n), l (n), g, kept for the Lie group integrators of NFOLD */
} chain_inst;

static const cl_param chain_params[] = {
    {.name = "n", .shape = CL_PARAM_SIZE, .def = "1", .lo = 1, .hi = 100000, .help = "number of links"},
    {.name = "m", .shape = CL_PARAM_NLIST, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "masses",
     .metavar = "m1,...,mn", .help = "masses at the outboard ends"},
    {.name = "l", .shape = CL_PARAM_NLIST, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "lengths",
     .metavar = "l1,...,ln", .help = "link lengths"},
    {.name = "g", .shape = CL_PARAM_NUMBER, .def = "9.81", .constraint = CL_PARAM_NONNEGATIVE, .noun = "gravity",
     .metavar = "G", .help = "gravitational acceleration along -e3"},
    {.name = "tau", .shape = CL_PARAM_LIST, .count = 3, .def = "0,0,0", .metavar = "x,y,z", .help = "control torque on the base joint"},
    {.name = "d", .shape = CL_PARAM_LIST, .count = 3, .def = "0,0,0", .metavar = "x,y,z",
     .help = "disturbance force at the tip of the last link"},
    CL_PARAM_END,
};

/* The dense workspace of the generic forms (O(n²)), made only for the form conversions that need it. */
static cl_s2_quad_ws_mp *chain_dense_ws(void *inst) { return cl_chain_ws_mp(((chain_inst *)inst)->c.ch); }

static void chain_destroy(void *inst)
{
    chain_inst *c = inst;
    if (c) s2_chain_part_free(&c->c);
    free(c);
}

static int chain_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    size_t n = p->n;
    chain_inst *c = calloc(1, sizeof *c);
    if (!c) return CL_ENOMEM;
    c->s.n = n;
    c->prec = prec;
    int st = s2_chain_part_new(&c->c, n, p, 0, prec);
    if (st) cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
    else {
        cl_chain_set_control_mp(c->c.ch, cl_params_x(p, "tau"), cl_params_x(p, "d"));
        c->s.make_ws = chain_dense_ws;
    }
    return cl_sys_create_end(out, c, st, chain_destroy);
}

static int chain_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    return cl_chain_rhs_mp(((chain_inst *)inst)->c.ch, form, dx, x);
}

static const char *const chain_invariant_names[] = {"energy", "Lz", "max|q|-1", "max|q.v|", NULL};

static int chain_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    chain_inst *c = inst;
    int st = cl_chain_invariants_mp(c->c.ch, form, out, x);
    if (!st) s2_constraint_drift(c->s.n, out + 2, x);
    return st;
}

static int chain_equilibrium(void *inst, int k, int form, mpfr_ptr x, const char **name)
{
    (void)form; /* (q, 0) in every form */
    int st = cl_chain_equilibrium_mp(((chain_inst *)inst)->c.ch, k, x);
    if (!st && name) *name = k == 0 ? "hanging (q_i = -e3)" : "inverted (q_i = +e3)";
    return st;
}

/* The masses at the outboard ends: p_k = l_1 q_1 + ... + l_k q_k (q_i lead the state in every form). */
static int chain_bodies(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    (void)form;
    chain_inst *c = inst;
    size_t n = c->s.n;
    if (!out) return (int)n;
    mpfr_srcptr l = c->c.par + n;
    for (size_t k = 0; k < n; k++)
        for (int j = 0; j < 3; j++) {
            mpfr_mul(out + 3 * k + j, l + k, x + 3 * k + j, MPFR_RNDN);
            if (k) mpfr_add(out + 3 * k + j, out + 3 * k + j, out + 3 * (k - 1) + j, MPFR_RNDN);
        }
    return (int)n;
}

/*
 * RKMK45 on the problem of cl_nfold_lie_problem() with the outputs of
 * cl_nfold_simulate() (at k·h, the last on t1), in at most \p max_steps steps:
 * a step, accepted or rejected, takes at least six field evaluations, so the
 * evaluation budget of each interval is six per step left. CL_ENOCONV when
 * the steps run out.
 */
static int chain_rkmk45(cl_nfold_mp *nf, mpfr_ptr y, mpfr_srcptr t1, mpfr_srcptr h, mpfr_srcptr rtol, mpfr_srcptr atol,
                        long max_steps, int (*out)(void *ctx, mpfr_srcptr t, mpfr_srcptr x), void *ctx)
{
    cl_prec_t p = mpfr_get_prec(y);
    cl_lie_problem_mp pb;
    cl_nfold_lie_problem_mp(nf, &pb, 0);
    cl_lie_integrator_mp *w;
    int st = cl_lie_new_mp(&w, &pb, CL_LIE_RKMK45, p);
    if (st) return st;
    mpfr_t t, tn, rem, slack, hin;
    mpfr_inits2(p, t, tn, rem, slack, hin, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    mpfr_set(hin, h, MPFR_RNDN);
    mpfr_mul_2si(slack, t1, 8 - (long)p, MPFR_RNDN);
    long steps = 0;
    for (long k = 1; mpfr_cmp(t, t1) < 0; k++) {
        mpfr_mul_si(tn, h, k, MPFR_RNDN);
        mpfr_sub(rem, t1, tn, MPFR_RNDN);
        if (mpfr_cmp(rem, slack) <= 0) mpfr_set(tn, t1, MPFR_RNDN);
        if (mpfr_cmp(tn, t) <= 0) { st = CL_ESTEP; break; } /* t + h == t: no progress */
        if (steps >= max_steps) { st = CL_ENOCONV; break; }
        long left = max_steps - steps, nacc = 0, nrej = 0;
        cl_lie_set_budget_mp(w, left > LONG_MAX / 6 ? LONG_MAX : 6 * left);
        st = cl_lie_integrate_adaptive_mp(w, y, t, tn, hin, rtol, atol, &nacc, &nrej);
        steps += nacc + nrej;
        if (st == CL_EBUDGET) st = CL_ENOCONV; /* the budget stands for the steps left */
        if (st) break;
        mpfr_set(t, tn, MPFR_RNDN);
        if (out && (st = out(ctx, t, y))) break;
    }
    mpfr_clears(t, tn, rem, slack, hin, (mpfr_ptr)0);
    cl_lie_free_mp(w);
    return st;
}

/* The chain through the SE(3)^N action of NFOLD, integrated by a Lie group method. */
static int chain_lie_simulate(void *inst, int form, const char *method, mpfr_ptr x, mpfr_srcptr t1, mpfr_srcptr h,
                              mpfr_srcptr rtol, mpfr_srcptr atol, long max_steps,
                              int (*out)(void *ctx, mpfr_srcptr t, mpfr_srcptr x), void *ctx, char *err, size_t errlen)
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
    if (m == CL_LIE_RKMK45 && (!mpfr_number_p(h) || !mpfr_number_p(t1) || mpfr_sgn(h) <= 0 || mpfr_sgn(t1) < 0)) {
        snprintf(err, errlen, "%s", cl_strerror(CL_EPARAM));
        return CL_EPARAM;
    }
    cl_nfold_mp *nf;
    int st = cl_nfold_new_mp(&nf, c->s.n, c->c.par, c->c.par + c->s.n, c->c.par + 2 * c->s.n, c->prec, 0);
    if (st) {
        snprintf(err, errlen, "%s", cl_strerror(st));
        return st;
    }
    if (m == CL_LIE_RKMK45) st = chain_rkmk45(nf, x, t1, h, rtol, atol, max_steps > 0 ? max_steps : LONG_MAX, out, ctx);
    else st = cl_nfold_simulate_mp(nf, m, x, t1, h, rtol, atol, out, ctx);
    if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    cl_nfold_free_mp(nf);
    return st;
}

static const cl_system chain_system = {
    .name = "chain",
    .summary = "chain pendulum of n spherical links [S2 V], O(n) fields in four forms",
    .params = chain_params,
    S2N_HOOKS,
    CL_SYSTEM_CORE_HOOKS(chain),
    .equilibrium = chain_equilibrium,
    .lie_simulate = chain_lie_simulate,
    .bodies = chain_bodies,
};
CL_SYSTEM_REGISTER(chain_system)


/*
 * Systems of chapters S2 III–V for the command line (`chartless rhs|simulate
 * --system NAME`): coupled spheres with configuration-dependent inertia, and
 * the spherical pendulum in two angles. Everything runs in MPFR at the
 * precision the user asks for. The chain pendulum is in papers/nfold, which
 * adds the Lie group integrators of NFOLD to the four forms of S2 V.
 */
#include "s2.h"
#include "s2_systems_impl.h"
/* ------------------------------------------------------------ coupled */

typedef struct coupled_inst {
    s2n_inst s; /* first: the shared hooks see it */
    cl_s2_coupled_mp *c;
} coupled_inst;

static const cl_param coupled_params[] = {
    {.name = "n", .shape = CL_PARAM_SIZE, .def = "2", .lo = 1, .hi = 100000, .help = "number of spheres"},
    {.name = "a", .shape = CL_PARAM_NLIST, .metavar = "a1,...,an", .help = "base inertia (default all n); need a_i > |c|(n-1)"},
    {.name = "beta", .shape = CL_PARAM_NUMBER, .def = "0.5", .constraint = CL_PARAM_NONNEGATIVE, .metavar = "B",
     .help = "inertia along e3"},
    {.name = "c", .shape = CL_PARAM_NUMBER, .def = "0.5", .metavar = "C", .help = "coupling of the inertia"},
    {.name = "k", .shape = CL_PARAM_NLIST, .def = "1", .metavar = "k1,...,kn", .help = "linear potential"},
    {.name = "kappa", .shape = CL_PARAM_NUMBER, .def = "0", .metavar = "K", .help = "pair potential"},
    {.name = "damping", .shape = CL_PARAM_NUMBER, .def = "0", .constraint = CL_PARAM_NONNEGATIVE, .metavar = "D",
     .help = "damping"},
    CL_PARAM_END,
};

static void coupled_destroy(void *inst)
{
    coupled_inst *c = inst;
    if (c) cl_s2_coupled_free_mp(c->c);
    free(c);
}

static int coupled_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    size_t n = p->n;
    mpfr_ptr a = cl_rvec_new_mp(n, prec);
    coupled_inst *ci = calloc(1, sizeof *ci);
    int st = a && ci ? CL_OK : CL_ENOMEM;
    for (size_t i = 0; !st && i < n; i++) /* a_i = n unless given */
        if (cl_params_get(p, "a")->given) mpfr_set(a + i, cl_params_x(p, "a") + i, MPFR_RNDN);
        else mpfr_set_ui(a + i, (unsigned long)n, MPFR_RNDN);
    if (!st) {
        ci->s.n = n;
        st = cl_s2_coupled_new_mp(&ci->c, n, a, cl_params_x(p, "beta"), cl_params_x(p, "c"), cl_params_x(p, "k"),
                                  cl_params_x(p, "kappa"), cl_params_x(p, "damping"), prec);
        if (st == CL_EPARAM) cl_sys_error_set(e, st, NULL, "need a_i > |c|(n-1) (positive inertia)");
        else if (st) cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
    }
    cl_rvec_free_mp(a);
    if (!st) ci->s.ws = cl_s2_coupled_ws_mp(ci->c);
    return cl_sys_create_end(out, ci, st, coupled_destroy);
}

static int coupled_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    return cl_s2_quad_rhs_mp(((coupled_inst *)inst)->s.ws, form, dx, x);
}

static const char *const coupled_invariant_names[] = {"energy", "max|q|-1", "max|q.v|", NULL};

static int coupled_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    coupled_inst *c = inst;
    int st = cl_s2_quad_energy_mp(c->s.ws, form, out, x);
    if (!st) s2_constraint_drift(c->s.n, out + 1, x);
    return st;
}

static const cl_system coupled_system = {
    .name = "coupled",
    .summary = "n spheres with configuration-dependent inertia [S2 (12)] (exercises F_i of (13))",
    .params = coupled_params,
    .params_note = "  m_ii = a_i + beta (e3.q_i)^2, m_ij = c (q_i.q_j), U = sum k_i e3.q_i + kappa sum_{i<j} q_i.q_j,\n"
                   "  f_i = -damping qdot_i\n",
    S2N_HOOKS,
    CL_SYSTEM_CORE_HOOKS(coupled),
};
CL_SYSTEM_REGISTER(coupled_system)

/* ------------------------------------------------- spherical in angles */

static const char *const sph_forms[] = {"angles", "qdot", NULL};

typedef struct sph_inst {
    cl_prec_t prec;
    s2_chain_part c; /* the pendulum as a chain of one link; par: m, l, g, g/l */
} sph_inst;

static const cl_param sph_params[] = {
    {.name = "m", .shape = CL_PARAM_NUMBER, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "mass", .metavar = "M", .help = "mass"},
    {.name = "l", .shape = CL_PARAM_NUMBER, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "length", .metavar = "L", .help = "length"},
    {.name = "g", .shape = CL_PARAM_NUMBER, .def = "9.81", .constraint = CL_PARAM_NONNEGATIVE, .noun = "gravity", .metavar = "G", .help = "gravity"},
    CL_PARAM_END,
};

static void sph_destroy(void *inst)
{
    sph_inst *s = inst;
    if (s) s2_chain_part_free(&s->c);
    free(s);
}

static int sph_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)
{
    (void)e;
    sph_inst *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->prec = prec;
    int st = s2_chain_part_new(&s->c, 1, p, 1, prec);
    if (!st) mpfr_div(s->c.par + 3, s->c.par + 2, s->c.par + 1, MPFR_RNDN);
    return cl_sys_create_end(out, s, st, sph_destroy);
}

static size_t sph_dim(void *inst, int form) { (void)inst; return form == 0 ? 4 : 6; }

static int sph_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    (void)inst;
    if (form == 1) return s2_check_input(1, x, err, errlen);
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(x));
    mpfr_sin(s, x, MPFR_RNDN);
    int pole = mpfr_zero_p(s) || fabs(mpfr_get_d(s, MPFR_RNDN)) < 0x1p-40;
    mpfr_clear(s);
    if (pole) {
        snprintf(err, errlen, "theta is at a pole (sin theta = 0): the angles are singular there; use --form qdot");
        return CL_EDOMAIN;
    }
    return CL_OK;
}

static int sph_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    sph_inst *s = inst;
    if (form == 1) return cl_chain_rhs_mp(s->c.ch, CL_S2_QDOT, dx, x);
    return cl_sph_rhs_angles_mp(dx, x, s->c.par + 3);
}

static const char *const sph_invariant_names[] = {"energy", "Lz", NULL};

static int sph_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    sph_inst *s = inst;
    mpfr_ptr y = cl_rvec_new_mp(6, s->prec);
    if (!y) return CL_ENOMEM;
    if (form == 0) cl_sph_state_from_angles_mp(y, x);
    else for (int k = 0; k < 6; k++) mpfr_set(y + k, x + k, MPFR_RNDN);
    int st = cl_chain_invariants_mp(s->c.ch, CL_S2_QDOT, out, y);
    cl_rvec_free_mp(y);
    return st;
}

static int sph_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    (void)inst;
    if (from == to) {
        for (int k = 0; k < (from == 0 ? 4 : 6); k++) mpfr_set(y + k, x + k, MPFR_RNDN);
        return CL_OK;
    }
    if (from == 0) {
        cl_sph_state_from_angles_mp(y, x);
        return CL_OK;
    }
    return cl_sph_angles_from_state_mp(y, x);
}

static int sph_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    sph_inst *s = inst;
    mpfr_ptr a = cl_rvec_new_mp(4, s->prec);
    if (!a) return CL_ENOMEM;
    mpfr_set_d(a, cl_rng_range(g, 0.3, 2.8), MPFR_RNDN);
    mpfr_set_d(a + 1, cl_rng_range(g, -3, 3), MPFR_RNDN);
    mpfr_set_d(a + 2, cl_rng_normal(g), MPFR_RNDN);
    mpfr_set_d(a + 3, cl_rng_normal(g), MPFR_RNDN);
    int st = sph_convert(inst, 0, a, form, x);
    cl_rvec_free_mp(a);
    return st;
}

static int sph_equilibrium(void *inst, int k, int form, mpfr_ptr x, const char **name)
{
    sph_inst *s = inst;
    if (form == 0) return CL_EDOMAIN; /* both equilibria are at the poles of the chart */
    int st = cl_chain_equilibrium_mp(s->c.ch, k, x);
    if (!st && name) *name = k == 0 ? "hanging (q = -e3)" : "inverted (q = +e3)";
    return st;
}

/* The state manifold of the global form: |q|² − 1 = 0 and q·q̇ = 0 (the angles fill an open set). */
static int sph_constraints(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    (void)inst;
    if (form == 0) return 0;
    if (!out) return 2;
    mpfr_prec_t p = mpfr_get_prec(out);
    mpfr_t t;
    mpfr_init2(t, p);
    mpfr_set_si(out, -1, MPFR_RNDN);
    mpfr_set_zero(out + 1, 1);
    for (int i = 0; i < 3; i++) {
        mpfr_mul(t, x + i, x + i, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
        mpfr_mul(t, x + i, x + 3 + i, MPFR_RNDN);
        mpfr_add(out + 1, out + 1, t, MPFR_RNDN);
    }
    mpfr_clear(t);
    return 2;
}

static void sph_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    static const char *const an[] = {"theta", "phi", "thetadot", "phidot"};
    if (form == 0) snprintf(buf, len, "%s", i < 4 ? an[i] : "?");
    else s2_component_name(1, 0, i, buf, len);
    (void)inst;
}

static const cl_system spherical_system = {
    .name = "spherical",
    .summary = "spherical pendulum in two angles (theta, phi), the local chart with pole singularities",
    .params = sph_params,
    .state_help = "form angles: theta phi thetadot phidot, q = (sin theta cos phi, sin theta sin phi, cos theta),\n"
                  "             theta = 0 and pi (both equilibria) are singular;\n"
                  "form qdot:   q (unit) then qdot (tangent), the global form [S2 (13)] with n = 1.\n",
    .forms = sph_forms,
    CL_SYSTEM_CORE_HOOKS(sph),
    CL_SYSTEM_STATE_HOOKS(sph),
    .equilibrium = sph_equilibrium,
    .constraints = sph_constraints,
};
CL_SYSTEM_REGISTER(spherical_system)

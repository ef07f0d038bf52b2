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
    size_t n;
    cl_s2_coupled_mp *s;
} coupled_inst;

static int coupled_create(void **out, int nopt, char *const *keys, char *const *vals, cl_prec_t prec, char *err,
                          size_t errlen)
{
    static const char *const known[] = {"n", "a", "beta", "c", "k", "kappa", "damping", NULL};
    *out = NULL;
    int st = check_known(nopt, keys, known, err, errlen);
    if (st) return st;
    size_t n = 2;
    const char *sn = opt(nopt, keys, vals, "n"), *sa = opt(nopt, keys, vals, "a"), *sk = opt(nopt, keys, vals, "k");
    if (sn) st = parse_n(sn, &n, err, errlen);
    else if (sa) n = count_items(sa);
    else if (sk) n = count_items(sk);
    if (st) return st;
    mpfr_ptr p = cl_rvec_new_mp(2 * n + 4, prec);
    if (!p) return CL_ENOMEM;
    mpfr_ptr a = p, k = p + n, b = k + n, c = b + 1, kappa = c + 1, damping = kappa + 1;
    for (size_t i = 0; i < n; i++) {
        mpfr_set_ui(a + i, (unsigned long)n, MPFR_RNDN);
        mpfr_set_ui(k + i, 1, MPFR_RNDN);
    }
    mpfr_set_ui(b, 1, MPFR_RNDN);
    mpfr_div_ui(b, b, 2, MPFR_RNDN);
    mpfr_set(c, b, MPFR_RNDN);
    const char *s;
    if (sa) st = parse_list(a, n, sa, "a", err, errlen);
    if (!st && sk) st = parse_list(k, n, sk, "k", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "beta"))) st = parse_list(b, 1, s, "beta", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "c"))) st = parse_list(c, 1, s, "c", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "kappa"))) st = parse_list(kappa, 1, s, "kappa", err, errlen);
    if (!st && (s = opt(nopt, keys, vals, "damping"))) st = parse_list(damping, 1, s, "damping", err, errlen);
    coupled_inst *ci = NULL;
    if (!st) {
        ci = calloc(1, sizeof *ci);
        if (!ci) st = CL_ENOMEM;
    }
    if (!st) {
        ci->n = n;
        st = cl_s2_coupled_new_mp(&ci->s, n, a, b, c, k, kappa, damping, prec);
        if (st == CL_EPARAM)
            snprintf(err, errlen, "need a_i > |c|(n-1) (positive inertia), beta >= 0 and damping >= 0");
        else if (st) snprintf(err, errlen, "%s", cl_strerror(st));
    }
    cl_rvec_free_mp(p);
    if (st) {
        free(ci);
        return st;
    }
    *out = ci;
    return CL_OK;
}

static void coupled_destroy(void *inst)
{
    coupled_inst *c = inst;
    if (!c) return;
    cl_s2_coupled_free_mp(c->s);
    free(c);
}

static size_t coupled_dim(void *inst, int form) { (void)form; return 6 * ((coupled_inst *)inst)->n; }

static int coupled_check_state(void *inst, int form, mpfr_srcptr x, char *err, size_t errlen)
{
    (void)form;
    return s2_check_input(((coupled_inst *)inst)->n, x, err, errlen);
}

static int coupled_rhs(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x)
{
    return cl_s2_quad_rhs_mp(cl_s2_coupled_ws_mp(((coupled_inst *)inst)->s), form, dx, x);
}

static const char *const coupled_invariant_names[] = {"energy", "max|q|-1", "max|q.v|", NULL};

static int coupled_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    coupled_inst *c = inst;
    int st = cl_s2_quad_energy_mp(cl_s2_coupled_ws_mp(c->s), form, out, x);
    if (!st) s2_constraint_drift(c->n, out + 1, x);
    return st;
}

static int coupled_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    return cl_s2_quad_convert_mp(cl_s2_coupled_ws_mp(((coupled_inst *)inst)->s), from, x, to, y);
}

static int coupled_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    coupled_inst *c = inst;
    for (size_t i = 0; i < c->n; i++) {
        cl_v3_random_unit_mp(x + 3 * i, g);
        cl_v3_random_tangent_mp(x + 3 * (c->n + i), x + 3 * i, 1.0, g);
    }
    return form == CL_S2_QDOT ? CL_OK : coupled_convert(inst, CL_S2_QDOT, x, form, x);
}

static void coupled_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    s2_component_name(((coupled_inst *)inst)->n, form, i, buf, len);
}

static int coupled_sphere_count(void *inst) { return (int)((coupled_inst *)inst)->n; }

static const cl_system coupled_system = {
    .name = "coupled",
    .summary = "n spheres with configuration-dependent inertia [S2 (12)] (exercises F_i of (13))",
    .params_help = "  m_ii = a_i + beta (e3.q_i)^2, m_ij = c (q_i.q_j), U = sum k_i e3.q_i + kappa sum_{i<j} q_i.q_j,\n"
                   "  f_i = -damping qdot_i\n"
                   "  --n N            number of spheres (default: the length of --a or --k, else 2)\n"
                   "  --a a1,...,an    base inertia (default all n); need a_i > |c|(n-1)\n"
                   "  --beta B         (default 1/2), >= 0\n"
                   "  --c C            coupling of the inertia (default 1/2)\n"
                   "  --k k1,...,kn    linear potential (default all 1)\n"
                   "  --kappa K        pair potential (default 0)\n"
                   "  --damping D      (default 0), >= 0\n",
    .state_help = "q1 ... qn (unit vectors) then v1 ... vn, 3 numbers each; v is qdot, omega, mu or pi by --form.\n"
                  "q_i must be unit and v_i tangent to 2^-40; they are then normalized and projected.\n",
    .forms = s2_forms,
    .create = coupled_create,
    .destroy = coupled_destroy,
    .dim = coupled_dim,
    .check_state = coupled_check_state,
    .rhs = coupled_rhs,
    .invariant_names = coupled_invariant_names,
    .invariants = coupled_invariants,
    .convert = coupled_convert,
    .random_state = coupled_random_state,
    .component_name = coupled_component_name,
    .sphere_count = coupled_sphere_count,
};
CL_SYSTEM_REGISTER(coupled_system)

/* ------------------------------------------------- spherical in angles */

static const char *const sph_forms[] = {"angles", "qdot", NULL};

typedef struct sph_inst {
    cl_prec_t prec;
    mpfr_ptr par; /* m, l, g, g/l */
    cl_chain_mp *ch;
} sph_inst;

static int sph_create(void **out, int nopt, char *const *keys, char *const *vals, cl_prec_t prec, char *err,
                      size_t errlen)
{
    static const char *const known[] = {"m", "l", "g", NULL};
    *out = NULL;
    int st = check_known(nopt, keys, known, err, errlen);
    if (st) return st;
    sph_inst *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->prec = prec;
    s->par = cl_rvec_new_mp(4, prec);
    if (!s->par) { free(s); return CL_ENOMEM; }
    mpfr_set_ui(s->par, 1, MPFR_RNDN);
    mpfr_set_ui(s->par + 1, 1, MPFR_RNDN);
    cl_real_from_str_mp(s->par + 2, "9.81");
    const char *v;
    if ((v = opt(nopt, keys, vals, "m"))) st = parse_list(s->par, 1, v, "m", err, errlen);
    if (!st && (v = opt(nopt, keys, vals, "l"))) st = parse_list(s->par + 1, 1, v, "l", err, errlen);
    if (!st && (v = opt(nopt, keys, vals, "g"))) st = parse_list(s->par + 2, 1, v, "g", err, errlen);
    if (!st && (mpfr_sgn(s->par) <= 0 || mpfr_sgn(s->par + 1) <= 0)) {
        snprintf(err, errlen, "mass and length must be positive");
        st = CL_EPARAM;
    }
    if (!st && mpfr_sgn(s->par + 2) < 0) { snprintf(err, errlen, "gravity g must not be negative"); st = CL_EPARAM; }
    if (!st) {
        mpfr_div(s->par + 3, s->par + 2, s->par + 1, MPFR_RNDN);
        st = cl_chain_new_mp(&s->ch, 1, s->par, s->par + 1, s->par + 2, prec);
    }
    if (st) {
        cl_rvec_free_mp(s->par);
        free(s);
        return st;
    }
    *out = s;
    return CL_OK;
}

static void sph_destroy(void *inst)
{
    sph_inst *s = inst;
    if (!s) return;
    cl_chain_free_mp(s->ch);
    cl_rvec_free_mp(s->par);
    free(s);
}

static size_t sph_dim(void *inst, int form) { (void)inst; return form == 0 ? 4 : 6; }

static int sph_check_state(void *inst, int form, mpfr_srcptr x, char *err, size_t errlen)
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
    if (form == 1) return cl_chain_rhs_mp(s->ch, CL_S2_QDOT, dx, x);
    return cl_sph_rhs_angles_mp(dx, x, s->par + 3);
}

static const char *const sph_invariant_names[] = {"energy", "Lz", NULL};

static int sph_invariants(void *inst, int form, mpfr_ptr out, mpfr_srcptr x)
{
    sph_inst *s = inst;
    mpfr_ptr y = cl_rvec_new_mp(6, s->prec);
    if (!y) return CL_ENOMEM;
    if (form == 0) cl_sph_state_from_angles_mp(y, x);
    else for (int k = 0; k < 6; k++) mpfr_set(y + k, x + k, MPFR_RNDN);
    int st = cl_chain_invariants_mp(s->ch, CL_S2_QDOT, out, y);
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
    int st = cl_chain_equilibrium_mp(s->ch, k, x);
    if (!st && name) *name = k == 0 ? "hanging (q = -e3)" : "inverted (q = +e3)";
    return st;
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
    .params_help = "  --m M  mass (default 1)   --l L  length (default 1)   --g G  gravity (default 9.81)\n",
    .state_help = "form angles: theta phi thetadot phidot, q = (sin theta cos phi, sin theta sin phi, cos theta),\n"
                  "             theta = 0 and pi (both equilibria) are singular;\n"
                  "form qdot:   q (unit) then qdot (tangent), the global form [S2 (13)] with n = 1.\n",
    .forms = sph_forms,
    .create = sph_create,
    .destroy = sph_destroy,
    .dim = sph_dim,
    .check_state = sph_check_state,
    .rhs = sph_rhs,
    .invariant_names = sph_invariant_names,
    .invariants = sph_invariants,
    .convert = sph_convert,
    .random_state = sph_random_state,
    .equilibrium = sph_equilibrium,
    .component_name = sph_component_name,
};
CL_SYSTEM_REGISTER(spherical_system)

/*
 * The oracle's rows for any model file (model.h): generated at run time for
 * the model `chartless oracle --model FILE` is given, and judged on the
 * precision ladder by the same verdict machinery as the papers' checks
 * (check.h). Each row is one function per scalar kind; the 53-bit rung runs
 * the double copy. The model they look at is the one cl_model_oracle_rows()
 * loaded (a process-wide current model: the oracle forks its checks after
 * loading it).
 *
 * This file holds the table of rows (the current model is
 * model_rows_kit.c's); the rows are
 *   model_rows_s2.c    forms, legendre, el, conserve of a model of S² factors
 *   model_rows_eq.c    eq.NAME of a model of S² factors
 *   model_rows_ext.c   the rows of a model of other kinds, through its system
 *   model_rows_constraint.c  the rows of a model with constraints
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#include "lagr_s2.h"
#include "linalg.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"
#include "model_taylor.h"
#include "ode.h"
#include "r3.h"

#if CL_T == CL_MPFR
static cl_check *rows;
static char (*row_name)[96];
static char (*row_what)[2048]; /* under --quick: the row's description and what its short version leaves out */
static size_t nrows;

void cl_model_oracle_rows_free(void)
{
    cl_model_row_simplify_free();
    cl_model_row_enclose_free();
    free(rows);
    free(row_name);
    free(row_what);
    rows = NULL;
    row_name = NULL;
    row_what = NULL;
    nrows = 0;
    cl_model_oracle_model_free();
}

/* The integration of the conserve rows, and why their tolerance. */
#define S2_TRAJ "a trajectory (omega form, t in [0, 1/4] (1/16 at 256 bits, 1/4096 above), Gragg-Bulirsch-Stoer with tolerance 2^(12-p)), at every step, relative to max(1, |I(0)|)"
#define EXT_SPAN "(Gragg-Bulirsch-Stoer, tolerance 2^(12-p), t in [0, 1/4] (1/16 at 256 bits, 1/4096 above))"
#define TRAJ_WHY "the integration tolerance 2^12 units, times the growth of errors over the span, as s2.traj.energy"
/* The conserve rows' second run: the Taylor integrator on the graph of eom, when it builds one (model_taylor.h); the orders of both runs. */
#define TAYLOR_TOO "; and from the same state over t in [0, 1/8] (1/32 at 256 bits, 1/4096 above) by the Taylor integrator on the model's graph (chartless eom) in its form, when eom builds it in the row's form (the energy balance's W a state of its own, W' = dL/dt). Both runs' orders fit their spans: the least order k whose one step over the span h errs by (2h/rho)^k <= tol, rho the motion's radius of convergence read from an expansion of order 16 at the start (as the Jorba-Zou step reads it), at most the tolerance's own order (GBS 2k, k <= round(p/10) columns; Taylor ceil(-ln tol/2 + 1)); GBS stays adaptive, and a Taylor order too low for the span shows as drift; the tolerance is tied to p, so the shorter spans of the high rungs show a drift as well"

/* The rows of a model of S² factors, one line each as CL_CHECK descriptions are written; .name is the row's suffix (MODEL.SUFFIX). */
static const cl_check s2_rows[] = {
    {.name = "forms", .tags = "[S2 (3),(5),(20),(28)]", .what = "the field derived from L in the forms omega, mu, pi against the qdot field carried by the kinematics (qdot alike, omegadot = q x qddot, pidot = qdot x mu + q x mudot), at 12 random states (relative)", .cond = 4096, .why = "dense 3n x 3n solves with the tangent velocity Hessian and a Newton-inverted Legendre map on each side, at random states of unit speeds; the Hessian's condition is below 10^3", .fn_d = cl_model_row_forms_d, .fn_mp = cl_model_row_forms_mp},
    {.name = "legendre", .tags = "[S2 (3),(5),(20),(28)]", .what = "qdot -> omega, mu, pi -> qdot round trips (the inverse Legendre map by Newton's method) and mu -> pi against qdot -> pi, at 12 random states (relative)", .cond = 4096, .why = "one 3n x 3n solve per Newton step, the velocity Hessian's condition below 10^3", .fn_d = cl_model_row_legendre_d, .fn_mp = cl_model_row_legendre_mp},
    {.name = "el", .tags = "[S2 (11),(20)]", .what = "the Euler-Lagrange residuals (I - q qT)(d/dt dL/dqdot - dL/dq) and q.qddot + |qdot|^2 on the qdot field, and the mu field against mudot = (I - q qT) dL/dq - qdot (q.dL/dqdot) - q (qdot.dL/dqdot) (dL/dq + F with forces), by an evaluator of their own, at 12 random states (relative)", .cond = 4096, .why = "the residual of a dense 3n x 3n solve is the solve's backward error times the Hessian's norm, with sums of 6n products; the mu side inverts the Legendre map by Newton", .fn_d = cl_model_row_el_d, .fn_mp = cl_model_row_el_mp},
};
/* Its conserve row (what it conserves depends on the model) and the row of each declared equilibrium (eq.NAME). */
static const cl_check s2_conserve = {.name = "conserve", .tags = "[S2 (13)]", .what = "the energy and the declared invariants along " S2_TRAJ TAYLOR_TOO, .cond = 0x1p17, .why = TRAJ_WHY, .fn_d = cl_model_row_conserve_d, .fn_mp = cl_model_row_conserve_mp};
static const cl_check s2_eq = {.tags = "[S2 (13),(40)]", .what = "a declared equilibrium: the field vanishes there, and the eigenvalues of the Jacobian on the tangent space of T(S^2)^n in the forms qdot, omega, mu, pi agree with each other and with the qdot form at 2p + 32 bits (relative to max |lambda|)", .cond = 4096, .why = "Jacobian accurate to the working precision (src/deriv), then cl_eig of a 4n x 4n matrix; semisimple eigenvalues (double ones from symmetric modes) are accurate to ~n 2^(1-p) |J|"};

static const cl_check ext_eq = {.tags = "", .what = "a declared equilibrium: the field vanishes there in every form (relative to max(1, |x|))", .cond = 4096, .why = "the terms of the field (gravity, the Euler-Poincare products) cancel to a few roundings each; a velocity Hessian solve (condition below 10^2) and a Newton-inverted Legendre map"};

static const cl_check ext_ec = {.tags = "", .what = "the Energy-Casimir test at a declared equilibrium in the forms that carry velocities (qdot, omega, ROmega, RRdot; p of a Hamiltonian model; as stability --model), with the constraints of the state and, at a relative equilibrium, the declared invariants as Casimirs: |DE + sum c_j DC_j| vanishes relative to max(1, |DE|), and the inertia of the restricted Hessian is the same in each of those forms (infinite gap otherwise)", .cond = 4096, .why = "gradients and Hessians by src/deriv accurate to 2^(1-p) of their scale, a least-squares solve by Householder QR of a few columns"};

/* The rows of a model of another kind (through its system's descriptor). */
static const cl_check ext_rows[] = {
    {.name = "forms", .tags = "", .what = "the field of every form at 12 random states against the field of the first form carried by the derivative of the conversion, f_k(c(x)) = Dc(x) f_0(x) (+ dc/dt when the model depends on t), the derivative along x + s f_0 by src/deriv (relative; 3 states above 256 bits)", .cond = 4096, .why = "the derivative accurate to 2^(1-p) (cl_jacobian), each field a velocity Hessian solve (condition below 10^2 for the shipped models) and a Newton-inverted Legendre map", .fn_d = cl_model_ext_row_forms, .fn_mp = cl_model_ext_row_forms},
    {.name = "legendre", .tags = "", .what = "first form -> k -> first form round trips, and first -> j -> k against first -> k, at 12 random states (relative)", .cond = 4096, .why = "the Legendre map and its inverse (a velocity Hessian solve, its condition below 10^2 for the shipped models), each a few dozen roundings", .fn_d = cl_model_ext_row_legendre, .fn_mp = cl_model_ext_row_legendre},
    {.name = "invariants", .tags = "", .what = "dI/dt vanishes for the energy and the declared invariants on the field f of every form at 12 random states (3 above 256 bits), as the derivative of I(x + s f/|f|) at s = 0 by src/deriv, relative to |f| max(1, |I|)", .cond = 4096, .why = "the derivative accurate to 2^(1-p) of max(1, |I|) (cl_jacobian), the field a velocity Hessian solve (condition below 10^2)", .fn_d = cl_model_ext_row_invariants, .fn_mp = cl_model_ext_row_invariants},
    {.name = "conserve", .tags = "", .what = "the energy, the declared invariants and the constraint drift along a trajectory of the first form " EXT_SPAN ", at every step, relative to max(1, |I(0)|)" TAYLOR_TOO, .cond = 0x1p17, .why = TRAJ_WHY, .fn_d = cl_model_ext_row_conserve, .fn_mp = cl_model_ext_row_conserve},
};

/* The Euler-Lagrange row of a Lagrangian model of another kind (model_rows_el.c). */
static const cl_check ext_el = {.name = "el", .tags = "[EMB (2.8),3.4]", .what = "the field of the first form put back into each factor's Euler-Lagrange equations by an evaluator of their own: d/dt dL/du - G - F (- A^T lambda with constraints) with G = dL/dx (S1, R^k), projected by I - q qT with q.qddot + |qdot|^2 = 0 (S2), the Euler-Poincare G = dL/dW x W + sum_a (dL/dR)_a x R_a (SO3; SE3 also dL/dV x V, and dL/dV x W + R^T dL/dx for V), and the kinematics qdot = u, Rdot = R hat(W), xdot = R V, at 12 random states (relative to max(|d/dt dL/du|, |G|))", .cond = 4096, .why = "the field a velocity Hessian solve (condition below 10^2 for the shipped models), the residual sums of a few dozen products of exact derivatives (one sweep each)", .fn_d = cl_model_ext_row_el, .fn_mp = cl_model_ext_row_el};

/* The short version of the forms row of a model of another kind (--quick), without trajectories. */
static const cl_check ext_forms_quick = {.name = "forms", .tags = "", .what = "the field of every form at 3 random states against the field of the first form carried by the derivative of the conversion, f_k(c(x)) = Dc(x) f_0(x) (+ dc/dt when the model depends on t), the derivative along x + s f_0 by src/deriv (relative; the short version of MODEL.forms, at 12 states)", .cond = 4096, .why = "the derivative accurate to 2^(1-p) (cl_jacobian), each field a velocity Hessian solve (condition below 10^2 for the shipped models) and a Newton-inverted Legendre map", .fn_d = cl_model_ext_row_forms, .fn_mp = cl_model_ext_row_forms};

static const cl_check ext_invariants_quick = {.name = "invariants", .tags = "", .what = "dI/dt vanishes for the energy and the declared invariants on the field f of every form at 3 random states, as the derivative of I(x + s f/|f|) at s = 0 by src/deriv, relative to |f| max(1, |I|) (the short version of MODEL.invariants)", .cond = 4096, .why = "the derivative accurate to 2^(1-p) of max(1, |I|) (cl_jacobian), the field a velocity Hessian solve (condition below 10^2)", .fn_d = cl_model_ext_row_invariants, .fn_mp = cl_model_ext_row_invariants};

/* Every model's row MODEL.simplify (model_rows_simplify.c). */
static const cl_check simplify_row = {.name = "simplify", .tags = "", .what = "the equations of motion as chartless eom prints them (simplified: exact rational constants, like terms collected, one fraction, |q| = 1 and q.q' = 0 on S2, R^T R = I on SO3) against the equations as derived, both graphs evaluated at 12 random states on the manifold (3 above 256 bits; the field and the multipliers, relative to the largest)", .cond = 0x1p12, .why = "two evaluations of the same rational function by different orders of operations, each a few hundred roundings with cancellations the velocity Hessian's condition (below 10^2) amplifies", .fn_d = cl_model_row_simplify, .fn_mp = cl_model_row_simplify};

/* The short version of row \p c under --quick when it has one of its own, else NULL. */
static const cl_check *quick_version(const cl_check *c)
{
    if (!cl_model_oracle_quick() || c < ext_rows || c >= ext_rows + sizeof ext_rows / sizeof *ext_rows) return NULL;
    return !strcmp(c->name, "forms") ? &ext_forms_quick : !strcmp(c->name, "invariants") ? &ext_invariants_quick : NULL;
}

/* The rows of a model with constraints. */
static const cl_check constraint_rows[] = {
    {.name = "constraints", .tags = "", .what = "each constraint's rate along the field vanishes on the field of every form (dc/dt for a nonholonomic c; dh/dt and the second derivative d(h')/dt for a holonomic h), the gradient by src/deriv, at 12 random states on the constraints (3 from 256 bits on), relative to sum_i |dc/dx_i f_i|", .cond = 4096, .why = "the gradient accurate to 2^(1-p) per entry (cl_jacobian), the field a bordered velocity Hessian solve (condition below 10^2 for the shipped models), sums of a dozen products", .fn_d = cl_model_row_constraints, .fn_mp = cl_model_row_constraints},
    {.name = "multipliers", .tags = "", .what = "the multipliers of the constraints at a state carried to every form against those of the first form, at 12 random states (relative to max |lambda|)", .cond = 4096, .why = "a Newton-inverted Legendre map, then the same bordered solve on both sides", .fn_d = cl_model_row_multipliers, .fn_mp = cl_model_row_multipliers},
    {.name = "distribution", .tags = "[SKATE 4]", .what = "the field of the form dist (quasivelocities, the null-space method: no multiplier) against the field of the multiplier form qdot (the bordered solve) at the same state: the configuration rates and the rates of the free velocity components, at 12 random states (relative to the largest rate)", .cond = 4096, .why = "two solves of the same linear system by different eliminations (condition below 10^2 for the shipped models), sums of a dozen products", .fn_d = cl_model_row_distribution, .fn_mp = cl_model_row_distribution},
};

/* Add the row MODEL.SUFFIX described by \p c (its name the suffix), MODEL \p bl bytes of \p base; \p tags replaces c's unless NULL. */
static void add_row(const cl_check *c, const char *base, size_t bl, const char *tags)
{
    snprintf(row_name[nrows], sizeof row_name[nrows], "model.%.*s.%s", (int)bl, base, c->name);
    rows[nrows] = *c;
    rows[nrows].name = row_name[nrows];
    rows[nrows].chapter = "model";
    if (tags) rows[nrows].tags = tags;
    if (cl_model_oracle_quick() && c != &ext_forms_quick && c != &ext_invariants_quick) {
        snprintf(row_what[nrows], sizeof row_what[nrows], "%s; --quick: a quarter of the random states (at least one), "
                 "trajectories 8 times shorter", c->what);
        rows[nrows].what = row_what[nrows];
    }
    nrows++;
}

/* The rows of \p m (taken over, also on failure), named model.BASE.SUFFIX from \p bl bytes of \p base; it becomes the current model. */
static int rows_of(cl_model *m, const char *base, size_t bl, cl_sys_error *e)
{
    int st;
    size_t cap = 12 + 3 * m->neq; /* forms, legendre, el, invariants, conserve, constraints, multipliers, distribution, simplify, graph, enclose; eq, ec and certify per equilibrium */
    rows = calloc(cap, sizeof *rows);
    row_name = calloc(cap, sizeof *row_name);
    row_what = calloc(cap, sizeof *row_what);
    if (!rows || !row_name || !row_what) {
        cl_model_free(m);
        cl_model_oracle_rows_free();
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    st = cl_model_oracle_set_model(m, e);
    if (st) {
        cl_model_oracle_rows_free();
        return st;
    }
    const cl_system *ext_sys = cl_model_oracle_system();
    const cl_check *table = ext_sys ? ext_rows : s2_rows;
    size_t ntable = ext_sys ? sizeof ext_rows / sizeof *ext_rows : sizeof s2_rows / sizeof *s2_rows;
    for (size_t k = 0; k < ntable; k++)
        add_row(quick_version(table + k) ? quick_version(table + k) : table + k, base, bl, m->so3 ? "[EMB 3.4]" : NULL);
    if (ext_sys && !m->ham) add_row(&ext_el, base, bl, NULL);
    add_row(&simplify_row, base, bl, NULL);
    if (ext_sys) add_row(&cl_model_graph_row, base, bl, NULL);
    if (cl_model_enclose_row(m)) add_row(cl_model_enclose_row(m), base, bl, NULL);
    for (size_t k = 0; m->ncon && k < sizeof constraint_rows / sizeof *constraint_rows; k++) add_row(constraint_rows + k, base, bl, NULL);
    if (!ext_sys && (m->ninv || !m->force)) {
        cl_check c = s2_conserve;
        if (m->force) c.what = "the declared invariants along " S2_TRAJ TAYLOR_TOO "; the energy is not an invariant (a force is declared)";
        else if (m->timed)
            c.what = "the energy balance E(t) + W(t), W' = dL/dt integrated with the motion (L depends on t), and the declared "
                     "invariants along " S2_TRAJ TAYLOR_TOO;
        add_row(&c, base, bl, NULL);
    }
    static const cl_check_fn eq_d[] = {cl_model_row_eq0_d, cl_model_row_eq1_d, cl_model_row_eq2_d, cl_model_row_eq3_d,
                                       cl_model_row_eq4_d, cl_model_row_eq5_d, cl_model_row_eq6_d, cl_model_row_eq7_d};
    static const cl_check_fn eq_mp[] = {cl_model_row_eq0_mp, cl_model_row_eq1_mp, cl_model_row_eq2_mp, cl_model_row_eq3_mp,
                                        cl_model_row_eq4_mp, cl_model_row_eq5_mp, cl_model_row_eq6_mp, cl_model_row_eq7_mp};
    static const cl_check_fn eq_ext[] = {cl_model_ext_row_eq0, cl_model_ext_row_eq1, cl_model_ext_row_eq2, cl_model_ext_row_eq3,
                                         cl_model_ext_row_eq4, cl_model_ext_row_eq5, cl_model_ext_row_eq6, cl_model_ext_row_eq7};
    for (size_t k = 0; k < m->neq; k++) {
        char suffix[CL_MODEL_MAX_NAME + 8];
        snprintf(suffix, sizeof suffix, "eq.%s", m->eqname[k]);
        cl_check c = ext_sys ? ext_eq : s2_eq;
        c.name = suffix;
        c.fn_d = ext_sys ? eq_ext[k] : eq_d[k];
        c.fn_mp = ext_sys ? eq_ext[k] : eq_mp[k];
        add_row(&c, base, bl, NULL);
    }
    static const cl_check_fn ec_fn[] = {cl_model_ext_row_ec0, cl_model_ext_row_ec1, cl_model_ext_row_ec2, cl_model_ext_row_ec3,
                                        cl_model_ext_row_ec4, cl_model_ext_row_ec5, cl_model_ext_row_ec6, cl_model_ext_row_ec7};
    for (size_t k = 0; ext_sys && !m->force && !m->timed && k < m->neq; k++) { /* a conserved energy */
        char suffix[CL_MODEL_MAX_NAME + 8];
        snprintf(suffix, sizeof suffix, "ec.%s", m->eqname[k]);
        cl_check c = ext_ec;
        c.name = suffix;
        c.fn_d = c.fn_mp = ec_fn[k];
        add_row(&c, base, bl, NULL);
    }
    static const cl_check_fn cert_fn[] = {cl_model_row_certify0, cl_model_row_certify1, cl_model_row_certify2, cl_model_row_certify3,
                                          cl_model_row_certify4, cl_model_row_certify5, cl_model_row_certify6, cl_model_row_certify7};
    for (size_t k = 0; k < m->neq; k++) {
        char suffix[CL_MODEL_MAX_NAME + 12];
        snprintf(suffix, sizeof suffix, "certify.%s", m->eqname[k]);
        cl_check c = {.tags = "", .what = "the proven verdict at a declared equilibrium (stability --certify: Arb balls at the rung's precision) agrees "
                      "with the floating-point verdict of stability at that precision (a proven stable against unstable, or a proven unstable "
                      "against stable, is an infinite discrepancy; undecided and inconclusive disagree with nothing)",
                      .cond = 1, .why = "verdicts, not numbers: agreement or an infinite discrepancy"};
        c.name = suffix;
        c.fn_d = c.fn_mp = cert_fn[k];
        add_row(&c, base, bl, NULL);
    }
    return CL_OK;
}

int cl_model_oracle_rows(const cl_check **out, size_t *nout, const char *path, int nset, const char *const *set, cl_sys_error *e)
{
    cl_model_oracle_rows_free();
    *out = NULL;
    *nout = 0;
    cl_model *m;
    int st = cl_model_load(&m, path, e);
    if (st) return st;
    for (int j = 0; j < nset; j++) { /* name=value overrides the default */
        const char *eqs = strchr(set[j], '=');
        char name[CL_MODEL_MAX_NAME + 1];
        size_t len = eqs ? (size_t)(eqs - set[j]) : 0;
        long k = -1;
        if (eqs && len <= CL_MODEL_MAX_NAME) {
            memcpy(name, set[j], len);
            name[len] = 0;
            k = cl_model_param_index(m, name);
        }
        if (!eqs) st = cl_sys_error_set(e, CL_EPARAM, set[j], "--param needs name=value");
        else if (k < 0) st = cl_sys_error_set(e, CL_EPARAM, set[j], "unknown parameter of the model %s", path);
        else {
            int bad = !cl_text_is_number(eqs + 1);
            char *dup = bad ? NULL : strdup(eqs + 1);
            if (bad) st = cl_sys_error_set(e, CL_EPARSE, set[j], "the value of --param %s must be a finite decimal number", name);
            else if (!dup) st = cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
            else {
                free(m->pdef[k]);
                m->pdef[k] = dup;
            }
        }
        if (st) {
            cl_model_free(m);
            return st;
        }
    }
    /* the row names: the file's base name without .model */
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    if (bl > 6 && !strcmp(base + bl - 6, ".model")) bl -= 6;
    if (bl > 40) bl = 40;
    st = rows_of(m, base, bl, e);
    if (st) return st;
    *out = rows;
    *nout = nrows;
    return CL_OK;
}

void cl_model_rows_orders_full(cl_model_rows_orders *o, cl_prec_t prec)
{
    o->columns = cl_ode_gbs_default_columns(prec);
    o->taylor = cl_taylor_order_for_tol(12 - (double)prec);
    o->lrho = -INFINITY;
}

int cl_model_rows_orders_for(cl_model_rows_orders *o, const cl_model *m, const char *form, size_t dim, int balance, mpfr_srcptr x,
                             cl_prec_t prec)
{
    double ltol = 12 - (double)prec;
    cl_model_rows_orders_full(o, prec);
    mpfr_t t;
    mpfr_init2(t, prec);
    mpfr_set_zero(t, 1);
    int st = cl_model_taylor_radius_mp(m, form, dim, balance, t, x, &o->lrho);
    mpfr_clear(t);
    if (st) o->lrho = -INFINITY; /* no graph, or no expansion there: the tolerance's own orders (the runs report the state) */
    if (st != CL_ENOMEM) st = CL_OK;
    int gbs = cl_model_rows_order_for_span(ltol, -log2(cl_model_rows_span(prec)), o->lrho, 2 * o->columns);
    o->columns = gbs / 2 + gbs % 2 < 4 ? 4 : gbs / 2 + gbs % 2;
    int tay = cl_model_rows_order_for_span(ltol, -log2(cl_model_rows_taylor_span(prec)), o->lrho, o->taylor);
    o->taylor = tay < 2 ? 2 : tay;
    return st;
}

int cl_model_oracle_run_short(cl_model *m, const char *suffix, int in_double, cl_check_result *res, cl_prec_t prec)
{
    cl_sys_error e;
    int was = cl_model_oracle_quick();
    cl_model_oracle_rows_free();
    cl_model_oracle_set_quick(1);
    int st = rows_of(m, "engine", 6, &e);
    const cl_check *c = NULL;
    for (size_t k = 0; k < nrows && !st; k++)
        if (!strcmp(rows[k].name + strlen("model.engine."), suffix)) c = rows + k;
    if (!st) st = c ? (in_double ? c->fn_d : c->fn_mp)(res, prec) : CL_EPARAM;
    cl_model_oracle_rows_free();
    cl_model_oracle_set_quick(was);
    return st;
}
#endif

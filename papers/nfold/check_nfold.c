/*
 * Checks of chapter NFOLD: the Lie-algebra form of the N-fold pendulum
 * against the (q, ω) field of [S2 (40)], manifold preservation and energy of
 * the Lie group integrators, and their convergence orders.
 */
#include <math.h>
#include <stdio.h>
#include "check.h"
#include "r3.h"
#include "lie.h"
#include "ode.h"
#include "nfold.h"
#include "nfold_fixtures_impl.h"

static CL_FN(cl_nfold) *make(size_t n, cl_prec_t p, int dense, const char *gs) { return nfold_make(n, p, dense, gs); }

/* One comparison at a random state y of a pendulum s: its log2 discrepancy in
 * *e; scratch holds the scalars the comparison asked for. */
typedef int (*state_compare_fn)(CL_FN(cl_nfold) *s, rsrc y, rptr scratch, double *e);

/*
 * The worst of cmp over N = 1, 2, 3, 5, 8 links (g = 9.81, dense route when
 * asked), 5 random states each (seed, velocity scale 1.5), with nscratch(N)
 * scalars of scratch.
 */
static int over_random_states(cl_check_result *res, cl_prec_t prec, unsigned long seed, int dense,
                              size_t (*nscratch)(size_t n), state_compare_fn cmp)
{
    static const size_t NS[] = {1, 2, 3, 5, 8};
    cl_rng g;
    cl_rng_seed(&g, seed);
    cl_check_begin(res);
    for (int k = 0; k < 5; k++) {
        size_t n = NS[k];
        CL_FN(cl_nfold) *s = make(n, prec, dense, "9.81");
        if (!s) return CL_ENOMEM;
        rptr y = CL_FN(cl_rvec_new)(6 * n + nscratch(n), prec);
        if (!y) { CL_FN(cl_nfold_free)(s); return CL_ENOMEM; }
        int st = CL_OK;
        for (int draw = 0; draw < 5 && !st; draw++) {
            double e;
            nfold_random_state(y, n, &g, 1.5);
            st = cmp(s, y, y + 6 * n, &e);
            if (!st) cl_check_worst(res, e, "worst at N = %zu, draw %d", n, draw);
        }
        CL_FN(cl_rvec_free)(y);
        CL_FN(cl_nfold_free)(s);
        if (st) return st;
    }
    return CL_OK;
}

/* F = Ψ_*(f_dense(m)) and the tension route's h against the chain's (q, ω) field. */
static size_t field_scratch(size_t n) { return 6 * n * 3 + 3 * n; }
static int field_compare(CL_FN(cl_nfold) *s, rsrc y, rptr xi, double *e)
{
    size_t n = s->n;
    rptr F = xi + 6 * n, G = F + 6 * n, h = G + 6 * n;
    int st = CL_FN(cl_nfold_f_dense)(s, xi, y);
    if (!st) st = CL_FN(cl_chain_rhs)(s->chain, CL_S2_OMEGA, G, y);
    if (!st) st = CL_FN(cl_nfold_h_tension)(s, h, y);
    if (st) return st;
    CL_FN(cl_nfold_generator)(F, xi, y, n);
    double sc = fmax(0, CL_FN(cl_rvec_log2_maxabs)(G, 6 * n));
    double e1 = CL_FN(cl_rvec_log2_maxdiff)(F, G, 6 * n) - sc;
    double e2 = CL_FN(cl_rvec_log2_maxdiff)(h, G + 3 * n, 3 * n) - sc;
    *e = e2 > e1 ? e2 : e1;
    return CL_OK;
}

/*
 * F = Ψ_*(f(m))|_m with f from [NFOLD (2)–(5), (8), (9)] (R(q) assembled and
 * solved densely, as printed) against the (q, ω) field of [S2 (40)] by the
 * O(N) solve of chapter S2 V, and against the tension route; relative to the
 * largest component of the field. N = 1, 2, 3, 5, 8, 5 states each.
 */
CL_CHECK(nfold_field, "nfold.field.s2_40", .chapter = "NFOLD", .tags = "[NFOLD (2)-(9)] [S2 (40)]", .what = "Psi_*(f(m)) with f from R(q), r (2)-(5) solved densely, against the S2 V O(N) (q, omega) field and the tension route; N = 1, 2, 3, 5, 8, 5 random states each (relative)", .cond = 4096, .why = "dense 24x24 elimination and a tridiagonal solve with random link directions: growth of a few hundred, times a dozen roundings per entry")
{
    return over_random_states(res, prec, 4242, 1, field_scratch, field_compare);
}

/* The energy against the chain's first invariant, and e₃·Σ m_i x_i × ẋ_i
 * (x_i = Σ_{j≤i} l_j q_j, ẋ_i = Σ_{j≤i} l_j ω_j × q_j) against its second. */
static size_t energy_scratch(size_t n) { (void)n; return 18; }
static int energy_compare(CL_FN(cl_nfold) *s, rsrc y, rptr E, double *e)
{
    size_t n = s->n;
    rptr inv = E + 1, Lz = inv + 7, xp = Lz + 1, vp = xp + 3, c3 = vp + 3;
    CL_FN(cl_nfold_energy)(s, E, y);
    int st = CL_FN(cl_chain_invariants)(s->chain, CL_S2_OMEGA, inv, y);
    if (st) return st;
    double e1 = CL_FN(cl_rvec_log2_maxdiff)(E, inv, 1) - fmax(0, r_log2abs(inv));
    v3_zero(xp); v3_zero(vp); r_set_zero(Lz);
    for (size_t i = 0; i < n; i++) {
        v3_axpy(xp, s->l + i, y + 3 * i);
        v3_cross(c3, y + 3 * (n + i), y + 3 * i);
        v3_axpy(vp, s->l + i, c3);
        v3_cross(c3, xp, vp);
        r_addmul(Lz, s->m + i, c3 + 2);
    }
    double e2 = CL_FN(cl_rvec_log2_maxdiff)(Lz, inv + 1, 1) - fmax(0, r_log2abs(Lz));
    *e = e2 > e1 ? e2 : e1;
    return CL_OK;
}

/*
 * The pendulum's energy (kinetic from the link velocities, potential from
 * the heights) against the chain chapter's energy [S2 (38)–(39)] in the
 * (q, ω) form at random states, N = 1, 2, 3, 5, 8 (relative).
 */
CL_CHECK(nfold_energy, "nfold.energy.s2", .chapter = "NFOLD", .tags = "[NFOLD (1)] [S2 (38),(39)]", .what = "energy of the N-fold pendulum against the chain chapter's energy, and the chain's vertical angular momentum against e3.sum m_i x_i x xdot_i, at random (q, omega) states, N = 1..8 (relative)", .cond = 256, .why = "two sums of N^2 products of link velocities and N heights, each a few roundings per term")
{
    return over_random_states(res, prec, 4343, 0, energy_scratch, energy_compare);
}

/* log2 of the largest | |q_i|² − 1 | and |q_i·ω_i| of a state of n links. */
static double manifold_drift(rsrc y, size_t n)
{
    R_DECL(d, r_prec(y));
    double worst = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        v3_dot(d, y + 3 * i, y + 3 * i);
        r_add_si(d, d, -1);
        worst = fmax(worst, r_log2abs(d));
        v3_dot(d, y + 3 * i, y + 3 * (n + i));
        worst = fmax(worst, r_log2abs(d));
    }
    return worst;
}

/*
 * |q_i|² − 1 and q_i·ω_i after 10⁴ steps of h = 1/100 (N = 3, g = 1) for one
 * Lie method at 53 bits, 10³ at 113 and 256 bits, 10² above; the note gives
 * the energy drift and, for rkmk4, what classical RK4 in the embedding R¹⁸
 * does with the same steps. The long run shows the accumulation at 53 bits;
 * the shorter ones at MPFR rungs show that the drift follows the working
 * precision (a method error, as RK4's, would not shrink with it) at a cost
 * the ladder can afford.
 */
static long manifold_steps(cl_prec_t prec) { return prec <= 53 ? 10000 : prec <= 256 ? 1000 : 100; }

static int manifold_run(cl_check_result *res, cl_prec_t prec, int method)
{
    size_t n = 3;
    long nsteps = manifold_steps(prec);
    CL_FN(cl_nfold) *s = make(n, prec, 0, "1");
    if (!s) return CL_ENOMEM;
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_nfold_lie_problem)(s, &pb, 0);
    CL_FN(cl_lie_integrator) *w;
    int st = CL_FN(cl_lie_new)(&w, &pb, method, prec);
    if (st) {
        CL_FN(cl_nfold_free)(s);
        return st;
    }
    rptr y = CL_FN(cl_rvec_new)(6 * n * 7, prec);
    rptr z = y + 6 * n, k1 = z + 6 * n, k2 = k1 + 6 * n, k3 = k2 + 6 * n, k4 = k3 + 6 * n, t = k4 + 6 * n;
    R_DECL(h, prec); R_DECL(d, prec); R_DECL(E0, prec); R_DECL(E1, prec); R_DECL(h2, prec); R_DECL(h6, prec);
    cl_rng g;
    cl_rng_seed(&g, 77);
    cl_check_begin(res);
    nfold_gentle_state(y, n, &g);
    CL_FN(cl_rvec_copy)(z, y, 6 * n);
    CL_FN(cl_nfold_energy)(s, E0, y);
    r_set_q(h, 1, 100);
    st = CL_FN(cl_lie_integrate_fixed)(w, y, h, nsteps);
    if (st) goto out;
    double wu = manifold_drift(y, n);
    cl_check_worst(res, wu, NULL);
    CL_FN(cl_nfold_energy)(s, E1, y);
    r_sub(d, E1, E0);
    double de = r_log2abs(d) - r_log2abs(E0);
    if (method == CL_LIE_RKMK4) {
        /* Classical RK4 on (q, ω) ∈ R¹⁸ with the field F of [NFOLD (1), (8)]. */
        r_mul_2si(h2, h, -1);
        r_div_si(h6, h, 6);
        for (long k = 0; k < nsteps && !st; k++) {
            st = CL_FN(cl_nfold_field)(s, k1, z);
            for (size_t i = 0; i < 6 * n; i++) r_fma(t + i, h2, k1 + i, z + i);
            if (!st) st = CL_FN(cl_nfold_field)(s, k2, t);
            for (size_t i = 0; i < 6 * n; i++) r_fma(t + i, h2, k2 + i, z + i);
            if (!st) st = CL_FN(cl_nfold_field)(s, k3, t);
            for (size_t i = 0; i < 6 * n; i++) r_fma(t + i, h, k3 + i, z + i);
            if (!st) st = CL_FN(cl_nfold_field)(s, k4, t);
            for (size_t i = 0; i < 6 * n; i++) {
                r_add(t + i, k2 + i, k3 + i);
                r_mul_2si(t + i, t + i, 1);
                r_add(t + i, t + i, k1 + i);
                r_add(t + i, t + i, k4 + i);
                r_addmul(z + i, h6, t + i);
            }
        }
        if (st) goto out;
        double ru = manifold_drift(z, n);
        CL_FN(cl_nfold_energy)(s, E1, z);
        r_sub(d, E1, E0);
        snprintf(res->note, sizeof res->note,
                 "rkmk4: drift 2^%.1f, energy 2^%.1f; classical RK4 in R^18: drift 2^%.1f, energy 2^%.1f (%ld steps)", wu, de,
                 ru, r_log2abs(d) - r_log2abs(E0), nsteps);
    } else {
        snprintf(res->note, sizeof res->note, "%s: drift 2^%.1f, relative energy change 2^%.1f after %ld steps of 0.01",
                 cl_lie_method_name(method), wu, de, nsteps);
    }
out:
    CL_FN(cl_rvec_free)(y);
    CL_FN(cl_lie_free)(w);
    CL_FN(cl_nfold_free)(s);
    return st;
}

#define MANIFOLD_WHY "each step applies exp(xi) through psi, orthogonal to a few ulps; 1e4 steps (fewer above 53 bits) accumulate at most linearly: 1e4 x 8 ulps"

/* One row per Lie method: the same run, each with its own description. */
#define MANIFOLD_CHECK(id, name, what_, method) \
    CL_CHECK(id, name, .chapter = "NFOLD", .tags = "[NFOLD (6)]", .what = what_, .cond = 80000, \
             .why = MANIFOLD_WHY, .slow = 1) { return manifold_run(res, prec, method); }

MANIFOLD_CHECK(nfold_manifold_euler, "nfold.manifold.lie-euler", "| |q_i|^2 - 1 | and |q_i . omega_i| after 1e4 Lie-Euler steps of 0.01 (1e3 at 113 and 256 bits, 1e2 at 1024), N = 3", CL_LIE_EULER)
MANIFOLD_CHECK(nfold_manifold_rkmk4, "nfold.manifold.rkmk4", "| |q_i|^2 - 1 | and |q_i . omega_i| after 1e4 RKMK4 steps of 0.01 (1e3 at 113 and 256 bits, 1e2 at 1024), N = 3 (note: classical RK4 in R^18)", CL_LIE_RKMK4)
MANIFOLD_CHECK(nfold_manifold_cf4, "nfold.manifold.cf4", "| |q_i|^2 - 1 | and |q_i . omega_i| after 1e4 CF4 steps of 0.01 (1e3 at 113 and 256 bits, 1e2 at 1024), N = 3", CL_LIE_CF4)
MANIFOLD_CHECK(nfold_manifold_rkmk45, "nfold.manifold.rkmk45", "| |q_i|^2 - 1 | and |q_i . omega_i| after 1e4 fixed RKMK45 steps of 0.01 (1e3 at 113 and 256 bits, 1e2 at 1024), N = 3", CL_LIE_RKMK45)

#if CL_PREC == CL_MPFR
static int field_rhs(rptr dy, rsrc t, rsrc y, void *s)
{
    (void)t;
    return CL_FN(cl_nfold_field)(s, dy, y);
}

/*
 * Convergence order at 256 bits whatever the rung (the order is a property of
 * the method): error at t = 1 (N = 3, g = 1, a state near the hanging
 * equilibrium) against a reference at 320 bits, h halving 6 times; yes/no:
 * the least-squares slope lies within 0.1 of the order. The reference is the
 * embedded field F of [NFOLD (1), (8)] in R^18 integrated by GBS to 2^-260,
 * far below the smallest error fitted (about 2^-48), in a fraction of the
 * evaluations 2^14 RKMK45 steps would take.
 */
static double order_slope(int method, char *note, size_t len)
{
    static int have_ref;
    static mpfr_ptr ref;
    const cl_prec_t p = 256, pr = 320;
    size_t n = 3;
    cl_rng g;
    if (!have_ref) {
        CL_FN(cl_nfold) *sr = make(n, pr, 0, "1");
        CL_FN(cl_ode_ws) *ode = NULL;
        ref = CL_FN(cl_rvec_new)(6 * n + 4, pr);
        if (!sr || !ref) return NAN;
        rptr t = ref + 6 * n, t1 = t + 1, h = t1 + 1, tol = h + 1;
        cl_rng_seed(&g, 77);
        nfold_gentle_state(ref, n, &g);
        r_set_si(t1, 1);
        r_set_si(tol, 1);
        r_mul_2si(tol, tol, -260);
        int st = CL_FN(cl_ode_ws_new)(&ode, 6 * n, pr, CL_ODE_GBS, 0);
        if (!st) st = CL_FN(cl_ode_set_tol)(ode, tol, tol);
        if (!st) st = CL_FN(cl_ode_integrate)(ode, field_rhs, sr, t, ref, t1, h, NULL);
        CL_FN(cl_ode_ws_free)(ode);
        CL_FN(cl_nfold_free)(sr);
        if (st) return NAN;
        have_ref = 1;
    }
    CL_FN(cl_nfold) *s = make(n, p, 0, "1");
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_nfold_lie_problem)(s, &pb, 0);
    CL_FN(cl_lie_integrator) *w;
    if (CL_FN(cl_lie_new)(&w, &pb, method, p)) {
        CL_FN(cl_nfold_free)(s);
        return NAN;
    }
    rptr y0 = CL_FN(cl_rvec_new)(18 * 3, p), y = y0 + 18, yr = y + 18;
    for (int i = 0; i < 18; i++) r_set(yr + i, ref + i);
    cl_rng_seed(&g, 77);
    nfold_gentle_state(y0, n, &g);
    R_DECL(h, p);
    int order = cl_lie_method_order(method);
    long n0 = order == 1 ? 64 : 16;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, e0 = 0, e6 = 0;
    for (int k = 0; k <= 6; k++) {
        long ns = n0 << k;
        CL_FN(cl_rvec_copy)(y, y0, 18);
        r_set_q(h, 1, ns);
        CL_FN(cl_lie_integrate_fixed)(w, y, h, ns);
        double e = CL_FN(cl_rvec_log2_maxdiff)(y, yr, 18), x = -log2((double)ns);
        if (k == 0) e0 = e;
        e6 = e;
        sx += x; sy += e; sxx += x * x; sxy += x * e;
    }
    double slope = (7 * sxy - sx * sy) / (7 * sxx - sx * sx);
    snprintf(note, len, "%s at 256 bits: log2 error %.1f (h = 1/%ld) .. %.1f (h = 1/%ld), fitted slope %.3f (order %d)",
             cl_lie_method_name(method), e0, n0, e6, n0 << 6, slope, order);
    CL_FN(cl_rvec_free)(y0);
    CL_FN(cl_lie_free)(w);
    CL_FN(cl_nfold_free)(s);
    return slope - order;
}

static double order_slope_measure(const void *method, char *note, size_t len)
{
    return order_slope(*(const int *)method, note, len);
}

int check_nfold_order_run(cl_check_result *res, int method)
{
    static cl_check_once once[5];
    return cl_check_measured_once(res, once + method, 0.1, order_slope_measure, &method);
}

#endif

/* The convergence order is a property of the method, measured at 256 bits
 * whatever the rung (by the MPFR copy): both copies call the same run. */
int check_nfold_order_run(cl_check_result *res, int method);

/* One row per Lie method: the same measurement, each with its own description. */
#define ORDER_CHECK(id, name, what_, method) \
    CL_CHECK(id, name, .chapter = "NFOLD", .tags = "[NFOLD (6)]", .what = what_, .cond = 1, \
             .kind = CL_CHECK_EXACT, .slow = 1) { return check_nfold_order_run(res, method); }

ORDER_CHECK(nfold_order_lie_euler, "nfold.order.lie-euler", "fitted convergence slope of Lie-Euler at t = 1 within 0.1 of 1 (measured at 256 bits on every rung)", CL_LIE_EULER)
ORDER_CHECK(nfold_order_rkmk4, "nfold.order.rkmk4", "fitted convergence slope of RKMK4 at t = 1 within 0.1 of 4 (measured at 256 bits on every rung)", CL_LIE_RKMK4)
ORDER_CHECK(nfold_order_cf4, "nfold.order.cf4", "fitted convergence slope of CF4 at t = 1 within 0.1 of 4 (measured at 256 bits on every rung)", CL_LIE_CF4)
ORDER_CHECK(nfold_order_rkmk45, "nfold.order.rkmk45", "fitted convergence slope of fixed-step RKMK45 at t = 1 within 0.1 of 5 (measured at 256 bits on every rung)", CL_LIE_RKMK45)

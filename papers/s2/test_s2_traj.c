/*
 * Chapters S2 III–V along trajectories (src/ode): the invariants of the
 * chain pendulum under a symplectic Gauss–Legendre method and under
 * explicit RK4 with the same step. Expected: Gauss–Legendre keeps the energy
 * error bounded (no drift from the first half of the run to the second) and
 * keeps the quadratic first integral q_i·q̇_i of the ambient field at
 * rounding level; RK4 drifts. The numbers are printed.
 */
#include "tap_real.h"
#include "s2_fixtures_impl.h"
#include "ode.h"
#include <math.h>

typedef struct run_ctx {
    CL_FN(cl_chain) *ch;
    rptr inv, e0;
    double half, max_first, max_second, max_qv;
} run_ctx;

static int rhs(rptr dx, rsrc t, rsrc x, void *vctx)
{
    (void)t;
    run_ctx *c = vctx;
    return CL_FN(cl_chain_rhs)(c->ch, CL_S2_QDOT, dx, x);
}

static int observe(rsrc t, rsrc x, size_t n, void *vctx)
{
    run_ctx *c = vctx;
    CL_FN(cl_chain_invariants_qdot)(c->ch, c->inv, x, x + n / 2);
    r_sub(c->inv, c->inv, c->e0);
    double e = r_log2abs(c->inv);
    if (r_get_d(t) < c->half) c->max_first = fmax(c->max_first, e);
    else c->max_second = fmax(c->max_second, e);
    size_t k = n / 6;
    R_DECL(d, r_prec(x));
    for (size_t i = 0; i < k; i++) {
        v3_dot(d, x + 3 * i, x + 3 * (k + i));
        c->max_qv = fmax(c->max_qv, r_log2abs(d));
    }
    return 0;
}

/*
 * Trajectory agreement of the four forms (s2t_traj_forms, shared with the
 * oracle row s2.traj.forms): a slow double spherical pendulum
 * (g = 1/64, near hanging, speeds ~0.02: the motion stays regular) from one
 * state, integrated to t = 5 in (q, q̇), (q, ω), (q, μ), (q, π) with the
 * adaptive Gragg–Bulirsch–Stoer method at rtol = atol = 2^(12−p); the final
 * states carried to (q, q̇) against the (q, q̇) run, relative. Tolerance
 * 2^20·2^(1−p): each run's global error is about 2^12 units times the growth
 * of errors over t = 5 (observed: 2^10 to 2^12 units in all). Run at the
 * rungs up to 113 bits only: at 256 bits the four runs take ~20 s and at
 * 1024 bits many minutes (GBS with ~0.1·p columns).
 */

static void run(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 404);
    const size_t n = 2, N = 12;
    CL_FN(cl_chain) *ch = s2t_random_chain(n, p, &g, 0);
    rptr x0 = CL_FN(cl_rvec_new)(N, p), x = CL_FN(cl_rvec_new)(N, p), sc = CL_FN(cl_rvec_new)(6, p);
    rptr t = sc, t1 = sc + 1, h = sc + 2, e0 = sc + 3, inv = sc + 4;
    s2t_hanging_state(x0, n, 0.5, 0.5, &g, p); /* a regular motion: q_i tilted up to ~35° from hanging, speeds ~0.5 */
    CL_FN(cl_chain_invariants_qdot)(ch, e0, x0, x0 + 3 * n);
    r_set_si(t1, 40);
    double res[2][3];
    static const cl_ode_method methods[2] = {CL_ODE_GAUSS, CL_ODE_RK4};
    for (int k = 0; k < 2; k++) {
        CL_FN(cl_ode_ws) *ode = NULL;
        CL_FN(cl_ode_ws_new)(&ode, N, p, methods[k], 2);
        run_ctx c = {ch, inv, e0, 20, -INFINITY, -INFINITY, -INFINITY};
        CL_FN(cl_ode_set_observer)(ode, observe, &c);
        CL_FN(cl_rvec_copy)(x, x0, N);
        r_set_zero(t);
        r_set_q(h, 1, 100);
        int st = CL_FN(cl_ode_integrate)(ode, rhs, &c, t, x, t1, h, NULL);
        ok(st == 0, "%s integrates the chain to t = 40 [%s, %ld bits]", k ? "RK4" : "Gauss-Legendre s=2", TEST_KIND, (long)p);
        res[k][0] = c.max_first;
        res[k][1] = c.max_second;
        res[k][2] = c.max_qv;
        diag("%-20s h = 1/100: max|E - E0| 2^%.1f on [0, 20], 2^%.1f on [20, 40]; max|q_i . qdot_i| 2^%.1f",
             k ? "RK4" : "Gauss-Legendre s=2", c.max_first, c.max_second, c.max_qv);
        CL_FN(cl_ode_ws_free)(ode);
    }
    /* bounded: the second half no worse than twice the first (one bit) */
    ok(res[0][1] <= res[0][0] + 1, "Gauss-Legendre: energy error bounded (no drift) [%s, %ld bits]", TEST_KIND, (long)p);
    ok(res[1][1] > res[0][1] + 4, "RK4 with the same step: energy error 16x above Gauss-Legendre's [%s, %ld bits]", TEST_KIND, (long)p);
    /* q·q̇ is a quadratic first integral of the ambient field; Gauss–Legendre keeps it
       to the rounding of 4000 steps (about 2^12 units of 2^(1−p) times |q̇| ~ 4) */
    is_log2_below(res[0][2], tol_log2(p, 0x1p16), "Gauss-Legendre keeps q_i . qdot_i at rounding level [%s, %ld bits]", TEST_KIND, (long)p);
    CL_FN(cl_rvec_free)(x0); CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(sc);
    CL_FN(cl_chain_free)(ch);
}

int main(void)
{
    /* 4000 steps of an implicit method: the two lowest rungs only, to stay fast. */
    for (int k = 0; k < TEST_NPREC && TEST_PRECISIONS[k] <= 64; k++) run(TEST_PRECISIONS[k]);
    for (int k = 0; k < TEST_NPREC && TEST_PRECISIONS[k] <= 113; k++) {
        cl_prec_t p = TEST_PRECISIONS[k];
        is_log2_below(s2t_traj_forms(p, 5, 1), tol_log2(p, 0x1p20),
                      "four forms integrated to t = 5 (GBS, tol 2^(12-p)) end in the same state [S2 (13),(27),(40)-(42)] [%s, %ld bits]",
                      TEST_KIND, (long)p);
    }
    return done_testing();
}

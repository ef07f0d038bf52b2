/* Oracle checks of [EMB §2]: the general routines on several models at once
 * (DP against a difference of projections, values against gradients, the
 * tangency test on S¹, S² and the subspace system) and on the one example
 * with a mixed derivative L_ẋx ≠ 0, a charge on S² in a magnetic field. The
 * states are drawn as doubles, the same at every precision. */
#include "check_emb_general_impl.h"
#include "emb_sphere.h"
#include "r3.h"

/* A charged particle (m = 1, unit charge) on S² in a uniform magnetic field
 * B, vector potential A(x) = ½ B × x:
 *   L = ½|ẋ|² + ẋ·A(x),  ∂L/∂ẋ = ẋ + A,  ∂L/∂x = ½ ẋ × B,  L_ẋx w = ½ B × w,
 * Euler–Lagrange on R³: ẍ = ẋ × B (Lorentz), so on S² (hand derivation)
 *   ẍ = (I − xxᵀ)(ẋ × B) − |ẋ|² x.
 * Since x·A(x) = 0, μ = P(ẋ + A) = ẋ + A and H = ½|μ − A(x)|², with
 * H_μ = μ − A = ẋ and H_x = ½ B × ẋ; along the motion μ̇ = ẍ + ½ B × ẋ.
 * The only example with a mixed derivative ∂²L/∂ẋ∂x ≠ 0. */
typedef struct { rptr B; } magnetic;

static void mag_A(const magnetic *mg, rptr A, rsrc x)
{
    v3_cross(A, mg->B, x);
    for (int i = 0; i < 3; i++) r_mul_2si(A + i, A + i, -1);
}

static int mag_proj(void *ctx, rptr out, rsrc x, rsrc y) { v3_proj_tangent(out, x, y); return CL_OK; }

static int mag_dproj(void *ctx, rptr out, rsrc x, rsrc v, rsrc y)
{
    emb_sphere_dproj(out, x, v, y, 3);
    return CL_OK;
}

static int mag_lag(void *ctx, rptr L, rsrc x, rsrc v)
{
    RV_DECL(A, 3, r_prec(L));
    R_DECL(t, r_prec(L));
    mag_A(ctx, A, x);
    v3_dot(L, v, v);
    r_mul_2si(L, L, -1);
    v3_dot(t, v, A);
    r_add(L, L, t);
    return CL_OK;
}

static int mag_lag_dx(void *ctx, rptr g, rsrc x, rsrc v)
{
    const magnetic *mg = ctx;
    v3_cross(g, v, mg->B);
    for (int i = 0; i < 3; i++) r_mul_2si(g + i, g + i, -1);
    return CL_OK;
}

static int mag_lag_dv(void *ctx, rptr g, rsrc x, rsrc v)
{
    mag_A(ctx, g, x);
    v3_add(g, g, v);
    return CL_OK;
}

static int mag_lag_dvdv(void *ctx, rptr out, rsrc x, rsrc v, rsrc w) { v3_set(out, w); return CL_OK; }

static int mag_lag_dvdx(void *ctx, rptr out, rsrc x, rsrc v, rsrc w) { mag_A(ctx, out, w); return CL_OK; }

static int mag_ham(void *ctx, rptr H, rsrc x, rsrc mu)
{
    RV_DECL(d, 3, r_prec(H));
    mag_A(ctx, d, x);
    v3_sub(d, mu, d);
    v3_dot(H, d, d);
    r_mul_2si(H, H, -1);
    return CL_OK;
}

static int mag_ham_dmu(void *ctx, rptr g, rsrc x, rsrc mu)
{
    RV_DECL(A, 3, r_prec(g));
    mag_A(ctx, A, x);
    v3_sub(g, mu, A);
    return CL_OK;
}

static int mag_ham_dx(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const magnetic *mg = ctx;
    RV_DECL(v, 3, r_prec(g));
    mag_ham_dmu(ctx, v, x, mu);
    v3_cross(g, mg->B, v);
    for (int i = 0; i < 3; i++) r_mul_2si(g + i, g + i, -1);
    return CL_OK;
}

CL_CHECK(emb_general_magnetic, "emb.general.magnetic_sphere", .chapter = "EMB 2", .tags = "[EMB (2.3)] [EMB (2.4)] [EMB (2.7)] [EMB (2.8)] [S2 (23)]", .what = "charge on S^2 in a uniform field B (L = |v|^2/2 + v.(B x x)/2, mixed derivative L_vx != 0): general (2.3) vs Lorentz xddot = P(v x B) - |v|^2 x; Legendre, H; (2.7)-(2.8) and S2 (23) vs mudot = xddot + B x v/2", .cond = 256, .why = "products of |B| ~ 4 and |v| ~ 4, a 3x3 elimination")
{
    cl_rng g = emb_rng(1879);
    RV_DECL(B, 3, prec); RV_DECL(x, 3, prec); RV_DECL(v, 3, prec); RV_DECL(a, 3, prec);
    RV_DECL(aw, 3, prec); RV_DECL(t, 3, prec); RV_DECL(mu, 3, prec); RV_DECL(v2, 3, prec);
    RV_DECL(xd, 3, prec); RV_DECL(md, 3, prec); RV_DECL(r, 3, prec); RV_DECL(hx, 3, prec);
    RV_DECL(hm, 3, prec);
    R_DECL(s, prec); R_DECL(H, prec); R_DECL(E, prec);
    magnetic mg = {B};
    CL_FN(cl_emb_model) m = {0};
    m.n = 3; m.ctx = &mg; m.proj = mag_proj; m.dproj = mag_dproj; m.lagrangian = mag_lag;
    m.lag_dx = mag_lag_dx; m.lag_dv = mag_lag_dv; m.lag_dvdv = mag_lag_dvdv; m.lag_dvdx = mag_lag_dvdx;
    m.hamiltonian = mag_ham; m.ham_dx = mag_ham_dx; m.ham_dmu = mag_ham_dmu;
    CL_FN(cl_emb_work) *w;
    int st = CL_FN(cl_emb_work_new)(&w, 3, prec);
    if (st) return st;
    cl_check_begin(res);
    for (int k = 0; k < NSTATES && !st; k++) {
        for (int i = 0; i < 3; i++) r_set_d(B + i, 2.0 * cl_rng_normal(&g));
        emb_random_state(x, v, 3, 2.0, &g);
        /* (2.3) with the normal part vs the Lorentz closed form */
        if ((st = CL_FN(cl_emb_el_accel)(&m, w, a, x, v))) break;
        v3_cross(t, v, B);
        v3_proj_tangent(aw, x, t);
        v3_dot(s, v, v);
        r_neg(s, s);
        v3_axpy(aw, s, x);
        cl_check_worst(res, emb_rel_err(a, aw, 3), NULL);
        if ((st = CL_FN(cl_emb_el_residual)(&m, w, r, x, v, aw))) break;
        {   /* the residual of (2.3) at the closed form, relative to |ẋ × B| */
            double sc = CL_FN(cl_rvec_log2_maxabs)(t, 3);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(r, 3) - (sc > 0 ? sc : 0), NULL);
        }
        /* (2.4) μ = ẋ + A; inverse; H = μ·ẋ − L = ½|ẋ|² */
        if ((st = CL_FN(cl_emb_legendre)(&m, w, mu, x, v))) break;
        mag_A(&mg, t, x);
        v3_add(t, t, v);
        cl_check_worst(res, emb_rel_err(mu, t, 3), NULL);
        if ((st = CL_FN(cl_emb_legendre_inv)(&m, w, v2, x, mu))) break;
        cl_check_worst(res, emb_rel_err(v2, v, 3), NULL);
        if ((st = CL_FN(cl_emb_hamiltonian_from_lagrangian)(&m, w, H, x, mu))) break;
        v3_dot(E, v, v);
        r_mul_2si(E, E, -1);
        cl_check_worst(res, emb_rel_err(H, E, 1), NULL);
        m.hamiltonian(m.ctx, H, x, mu);
        cl_check_worst(res, emb_rel_err(H, E, 1), NULL);
        /* (2.7)–(2.8): ẋ = v, μ̇ = ẍ + ½ B × ẋ */
        if ((st = CL_FN(cl_emb_hamilton)(&m, w, xd, md, x, mu))) break;
        cl_check_worst(res, emb_rel_err(xd, v, 3), NULL);
        v3_cross(t, B, v);
        for (int i = 0; i < 3; i++) r_mul_2si(t + i, t + i, -1);
        v3_add(t, t, aw);
        cl_check_worst(res, emb_rel_err(md, t, 3), NULL);
        /* [S2 (23)] with the same gradients */
        m.ham_dx(m.ctx, hx, x, mu);
        m.ham_dmu(m.ctx, hm, x, mu);
        CL_FN(cl_emb_sphere_hamilton)(xd, r, x, mu, hx, hm);
        cl_check_worst(res, emb_rel_err(r, t, 3), NULL);
    }
    CL_FN(cl_emb_work_free)(w);
    return st;
}

/* Model sys of the general routines' rows: the pendulum on S¹ (0) or S² (1)
 * in f, or the subspace system of make_subspace(seed) in *sb (2). */
static int open_general_model(int sys, emb_fixture *f, CL_FN(cl_emb_subspace) **sb, CL_FN(cl_emb_model) *m,
                              cl_prec_t prec, uint64_t seed)
{
    *f = (emb_fixture){0};
    *sb = NULL;
    int st;
    if (sys < 2) {
        if ((st = open_pendulum(f, (size_t)sys + 2, prec))) return st;
        *m = f->m;
    } else {
        if ((st = make_subspace(sb, prec, seed, NULL))) return st;
        CL_FN(cl_emb_subspace_model)(*sb, m);
    }
    return CL_OK;
}

/* What a general-routine row compares at state k of model m (workspace w),
 * drawn from g; 0 or an error that ends the row. */
typedef int (*general_row)(cl_check_result *res, const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rng *g,
                           cl_prec_t prec, int sys, int k);

/* \p row at NSTATES states of each of the S¹ and S² pendulums and the subspace system. */
static int over_general_models(cl_check_result *res, cl_prec_t prec, uint64_t seed, uint64_t sub_seed, general_row row)
{
    cl_rng g = emb_rng(seed);
    cl_check_begin(res);
    int st = 0;
    for (int sys = 0; sys < 3 && !st; sys++) {
        emb_fixture f;
        CL_FN(cl_emb_subspace) *sb;
        CL_FN(cl_emb_model) m;
        if ((st = open_general_model(sys, &f, &sb, &m, prec, sub_seed))) break;
        CL_FN(cl_emb_work) *w = f.w;
        if (sys == 2) st = CL_FN(cl_emb_work_new)(&w, m.n, prec);
        for (int k = 0; k < NSTATES && !st; k++) st = row(res, &m, w, &g, prec, sys, k);
        if (sys == 2) CL_FN(cl_emb_work_free)(w);
        emb_fixture_close(&f);
        CL_FN(cl_emb_subspace_free)(sb);
    }
    return st;
}

/* DP[v]y against (P(x + v) − P(x − v))y/2 at one random (x, v, y). */
static int dproj_row(cl_check_result *res, const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rng *g,
                     cl_prec_t prec, int sys, int k)
{
    const size_t n = m->n;
    RV_DECL(x, 5, prec); RV_DECL(v, 5, prec); RV_DECL(y, 5, prec); RV_DECL(xp, 5, prec);
    RV_DECL(xm, 5, prec); RV_DECL(pp, 5, prec); RV_DECL(pm, 5, prec); RV_DECL(d, 5, prec);
    for (size_t i = 0; i < n; i++) {
        r_set_d(x + i, cl_rng_normal(g));
        r_set_d(v + i, cl_rng_normal(g));
        r_set_d(y + i, cl_rng_normal(g));
        r_add(xp + i, x + i, v + i);
        r_sub(xm + i, x + i, v + i);
    }
    m->proj(m->ctx, pp, xp, y);
    m->proj(m->ctx, pm, xm, y);
    for (size_t i = 0; i < n; i++) {
        r_sub(pp + i, pp + i, pm + i);
        r_mul_2si(pp + i, pp + i, -1);
    }
    int st = m->dproj(m->ctx, d, x, v, y);
    cl_check_worst(res, emb_rel_err(d, pp, n), "system %d, state %d", sys, k);
    return st;
}

/* DP[v]y of the models against (P(x + v) − P(x − v))y/2, exact for the
 * quadratic P = I − xxᵀ (pendulum on S¹ and S²) and the constant P of the
 * subspace, at arbitrary (not necessarily tangent) x, v, y. */
CL_CHECK(emb_general_dproj, "emb.general.dproj_difference", .chapter = "EMB 2", .tags = "[EMB (2.5)]", .what = "DP[v]y of the S^1, S^2 and subspace models vs (P(x+v) - P(x-v))y/2, exact for quadratic P, at arbitrary x, v, y", .cond = 64, .why = "a few products of O(1) random entries")
{
    return over_general_models(res, prec, 25, 503, dproj_row);
}


/* emb_value_gradient_err at one random (x, v, e). */
static int values_row(cl_check_result *res, const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rng *g,
                     cl_prec_t prec, int sys, int k)
{
    RV_DECL(x, 5, prec); RV_DECL(v, 5, prec); RV_DECL(e, 5, prec); RV_DECL(s, 30, prec);
    int st = CL_OK;
    emb_random_vec(x, m->n, 1.0, g);
    emb_random_vec(v, m->n, 1.0, g);
    emb_random_vec(e, m->n, 1.0, g);
    cl_check_worst(res, emb_value_gradient_err(m, x, v, e, s, &st), "system %d, state %d", sys, k);
    return st;
}

/* The values L and H of the S¹, S² and subspace models against their own
 * derivatives: each model is quadratic in x and in v (μ) separately, so
 * half the difference of the values at z ± e is the derivative along e
 * exactly — a wrong sign or factor in L or H themselves (which no field
 * reads) shows here. */
CL_CHECK(emb_general_values, "emb.general.value_gradients", .chapter = "EMB 2", .tags = "[EMB (2.3)] [EMB (2.4)] [EMB (2.7)] [EMB (2.8)]", .what = "(F(z+e) - F(z-e))/2 against DF.e for F = L, H of the S^1, S^2 and subspace models in x and in v (mu), and for L_v against L_vv e, L_vx e; exact for these quadratic models, 20 random states (relative to the values)", .cond = 64, .why = "two values of a few dozen roundings each, differenced")
{
    return over_general_models(res, prec, 26, 504, values_row);
}

/* P(x)y accepted and P(x)y + 2^-10 (y − P(x)y) refused at one random (x, y), x unit on the spheres. */
static int tangent_row(cl_check_result *res, const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rng *g,
                     cl_prec_t prec, int sys, int k)
{
    RV_DECL(x, 5, prec); RV_DECL(y, 5, prec); RV_DECL(v, 5, prec);
    R_DECL(t, prec);
    emb_random_vec(x, m->n, 1.0, g);
    if (sys < 2) { /* onto the unit sphere */
        emb_dot(t, x, x, m->n);
        r_sqrt(t, t);
        for (size_t i = 0; i < m->n; i++) r_div(x + i, x + i, t);
    }
    emb_random_vec(y, m->n, 1.0, g);
    int st = m->proj(m->ctx, v, x, y);
    if (st) return st;
    int ok = CL_FN(cl_emb_check_tangent)(m, w, x, v, 64);
    if (ok != CL_OK) cl_check_worst(res, INFINITY, "tangent v refused (%d), system %d state %d", ok, sys, k);
    for (size_t i = 0; i < m->n; i++) {
        r_sub(y + i, y + i, v + i);
        r_mul_2si(y + i, y + i, -10);
        r_add(v + i, v + i, y + i);
    }
    ok = CL_FN(cl_emb_check_tangent)(m, w, x, v, 64);
    if (ok != CL_ENOTTANGENT) cl_check_worst(res, INFINITY, "non-tangent v not refused (%d), system %d state %d", ok, sys, k);
    return CL_OK;
}

/* The tangency test of the general routines: P(x)y is accepted, and P(x)y
 * plus a normal part of 2^-10 of it is refused, on S¹, S² and the subspace. */
CL_CHECK(emb_general_tangent, "emb.general.check_tangent", .chapter = "EMB 2", .tags = "[EMB (2.2)]", .what = "cl_emb_check_tangent accepts v = P(x)y and refuses v + 2^-10 (y - P(x)y) (CL_ENOTTANGENT) on S^1, S^2 (x unit) and the subspace, 20 random states each", .cond = 1, .why = "yes/no: a projected vector is tangent to rounding, a normal part of 2^-10 is far above 64 ulps", .kind = CL_CHECK_EXACT)
{
    return over_general_models(res, prec, 27, 505, tangent_row);
}

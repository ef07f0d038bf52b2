/* Oracle checks of [EMB §2, §3.1–3.3]: the general equations (2.3), (2.4),
 * (2.7)–(2.8) against the specialized forms on a subspace, S¹ and S², the
 * two-spheres paper [S2 (23), (27)], reduced and angle coordinates, and the
 * conservation of H. Each check evaluates both sides at random states drawn
 * as doubles (the same states at every precision) and reports the largest
 * relative discrepancy. */
#include <stdio.h>
#include "check_emb_general_impl.h"
#include "emb_sphere.h"
#include "s2_mu.h"
#include "r3.h"

/* A generic Hamiltonian on the unit sphere of R^d (d = 2, 3) for the
 * comparison of the general (2.8) with (3.4)/(3.6): H = ½μᵀKμ + bᵀx + ½xᵀBx
 * with K, B symmetric. Only P, DP, H_x, H_μ are needed. */
typedef struct { size_t d; rptr K, B, b; } quad_h;

static int qh_proj(void *ctx, rptr out, rsrc x, rsrc y)
{
    const quad_h *q = ctx;
    R_DECL(c, r_prec(out));
    emb_dot(c, x, y, q->d);
    for (size_t i = 0; i < q->d; i++) { r_set(out + i, y + i); r_submul(out + i, c, x + i); }
    return CL_OK;
}

static int qh_dproj(void *ctx, rptr out, rsrc x, rsrc v, rsrc y)
{
    const quad_h *q = ctx;
    emb_sphere_dproj(out, x, v, y, q->d);
    return CL_OK;
}

static int qh_dx(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const quad_h *q = ctx;
    CL_FN(cl_mat_vec)(g, q->B, x, (int)q->d, (int)q->d);
    for (size_t i = 0; i < q->d; i++) r_add(g + i, g + i, q->b + i);
    return CL_OK;
}

static int qh_dmu(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const quad_h *q = ctx;
    CL_FN(cl_mat_vec)(g, q->K, mu, (int)q->d, (int)q->d);
    return CL_OK;
}

/* (2.7)–(2.8) with P = I − xxᵀ against (3.4) (d = 2) or (3.6) and S2 (23) (d = 3). */
static int sphere_hamilton_forms(cl_check_result *res, cl_prec_t prec, size_t d)
{
    cl_rng g = emb_rng(2300 + d);
    RV_DECL(K, 9, prec); RV_DECL(B, 9, prec); RV_DECL(b, 3, prec);
    RV_DECL(x, 3, prec); RV_DECL(mu, 3, prec); RV_DECL(xd, 3, prec); RV_DECL(md, 3, prec);
    RV_DECL(xs, 3, prec); RV_DECL(ms, 3, prec); RV_DECL(hx, 3, prec); RV_DECL(hm, 3, prec);
    RV_DECL(t, 3, prec);
    quad_h q = {d, K, B, b};
    CL_FN(cl_emb_model) m = {0};
    m.n = d; m.ctx = &q; m.proj = qh_proj; m.dproj = qh_dproj; m.ham_dx = qh_dx; m.ham_dmu = qh_dmu;
    CL_FN(cl_emb_work) *w;
    int st = CL_FN(cl_emb_work_new)(&w, d, prec);
    if (st) return st;
    cl_check_begin(res);
    for (int k = 0; k < NSTATES && !st; k++) {
        random_sym(K, d, &g);
        random_sym(B, d, &g);
        for (size_t i = 0; i < d; i++) r_set_d(b + i, cl_rng_normal(&g));
        emb_random_state(x, mu, d, 2.0, &g);
        if ((st = CL_FN(cl_emb_hamilton)(&m, w, xd, md, x, mu))) break;
        qh_dx(&q, hx, x, mu);
        qh_dmu(&q, hm, x, mu);
        if (d == 2) CL_FN(cl_emb_circle_hamilton)(xs, ms, x, mu, hx, hm);
        else CL_FN(cl_emb_sphere_hamilton)(xs, ms, x, mu, hx, hm);
        cl_check_worst(res, emb_rel_err(xd, xs, d), NULL);
        cl_check_worst(res, emb_rel_err(md, ms, d), NULL);
        if (d == 3) {
            /* [S2 (23)], one sphere, f = 0: μ̇ = −(I − qqᵀ)H_q + H_μ × (μ × q). */
            v3_proj_tangent(ms, x, hx);
            v3_neg(ms, ms);
            v3_cross(t, mu, x);
            v3_cross(t, hm, t);
            v3_add(ms, ms, t);
            cl_check_worst(res, emb_rel_err(md, ms, 3), NULL);
        }
    }
    CL_FN(cl_emb_work_free)(w);
    return st;
}

EMB_CHECK_CALL(emb_sphere_hamilton, "emb.sphere.hamilton_forms", sphere_hamilton_forms, 3, .chapter = "EMB 3.3", .tags = "[EMB (2.7)] [EMB (2.8)] [EMB (2.10)] [EMB (3.6)] [S2 (23)]", .what = "general (2.7)-(2.8) with P = I - xx^T vs (3.6) vs S2 (23), generic quadratic H, 20 random states", .cond = 64, .why = "a few dozen products of O(1) random entries per component")

EMB_CHECK_CALL(emb_circle_hamilton, "emb.circle.hamilton_forms", sphere_hamilton_forms, 2, .chapter = "EMB 3.2", .tags = "[EMB (2.7)] [EMB (2.8)] [EMB (2.10)] [EMB (3.4)]", .what = "general (2.7)-(2.8) with P = I - xx^T vs (3.4), generic quadratic H, 20 random states", .cond = 64, .why = "a few dozen products of O(1) random entries per component")

/* mℓ² and (mgl not NULL) mgℓ of the pendulum of f. */
static void pendulum_scales(const emb_fixture *f, rptr ml2, rptr mgl)
{
    cl_prec_t p = r_prec(ml2);
    R_DECL(m, p); R_DECL(l, p); R_DECL(g, p);
    CL_FN(cl_emb_pendulum_params)(f->pend, NULL, m, l, g);
    r_mul(ml2, m, l);
    r_mul(ml2, ml2, l);
    if (mgl) {
        r_mul(mgl, m, g);
        r_mul(mgl, mgl, l);
    }
}

/* What a row compares at one state of the pendulum f, which it draws from g;
 * 0, or an error that ends the row. */
typedef int (*pendulum_row)(cl_check_result *res, emb_fixture *f, cl_rng *g, cl_prec_t prec);

/* A row over NSTATES states of the pendulum on S^{d−1} of open_pendulum(),
 * the generator seeded by seed. */
static int pendulum_rows(cl_check_result *res, cl_prec_t prec, uint64_t seed, size_t d, pendulum_row row)
{
    cl_rng g = emb_rng(seed);
    emb_fixture f;
    int st = open_pendulum(&f, d, prec);
    if (st) return st;
    cl_check_begin(res);
    for (int k = 0; k < NSTATES && !st; k++) st = row(res, &f, &g, prec);
    emb_fixture_close(&f);
    return st;
}

/* Spherical pendulum: general (2.3) vs (3.5); (3.6) vs S2 (27); Legendre
 * (2.4) and its inverse; the Hamiltonian flow mapped back by μ = mℓ²ẋ. */
static int sphere_pendulum_row(cl_check_result *res, emb_fixture *f, cl_rng *g, cl_prec_t prec)
{
    RV_DECL(x, 3, prec); RV_DECL(v, 3, prec); RV_DECL(a, 3, prec); RV_DECL(as, 3, prec);
    RV_DECL(mu, 3, prec); RV_DECL(v2, 3, prec); RV_DECL(xd, 3, prec); RV_DECL(md, 3, prec);
    RV_DECL(ms, 3, prec); RV_DECL(hx, 3, prec); RV_DECL(hm, 3, prec); RV_DECL(t, 3, prec); RV_DECL(r, 3, prec);
    R_DECL(ml2, prec); R_DECL(H, prec); R_DECL(E, prec);
    int st;
    pendulum_scales(f, ml2, NULL);
    emb_random_state(x, v, 3, 3.0, g);
    if ((st = CL_FN(cl_emb_el_accel)(&f->m, f->w, a, x, v))) return st;
    CL_FN(cl_emb_sphere_el_accel)(f->pend, as, x, v);
    cl_check_worst(res, emb_rel_err(a, as, 3), NULL);
    if ((st = CL_FN(cl_emb_el_residual)(&f->m, f->w, r, x, v, as))) return st;
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxabs)(r, 3) - 6, NULL);   /* relative to the weight mgℓ ≈ 9 */
    /* (2.4): μ = (I − xxᵀ) mℓ²ẋ = mℓ²ẋ; the inverse returns ẋ. */
    if ((st = CL_FN(cl_emb_legendre)(&f->m, f->w, mu, x, v))) return st;
    v3_scale(t, ml2, v);
    cl_check_worst(res, emb_rel_err(mu, t, 3), NULL);
    if ((st = CL_FN(cl_emb_legendre_inv)(&f->m, f->w, v2, x, mu))) return st;
    cl_check_worst(res, emb_rel_err(v2, v, 3), NULL);
    if ((st = CL_FN(cl_emb_hamiltonian_from_lagrangian)(&f->m, f->w, H, x, mu))) return st;
    CL_FN(cl_emb_pendulum_energy)(f->pend, E, x, v);
    cl_check_worst(res, emb_rel_err(H, E, 1), NULL);
    f->m.hamiltonian(f->m.ctx, H, x, mu);
    cl_check_worst(res, emb_rel_err(H, E, 1), NULL);
    /* Hamilton's flow: ẋ = v, μ̇ = mℓ² ẍ. */
    if ((st = CL_FN(cl_emb_hamilton)(&f->m, f->w, xd, md, x, mu))) return st;
    cl_check_worst(res, emb_rel_err(xd, v, 3), NULL);
    v3_scale(t, ml2, as);
    cl_check_worst(res, emb_rel_err(md, t, 3), NULL);
    /* (3.6) and [S2 (27)] with m^I = I/(mℓ²), U = mgℓ e₃·q. */
    f->m.ham_dx(f->m.ctx, hx, x, mu);
    f->m.ham_dmu(f->m.ctx, hm, x, mu);
    CL_FN(cl_emb_sphere_hamilton)(t, ms, x, mu, hx, hm);
    cl_check_worst(res, emb_rel_err(ms, md, 3), NULL);
    v3_cross(t, mu, x);
    v3_cross(ms, hm, t);                   /* (m^I μ) × (μ × q) */
    v3_proj_tangent(t, x, hx);
    v3_sub(ms, ms, t);
    cl_check_worst(res, emb_rel_err(ms, md, 3), NULL);
    return CL_OK;
}

CL_CHECK(emb_sphere_pendulum, "emb.sphere.pendulum", .chapter = "EMB 3.3", .tags = "[EMB (2.3)] [EMB (2.4)] [EMB (3.5)] [EMB (3.6)] [S2 (27)]", .what = "spherical pendulum: general (2.3) vs (3.5); Legendre (2.4), its inverse and H = mu.v - L; Hamilton flow vs m l^2 xddot; (3.6) vs S2 (27)", .cond = 256, .why = "a 3x3 elimination and terms up to |v|^2 = 30 times g/l = 14")
{
    return pendulum_rows(res, prec, 27, 3, sphere_pendulum_row);
}

/* Planar pendulum: general (2.3) and (3.3) against θ̈ = −(g/ℓ) sin θ;
 * (2.7)–(2.8) and (3.4) against (θ, p_θ). */
static int circle_angle_row(cl_check_result *res, emb_fixture *f, cl_rng *g, cl_prec_t prec)
{
    RV_DECL(x, 2, prec); RV_DECL(v, 2, prec); RV_DECL(a, 2, prec); RV_DECL(as, 2, prec);
    RV_DECL(aa, 2, prec); RV_DECL(mu, 2, prec); RV_DECL(xd, 2, prec); RV_DECL(md, 2, prec);
    RV_DECL(hx, 2, prec); RV_DECL(hm, 2, prec); RV_DECL(x2, 2, prec); RV_DECL(m2, 2, prec);
    R_DECL(th, prec); R_DECL(thd, prec); R_DECL(thdd, prec); R_DECL(c, prec); R_DECL(s, prec);
    R_DECL(ml2, prec); R_DECL(pt, prec); R_DECL(ptd, prec); R_DECL(thd2, prec); R_DECL(t, prec);
    int st;
    pendulum_scales(f, ml2, NULL);
    r_set_d(th, cl_rng_range(g, -3.1, 3.1));
    r_set_d(thd, 3.0 * cl_rng_normal(g));
    CL_FN(cl_emb_circle_from_angle)(x, v, th, thd);
    if ((st = CL_FN(cl_emb_el_accel)(&f->m, f->w, a, x, v))) return st;
    if ((st = CL_FN(cl_emb_circle_el_accel)(f->pend, as, x, v))) return st;
    CL_FN(cl_emb_circle_angle_accel)(f->pend, thdd, th);
    /* ẍ = θ̈ (cos θ, sin θ) + θ̇² (−sin θ, cos θ) */
    r_cos(c, th); r_sin(s, th);
    r_sqr(t, thd);
    r_mul(aa, thdd, c); r_submul(aa, t, s);
    r_mul(aa + 1, thdd, s); r_addmul(aa + 1, t, c);
    cl_check_worst(res, emb_rel_err(a, aa, 2), NULL);
    cl_check_worst(res, emb_rel_err(as, aa, 2), NULL);
    /* Hamilton: μ = p_θ (cos θ, sin θ), p_θ = mℓ²θ̇. */
    r_mul(pt, ml2, thd);
    r_mul(mu, pt, c); r_mul(mu + 1, pt, s);
    if ((st = CL_FN(cl_emb_hamilton)(&f->m, f->w, xd, md, x, mu))) return st;
    f->m.ham_dx(f->m.ctx, hx, x, mu);
    f->m.ham_dmu(f->m.ctx, hm, x, mu);
    CL_FN(cl_emb_circle_hamilton)(x2, m2, x, mu, hx, hm);
    CL_FN(cl_emb_circle_angle_hamilton)(f->pend, thd2, ptd, th, pt);
    /* ẋ = θ̇ (cos, sin); μ̇ = ṗ (cos, sin) + p θ̇ (−sin, cos). */
    r_mul(aa, thd2, c); r_mul(aa + 1, thd2, s);
    cl_check_worst(res, emb_rel_err(xd, aa, 2), NULL);
    cl_check_worst(res, emb_rel_err(x2, aa, 2), NULL);
    r_mul(t, pt, thd2);
    r_mul(aa, ptd, c); r_submul(aa, t, s);
    r_mul(aa + 1, ptd, s); r_addmul(aa + 1, t, c);
    cl_check_worst(res, emb_rel_err(md, aa, 2), NULL);
    cl_check_worst(res, emb_rel_err(m2, aa, 2), NULL);
    /* the angle round trip */
    CL_FN(cl_emb_circle_to_angle)(t, thdd, x, v);
    cl_check_worst(res, emb_rel_err(t, th, 1), NULL);
    cl_check_worst(res, emb_rel_err(thdd, thd, 1), NULL);
    return CL_OK;
}

CL_CHECK(emb_circle_angle, "emb.circle.angle", .chapter = "EMB 3.2", .tags = "[EMB (2.3)] [EMB (3.3)] [EMB (3.4)]", .what = "planar pendulum: general (2.3), (3.3) vs theta'' = -(g/l) sin theta; general (2.7)-(2.8), (3.4) vs (theta, p)", .cond = 256, .why = "sin/cos of |theta| < 3.1 and products with thetadot^2 up to ~100")
{
    return pendulum_rows(res, prec, 33, 2, circle_angle_row);
}

/* The projection P = I − Aᵀ(AAᵀ)⁻¹A: symmetric, idempotent, AP = 0. */
static int emb_subspace_projection_run(cl_check_result *res, cl_prec_t prec)
{
    enum { N = 5, M = 2 };
    CL_FN(cl_emb_subspace) *s;
    RV_DECL(A, M * N, prec); RV_DECL(P, N * N, prec); RV_DECL(Q, N * N, prec); RV_DECL(T, N * N, prec);
    cl_check_begin(res);
    for (int rep = 0; rep < 5; rep++) {
        int st = make_subspace(&s, prec, 500 + rep, A);
        if (st) return st;
        CL_FN(cl_emb_subspace_projection)(s, P);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                r_set(T + i * N + j, P + j * N + i);
                r_set_zero(Q + i * N + j);
                for (int l = 0; l < N; l++) r_addmul(Q + i * N + j, P + i * N + l, P + l * N + j);
            }
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(P, T, N * N), NULL);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(P, Q, N * N), NULL);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                r_set_zero(Q);
                for (int l = 0; l < N; l++) r_addmul(Q, A + i * N + l, P + l * N + j);
                cl_check_worst(res, r_log2abs(Q) - CL_FN(cl_rvec_log2_maxabs)(A + i * N, N), NULL);
            }
        CL_FN(cl_emb_subspace_free)(s);
    }
    return CL_OK;
}

CL_CHECK(emb_subspace_projection, "emb.subspace.projection", .chapter = "EMB 3.1", .tags = "[EMB (2.2)] [EMB 3.1]", .what = "P = I - A^T (A A^T)^-1 A: P = P^T, P^2 = P, A P = 0 (5 random A, 2x5)", .cond = 256, .why = "a 2x2 solve of a random Gram matrix (condition up to ~30) and 5-term sums")
{
    return emb_subspace_projection_run(res, prec);
}

/*
 * Smallest pivot that cl_lu_factor meets on the n×n matrix G (destroyed),
 * relative to max|G|, as log2: the diagonal of U for the steps it completes
 * and, when it stops with CL_ESINGULAR, the pivot it rejected.
 */
static double lu_log2_min_pivot(rptr G, int n)
{
    int perm[16];
    double top = CL_FN(cl_rvec_log2_maxabs)(G, (size_t)(n * n)), low = INFINITY;
    for (int k = 0; k < n; k++) perm[k] = -1;
    int st = CL_FN(cl_lu_factor)(G, perm, n);
    if (st && st != CL_ESINGULAR) return NAN;
    for (int k = 0; k < n && perm[k] >= 0; k++) {
        int done = !st || (k + 1 < n && perm[k + 1] >= 0);
        double l = r_log2abs(G + (done ? k : perm[k]) * n + k) - top;
        if (l < low) low = l;
    }
    return low;
}

/* The printed projection I − Aᵀ(AᵀA)⁻¹A: AᵀA (n×n, rank m < n) has a zero
 * pivot; the smallest relative pivot of its LU factorization is reported. */
static int emb_subspace_printed_run(cl_check_result *res, cl_prec_t prec)
{
    enum { N = 5, M = 2 };
    cl_rng g = emb_rng(77);
    RV_DECL(A, M * N, prec); RV_DECL(G, N * N, prec);
    cl_check_begin(res);
    for (int rep = 0; rep < 5; rep++) {
        for (int i = 0; i < M * N; i++) r_set_d(A + i, cl_rng_normal(&g));
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                r_set_zero(G + i * N + j);
                for (int l = 0; l < M; l++) r_addmul(G + i * N + j, A + l * N + i, A + l * N + j);
            }
        cl_check_worst(res, lu_log2_min_pivot(G, N), NULL);
    }
    return CL_OK;
}

CL_CHECK(emb_subspace_printed, "emb.subspace.printed_gram_singular", .chapter = "EMB 3.1", .tags = "[EMB 3.1]", .what = "printed I - A^T (A^T A)^-1 A: smallest relative pivot of A^T A (5x5, rank 2) is at rounding level", .cond = 256, .why = "elimination of a rank-2 5x5 Gram matrix leaves pivots of a few ulps")
{
    return emb_subspace_printed_run(res, prec);
}

/* (3.1) and general (2.3) against the reduced q̈; (3.2) and general
 * (2.7)–(2.8) against the reduced (q, p) equations. */
static int emb_subspace_reduced_run(cl_check_result *res, cl_prec_t prec)
{
    enum { N = 5, K = 3 };
    cl_rng g = emb_rng(31);
    CL_FN(cl_emb_subspace) *s;
    int st = make_subspace(&s, prec, 501, NULL);
    if (st) return st;
    CL_FN(cl_emb_model) m;
    CL_FN(cl_emb_subspace_model)(s, &m);
    CL_FN(cl_emb_work) *w;
    st = CL_FN(cl_emb_work_new)(&w, N, prec);
    RV_DECL(q, K, prec); RV_DECL(qd, K, prec); RV_DECL(qdd, K, prec); RV_DECL(pp, K, prec);
    RV_DECL(qd2, K, prec); RV_DECL(pd, K, prec); RV_DECL(pd2, K, prec);
    RV_DECL(x, N, prec); RV_DECL(v, N, prec); RV_DECL(a, N, prec); RV_DECL(a2, N, prec);
    RV_DECL(ar, N, prec); RV_DECL(mu, N, prec); RV_DECL(xd, N, prec); RV_DECL(md, N, prec);
    RV_DECL(xd2, N, prec); RV_DECL(md2, N, prec); RV_DECL(xr, N, prec);
    cl_check_begin(res);
    for (int k = 0; k < NSTATES && !st; k++) {
        for (int i = 0; i < K; i++) {
            r_set_d(q + i, cl_rng_normal(&g));
            r_set_d(qd + i, cl_rng_normal(&g));
        }
        CL_FN(cl_emb_subspace_from_reduced)(s, x, q);
        CL_FN(cl_emb_subspace_from_reduced)(s, v, qd);
        CL_FN(cl_emb_subspace_reduced_accel)(s, qdd, q, qd);
        CL_FN(cl_emb_subspace_from_reduced)(s, ar, qdd);
        if ((st = CL_FN(cl_emb_subspace_el_accel)(s, a, x, v))) break;
        if ((st = CL_FN(cl_emb_el_accel)(&m, w, a2, x, v))) break;
        cl_check_worst(res, emb_rel_err(a, ar, N), NULL);
        cl_check_worst(res, emb_rel_err(a2, ar, N), NULL);
        /* Hamilton: μ = P M ẋ (2.4), p = Nᵀμ */
        if ((st = CL_FN(cl_emb_legendre)(&m, w, mu, x, v))) break;
        CL_FN(cl_emb_subspace_reduced_momentum)(s, pp, mu);
        CL_FN(cl_emb_subspace_reduced_hamilton)(s, qd2, pd, q, pp);
        CL_FN(cl_emb_subspace_from_reduced)(s, xr, qd2);
        if ((st = CL_FN(cl_emb_subspace_hamilton)(s, xd, md, x, mu))) break;
        if ((st = CL_FN(cl_emb_hamilton)(&m, w, xd2, md2, x, mu))) break;
        cl_check_worst(res, emb_rel_err(xd, xr, N), NULL);
        cl_check_worst(res, emb_rel_err(xd2, xr, N), NULL);
        cl_check_worst(res, emb_rel_err(qd2, qd, K), NULL);
        CL_FN(cl_emb_subspace_reduced_momentum)(s, pd2, md);
        cl_check_worst(res, emb_rel_err(pd2, pd, K), NULL);
        CL_FN(cl_emb_subspace_reduced_momentum)(s, pd2, md2);
        cl_check_worst(res, emb_rel_err(pd2, pd, K), NULL);
        /* round trip x → q */
        CL_FN(cl_emb_subspace_to_reduced)(s, qd2, x);
        cl_check_worst(res, emb_rel_err(qd2, q, K), NULL);
    }
    CL_FN(cl_emb_work_free)(w);
    CL_FN(cl_emb_subspace_free)(s);
    return st;
}

CL_CHECK(emb_subspace_reduced, "emb.subspace.reduced", .chapter = "EMB 3.1", .tags = "[EMB (2.3)] [EMB (2.7)] [EMB (2.8)] [EMB (3.1)] [EMB (3.2)]", .what = "(3.1) and general (2.3) vs reduced coordinates x = N q; (3.2) and general (2.7)-(2.8) vs reduced (q, p)", .cond = 4096, .why = "5x5 solves with a random mass matrix G G^T + I (condition up to ~10^2)")
{
    return emb_subspace_reduced_run(res, prec);
}

/* dH/dt = H_x·ẋ + H_μ·μ̇ along (2.7)–(2.8), relative to |H_x||ẋ| + |H_μ||μ̇|
 * scale (the largest term), for the subspace, circle and sphere examples. */
static int energy_rate_of(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_prec_t prec,
                          rsrc x, rsrc mu, cl_check_result *res)
{
    size_t n = m->n;
    RV_DECL(xd, n, prec); RV_DECL(md, n, prec); RV_DECL(hx, n, prec); RV_DECL(hm, n, prec);
    R_DECL(rate, prec);
    int st = CL_FN(cl_emb_hamilton)(m, w, xd, md, x, mu);
    if (!st) st = CL_FN(cl_emb_energy_rate)(m, w, rate, x, mu, xd, md);
    if (st) return st;
    m->ham_dx(m->ctx, hx, x, mu);
    m->ham_dmu(m->ctx, hm, x, mu);
    double sc = CL_FN(cl_rvec_log2_maxabs)(hx, n) + CL_FN(cl_rvec_log2_maxabs)(xd, n);
    double sc2 = CL_FN(cl_rvec_log2_maxabs)(hm, n) + CL_FN(cl_rvec_log2_maxabs)(md, n);
    if (sc2 > sc) sc = sc2;
    cl_check_worst(res, r_log2abs(rate) - (sc > 0 ? sc : 0), NULL);
    return CL_OK;
}

static int emb_energy_examples_run(cl_check_result *res, cl_prec_t prec)
{
    cl_rng g = emb_rng(41);
    cl_check_begin(res);
    int st;
    RV_DECL(x, 5, prec); RV_DECL(v, 5, prec); RV_DECL(mu, 5, prec); RV_DECL(q, 3, prec);
    for (size_t d = 2; d <= 3; d++) {
        emb_fixture f;
        if ((st = open_pendulum(&f, d, prec))) return st;
        for (int k = 0; k < NSTATES && !st; k++) {
            emb_random_state(x, mu, d, 5.0, &g);
            st = energy_rate_of(&f.m, f.w, prec, x, mu, res);
        }
        emb_fixture_close(&f);
        if (st) return st;
    }
    CL_FN(cl_emb_subspace) *s;
    if ((st = make_subspace(&s, prec, 502, NULL))) return st;
    CL_FN(cl_emb_model) m;
    CL_FN(cl_emb_subspace_model)(s, &m);
    CL_FN(cl_emb_work) *w;
    st = CL_FN(cl_emb_work_new)(&w, 5, prec);
    for (int k = 0; k < NSTATES && !st; k++) {
        for (int i = 0; i < 3; i++) r_set_d(q + i, cl_rng_normal(&g));
        CL_FN(cl_emb_subspace_from_reduced)(s, x, q);
        for (int i = 0; i < 3; i++) r_set_d(q + i, cl_rng_normal(&g));
        CL_FN(cl_emb_subspace_from_reduced)(s, v, q);
        if ((st = CL_FN(cl_emb_legendre)(&m, w, mu, x, v))) break;
        st = energy_rate_of(&m, w, prec, x, mu, res);
    }
    CL_FN(cl_emb_work_free)(w);
    CL_FN(cl_emb_subspace_free)(s);
    return st;
}

CL_CHECK(emb_energy_examples, "emb.energy.examples", .chapter = "EMB 2", .tags = "[EMB (2.7)] [EMB (2.8)] [EMB Prop. 2]", .what = "dH/dt = H_x.xdot + H_mu.mudot along (2.7)-(2.8): planar and spherical pendulum, subspace system", .cond = 256, .why = "cancellation between terms of size |H_x||xdot| and |H_mu||mudot|")
{
    return emb_energy_examples_run(res, prec);
}

/* The spherical pendulum as a cl_s2_quad system of the S2 chapters (n = 1,
 * m₁₁ = mℓ², U = mgℓ e₃·q) for the comparison with [S2 (13), (20), (23),
 * (25)–(27)] as implemented there. */
typedef struct { rptr ml2, mgl; } s2pend;

static int s2pend_inertia(void *ctx, rptr m, rsrc q)
{
    const s2pend *sp = ctx;
    r_set(m, sp->ml2);
    return CL_OK;
}

static int s2pend_potential(void *ctx, rptr U, rptr dU, rsrc q)
{
    const s2pend *sp = ctx;
    if (U) r_mul(U, sp->mgl, q + 2);
    if (dU) { r_set_zero(dU); r_set_zero(dU + 1); r_set(dU + 2, sp->mgl); }
    return CL_OK;
}

/* EMB (2.3), (2.4), (2.7)–(2.8), (3.5), (3.6) against the S2 chapters:
 * cl_s2_quad_rhs_qdot [S2 (13)], cl_s2_quad_legendre_mu [S2 (24)],
 * cl_s2_quad_rhs_mu [S2 (25), (27)] for the spherical pendulum, and
 * cl_s2_hamilton_mu [S2 (23)] for the generic quadratic H on S². */
static int sphere_vs_s2_compare(cl_check_result *res, emb_fixture *f, cl_rng *g, CL_FN(cl_s2_quad_ws) *ws, cl_prec_t prec)
{
    RV_DECL(K, 9, prec); RV_DECL(B, 9, prec); RV_DECL(b, 3, prec);
    RV_DECL(xs, 6, prec); RV_DECL(dx, 6, prec); RV_DECL(a, 3, prec); RV_DECL(mu, 3, prec);
    RV_DECL(mu2, 3, prec); RV_DECL(xd, 3, prec); RV_DECL(md, 3, prec); RV_DECL(hx, 3, prec);
    RV_DECL(hm, 3, prec);
    quad_h q = {3, K, B, b};
    CL_FN(cl_emb_model) mq = {0};
    mq.n = 3; mq.ctx = &q; mq.proj = qh_proj; mq.dproj = qh_dproj; mq.ham_dx = qh_dx; mq.ham_dmu = qh_dmu;
    int st;
    emb_random_state(xs, xs + 3, 3, 3.0, g);
    /* (2.3)/(3.5) vs [S2 (13)] */
    if ((st = CL_FN(cl_s2_quad_rhs_qdot)(ws, dx, xs))) return st;
    if ((st = CL_FN(cl_emb_el_accel)(&f->m, f->w, a, xs, xs + 3))) return st;
    cl_check_worst(res, emb_rel_err(a, dx + 3, 3), NULL);
    CL_FN(cl_emb_sphere_el_accel)(f->pend, a, xs, xs + 3);
    cl_check_worst(res, emb_rel_err(a, dx + 3, 3), NULL);
    /* (2.4) vs [S2 (24)] */
    if ((st = CL_FN(cl_emb_legendre)(&f->m, f->w, mu, xs, xs + 3))) return st;
    if ((st = CL_FN(cl_s2_quad_legendre_mu)(ws, mu2, xs, xs + 3))) return st;
    cl_check_worst(res, emb_rel_err(mu, mu2, 3), NULL);
    /* (2.7)–(2.8), (3.6) vs [S2 (25), (27)] */
    v3_set(xs + 3, mu2);
    if ((st = CL_FN(cl_s2_quad_rhs_mu)(ws, dx, xs))) return st;
    if ((st = CL_FN(cl_emb_hamilton)(&f->m, f->w, xd, md, xs, mu2))) return st;
    cl_check_worst(res, emb_rel_err(xd, dx, 3), NULL);
    cl_check_worst(res, emb_rel_err(md, dx + 3, 3), NULL);
    f->m.ham_dx(f->m.ctx, hx, xs, mu2);
    f->m.ham_dmu(f->m.ctx, hm, xs, mu2);
    CL_FN(cl_emb_sphere_hamilton)(xd, md, xs, mu2, hx, hm);
    cl_check_worst(res, emb_rel_err(md, dx + 3, 3), NULL);
    /* generic H: (2.7)–(2.8) vs [S2 (23)] */
    random_sym(K, 3, g);
    random_sym(B, 3, g);
    for (int i = 0; i < 3; i++) r_set_d(b + i, cl_rng_normal(g));
    qh_dx(&q, hx, xs, mu2);
    qh_dmu(&q, hm, xs, mu2);
    CL_FN(cl_s2_hamilton_mu)(1, dx, xs, mu2, hx, hm, NULL);
    if ((st = CL_FN(cl_emb_hamilton)(&mq, f->w, xd, md, xs, mu2))) return st;
    cl_check_worst(res, emb_rel_err(xd, dx, 3), NULL);
    cl_check_worst(res, emb_rel_err(md, dx + 3, 3), NULL);
    return CL_OK;
}

/* The pendulum of f as a cl_s2_quad system for sphere_vs_s2_compare(). */
static int sphere_vs_s2_row(cl_check_result *res, emb_fixture *f, cl_rng *g, cl_prec_t prec)
{
    R_DECL(ml2, prec); R_DECL(mgl, prec);
    pendulum_scales(f, ml2, mgl);
    s2pend sp = {ml2, mgl};
    CL_FN(cl_s2_quad) sys = {0};
    sys.n = 1; sys.ctx = &sp; sys.inertia = s2pend_inertia; sys.potential = s2pend_potential;
    CL_FN(cl_s2_quad_ws) *ws;
    CL_FN(cl_s2_quad_ws_new)(&ws, &sys, prec);
    if (!ws) return CL_ENOMEM;
    int st = sphere_vs_s2_compare(res, f, g, ws, prec);
    CL_FN(cl_s2_quad_ws_free)(ws);
    return st;
}

CL_CHECK(emb_sphere_vs_s2, "emb.sphere.vs_s2_chapter", .chapter = "EMB 3.3", .tags = "[EMB (2.3)] [EMB (2.4)] [EMB (2.8)] [EMB (3.5)] [EMB (3.6)] [S2 (13)] [S2 (23)] [S2 (24)] [S2 (27)]", .what = "EMB general and S^2 forms vs the S2 chapters: cl_s2_quad_rhs_qdot, _legendre_mu, _rhs_mu (spherical pendulum), cl_s2_hamilton_mu (generic quadratic H)", .cond = 256, .why = "terms up to |v|^2 = 30 times g/l = 14 and 3x3 products of O(1) random matrices")
{
    return pendulum_rows(res, prec, 2323, 3, sphere_vs_s2_row);
}

/*
 * Oracle checks of [S2 II] and [S2 App. A]: the kinematics (3)∘(5) round
 * trip, the projection I − qqᵀ = −S(q)², and every hat-map identity
 * (43)–(48), each at several hundred seeded random vectors. A residual is
 * measured relative to the size of the terms of the identity (‖x‖‖y‖ for a
 * bilinear one, ‖x‖³ for S(x)³, ...), so its tolerance is a count of
 * roundings times 2^(1−p).
 */
#include <stdint.h>
#include "r3.h"
#include "check.h"
#include "s2_pi.h"
#define CL_TEMPLATE_HEADER "s2_sphere_decl.h"
#include "cl_instantiate.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

#define S2C_DRAWS 500
#define S2C_CURVES 6

/* An MPFR value into the current kind, rounded to its precision. */
static void s2c_from_mp(rptr r, mpfr_srcptr a)
{
#if CL_PREC == CL_DOUBLE
    *r = mpfr_get_d(a, MPFR_RNDN);
#else
    mpfr_set(r, a, MPFR_RNDN);
#endif
}

/* v = a random direction times a random length in [1/4, 4). */
static void s2c_draw(rptr v, cl_rng *g)
{
    CL_FN(cl_v3_random_unit)(v, g);
    double len = cl_rng_range(g, 0.25, 4.0);
    for (int i = 0; i < 3; i++) r_mul_d(v + i, v + i, len);
}

/* log2 ‖v‖. */
static double s2c_log2norm(rsrc v)
{
    R_DECL(n, r_prec(v));
    v3_norm(n, v);
    return r_log2abs(n);
}

/*
 * One hat-map identity (43)–(48) at S2C_DRAWS random arguments (seed = its
 * number): the arguments x, y, z with power[i] > 0 are drawn by s2c_draw,
 * and the residual of its nforms forms of m scalars is taken relative to
 * Π ‖arg_i‖^power[i], the size of its terms.
 */
static int s2c_identity_row(cl_check_result *res, cl_prec_t prec, int id, int nforms, size_t m,
                            const int power[3])
{
    cl_rng g;
    cl_rng_seed(&g, (uint64_t)id);
    RV_DECL(arg, 9, prec); RV_DECL(f, 27, prec);
    rptr x = arg, y = arg + 3, z = arg + 6;
    cl_check_begin(res);
    for (int k = 0; k < S2C_DRAWS; k++) {
        for (int i = 0; i < 3; i++)
            if (power[i]) s2c_draw(arg + 3 * i, &g);
        int st = CL_EDOMAIN;
        switch (id) {
        case 43: st = CL_FN(cl_s2_hat_id43)(f, x, y); break;
        case 44: st = CL_FN(cl_s2_hat_id44)(f, x); break;
        case 45: st = CL_FN(cl_s2_hat_id45)(f, x); break;
        case 46: st = CL_FN(cl_s2_hat_id46)(f, x, y, z); break;
        case 47: st = CL_FN(cl_s2_hat_id47)(f, x, y, z); break;
        case 48: st = CL_FN(cl_s2_hat_id48)(f, x, y); break;
        }
        if (st) return st;
        double rel = CL_FN(cl_s2_identity_log2_residual)(f, nforms, m);
        for (int i = 0; i < 3; i++)
            if (power[i]) rel -= power[i] * s2c_log2norm(arg + 3 * i);
        cl_check_worst(res, rel, "largest at draw %d", k);
    }
    return CL_OK;
}

/*
 * A row of (43)–(48): its number \p id, name and tag, then s2c_identity_row's
 * nforms, m and powers, then the description (what, cond, why).
 */
#define S2_HAT_IDENTITY_CHECK(id, name_, tags_, nforms, m, px, py, pz, ...)                        \
    CL_CHECK(s2_hat_id##id, name_, .chapter = "S2 App. A", .tags = tags_, __VA_ARGS__)           \
    { return s2c_identity_row(res, prec, id, nforms, m, (const int[3]){px, py, pz}); }

S2_HAT_IDENTITY_CHECK(43, "s2.hat.id43", "[S2 (43)]", 4, 3, 1, 1, 0, .what = "S(x)y, x*y, -y*x and -S(y)x at 500 random x, y (|x|,|y| in [1/4,4)), relative to |x||y|", .cond = 8, .why = "each form is one 2-term dot product of entries of x and y (at most 2 roundings of |x||y|), so two forms differ by at most 4 ulps of |x||y|; factor 2 margin")

S2_HAT_IDENTITY_CHECK(44, "s2.hat.id44", "[S2 (44)]", 2, 9, 2, 0, 0, .what = "S(x)^2 as a matrix product against -(x.x)I + xx^T at 500 random x, relative to |x|^2", .cond = 16, .why = "S(x)^2 entries are 3-term dot products (3 roundings of |x|^2), the other side one 3-term dot product and one addition (4 roundings): at most 7 ulps of |x|^2 apart; factor 2 margin")

S2_HAT_IDENTITY_CHECK(45, "s2.hat.id45", "[S2 (45)]", 2, 9, 3, 0, 0, .what = "S(x)^3 as two matrix products against -(x.x)S(x) at 500 random x, relative to |x|^3", .cond = 32, .why = "S(x)^3 is two 3x3 products (entries within 6 ulps of |x|^3 after the second), the other side x.x times S(x) (4 roundings): at most 10 ulps of |x|^3 apart; factor 3 margin")

S2_HAT_IDENTITY_CHECK(46, "s2.hat.id46", "[S2 (46)]", 3, 1, 1, 1, 1, .what = "x.S(y)z, y.S(z)x, z.S(x)y at 500 random x, y, z, relative to |x||y||z|", .cond = 32, .why = "each form is a hat matrix times a vector (3 roundings of |y||z|) then a 3-term dot product (3 more of |x||y||z|): within 6 ulps each, 12 apart; factor 2.5 margin")

S2_HAT_IDENTITY_CHECK(47, "s2.hat.id47", "[S2 (47)]", 3, 3, 1, 1, 1, .what = "S(x)S(y)z, (x.z)y-(x.y)z and (yx^T - x^Ty I)z at 500 random x, y, z, relative to |x||y||z|", .cond = 32, .why = "S(x)S(y) then times z is 6 roundings of |x||y||z|, (x.z)y-(x.y)z is 5, (yx^T - x^Ty I)z is 7: at most 13 ulps apart; factor 2.5 margin")

S2_HAT_IDENTITY_CHECK(48, "s2.hat.id48", "[S2 (48)]", 3, 9, 1, 1, 0, .what = "S(x*y), S(x)S(y)-S(y)S(x) and yx^T-xy^T at 500 random x, y, relative to |x||y|", .cond = 32, .why = "S(x*y) is one cross product (2 roundings of |x||y|), the commutator two 3-term products and a difference (7), yx^T - xy^T 3: at most 9 ulps apart; factor 3.5 margin")

/*
 * A row over S2C_DRAWS random unit q (the generator seeded by \p seed):
 * \p draw draws the rest of its arguments with g and records its discrepancy
 * at draw k; the first failure is returned.
 */
static int s2c_unit_rows(cl_check_result *res, cl_prec_t prec, uint64_t seed,
                         int (*draw)(cl_check_result *res, rsrc q, cl_rng *g, int k))
{
    cl_rng g;
    cl_rng_seed(&g, seed);
    RV_DECL(q, 3, prec);
    cl_check_begin(res);
    for (int k = 0; k < S2C_DRAWS; k++) {
        CL_FN(cl_v3_random_unit)(q, &g);
        int st = draw(res, q, &g, k);
        if (st) return st;
    }
    return CL_OK;
}

/*
 * A random tangent vector at q, tangent to working precision relative to its
 * own length: a drawn vector nearly parallel to q loses most of its length
 * in the first projection, which leaves q·v at a few ulps of the drawn
 * vector, not of v; the second projection has no such cancellation.
 */
static void s2c_draw_tangent(rptr v, rsrc q, cl_rng *g)
{
    CL_FN(cl_v3_random_tangent)(v, q, cl_rng_range(g, 0.25, 4.0), g);
    v3_proj_tangent(v, q, v);
}

static int s2c_roundtrip_draw(cl_check_result *res, rsrc q, cl_rng *g, int k)
{
    cl_prec_t prec = r_prec(q);
    RV_DECL(w, 3, prec); RV_DECL(v, 3, prec); RV_DECL(back, 3, prec);
    s2c_draw_tangent(w, q, g);
    int st = CL_FN(cl_s2_qdot_from_omega)(v, q, w);
    if (!st) st = CL_FN(cl_s2_omega_from_qdot)(back, q, v);
    if (st) return st;
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(back, w, 3) - s2c_log2norm(w), "largest at draw %d", k);
    s2c_draw_tangent(v, q, g);
    st = CL_FN(cl_s2_omega_from_qdot)(w, q, v);
    if (!st) st = CL_FN(cl_s2_qdot_from_omega)(back, q, w);
    if (!st) cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(back, v, 3) - s2c_log2norm(v), "largest at draw %d", k);
    return st;
}

/*
 * (3)∘(5) and (5)∘(3) on T_qS²: ω → q̇ = ω × q → q × q̇ must give ω back,
 * and q̇ → ω = q × q̇ → ω × q must give q̇ back, relative to their length.
 */
CL_CHECK(s2_kin_roundtrip, "s2.kin.roundtrip", .chapter = "S2 II", .tags = "[S2 (3)] [S2 (5)]", .what = "omega -> qdot = omega*q -> q*qdot and qdot -> q*qdot -> omega*q at 500 random (q, omega), (q, qdot), relative to the length", .cond = 32, .why = "two cross products (2 roundings each of |q||v|, the second also carrying the first's), the input v, projected twice, is tangent to 2 ulps of |v| and |q|^2 - 1 is 2 ulps: v(q.q) - q(q.v) - v stays within 10 ulps of |v|; factor 3 margin")
{ return s2c_unit_rows(res, prec, 35, s2c_roundtrip_draw); }

static int s2c_hat_squared_draw(cl_check_result *res, rsrc q, cl_rng *g, int k)
{
    (void)g;
    RV_DECL(P, 9, r_prec(q)); RV_DECL(S, 9, r_prec(q));
    int st = CL_FN(cl_s2_proj_matrix)(P, q);
    if (st) return st;
    CL_FN(cl_s2_hat)(S, q);
    m3_mul(S, S, S);
    for (int i = 0; i < 9; i++) r_neg(S + i, S + i);
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(P, S, 9), "largest at draw %d", k);
    return CL_OK;
}

/* I − qqᵀ (the projection of (11)) against −S(q)² from the hat matrix, q on S². */
CL_CHECK(s2_proj_hat_squared, "s2.proj.hat_squared", .chapter = "S2 II", .tags = "[S2 (11)] [S2 (44)]", .what = "I - qq^T against -S(q)^2 at 500 random unit q (entries of size 1)", .cond = 16, .why = "1 - q_i q_j is 2 roundings, -S(q)^2 entries are 3-term dot products (3 roundings), and |q|^2 - 1 is up to 2 ulps since q is normalized at working precision: at most 7 ulps apart; factor 2 margin")
{ return s2c_unit_rows(res, prec, 11, s2c_hat_squared_draw); }

static int s2c_tangent_draw(cl_check_result *res, rsrc q, cl_rng *g, int k)
{
    RV_DECL(v, 3, r_prec(q)); RV_DECL(r, 3, r_prec(q)); RV_DECL(c, 3, r_prec(q));
    s2c_draw(v, g);
    int st = CL_FN(cl_s2_proj_tangent)(r, q, v);
    if (st) return st;
    v3_cross(c, q, v);
    v3_cross(c, q, c);
    v3_neg(c, c);
    cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(r, c, 3) - s2c_log2norm(v), "largest at draw %d", k);
    return CL_OK;
}

/*
 * The tangent part of a vector, v − (q·v)q, against −q × (q × v) = −S(q)²v
 * (by (47) with x = y = q), relative to ‖v‖, at random unit q and random v.
 */
CL_CHECK(s2_proj_tangent, "s2.proj.tangent", .chapter = "S2 II", .tags = "[S2 (11)] [S2 (47)]", .what = "v - (q.v)q against -q*(q*v) at 500 random unit q and v of length in [1/4,4), relative to |v|", .cond = 16, .why = "v - (q.v)q is a 3-term dot product and an fma (4 roundings of |v|), -q*(q*v) two cross products (4 roundings), and |q|^2 - 1 up to 2 ulps: at most 10 ulps apart; factor 1.6 margin")
{ return s2c_unit_rows(res, prec, 12, s2c_tangent_draw); }

/*
 * A smooth curve on S²: q(t) = c(t)/‖c(t)‖ with c(t) = a + sin(t) b + t² d,
 * ‖a‖ = 2 and ‖b‖, ‖d‖ ≤ 1/2, so that ‖c‖ ≥ 1 for |t| ≤ 1. The coefficients
 * are doubles (exact at every precision); the callbacks evaluate at the
 * precision of their output, as cl_jacobian requires.
 */
typedef struct s2c_curve { double a[3], b[3], d[3]; } s2c_curve;

static int s2c_curve_q(mpfr_ptr q, mpfr_srcptr t, void *ctx)
{
    const s2c_curve *c = ctx;
    mpfr_t st, t2, u, n;
    mpfr_inits2(mpfr_get_prec(q), st, t2, u, n, (mpfr_ptr)0);
    mpfr_sin(st, t, MPFR_RNDN);
    mpfr_sqr(t2, t, MPFR_RNDN);
    mpfr_set_zero(n, 1);
    for (int i = 0; i < 3; i++) {
        mpfr_mul_d(q + i, st, c->b[i], MPFR_RNDN);
        mpfr_mul_d(u, t2, c->d[i], MPFR_RNDN);
        mpfr_add(q + i, q + i, u, MPFR_RNDN);
        mpfr_add_d(q + i, q + i, c->a[i], MPFR_RNDN);
        mpfr_fma(n, q + i, q + i, n, MPFR_RNDN);
    }
    mpfr_sqrt(n, n, MPFR_RNDN);
    for (int i = 0; i < 3; i++) mpfr_div(q + i, q + i, n, MPFR_RNDN);
    mpfr_clears(st, t2, u, n, (mpfr_ptr)0);
    return 0;
}

/* q̇(t), by cl_jacobian_mp of q(t) at the precision of the output. */
static int s2c_curve_qdot(mpfr_ptr qd, mpfr_srcptr t, void *ctx)
{
    return cl_jacobian_mp(qd, NULL, s2c_curve_q, ctx, t, 1, 3);
}

/* ω(t) = q × q̇ [S2 (5)], at the precision of the output. */
static int s2c_curve_omega(mpfr_ptr w, mpfr_srcptr t, void *ctx)
{
    mpfr_prec_t p = mpfr_get_prec(w);
    mpfr_ptr q = cl_rvec_new_mp(6, p), qd = q + 3;
    if (!q) return CL_ENOMEM;
    int st = s2c_curve_q(q, t, ctx);
    if (!st) st = s2c_curve_qdot(qd, t, ctx);
    if (!st) st = cl_s2_omega_from_qdot_mp(w, q, qd);
    cl_rvec_free_mp(q);
    return st;
}

/*
 * "It follows that ω̇ = S(q)q̈" [S2 (5)]: along curves on S², the derivative
 * of ω = q × q̇ (cl_jacobian of ω(t), itself built on cl_jacobian of q(t))
 * against q × q̈ (q̈ the derivative of q̇(t)), relative to max(1, ‖q̈‖).
 */
static int s2_kin_omega_dot_run(cl_check_result *res, cl_prec_t prec)
{
    cl_rng g;
    cl_rng_seed(&g, 55);
    s2c_curve c;
    RV_DECL(t, 1, prec); RV_DECL(q, 3, prec); RV_DECL(wd, 3, prec); RV_DECL(qdd, 3, prec);
    RV_DECL(rhs, 3, prec); RV_DECL(tmp, 3, prec);
    cl_check_begin(res);
    for (int k = 0; k < S2C_CURVES; k++) {
        for (int i = 0; i < 3; i++) {
            c.a[i] = cl_rng_normal(&g); c.b[i] = cl_rng_normal(&g); c.d[i] = cl_rng_normal(&g);
        }
        double na = sqrt(c.a[0] * c.a[0] + c.a[1] * c.a[1] + c.a[2] * c.a[2]);
        double nb = sqrt(c.b[0] * c.b[0] + c.b[1] * c.b[1] + c.b[2] * c.b[2]);
        double nd = sqrt(c.d[0] * c.d[0] + c.d[1] * c.d[1] + c.d[2] * c.d[2]);
        for (int i = 0; i < 3; i++) { c.a[i] *= 2 / na; c.b[i] *= 0.5 / nb; c.d[i] *= 0.5 / nd; }
        r_set_d(t, cl_rng_range(&g, -0.5, 0.5));
        int st = CL_FN(cl_jacobian)(wd, NULL, s2c_curve_omega, &c, t, 1, 3);
        if (!st) st = CL_FN(cl_jacobian)(qdd, NULL, s2c_curve_qdot, &c, t, 1, 3);
        if (st) return st;
        /* q(t) at the working precision. */
        mpfr_ptr qm = cl_rvec_new_mp(4, prec), tm = qm + 3;
        if (!qm) return CL_ENOMEM;
        mpfr_set_d(tm, r_get_d(t), MPFR_RNDN); /* t was drawn as a double: exact */
        s2c_curve_q(qm, tm, &c);
        for (int i = 0; i < 3; i++) s2c_from_mp(q + i, qm + i);
        cl_rvec_free_mp(qm);
        v3_cross(rhs, q, qdd);                        /* S(q) q̈ */
        double scale = s2c_log2norm(qdd);
        if (scale < 0) scale = 0;
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(wd, rhs, 3) - scale, "largest at draw %d", k);
        v3_dot(tmp, q, wd);                           /* ω̇ ⟂ q */
        cl_check_worst(res, r_log2abs(tmp) - scale, "largest at draw %d", k);
    }
    return CL_OK;
}

CL_CHECK(s2_kin_omega_dot, "s2.kin.omega_dot", .chapter = "S2 II", .tags = "[S2 (5)]", .what = "d/dt (q x qdot) against S(q) qddot, and q . d/dt omega = 0, along 6 random curves on S^2; derivatives by cl_jacobian at raised precision; relative to max(1, |qddot|)", .cond = 16, .why = "cl_jacobian returns each derivative within 2^-p of itself plus 2^-(p+8) of max(|derivative|, |value|) (deriv.c), q(t) is rounded once and q x qddot is one cross product (2 roundings): at most 4 ulps of max(1, |qddot|, |omega|) apart; factor 4 margin")
{
    return s2_kin_omega_dot_run(res, prec);
}

/* π_i = S(q_i)μ_i [S2 (14)], (3) by cl_s2_pi_from_mu against the hat matrix
 * times μ_i, for three spheres at once (so the index of each sphere enters). */
static int s2_kin_pi_from_mu_run(cl_check_result *res, cl_prec_t prec)
{
    cl_rng g;
    cl_rng_seed(&g, 36);
    RV_DECL(q, 9, prec); RV_DECL(mu, 9, prec); RV_DECL(pi, 9, prec); RV_DECL(S, 9, prec); RV_DECL(want, 3, prec);
    cl_check_begin(res);
    for (int k = 0; k < S2C_DRAWS / 3; k++) {
        for (int i = 0; i < 3; i++) {
            CL_FN(cl_v3_random_unit)(q + 3 * i, &g);
            s2c_draw_tangent(mu + 3 * i, q + 3 * i, &g);
        }
        CL_FN(cl_s2_pi_from_mu)(3, pi, q, mu);
        for (int i = 0; i < 3; i++) {
            CL_FN(cl_s2_hat)(S, q + 3 * i);
            m3_mul_v3(want, S, mu + 3 * i);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(pi + 3 * i, want, 3) - s2c_log2norm(mu + 3 * i),
                           "sphere %d at draw %d", i, k);
        }
    }
    return CL_OK;
}

CL_CHECK(s2_kin_pi_from_mu, "s2.kin.pi_from_mu", .chapter = "S2 IV", .tags = "[S2 (3)] [S2 (14)]", .what = "cl_s2_pi_from_mu (pi_i = q_i x mu_i, n = 3) against S(q_i) mu_i by the hat matrix at 500 random (q, mu), relative to |mu|", .cond = 4, .why = "two products and a subtraction per entry on each side")
{
    return s2_kin_pi_from_mu_run(res, prec);
}

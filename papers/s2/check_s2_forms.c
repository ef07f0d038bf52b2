/*
 * Oracle checks of chapters S2 III–V: the four forms of the dynamics on
 * (S²)ⁿ side by side, the chain pendulum's O(n) fields against the dense
 * reference, conservation laws along the fields, and the linearization at
 * the equilibria of the double spherical pendulum.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "check.h"
#include "s2_fixtures_impl.h"
#include "deriv.h"
#include "linalg.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"

static const size_t NS[] = {1, 2, 3, 5, 8};
#define NNS (sizeof NS / sizeof NS[0])
#define DRAWS 4

/* Pointwise four-form agreement (s2t_form_disagreement) with the dense fields. */
static double forms_dense(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    return s2t_form_disagreement(s->ws, NULL, x, sc);
}

/* The same with the chain's O(n) fields. */
static double forms_on(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    return s2t_form_disagreement(s->ws, s->ch, x, sc);
}

#define OVER_NS(seed, coupled, measure, label) \
    s2t_row_over_systems(res, prec, seed, coupled, 1, NS, NNS, DRAWS, measure, label)

CL_CHECK(s2_forms_chain, "s2.forms.chain.agree", .chapter = "S2 III-IV", .tags = "[S2 (3),(5),(13),(19),(24),(25),(27),(33),(34),(36),(37)]", .what = "chain pendulum (random m, l, tau, d; n = 1,2,3,5,8): (qdot, qddot) of the (q,qdot) field against the (q,omega), (q,mu), (q,pi) fields carried there and back (relative)", .cond = 4096, .why = "one dense 3n x 3n solve per field and per inverse transform (n <= 8): about (3n)^2 roundings amplified by the condition of the inertia (< 10^2 for these parameters)")
{ return OVER_NS(3030, 0, forms_dense, "chain"); }
CL_CHECK(s2_forms_coupled, "s2.forms.coupled.agree", .chapter = "S2 III-IV", .tags = "[S2 (13),(19),(27),(36)]", .what = "coupled spheres with configuration-dependent inertia (F_i != 0, damping): the four forms' fields carried to (qdot, qddot), n = 1,2,3,5,8 (relative)", .cond = 4096, .why = "as for the chain, plus the O(n^3) sums of the inertia gradients")
{ return OVER_NS(3031, 1, forms_dense, "coupled"); }
CL_CHECK(s2_chain_on, "s2.chain.on.agree", .chapter = "S2 V", .tags = "[S2 (40),(41),(42)]", .what = "the chain's O(n) fields in all four forms (tridiagonal tension solve) against the dense (q,qdot) field, n = 1,2,3,5,8 (relative)", .cond = 4096, .why = "a tridiagonal SPD solve (condition ~ mass ratios, < 10^2) against a dense LU")
{ return OVER_NS(3030, 0, forms_on, "chain"); }

/*
 * Conservation along the fields, pointwise: for every form, d/dt of q_i·q_i,
 * of q_i·v_i (v = q̇, ω, μ, π), and the power balance dE/dt = Σ f_i·q̇_i
 * (for the chain τ·ω₁ + d·ẋ_n, for the coupled system −δΣ‖q̇_i‖²), and for
 * the chain without control d/dt of the vertical angular momentum.
 * dE/dt = Σ_jk m_jk q̇_j·q̈_k + ½Σ ṁ_jk q̇_j·q̇_k + ∇U·q̇ from the carried-back q̈.
 */
static double power_and_tangency(const s2t_sys *sy, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    CL_FN(cl_chain) *ch = sy->ch;
    CL_FN(cl_s2_quad_ws) *ws = sy->ws;
    const CL_FN(cl_s2_quad) *sys = sy->quad;
    size_t n = sys->n;
    rptr y = sc, dy = sc + 6 * n, qdd = sc + 12 * n, m = sc + 15 * n, dU = m + n * n,
         f = dU + 3 * n, dm = f + 3 * n;
    R_DECL(s, p); R_DECL(t, p); R_DECL(pw, p); R_DECL(scale, p); R_DECL(md, p);
    rsrc q = x, v = x + 3 * n;
    double worst = -INFINITY;
    sys->inertia(sys->ctx, m, q);
    sys->potential(sys->ctx, NULL, dU, q);
    if (sys->force) sys->force(sys->ctx, f, q, v);
    else for (size_t k = 0; k < 3 * n; k++) r_set_zero(f + k);
    if (sys->inertia_grad) sys->inertia_grad(sys->ctx, dm, q);
    /* expected power Σ f_i·q̇_i, and the scale: Σ |terms| */
    r_set_zero(pw);
    for (size_t k = 0; k < 3 * n; k++) r_addmul(pw, f + k, v + k);
    for (int form = CL_S2_QDOT; form <= CL_S2_PI; form++) {
        CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y);
        if (s2t_rhs(ws, ch, form, dy, y)) return NAN;
        /* tangency: q_i·q̇_i and d/dt(q_i·y_i) = q̇_i·y_i + q_i·ẏ_i */
        for (size_t i = 0; i < n; i++) {
            v3_dot(s, y + 3 * i, dy + 3 * i);
            double e = r_log2abs(s);
            if (e > worst) worst = e;
            v3_dot(s, dy + 3 * i, y + 3 * (n + i));
            v3_dot(t, y + 3 * i, dy + 3 * (n + i));
            r_add(s, s, t);
            e = r_log2abs(s) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(dy, 6 * n));
            if (e > worst) worst = e;
        }
        /* power balance */
        if (CL_FN(cl_s2_quad_accel_from)(ws, form, qdd, y, dy)) return NAN;
        r_neg(s, pw);
        r_set_zero(scale);
        for (size_t j = 0; j < n; j++) {
            v3_dot(t, dU + 3 * j, v + 3 * j);
            r_add(s, s, t);
            for (size_t k = 0; k < n; k++) {
                v3_dot(t, v + 3 * j, qdd + 3 * k);
                r_addmul(s, m + j * n + k, t);
                r_abs(t, t);
                r_addmul(scale, m + j * n + k, t);
                if (sys->inertia_grad) {
                    s2t_mdot(md, dm, n, j, k, v, t);
                    v3_dot(t, v + 3 * j, v + 3 * k);
                    r_mul(t, t, md);
                    r_mul_2si(t, t, -1);
                    r_add(s, s, t);
                }
            }
        }
        double e = r_log2abs(s) - fmax(0, r_log2abs(scale));
        if (e > worst || isnan(e)) worst = isnan(e) ? INFINITY : e;
    }
    return worst;
}

CL_CHECK(s2_forms_power_chain, "s2.forms.chain.conservation", .chapter = "S2 III-IV", .tags = "[S2 (13),(19),(27),(36)]", .what = "along each form's field at random states of the controlled chain: d/dt |q_i|^2, d/dt(q_i.v_i) (v = qdot, omega, mu, pi), and dE/dt - sum f_i.qdot_i (relative to the sizes of the terms)", .cond = 4096, .why = "derivatives of invariants assembled from one field evaluation: the field's own rounding")
{ return OVER_NS(4040, 0, power_and_tangency, "chain"); }
CL_CHECK(s2_forms_power_coupled, "s2.forms.coupled.conservation", .chapter = "S2 III-IV", .tags = "[S2 (13),(19),(27),(36)]", .what = "as s2.forms.chain.conservation for the coupled system (dE/dt = -delta sum |qdot_i|^2, with the mdot terms of the configuration-dependent inertia)", .cond = 4096, .why = "derivatives of invariants assembled from one field evaluation")
{ return OVER_NS(4041, 1, power_and_tangency, "coupled"); }

/*
 * The chain's generalized forces against the physical power: Σ f_i·q̇_i must
 * equal τ·ω₁ + d·ẋ_n with ω₁ = q₁ × q̇₁ and ẋ_n = Σ l_i q̇_i (virtual work of
 * a torque at the base and a force at the tip). And without control, the
 * vertical angular momentum e₃·Σ m_i x_i × ẋ_i has derivative
 * e₃·Σ m_i x_i × ẍ_i = 0, with ẍ_i = Σ_{j≤i} l_j q̈_j from each form's O(n) field.
 */
CL_CHECK(s2_chain_lz, "s2.chain.forces.lz", .chapter = "S2 V", .tags = "[S2 (40)]", .what = "sum f_i.qdot_i against tau.omega_1 + d.xdot_n (the virtual work of base torque and tip force), and d/dt of the vertical angular momentum without control, from each form's O(n) field", .cond = 4096, .why = "sums of n products of field values, each with the field's rounding")
{
    cl_rng g;
    cl_rng_seed(&g, 5050);
    cl_check_begin(res);
    s2t_chain_par par;
    R_DECL(lz, prec); R_DECL(scale, prec); R_DECL(t, prec);
    RV_DECL(xp, 3, prec); RV_DECL(ap, 3, prec); RV_DECL(c, 3, prec); RV_DECL(vp, 3, prec);
    RV_DECL(tau, 3, prec); RV_DECL(dd, 3, prec); RV_DECL(li, 1, prec); RV_DECL(mi, 1, prec);
    for (size_t k = 0; k < NNS; k++) {
        size_t n = NS[k];
        for (int controlled = 0; controlled < 2; controlled++) {
            CL_FN(cl_chain) *ch = s2t_random_chain_par(n, prec, &g, controlled, &par);
            if (!ch) return CL_ENOMEM;
            CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
            rptr x = CL_FN(cl_rvec_new)(6 * n, prec), y = CL_FN(cl_rvec_new)(6 * n, prec),
                 dy = CL_FN(cl_rvec_new)(6 * n, prec), qdd = CL_FN(cl_rvec_new)(3 * n, prec),
                 f = CL_FN(cl_rvec_new)(3 * n, prec);
            for (int j = 0; j < 3; j++) { r_set_d(tau + j, par.tau[j]); r_set_d(dd + j, par.d[j]); }
            for (int d = 0; d < DRAWS; d++) {
                s2t_random_state(x, n, 1.0, &g);
                if (controlled) {
                    /* Σ f·q̇ against τ·(q₁ × q̇₁) + d·Σ l_i q̇_i */
                    CL_FN(cl_chain_forces)(ch, f, x);
                    r_set_zero(lz);
                    for (size_t j = 0; j < 3 * n; j++) r_addmul(lz, f + j, x + 3 * n + j);
                    v3_cross(c, x, x + 3 * n);
                    v3_dot(t, tau, c);
                    r_sub(lz, lz, t);
                    v3_zero(vp);
                    for (size_t i = 0; i < n; i++) { r_set_d(li, par.l[i]); v3_axpy(vp, li, x + 3 * (n + i)); }
                    v3_dot(t, dd, vp);
                    r_sub(lz, lz, t);
                    cl_check_worst(res, r_log2abs(lz), "worst: power of tau and d n=%zu draw %d", n, d);
                    continue;
                }
                for (int form = CL_S2_QDOT; form <= CL_S2_PI; form++) {
                    CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, x, form, y);
                    if (CL_FN(cl_chain_rhs)(ch, form, dy, y)) return CL_ESINGULAR;
                    CL_FN(cl_s2_quad_accel_from)(ws, form, qdd, y, dy);
                    v3_zero(xp); v3_zero(ap);
                    r_set_zero(lz); r_set_zero(scale);
                    for (size_t i = 0; i < n; i++) {
                        r_set_d(li, par.l[i]);
                        r_set_d(mi, par.m[i]);
                        v3_axpy(xp, li, x + 3 * i);
                        v3_axpy(ap, li, qdd + 3 * i);
                        v3_cross(c, xp, ap);
                        r_addmul(lz, mi, c + 2);
                        v3_norm(t, c);
                        r_addmul(scale, mi, t);
                    }
                    cl_check_worst(res, r_log2abs(lz) - fmax(0, r_log2abs(scale)), "worst: dLz/dt n=%zu draw %d", n, d);
                }
            }
            CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(y); CL_FN(cl_rvec_free)(dy);
            CL_FN(cl_rvec_free)(qdd); CL_FN(cl_rvec_free)(f);
            CL_FN(cl_chain_free)(ch);
        }
    }
    return CL_OK;
}

/* ------------------------------------------------------------ equilibria */

/* The field of a chain at x* + B s, for the Jacobian at raised precision. */
typedef struct eq_ctx {
    size_t n;
    int k;               /* 0 hanging, 1 inverted */
    cl_chain_mp *ch;     /* at the precision of the last call */
    mpfr_ptr x;          /* 6n at that precision */
    cl_prec_t p;
} eq_ctx;

static int eq_field(mpfr_ptr y, mpfr_srcptr s, void *vctx)
{
    eq_ctx *c = vctx;
    size_t n = c->n;
    cl_prec_t P = mpfr_get_prec(y);
    if (!c->ch || c->p != P) {
        cl_chain_free_mp(c->ch);
        cl_rvec_free_mp(c->x);
        c->ch = NULL;
        mpfr_ptr m = cl_rvec_new_mp(2 * n + 1, P);
        if (!m) return CL_ENOMEM;
        for (size_t i = 0; i < n; i++) {
            mpfr_set_si(m + i, 3, MPFR_RNDN);
            mpfr_div_si(m + i, m + i, 2, MPFR_RNDN); /* m = 3/2 */
            mpfr_set_d(m + n + i, 0.75, MPFR_RNDN);  /* l = 3/4 */
        }
        mpfr_set_str(m + 2 * n, "9.81", 10, MPFR_RNDN);
        int st = cl_chain_new_mp(&c->ch, n, m, m + n, m + 2 * n, P);
        cl_rvec_free_mp(m);
        if (st) return st;
        c->x = cl_rvec_new_mp(6 * n, P);
        if (!c->x) return CL_ENOMEM;
        c->p = P;
    }
    cl_chain_equilibrium_mp(c->ch, c->k, c->x);
    for (size_t i = 0; i < 2 * n; i++) /* q_i (i < n) and v_i (i ≥ n): x, y components */
        for (int a = 0; a < 2; a++) mpfr_add(c->x + 3 * i + a, c->x + 3 * i + a, s + 2 * i + a, MPFR_RNDN);
    return cl_chain_rhs_mp(c->ch, CL_S2_QDOT, y, c->x);
}

/*
 * Linearization of the double spherical pendulum (equal masses 3/2, lengths
 * 3/4, g = 9.81) at an equilibrium, on the tangent space of T(S²)² spanned by
 * the horizontal directions e₁, e₂ of each q_i and v_i (4n = 8 coordinates):
 * J = [[0, I], [A, 0]] with A having the double eigenvalues ∓(2 ± √2) g/l
 * (− hanging: oscillation; + inverted: real ± pairs of J). Checked as
 * J's blocks, (A ± a₁)(A ± a₂) = 0 and tr A = ∓2(a₁ + a₂), relative to g/l,
 * and the eigenvalues of J (cl_eig) against ±i·ω_k or ±ω_k, ω_k² = (2 ± √2) g/l,
 * each twice, relative to √(g/l).
 */
static int equilibrium(cl_check_result *res, cl_prec_t prec, int k)
{
    const size_t n = 2, N = 4 * n, M6 = 6 * n;
    eq_ctx c = {.n = n, .k = k};
    rptr s = CL_FN(cl_rvec_new)(N, prec), J = CL_FN(cl_rvec_new)(M6 * N, prec),
         A = CL_FN(cl_rvec_new)(2 * n * 2 * n, prec), P = CL_FN(cl_rvec_new)(2 * n * 2 * n, prec),
         Jr = CL_FN(cl_rvec_new)(N * N, prec), wr = CL_FN(cl_rvec_new)(N, prec), wi = CL_FN(cl_rvec_new)(N, prec);
    int st = CL_FN(cl_jacobian)(J, NULL, eq_field, &c, s, N, M6);
    cl_chain_free_mp(c.ch);
    cl_rvec_free_mp(c.x);
    cl_check_begin(res);
    if (!st) {
        R_DECL(gl, prec); R_DECL(a1, prec); R_DECL(a2, prec); R_DECL(t, prec); R_DECL(u, prec);
        CL_FN(cl_real_from_str)(gl, "9.81");
        r_set_q(t, 3, 4);
        r_div(gl, gl, t);             /* g/l */
        r_set_si(t, 2);
        r_sqrt(t, t);
        r_add_si(a1, t, 2);           /* 2 + √2 */
        r_si_sub(a2, 2, t);           /* 2 − √2 */
        r_mul(a1, a1, gl);
        r_mul(a2, a2, gl);
        if (k == 0) { r_neg(a1, a1); r_neg(a2, a2); } /* eigenvalues of A */
        /* reduced row r ↦ ambient row: q_i (r < 2n) or v_i, x/y component */
        size_t rowmap[8];
        for (size_t r = 0; r < N; r++) rowmap[r] = 3 * (r / 2) + r % 2;
        double worst = -INFINITY;
        for (size_t r = 0; r < N; r++)
            for (size_t cc = 0; cc < N; cc++) {
                rsrc e = J + rowmap[r] * N + cc;
                if (r < 2 * n) { /* [0, I] */
                    r_set(t, e);
                    if (cc == r + 2 * n) r_add_si(t, t, -1);
                    worst = fmax(worst, r_log2abs(t));
                } else if (cc >= 2 * n) { /* ∂q̈/∂v = 0 at v = 0 */
                    worst = fmax(worst, r_log2abs(e) - r_log2abs(gl));
                } else {
                    r_set(A + (r - 2 * n) * 2 * n + cc, e);
                }
            }
        /* (A − a1)(A − a2) and trace */
        size_t m = 2 * n;
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++) {
                r_set_zero(P + i * m + j);
                for (size_t l = 0; l < m; l++) {
                    r_set(t, A + i * m + l);
                    if (l == i) r_sub(t, t, a1);
                    r_set(u, A + l * m + j);
                    if (l == j) r_sub(u, u, a2);
                    r_addmul(P + i * m + j, t, u);
                }
                worst = fmax(worst, r_log2abs(P + i * m + j) - 2 * r_log2abs(gl));
            }
        r_set_zero(t);
        for (size_t i = 0; i < m; i++) r_add(t, t, A + i * m + i);
        r_add(u, a1, a2);
        r_mul_si(u, u, 2);
        r_sub(t, t, u);
        worst = fmax(worst, r_log2abs(t) - r_log2abs(gl));
        /* The spectrum of J on the tangent space (src/linalg): ±i·ω_k (hanging)
           or ±ω_k (inverted), ω_k² = (2 ± √2) g/l, each twice; greedy matching. */
        for (size_t r = 0; r < N; r++)
            for (size_t cc = 0; cc < N; cc++) r_set(Jr + r * N + cc, J + rowmap[r] * N + cc);
        st = CL_FN(cl_eig)(wr, wi, Jr, (int)N);
        if (!st) {
            int used[8] = {0};
            for (size_t j = 0; j < N; j++) {
                /* expected value j: root of a1 (j < 4) or a2, sign ±, twice */
                r_abs(t, j < 4 ? a1 : a2);
                r_sqrt(t, t);
                if ((j / 2) % 2) r_neg(t, t);
                int best = -1;
                double bestd = INFINITY;
                for (size_t kk = 0; kk < N; kk++) {
                    if (used[kk]) continue;
                    /* λ − e: e = t (inverted, real) or i·t (hanging) */
                    if (k == 1) { r_sub(u, wr + kk, t); r_hypot(u, u, wi + kk); }
                    else { r_sub(u, wi + kk, t); r_hypot(u, u, wr + kk); }
                    double dd = r_log2abs(u);
                    if (best < 0 || dd < bestd) { best = (int)kk; bestd = dd; }
                }
                used[best] = 1;
                worst = fmax(worst, bestd - 0.5 * r_log2abs(gl));
            }
        }
        cl_check_worst(res, worst, "eigenvalues of J: %.10g%+.10gi, %.10g%+.10gi, ... (g/l = %.6g)",
                       r_get_d(wr), r_get_d(wi), r_get_d(wr + 2), r_get_d(wi + 2), r_get_d(gl));
    }
    CL_FN(cl_rvec_free)(s); CL_FN(cl_rvec_free)(J); CL_FN(cl_rvec_free)(A); CL_FN(cl_rvec_free)(P);
    CL_FN(cl_rvec_free)(Jr); CL_FN(cl_rvec_free)(wr); CL_FN(cl_rvec_free)(wi);
    return st;
}

CL_CHECK(s2_chain_hanging, "s2.chain.hanging", .chapter = "S2 V", .tags = "[S2 (13),(40)]", .what = "double spherical pendulum (m = 3/2, l = 3/4, g = 9.81), linearized at q_i = -e3 on the tangent space of T(S^2)^2: J = [[0,I],[A,0]], A has the double eigenvalues -(2 +- sqrt 2) g/l, and the eigenvalues of J are +-i omega_k, omega_k^2 = (2 +- sqrt 2) g/l, each twice", .cond = 1024, .why = "Jacobian accurate to the working precision (src/deriv), then 4x4 products of entries ~ g/l; the double eigenvalues are semisimple (x and y modes), so cl_eig is accurate to ~n 2^(1-p) |J|")
{ return equilibrium(res, prec, 0); }
CL_CHECK(s2_chain_inverted, "s2.chain.inverted", .chapter = "S2 V", .tags = "[S2 (13),(40)]", .what = "as s2.chain.hanging at q_i = +e3: A has the double eigenvalues +(2 +- sqrt 2) g/l, J the real pairs +-omega_k, each twice", .cond = 1024, .why = "Jacobian accurate to the working precision (src/deriv), then 4x4 products of entries ~ g/l; the double eigenvalues are semisimple (x and y modes), so cl_eig is accurate to ~n 2^(1-p) |J|")
{ return equilibrium(res, prec, 1); }

/* ----------------------------------------------- configuration-dependent */

/* m(q) of an MPFR coupled system at the precision of y (its parameters are exact constants). */
static int coupled_m_field(mpfr_ptr y, mpfr_srcptr q, void *ctx)
{
    const cl_s2_quad_mp *sys = ctx;
    return sys->inertia(sys->ctx, y, q);
}

/* Parameters of the fixed coupled system of the gradient check. */
static void coupled_params(size_t n, double *a, double *k)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = (double)n + 0.25 * (double)i + 0.125;
        k[i] = 0.5 - 0.375 * (double)i;
    }
}

/*
 * The hand-derived ∂m_jk/∂q_i of the coupled system (s2_coupled.c) against
 * the Jacobian of m(q) at raised precision (src/deriv), and the hand-derived
 * F_i against the generic assembly of [S2 (13)], at random states, n = 1..5.
 */
CL_CHECK(s2_coupled_grad, "s2.coupled.gradient", .chapter = "S2 III.A", .tags = "[S2 (12),(13)]", .what = "hand-derived dm_jk/dq_i of the coupled system against the Jacobian of m(q) at raised precision, and the hand-derived F_i against the generic F_i of (13)", .cond = 64, .why = "entries O(1) from a few products; the Jacobian is accurate to the working precision")
{
    cl_rng g;
    cl_rng_seed(&g, 6060);
    cl_check_begin(res);
    double ad[8], kd[8];
    for (size_t n = 1; n <= 5; n++) {
        coupled_params(n, ad, kd);
        rptr par = CL_FN(cl_rvec_new)(2 * n + 4, prec);
        mpfr_ptr parm = cl_rvec_new_mp(2 * n + 4, prec);
        for (size_t i = 0; i < n; i++) {
            r_set_d(par + i, ad[i]); r_set_d(par + n + i, kd[i]);
            mpfr_set_d(parm + i, ad[i], MPFR_RNDN); mpfr_set_d(parm + n + i, kd[i], MPFR_RNDN);
        }
        r_set_q(par + 2 * n, 7, 10); r_set_q(par + 2 * n + 1, 1, 2);
        r_set_q(par + 2 * n + 2, 3, 10); r_set_zero(par + 2 * n + 3);
        mpfr_set_si(parm + 2 * n, 7, MPFR_RNDN); mpfr_div_si(parm + 2 * n, parm + 2 * n, 10, MPFR_RNDN);
        mpfr_set_si(parm + 2 * n + 1, 1, MPFR_RNDN); mpfr_div_si(parm + 2 * n + 1, parm + 2 * n + 1, 2, MPFR_RNDN);
        mpfr_set_si(parm + 2 * n + 2, 3, MPFR_RNDN); mpfr_div_si(parm + 2 * n + 2, parm + 2 * n + 2, 10, MPFR_RNDN);
        mpfr_set_zero(parm + 2 * n + 3, 1);
        CL_FN(cl_s2_coupled) *cp = NULL;
        cl_s2_coupled_mp *cpm = NULL;
        int st = CL_FN(cl_s2_coupled_new)(&cp, n, par, par + 2 * n, par + 2 * n + 1, par + n,
                                          par + 2 * n + 2, par + 2 * n + 3, prec);
        if (!st) st = cl_s2_coupled_new_mp(&cpm, n, parm, parm + 2 * n, parm + 2 * n + 1, parm + n,
                                           parm + 2 * n + 2, parm + 2 * n + 3, prec);
        rptr x = CL_FN(cl_rvec_new)(6 * n, prec), dm = CL_FN(cl_rvec_new)(3 * n * n * n, prec),
             J = CL_FN(cl_rvec_new)(n * n * 3 * n, prec), F1 = CL_FN(cl_rvec_new)(3 * n, prec),
             F2 = CL_FN(cl_rvec_new)(3 * n, prec);
        const CL_FN(cl_s2_quad) *sys = st ? NULL : CL_FN(cl_s2_coupled_quad)(cp);
        for (int d = 0; !st && d < DRAWS; d++) {
            s2t_random_state(x, n, 1.0, &g);
            sys->inertia_grad(sys->ctx, dm, x);
            st = CL_FN(cl_jacobian)(J, NULL, coupled_m_field, (void *)cl_s2_coupled_quad_mp(cpm), x, 3 * n, n * n);
            if (st) break;
            for (size_t jk = 0; jk < n * n; jk++)
                for (size_t i = 0; i < n; i++)
                    for (int c = 0; c < 3; c++) {
                        double e = CL_FN(cl_rvec_log2_maxdiff)(dm + (jk * n + i) * 3 + c, J + jk * 3 * n + 3 * i + c, 1);
                        cl_check_worst(res, e, "worst: dm/dq n=%zu draw %d", n, d);
                    }
            CL_FN(cl_s2_quad_F_qdot)(CL_FN(cl_s2_coupled_ws)(cp), F1, x, x + 3 * n);
            CL_FN(cl_s2_coupled_F_hand)(cp, F2, x, x + 3 * n);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(F1, F2, 3 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(F2, 3 * n)),
                           "worst: F generic vs hand n=%zu draw %d", n, d);
        }
        CL_FN(cl_rvec_free)(x); CL_FN(cl_rvec_free)(dm); CL_FN(cl_rvec_free)(J);
        CL_FN(cl_rvec_free)(F1); CL_FN(cl_rvec_free)(F2); CL_FN(cl_rvec_free)(par);
        cl_rvec_free_mp(parm);
        CL_FN(cl_s2_coupled_free)(cp);
        cl_s2_coupled_free_mp(cpm);
        if (st) return st;
    }
    return CL_OK;
}

/* ------------------------------------------------------ chain closed forms */

/*
 * The kinetic energy [S2 (38)] as corrected (one factor M_ij l_i l_j) against
 * ½ Σ m_i ‖ẋ_i‖² (energy minus [S2 (39)]), relative, n = 1..8.
 */
static double kinetic_gap(const s2t_sys *s, rsrc x, rptr sc, cl_prec_t p, const char **which)
{
    size_t n = s->quad->n;
    rptr w = sc, T = sc + 3 * n, U = T + 1, inv = U + 1;
    CL_FN(cl_s2n_omega_from_qdot)(n, w, x, x + 3 * n);
    CL_FN(cl_chain_kinetic_omega)(s->ch, T, x, w);
    CL_FN(cl_chain_invariants_qdot)(s->ch, inv, x, x + 3 * n);
    CL_FN(cl_chain_potential)(s->ch, U, x);
    r_sub(inv, inv, U);
    r_sub(U, inv, T);
    return r_log2abs(U) - r_log2abs(T);
}

CL_CHECK(s2_chain_kinetic, "s2.chain.kinetic", .chapter = "S2 V", .tags = "[S2 (38)]", .what = "kinetic energy (38) with a single factor M_ij l_i l_j against 1/2 sum m_i |xdot_i|^2 (relative)", .cond = 256, .why = "two sums of n^2 and n terms of the same sign-indefinite products")
{ return s2t_row_over_systems(res, prec, 7070, 0, 0, NS, NNS, DRAWS, kinetic_gap, "T"); }

/*
 * The single spherical pendulum in two angles against the global chain with
 * n = 1, at random states away from the poles: q̈ from the angle equations,
 * q̈ = q_θθ̈ + q_φφ̈ + q_θθθ̇² + 2q_θφθ̇φ̇ + q_φφφ̇², against the (q, q̇) field;
 * and the round trip angles → (q, q̇) → angles. Relative to max(1, |q̈|).
 */
CL_CHECK(s2_sph_angles, "s2.chain.spherical.angles", .chapter = "S2 V", .tags = "[S2 (13)]", .what = "spherical pendulum in (theta, phi) against the global (q,qdot) field for n = 1 at 50 states with 0.2 < theta < 2.9, and the round trip angles -> (q,qdot) -> angles", .cond = 256, .why = "cot(theta) < 5 and 1/sin(theta) < 5 amplify a few roundings")
{
    cl_rng g;
    cl_rng_seed(&g, 8080);
    cl_check_begin(res);
    RV_DECL(ang, 4, prec); RV_DECL(ang2, 4, prec); RV_DECL(dang, 4, prec);
    RV_DECL(x, 6, prec); RV_DECL(dx, 6, prec); RV_DECL(qdd, 3, prec);
    RV_DECL(m, 1, prec); RV_DECL(l, 1, prec); RV_DECL(grav, 1, prec); RV_DECL(gl, 1, prec);
    r_set_q(m, 5, 4);
    r_set_q(l, 7, 8);
    CL_FN(cl_real_from_str)(grav, "9.81");
    r_div(gl, grav, l);
    CL_FN(cl_chain) *ch = NULL;
    int s = CL_FN(cl_chain_new)(&ch, 1, m, l, grav, prec);
    if (s) return s;
    for (int d = 0; d < 50; d++) {
        r_set_d(ang, cl_rng_range(&g, 0.2, 2.9));
        r_set_d(ang + 1, cl_rng_range(&g, -3, 3));
        r_set_d(ang + 2, cl_rng_range(&g, -2, 2));
        r_set_d(ang + 3, cl_rng_range(&g, -2, 2));
        CL_FN(cl_sph_state_from_angles)(x, ang);
        CL_FN(cl_chain_rhs)(ch, CL_S2_QDOT, dx, x);
        CL_FN(cl_sph_rhs_angles)(dang, ang, gl);
        CL_FN(cl_sph_accel_from_angles)(qdd, ang, dang);
        double sc = fmax(0, CL_FN(cl_rvec_log2_maxabs)(dx + 3, 3));
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(qdd, dx + 3, 3) - sc, "worst: qddot from angles n=1 draw %d", d);
        CL_FN(cl_sph_angles_from_state)(ang2, x);
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(ang, ang2, 4) - 2, "worst: angle round trip n=1 draw %d", d);
    }
    CL_FN(cl_chain_free)(ch);
    return CL_OK;
}


/* ---------------------------------------------- coupled system closed forms */

/*
 * The coupled system's inertia, potential, its gradient and the damping
 * force against the formulas of its chapter page (s2_coupled.c):
 * m_ii = a_i + b (e3.q_i)², m_ij = c q_i.q_j, U = Σ k_i e3.q_i + κ Σ_{i<j} q_i.q_j,
 * ∂U/∂q_i = k_i e3 + κ Σ_{j≠i} q_j, f_i = −δ q̇_i. The forms and the
 * conservation rows compare the system with itself, so a wrong constant in
 * these (the same in every form) shows only here.
 */
CL_CHECK(s2_coupled_closed, "s2.coupled.closed_forms", .chapter = "S2 III.A", .tags = "[S2 (12)]", .what = "coupled spheres: m(q), U, dU/dq and the damping force against the chapter's formulas (a_i + b (e3.q_i)^2, c q_i.q_j, sum k_i e3.q_i + kappa sum q_i.q_j, -delta qdot), n = 1..4, 20 random states (relative)", .cond = 32, .why = "each side a few products and sums of O(n) terms")
{
    cl_rng g;
    cl_rng_seed(&g, 6161);
    cl_check_begin(res);
    int st = CL_OK;
    RV_DECL(a, 4, prec); RV_DECL(k, 4, prec);
    RV_DECL(x, 24, prec); RV_DECL(m, 16, prec); RV_DECL(mw, 16, prec); RV_DECL(dU, 12, prec);
    RV_DECL(dUw, 12, prec); RV_DECL(f, 12, prec); RV_DECL(fw, 12, prec);
    R_DECL(U, prec); R_DECL(Uw, prec); R_DECL(t, prec);
    for (size_t n = 1; n <= 4 && !st; n++) {
        /* b = 7/10, c = 1/2, κ = 3/10, δ = 1/4: the fixture's constants */
        CL_FN(cl_s2_coupled) *cp = s2t_random_coupled_par(n, prec, &g, 1, a, k);
        if (!cp) return CL_ENOMEM;
        const CL_FN(cl_s2_quad) *sys = CL_FN(cl_s2_coupled_quad)(cp);
        for (int d = 0; d < DRAWS && !st; d++) {
            s2t_random_state(x, n, 1.0, &g);
            rsrc q = x, qd = x + 3 * n;
            if ((st = sys->inertia(sys->ctx, m, q)) || (st = sys->potential(sys->ctx, U, dU, q)) ||
                (st = sys->force(sys->ctx, f, q, qd)))
                break;
            r_set_zero(Uw);
            for (size_t i = 0; i < n; i++) {
                r_addmul(Uw, k + i, q + 3 * i + 2);
                r_set_zero(dUw + 3 * i); r_set_zero(dUw + 3 * i + 1); r_set(dUw + 3 * i + 2, k + i);
                for (int c = 0; c < 3; c++) {
                    r_mul_2si(fw + 3 * i + c, qd + 3 * i + c, -2); /* δ = 1/4 */
                    r_neg(fw + 3 * i + c, fw + 3 * i + c);
                }
                for (size_t j = 0; j < n; j++) {
                    rptr e = mw + i * n + j;
                    if (i == j) {
                        r_sqr(e, q + 3 * i + 2);
                        r_mul_si(e, e, 7);
                        r_div_si(e, e, 10); /* b = 7/10 */
                        r_add(e, e, a + i);
                    } else {
                        v3_dot(e, q + 3 * i, q + 3 * j);
                        r_mul_2si(e, e, -1); /* c = 1/2 */
                        r_set_q(t, 3, 10); /* κ = 3/10 */
                        for (int c = 0; c < 3; c++) r_addmul(dUw + 3 * i + c, t, q + 3 * j + c);
                        if (j > i) {
                            v3_dot(t, q + 3 * i, q + 3 * j);
                            r_mul_si(t, t, 3);
                            r_div_si(t, t, 10);
                            r_add(Uw, Uw, t);
                        }
                    }
                }
            }
            double su = r_log2abs(Uw);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(m, mw, n * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(mw, n * n)), "m, n = %zu draw %d", n, d);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(U, Uw, 1) - fmax(0, su), "U, n = %zu draw %d", n, d);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(dU, dUw, 3 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(dUw, 3 * n)), "dU, n = %zu draw %d", n, d);
            cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(f, fw, 3 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(fw, 3 * n)), "force, n = %zu draw %d", n, d);
        }
        CL_FN(cl_s2_coupled_free)(cp);
    }
    return st;
}

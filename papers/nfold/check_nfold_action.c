/*
 * Checks of the action of SE(3)ᴺ on (TS²)ᴺ in chapter NFOLD: the group law
 * of ψ, its generator Ψ_* as the derivative of ψ, and the field
 * cl_nfold_field() (the one the classical integrators and the command use)
 * against the chain's (q, ω) field [S2 (40)].
 */
#include <math.h>
#include "check.h"
#include "r3.h"
#include "lie.h"
#include "nfold.h"
#include "nfold_fixtures_impl.h"

#define NLINKS 3
#define DRAWS 20

/* N random group elements exp(ξ_i), ξ_i with entries uniform in [−2, 2]. */
static int random_group(rptr G, size_t n, cl_rng *g)
{
    RV_DECL(xi, 6, r_prec(G));
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 6; k++) r_set_d(xi + k, cl_rng_range(g, -2, 2));
        int st = CL_FN(cl_se3_exp)(G + 12 * i, xi);
        if (st) return st;
    }
    return CL_OK;
}

/*
 * An identity of the action at DRAWS random draws, N = NLINKS: \p draw
 * draws its arguments (a random state among them) with \p g into the
 * workspace w (\p nw numbers after the two sides) and computes the two sides
 * a and b (6N each); the largest |a − b| relative to max(1, max|a|) is recorded.
 */
static int action_rows(cl_check_result *res, cl_prec_t prec, uint64_t seed, size_t nw,
                       int (*draw)(rptr a, rptr b, rptr w, size_t n, cl_rng *g))
{
    const size_t n = NLINKS;
    cl_rng g;
    cl_rng_seed(&g, seed);
    rptr a = CL_FN(cl_rvec_new)(12 * n + nw, prec);
    if (!a) return CL_ENOMEM;
    rptr b = a + 6 * n;
    int st = CL_OK;
    cl_check_begin(res);
    for (int k = 0; k < DRAWS && !(st = draw(a, b, b + 6 * n, n, &g)); k++)
        cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(a, b, 6 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(a, 6 * n)),
                       "draw %d", k);
    CL_FN(cl_rvec_free)(a);
    return st;
}

/* (6): a = ψ(g₁g₂, m), b = ψ(g₁, ψ(g₂, m)), with w = g₁, g₂, g₁g₂, m. */
static int law_draw(rptr a, rptr b, rptr w, size_t n, cl_rng *g)
{
    rptr G1 = w, G2 = G1 + 12 * n, G12 = G2 + 12 * n, y = G12 + 12 * n;
    int st = random_group(G1, n, g);
    if (!st) st = random_group(G2, n, g);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        rsrc B = G1 + 12 * i, A = G2 + 12 * i;
        rptr P = G12 + 12 * i;
        m3_mul(P, B, A);
        m3_mul_v3(P + 9, B, A + 9);
        v3_add(P + 9, P + 9, B + 9);
    }
    nfold_random_state(y, n, g, 1.5);
    CL_FN(cl_nfold_act)(a, G2, y, n);
    CL_FN(cl_nfold_act)(b, G1, a, n);
    CL_FN(cl_nfold_act)(a, G12, y, n);
    return CL_OK;
}

/*
 * ψ(g₁, ψ(g₂, m)) against ψ(g₁g₂, m), the product (B, b)(A, a) = (BA, Ba + b)
 * formed here, at 20 random pairs of SE(3)³ and random states (relative to
 * the largest component).
 */
CL_CHECK(nfold_action_law, "nfold.action.law", .chapter = "NFOLD", .tags = "[NFOLD (6)]", .what = "psi(g1, psi(g2, m)) against psi(g1 g2, m) for psi((A, a), (q, omega)) = (A q, A omega + a^ A q), 20 random pairs in SE(3)^3 and states (relative)", .cond = 64, .why = "two actions of 3x3 products with |a| up to 4 against one action of a product: a dozen roundings of terms up to 8 relative to components of order 5")
{ return action_rows(res, prec, 7171, 3 * 12 * NLINKS + 6 * NLINKS, law_draw); }

/* a = Ψ_*(ξ)|_m, b = the exact derivative P′(0), with w = (I + εû, εv), ξ, m, P(2). */
static int generator_draw(rptr a, rptr b, rptr w, size_t n, cl_rng *g)
{
    rptr G = w, xi = G + 12 * n, y = xi + 6 * n, P1 = b, P2 = y + 6 * n;
    for (size_t i = 0; i < 6 * n; i++) r_set_d(xi + i, cl_rng_range(g, -2, 2));
    nfold_random_state(y, n, g, 1.5);
    for (int e = 1; e <= 2; e++) {
        for (size_t i = 0; i < n; i++) {
            rptr A = G + 12 * i;
            m3_hat(A, xi + 6 * i);
            for (int j = 0; j < 12; j++) r_mul_si(A + j, A + j, e);
            for (int j = 0; j < 3; j++) r_add_si(A + 4 * j, A + 4 * j, 1);
            for (int j = 0; j < 3; j++) r_mul_si(A + 9 + j, xi + 6 * i + 3 + j, e);
        }
        CL_FN(cl_nfold_act)(e == 1 ? P1 : P2, G, y, n);
    }
    for (size_t i = 0; i < 6 * n; i++) {
        r_sub(P1 + i, P1 + i, y + i);
        r_sub(P2 + i, P2 + i, y + i);
        r_mul_2si(P1 + i, P1 + i, 1);
        r_mul_2si(P2 + i, P2 + i, -1);
        r_sub(P1 + i, P1 + i, P2 + i);
    }
    CL_FN(cl_nfold_generator)(a, xi, y, n);
    return CL_OK;
}

/*
 * Ψ_*(ξ)|_m against d/dε ψ((I + εû, εv), m) at ε = 0, the derivative of
 * ψ(exp(εξ), m) (exp(εξ) = (I + εû, εv) + O(ε²)). ψ is a polynomial of
 * degree at most 2 in (A, a), so P(ε) = ψ((I + εû, εv), m) has degree ≤ 2
 * and P′(0) = 2(P(1) − P(0)) − (P(2) − P(0))/2 exactly: no step size, only
 * rounding. 20 random ξ ∈ se(3)³ and states (relative).
 */
CL_CHECK(nfold_action_generator, "nfold.action.generator", .chapter = "NFOLD", .tags = "[NFOLD (6)]", .what = "Psi_*(xi)|_m against the exact derivative at 0 of the quadratic eps -> psi((I + eps u^, eps v), m), 20 random xi in se(3)^3 and states (relative)", .cond = 256, .why = "psi at eps = 2 has terms up to 50 with components of order 1 wanted; differences of three actions, each a few roundings")
{ return action_rows(res, prec, 7272, 12 * NLINKS + 6 * NLINKS * 3, generator_draw); }

/*
 * cl_nfold_field() against cl_chain_rhs() in the (q, ω) form [S2 (40)]:
 * q̇_i = ω_i × q_i and ω̇_i, N = 1, 2, 3, 5, 8, 4 random states each
 * (relative to the largest component of the chain's field).
 */
CL_CHECK(nfold_field_chain, "nfold.field.chain", .chapter = "NFOLD", .tags = "[NFOLD (1), (8)] [S2 (40)]", .what = "cl_nfold_field (q-dot = omega x q, omega-dot = h) against the S2 V (q, omega) chain field, N = 1, 2, 3, 5, 8, 4 random states each (relative)", .cond = 512, .why = "the same O(N) tridiagonal solve on both sides, reached through f(m) and the generator: a few dozen roundings with growth of the random link directions")
{
    static const size_t NS[] = {1, 2, 3, 5, 8};
    cl_rng g;
    cl_rng_seed(&g, 7373);
    cl_check_begin(res);
    for (int c = 0; c < 5; c++) {
        size_t n = NS[c];
        CL_FN(cl_nfold) *s = nfold_make(n, prec, 0, "9.81");
        rptr y = s ? CL_FN(cl_rvec_new)(18 * n, prec) : NULL;
        if (!y) { CL_FN(cl_nfold_free)(s); return CL_ENOMEM; }
        rptr F = y + 6 * n, G = F + 6 * n;
        int st = CL_OK;
        for (int k = 0; k < 4 && !st; k++) {
            nfold_random_state(y, n, &g, 1.5);
            st = CL_FN(cl_nfold_field)(s, F, y);
            if (!st) st = CL_FN(cl_chain_rhs)(s->chain, CL_S2_OMEGA, G, y);
            if (!st)
                cl_check_worst(res, CL_FN(cl_rvec_log2_maxdiff)(F, G, 6 * n) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(G, 6 * n)),
                               "N = %zu, draw %d", n, k);
        }
        CL_FN(cl_rvec_free)(y);
        CL_FN(cl_nfold_free)(s);
        if (st) return st;
    }
    return CL_OK;
}

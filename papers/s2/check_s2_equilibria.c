/*
 * Oracle checks of the equilibria of the systems on (S²)ⁿ through the
 * generic linearization of the check kit (cl_system_linearize(): the
 * descriptor's equilibrium and field, the Jacobian on the tangent space of
 * T(S²)ⁿ by src/deriv, its eigenvalues by src/linalg) against closed forms:
 *  - the chain of two links, hanging: the small oscillations of the double
 *    pendulum, ω² the roots of det(K − ω²M) = 0 with
 *    M = [(m₁+m₂)l₁², m₂l₁l₂; m₂l₁l₂, m₂l₂²], K = g·diag((m₁+m₂)l₁, m₂l₂):
 *    \f[ m_1 l_1 l_2\,\omega^4 - (m_1+m_2)\,g\,(l_1+l_2)\,\omega^2 + (m_1+m_2)\,g^2 = 0, \f]
 *    each frequency twice (two planes of oscillation), eigenvalues ±iω;
 *    for m₁ = m₂, l₁ = l₂ = l: ω² = (2 ∓ √2) g/l. Inverted: g → −g, so the
 *    eigenvalues are ±ω, real;
 *  - the spherical pendulum: ±i√(g/l) (hanging) and ±√(g/l) (inverted), twice.
 * The MPFR body runs at every rung (the systems of the command line are
 * MPFR objects); the 53-bit rung runs it at 53 bits.
 */
#include <math.h>
#include <stdlib.h>
#include "chartless_base.h"
#include "check.h"
#include "system.h"

/* The 4n eigenvalues of an equilibrium of the chain (or n = 1) from the n squared frequencies w2:
 * ±i√w2 (hanging) or ±√w2 (inverted), each twice. */
static void s2e_expected(mpfr_ptr cr, mpfr_ptr ci, mpfr_srcptr w2, int n, int inverted)
{
    for (int j = 0; j < n; j++)
        for (int r = 0; r < 4; r++) {
            mpfr_ptr a = inverted ? cr + 4 * j + r : ci + 4 * j + r, b = inverted ? ci + 4 * j + r : cr + 4 * j + r;
            mpfr_sqrt(a, w2 + j, MPFR_RNDN);
            if (r & 1) mpfr_neg(a, a, MPFR_RNDN);
            mpfr_set_zero(b, 1);
        }
}

/*
 * Both equilibria of system \p sys (form qdot) with the options keys/vals against the n squared
 * frequencies that \p closed computes at prec: the worst match into res.
 */
static int s2e_row(cl_check_result *res, cl_prec_t prec, const char *sys, int nopt, const char *const *keys,
                   const char *const *vals, int n, void (*closed)(mpfr_ptr w2, cl_prec_t prec))
{
    int N = 6 * n, st = CL_OK;
    mpfr_ptr v = cl_rvec_new_mp(4 * (size_t)N + (size_t)n, prec);
    if (!v) return CL_ENOMEM;
    mpfr_ptr wr = v, wi = v + N, cr = v + 2 * N, ci = v + 3 * N, w2 = v + 4 * N;
    closed(w2, prec);
    cl_check_begin(res);
    for (int k = 0; k < 2 && !st; k++) {
        int d = 0;
        st = cl_system_linearize_named(sys, "qdot", nopt, keys, vals, prec, k, wr, wi, &d);
        if (st) break;
        s2e_expected(cr, ci, w2, n, k);
        cl_check_worst(res, cl_eig_match_log2(wr, wi, d, cr, ci, 4 * n), "%s %s", sys, k ? "inverted" : "hanging");
    }
    cl_rvec_free_mp(v);
    return st;
}

/* ω² of the double pendulum: the roots of m₁l₁l₂ x² − (m₁+m₂) g (l₁+l₂) x + (m₁+m₂) g² = 0. */
static void s2e_double_pendulum(mpfr_ptr w2, const char *m1s, const char *m2s, const char *l1s, const char *l2s,
                                const char *gs, cl_prec_t prec)
{
    mpfr_t m1, m2, l1, l2, g, a, b, c, s;
    mpfr_inits2(prec, m1, m2, l1, l2, g, a, b, c, s, (mpfr_ptr)0);
    mpfr_set_str(m1, m1s, 10, MPFR_RNDN);
    mpfr_set_str(m2, m2s, 10, MPFR_RNDN);
    mpfr_set_str(l1, l1s, 10, MPFR_RNDN);
    mpfr_set_str(l2, l2s, 10, MPFR_RNDN);
    mpfr_set_str(g, gs, 10, MPFR_RNDN);
    mpfr_mul(a, m1, l1, MPFR_RNDN);
    mpfr_mul(a, a, l2, MPFR_RNDN);           /* a = m1 l1 l2 */
    mpfr_add(s, m1, m2, MPFR_RNDN);
    mpfr_mul(s, s, g, MPFR_RNDN);            /* (m1 + m2) g */
    mpfr_add(b, l1, l2, MPFR_RNDN);
    mpfr_mul(b, b, s, MPFR_RNDN);            /* b = (m1 + m2) g (l1 + l2) */
    mpfr_mul(c, s, g, MPFR_RNDN);            /* c = (m1 + m2) g² */
    /* x = (b ∓ √(b² − 4ac)) / 2a; the smaller root as 2c / (b + √·) against cancellation */
    mpfr_mul(s, a, c, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 2, MPFR_RNDN);
    mpfr_fms(s, b, b, s, MPFR_RNDN);
    mpfr_sqrt(s, s, MPFR_RNDN);
    mpfr_add(s, b, s, MPFR_RNDN);
    mpfr_mul_2ui(w2, c, 1, MPFR_RNDN);
    mpfr_div(w2, w2, s, MPFR_RNDN);
    mpfr_div(w2 + 1, s, a, MPFR_RNDN);
    mpfr_div_2ui(w2 + 1, w2 + 1, 1, MPFR_RNDN);
    mpfr_clears(m1, m2, l1, l2, g, a, b, c, s, (mpfr_ptr)0);
}

/* (2 ∓ √2) g / l with l = 1, g = 9.81. */
static void s2e_equal(mpfr_ptr w2, cl_prec_t prec)
{
    mpfr_t g;
    mpfr_init2(g, prec);
    mpfr_set_str(g, "9.81", 10, MPFR_RNDN);
    mpfr_sqrt_ui(w2 + 1, 2, MPFR_RNDN);
    mpfr_ui_sub(w2, 2, w2 + 1, MPFR_RNDN);
    mpfr_add_ui(w2 + 1, w2 + 1, 2, MPFR_RNDN);
    mpfr_mul(w2, w2, g, MPFR_RNDN);
    mpfr_mul(w2 + 1, w2 + 1, g, MPFR_RNDN);
    mpfr_clear(g);
}

static void s2e_general(mpfr_ptr w2, cl_prec_t prec) { s2e_double_pendulum(w2, "1", "3", "0.7", "1.2", "9.81", prec); }

/* g/l with l = 0.8. */
static void s2e_spherical(mpfr_ptr w2, cl_prec_t prec)
{
    mpfr_t l;
    mpfr_init2(l, prec);
    mpfr_set_str(w2, "9.81", 10, MPFR_RNDN);
    mpfr_set_str(l, "0.8", 10, MPFR_RNDN);
    mpfr_div(w2, w2, l, MPFR_RNDN);
    mpfr_clear(l);
}

CL_CHECK(s2_equilibria_chain2, "s2.equilibria.chain2", .chapter = "S2 V", .tags = "[S2 V]",
         .what = "chain n = 2, m = l = 1: eigenvalues at the hanging and inverted states against +-i sqrt((2 -+ sqrt 2) g/l) and +-sqrt((2 -+ sqrt 2) g/l)",
         .cond = 64, .why = "an 8x8 Jacobian by Richardson extrapolation (2^-p relative), eigenvalues (double, semisimple) by hqr: measured 2^2.1 ulps")
{
    static const char *const keys[] = {"n", "g"}, *const vals[] = {"2", "9.81"};
    return s2e_row(res, prec, "chain", 2, keys, vals, 2, s2e_equal);
}

CL_CHECK(s2_equilibria_chain2_general, "s2.equilibria.chain2_general", .chapter = "S2 V", .tags = "[S2 V]",
         .what = "chain n = 2, m = (1, 3), l = (0.7, 1.2): eigenvalues at the hanging and inverted states against the roots of m1 l1 l2 w^4 - (m1+m2) g (l1+l2) w^2 + (m1+m2) g^2",
         .cond = 64, .why = "an 8x8 Jacobian by Richardson extrapolation (2^-p relative), eigenvalues (double, semisimple) by hqr: measured 2^2.1 ulps")
{
    static const char *const keys[] = {"n", "m", "l", "g"}, *const vals[] = {"2", "1,3", "0.7,1.2", "9.81"};
    return s2e_row(res, prec, "chain", 4, keys, vals, 2, s2e_general);
}

CL_CHECK(s2_equilibria_spherical, "s2.equilibria.spherical", .chapter = "S2 V", .tags = "[S2 V]",
         .what = "spherical pendulum l = 0.8 (form qdot): eigenvalues +-i sqrt(g/l) hanging, +-sqrt(g/l) inverted, each twice",
         .cond = 16, .why = "a 4x4 Jacobian by Richardson extrapolation (2^-p relative), eigenvalues (double, semisimple) by hqr")
{
    static const char *const keys[] = {"l", "g"}, *const vals[] = {"0.8", "9.81"};
    return s2e_row(res, prec, "spherical", 2, keys, vals, 1, s2e_spherical);
}

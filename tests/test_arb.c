/* The ball kind (_arb): the scalar layer encloses exact values, its
 * comparisons are three-way, and the linear algebra reports an unproven sign
 * as undecided instead of guessing. Compiled once, with -DCL_PREC=CL_ARB;
 * every assertion runs at each precision of TEST_PRECISIONS. */
#include "tap_real.h"
#include "linalg.h"
#include "energy_casimir.h"

/* 1 when the ball x contains the exact value w (an MPFR number) */
static int holds(rsrc x, mpfr_srcptr w) { return arb_contains_mpfr(x, w); }

/* radius of x relative to |x|, as log2 */
static double log2_relrad(rsrc x)
{
    return r_log2rad(x) - r_log2abs(x);
}

static void scalar_layer(cl_prec_t p)
{
    R_DECL(a, p); R_DECL(b, p); R_DECL(t, p);
    RV_DECL(v, 4, p);
    mpfr_t w;
    mpfr_init2(w, 4 * p);
    /* 1/3 and √2 enclosed, with radius within a few units of 2^-p */
    r_set_q(a, 1, 3);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    ok(holds(a, w) && log2_relrad(a) <= tol_log2(p, 2), "1/3 enclosed, relative radius 2^%.1f <= 2^(2-p) [arb, %ld bits]",
       log2_relrad(a), (long)p);
    r_set_si(t, 2);
    r_sqrt(b, t);
    mpfr_sqrt_ui(w, 2, MPFR_RNDN);
    ok(holds(b, w) && log2_relrad(b) <= tol_log2(p, 2), "sqrt 2 enclosed, relative radius 2^%.1f [arb, %ld bits]",
       log2_relrad(b), (long)p);
    /* a decimal that binary cannot hold: the ball contains the exact 0.1 */
    ok(CL_FN(cl_real_from_str)(t, " 0.1") == CL_OK, "0.1 read [arb, %ld bits]", (long)p);
    mpfr_set_str(w, "0.1", 10, MPFR_RNDN); /* at 4p bits: within 2^-4p of 0.1, inside a ball of radius ~2^-p */
    ok(holds(t, w) && r_log2rad(t) > -INFINITY, "0.1 read as a ball of non-zero radius around 0.1 [arb, %ld bits]", (long)p);
    ok(CL_FN(cl_real_from_str)(t, "1e") == CL_EPARSE && CL_FN(cl_real_from_str)(t, "inf") == CL_ENAN,
       "malformed and infinite input refused [arb, %ld bits]", (long)p);
    /* (√2)² − 2 is not exactly 0 but the ball contains 0: sign undecided */
    r_sqr(a, b);
    r_add_si(a, a, -2);
    ok(r_sgn3(a) == CL_UNDECIDED && r_sgn(a) == 0 && !r_is_zero(a), "sign of (sqrt 2)^2 - 2 undecided, r_sgn 0 [arb, %ld bits]",
       (long)p);
    r_set_si(t, 0);
    ok(r_cmp3(a, t) == CL_UNDECIDED && r_cmp(a, t) == 0, "(sqrt 2)^2 - 2 against 0: undecided [arb, %ld bits]", (long)p);
    ok(r_cmp3(t, t) == 0 && r_sgn3(t) == 0, "exact zero equals itself, sign 0 [arb, %ld bits]", (long)p);
    r_set_q(t, 1, 3);
    ok(r_cmp3(t, b) == -1 && r_cmp3(b, t) == 1, "1/3 < sqrt 2 proven [arb, %ld bits]", (long)p);
    /* pivoting order: by the lower bound of |x| */
    arb_set_d(v, 1.0);
    mag_set_d(arb_radref(v), 2.0); /* [1 ± 2]: |x| ≥ 0 */
    arb_set_d(v + 1, 0.5);
    mag_set_d(arb_radref(v + 1), 0.1); /* [0.5 ± 0.1]: |x| ≥ 0.4 */
    ok(r_cmpabs(v, v + 1) < 0 && r_cmpabs(v + 1, v) > 0, "r_cmpabs orders by the lower bound of |x| [arb, %ld bits]", (long)p);
    /* r_set_eps is 2^(1-p) */
    r_set_eps(t);
    ok(r_log2abs(t) == 1.0 - (double)p, "eps = 2^(1-p) [arb, %ld bits]", (long)p);
    /* long-lived vectors */
    rptr u = CL_FN(cl_rvec_new)(3, p);
    ok(u && r_is_zero(u) && r_is_zero(u + 2), "cl_rvec_new gives zeros [arb, %ld bits]", (long)p);
    r_set_q(u + 2, 2, 7); /* a midpoint of more than two limbs at high precision: freed by cl_rvec_free */
    CL_FN(cl_rvec_free)(u);
    mpfr_clear(w);
}

static void inertia(cl_prec_t p)
{
    RV_DECL(A, 9, p);
    R_DECL(t, p);
    int np, nn, nz;
    /* diag(2, −3, 1/3) shuffled by a 2×2 rotation-free block: [[2, 1, 0], [1, −3, 0], [0, 0, 1/3]];
       det of the leading block −7 < 0: one positive, one negative, then 1/3 > 0 */
    r_set_si(A, 2); r_set_si(A + 1, 1); r_set_si(A + 3, 1); r_set_si(A + 4, -3); r_set_q(A + 8, 1, 3);
    int st = CL_FN(cl_sym_inertia)(&np, &nn, &nz, A, 3, 1e-300);
    ok(st == CL_OK && np == 2 && nn == 1 && nz == 0, "inertia (2, 1, 0) proven [arb, %ld bits]", (long)p);
    /* a pivot whose ball contains 0: (√2)² − 2 on the diagonal after two proven positive pivots */
    for (int i = 0; i < 9; i++) r_set_zero(A + i);
    r_set_si(A, 5);
    r_set_si(A + 4, 1);
    r_set_si(t, 2); r_sqrt(t, t); r_sqr(t, t); r_add_si(A + 8, t, -2);
    st = CL_FN(cl_sym_inertia)(&np, &nn, &nz, A, 3, 1e-300);
    ok(st == CL_EUNDECIDED && np == 2 && nn == 0 && nz == 1,
       "a pivot [0 +/- eps] gives CL_EUNDECIDED, proven signs kept: (%d, %d, %d) [arb, %ld bits]", np, nn, nz, (long)p);
    /* the same in the Energy–Casimir procedure: undecided, not "not definite" */
    RV_DECL(DE, 3, p); RV_DECL(HC, 9, p); RV_DECL(c, 1, p); RV_DECL(DC, 3, p);
    cl_ec_report rep;
    st = CL_FN(cl_energy_casimir)(&rep, c, NULL, NULL, NULL, DE, DC, A, HC, 3, 0, 0);
    ok(st == CL_OK && rep.undecided >= 1 && rep.definite == 0 && cl_ec_verdict(&rep, 0) == CL_UNDECIDED,
       "Energy-Casimir: undecided (%d), verdict CL_UNDECIDED [arb, %ld bits]", rep.undecided, (long)p);
    /* a proven negative direction beside the undecided one: proven indefinite */
    r_set_si(A + 4, -1);
    st = CL_FN(cl_energy_casimir)(&rep, c, NULL, NULL, NULL, DE, DC, A, HC, 3, 0, 0);
    ok(st == CL_OK && rep.npos >= 1 && rep.nneg >= 1 && cl_ec_verdict(&rep, 0) == -1,
       "a positive and a negative pivot proven: not definite, whatever the undecided one [arb, %ld bits]", (long)p);
    /* diag(1, 1, 2^-40) with a zero tolerance of 2^30 units (τ ≈ 2^(32-p) > 2^-40 below 72 bits):
       the small pivot's sign is proven, so it counts as positive, and the form is proven definite */
    for (int i = 0; i < 9; i++) r_set_zero(A + i);
    r_set_si(A, 1);
    r_set_si(A + 4, 1);
    r_set_si(A + 8, 1);
    r_mul_2si(A + 8, A + 8, -40);
    st = CL_FN(cl_sym_inertia)(&np, &nn, &nz, A, 3, 0x1p30);
    ok(st == CL_OK && np == 3 && nn == 0 && nz == 0, "a proven positive pivot inside the zero tolerance counts as positive: (%d, %d, %d) [arb, %ld bits]",
       np, nn, nz, (long)p);
}

static void eigen(cl_prec_t p)
{
    RV_DECL(A, 9, p); RV_DECL(wr, 3, p); RV_DECL(wi, 3, p);
    mpfr_t w;
    mpfr_init2(w, 4 * p);
    /* rotation generator ⊕ 1/3: eigenvalues ±i and 1/3, simple */
    r_set_si(A + 1, 1); r_set_si(A + 3, -1); r_set_q(A + 8, 1, 3);
    int st = CL_FN(cl_eig)(wr, wi, A, 3);
    mpfr_set_ui(w, 1, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    int inside = st == CL_OK;
    for (int i = 0; i < 3 && inside; i++) {
        int third = arb_contains_mpfr(wr + i, w) && arb_contains_zero(wi + i);
        int pm_i = arb_contains_zero(wr + i) && (arb_contains_si(wi + i, 1) || arb_contains_si(wi + i, -1));
        inside = third || pm_i;
    }
    ok(inside, "eigenvalues +-i and 1/3 enclosed [arb, %ld bits]", (long)p);
    double worst = -INFINITY;
    for (int i = 0; i < 3; i++) worst = fmax(worst, fmax(r_log2rad(wr + i), r_log2rad(wi + i)));
    /* 4 units: Rump's enclosure of simple eigenvalues of an exact 3x3 (measured 2^-p) */
    ok(worst <= tol_log2(p, 4), "enclosure radii 2^%.1f <= 2^(3-p) [arb, %ld bits]", worst, (long)p);
    /* cl_sym2_eig: [[2, 1/3], [1/3, 2]] has eigenvalues 5/3 and 7/3 */
    RV_DECL(H2, 4, p); RV_DECL(e2, 2, p);
    r_set_si(H2, 2); r_set_q(H2 + 1, 1, 3); r_set_q(H2 + 2, 1, 3); r_set_si(H2 + 3, 2);
    CL_FN(cl_sym2_eig)(e2, H2);
    mpfr_set_ui(w, 5, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    int lo_in = arb_contains_mpfr(e2, w);
    mpfr_set_ui(w, 7, MPFR_RNDN);
    mpfr_div_ui(w, w, 3, MPFR_RNDN);
    ok(lo_in && arb_contains_mpfr(e2 + 1, w), "symmetric 2x2 eigenvalues 5/3, 7/3 enclosed [arb, %ld bits]", (long)p);
    /* a triple eigenvalue 0 beside ±1 (semisimple): one shared enclosure of 0, radius within 4 units */
    RV_DECL(B, 25, p); RV_DECL(br, 5, p); RV_DECL(bi, 5, p);
    r_set_si(B + 0 * 5 + 3, 1); r_set_si(B + 3 * 5 + 0, 1); /* [[0,1],[1,0]] on coordinates 0, 3: ±1 */
    st = CL_FN(cl_eig)(br, bi, B, 5);
    int zeros = 0, ones = 0;
    for (int i = 0; i < 5 && st == CL_OK; i++) {
        if (arb_contains_zero(br + i) && arb_contains_zero(bi + i) && r_log2rad(br + i) <= tol_log2(p, 4)) zeros++;
        if (arb_contains_si(br + i, 1) || arb_contains_si(br + i, -1)) ones++;
    }
    ok(st == CL_OK && zeros == 3 && ones == 2, "triple 0 and +-1 enclosed (st %d, %d zeros, %d ones) [arb, %ld bits]", st,
       zeros, ones, (long)p);
    mpfr_clear(w);
}

/* A double eigenvalue above 2^11 bits, where a rank tolerance of 2^(p/2) units no longer fits a
   double: [[2, 1, 0], [1, 2, 0], [0, 0, 1]] has eigenvalues 1, 1, 3. */
static void double_eigenvalue(cl_prec_t p)
{
    cl_arb_set_prec(p);
    RV_DECL(A, 9, p); RV_DECL(wr, 3, p); RV_DECL(wi, 3, p);
    r_set_si(A, 2); r_set_si(A + 1, 1); r_set_si(A + 3, 1); r_set_si(A + 4, 2); r_set_si(A + 8, 1);
    int st = CL_FN(cl_eig)(wr, wi, A, 3), ones = 0, threes = 0;
    for (int i = 0; i < 3 && st == CL_OK; i++) {
        ones += arb_contains_si(wr + i, 1) && arb_contains_zero(wi + i);
        threes += arb_contains_si(wr + i, 3) && arb_contains_zero(wi + i);
    }
    ok(st == CL_OK && ones == 2 && threes == 1, "double eigenvalue 1 and 3 enclosed (st %d) [arb, %ld bits]", st, (long)p);
}

int main(void)
{
    double_eigenvalue(2048);
    for (int k = 0; k < TEST_NPREC; k++) {
        cl_prec_t p = TEST_PRECISIONS[k];
        cl_arb_set_prec(p);
        ok(r_prec(NULL) == p && cl_arb_get_prec() == p, "working precision %ld set [arb]", (long)p);
        scalar_layer(p);
        inertia(p);
        eigen(p);
    }
    ok(cl_arb_set_prec(1) == CL_EPREC && cl_arb_set_prec(CL_PREC_MAX + 1L) == CL_EPREC, "precision out of range refused");
    cl_free_caches();
    return done_testing();
}

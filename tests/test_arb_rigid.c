/* Certified verdicts for the free rigid body's steady rotations on balls,
 * through the general procedures (src/energy_casimir, src/linalg, src/r3 in
 * their _arb instantiation): Π̇ = Π × J⁻¹Π with J = Q diag(1, 2, 7/2) Qᵀ,
 * Q = (1/3)[[2, −1, 2], [2, 2, −1], [−1, 2, 2]] (orthogonal, so the
 * principal axes are the columns of Q, not the coordinate axes), and the
 * steady rotation Π₀ = Q e_k about axis k.
 *  - Energy–Casimir with ℰ = ½ΠᵀJ⁻¹Π and C = |Π|² (DE = J⁻¹Π₀, DC = 2Π₀ᵀ,
 *    HE = J⁻¹, HC = 2I): c = −1/(2J_k), restricted eigenvalues
 *    1/J_i − 1/J_k (i ≠ k): proven definite about the smallest and largest
 *    axes, proven indefinite about the middle one.
 *  - Linearization B = Π̂₀J⁻¹ − (J⁻¹Π₀)^ [EMB 3.4]: eigenvalues 0 and
 *    ±√((1/J_k − 1/J_i)(1/J_j − 1/J_k)) ({i, j, k} = {1, 2, 3}), real about
 *    the middle axis, where one is certified positive: proven unstable.
 * Compiled once, -DCL_PREC=CL_ARB, at each precision of TEST_PRECISIONS. */
#include "tap_real.h"
#include "r3.h"
#include "linalg.h"
#include "energy_casimir.h"

static const long QN[9] = {2, -1, 2, 2, 2, -1, -1, 2, 2}; /* 3·Q */
static const long JN[3] = {2, 4, 7}, JD = 2;             /* J_i = JN[i]/JD */

static void run(cl_prec_t p)
{
    cl_arb_set_prec(p);
    RV_DECL(Q, 9, p); RV_DECL(Qt, 9, p); RV_DECL(Di, 9, p); RV_DECL(Ji, 9, p);
    RV_DECL(Pi, 3, p); RV_DECL(DE, 3, p); RV_DECL(DC, 3, p); RV_DECL(HC, 9, p);
    RV_DECL(c, 1, p); RV_DECL(Hr, 4, p); RV_DECL(ev, 2, p); RV_DECL(w, 3, p);
    RV_DECL(B, 9, p); RV_DECL(H, 9, p); RV_DECL(wr, 3, p); RV_DECL(wi, 3, p);
    R_DECL(t, p); R_DECL(u, p);
    for (int i = 0; i < 9; i++) r_set_q(Q + i, QN[i], 3);
    m3_transpose(Qt, Q);
    for (int i = 0; i < 3; i++) r_set_q(Di + 4 * i, JD, JN[i]); /* diag(1/J_i) */
    m3_mul(Ji, Q, Di);
    m3_mul(Ji, Ji, Qt); /* J⁻¹ = Q D⁻¹ Qᵀ, a ball matrix around the exact one */
    for (int i = 0; i < 3; i++) r_set_si(HC + 4 * i, 2);
    for (int k = 0; k < 3; k++) {
        const char *axis = k == 0 ? "smallest" : k == 1 ? "middle" : "largest";
        for (int i = 0; i < 3; i++) r_set(Pi + i, Q + 3 * i + k); /* Π₀ = Q e_k */
        m3_mul_v3(DE, Ji, Pi);
        for (int i = 0; i < 3; i++) r_mul_si(DC + i, Pi + i, 2);
        cl_ec_report rep;
        int st = CL_FN(cl_energy_casimir)(&rep, c, NULL, Hr, NULL, DE, DC, Ji, HC, 3, 1, 0);
        int want = k == 1 ? -1 : 1;
        ok(st == CL_OK && rep.undecided == 0 && cl_ec_verdict(&rep, 0) == want,
           "about the %s axis: Energy-Casimir %s proven, inertia (%d, %d, %d) [arb, %ld bits]", axis,
           k == 1 ? "indefinite" : "definite", rep.npos, rep.nneg, rep.nzero, (long)p);
        /* c = −1/(2J_k) inside its ball */
        r_set_q(t, -JD, 2 * JN[k]);
        r_sub(u, c, t);
        ok(arb_contains_zero(u), "multiplier -1/(2 J_k) enclosed [arb, %ld bits]", (long)p);
        /* restricted eigenvalues 1/J_i − 1/J_k, each inside an enclosure of Hr's eigenvalues */
        st = CL_FN(cl_eig)(ev, w, Hr, 2);
        int inside = st == CL_OK;
        for (int i = 0; i < 3 && inside; i++) {
            if (i == k) continue;
            r_set_q(t, JD, JN[i]);
            r_set_q(u, JD, JN[k]);
            r_sub(t, t, u);
            inside = arb_overlaps(ev, t) || arb_overlaps(ev + 1, t);
        }
        ok(inside, "restricted eigenvalues 1/J_i - 1/J_k in the enclosures [arb, %ld bits]", (long)p);
        /* linearization: B = Π̂₀J⁻¹ − (J⁻¹Π₀)^ */
        m3_hat(H, Pi);
        m3_mul(B, H, Ji);
        m3_hat(H, DE);
        for (int i = 0; i < 9; i++) r_sub(B + i, B + i, H + i);
        st = CL_FN(cl_eig)(wr, wi, B, 3);
        int unstable = 0;
        for (int i = 0; i < 3 && st == CL_OK; i++) unstable |= r_sgn3(wr + i) == 1;
        /* λ² = (1/J_k − 1/J_i)(1/J_j − 1/J_k) */
        int i1 = (k + 1) % 3, j1 = (k + 2) % 3;
        R_DECL(a, p); R_DECL(b, p); R_DECL(lam2, p);
        r_set_q(a, JD, JN[k]); r_set_q(t, JD, JN[i1]); r_sub(a, a, t);
        r_set_q(b, JD, JN[j1]); r_set_q(t, JD, JN[k]); r_sub(b, b, t);
        r_mul(lam2, a, b);
        r_abs(t, lam2);
        r_sqrt(t, t);
        int found = 0;
        for (int i = 0; i < 3 && st == CL_OK; i++)
            found |= k == 1 ? arb_overlaps(wr + i, t) && arb_contains_zero(wi + i)
                            : arb_overlaps(wi + i, t) && arb_contains_zero(wr + i);
        ok(st == CL_OK && unstable == (k == 1) && found,
           "about the %s axis: linearization %s, +-%s sqrt|lambda^2| enclosed [arb, %ld bits]", axis,
           k == 1 ? "proven unstable (a certified positive real eigenvalue)" : "with no certified positive real part",
           k == 1 ? "" : "i", (long)p);
    }
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    flint_cleanup();
    return done_testing();
}

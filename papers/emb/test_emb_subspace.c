/* [EMB §3.1]: the subspace {Ax = 0} — the corrected projection and two
 * coupled masses held equal, against closed forms (the printed projection:
 * oracle row emb.subspace.printed_gram_singular). */
#include "tap_main.h"
#include "emb_subspace.h"

static void run(cl_prec_t p)
{
    RV_DECL(A, 3, p); RV_DECL(P, 9, p); RV_DECL(M, 9, p); RV_DECL(K, 9, p);
    RV_DECL(x, 3, p); RV_DECL(v, 3, p); RV_DECL(a, 3, p); RV_DECL(mu, 3, p); RV_DECL(xd, 3, p);
    RV_DECL(md, 3, p); RV_DECL(q, 2, p);
    R_DECL(want, p); R_DECL(s, p); R_DECL(E, p);
    CL_FN(cl_emb_subspace) *sub = NULL;

    /* A = [1 1 1]: P = I − (1/3)11ᵀ (AAᵀ = 3) */
    for (int i = 0; i < 3; i++) r_set_si(A + i, 1);
    for (int i = 0; i < 9; i++) r_set_zero(M + i), r_set_zero(K + i);
    for (int i = 0; i < 3; i++) r_set_si(M + 4 * i, i + 1), r_set_si(K + 4 * i, 2);
    ok(CL_FN(cl_emb_subspace_new)(&sub, 3, 1, A, M, K, NULL) == CL_OK, "subspace created [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_subspace_projection)(sub, P);
    r_set_q(want, 2, 3);
    is_real(P, want, 4, "P_11 = 1 - 1/3");
    r_set_q(want, -1, 3);
    is_real(P + 1, want, 4, "P_12 = -1/3");
    /* Legendre and energy: with K = 2I, x ∈ ker A, ẋ ∈ ker A: E = ½ẋᵀMẋ + xᵀx */
    CL_FN(cl_emb_model) mod;
    CL_FN(cl_emb_subspace_model)(sub, &mod);
    CL_FN(cl_emb_work) *w;
    CL_FN(cl_emb_work_new)(&w, 3, p);
    r_set_si(x, 1); r_set_si(x + 1, -1); r_set_zero(x + 2);
    r_set_si(v, 1); r_set_si(v + 1, 1); r_set_si(v + 2, -2);
    CL_FN(cl_emb_subspace_energy)(sub, E, x, v);
    r_set_q(want, 1 + 2 + 12, 2);
    r_add_si(want, want, 2);
    is_real(E, want, 8, "E = 1/2 v^T M v + x^T K x / 2 = 19/2");
    CL_FN(cl_emb_legendre)(&mod, w, mu, x, v);
    CL_FN(cl_emb_hamiltonian_from_lagrangian)(&mod, w, s, x, mu);
    is_real(s, E, 64, "H(x, mu) = E (Legendre through P)");
    CL_FN(cl_emb_subspace_hamilton)(sub, xd, md, x, mu);
    for (int i = 0; i < 3; i++) r_sub(xd + i, xd + i, v + i);
    is_tiny(xd, 64, "(3.2): xdot = v");
    CL_FN(cl_emb_subspace_free)(sub);
    CL_FN(cl_emb_work_free)(w);

    /* Two masses m₁ = 1, m₂ = 3 on springs k₁ = 2, k₂ = 6 held at x₁ = x₂
     * (A = [1 −1], n = 2): the reduced system (m₁ + m₂)q̈ = −(k₁ + k₂)q gives
     * ẍ = −2x, independent of ẋ. */
    r_set_si(A, 1); r_set_si(A + 1, -1);
    r_set_si(M, 1); r_set_zero(M + 1); r_set_zero(M + 2); r_set_si(M + 3, 3);
    r_set_si(K, 2); r_set_zero(K + 1); r_set_zero(K + 2); r_set_si(K + 3, 6);
    ok(CL_FN(cl_emb_subspace_new)(&sub, 2, 1, A, M, K, NULL) == CL_OK, "two-mass system created [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_subspace_model)(sub, &mod);
    CL_FN(cl_emb_work_new)(&w, 2, p);
    r_set_q(x, 3, 4); r_set_q(x + 1, 3, 4);
    r_set_si(v, -5); r_set_si(v + 1, -5);
    CL_FN(cl_emb_subspace_el_accel)(sub, a, x, v);
    r_set_q(want, -3, 2);
    is_real(a, want, 16, "(3.1): xddot_1 = -(k1+k2)/(m1+m2) x_1");
    is_real(a + 1, want, 16, "(3.1): xddot_2 = xddot_1 (constraint kept)");
    CL_FN(cl_emb_el_accel)(&mod, w, a, x, v);
    is_real(a, want, 16, "general (2.3): same acceleration");
    CL_FN(cl_emb_subspace_to_reduced)(sub, q, x);
    CL_FN(cl_emb_subspace_reduced_accel)(sub, q + 1, q, q);
    is_real(q + 1, want, 16, "reduced coordinates: q'' = -2 q");
    /* p = Nᵀμ = (m₁ + m₂)q̇ = −20 */
    CL_FN(cl_emb_legendre)(&mod, w, mu, x, v);
    CL_FN(cl_emb_subspace_reduced_momentum)(sub, q, mu);
    r_set_si(want, -20);
    is_real(q, want, 16, "reduced momentum N^T mu = (m1 + m2) qdot");
    CL_FN(cl_emb_subspace_free)(sub);
    CL_FN(cl_emb_work_free)(w);

    /* errors */
    ok(CL_FN(cl_emb_subspace_new)(&sub, 2, 2, A, M, K, NULL) == CL_EDIM && !sub, "m = n rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_zero(A); r_set_zero(A + 1);
    ok(CL_FN(cl_emb_subspace_new)(&sub, 2, 1, A, M, K, NULL) == CL_ESINGULAR, "rank-deficient A rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(A, 1); r_set_si(A + 1, -1);
    r_set_si(M + 3, -1);   /* m₁ + m₂ = 0: no mass on the subspace */
    ok(CL_FN(cl_emb_subspace_new)(&sub, 2, 1, A, M, K, NULL) == CL_EPARAM, "mass singular on the subspace rejected [%s, %ld]",
       TEST_KIND, (long)p);
    r_set_d(K, NAN);
    ok(CL_FN(cl_emb_subspace_new)(&sub, 2, 1, A, M, K, NULL) == CL_ENAN, "NaN rejected [%s, %ld]", TEST_KIND, (long)p);
}

int main(void) { return cl_test_main(run); }

/* [EMB §2]: the general routines on the spherical pendulum, against closed
 * forms at chosen states; workspace and callback error handling. */
#include "tap_main.h"
#include "emb_circle.h"
#include "r3.h"

static void run(cl_prec_t p)
{
    R_DECL(m, p); R_DECL(l, p); R_DECL(g, p); R_DECL(ml2, p); R_DECL(mgl, p);
    R_DECL(H, p); R_DECL(want, p); R_DECL(s, p);
    RV_DECL(x, 3, p); RV_DECL(v, 3, p); RV_DECL(a, 3, p); RV_DECL(mu, 3, p);
    RV_DECL(xd, 3, p); RV_DECL(md, 3, p); RV_DECL(st6, 6, p); RV_DECL(ds6, 6, p); RV_DECL(D, 9, p);
    CL_FN(cl_real_from_str)(m, "2");
    CL_FN(cl_real_from_str)(l, "0.5");
    CL_FN(cl_real_from_str)(g, "9.81");
    r_mul(ml2, m, l); r_mul(ml2, ml2, l);      /* mℓ² = 1/2 */
    r_mul(mgl, m, g); r_mul(mgl, mgl, l);      /* mgℓ = 9.81 */
    CL_FN(cl_emb_pendulum) *pd;
    ok(CL_FN(cl_emb_pendulum_new)(&pd, 3, m, l, g) == CL_OK, "pendulum created [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_model) mod;
    CL_FN(cl_emb_pendulum_model)(pd, &mod);
    CL_FN(cl_emb_work) *w, *none = NULL;
    ok(CL_FN(cl_emb_work_new)(&w, 3, p) == CL_OK && w != NULL, "workspace created [%s, %ld]", TEST_KIND, (long)p);

    /* Horizontal bob x = e₁ moving with v = 3e₂: (2.3) + tangency give
     * ẍ = −(g/ℓ)e₃ − |v|² x = (−9, 0, −19.62) (gravity and centripetal terms). */
    v3_set_d(x, 1, 0, 0);
    v3_set_d(v, 0, 3, 0);
    ok(CL_FN(cl_emb_el_accel)(&mod, w, a, x, v) == CL_OK, "el_accel [%s, %ld]", TEST_KIND, (long)p);
    r_set_si(want, -9);
    is_real(a, want, 16, "(2.3): centripetal -|v|^2 x");
    r_div(want, g, l);
    r_neg(want, want);
    is_real(a + 2, want, 16, "(2.3): -(g/l) e3 at the horizontal");
    is_tiny(a + 1, 16, "(2.3): no acceleration along v");
    /* (2.4): μ = mℓ²v = (0, 3/2, 0) */
    CL_FN(cl_emb_legendre)(&mod, w, mu, x, v);
    r_set_q(want, 3, 2);
    is_real(mu + 1, want, 4, "(2.4): mu = m l^2 v");
    /* H = μ·v − L = ½mℓ²|v|² + mgℓ x₃ = 9/4 at x₃ = 0 */
    CL_FN(cl_emb_hamiltonian_from_lagrangian)(&mod, w, H, x, mu);
    r_set_q(want, 9, 4);
    is_real(H, want, 16, "H = mu.v - L = 9/4");
    /* (2.7)–(2.8): ẋ = μ/(mℓ²) = v; μ̇ = mℓ² ẍ = (−9/2, 0, −mgℓ) */
    CL_FN(cl_emb_hamilton)(&mod, w, xd, md, x, mu);
    r_set_si(want, 3);
    is_real(xd + 1, want, 16, "(2.7): xdot = v");
    r_set_q(want, -9, 2);
    is_real(md, want, 16, "(2.8): centripetal -|mu|^2/(m l^2) x");
    r_neg(want, mgl);
    is_real(md + 2, want, 16, "(2.8): -P dH/dx = -m g l e3");
    /* (2.5) for P = I − xxᵀ: D = −xμᵀ (μ ⊥ x): only D₁₂ = −3/2 is non-zero */
    CL_FN(cl_emb_dproj_matrix)(&mod, w, D, x, mu);
    r_set_q(want, -3, 2);
    is_real(D + 1, want, 4, "(2.5): D = -x mu^T");
    r_set_zero(s);
    for (int k = 0; k < 9; k++) if (k != 1 && r_cmpabs(D + k, s) > 0) r_abs(s, D + k);
    is_tiny(s, 4, "(2.5): other entries of D vanish");
    /* first-order layouts */
    v3_set(st6, x); v3_set(st6 + 3, v);
    CL_FN(cl_emb_el_rhs)(&mod, w, ds6, st6);
    ok(r_cmp(ds6 + 1, v + 1) == 0 && r_cmp(ds6 + 3, a) == 0, "el_rhs = (v, a) [%s, %ld]", TEST_KIND, (long)p);
    v3_set(st6 + 3, mu);
    CL_FN(cl_emb_hamilton_rhs)(&mod, w, ds6, st6);
    ok(r_cmp(ds6 + 1, xd + 1) == 0 && r_cmp(ds6 + 5, md + 2) == 0, "hamilton_rhs = (xdot, mudot) [%s, %ld]", TEST_KIND, (long)p);

    /* hanging at rest: ẍ = 0 */
    v3_set_d(x, 0, 0, -1);
    v3_zero(v);
    CL_FN(cl_emb_el_accel)(&mod, w, a, x, v);
    v3_norm(s, a);
    is_tiny(s, 4, "(2.3): equilibrium at the bottom");

    /* checks and errors */
    v3_set_d(x, 1, 0, 0);
    v3_set_d(v, 0, 3, 0);
    ok(CL_FN(cl_emb_check_tangent)(&mod, w, x, v, 8) == CL_OK, "tangent v accepted [%s, %ld]", TEST_KIND, (long)p);
    v3_set_d(v, 1e-3, 3, 0);
    ok(CL_FN(cl_emb_check_tangent)(&mod, w, x, v, 8) == CL_ENOTTANGENT, "non-tangent v rejected [%s, %ld]", TEST_KIND, (long)p);
    r_set_d(v, NAN);
    ok(CL_FN(cl_emb_check_tangent)(&mod, w, x, v, 8) == CL_ENAN, "NaN rejected [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_model) bare = mod;
    bare.lag_dvdx = NULL;
    ok(CL_FN(cl_emb_el_accel)(&bare, w, a, x, v) == CL_EDOMAIN, "missing callback: CL_EDOMAIN [%s, %ld]", TEST_KIND, (long)p);
    bare = mod;
    bare.n = 4;
    ok(CL_FN(cl_emb_hamilton)(&bare, w, xd, md, x, mu) == CL_EDIM, "model/workspace dimension mismatch: CL_EDIM [%s, %ld]",
       TEST_KIND, (long)p);
    ok(CL_FN(cl_emb_work_new)(&none, 0, p) == CL_EDIM && !none && CL_FN(cl_emb_work_new)(&none, 65, p) == CL_EDIM && !none,
       "workspace dimension out of range [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_work_free)(w);
    CL_FN(cl_emb_pendulum_free)(pd);
}

int main(void) { return cl_test_main(run); }

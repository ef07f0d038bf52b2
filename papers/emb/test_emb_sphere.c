/* [EMB §3.3]: the spherical pendulum on S² — the conical pendulum as a
 * closed form of (3.5) and (3.6) and the cross-product identity behind
 * (3.6) ((3.6) against [S2 (23)]: oracle row emb.sphere.hamilton_forms). */
#include "tap_main.h"
#include "emb_sphere.h"
#include "r3.h"

static void run(cl_prec_t p)
{
    R_DECL(m, p); R_DECL(l, p); R_DECL(g, p); R_DECL(al, p); R_DECL(ph, p); R_DECL(W2, p);
    R_DECL(sa, p); R_DECL(ca, p); R_DECL(sp, p); R_DECL(cp, p); R_DECL(s, p); R_DECL(want, p);
    RV_DECL(x, 3, p); RV_DECL(v, 3, p); RV_DECL(a, 3, p); RV_DECL(aw, 3, p); RV_DECL(mu, 3, p);
    RV_DECL(xd, 3, p); RV_DECL(md, 3, p); RV_DECL(hx, 3, p); RV_DECL(hm, 3, p); RV_DECL(z, 3, p);
    RV_DECL(t1, 3, p); RV_DECL(t2, 3, p);
    CL_FN(cl_emb_pendulum) *pd = NULL;
    r_set_si(m, 2); r_set_si(l, 1);
    CL_FN(cl_real_from_str)(g, "9.81");
    ok(CL_FN(cl_emb_pendulum_new)(&pd, 3, m, l, g) == CL_OK, "spherical pendulum created [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_pendulum) *pc = NULL;
    ok(CL_FN(cl_emb_pendulum_new)(&pc, 2, m, l, g) == CL_OK && CL_FN(cl_emb_sphere_el_accel)(pc, a, x, v) == CL_EDIM,
       "(3.5) refuses a planar pendulum [%s, %ld]", TEST_KIND, (long)p);
    CL_FN(cl_emb_pendulum_free)(pc);

    /* Conical pendulum: x = (sin α cos φ, sin α sin φ, −cos α), φ̇ = W with
     * W² = g/(ℓ cos α): the bob circles horizontally, ẍ = −W² (x₁, x₂, 0). */
    r_set_d(al, 0.6); r_set_d(ph, 2.2);
    r_sin(sa, al); r_cos(ca, al); r_sin(sp, ph); r_cos(cp, ph);
    r_mul(ca, ca, l);
    r_div(W2, g, ca);
    r_cos(ca, al);
    r_sqrt(s, W2);
    r_mul(x, sa, cp); r_mul(x + 1, sa, sp); r_neg(x + 2, ca);
    r_mul(v, sa, sp); r_neg(v, v); r_mul(v, v, s);
    r_mul(v + 1, sa, cp); r_mul(v + 1, v + 1, s);
    r_set_zero(v + 2);
    CL_FN(cl_emb_sphere_el_accel)(pd, a, x, v);
    r_mul(aw, W2, x); r_neg(aw, aw);
    r_mul(aw + 1, W2, x + 1); r_neg(aw + 1, aw + 1);
    is_real(a, aw, 32, "(3.5) conical pendulum: xddot_1 = -W^2 x_1");
    is_real(a + 1, aw + 1, 32, "(3.5) conical pendulum: xddot_2 = -W^2 x_2");
    is_tiny(a + 2, 64, "(3.5) conical pendulum: no vertical acceleration");
    /* (3.6) with μ = mℓ²ẋ: ẋ = v and μ̇ = mℓ²ẍ */
    CL_FN(cl_emb_model) mod;
    CL_FN(cl_emb_pendulum_model)(pd, &mod);
    for (int i = 0; i < 3; i++) r_mul(mu + i, m, v + i);   /* mℓ² = 2 */
    mod.ham_dx(mod.ctx, hx, x, mu);
    mod.ham_dmu(mod.ctx, hm, x, mu);
    CL_FN(cl_emb_sphere_hamilton)(xd, md, x, mu, hx, hm);
    is_real(xd, v, 16, "(3.6) conical pendulum: xdot = mu/(m l^2)");
    r_mul(want, m, aw);
    is_real(md, want, 64, "(3.6) conical pendulum: mudot_1 = m l^2 xddot_1");
    is_tiny(md + 2, 128, "(3.6) conical pendulum: mudot_3 = 0");

    /* (μxᵀ − xμᵀ)z = (x × μ) × z, the identity that turns (3.4) into (3.6) */
    cl_rng rg;
    cl_rng_seed(&rg, 5);
    CL_FN(cl_v3_random_unit)(x, &rg);
    CL_FN(cl_v3_random_tangent)(mu, x, 2.0, &rg);
    v3_set_d(z, cl_rng_normal(&rg), cl_rng_normal(&rg), cl_rng_normal(&rg));
    v3_dot(s, x, z);
    v3_scale(t1, s, mu);                /* μ(xᵀz) */
    v3_dot(s, mu, z);
    r_neg(s, s);
    v3_axpy(t1, s, x);                  /* − x(μᵀz) */
    v3_cross(t2, x, mu);
    v3_cross(t2, t2, z);
    v3_sub(t1, t1, t2);
    v3_norm(s, t1);
    is_tiny(s, 32, "(mu x^T - x mu^T) z = (x cross mu) cross z");
    CL_FN(cl_emb_pendulum_free)(pd);
}

int main(void) { return cl_test_main(run); }

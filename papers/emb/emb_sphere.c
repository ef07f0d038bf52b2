/**
 * \page ch_emb_sphere EMB 3.3 — dynamics on S²
 *
 * On the two-sphere S² = {x ∈ R³ : ‖x‖ = 1} the projection is again
 * P(x) = I − xxᵀ and the computation of §3.2 carries over unchanged: the
 * Euler–Lagrange equation is [EMB (3.5)]
 * \f[ (I - xx^T)\Big\{\frac{d}{dt}\frac{\partial L}{\partial\dot x} - \frac{\partial L}{\partial x}\Big\} = 0, \f]
 * and Hamilton's equations [EMB (3.6)]
 * \f[ \dot x = (I - xx^T)\frac{\partial H}{\partial\mu},\qquad
 *     \dot\mu = -(I - xx^T)\frac{\partial H}{\partial x} + (x\times\mu)\times\frac{\partial H}{\partial\mu}, \f]
 * where the skew matrix μxᵀ − xμᵀ of (3.4) becomes a cross product,
 * (μxᵀ − xμᵀ)z = (x × μ) × z. These are the equations (23) of the
 * two-spheres paper for one sphere, \f$ \dot\mu = -(I - qq^T)H_q + H_\mu\times(\mu\times q) \f$
 * [S2 (23)], and for H = ½μᵀm^Iμ + U its form (27); the oracle
 * (emb.sphere.*) evaluates all of them, and the general (2.7)–(2.8) with
 * P(x) = I − xxᵀ, at the same random states.
 *
 * The example is the spherical pendulum, the model of \ref ch_emb_circle
 * with d = 3 (\ref cl_emb_pendulum_new_d "cl_emb_pendulum_new").
 *
 * Routines: \ref cl_emb_sphere_el_accel_d "cl_emb_sphere_el_accel" (3.5),
 * \ref cl_emb_sphere_hamilton_d "cl_emb_sphere_hamilton" (3.6).
 */
#include "emb_sphere.h"
#include "r3.h"

/** [EMB (3.5)]: ẍ = (g/ℓ) x × (x × e₃) − ‖ẋ‖² x. */
int CL_FN(cl_emb_sphere_el_accel)(const CL_FN(cl_emb_pendulum) *p, rptr a, rsrc x, rsrc v)
{
    size_t d;
    cl_prec_t pr = r_prec(a);
    R_DECL(l, pr); R_DECL(g, pr); R_DECL(vv, pr);
    RV_DECL(e3, 3, pr); RV_DECL(t, 3, pr);
    CL_FN(cl_emb_pendulum_params)(p, &d, NULL, l, g);
    if (d != 3) return CL_EDIM;
    r_div(g, g, l);
    r_set_si(e3 + 2, 1);
    v3_cross(t, x, e3);
    v3_cross(t, x, t);        /* x × (x × e₃) = −(I − xxᵀ) e₃ for unit x */
    v3_dot(vv, v, v);
    r_neg(vv, vv);
    v3_scale(t, g, t);
    v3_axpy(t, vv, x);
    v3_set(a, t);
    return CL_OK;
}

/** [EMB (3.6)]. */
void CL_FN(cl_emb_sphere_hamilton)(rptr xdot, rptr mudot, rsrc x, rsrc mu, rsrc hx, rsrc hmu)
{
    cl_prec_t pr = r_prec(xdot);
    RV_DECL(xd, 3, pr); RV_DECL(md, 3, pr); RV_DECL(xm, 3, pr);
    v3_proj_tangent(xd, x, hmu);
    v3_proj_tangent(md, x, hx);
    v3_neg(md, md);
    v3_cross(xm, x, mu);
    v3_cross(xm, xm, hmu);
    v3_add(md, md, xm);
    v3_set(xdot, xd);
    v3_set(mudot, md);
}

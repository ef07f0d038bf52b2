/**
 * \page ch_emb_circle EMB 3.2 — the planar pendulum on S¹
 *
 * On the one-sphere S¹ = {x ∈ R² : ‖x‖ = 1} the projection is
 * P(x) = I − xxᵀ, which removes the component along x and keeps the
 * tangent line (the printed text calls it the projection "onto the line
 * normal to x"; it is onto the line normal to the *radius* x, i.e. the
 * tangent line, see \ref errata_EMB_page "the EMB errata"). Its derivative along δx is
 * \f$ DP[\delta x]\mu = -\delta x\,(x^T\mu) - x\,(\delta x^T\mu) = -(x\mu^T)\delta x \f$
 * for μ ⊥ x, and the general equations reduce to [EMB (3.3)]
 * \f[ (I - xx^T)\Big\{\frac{d}{dt}\frac{\partial L}{\partial\dot x} - \frac{\partial L}{\partial x}\Big\} = 0 \f]
 * and [EMB (3.4)]
 * \f[ \dot x = (I - xx^T)\frac{\partial H}{\partial\mu},\qquad
 *     \dot\mu = -(I - xx^T)\frac{\partial H}{\partial x} + (\mu x^T - x\mu^T)\frac{\partial H}{\partial\mu}. \f]
 *
 * The example is the planar pendulum, a bob of mass m at ℓx in gravity g
 * along −e₂, with L = ½mℓ²‖ẋ‖² − mgℓx₂. In the angle θ from the downward
 * vertical, x = (sin θ, −cos θ), it is the familiar θ̈ = −(g/ℓ) sin θ; the
 * oracle compares both vector fields through the map
 * \ref cl_emb_circle_from_angle_d "cl_emb_circle_from_angle". The same
 * pendulum model, \ref cl_emb_pendulum_new_d "cl_emb_pendulum_new", serves
 * the spherical pendulum of \ref ch_emb_sphere with d = 3.
 *
 * Routines: \ref cl_emb_circle_el_accel_d "cl_emb_circle_el_accel" (3.3),
 * \ref cl_emb_circle_hamilton_d "cl_emb_circle_hamilton" (3.4),
 * \ref cl_emb_circle_angle_accel_d "cl_emb_circle_angle_accel",
 * \ref cl_emb_circle_angle_hamilton_d "cl_emb_circle_angle_hamilton".
 */
#include <stdlib.h>
#include "emb_circle.h"
#include "emb_impl.h"

struct CL_FN(cl_emb_pendulum) {
    size_t d;
    rptr par;     /* m, ℓ, g, mℓ², mgℓ, g/ℓ */
};
#define P_M(p) ((p)->par + 0)
#define P_L(p) ((p)->par + 1)
#define P_G(p) ((p)->par + 2)
#define P_ML2(p) ((p)->par + 3)
#define P_MGL(p) ((p)->par + 4)
#define P_GL(p) ((p)->par + 5)

int CL_FN(cl_emb_pendulum_new)(CL_FN(cl_emb_pendulum) **out, size_t d, rsrc m, rsrc l, rsrc g)
{
    *out = NULL;
    if (d != 2 && d != 3) return CL_EDIM;
    if (!r_is_number(m) || !r_is_number(l) || !r_is_number(g)) return CL_ENAN;
    if (r_sgn(m) <= 0 || r_sgn(l) <= 0) return CL_EPARAM;
    CL_FN(cl_emb_pendulum) *p = calloc(1, sizeof *p);
    if (!p) return CL_ENOMEM;
    p->d = d;
    p->par = CL_FN(cl_rvec_new)(6, r_prec(m));
    if (!p->par) { free(p); return CL_ENOMEM; }
    r_set(P_M(p), m); r_set(P_L(p), l); r_set(P_G(p), g);
    r_mul(P_ML2(p), m, l); r_mul(P_ML2(p), P_ML2(p), l);
    r_mul(P_MGL(p), m, g); r_mul(P_MGL(p), P_MGL(p), l);
    r_div(P_GL(p), g, l);
    *out = p;
    return CL_OK;
}

void CL_FN(cl_emb_pendulum_free)(CL_FN(cl_emb_pendulum) *p)
{
    if (!p) return;
    CL_FN(cl_rvec_free)(p->par);
    free(p);
}

/* out = (I − xxᵀ) y. */
static int pend_proj(void *ctx, rptr out, rsrc x, rsrc y)
{
    const CL_FN(cl_emb_pendulum) *p = ctx;
    size_t d = p->d;
    R_DECL(c, r_prec(out));
    emb_dot(c, x, y, d);
    for (size_t i = 0; i < d; i++) {
        r_set(out + i, y + i);
        r_submul(out + i, c, x + i);
    }
    return CL_OK;
}

/* out = DP[v] y = −v (x·y) − x (v·y), the derivative of I − xxᵀ along v. */
static int pend_dproj(void *ctx, rptr out, rsrc x, rsrc v, rsrc y)
{
    const CL_FN(cl_emb_pendulum) *p = ctx;
    emb_sphere_dproj(out, x, v, y, p->d);
    return CL_OK;
}

/* T = ½mℓ²|y|² for a velocity y, or ½|y|²/(mℓ²) for a momentum y. */
static void kinetic(const CL_FN(cl_emb_pendulum) *p, rptr T, rsrc y, int momentum)
{
    emb_dot(T, y, y, p->d);
    if (momentum) r_div(T, T, P_ML2(p));
    else r_mul(T, T, P_ML2(p));
    r_mul_2si(T, T, -1);
}

/* out = T ± mgℓ x_d, T of the velocity or momentum y: L (sign −1) or H and the energy (sign +1). */
static void kinetic_potential(const CL_FN(cl_emb_pendulum) *p, rptr out, rsrc x, rsrc y, int momentum, int sign)
{
    R_DECL(t, r_prec(out));
    kinetic(p, t, y, momentum);
    r_mul(out, P_MGL(p), x + p->d - 1);
    if (sign < 0) r_sub(out, t, out);
    else r_add(out, out, t);
}

/* gr = ±∂(mgℓ x_d)/∂x = ±mgℓ e_d. */
static void potential_grad(const CL_FN(cl_emb_pendulum) *p, rptr gr, int sign)
{
    for (size_t i = 0; i + 1 < p->d; i++) r_set_zero(gr + i);
    if (sign < 0) r_neg(gr + p->d - 1, P_MGL(p));
    else r_set(gr + p->d - 1, P_MGL(p));
}

static int pend_lag(void *ctx, rptr L, rsrc x, rsrc v)
{
    kinetic_potential(ctx, L, x, v, 0, -1);
    return CL_OK;
}

static int pend_lag_dx(void *ctx, rptr gr, rsrc x, rsrc v)
{
    potential_grad(ctx, gr, -1);
    return CL_OK;
}

/* gr = mℓ² v, also L_ẋẋ w = mℓ² w. */
static int pend_lag_dv(void *ctx, rptr gr, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_pendulum) *p = ctx;
    for (size_t i = 0; i < p->d; i++) r_mul(gr + i, P_ML2(p), v + i);
    return CL_OK;
}

static int pend_lag_dvdv(void *ctx, rptr out, rsrc x, rsrc v, rsrc w) { return pend_lag_dv(ctx, out, x, w); }

static int pend_lag_dvdx(void *ctx, rptr out, rsrc x, rsrc v, rsrc w)
{
    const CL_FN(cl_emb_pendulum) *p = ctx;
    for (size_t i = 0; i < p->d; i++) r_set_zero(out + i);
    return CL_OK;
}

static int pend_ham(void *ctx, rptr H, rsrc x, rsrc mu)
{
    kinetic_potential(ctx, H, x, mu, 1, 1);
    return CL_OK;
}

static int pend_ham_dx(void *ctx, rptr gr, rsrc x, rsrc mu)
{
    potential_grad(ctx, gr, 1);
    return CL_OK;
}

static int pend_ham_dmu(void *ctx, rptr gr, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_pendulum) *p = ctx;
    for (size_t i = 0; i < p->d; i++) r_div(gr + i, mu + i, P_ML2(p));
    return CL_OK;
}

void CL_FN(cl_emb_pendulum_model)(CL_FN(cl_emb_pendulum) *p, CL_FN(cl_emb_model) *model)
{
    *model = EMB_MODEL(p->d, p, pend);
}

void CL_FN(cl_emb_pendulum_energy)(const CL_FN(cl_emb_pendulum) *p, rptr E, rsrc x, rsrc v)
{
    kinetic_potential(p, E, x, v, 0, 1);
}

int CL_FN(cl_emb_pendulum_check_state)(const CL_FN(cl_emb_pendulum) *p, rsrc x, rsrc v, double tol_ulps)
{
    size_t d = p->d;
    if (!CL_FN(cl_rvec_is_finite)(x, d) || !CL_FN(cl_rvec_is_finite)(v, d)) return CL_ENAN;
    cl_prec_t pr = r_prec(x);
    R_DECL(s, pr);
    double tol = log2(tol_ulps) + 1.0 - (double)pr;
    emb_dot(s, x, x, d);
    r_add_si(s, s, -1);
    if (r_log2abs(s) > tol) return CL_ENOTUNIT;
    emb_dot(s, x, v, d);
    double scale = CL_FN(cl_rvec_log2_maxabs)(v, d);
    if (scale < 0) scale = 0;
    return r_log2abs(s) <= tol + scale + 1.0 ? CL_OK : CL_ENOTTANGENT;
}

/* ẍ = −(g/ℓ)(I − xxᵀ)e_d − ‖ẋ‖² x, the pendulum on S^{d−1}. */
static void pendulum_accel(const CL_FN(cl_emb_pendulum) *p, rptr a, rsrc x, rsrc v)
{
    size_t d = p->d;
    cl_prec_t pr = r_prec(a);
    R_DECL(vv, pr); R_DECL(c, pr);
    emb_dot(vv, v, v, d);
    r_mul(c, P_GL(p), x + d - 1);   /* (g/ℓ) x·e_d */
    r_sub(c, c, vv);
    for (size_t i = 0; i < d; i++) r_mul(a + i, c, x + i);
    r_sub(a + d - 1, a + d - 1, P_GL(p));
}

/** [EMB (3.3)]. */
int CL_FN(cl_emb_circle_el_accel)(const CL_FN(cl_emb_pendulum) *p, rptr a, rsrc x, rsrc v)
{
    if (p->d != 2) return CL_EDIM;
    pendulum_accel(p, a, x, v);
    return CL_OK;
}

/** [EMB (3.4)]. */
void CL_FN(cl_emb_circle_hamilton)(rptr xdot, rptr mudot, rsrc x, rsrc mu, rsrc hx, rsrc hmu)
{
    cl_prec_t pr = r_prec(xdot);
    R_DECL(xh, pr); R_DECL(xhx, pr); R_DECL(muh, pr);
    emb_dot(xh, x, hmu, 2);
    emb_dot(xhx, x, hx, 2);
    emb_dot(muh, mu, hmu, 2);
    for (int i = 0; i < 2; i++) {
        r_set(xdot + i, hmu + i);               /* (I − xxᵀ) H_μ */
        r_submul(xdot + i, xh, x + i);
        r_neg(mudot + i, hx + i);               /* −(I − xxᵀ) H_x */
        r_addmul(mudot + i, xhx, x + i);
        r_addmul(mudot + i, mu + i, xh);        /* + μ (xᵀH_μ) */
        r_submul(mudot + i, x + i, muh);        /* − x (μᵀH_μ) */
    }
}

void CL_FN(cl_emb_circle_angle_accel)(const CL_FN(cl_emb_pendulum) *p, rptr thetaddot, rsrc theta)
{
    R_DECL(s, r_prec(thetaddot));
    r_sin(s, theta);
    r_mul(s, s, P_GL(p));
    r_neg(thetaddot, s);
}

void CL_FN(cl_emb_circle_from_angle)(rptr x, rptr v, rsrc theta, rsrc thetadot)
{
    cl_prec_t pr = r_prec(x);
    R_DECL(s, pr); R_DECL(c, pr);
    r_sin(s, theta);
    r_cos(c, theta);
    r_set(x, s);
    r_neg(x + 1, c);
    r_mul(v, thetadot, c);
    r_mul(v + 1, thetadot, s);
}

void CL_FN(cl_emb_circle_to_angle)(rptr theta, rptr thetadot, rsrc x, rsrc v)
{
    cl_prec_t pr = r_prec(theta);
    R_DECL(t, pr); R_DECL(w, pr);
    r_neg(t, x + 1);
    r_atan2(w, x, t);
    r_mul(t, x, v + 1);
    r_submul(t, x + 1, v);
    r_set(theta, w);
    r_set(thetadot, t);
}

void CL_FN(cl_emb_circle_angle_hamilton)(const CL_FN(cl_emb_pendulum) *p, rptr thetadot, rptr pdot,
                                         rsrc theta, rsrc ptheta)
{
    R_DECL(s, r_prec(pdot));
    r_sin(s, theta);
    r_div(thetadot, ptheta, P_ML2(p));
    r_mul(pdot, s, P_MGL(p));
    r_neg(pdot, pdot);
}

void CL_FN(cl_emb_pendulum_params)(const CL_FN(cl_emb_pendulum) *p, size_t *d, rptr m, rptr l, rptr g)
{
    if (d) *d = p->d;
    if (m) r_set(m, P_M(p));
    if (l) r_set(l, P_L(p));
    if (g) r_set(g, P_G(p));
}

/** \page ch_s2_omega S2 III.B — Euler–Lagrange equations in (q, ω)

Every tangent vector of the sphere is a rotation of q: \f$\dot q_i = \omega_i\times q_i\f$
[S2 (3)], and with \f$\omega_i\f$ chosen orthogonal to \f$q_i\f$ the angular velocity is
\f$\omega_i = q_i\times\dot q_i\f$ [S2 (5)] (cl_s2n_omega_from_qdot_d(), cl_s2n_qdot_from_omega_d()).
Writing the Lagrangian in the angular velocities, L̃(q, ω) = L(q, S(ω)q)
[S2 (14)], and varying ω through [S2 (16)] gives Proposition 2 [S2 (17)]:
\f[ (I - q_iq_i^T)\Big\{\frac{d}{dt}\frac{\partial\tilde L}{\partial\omega_i}
    - 2S(\omega_i)\frac{\partial\tilde L}{\partial\omega_i}\Big\}
    - S(q_i)\Big(\frac{\partial\tilde L}{\partial q_i} + f_i\Big) = 0 \f]
(cl_s2_el_residual_omega_d()). For the quadratic Lagrangian the modified
Lagrangian is [S2 (18)]
\f[ \tilde L = \tfrac12\sum_i m_{ii}\|\omega_i\|^2 + \tfrac12\sum_{i\ne j}
    \omega_i^TS(q_i)^Tm_{ij}S(q_j)\omega_j - U(q) \f]
and the equations become Corollary 2 [S2 (19)]:
\f[ m_{ii}\dot\omega_i + \sum_{j\ne i}\Big(S(q_i)^Tm_{ij}S(q_j)\dot\omega_j
    - m_{ij}\|\omega_j\|^2S(q_i)q_j\Big)
    + S(q_i)\Big\{F_i + \frac{\partial U}{\partial q_i} - f_i\Big\} = 0, \f]
a 3n×3n linear system K ω̇ = b whose matrix \f$K_{ii} = m_{ii}I_3\f$,
\f$K_{ij} = m_{ij}S(q_i)^TS(q_j)\f$ is also the Legendre transform [S2 (33)] of
chapter \ref ch_s2_pi; its normal rows give \f$q_i\cdot\dot\omega_i = 0\f$, so ω̇ stays
tangent. cl_s2_quad_rhs_omega_d() evaluates it.
*/
#include "s2_forms_impl.h"

/** \brief Angular velocity [S2 (5)]: \f$\omega_i = S(q_i)\dot q_i\f$. */
void CL_FN(cl_s2n_omega_from_qdot)(size_t n, rptr w, rsrc q, rsrc qdot)
{
    for (size_t i = 0; i < n; i++) v3_cross(w + 3 * i, q + 3 * i, qdot + 3 * i);
}

/** \brief Kinematics [S2 (3)]: \f$\dot q_i = \omega_i\times q_i = S(\omega_i)q_i\f$. */
void CL_FN(cl_s2n_qdot_from_omega)(size_t n, rptr qdot, rsrc q, rsrc w)
{
    for (size_t i = 0; i < n; i++) v3_cross(qdot + 3 * i, w + 3 * i, q + 3 * i);
}

/**
 * \brief Residual of Proposition 2 [S2 (17)].
 * \f[ r_i = (I - q_iq_i^T)\Big\{\frac{d}{dt}\frac{\partial\tilde L}{\partial\omega_i}
 *     - 2S(\omega_i)\frac{\partial\tilde L}{\partial\omega_i}\Big\}
 *     - S(q_i)\Big(\frac{\partial\tilde L}{\partial q_i} + f_i\Big) \f]
 */
void CL_FN(cl_s2_el_residual_omega)(size_t n, rptr res, rsrc q, rsrc w, rsrc ddt_dLdw,
                                    rsrc dLdw, rsrc dLdq, rsrc f)
{
    cl_prec_t p = r_prec(res);
    RV_DECL(a, 3, p);
    RV_DECL(b, 3, p);
    R_DECL(two, p);
    r_set_si(two, 2);
    for (size_t i = 0; i < n; i++) {
        v3_cross(b, w + 3 * i, dLdw + 3 * i);
        v3_scale(b, two, b);
        v3_sub(a, ddt_dLdw + 3 * i, b);
        s2_proj(a, q + 3 * i, a);
        v3_set(b, dLdq + 3 * i);
        if (f) v3_add(b, b, f + 3 * i);
        v3_cross(b, q + 3 * i, b);
        v3_sub(res + 3 * i, a, b);
    }
}

/**
 * \brief The modified Lagrangian [S2 (18)] of a quadratic system.
 * \f[ \tilde L(q,\omega) = \tfrac12\sum_i m_{ii}(q)\|\omega_i\|^2 + \tfrac12\sum_{i\ne j}
 *     \omega_i^TS(q_i)^Tm_{ij}(q)S(q_j)\omega_j - U(q) \f]
 */
int CL_FN(cl_s2_quad_lagrangian_omega)(CL_FN(cl_s2_quad_ws) *ws, rptr L, rsrc q, rsrc w)
{
    size_t n = ws->n;
    int st = s2_eval_mU(ws, q, 1);
    if (st) return st;
    R_DECL(d, ws->prec);
    rptr u = ws->t; /* u_i = S(q_i) ω_i */
    for (size_t i = 0; i < n; i++) v3_cross(u + 3 * i, q + 3 * i, w + 3 * i);
    r_set_zero(L);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (i == j) v3_dot(d, w + 3 * i, w + 3 * i);
            else v3_dot(d, u + 3 * i, u + 3 * j);
            r_addmul(L, d, ws->m + i * n + j);
        }
    r_mul_2si(L, L, -1);
    r_sub(L, L, ws->U);
    return CL_OK;
}

/**
 * \brief F_i(q, ω) of Corollary 2 [S2 (19)].
 * \f[ F_i = \sum_j \dot m_{ij}S(\omega_j)q_j - \frac12\sum_{j,k}
 *     \big(q_j^TS(\omega_j)^TS(\omega_k)q_k\big)\frac{\partial m_{jk}}{\partial q_i} \f]
 * which is F_i of [S2 (13)] at q̇_j = S(ω_j)q_j.
 */
int CL_FN(cl_s2_quad_F_omega)(CL_FN(cl_s2_quad_ws) *ws, rptr F, rsrc q, rsrc w)
{
    CL_FN(cl_s2n_qdot_from_omega)(ws->n, ws->v, q, w);
    return CL_FN(cl_s2_quad_F_qdot)(ws, F, q, ws->v);
}

/**
 * \brief Vector field of the (q, ω) form: [S2 (3)] and Corollary 2 [S2 (19)].
 *
 * Solves K ω̇ = b with K_ii = m_ii I₃, K_ij = m_ij S(q_i)ᵀS(q_j) and
 * \f[ b_i = \sum_{j\ne i} m_{ij}\|\omega_j\|^2 S(q_i)q_j
 *     - S(q_i)\Big\{F_i + \frac{\partial U}{\partial q_i} - f_i\Big\}. \f]
 */
int CL_FN(cl_s2_quad_rhs_omega)(CL_FN(cl_s2_quad_ws) *ws, rptr dx, rsrc x)
{
    size_t n = ws->n;
    rsrc q = x, w = x + 3 * n;
    CL_FN(cl_s2n_qdot_from_omega)(n, ws->v, q, w);
    int st = s2_eval_terms(ws, q, ws->v);
    if (st) return st;
    CL_FN(cl_s2_quad_build_A)(ws, q, 1);
    R_DECL(h, ws->prec);
    RV_DECL(a, 3, ws->prec);
    RV_DECL(c, 3, ws->prec);
    for (size_t i = 0; i < n; i++) {
        rptr bi = ws->b + 3 * i;
        s2_load(ws, a, i);
        v3_cross(bi, q + 3 * i, a);
        v3_neg(bi, bi);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            v3_dot(h, w + 3 * j, w + 3 * j);
            r_mul(h, h, ws->m + i * n + j);
            v3_cross(c, q + 3 * i, q + 3 * j);
            v3_axpy(bi, h, c);
        }
    }
    return s2_field_out(ws, dx, ws->v);
}

/** \page ch_s2_mu S2 IV.A — Hamilton's equations in (q, μ)

The momentum conjugate to \f$\dot q_i\f$ lives in \f$T^*_{q_i}S^2\f$, identified with the
tangent plane by the dot product, so the Legendre transform keeps only the
tangential part of \f$\partial L/\partial\dot q_i\f$ [S2 (20)]:
\f[ \mu_i = (I_3 - q_iq_i^T)\frac{\partial L}{\partial\dot q_i},\qquad
    H(q,\mu) = \sum_i \mu_i\cdot\dot q_i - L(q,\dot q) \quad\text{[S2 (21)]}. \f]
Hamilton's phase-space principle, with \f$\delta\mu_i\f$ split into the part fixed by
\f$q_i\cdot\mu_i = 0\f$ and a free tangential part, gives Proposition 3 [S2 (23)]
(cl_s2_hamilton_mu_d()):
\f[ \dot q_i = (I_3 - q_iq_i^T)\frac{\partial H}{\partial\mu_i},\qquad
    \dot\mu_i = -(I_3 - q_iq_i^T)\Big(\frac{\partial H}{\partial q_i} - f_i\Big)
    + \frac{\partial H}{\partial\mu_i}\times(\mu_i\times q_i). \f]
The last term is normal to \f$q_i\f$: it keeps \f$q_i\cdot\mu_i = 0\f$.

For the quadratic Lagrangian [S2 (12)] the transform is linear,
\f$\mu_i = m_{ii}\dot q_i + (I_3 - q_iq_i^T)\sum_{j\ne i} m_{ij}\dot q_j\f$ [S2 (24)], i.e. μ = G q̇
with the matrix G of chapter \ref ch_s2_qdot; its inverse [S2 (25)] is
q̇ = G⁻¹μ (cl_s2_quad_legendre_inv_d(), with the (q, π) form's at the end of
chapter \ref ch_s2_pi). The Hamiltonian is \f$H = \tfrac12\sum_{j,k}\mu_j^Tm^I_{jk}\mu_k + U\f$ [S2 (26)] and
Corollary 3 [S2 (27)] reads
\f[ \dot\mu_i = \sum_j (m^I_{ij}\mu_j)\times(\mu_i\times q_i)
    - (I_3 - q_iq_i^T)\frac12\frac{\partial}{\partial q_i}\sum_{j,k}\mu_j^Tm^I_{jk}\mu_k
    - (I_3 - q_iq_i^T)\Big(\frac{\partial U}{\partial q_i} - f_i\Big). \f]
The paper leaves m^I and its derivative implicit. Here m^I is the inverse of
the symmetric matrix \f$G_s\f$ (\f$G_{s,ii} = m_{ii}I_3\f$, \f$G_{s,ij} = m_{ij}P_iP_j\f$, with
\f$P_i = I_3 - q_iq_i^T\f$), which agrees with G on tangent vectors; then
\f$\partial H/\partial\mu = m^I\mu = \dot q\f$, and \f$\partial(\mu^Tm^I\mu)/\partial q_i = -\partial(\dot q^TG_s\dot q)/\partial q_i\f$ at fixed q̇,
which works out (derivation at cl_s2_quad_rhs_mu_d()) to
\f[ \frac12\frac{\partial}{\partial q_i}\mu^Tm^I\mu = -\frac12\sum_{j,k}(\dot q_j\cdot\dot q_k)
    \frac{\partial m_{jk}}{\partial q_i} + \sum_{k\ne i} m_{ik}(q_i\cdot\dot q_k)\,\dot q_i . \f]
*/
#include "s2_forms_impl.h"

/** \brief Legendre transform [S2 (20)]: \f$\mu_i = (I_3 - q_iq_i^T)\,\partial L/\partial\dot q_i\f$. */
void CL_FN(cl_s2_legendre_mu)(size_t n, rptr mu, rsrc q, rsrc dLdqdot)
{
    s2_proj_each(n, mu, q, dLdqdot);
}

/* One sphere's terms of (23): q̇_i = (I − q_iq_iᵀ)∂H/∂μ_i, a = (I − q_iq_iᵀ)(∂H/∂q_i − f_i), b = ∂H/∂μ_i × (μ_i × q_i). */
static void hamilton_mu_terms(rptr qdot, rptr a, rptr b, rsrc q, rsrc mu, rsrc dHdmu)
{
    s2_proj(qdot, q, dHdmu);
    s2_proj(a, q, a);
    v3_cross(b, mu, q);
    v3_cross(b, dHdmu, b);
}

/**
 * \brief Hamilton's equations, Proposition 3 [S2 (23)].
 * \f[ \dot q_i = (I_3 - q_iq_i^T)\frac{\partial H}{\partial\mu_i},\qquad
 *     \dot\mu_i = -(I_3 - q_iq_i^T)\Big(\frac{\partial H}{\partial q_i} - f_i\Big)
 *     + \frac{\partial H}{\partial\mu_i}\times(\mu_i\times q_i) \f]
 */
void CL_FN(cl_s2_hamilton_mu)(size_t n, rptr dx, rsrc q, rsrc mu, rsrc dHdq, rsrc dHdmu, rsrc f)
{
    s2_hamilton_form(n, dx, q, mu, dHdq, dHdmu, f, hamilton_mu_terms);
}

/**
 * \brief Legendre transform of the quadratic Lagrangian [S2 (24)].
 * \f[ \mu_i = m_{ii}(q)\dot q_i + (I_3 - q_iq_i^T)\sum_{j\ne i} m_{ij}(q)\dot q_j \f]
 */
int CL_FN(cl_s2_quad_legendre_mu)(CL_FN(cl_s2_quad_ws) *ws, rptr mu, rsrc q, rsrc qdot)
{
    return s2_quad_legendre_form(ws, mu, q, qdot, qdot, s2_proj);
}

/* qdot = G⁻¹ μ with ws->m evaluated at q, projected as in [S2 (25)]. */
int CL_FN(cl_s2_quad_solve_G)(CL_FN(cl_s2_quad_ws) *ws, rptr qdot, rsrc q, rsrc mu)
{
    CL_FN(cl_s2_quad_build_A)(ws, q, 0);
    int st = s2_solve_rhs(ws, mu);
    if (st) return st;
    s2_proj_each(ws->n, qdot, q, ws->b);
    return CL_OK;
}

/* The coupling term of ∂H/∂q_i in (27): g += Σ_{k≠i} m_ik (q_i·q̇_k) q̇_i, with q̇ in ws->v. */
static void mu_coupling(CL_FN(cl_s2_quad_ws) *ws, rptr g, size_t i, rsrc q)
{
    size_t n = ws->n;
    rsrc v = ws->v;
    R_DECL(h, ws->prec);
    R_DECL(d, ws->prec);
    r_set_zero(h);
    for (size_t k = 0; k < n; k++) {
        if (k == i) continue;
        v3_dot(d, q + 3 * i, v + 3 * k);
        r_addmul(h, d, ws->m + i * n + k);
    }
    v3_axpy(g, h, v + 3 * i);
}

/**
 * \brief Vector field of the (q, μ) form: Corollary 3 [S2 (25), (27)],
 *        through Proposition 3 [S2 (23)].
 *
 * With q̇ = m^Iμ from [S2 (25)], ∂H/∂μ = q̇ and
 * \f[ \frac{\partial H}{\partial q_i} = -\frac12\sum_{j,k}(\dot q_j\cdot\dot q_k)
 *     \frac{\partial m_{jk}}{\partial q_i} + \sum_{k\ne i} m_{ik}(q_i\cdot\dot q_k)\,\dot q_i
 *     + \frac{\partial U}{\partial q_i}. \f]
 * Derivation: m^I = G_s⁻¹ and ∂G_s⁻¹ = −G_s⁻¹(∂G_s)G_s⁻¹, so
 * ½∂(μᵀG_s⁻¹μ)/∂q_i = −½∂(vᵀG_s v)/∂q_i at v = q̇ fixed. In
 * \f$v^TG_sv = \sum_j m_{jj}\|v_j\|^2 + \sum_{j\ne k} m_{jk}(P_jv_j)\cdot(P_kv_k)\f$, the inertia gives
 * the first sum, and ∂/∂q_i[(P_iv_i)·w] = −(q_i·v_i)w − (q_i·w)v_i =
 * −(q_i·w)v_i for tangent v_i, counted twice (j = i and k = i) with the ½,
 * gives the second. (27) is then (23) with these gradients.
 */
int CL_FN(cl_s2_quad_rhs_mu)(CL_FN(cl_s2_quad_ws) *ws, rptr dx, rsrc x)
{
    return s2_momentum_field(ws, CL_S2_MU, dx, x, NULL, mu_coupling);
}

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

/* Hamilton's equations of a momentum form, sphere by sphere (s2_forms_impl.h): the loop
 * Propositions 3 (23) and 4 (31), (32) share. */
void CL_FN(cl_s2_hamilton_form)(size_t n, rptr dx, rsrc q, rsrc p, rsrc dHdq, rsrc dHdp, rsrc f,
                                void (*terms)(rptr qdot, rptr a, rptr b, rsrc q, rsrc p, rsrc dHdp))
{
    RV_DECL(a, 3, r_prec(dx));
    RV_DECL(b, 3, r_prec(dx));
    for (size_t i = 0; i < n; i++) {
        s2_minus_force(a, dHdq, f, i);
        terms(dx + 3 * i, a, b, q + 3 * i, p + 3 * i, dHdp + 3 * i);
        v3_sub(dx + 3 * (n + i), b, a);
    }
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
    CL_FN(cl_s2_hamilton_form)(n, dx, q, mu, dHdq, dHdmu, f, hamilton_mu_terms);
}

/* The Legendre transforms (24) and (33) of the quadratic Lagrangian, sphere by sphere
 * (s2_forms_impl.h); each passes its side T_i. */
int CL_FN(cl_s2_quad_legendre_form)(CL_FN(cl_s2_quad_ws) *ws, rptr out, rsrc q, rsrc v, rsrc u,
                                    void (*side)(rptr r, rsrc q, rsrc a))
{
    size_t n = ws->n;
    int st = ws->sys->inertia(ws->sys->ctx, ws->m, q);
    if (st) return st;
    RV_DECL(a, 3, ws->prec);
    for (size_t i = 0; i < n; i++) {
        s2_coupling_sum(ws, a, i, u);
        side(a, q + 3 * i, a);
        v3_axpy(a, ws->m + i * n + i, v + 3 * i);
        v3_set(out + 3 * i, a);
    }
    return CL_OK;
}

/**
 * \brief Legendre transform of the quadratic Lagrangian [S2 (24)].
 * \f[ \mu_i = m_{ii}(q)\dot q_i + (I_3 - q_iq_i^T)\sum_{j\ne i} m_{ij}(q)\dot q_j \f]
 */
int CL_FN(cl_s2_quad_legendre_mu)(CL_FN(cl_s2_quad_ws) *ws, rptr mu, rsrc q, rsrc qdot)
{
    return CL_FN(cl_s2_quad_legendre_form)(ws, mu, q, qdot, qdot, s2_proj);
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

/*
 * The terms the fields (27) and (36) share, at (q, p) of form CL_S2_MU or
 * CL_S2_PI: m and ∂U/∂q, the conjugate velocity (q̇ = G⁻¹μ into ws->v, or
 * ω = K⁻¹π into ws->w and q̇ = ω × q [S2 (3)] into ws->v), the forces at
 * (q, q̇) into ws->f and ∂m/∂q into ws->dm.
 */
static int momentum_field_terms(CL_FN(cl_s2_quad_ws) *ws, int form, rsrc q, rsrc p)
{
    int st = s2_eval_momentum_form(ws, form, form == CL_S2_MU ? ws->v : ws->w, q, p, 0);
    if (st) return st;
    if (form == CL_S2_PI) CL_FN(cl_s2n_qdot_from_omega)(ws->n, ws->v, q, ws->w);
    st = s2_eval_force(ws, q, ws->v);
    return st ? st : s2_eval_dm(ws, q);
}

/* The fields (27) and (36) of the momentum forms (s2_forms_impl.h); each passes its coupling term. */
int CL_FN(cl_s2_quad_momentum_field)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr dx, rsrc x,
                                     void (*prepare)(CL_FN(cl_s2_quad_ws) *ws, rsrc q), s2_coupling_term coupling)
{
    size_t n = ws->n;
    rsrc q = x, p = x + 3 * n;
    int st = momentum_field_terms(ws, form, q, p);
    if (st) return st;
    if (prepare) prepare(ws, q);
    for (size_t i = 0; i < n; i++) {
        rptr g = ws->t + 3 * i;
        v3_set(g, ws->dU + 3 * i);
        coupling(ws, g, i, q);
        if (ws->dm) s2_add_dm_quadratic(ws, g, i, ws->v);
    }
    if (form == CL_S2_MU) CL_FN(cl_s2_hamilton_mu)(n, dx, q, p, ws->t, ws->v, ws->f);
    else CL_FN(cl_s2_hamilton_pi)(n, dx, q, p, ws->t, ws->w, ws->f);
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
    return CL_FN(cl_s2_quad_momentum_field)(ws, CL_S2_MU, dx, x, NULL, mu_coupling);
}

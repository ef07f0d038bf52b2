/** \page ch_s2_pi S2 IV.B — Hamilton's equations in (q, π)

The momentum conjugate to the angular velocity is the tangential part of
\f$\partial\tilde L/\partial\omega_i\f$ [S2 (28)], and \f$\tilde H(q,\pi) = \sum_j\pi_j\cdot\omega_j - \tilde L(q,\omega)\f$ [S2 (29)]. Since
\f$\tilde L(q,\omega) = L(q, -S(q)\omega)\f$, \f$\pi_i = S(q_i)\mu_i = q_i\times\mu_i\f$: the two momenta of a
motion differ by a quarter turn in each tangent plane
(cl_s2_pi_from_mu_d(), cl_s2_mu_from_pi_d()). Hamilton's principle gives
Proposition 4 [S2 (31), (32)] (cl_s2_hamilton_pi_d()):
\f[ \dot q_i = -S(q_i)\frac{\partial\tilde H}{\partial\pi_i},\qquad
    \dot\pi_i = -S(q_i)\frac{\partial\tilde H}{\partial q_i}
    + \frac{\partial\tilde H}{\partial\pi_i}\times\pi_i + S(q_i)f_i . \f]
For the quadratic Lagrangian the transform [S2 (33)] is π = Kω with the
matrix K of chapter \ref ch_s2_omega, inverted as \f$\omega = m^I\pi\f$ [S2 (34)],
\f$\tilde H = \tfrac12\sum_{i,j}\pi_i^Tm^I_{ij}\pi_j + U\f$ [S2 (35)], and Corollary 4 [S2 (36)] reads
\f[ \dot q_i = -S(q_i)\sum_j m^I_{ij}\pi_j,\qquad
    \dot\pi_i = -S(q_i)\Big\{\frac12\frac{\partial}{\partial q_i}\sum_{j,k}\pi_j^Tm^I_{jk}\pi_k
    + \frac{\partial U}{\partial q_i}\Big\} + \Big\{\sum_j m^I_{ij}\pi_j\Big\}\times\pi_i + S(q_i)f_i . \f]
Here \f$m^I = K^{-1}\f$ (K is symmetric), so the derivative of the quadratic form is
\f$-\partial(\omega^TK\omega)/\partial q_i\f$ at fixed \f$\omega = K^{-1}\pi\f$ (derivation at cl_s2_quad_rhs_pi_d()).

The end of this chapter inverts the Legendre transforms of both momentum
forms, [S2 (25)] and (34) (cl_s2_quad_legendre_inv_d()), gives their
Hamiltonians (26) and (35) (cl_s2_quad_hamiltonian_d()), carries a state of
any form to any other (cl_s2_quad_convert_d()), evaluates any form's field (cl_s2_quad_rhs_d()),
carries a field back to q̈ (cl_s2_quad_accel_from_d()) and gives the energy
in each form (cl_s2_quad_energy_d()).
*/
#include "s2_forms_impl.h"

/** \brief Legendre transform [S2 (28)]: \f$\pi_i = (I_3 - q_iq_i^T)\,\partial\tilde L/\partial\omega_i\f$. */
void CL_FN(cl_s2_legendre_pi)(size_t n, rptr pi, rsrc q, rsrc dLdw)
{
    s2_proj_each(n, pi, q, dLdw);
}

/** \brief \f$\pi_i = S(q_i)\mu_i\f$, from ∂L̃/∂ω_i = S(q_i) ∂L/∂q̇_i by [S2 (14)] and (3). */
void CL_FN(cl_s2_pi_from_mu)(size_t n, rptr pi, rsrc q, rsrc mu)
{
    for (size_t i = 0; i < n; i++) v3_cross(pi + 3 * i, q + 3 * i, mu + 3 * i);
}

/** \brief \f$\mu_i = \pi_i\times q_i = -S(q_i)\pi_i\f$ (inverse of S(q_i) on \f$T_{q_i}S^2\f$). */
void CL_FN(cl_s2_mu_from_pi)(size_t n, rptr mu, rsrc q, rsrc pi)
{
    for (size_t i = 0; i < n; i++) v3_cross(mu + 3 * i, pi + 3 * i, q + 3 * i);
}

/* One sphere's terms of (31), (32): q̇_i = ∂H̃/∂π_i × q_i, a = S(q_i)(∂H̃/∂q_i − f_i), b = ∂H̃/∂π_i × π_i. */
static void hamilton_pi_terms(rptr qdot, rptr a, rptr b, rsrc q, rsrc pi, rsrc dHdpi)
{
    v3_cross(qdot, dHdpi, q);
    v3_cross(a, q, a);
    v3_cross(b, dHdpi, pi);
}

/**
 * \brief Hamilton's equations, Proposition 4 [S2 (31), (32)].
 * \f[ \dot q_i = -S(q_i)\frac{\partial\tilde H}{\partial\pi_i},\qquad
 *     \dot\pi_i = -S(q_i)\frac{\partial\tilde H}{\partial q_i}
 *     + \frac{\partial\tilde H}{\partial\pi_i}\times\pi_i + S(q_i)f_i \f]
 */
void CL_FN(cl_s2_hamilton_pi)(size_t n, rptr dx, rsrc q, rsrc pi, rsrc dHdq, rsrc dHdpi, rsrc f)
{
    CL_FN(cl_s2_hamilton_form)(n, dx, q, pi, dHdq, dHdpi, f, hamilton_pi_terms);
}

/* r = S(q)ᵀa = a × q for one sphere; r may alias a. */
static void s_transpose(rptr r, rsrc q, rsrc a) { v3_cross(r, a, q); }

/**
 * \brief Legendre transform of the modified quadratic Lagrangian [S2 (33)].
 * \f[ \pi_i = m_{ii}(q)\omega_i + \sum_{j\ne i} S(q_i)^Tm_{ij}(q)S(q_j)\omega_j \f]
 */
int CL_FN(cl_s2_quad_legendre_pi)(CL_FN(cl_s2_quad_ws) *ws, rptr pi, rsrc q, rsrc w)
{
    rptr u = ws->t; /* u_j = S(q_j) ω_j */
    for (size_t j = 0; j < ws->n; j++) v3_cross(u + 3 * j, q + 3 * j, w + 3 * j);
    return CL_FN(cl_s2_quad_legendre_form)(ws, pi, q, w, u, s_transpose);
}

/* w = K⁻¹ π with ws->m evaluated at q. */
int CL_FN(cl_s2_quad_solve_K)(CL_FN(cl_s2_quad_ws) *ws, rptr w, rsrc q, rsrc pi)
{
    CL_FN(cl_s2_quad_build_A)(ws, q, 1);
    int st = s2_solve_rhs(ws, pi);
    if (!st) CL_FN(cl_rvec_copy)(w, ws->b, 3 * ws->n);
    return st;
}

/* u_k = S(q_k)ω_k = q_k × ω_k into ws->s, with ω in ws->w: the vectors the coupling of (36) sums. */
static void pi_coupling_prepare(CL_FN(cl_s2_quad_ws) *ws, rsrc q)
{
    for (size_t k = 0; k < ws->n; k++) v3_cross(ws->s + 3 * k, q + 3 * k, ws->w + 3 * k);
}

/* The coupling term of ∂H̃/∂q_i in (36): g −= ω_i × Σ_{k≠i} m_ik S(q_k)ω_k, with ω in ws->w. */
static void pi_coupling(CL_FN(cl_s2_quad_ws) *ws, rptr g, size_t i, rsrc q)
{
    RV_DECL(a, 3, ws->prec);
    s2_coupling_sum(ws, a, i, ws->s);
    v3_cross(a, ws->w + 3 * i, a);
    v3_sub(g, g, a);
}

/**
 * \brief Vector field of the (q, π) form: Corollary 4 [S2 (36), (37)], through
 *        Proposition 4 [S2 (31), (32)].
 *
 * The printed label (36) stands after both lines of Corollary 4; Appendix E
 * derives the q̇ line as (36) and the π̇ line as [S2 (37)] (that number is
 * lost in the extracted text).
 *
 * With ω = K⁻¹π [S2 (34)], ∂H̃/∂π = ω and
 * \f[ \frac{\partial\tilde H}{\partial q_i} = -\frac12\sum_{j,k}(\dot q_j\cdot\dot q_k)
 *     \frac{\partial m_{jk}}{\partial q_i} - \sum_{k\ne i} m_{ik}S(\omega_i)S(q_k)\omega_k
 *     + \frac{\partial U}{\partial q_i},\qquad \dot q_j = \omega_j\times q_j . \f]
 * Derivation: ½∂(πᵀK⁻¹π)/∂q_i = −½∂(ωᵀKω)/∂q_i at fixed ω; in
 * \f$\omega^TK\omega = \sum_j m_{jj}\|\omega_j\|^2 + \sum_{j\ne k} m_{jk}(S(q_j)\omega_j)\cdot(S(q_k)\omega_k)\f$ the inertia gives
 * the first sum ((S(q_j)ω_j)·(S(q_k)ω_k) = q̇_j·q̇_k), and
 * ∂/∂q_i[(q_i×ω_i)·u] = ω_i × u with u = S(q_k)ω_k, counted twice with the ½,
 * gives the second.
 */
int CL_FN(cl_s2_quad_rhs_pi)(CL_FN(cl_s2_quad_ws) *ws, rptr dx, rsrc x)
{
    return CL_FN(cl_s2_quad_momentum_field)(ws, CL_S2_PI, dx, x, pi_coupling_prepare, pi_coupling);
}

/* ---------------------------------------------------------------- maps */

int CL_FN(cl_s2_quad_rhs)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr dx, rsrc x)
{
    switch (form) {
    case CL_S2_QDOT: return CL_FN(cl_s2_quad_rhs_qdot)(ws, dx, x);
    case CL_S2_OMEGA: return CL_FN(cl_s2_quad_rhs_omega)(ws, dx, x);
    case CL_S2_MU: return CL_FN(cl_s2_quad_rhs_mu)(ws, dx, x);
    case CL_S2_PI: return CL_FN(cl_s2_quad_rhs_pi)(ws, dx, x);
    default: return CL_EDOMAIN;
    }
}

/**
 * \brief Inverse Legendre transforms [S2 (25)] and [S2 (34)]: the velocity
 *        conjugate to the momentum p at q, computed by solving [S2 (24)]
 *        for q̇ or [S2 (33)] for ω (dense, partial pivoting).
 * \f[ \dot q_i = (I_3 - q_iq_i^T)\sum_j m^I_{ij}(q)\mu_j \quad (\mu),\qquad
 *     \omega_i = \sum_j m^I_{ij}(q)\pi_j \quad (\pi) \f]
 */
int CL_FN(cl_s2_quad_legendre_inv)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr v, rsrc q, rsrc p)
{
    if (form != CL_S2_MU && form != CL_S2_PI) return CL_EDOMAIN;
    int st = ws->sys->inertia(ws->sys->ctx, ws->m, q);
    return st ? st : s2_solve_momentum(ws, form, v, q, p);
}

/**
 * \brief Hamiltonian [S2 (26)] of the (q, μ) form and modified Hamiltonian
 *        [S2 (35)] of the (q, π) form.
 * \f[ H(q,\mu) = \tfrac12\sum_{j,k}\mu_j^Tm^I_{jk}(q)\mu_k + U(q) = \tfrac12\,\mu\cdot\dot q + U,\qquad
 *     \tilde H(q,\pi) = \tfrac12\sum_{i,j}\pi_i^Tm^I_{ij}(q)\pi_j + U(q) = \tfrac12\,\pi\cdot\omega + U \f]
 */
int CL_FN(cl_s2_quad_hamiltonian)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr H, rsrc q, rsrc p)
{
    if (form != CL_S2_MU && form != CL_S2_PI) return CL_EDOMAIN;
    return s2_hamiltonian_form(ws, form, H, q, p, form == CL_S2_MU ? ws->v : ws->w);
}

/* qdot = q̇ of the state x of form \p form (ws->m evaluated at q); uses ws->w. */
static int qdot_of(CL_FN(cl_s2_quad_ws) *ws, int form, rptr qdot, rsrc x)
{
    size_t n = ws->n;
    rsrc q = x, y = x + 3 * n;
    int st = CL_OK;
    switch (form) {
    case CL_S2_QDOT: CL_FN(cl_rvec_copy)(qdot, y, 3 * n); break;
    case CL_S2_OMEGA: CL_FN(cl_s2n_qdot_from_omega)(n, qdot, q, y); break;
    case CL_S2_MU: st = CL_FN(cl_s2_quad_solve_G)(ws, qdot, q, y); break;
    case CL_S2_PI:
        st = CL_FN(cl_s2_quad_solve_K)(ws, ws->w, q, y);
        if (!st) CL_FN(cl_s2n_qdot_from_omega)(n, qdot, q, ws->w);
        break;
    default: return CL_EDOMAIN;
    }
    return st;
}

/**
 * \brief Carry a state between the forms: kinematics [S2 (3), (5)] and the
 *        Legendre transforms [S2 (24), (25), (33), (34)].
 *
 * The velocity q̇ is recovered from x (by (3), (25) or (34)), then
 * ω = S(q)q̇ (5), μ = Gq̇ (24), π = Kω (33).
 */
int CL_FN(cl_s2_quad_convert)(CL_FN(cl_s2_quad_ws) *ws, int from, rsrc x, int to, rptr y)
{
    size_t n = ws->n;
    if (to < CL_S2_QDOT || to > CL_S2_PI) return CL_EDOMAIN;
    int st = ws->sys->inertia(ws->sys->ctx, ws->m, x);
    if (!st) st = qdot_of(ws, from, ws->v, x);
    if (st) return st;
    if (y != x) CL_FN(cl_rvec_copy)(y, x, 3 * n);
    rsrc q = y;
    switch (to) {
    case CL_S2_QDOT: CL_FN(cl_rvec_copy)(y + 3 * n, ws->v, 3 * n); break;
    case CL_S2_OMEGA: CL_FN(cl_s2n_omega_from_qdot)(n, y + 3 * n, q, ws->v); break;
    case CL_S2_MU: st = CL_FN(cl_s2_quad_legendre_mu)(ws, y + 3 * n, q, ws->v); break;
    case CL_S2_PI:
        CL_FN(cl_s2n_omega_from_qdot)(n, ws->w, q, ws->v);
        st = CL_FN(cl_s2_quad_legendre_pi)(ws, y + 3 * n, q, ws->w);
        break;
    }
    return st;
}

/**
 * \brief q̈ carried back from the field of any form.
 *
 * ω: q̈_i = ω̇_i × q_i + ω_i × q̇_i (derivative of (3)). π: μ̇_i = π̇_i × q_i +
 * π_i × q̇_i, then as μ. μ: differentiating [S2 (24)] written as
 * \f$\mu_i = \sum_j m_{ij}\dot q_j - q_i\sum_{j\ne i} m_{ij}(q_i\cdot\dot q_j)\f$ gives G q̈ = μ̇ − R with
 * \f[ R_i = \sum_j \dot m_{ij}\dot q_j - \dot q_i\sum_{j\ne i} m_{ij}(q_i\cdot\dot q_j)
 *     - q_i\sum_{j\ne i}\big(\dot m_{ij}(q_i\cdot\dot q_j) + m_{ij}(\dot q_i\cdot\dot q_j)\big). \f]
 */
int CL_FN(cl_s2_quad_accel_from)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr qddot, rsrc x, rsrc dx)
{
    size_t n = ws->n;
    rsrc q = x, y = x + 3 * n, dy = dx + 3 * n;
    RV_DECL(a, 3, ws->prec);
    if (form == CL_S2_QDOT) {
        CL_FN(cl_rvec_copy)(qddot, dy, 3 * n);
        return CL_OK;
    }
    if (form == CL_S2_OMEGA) {
        for (size_t i = 0; i < n; i++) {
            v3_cross(a, y + 3 * i, q + 3 * i);           /* q̇_i */
            v3_cross(a, y + 3 * i, a);                   /* ω_i × q̇_i */
            v3_cross(qddot + 3 * i, dy + 3 * i, q + 3 * i);
            v3_add(qddot + 3 * i, qddot + 3 * i, a);
        }
        return CL_OK;
    }
    if (form != CL_S2_MU && form != CL_S2_PI) return CL_EDOMAIN;
    int st = ws->sys->inertia(ws->sys->ctx, ws->m, q);
    if (!st) st = qdot_of(ws, form, ws->v, x);
    if (st) return st;
    rsrc v = ws->v;
    rptr mudot = ws->s;
    if (form == CL_S2_PI) {
        for (size_t i = 0; i < n; i++) {
            v3_cross(mudot + 3 * i, dy + 3 * i, q + 3 * i);
            v3_cross(a, y + 3 * i, v + 3 * i);
            v3_add(mudot + 3 * i, mudot + 3 * i, a);
        }
    } else {
        CL_FN(cl_rvec_copy)(mudot, dy, 3 * n);
    }
    st = s2_eval_dm(ws, q);
    if (st) return st;
    CL_FN(cl_s2_quad_mdot)(ws, ws->mdot, v);
    R_DECL(d, ws->prec);
    R_DECL(s1, ws->prec);
    R_DECL(s2, ws->prec);
    for (size_t i = 0; i < n; i++) {
        rptr bi = ws->b + 3 * i;
        v3_set(bi, mudot + 3 * i);
        r_set_zero(s1);
        r_set_zero(s2);
        for (size_t j = 0; j < n; j++) {
            v3_scale(a, ws->mdot + i * n + j, v + 3 * j);
            v3_sub(bi, bi, a);
            if (j == i) continue;
            v3_dot(d, q + 3 * i, v + 3 * j);
            r_addmul(s1, ws->m + i * n + j, d);
            r_addmul(s2, ws->mdot + i * n + j, d);
            v3_dot(d, v + 3 * i, v + 3 * j);
            r_addmul(s2, ws->m + i * n + j, d);
        }
        v3_axpy(bi, s1, v + 3 * i);
        v3_axpy(bi, s2, q + 3 * i);
    }
    CL_FN(cl_s2_quad_build_A)(ws, q, 0);
    st = s2_solve(ws);
    if (st) return st;
    CL_FN(cl_rvec_copy)(qddot, ws->b, 3 * n);
    return CL_OK;
}

/**
 * \brief Energy in any form: ½q̇ᵀmq̇ + U, the Hamiltonian [S2 (26)] or the
 *        modified Hamiltonian [S2 (35)].
 */
int CL_FN(cl_s2_quad_energy)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr E, rsrc x)
{
    size_t n = ws->n;
    switch (form) {
    case CL_S2_QDOT: return CL_FN(cl_s2_quad_energy_qdot)(ws, E, x, x + 3 * n);
    case CL_S2_OMEGA:
        CL_FN(cl_s2n_qdot_from_omega)(n, ws->s, x, x + 3 * n);
        return CL_FN(cl_s2_quad_energy_qdot)(ws, E, x, ws->s);
    default: return CL_FN(cl_s2_quad_hamiltonian)(ws, form, E, x, x + 3 * n);
    }
}

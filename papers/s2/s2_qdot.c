/** \page ch_s2_qdot S2 III.A — Euler–Lagrange equations in (q, q̇)

A system of n two-spheres is described globally by unit vectors
\f$q = (q_1, \dots, q_n) \in (S^2)^n\f$ and velocities \f$\dot q_i \in T_{q_i}S^2 = \{\xi : q_i\cdot\xi = 0\}\f$
[S2 (1), (2)]. Variations are taken through the rotation group,
\f$q_i^\varepsilon = \exp(\varepsilon S(\gamma_i))\,q_i\f$ [S2 (6)], so they never leave the sphere, and
Hamilton's principle with the virtual work of generalized forces \f$f_i\f$ gives
the Euler–Lagrange equations as the projection of the familiar ones onto
the tangent planes [S2 (11)]:
\f[ (I_3 - q_i q_i^T)\Big\{\frac{d}{dt}\frac{\partial L}{\partial\dot q_i}
    - \frac{\partial L}{\partial q_i} - f_i\Big\} = 0 .\f]
For the quadratic Lagrangian [S2 (12)]
\f[ L(q,\dot q) = \tfrac12\sum_{j,k}\dot q_j^T m_{jk}(q)\dot q_k - U(q) \f]
with scalar inertia \f$m_{jk}(q)\f$ they become Corollary 1 [S2 (13)]:
\f[ m_{ii}\ddot q_i + (I_3 - q_iq_i^T)\sum_{j\ne i} m_{ij}\ddot q_j
    + m_{ii}\|\dot q_i\|^2 q_i
    + (I_3 - q_iq_i^T)\Big\{F_i + \frac{\partial U}{\partial q_i} - f_i\Big\} = 0, \f]
\f[ F_i(q,\dot q) = \sum_j \dot m_{ij}\dot q_j
    - \frac12\frac{\partial}{\partial q_i}\sum_{j,k}\dot q_j^T m_{jk}\dot q_k . \f]
The third term is the centripetal acceleration that keeps \f$\|q_i\| = 1\f$: it
makes the normal component of each row read \f$q_i\cdot\ddot q_i = -\|\dot q_i\|^2\f$, so the
equations are one 3n×3n linear system G q̈ = b with \f$G_{ii} = m_{ii}I_3\f$,
\f$G_{ij} = m_{ij}(I_3 - q_iq_i^T)\f$; G is the matrix of the Legendre transform
[S2 (24)], which is why the same routine serves chapter \ref ch_s2_mu.

A system is described once by a \ref cl_s2_quad_d "cl_s2_quad" (inertia
\f$m_{jk}(q)\f$ and its gradient, U and its gradient, forces), and every form of the
dynamics is computed from it: this chapter's cl_s2_quad_rhs_qdot_d(),
and cl_s2_quad_rhs_omega_d(), cl_s2_quad_rhs_mu_d(), cl_s2_quad_rhs_pi_d()
in the following chapters. The general residual (11) is
cl_s2_el_residual_qdot_d(); \f$F_i\f$ is cl_s2_quad_F_qdot_d().
*/
#include <stdlib.h>
#include "s2_forms_impl.h"

int CL_FN(cl_s2_quad_ws_new)(CL_FN(cl_s2_quad_ws) **out, const CL_FN(cl_s2_quad) *sys, cl_prec_t prec)
{
    *out = NULL;
    if (!sys || sys->n == 0 || !sys->inertia) return CL_EDIM;
    size_t n = sys->n;
    CL_FN(cl_s2_quad_ws) *ws = calloc(1, sizeof *ws);
    if (!ws) return CL_ENOMEM;
    ws->sys = sys;
    ws->n = n;
    ws->prec = prec;
    size_t ndm = sys->inertia_grad ? 3 * n * n * n : 0;
    size_t nn = n * n, n3 = 3 * n;
    CL_FN(cl_slice) part[] = {{&ws->m, nn}, {&ws->mdot, nn}, {&ws->dm, ndm}, {&ws->U, 1},  {&ws->dU, n3}, {&ws->f, n3},
                              {&ws->F, n3}, {&ws->b, n3},    {&ws->v, n3},   {&ws->w, n3}, {&ws->t, n3},  {&ws->s, n3},
                              {&ws->A, 9 * nn}};
    ws->block = CL_FN(cl_rvec_slices)(prec, part, sizeof part / sizeof part[0]);
    ws->perm = malloc(n3 * sizeof *ws->perm);
    if (!ndm) ws->dm = NULL;
    int st = ws->block && ws->perm ? CL_OK : CL_ENOMEM;
    return CL_HAND_OUT(out, ws, st, CL_FN(cl_s2_quad_ws_free));
}

void CL_FN(cl_s2_quad_ws_free)(CL_FN(cl_s2_quad_ws) *ws)
{
    if (!ws) return;
    CL_FN(cl_rvec_free)(ws->block);
    CL_FREE_EACH(ws->perm, ws);
}

size_t CL_FN(cl_s2_quad_ws_n)(const CL_FN(cl_s2_quad_ws) *ws) { return ws->n; }

int CL_FN(cl_s2_check_state)(size_t n, rsrc q, rsrc v, double tol_ulps, size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        int st = CL_FN(cl_v3_check_unit)(q + 3 * i, tol_ulps);
        if (!st && v) st = CL_FN(cl_v3_check_tangent)(q + 3 * i, v + 3 * i, tol_ulps);
        if (st) {
            if (bad) *bad = i;
            return st;
        }
    }
    return CL_OK;
}

/**
 * \brief Residual of Proposition 1 [S2 (11)] for a general Lagrangian.
 * \f[ r_i = (I_3 - q_iq_i^T)\Big\{\frac{d}{dt}\frac{\partial L}{\partial\dot q_i}
 *       - \frac{\partial L}{\partial q_i} - f_i\Big\} \f]
 */
void CL_FN(cl_s2_el_residual_qdot)(size_t n, rptr res, rsrc q, rsrc ddt_dLdqdot, rsrc dLdq, rsrc f)
{
    RV_DECL(a, 3, r_prec(res));
    for (size_t i = 0; i < n; i++) {
        v3_sub(a, ddt_dLdqdot + 3 * i, dLdq + 3 * i);
        if (f) v3_sub(a, a, f + 3 * i);
        s2_proj(res + 3 * i, q + 3 * i, a);
    }
}

/* T = ½ Σ_jk m_jk q̇_j·q̇_k, with m and U evaluated at q into ws. */
static int kinetic(CL_FN(cl_s2_quad_ws) *ws, rptr T, rsrc q, rsrc qdot)
{
    size_t n = ws->n;
    int st = s2_eval_mU(ws, q, 1);
    if (st) return st;
    R_DECL(d, ws->prec);
    r_set_zero(T);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++) {
            v3_dot(d, qdot + 3 * j, qdot + 3 * k);
            r_addmul(T, d, ws->m + j * n + k);
        }
    r_mul_2si(T, T, -1);
    return CL_OK;
}

/**
 * \brief The quadratic Lagrangian [S2 (12)].
 * \f[ L = \tfrac12\sum_{j,k=1}^n \dot q_j^T m_{jk}(q)\dot q_k - U(q) \f]
 */
int CL_FN(cl_s2_quad_lagrangian)(CL_FN(cl_s2_quad_ws) *ws, rptr L, rsrc q, rsrc qdot)
{
    int st = kinetic(ws, L, q, qdot);
    if (!st) r_sub(L, L, ws->U);
    return st;
}

/** Energy \f$E = \tfrac12\sum_{j,k}\dot q_j^T m_{jk}\dot q_k + U\f$ at (q, q̇). */
int CL_FN(cl_s2_quad_energy_qdot)(CL_FN(cl_s2_quad_ws) *ws, rptr E, rsrc q, rsrc qdot)
{
    int st = kinetic(ws, E, q, qdot);
    if (!st) r_add(E, E, ws->U);
    return st;
}

void CL_FN(cl_s2_quad_mdot)(CL_FN(cl_s2_quad_ws) *ws, rptr mdot, rsrc qdot)
{
    size_t n = ws->n;
    R_DECL(d, ws->prec);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++) {
            rptr md = mdot + j * n + k;
            r_set_zero(md);
            if (!ws->dm) continue;
            for (size_t i = 0; i < n; i++) {
                v3_dot(d, ws->dm + ((j * n + k) * n + i) * 3, qdot + 3 * i);
                r_add(md, md, d);
            }
        }
}

/**
 * \brief F_i(q, q̇) of Corollary 1 [S2 (13)].
 * \f[ F_i = \sum_{j=1}^n \dot m_{ij}(q)\dot q_j - \frac12\frac{\partial}{\partial q_i}
 *     \sum_{j,k=1}^n \dot q_j^T m_{jk}(q)\dot q_k,\qquad
 *     \dot m_{ij} = \sum_k \frac{\partial m_{ij}}{\partial q_k}\cdot\dot q_k \f]
 */
int CL_FN(cl_s2_quad_F_qdot)(CL_FN(cl_s2_quad_ws) *ws, rptr F, rsrc q, rsrc qdot)
{
    size_t n = ws->n;
    if (!ws->sys->inertia_grad) {
        for (size_t k = 0; k < 3 * n; k++) r_set_zero(F + k);
        return CL_OK;
    }
    int st = s2_eval_dm(ws, q);
    if (st) return st;
    CL_FN(cl_s2_quad_mdot)(ws, ws->mdot, qdot);
    for (size_t i = 0; i < n; i++) {
        rptr Fi = F + 3 * i;
        v3_zero(Fi);
        for (size_t j = 0; j < n; j++) v3_axpy(Fi, ws->mdot + i * n + j, qdot + 3 * j);
        s2_add_dm_quadratic(ws, Fi, i, qdot);
    }
    return CL_OK;
}

void CL_FN(cl_s2_quad_build_A)(CL_FN(cl_s2_quad_ws) *ws, rsrc q, int K)
{
    size_t n = ws->n;
    R_DECL(c, ws->prec);
    R_DECL(t, ws->prec);
    r_set_si(c, 1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            rsrc mij = ws->m + i * n + j;
            rsrc u = q + 3 * (K ? j : i);
            if (K && i != j) v3_dot(c, q + 3 * i, q + 3 * j);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    rptr e = S2_A(ws, 3 * i + a, 3 * j + b);
                    if (i == j) {
                        if (a == b) r_set(e, mij);
                        else r_set_zero(e);
                    } else {
                        r_mul(t, u + a, q + 3 * i + b);
                        r_neg(t, t);
                        if (a == b) r_add(t, t, c);
                        r_mul(e, mij, t);
                    }
                }
        }
}

/**
 * \brief Vector field of the (q, q̇) form: Corollary 1 [S2 (13)].
 *
 * Rows i of (13) form one linear system G q̈ = b in \f$\mathbb R^{3n}\f$ with
 * \f[ G_{ii} = m_{ii}I_3,\quad G_{ij} = m_{ij}(I_3 - q_iq_i^T)\ (j\ne i),\quad
 *     b_i = -m_{ii}\|\dot q_i\|^2 q_i - (I_3 - q_iq_i^T)\Big\{F_i
 *          + \frac{\partial U}{\partial q_i} - f_i\Big\}, \f]
 * whose normal rows give q_i·q̈_i = −‖q̇_i‖² (the derivative of q_i·q̇_i = 0)
 * and whose tangent rows are the projected equations; solved densely.
 */
int CL_FN(cl_s2_quad_rhs_qdot)(CL_FN(cl_s2_quad_ws) *ws, rptr dx, rsrc x)
{
    size_t n = ws->n;
    rsrc q = x, qdot = x + 3 * n;
    int st = s2_eval_terms(ws, q, qdot);
    if (st) return st;
    CL_FN(cl_s2_quad_build_A)(ws, q, 0);
    R_DECL(h, ws->prec);
    RV_DECL(a, 3, ws->prec);
    for (size_t i = 0; i < n; i++) {
        rptr bi = ws->b + 3 * i;
        s2_load(ws, a, i);
        s2_proj(a, q + 3 * i, a);
        v3_dot(h, qdot + 3 * i, qdot + 3 * i);
        r_mul(h, h, ws->m + i * n + i);
        v3_scale(bi, h, q + 3 * i);
        v3_add(bi, bi, a);
        v3_neg(bi, bi);
    }
    return s2_field_out(ws, dx, qdot);
}

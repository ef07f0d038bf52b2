/** \page ch_s2_coupled S2 III–IV — Coupled spheres with configuration-dependent inertia

The paper's example, the chain of chapter \ref ch_s2_chain, has an inertia
\f$m_{ij}\f$ that does not depend on q, so the terms of Corollary 1
[S2 (13)] and of (19), (27), (36) that carry the derivatives of the
inertia vanish there. This system, which the paper does not print, is an
instance of the quadratic Lagrangian [S2 (12)]
\f[ L(q,\dot q) = \tfrac12\sum_{j,k}\dot q_j^T m_{jk}(q)\dot q_k - U(q) \f]
made to exercise them, with damping as its generalized force:
\f[ m_{ii}(q) = a_i + b\,(e_3\cdot q_i)^2,\qquad m_{ij}(q) = c\,(q_i\cdot q_j)\ (i\ne j), \f]
\f[ U(q) = \sum_i k_i\,e_3\cdot q_i + \kappa\sum_{i<j} q_i\cdot q_j,\qquad f_i = -\delta\,\dot q_i . \f]
On \f$T_q(S^2)^n\f$,
\f[ \Big|\sum_{i\ne j} m_{ij}\,\dot q_i\cdot\dot q_j\Big| \le |c|\sum_{i\ne j}\|\dot q_i\|\,\|\dot q_j\|
    \le |c|(n-1)\sum_i\|\dot q_i\|^2, \f]
so \f$a_i > |c|(n-1)\f$ and b ≥ 0 make the kinetic energy positive definite
(cl_s2_coupled_new_d() refuses other parameters).

<b>Derivatives, by hand.</b> The only non-zero ones are
\f[ \frac{\partial m_{ii}}{\partial q_i} = 2b\,(e_3\cdot q_i)\,e_3,\qquad
    \frac{\partial m_{ij}}{\partial q_i} = c\,q_j,\qquad \frac{\partial m_{ij}}{\partial q_j} = c\,q_i, \f]
\f[ \dot m_{ii} = 2b\,(e_3\cdot q_i)(e_3\cdot\dot q_i),\qquad
    \dot m_{ij} = c\,(\dot q_i\cdot q_j + q_i\cdot\dot q_j), \f]
and, since the pairs (j, k) = (i, j) and (j, i) each contribute
\f$\tfrac12 c\,(\dot q_i\cdot\dot q_j)\,q_j\f$,
\f[ \frac12\frac{\partial}{\partial q_i}\sum_{j,k}(\dot q_j\cdot\dot q_k)\,m_{jk}
    = b\,(e_3\cdot q_i)\|\dot q_i\|^2e_3 + c\sum_{j\ne i}(\dot q_i\cdot\dot q_j)\,q_j . \f]
So the term \f$F_i\f$ of [S2 (13)] and the gradient of the potential are
\f[ F_i = \sum_j \dot m_{ij}\dot q_j - b\,(e_3\cdot q_i)\|\dot q_i\|^2e_3
    - c\sum_{j\ne i}(\dot q_i\cdot\dot q_j)\,q_j,\qquad
    \frac{\partial U}{\partial q_i} = k_ie_3 + \kappa\sum_{j\ne i} q_j . \f]
cl_s2_coupled_F_hand_d() computes this \f$F_i\f$ apart from the generic assembly
of the quadratic Lagrangian, and the oracle compares the two and the
derivatives with a Jacobian of m(q) at raised precision
(s2.coupled.gradient). Through cl_s2_coupled_quad_d() the system runs in
all four forms; s2.forms.coupled.agree compares their fields and
s2.forms.coupled.conservation the energy balance
\f$\dot E = -\delta\sum_i\|\dot q_i\|^2\f$. On the command line it is the
system <tt>coupled</tt>.
*/
#include <stdlib.h>
#include "s2_forms_impl.h"
#include "s2_coupled.h"

struct CL_FN(cl_s2_coupled) {
    size_t n;
    cl_prec_t prec;
    CL_FN(cl_s2_quad) quad;
    CL_FN(cl_s2_quad_ws) *ws;
    rptr block, a, k, b, c, kappa, damping;
};

static int coupled_inertia(void *ctx, rptr m, rsrc q)
{
    const CL_FN(cl_s2_coupled) *s = ctx;
    size_t n = s->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            rptr e = m + i * n + j;
            if (i == j) {
                r_sqr(e, q + 3 * i + 2);
                r_mul(e, e, s->b);
                r_add(e, e, s->a + i);
            } else {
                v3_dot(e, q + 3 * i, q + 3 * j);
                r_mul(e, e, s->c);
            }
        }
    return CL_OK;
}

static int coupled_inertia_grad(void *ctx, rptr dm, rsrc q)
{
    const CL_FN(cl_s2_coupled) *s = ctx;
    size_t n = s->n;
    for (size_t k = 0; k < 3 * n * n * n; k++) r_set_zero(dm + k);
    for (size_t i = 0; i < n; i++) {
        rptr e = dm + ((i * n + i) * n + i) * 3; /* ∂m_ii/∂q_i = 2b(e₃·q_i)e₃ */
        r_mul(e + 2, s->b, q + 3 * i + 2);
        r_mul_2si(e + 2, e + 2, 1);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            v3_scale(dm + ((i * n + j) * n + i) * 3, s->c, q + 3 * j); /* ∂m_ij/∂q_i */
            v3_scale(dm + ((i * n + j) * n + j) * 3, s->c, q + 3 * i); /* ∂m_ij/∂q_j */
        }
    }
    return CL_OK;
}

static int coupled_potential(void *ctx, rptr U, rptr dU, rsrc q)
{
    const CL_FN(cl_s2_coupled) *s = ctx;
    size_t n = s->n;
    R_DECL(t, s->prec);
    RV_DECL(sum, 3, s->prec);
    for (size_t i = 0; i < n; i++) v3_add(sum, sum, q + 3 * i);
    if (U) {
        r_set_zero(U);
        for (size_t i = 0; i < n; i++) {
            r_addmul(U, s->k + i, q + 3 * i + 2);
            for (size_t j = i + 1; j < n; j++) {
                v3_dot(t, q + 3 * i, q + 3 * j);
                r_addmul(U, s->kappa, t);
            }
        }
    }
    if (dU)
        for (size_t i = 0; i < n; i++) {
            rptr g = dU + 3 * i;
            v3_sub(g, sum, q + 3 * i);
            v3_scale(g, s->kappa, g);
            r_add(g + 2, g + 2, s->k + i);
        }
    return CL_OK;
}

static int coupled_force(void *ctx, rptr f, rsrc q, rsrc qdot)
{
    const CL_FN(cl_s2_coupled) *s = ctx;
    (void)q;
    R_DECL(t, s->prec);
    r_neg(t, s->damping);
    for (size_t i = 0; i < s->n; i++) v3_scale(f + 3 * i, t, qdot + 3 * i);
    return CL_OK;
}

int CL_FN(cl_s2_coupled_new)(CL_FN(cl_s2_coupled) **out, size_t n, rsrc a, rsrc b, rsrc c,
                             rsrc k, rsrc kappa, rsrc damping, cl_prec_t prec)
{
    *out = NULL;
    if (n < 1) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(a, n) || !CL_FN(cl_rvec_is_finite)(k, n) ||
        !r_is_number(b) || !r_is_number(c) || !r_is_number(kappa) || !r_is_number(damping))
        return CL_ENAN;
    R_DECL(bound, prec);
    r_abs(bound, c);
    r_mul_si(bound, bound, (long)n - 1);
    for (size_t i = 0; i < n; i++)
        if (r_cmp(a + i, bound) <= 0) return CL_EPARAM;
    if (r_sgn(b) < 0 || r_sgn(damping) < 0) return CL_EPARAM;
    CL_FN(cl_s2_coupled) *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->n = n;
    s->prec = prec;
    CL_FN(cl_slice) part[] = {{&s->a, n}, {&s->k, n}, {&s->b, 1}, {&s->c, 1}, {&s->kappa, 1}, {&s->damping, 1}};
    s->block = CL_FN(cl_rvec_slices)(prec, part, sizeof part / sizeof part[0]);
    if (!s->block) {
        free(s);
        return CL_ENOMEM;
    }
    CL_FN(cl_rvec_copy)(s->a, a, n);
    CL_FN(cl_rvec_copy)(s->k, k, n);
    r_set(s->b, b);
    r_set(s->c, c);
    r_set(s->kappa, kappa);
    r_set(s->damping, damping);
    s->quad = (CL_FN(cl_s2_quad)){.n = n, .ctx = s, .inertia = coupled_inertia, .inertia_grad = coupled_inertia_grad,
                                  .potential = coupled_potential, .force = coupled_force};
    int st = CL_FN(cl_s2_quad_ws_new)(&s->ws, &s->quad, prec);
    return CL_HAND_OUT(out, s, st, CL_FN(cl_s2_coupled_free));
}

void CL_FN(cl_s2_coupled_free)(CL_FN(cl_s2_coupled) *s)
{
    if (!s) return;
    CL_FN(cl_s2_quad_ws_free)(s->ws);
    CL_FN(cl_rvec_free)(s->block);
    free(s);
}

const CL_FN(cl_s2_quad) *CL_FN(cl_s2_coupled_quad)(const CL_FN(cl_s2_coupled) *s) { return &s->quad; }
CL_FN(cl_s2_quad_ws) *CL_FN(cl_s2_coupled_ws)(CL_FN(cl_s2_coupled) *s) { return s->ws; }

void CL_FN(cl_s2_coupled_F_hand)(const CL_FN(cl_s2_coupled) *s, rptr F, rsrc q, rsrc qdot)
{
    size_t n = s->n;
    cl_prec_t p = s->prec;
    R_DECL(md, p);
    R_DECL(t, p);
    for (size_t i = 0; i < n; i++) {
        rptr Fi = F + 3 * i;
        v3_zero(Fi);
        /* Σ_j ṁ_ij q̇_j */
        r_mul(md, q + 3 * i + 2, qdot + 3 * i + 2);
        r_mul(md, md, s->b);
        r_mul_2si(md, md, 1);
        v3_axpy(Fi, md, qdot + 3 * i);
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            v3_dot(md, qdot + 3 * i, q + 3 * j);
            v3_dot(t, q + 3 * i, qdot + 3 * j);
            r_add(md, md, t);
            r_mul(md, md, s->c);
            v3_axpy(Fi, md, qdot + 3 * j);
            /* − c (q̇_i·q̇_j) q_j */
            v3_dot(t, qdot + 3 * i, qdot + 3 * j);
            r_mul(t, t, s->c);
            r_neg(t, t);
            v3_axpy(Fi, t, q + 3 * j);
        }
        /* − b (e₃·q_i) ‖q̇_i‖² e₃ */
        v3_dot(t, qdot + 3 * i, qdot + 3 * i);
        r_mul(t, t, q + 3 * i + 2);
        r_submul(Fi + 2, t, s->b);
    }
}

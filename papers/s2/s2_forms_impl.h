/*
 * Internal to the chapters S2 III–V (templated sources only): the workspace
 * of a quadratic-Lagrangian system and small helpers shared by the four
 * forms. Not installed as public interface.
 */
#ifndef CL_S2_FORMS_IMPL_H
#define CL_S2_FORMS_IMPL_H
#include "r3.h"
#include "s2_qdot.h"
#include "s2_omega.h"
#include "s2_mu.h"
#include "s2_pi.h"
#include "linalg.h"

struct CL_FN(cl_s2_quad_ws) {
    const CL_FN(cl_s2_quad) *sys;
    size_t n;
    cl_prec_t prec;
    rptr block;   /* one allocation holding every array below */
    rptr m;       /* n²: m_jk(q) */
    rptr dm;      /* 3n³: ∂m_jk/∂q_i, or NULL */
    rptr mdot;    /* n²: ṁ_jk */
    rptr U;       /* 1 */
    rptr dU;      /* 3n */
    rptr f;       /* 3n */
    rptr F;       /* 3n */
    rptr A;       /* 9n² */
    rptr b;       /* 3n */
    rptr v;       /* 3n: a velocity q̇ */
    rptr w;       /* 3n: an angular velocity ω */
    rptr t;       /* 3n scratch */
    rptr s;       /* 3n scratch */
    int *perm;    /* 3n: pivots of the LU factorization */
};

/* Entry (r, c) of the 3n×3n matrix A. */
#define S2_A(ws, r, c) ((ws)->A + (size_t)(r) * 3 * (ws)->n + (size_t)(c))

/* Evaluate m, U, ∂U/∂q at q (U may be skipped with want_U = 0). */
static inline int s2_eval_mU(CL_FN(cl_s2_quad_ws) *ws, rsrc q, int want_U)
{
    const CL_FN(cl_s2_quad) *sys = ws->sys;
    int st = sys->inertia(sys->ctx, ws->m, q);
    if (st) return st;
    if (sys->potential) {
        st = sys->potential(sys->ctx, want_U ? ws->U : NULL, ws->dU, q);
        if (st) return st;
    } else {
        r_set_zero(ws->U);
        for (size_t k = 0; k < 3 * ws->n; k++) r_set_zero(ws->dU + k);
    }
    return CL_OK;
}

/* Generalized forces at (q, q̇) into ws->f (zero when the system has none). */
static inline int s2_eval_force(CL_FN(cl_s2_quad_ws) *ws, rsrc q, rsrc qdot)
{
    const CL_FN(cl_s2_quad) *sys = ws->sys;
    if (sys->force) return sys->force(sys->ctx, ws->f, q, qdot);
    for (size_t k = 0; k < 3 * ws->n; k++) r_set_zero(ws->f + k);
    return CL_OK;
}

/* ∂m_jk/∂q_i at q into ws->dm (nothing when the inertia is constant). */
static inline int s2_eval_dm(CL_FN(cl_s2_quad_ws) *ws, rsrc q)
{
    const CL_FN(cl_s2_quad) *sys = ws->sys;
    return sys->inertia_grad ? sys->inertia_grad(sys->ctx, ws->dm, q) : CL_OK;
}

/* ws->b = A⁻¹ ws->b for the 3n×3n matrix ws->A (overwritten by its LU
 * factors): the dense reference solve, LU with partial pivoting (src/linalg). */
static inline int s2_solve(CL_FN(cl_s2_quad_ws) *ws)
{
    int N = (int)(3 * ws->n);
    int st = CL_FN(cl_lu_factor)(ws->A, ws->perm, N);
    if (!st) st = CL_FN(cl_lu_solve)(ws->A, ws->perm, ws->b, N, 1);
    return st;
}

/* ws->b = A⁻¹ rhs (rhs: 3n numbers). */
static inline int s2_solve_rhs(CL_FN(cl_s2_quad_ws) *ws, rsrc rhs)
{
    CL_FN(cl_rvec_copy)(ws->b, rhs, 3 * ws->n);
    return s2_solve(ws);
}

/* A field's last step: solve A v̇ = ws->b, then dx = (q̇, v̇). */
static inline int s2_field_out(CL_FN(cl_s2_quad_ws) *ws, rptr dx, rsrc qdot)
{
    int st = s2_solve(ws);
    if (st) return st;
    CL_FN(cl_rvec_copy)(dx, qdot, 3 * ws->n);
    CL_FN(cl_rvec_copy)(dx + 3 * ws->n, ws->b, 3 * ws->n);
    return CL_OK;
}

/* a = F_i + ∂U/∂q_i − f_i, the load of row i of [S2 (13)] and (19), from ws->F, ws->dU, ws->f. */
static inline void s2_load(const CL_FN(cl_s2_quad_ws) *ws, rptr a, size_t i)
{
    v3_add(a, ws->F + 3 * i, ws->dU + 3 * i);
    v3_sub(a, a, ws->f + 3 * i);
}

/*
 * g += −½ Σ_jk (v_j·v_k) ∂m_jk/∂q_i with ws->dm evaluated: the derivative of
 * the kinetic energy at fixed velocities v, with the sign it has in F_i of
 * [S2 (13)] and in ∂H/∂q_i of (27) and (36).
 */
static inline void s2_add_dm_quadratic(const CL_FN(cl_s2_quad_ws) *ws, rptr g, size_t i, rsrc v)
{
    size_t n = ws->n;
    R_DECL(h, ws->prec);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++) {
            v3_dot(h, v + 3 * j, v + 3 * k);
            r_mul_2si(h, h, -1);
            r_neg(h, h);
            v3_axpy(g, h, ws->dm + ((j * n + k) * n + i) * 3);
        }
}

/* E = ½ p·v + U (p, v: 3n), with ws->U evaluated: the Hamiltonians (26) and (35). */
static inline void s2_half_pairing_plus_U(const CL_FN(cl_s2_quad_ws) *ws, rptr E, rsrc p, rsrc v)
{
    r_set_zero(E);
    for (size_t k = 0; k < 3 * ws->n; k++) r_addmul(E, p + k, v + k);
    r_mul_2si(E, E, -1);
    r_add(E, E, ws->U);
}

/* a = Σ_{j≠i} m_ij u_j (u: 3n) with ws->m evaluated: the coupling sum of the transforms (24), (33) and of ∂H̃/∂q_i in (36). */
static inline void s2_coupling_sum(const CL_FN(cl_s2_quad_ws) *ws, rptr a, size_t i, rsrc u)
{
    size_t n = ws->n;
    v3_zero(a);
    for (size_t j = 0; j < n; j++)
        if (j != i) v3_axpy(a, ws->m + i * n + j, u + 3 * j);
}

/* a = ∂H/∂q_i − f_i (f NULL: no force), the load in Propositions 3 (23) and 4 (31), (32). */
static inline void s2_minus_force(rptr a, rsrc dHdq, rsrc f, size_t i)
{
    v3_set(a, dHdq + 3 * i);
    if (f) v3_sub(a, a, f + 3 * i);
}

/* r = (I − qqᵀ) a for one sphere; r may alias a. */
static inline void s2_proj(rptr r, rsrc q, rsrc a) { v3_proj_tangent(r, q, a); }

/* r_i = (I − q_iq_iᵀ) a_i for each of the n spheres (r, a: 3n; r may alias a): a vector
 * of (R³)ⁿ projected onto the tangent space of (S²)ⁿ, as in the transforms (20), (25), (28). */
static inline void s2_proj_each(size_t n, rptr r, rsrc q, rsrc a)
{
    for (size_t i = 0; i < n; i++) s2_proj(r + 3 * i, q + 3 * i, a + 3 * i);
}

/*
 * Build the 3n×3n matrix A from ws->m: blocks m_ii I₃ on the diagonal and,
 * for j ≠ i, either G_ij = m_ij (I₃ − q_i q_iᵀ) of the Legendre transform
 * [S2 (24)] (K = 0) or K_ij = m_ij S(q_i)ᵀS(q_j) = m_ij ((q_i·q_j) I₃ − q_j q_iᵀ)
 * of [S2 (33)] by (47) (K = 1).
 */
void CL_FN(cl_s2_quad_build_A)(CL_FN(cl_s2_quad_ws) *ws, rsrc q, int K);
/* m, ∂U/∂q, f and F (into ws) at (q, q̇): the terms of the Euler–Lagrange fields (13) and (19). */
static inline int s2_eval_terms(CL_FN(cl_s2_quad_ws) *ws, rsrc q, rsrc qdot)
{
    int st = s2_eval_mU(ws, q, 0);
    if (!st) st = s2_eval_force(ws, q, qdot);
    if (!st) st = CL_FN(cl_s2_quad_F_qdot)(ws, ws->F, q, qdot);
    return st;
}

/* mdot = ṁ_jk = Σ_i ∂m_jk/∂q_i · q̇_i (n²), with ws->dm evaluated at q (zero for a constant inertia). */
void CL_FN(cl_s2_quad_mdot)(CL_FN(cl_s2_quad_ws) *ws, rptr mdot, rsrc qdot);
/* qdot = G⁻¹μ, projected as in [S2 (25)], with ws->m evaluated at q (s2_mu.c). */
int CL_FN(cl_s2_quad_solve_G)(CL_FN(cl_s2_quad_ws) *ws, rptr qdot, rsrc q, rsrc mu);
/* w = K⁻¹π [S2 (34)] with ws->m evaluated at q (s2_pi.c). */
int CL_FN(cl_s2_quad_solve_K)(CL_FN(cl_s2_quad_ws) *ws, rptr w, rsrc q, rsrc pi);

/* v = the velocity conjugate to the momentum p at q, with ws->m evaluated: q̇ = G⁻¹μ [S2 (25)]
 * for form CL_S2_MU, ω = K⁻¹π [S2 (34)] for CL_S2_PI. */
static inline int s2_solve_momentum(CL_FN(cl_s2_quad_ws) *ws, int form, rptr v, rsrc q, rsrc p)
{
    return form == CL_S2_MU ? CL_FN(cl_s2_quad_solve_G)(ws, v, q, p) : CL_FN(cl_s2_quad_solve_K)(ws, v, q, p);
}

/*
 * m, U (when want_U), ∂U/∂q at q and the velocity conjugate to the momentum
 * p into v: q̇ = G⁻¹μ [S2 (25)] for form CL_S2_MU, ω = K⁻¹π [S2 (34)] for
 * CL_S2_PI. The first step of the Hamiltonians (26), (35) and fields (27), (36).
 */
static inline int s2_eval_momentum_form(CL_FN(cl_s2_quad_ws) *ws, int form, rptr v, rsrc q, rsrc p, int want_U)
{
    int st = s2_eval_mU(ws, q, want_U);
    return st ? st : s2_solve_momentum(ws, form, v, q, p);
}

/* H = ½ p·v + U at (q, p), v (3n, scratch) the conjugate velocity: the Hamiltonians (26) and (35). */
static inline int s2_hamiltonian_form(CL_FN(cl_s2_quad_ws) *ws, int form, rptr H, rsrc q, rsrc p, rptr v)
{
    int st = s2_eval_momentum_form(ws, form, v, q, p, 1);
    if (!st) s2_half_pairing_plus_U(ws, H, p, v);
    return st;
}

/*
 * Hamilton's equations of a momentum form, sphere by sphere: with
 * a = ∂H/∂q_i − f_i, \p terms (at q_i, p_i, ∂H/∂p_i) writes q̇_i into \p qdot,
 * turns a into the force part of ṗ_i and writes the part b that goes with
 * ∂H/∂p_i; then ṗ_i = b − a. Propositions 3 (23) and 4 (31), (32); dx (6n)
 * may not overlap the inputs (s2_mu.c).
 */
void CL_FN(cl_s2_hamilton_form)(size_t n, rptr dx, rsrc q, rsrc p, rsrc dHdq, rsrc dHdp, rsrc f,
                                void (*terms)(rptr qdot, rptr a, rptr b, rsrc q, rsrc p, rsrc dHdp));
/*
 * The Legendre transforms (24) and (33) of the quadratic Lagrangian, sphere
 * by sphere, with m evaluated at q first:
 * out_i = m_ii v_i + T_i(Σ_{j≠i} m_ij u_j), where \p side(a, q_i, a) applies
 * T_i in place (I − q_iq_iᵀ for (24), S(q_i)ᵀ for (33)). Returns 0 or the
 * inertia's status (s2_mu.c).
 */
int CL_FN(cl_s2_quad_legendre_form)(CL_FN(cl_s2_quad_ws) *ws, rptr out, rsrc q, rsrc v, rsrc u,
                                    void (*side)(rptr r, rsrc q, rsrc a));
/* One form's term of ∂H/∂q_i beyond ∂U/∂q_i and the inertia's gradient, added to g (the coupling of (27) or (36)). */
typedef void (*s2_coupling_term)(CL_FN(cl_s2_quad_ws) *ws, rptr g, size_t i, rsrc q);
/*
 * The fields (27) and (36) of the momentum forms, dx from x = (q, p) of form
 * CL_S2_MU or CL_S2_PI: m, ∂U/∂q, the conjugate velocity and q̇, the forces
 * and ∂m/∂q, then ∂H/∂q_i = ∂U/∂q_i + c_i − ½ Σ_jk (q̇_j·q̇_k) ∂m_jk/∂q_i
 * into ws->t, with c_i the form's coupling term (\p prepare, when not NULL,
 * runs once before the first), and Hamilton's equations of the form with
 * ∂H/∂p the conjugate velocity: Proposition 3 (23) or 4 (31), (32) (s2_mu.c).
 */
int CL_FN(cl_s2_quad_momentum_field)(CL_FN(cl_s2_quad_ws) *ws, int form, rptr dx, rsrc x,
                                     void (*prepare)(CL_FN(cl_s2_quad_ws) *ws, rsrc q), s2_coupling_term coupling);
#endif

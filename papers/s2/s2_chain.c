/** \page ch_s2_chain S2 V — The chain pendulum

n rigid massless links joined by spherical joints hang from a fixed base;
link i carries the mass \f$m_i\f$ at its outboard end, has length \f$l_i\f$, and points
along \f$q_i \in S^2\f$, so the tip of link i is \f$x_i = \sum_{j\le i} l_j q_j\f$ and the
configuration manifold is (S²)ⁿ. The kinetic energy \f$\tfrac12\sum_i m_i\|\dot x_i\|^2\f$ is the
quadratic form [S2 (38)]
\f[ T(q,\omega) = \tfrac12\sum_{i,j} M_{ij}l_il_j\,\omega_i^TS(q_i)^TS(q_j)\omega_j,
    \qquad M_{ij} = \sum_{k=\max(i,j)}^n m_k , \f]
(the printed (38) repeats the factor \f$M_{ij}l_il_j\f$; see \ref errata_S2 "the S2 errata") and
the potential is [S2 (39)]
\f[ U(q) = \sum_i\sum_{j\ge i} m_j g l_i\, e_3^Tq_i . \f]
A torque τ at the base joint and a force d at the tip do the virtual work
\f$\delta W = \gamma_1\cdot\tau + d\cdot\delta x_n\f$, so the generalized forces (\f$\delta W = \sum_i f_i\cdot\delta q_i\f$) are
\f$f_1 = \tau\times q_1 + l_1d\f$ and \f$f_i = l_id\f$; their moments
\f$S(q_i)f_i = P_1\tau\,\delta_{i1} + l_i\,q_i\times d\f$ are what the paper prints as \f$f_i\f$ (see \ref errata_S2 "the S2 errata").
Corollary 2 gives the Euler–Lagrange equations [S2 (40)]
\f[ M_{ii}l_i^2\dot\omega_i + \sum_{j\ne i}M_{ij}l_il_jS(q_i)^TS(q_j)\dot\omega_j
    - \sum_{j\ne i}M_{ij}l_il_j\|\omega_j\|^2S(q_i)q_j
    - \sum_{j\ge i}m_jgl_iS(e_3)q_i = S(q_i)f_i \f]
and Corollary 4 Hamilton's equations [S2 (41), (42)], whose gravity term is
\f$\partial U/\partial q_i = \sum_{j\ge i} m_j g l_i e_3\f$ (the printed (42) sums over all j with \f$l_j\f$).

<b>O(n) solve.</b> \f$M = B\,\mathrm{diag}(m)B^T\f$ with \f$B_{ik} = [i \le k]\f$, so
\f$M^{-1} = B^{-T}\mathrm{diag}(1/m)B^{-1}\f$ is tridiagonal: \f$(M^{-1})_{ii} = 1/m_i + 1/m_{i-1}\f$,
\f$(M^{-1})_{i,i+1} = -1/m_i\f$. Write \f$x_i = l_i\ddot q_i\f$. Dividing row i of (13) by \f$l_i\f$,
the tangential equations say \f$P_i(Mx)_i = g_i\f$ with \f$g_i = P_i(f_i/l_i - M_{ii}g\,e_3)\f$,
so \f$(Mx)_i = g_i + \lambda_iq_i\f$ for unknown scalars \f$\lambda_i\f$ (the link
tensions, up to scale), and \f$x = M^{-1}(g + \lambda q)\f$. The constraint
\f$q_i\cdot x_i = -l_i\|\dot q_i\|^2\f$ then reads
\f[ \sum_j (M^{-1})_{ij}(q_i\cdot q_j)\lambda_j = -l_i\|\dot q_i\|^2 - q_i\cdot(M^{-1}g)_i , \f]
a tridiagonal system, symmetric positive definite (the Gram matrix of the
vectors \f$q_je_j\f$ in the \f$M^{-1}\f$ inner product), solved without pivoting. Every
step is O(n), against O(n³) for the dense 3n×3n solve; bench/bench_chain.c
measures both. The same tangent solve inverts the Legendre transforms, so
all four forms (cl_chain_rhs_d()) are O(n); the generic dense forms of
\ref cl_chain_quad_d "cl_chain_quad" are their reference.

<b>The spherical pendulum in angles.</b> For n = 1,
q = (sin θ cos φ, sin θ sin φ, cos θ) gives the textbook equations
θ̈ = sin θ cos θ φ̇² + (g/l) sin θ, φ̈ = −2 cot θ θ̇ φ̇ (cl_sph_rhs_angles_d()),
singular at the poles θ = 0, π — the hanging and inverted equilibria, where
the global form has no difficulty.
*/
#include <stdlib.h>
#include "s2_forms_impl.h"
#include "s2_chain.h"

/* Scratch of the O(n) solves: 3n numbers each for the vectors, n each for the tridiagonal system. */
typedef struct CL_FN(cl_chain_scratch) {
    rptr block;
    rptr f, g, y, z, v, w, h, r; /* 3n each */
    rptr ad, ao, ab, lam, cp;    /* n each: diagonal, off-diagonal, right side, solution, sweep factors */
} CL_FN(cl_chain_scratch);

struct CL_FN(cl_chain) {
    size_t n;
    cl_prec_t prec;
    CL_FN(cl_s2_quad) quad;
    CL_FN(cl_s2_quad_ws) *ws;         /* of the dense reference forms: O(n²), made on first use */
    CL_FN(cl_chain_scratch) *scratch; /* of cl_chain_rhs */
    rptr block;
    rptr m, l, cM, tdiag, toff; /* masses, lengths, M_ii, (M⁻¹)_ii, (M⁻¹)_{i,i+1} */
    rptr grav, tau, d;           /* g, τ (3), d (3) */
};

/* ---- callbacks of the generic quadratic-Lagrangian interface ---- */

void CL_FN(cl_chain_M)(const CL_FN(cl_chain) *ch, size_t i, size_t j, rptr out)
{
    r_set(out, ch->cM + (i > j ? i : j));
}

/* out = M_ij l_i l_j = m_ij of [S2 (12)]. */
static void chain_mij(const CL_FN(cl_chain) *ch, size_t i, size_t j, rptr out)
{
    r_mul(out, ch->l + i, ch->l + j);
    r_mul(out, out, ch->cM + (i > j ? i : j));
}

static int chain_inertia(void *ctx, rptr m, rsrc q)
{
    const CL_FN(cl_chain) *ch = ctx;
    size_t n = ch->n;
    (void)q;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) chain_mij(ch, i, j, m + i * n + j);
    return CL_OK;
}

/* ∂U/∂q_i = M_ii g l_i e₃ = Σ_{j≥i} m_j g l_i e₃  [S2 (39)] */
static int chain_potential(void *ctx, rptr U, rptr dU, rsrc q)
{
    const CL_FN(cl_chain) *ch = ctx;
    if (U) CL_FN(cl_chain_potential)(ch, U, q);
    if (dU)
        for (size_t i = 0; i < ch->n; i++) {
            r_set_zero(dU + 3 * i);
            r_set_zero(dU + 3 * i + 1);
            r_mul(dU + 3 * i + 2, ch->cM + i, ch->grav);
            r_mul(dU + 3 * i + 2, dU + 3 * i + 2, ch->l + i);
        }
    return CL_OK;
}

static int chain_force(void *ctx, rptr f, rsrc q, rsrc qdot)
{
    (void)qdot;
    CL_FN(cl_chain_forces)(ctx, f, q);
    return CL_OK;
}

static CL_FN(cl_chain_scratch) *chain_scratch_new(const CL_FN(cl_chain) *ch)
{
    size_t n = ch->n;
    CL_FN(cl_chain_scratch) *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t n3 = 3 * n;
    CL_FN(cl_slice) part[] = {{&s->f, n3}, {&s->g, n3}, {&s->y, n3}, {&s->z, n3}, {&s->v, n3}, {&s->w, n3}, {&s->h, n3},
                              {&s->r, n3}, {&s->ad, n}, {&s->ao, n}, {&s->ab, n}, {&s->lam, n}, {&s->cp, n}};
    s->block = CL_FN(cl_rvec_slices)(ch->prec, part, sizeof part / sizeof part[0]);
    if (s->block) return s;
    free(s);
    return NULL;
}

static void chain_scratch_free(CL_FN(cl_chain_scratch) *s)
{
    if (!s) return;
    CL_FN(cl_rvec_free)(s->block);
    free(s);
}

int CL_FN(cl_chain_new)(CL_FN(cl_chain) **out, size_t n, rsrc m, rsrc l, rsrc g, cl_prec_t prec)
{
    *out = NULL;
    if (n < 1) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(m, n) || !CL_FN(cl_rvec_is_finite)(l, n) ||
        !CL_FN(cl_rvec_is_finite)(g, 1))
        return CL_ENAN;
    for (size_t i = 0; i < n; i++)
        if (r_sgn(m + i) <= 0 || r_sgn(l + i) <= 0) return CL_EPARAM;
    if (r_sgn(g) < 0) return CL_EPARAM;
    CL_FN(cl_chain) *ch = calloc(1, sizeof *ch);
    if (!ch) return CL_ENOMEM;
    ch->n = n;
    ch->prec = prec;
    CL_FN(cl_slice) part[] = {{&ch->m, n},     {&ch->l, n},    {&ch->cM, n},  {&ch->tdiag, n},
                              {&ch->toff, n}, {&ch->grav, 1}, {&ch->tau, 3}, {&ch->d, 3}};
    ch->block = CL_FN(cl_rvec_slices)(prec, part, sizeof part / sizeof part[0]);
    if (!ch->block) {
        free(ch);
        return CL_ENOMEM;
    }
    CL_FN(cl_rvec_copy)(ch->m, m, n);
    CL_FN(cl_rvec_copy)(ch->l, l, n);
    r_set(ch->grav, g);
    /* M_ii = Σ_{k≥i} m_k; (M⁻¹)_ii = 1/m_i + 1/m_{i−1}; (M⁻¹)_{i,i+1} = −1/m_i */
    for (size_t i = n; i-- > 0;) {
        r_set(ch->cM + i, m + i);
        if (i + 1 < n) r_add(ch->cM + i, ch->cM + i, ch->cM + i + 1);
    }
    for (size_t i = 0; i < n; i++) {
        r_si_div(ch->toff + i, 1, m + i);
        r_set(ch->tdiag + i, ch->toff + i);
        if (i > 0) r_add(ch->tdiag + i, ch->tdiag + i, ch->toff + i - 1);
    }
    for (size_t i = 0; i < n; i++) r_neg(ch->toff + i, ch->toff + i);
    ch->quad = (CL_FN(cl_s2_quad)){.n = n, .ctx = ch, .inertia = chain_inertia,
                                   .potential = chain_potential, .force = chain_force};
    ch->scratch = chain_scratch_new(ch);
    int st = ch->scratch ? CL_OK : CL_ENOMEM;
    return CL_HAND_OUT(out, ch, st, CL_FN(cl_chain_free));
}

void CL_FN(cl_chain_free)(CL_FN(cl_chain) *ch)
{
    if (!ch) return;
    CL_FN(cl_s2_quad_ws_free)(ch->ws);
    chain_scratch_free(ch->scratch);
    CL_FN(cl_rvec_free)(ch->block);
    free(ch);
}

size_t CL_FN(cl_chain_n)(const CL_FN(cl_chain) *ch) { return ch->n; }

void CL_FN(cl_chain_set_control)(CL_FN(cl_chain) *ch, rsrc tau, rsrc d)
{
    if (tau) v3_set(ch->tau, tau); else v3_zero(ch->tau);
    if (d) v3_set(ch->d, d); else v3_zero(ch->d);
}

const CL_FN(cl_s2_quad) *CL_FN(cl_chain_quad)(const CL_FN(cl_chain) *ch) { return &ch->quad; }
CL_FN(cl_s2_quad_ws) *CL_FN(cl_chain_ws)(CL_FN(cl_chain) *ch)
{
    if (!ch->ws) CL_FN(cl_s2_quad_ws_new)(&ch->ws, &ch->quad, ch->prec);
    return ch->ws;
}

/**
 * \brief Kinetic energy [S2 (38)], corrected.
 * \f[ T(q,\omega) = \tfrac12\sum_{i,j=1}^n M_{ij}l_il_j\,\omega_i^TS(q_i)^TS(q_j)\omega_j \f]
 * The printed (38) carries the factor M_ij l_i l_j twice.
 */
void CL_FN(cl_chain_kinetic_omega)(const CL_FN(cl_chain) *ch, rptr T, rsrc q, rsrc w)
{
    size_t n = ch->n;
    R_DECL(d, ch->prec);
    R_DECL(c, ch->prec);
    RV_DECL(ui, 3, ch->prec); /* S(q_i) ω_i */
    RV_DECL(uj, 3, ch->prec);
    r_set_zero(T);
    for (size_t i = 0; i < n; i++) {
        v3_cross(ui, q + 3 * i, w + 3 * i);
        for (size_t j = 0; j < n; j++) {
            v3_cross(uj, q + 3 * j, w + 3 * j);
            v3_dot(d, ui, uj);
            chain_mij(ch, i, j, c);
            r_addmul(T, c, d);
        }
    }
    r_mul_2si(T, T, -1);
}

/** \brief Potential [S2 (39)]: \f$U = \sum_i\sum_{j\ge i} m_jgl_i\,e_3^Tq_i\f$. */
void CL_FN(cl_chain_potential)(const CL_FN(cl_chain) *ch, rptr U, rsrc q)
{
    R_DECL(t, ch->prec);
    r_set_zero(U);
    for (size_t i = 0; i < ch->n; i++) {
        r_mul(t, ch->cM + i, ch->l + i);
        r_addmul(U, t, q + 3 * i + 2);
    }
    r_mul(U, U, ch->grav);
}

/**
 * \brief Generalized forces of the base torque τ and the tip force d.
 *
 * From δW = γ₁·τ + d·Σ_i l_iδq_i and δq_i = γ_i × q_i:
 * \f[ f_1 = \tau\times q_1 + l_1 d,\qquad f_i = l_i d\ (i\ge 2), \f]
 * so that \f$S(q_i)f_i = (I - q_1q_1^T)\tau\,\delta_{i1} + l_i S(q_i)d\f$, the right-hand
 * side of [S2 (40)]. (The paper prints these moments as f_i.)
 */
void CL_FN(cl_chain_forces)(const CL_FN(cl_chain) *ch, rptr f, rsrc q)
{
    for (size_t i = 0; i < ch->n; i++) v3_scale(f + 3 * i, ch->l + i, ch->d);
    RV_DECL(a, 3, ch->prec);
    v3_cross(a, ch->tau, q);
    v3_add(f, f, a);
}

/* z = M⁻¹ a (tridiagonal), per component; z may not alias a. */
static void Minv_apply(const CL_FN(cl_chain) *ch, rptr z, rsrc a)
{
    size_t n = ch->n;
    for (size_t i = 0; i < n; i++) {
        v3_scale(z + 3 * i, ch->tdiag + i, a + 3 * i);
        if (i > 0) v3_axpy(z + 3 * i, ch->toff + i - 1, a + 3 * (i - 1));
        if (i + 1 < n) v3_axpy(z + 3 * i, ch->toff + i, a + 3 * (i + 1));
    }
}

/* out = M a in O(n): (Ma)_i = M_ii Σ_{j≤i} a_j + Σ_{j>i} M_jj a_j. out may not alias a. */
static void M_apply(const CL_FN(cl_chain) *ch, rptr out, rsrc a)
{
    size_t n = ch->n;
    RV_DECL(s, 3, ch->prec);
    for (size_t i = 0; i < n; i++) { /* prefix sums */
        v3_add(s, s, a + 3 * i);
        v3_scale(out + 3 * i, ch->cM + i, s);
    }
    v3_zero(s);
    for (size_t i = n; i-- > 0;) { /* suffix sums Σ_{j>i} M_jj a_j */
        v3_add(out + 3 * i, out + 3 * i, s);
        v3_axpy(s, ch->cM + i, a + 3 * i);
    }
}

/*
 * The O(n) tangent solve: z with P_i (M z)_i = P_i g_i and q_i·z_i = c_i
 * (c_i = nrm[i], or 0 when nrm is NULL). g (3n) is projected in place; z
 * may not alias g, nrm or the scratch s->y, s->ad, ao, ab, lam, cp it uses.
 */
static int tangent_solve(const CL_FN(cl_chain) *ch, rptr z, rptr g, rsrc q, rsrc nrm, CL_FN(cl_chain_scratch) *s)
{
    size_t n = ch->n;
    R_DECL(t, ch->prec);
    s2_proj_each(n, g, q, g);
    Minv_apply(ch, s->y, g);
    for (size_t i = 0; i < n; i++) {
        /* (M⁻¹)_ii (q_i·q_i): with the computed |q_i|² rather than 1, so that
           q_i·z_i = c_i holds exactly also off the sphere (integrators step off
           it by their truncation error, and d/dt(q_i·q̇_i) = 0 must not feed it) */
        v3_dot(t, q + 3 * i, q + 3 * i);
        r_mul(s->ad + i, ch->tdiag + i, t);
        if (i + 1 < n) {
            v3_dot(t, q + 3 * i, q + 3 * (i + 1));
            r_mul(s->ao + i, ch->toff + i, t);
        }
        v3_dot(t, q + 3 * i, s->y + 3 * i);
        if (nrm) r_sub(s->ab + i, nrm + i, t);
        else r_neg(s->ab + i, t);
    }
    int st = CL_FN(cl_tridiag_spd_solve)(s->lam, s->cp, s->ad, s->ao, s->ab, n);
    if (st) return st;
    /* z = y + M⁻¹(λ q) */
    for (size_t i = 0; i < n; i++) {
        rptr zi = z + 3 * i;
        v3_set(zi, s->y + 3 * i);
        r_mul(t, ch->tdiag + i, s->lam + i);
        v3_axpy(zi, t, q + 3 * i);
        if (i > 0) {
            r_mul(t, ch->toff + i - 1, s->lam + i - 1);
            v3_axpy(zi, t, q + 3 * (i - 1));
        }
        if (i + 1 < n) {
            r_mul(t, ch->toff + i, s->lam + i + 1);
            v3_axpy(zi, t, q + 3 * (i + 1));
        }
    }
    return CL_OK;
}

/* out_i = z_i / l_i. */
static void divide_by_lengths(const CL_FN(cl_chain) *ch, rptr out, rsrc z)
{
    R_DECL(t, ch->prec);
    for (size_t i = 0; i < ch->n; i++) {
        r_si_div(t, 1, ch->l + i);
        v3_scale(out + 3 * i, t, z + 3 * i);
    }
}

/* q̈ into out from (q, q̇) in O(n): x_i = l_i q̈_i solves the tangent system.
   Uses s->f, g, r, z and the scratch of tangent_solve; out may be s->h. */
static int accel(const CL_FN(cl_chain) *ch, rptr out, rsrc q, rsrc qdot, CL_FN(cl_chain_scratch) *s)
{
    size_t n = ch->n;
    R_DECL(t, ch->prec);
    CL_FN(cl_chain_forces)(ch, s->f, q);
    for (size_t i = 0; i < n; i++) {
        rptr gi = s->g + 3 * i;
        v3_zero(gi);
        r_div(t, s->f + 3 * i + 0, ch->l + i); r_set(gi + 0, t);
        r_div(t, s->f + 3 * i + 1, ch->l + i); r_set(gi + 1, t);
        r_div(t, s->f + 3 * i + 2, ch->l + i);
        r_mul(gi + 2, ch->cM + i, ch->grav);
        r_sub(gi + 2, t, gi + 2);
        /* normal target −l_i ‖q̇_i‖² (first n entries of s->r) */
        v3_dot(t, qdot + 3 * i, qdot + 3 * i);
        r_mul(t, t, ch->l + i);
        r_neg(s->r + i, t);
    }
    int st = tangent_solve(ch, s->z, s->g, q, s->r, s);
    if (st) return st;
    divide_by_lengths(ch, out, s->z);
    return CL_OK;
}

/* qdot = q̇ from μ in O(n) (inverse Legendre transform [S2 (25)]); uses s->g, z
   and the scratch of tangent_solve. */
static int qdot_from_mu(const CL_FN(cl_chain) *ch, rptr qdot, rsrc q, rsrc mu, CL_FN(cl_chain_scratch) *s)
{
    divide_by_lengths(ch, s->g, mu);
    int st = tangent_solve(ch, s->z, s->g, q, NULL, s);
    if (st) return st;
    divide_by_lengths(ch, qdot, s->z);
    return CL_OK;
}

/* qdot = q̇ from the momentum y of form (q, μ) or (q, π) (μ = π × q kept in s->w). */
static int qdot_from_momentum(const CL_FN(cl_chain) *ch, int form, rptr qdot, rsrc q, rsrc y,
                              CL_FN(cl_chain_scratch) *s)
{
    if (form == CL_S2_MU) return qdot_from_mu(ch, qdot, q, y, s);
    CL_FN(cl_s2_mu_from_pi)(ch->n, s->w, q, y);
    return qdot_from_mu(ch, qdot, q, s->w, s);
}

int CL_FN(cl_chain_rhs)(CL_FN(cl_chain) *ch, int form, rptr dx, rsrc x)
{
    size_t n = ch->n;
    CL_FN(cl_chain_scratch) *s = ch->scratch;
    rsrc q = x, y = x + 3 * n;
    int st;
    R_DECL(t, ch->prec);
    RV_DECL(a, 3, ch->prec);
    switch (form) {
    case CL_S2_QDOT:
        CL_FN(cl_rvec_copy)(dx, y, 3 * n);
        return accel(ch, dx + 3 * n, q, y, s);
    case CL_S2_OMEGA: /* [S2 (40)]: ω̇_i = q_i × q̈_i */
        CL_FN(cl_s2n_qdot_from_omega)(n, dx, q, y);
        st = accel(ch, s->h, q, dx, s);
        if (st) return st;
        for (size_t i = 0; i < n; i++) v3_cross(dx + 3 * (n + i), q + 3 * i, s->h + 3 * i);
        return CL_OK;
    case CL_S2_MU:
    case CL_S2_PI:
        st = qdot_from_momentum(ch, form, s->v, q, y, s);
        if (st) return st;
        /* z = l q̇ and h = M z, so Σ_k M_ik l_k q̇_k = h_i */
        for (size_t i = 0; i < n; i++) v3_scale(s->z + 3 * i, ch->l + i, s->v + 3 * i);
        M_apply(ch, s->h, s->z);
        CL_FN(cl_chain_forces)(ch, s->f, q);
        chain_potential(ch, NULL, s->r, q); /* ∂U/∂q */
        if (form == CL_S2_MU) {
            /* ∂H/∂q_i = l_i (q_i·h_i) q̇_i + ∂U/∂q_i   ([S2 (27)], q_i·q̇_i = 0) */
            for (size_t i = 0; i < n; i++) {
                v3_dot(t, q + 3 * i, s->h + 3 * i);
                r_mul(t, t, ch->l + i);
                v3_axpy(s->r + 3 * i, t, s->v + 3 * i);
            }
            CL_FN(cl_s2_hamilton_mu)(n, dx, q, y, s->r, s->v, s->f);
        } else {
            /* ω = q × q̇; ∂H̃/∂q_i = ω_i × l_i(h_i − M_ii z_i) + ∂U/∂q_i  ([S2 (42)]) */
            CL_FN(cl_s2n_omega_from_qdot)(n, s->w, q, s->v);
            for (size_t i = 0; i < n; i++) {
                v3_scale(a, ch->cM + i, s->z + 3 * i);
                v3_sub(a, s->h + 3 * i, a);
                v3_scale(a, ch->l + i, a);
                v3_cross(a, s->w + 3 * i, a);
                v3_add(s->r + 3 * i, s->r + 3 * i, a);
            }
            CL_FN(cl_s2_hamilton_pi)(n, dx, q, y, s->r, s->w, s->f);
        }
        return CL_OK;
    default:
        return CL_EDOMAIN;
    }
}

/**
 * \brief Energy and vertical angular momentum of the chain at (q, q̇):
 * \f[ E = \tfrac12\sum_i m_i\|\dot x_i\|^2 + U,\qquad
 *     L_z = e_3\cdot\sum_i m_i\,x_i\times\dot x_i,\qquad x_i = \sum_{j\le i} l_jq_j , \f]
 * U of [S2 (39)]; ½ Σ m_i ‖ẋ_i‖² is the kinetic energy [S2 (38)] summed link by link.
 */
void CL_FN(cl_chain_invariants_qdot)(const CL_FN(cl_chain) *ch, rptr out, rsrc q, rsrc qdot)
{
    RV_DECL(xp, 3, ch->prec);
    RV_DECL(vp, 3, ch->prec);
    RV_DECL(c, 3, ch->prec);
    R_DECL(t, ch->prec);
    r_set_zero(out);
    r_set_zero(out + 1);
    for (size_t i = 0; i < ch->n; i++) {
        v3_axpy(xp, ch->l + i, q + 3 * i);
        v3_axpy(vp, ch->l + i, qdot + 3 * i);
        v3_dot(t, vp, vp);
        r_addmul(out, ch->m + i, t);
        v3_cross(c, xp, vp);
        r_addmul(out + 1, ch->m + i, c + 2);
    }
    r_mul_2si(out, out, -1);
    CL_FN(cl_chain_potential)(ch, t, q);
    r_add(out, out, t);
}

int CL_FN(cl_chain_invariants)(CL_FN(cl_chain) *ch, int form, rptr out, rsrc x)
{
    size_t n = ch->n;
    CL_FN(cl_chain_scratch) *s = ch->scratch;
    rsrc q = x, y = x + 3 * n;
    switch (form) {
    case CL_S2_QDOT: break;
    case CL_S2_OMEGA: CL_FN(cl_s2n_qdot_from_omega)(n, s->v, q, y); y = s->v; break;
    case CL_S2_MU:
    case CL_S2_PI: {
        int st = qdot_from_momentum(ch, form, s->v, q, y, s);
        if (st) return st;
        y = s->v;
        break;
    }
    default: return CL_EDOMAIN;
    }
    CL_FN(cl_chain_invariants_qdot)(ch, out, q, y);
    return CL_OK;
}

int CL_FN(cl_chain_equilibrium)(const CL_FN(cl_chain) *ch, int k, rptr x)
{
    if (k < 0 || k > 1) return CL_EDOMAIN;
    size_t n = ch->n;
    for (size_t i = 0; i < 6 * n; i++) r_set_zero(x + i);
    for (size_t i = 0; i < n; i++) r_set_si(x + 3 * i + 2, k == 0 ? -1 : 1);
    return CL_OK;
}

/* ---- the spherical pendulum in two angles ---- */

int CL_FN(cl_sph_angles_from_state)(rptr ang, rsrc x)
{
    cl_prec_t p = r_prec(ang);
    R_DECL(rho, p);
    R_DECL(c, p);
    R_DECL(s, p);
    R_DECL(t, p);
    r_hypot(rho, x, x + 1);
    if (r_is_zero(rho)) return CL_EDOMAIN;
    r_atan2(ang, rho, x + 2);
    r_atan2(ang + 1, x + 1, x);
    /* θ̇ = q̇·e_θ, e_θ = (cos θ cos φ, cos θ sin φ, −sin θ); φ̇ = q̇·e_φ / sin θ */
    r_div(c, x, rho);     /* cos φ */
    r_div(s, x + 1, rho); /* sin φ */
    r_mul(t, x + 3, c);
    r_addmul(t, x + 4, s);
    r_mul(t, t, x + 2);   /* (q̇₁cosφ + q̇₂sinφ) cos θ, with cos θ = q₃ */
    r_submul(t, x + 5, rho);
    r_set(ang + 2, t);
    r_mul(t, x + 4, c);
    r_submul(t, x + 3, s);
    r_div(ang + 3, t, rho);
    return CL_OK;
}

void CL_FN(cl_sph_state_from_angles)(rptr x, rsrc ang)
{
    cl_prec_t p = r_prec(x);
    R_DECL(st, p); R_DECL(ct, p); R_DECL(sp, p); R_DECL(cp, p); R_DECL(t, p);
    r_sin(st, ang); r_cos(ct, ang); r_sin(sp, ang + 1); r_cos(cp, ang + 1);
    r_mul(x, st, cp);
    r_mul(x + 1, st, sp);
    r_set(x + 2, ct);
    /* q̇ = θ̇ (cθcφ, cθsφ, −sθ) + φ̇ (−sθsφ, sθcφ, 0) */
    r_mul(t, ct, cp); r_mul(x + 3, t, ang + 2);
    r_mul(t, st, sp); r_submul(x + 3, t, ang + 3);
    r_mul(t, ct, sp); r_mul(x + 4, t, ang + 2);
    r_mul(t, st, cp); r_addmul(x + 4, t, ang + 3);
    r_mul(x + 5, st, ang + 2);
    r_neg(x + 5, x + 5);
}

int CL_FN(cl_sph_rhs_angles)(rptr dang, rsrc ang, rsrc g_over_l)
{
    cl_prec_t p = r_prec(dang);
    R_DECL(st, p); R_DECL(ct, p); R_DECL(t, p); R_DECL(u, p);
    r_sin(st, ang);
    r_cos(ct, ang);
    if (r_is_zero(st)) return CL_EDOMAIN;
    r_set(dang, ang + 2);
    r_set(dang + 1, ang + 3);
    r_mul(t, st, ct);
    r_sqr(u, ang + 3);
    r_mul(t, t, u);
    r_mul(u, g_over_l, st);
    r_add(dang + 2, t, u);
    r_div(t, ct, st);
    r_mul(t, t, ang + 2);
    r_mul(t, t, ang + 3);
    r_mul_si(dang + 3, t, -2);
    return CL_OK;
}

void CL_FN(cl_sph_accel_from_angles)(rptr qdd, rsrc ang, rsrc dang)
{
    cl_prec_t p = r_prec(qdd);
    R_DECL(st, p); R_DECL(ct, p); R_DECL(sp, p); R_DECL(cp, p); R_DECL(t, p);
    R_DECL(a, p); R_DECL(b, p); R_DECL(c, p); R_DECL(e, p);
    r_sin(st, ang); r_cos(ct, ang); r_sin(sp, ang + 1); r_cos(cp, ang + 1);
    /* q_θ = (cθcφ, cθsφ, −sθ), q_φ = (−sθsφ, sθcφ, 0), q_θθ = −q,
       q_θφ = (−cθsφ, cθcφ, 0), q_φφ = (−sθcφ, −sθsφ, 0) */
    r_sqr(a, ang + 2);          /* θ̇² */
    r_mul(b, ang + 2, ang + 3);
    r_mul_2si(b, b, 1);         /* 2θ̇φ̇ */
    r_sqr(c, ang + 3);          /* φ̇² */
    r_mul(t, ct, cp); r_mul(e, t, dang + 2);
    r_mul(t, st, sp); r_submul(e, t, dang + 3);
    r_mul(t, st, cp); r_submul(e, t, a);
    r_mul(t, ct, sp); r_submul(e, t, b);
    r_mul(t, st, cp); r_submul(e, t, c);
    r_set(qdd, e);
    r_mul(t, ct, sp); r_mul(e, t, dang + 2);
    r_mul(t, st, cp); r_addmul(e, t, dang + 3);
    r_mul(t, st, sp); r_submul(e, t, a);
    r_mul(t, ct, cp); r_addmul(e, t, b);
    r_mul(t, st, sp); r_submul(e, t, c);
    r_set(qdd + 1, e);
    r_mul(e, st, dang + 2);
    r_neg(e, e);
    r_submul(e, ct, a);
    r_set(qdd + 2, e);
}

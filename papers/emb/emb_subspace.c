/**
 * \page ch_emb_subspace EMB 3.1 — dynamics on a subspace
 *
 * The simplest embedded manifold is a linear subspace M = {x ∈ Rⁿ : Ax = 0}
 * with \f$A \in \mathbb R^{m\times n}\f$ of rank m. Its tangent space is ker A everywhere, and
 * the orthogonal projection onto it is the constant matrix
 * \f[ P = I_{n\times n} - A^T (A A^T)^{-1} A . \f]
 * The paper prints \f$ I - A^T(A^TA)^{-1}A \f$: with A m×n, AᵀA is n×n of
 * rank m < n, hence singular, and Aᵀ (n×m) cannot multiply an n×n matrix;
 * only the m×m Gram matrix AAᵀ is invertible (\ref errata_EMB_page "EMB errata").
 * Since P is constant, DP = 0 and the general equations reduce to
 * [EMB (3.1)]
 * \f[ [I - A^T(AA^T)^{-1}A]\Big\{\frac{d}{dt}\frac{\partial L}{\partial\dot x} - \frac{\partial L}{\partial x}\Big\} = 0 \f]
 * and [EMB (3.2)]
 * \f[ \dot x = [I - A^T(AA^T)^{-1}A]\frac{\partial H}{\partial\mu},\qquad
 *     \dot\mu = -[I - A^T(AA^T)^{-1}A]\frac{\partial H}{\partial x}. \f]
 *
 * The example is a linear system of masses and springs, L = ½ẋᵀMẋ −
 * ½xᵀKx − fᵀx, held on the subspace. The reference is the same system
 * written without constraint in k = n − m reduced coordinates, x = Nq with
 * N a basis of ker A: (NᵀMN)q̈ = −NᵀKNq − Nᵀf. The oracle
 * (emb.subspace.*) compares both, and the general routines of
 * \ref ch_emb_general, at random states.
 *
 * Routines: \ref cl_emb_subspace_new_d "cl_emb_subspace_new",
 * \ref cl_emb_subspace_projection_d "cl_emb_subspace_projection",
 * \ref cl_emb_subspace_el_accel_d "cl_emb_subspace_el_accel" (3.1),
 * \ref cl_emb_subspace_hamilton_d "cl_emb_subspace_hamilton" (3.2),
 * \ref cl_emb_subspace_reduced_accel_d "cl_emb_subspace_reduced_accel".
 */
#include <stdlib.h>
#include "emb_subspace.h"
#include "emb_impl.h"

struct CL_FN(cl_emb_subspace) {
    size_t n, m, k;
    size_t free_idx[64];
    rptr block;
    rptr A, P, N, M, K, f, Mr_inv, Mt_inv;
    rptr S, W;          /* n×n scratch: (PMP + I − P) and its LU factors; M P */
    rptr t1, t2, t3;    /* n-vector scratch of el_accel, hamilton and the reduced forms */
};

/*
 * The pivot columns of reduced row echelon form, chosen greedily: column c
 * is a pivot when it is independent of the pivots before it by the rank
 * rule of cl_nullspace (an empty null space of those columns). Returns 0,
 * CL_ESINGULAR when fewer than m columns qualify (rank A < m), or CL_ENOMEM.
 */
static int pivot_columns(size_t *piv, rsrc A, size_t m, size_t n)
{
    rptr C = CL_FN(cl_rvec_new)(2 * m * m, r_prec(A));
    if (!C) return CL_ENOMEM;
    rptr null = C + m * m;
    size_t r = 0;
    int st = CL_OK;
    for (size_t c = 0; c < n && r < m && !st; c++) {
        size_t w = r + 1;   /* C = A restricted to the columns piv[0..r−1], c */
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < r; j++) r_set(C + i * w + j, A + i * n + piv[j]);
            r_set(C + i * w + r, A + i * n + c);
        }
        int dim;
        st = CL_FN(cl_nullspace)(null, &dim, C, (int)m, (int)w, 0);
        if (!st && dim == 0) piv[r++] = c;
    }
    CL_FN(cl_rvec_free)(C);
    return st ? st : r < m ? CL_ESINGULAR : CL_OK;
}

/*
 * The null-space basis of reduced row echelon form: N (n×k) has the
 * identity in the rows of the free variables and −A_p⁻¹A_f in the rows of
 * the pivot variables (A_p, A_f: the pivot and free columns of A), so that
 * the reduced coordinates of x ∈ ker A are its free entries. X holds m×n
 * scalars of scratch.
 */
static int null_basis(CL_FN(cl_emb_subspace) *s, rptr X)
{
    size_t n = s->n, m = s->m, k = s->k, piv[64];
    int st = pivot_columns(piv, s->A, m, n);
    if (st) return st;
    for (size_t c = 0, r = 0, f = 0; c < n; c++) {
        if (r < m && piv[r] == c) r++;
        else s->free_idx[f++] = c;
    }
    rptr Ap = X, Af = X + m * m;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < m; j++) r_set(Ap + i * m + j, s->A + i * n + piv[j]);
        for (size_t j = 0; j < k; j++) r_set(Af + i * k + j, s->A + i * n + s->free_idx[j]);
    }
    if ((st = emb_lu_solve(Ap, Af, m, k))) return st;
    for (size_t i = 0; i < n * k; i++) r_set_zero(s->N + i);
    for (size_t j = 0; j < k; j++) {
        r_set_si(s->N + s->free_idx[j] * k + j, 1);
        for (size_t i = 0; i < m; i++) r_neg(s->N + piv[i] * k + j, Af + i * k + j);
    }
    return CL_OK;
}

int CL_FN(cl_emb_subspace_new)(CL_FN(cl_emb_subspace) **out, size_t n, size_t m,
                               rsrc A, rsrc M, rsrc K, rsrc f)
{
    *out = NULL;
    if (n < 2 || n > 64 || m < 1 || m >= n) return CL_EDIM;
    if (!CL_FN(cl_rvec_is_finite)(A, m * n) || !CL_FN(cl_rvec_is_finite)(M, n * n) ||
        !CL_FN(cl_rvec_is_finite)(K, n * n) || (f && !CL_FN(cl_rvec_is_finite)(f, n)))
        return CL_ENAN;
    cl_prec_t p = r_prec(A);
    size_t k = n - m;
    int in = (int)n, im = (int)m, ik = (int)k;
    CL_FN(cl_emb_subspace) *s = calloc(1, sizeof *s);
    if (!s) return CL_ENOMEM;
    s->n = n; s->m = m; s->k = k;
    size_t nn = n * n;
    CL_FN(cl_slice) part[] = {{&s->A, m * n}, {&s->P, nn},  {&s->M, nn},       {&s->K, nn},  {&s->Mt_inv, nn},
                              {&s->S, nn},    {&s->W, nn},  {&s->N, n * k},    {&s->Mr_inv, k * k},
                              {&s->f, n},     {&s->t1, n},  {&s->t2, n},       {&s->t3, n}};
    s->block = CL_FN(cl_rvec_slices)(p, part, sizeof part / sizeof part[0]);
    rptr X = CL_FN(cl_rvec_new)(m * n + k * n, p); /* construction scratch, freed below */
    int st = s->block && X ? CL_OK : CL_ENOMEM;
    if (st) goto fail;
    CL_FN(cl_rvec_copy)(s->A, A, m * n);
    CL_FN(cl_rvec_copy)(s->M, M, n * n);
    CL_FN(cl_rvec_copy)(s->K, K, n * n);
    if (f) CL_FN(cl_rvec_copy)(s->f, f, n);
    /* G = AAᵀ (m×m, in S), X (m×n) = G⁻¹A, P = I − AᵀX (Aᵀ in W). */
    rptr G = s->S, At = s->W;
    CL_FN(cl_mat_transpose)(At, A, im, in);
    CL_FN(cl_mat_mul)(G, A, At, im, in, im);
    CL_FN(cl_rvec_copy)(X, A, m * n);
    if ((st = emb_lu_solve(G, X, m, n))) goto fail;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            rptr pij = s->P + i * n + j;
            r_set_si(pij, i == j);
            for (size_t l = 0; l < m; l++) r_submul(pij, At + i * m + l, X + l * n + j);
        }
    if ((st = null_basis(s, X))) goto fail;
    /* Mr = NᵀMN (k×k, in S; MN in W), Mr⁻¹ by solving against the identity. */
    rptr MN = s->W, Nt = X + m * n;
    CL_FN(cl_mat_mul)(MN, M, s->N, in, in, ik);
    CL_FN(cl_mat_transpose)(Nt, s->N, in, ik);
    CL_FN(cl_mat_mul)(s->S, Nt, MN, ik, in, ik);
    CL_FN(cl_mat_identity)(s->Mr_inv, ik);
    if (emb_lu_solve(s->S, s->Mr_inv, k, k)) { st = CL_EPARAM; goto fail; }
    /* Mt⁻¹ = N Mr⁻¹ Nᵀ (N Mr⁻¹ in W). */
    CL_FN(cl_mat_mul)(s->W, s->N, s->Mr_inv, in, ik, ik);
    CL_FN(cl_mat_mul)(s->Mt_inv, s->W, Nt, in, ik, in);
fail:
    CL_FN(cl_rvec_free)(X);
    return CL_HAND_OUT(out, s, st, CL_FN(cl_emb_subspace_free));
}

void CL_FN(cl_emb_subspace_free)(CL_FN(cl_emb_subspace) *s)
{
    if (!s) return;
    CL_FN(cl_rvec_free)(s->block);
    free(s);
}

void CL_FN(cl_emb_subspace_dims)(const CL_FN(cl_emb_subspace) *s, size_t *n, size_t *k)
{
    if (n) *n = s->n;
    if (k) *k = s->k;
}

void CL_FN(cl_emb_subspace_projection)(const CL_FN(cl_emb_subspace) *s, rptr P)
{
    CL_FN(cl_rvec_copy)(P, s->P, s->n * s->n);
}

static int sub_proj(void *ctx, rptr out, rsrc x, rsrc y)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    CL_FN(cl_mat_vec)(out, s->P, y, (int)s->n, (int)s->n);
    return CL_OK;
}

static int sub_dproj(void *ctx, rptr out, rsrc x, rsrc v, rsrc y)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    for (size_t i = 0; i < s->n; i++) r_set_zero(out + i);
    return CL_OK;
}

/* ½ yᵀ B y for symmetric B, row by row (no scratch: a query on a const system). */
static void half_quad(rptr q, rsrc B, rsrc y, size_t n)
{
    R_DECL(t, r_prec(q));
    r_set_zero(q);
    for (size_t i = 0; i < n; i++) {
        emb_dot(t, B + i * n, y, n);
        r_addmul(q, y + i, t);
    }
    r_mul_2si(q, q, -1);
}

/* out = ½yᵀBy ± (½xᵀKx + fᵀx): L (sign −1, B = M) or H and the energy (sign +1). */
static void kinetic_potential(const CL_FN(cl_emb_subspace) *s, rptr out, rsrc B, rsrc y, rsrc x, int sign)
{
    R_DECL(t, r_prec(out));
    half_quad(out, B, y, s->n);
    half_quad(t, s->K, x, s->n);
    if (sign < 0) r_sub(out, out, t);
    else r_add(out, out, t);
    emb_dot(t, s->f, x, s->n);
    if (sign < 0) r_sub(out, out, t);
    else r_add(out, out, t);
}

static int sub_lag(void *ctx, rptr L, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    kinetic_potential(s, L, s->M, v, x, -1);
    return CL_OK;
}

/* g = −(Kx + f). */
static int sub_lag_dx(void *ctx, rptr g, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    CL_FN(cl_mat_vec)(g, s->K, x, (int)s->n, (int)s->n);
    for (size_t i = 0; i < s->n; i++) {
        r_add(g + i, g + i, s->f + i);
        r_neg(g + i, g + i);
    }
    return CL_OK;
}

static int sub_lag_dv(void *ctx, rptr g, rsrc x, rsrc v)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    CL_FN(cl_mat_vec)(g, s->M, v, (int)s->n, (int)s->n);
    return CL_OK;
}

/* L_ẋẋ w = M w; L_ẋx = 0 (the L of (3.1) separates ẋ and x), as DP = 0. */
static int sub_lag_dvdv(void *ctx, rptr out, rsrc x, rsrc v, rsrc w) { return sub_lag_dv(ctx, out, x, w); }

static int sub_lag_dvdx(void *ctx, rptr out, rsrc x, rsrc v, rsrc w) { return sub_dproj(ctx, out, x, v, w); }

static int sub_ham(void *ctx, rptr H, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    kinetic_potential(s, H, s->Mt_inv, mu, x, 1);
    return CL_OK;
}

static int sub_ham_dx(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    CL_FN(cl_mat_vec)(g, s->K, x, (int)s->n, (int)s->n);
    for (size_t i = 0; i < s->n; i++) r_add(g + i, g + i, s->f + i);
    return CL_OK;
}

static int sub_ham_dmu(void *ctx, rptr g, rsrc x, rsrc mu)
{
    const CL_FN(cl_emb_subspace) *s = ctx;
    CL_FN(cl_mat_vec)(g, s->Mt_inv, mu, (int)s->n, (int)s->n);
    return CL_OK;
}

void CL_FN(cl_emb_subspace_model)(CL_FN(cl_emb_subspace) *s, CL_FN(cl_emb_model) *model)
{
    *model = EMB_MODEL(s->n, s, sub);
}

void CL_FN(cl_emb_subspace_energy)(const CL_FN(cl_emb_subspace) *s, rptr E, rsrc x, rsrc v)
{
    kinetic_potential(s, E, s->M, v, x, 1);
}

/** [EMB (3.1)]. */
int CL_FN(cl_emb_subspace_el_accel)(CL_FN(cl_emb_subspace) *s, rptr a, rsrc x, rsrc v)
{
    size_t n = s->n;
    int in = (int)n;
    /* S = P M P + I − P (M P in W). */
    CL_FN(cl_mat_mul)(s->W, s->M, s->P, in, in, in);
    CL_FN(cl_mat_mul)(s->S, s->P, s->W, in, in, in);
    for (size_t i = 0; i < n * n; i++) r_sub(s->S + i, s->S + i, s->P + i);
    for (size_t i = 0; i < n; i++) r_add_si(s->S + i * (n + 1), s->S + i * (n + 1), 1);
    sub_lag_dx(s, s->t1, x, v);               /* −(Kx + f) */
    CL_FN(cl_mat_vec)(a, s->P, s->t1, in, in);
    return emb_lu_solve(s->S, a, n, 1);
}

/** [EMB (3.2)]. */
int CL_FN(cl_emb_subspace_hamilton)(CL_FN(cl_emb_subspace) *s, rptr xdot, rptr mudot, rsrc x, rsrc mu)
{
    size_t n = s->n;
    sub_ham_dmu(s, s->t1, x, mu);
    CL_FN(cl_mat_vec)(xdot, s->P, s->t1, (int)n, (int)n);
    sub_ham_dx(s, s->t1, x, mu);
    CL_FN(cl_mat_vec)(mudot, s->P, s->t1, (int)n, (int)n);
    for (size_t i = 0; i < n; i++) r_neg(mudot + i, mudot + i);
    return CL_OK;
}

void CL_FN(cl_emb_subspace_from_reduced)(const CL_FN(cl_emb_subspace) *s, rptr x, rsrc q)
{
    CL_FN(cl_mat_vec)(x, s->N, q, (int)s->n, (int)s->k);
}

void CL_FN(cl_emb_subspace_to_reduced)(const CL_FN(cl_emb_subspace) *s, rptr q, rsrc x)
{
    for (size_t j = 0; j < s->k; j++) r_set(q + j, x + s->free_idx[j]);
}

/* out = −Nᵀ(K N q + f), k entries; writes t1, t2. */
static void reduced_force(CL_FN(cl_emb_subspace) *s, rptr out, rsrc q)
{
    CL_FN(cl_mat_vec)(s->t1, s->N, q, (int)s->n, (int)s->k);
    CL_FN(cl_mat_vec)(s->t2, s->K, s->t1, (int)s->n, (int)s->n);
    for (size_t i = 0; i < s->n; i++) r_add(s->t2 + i, s->t2 + i, s->f + i);
    emb_matT_vec(out, s->N, s->t2, s->n, s->k);
    for (size_t j = 0; j < s->k; j++) r_neg(out + j, out + j);
}

void CL_FN(cl_emb_subspace_reduced_accel)(CL_FN(cl_emb_subspace) *s, rptr qdd, rsrc q, rsrc qd)
{
    reduced_force(s, s->t3, q);
    CL_FN(cl_mat_vec)(qdd, s->Mr_inv, s->t3, (int)s->k, (int)s->k);
}

void CL_FN(cl_emb_subspace_reduced_hamilton)(CL_FN(cl_emb_subspace) *s, rptr qdot, rptr pdot,
                                             rsrc q, rsrc p)
{
    CL_FN(cl_mat_vec)(qdot, s->Mr_inv, p, (int)s->k, (int)s->k);
    reduced_force(s, pdot, q);
}

void CL_FN(cl_emb_subspace_reduced_momentum)(const CL_FN(cl_emb_subspace) *s, rptr p, rsrc mu)
{
    emb_matT_vec(p, s->N, mu, s->n, s->k);
}

/**
 * \page ch_skate_quasi SKATE §4 — Γ-dependent quasivelocities and Theorem 9
 *
 * The multipliers of (17) are eliminated by a Hamel basis adapted to the
 * constraints: 𝔰 = 𝔡(Γ) ⊕ 𝔳(Γ) with 𝔡(Γ) = span{𝓔_α(Γ)}, α ≤ n − r, and
 * ξ = v^i 𝓔_i(Γ), so that ξ ∈ 𝔡 ⟺ v^a = 0 [SKATE (22)]. The brackets in
 * that basis are Γ-dependent [SKATE (23)]
 * \f[ \mathcal C_{ij}^k(Γ) = \mathcal E_i^l\mathcal E_j^m c_{lm}^p(\mathcal E^{-1})_p^k \f]
 * (the printed (23) repeats the index k where the contraction runs over p).
 * With the momenta \f$p_i = \langle δ\ell/δξ|_c, \mathcal E_i\rangle\f$ (24), Theorem 9 gives [SKATE (25)–(27)]
 * \f[ \dot p_α = -\mathcal B^i_{αβ}(Γ)p_iv^β + K^k_{αj}\,\tfrac{\partial\ell}{\partialΓ_j}\Big|_cΓ_k,\qquad
 *     \dotΓ_i = -\varkappa^k_{iβ}(Γ)v^βΓ_k, \f]
 * \f[ K^k_{ij} = ⟨\mathbf K(e_j, e^k_*), \mathcal E_i⟩,\quad \varkappa^k_{iβ} = κ^k_{ij}\mathcal E^j_β,\quad
 *     \mathcal B = \mathcal C + \mathcal F,\quad \mathcal F^i_{αβ} = D^j\mathcal E^l_α(\mathcal E^{-1})^i_l\varkappa^k_{jβ}Γ_k . \f]
 * For ℓ = ½𝔾ξξ − U(Γ) (28), \f$p_i = \mathcal G_{iβ}v^β\f$ with
 * \f$\mathcal G_{ij} = \mathbb G_{kl}\mathcal E_i^k\mathcal E_j^l\f$ (29), which closes the system:
 * \f$\dot p_α = \mathcal G_{αβ}\dot v^β + (d\mathcal G_{αβ}/dt)v^β\f$ is solved for v̇.
 * The constrained energy \f$ℰ = \tfrac12\mathcal G_{αβ}v^αv^β + U\f$ (30) is conserved.
 *
 * This module implements the theorem for any (𝔰, X*, 𝓔(Γ)) given by
 * structure constants (cl_hamel_rhs(),
 * cl_hamel_structure(),
 * cl_hamel_energy()); cl_skate_hamel()
 * instantiates it for the skate with the basis (31), and the oracle compares
 * the result with the hand-derived field (38) of §5.
 */
#include "r3.h"
#include "skate.h"
#include "linalg.h"

#define HMAX 8

/* 𝓔⁻¹ (n×n) by the LU factors of 𝓔; CL_ESINGULAR by the rule of cl_lu_factor(). */
static int hamel_inverse(rptr Einv, rsrc E, int n)
{
    int perm[HMAX];
    RV_DECL(LU, n * n, r_prec(Einv));
    CL_FN(cl_rvec_copy)(LU, E, (size_t)(n * n));
    int st = CL_FN(cl_lu_factor)(LU, perm, n);
    if (st) return st;
    CL_FN(cl_mat_identity)(Einv, n);
    return CL_FN(cl_lu_solve)(LU, perm, Einv, n, n);
}

/*
 * 𝒞_ij^k of (23) for i, j < na (Theorem 9 reads na = n − r), from the basis
 * 𝓔 and its inverse.
 */
static void hamel_structure_from(rptr C, const CL_FN(cl_hamel) *h, rsrc E, rsrc Einv, int na)
{
    const int n = h->n;
    cl_prec_t p = r_prec(C);
    RV_DECL(T, n * n * n, p);
    R_DECL(t, p); R_DECL(u, p);
    /* T[i][j][p] = 𝓔_i^l 𝓔_j^m c_lm^p, then 𝒞_ij^k = T[i][j][p] (𝓔⁻¹)_p^k with (𝓔⁻¹)_p^k = Einv[k][p] */
    for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++)
            for (int q = 0; q < n; q++) {
                r_set_zero(t);
                for (int l = 0; l < n; l++) {
                    if (r_is_zero(E + l * n + i)) continue;
                    for (int m = 0; m < n; m++) {
                        rsrc c = h->c + (l * n + m) * n + q;
                        if (r_is_zero(c) || r_is_zero(E + m * n + j)) continue;
                        r_mul(u, E + l * n + i, E + m * n + j);
                        r_addmul(t, u, c);
                    }
                }
                r_set(T + (i * n + j) * n + q, t);
            }
    for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++)
            for (int k = 0; k < n; k++) {
                r_set_zero(t);
                for (int q = 0; q < n; q++) r_addmul(t, T + (i * n + j) * n + q, Einv + k * n + q);
                r_set(C + (i * n + j) * n + k, t);
            }
}

/** [SKATE (23)] */
int CL_FN(cl_hamel_structure)(rptr C, const CL_FN(cl_hamel) *h, rsrc Gamma)
{
    const int n = h->n, nx = h->nx;
    if (n < 1 || n > HMAX || nx < 1 || nx > HMAX) return CL_EDIM;
    cl_prec_t p = r_prec(C);
    RV_DECL(E, n * n, p); RV_DECL(dE, nx * n * n, p); RV_DECL(Einv, n * n, p);
    h->basis(E, dE, Gamma, h->ctx);
    int st = hamel_inverse(Einv, E, n);
    if (st) return st;
    hamel_structure_from(C, h, E, Einv, n);
    return CL_OK;
}

/* ṗ_α of (25a) from the momenta p_i (\p pm), 𝒞_αβ^i, the basis, its inverse
   and its derivative, and ∂U/∂Γ at Γ. */
static void hamel_pdot_core(rptr pd, const CL_FN(cl_hamel) *h, rsrc C, rsrc E, rsrc Einv, rsrc dE,
                            rsrc dUv, rsrc pm, rsrc v, rsrc Gamma)
{
    const int n = h->n, nx = h->nx, na = h->n - h->r;
    cl_prec_t p = r_prec(pd);
    RV_DECL(kv, nx * n, p); RV_DECL(DEa, n, p);
    R_DECL(t, p); R_DECL(u, p); R_DECL(w, p);
    /* kv[j][β] = ϰ_jβ^k Γ_k = κ_jm^k 𝓔^m_β Γ_k */
    for (int j = 0; j < nx; j++)
        for (int b = 0; b < na; b++) {
            r_set_zero(t);
            for (int m = 0; m < n; m++)
                for (int k = 0; k < nx; k++) {
                    rsrc kap = h->kappa + (j * n + m) * nx + k;
                    if (r_is_zero(kap)) continue;
                    r_mul(u, E + m * n + b, Gamma + k);
                    r_addmul(t, kap, u);
                }
            r_set(kv + j * n + b, t);
        }
    for (int a = 0; a < na; a++) {
        /* −𝒞^i_αβ p_i v^β */
        r_set_zero(w);
        for (int b = 0; b < na; b++) {
            r_set_zero(t);
            for (int i = 0; i < n; i++) r_addmul(t, C + (a * n + b) * n + i, pm + i);
            r_submul(w, t, v + b);
        }
        /* −ℱ^i_αβ p_i v^β, ℱ^i_αβ = D^j𝓔^l_α (𝓔⁻¹)^i_l ϰ_jβ^k Γ_k */
        for (int j = 0; j < nx; j++) {
            int nz = 0;
            for (int l = 0; l < n; l++) {
                r_set(DEa + l, dE + (j * n + l) * n + a);
                nz |= !r_is_zero(DEa + l);
            }
            if (!nz) continue;
            /* s = Σ_i p_i (𝓔⁻¹ D^j𝓔_α)^i */
            r_set_zero(t);
            for (int i = 0; i < n; i++) {
                r_set_zero(u);
                for (int l = 0; l < n; l++) r_addmul(u, Einv + i * n + l, DEa + l);
                r_addmul(t, u, pm + i);
            }
            r_set_zero(u);
            for (int b = 0; b < na; b++) r_addmul(u, kv + j * n + b, v + b);
            r_submul(w, t, u);
        }
        /* K^k_αj ∂ℓ/∂Γ_j Γ_k with ∂ℓ/∂Γ = −∂U/∂Γ */
        for (int l = 0; l < n; l++) {
            if (r_is_zero(E + l * n + a)) continue;
            r_set_zero(t);
            for (int j = 0; j < nx; j++)
                for (int k = 0; k < nx; k++) {
                    rsrc K = h->Kstd + (l * nx + j) * nx + k;
                    if (r_is_zero(K)) continue;
                    r_mul(u, dUv + j, Gamma + k);
                    r_addmul(t, K, u);
                }
            r_submul(w, E + l * n + a, t);
        }
        r_set(pd + a, w);
    }
}

static int hamel_dims_ok(const CL_FN(cl_hamel) *h)
{
    const int n = h->n, nx = h->nx, na = h->n - h->r;
    return n >= 1 && n <= HMAX && nx >= 1 && nx <= HMAX && na >= 1 && na <= n;
}

/*
 * ṗ_α of (25a) from μ = δℓ/δξ (p_i = μ_k 𝓔^k_i), given the basis E and dE
 * at Γ: the inverse, 𝒞_αβ^k and ∂U/∂Γ once per evaluation. Shared by
 * cl_hamel_rhs() and cl_hamel_pdot().
 */
static int hamel_pdot_at(rptr pd, const CL_FN(cl_hamel) *h, rsrc E, rsrc dE, rsrc mu, rsrc v, rsrc Gamma)
{
    const int n = h->n, nx = h->nx;
    cl_prec_t p = r_prec(pd);
    RV_DECL(Einv, n * n, p); RV_DECL(C, n * n * n, p); RV_DECL(dUv, nx, p); RV_DECL(pm, n, p);
    int st = hamel_inverse(Einv, E, n);
    if (st) return st;
    hamel_structure_from(C, h, E, Einv, n - h->r);
    h->dU(dUv, Gamma, h->ctx);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) r_addmul(pm + i, mu + k, E + k * n + i);
    hamel_pdot_core(pd, h, C, E, Einv, dE, dUv, pm, v, Gamma);
    return CL_OK;
}

/* ξ^j = 𝓔^j_β v^β (n entries) */
static void hamel_xi(rptr xi, const CL_FN(cl_hamel) *h, rsrc E, rsrc v)
{
    const int n = h->n, na = h->n - h->r;
    for (int j = 0; j < n; j++) {
        r_set_zero(xi + j);
        for (int b = 0; b < na; b++) r_addmul(xi + j, E + j * n + b, v + b);
    }
}

/** [SKATE (25)–(27)] with \f$p_i = \mathcal G_{iβ}v^β\f$ (29). */
int CL_FN(cl_hamel_rhs)(rptr dv, rptr dGamma, rptr pdot, const CL_FN(cl_hamel) *h, rsrc v, rsrc Gamma)
{
    if (!hamel_dims_ok(h)) return CL_EDIM;
    const int n = h->n, nx = h->nx, na = h->n - h->r;
    cl_prec_t p = r_prec(dv);
    RV_DECL(E, n * n, p); RV_DECL(dE, nx * n * n, p);
    RV_DECL(xi, n, p); RV_DECL(mu, n, p); RV_DECL(xG, nx, p);
    RV_DECL(Edot, n * n, p); RV_DECL(Gc, n * n, p); RV_DECL(rhs, n, p); RV_DECL(pd, n, p);
    R_DECL(t, p); R_DECL(u, p); R_DECL(gd, p);
    h->basis(E, dE, Gamma, h->ctx);
    /* μ = 𝔾ξ */
    hamel_xi(xi, h, E, v);
    CL_FN(cl_mat_vec)(mu, h->G, xi, n, n);
    int st = hamel_pdot_at(pd, h, E, dE, mu, v, Gamma);
    if (st) return st;
    /* (ξΓ)_i = κ_ij^k ξ^j Γ_k; Γ̇ = −ξΓ (25b) */
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < nx; k++) {
                rsrc kap = h->kappa + (i * n + j) * nx + k;
                if (r_is_zero(kap)) continue;
                r_mul(t, xi + j, Gamma + k);
                r_addmul(xG + i, kap, t);
            }
    /* 𝒢_αβ v̇^β = ṗ_α − (d𝒢_αβ/dt) v^β, 𝓔̇ = D^j𝓔 Γ̇_j */
    for (int l = 0; l < n; l++)
        for (int b = 0; b < na; b++) {
            r_set_zero(t);
            for (int j = 0; j < nx; j++) r_submul(t, dE + (j * n + l) * n + b, xG + j);
            r_set(Edot + l * n + b, t);
        }
    for (int a = 0; a < na; a++) {
        r_set(rhs + a, pd + a);
        for (int b = 0; b < na; b++) {
            r_set_zero(t);
            r_set_zero(gd);
            for (int k = 0; k < n; k++)
                for (int l = 0; l < n; l++) {
                    rsrc g = h->G + k * n + l;
                    if (r_is_zero(g)) continue;
                    r_mul(u, E + k * n + a, E + l * n + b);
                    r_addmul(t, g, u);
                    r_mul(u, Edot + k * n + a, E + l * n + b);
                    r_addmul(gd, g, u);
                    r_mul(u, E + k * n + a, Edot + l * n + b);
                    r_addmul(gd, g, u);
                }
            r_set(Gc + a * na + b, t);
            r_submul(rhs + a, gd, v + b);
        }
    }
    if ((st = CL_FN(cl_linsolve)(dv, Gc, rhs, na))) return st;
    for (int i = 0; i < nx; i++) r_neg(dGamma + i, xG + i);
    if (pdot) CL_FN(cl_rvec_copy)(pdot, pd, (size_t)na);
    return CL_OK;
}

/** [SKATE (25a)] for a given momentum; for (47) it is [SKATE (51a)]. */
int CL_FN(cl_hamel_pdot)(rptr pdot, const CL_FN(cl_hamel) *h, rsrc mu, rsrc v, rsrc Gamma)
{
    if (!hamel_dims_ok(h)) return CL_EDIM;
    const int n = h->n, nx = h->nx, na = h->n - h->r;
    cl_prec_t p = r_prec(pdot);
    RV_DECL(E, n * n, p); RV_DECL(dE, nx * n * n, p); RV_DECL(pd, n, p);
    h->basis(E, dE, Gamma, h->ctx);
    int st = hamel_pdot_at(pd, h, E, dE, mu, v, Gamma);
    if (st) return st;
    CL_FN(cl_rvec_copy)(pdot, pd, (size_t)na);
    return CL_OK;
}

/** [SKATE (30)] */
int CL_FN(cl_hamel_energy)(rptr Eout, const CL_FN(cl_hamel) *h, rsrc v, rsrc Gamma)
{
    if (!hamel_dims_ok(h)) return CL_EDIM;
    const int n = h->n, nx = h->nx;
    cl_prec_t p = r_prec(Eout);
    RV_DECL(E, n * n, p); RV_DECL(dE, nx * n * n, p); RV_DECL(xi, n, p);
    R_DECL(s, p); R_DECL(t, p);
    h->basis(E, dE, Gamma, h->ctx);
    hamel_xi(xi, h, E, v);
    for (int i = 0; i < n; i++) {
        r_set_zero(t);
        for (int j = 0; j < n; j++) r_addmul(t, h->G + i * n + j, xi + j);
        r_addmul(s, t, xi + i);
    }
    r_mul_2si(s, s, -1);
    h->U(t, Gamma, h->ctx);
    r_add(Eout, s, t);
    return CL_OK;
}

/* ------------------------------------------------------- the skate, (31) */

static int levi(int i, int j, int k)
{
    if (i == j || j == k || i == k) return 0;
    return ((j - i + 3) % 3 == 1) ? 1 : -1;
}

/* Basis (31): columns (E₁,0), (Γ,0), (0,E₁), (E₁×Γ,0), (0,Γ), (0,E₁×Γ). */
static void skate_basis(rptr E, rptr dE, rsrc Ga, const void *ctx)
{
    (void)ctx;
    for (int k = 0; k < 36; k++) r_set_zero(E + k);
    for (int k = 0; k < 108; k++) r_set_zero(dE + k);
    r_set_si(E + 0 * 6 + 0, 1);
    r_set_si(E + 3 * 6 + 2, 1);
    for (int i = 0; i < 3; i++) {
        r_set(E + i * 6 + 1, Ga + i);
        r_set(E + (3 + i) * 6 + 4, Ga + i);
    }
    /* E₁×Γ = (0, −Γ₃, Γ₂) */
    r_neg(E + 1 * 6 + 3, Ga + 2); r_set(E + 2 * 6 + 3, Ga + 1);
    r_neg(E + 4 * 6 + 5, Ga + 2); r_set(E + 5 * 6 + 5, Ga + 1);
    /* ∂/∂Γ_j: columns 1 and 4 get e_j; columns 3 and 5 get E₁×e_j */
    for (int j = 0; j < 3; j++) {
        r_set_si(dE + (j * 6 + j) * 6 + 1, 1);
        r_set_si(dE + (j * 6 + 3 + j) * 6 + 4, 1);
    }
    r_set_si(dE + (1 * 6 + 2) * 6 + 3, 1);  /* E₁×e₂ = e₃ */
    r_set_si(dE + (2 * 6 + 1) * 6 + 3, -1); /* E₁×e₃ = −e₂ */
    r_set_si(dE + (1 * 6 + 5) * 6 + 5, 1);
    r_set_si(dE + (2 * 6 + 4) * 6 + 5, -1);
}

static void skate_dU(rptr dU, rsrc Ga, const void *ctx)
{
    rsrc par = ctx;
    (void)Ga;
    r_set_zero(dU); r_set_zero(dU + 1);
    r_mul(dU + 2, par + CL_SKATE_M, par + CL_SKATE_G);
    r_mul(dU + 2, dU + 2, par + CL_SKATE_L);
}

static void skate_U(rptr U, rsrc Ga, const void *ctx)
{
    rsrc par = ctx;
    r_mul(U, par + CL_SKATE_M, par + CL_SKATE_G);
    r_mul(U, U, par + CL_SKATE_L);
    r_mul(U, U, Ga + 2);
}

/** The skate in the setting of Theorem 9, basis (31). */
void CL_FN(cl_skate_hamel)(CL_FN(cl_hamel) *h, rptr store, rsrc par)
{
    rptr c = store, kap = store + 216, K = kap + 54, G = K + 54, pp = G + 36;
    for (int k = 0; k < CL_SKATE_HAMEL_STORE; k++) r_set_zero(store + k);
    /* se(3): [(Ω₁,Y₁),(Ω₂,Y₂)] = (Ω₁×Ω₂, Ω₁×Y₂ − Ω₂×Y₁) */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                int e = levi(i, j, k);
                if (!e) continue;
                r_set_si(c + (i * 6 + j) * 6 + k, e);             /* [(e_i,0),(e_j,0)] */
                r_set_si(c + (i * 6 + 3 + j) * 6 + 3 + k, e);     /* [(e_i,0),(0,e_j)] = (0, e_i×e_j) */
                r_set_si(c + ((3 + i) * 6 + j) * 6 + 3 + k, e);   /* [(0,e_i),(e_j,0)] = (0, −e_j×e_i) */
                r_set_si(kap + (i * 6 + j) * 3 + k, e);           /* (ξΓ)_i = (Ω×Γ)_i */
                r_set_si(K + (k * 3 + i) * 3 + j, e);             /* ⟨K(e_i,e*^j), E_k⟩ = (e_i×e_j)_k */
            }
    CL_FN(cl_skate_gram)(G, par, 0);
    CL_FN(cl_rvec_copy)(pp, par, CL_SKATE_NPAR);
    h->n = 6; h->r = 3; h->nx = 3;
    h->c = c; h->kappa = kap; h->Kstd = K; h->G = G;
    h->basis = skate_basis; h->dU = skate_dU; h->U = skate_U;
    h->ctx = pp;
}

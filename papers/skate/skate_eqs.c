/**
 * \page ch_skate_eqs SKATE §5 — the skate in quasivelocities: equations (35)/(38), invariants, equilibria
 *
 * With the Hamel basis (31)
 * \f[ 𝔡 = \mathrm{span}\{(E_1,0), (Γ,0), (0,E_1)\},\qquad 𝔳 = \mathrm{span}\{(E_1\timesΓ,0), (0,Γ), (0,E_1\timesΓ)\}, \f]
 * orthonormal on Γ₁ = 0, the quasivelocities are v¹ = Ω₁, v² = Ω·Γ,
 * v³ = Y₁ (33) and the constraints are v⁴ = v⁵ = v⁶ = 0. The momenta are
 * p₁ = Ī₁v¹, p₂ = (Ī₂Γ₂² + I₃Γ₃²)v² + mlΓ₂v³, p₃ = m(lΓ₂v² + v³), and
 * Theorem 9 gives (35):
 * \f[ \dot p_1 = (\bar I_2 - I_3)Γ_2Γ_3(v^2)^2 + mlΓ_3v^2v^3 + mglΓ_2,\quad
 *     \dot p_2 = mlΓ_3v^1v^3,\quad \dot p_3 = -mlΓ_3v^1v^2,\quad
 *     \dotΓ_2 = v^1Γ_3,\quad \dotΓ_3 = -v^1Γ_2 . \f]
 * Solving for v̇ on ζ = (v¹, v², v³, Γ₂, Γ₃): p₁ gives v̇¹ directly; the
 * conservation of C₁ = p₂ − lΓ₂p₃ = (I₂Γ₂² + I₃Γ₃²)v² (36) gives v̇²; and
 * v̇³ = ṗ₃/m − l(Γ̇₂v² + Γ₂v̇²). The result is the field f(ζ) of (38)
 * (cl_skate_rhs_zeta()), whose printed form carries
 * "mI" and "2I I₃" where ml and 2lI₃ belong.
 *
 * Invariants: the energy (30), C₁ (36), C₃ = (Γ₂² + Γ₃²)/2 and, from
 * dp₃/dΓ₂ = −mlC₁/((I₂ − I₃)Γ₂² + I₃) on the circle,
 * \f[ C_2 = lΓ_2v^2 + v^3 + \frac{l\,C_1}{\sqrt{I_3(I_2 - I_3)}}\arctan\Big(\sqrt{\tfrac{I_2-I_3}{I_3}}Γ_2\Big), \f]
 * which corrects the prefactor l/(I₃(I₂ − I₃)) printed in (37).
 * Equilibria (39): v¹ = 0 and ((Ī₂ − I₃)Γ₃(v²)² + mgl)Γ₂ + mlΓ₃v²v³ = 0;
 * upright ones are the sliding \f$ζ_{\mathrm{sl}} = (0, 0, Y_0, 0, 1)\f$ (40) and the spinning
 * \f$ζ_{\mathrm{sp}} = (0, Ω_0, 0, 0, 1)\f$ (41).
 *
 * Functions: cl_skate_z_to_zeta(),
 * cl_skate_p(), cl_skate_rhs_zeta(),
 * cl_skate_jacobian_zeta(),
 * cl_skate_energy_zeta(),
 * cl_skate_invariants(),
 * cl_skate_equilibrium_residual().
 */
#include "r3.h"
#include "skate.h"

#define P_(k) (par + CL_SKATE_##k)

/** (33) */
void CL_FN(cl_skate_z_to_zeta)(rptr zeta, rsrc z)
{
    R_DECL(t, r_prec(zeta));
    v3_dot(t, z, z + 6);
    r_set(zeta, z);
    r_set(zeta + 1, t);
    r_set(zeta + 2, z + 3);
    r_set(zeta + 3, z + 7);
    r_set(zeta + 4, z + 8);
}

void CL_FN(cl_skate_zeta_to_z)(rptr z, rsrc zeta)
{
    RV_DECL(o, 9, r_prec(z));
    r_set(o, zeta);
    r_mul(o + 1, zeta + 1, zeta + 3);
    r_mul(o + 2, zeta + 1, zeta + 4);
    r_set(o + 3, zeta + 2);
    r_set(o + 7, zeta + 3);
    r_set(o + 8, zeta + 4);
    CL_FN(cl_rvec_copy)(z, o, 9);
}

/* ml, Ī₁, Ī₂ */
static void bars(rptr ml, rptr I1b, rptr I2b, rsrc par)
{
    r_mul(ml, P_(M), P_(L));
    r_fma(I1b, ml, P_(L), P_(I1));
    r_fma(I2b, ml, P_(L), P_(I2));
}

/** Momenta of §5.1: p₁..p₆. */
void CL_FN(cl_skate_p)(rptr p, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(p);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q);
    RV_DECL(o, 6, q);
    rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    bars(ml, I1b, I2b, par);
    r_mul(o, I1b, v1);
    r_sqr(t, G2); r_mul(t, t, I2b); r_sqr(u, G3); r_addmul(t, u, P_(I3));
    r_mul(o + 1, t, v2);
    r_mul(t, ml, G2); r_addmul(o + 1, t, v3);
    r_mul(t, P_(L), G2); r_fma(t, t, v2, v3); r_mul(o + 2, P_(M), t);
    r_sub(t, P_(I3), I2b); r_mul(t, t, G2); r_mul(t, t, G3); r_mul(o + 3, t, v2);
    r_mul(t, ml, G3); r_submul(o + 3, t, v3);
    r_mul(t, ml, G2); r_mul(t, t, v1); r_neg(o + 4, t);
    r_mul(t, ml, G3); r_mul(o + 5, t, v1);
    CL_FN(cl_rvec_copy)(p, o, 6);
}

/* A = I₂Γ₂² + I₃Γ₃² */
static void A_of(rptr A, rsrc par, rsrc zeta)
{
    R_DECL(t, r_prec(A));
    r_sqr(t, zeta + 4);
    r_mul(t, t, P_(I3));
    r_sqr(A, zeta + 3);
    r_fma(A, A, P_(I2), t);
}

/** f(ζ) of [SKATE (38)], derived from (35). */
int CL_FN(cl_skate_rhs_zeta)(rptr dzeta, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(dzeta);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q); R_DECL(A, q);
    RV_DECL(o, 5, q);
    rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    bars(ml, I1b, I2b, par);
    A_of(A, par, zeta);
    if (r_is_zero(A) || r_is_zero(I1b)) return CL_EDOMAIN;
    /* v̇¹ = (((Ī₂ − I₃)Γ₃(v²)² + mgl)Γ₂ + mlΓ₃v²v³)/Ī₁ */
    r_sub(t, I2b, P_(I3)); r_mul(t, t, G3); r_sqr(u, v2); r_mul(t, t, u);
    r_mul(u, ml, P_(G)); r_add(t, t, u); r_mul(t, t, G2);
    r_mul(u, ml, G3); r_mul(u, u, v2); r_addmul(t, u, v3);
    r_div(o, t, I1b);
    /* v̇² = 2(I₃ − I₂)Γ₂Γ₃v¹v²/A */
    r_sub(t, P_(I3), P_(I2)); r_mul_2si(t, t, 1); r_mul(t, t, G2); r_mul(t, t, G3);
    r_mul(t, t, v1); r_mul(t, t, v2); r_div(o + 1, t, A);
    /* v̇³ = −2lΓ₃v¹v² − lΓ₂v̇² */
    r_mul(t, P_(L), G3); r_mul(t, t, v1); r_mul(t, t, v2); r_mul_2si(t, t, 1);
    r_mul(u, P_(L), G2); r_fma(t, u, o + 1, t); r_neg(o + 2, t);
    /* Γ̇₂ = v¹Γ₃, Γ̇₃ = −v¹Γ₂ (35b) */
    r_mul(o + 3, v1, G3);
    r_mul(t, v1, G2); r_neg(o + 4, t);
    CL_FN(cl_rvec_copy)(dzeta, o, 5);
    return CL_OK;
}

/** Df(ζ) by hand. */
int CL_FN(cl_skate_jacobian_zeta)(rptr Df, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(Df);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q); R_DECL(A, q);
    R_DECL(a, q); R_DECL(k, q); R_DECL(f2, q); R_DECL(s, q);
    RV_DECL(J, 25, q); RV_DECL(d2, 5, q);
    rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    bars(ml, I1b, I2b, par);
    A_of(A, par, zeta);
    if (r_is_zero(A) || r_is_zero(I1b)) return CL_EDOMAIN;
    r_sub(a, I2b, P_(I3));
    /* row 1: f₁ = (aΓ₂Γ₃v2² + mlΓ₃v2v3 + mglΓ₂)/Ī₁ */
    r_mul(t, a, G2); r_mul(t, t, G3); r_mul(t, t, v2); r_mul_2si(t, t, 1);
    r_mul(u, ml, G3); r_addmul(t, u, v3); r_div(J + 1, t, I1b);
    r_mul(t, ml, G3); r_mul(t, t, v2); r_div(J + 2, t, I1b);
    r_sqr(u, v2); r_mul(t, a, G3); r_mul(t, t, u); r_mul(u, ml, P_(G)); r_add(t, t, u); r_div(J + 3, t, I1b);
    r_sqr(u, v2); r_mul(t, a, G2); r_mul(t, t, u); r_mul(u, ml, v2); r_addmul(t, u, v3); r_div(J + 4, t, I1b);
    /* row 2: f₂ = kΓ₂Γ₃v¹v²/A, k = 2(I₃ − I₂) */
    r_sub(k, P_(I3), P_(I2)); r_mul_2si(k, k, 1); r_div(k, k, A);
    r_mul(t, k, G2); r_mul(t, t, G3);               /* kΓ₂Γ₃/A */
    r_mul(d2, t, v2);
    r_mul(d2 + 1, t, v1);
    r_mul(f2, t, v1); r_mul(f2, f2, v2);
    r_mul(s, k, v1); r_mul(s, s, v2);               /* k v¹v²/A */
    /* ∂/∂Γ₂ (Γ₂Γ₃/A) = Γ₃/A − 2I₂Γ₂²Γ₃/A², ∂/∂Γ₃ = Γ₂/A − 2I₃Γ₂Γ₃²/A² */
    r_sqr(t, G2); r_mul(t, t, P_(I2)); r_mul_2si(t, t, 1); r_div(t, t, A); r_si_sub(t, 1, t);
    r_mul(t, t, G3); r_mul(d2 + 3, s, t);
    r_sqr(t, G3); r_mul(t, t, P_(I3)); r_mul_2si(t, t, 1); r_div(t, t, A); r_si_sub(t, 1, t);
    r_mul(t, t, G2); r_mul(d2 + 4, s, t);
    for (int j = 0; j < 5; j++) r_set(J + 5 + j, d2 + j);
    /* row 3: f₃ = −2lΓ₃v¹v² − lΓ₂f₂ */
    r_mul(u, P_(L), G2);
    for (int j = 0; j < 5; j++) { r_mul(t, u, d2 + j); r_neg(J + 10 + j, t); }
    r_mul(t, P_(L), G3); r_mul_2si(t, t, 1);
    r_submul(J + 10, t, v2);
    r_submul(J + 11, t, v1);
    r_mul(t, P_(L), f2); r_sub(J + 13, J + 13, t);
    r_mul(t, P_(L), v1); r_mul(t, t, v2); r_mul_2si(t, t, 1); r_sub(J + 14, J + 14, t);
    /* rows 4, 5: Γ̇₂ = v¹Γ₃, Γ̇₃ = −v¹Γ₂ */
    r_set(J + 15, G3); r_set(J + 19, v1);
    r_neg(J + 20, G2); r_neg(J + 23, v1);
    CL_FN(cl_rvec_copy)(Df, J, 25);
    return CL_OK;
}

/** (30) in ζ. */
void CL_FN(cl_skate_energy_zeta)(rptr E, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(E);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q); R_DECL(s, q);
    rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    bars(ml, I1b, I2b, par);
    r_sqr(t, v1); r_mul(s, I1b, t);
    r_sqr(t, G2); r_mul(t, t, I2b); r_sqr(u, G3); r_addmul(t, u, P_(I3));
    r_sqr(u, v2); r_addmul(s, t, u);
    r_mul(t, ml, G2); r_mul(t, t, v2); r_mul(t, t, v3); r_mul_2si(t, t, 1); r_add(s, s, t);
    r_sqr(t, v3); r_addmul(s, P_(M), t);
    r_mul_2si(s, s, -1);
    r_mul(t, ml, P_(G)); r_addmul(s, t, G3);
    r_set(E, s);
}

/* κ = l/√(I₃(I₂−I₃)), σ = √((I₂−I₃)/I₃) of C₂ */
static int c2_consts(rptr kap, rptr sg, rsrc par)
{
    R_DECL(d, r_prec(kap));
    r_sub(d, P_(I2), P_(I3));
    if (r_sgn(d) <= 0 || r_sgn(P_(I3)) <= 0) return CL_EPARAM;
    r_mul(kap, d, P_(I3)); r_sqrt(kap, kap); r_div(kap, P_(L), kap);
    r_div(sg, d, P_(I3)); r_sqrt(sg, sg);
    return CL_OK;
}

/** C₁ (36), C₂ (37 with the square root), C₃. */
int CL_FN(cl_skate_invariants)(rptr C, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(C);
    R_DECL(kap, q); R_DECL(sg, q); R_DECL(A, q); R_DECL(t, q); R_DECL(one, q);
    RV_DECL(o, 3, q);
    int st = c2_consts(kap, sg, par);
    if (st) return st;
    rsrc v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    A_of(A, par, zeta);
    r_mul(o, A, v2);
    r_mul(t, sg, G2);
    r_set_si(one, 1);
    r_atan2(t, t, one);
    r_mul(t, t, o); r_mul(t, t, kap);
    r_add(t, t, v3);
    r_mul(A, P_(L), G2); r_fma(o + 1, A, v2, t);
    r_sqr(t, G2); r_sqr(A, G3); r_add(t, t, A); r_mul_2si(o + 2, t, -1);
    CL_FN(cl_rvec_copy)(C, o, 3);
    return CL_OK;
}

/* symmetric set of a 5×5 */
static void sym5(rptr H, int i, int j, rsrc x)
{
    r_set(H + 5 * i + j, x);
    r_set(H + 5 * j + i, x);
}

/** Gradients and Hessians of ℰ, C₁, C₂, C₃ at ζ, by hand. */
int CL_FN(cl_skate_invariant_derivatives)(rptr DE, rptr DC, rptr HE, rptr HC, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(DE);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q);
    R_DECL(D, q); R_DECL(A, q); R_DECL(kap, q); R_DECL(sg, q); R_DECL(one, q);
    R_DECL(T, q); R_DECL(T1, q); R_DECL(T2, q); R_DECL(C1, q); R_DECL(w, q);
    int st = c2_consts(kap, sg, par);
    if (st) return st;
    rsrc v1 = zeta, v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    rptr H1 = HC, H2 = HC + 25, H3 = HC + 50;
    bars(ml, I1b, I2b, par);
    A_of(A, par, zeta);
    r_sqr(t, G2); r_mul(D, t, I2b); r_sqr(t, G3); r_addmul(D, t, P_(I3));
    for (int k = 0; k < 25; k++) r_set_zero(HE + k);
    for (int k = 0; k < 75; k++) r_set_zero(HC + k);
    for (int k = 0; k < 15; k++) r_set_zero(DC + k);
    /* ℰ */
    r_mul(DE, I1b, v1);
    r_mul(t, ml, G2); r_mul(t, t, v3); r_fma(DE + 1, D, v2, t);
    r_mul(t, ml, G2); r_mul(t, t, v2); r_fma(DE + 2, P_(M), v3, t);
    r_sqr(u, v2); r_mul(t, I2b, G2); r_mul(t, t, u); r_mul(u, ml, v2); r_fma(DE + 3, u, v3, t);
    r_sqr(u, v2); r_mul(t, P_(I3), G3); r_mul(t, t, u); r_mul(u, ml, P_(G)); r_add(DE + 4, t, u);
    r_set(HE, I1b);
    r_set(HE + 6, D);
    r_mul(t, ml, G2); sym5(HE, 1, 2, t);
    r_mul(t, I2b, G2); r_mul(t, t, v2); r_mul_2si(t, t, 1); r_addmul(t, ml, v3); sym5(HE, 1, 3, t);
    r_mul(t, P_(I3), G3); r_mul(t, t, v2); r_mul_2si(t, t, 1); sym5(HE, 1, 4, t);
    r_set(HE + 12, P_(M));
    r_mul(t, ml, v2); sym5(HE, 2, 3, t);
    r_sqr(u, v2); r_mul(HE + 18, I2b, u);
    r_mul(HE + 24, P_(I3), u);
    /* C₁ = A v² */
    r_set(DC + 1, A);
    r_mul(t, P_(I2), G2); r_mul(t, t, v2); r_mul_2si(DC + 3, t, 1);
    r_mul(t, P_(I3), G3); r_mul(t, t, v2); r_mul_2si(DC + 4, t, 1);
    r_mul(t, P_(I2), G2); r_mul_2si(t, t, 1); sym5(H1, 1, 3, t);
    r_mul(t, P_(I3), G3); r_mul_2si(t, t, 1); sym5(H1, 1, 4, t);
    r_mul(t, P_(I2), v2); r_mul_2si(H1 + 18, t, 1);
    r_mul(t, P_(I3), v2); r_mul_2si(H1 + 24, t, 1);
    /* C₂ = lΓ₂v² + v³ + κ C₁ T(Γ₂), T = atan(σΓ₂) */
    r_mul(C1, A, v2);
    r_set_si(one, 1);
    r_mul(t, sg, G2); r_atan2(T, t, one);
    r_sqr(u, t); r_add_si(u, u, 1);                /* 1 + σ²Γ₂² */
    r_div(T1, sg, u);                               /* T' */
    r_sqr(w, sg); r_mul(w, w, sg); r_mul(w, w, G2); r_mul_2si(w, w, 1);
    r_sqr(u, u); r_div(T2, w, u); r_neg(T2, T2);    /* T'' */
    r_mul(t, kap, A); r_mul(t, t, T); r_mul(u, P_(L), G2); r_add(DC + 5 + 1, t, u);
    r_set_si(DC + 5 + 2, 1);
    r_mul(t, P_(I2), G2); r_mul(t, t, v2); r_mul_2si(t, t, 1); r_mul(t, t, T); r_addmul(t, C1, T1);
    r_mul(t, t, kap); r_mul(u, P_(L), v2); r_add(DC + 5 + 3, t, u);
    r_mul(t, P_(I3), G3); r_mul(t, t, v2); r_mul_2si(t, t, 1); r_mul(t, t, T); r_mul(DC + 5 + 4, t, kap);
    r_mul(t, P_(I2), G2); r_mul_2si(t, t, 1); r_mul(t, t, T); r_addmul(t, A, T1); r_mul(t, t, kap);
    r_add(t, t, P_(L)); sym5(H2, 1, 3, t);
    r_mul(t, P_(I3), G3); r_mul_2si(t, t, 1); r_mul(t, t, T); r_mul(t, t, kap); sym5(H2, 1, 4, t);
    r_mul(t, P_(I2), v2); r_mul_2si(t, t, 1); r_mul(t, t, T);
    r_mul(u, P_(I2), G2); r_mul(u, u, v2); r_mul_2si(u, u, 2); r_addmul(t, u, T1);
    r_addmul(t, C1, T2); r_mul(H2 + 18, t, kap);
    r_mul(t, P_(I3), G3); r_mul(t, t, v2); r_mul_2si(t, t, 1); r_mul(t, t, T1); r_mul(t, t, kap); sym5(H2, 3, 4, t);
    r_mul(t, P_(I3), v2); r_mul_2si(t, t, 1); r_mul(t, t, T); r_mul(H2 + 24, t, kap);
    /* C₃ */
    r_set(DC + 10 + 3, G2); r_set(DC + 10 + 4, G3);
    r_set_si(H3 + 18, 1); r_set_si(H3 + 24, 1);
    return CL_OK;
}

/** (39) */
void CL_FN(cl_skate_equilibrium_residual)(rptr out, rsrc par, rsrc zeta)
{
    cl_prec_t q = r_prec(out);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q);
    rsrc v2 = zeta + 1, v3 = zeta + 2, G2 = zeta + 3, G3 = zeta + 4;
    bars(ml, I1b, I2b, par);
    r_sub(t, I2b, P_(I3)); r_mul(t, t, G3); r_sqr(u, v2); r_mul(t, t, u);
    r_mul(u, ml, P_(G)); r_add(t, t, u); r_mul(t, t, G2);
    r_mul(u, ml, G3); r_mul(u, u, v2); r_addmul(t, u, v3);
    r_set(out, zeta);
    r_set(out + 1, t);
}

/** (40) */
void CL_FN(cl_skate_sliding)(rptr zeta, rsrc Y0)
{
    for (int i = 0; i < 5; i++) r_set_zero(zeta + i);
    r_set(zeta + 2, Y0);
    r_set_si(zeta + 4, 1);
}

/** (41) */
void CL_FN(cl_skate_spinning)(rptr zeta, rsrc Omega0)
{
    for (int i = 0; i < 5; i++) r_set_zero(zeta + i);
    r_set(zeta + 1, Omega0);
    r_set_si(zeta + 4, 1);
}

/** Propositions 11 and 12: the eigenvalues are 0, 0, 0, ±√κ. */
void CL_FN(cl_skate_equilibrium_kappa)(rptr kappa, rsrc par, int which, rsrc x)
{
    cl_prec_t q = r_prec(kappa);
    R_DECL(ml, q); R_DECL(I1b, q); R_DECL(I2b, q); R_DECL(t, q); R_DECL(u, q); R_DECL(w, q);
    bars(ml, I1b, I2b, par);
    r_mul(t, ml, P_(G));
    if (which) {
        r_fma(u, ml, P_(L), P_(I3));
        r_sub(u, u, P_(I2));
        r_sqr(w, x);
        r_submul(t, u, w);
    }
    r_div(kappa, t, I1b);
}

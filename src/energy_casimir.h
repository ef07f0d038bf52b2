/**
 * \file energy_casimir.h
 * \brief The Energy–Casimir stability test as a general procedure
 *        (Aeyels' theorem, as stated in [SKATE App. A.1]).
 *
 * Given at an equilibrium ζ₀ of ζ̇ = f(ζ) on Rⁿ the gradient and Hessian of
 * an invariant ℰ and of k further invariants C₁ … C_k:
 *  1. solve D(ℰ + Σ c_j C_j)(ζ₀) = 0 for c by least squares (Householder QR
 *     of the n×k matrix [DC₁ … DC_k], cl_qr()) and report the residual — a
 *     sizeable residual means ζ₀ is not a critical point of any such
 *     combination and the theorem does not apply;
 *  2. take an orthonormal basis Z of the null space of the DC_j
 *     (cl_nullspace()), the tangent space of the level set {C_j = C_j(ζ₀)};
 *  3. restrict ℋ = D²(ℰ + Σ c_j C_j)(ζ₀) to it, Zᵀℋ Z, and decide
 *     definiteness by its inertia (LDLᵀ with Bunch–Kaufman pivoting,
 *     cl_sym_inertia()); its eigenvalues (cl_eig()) are reported too.
 * ζ₀ is (Lyapunov) stable when the restricted Hessian is definite.
 *
 * On Arb balls (`cl_energy_casimir_arb`) every step encloses its exact
 * counterpart (the same Householder reflections and pivot order applied to
 * the exact inputs), so `definite` = ±1 is a proof of definiteness, and a
 * sign that cannot be proven is reported as `undecided` rather than guessed.
 * Used by the skate (SKATE App. A.1, A.4) and the rigid body of EMB.
 */
#ifndef CL_ENERGY_CASIMIR_H
#define CL_ENERGY_CASIMIR_H
#include "cl_types.h"

/** Largest dimension n accepted by cl_energy_casimir(). */
#define CL_EC_NMAX 32

/** What the Energy–Casimir test found. */
typedef struct cl_ec_report {
    int n, k;             /**< dimension and number of invariants besides ℰ */
    int d;                /**< n − k: dimension of the tangent space of the level set */
    int npos, nneg, nzero;/**< inertia of the restricted Hessian */
    int definite;         /**< +1 positive definite, −1 negative definite, 0 neither (or not proven) */
    int undecided;        /**< balls: signs of the restricted Hessian not proven (cl_sym_inertia()
                               gave CL_EUNDECIDED; npos, nneg then count the proven signs,
                               nzero = undecided); always 0 in double and MPFR */
    double log2_residual; /**< log2 of ‖Dℰ + Σ c_j DC_j‖ / max(1, ‖Dℰ‖) (−inf when zero) */
    double log2_indep;    /**< log2 of min |R_jj| / max |R_jj| of the QR of [DC_j]: independence of the DC_j */
    int critical;         /**< 1 when the residual is at most 2^(−p/2): ζ₀ is a critical point of
                               ℰ + Σ c_j C_j to half the working precision p, and the theorem applies;
                               0 otherwise (then `definite` describes a Hessian that proves nothing) */
} cl_ec_report;

/** The residual below which cl_energy_casimir() calls ζ₀ critical, as log2 at precision \p p. */
static inline double cl_ec_critical_log2(long p) { return -0.5 * (double)p; }

/**
 * Three-way reading of a report, for certified verdicts: 1 when the
 * restricted Hessian is proven definite (\p want = 0: of either sign; +1 or
 * −1: of that sign), −1 when it is proven not to be (every sign decided, or a
 * proven sign that contradicts it: for \p want = 0 a positive and a negative
 * one), CL_UNDECIDED otherwise. In double and MPFR never CL_UNDECIDED.
 */
static inline int cl_ec_verdict(const cl_ec_report *rep, int want)
{
    int def = want ? rep->definite == want : rep->definite != 0;
    if (def) return 1;
    if (!rep->undecided) return -1;
    int against = want > 0 ? rep->nneg > 0 : want < 0 ? rep->npos > 0 : rep->npos > 0 && rep->nneg > 0;
    return against ? -1 : CL_UNDECIDED;
}

#define CL_TEMPLATE_HEADER "energy_casimir_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#endif

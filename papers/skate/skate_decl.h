/* Templated prototypes of chapters/skate_model.c, skate_quasi.c,
 * skate_eqs.c and skate_control.c; included once per scalar kind by skate.h. */

/* ------------------------------------------------ §2 model (skate_model.c) */

/**
 * Validate the physical parameters: every entry finite (else CL_ENAN);
 * m > 0, l > 0, g ≥ 0, I₁, I₂, I₃ > 0 and J₁, J₂, J₃ ≥ 0 (else CL_EPARAM).
 * When \p need_I2_gt_I3 is set, also I₂ > I₃ (required by [SKATE (37)] and
 * Propositions 11–12), else CL_EPARAM.
 */
int CL_FN(cl_skate_params_check)(cl_rsrc par, int need_I2_gt_I3);

/**
 * Reduced Lagrangian [SKATE (7)] at z = (Ω, Y, Γ):
 * \f$\ell = \tfrac12 Ω^T \mathbb I Ω + \tfrac m2 \|Y + lΩ\times E_3\|^2 - mgl\,Γ^T E_3\f$.
 */
void CL_FN(cl_skate_lagrangian)(cl_rptr ell, cl_rsrc par, cl_rsrc z);

/**
 * The same Lagrangian in the expanded form [SKATE (34)]:
 * \f$\tfrac12 Ω^T\bar{\mathbb I}Ω + ml\,Ω\cdot(E_3\times Y) + \tfrac m2\|Y\|^2 - mglΓ_3\f$.
 */
void CL_FN(cl_skate_lagrangian_34)(cl_rptr ell, cl_rsrc par, cl_rsrc z);

/**
 * Kinetic energy tensor 𝔾 on (Ω, Y) [SKATE (28), (55)], 6×6 row-major, so
 * that ℓ = ½ ξᵀ𝔾ξ − mglΓ₃. With \p rotor set the moments are
 * 𝓘ᵢ = Iᵢ + Jᵢ and the matrix is 7×7 with the rotor rate last:
 * \f$\mathbb G_{ia} = J_1 e_1\f$, \f$\mathbb G_{ab} = J_1\f$.
 */
void CL_FN(cl_skate_gram)(cl_rptr G, cl_rsrc par, int rotor);

/**
 * Momenta (Π, P) = (∂ℓ/∂Ω, ∂ℓ/∂Y) [SKATE §5.1]:
 * \f$Π = \bar{\mathbb I}Ω + ml\,E_3\times Y,\ P = m(Y + lΩ\times E_3)\f$.
 */
void CL_FN(cl_skate_momenta)(cl_rptr mu, cl_rsrc par, cl_rsrc z);

/**
 * The constraint one-forms of Examples 3 and 8 as a 3×6 matrix (rows ψ¹, ψ², ψ³
 * on ξ = (Ω, Y)) [SKATE (19)]: ψ¹ = (E₁×Γ, 0), ψ² = (0, Γ), ψ³ = (0, E₁×Γ).
 */
void CL_FN(cl_skate_psi)(cl_rptr Psi, cl_rsrc Gamma);

/**
 * Constraint residuals at z: out[0] = Γ₁ (pitch constancy (19)),
 * out[1..3] = ⟨ψᵃ(Γ), ξ⟩, out[4] = |Γ|² − 1.
 */
void CL_FN(cl_skate_constraint_residuals)(cl_rptr out, cl_rsrc z);

/**
 * Check that z is a constraint-consistent state: finite (CL_ENAN), |Γ| = 1
 * (CL_ENOTUNIT) and Γ₁ = ⟨ψᵃ, ξ⟩ = 0 (CL_ENOTTANGENT), each within
 * tol_ulps·2^(1−p) relative to the size of z.
 */
int CL_FN(cl_skate_check_z)(cl_rsrc z, double tol_ulps);

/** Energy ½ξᵀ𝔾ξ + mglΓ₃ of a z-form state (no rotor). */
void CL_FN(cl_skate_energy_z)(cl_rptr E, cl_rsrc par, cl_rsrc z);

/* --------------------------------------------- §3 nonholonomic EP (z-form) */

/**
 * Nonholonomic Euler–Poincaré equations with advected parameter [SKATE (21)]
 * on z = (Ω, Y, Γ): the general [SKATE (17a)] with ad*, K of (20) and the
 * forms (19) of the skate, and [SKATE (17b)] Γ̇ = −ξΓ, which is Γ × Ω here:
 * \f[ \tfrac{d}{dt}Π = Π\timesΩ + P\times Y - mgl\,E_3\timesΓ + λ_1 E_1\timesΓ,\quad
 *     \tfrac{d}{dt}P = P\timesΩ + λ_2Γ + λ_3 E_1\timesΓ,\quad \dotΓ = Γ\timesΩ, \f]
 * the multipliers λ (written to \p lambda unless NULL) solved from the
 * preservation of ⟨ψᵃ(Γ), ξ⟩ = 0 (a 3×3 system). Returns 0, CL_ENAN (a
 * non-finite state) or CL_ESINGULAR (𝔾 or the 3×3 system singular by the
 * rule of cl_lu_factor()).
 */
int CL_FN(cl_skate_rhs_z)(cl_rptr dz, cl_rptr lambda, cl_rsrc par, cl_rsrc z);

/**
 * The same equations for the skate with the internal rotor [SKATE (43)–(44),
 * (54)–(55)] on z = (Ω, Y, Γ, θ̇), the torque \p u applied to the rotor
 * (π̇ = u). Returns as cl_skate_rhs_z() (J₁ = 0 makes the rotor row singular).
 */
int CL_FN(cl_skate_rhs_z_rotor)(cl_rptr dz, cl_rptr lambda, cl_rsrc par, cl_rsrc z, cl_rsrc u);

/* ------------------------------------------- §4 Hamel basis (skate_quasi.c) */

/**
 * A system in the setting of [SKATE §4]: Lie algebra 𝔰 of dimension n with
 * structure constants c, r constraints, advected parameter Γ ∈ X* of
 * dimension nx, ℓ = ½𝔾ξξ − U(Γ) [SKATE (28)], and a Γ-dependent basis.
 * Index layouts (row-major):
 *  - c[(i·n + j)·n + k] = \f$c_{ij}^k\f$, \f$[E_i, E_j] = c_{ij}^k E_k\f$;
 *  - kappa[(i·n + j)·nx + k] = \f$κ_{ij}^k\f$, \f$(ξΓ)_i = κ_{ij}^k ξ^j Γ_k\f$;
 *  - Kstd[(l·nx + j)·nx + k] = ⟨K(e_j, e*^k), E_l⟩;
 *  - G[i·n + j] = \f$\mathbb G_{ij}\f$.
 * basis() writes 𝓔 [SKATE (22)] (n×n, column j is 𝓔_j(Γ) in the standard basis, the
 * first n − r columns spanning 𝔡(Γ)) and dE[(j·n + i)·n + col] = ∂𝓔^i_col/∂Γ_j;
 * dU() writes ∂U/∂Γ (nx), U() the potential.
 * \numbers_at_precision
 */
typedef struct CL_FN(cl_hamel) {
    int n, r, nx;
    cl_rsrc c, kappa, Kstd, G;
    void (*basis)(cl_rptr E, cl_rptr dE, cl_rsrc Gamma, const void *ctx);
    void (*dU)(cl_rptr dU, cl_rsrc Gamma, const void *ctx);
    void (*U)(cl_rptr U, cl_rsrc Gamma, const void *ctx);
    const void *ctx;
} CL_FN(cl_hamel);

/**
 * Γ-dependent structure constants [SKATE (23)]
 * \f$\mathcal C_{ij}^k = \mathcal E_i^l\mathcal E_j^m c_{lm}^p(\mathcal E^{-1})_p^k\f$,
 * written to C[(i·n + j)·n + k]. Returns 0, CL_EDIM, CL_ENAN or CL_ESINGULAR
 * (𝓔 singular by the rule of cl_lu_factor()).
 */
int CL_FN(cl_hamel_structure)(cl_rptr C, const CL_FN(cl_hamel) *h, cl_rsrc Gamma);

/**
 * Theorem 9 [SKATE (25)–(27), (29)]: from the quasivelocities v^α
 * (n − r entries) and Γ (nx entries), the momenta \f$p_i = \mathcal G_{iβ}v^β\f$, their rates
 * \f$\dot p_\alpha = -\mathcal B^i_{\alpha\beta}p_i v^\beta + K^k_{\alpha j}\,\partial\ell/\partial\Gamma_j\,\Gamma_k\f$,
 * \f$\dot\Gamma_i = -\varkappa^k_{i\beta}v^\beta\Gamma_k\f$, and v̇ solved from
 * \f$\dot p_α = \mathcal G_{αβ}\dot v^β + (\partial\mathcal G_{αβ}/\partialΓ_j)\dotΓ_j v^β\f$. Writes dv (n − r), dGamma (nx),
 * and pdot (n − r) unless NULL. n ≤ 8, nx ≤ 8 (else CL_EDIM). Returns 0,
 * CL_EDIM, CL_ENAN or CL_ESINGULAR (𝓔 or \f$\mathcal G_{αβ}\f$ singular by the rule of
 * cl_lu_factor()). 𝓔 is fetched and factored once per call.
 */
int CL_FN(cl_hamel_rhs)(cl_rptr dv, cl_rptr dGamma, cl_rptr pdot, const CL_FN(cl_hamel) *h, cl_rsrc v, cl_rsrc Gamma);

/**
 * The momentum equation [SKATE (25a)] for a momentum not tied to h->G: with
 * p_i = 𝓔_i^k(Γ)μ_k for the given μ = δℓ/δξ (n entries, standard basis),
 * \f$\dot p_\alpha = -\mathcal B^i_{\alpha\beta}v^\beta p_i - K^k_{\alpha j}\,\partial U/\partial\Gamma_j\,\Gamma_k\f$
 * (n − r entries). For the controlled Lagrangian (47), whose p̃ of (48) is
 * not 𝒢v, this is the right-hand side of [SKATE (51a)]. Returns 0, CL_EDIM
 * (as cl_hamel_rhs()), CL_ENAN or CL_ESINGULAR (𝓔 as in cl_hamel_rhs()).
 */
int CL_FN(cl_hamel_pdot)(cl_rptr pdot, const CL_FN(cl_hamel) *h, cl_rsrc mu, cl_rsrc v, cl_rsrc Gamma);

/** Constrained energy [SKATE (30)]: \f$ℰ = \tfrac12\mathcal G_{αβ}(Γ)v^αv^β + U(Γ)\f$. */
int CL_FN(cl_hamel_energy)(cl_rptr E, const CL_FN(cl_hamel) *h, cl_rsrc v, cl_rsrc Gamma);

/**
 * Fill \p h with the pendulum skate in the Hamel basis [SKATE (31)], whose
 * derivative D𝓔 is [SKATE (32)]: se(3) with its
 * structure constants, κ of ξΓ = Ω×Γ, K(y, Γ) = (y×Γ, 0) [SKATE (20)],
 * 𝔾 of (34) and U = mglΓ₃. \p store holds CL_SKATE_HAMEL_STORE scalars of
 * the working precision and must outlive \p h.
 */
void CL_FN(cl_skate_hamel)(CL_FN(cl_hamel) *h, cl_rptr store, cl_rsrc par);

/* ------------------------------------------------- §5 equations (skate_eqs.c) */

/** ζ from z by (33): v¹ = Ω₁, v² = Ω·Γ, v³ = Y₁, then Γ₂, Γ₃. */
void CL_FN(cl_skate_z_to_zeta)(cl_rptr zeta, cl_rsrc z);
/** z from ζ on the constraint set: Ω = v¹E₁ + v²Γ, Y = v³E₁, Γ = (0, Γ₂, Γ₃). */
void CL_FN(cl_skate_zeta_to_z)(cl_rptr z, cl_rsrc zeta);

/** The six momenta p_i of §5.1 [SKATE (24)] at ζ. */
void CL_FN(cl_skate_p)(cl_rptr p, cl_rsrc par, cl_rsrc zeta);

/**
 * The vector field f(ζ) of [SKATE (38)], derived from (35):
 * \f[ \dot v^1 = \frac{((\bar I_2 - I_3)Γ_3 (v^2)^2 + mgl)Γ_2 + mlΓ_3v^2v^3}{\bar I_1},\quad
 *     \dot v^2 = \frac{2(I_3 - I_2)Γ_2Γ_3v^1v^2}{I_2Γ_2^2 + I_3Γ_3^2}, \f]
 * (the rows Γ̇₂, Γ̇₃ are [SKATE (35b)])
 * \f[ \dot v^3 = -2lΓ_3v^1v^2 - lΓ_2\dot v^2 \;\big(= -\tfrac{2lI_3Γ_3v^1v^2}{I_2Γ_2^2+I_3Γ_3^2}\text{ on }Γ_2^2+Γ_3^2=1\big),\quad
 *     \dotΓ_2 = v^1Γ_3,\quad \dotΓ_3 = -v^1Γ_2. \f]
 * Returns 0 or CL_EDOMAIN (I₂Γ₂² + I₃Γ₃² = 0).
 */
int CL_FN(cl_skate_rhs_zeta)(cl_rptr dzeta, cl_rsrc par, cl_rsrc zeta);

/** Df(ζ), 5×5 row-major, differentiated by hand from cl_skate_rhs_zeta(). */
int CL_FN(cl_skate_jacobian_zeta)(cl_rptr Df, cl_rsrc par, cl_rsrc zeta);

/** Constrained energy (30) in ζ: ½(Ī₁(v¹)² + (Ī₂Γ₂² + I₃Γ₃²)(v²)² + 2mlΓ₂v²v³ + m(v³)²) + mglΓ₃. */
void CL_FN(cl_skate_energy_zeta)(cl_rptr E, cl_rsrc par, cl_rsrc zeta);

/**
 * Invariants C₁ (36), C₂ (37) and C₃ = (Γ₂² + Γ₃²)/2 into C[0..2]:
 * \f[ C_1 = (I_2Γ_2^2 + I_3Γ_3^2)v^2,\quad
 *     C_2 = lΓ_2v^2 + v^3 + \frac{l\,C_1}{\sqrt{I_3(I_2-I_3)}}\arctan\Big(\sqrt{\tfrac{I_2-I_3}{I_3}}\,Γ_2\Big), \f]
 * the prefactor of the arctangent with the square root (the printed (37) has
 * l/(I₃(I₂−I₃)); see docs/errata_SKATE.md). Needs I₂ > I₃ (else CL_EPARAM).
 */
int CL_FN(cl_skate_invariants)(cl_rptr C, cl_rsrc par, cl_rsrc zeta);

/**
 * Gradients and Hessians at ζ of ℰ and C₁, C₂, C₃, for the Energy–Casimir
 * test: DE (5), DC (3×5), HE (5×5), HC (3×5×5), all by hand from the
 * formulas of cl_skate_energy_zeta() and cl_skate_invariants().
 * Needs I₂ > I₃ (else CL_EPARAM).
 */
int CL_FN(cl_skate_invariant_derivatives)(cl_rptr DE, cl_rptr DC, cl_rptr HE, cl_rptr HC, cl_rsrc par, cl_rsrc zeta);

/** Left-hand side of the equilibrium condition [SKATE (39)]: out[0] = v¹, out[1] = the second expression. */
void CL_FN(cl_skate_equilibrium_residual)(cl_rptr out, cl_rsrc par, cl_rsrc zeta);
/** Sliding equilibrium [SKATE (40)]: ζ = (0, 0, Y₀, 0, 1). */
void CL_FN(cl_skate_sliding)(cl_rptr zeta, cl_rsrc Y0);
/** Spinning equilibrium [SKATE (41)]: ζ = (0, Ω₀, 0, 0, 1). */
void CL_FN(cl_skate_spinning)(cl_rptr zeta, cl_rsrc Omega0);

/**
 * The non-zero eigenvalue pair ±√κ of Df at the equilibria, as κ:
 * sliding (Prop. 12) κ = mgl/(I₁ + ml²); spinning (Prop. 11, App. A.1)
 * κ = (mgl − (I₃ + ml² − I₂)Ω₀²)/(I₁ + ml²). The other three eigenvalues are 0.
 * \p which: 0 sliding, 1 spinning (\p x is Y₀ or Ω₀).
 */
void CL_FN(cl_skate_equilibrium_kappa)(cl_rptr kappa, cl_rsrc par, int which, cl_rsrc x);

/* ------------------------------------ §6–§7 controlled Lagrangians (skate_control.c) */

/**
 * Rotor-augmented Lagrangian ℓ_r = K − U [SKATE (43)], for the skate [SKATE (54)–(55)], at (Ω, Y, Γ, θ̇):
 * ½((I₁+ml²)Ω₁² + J₁(Ω₁+θ̇)² + (𝓘₂+ml²)Ω₂² + 𝓘₃Ω₃²) + ml(Ω₂Y₁ − Ω₁Y₂) + ½m‖Y‖² − mglΓ₃
 * (the factor ½ on m‖Y‖², missing in the printed first line).
 */
void CL_FN(cl_skate_lagrangian_rotor)(cl_rptr ell, cl_rsrc par, cl_rsrc z);

/**
 * Controlled Lagrangian (47) for one rotor with the matching (52):
 * τ = −(J₁/σ)e₁ᵀ, 1/σ + 1/ρ = 1/J₁, evaluated at (Ω, Y, Γ, θ̇).
 * CL_EDOMAIN when σ = 0 or σ = J₁ (ρ undefined).
 */
int CL_FN(cl_skate_lagrangian_controlled)(cl_rptr ell, cl_rsrc par, cl_rsrc sigma, cl_rsrc z);

/**
 * \brief Momenta of a rotor-augmented Lagrangian in the Hamel basis
 *        [SKATE (45)], with \f$\mathcal G_{ia}\f$ of [SKATE (46)], for a general system \p h of §4.
 *
 * \f$\ell_r = \tfrac12\mathbb G_{IJ}\dot x^I\dot x^J - U(Γ)\f$ on ẋ = (ξ, θ̇) ∈ 𝔰 × ℝˢ, with the (n+s)×(n+s)
 * tensor \p Gr (row-major: \f$\mathbb G_{ij}\f$, \f$\mathbb G_{ia}\f$, \f$\mathbb G_{ab}\f$; it replaces h->G), on
 * ξ = 𝓔_β(Γ)v^β ∈ 𝔡(Γ) (\p v has n − r entries):
 * \f[ p_i = \mathcal G_{iβ}v^β + \mathcal G_{ia}\dotθ^a,\quad
 *     π_a = \mathcal G_{aα}v^α + 𝔾_{ab}\dotθ^b,\quad
 *     \mathcal G_{ij} = 𝔾_{kl}\mathcal E_i^k\mathcal E_j^l,\quad
 *     \mathcal G_{ia} = \mathcal E_i^j𝔾_{ja}. \f]
 * Writes \p p (n entries, all i) and \p pi (s). Returns 0 or CL_EDIM
 * (n or nx outside 1..8, s outside 1..3, r ≥ n).
 */
int CL_FN(cl_hamel_rotor_momenta)(cl_rptr p, cl_rptr pi, const CL_FN(cl_hamel) *h, int s, cl_rsrc Gr,
                                  cl_rsrc v, cl_rsrc thetadot, cl_rsrc Gamma);

/**
 * \brief Momenta of the controlled Lagrangian (47) for one rotor (s = 1):
 *        p̃ of [SKATE (48)] and π̃ of [SKATE (49)], with 𝒯 of [SKATE (50)].
 * \f[ \tildeπ = ρ\big(\dotθ + 𝔾_{aa}^{-1}\mathcal G_{aα}v^α + \mathcal T_αv^α\big),\quad
 *     \mathcal T_i = τ_j\mathcal E_i^j, \f]
 * \f[ \tilde p_i = \mathcal G_{iα}v^α + \mathcal G_{ia}\dotθ + (\mathcal G_{ia} + σ\mathcal T_i)\mathcal T_αv^α
 *     + 𝔾_{aa}ρ^{-1}\tildeπ\,\mathcal T_i + (ρ - 𝔾_{aa})ρ^{-1}\tildeπ\,(𝔾_{aa}^{-1}\mathcal G_{ai} + \mathcal T_i), \f]
 * \p Gr the (n+1)×(n+1) tensor of cl_hamel_rotor_momenta(), \p tau the n
 * entries τ_j, \p sigma and \p rho the scalars σ, ρ of (47) (no matching
 * assumed). Writes π̃, and p̃ (n entries) and 𝒯 (n) unless NULL.
 * Returns 0, CL_EDIM (as above) or CL_ESINGULAR (\f$\mathbb G_{aa} = 0\f$ or ρ = 0).
 */
int CL_FN(cl_hamel_rotor_controlled_momenta)(cl_rptr ptil, cl_rptr pit, cl_rptr T, const CL_FN(cl_hamel) *h, cl_rsrc Gr,
                                             cl_rsrc tau, cl_rsrc sigma, cl_rsrc rho, cl_rsrc v, cl_rsrc thetadot, cl_rsrc Gamma);

/**
 * Parameters of the matched system (57): I → Ĩ = (I₁ + J₁²/σ, I₂ + J₂, I₃ + J₃),
 * J → 0, other entries copied. CL_EDOMAIN when σ = 0.
 */
int CL_FN(cl_skate_matched_params)(cl_rptr parm, cl_rsrc par, cl_rsrc sigma);

/**
 * Control law (53) for the skate, u = (J₁²/σ) v̇¹, with v̇¹ eliminated
 * through the controlled equations (44a) (Remark 14):
 * \f[ u = \frac{J_1^2}{σ}\,\frac{R_1}{I_1 + ml^2 + J_1^2/σ},\quad
 *     R_1 = Γ_2(mgl + (ml^2 + 𝓘_2 - 𝓘_3)Γ_3(v^2)^2) + mlΓ_3v^2v^3. \f]
 * The printed (56) divides by I₁ + ml² instead (see docs/errata_SKATE.md).
 * z is the rotor z-form state. CL_EDOMAIN when σ = 0 or I₁ + ml² + J₁²/σ = 0.
 */
int CL_FN(cl_skate_control_law)(cl_rptr u, cl_rsrc par, cl_rsrc sigma, cl_rsrc z);

/** The control law exactly as printed in (56): u = (J₁²/σ) R₁/(I₁ + ml²). */
int CL_FN(cl_skate_control_law_printed)(cl_rptr u, cl_rsrc par, cl_rsrc sigma, cl_rsrc z);

/**
 * Closed loop: cl_skate_rhs_z_rotor() with u from cl_skate_control_law()
 * (\p printed = 0) or cl_skate_control_law_printed() (\p printed = 1).
 */
int CL_FN(cl_skate_rhs_z_controlled)(cl_rptr dz, cl_rsrc par, cl_rsrc sigma, cl_rsrc z, int printed);

/**
 * Sign of the Energy–Casimir quadratic form of Prop. 16 on its tangent
 * space, coefficient of s₁²: out = I₁ + ml² + J₁²/σ (the s₂² coefficient is −mgl).
 */
void CL_FN(cl_skate_prop16_coefficient)(cl_rptr out, cl_rsrc par, cl_rsrc sigma);

/* -------------------------------------- §5.4, App. A stability (skate_stability.c) */

/**
 * Df(ζ) of (38) by src/deriv (cl_jacobian on the MPFR copy of
 * cl_skate_rhs_zeta at raised precision); \p err NULL or 25 error bounds.
 * Returns 0 or the status of cl_jacobian / the field.
 */
int CL_FN(cl_skate_jacobian_deriv)(cl_rptr Df, cl_rptr err, cl_rsrc par, cl_rsrc zeta);

/**
 * Characteristic polynomial det(λI − A) = Σ coef[i] λⁱ (coef[n] = 1) of an
 * n×n matrix, n ≤ 8, by the Faddeev–LeVerrier recursion. CL_EDIM otherwise.
 */
int CL_FN(cl_charpoly)(cl_rptr coef, cl_rsrc A, int n);

/**
 * Energy–Casimir test [SKATE App. A.1] at ζ with ℰ (30) and C₁, C₂, C₃ (36),
 * (37), through cl_energy_casimir() (src/energy_casimir.h); outputs as there
 * (c: 3, Hr and eig: 2 for n = 5, k = 3; Hr/eig may be NULL; \p zero_tol as
 * there, 0 for a pure sign decision). Needs I₂ > I₃.
 */
int CL_FN(cl_skate_energy_casimir)(cl_ec_report *rep, cl_rptr c, cl_rptr Hr, cl_rptr eig, cl_rsrc par, cl_rsrc zeta, double zero_tol);

/**
 * Spinning-stability threshold by bisection on the Energy–Casimir verdict:
 * the Ω₀ in [lo, hi] where the restricted Hessian at ζ_sp(Ω₀) turns
 * definite (sign of its smallest eigenvalue), to relative width 2^(−p+8). Needs
 * I₃ + ml² > I₂ and the verdict to differ at lo and hi (else CL_EDOMAIN).
 * Compare with (42): √(mgl/(I₃ + ml² − I₂)).
 */
int CL_FN(cl_skate_spinning_threshold)(cl_rptr Omega0, cl_rsrc par, cl_rsrc lo, cl_rsrc hi);

/**
 * Threshold of Proposition 16 by bisection on σ in [lo, hi] (both < 0):
 * the σ where the restricted Energy–Casimir Hessian of the matched system
 * (57) at the sliding equilibrium ζ_sl(Y₀) turns negative definite.
 * Compare with (58): −J₁²/(I₁ + ml²). CL_EDOMAIN when the verdict does not
 * change between lo and hi.
 */
int CL_FN(cl_skate_sigma_threshold)(cl_rptr sigma, cl_rsrc par, cl_rsrc Y0, cl_rsrc lo, cl_rsrc hi);

/**
 * Energy–Casimir verdict at the spinning equilibrium ζ_sp(Ω₀) (41), for one
 * cell of a stability map: *verdict = 1 (restricted Hessian definite:
 * stable), −1 (not definite) or, on balls, CL_UNDECIDED (a sign not proven;
 * see cl_ec_verdict()). \p margin (NULL or one scalar) = the smallest
 * eigenvalue of the restricted Hessian (in an orthonormal basis of the
 * tangent space of the level set), positive exactly when stable; on balls
 * an enclosure. Returns 0 or the status of cl_skate_energy_casimir() (then
 * *verdict = CL_UNDECIDED). Needs I₂ > I₃.
 */
int CL_FN(cl_skate_spinning_verdict)(int *verdict, cl_rptr margin, cl_rsrc par, cl_rsrc Omega0);

/**
 * The same for the controlled sliding equilibrium ζ_sl(Y₀) with gain σ
 * (the matched system (57), Prop. 16): *verdict = 1 when the restricted
 * Hessian is negative definite, −1 when not, CL_UNDECIDED (balls);
 * \p margin = −(its largest eigenvalue), positive exactly when stable.
 * Returns 0, CL_EDOMAIN (σ = 0) or the status of cl_skate_energy_casimir().
 */
int CL_FN(cl_skate_sigma_verdict)(int *verdict, cl_rptr margin, cl_rsrc par, cl_rsrc Y0, cl_rsrc sigma);

/**
 * Certified form of cl_skate_spinning_threshold(): the bracket [lo, hi] it
 * bisects, returned instead of its midpoint. The Energy–Casimir verdict at
 * every point of \p lo is the verdict at \p lo0 and at every point of \p hi
 * the verdict at \p hi0 (not definite, definite or the reverse), so the
 * threshold of (42) lies between them. On balls each verdict is proven
 * (cl_ec_verdict()) and bisection stops at relative width 2^(8−p) or at the
 * first midpoint whose verdict is not proven; the enclosure of the
 * threshold is then the hull of the balls \p lo and \p hi. Returns 0,
 * CL_EDOMAIN (I₃ + ml² ≤ I₂, or the same verdict at lo0 and hi0) or
 * CL_EUNDECIDED (the verdict at lo0 or hi0 not proven).
 */
int CL_FN(cl_skate_spinning_bracket)(cl_rptr lo, cl_rptr hi, cl_rsrc par, cl_rsrc lo0, cl_rsrc hi0);

/**
 * Certified form of cl_skate_sigma_threshold(): the bracket of σ around
 * (58) (negative definiteness of the matched system at ζ_sl(Y₀)), as
 * cl_skate_spinning_bracket(). Returns 0, CL_EDOMAIN or CL_EUNDECIDED.
 */
int CL_FN(cl_skate_sigma_bracket)(cl_rptr lo, cl_rptr hi, cl_rsrc par, cl_rsrc Y0, cl_rsrc lo0, cl_rsrc hi0);

/**
 * The closed forms of the thresholds: \p spin = 1, (42)
 * \f$Ω_0^* = \sqrt{mgl/(I_3 + ml^2 - I_2)}\f$; \p spin = 0, (58)
 * \f$σ^* = -J_1^2/(I_1 + ml^2)\f$. On balls an enclosure of them.
 */
void CL_FN(cl_skate_closed_threshold)(cl_rptr x, cl_rsrc par, int spin);

/* ------------------------------------------ §7 simulations (skate_sim.c) */

/**
 * Initial state (59) in the z-form: Ω = (0.1, 0.1 tan φ₀, 0.1), Y = (1, 0, 0),
 * Γ = (0, sin φ₀, cos φ₀). It satisfies Γ₁ = 0 and ψ¹, ψ², ψ³ for every φ₀
 * (Ω₂Γ₃ = 0.1 sin φ₀ = Ω₃Γ₂). CL_EDOMAIN when cos φ₀ = 0.
 */
int CL_FN(cl_skate_initial_59)(cl_rptr z, cl_rsrc phi0);

/**
 * Integrate the uncontrolled skate from t = 0 until Γ₃ falls through 0
 * (Figure 4), locating the event to working precision: Gragg–Bulirsch–Stoer
 * (src/ode) with tolerance 2^(12−p), event Γ₃ = 0 falling. \p form 0
 * integrates (38) from ζ₀ = \p x0 (5 numbers), form 1 the z-form (21) from
 * z₀ = \p x0 (9 numbers). Writes the fall time and the state there (same
 * form). CL_EDOMAIN when Γ₃ does not reach 0 before \p tmax; otherwise the
 * status of the integrator.
 */
int CL_FN(cl_skate_fall_time)(cl_rptr tfall, cl_rptr xend, cl_rsrc par, int form, cl_rsrc x0, cl_rsrc tmax);

/**
 * Controlled skate of Figure 5: the closed loop (44) in the rotor z-form with
 * the control law (cl_skate_control_law(), or the printed (56) when
 * \p printed is set) from z₀ = \p z0 (10 numbers) over [0, \p tend]; every
 * local minimum of Γ₃ is located by the event Γ̇₃ = Γ₁Ω₂ − Γ₂Ω₁ rising
 * through 0 (GBS, tolerance 2^(12−p) as cl_skate_fall_time()). Among Γ₃(0),
 * the local minima and Γ₃(tend) it finds the lowest value, then the first
 * candidate within 2^(24−p) of it (later minima of the periodic closed loop
 * repeat the value up to the integration error), and writes that candidate's
 * time and value — the minimum and when it is first reached; \p nmin counts
 * the local minima, \p nties the candidates within that margin (the first
 * 4096 are kept). Returns 0, CL_ENOMEM or the status of the integrator.
 */
int CL_FN(cl_skate_controlled_min)(cl_rptr tmin, cl_rptr g3min, int *nmin, int *nties, cl_rsrc par, cl_rsrc sigma, cl_rsrc z0,
                                   cl_rsrc tend, int printed);

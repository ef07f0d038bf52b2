/* Templated declarations of emb_so3.c ([EMB §3.4]); included once per scalar kind.
 * 3×3 matrices are 9 scalars, row-major; the inner product of R^{3×3} is
 * V·W = tr(VᵀW). */

/**
 * The orthogonal projection of \f$\mathbb R^{3\times3}\f$ onto T_R SO(3) [EMB (3.7)]:
 * \f[ P(R, Y) = \tfrac12 R(R^TY - Y^TR) = \tfrac12 (Y - R Y^T R). \f]
 * P may alias Y.
 */
void CL_FN(cl_emb_so3_proj)(cl_rptr P, cl_rsrc R, cl_rsrc Y);
/** Derivative of (3.7) in R along V: out = ½(−V Yᵀ R − R Yᵀ V) ([EMB (2.5)] for SO(3)). */
void CL_FN(cl_emb_so3_dproj)(cl_rptr out, cl_rsrc R, cl_rsrc V, cl_rsrc Y);
/** d = V·W = tr(VᵀW), the inner product of \f$\mathbb R^{3\times3}\f$ [EMB §3.4]. */
void CL_FN(cl_emb_so3_inner)(cl_rptr d, cl_rsrc V, cl_rsrc W);
/** v = (M)^∨ of the skew part ½(M − Mᵀ). */
void CL_FN(cl_emb_so3_vee)(cl_rptr v, cl_rsrc M);
/**
 * R = exp(θ^): cl_so3_exp() of src/lie (Rodrigues, with a precision-chosen
 * series near θ = 0) under the chapter's name.
 */
void CL_FN(cl_emb_so3_exp)(cl_rptr R, cl_rsrc theta);
/** Largest |(RᵀR − I)ᵢⱼ| as log2 (−inf when exactly orthogonal). */
double CL_FN(cl_emb_so3_log2_orth_defect)(cl_rsrc R);
/** The non-standard inertia \f$ J_d = \tfrac12 \mathrm{tr}[J] I - J \f$ [EMB §3.4]. */
void CL_FN(cl_emb_so3_inertia_nonstandard)(cl_rptr Jd, cl_rsrc J);

/**
 * \brief A rigid body about a fixed point on SO(3) [EMB §3.4]: the free
 *        rigid body, or the heavy top when its weight is non-zero.
 *
 * Inertia J (symmetric positive definite, body frame), and for the heavy
 * top a mass m in gravity g along −e₃ with centre of mass at ρ (body frame,
 * ρ = ℓχ for a unit body axis χ):
 * \f[ L(R,\dot R) = \tfrac12\mathrm{tr}[\dot R J_d\dot R^T] - m g\, e_3^T R\rho, \f]
 * \f[ H(R,\mu) = 2\,\xi^T J^{-1}\xi + m g\, e_3^T R\rho,\quad
 *     \xi = \tfrac12(R^T\mu - \mu^T R)^\vee, \f]
 * the Hamiltonian being the Legendre transform for the momentum
 * μ = P(R, ṘJ_d) = ½R(JΩ)^ ([EMB (2.4)] with (3.7)). Opaque.
 */
typedef struct CL_FN(cl_emb_top) CL_FN(cl_emb_top);

/**
 * Create a free rigid body with inertia \p J (3×3) at the precision of J.
 * Returns 0, CL_ENAN, CL_EPARAM (J not symmetric to 8·2^(1−p) relative, or
 * not positive definite) or CL_ENOMEM.
 */
int CL_FN(cl_emb_rigid_new)(CL_FN(cl_emb_top) **out, cl_rsrc J);
/**
 * Create a heavy top: inertia \p J about the fixed point, mass \p m,
 * gravity \p g, centre of mass \p rho (body frame). Returns as
 * cl_emb_rigid_new(), and CL_EPARAM for m < 0.
 */
int CL_FN(cl_emb_heavy_top_new)(CL_FN(cl_emb_top) **out, cl_rsrc J, cl_rsrc m, cl_rsrc g, cl_rsrc rho);
/** Release (NULL allowed). */
void CL_FN(cl_emb_top_free)(CL_FN(cl_emb_top) *t);
/** Fill \p model (n = 9: P of (3.7), L and H above) for the general routines of [EMB §2]. */
void CL_FN(cl_emb_top_model)(CL_FN(cl_emb_top) *t, CL_FN(cl_emb_model) *model);
/** Copies of J, J⁻¹ and J_d (any may be NULL). */
void CL_FN(cl_emb_top_inertia)(const CL_FN(cl_emb_top) *t, cl_rptr J, cl_rptr Jinv, cl_rptr Jd);

/** L = ½ tr[Ṙ J_d Ṙᵀ] − m g e₃ᵀRρ, the Lagrangian in the trace form of [EMB §3.4]. */
void CL_FN(cl_emb_top_lagrangian)(const CL_FN(cl_emb_top) *t, cl_rptr L, cl_rsrc R, cl_rsrc Rdot);

/**
 * Residual of the Euler–Lagrange equation on SO(3) [EMB (3.8)], twice
 * P(R, R̈J_d − ∂L/∂R):
 * \f[ r = \ddot R J_d - R J_d \ddot R^T R + m g\,(e_3\rho^T - R\rho e_3^T R), \f]
 * i.e. \f$ \ddot R J_d - R J_d \ddot R^T R \f$ for the free rigid body.
 */
void CL_FN(cl_emb_top_residual_38)(const CL_FN(cl_emb_top) *t, cl_rptr r, cl_rsrc R, cl_rsrc Rddot);

/**
 * R̈ from [EMB (3.8)] without the hat-map identities: with Ω = (RᵀṘ)^∨,
 * R̈ = R(Ω̂² + Ŵ) (Ω̂² symmetric: the normal part fixed by ṘᵀR + RᵀṘ = 0 staying
 * zero), and W ∈ R³ solves the 3×3 linear system (Rᵀ r(W))^∨ = 0 where
 * r(W) is the residual of (3.8), built column by column from r(eᵢ) − r(0).
 * Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_emb_top_accel_38)(const CL_FN(cl_emb_top) *t, cl_rptr Rddot, cl_rsrc R, cl_rsrc Rdot);

/**
 * Euler's equation with the gravity torque,
 * \f$ J\dot\Omega = J\Omega\times\Omega + m g\,\Gamma\times\rho \f$, Γ = Rᵀe₃
 * (for the free rigid body \f$ J\dot\Omega + \Omega\times J\Omega = 0 \f$ and
 * \p Gamma may be NULL).
 */
void CL_FN(cl_emb_top_euler)(const CL_FN(cl_emb_top) *t, cl_rptr Omegadot, cl_rsrc Omega, cl_rsrc Gamma);

/**
 * The reduced equations in body momentum Π = JΩ and Γ = Rᵀe₃:
 * \f$ \dot\Pi = \Pi\times\Omega + m g\,\Gamma\times\rho,\ \dot\Gamma = \Gamma\times\Omega \f$.
 */
void CL_FN(cl_emb_top_reduced_rhs)(const CL_FN(cl_emb_top) *t, cl_rptr Pidot, cl_rptr Gammadot,
                                   cl_rsrc Pi, cl_rsrc Gamma);

/** μ = P(R, ṘJ_d) = ½ R (JΩ)^ with Ṙ = RΩ̂ ([EMB (2.4)] on SO(3)). */
void CL_FN(cl_emb_top_momentum)(const CL_FN(cl_emb_top) *t, cl_rptr mu, cl_rsrc R, cl_rsrc Omega);
/** Π = 2 ξ = (Rᵀμ − μᵀR)^∨, the body angular momentum of μ ∈ T*_R SO(3). */
void CL_FN(cl_emb_top_body_momentum)(cl_rptr Pi, cl_rsrc R, cl_rsrc mu);

/** Number of invariants reported by cl_emb_top_invariants(). */
#define CL_EMB_TOP_NINV 7
/**
 * Invariants of the state (R, Ω): out[0] energy ½ΩᵀJΩ + m g Γ·ρ,
 * out[1] |JΩ|² (a Casimir of the free body), out[2..4] spatial angular
 * momentum R JΩ (conserved for the free body; its e₃ component for the
 * heavy top), out[5] Γ·JΩ (Casimir of the heavy top), out[6] |Γ|².
 */
void CL_FN(cl_emb_top_invariants)(const CL_FN(cl_emb_top) *t, cl_rptr out, cl_rsrc R, cl_rsrc Omega);

/**
 * One step h of classical RK4 on \f$(R, \dot R) \in \mathbb R^{3\times3}\times\mathbb R^{3\times3}\f$ with R̈ from
 * cl_emb_top_accel_38(): an integrator in the embedding space, which lets
 * RᵀR drift at the truncation error. Updates R, Rdot in place.
 */
int CL_FN(cl_emb_top_rk4_38_step)(const CL_FN(cl_emb_top) *t, cl_rptr R, cl_rptr Rdot, cl_rsrc h);

/**
 * One step h of RKMK4, the Runge–Kutta–Munthe-Kaas Lie group method of
 * order 4, on (R, Ω) ∈ SO(3)×R³ with Ṙ = RΩ̂ and Ω̇ from cl_emb_top_euler():
 * R₁ = R₀ exp(Θ), Θ from classical RK4 on
 * \f$ \dot\theta = \mathrm{dexp}^{-1}_{-\theta}\Omega \approx \Omega + \tfrac12\theta\times\Omega + \tfrac1{12}\theta\times(\theta\times\Omega) \f$.
 * RᵀR − I stays at rounding level. Updates R, Omega in place.
 */
void CL_FN(cl_emb_top_rkmk4_step)(const CL_FN(cl_emb_top) *t, cl_rptr R, cl_rptr Omega, cl_rsrc h);

/**
 * The rigid body or heavy top as a problem for the Lie group integrators of
 * src/lie (lie_decl.h): y = (R, Ω) (12 scalars, R row-major), algebra
 * so(3) × R³ acting by (u, w)·(R, Ω) = (R exp(û)ᵀ, Ω + w), a left action, with
 * field f(R, Ω) = (−Ω, Ω̇) so that Ṙ = RΩ̂, Ω̇ from cl_emb_top_euler(); dexp⁻¹
 * in closed form on so(3) (cl_se3_dexpinv with no translation) and the
 * identity on R³, bracket ([u, u′], 0). \p t must outlive \p pb.
 */
void CL_FN(cl_emb_top_lie_problem)(CL_FN(cl_emb_top) *t, CL_FN(cl_lie_problem) *pb);

/**
 * Linearization of the free rigid body Π̇ = Π × J⁻¹Π at an equilibrium Π₀
 * (Π₀ an eigenvector of J: a steady rotation about a principal axis),
 * restricted to the tangent plane Π₀⊥ of the Casimir sphere |Π| = |Π₀|:
 * B = Π̂₀J⁻¹ − (J⁻¹Π₀)^, and with an orthonormal basis T of Π₀⊥,
 * tr and det of TᵀBT (2×2). Its eigenvalues are the roots of
 * λ² − tr λ + det = 0; tr = 0 up to rounding, so det > 0 gives a centre
 * (±i√det) and det < 0 a saddle (±√−det). \p first_var returns
 * ‖Π₀ × J⁻¹Π₀‖ / ‖Π₀‖², zero at an equilibrium. Returns 0 or CL_EDOMAIN (Π₀ = 0).
 */
int CL_FN(cl_emb_rigid_steady_linearization)(const CL_FN(cl_emb_top) *t, cl_rptr tr, cl_rptr det,
                                             cl_rptr first_var, cl_rsrc Pi0);

/**
 * Energy–Casimir test at the equilibrium Π₀: Φ = ½ΠᵀJ⁻¹Π + C(|Π|²) with
 * C′(|Π₀|²) = −Π₀ᵀJ⁻¹Π₀/(2|Π₀|²), so that δΦ = J⁻¹Π₀ + 2C′Π₀ = 0; the second
 * variation on Π₀⊥ is Tᵀ(J⁻¹ + 2C′I)T (the C″ term vanishes there). Returns
 * its two eigenvalues (ascending) in \p eig and ‖δΦ‖/‖Π₀‖ in \p first_var.
 * Definite (both of one sign) means nonlinearly stable. Returns 0 or CL_EDOMAIN.
 */
int CL_FN(cl_emb_rigid_energy_casimir)(const CL_FN(cl_emb_top) *t, cl_rptr eig, cl_rptr first_var, cl_rsrc Pi0);

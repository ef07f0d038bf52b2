/* Templated prototypes of lagr_so3.c: a general Lagrangian L(R, Ω) on SO(3) from an expression graph.
 */

typedef struct CL_FN(cl_lagr_so3) CL_FN(cl_lagr_so3);

/**
 * The Lagrangian node \p L of graph \p g on SO(3) with \p nparam parameters
 * (inputs 12 … 12 + nparam − 1, all zero until set), at precision \p prec.
 * The graph must outlive the object and not grow. Everything later runs in
 * the object's own storage. Returns CL_OK with the object in \p *out, or,
 * with \p *out NULL and nothing left allocated: CL_EDIM (\p L is not a node
 * of \p g), CL_EPREC (\p prec out of range, MPFR), CL_EPARSE or CL_ENAN (a
 * constant of the graph cannot be read), CL_ENOMEM.
 */
int CL_FN(cl_lagr_so3_new)(CL_FN(cl_lagr_so3) **out, const cl_expr_dag *g, int L, size_t nparam, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_lagr_so3_free)(CL_FN(cl_lagr_so3) *lg);
/** Set parameter \p k to \p v (rounded to the object's precision). */
void CL_FN(cl_lagr_so3_set_param)(CL_FN(cl_lagr_so3) *lg, size_t k, cl_rsrc v);
/** The node at which the last call failed with CL_EDOMAIN, or −1. */
int CL_FN(cl_lagr_so3_bad_node)(const CL_FN(cl_lagr_so3) *lg);

/**
 * \brief Ω̇ from the Euler–Poincaré equation of L(R, Ω) on SO(3) [EMB §3.4].
 *
 * With Ṙ = RΩ̂, Π = ∂L/∂Ω and the torque of the configuration dependence
 * τ = (RᵀL_R − L_RᵀR)^∨ (so that δL = τ·η for δR = Rη̂, L_R the 3×3
 * gradient of L in the entries of R),
 * \f[ \frac{d}{dt}\frac{\partial L}{\partial\Omega} = \frac{\partial L}{\partial\Omega}\times\Omega + \tau , \qquad
 *     L_{\Omega\Omega}\,\dot\Omega = \Pi\times\Omega + \tau - L_{\Omega R}\,\dot R , \f]
 * a 3×3 system regular exactly when the velocity Hessian L_ΩΩ is. For the
 * heavy top, L = ½ΩᵀJΩ − m g e₃ᵀRρ, τ = m g Γ×ρ (Γ = Rᵀe₃) and this is
 * Euler's equation with the gravity torque. Returns 0, CL_ESINGULAR,
 * CL_EDOMAIN (see cl_lagr_so3_bad_node).
 */
int CL_FN(cl_lagr_so3_omegadot)(CL_FN(cl_lagr_so3) *lg, cl_rptr Wdot, cl_rsrc R, cl_rsrc W);

/**
 * \brief Vector field in form \p form (enum cl_lagr_so3_form): x = (R, v),
 *        dx = (Ṙ, v̇).
 *
 * (R, Ω): Ṙ = RΩ̂, Ω̇ of cl_lagr_so3_omegadot(). (R, Ṙ): Ω = (RᵀṘ)^∨ (of the
 * skew part), \f$\ddot R = R(\hat\Omega^2 + \hat{\dot\Omega})\f$.
 * (R, μ): Π = (Rᵀμ − μᵀR)^∨, Ω solves ∂L/∂Ω(R, Ω) = Π by Newton's method
 * (one step for a quadratic L), Ṙ = RΩ̂ and
 * \f[ \dot\mu = \tfrac12\big(\dot R\,\hat\Pi + R\,(\Pi\times\Omega + \tau)^\wedge\big). \f]
 * Returns 0, CL_ESINGULAR, CL_EDOMAIN, CL_ENOCONV (the Legendre map was not
 * inverted) or CL_EDIM (unknown form).
 */
int CL_FN(cl_lagr_so3_rhs)(CL_FN(cl_lagr_so3) *lg, int form, cl_rptr dx, cl_rsrc x);

/** Number of numbers of a state of form \p form (12 or 18; 0 for an unknown form). */
size_t CL_FN(cl_lagr_so3_dim)(int form);

/**
 * Carry a state from form \p from to form \p to through (R, Ω) (the
 * kinematics Ṙ = RΩ̂ and the Legendre map μ = ½R(∂L/∂Ω)^). y may be x.
 * Returns as cl_lagr_so3_rhs().
 */
int CL_FN(cl_lagr_so3_convert)(CL_FN(cl_lagr_so3) *lg, int from, cl_rsrc x, int to, cl_rptr y);

/**
 * Value of any node \p id of the graph (an invariant) at the state x of form
 * \p form, with the energy for \p id < 0:
 * \f[ E = \Omega\cdot\frac{\partial L}{\partial\Omega} - L . \f]
 * Returns as cl_lagr_so3_rhs().
 */
int CL_FN(cl_lagr_so3_value)(CL_FN(cl_lagr_so3) *lg, int id, int form, cl_rptr out, cl_rsrc x);

/**
 * Validate and project a state of form \p form in place: R must be within
 * 2^\p tol_log2 (< 0) of SO(3) (largest |(RᵀR − I)ᵢⱼ|) with det R > 0, and is then
 * made orthogonal at its precision (Newton–Schulz, R ← R(3I − RᵀR)/2, which
 * squares the defect at each step); for (R, Ṙ) and (R, μ) the symmetric part
 * of RᵀV must be within 2^\p tol_log2·max(1, |V|) of zero, and V is replaced
 * by R·skew(RᵀV). \p defect receives log2 of the defect that was refused.
 * Returns 0, CL_ENAN, CL_EDOMAIN (R not orthogonal, or det R ≤ 0; \p defect
 * is +inf for the determinant), CL_ENOTTANGENT, CL_EDIM, or CL_EPARAM when
 * \p tol_log2 is not negative (the iteration contracts only below 1).
 */
int CL_FN(cl_lagr_so3_project_state)(int form, cl_rptr x, double tol_log2, double *defect);

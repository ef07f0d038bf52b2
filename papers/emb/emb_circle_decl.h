/* Templated declarations of emb_circle.c ([EMB §3.2], and the pendulum
 * model shared with §3.3); included once per scalar kind. */

/**
 * \brief The pendulum on the unit sphere \f$S^{d-1} \subset \mathbb R^d\f$, d = 2 (planar
 *        pendulum, [EMB §3.2]) or d = 3 (spherical pendulum, [EMB §3.3]).
 *
 * A bob of mass m at ℓx, \f$x \in S^{d-1}\f$, in uniform gravity g along −e_d:
 * \f[ L(x,\dot x) = \tfrac12 m\ell^2 \|\dot x\|^2 - m g \ell\, e_d\cdot x, \qquad
 *     H(x,\mu) = \frac{\|\mu\|^2}{2 m\ell^2} + m g \ell\, e_d\cdot x, \f]
 * with P(x) = I − xxᵀ. Opaque; create with cl_emb_pendulum_new().
 */
typedef struct CL_FN(cl_emb_pendulum) CL_FN(cl_emb_pendulum);

/**
 * Create a pendulum on \f$S^{d-1}\f$ (d = 2 or 3) with mass \p m, length \p l
 * and gravity \p g, at the precision of \p m. Returns 0, CL_EDIM (d),
 * CL_ENAN, CL_EPARAM (m ≤ 0, ℓ ≤ 0) or CL_ENOMEM.
 */
int CL_FN(cl_emb_pendulum_new)(CL_FN(cl_emb_pendulum) **out, size_t d, cl_rsrc m, cl_rsrc l, cl_rsrc g);
/** Release a pendulum (NULL allowed). */
void CL_FN(cl_emb_pendulum_free)(CL_FN(cl_emb_pendulum) *p);
/** Fill \p model with P, DP, L, H and their derivatives for the general routines of [EMB §2]. */
void CL_FN(cl_emb_pendulum_model)(CL_FN(cl_emb_pendulum) *p, CL_FN(cl_emb_model) *model);
/** The dimension d and parameters m, ℓ, g of \p p (any output may be NULL). */
void CL_FN(cl_emb_pendulum_params)(const CL_FN(cl_emb_pendulum) *p, size_t *d, cl_rptr m, cl_rptr l, cl_rptr g);
/** Energy E = ½mℓ²‖ẋ‖² + mgℓ e_d·x of the state (x, ẋ). */
void CL_FN(cl_emb_pendulum_energy)(const CL_FN(cl_emb_pendulum) *p, cl_rptr E, cl_rsrc x, cl_rsrc v);
/**
 * Check a state of \f$TS^{d-1}\f$: finite, |‖x‖² − 1| and |x·v|/max(1, ‖v‖) within
 * tol_ulps·2^(1−p). Returns 0, CL_ENAN, CL_ENOTUNIT or CL_ENOTTANGENT.
 */
int CL_FN(cl_emb_pendulum_check_state)(const CL_FN(cl_emb_pendulum) *p, cl_rsrc x, cl_rsrc v, double tol_ulps);

/**
 * Euler–Lagrange equation on S¹ [EMB (3.3)] for the planar pendulum,
 * \f$ (I - xx^T)\{ m\ell^2\ddot x + m g\ell e_2 \} = 0 \f$, completed by the
 * normal part \f$ xx^T\ddot x = -\|\dot x\|^2 x \f$ of ẋ staying tangent:
 * \f[ \ddot x = -\frac{g}{\ell}(I - xx^T)e_2 - \|\dot x\|^2 x. \f]
 * \p p must have d = 2 (else CL_EDIM).
 */
int CL_FN(cl_emb_circle_el_accel)(const CL_FN(cl_emb_pendulum) *p, cl_rptr a, cl_rsrc x, cl_rsrc v);

/**
 * Hamilton's equations on S¹ [EMB (3.4)] for any Hamiltonian, given its
 * gradients H_x, H_μ at (x, μ):
 * \f[ \dot x = (I - xx^T) H_\mu, \qquad
 *     \dot\mu = -(I - xx^T) H_x + (\mu x^T - x\mu^T) H_\mu. \f]
 * Vectors have 2 entries; outputs may not alias inputs.
 */
void CL_FN(cl_emb_circle_hamilton)(cl_rptr xdot, cl_rptr mudot, cl_rsrc x, cl_rsrc mu, cl_rsrc hx, cl_rsrc hmu);

/**
 * The planar pendulum in its angle θ from the downward vertical,
 * x = (sin θ, −cos θ): \f$ \ddot\theta = -\frac{g}{\ell}\sin\theta \f$.
 */
void CL_FN(cl_emb_circle_angle_accel)(const CL_FN(cl_emb_pendulum) *p, cl_rptr thetaddot, cl_rsrc theta);
/** (θ, θ̇) ↦ (x, ẋ) = ((sin θ, −cos θ), θ̇ (cos θ, sin θ)). */
void CL_FN(cl_emb_circle_from_angle)(cl_rptr x, cl_rptr v, cl_rsrc theta, cl_rsrc thetadot);
/** (x, ẋ) ↦ (θ, θ̇) = (atan2(x₁, −x₂), x₁ẋ₂ − x₂ẋ₁). */
void CL_FN(cl_emb_circle_to_angle)(cl_rptr theta, cl_rptr thetadot, cl_rsrc x, cl_rsrc v);
/**
 * Hamilton's equations of the pendulum in (θ, p_θ), p_θ = mℓ²θ̇:
 * \f$ \dot\theta = p_\theta/(m\ell^2),\ \dot p_\theta = -m g\ell\sin\theta \f$.
 */
void CL_FN(cl_emb_circle_angle_hamilton)(const CL_FN(cl_emb_pendulum) *p, cl_rptr thetadot, cl_rptr pdot,
                                         cl_rsrc theta, cl_rsrc ptheta);

/* Templated types and prototypes of chapter S2 V (s2_chain.c). Needs s2_qdot_decl.h. */

#if CL_T == CL_DOUBLE
#ifndef CL_S2_CHAIN_TYPES_D
#define CL_S2_CHAIN_TYPES_D
typedef struct cl_chain_d cl_chain_d;
#endif
#elif CL_T == CL_TRACE
#ifndef CL_S2_CHAIN_TYPES_TR
#define CL_S2_CHAIN_TYPES_TR
typedef struct cl_chain_tr cl_chain_tr;
#endif
#else
#ifndef CL_S2_CHAIN_TYPES_MP
#define CL_S2_CHAIN_TYPES_MP
typedef struct cl_chain_mp cl_chain_mp;
#endif
#endif

/**
 * \brief A chain pendulum of n links [S2 V] at precision \p prec.
 *
 * Link i has its mass m[i] at the outboard end and length l[i]; gravity g
 * acts along −e₃. The control torque τ at the base joint and the
 * disturbance force d at the tip start at zero (cl_chain_set_control).
 * The chain keeps its own O(n) workspace for its right-hand sides (nothing
 * is allocated later; 34n + 7 numbers in all); its queries take a
 * const chain. The O(n²) workspace of the dense reference forms is made only
 * when cl_chain_ws() is first called.
 * \return 0; CL_EDIM when n < 1; CL_ENAN for a non-finite parameter;
 *         CL_EPARAM when a mass or a length is not positive or g is
 *         negative; CL_ENOMEM.
 */
int CL_FN(cl_chain_new)(CL_FN(cl_chain) **out, size_t n, cl_rsrc m, cl_rsrc l, cl_rsrc g, cl_prec_t prec);
/** Release a chain (NULL is allowed). */
void CL_FN(cl_chain_free)(CL_FN(cl_chain) *ch);
/** Number of links. */
size_t CL_FN(cl_chain_n)(const CL_FN(cl_chain) *ch);
/** Set the control torque τ on the base joint and the force d at the tip (3 each; NULL: zero). */
void CL_FN(cl_chain_set_control)(CL_FN(cl_chain) *ch, cl_rsrc tau, cl_rsrc d);

/**
 * The chain as a quadratic-Lagrangian system [S2 (12)] with m_ij = M_ij l_i l_j,
 * for the generic forms of chapters S2 III–IV, and its workspace (owned by
 * the chain). The generic routines are the dense reference of the O(n) ones.
 */
const CL_FN(cl_s2_quad) *CL_FN(cl_chain_quad)(const CL_FN(cl_chain) *ch);
/**
 * Workspace of cl_chain_quad(), owned by the chain: made on the first call
 * (it holds the dense 3n×3n matrices, O(n²) numbers), then reused.
 * NULL when it cannot be allocated.
 */
CL_FN(cl_s2_quad_ws) *CL_FN(cl_chain_ws)(CL_FN(cl_chain) *ch);

/** out = \f$M_{ij} = \sum_{k\ge\max(i,j)} m_k\f$ (0-based i, j) [S2 (38)]. */
void CL_FN(cl_chain_M)(const CL_FN(cl_chain) *ch, size_t i, size_t j, cl_rptr out);
/**
 * T = kinetic energy [S2 (38)] (as corrected, see docs/errata_S2.md) at (q, ω), O(n²):
 * \f[ T = \tfrac12\sum_{i,j} M_{ij}l_il_j\,\omega_i^TS(q_i)^TS(q_j)\omega_j . \f]
 */
void CL_FN(cl_chain_kinetic_omega)(const CL_FN(cl_chain) *ch, cl_rptr T, cl_rsrc q, cl_rsrc w);
/** U = gravitational potential [S2 (39)]: \f$U = \sum_i\sum_{j\ge i} m_jgl_i\,e_3^Tq_i\f$. */
void CL_FN(cl_chain_potential)(const CL_FN(cl_chain) *ch, cl_rptr U, cl_rsrc q);
/** f = generalized forces of τ and d (3n), derived from the virtual work of [S2 V]. */
void CL_FN(cl_chain_forces)(const CL_FN(cl_chain) *ch, cl_rptr f, cl_rsrc q);

/**
 * \brief Vector field of the chain in form \p form (enum cl_s2_form) in O(n)
 *        operations: (q, q̇) [S2 (13)], (q, ω) [S2 (40)], (q, μ) [S2 (27)],
 *        (q, π) [S2 (41), (42)].
 *
 * x = (q, v), dx = (q̇, v̇), 6n numbers each, not overlapping. The state is
 * not validated. Runs in the chain's own scratch. Returns 0, CL_EDOMAIN
 * (unknown form) or CL_ESINGULAR.
 */
int CL_FN(cl_chain_rhs)(CL_FN(cl_chain) *ch, int form, cl_rptr dx, cl_rsrc x);

/**
 * Invariants of the chain at (q, q̇): out[0] the energy ½ Σ m_i ‖ẋ_i‖² + U
 * [S2 (38), (39)], out[1] the vertical angular momentum e₃·Σ m_i x_i × ẋ_i
 * (conserved when τ = d = 0), with \f$x_i = \sum_{j\le i} l_j q_j\f$. O(n).
 */
void CL_FN(cl_chain_invariants_qdot)(const CL_FN(cl_chain) *ch, cl_rptr out, cl_rsrc q, cl_rsrc qdot);
/**
 * The invariants of cl_chain_invariants_qdot at a state x of form \p form
 * (out[0] is then the Hamiltonian): q̇ is recovered by (3) or, for (q, μ) and
 * (q, π), by the O(n) tension solve [S2 (25)] in the chain's own scratch.
 * Returns 0, CL_EDOMAIN or CL_ESINGULAR.
 */
int CL_FN(cl_chain_invariants)(CL_FN(cl_chain) *ch, int form, cl_rptr out, cl_rsrc x);

/**
 * Equilibrium state (q, 0) in any form: k = 0 hanging (q_i = −e₃),
 * k = 1 inverted (q_i = e₃). x has 6n numbers. CL_EDOMAIN for other k.
 */
int CL_FN(cl_chain_equilibrium)(const CL_FN(cl_chain) *ch, int k, cl_rptr x);

/**
 * \brief The single spherical pendulum in two angles: (q, q̇) → (θ, φ, θ̇, φ̇)
 *        with q = (sin θ cos φ, sin θ sin φ, cos θ).
 *
 * x = (q, q̇) (6), ang (4). Returns CL_EDOMAIN when q lies on the e₃ axis
 * (sin θ = 0: φ and φ̇ are undefined, the chart's singularity).
 */
int CL_FN(cl_sph_angles_from_state)(cl_rptr ang, cl_rsrc x);
/** (θ, φ, θ̇, φ̇) → x = (q, q̇), q̇ = θ̇ ∂q/∂θ + φ̇ ∂q/∂φ. Valid everywhere. */
void CL_FN(cl_sph_state_from_angles)(cl_rptr x, cl_rsrc ang);
/**
 * Equations of the spherical pendulum in angles, U = m g l cos θ:
 * θ̈ = sin θ cos θ φ̇² + (g/l) sin θ, φ̈ = −2 cot θ θ̇ φ̇. dang = (θ̇, φ̇, θ̈, φ̈).
 * \p g_over_l is g/l. Returns CL_EDOMAIN when sin θ = 0.
 */
int CL_FN(cl_sph_rhs_angles)(cl_rptr dang, cl_rsrc ang, cl_rsrc g_over_l);
/**
 * q̈ (3) along a motion in angles: q̈ = q_θ θ̈ + q_φ φ̈ + q_θθ θ̇² + 2 q_θφ θ̇ φ̇ + q_φφ φ̇²
 * at ang = (θ, φ, θ̇, φ̇) with dang = (θ̇, φ̇, θ̈, φ̈), to compare the angle
 * equations with the global form.
 */
void CL_FN(cl_sph_accel_from_angles)(cl_rptr qdd, cl_rsrc ang, cl_rsrc dang);

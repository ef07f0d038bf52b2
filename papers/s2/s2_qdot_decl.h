/*
 * Templated types and prototypes of chapter S2 III.A (s2_qdot.c): systems
 * with the quadratic Lagrangian [S2 (12)] on (S²)ⁿ, their workspace, and the
 * Euler–Lagrange equations in (q, q̇). Included once per scalar kind.
 */

#ifndef CL_S2_FORM_ENUM
#define CL_S2_FORM_ENUM
/** The four forms of the dynamics on (S²)ⁿ [S2 III–IV]; the state is (q, v). */
enum cl_s2_form {
    CL_S2_QDOT = 0,  /**< (q, q̇), Euler–Lagrange [S2 (13)] */
    CL_S2_OMEGA = 1, /**< (q, ω), Euler–Lagrange [S2 (19)] */
    CL_S2_MU = 2,    /**< (q, μ), Hamilton [S2 (25), (27)] */
    CL_S2_PI = 3     /**< (q, π), Hamilton [S2 (36)] */
};
#endif

#if CL_T == CL_DOUBLE
#ifndef CL_S2_QUAD_TYPES_D
#define CL_S2_QUAD_TYPES_D
#define CL_S2_QUAD_TYPES_NOW
#endif
#elif CL_T == CL_TRACE
#ifndef CL_S2_QUAD_TYPES_TR
#define CL_S2_QUAD_TYPES_TR
#define CL_S2_QUAD_TYPES_NOW
#endif
#else
#ifndef CL_S2_QUAD_TYPES_MP
#define CL_S2_QUAD_TYPES_MP
#define CL_S2_QUAD_TYPES_NOW
#endif
#endif

#ifdef CL_S2_QUAD_TYPES_NOW
#undef CL_S2_QUAD_TYPES_NOW
/**
 * \brief A mechanical system on (S²)ⁿ with the quadratic Lagrangian
 *        \f$L = \tfrac12\sum_{j,k}\dot q_j^T m_{jk}(q)\dot q_k - U(q)\f$
 *        [S2 (12)] and generalized forces f_i.
 *
 * The caller fills the callbacks; every form of the dynamics [S2 (13), (19),
 * (27), (36)] is then computed by this chapter from them. q, q̇ and f are
 * 3n scalars (q_i = q + 3i). Callbacks return 0 or a negative CL_E code and
 * must not allocate (they run inside right-hand sides).
 * \numbers_at_precision
 */
typedef struct CL_FN(cl_s2_quad) {
    size_t n;  /**< number of spheres, n ≥ 1 */
    void *ctx; /**< passed to every callback */
    /** m[j·n + k] = m_jk(q), symmetric, positive definite on T_q(S²)ⁿ. */
    int (*inertia)(void *ctx, cl_rptr m, cl_rsrc q);
    /**
     * dm[((j·n + k)·n + i)·3 + c] = c-th component of ∂m_jk/∂q_i (3n³
     * numbers); NULL when the inertia is constant (then F_i = 0).
     */
    int (*inertia_grad)(void *ctx, cl_rptr dm, cl_rsrc q);
    /** U = U(q) and dU = ∂U/∂q (3n numbers); either may be NULL. */
    int (*potential)(void *ctx, cl_rptr U, cl_rptr dU, cl_rsrc q);
    /** f = generalized forces f_i(q, q̇) (3n numbers); NULL when there are none. */
    int (*force)(void *ctx, cl_rptr f, cl_rsrc q, cl_rsrc qdot);
} CL_FN(cl_s2_quad);

/** Workspace of a cl_s2_quad system at one precision (opaque). */
typedef struct CL_FN(cl_s2_quad_ws) CL_FN(cl_s2_quad_ws);
#endif

/**
 * Workspace for the system \p sys at precision \p prec (ignored by `_d`):
 * every right-hand side, transform and invariant of the chapters S2 III–IV
 * runs in it without allocating. \p sys must outlive the workspace. The
 * workspace into *\p out; 0, CL_ENOMEM, or CL_EDIM when sys->n is 0 or its
 * inertia is missing (*\p out NULL on failure).
 */
int CL_FN(cl_s2_quad_ws_new)(CL_FN(cl_s2_quad_ws) **out, const CL_FN(cl_s2_quad) *sys, cl_prec_t prec);
/** Release a workspace (NULL is allowed). */
void CL_FN(cl_s2_quad_ws_free)(CL_FN(cl_s2_quad_ws) *ws);
/** Number of spheres n of the workspace's system. */
size_t CL_FN(cl_s2_quad_ws_n)(const CL_FN(cl_s2_quad_ws) *ws);

/**
 * Validate a state (q, v) of T(S²)ⁿ or T*(S²)ⁿ: each q_i a unit vector and
 * each v_i tangent, q_i·v_i = 0, both to \p tol_ulps units of 2^(1−p)
 * (relative to ‖v_i‖). Returns 0, CL_ENAN, CL_ENOTUNIT or CL_ENOTTANGENT;
 * \p *bad (if not NULL) is set to the offending index i.
 */
int CL_FN(cl_s2_check_state)(size_t n, cl_rsrc q, cl_rsrc v, double tol_ulps, size_t *bad);

/**
 * \brief Residual of the Euler–Lagrange equations [S2 (11)] for a general
 *        Lagrangian L(q, q̇) on (S²)ⁿ.
 *
 * res_i = (I₃ − q_i q_iᵀ)(d/dt ∂L/∂q̇_i − ∂L/∂q_i − f_i), for given
 * d/dt(∂L/∂q̇) (\p ddt_dLdqdot), ∂L/∂q (\p dLdq) and forces \p f (NULL: none);
 * zero along a motion. All vectors 3n.
 */
void CL_FN(cl_s2_el_residual_qdot)(size_t n, cl_rptr res, cl_rsrc q, cl_rsrc ddt_dLdqdot, cl_rsrc dLdq, cl_rsrc f);

/** L = Lagrangian [S2 (12)] at (q, q̇). Returns 0 or a callback's status. */
int CL_FN(cl_s2_quad_lagrangian)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr L, cl_rsrc q, cl_rsrc qdot);
/** E = ½ Σ q̇_jᵀ m_jk q̇_k + U(q), the energy at (q, q̇). Returns 0 or a callback's status. */
int CL_FN(cl_s2_quad_energy_qdot)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr E, cl_rsrc q, cl_rsrc qdot);

/**
 * F = (F_1, …, F_n) of Corollary 1 [S2 (13)]:
 * F_i = Σ_j ṁ_ij q̇_j − ½ ∂/∂q_i Σ_jk q̇_jᵀ m_jk q̇_k, ṁ_ij = Σ_k ∂m_ij/∂q_k · q̇_k.
 * Zero when the system has no inertia_grad. Returns 0 or a callback's status.
 */
int CL_FN(cl_s2_quad_F_qdot)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr F, cl_rsrc q, cl_rsrc qdot);

/**
 * \brief Vector field of the (q, q̇) form, Corollary 1 [S2 (13)].
 *
 * x = (q_1..q_n, q̇_1..q̇_n) (6n), dx = (q̇, q̈). The state is not validated
 * (see cl_s2_check_state). Returns 0, CL_ESINGULAR when the inertia is
 * singular, or a callback's status.
 */
int CL_FN(cl_s2_quad_rhs_qdot)(CL_FN(cl_s2_quad_ws) *ws, cl_rptr dx, cl_rsrc x);

/**
 * Vector field of form \p form (enum cl_s2_form) at x = (q, v), 6n numbers:
 * cl_s2_quad_rhs_qdot, _omega, _mu or _pi. CL_EDOMAIN for an unknown form.
 */
int CL_FN(cl_s2_quad_rhs)(CL_FN(cl_s2_quad_ws) *ws, int form, cl_rptr dx, cl_rsrc x);

/**
 * Carry a state from form \p from to form \p to (enum cl_s2_form) at the same
 * configuration: kinematics [S2 (3), (5)] and Legendre transforms [S2 (24),
 * (25), (33), (34)]. x and y are 6n numbers and may not overlap unless equal.
 * Returns 0, CL_EDOMAIN (unknown form), CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_convert)(CL_FN(cl_s2_quad_ws) *ws, int from, cl_rsrc x, int to, cl_rptr y);

/**
 * The acceleration q̈ (3n) carried back from the vector field of form \p form:
 * given the state x = (q, v) of that form and its time derivative dx, the
 * second derivative of q along the motion. Forms ω: q̈ = ω̇ × q + ω × q̇; π:
 * via μ̇ = π̇ × q + π × q̇; μ: q̈ solves d/dt(μ(q, q̇)) = μ̇ [S2 (24)].
 * Returns 0, CL_EDOMAIN, CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_accel_from)(CL_FN(cl_s2_quad_ws) *ws, int form, cl_rptr qddot, cl_rsrc x, cl_rsrc dx);

/**
 * Energy (the Hamiltonian, in the Hamiltonian forms) of a state x of form
 * \p form: ½ q̇ᵀ m q̇ + U, ½ μ·q̇ + U [S2 (26)], ½ π·ω + U [S2 (35)].
 */
int CL_FN(cl_s2_quad_energy)(CL_FN(cl_s2_quad_ws) *ws, int form, cl_rptr E, cl_rsrc x);

/**
 * The velocity conjugate to the momentum p (3n) at q, the inverse Legendre
 * transform of form \p form: q̇ [S2 (25)] for CL_S2_MU (the solution of
 * [S2 (24)]), ω [S2 (34)] for CL_S2_PI (the solution of [S2 (33)]).
 * Returns 0, CL_EDOMAIN (another form), CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_legendre_inv)(CL_FN(cl_s2_quad_ws) *ws, int form, cl_rptr v, cl_rsrc q, cl_rsrc p);
/**
 * H = the Hamiltonian [S2 (26)] at (q, μ) (form CL_S2_MU) or the modified
 * Hamiltonian [S2 (35)] at (q, π) (CL_S2_PI). Returns 0, CL_EDOMAIN,
 * CL_ESINGULAR or a callback's status.
 */
int CL_FN(cl_s2_quad_hamiltonian)(CL_FN(cl_s2_quad_ws) *ws, int form, cl_rptr H, cl_rsrc q, cl_rsrc p);

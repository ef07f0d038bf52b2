/* Templated declarations of emb_general.c ([EMB §2]); included once per
 * scalar kind through cl_instantiate.h. */

/**
 * \brief A Lagrangian or Hamiltonian system on a manifold M embedded in Rⁿ,
 *        described by callbacks ([EMB §2]).
 *
 * Points x, velocities v = ẋ and momenta μ are vectors of n scalars (a
 * 3×3 matrix counts as n = 9, row-major, with the Frobenius inner product
 * [EMB §3.4]). Each callback writes its first argument, receives the
 * user's \p ctx, and returns 0 or a negative CL_E code. Callbacks a routine
 * does not need may be NULL; a routine that needs a missing one returns
 * CL_EDOMAIN.
 * \numbers_at_precision
 *
 * The projection P(x) is the orthogonal projection of Rⁿ onto T_xM
 * [EMB (2.2)]; it is symmetric, so Pᵀ = P throughout. DP(x)[v] is its
 * derivative along v, \f$ DP(x)[v] = \sum_i \frac{\partial P}{\partial x_i} v_i \f$;
 * it gives the matrix of [EMB (2.5)] as \f$ \frac{\partial (P^T\mu)}{\partial x}\,\delta x = DP(x)[\delta x]\,\mu \f$.
 */
#if (CL_T == CL_DOUBLE && !defined(CL_EMB_MODEL_DEFINED_D)) || (CL_T == CL_MPFR && !defined(CL_EMB_MODEL_DEFINED_MP))
#if CL_T == CL_DOUBLE
#define CL_EMB_MODEL_DEFINED_D
#else
#define CL_EMB_MODEL_DEFINED_MP
#endif
typedef struct CL_FN(cl_emb_model) {
    size_t n;  /**< dimension of the embedding space */
    void *ctx; /**< passed to every callback */
    /** out = P(x) y [EMB (2.2)]. */
    int (*proj)(void *ctx, cl_rptr out, cl_rsrc x, cl_rsrc y);
    /** out = (DP(x)[v]) y, the derivative of P along v applied to y [EMB (2.5)]. */
    int (*dproj)(void *ctx, cl_rptr out, cl_rsrc x, cl_rsrc v, cl_rsrc y);
    /** L = L(x, v). */
    int (*lagrangian)(void *ctx, cl_rptr L, cl_rsrc x, cl_rsrc v);
    /** g = ∂L/∂x (x, v). */
    int (*lag_dx)(void *ctx, cl_rptr g, cl_rsrc x, cl_rsrc v);
    /** g = ∂L/∂ẋ (x, v). */
    int (*lag_dv)(void *ctx, cl_rptr g, cl_rsrc x, cl_rsrc v);
    /** out = (∂²L/∂ẋ∂ẋ)(x, v) w. */
    int (*lag_dvdv)(void *ctx, cl_rptr out, cl_rsrc x, cl_rsrc v, cl_rsrc w);
    /** out = (∂²L/∂ẋ∂x)(x, v) w, i.e. d/ds ∂L/∂ẋ(x + s w, v) at s = 0. */
    int (*lag_dvdx)(void *ctx, cl_rptr out, cl_rsrc x, cl_rsrc v, cl_rsrc w);
    /** H = H(x, μ). */
    int (*hamiltonian)(void *ctx, cl_rptr H, cl_rsrc x, cl_rsrc mu);
    /** g = ∂H/∂x (x, μ). */
    int (*ham_dx)(void *ctx, cl_rptr g, cl_rsrc x, cl_rsrc mu);
    /** g = ∂H/∂μ (x, μ). */
    int (*ham_dmu)(void *ctx, cl_rptr g, cl_rsrc x, cl_rsrc mu);
} CL_FN(cl_emb_model);
#endif

/** Workspace of the general routines: scratch for one model dimension and precision. */
typedef struct CL_FN(cl_emb_work) CL_FN(cl_emb_work);

/**
 * Create a workspace for models of dimension \p n (1 ≤ n ≤ 64) at
 * precision \p prec (ignored by the double copy) into *\p out (NULL on
 * failure). Returns 0, CL_EDIM (\p n out of range), CL_EPREC or CL_ENOMEM.
 */
int CL_FN(cl_emb_work_new)(CL_FN(cl_emb_work) **out, size_t n, cl_prec_t prec);
/** Release a workspace (NULL allowed). */
void CL_FN(cl_emb_work_free)(CL_FN(cl_emb_work) *w);

/**
 * Check a state (x, v) of TM: finite entries, and v tangent,
 * ‖v − P(x)v‖ ≤ tol_ulps·2^(1−p)·max(1, ‖v‖∞). Returns 0, CL_ENAN,
 * CL_ENOTTANGENT, CL_EDIM (model and workspace dimensions differ) or a
 * callback's status.
 */
int CL_FN(cl_emb_check_tangent)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                                cl_rsrc x, cl_rsrc v, double tol_ulps);

/**
 * Residual of the Euler–Lagrange equation [EMB (2.3)] for a given
 * acceleration a = ẍ:
 * \f[ r = P(x)\Big\{ \frac{d}{dt}\frac{\partial L}{\partial \dot x} - \frac{\partial L}{\partial x} \Big\}
 *       = P(x)\Big\{ L_{\dot x\dot x}\,a + L_{\dot x x}\,\dot x - L_x \Big\}. \f]
 * Needs proj, lag_dx, lag_dvdv, lag_dvdx. Returns 0 or an error status.
 */
int CL_FN(cl_emb_el_residual)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                              cl_rptr r, cl_rsrc x, cl_rsrc v, cl_rsrc a);

/**
 * The acceleration a = ẍ of the Euler–Lagrange flow on TM [EMB (2.3)].
 * Equation (2.3) fixes only the tangential part P a; the normal part
 * follows from differentiating ẋ = P(x)ẋ along the motion:
 * \f[ (I - P)\,a = DP(x)[\dot x]\,\dot x, \qquad
 *     P\,L_{\dot x\dot x}\,a = P\,(L_x - L_{\dot x x}\dot x). \f]
 * With c = DP[ẋ]ẋ and a = aₜ + c, aₜ solves the n×n system
 * (P L_ẋẋ P + I − P) aₜ = P(L_x − L_ẋx ẋ − L_ẋẋ c).
 * Needs proj, dproj, lag_dx, lag_dvdv, lag_dvdx. Returns 0, CL_ESINGULAR
 * (the Lagrangian is degenerate on T_xM) or a callback's status.
 */
int CL_FN(cl_emb_el_accel)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           cl_rptr a, cl_rsrc x, cl_rsrc v);

/**
 * Legendre transformation [EMB (2.4)]: \f$ \mu = P^T(x)\,\frac{\partial L(x,\dot x)}{\partial \dot x} \f$.
 * Needs proj and lag_dv.
 */
int CL_FN(cl_emb_legendre)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           cl_rptr mu, cl_rsrc x, cl_rsrc v);

/**
 * Inverse Legendre transformation: the tangent v with P ∂L/∂ẋ(x, v) = P μ,
 * by Newton's method on T_xM with the matrix P L_ẋẋ P + I − P (one step
 * for a Lagrangian quadratic in ẋ). Stops when the residual is below
 * 8n·2^(1−p)·max(1, ‖μ‖∞). Needs proj, lag_dv, lag_dvdv. Returns 0,
 * CL_ESINGULAR, CL_ENOCONV (50 iterations) or a callback's status.
 */
int CL_FN(cl_emb_legendre_inv)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                               cl_rptr v, cl_rsrc x, cl_rsrc mu);

/**
 * The Hamiltonian of [EMB §2.3] from the Lagrangian,
 * \f$ H(x,\mu) = \mu\cdot\dot x - L(x,\dot x) \f$ with ẋ from
 * cl_emb_legendre_inv(). Needs proj, lagrangian, lag_dv, lag_dvdv.
 */
int CL_FN(cl_emb_hamiltonian_from_lagrangian)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                                              cl_rptr H, cl_rsrc x, cl_rsrc mu);

/**
 * The n×n matrix of [EMB (2.5)], the Jacobian of x ↦ Pᵀ(x)μ:
 * \f[ D = \frac{\partial P^T(x)\mu}{\partial x}
 *       = \Big[\frac{\partial P^T}{\partial x_1}\mu \;\cdots\; \frac{\partial P^T}{\partial x_n}\mu\Big], \f]
 * column i being DP(x)[eᵢ] μ. D is row-major n×n. Needs dproj.
 */
int CL_FN(cl_emb_dproj_matrix)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                               cl_rptr D, cl_rsrc x, cl_rsrc mu);

/**
 * Hamilton's equations on T*M [EMB (2.7)–(2.8)], with D of (2.5) and
 * P = Pᵀ:
 * \f[ \dot x = P\,\frac{\partial H}{\partial \mu}, \qquad
 *     \dot\mu = -P\,\frac{\partial H}{\partial x}
 *       + \Big\{ P D^T P + D P - P D^T \Big\} \frac{\partial H}{\partial \mu}. \f]
 * This is the combination of (2.9) and (2.10) in the paper's proof:
 * \f$ P\dot\mu = -P H_x + P D^T(\dot x - H_\mu) \f$ and
 * \f$ (I - P)\dot\mu = D\,\dot x \f$. Needs proj, dproj, ham_dx, ham_dmu.
 */
int CL_FN(cl_emb_hamilton)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                           cl_rptr xdot, cl_rptr mudot, cl_rsrc x, cl_rsrc mu);

/**
 * Time derivative of H along a vector field (ẋ, μ̇):
 * \f$ \dot H = \frac{\partial H}{\partial x}\cdot\dot x + \frac{\partial H}{\partial \mu}\cdot\dot\mu \f$,
 * zero along Hamilton's equations [EMB Prop. 2]. Needs ham_dx, ham_dmu.
 */
int CL_FN(cl_emb_energy_rate)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w,
                              cl_rptr rate, cl_rsrc x, cl_rsrc mu, cl_rsrc xdot, cl_rsrc mudot);

/**
 * First-order Euler–Lagrange vector field on TM for integrators: the state
 * s = (x, v) has 2n entries, ds = (v, a) with a from cl_emb_el_accel().
 */
int CL_FN(cl_emb_el_rhs)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rptr ds, cl_rsrc s);

/**
 * First-order Hamiltonian vector field on T*M: the state s = (x, μ) has 2n
 * entries, ds = (ẋ, μ̇) from cl_emb_hamilton().
 */
int CL_FN(cl_emb_hamilton_rhs)(const CL_FN(cl_emb_model) *m, CL_FN(cl_emb_work) *w, cl_rptr ds, cl_rsrc s);

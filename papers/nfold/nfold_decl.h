/* Templated prototypes of chapters/nfold.c: the N-fold 3D pendulum through SE(3)ᴺ [NFOLD (1)–(9)]. */

/**
 * The N-fold pendulum: N point masses m_i on massless links of lengths L_i
 * (the S2 paper's l_i), joined by spherical joints, the first at the origin,
 * under gravity g along −e₃. All arrays are at the precision \p prec given to
 * cl_nfold_new(); the workspace for every vector field evaluation lives here.
 *
 * A state m ∈ (TS²)ᴺ is 6N scalars: q₁ … q_N, then ω₁ … ω_N (the command
 * line's order). An element of se(3)ᴺ is N blocks (u_i, v_i) of 6 scalars,
 * the order of [NFOLD (9)]; an element of SE(3)ᴺ is N blocks (A_i, a_i) of
 * 12 scalars (A_i row-major).
 */
typedef struct CL_FN(cl_nfold) {
    size_t n;        /**< number of links N */
    cl_prec_t prec;  /**< working precision (53 in double) */
    cl_rptr m;          /**< masses m_1 … m_N */
    cl_rptr l;          /**< link lengths L_1 … L_N */
    cl_rptr g;          /**< gravity g (one scalar) */
    cl_rptr mtail;      /**< tail sums \f$\sum_{k\ge i} m_k\f$, the scalar factor of M_ii [NFOLD (5)] */
    CL_FN(cl_chain) *chain; /**< the same chain in chapter S2 V, whose O(N) solve gives h */
    /* Scratch of the solves (cl_nfold_h*, cl_nfold_f*, cl_nfold_field), which
       therefore take the pendulum writable; the queries (cl_nfold_R,
       cl_nfold_r, cl_nfold_energy, cl_nfold_check_state) take it const and
       touch none of it. */
    cl_rptr work;       /**< O(N) scratch of cl_nfold_h_tension() */
    cl_rptr hbuf;       /**< 3N scratch: h = ω̇ inside cl_nfold_f() and cl_nfold_f_dense() */
    cl_rptr dx;         /**< 6N scratch: the chain's (q, ω) field inside cl_nfold_h() */
    cl_rptr xibuf;      /**< 6N scratch: f(m) inside cl_nfold_field() */
    cl_rptr dense;      /**< (3N)² scratch of the dense route, or NULL */
    int *perm;       /**< row interchanges of the dense route, or NULL */
} CL_FN(cl_nfold);

/**
 * Create a pendulum of \p n links with masses \p m[0..n−1], lengths
 * \p l[0..n−1] and gravity \p g, all copied at precision \p prec. With
 * \p dense non-zero the (3N)² workspace of cl_nfold_h_dense() is allocated too.
 * The pendulum is written to *\p out (NULL on failure). Returns 0, CL_EDIM
 * (n = 0 or n > 2²⁰), CL_ENAN, CL_EPARAM (a mass or length ≤ 0, g < 0),
 * CL_EPREC or CL_ENOMEM.
 */
int CL_FN(cl_nfold_new)(CL_FN(cl_nfold) **out, size_t n, cl_rsrc m, cl_rsrc l, cl_rsrc g, cl_prec_t prec, int dense);
/** Release a pendulum (NULL allowed). */
void CL_FN(cl_nfold_free)(CL_FN(cl_nfold) *s);

/**
 * Check a state: every q_i unit and every ω_i tangent (q_i·ω_i = 0), each to
 * \p tol_ulps·2^(1−p). Returns 0, CL_ENAN, CL_ENOTUNIT or CL_ENOTTANGENT.
 */
int CL_FN(cl_nfold_check_state)(const CL_FN(cl_nfold) *s, cl_rsrc y, double tol_ulps);

/**
 * The action of SE(3)ᴺ on (TS²)ᴺ, copy by copy [NFOLD]:
 * \f[ \psi((A, a), (q, \omega)) = (A q,\; A\omega + \hat a A q). \f]
 * \p G holds N blocks (A_i, a_i); \p y_out must not alias \p y.
 */
void CL_FN(cl_nfold_act)(cl_rptr y_out, cl_rsrc G, cl_rsrc y, size_t n);

/**
 * y_out = exp(ξ)·y: cl_se3_exp() of each block of ξ ∈ se(3)ᴺ, then cl_nfold_act().
 * \p y_out must not alias \p y. Returns 0 or CL_ENAN.
 */
int CL_FN(cl_nfold_exp_act)(cl_rptr y_out, cl_rsrc xi, cl_rsrc y, size_t n);

/**
 * The infinitesimal generator Ψ_*(ξ)|_m = d/dt ψ(exp(tξ), m) at t = 0:
 * \f[ \Psi_*(u, v)|_{(q,\omega)} = (u \times q,\; u \times \omega + v \times q) \f]
 * copy by copy; \p dy (6N, the layout of a state) must not alias \p y.
 */
void CL_FN(cl_nfold_generator)(cl_rptr dy, cl_rsrc xi, cl_rsrc y, size_t n);

/**
 * The 3N×3N matrix R(q) [NFOLD (3)–(4)], row-major:
 * \f[ R_{ii} = \Big(\sum_{j\ge i} m_j\Big) L_i^2 I_3,\qquad
 *     R_{ij} = \Big(\sum_{k\ge j} m_k\Big) L_i L_j \hat q_i^T \hat q_j = R_{ji}^T\ (i<j). \f]
 */
void CL_FN(cl_nfold_R)(const CL_FN(cl_nfold) *s, cl_rptr R, cl_rsrc y);

/**
 * The right-hand side r(q, ω) ∈ R³ᴺ of [NFOLD (2)], in O(N) by prefix sums
 * (\p r must not alias \p y):
 * \f[ r_i = \sum_{j\ne i} M_{ij} |\omega_j|^2 \hat q_i q_j - \Big(\sum_{j\ge i} m_j\Big) g L_i \hat q_i e_3. \f]
 */
void CL_FN(cl_nfold_r)(const CL_FN(cl_nfold) *s, cl_rptr r, cl_rsrc y);

/**
 * h = A_q⁻¹ r = ω̇ [NFOLD (8)] in O(N), through the O(N) solve of chapter
 * S2 V (cl_chain_rhs() in the (q, ω) form [S2 (40)]). Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_nfold_h)(CL_FN(cl_nfold) *s, cl_rptr h, cl_rsrc y);

/**
 * h = ω̇ [NFOLD (8)] in O(N) by a second, independent route: the link
 * tensions solve a symmetric positive definite tridiagonal system (chapter
 * page), then q̈_i and h_i = q_i × q̈_i. Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_nfold_h_tension)(CL_FN(cl_nfold) *s, cl_rptr h, cl_rsrc y);

/**
 * h = R(q)⁻¹ r [NFOLD (2), (8)] by assembling R(q) and r and solving the dense
 * 3N×3N system by LU with partial pivoting (cl_lu_factor()), O(N³): the
 * route of the public reference implementations. Needs a pendulum created
 * with \p dense ≠ 0 (else CL_EPARAM); CL_ESINGULAR or CL_ENAN from the
 * factorization.
 */
int CL_FN(cl_nfold_h_dense)(CL_FN(cl_nfold) *s, cl_rptr h, cl_rsrc y);

/**
 * f(q, ω) ∈ se(3)ᴺ [NFOLD (9)]: block i is (ω_i, a_i) with a_i = q_i × h_i
 * [NFOLD (8)], h from cl_nfold_h(); Ψ_*(f(m))|_m = F|_m [NFOLD (6)].
 * Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_nfold_f)(CL_FN(cl_nfold) *s, cl_rptr xi, cl_rsrc y);

/** As cl_nfold_f() with h from cl_nfold_h_dense(). */
int CL_FN(cl_nfold_f_dense)(CL_FN(cl_nfold) *s, cl_rptr xi, cl_rsrc y);

/**
 * The vector field F on (TS²)ᴺ ⊂ R⁶ᴺ [NFOLD (1), (8)] as Ψ_*(f(m))|_m:
 * dy = (q̇, ω̇) with q̇_i = ω_i × q_i (\p dy must not alias \p y).
 * Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_nfold_field)(CL_FN(cl_nfold) *s, cl_rptr dy, cl_rsrc y);

/**
 * Total energy T + U with \f$T = \tfrac12\sum_k m_k\|\dot x_k\|^2\f$,
 * \f$\dot x_k = \sum_{j\le k} L_j\,\omega_j\times q_j\f$, and \f$U = \sum_k m_k g\,e_3\cdot x_k\f$,
 * \f$x_k = \sum_{j\le k} L_j q_j\f$ [S2 (38)–(39)].
 */
void CL_FN(cl_nfold_energy)(const CL_FN(cl_nfold) *s, cl_rptr E, cl_rsrc y);

/**
 * Fill \p pb with the pendulum as a Lie group problem on (TS²)ᴺ under SE(3)ᴺ:
 * field cl_nfold_f() (or cl_nfold_f_dense() when \p dense ≠ 0), exp_act
 * cl_nfold_exp_act(), dexpinv cl_se3n_dexpinv() and bracket cl_se3n_bracket().
 * Give it to cl_lie_new(); this is what `chartless simulate --system chain
 * --integrator lie-euler|rkmk4|cf4|rkmk45` runs (see cl_nfold_simulate()).
 */
void CL_FN(cl_nfold_lie_problem)(CL_FN(cl_nfold) *s, CL_FN(cl_lie_problem) *pb, int dense);

/**
 * Integrate the pendulum from t = 0 to \p t1 with a Lie group method, for the
 * command line: \p method from cl_lie_method_from_name(); fixed steps of size
 * \p h (the last one shortened to land on t1) for lie-euler, rkmk4, cf4; for
 * rkmk45 variable steps with initial step \p h and tolerances \p rtol, \p atol.
 * y is replaced by the state at t1. When \p out is not NULL it is called after
 * every step with the time and state (a non-zero return stops the run and is
 * returned). Returns 0, CL_EPARAM (unknown method, h or t1 not a number,
 * h ≤ 0, t1 < 0), CL_ESTEP (t + h rounds to t before t1: no progress),
 * CL_ENOMEM, or the integrator's status.
 */
int CL_FN(cl_nfold_simulate)(CL_FN(cl_nfold) *s, int method, cl_rptr y, cl_rsrc t1, cl_rsrc h, cl_rsrc rtol, cl_rsrc atol,
                             int (*out)(void *ctx, cl_rsrc t, cl_rsrc y), void *ctx);

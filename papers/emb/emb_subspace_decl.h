/* Templated declarations of emb_subspace.c ([EMB §3.1]); included once per scalar kind. */

/**
 * \brief A linear mechanical system on the subspace M = {x ∈ Rⁿ : Ax = 0}
 *        [EMB §3.1], A m×n of rank m:
 * \f[ L = \tfrac12\dot x^T M\dot x - \tfrac12 x^T K x - f^T x,\qquad
 *     H = \tfrac12\mu^T M_T^{-1}\mu + \tfrac12 x^T K x + f^T x, \f]
 * with M symmetric and positive definite on M, K symmetric, and
 * \f$ M_T^{-1} = N (N^T M N)^{-1} N^T \f$ the inverse of the mass on the
 * subspace (N a basis of ker A). Opaque. The routines that take a
 * non-const system write a scratch area inside it: not safe for concurrent
 * use of one system.
 */
typedef struct CL_FN(cl_emb_subspace) CL_FN(cl_emb_subspace);

/**
 * Create the system from A (m×n), M (n×n), K (n×n) and f (n, or NULL for
 * 0), all row-major at one precision (that of A); 1 ≤ m < n ≤ 64.
 * Computes the projection \f$ P = I - A^T(AA^T)^{-1}A \f$ (the printed
 * \f$ I - A^T(A^TA)^{-1}A \f$ does not conform and AᵀA is singular, see
 * \ref errata_EMB_page "the EMB errata") and a null-space basis N of A by
 * reduced row echelon form (pivot columns chosen greedily by the rank rule of
 * cl_nullspace, −A_p⁻¹A_f by cl_lu_factor). Returns 0, CL_EDIM, CL_ENAN, CL_ESINGULAR
 * (rank A < m), CL_EPARAM (NᵀMN singular) or CL_ENOMEM.
 */
int CL_FN(cl_emb_subspace_new)(CL_FN(cl_emb_subspace) **out, size_t n, size_t m,
                               cl_rsrc A, cl_rsrc M, cl_rsrc K, cl_rsrc f);
/** Release (NULL allowed). */
void CL_FN(cl_emb_subspace_free)(CL_FN(cl_emb_subspace) *s);
/** Dimension n of the embedding space and k = n − m of the subspace (either may be NULL). */
void CL_FN(cl_emb_subspace_dims)(const CL_FN(cl_emb_subspace) *s, size_t *n, size_t *k);
/** Fill \p model (constant P, DP = 0) for the general routines of [EMB §2]. */
void CL_FN(cl_emb_subspace_model)(CL_FN(cl_emb_subspace) *s, CL_FN(cl_emb_model) *model);
/** P = I − Aᵀ(AAᵀ)⁻¹A, n×n row-major [EMB §3.1, corrected]. */
void CL_FN(cl_emb_subspace_projection)(const CL_FN(cl_emb_subspace) *s, cl_rptr P);
/** Energy ½ẋᵀMẋ + ½xᵀKx + fᵀx of the state (x, ẋ). */
void CL_FN(cl_emb_subspace_energy)(const CL_FN(cl_emb_subspace) *s, cl_rptr E, cl_rsrc x, cl_rsrc v);

/**
 * Euler–Lagrange equation on the subspace [EMB (3.1)],
 * \f$ [I - A^T(AA^T)^{-1}A]\{M\ddot x + Kx + f\} = 0 \f$ with ẍ ∈ ker A
 * (P is constant, so the normal part of ẍ vanishes): ẍ solves
 * (PMP + I − P) ẍ = −P(Kx + f). Returns 0 or CL_ESINGULAR.
 */
int CL_FN(cl_emb_subspace_el_accel)(CL_FN(cl_emb_subspace) *s, cl_rptr a, cl_rsrc x, cl_rsrc v);

/**
 * Hamilton's equations on the subspace [EMB (3.2)]:
 * \f$ \dot x = P\,\partial H/\partial\mu = P M_T^{-1}\mu,\quad
 *     \dot\mu = -P\,\partial H/\partial x = -P(Kx + f) \f$.
 */
int CL_FN(cl_emb_subspace_hamilton)(CL_FN(cl_emb_subspace) *s, cl_rptr xdot, cl_rptr mudot, cl_rsrc x, cl_rsrc mu);

/** x = N q: a point (or velocity) of the subspace from its k reduced coordinates. */
void CL_FN(cl_emb_subspace_from_reduced)(const CL_FN(cl_emb_subspace) *s, cl_rptr x, cl_rsrc q);
/** q: the reduced coordinates of x ∈ ker A (its free entries, since N has identity rows there). */
void CL_FN(cl_emb_subspace_to_reduced)(const CL_FN(cl_emb_subspace) *s, cl_rptr q, cl_rsrc x);
/**
 * The unconstrained system in reduced coordinates x = Nq:
 * \f$ (N^TMN)\ddot q = -N^TKN q - N^T f \f$.
 */
void CL_FN(cl_emb_subspace_reduced_accel)(CL_FN(cl_emb_subspace) *s, cl_rptr qdd, cl_rsrc q, cl_rsrc qd);
/**
 * Hamilton's equations in reduced coordinates, p = NᵀMNq̇ = Nᵀμ:
 * \f$ \dot q = (N^TMN)^{-1}p,\ \dot p = -N^TKNq - N^Tf \f$.
 */
void CL_FN(cl_emb_subspace_reduced_hamilton)(CL_FN(cl_emb_subspace) *s, cl_rptr qdot, cl_rptr pdot,
                                             cl_rsrc q, cl_rsrc p);
/** p = Nᵀ μ, the reduced momentum of μ. */
void CL_FN(cl_emb_subspace_reduced_momentum)(const CL_FN(cl_emb_subspace) *s, cl_rptr p, cl_rsrc mu);

/* Templated prototypes of s2_sphere.c: [S2 II] and the hat-map identities of [S2 App. A]. */

#ifndef CL_S2_TOL_ULPS
/**
 * Tolerance of the S² validators in units of 2^(1−p): a point q is on S²
 * when |‖q‖² − 1| ≤ CL_S2_TOL_ULPS·2^(1−p), and ξ is tangent at q when
 * |q·ξ| ≤ CL_S2_TOL_ULPS·2^(1−p)·2·max(1, max_i|ξ_i|). 256 roundings is
 * what a state normalized at precision p keeps after a few hundred
 * operations; larger drift means the input was not made at this precision.
 */
#define CL_S2_TOL_ULPS 256
#endif

/**
 * S² membership [S2 (1)]:
 * \f[ S^2 = \{ q \in \mathbb{R}^3 \mid \|q\| = 1 \}. \f]
 * \return 0; CL_ENAN if an entry is NaN or infinite; CL_ENOTUNIT if
 *         |‖q‖² − 1| > CL_S2_TOL_ULPS·2^(1−p).
 */
int CL_FN(cl_s2_check_point)(cl_rsrc q);

/**
 * Tangent space membership [S2 (2)]:
 * \f[ \mathsf{T}_q S^2 = \{ \xi \in \mathbb{R}^3 \mid q \cdot \xi = 0 \}. \f]
 * \return 0; CL_ENAN (q or ξ not finite); CL_ENOTUNIT (q not on S²);
 *         CL_ENOTTANGENT if |q·ξ| > CL_S2_TOL_ULPS·2^(1−p)·2·max(1, max_i|ξ_i|).
 */
int CL_FN(cl_s2_check_tangent)(cl_rsrc q, cl_rsrc xi);

/**
 * Kinematics [S2 (3)]: the velocity of q rotating with angular velocity ω,
 * \f[ \dot q = \omega \times q = S(\omega)\, q, \f]
 * for ω ∈ T_qS² (the paper's normalization ω·q = 0). \p qdot may alias an input.
 * \return 0; CL_ENAN; CL_ENOTUNIT (q); CL_ENOTTANGENT (ω not orthogonal to q).
 */
int CL_FN(cl_s2_qdot_from_omega)(cl_rptr qdot, cl_rsrc q, cl_rsrc omega);

/**
 * The hat map [S2 (4)], 3×3 row-major: S(x)y = x × y and Sᵀ(x) = −S(x),
 * \f[ S(x) = \begin{bmatrix} 0 & -x_3 & x_2 \\ x_3 & 0 & -x_1 \\ -x_2 & x_1 & 0 \end{bmatrix}. \f]
 * \return 0, or CL_ENAN if x is not finite (S is still written).
 */
int CL_FN(cl_s2_hat)(cl_rptr S, cl_rsrc x);

/**
 * Angular velocity of a tangent velocity [S2 (5)]:
 * \f[ \omega = S(q)\,\dot q = q \times \dot q. \f]
 * For unit q, cl_s2_qdot_from_omega and this map are inverse bijections of
 * T_qS²: q × (ω × q) = ω (q·q) − q (q·ω) = ω. \p omega may alias an input.
 * \return 0; CL_ENAN; CL_ENOTUNIT (q); CL_ENOTTANGENT (q̇ not orthogonal to q).
 */
int CL_FN(cl_s2_omega_from_qdot)(cl_rptr omega, cl_rsrc q, cl_rsrc qdot);

/**
 * Orthogonal projection onto T_qS², 3×3 row-major [S2 (11), (44)]:
 * \f[ P(q) = I_3 - q q^T = -S(q)^2 \quad (\|q\| = 1). \f]
 * \return 0; CL_ENAN; CL_ENOTUNIT.
 */
int CL_FN(cl_s2_proj_matrix)(cl_rptr P, cl_rsrc q);

/**
 * r = (I − qqᵀ) v = v − (q·v) q, the tangent part of v [S2 (11)]. \p r may
 * alias \p v.
 * \return 0; CL_ENAN (q or v not finite); CL_ENOTUNIT.
 */
int CL_FN(cl_s2_proj_tangent)(cl_rptr r, cl_rsrc q, cl_rsrc v);

/**
 * Identity [S2 (43)], its four forms as 4 consecutive 3-vectors:
 * \f[ S(x)y = x \times y = -y \times x = -S(y)x. \f]
 * Terms have size ‖x‖‖y‖. \return 0, or CL_ENAN if an input is not finite.
 */
int CL_FN(cl_s2_hat_id43)(cl_rptr forms, cl_rsrc x, cl_rsrc y);

/**
 * Identity [S2 (44)], its two forms as 2 consecutive 3×3 matrices:
 * \f[ S(x)^2 = -(x^T x) I_{3\times 3} + x x^T. \f]
 * Terms have size ‖x‖². \return 0 or CL_ENAN.
 */
int CL_FN(cl_s2_hat_id44)(cl_rptr forms, cl_rsrc x);

/**
 * Identity [S2 (45)], its two forms as 2 consecutive 3×3 matrices:
 * \f[ S(x)^3 = -(x^T x) S(x). \f]
 * Terms have size ‖x‖³. \return 0 or CL_ENAN.
 */
int CL_FN(cl_s2_hat_id45)(cl_rptr forms, cl_rsrc x);

/**
 * Identity [S2 (46)] (the scalar triple product), its three forms as 3 scalars:
 * \f[ x \cdot S(y) z = y \cdot S(z) x = z \cdot S(x) y. \f]
 * The printed text lost the leading "x" of the first form
 * (see \ref errata_S2 "the S2 errata"). Terms have size ‖x‖‖y‖‖z‖. \return 0 or CL_ENAN.
 */
int CL_FN(cl_s2_hat_id46)(cl_rptr forms, cl_rsrc x, cl_rsrc y, cl_rsrc z);

/**
 * Identity [S2 (47)], its three forms as 3 consecutive 3-vectors:
 * \f[ S(x)S(y)z = (x \cdot z) y - (x \cdot y) z = (y x^T - x^T y\, I_{3\times 3}) z. \f]
 * Terms have size ‖x‖‖y‖‖z‖. \return 0 or CL_ENAN.
 */
int CL_FN(cl_s2_hat_id47)(cl_rptr forms, cl_rsrc x, cl_rsrc y, cl_rsrc z);

/**
 * Identity [S2 (48)], its three forms as 3 consecutive 3×3 matrices:
 * \f[ S(x \times y) = S(x)S(y) - S(y)S(x) = y x^T - x y^T. \f]
 * Terms have size ‖x‖‖y‖. \return 0 or CL_ENAN.
 */
int CL_FN(cl_s2_hat_id48)(cl_rptr forms, cl_rsrc x, cl_rsrc y);

/**
 * Residual of an identity given as \p nforms consecutive forms of \p m
 * scalars each: log2 of max over k ≥ 1 and i of |forms[k·m + i] − forms[i]|
 * (−inf when all forms agree exactly, +inf if a form is NaN).
 */
double CL_FN(cl_s2_identity_log2_residual)(cl_rsrc forms, int nforms, size_t m);

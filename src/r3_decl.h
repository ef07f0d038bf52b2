/* Templated prototypes of r3.c (exported R³ routines, see r3.h). */

/** d = a · b. */
void CL_FN(cl_v3_dot)(cl_rptr d, cl_rsrc a, cl_rsrc b);
/** n = ‖a‖. */
void CL_FN(cl_v3_norm)(cl_rptr n, cl_rsrc a);
/** r = a × b (r may alias a or b). */
void CL_FN(cl_v3_cross)(cl_rptr r, cl_rsrc a, cl_rsrc b);
/** r = (I − qqᵀ) v (r may alias q or v). */
void CL_FN(cl_v3_proj_tangent)(cl_rptr r, cl_rsrc q, cl_rsrc v);
/** M = S(x), the hat map [S2 (4)], 3×3 row-major; M must not overlap x. */
void CL_FN(cl_m3_hat)(cl_rptr M, cl_rsrc x);
/** r = M a (r may alias a). */
void CL_FN(cl_m3_mul_v3)(cl_rptr r, cl_rsrc M, cl_rsrc a);
/** C = A B (C may alias A or B). */
void CL_FN(cl_m3_mul)(cl_rptr C, cl_rsrc A, cl_rsrc B);
/**
 * q = a uniformly random unit vector, drawn as three normal doubles and
 * normalized at the working precision.
 */
void CL_FN(cl_v3_random_unit)(cl_rptr q, cl_rng *g);
/**
 * v = a random vector of T_q S²: three normal doubles scaled by \p scale,
 * projected with (I − qqᵀ) at the working precision.
 */
void CL_FN(cl_v3_random_tangent)(cl_rptr v, cl_rsrc q, double scale, cl_rng *g);
/**
 * Check that q is a unit vector: |‖q‖² − 1| ≤ tol_ulps·2^(1−p).
 * Returns 0, CL_ENAN or CL_ENOTUNIT.
 */
int CL_FN(cl_v3_check_unit)(cl_rsrc q, double tol_ulps);
/**
 * Check that v ∈ T_q S²: |q·v| ≤ tol_ulps·2^(1−p)·2·max(1, maxᵢ|vᵢ|), a
 * bound between 2·max(1, ‖v‖)/√3 and 2·max(1, ‖v‖).
 * Returns 0, CL_ENAN or CL_ENOTTANGENT.
 */
int CL_FN(cl_v3_check_tangent)(cl_rsrc q, cl_rsrc v, double tol_ulps);

/* Templated prototypes of r3.c (exported R³ routines, see r3.h). */

/** d = a · b. */
void CL_FN(cl_v3_dot)(rptr d, rsrc a, rsrc b);
/** n = ‖a‖. */
void CL_FN(cl_v3_norm)(rptr n, rsrc a);
/** r = a × b (r may alias a or b). */
void CL_FN(cl_v3_cross)(rptr r, rsrc a, rsrc b);
/** r = (I − qqᵀ) v (r may alias q or v). */
void CL_FN(cl_v3_proj_tangent)(rptr r, rsrc q, rsrc v);
/** M = S(x), the hat map [S2 (4)], 3×3 row-major; M must not overlap x. */
void CL_FN(cl_m3_hat)(rptr M, rsrc x);
/** r = M a (r may alias a). */
void CL_FN(cl_m3_mul_v3)(rptr r, rsrc M, rsrc a);
/** C = A B (C may alias A or B). */
void CL_FN(cl_m3_mul)(rptr C, rsrc A, rsrc B);
/**
 * q = a uniformly random unit vector, drawn as three normal doubles and
 * normalized at the working precision.
 */
void CL_FN(cl_v3_random_unit)(rptr q, cl_rng *g);
/**
 * v = a random vector of T_q S²: three normal doubles scaled by \p scale,
 * projected with (I − qqᵀ) at the working precision.
 */
void CL_FN(cl_v3_random_tangent)(rptr v, rsrc q, double scale, cl_rng *g);
/**
 * Check that q is a unit vector: |‖q‖² − 1| ≤ tol_ulps·2^(1−p).
 * Returns 0, CL_ENAN or CL_ENOTUNIT.
 */
int CL_FN(cl_v3_check_unit)(rsrc q, double tol_ulps);
/**
 * Check that v ∈ T_q S²: |q·v| ≤ tol_ulps·2^(1−p)·2·max(1, maxᵢ|vᵢ|), a
 * bound between 2·max(1, ‖v‖)/√3 and 2·max(1, ‖v‖).
 * Returns 0, CL_ENAN or CL_ENOTTANGENT.
 */
int CL_FN(cl_v3_check_tangent)(rsrc q, rsrc v, double tol_ulps);

/* Templated prototypes of scalar.c; included once per kind by scalar.h. */

/**
 * Allocate a vector of \p n scalars of precision \p prec, all zero, in one
 * block. Returns NULL when out of memory. Release with rvec_free().
 */
cl_rptr CL_FN(cl_rvec_new)(size_t n, cl_prec_t prec);
/** Release a vector from cl_rvec_new() (NULL is allowed). */
void CL_FN(cl_rvec_free)(cl_rptr v);
/**
 * One block of zeros at precision \p prec carved into the \p n named parts
 * \p s, in order: `*s[i].at` points at part i. Returns the block (release
 * it with cl_rvec_free(); the parts go with it), or NULL when out of memory.
 * CL_RVEC_SLICES() counts the parts:
 * \code
 * mpfr_ptr zeta, J, wr;
 * mpfr_ptr v = CL_RVEC_SLICES_MP(prec, {&zeta, 5}, {&J, 25}, {&wr, 5});
 * \endcode
 */
cl_rptr CL_FN(cl_rvec_slices)(cl_prec_t prec, const CL_FN(cl_slice) *s, size_t n);
/** Copy \p n scalars: dst[i] = src[i]. */
void CL_FN(cl_rvec_copy)(cl_rptr dst, cl_rsrc src, size_t n);
/**
 * Read a decimal (or MPFR-syntax) number from \p s at the precision of \p r,
 * never through a double, correctly rounded (in double: once, to the nearest
 * binary64 number, subnormals included). Leading white space is skipped.
 * Returns 0, or CL_EPARSE when \p s is not a whole number (r is then
 * unspecified in MPFR and unchanged in double), CL_ENAN when it is NaN or
 * infinite or, in double, beyond the largest finite double.
 */
int CL_FN(cl_real_from_str)(cl_rptr r, const char *s);
/** Largest |a[i] − b[i]| over \p n entries, returned as log2 (−inf if equal). */
double CL_FN(cl_rvec_log2_maxdiff)(cl_rsrc a, cl_rsrc b, size_t n);
/** Largest |a[i]| over \p n entries, returned as log2 (−inf if all zero). */
double CL_FN(cl_rvec_log2_maxabs)(cl_rsrc a, size_t n);
/** 1 when every entry is a finite number, else 0. */
int CL_FN(cl_rvec_is_finite)(cl_rsrc a, size_t n);

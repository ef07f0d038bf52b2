/*
 * Names of the current scalar kind, selected by CL_T (CL_DOUBLE, CL_MPFR or
 * CL_ARB).
 * Included once per instantiation, undone by cl_templates_off.h; the
 * technique of GSL's templates_on.h.
 */
#define CL_CAT_(a, b) a##b
#define CL_CAT(a, b) CL_CAT_(a, b)

#if CL_T == CL_DOUBLE
#define CL_SUFFIX _d
#define real_t cl_real_d
#define rptr cl_rptr_d
#define rsrc cl_rsrc_d
#elif CL_T == CL_MPFR
#define CL_SUFFIX _mp
#define real_t cl_real_mp
#define rptr cl_rptr_mp
#define rsrc cl_rsrc_mp
#elif CL_T == CL_ARB
#define CL_SUFFIX _arb
#define real_t cl_real_arb
#define rptr cl_rptr_arb
#define rsrc cl_rsrc_arb
#else
#error "CL_T must be CL_DOUBLE, CL_MPFR or CL_ARB"
#endif

/** Name of a routine or type in the current instantiation: f_d, f_mp or f_arb. */
#define CL_FN(f) CL_CAT(f, CL_SUFFIX)

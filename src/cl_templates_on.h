/*
 * Names of the current scalar kind, selected by CL_T (CL_DOUBLE, CL_MPFR,
 * CL_ARB or CL_TRACE): CL_FN(f), and the types cl_real, cl_rptr and cl_rsrc that the
 * public *_decl.h files are written in. Only prefixed names: a program that
 * includes chartless.h keeps its own real_t; the short names real_t, rptr
 * and rsrc are scalar.h's (the opt-in header of templated sources).
 * Included once per instantiation, undone by cl_templates_off.h; the
 * technique of GSL's templates_on.h.
 */
#define CL_CAT_(a, b) a##b
#define CL_CAT(a, b) CL_CAT_(a, b)

#if CL_T == CL_DOUBLE
#define CL_SUFFIX _d
#define cl_real cl_real_d
#define cl_rptr cl_rptr_d
#define cl_rsrc cl_rsrc_d
#elif CL_T == CL_MPFR
#define CL_SUFFIX _mp
#define cl_real cl_real_mp
#define cl_rptr cl_rptr_mp
#define cl_rsrc cl_rsrc_mp
#elif CL_T == CL_ARB
#define CL_SUFFIX _arb
#define cl_real cl_real_arb
#define cl_rptr cl_rptr_arb
#define cl_rsrc cl_rsrc_arb
#elif CL_T == CL_TRACE
#define CL_SUFFIX _tr
#define cl_real cl_real_tr
#define cl_rptr cl_rptr_tr
#define cl_rsrc cl_rsrc_tr
#else
#error "CL_T must be CL_DOUBLE, CL_MPFR, CL_ARB or CL_TRACE"
#endif

/** Name of a routine or type in the current instantiation: f_d, f_mp, f_arb or f_tr. */
#define CL_FN(f) CL_CAT(f, CL_SUFFIX)

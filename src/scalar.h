/**
 * \file scalar.h
 * \brief The scalar layer: one set of calls, two scalar kinds.
 *
 * A templated source (compiled with `-DCL_PREC=CL_DOUBLE` and again with
 * `-DCL_PREC=CL_MPFR`) includes this header and writes arithmetic in MPFR's
 * style, output first: `r_mul(r, a, b)` is `mpfr_mul(r, a, b, MPFR_RNDN)` in
 * one instantiation and `*r = *a * *b` in the other, inlined. Every MPFR
 * operation rounds to nearest.
 *
 * Temporaries: `R_DECL(t, prec)` declares a scalar on the stack and
 * `RV_DECL(v, n, prec)` a vector of n scalars, both set to zero. Their
 * storage lives in the caller's frame (MPFR custom interface with alloca), so
 * they need no clear and cost no malloc; keep them out of loops. Long-lived
 * vectors come from `rvec_new` / `rvec_free` (one block each).
 */
#ifndef CL_SCALAR_H
#define CL_SCALAR_H

#ifndef CL_PREC
#error "scalar.h is for templated sources: compile with -DCL_PREC=CL_DOUBLE or -DCL_PREC=CL_MPFR"
#endif

#include <alloca.h>
#include <math.h>
#include <string.h>
#include "cl_types.h"

#define CL_T CL_PREC
#include "cl_templates_on.h"

#define CL_TEMPLATE_HEADER "scalar_decl.h"
#include "cl_instantiate.h"

#if CL_PREC == CL_DOUBLE
/* ------------------------------------------------------------------ double */
#define R_DECL(x, prec) double x[1] = {0.0}; (void)(prec)
#define RV_DECL(v, n, prec) double v[(n) > 0 ? (n) : 1]; memset(v, 0, sizeof(double) * (size_t)(n)); (void)(prec)
static inline cl_prec_t r_prec(rsrc x) { (void)x; return 53; }
static inline void r_set(rptr r, rsrc a) { *r = *a; }
static inline void r_set_d(rptr r, double a) { *r = a; }
static inline void r_set_si(rptr r, long a) { *r = (double)a; }
/** r = num/den, correctly rounded when |num|, |den| ≤ 2^53. */
static inline void r_set_q(rptr r, long num, long den) { *r = (double)num / (double)den; }
static inline void r_set_zero(rptr r) { *r = 0.0; }
static inline double r_get_d(rsrc a) { return *a; }
static inline void r_add(rptr r, rsrc a, rsrc b) { *r = *a + *b; }
static inline void r_sub(rptr r, rsrc a, rsrc b) { *r = *a - *b; }
static inline void r_mul(rptr r, rsrc a, rsrc b) { *r = *a * *b; }
static inline void r_div(rptr r, rsrc a, rsrc b) { *r = *a / *b; }
static inline void r_add_si(rptr r, rsrc a, long b) { *r = *a + (double)b; }
static inline void r_add_d(rptr r, rsrc a, double b) { *r = *a + b; }
static inline void r_mul_si(rptr r, rsrc a, long b) { *r = *a * (double)b; }
static inline void r_mul_d(rptr r, rsrc a, double b) { *r = *a * b; }
static inline void r_div_si(rptr r, rsrc a, long b) { *r = *a / (double)b; }
static inline void r_si_sub(rptr r, long a, rsrc b) { *r = (double)a - *b; }
static inline void r_si_div(rptr r, long a, rsrc b) { *r = (double)a / *b; }
/** r = a·2^k, exact. */
static inline void r_mul_2si(rptr r, rsrc a, long k) { *r = ldexp(*a, (int)k); }
static inline void r_neg(rptr r, rsrc a) { *r = -*a; }
static inline void r_abs(rptr r, rsrc a) { *r = fabs(*a); }
static inline void r_sqr(rptr r, rsrc a) { *r = *a * *a; }
static inline void r_sqrt(rptr r, rsrc a) { *r = sqrt(*a); }
static inline void r_sin(rptr r, rsrc a) { *r = sin(*a); }
static inline void r_cos(rptr r, rsrc a) { *r = cos(*a); }
static inline void r_tan(rptr r, rsrc a) { *r = tan(*a); }
static inline void r_asin(rptr r, rsrc a) { *r = asin(*a); }
static inline void r_acos(rptr r, rsrc a) { *r = acos(*a); }
static inline void r_atan2(rptr r, rsrc y, rsrc x) { *r = atan2(*y, *x); }
static inline void r_exp(rptr r, rsrc a) { *r = exp(*a); }
static inline void r_log(rptr r, rsrc a) { *r = log(*a); }
static inline void r_sinh(rptr r, rsrc a) { *r = sinh(*a); }
static inline void r_cosh(rptr r, rsrc a) { *r = cosh(*a); }
static inline void r_pow_si(rptr r, rsrc a, long k) { *r = pow(*a, (double)k); }
static inline void r_hypot(rptr r, rsrc a, rsrc b) { *r = hypot(*a, *b); }
/** r = a·b + c. */
static inline void r_fma(rptr r, rsrc a, rsrc b, rsrc c) { *r = *a * *b + *c; }
/** r = a·b − c. */
static inline void r_fms(rptr r, rsrc a, rsrc b, rsrc c) { *r = *a * *b - *c; }
/** r += a·b. */
static inline void r_addmul(rptr r, rsrc a, rsrc b) { *r += *a * *b; }
/** r −= a·b. */
static inline void r_submul(rptr r, rsrc a, rsrc b) { *r -= *a * *b; }
static inline void r_const_pi(rptr r) { *r = 3.14159265358979323846; }
static inline int r_cmp(rsrc a, rsrc b) { return (*a > *b) - (*a < *b); }
static inline int r_cmpabs(rsrc a, rsrc b) { return (fabs(*a) > fabs(*b)) - (fabs(*a) < fabs(*b)); }
static inline int r_cmp_d(rsrc a, double b) { return (*a > b) - (*a < b); }
static inline int r_sgn(rsrc a) { return (*a > 0) - (*a < 0); }
static inline int r_is_zero(rsrc a) { return *a == 0.0; }
static inline int r_is_number(rsrc a) { return isfinite(*a); }
static inline void r_swap(rptr a, rptr b) { double t = *a; *a = *b; *b = t; }
/** log2 |a| as a double: −inf for 0, +inf for ±inf and NaN (as cl_mpfr_log2). */
static inline double r_log2abs(rsrc a) { return *a == 0.0 ? -INFINITY : isnan(*a) ? INFINITY : log2(fabs(*a)); }
/** Unit roundoff 2^(1−p) of the working precision, as a scalar. */
static inline void r_set_eps(rptr r) { *r = 0x1p-52; }
#else
/* -------------------------------------------------------------------- MPFR */
#define RND MPFR_RNDN
static inline void cl_mp_stack_init_(mpfr_ptr x, cl_prec_t p, void *limbs)
{
    mpfr_custom_init(limbs, p);
    mpfr_custom_init_set(x, MPFR_ZERO_KIND, 0, p, limbs);
}
#define R_DECL(x, prec) \
    mpfr_t x; cl_mp_stack_init_(x, (prec), alloca(mpfr_custom_get_size(prec)))
#define RV_DECL(v, n, prec) \
    __mpfr_struct v[(n) > 0 ? (n) : 1]; \
    do { size_t cl_sz_ = mpfr_custom_get_size(prec); \
         char *cl_mem_ = alloca(cl_sz_ * (size_t)(n) + 1); \
         for (size_t cl_i_ = 0; cl_i_ < (size_t)(n); cl_i_++) \
             cl_mp_stack_init_(v + cl_i_, (prec), cl_mem_ + cl_i_ * cl_sz_); } while (0)
static inline cl_prec_t r_prec(rsrc x) { return mpfr_get_prec(x); }
static inline void r_set(rptr r, rsrc a) { mpfr_set(r, a, RND); }
static inline void r_set_d(rptr r, double a) { mpfr_set_d(r, a, RND); }
static inline void r_set_si(rptr r, long a) { mpfr_set_si(r, a, RND); }
static inline void r_set_q(rptr r, long num, long den)
{
    if (mpfr_set_si(r, num, RND) == 0) { /* num exact at the precision of r */
        mpfr_div_si(r, r, den, RND);
        return;
    }
    /* num needs more bits than r has (e.g. 5 at 2 bits): hold it exactly in
       64 bits so that the quotient is rounded only once. */
    mp_limb_t limbs[(64 + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS];
    __mpfr_struct w;
    mpfr_custom_init(limbs, 64);
    mpfr_custom_init_set(&w, MPFR_ZERO_KIND, 0, 64, limbs);
    mpfr_set_si(&w, num, RND);
    mpfr_div_si(r, &w, den, RND);
}
static inline void r_set_zero(rptr r) { mpfr_set_zero(r, 1); }
static inline double r_get_d(rsrc a) { return mpfr_get_d(a, RND); }
static inline void r_add(rptr r, rsrc a, rsrc b) { mpfr_add(r, a, b, RND); }
static inline void r_sub(rptr r, rsrc a, rsrc b) { mpfr_sub(r, a, b, RND); }
static inline void r_mul(rptr r, rsrc a, rsrc b) { mpfr_mul(r, a, b, RND); }
static inline void r_div(rptr r, rsrc a, rsrc b) { mpfr_div(r, a, b, RND); }
static inline void r_add_si(rptr r, rsrc a, long b) { mpfr_add_si(r, a, b, RND); }
static inline void r_add_d(rptr r, rsrc a, double b) { mpfr_add_d(r, a, b, RND); }
static inline void r_mul_si(rptr r, rsrc a, long b) { mpfr_mul_si(r, a, b, RND); }
static inline void r_mul_d(rptr r, rsrc a, double b) { mpfr_mul_d(r, a, b, RND); }
static inline void r_div_si(rptr r, rsrc a, long b) { mpfr_div_si(r, a, b, RND); }
static inline void r_si_sub(rptr r, long a, rsrc b) { mpfr_si_sub(r, a, b, RND); }
static inline void r_si_div(rptr r, long a, rsrc b) { mpfr_si_div(r, a, b, RND); }
static inline void r_mul_2si(rptr r, rsrc a, long k) { mpfr_mul_2si(r, a, k, RND); }
static inline void r_neg(rptr r, rsrc a) { mpfr_neg(r, a, RND); }
static inline void r_abs(rptr r, rsrc a) { mpfr_abs(r, a, RND); }
static inline void r_sqr(rptr r, rsrc a) { mpfr_sqr(r, a, RND); }
static inline void r_sqrt(rptr r, rsrc a) { mpfr_sqrt(r, a, RND); }
static inline void r_sin(rptr r, rsrc a) { mpfr_sin(r, a, RND); }
static inline void r_cos(rptr r, rsrc a) { mpfr_cos(r, a, RND); }
static inline void r_tan(rptr r, rsrc a) { mpfr_tan(r, a, RND); }
static inline void r_asin(rptr r, rsrc a) { mpfr_asin(r, a, RND); }
static inline void r_acos(rptr r, rsrc a) { mpfr_acos(r, a, RND); }
static inline void r_atan2(rptr r, rsrc y, rsrc x) { mpfr_atan2(r, y, x, RND); }
static inline void r_exp(rptr r, rsrc a) { mpfr_exp(r, a, RND); }
static inline void r_log(rptr r, rsrc a) { mpfr_log(r, a, RND); }
static inline void r_sinh(rptr r, rsrc a) { mpfr_sinh(r, a, RND); }
static inline void r_cosh(rptr r, rsrc a) { mpfr_cosh(r, a, RND); }
static inline void r_pow_si(rptr r, rsrc a, long k) { mpfr_pow_si(r, a, k, RND); }
static inline void r_hypot(rptr r, rsrc a, rsrc b) { mpfr_hypot(r, a, b, RND); }
static inline void r_fma(rptr r, rsrc a, rsrc b, rsrc c) { mpfr_fma(r, a, b, c, RND); }
static inline void r_fms(rptr r, rsrc a, rsrc b, rsrc c) { mpfr_fms(r, a, b, c, RND); }
static inline void r_addmul(rptr r, rsrc a, rsrc b) { mpfr_fma(r, a, b, r, RND); }
static inline void r_submul(rptr r, rsrc a, rsrc b)
{
    mpfr_fms(r, a, b, r, RND);
    mpfr_neg(r, r, RND);
}
static inline void r_const_pi(rptr r) { mpfr_const_pi(r, RND); }
static inline int r_cmp(rsrc a, rsrc b) { return mpfr_cmp(a, b); }
static inline int r_cmpabs(rsrc a, rsrc b) { return mpfr_cmpabs(a, b); }
static inline int r_cmp_d(rsrc a, double b) { return mpfr_cmp_d(a, b); }
static inline int r_sgn(rsrc a) { return mpfr_sgn(a); }
static inline int r_is_zero(rsrc a) { return mpfr_zero_p(a); }
static inline int r_is_number(rsrc a) { return mpfr_number_p(a); }
static inline void r_swap(rptr a, rptr b) { mpfr_swap(a, b); }
static inline double r_log2abs(rsrc a) { return cl_mpfr_log2(a); }
static inline void r_set_eps(rptr r)
{
    mpfr_set_ui_2exp(r, 1, 1 - (mpfr_exp_t)mpfr_get_prec(r), RND);
}
#undef RND
#endif

#endif /* CL_SCALAR_H */

/**
 * \file scalar.h
 * \brief The scalar layer: one set of calls, three scalar kinds.
 *
 * A templated source (compiled with `-DCL_PREC=CL_DOUBLE` and again with
 * `-DCL_PREC=CL_MPFR`, and for the modules that need it with
 * `-DCL_PREC=CL_ARB`) includes this header and writes arithmetic in MPFR's
 * style, output first: `r_mul(r, a, b)` is `mpfr_mul(r, a, b, MPFR_RNDN)` in
 * one instantiation, `*r = *a * *b` in another and `arb_mul(r, a, b, prec)`
 * in the third, inlined. Every MPFR operation rounds to nearest.
 *
 * Arb balls. A ball [m ± r] encloses the exact result of the same
 * sequence of operations on every point of the input balls, so a sign that
 * a ball proves (0 ∉ [m ± r]) is the sign of the exact quantity. The
 * working precision of the ball kind is one per thread, set with
 * cl_arb_set_prec() (default 128 bits): `R_DECL(x, prec)` and
 * cl_rvec_new() ignore their precision argument and r_prec() returns the
 * thread's precision. Ball temporaries are cleared when their block is left
 * (GCC's cleanup attribute), so they need no clear either; a `goto` must
 * therefore never jump past an R_DECL (the ball kind's objects are compiled
 * with -Wjump-misses-init to catch it).
 *
 * Comparisons have a three-way meaning on balls:
 *  - r_cmp(), r_cmp_d() and r_sgn() return −1 or +1 only when that order is
 *    proven, and 0 when it is not (the balls overlap): "not separated". In
 *    double and MPFR this is the ordinary comparison. Code may branch on
 *    them where either branch computes a valid result (a choice of formula,
 *    a loop exit); a verdict must not be read from a 0.
 *  - r_cmp3() and r_sgn3() tell an undecided comparison apart: −1, 0
 *    (proven equal: the same exact point), +1 or CL_UNDECIDED. Routines whose
 *    result is a sign count (cl_sym_inertia()) use these and report
 *    CL_EUNDECIDED rather than guess.
 *  - r_cmpabs() orders by the lower bound of |a|: pivoting picks the entry
 *    whose magnitude is largest for certain ("pivot on the largest lower
 *    bound"); on exact kinds it is the ordinary |a| <=> |b|.
 * r_get_d(), r_log2abs() and r_get_mpfr() read the midpoint; r_log2rad()
 * is log2 of the radius (−inf in double and MPFR, and for an exact ball).
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
#error "scalar.h is for templated sources: compile with -DCL_PREC=CL_DOUBLE, CL_MPFR, CL_ARB or CL_TRACE"
#endif

#include <alloca.h>
#include <math.h>
#include <string.h>
#include "cl_types.h"

#define CL_T CL_PREC
#include "cl_templates_on.h"

#define CL_TEMPLATE_HEADER "scalar_decl.h"
#define CL_TEMPLATE_ARB
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"

/* The short names of the current kind for templated sources; the public
 * declarations use the prefixed cl_real, cl_rptr and cl_rsrc. */
#define real_t cl_real
#define rptr cl_rptr
#define rsrc cl_rsrc

/* The elementary functions both kinds take from their library under the same
 * name: sqrt(*a) in double, mpfr_sqrt(r, a, rnd) in MPFR. */
#define CL_R_MATH1(X) X(sqrt) X(sin) X(cos) X(tan) X(asin) X(acos) X(exp) X(log) X(sinh) X(cosh)
#define CL_R_MATH2(X) X(atan2) X(hypot)

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
#define CL_R_LIBM1(op) static inline void r_##op(rptr r, rsrc a) { *r = op(*a); }
#define CL_R_LIBM2(op) static inline void r_##op(rptr r, rsrc a, rsrc b) { *r = op(*a, *b); }
CL_R_MATH1(CL_R_LIBM1)
CL_R_MATH2(CL_R_LIBM2)
#undef CL_R_LIBM1
#undef CL_R_LIBM2
static inline void r_pow_si(rptr r, rsrc a, long k) { *r = pow(*a, (double)k); }
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
static inline int r_cmp3(rsrc a, rsrc b) { return r_cmp(a, b); }
static inline int r_sgn3(rsrc a) { return r_sgn(a); }
static inline double r_log2rad(rsrc a) { (void)a; return -INFINITY; }
static inline int r_is_zero(rsrc a) { return *a == 0.0; }
static inline int r_is_number(rsrc a) { return isfinite(*a); }
static inline void r_swap(rptr a, rptr b) { double t = *a; *a = *b; *b = t; }
/** log2 |a| as a double: −inf for 0, +inf for ±inf and NaN (as cl_mpfr_log2). */
static inline double r_log2abs(rsrc a) { return *a == 0.0 ? -INFINITY : isnan(*a) ? INFINITY : log2(fabs(*a)); }
/** Unit roundoff 2^(1−p) of the working precision, as a scalar. */
static inline void r_set_eps(rptr r) { *r = 0x1p-52; }
#elif CL_PREC == CL_TRACE
/* ------------------------------------------------------------------- trace */
#include "scalar_trace.h"
#elif CL_PREC == CL_ARB
/* --------------------------------------------------------------------- Arb */
extern _Thread_local cl_prec_t cl_arb_prec_;
#define AP cl_arb_prec_
static inline void cl_arb_clear1_(arb_struct (*x)[1]) { arb_clear(*x); }
typedef struct cl_arb_guard_ { arb_ptr v; size_t n; } cl_arb_guard_;
static inline void cl_arb_guard_clear_(cl_arb_guard_ *g) { for (size_t i = 0; i < g->n; i++) arb_clear(g->v + i); }
static inline void cl_arb_init_n_(arb_ptr v, size_t n) { for (size_t i = 0; i < n; i++) arb_init(v + i); }
#define R_DECL(x, prec) \
    arb_t x __attribute__((cleanup(cl_arb_clear1_))); arb_init(x); (void)(prec)
#define RV_DECL(v, n, prec) \
    arb_struct v[(n) > 0 ? (n) : 1]; cl_arb_init_n_(v, (size_t)((n) > 0 ? (n) : 1)); \
    cl_arb_guard_ v##_cl_guard_ __attribute__((cleanup(cl_arb_guard_clear_))) = {v, (size_t)((n) > 0 ? (n) : 1)}; \
    (void)v##_cl_guard_; (void)(prec)
static inline cl_prec_t r_prec(rsrc x) { (void)x; return AP; }
static inline void r_set(rptr r, rsrc a) { arb_set(r, a); }
static inline void r_set_d(rptr r, double a) { arb_set_d(r, a); }
static inline void r_set_si(rptr r, long a) { arb_set_si(r, a); }
/** r = a ball containing num/den. */
static inline void r_set_q(rptr r, long num, long den) { arb_set_si(r, num); arb_div_si(r, r, den, AP); }
static inline void r_set_zero(rptr r) { arb_zero(r); }
static inline double r_get_d(rsrc a) { return arf_get_d(arb_midref(a), ARF_RND_NEAR); }
#define CL_R_ARB1(op) static inline void r_##op(rptr r, rsrc a) { arb_##op(r, a, AP); }
#define CL_R_ARB2(op) static inline void r_##op(rptr r, rsrc a, rsrc b) { arb_##op(r, a, b, AP); }
#define CL_R_ARBSI(op) static inline void r_##op(rptr r, rsrc a, long b) { arb_##op(r, a, b, AP); }
CL_R_MATH1(CL_R_ARB1)
CL_R_MATH2(CL_R_ARB2)
CL_R_ARB2(add) CL_R_ARB2(sub) CL_R_ARB2(mul) CL_R_ARB2(div)
CL_R_ARBSI(add_si) CL_R_ARBSI(mul_si) CL_R_ARBSI(div_si)
#undef CL_R_ARB1
#undef CL_R_ARB2
#undef CL_R_ARBSI
static inline void r_sqr(rptr r, rsrc a) { arb_sqr(r, a, AP); }
static inline void r_neg(rptr r, rsrc a) { arb_neg(r, a); }
static inline void r_abs(rptr r, rsrc a) { arb_abs(r, a); }
static inline void r_add_d(rptr r, rsrc a, double b)
{
    arb_t t; arb_init(t); arb_set_d(t, b); arb_add(r, a, t, AP); arb_clear(t);
}
static inline void r_mul_d(rptr r, rsrc a, double b)
{
    arb_t t; arb_init(t); arb_set_d(t, b); arb_mul(r, a, t, AP); arb_clear(t);
}
static inline void r_si_sub(rptr r, long a, rsrc b) { arb_sub_si(r, b, a, AP); arb_neg(r, r); }
static inline void r_si_div(rptr r, long a, rsrc b)
{
    arb_t t; arb_init(t); arb_set_si(t, a); arb_div(r, t, b, AP); arb_clear(t);
}
/** r = a·2^k, exact. */
static inline void r_mul_2si(rptr r, rsrc a, long k) { arb_mul_2exp_si(r, a, k); }
static inline void r_pow_si(rptr r, rsrc a, long k)
{
    arb_pow_ui(r, a, (ulong)(k < 0 ? -k : k), AP);
    if (k < 0) arb_inv(r, r, AP);
}
static inline void r_fma(rptr r, rsrc a, rsrc b, rsrc c)
{
    arb_t t; arb_init(t); arb_mul(t, a, b, AP); arb_add(r, t, c, AP); arb_clear(t);
}
static inline void r_fms(rptr r, rsrc a, rsrc b, rsrc c)
{
    arb_t t; arb_init(t); arb_mul(t, a, b, AP); arb_sub(r, t, c, AP); arb_clear(t);
}
static inline void r_addmul(rptr r, rsrc a, rsrc b) { arb_addmul(r, a, b, AP); }
static inline void r_submul(rptr r, rsrc a, rsrc b) { arb_submul(r, a, b, AP); }
static inline void r_const_pi(rptr r) { arb_const_pi(r, AP); }
static inline int r_cmp3(rsrc a, rsrc b)
{
    if (arb_lt(a, b)) return -1;
    if (arb_gt(a, b)) return 1;
    if (arb_eq(a, b)) return 0;
    return CL_UNDECIDED;
}
static inline int r_sgn3(rsrc a)
{
    if (arb_is_positive(a)) return 1;
    if (arb_is_negative(a)) return -1;
    if (arb_is_zero(a)) return 0;
    return CL_UNDECIDED;
}
static inline int r_cmp(rsrc a, rsrc b) { int c = r_cmp3(a, b); return c == CL_UNDECIDED ? 0 : c; }
static inline int r_sgn(rsrc a) { int c = r_sgn3(a); return c == CL_UNDECIDED ? 0 : c; }
static inline int r_cmp_d(rsrc a, double b)
{
    arb_t t; arb_init(t); arb_set_d(t, b);
    int c = r_cmp(a, t);
    arb_clear(t);
    return c;
}
static inline int r_cmpabs(rsrc a, rsrc b)
{
    arf_t la, lb;
    arf_init(la); arf_init(lb);
    arb_get_abs_lbound_arf(la, a, AP);
    arb_get_abs_lbound_arf(lb, b, AP);
    int c = arf_cmp(la, lb);
    arf_clear(la); arf_clear(lb);
    return (c > 0) - (c < 0);
}
static inline double r_log2rad(rsrc a) { return mag_is_zero(arb_radref(a)) ? -INFINITY : mag_get_d_log2_approx(arb_radref(a)); }
static inline int r_is_zero(rsrc a) { return arb_is_zero(a); }
static inline int r_is_number(rsrc a) { return arb_is_finite(a); }
static inline void r_swap(rptr a, rptr b) { arb_swap(a, b); }
static inline double r_log2abs(rsrc a)
{
    if (!arb_is_finite(a)) return INFINITY;
    mpfr_t m;
    mpfr_init2(m, 64);
    arf_get_mpfr(m, arb_midref(a), MPFR_RNDN);
    double l = cl_mpfr_log2(m);
    mpfr_clear(m);
    return l;
}
static inline void r_set_eps(rptr r) { arb_one(r); arb_mul_2exp_si(r, r, 1 - (slong)AP); }
#undef AP
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
/* One wrapper per MPFR call of each form, generated from the lists. */
#define CL_R_MP1(op) static inline void r_##op(rptr r, rsrc a) { mpfr_##op(r, a, RND); }
#define CL_R_MP2(op) static inline void r_##op(rptr r, rsrc a, rsrc b) { mpfr_##op(r, a, b, RND); }
#define CL_R_MPSI(op) static inline void r_##op(rptr r, rsrc a, long b) { mpfr_##op(r, a, b, RND); }
#define CL_R_MPD(op) static inline void r_##op(rptr r, rsrc a, double b) { mpfr_##op(r, a, b, RND); }
#define CL_R_SIMP(op) static inline void r_##op(rptr r, long a, rsrc b) { mpfr_##op(r, a, b, RND); }
CL_R_MATH1(CL_R_MP1)
CL_R_MP1(neg) CL_R_MP1(abs) CL_R_MP1(sqr)
CL_R_MATH2(CL_R_MP2)
CL_R_MP2(add) CL_R_MP2(sub) CL_R_MP2(mul) CL_R_MP2(div)
CL_R_MPSI(add_si) CL_R_MPSI(mul_si) CL_R_MPSI(div_si) CL_R_MPSI(mul_2si) CL_R_MPSI(pow_si)
CL_R_MPD(add_d) CL_R_MPD(mul_d)
CL_R_SIMP(si_sub) CL_R_SIMP(si_div)
#undef CL_R_MP1
#undef CL_R_MP2
#undef CL_R_MPSI
#undef CL_R_MPD
#undef CL_R_SIMP
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
static inline int r_cmp3(rsrc a, rsrc b) { int c = mpfr_cmp(a, b); return (c > 0) - (c < 0); }
static inline int r_sgn3(rsrc a) { return mpfr_sgn(a) > 0 ? 1 : mpfr_sgn(a) < 0 ? -1 : 0; }
static inline double r_log2rad(rsrc a) { (void)a; return -INFINITY; }
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

/** w = a, exact when w has at least the precision of a (balls: the midpoint). */
static inline void r_get_mpfr(mpfr_ptr w, rsrc a)
{
#if CL_PREC == CL_DOUBLE
    mpfr_set_d(w, *a, MPFR_RNDN);
#elif CL_PREC == CL_TRACE
    mpfr_set_d(w, a->v, MPFR_RNDN);
#elif CL_PREC == CL_ARB
    arf_get_mpfr(w, arb_midref(a), MPFR_RNDN);
#else
    mpfr_set(w, a, MPFR_RNDN);
#endif
}

/** r = w rounded in direction \p rnd to the precision of r (balls: a ball containing w; \p rnd unused). */
static inline void r_set_mpfr(rptr r, mpfr_srcptr w, mpfr_rnd_t rnd)
{
#if CL_PREC == CL_DOUBLE
    *r = mpfr_get_d(w, rnd);
#elif CL_PREC == CL_TRACE
    (void)rnd;
    r->id = cl_trace_const_mpfr(w);
    r->v = mpfr_get_d(w, MPFR_RNDN);
#elif CL_PREC == CL_ARB
    (void)rnd;
    arf_set_mpfr(arb_midref(r), w);
    mag_zero(arb_radref(r));
    arb_set_round(r, r, cl_arb_get_prec());
#else
    mpfr_set(r, w, rnd);
#endif
}

/**
 * Hand out consecutive pieces of one block: *slots[i] = q + i·len for the
 * \p count slots; returns the end, q + count·len. See RV_CARVE().
 */
static inline rptr rv_carve(rptr q, size_t len, rptr *const *slots, size_t count)
{
    for (size_t i = 0; i < count; i++, q += len) *slots[i] = q;
    return q;
}
/** rv_carve() over the listed slots: `q = RV_CARVE(q, n, &ws->y, &ws->u);`. */
#define RV_CARVE(q, len, ...) \
    rv_carve((q), (len), (rptr *const[]){__VA_ARGS__}, sizeof((rptr *const[]){__VA_ARGS__}) / sizeof(rptr *))

/* r_traced(a): the tracing kind's constant node of the value a of the double or MPFR kind, exactly (its
   mantissa over a power of two), its double beside it; for sources that include trace.h. */
#if CL_PREC == CL_DOUBLE
#define r_traced(a) ((cl_trace_scalar){cl_trace_const_double(*(a)), *(a)})
#elif CL_PREC == CL_MPFR
#define r_traced(a) ((cl_trace_scalar){cl_trace_const_mpfr(a), mpfr_get_d((a), MPFR_RNDN)})
#endif

#endif /* CL_SCALAR_H */

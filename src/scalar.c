/* Long-lived vectors and decimal input, for every scalar kind. */
#include <stdint.h>
#include <stdlib.h>
#include "scalar.h"

#if CL_PREC == CL_DOUBLE
rptr CL_FN(cl_rvec_new)(size_t n, cl_prec_t prec)
{
    (void)prec;
    return calloc(n ? n : 1, sizeof(double));
}

void CL_FN(cl_rvec_free)(rptr v) { free(v); }

int CL_FN(cl_real_from_str)(rptr r, const char *s)
{
    /* Read through MPFR in the exponent range of binary64 (subnormals
       included), so that the decimal input is rounded once, correctly, and
       a number beyond DBL_MAX is refused instead of becoming infinite. */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t t;
    mpfr_init2(t, 53);
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    char *end;
    int inex = mpfr_strtofr(t, s, &end, 10, MPFR_RNDN);
    int st = (end == s || *end) ? CL_EPARSE : CL_OK;
    if (st == CL_OK && !mpfr_number_p(t)) st = CL_ENAN;
    if (st == CL_OK) {
        inex = mpfr_check_range(t, inex, MPFR_RNDN);
        mpfr_subnormalize(t, inex, MPFR_RNDN);
        if (!mpfr_number_p(t)) st = CL_ENAN; /* overflow */
    }
    if (st == CL_OK) *r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(t);
    return st;
}
#elif CL_PREC == CL_ARB
_Thread_local cl_prec_t cl_arb_prec_ = 128;

cl_prec_t cl_arb_get_prec(void) { return cl_arb_prec_; }

int cl_arb_set_prec(cl_prec_t prec)
{
    if (cl_prec_check(prec)) return CL_EPREC;
    cl_arb_prec_ = prec;
    return CL_OK;
}

void cl_free_caches(void)
{
    flint_cleanup();
    mpfr_free_cache();
}

/* One block: the count n, then n balls (their limbs, when a midpoint needs
   more than two, are Arb's own and are released by arb_clear). */
typedef union { size_t n; arb_struct align_; } arb_head;

rptr CL_FN(cl_rvec_new)(size_t n, cl_prec_t prec)
{
    (void)prec;
    size_t m = n ? n : 1;
    if (m > (SIZE_MAX - sizeof(arb_head)) / sizeof(arb_struct)) return NULL;
    arb_head *h = malloc(sizeof(arb_head) + m * sizeof(arb_struct));
    if (!h) return NULL;
    h->n = m;
    arb_ptr v = (arb_ptr)(h + 1);
    for (size_t i = 0; i < m; i++) arb_init(v + i);
    return v;
}

void CL_FN(cl_rvec_free)(rptr v)
{
    if (!v) return;
    arb_head *h = (arb_head *)v - 1;
    for (size_t i = 0; i < h->n; i++) arb_clear(v + i);
    free(h);
}

/* The decimal number is enclosed, not rounded: the ball contains its exact
   value, so a parameter such as 0.1 stays the real number 0.1. */
int CL_FN(cl_real_from_str)(rptr r, const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    mpfr_t t;
    mpfr_init2(t, 64);
    char *end;
    mpfr_strtofr(t, s, &end, 10, MPFR_RNDN);
    int st = (end == s || *end) ? CL_EPARSE : mpfr_number_p(t) ? CL_OK : CL_ENAN;
    mpfr_clear(t);
    if (st) return st;
    if (arb_set_str(r, s, cl_arb_prec_)) return CL_EPARSE;
    return arb_is_finite(r) ? CL_OK : CL_ENAN;
}
#elif CL_PREC == CL_TRACE
rptr CL_FN(cl_rvec_new)(size_t n, cl_prec_t prec)
{
    (void)prec;
    rptr v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++) r_set_zero(v + i);
    return v;
}

void CL_FN(cl_rvec_free)(rptr v) { free(v); }

/* A decimal constant node, valued at the traced point in double. */
int CL_FN(cl_real_from_str)(rptr r, const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end) return CL_EPARSE;
    if (!isfinite(v)) return CL_ENAN;
    r->id = cl_trace_const_str(s);
    r->v = v;
    return CL_OK;
}
#else
/* One block: n mpfr structs followed by their limbs, zero-initialized. */
rptr CL_FN(cl_rvec_new)(size_t n, cl_prec_t prec)
{
    size_t sz = mpfr_custom_get_size(prec);
    if (n > (SIZE_MAX - 2 * sizeof(mp_limb_t)) / (sizeof(__mpfr_struct) + sz)) return NULL; /* size overflows */
    size_t head = n * sizeof(__mpfr_struct);
    head = (head + sizeof(mp_limb_t) - 1) / sizeof(mp_limb_t) * sizeof(mp_limb_t);
    char *mem = malloc(head + n * sz + 1);
    if (!mem) return NULL;
    mpfr_ptr v = (mpfr_ptr)mem;
    for (size_t i = 0; i < n; i++) {
        void *limbs = mem + head + i * sz;
        mpfr_custom_init(limbs, prec);
        mpfr_custom_init_set(v + i, MPFR_ZERO_KIND, 0, prec, limbs);
    }
    return v;
}

void CL_FN(cl_rvec_free)(rptr v) { free(v); }

int CL_FN(cl_real_from_str)(rptr r, const char *s)
{
    if (mpfr_set_str(r, s, 10, MPFR_RNDN)) return CL_EPARSE;
    return mpfr_number_p(r) ? CL_OK : CL_ENAN;
}
#endif

void CL_FN(cl_rvec_copy)(rptr dst, rsrc src, size_t n)
{
    for (size_t i = 0; i < n; i++) r_set(dst + i, src + i);
}

double CL_FN(cl_rvec_log2_maxdiff)(rsrc a, rsrc b, size_t n)
{
    double worst = -INFINITY;
    if (n == 0) return worst; /* a and b may then be NULL */
    R_DECL(d, r_prec(a));
    for (size_t i = 0; i < n; i++) {
        r_sub(d, a + i, b + i);
        double l = r_log2abs(d);
        if (l > worst || isnan(l)) worst = isnan(l) ? INFINITY : l;
    }
    return worst;
}

double CL_FN(cl_rvec_log2_maxabs)(rsrc a, size_t n)
{
    double worst = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double l = r_log2abs(a + i);
        if (l > worst || isnan(l)) worst = isnan(l) ? INFINITY : l;
    }
    return worst;
}

int CL_FN(cl_rvec_is_finite)(rsrc a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!r_is_number(a + i)) return 0;
    return 1;
}

rptr CL_FN(cl_rvec_slices)(cl_prec_t prec, const CL_FN(cl_slice) *s, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += s[i].n;
    rptr v = CL_FN(cl_rvec_new)(total, prec);
    for (size_t i = 0, at = 0; v && i < n; at += s[i].n, i++) *s[i].at = v + at;
    return v;
}

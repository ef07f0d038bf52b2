/*
 * The public headers work for a user program: both instantiations visible
 * through chartless.h, and the written-out prototypes of each kind agree
 * with the real declarations (a conflicting line would not compile).
 *
 * The program has its own real_t, rptr, r_add and v3_dot, defined before and
 * after the headers: chartless.h exports only prefixed names (cl_, CL_), so
 * neither is rewritten by a macro of the library's templates. Compiled by
 * the Makefile against the staged headers and by tests/test_install.sh
 * against the installed ones (with and without -DCL_PREC=CL_MPFR).
 */
#include <string.h>
typedef float real_t;               /* the user's own, before the headers */
#define rptr user_rptr_is_kept
#include "chartless.h"
#include "prototypes_d.h"
#include "prototypes_mp.h"
#include "tap.h"

#if !defined(rptr) || defined(rsrc) || defined(r_add) || defined(v3_dot) || defined(real_t)
#error "chartless.h defined or undefined an unprefixed name"
#endif
#undef rptr
static real_t r_add(real_t a, real_t b) { return a + b; }
static double v3_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

int main(void)
{
    plan(5);
    double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, c[3];
    cl_v3_cross_d(c, a, b);
    ok(c[0] == 0 && c[1] == 0 && c[2] == 1, "cl_v3_cross_d: e1 x e2 = e3");
    mpfr_ptr x = cl_rvec_new_mp(3, 200), y = cl_rvec_new_mp(3, 200), z = cl_rvec_new_mp(3, 200);
    for (int i = 0; i < 3; i++) {
        mpfr_set_d(x + i, a[i], MPFR_RNDN);
        mpfr_set_d(y + i, b[i], MPFR_RNDN);
    }
    cl_v3_cross_mp(z, x, y);
    ok(mpfr_cmp_ui(z + 2, 1) == 0 && mpfr_zero_p(z) && mpfr_zero_p(z + 1), "cl_v3_cross_mp at 200 bits: e1 x e2 = e3");
    ok(cl_prec_check(1) == CL_EPREC && cl_prec_check(CL_PREC_MIN) == CL_OK && cl_prec_check(CL_PREC_MAX) == CL_OK &&
           cl_prec_check(CL_PREC_MAX + 1L) == CL_EPREC,
       "precision check: 2 to 65536 bits, not 1 or 65537");
    /* Every status code from CL_OK down to CL_EUNDEFINED has its own message. */
    int distinct = strcmp(cl_strerror(CL_EUNDEFINED - 1), "unknown error") == 0;
    for (int a = CL_OK; a >= CL_EUNDEFINED; a--)
        for (int b = a - 1; b >= CL_EUNDEFINED - 1; b--) distinct &= strcmp(cl_strerror(a), cl_strerror(b)) != 0;
    ok(distinct, "each status code CL_OK..CL_EUNDEFINED has its own message, others are unknown");
    ok(sizeof(real_t) == sizeof(float) && r_add(1.5f, 2.25f) == 3.75f && v3_dot(a, c) == 0 && v3_dot(c, c) == 1,
       "the program's own real_t (a float), r_add and v3_dot stand beside chartless.h");
    cl_rvec_free_mp(x); cl_rvec_free_mp(y); cl_rvec_free_mp(z);
    return done_testing();
}

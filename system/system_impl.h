/*
 * What the papers' command-line systems (papers/KEY/KEY_systems.c) share
 * beyond the descriptor of system.h: the tolerance of every input state and
 * the end of every create hook. Internal: not installed.
 */
#ifndef CL_SYSTEM_IMPL_H
#define CL_SYSTEM_IMPL_H
#include <math.h>
#include <stdio.h>
#include "system.h"

/* A unit vector within this of |x| = 1 (and a velocity within it, relative to
 * its size, of the tangent space) is normalised (projected) at the working
 * precision; beyond it the state is refused: the rule of every system. */
#define CL_SYS_UNIT_TOL_LOG2 (-40)
#define CL_SYS_UNIT_TOL 0x1p-40 /* 2^CL_SYS_UNIT_TOL_LOG2 */

/* Normalise the unit vector u (d numbers) in place when |u| is within
 * CL_SYS_UNIT_TOL of 1; else u is left as it is and CL_ENOTUNIT returned
 * with the message "NAME is not a unit vector (|NAME| - 1 = ...)". */
static inline int cl_sys_unit_vector(mpfr_ptr u, size_t d, const char *name, char *err, size_t errlen)
{
    mpfr_t r, c;
    mpfr_inits2(mpfr_get_prec(u), r, c, (mpfr_ptr)0);
    mpfr_set_zero(r, 1);
    for (size_t i = 0; i < d; i++) mpfr_fma(r, u + i, u + i, r, MPFR_RNDN);
    mpfr_sqrt(r, r, MPFR_RNDN);
    mpfr_sub_ui(c, r, 1, MPFR_RNDN);
    int st = mpfr_zero_p(r) || !(fabs(mpfr_get_d(c, MPFR_RNDN)) <= CL_SYS_UNIT_TOL) ? CL_ENOTUNIT : CL_OK;
    if (st) snprintf(err, errlen, "%s is not a unit vector (|%s| - 1 = %.3g)", name, name, mpfr_get_d(c, MPFR_RNDN));
    else
        for (size_t i = 0; i < d; i++) mpfr_div(u + i, u + i, r, MPFR_RNDN);
    mpfr_clears(r, c, (mpfr_ptr)0);
    return st;
}

/* The end of a create hook: with st = 0 the instance is handed out through
 * *out, else it is released by destroy (which accepts a partly made one) and
 * st returned. */
static inline int cl_sys_create_end(void **out, void *inst, int st, void (*destroy)(void *))
{
    if (st) {
        destroy(inst);
        return st;
    }
    *out = inst;
    return CL_OK;
}
#endif

/*
 * What the papers' command-line systems (papers/KEY/KEY_systems.c) share
 * beyond the descriptor of system.h: the tolerance of every input state and
 * the end of every create hook. Internal: not installed.
 */
#ifndef CL_SYSTEM_IMPL_H
#define CL_SYSTEM_IMPL_H
#include "system.h"

/* A unit vector within this of |x| = 1 (and a velocity within it, relative to
 * its size, of the tangent space) is normalised (projected) at the working
 * precision; beyond it the state is refused: the rule of every system. */
#define CL_SYS_UNIT_TOL_LOG2 (-40)
#define CL_SYS_UNIT_TOL 0x1p-40 /* 2^CL_SYS_UNIT_TOL_LOG2 */

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

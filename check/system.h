/**
 * \file system.h
 * \brief Registry of the named systems the command line knows
 *        (`chartless rhs|simulate|... --system NAME`).
 *
 * A chapter makes a system available by filling a cl_system and calling
 * CL_SYSTEM_REGISTER(var) in an oracle/ source. The command line works in
 * MPFR at the precision the user asks for (`--bits`, default 53); states are
 * flat vectors of mpfr numbers in the order given by `state_help`.
 */
#ifndef CL_SYSTEM_H
#define CL_SYSTEM_H
#include <stddef.h>
#include "cl_types.h"

/** A named system: parameters, forms, vector fields and invariants. */
typedef struct cl_system {
    const char *name;         /**< e.g. "chain" */
    const char *summary;      /**< one line */
    const char *params_help;  /**< lines describing each --option, for --help */
    const char *state_help;   /**< the order of the state numbers, for --help */
    const char *const *forms; /**< NULL-terminated names; forms[0] is the default */
    /**
     * Make an instance from parameter options (keys without "--", values as
     * given on the command line) at precision \p prec. Unknown keys and bad
     * values are an error: return CL_EPARAM (or another CL_E code) with a
     * message "what (argument)" in \p err.
     */
    int (*create)(void **inst, int nopt, char *const *keys, char *const *vals,
                  cl_prec_t prec, char *err, size_t errlen);
    void (*destroy)(void *inst);
    /** Length of a state in form \p form (index into forms). */
    size_t (*dim)(void *inst, int form);
    /** Validate a state (unit q, tangent velocities...): 0 or CL_E code with message. */
    int (*check_state)(void *inst, int form, mpfr_srcptr x, char *err, size_t errlen);
    /** dx = vector field of form \p form at x (all at the instance precision). */
    int (*rhs)(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x);
    /** Invariant names, NULL-terminated (energy first), or NULL. */
    const char *const *invariant_names;
    /** out[k] = invariant k at state x of form \p form. */
    int (*invariants)(void *inst, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Optional: carry a state from form \p from to form \p to (NULL if not offered). */
    int (*convert)(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y);
    /** Optional: a seeded random valid state of form \p form (for grading and checks). */
    int (*random_state)(void *inst, int form, mpfr_ptr x, cl_rng *g);
    /**
     * Optional: equilibrium number \p k (0, 1, ...) in form \p form, its name in
     * \p name; CL_EDOMAIN when there is no equilibrium k.
     */
    int (*equilibrium)(void *inst, int k, int form, mpfr_ptr x, const char **name);
    /**
     * Optional: the name of state component \p i in form \p form, e.g. "pi2.y",
     * written to \p buf (used by the grader's per-component report).
     */
    void (*component_name)(void *inst, int form, size_t i, char *buf, size_t len);
    /** Optional: number n of unit vectors q_1..q_n leading the state (systems on (S²)ⁿ), else 0. */
    int (*sphere_count)(void *inst);
    /**
     * Optional: integrate from t = 0 to \p t1 with a Lie group method
     * ("lie-euler", "rkmk4", "cf4", "rkmk45"), x in place, calling \p out
     * after every step. Fixed step \p h (initial step for rkmk45, with
     * tolerances \p rtol, \p atol). Returns 0 or a CL_E code, with a message
     * in \p err.
     */
    int (*lie_simulate)(void *inst, int form, const char *method, mpfr_ptr x, mpfr_srcptr t1, mpfr_srcptr h,
                        mpfr_srcptr rtol, mpfr_srcptr atol, int (*out)(void *ctx, mpfr_srcptr t, mpfr_srcptr x),
                        void *ctx, char *err, size_t errlen);
} cl_system;

void cl_system_register(const cl_system *s);
/** Registered system by name, or NULL. */
const cl_system *cl_system_find(const char *name);
size_t cl_system_count(void);
const cl_system *cl_system_get(size_t i);
/** Index of \p form in s->forms, or −1. */
int cl_system_form_index(const cl_system *s, const char *form);

#define CL_SYSTEM_REGISTER(var) \
    static void __attribute__((constructor)) cl_system_reg_##var(void) { cl_system_register(&var); }
#endif

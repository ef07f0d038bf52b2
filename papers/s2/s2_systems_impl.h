/*
 * What the command-line systems on (S²)ⁿ share (papers/s2, and the chain
 * of papers/nfold): the instance's leading part and the hooks that need only
 * it (state length, loose validation of an input state, conversions between
 * the four forms, random states, component names), and the constraint
 * drift. Internal: not installed.
 */
#ifndef CL_S2_SYSTEMS_IMPL_H
#define CL_S2_SYSTEMS_IMPL_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "system_impl.h"
#include "s2_qdot.h"
#include "s2_chain.h"

static const char *const s2_forms[] __attribute__((unused)) = {"qdot", "omega", "mu", "pi", NULL};
static const char *const s2_vname[] __attribute__((unused)) = {"qdot", "w", "mu", "pi"};

/* Validate (q, v) on (S²)ⁿ loosely (CL_SYS_UNIT_TOL on |q_i| − 1 and on q_i·v_i relative to |v_i|), for messages. */
static inline int s2_check_input(size_t n, mpfr_srcptr x, char *err, size_t errlen)
{
    mpfr_t s, t;
    mpfr_init2(s, mpfr_get_prec(x));
    mpfr_init2(t, mpfr_get_prec(x));
    int st = CL_OK;
    for (size_t i = 0; i < n && !st; i++) {
        mpfr_srcptr q = x + 3 * i, v = x + 3 * (n + i);
        cl_v3_norm_mp(s, q);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        if (fabs(mpfr_get_d(s, MPFR_RNDN)) > CL_SYS_UNIT_TOL) {
            snprintf(err, errlen, "q%zu is not a unit vector (|q%zu| - 1 = %.3g)", i + 1, i + 1, mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTUNIT;
            break;
        }
        cl_v3_dot_mp(s, q, v);
        cl_v3_norm_mp(t, v);
        double rel = fabs(mpfr_get_d(s, MPFR_RNDN)) / fmax(1.0, mpfr_get_d(t, MPFR_RNDN));
        if (rel > CL_SYS_UNIT_TOL) {
            snprintf(err, errlen, "velocity %zu is not tangent to the sphere (q%zu . v%zu = %.3g)", i + 1, i + 1, i + 1,
                     mpfr_get_d(s, MPFR_RNDN));
            st = CL_ENOTTANGENT;
        }
    }
    mpfr_clear(s);
    mpfr_clear(t);
    return st;
}

static inline void s2_component_name(size_t n, int form, size_t i, char *buf, size_t len)
{
    static const char xyz[] = "xyz";
    if (i < 3 * n) snprintf(buf, len, "q%zu.%c", i / 3 + 1, xyz[i % 3]);
    else snprintf(buf, len, "%s%zu.%c", s2_vname[form], (i - 3 * n) / 3 + 1, xyz[i % 3]);
}

/* Invariants shared by systems on (S²)ⁿ: max |‖q_i‖ − 1| and max |q_i·v_i|. */
static inline void s2_constraint_drift(size_t n, mpfr_ptr out2, mpfr_srcptr x)
{
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(x));
    mpfr_set_zero(out2, 1);
    mpfr_set_zero(out2 + 1, 1);
    for (size_t i = 0; i < n; i++) {
        cl_v3_norm_mp(s, x + 3 * i);
        mpfr_sub_ui(s, s, 1, MPFR_RNDN);
        mpfr_abs(s, s, MPFR_RNDN);
        if (mpfr_cmp(s, out2) > 0) mpfr_set(out2, s, MPFR_RNDN);
        cl_v3_dot_mp(s, x + 3 * i, x + 3 * (n + i));
        mpfr_abs(s, s, MPFR_RNDN);
        if (mpfr_cmp(s, out2 + 1) > 0) mpfr_set(out2 + 1, s, MPFR_RNDN);
    }
    mpfr_clear(s);
}
/*
 * A chain pendulum [S2 V] of n links with its parameters kept at the working
 * precision in par: m (n), l (n), g from the parameters "m", "l", "g" (a
 * number each when n = 1), then \p extra numbers the system fills. 0 or a
 * CL_E code; release with s2_chain_part_free() (also after a failure).
 */
typedef struct s2_chain_part {
    cl_chain_mp *ch;
    mpfr_ptr par;
} s2_chain_part;

static inline int s2_chain_part_new(s2_chain_part *c, size_t n, const cl_params *p, size_t extra, cl_prec_t prec)
{
    c->par = cl_rvec_new_mp(2 * n + 1 + extra, prec);
    if (!c->par) return CL_ENOMEM;
    cl_rvec_copy_mp(c->par, cl_params_x(p, "m"), n);
    cl_rvec_copy_mp(c->par + n, cl_params_x(p, "l"), n);
    mpfr_set(c->par + 2 * n, cl_params_x(p, "g"), MPFR_RNDN);
    return cl_chain_new_mp(&c->ch, n, c->par, c->par + n, c->par + 2 * n, prec);
}

static inline void s2_chain_part_free(s2_chain_part *c)
{
    cl_chain_free_mp(c->ch);
    cl_rvec_free_mp(c->par);
}

/* ------------------------------------------------ the shared hooks */

/* The leading part of every instance of a system on (S²)ⁿ: the number of
 * unit vectors and the workspace of its quadratic Lagrangian [S2 (12)]. */
typedef struct s2n_inst {
    size_t n;
    cl_s2_quad_ws_mp *ws;
    /* when set, ws stays NULL until a hook needs it (its O(n²) matrices are
       then made by make_ws(inst)) */
    cl_s2_quad_ws_mp *(*make_ws)(void *inst);
} s2n_inst;

static inline size_t s2n_dim(void *inst, int form) { (void)form; return 6 * ((s2n_inst *)inst)->n; }

static inline int s2n_check_state(void *inst, int form, mpfr_ptr x, char *err, size_t errlen)
{
    (void)form;
    return s2_check_input(((s2n_inst *)inst)->n, x, err, errlen);
}

static inline int s2n_convert(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y)
{
    s2n_inst *s = inst;
    if (!s->ws && s->make_ws) s->ws = s->make_ws(inst);
    if (!s->ws) return CL_ENOMEM;
    return cl_s2_quad_convert_mp(s->ws, from, x, to, y);
}

static inline int s2n_random_state(void *inst, int form, mpfr_ptr x, cl_rng *g)
{
    size_t n = ((s2n_inst *)inst)->n;
    for (size_t i = 0; i < n; i++) {
        cl_v3_random_unit_mp(x + 3 * i, g);
        cl_v3_random_tangent_mp(x + 3 * (n + i), x + 3 * i, 1.0, g);
    }
    return form == CL_S2_QDOT ? CL_OK : s2n_convert(inst, CL_S2_QDOT, x, form, x);
}

static inline void s2n_component_name(void *inst, int form, size_t i, char *buf, size_t len)
{
    s2_component_name(((s2n_inst *)inst)->n, form, i, buf, len);
}

static inline int s2n_unit_vectors(void *inst) { return (int)((s2n_inst *)inst)->n; }

#define S2N_STATE_HELP                                                                                   \
    "q1 ... qn (unit vectors) then v1 ... vn, 3 numbers each; v is qdot, omega, mu or pi by --form.\n" \
    "q_i must be unit and v_i tangent (q_i . v_i = 0) to 2^-40; they are then normalized and\n"         \
    "projected at the working precision.\n"

/* The descriptor fields every system on (S²)ⁿ fills alike. */
#define S2N_HOOKS                                                                                         \
    .state_help = S2N_STATE_HELP, .forms = s2_forms, .dim = s2n_dim, .check_state = s2n_check_state,   \
    .convert = s2n_convert, .random_state = s2n_random_state, .component_name = s2n_component_name,    \
    .unit_vectors = s2n_unit_vectors
#endif

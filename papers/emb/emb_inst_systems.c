/* The instance of every EMB system of the command line (emb_systems.c: the
 * pendulums and the subspace; emb_top_systems.c: the tops) and the hooks
 * written once for all kinds: create's allocation and end, destroy, the
 * length of a state and the names of its components in each form. Compiled
 * in MPFR only. */
#include <stdio.h>
#include <stdlib.h>
#include "emb_inst_systems_impl.h"
#include "emb_impl.h"

#if CL_PREC == CL_MPFR

/* A rejected state: the command line names the state after the message. */
int emb_sys_fail(char *err, size_t errlen, int code, const char *what)
{
    snprintf(err, errlen, "%s", what);
    return code;
}

void emb_inst_destroy(void *p)
{
    emb_inst *in = p;
    if (!in) return;
    CL_FN(cl_emb_pendulum_free)(in->pend);
    CL_FN(cl_emb_subspace_free)(in->sub);
    CL_FN(cl_emb_top_free)(in->top);
    CL_FN(cl_emb_work_free)(in->work);
    CL_FN(cl_rvec_free)(in->tmp);
    CL_FN(cl_rvec_free)(in->eq);
    free(in);
}

/* The end of every create: a workspace for the model just filled, then the
 * instance handed out, or released when anything failed (st). */
int emb_inst_finish(emb_inst *in, int st, void **out)
{
    if (!st) st = CL_FN(cl_emb_work_new)(&in->work, in->model.n, in->prec);
    return cl_sys_create_end(out, in, st, emb_inst_destroy);
}

/* Names of the state components: position then velocity (or momentum), by kind and form;
 * R row by row (R11 ... R33) for the tops, with W1 W2 W3 the body angular velocity Omega. */
void emb_inst_component_name(void *p, int form, size_t i, char *buf, size_t len)
{
    emb_inst *in = p;
    if (in->top && form == 3) {
        snprintf(buf, len, "%s%zu", i < 3 ? "Pi" : "Gamma", i % 3 + 1);
        return;
    }
    if (in->top) {
        size_t j = i < 9 ? i : i - 9;
        if (i < 9) snprintf(buf, len, "R%zu%zu", j / 3 + 1, j % 3 + 1);
        else if (form == 0) snprintf(buf, len, "W%zu", j + 1);
        else snprintf(buf, len, "%s%zu%zu", form == 1 ? "Rdot" : "mu", j / 3 + 1, j % 3 + 1);
        return;
    }
    if (in->kind == K_CIRCLE && form == 2) {
        snprintf(buf, len, "%s", i ? "thetadot" : "theta");
        return;
    }
    size_t d = in->pend ? (in->kind == K_CIRCLE ? 2 : 3) : form == 2 ? in->k : in->n;
    static const char *const pos[] = {"x", "x", "q"}, *const vel[] = {"xdot", "mu", "qdot"};
    snprintf(buf, len, "%s%zu", i < d ? pos[form] : vel[form], i % d + 1);
}

/* Length of a state of each kind in each form: the pendulums' (x, v) and the circle's angle,
 * the tops' (R, Omega), (R, Rdot), (R, mu) and reduced form (Pi, or Pi and Gamma), and the
 * subspace's (x, xdot), (x, mu) in R^n and reduced coordinates in R^k. */
size_t emb_inst_dim(void *p, int form)
{
    static const size_t len[][4] = {[K_CIRCLE] = {4, 4, 2}, [K_SPHERE] = {6, 6}, [K_RIGID] = {12, 18, 18, 3},
                                    [K_HEAVY] = {12, 18, 18, 6}};
    emb_inst *in = p;
    if (in->kind == K_SUBSPACE) return form == 2 ? 2 * in->k : 2 * in->n;
    return len[in->kind][form];
}

emb_inst *emb_inst_alloc(int kind, cl_prec_t prec)
{
    emb_inst *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    in->kind = kind;
    in->prec = prec;
    in->tmp = CL_FN(cl_rvec_new)(64, prec);
    if (!in->tmp) { free(in); return NULL; }
    return in;
}

#endif

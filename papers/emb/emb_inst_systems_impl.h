/*
 * What the EMB systems of the command line (emb_systems.c: the pendulums and
 * the subspace; emb_top_systems.c: the free and the heavy top) share, from
 * emb_inst_systems.c beneath them: the instance of every kind, its create
 * and finish, and the hooks written once for all kinds. Compiled in MPFR
 * only. Internal (not installed).
 */
#ifndef EMB_INST_SYSTEMS_IMPL_H
#define EMB_INST_SYSTEMS_IMPL_H
#include "system_impl.h"
#include "emb_subspace.h"
#include "emb_sphere.h"
#include "emb_so3.h"

enum { K_SUBSPACE, K_CIRCLE, K_SPHERE, K_RIGID, K_HEAVY };

typedef struct emb_inst {
    int kind;
    cl_prec_t prec;
    size_t n, k;                       /* subspace: dimension and reduced dimension */
    CL_FN(cl_emb_pendulum) *pend;
    CL_FN(cl_emb_subspace) *sub;
    CL_FN(cl_emb_top) *top;
    CL_FN(cl_emb_model) model;
    CL_FN(cl_emb_work) *work;
    rptr tmp;                          /* 64 scratch scalars */
    rptr eq;                           /* tops: axis of the centre of mass (unit, 3), omega, m g l, l */
    char eqname[2][160];               /* heavy top: names of the equilibria, with the fast-top criterion */
} emb_inst;

/* States read from decimal input are on the manifold only to the digits
 * given; constraints are checked to this absolute tolerance. */
#define STATE_TOL 1e-12

/* A system's create hook for one kind: the create of its family with the kind fixed. */
#define KIND_CREATE(name, family, kind)                                                              \
    static int name##_create(void **out, const cl_params *p, cl_prec_t prec, cl_sys_error *e)       \
    {                                                                                                \
        return family##_create(out, kind, p, prec, e);                                               \
    }

/* A rejected state: the command line names the state after the message. */
int emb_sys_fail(char *err, size_t errlen, int code, const char *what);
/* A zeroed instance of \p kind with its 64 scratch scalars, or NULL. */
emb_inst *emb_inst_alloc(int kind, cl_prec_t prec);
/* The end of every create: a workspace for the model just filled, then the
 * instance handed out, or released when anything failed (st). */
int emb_inst_finish(emb_inst *in, int st, void **out);
/* The hooks of every kind (cl_system): destroy, dim, component_name. */
void emb_inst_destroy(void *p);
size_t emb_inst_dim(void *p, int form);
void emb_inst_component_name(void *p, int form, size_t i, char *buf, size_t len);

#endif

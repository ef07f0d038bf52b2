/*
 * Internal to lagr_prod.c, lagr_prod_kinds.c, lagr_prod_state.c and ham_prod.c
 * (templated, never installed): the layout of a product's Lagrangian engine,
 * the slots of its factors and their kinds, the core both the Lagrangian and
 * the Hamiltonian of a product are set up with, and the steps the state
 * cleaning shares with the equations.
 */
#ifndef CL_LAGR_PROD_ENGINE_IMPL_H
#define CL_LAGR_PROD_ENGINE_IMPL_H
#include "lagr_core_impl.h"
#include "lagr_prod.h"
#include "lagr_prod_impl.h"

typedef struct kind_ops {
    size_t nq, nv; /* 0: k of an Rᵏ factor */
    int unit;      /* 1: a unit vector (S²), whose multiplier the projection removes */
    void (*rate)(rptr qd, rsrc q, rsrc u, size_t nq);
    void (*general)(rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, size_t nv);
    int se3_force; /* 1: the second half of F is a force in space */
    int rotation;  /* 1: the configuration begins with a rotation R */
} kind_ops;

/* Where a factor's numbers stand: configuration q[q .. q + nq), velocity u[v .. v + nv). */
typedef struct slot {
    const struct kind_ops *ops;
    size_t q, v, nq, nv;
} slot;

struct CL_FN(cl_lagr_prod) {
    CL_FN(cl_lagr_core) core; /* inputs q (nq), u (nv), t, parameters; M = P L_uu P + QQᵀ */
    size_t nf, nq, nv;
    slot *f;
    rptr q, u, qd, ud, r, w; /* the state (q, u), q̇, u̇, and two velocity-sized vectors */
    size_t nc;               /* constraints c_i(q, u) = A_i(q)u + a_i(q) (cl_lagr_prod_set_constraints()) */
    int *con, *hol, *cont, *kperm; /* their nodes, the holonomic h_i or −1, ∂c_i/∂t or −1, the pivots of K */
    rptr cblock, A, b, K, y, lam, cg; /* rows A (nc × nv), b = ∂c/∂q q̇, the bordered K, its right side y, λ, ∇c */
    size_t nr;                        /* velocity rows of the distribution form: nc, then one per S² block */
    CL_FN(cl_lagr_dist) *dist;        /* its basis (lagr_prod_dist.c) */
    rptr dblock, W, rho, Mn;          /* the rows W (nr × nv), their values or right sides, the tangent M */
};

/* The slots of the factors; 0, or −1 for an unknown factor or a product too large (lagr_prod_kinds.c). */
int CL_FN(cl_lagr_prod_place)(slot *s, const cl_lagr_factor *f, size_t nf, size_t *nq, size_t *nv);
/*
 * The core (lagr_core_impl.h) of an object of \p size bytes over node \p L of \p g on the product of the
 * \p nf factors \p f: inputs q (nq), the velocities or momenta (nv), t (differentiated when L depends
 * on it), \p nparam parameters; \p scratch[0] nq + \p scratch[1] nv numbers of scratch. The factors'
 * slots into *\p slots (the caller frees them). 0, CL_EDIM (no factor, too many, an unknown factor or
 * a product too large), or as cl_lagr_core_new(); on error nothing is left allocated.
 */
int CL_FN(cl_lagr_prod_core_new)(CL_FN(cl_lagr_core) **out, slot **slots, size_t size, const cl_expr_dag *g, int L,
                                 const cl_lagr_factor *f, size_t nf, size_t nparam, const size_t scratch[2], cl_prec_t prec);
/* v ← (I − qqᵀ/|q|²)v on the 3 numbers at v, with stride \p st (lagr_prod_kinds.c). */
void CL_FN(cl_lagr_prod_project3)(rptr v, rsrc q, size_t st);
/* Every factor's q̇ into qd and G + F into G (slots \p s of \p nf factors; lagr_prod_kinds.c). */
void CL_FN(cl_lagr_prod_factor_terms)(const slot *s, size_t nf, rptr qd, rptr G, rsrc q, rsrc u, rsrc Lq, rsrc Lu, rsrc F);
/* (q, u) into lg->q, lg->u from a state of form \p form. */
int CL_FN(cl_lagr_prod_load)(CL_FN(cl_lagr_prod) *lg, int form, rsrc x);
#endif

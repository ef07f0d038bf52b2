/**
 * \file lagr_core_impl.h
 * \brief Internal to lagr_flat.c, lagr_s2.c and lagr_so3.c (templated, never
 *        installed): what a Lagrangian given as an expression graph needs
 *        whatever its manifold — the evaluator and its inputs, the gradient
 *        and the velocity rows of the Hessian, the value of a node and the
 *        energy, and the Newton iteration that inverts the Legendre map.
 *
 * The inputs of L are the configuration q (nq numbers), the velocity v (nv
 * numbers: q̇, or Ω on SO(3)), nt more (the time t on (S²)ⁿ), then the
 * parameters. The first nq + nv + ndiff are differentiated. Each Lagrangian
 * object embeds one cl_lagr_core as its first member. See lagr_core.c.
 */
#ifndef CL_LAGR_CORE_IMPL_H
#define CL_LAGR_CORE_IMPL_H
#include "expr.h"
#include "scalar.h"

/** Where the inputs of L stand (numbers of each kind, in this order). */
typedef struct cl_lagr_layout {
    size_t nq;     /**< the configuration q */
    size_t nv;     /**< the velocity v */
    size_t nt;     /**< inputs after v and before the parameters (the time) */
    size_t ndiff;  /**< of those nt, how many are differentiated */
    size_t nparam; /**< the parameters */
} cl_lagr_layout;

typedef struct CL_FN(cl_lagr_core) CL_FN(cl_lagr_core);

/** A Lagrangian node of an expression graph with its evaluator and storage. */
struct CL_FN(cl_lagr_core) {
    const cl_expr_dag *g;
    int L;
    int upto;             /**< the last node a run for derivatives evaluates: L, or a node after it */
    cl_lagr_layout lay;
    size_t nin;           /**< inputs differentiated, nq + nv + ndiff */
    cl_prec_t prec;
    CL_FN(cl_expr_eval) *ev;
    rptr block;
    rptr in;      /**< q, v, the nt others, parameters */
    rptr grad;    /**< ∂L/∂x_b, b < nin */
    rptr H;       /**< rows ∂²L/∂x_a∂x_b, nq ≤ a < nin, b < nin: (nin − nq) × nin */
    rptr M;       /**< the nv × nv matrix of the accelerations and of the Newton step, factored */
    rptr step;    /**< the Newton step (nv) */
    rptr vlast;   /**< the last accepted Newton iterate (nv) */
    rptr res;     /**< the Legendre residual p − momentum(q, v) at the iterate (nv) */
    rptr scratch; /**< the owner's numbers, as many as it asked for */
    int *perm;
    int *force;   /**< a node per velocity: the generalized force on it (−1: none), or NULL */
    int bad;
    /**
     * M from the last cl_lagr_core_derivs() at configuration q, factored;
     * NULL: the velocity Hessian L_vv (cl_lagr_core_factor()).
     */
    int (*matrix)(CL_FN(cl_lagr_core) *c, rsrc q);
    /** The momentum the Legendre map gives from the last gradient, at q; NULL: ∂L/∂v. */
    void (*momentum)(CL_FN(cl_lagr_core) *c, rptr out, rsrc q);
};

/**
 * A new object of \p size bytes, zeroed, whose first member is a
 * cl_lagr_core set up for node \p L of \p g with the inputs of \p lay at
 * precision \p prec, and \p nscratch numbers for the owner (c->scratch),
 * into \p *out (the owner casts it to its own type). Returns CL_OK, or with
 * \p *out NULL and nothing left allocated: CL_EDIM (L is not a node of g),
 * CL_ENOMEM, or the status of cl_expr_eval_new() (CL_EPREC: \p prec out of
 * range; CL_EPARSE, CL_ENAN: a constant of the graph cannot be read).
 */
int CL_FN(cl_lagr_core_new)(CL_FN(cl_lagr_core) **out, size_t size, const cl_expr_dag *g, int L, const cl_lagr_layout *lay,
                           size_t nscratch, cl_prec_t prec);
/** Release an object of cl_lagr_core_new() through its core \p c (NULL allowed). */
void CL_FN(cl_lagr_core_free)(CL_FN(cl_lagr_core) *c);
/**
 * Generalized forces: \p force holds a node of the graph per velocity (−1:
 * none), evaluated with L (c->upto moves past them). Returns 0, CL_ENOMEM or
 * CL_EDIM (a node not in the graph).
 */
int CL_FN(cl_lagr_core_set_forces)(CL_FN(cl_lagr_core) *c, const int *force);
/** Set parameter \p k to \p v (ignored when k is not a parameter). */
void CL_FN(cl_lagr_core_set_param)(CL_FN(cl_lagr_core) *c, size_t k, rsrc v);

/** Run the graph at (q, v) up to node \p upto (order 0: values, 2: local partials). */
int CL_FN(cl_lagr_core_run)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v, int upto, int order);
/** The gradient ∂L/∂x at (q, v) into c->grad. */
int CL_FN(cl_lagr_core_gradient)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v);
/** The gradient and the velocity rows of the Hessian of L at (q, v) into c->grad and c->H (the graph run up to c->upto). */
int CL_FN(cl_lagr_core_derivs)(CL_FN(cl_lagr_core) *c, rsrc q, rsrc v);
/** M = L_vv, the velocity block of c->H, factored (after cl_lagr_core_derivs()). */
int CL_FN(cl_lagr_core_factor)(CL_FN(cl_lagr_core) *c);

/**
 * \brief r ← r − L_vq q̇ for the velocity rows of the Hessian:
 * \f[ r_a \leftarrow r_a - \sum_b \frac{\partial^2 L}{\partial v_a\,\partial q_b}\,\dot q_b , \f]
 * \p qdot of nq numbers (the rate of the configuration).
 */
void CL_FN(cl_lagr_core_sub_mixed)(const CL_FN(cl_lagr_core) *c, rptr r, rsrc qdot);

/**
 * \brief v with momentum(q, v) = \p p by damped Newton's method from v = 0,
 *        with the matrix c->matrix (L_vv when NULL).
 *
 * \f[ v \leftarrow v + \alpha M^{-1}\big(p - \mathrm{momentum}(q, v)\big) , \f]
 * α = 1, or halved until L is defined at the new v and the residual's
 * largest entry does not grow (a line search that stays inside the domain
 * of L: a relativistic particle's Newton step from v = 0 leaves |v| < c).
 * Once a full step is below 2^(−prec/2)‖v‖ the next error is of the order
 * of its square, so that step is the last; a quadratic L converges in one
 * step and confirms in a second. Returns 0, CL_ESINGULAR, CL_EDOMAIN (L
 * undefined at v = 0) or CL_ENOCONV.
 */
int CL_FN(cl_lagr_core_legendre_inverse)(CL_FN(cl_lagr_core) *c, rptr v, rsrc q, rsrc p);

/**
 * Node \p id at (q, v) into \p out, or for \p id < 0 the energy
 * \f[ E = v\cdot\frac{\partial L}{\partial v} - L . \f]
 */
int CL_FN(cl_lagr_core_value)(CL_FN(cl_lagr_core) *c, int id, rptr out, rsrc q, rsrc v);
#endif

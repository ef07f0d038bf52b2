/* Templated prototypes of expr_eval.c: values and exact derivatives of an
 * expression graph at one precision, in each of the three scalar kinds.
 *
 * On Arb balls (the `_arb` copy, cl_expr_eval_new_arb() and the rest) the
 * precision argument is ignored (the thread's, cl_arb_set_prec()), the
 * constants are balls containing their exact decimal values, and every node
 * value, gradient, Hessian and tangent is a ball that encloses the exact
 * value at every point of the input balls. A division whose divisor ball
 * contains 0, a log whose argument ball is not proven positive, a sqrt whose
 * argument is neither proven positive nor (values only) the exact 0, and a
 * ball that is not finite are CL_EDOMAIN naming the node
 * (cl_expr_eval_bad_arb()): never a wrong ball.
 */

#if CL_T == CL_DOUBLE
#ifndef CL_EXPR_TYPES_D
#define CL_EXPR_TYPES_D
typedef struct cl_expr_eval_d cl_expr_eval_d;
#endif
#elif CL_T == CL_MPFR
#ifndef CL_EXPR_TYPES_MP
#define CL_EXPR_TYPES_MP
typedef struct cl_expr_eval_mp cl_expr_eval_mp;
#endif
#else
#ifndef CL_EXPR_TYPES_ARB
#define CL_EXPR_TYPES_ARB
typedef struct cl_expr_eval_arb cl_expr_eval_arb;
#endif
#endif

/**
 * An evaluator of graph \p g at precision \p prec (ignored by `_d`): the
 * constants are read once from their decimal strings at that precision
 * (never through a double), and every later call runs in the evaluator's
 * own storage (nothing is allocated). The graph must not grow afterwards.
 * Returns CL_OK with the evaluator in \p *out, or, with \p *out NULL and
 * nothing left allocated: CL_EPREC (\p prec out of range, MPFR),
 * CL_ENOMEM, or the status of cl_real_from_str() for a constant that cannot
 * be read (CL_EPARSE, CL_ENAN).
 */
int CL_FN(cl_expr_eval_new)(CL_FN(cl_expr_eval) **out, const cl_expr_dag *g, cl_prec_t prec);
/** Release an evaluator (NULL allowed). */
void CL_FN(cl_expr_eval_free)(CL_FN(cl_expr_eval) *ev);

/**
 * Evaluate every node up to and including node \p upto at the inputs \p x
 * (at least cl_expr_dag_ninputs() numbers). With \p order 2 the local
 * first and second partial derivatives of every node are kept for
 * cl_expr_eval_hessian() and cl_expr_eval_gradient().
 * Returns 0, or CL_EDOMAIN when an operation leaves its domain (division
 * by zero, log or sqrt of a negative number, a derivative that is
 * infinite, such as that of sqrt at 0, or a result that is not finite;
 * on balls also an argument ball that touches the domain's edge);
 * cl_expr_eval_bad() then names the node.
 */
int CL_FN(cl_expr_eval_run)(CL_FN(cl_expr_eval) *ev, cl_rsrc x, int upto, int order);
/** The node at which the last cl_expr_eval_run() failed, or −1. */
int CL_FN(cl_expr_eval_bad)(const CL_FN(cl_expr_eval) *ev);
/** Value of node \p id after cl_expr_eval_run(). */
cl_rsrc CL_FN(cl_expr_eval_value)(const CL_FN(cl_expr_eval) *ev, int id);

/**
 * \brief Gradient of node \p root by one reverse sweep (after a run with
 *        order 2): grad[k] = ∂root/∂x_k for k < \p nin.
 * \f[ \bar v_c \mathrel{+}= \bar v_i\,\frac{\partial\varphi_i}{\partial v_c} \f]
 */
void CL_FN(cl_expr_eval_gradient)(CL_FN(cl_expr_eval) *ev, int root, cl_rptr grad, int nin);

/**
 * \brief Gradient and Hessian of node \p root in the first \p nin inputs
 *        (after a run with order 2), by forward-over-reverse differentiation:
 *        one forward tangent sweep and one reverse sweep per Hessian row.
 *
 * grad[k] = ∂root/∂x_k (k < nin) and, for the rows \p row0 ≤ j < nin,
 * H[(j − row0)·nin + k] = ∂²root/∂x_j∂x_k, exact up to the rounding of the
 * sweeps. For direction j, with tangents v̇ (v̇ of x_k is
 * δ_jk), adjoints v̄ and their tangents:
 * \f[ \dot{\bar v}_c \mathrel{+}= \dot{\bar v}_i\,\partial_c\varphi_i
 *     + \bar v_i\sum_d \partial_c\partial_d\varphi_i\,\dot v_d . \f]
 */
void CL_FN(cl_expr_eval_hessian)(CL_FN(cl_expr_eval) *ev, int root, cl_rptr grad, cl_rptr H, int nin, int row0);

/**
 * \brief The derivative ∂root/∂x_\p j by one forward tangent sweep (after
 *        a run with order 2), into \p out:
 * \f[ \dot v_i = \partial_a\varphi_i\,\dot v_a + \partial_b\varphi_i\,\dot v_b ,
 *     \qquad \dot x_k = \delta_{jk} . \f]
 */
void CL_FN(cl_expr_eval_tangent)(CL_FN(cl_expr_eval) *ev, int root, int j, cl_rptr out);

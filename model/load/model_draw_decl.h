/* Templated prototypes of model_draw.c: the random states of a model's rows drawn inside the domain of its formulas. */

#if CL_T == CL_DOUBLE
#ifndef CL_MODEL_DRAW_TYPES_D
#define CL_MODEL_DRAW_TYPES_D
typedef struct cl_model_domain_d cl_model_domain_d;
#endif
#else
#ifndef CL_MODEL_DRAW_TYPES_MP
#define CL_MODEL_DRAW_TYPES_MP
typedef struct cl_model_domain_mp cl_model_domain_mp;
#endif
#endif

/** The model's parameter values (its defaults, or --param) at the precision of \p v, in table order. */
int CL_FN(cl_model_param_values)(const cl_model *m, cl_rptr v);
/**
 * How a kind draws a state of form 0 (the layout of the model's graph: the
 * configuration, then the velocities or momenta) and evaluates its field
 * there: \p draw a random state (and its time, by
 * cl_model_domain_set_time()), \p field the field of form 0 (its engine's
 * status: CL_ESINGULAR where the velocity Hessian is singular), \p bad_node
 * the node at which the field left its domain (or −1).
 */
typedef struct CL_FN(cl_model_drawer) {
    int (*draw)(void *ctx, cl_rptr x, cl_rng *g);
    int (*field)(void *ctx, cl_rptr dx, cl_rsrc x);
    int (*bad_node)(void *ctx);
    const char *singular; /**< what CL_ESINGULAR means for this kind */
    void *ctx;
} CL_FN(cl_model_drawer);

/**
 * The domain of the formulas of \p m at \p prec (ignored in double): an
 * evaluator of the model's graph over every node the rows evaluate — L
 * (or H) with its first and second derivatives, the forces, the
 * invariants, the constraints — with the parameters' defaults (or
 * --param) and t = 0. CL_OK, CL_ENOMEM, or the evaluator's status.
 */
int CL_FN(cl_model_domain_new)(CL_FN(cl_model_domain) **out, const cl_model *m, cl_prec_t prec);
void CL_FN(cl_model_domain_free)(CL_FN(cl_model_domain) *d);
/** Parameter \p k (model order) of the evaluations that follow. */
void CL_FN(cl_model_domain_set_param)(CL_FN(cl_model_domain) *d, size_t k, cl_rsrc v);
/** The time t of the evaluations that follow (nothing for a kind without t). */
void CL_FN(cl_model_domain_set_time)(CL_FN(cl_model_domain) *d, cl_rsrc t);
/**
 * 0 when every formula of the model the rows evaluate, and its first and
 * second derivatives, are defined and finite at the state \p x of form 0;
 * else CL_EDOMAIN, the node recorded for cl_model_domain_why().
 */
int CL_FN(cl_model_domain_at)(CL_FN(cl_model_domain) *d, cl_rsrc x);
/**
 * A random state of form 0 inside the domain into \p x (\p dx: room for
 * the field): a draw of \p k whose velocities are then halved (up to 24
 * times) until the formulas (cl_model_domain_at()) and the field (\p
 * k->field: finite, the velocity Hessian regular) are defined both at the
 * state and at the state with twice its velocities (a margin for the rows'
 * differences and Newton steps; a relativistic particle's |x'| < c); a
 * state where that fails is drawn again, up to CL_MODEL_DRAW_TRIES draws
 * (the first that is inside, so a model defined everywhere keeps its
 * random stream). When none is, CL_EUNDEFINED, and cl_check_undefined()
 * names the subexpression that left its domain (or why the field is
 * not defined). Every state drawn again counts in
 * cl_model_domain_note().
 */
int CL_FN(cl_model_domain_draw)(CL_FN(cl_model_domain) *d, const CL_FN(cl_model_drawer) *k, cl_rptr x, cl_rptr dx, cl_rng *g);
/** Count a state at which a row's own computation left the domain (st: its status), so that the row draws another. */
void CL_FN(cl_model_domain_reject)(CL_FN(cl_model_domain) *d, int st);
/** 1 while a row may draw another state after those refused (fewer than CL_MODEL_DRAW_TRIES drawn again). */
int CL_FN(cl_model_domain_more)(const CL_FN(cl_model_domain) *d);
/**
 * After a row's states: CL_OK when it measured at least one; else
 * CL_EUNDEFINED with the reason given to cl_check_undefined(). The draws
 * and the states drawn again are appended to \p res's note.
 */
int CL_FN(cl_model_domain_done)(CL_FN(cl_model_domain) *d, cl_check_result *res, int measured);

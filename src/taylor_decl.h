/* Templated prototypes of taylor.c and taylor_drive.c (taylor.h). */
#ifndef CL_TAYLOR_COMMON_DECLARED
#define CL_TAYLOR_COMMON_DECLARED
/**
 * The order of the Taylor method for a tolerance 2^\p log2tol, as heyoka
 * chooses it: \f$p = \lceil -\ln(\mathrm{tol})/2 + 1 \rceil\f$ (at least 2;
 * 20 for 2^−53, 41 for 2^−113, 90 for 2^−256, 356 for 2^−1024).
 */
int cl_taylor_order_for_tol(double log2tol);
#endif

#if CL_T == CL_DOUBLE
#ifndef CL_TAYLOR_TYPES_D
#define CL_TAYLOR_TYPES_D
typedef struct cl_taylor_d cl_taylor_d;
#endif
#elif CL_T == CL_MPFR
#ifndef CL_TAYLOR_TYPES_MP
#define CL_TAYLOR_TYPES_MP
typedef struct cl_taylor_mp cl_taylor_mp;
#endif
#else
#ifndef CL_TAYLOR_TYPES_ARB
#define CL_TAYLOR_TYPES_ARB
typedef struct cl_taylor_arb cl_taylor_arb;
#endif
#endif

/**
 * \brief A Taylor integrator of order \p order for the field of graph \p g.
 *
 * \p nodes holds the n output ids of the field, then \p nextra ids of
 * other nodes whose polynomials are wanted (cl_taylor_poly()). The inputs
 * 0..n−1 are the state, \p tin the time (−1: the field does not depend on
 * time); the graph must have no other input. Only the nodes the outputs
 * and extras depend on are worked on; constants are read once from their
 * decimal strings at precision \p prec. Everything the stepper needs is
 * allocated here: (order + 1) coefficients per node and per auxiliary
 * series (the cos beside a sin whose cos is not a node, 1 + tan², x² + y²
 * of atan2, the powers below a whole power). The graph must not change
 * while the integrator lives.
 * Returns 0, CL_EDIM (n = 0, an input out of range), CL_EPARAM (order out
 * of 2..CL_TAYLOR_MAX_ORDER, a node id out of range), CL_EPREC, CL_EPARSE
 * (a constant unreadable) or CL_ENOMEM; *\p ws is NULL on error.
 */
int CL_FN(cl_taylor_new)(CL_FN(cl_taylor) **ws, const cl_expr_dag *g, const int *nodes, size_t n, size_t nextra,
                         long tin, int order, cl_prec_t prec);
/** Release an integrator (NULL allowed). */
void CL_FN(cl_taylor_free)(CL_FN(cl_taylor) *ws);
/** The order p. */
int CL_FN(cl_taylor_order)(const CL_FN(cl_taylor) *ws);
/** The dimension n. */
size_t CL_FN(cl_taylor_dim)(const CL_FN(cl_taylor) *ws);

/**
 * The coefficients of orders 0..p of every node at (t, x). Returns 0,
 * CL_EDOMAIN (an operation outside its domain at the point: division by
 * zero, log or sqrt of a number ≤ 0, a negative power of 0, atan2(0, 0))
 * or CL_ENAN (a coefficient not finite).
 */
int CL_FN(cl_taylor_expand)(CL_FN(cl_taylor) *ws, cl_rsrc t, cl_rsrc x);
/**
 * cl_taylor_expand() to order \p order (1..p) only: coefficients 0..order,
 * the higher ones left as they were. Returns its codes, or CL_EPARAM (order
 * out of range).
 */
int CL_FN(cl_taylor_expand_to)(CL_FN(cl_taylor) *ws, cl_rsrc t, cl_rsrc x, int order);
/** Coefficient \p k (0..p) of item \p i of the last expansion: i < n the state x_i, n ≤ i < n + nextra the extras. */
cl_rsrc CL_FN(cl_taylor_coef)(const CL_FN(cl_taylor) *ws, size_t i, int k);

/**
 * \brief The step of the last expansion for tolerance \p tol (Jorba–Zou,
 *        as heyoka): \f$h = \rho\, e^{-2} e^{-0.7/(p-1)}\f$,
 *        \f$\rho = \min_{m \in \{p-1, p\}} (N / \max_i |x_{i,m}|)^{1/m}\f$
 *        with N = 1 while max_i |x_i| ≤ 1 (absolute) and N = max_i |x_i|
 *        above (relative).
 *
 * The tolerance enters through the order only (cl_taylor_order_for_tol()).
 * A field whose last two coefficients are all 0 (a polynomial motion of
 * degree < p − 1) gives h = +inf: the caller caps it. Writes h ≥ 0.
 */
void CL_FN(cl_taylor_step_size)(const CL_FN(cl_taylor) *ws, cl_rptr h);

/** The polynomial of item \p i (see cl_taylor_coef()) at offset \p s from the expansion point, into \p out (Horner). */
void CL_FN(cl_taylor_poly)(const CL_FN(cl_taylor) *ws, size_t i, cl_rsrc s, cl_rptr out);
/** The state at offset \p s from the expansion point (dense output: n polynomials) into \p x. */
void CL_FN(cl_taylor_dense)(const CL_FN(cl_taylor) *ws, cl_rsrc s, cl_rptr x);

/**
 * \brief One step from (*t, x): expand, take the Jorba–Zou step capped at
 *        |\p hmax| in the direction of \p hmax (or exactly \p hmax when
 *        \p fixed is 1), and advance *t and x; the step taken in \p h.
 *
 * The expansion stays for cl_taylor_poly() and cl_taylor_dense() on
 * [0, h]. Nothing is allocated. Returns 0, the errors of
 * cl_taylor_expand(), or CL_ENAN (a non-finite step or state).
 */
int CL_FN(cl_taylor_step)(CL_FN(cl_taylor) *ws, cl_rptr t, cl_rptr x, cl_rsrc hmax, int fixed, cl_rptr h);

#if CL_T != CL_ARB /* balls: the coefficients and the polynomials only (the validated step is enclose.h's) */
/**
 * \brief The first zero in (0, \p h] of the polynomial of extra \p e
 *        (item n + e) of the last expansion, with a sign change in
 *        \p direction (CL_ODE_EVENT_RISING 1, _FALLING −1 or _ANY 0).
 *
 * The polynomial's signs at s = 0 and s = h decide whether the step holds
 * a crossing (a zero that comes back within the step is not seen); the
 * zero is then located by Newton's method on the polynomial safeguarded
 * by bisection, until the bracket is at most 4·2^(−prec)·max(|t0|, |t0 + h|)
 * long (\p t0 the time of the expansion), as cl_ode_integrate() does.
 * \p s receives the end of the final bracket on the far side of the
 * crossing (the polynomial has there the sign after it, or is 0), so that
 * integration resumed from it does not find the same zero. Returns 1 when
 * a zero was found, 0 when none.
 */
int CL_FN(cl_taylor_event)(const CL_FN(cl_taylor) *ws, size_t e, int direction, cl_rsrc t0, cl_rsrc h, cl_rptr s);

/**
 * \brief Integrate from (*t, x) to \p t1 with Jorba–Zou steps, the last one
 *        shortened to land on t1.
 *
 * \p obs (may be NULL) is called at the start and after every step, as by
 * cl_ode_integrate(). With \p event ≥ 0 the run stops at the first zero of
 * extra \p event in \p direction (cl_taylor_event()): (*t, x) is then the
 * event point, from the step's polynomials. At most \p max_steps steps
 * (≤ 0: 10^9). \p stats (may be NULL) receives the steps and the
 * expansions (as rhs_evals). The run starts from the working precision at
 * every order, as on a new workspace, so that its result does not depend
 * on earlier runs on \p ws.
 * Returns 0 at t1 (*t = t1 exactly), CL_ODE_EVENT, CL_ODE_STOPPED, CL_ENAN,
 * CL_EDOMAIN, CL_ESTEP (a step that does not move t), CL_ENOCONV (more than
 * max_steps), CL_ETIME (the thread's CPU budget), or the observer's error.
 */
int CL_FN(cl_taylor_integrate)(CL_FN(cl_taylor) *ws, cl_rptr t, cl_rptr x, cl_rsrc t1, long max_steps,
                               CL_FN(cl_ode_observer) obs, void *octx, long event, int direction, cl_ode_stats *stats);
#endif

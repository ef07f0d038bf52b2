/*
 * Templated prototypes of ode.c and ode_drive.c (ODE integrators at the working precision);
 * included once per scalar kind through ode.h or chartless.h. The
 * precision-independent part (method names, statistics, event directions)
 * is guarded so that it is declared only once.
 */
#ifndef CL_ODE_COMMON_DECLARED
#define CL_ODE_COMMON_DECLARED

/** \name ODE integration methods (cl_ode_ws_new()). */
/**@{*/
typedef enum cl_ode_method {
    CL_ODE_RK4 = 1, /**< classical Runge–Kutta, order 4, fixed step */
    CL_ODE_RKF78,   /**< Fehlberg 7(8), 13 stages; propagates the order-8 solution; adaptive by default */
    CL_ODE_GAUSS,   /**< implicit Gauss–Legendre collocation, s stages, order 2s, symplectic; fixed step */
    CL_ODE_GBS      /**< Gragg–Bulirsch–Stoer extrapolation, k columns, order 2k; adaptive by default */
} cl_ode_method;
/** The method value of the integrator table's `taylor` (taylor.h: fields given as a graph), not a cl_ode_method. */
#define CL_ODE_TAYLOR 16
/**@}*/

/**
 * Default evaluation budget of cl_ode_integrate(): right-hand side
 * evaluations per unit of |t1 − t0| (spans below 1 count as 1). About a
 * second of a small system in double, minutes at 1024 bits: a method or
 * tolerance that cannot reach t1 ends with CL_EBUDGET instead of running on.
 */
#define CL_ODE_BUDGET_PER_TIME (1L << 24)

/** Largest stage count of CL_ODE_GAUSS. */
#define CL_ODE_GAUSS_MAX_STAGES 16
/** Largest column count of CL_ODE_GBS. */
#define CL_ODE_GBS_MAX_COLUMNS 160

/** \name Event directions (cl_ode_set_event()). */
/**@{*/
#define CL_ODE_EVENT_ANY 0      /**< any sign change of g */
#define CL_ODE_EVENT_RISING 1   /**< g goes from < 0 to ≥ 0 */
#define CL_ODE_EVENT_FALLING (-1) /**< g goes from > 0 to ≤ 0 */
/**@}*/

/** \name Positive returns of cl_ode_integrate() (not errors). */
/**@{*/
#define CL_ODE_EVENT 1    /**< stopped at a located event: (t, x) is the event point */
#define CL_ODE_STOPPED 2  /**< the observer asked to stop: (t, x) is the last accepted step */
/**@}*/

/** Counters of one cl_ode_integrate() call (overwritten by it). */
typedef struct cl_ode_stats {
    long steps;       /**< accepted steps */
    long rejected;    /**< steps rejected by the error control */
    long rhs_evals;   /**< right-hand side evaluations, event location included */
    long iterations;  /**< fixed-point iterations of the Gauss–Legendre stage equations */
    long event_evals; /**< partial steps taken to locate an event */
} cl_ode_stats;

/** Name of a method ("rk4", "rkf78", "gauss", "gbs"), or "?" for an unknown value. */
const char *cl_ode_method_name(cl_ode_method m);
/** Method from its name (see cl_ode_method_name()); 0 when \p name is unknown. */
cl_ode_method cl_ode_method_from_name(const char *name);
/**
 * Number of GBS columns used at precision \p prec bits when none is given:
 * k = max(4, round(prec/10)), capped at CL_ODE_GBS_MAX_COLUMNS (5 at 53 bits,
 * 11 at 113, 26 at 256, 102 at 1024). The order 2k grows with the precision
 * so that steps of moderate length reach 2^(−prec); the rule is where the
 * cost of bench/bench_ode.c (double spherical pendulum, tolerance near
 * 2^(−prec)) is lowest within 10–30 %.
 */
int cl_ode_gbs_default_columns(cl_prec_t prec);
/**
 * The factor σ of cl_ode_set_global_tol() (local tolerance = σ · global
 * tolerance): 1/32 for CL_ODE_RKF78, 1/16 for CL_ODE_GBS, 1 for the fixed-step
 * methods.
 */
double cl_ode_global_tol_factor(cl_ode_method m);

/**
 * One integrator of `chartless simulate`, as the command line names it: the
 * methods of cl_ode_integrate() and the Lie group methods of lie.h, in one
 * table (cl_integrator_get()).
 */
typedef struct cl_integrator {
    const char *name;     /**< "rkf78" */
    const char *alias;    /**< another accepted name ("gl" for gauss), or NULL */
    int order;            /**< order of the propagated solution; 0: set by a parameter (gauss 2s, gbs 2k) */
    int adaptive;         /**< the step is controlled by a tolerance (else fixed, h) */
    int lie;              /**< a Lie group method (enum cl_lie_method of lie.h), else a cl_ode_method */
    int method;           /**< the cl_ode_method or cl_lie_method value */
    int estimate_order;   /**< order of the error estimate controlling the step (rkf78 7, rkmk45 4);
                               0 when there is none or it grows with the precision (gbs) */
    int tol_floor_log2;   /**< the smallest tolerance it reaches in reasonable time is about 2^this; 0: no floor */
    const char *summary;  /**< one line for --help */
} cl_integrator;

/** Integrator \p i of the table (0, 1, ...), or NULL past its end. */
const cl_integrator *cl_integrator_get(size_t i);
/** The integrator of name or alias \p name, or NULL. */
const cl_integrator *cl_integrator_find(const char *name);
#endif /* CL_ODE_COMMON_DECLARED */

/**
 * Right-hand side of x' = f(t, x): write f(t, x) into \p dx (n scalars;
 * \p dx never aliases \p x). Return 0, or a negative CL_E code, which the
 * integrator returns unchanged. It must not keep pointers to \p x or \p dx.
 *
 * Precision: t, x and dx carry the workspace precision p, except under
 * CL_ODE_GBS, which calls f with t, x and dx at p + g guard bits
 * (g = ⌈1.2k⌉ + 8 for k columns) to absorb the rounding amplification of the
 * extrapolation. An f that computes at the precision of its arguments
 * (temporaries declared with r_prec(dx)) then yields results correct to
 * 2^(−p); one that rounds to p internally (a workspace fixed at p) has an
 * error floor of about 2^(1.15k − p): tolerances below that floor make the
 * steps collapse (slow runs ending in CL_ESTEP), so either compute at
 * r_prec(dx) or choose fewer columns.
 * \numbers_at_precision
 */
typedef int (*CL_FN(cl_ode_fn))(cl_rptr dx, cl_rsrc t, cl_rsrc x, void *ctx);
/**
 * Scalar event function: write g(t, x) into \p g. Return 0 or a negative
 * CL_E code (returned unchanged by the integrator).
 */
typedef int (*CL_FN(cl_ode_event_fn))(cl_rptr g, cl_rsrc t, cl_rsrc x, void *ctx);
/**
 * Observer, called with the initial point and after every accepted step
 * (n scalars in \p x). Return 0 to go on, a positive value to stop the
 * integration (cl_ode_integrate() then returns CL_ODE_STOPPED), or a negative
 * CL_E code to abort with that code.
 */
typedef int (*CL_FN(cl_ode_observer))(cl_rsrc t, cl_rsrc x, size_t n, void *ctx);

/** Integrator workspace: method, tables at the working precision, stage vectors. */
typedef struct CL_FN(cl_ode_ws) CL_FN(cl_ode_ws);

/**
 * \brief Create the workspace of one method for systems of dimension \p n at
 *        precision \p prec (ignored by the double copy).
 *
 * Everything a step needs is allocated here, once: the stage vectors, the
 * extrapolation table and the method's coefficients, evaluated at the working
 * precision from exact rationals (RK4, RKF78, GBS) or computed at the working
 * precision (Gauss–Legendre nodes, weights and matrix, see
 * cl_ode_gauss_tableau()). \p param is the number of stages s of CL_ODE_GAUSS
 * (1..CL_ODE_GAUSS_MAX_STAGES), the number of columns k of CL_ODE_GBS
 * (2..CL_ODE_GBS_MAX_COLUMNS, or 0 for cl_ode_gbs_default_columns()), and is
 * ignored by RK4 and RKF78.
 *
 * Defaults: RKF78 and GBS adaptive, rtol = atol = 2^(20−p) (RKF78:
 * max(2^(20−p), 2^−64); set them with cl_ode_set_tol()), no minimum step beyond 16 units of rounding of t, no
 * maximum step, at most 10^9 steps, no event, no observer.
 *
 * Returns 0 and sets *\p ws, or CL_EDIM (n = 0), CL_EPREC (precision out of
 * range), CL_EPARAM (unknown method, stage or column count out of range),
 * CL_ENOMEM, CL_ENOCONV (Gauss–Legendre nodes did not converge). On error
 * *\p ws is NULL.
 */
int CL_FN(cl_ode_ws_new)(CL_FN(cl_ode_ws) **ws, size_t n, cl_prec_t prec, cl_ode_method method, int param);
/** Release a workspace (NULL is allowed). */
void CL_FN(cl_ode_ws_free)(CL_FN(cl_ode_ws) *ws);
/** Dimension n of the workspace. */
size_t CL_FN(cl_ode_ws_dim)(const CL_FN(cl_ode_ws) *ws);
/** Stages (GAUSS), columns (GBS) or stages of the explicit method (4, 13). */
int CL_FN(cl_ode_ws_stages)(const CL_FN(cl_ode_ws) *ws);
/** Order of the propagated solution: 4, 8, 2s or 2k. */
int CL_FN(cl_ode_ws_order)(const CL_FN(cl_ode_ws) *ws);
/**
 * Precision (bits) of the t, x and dx the method passes to the right-hand
 * side: the working precision p, or p + ⌈1.2k⌉ + 8 for CL_ODE_GBS with k
 * columns (see cl_ode_fn). A system whose field works at a fixed precision
 * (a workspace made for it) should be set up at this precision to get the
 * accuracy the guard bits are for.
 */
cl_prec_t CL_FN(cl_ode_ws_rhs_prec)(const CL_FN(cl_ode_ws) *ws);

/**
 * \brief Tolerances of the adaptive methods, at the working precision.
 *
 * A step is accepted when max_i |e_i| / (atol + rtol·max(|x_i|, |x̃_i|)) ≤ 1,
 * e the method's error estimate, x and x̃ the state before and after the step.
 * For RKF78 e is the difference of the order-7 and order-8 solutions, for
 * GBS the difference of the last two entries of the diagonal row of the
 * extrapolation table; both estimate the error of the lower-order solution,
 * so the propagated one is usually well inside the tolerance. Tolerances
 * below about 2^(8−p) cannot be met (the estimate is then rounding noise)
 * and end in CL_ESTEP.
 *
 * Returns 0, CL_ENAN (NaN or infinite), CL_EPARAM (negative, or both zero).
 */
int CL_FN(cl_ode_set_tol)(CL_FN(cl_ode_ws) *ws, cl_rsrc rtol, cl_rsrc atol);
/**
 * \brief Ask for a global error: the tolerance \p tol the state at the end
 *        of the run should be within, not a per-step bound.
 *
 * Sets rtol = atol = σ·tol (cl_ode_set_tol()), σ = cl_ode_global_tol_factor():
 * the error accepted per step is σ times smaller than the error asked for at
 * the end, to leave room for the errors of many steps adding up and growing
 * along the motion. σ is calibrated, not derived: on the benchmark of
 * bench/bench_ode.c (`bench_ode --chain`: the double spherical pendulum of
 * [S2 V] to t = 2, the error measured as max_i |x_i − x_i*|/(1 + |x_i*|)
 * against a run at 76 more bits) the delivered error is then below tol at 53,
 * 113, 256, 512 and 1024 bits for GBS, and at 53 and 113 bits for RKF78 (the
 * benchmark does not run RKF78 above, where it is far slower). On a problem whose
 * errors grow faster (longer spans, stronger instability) the delivered error
 * can exceed tol by that growth. σ·tol is raised to 2^(12−p) when below it
 * (the smallest tolerance the error estimate resolves at p bits). The
 * fixed-step methods store the value and ignore it.
 * Returns 0, CL_ENAN (NaN or infinite) or CL_EPARAM (tol ≤ 0).
 */
int CL_FN(cl_ode_set_global_tol)(CL_FN(cl_ode_ws) *ws, cl_rsrc tol);
/**
 * Switch the error control of RKF78 / GBS on (1) or off (0): off, they step
 * with the fixed h given to cl_ode_integrate(). Returns 0, or CL_EPARAM when
 * \p on is 1 for a method without an error estimate (RK4, GAUSS).
 */
int CL_FN(cl_ode_set_adaptive)(CL_FN(cl_ode_ws) *ws, int on);
/**
 * Step limits of the adaptive methods: |h| ≤ \p hmax (0 = no limit) and
 * |h| ≥ \p hmin (0 = only the default floor of 16 units of rounding of t);
 * a step that would have to be smaller ends the integration with CL_ESTEP.
 * \p max_steps (≤ 0 = default 10^9) bounds the accepted plus rejected steps
 * of one call; exceeding it gives CL_EBUDGET. Returns 0, CL_ENAN or CL_EPARAM
 * (negative limits, hmin > hmax).
 */
int CL_FN(cl_ode_set_limits)(CL_FN(cl_ode_ws) *ws, cl_rsrc hmin, cl_rsrc hmax, long max_steps);
/**
 * Stop at the first t where the event function g(t, x) changes sign in
 * \p direction (CL_ODE_EVENT_RISING, _FALLING or _ANY). \p g = NULL removes
 * the event. See cl_ode_integrate() for how the event point is located.
 * Returns 0 or CL_EPARAM (bad direction).
 */
int CL_FN(cl_ode_set_event)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_event_fn) g, void *ctx, int direction);

/** g at θ of a step being searched for an event (cl_ode_locate_root()): 0 or a CL_E code. */
typedef int (*CL_FN(cl_ode_root_fn))(void *ctx, cl_rptr g, cl_rsrc theta);

/**
 * The root finder of the event location (see cl_ode_integrate()), for any
 * one-step map: θ ∈ (0, 1] with g(θ) = 0, g(0) = \p ga ≠ 0 and
 * g(1) = \p gb of the other sign (or 0), by the Illinois variant of regula
 * falsi safeguarded with bisection, until the bracket is at most \p wtol
 * long. \p at evaluates g at θ (the partial step of θ times the step from
 * the step's start, with the same method); \p far(ctx) is called whenever
 * the point \p at evaluated last becomes the far end of the bracket (the
 * side of g(1)), so the caller keeps the state there. Writes the far end
 * into \p theta (1 when no evaluation crossed). Returns 0, CL_ENOCONV,
 * CL_ENAN (g not a number) or the first error of \p at.
 */
int CL_FN(cl_ode_locate_root)(cl_rptr theta, cl_rsrc ga, cl_rsrc gb, cl_rsrc wtol, CL_FN(cl_ode_root_fn) at,
                              void (*far)(void *ctx), void *ctx, cl_prec_t prec);
/**
 * \brief Evaluation budget: at most \p max_evals right-hand side
 *        evaluations (event location and Gauss–Legendre iterations included)
 *        in one cl_ode_integrate() or cl_ode_step() call; beyond it the call
 *        returns CL_EBUDGET with (t, x) the last accepted point.
 *
 * \p max_evals ≤ 0 restores the default: CL_ODE_BUDGET_PER_TIME · max(1, |t1 − t0|)
 * for cl_ode_integrate(), no limit for a single cl_ode_step().
 */
void CL_FN(cl_ode_set_budget)(CL_FN(cl_ode_ws) *ws, long max_evals);
/** The budget cl_ode_integrate() would apply from \p t0 to \p t1 (see cl_ode_set_budget()). */
long CL_FN(cl_ode_budget)(const CL_FN(cl_ode_ws) *ws, cl_rsrc t0, cl_rsrc t1);
/** Call \p obs at the initial point and after every accepted step (NULL = none). */
void CL_FN(cl_ode_set_observer)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_observer) obs, void *ctx);

/**
 * \brief One step of the workspace's method from (t, x) with step h:
 *        xout = Φ_h(x).
 *
 * \p xout may alias \p x. When \p err is not NULL it receives the scaled
 * error norm of the step (see cl_ode_set_tol(); 0 for RK4 and GAUSS), which
 * is computed whatever the adaptive setting. No step-size control happens
 * here. Returns 0, the right-hand side's error, CL_ENAN (non-finite result),
 * CL_ENOCONV (Gauss–Legendre stage iteration did not converge).
 */
int CL_FN(cl_ode_step)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, cl_rsrc t, cl_rsrc x, cl_rsrc h,
                       cl_rptr xout, cl_rptr err);

/**
 * \brief Integrate x' = f(t, x) from (*t, x) towards \p t1.
 *
 * The state \p x (n scalars of the workspace precision) and the time \p t are
 * updated in place. \p h is the step: the fixed step of RK4, GAUSS and of
 * RKF78 / GBS with the error control off (the k-th step ends at t0 + k·h and
 * the last one is shortened to land on t1 exactly); for the adaptive methods
 * the initial step, or 0 to let the integrator choose it (Hairer's starting
 * step rule), and on return the step it would take next. h must point from
 * t0 towards t1.
 *
 * Adaptive control: after a step with scaled error norm err (cl_ode_set_tol()),
 * the next step is h·min(4, max(1/5, 0.9·err^(−1/(q+1)))), q the order of the
 * error estimate (7 for RKF78, 2k−1 for GBS); a step with err > 1 is rejected
 * and retried with the smaller h, and no growth is allowed right after a
 * rejection. An estimate no larger than one unit of rounding of the state's
 * largest entry is rounding noise (with GBS's orders of 100 and more, the
 * rule above would read the noise as err ≈ 1 and hold the step near its
 * first guess): the step then doubles. (Growing it by 2^(−l/(q+1)) only,
 * with 2^l the rounding level in the scaled norm, rejects fewer GBS steps at
 * order 200 but slows long high-precision runs threefold.) A non-finite trial
 * result counts as a rejection with h/5.
 *
 * Events (cl_ode_set_event()): after each accepted step from t_n to
 * t_n + h the sign of g is compared; at a sign change in the requested
 * direction the event time is located by solving
 * \f$g(t_n + \theta h, \Phi_{\theta h}(x_n)) = 0\f$ for θ ∈ (0, 1], re-integrating the partial
 * step from (t_n, x_n) with the same method (the one-step map is smooth in
 * θ), by the Illinois variant of regula falsi safeguarded with bisection,
 * until the bracket is at most 4·2^(−p)·max(|t_n|, |t_n + h|) long. The
 * returned point is the end of the final bracket on the far side of the
 * crossing, so g(t*, x(t*)) has the sign after the crossing (or is 0) and
 * integration can be resumed from it without finding the same event again.
 * A sign change of g inside a step that comes back within the same step is
 * not seen.
 *
 * \p stats (may be NULL) receives the counters of this call.
 *
 * Returns 0 when t1 is reached (*t = t1 exactly), CL_ODE_EVENT (1) at an
 * event, CL_ODE_STOPPED (2) when the observer asked to stop, or a negative
 * code: CL_ENAN (NaN/infinite t, t1, h or state, or a non-finite result of a
 * fixed step), CL_EDOMAIN (h = 0 for a fixed-step method, or h pointing away
 * from t1), CL_EPREC (a state entry not at the workspace precision), CL_ESTEP
 * (adaptive step below the minimum), CL_ENOCONV (too many steps, stage
 * iteration or event location failed), CL_EBUDGET (the evaluation budget
 * of cl_ode_set_budget() ran out), CL_ETIME (the thread's CPU-time budget of
 * cl_cpu_budget_set() ran out), or the error of f, g or the
 * observer. On a negative return (*t, x) is the last accepted point.
 */
int CL_FN(cl_ode_integrate)(CL_FN(cl_ode_ws) *ws, CL_FN(cl_ode_fn) f, void *ctx, cl_rptr t, cl_rptr x, cl_rsrc t1,
                            cl_rptr h, cl_ode_stats *stats);

/**
 * \brief Gauss–Legendre collocation tableau with \p s stages at the
 *        precision of \p c.
 *
 * c (s scalars, increasing) are the roots of the shifted Legendre polynomial
 * P_s(2c − 1), found by Newton's method from cos(π(i + 3/4)/(s + 1/2)) on
 * [−1, 1] and made exactly symmetric (\f$c_{s-1-i} = 1 - c_i\f$); b (s scalars) the
 * Gauss weights 1/((1 − x²) P_s'(x)²); A (s×s, row-major)
 * \f$a_{ij} = \int_0^{c_i} \ell_j(\tau)\, d\tau\f$ with ℓ_j the Lagrange basis on c, evaluated by
 * the s-point Gauss rule on [0, c_i] (exact: ℓ_j has degree s − 1) with ℓ_j in
 * product form — this avoids the ill-conditioned Vandermonde system and gives
 * every entry to a few units of rounding. Returns 0, CL_EPARAM (s out of
 * 1..CL_ODE_GAUSS_MAX_STAGES) or CL_ENOCONV (Newton did not converge).
 */
int CL_FN(cl_ode_gauss_tableau)(int s, cl_rptr c, cl_rptr A, cl_rptr b);

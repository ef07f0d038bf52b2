/* Templated prototypes of lie.c: SO(3) and SE(3) exponentials, dexp⁻¹ on
 * se(3), and Lie group integrators on homogeneous manifolds. */

/**
 * \name Storage of se(3) and SE(3)
 * An element ξ = (u, v) of se(3) is 6 scalars: the rotation part u ∈ so(3) ≅ R³
 * first, the translation part v second; its matrix is [[û, v], [0, 0]]. An
 * element (A, a) of SE(3) is 12 scalars: A (3×3, row-major) then a; the
 * product is (B, b)(A, a) = (BA, Ba + b). An element of se(3)ᴺ is N such
 * blocks, one after the other (6N scalars).
 */
/**@{*/

/**
 * The sin/cos remainder functions at s = θ² ≥ 0:
 * \f[ S_k(s) = \sum_{j\ge 0} \frac{(-s)^j}{(2j+k)!},\qquad k = 1,\dots,6, \f]
 * so S₁ = sin θ/θ, S₂ = (1 − cos θ)/θ², S₃ = (θ − sin θ)/θ³, S₄ = (θ²/2 + cos θ − 1)/θ⁴,
 * and \f$S_{k+2} = (1/k! - S_k)/s\f$. Written to S[0..5].
 *
 * Branch, chosen from the precision p of \p S: for s ≤ 4 (θ ≤ 2) the series of
 * S₅ and S₆ is summed until a term falls below 2^(−p−10), so the number of
 * terms follows p (about 10 at 53 bits, about 95 at 1024 bits), and S₄…S₁
 * follow from \f$S_k = 1/k! - s S_{k+2}\f$, losing at most one bit; for s > 4 the
 * closed forms in sin θ and sin(θ/2) are used, whose cancellation is bounded
 * (S₆ just above s = 4 is the worst: about 20 units of 2^(−p)). A fixed
 * threshold with a fixed number of Taylor terms, as tuned for double, would
 * lose most digits at 1024 bits.
 * Returns 0, CL_ENAN (s not a number) or CL_EDOMAIN (s < 0).
 */
int CL_FN(cl_lie_sincos_remainders)(cl_rptr S, cl_rsrc s);

/**
 * R = exp(û) ∈ SO(3) (Rodrigues): R = cos θ I + S₁(θ²) û + S₂(θ²) u uᵀ, θ = ‖u‖;
 * exact to a few units of the working precision for every u (series branch near 0,
 * see cl_lie_sincos_remainders()). Returns 0 or CL_ENAN.
 */
int CL_FN(cl_so3_exp)(cl_rptr R, cl_rsrc u);

/**
 * (A, a) = exp(ξ) ∈ SE(3) for ξ = (u, v): A = exp(û) and
 * a = V(u) v = S₁ v + S₂ u × v + S₃ (u·v) u, V = I + S₂ û + S₃ û².
 * \p g holds 12 scalars (A row-major, then a). Returns 0 or CL_ENAN.
 */
int CL_FN(cl_se3_exp)(cl_rptr g, cl_rsrc xi);

/** out = [ξ, η] = ad_ξ η = (u × η_u, u × η_v + v × η_u) on se(3) (out may alias). */
void CL_FN(cl_se3_bracket)(cl_rptr out, cl_rsrc xi, cl_rsrc eta);

/**
 * out = dexp_ξ(η) = Σ_k ad_ξᵏ η/(k+1)!, in closed form: with J = I + S₂ û + S₃ û²
 * and its derivative Q = S₂ v̂ + S₃ (ûv̂ + v̂û) + 2(u·v)(S₂′ û + S₃′ û²),
 * dexp_ξ(η_u, η_v) = (J η_u, Q η_u + J η_v), where \f$S_k' = (-S_{k+1} + k S_{k+2})/2\f$.
 * Convention: d/dt exp(ξ(t)) = dexp_ξ(ξ′) exp(ξ). Returns 0 or CL_ENAN.
 */
int CL_FN(cl_se3_dexp)(cl_rptr out, cl_rsrc xi, cl_rsrc eta);

/**
 * out = dexp_ξ⁻¹(η) = Σ_k (B_k/k!) ad_ξᵏ η in closed form. On so(3)
 * G(u) = I − ½û + β û² with β = (1 − (θ/2) cot(θ/2))/θ² = (S₃ − 2S₄)/(2S₂); on se(3)
 * ad_ξ = [[û, 0], [v̂, û]], so dexp_ξ⁻¹ = [[G, 0], [L, G]] with L the derivative of
 * G along v: L = −½ v̂ + β (ûv̂ + v̂û) + 2 (u·v) β′ û², β′ = dβ/d(θ²).
 * Valid for θ = ‖u‖ < 2π (the poles of z/(eᶻ − 1)); returns 0, CL_ENAN, or
 * CL_EDOMAIN when θ ≥ 2π. \p out may alias \p eta.
 */
int CL_FN(cl_se3_dexpinv)(cl_rptr out, cl_rsrc xi, cl_rsrc eta);

/**
 * \f$\mathrm{out} = \sum_{k=0}^{\mathrm{order}} (B_k/k!)\, \mathrm{ad}_\xi^k \eta\f$, the Bernoulli series of dexp_ξ⁻¹
 * truncated after the term ad_ξ^order (B_k the Bernoulli numbers, B₁ = −1/2,
 * coefficients as exact rationals). 0 ≤ order ≤ 18, else CL_EDIM.
 */
int CL_FN(cl_se3_dexpinv_series)(cl_rptr out, cl_rsrc xi, cl_rsrc eta, int order);

/** cl_se3_dexpinv() block by block on se(3)ᴺ (6N scalars). */
int CL_FN(cl_se3n_dexpinv)(cl_rptr out, cl_rsrc xi, cl_rsrc eta, size_t n);
/** cl_se3_dexpinv_series() block by block on se(3)ᴺ. */
int CL_FN(cl_se3n_dexpinv_series)(cl_rptr out, cl_rsrc xi, cl_rsrc eta, size_t n, int order);
/** cl_se3_bracket() block by block on se(3)ᴺ. */
void CL_FN(cl_se3n_bracket)(cl_rptr out, cl_rsrc xi, cl_rsrc eta, size_t n);
/**@}*/

/**
 * \brief A differential equation y′ = f(y)·y on a homogeneous manifold M
 *        acted on transitively by a Lie group G with algebra 𝔤.
 *
 * Points of M and elements of 𝔤 are flat vectors of \p dim_m and \p dim_g
 * scalars. The callbacks get the precision of their outputs from the
 * arrays they are handed and must not allocate.
 * \numbers_at_precision
 */
typedef struct CL_FN(cl_lie_problem) {
    size_t dim_m; /**< scalars in a point of M */
    size_t dim_g; /**< scalars in an element of 𝔤 */
    void *ctx;    /**< passed to every callback */
    /** xi = f(y) ∈ 𝔤: the field in Lie-algebra form, Ψ_*(f(y))|_y = F(y). */
    int (*field)(void *ctx, cl_rptr xi, cl_rsrc y);
    /** y_out = exp(xi)·y, the action of the exponential (y_out never aliases y). */
    int (*exp_act)(void *ctx, cl_rptr y_out, cl_rsrc xi, cl_rsrc y);
    /** out = dexp_xi⁻¹(eta) in closed form (out never aliases), or NULL. */
    int (*dexpinv)(void *ctx, cl_rptr out, cl_rsrc xi, cl_rsrc eta);
    /** out = [xi, eta] (out never aliases); needed for the series form of dexp⁻¹. */
    int (*bracket)(void *ctx, cl_rptr out, cl_rsrc xi, cl_rsrc eta);
} CL_FN(cl_lie_problem);

/** Opaque integrator workspace (stages, temporaries, step-size state). */
typedef struct CL_FN(cl_lie_integrator) CL_FN(cl_lie_integrator);

/**
 * Create an integrator for \p pb at precision \p prec (ignored in double):
 * \p method is one of CL_LIE_EULER, CL_LIE_RKMK4, CL_LIE_CF4, CL_LIE_RKMK45
 * (lie.h). Every array a step needs is allocated here, once; steps allocate
 * nothing. RKMK methods use pb->dexpinv when it is set, else the Bernoulli
 * series truncated at the order the method needs (see cl_lie_set_dexpinv_series()).
 * Returns CL_OK with the integrator in \p *out, or, with \p *out NULL and
 * nothing left allocated: CL_EPARAM (\p pb NULL, pb->field or pb->exp_act
 * missing, an unknown \p method, or an RKMK method with neither
 * pb->dexpinv nor pb->bracket), CL_EDIM (pb->dim_g or pb->dim_m 0 or above
 * SIZE_MAX/64), CL_EPREC (\p prec out of range, MPFR), CL_ENOMEM.
 */
int CL_FN(cl_lie_new)(CL_FN(cl_lie_integrator) **out, const CL_FN(cl_lie_problem) *pb, int method, cl_prec_t prec);
/** Release an integrator (NULL allowed). */
void CL_FN(cl_lie_free)(CL_FN(cl_lie_integrator) *w);

/**
 * Make the RKMK methods use dexp⁻¹ as the Bernoulli series truncated after
 * ad^\p order (0 ≤ order ≤ 18) through pb->bracket instead of pb->dexpinv;
 * \p order < 0 restores the closed form. RKMK of order p needs order ≥ p − 2.
 * Returns 0, CL_EDIM (order out of range) or CL_EPARAM (no bracket given).
 */
int CL_FN(cl_lie_set_dexpinv_series)(CL_FN(cl_lie_integrator) *w, int order);

/**
 * One step of size \p h in place: y ← Φ_h(y). Lie–Euler: y ← exp(h f(y))·y.
 * RKMK4: classical RK4 on u′ = dexp_u⁻¹(f(exp(u)·y₀)), u(0) = 0, then y ← exp(u)·y₀.
 * CF4: the commutator-free method of order 4 (Celledoni, Marthinsen, Owren),
 * two exponentials per step. RKMK45: the fifth-order Dormand–Prince weights in
 * RKMK form (fixed step, no error control). Returns 0 or the first callback
 * error (y then unchanged).
 */
int CL_FN(cl_lie_step)(CL_FN(cl_lie_integrator) *w, cl_rptr y, cl_rsrc h);

/**
 * \p nsteps fixed steps of size \p h (y in place). Returns 0 or the first error.
 */
int CL_FN(cl_lie_integrate_fixed)(CL_FN(cl_lie_integrator) *w, cl_rptr y, cl_rsrc h, long nsteps);

/**
 * Variable-step RKMK Dormand–Prince 5(4) from t0 to t1 (t1 > t0), y in place,
 * \p h the initial step (updated to the last proposed step). The local error
 * is the largest |y₅ − y₄|ᵢ / (atol + rtol·max(|y₀ᵢ|, |y₁ᵢ|)) between the
 * fifth- and fourth-order solutions exp(u₅)·y₀ and exp(u₄)·y₀; a step is
 * accepted when it is ≤ 1, and h is scaled by 0.9·err^(−1/5) within [0.2, 5].
 * rtol and atol are raised to at least 64·2^(1−p) so the control never asks for
 * more than the working precision carries. Only the RKMK45 method; counts of
 * accepted and rejected steps in *nacc and *nrej (either may be NULL).
 * Returns 0, CL_EPARAM (wrong method, bad tolerance or t1 ≤ t0),
 * CL_EBUDGET (evaluation budget exhausted, see cl_lie_set_budget()), CL_ETIME
 * (the thread's CPU-time budget, cl_cpu_budget_set()), CL_ESTEP (step
 * below 16·2^(1−p)·max(1, |t|)) or a callback error.
 */
int CL_FN(cl_lie_integrate_adaptive)(CL_FN(cl_lie_integrator) *w, cl_rptr y, cl_rsrc t0, cl_rsrc t1, cl_rptr h,
                                     cl_rsrc rtol, cl_rsrc atol, long *nacc, long *nrej);

/**
 * Default evaluation budget of cl_lie_integrate_adaptive(): field evaluations
 * per unit of t1 − t0 (spans below 1 count as 1), so that a tolerance the
 * method cannot reach ends with CL_EBUDGET instead of running on.
 */
#ifndef CL_LIE_BUDGET_PER_TIME
#define CL_LIE_BUDGET_PER_TIME (1L << 24)
#endif
/**
 * \brief Evaluation budget: at most \p max_evals field evaluations in one
 *        cl_lie_step(), cl_lie_integrate_fixed() or cl_lie_integrate_adaptive()
 *        call; beyond it the call returns CL_EBUDGET.
 *
 * \p max_evals ≤ 0 restores the default: CL_LIE_BUDGET_PER_TIME · max(1, t1 − t0)
 * for the adaptive integration, and for the fixed-step calls no limit beyond
 * the step count the caller gives.
 */
void CL_FN(cl_lie_set_budget)(CL_FN(cl_lie_integrator) *w, long max_evals);

/** Number of field evaluations made so far by \p w. */
long CL_FN(cl_lie_nevals)(const CL_FN(cl_lie_integrator) *w);

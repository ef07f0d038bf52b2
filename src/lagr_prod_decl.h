/* Templated prototypes of lagr_prod.c: a general Lagrangian on a product of S¹, Rᵏ, S², SO(3) and SE(3) factors.
 */

typedef struct CL_FN(cl_lagr_prod) CL_FN(cl_lagr_prod);

/**
 * The Lagrangian node \p L of graph \p g on the product of the \p nf
 * factors \p f, with \p nparam parameters, at precision \p prec. The inputs
 * of L are the configurations (nq numbers), the velocities (nv), the time
 * t, then the parameters (all zero until set). The graph must outlive the
 * object and not grow. Returns CL_OK with the object in \p *out, or, with
 * \p *out NULL and nothing left allocated: CL_EDIM (no factor, a factor of
 * unknown kind or an Rᵏ with k ≤ 0, more than CL_LAGR_PROD_MAX_FACTORS
 * factors or more than CL_LAGR_PROD_MAX_DIM numbers, or \p L not a node of
 * \p g), CL_EPREC (\p prec out of range, MPFR), CL_EPARSE or CL_ENAN (a
 * constant of the graph cannot be read), CL_ENOMEM.
 */
int CL_FN(cl_lagr_prod_new)(CL_FN(cl_lagr_prod) **out, const cl_expr_dag *g, int L, const cl_lagr_factor *f, size_t nf,
                            size_t nparam, cl_prec_t prec);
/** Release (NULL allowed). */
void CL_FN(cl_lagr_prod_free)(CL_FN(cl_lagr_prod) *lg);
/** Set parameter \p k to \p v (rounded to the object's precision). */
void CL_FN(cl_lagr_prod_set_param)(CL_FN(cl_lagr_prod) *lg, size_t k, cl_rsrc v);
/** Set the time t of the next evaluations (0 until set). */
void CL_FN(cl_lagr_prod_set_time)(CL_FN(cl_lagr_prod) *lg, cl_rsrc t);
/**
 * Generalized forces: \p force holds nv node ids of \p lg's graph (−1: no
 * force on that velocity component), functions of the state, t and the
 * parameters: F on q̇ of S¹, Rᵏ and S² factors (on S² its tangential part
 * counts), the body torque on Ω of SO(3) and SE(3) factors, and the force
 * in space on the position of an SE(3) factor (entering as RᵀF). Returns 0,
 * CL_ENOMEM or CL_EDIM (a node not in the graph).
 */
int CL_FN(cl_lagr_prod_set_forces)(CL_FN(cl_lagr_prod) *lg, const int *force);
/** The node at which the last call failed with CL_EDOMAIN, or −1. */
int CL_FN(cl_lagr_prod_bad_node)(const CL_FN(cl_lagr_prod) *lg);
/** Numbers of the configuration (\p nv NULL) or velocity part, through the pointers. */
void CL_FN(cl_lagr_prod_sizes)(const CL_FN(cl_lagr_prod) *lg, size_t *nq, size_t *nv);

/**
 * \brief Vector field in form \p form (enum cl_lagr_prod_form): x = (q, v),
 *        dx = (q̇, v̇), nq + nv numbers each.
 *
 * With u the velocities, q̇ = u on S¹, Rᵏ, S², Ṙ = RΩ̂ and ẋ = RV on the
 * groups, the equations are
 * \f[ \frac{d}{dt}\frac{\partial L}{\partial u} = G(q, u, t) + F ,\qquad
 *     \frac{d}{dt}\frac{\partial L}{\partial u} = L_{uu}\dot u + L_{uq}\dot q + L_{ut} , \f]
 * with G = ∂L/∂q (+ λq on S², the multiplier of |q| = 1) on the embedded
 * factors, G = ∂L/∂Ω × Ω + τ on SO(3), τ = (RᵀL_R − L_RᵀR)^∨ [EMB §3.4],
 * and on SE(3) G = (∂L/∂Ω × Ω + ∂L/∂V × V + τ, ∂L/∂V × Ω + RᵀL_x). The
 * multipliers are eliminated by the projection P = I − qqᵀ of every S²
 * block: with c = −|q̇|² on each S² block (q·q̈ = −|q̇|²),
 * \f[ (PL_{uu}P + QQ^T)\,w = P\big(r - L_{uu}Qc\big),\qquad \dot u = w + Qc , \f]
 * r the right side above; regular exactly when L_uu restricted to the
 * product's tangent space is. The momentum forms need the gradient only:
 * ṗ = G + F, and on S² μ̇ = P(∂L/∂q + F) − q̇(q·∂L/∂q̇) − q(q̇·∂L/∂q̇).
 * Returns 0, CL_ESINGULAR, CL_EDOMAIN, CL_ENOCONV or CL_EDIM (unknown form).
 */
int CL_FN(cl_lagr_prod_rhs)(CL_FN(cl_lagr_prod) *lg, int form, cl_rptr dx, cl_rsrc x);

/** Map a state of form \p from to form \p to (\p y may be \p x). Returns as cl_lagr_prod_rhs(). */
int CL_FN(cl_lagr_prod_convert)(CL_FN(cl_lagr_prod) *lg, int from, cl_rsrc x, int to, cl_rptr y);

/** Node \p id at the state x of form \p form into \p out; \p id < 0: the energy E = u·∂L/∂u − L. */
int CL_FN(cl_lagr_prod_value)(CL_FN(cl_lagr_prod) *lg, int id, int form, cl_rptr out, cl_rsrc x);

/**
 * Bring a state of form \p form on the product of the \p nf factors \p f onto it in place: unit vectors
 * normalized and their velocity parts projected (on S² in every form the
 * velocity part is tangent), rotations made orthogonal. A factor off its
 * manifold by more than 2^\p tol_log2 is refused: CL_ENOTUNIT (S²),
 * CL_ENOTTANGENT (an S² velocity part), CL_EDOMAIN (a rotation; *\p
 * defect INFINITY for det R ≤ 0), *\p which the factor and *\p defect the
 * log2 of the defect.
 */
int CL_FN(cl_lagr_prod_project_state)(const cl_lagr_factor *f, size_t nf, int form, cl_rptr x, double tol_log2, size_t *which,
                                      double *defect);

/**
 * \brief Constraints on the motion: \p nc nodes \p con of the graph, c_i(q, u)
 *        linear in the velocities u (the caller decides it), and for each a
 *        holonomic constraint \p hol[i] (its node h_i(q) with c_i = ḣ_i) or −1.
 *
 * The equations become those of Lagrange–d'Alembert: with A = ∂c/∂u and
 * ċ = A u̇ + b, b = ∂c/∂q·q̇,
 * \f[ \frac{d}{dt}\frac{\partial L}{\partial u} = G + F + A^T\lambda ,\qquad A\dot u + b = 0 , \f]
 * solved with the velocity Hessian bordered by the rows AP (P the projection of
 * the S² blocks); the momentum forms add Aᵀλ to ṗ. A singular bordered matrix
 * (dependent constraints, or a degenerate L) gives CL_ESINGULAR. Once only.
 * Returns 0, CL_ENOMEM or CL_EDIM (a node not in the graph, or called twice).
 */
int CL_FN(cl_lagr_prod_set_constraints)(CL_FN(cl_lagr_prod) *lg, const int *con, const int *hol, size_t nc);
/** The multipliers λ (nc) of the constraints at state x of form \p form. Returns as cl_lagr_prod_rhs(). */
int CL_FN(cl_lagr_prod_multipliers)(CL_FN(cl_lagr_prod) *lg, int form, cl_rptr lam, cl_rsrc x);
/**
 * The constraints at x into \p out: per constraint h_i then c_i = ḣ_i
 * (holonomic), or c_i. Returns how many numbers, or a CL_E code.
 */
int CL_FN(cl_lagr_prod_constraint_values)(CL_FN(cl_lagr_prod) *lg, int form, cl_rptr out, cl_rsrc x);
/**
 * A state of form \p form checked against the constraints and brought onto
 * them in place: every |h_i| within 2^\p tol_log2 (else CL_EDOMAIN) and every
 * |c_i| within 2^\p tol_log2 max(1, |u|) (else CL_ENOTTANGENT), *\p which the
 * constraint and *\p defect the log2 of its value; then Newton's
 * minimum-norm steps on the configuration to h = 0 and one on the
 * velocities to c = 0. CL_ESINGULAR: the constraints are dependent there.
 */
int CL_FN(cl_lagr_prod_constraint_clean)(CL_FN(cl_lagr_prod) *lg, int form, cl_rptr x, double tol_log2, size_t *which,
                                         double *defect);

/**
 * The nodes ∂c_i/∂t of constraints depending on the time t (−1: none), after
 * cl_lagr_prod_set_constraints(): ċ_i = A_i u̇ + ∂c_i/∂q·q̇ + ∂c_i/∂t, at the
 * time of cl_lagr_prod_set_time(). 0, or CL_EDIM for a node not in the graph.
 */
int CL_FN(cl_lagr_prod_set_constraint_rates)(CL_FN(cl_lagr_prod) *lg, const int *cont);

/**
 * \brief The distribution form (CL_LAGR_PROD_DIST) of a constrained product:
 *        choose its basis at the state x of form \p form.
 *
 * Of the velocity rows (the constraints' rows, and qᵀ on each S² block) nr
 * velocity components are eliminated by complete pivoting at x; the
 * quasivelocities are the other nv − nr components u_I, and u_D follows
 * from the constraints. The choice holds for the object's life; where the
 * eliminated columns become singular the form gives CL_ESINGULAR. Its
 * field comes from the null-space method (no multipliers). Returns 0,
 * CL_ESINGULAR (rows dependent at x), CL_ENOMEM or CL_EDIM (no constraints).
 */
int CL_FN(cl_lagr_prod_dist_choose)(CL_FN(cl_lagr_prod) *lg, int form, cl_rsrc x);
/**
 * The basis of the form dist given by its quasivelocities: velocity components \p ind[0 .. nd − 1]
 * (increasing, nd = cl_lagr_prod_dist_dim()), the others eliminated. 0, or CL_EDIM (no form dist, or
 * \p ind not increasing components below nv).
 */
int CL_FN(cl_lagr_prod_dist_set)(CL_FN(cl_lagr_prod) *lg, const int *ind);
/** The number of quasivelocities (0 without constraints). */
size_t CL_FN(cl_lagr_prod_dist_dim)(const CL_FN(cl_lagr_prod) *lg);
/** The velocity component (0 .. nv − 1) of quasivelocity \p k, or −1 before a choice. */
int CL_FN(cl_lagr_prod_dist_index)(const CL_FN(cl_lagr_prod) *lg, size_t k);

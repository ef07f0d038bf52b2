/**
 * \file model_ball.h
 * \brief A model's equations of motion evaluated on Arb balls
 *        (model_ball.c), and its proven verdicts at its declared
 *        equilibria (model_certify.c).
 *
 * The field is the graph of cl_model_eom_build(), unsimplified (the accelerations by the
 * LDLᵀ solve written in its nodes) evaluated by the ball evaluator of
 * src/expr_decl.h (cl_expr_eval_run_arb()): each component is a ball that
 * encloses the exact field at every state and parameter in the input balls.
 * The same graph carries, as nodes, what the proofs need: the energy
 * (Σ u ∂L/∂u − L, or H), the constraints of the state manifold and the
 * model's own (in the order of the system's constraints: per S² factor
 * |q|² − 1 and q·q̇, per rotation the six entries of RᵀR − I on and above
 * the diagonal, then h and ḣ per holonomic constraint and c per
 * nonholonomic one), the declared invariants, and per declared equilibrium
 * its point, the field in the frame turning with it (a relative
 * equilibrium) and the directions of its symmetry.
 *
 * All in form 0 (qdot; p for a Hamiltonian), the state as `rhs --model`
 * reads it. The precision is the thread's (cl_arb_set_prec()) when the
 * object is made: constants are read then, as balls around their decimals.
 * Errors are CL_EDOMAIN with a message naming the subexpression of the
 * model's text (file:line:col) that left its domain, CL_ENOMEM.
 */
#ifndef CL_MODEL_BALL_H
#define CL_MODEL_BALL_H
#include "model_system.h"
#include "model_eom.h"

/** A model's graph on balls (opaque). */
typedef struct cl_model_ball cl_model_ball;

/** The ball evaluator of \p m at the thread's Arb precision, its parameters at their defaults (balls around the decimals). */
int cl_model_ball_new(cl_model_ball **out, const cl_model *m, cl_sys_error *e);
/** Release (NULL allowed). */
void cl_model_ball_free(cl_model_ball *b);
/** The state's dimension (form 0). */
size_t cl_model_ball_dim(const cl_model_ball *b);
/** The model. */
const cl_model *cl_model_ball_model(const cl_model_ball *b);
/** Parameter \p k (a ball: a decimal enclosed with arb_set_str(), or any interval). CL_ENAN when not finite. */
int cl_model_ball_set_param(cl_model_ball *b, size_t k, arb_srcptr v);
/** The time t of a time-dependent model (ignored otherwise). */
void cl_model_ball_set_time(cl_model_ball *b, arb_srcptr t);
/**
 * The field dx = f(x) on balls: \p dx (dim balls) encloses f at every point
 * of the balls \p x. CL_ENAN for a ball of \p x that is not finite,
 * CL_EDOMAIN (the subexpression in \p e) where a sqrt, log or division of
 * the model touches its domain's edge or the velocity Hessian's pivots are
 * not proven nonzero.
 */
int cl_model_ball_field(cl_model_ball *b, arb_ptr dx, arb_srcptr x, cl_sys_error *e);
/** The Jacobian J[i dim + k] = ∂f_i/∂x_k enclosed over the balls \p x (errors as cl_model_ball_field()). */
int cl_model_ball_jacobian(cl_model_ball *b, arb_ptr J, arb_srcptr x, cl_sys_error *e);
/** The energy's gradient (dim) and Hessian (dim × dim) enclosed over \p x; CL_EDOMAIN also when the energy is not conserved (L depends on t). */
int cl_model_ball_energy_hessian(cl_model_ball *b, arb_ptr grad, arb_ptr H, arb_srcptr x, cl_sys_error *e);

/** A proven verdict: its word, the sentence that says why, and its numbers. */
enum cl_model_proof {
    CL_PROOF_UNDECIDED = 0, /**< nothing proven (the reason says why) */
    CL_PROOF_STABLE,        /**< proven stable */
    CL_PROOF_UNSTABLE       /**< proven unstable */
};

/** What `equilibria --certify` proves at one equilibrium. */
typedef struct cl_model_eq_proof {
    int zero;          /**< 1: proven a zero of the field (in the turning frame), 0: not */
    int exact;         /**< the field is the exact zero ball at the point (radius 0) */
    double log2_radius; /**< the box of Krawczyk's test: its radius as log2 (−inf when exact) */
    int unique;        /**< 1 when Krawczyk's test proved the zero unique in its box */
    int d;             /**< dimension of the tangent space */
    int nenc;          /**< eigenvalues enclosed in wr, wi: d, or (partial) the clusters Rump's test verifies one by one */
    int partial;       /**< 1: not the whole spectrum (a multiple eigenvalue without a verified basis) */
    int eig_status;    /**< 0, or why the eigenvalues are not enclosed (CL_EUNDECIDED, …) */
    int verdict;       /**< enum cl_model_proof, from the spectrum */
    char why[300];     /**< the reason of the verdict, or why the zero is not proven */
} cl_model_eq_proof;

/**
 * Equilibrium \p k proven a zero of the field (the field minus the turning
 * frame's for a relative equilibrium): the exact zero ball at the point, or
 * Krawczyk's test on a box around it for the system G = (Z₀ᵀ f, c) (Z₀ an
 * approximate basis of the tangent space, c the constraints); its point
 * into \p x (dim balls: the box, or the point), the eigenvalue enclosures
 * of the linearization on the tangent space into \p wr, \p wi (dim each),
 * "proven unstable" when one has a real part proven positive, "proven
 * stable" when every real part is proven negative. Returns 0 (whatever is
 * proven: see \p pr), or CL_EDOMAIN / CL_ENOMEM with the message in \p e.
 */
int cl_model_certify_equilibrium(cl_model_ball *b, int k, cl_model_eq_proof *pr, arb_ptr x, arb_ptr wr, arb_ptr wi,
                                 cl_sys_error *e);

/** What `stability --certify` proves at one equilibrium. */
typedef struct cl_model_ec_proof {
    cl_model_eq_proof eq; /**< the equilibrium's proof (the point and the spectrum) */
    cl_ec_report rep;     /**< the Energy–Casimir report on balls */
    int ec_status;        /**< 0, or why the test failed on balls */
    int nused;            /**< the declared invariants used as Casimirs */
    int used[CL_MODEL_MAX_INVARIANTS]; /**< their indices (0 = the first declared invariant) */
    int shifted;          /**< a dependent invariant D added to the energy, E + t D */
    double t;             /**< its coefficient t */
    int verdict;          /**< enum cl_model_proof */
    char why[400];        /**< the sentence of the verdict */
} cl_model_ec_proof;

/**
 * The Energy–Casimir test at equilibrium \p k on balls: the energy with
 * the constraints, the declared invariants whose gradients are independent
 * of them (and, at a relative equilibrium, orthogonal to its symmetry
 * directions, which are rows too), the restricted Hessian's inertia proven
 * by cl_energy_casimir_arb(). A declared invariant D whose gradient depends
 * on the others leaves the multipliers a free direction: the energy is
 * then E + t D (conserved for every t), t chosen where the restricted
 * Hessian's smallest eigenvalue is largest. Proven stable when the
 * Hessian is proven definite at a proven equilibrium of a conservative
 * model (no forces, no nonholonomic constraint, L independent of t: an
 * equilibrium is then a critical point of E + Σ c_j C_j); proven unstable
 * when an eigenvalue of the linearization has a real part proven positive;
 * else undecided, with the reason. Returns as cl_model_certify_equilibrium().
 */
int cl_model_certify_stability(cl_model_ball *b, int k, cl_model_ec_proof *pr, arb_ptr x, arb_ptr wr, arb_ptr wi,
                               cl_sys_error *e);
#endif

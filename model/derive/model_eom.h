/**
 * \file model_eom.h
 * \brief What model/derive/ offers: the equations of motion of a model
 *        as one expression graph (model_graph*.c), for printing, compiled
 *        fields and Taylor integration (model_taylor.h).
 */
#ifndef CL_MODEL_EOM_H
#define CL_MODEL_EOM_H
#include "model_lang.h"



/**
 * \brief The equations of motion of a model as one expression graph
 *        (model_graph.c): the field of form qdot, dx = f(x), as nodes.
 *
 * The graph's inputs are \f$x_0, \dots, x_{\mathrm{dim}-1}\f$, the state in form qdot (the
 * order `rhs --model` reads), then the time t when \p time ≥ 0, then the
 * parameters (input param0 + k is parameter k, its default m->pdef[k]).
 * Output i, dx_i, is node out[i]. The graph is the model's, copied and grown
 * by the derivatives of L (or H); the accelerations solve the velocity
 * Hessian's system, bordered by the constraint rows, by cl_expr_solve_spd().
 * For a Hamiltonian model the state is in form p (the momenta, no solve).
 */
typedef struct cl_model_eom {
    cl_expr_dag *g; /**< the graph (owned) */
    size_t dim;     /**< the state's dimension, and the number of outputs */
    int *out;       /**< dx_i = node out[i], i < dim */
    long time;      /**< the input of t, or −1 when neither L nor a force depends on it */
    size_t param0;  /**< the input of the first parameter */
    size_t nparam;  /**< the parameters */
    const char *form; /**< the name of the state's form (qdot, ROmega; p for a Hamiltonian) */
    size_t ncon;      /**< the model's constraints */
    int *mult;        /**< their multipliers λ_k = node mult[k] (the bordered solve's last unknowns, negated), k < ncon */
    int simplified;   /**< 1: out and mult simplified on the manifold (expr_simplify.h); 0: as derived (asked, or shorter); −1: past the simplifier's budget, as derived */
    int *vel;         /**< a Hamiltonian's velocities ∂H/∂p that no output is (Ω, V of SO(3) and SE(3)): node vel[a] of velocity a (−1: none), a < nv, kept as one node each by the simplifier and printed by its name in form qdot; NULL for a Lagrangian */
} cl_model_eom;

/**
 * The equations of motion of \p m as a graph (see cl_model_eom), for every
 * model: Euler–Lagrange on S¹, Rᵏ and S² factors, the reduced
 * Euler–Poincaré equations [EMB §3.4] on SO(3) and SE(3), Hamilton's (and
 * Lie–Poisson) equations of a Hamiltonian, Lagrange–d'Alembert with the
 * constraints. Errors: CL_ENOMEM (the message in \p e).
 */
int cl_model_eom_new(cl_model_eom **out, const cl_model *m, cl_sys_error *e);
/**
 * The equations of motion with the simplifier (cl_expr_simplify(), on the
 * manifold: |q| = 1 and q·q' = 0 on S², RᵀR = I on SO(3)) when \p simplify
 * is 1 (what eom prints), the equations as derived when 0 (the oracle
 * compares the two), the simplified ones when they need no more nodes than
 * the derived ones when 2 (cl_model_eom_new(), for the consumers that
 * evaluate them: the expanded normal form can cost more nodes than the
 * derived graph's shared subexpressions). A model whose simplification runs
 * past its budget keeps the derived equations, with a warning on stderr.
 */
int cl_model_eom_build(cl_model_eom **out, const cl_model *m, int simplify, cl_sys_error *e);
/** Release (NULL allowed). */
void cl_model_eom_free(cl_model_eom *eom);

/**
 * Nodes \p roots of \p g (a copy of the model's graph, grown) simplified on
 * the manifold of \p m (cl_expr_simplify() with |q|² − 1 and q·q' per S²
 * factor, the entries of R Rᵀ − I and Rᵀ R − I per SO(3) and SE(3)
 * factor), into \p out (may be roots). 0; CL_ENOCONV past the budget (out
 * is roots, and a warning on stderr says so); CL_ENOMEM. Inputs \p lead …
 * lead + nlead − 1 are pulled out of sums first (nlead 0: none).
 */
int cl_model_simplify(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, long lead, long nlead);
/**
 * cl_model_simplify() with the \p natoms nodes \p atoms (−1: none) each kept
 * as one node, whatever its terms, that the roots are written in (a
 * model's named velocities, printed by their names); their simplified
 * nodes into \p atoms_out (may be NULL; \p atoms copied when past the budget).
 */
int cl_model_simplify_named(cl_expr_dag *g, const cl_model *m, const int *roots, size_t n, int *out, const int *atoms, size_t natoms,
                            int *atoms_out, long lead, long nlead);

/**
 * The Lagrangian equations of a model unsolved, in the mass-matrix form
 * (`eom --form mass`): M(q) u̇ = F(q, u) + Bᵀλ with the rows B u̇ = β,
 * u every factor's velocity (q̇, Ω, V), B's rows q·q̈ = −|q̇|² per S²
 * factor (λ its multiplier) then the constraints' (Lagrange–d'Alembert).
 * On SO(3) the rows of Ω are the Euler–Poincaré equations J Ω̇ = JΩ × Ω + τ.
 * The graph's inputs are those of cl_model_eom; as derived (not simplified).
 */
typedef struct cl_model_mass {
    cl_expr_dag *g;       /**< the graph (owned) */
    size_t nq, nv, nb;    /**< configuration, velocities, rows of B */
    int *qd;              /**< the configuration's rates (nq) */
    int *M, *F;           /**< nv × nv row-major, nv */
    int *B, *beta;        /**< nb × nv row-major, nb */
} cl_model_mass;
/** The mass-matrix form of the Lagrangian model \p m (CL_ENOMEM, the message in \p e). */
int cl_model_mass_new(cl_model_mass **out, const cl_model *m, cl_sys_error *e);
/** Release (NULL allowed). */
void cl_model_mass_free(cl_model_mass *q);
/** The name of input \p k of the graph: a component of the state as `rhs` names it (theta, theta'), t, or a parameter. */
void cl_model_eom_input_name(const cl_model *m, const cl_model_eom *eom, long k, char *buf, size_t len);
/** The name of velocity \p a of \p m in form qdot (`rhs --form qdot --labels`: Omega1 on SO(3), x' on R¹), its first form's when it has no form qdot. */
void cl_model_eom_velocity_name(const cl_model *m, size_t a, char *buf, size_t len);
#endif

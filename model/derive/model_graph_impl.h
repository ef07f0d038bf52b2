/*
 * Internal to model_graph*.c: the equations of motion of a model written in
 * nodes of its graph (cl_model_eom_new()). The inputs follow the model's
 * layout: the configuration x_0 … x_(nq−1), the velocities (or momenta)
 * x_nq … x_(nq+nv−1), then t and the parameters; every factor's slots are
 * m->fac[i].q and m->fac[i].v.
 */
#ifndef CL_MODEL_GRAPH_IMPL_H
#define CL_MODEL_GRAPH_IMPL_H
#include "expr_nodes_impl.h"
#include "model_eom.h"

/**
 * The rate of the configuration from the velocities \p u (nv nodes) into
 * \p qd (nq nodes): q̇ = u on S¹, Rᵏ and S² factors, Ṙ = RΩ̂ on SO(3) and
 * SE(3), ẋ = RV on SE(3) (the nodes the model's primed names are).
 * Returns 0 or CL_ENOMEM.
 */
int cl_model_graph_rates(cl_expr_dag *g, const cl_model *m, const int *u, int *qd);
/**
 * The right side G + F of d/dt ∂L/∂u = G + F (lagr_prod.h) into \p G (nv
 * nodes): ∂L/∂q on the embedded factors, ∂L/∂Ω × Ω + τ on SO(3),
 * τ = (RᵀL_R − L_RᵀR)^∨, and on SE(3) (∂L/∂Ω × Ω + ∂L/∂V × V + τ,
 * ∂L/∂V × Ω + RᵀL_x) [EMB §3.4]; F the model's forces (on the position of
 * an SE(3) factor a force in space, entering as RᵀF). \p Lq (nq nodes) and
 * \p Lu (nv) are the gradients of L; a Hamiltonian gives the same terms with
 * u = ∂H/∂p, Lq = −∂H/∂q, Lu = p. Returns 0 or CL_ENOMEM.
 */
int cl_model_graph_terms(cl_expr_dag *g, const cl_model *m, const int *u, const int *Lq, const int *Lu, int *G);
/**
 * v ← (I − qqᵀ/|q|²)v on the three nodes v[0], v[st], v[2 st], q the unit
 * vector whose first coordinate is input \p qat. Returns 0 or CL_ENOMEM.
 */
int cl_model_graph_project3(cl_expr_dag *g, int *v, size_t st, size_t qat);
/** Every S² block of the velocity-sized \p v (stride \p st) made tangent (cl_model_graph_project3()). */
int cl_model_graph_project_blocks(cl_expr_dag *g, const cl_model *m, int *v, size_t st);
/** The nodes of a × b (three nodes each) into \p out (not overlapping them). Returns 0 or CL_ENOMEM. */
int cl_model_graph_cross(cl_expr_dag *g, const int *a, const int *b, int *out);

/**
 * The Euler–Lagrange (Euler–Poincaré on the groups) equations of the
 * Lagrangian m->L, with the model's forces and constraints, solved for the
 * accelerations (model_graph_lagr.c): out[0 … nq) the rates of the
 * configuration, out[nq … nq + nv) the velocities' rates, mult[0 … ncon)
 * the constraints' multipliers λ (`rhs --multipliers`). \p time is the
 * input of t or −1. Returns 0 or CL_ENOMEM.
 */
int cl_model_graph_lagrange(cl_expr_dag *g, const cl_model *m, long time, int *out, int *mult);
/**
 * The same equations unsolved, in the mass-matrix form (model_graph_lagr.c):
 * qd[0 … nq) the configuration's rates, the velocity Hessian M (nv × nv,
 * row-major) and F = G + F_ext − L_uq q̇ − L_ut (nv) of M u̇ = F + Bᵀλ,
 * and the k rows B u̇ = β (B k × nv, β k) of the accelerations' conditions:
 * q·q̈ = −|q̇|² per S² factor in the order declared, then A u̇ = −b per
 * constraint (k = the S² factors + ncon). Returns 0 or CL_ENOMEM.
 */
int cl_model_graph_mass(cl_expr_dag *g, const cl_model *m, long time, int *qd, int *M, int *F, int *B, int *beta);
/**
 * Hamilton's equations of the Hamiltonian m->L in the model's momenta (form
 * p; Lie–Poisson on the groups, [S2 (23)] on S²), model_graph_ham.c: out as
 * cl_model_graph_lagrange(), the momenta's rates last; \p vel (nv nodes, or
 * NULL) the velocities ∂H/∂p of the SO(3) and SE(3) factors, which no
 * output is (−1 for the others: their velocity is the output q'). Returns
 * 0 or CL_ENOMEM.
 */
int cl_model_graph_hamilton(cl_expr_dag *g, const cl_model *m, long time, int *out, int *vel);
#endif

/**
 * \file model.h
 * \brief Model files: a mechanical system written the way a paper writes it
 *        (configuration manifold, parameters, Lagrangian, invariants), read
 *        into an expression graph, and the model as a system of the command
 *        line (system.h) whose vector fields come from L through the exact
 *        derivatives of the expression engine (lagr_s2.h; lagr_so3.h and
 *        lagr_flat.h for SO(3), S¹ and Rᵏ factors).
 *
 * The grammar is documented at the top of model.c and on docs/models.md.
 */
#ifndef CL_MODEL_H
#define CL_MODEL_H
#include <stddef.h>
#include "check.h"
#include "expr.h"
#include "lagr_prod.h"
#include "lagr_s2.h"
#include "system.h"

/** Documented limits of a model. */
#define CL_MODEL_MAX_BYTES (1L << 20) /**< size of a model file */
#define CL_MODEL_MAX_PARAMS 256       /**< parameters */
#define CL_MODEL_MAX_INVARIANTS 32    /**< declared invariants */
#define CL_MODEL_MAX_NAME 32          /**< bytes of a name */
#define CL_MODEL_MAX_EQUILIBRIA 8     /**< declared equilibria */
#define CL_MODEL_MAX_LETS 256         /**< let statements */
#define CL_MODEL_MAX_CONSTRAINTS 32   /**< constraint statements */

/** An S¹ or Rᵏ factor of a model (model_flat.c): its coordinates are inputs at .. at + dim − 1. */
typedef struct cl_model_flat {
    char name[CL_MODEL_MAX_NAME + 1];
    int dim;   /**< 1 (S1, R1) or 3 (R3) */
    int angle; /**< 1: an S¹ angle */
    size_t at; /**< its first coordinate */
} cl_model_flat;

/**
 * A factor of a model's manifold, as declared (every model has its list;
 * a model of mixed factors or of SE(3) is run by the product engine,
 * lagr_prod.h, whose input layout the offsets follow).
 */
typedef struct cl_model_factor {
    int kind;                                /**< enum cl_lagr_factor_kind */
    int k;                                   /**< Rᵏ: k (1 or 3) */
    char name[2][CL_MODEL_MAX_NAME + 1];     /**< the configuration's names: SE(3): attitude R and position x */
    char vname[2][CL_MODEL_MAX_NAME + 1];    /**< the velocities' names: SO(3): Ω; SE(3): Ω and V (else empty) */
    size_t q, v;                             /**< its first configuration and velocity input */
    long pos;                                /**< where it is declared */
} cl_model_factor;

/** A parsed model. */
typedef struct cl_model {
    char *source;          /**< the file's name, for messages */
    char *text;            /**< the file's text (node positions are offsets into it) */
    cl_expr_dag *g;        /**< L and the invariants; inputs: q (3n), q̇ (3n), parameters (SO(3): R, Ω, parameters) */
    size_t n;              /**< unit vectors q_1 … q_n on S² */
    int so3;               /**< 1: the manifold is SO(3) (model_so3.c); inputs R (9), Ω (3), parameters */
    char so3name[2][CL_MODEL_MAX_NAME + 1]; /**< names of R and of its body angular velocity Ω */
    size_t nflat;          /**< S¹ and Rᵏ factors (model_flat.c); inputs q (d), q̇ (d), parameters */
    cl_model_flat *flat;
    size_t d;              /**< their coordinates */
    char (*qname)[CL_MODEL_MAX_NAME + 1];
    size_t nparam;
    char (*pname)[CL_MODEL_MAX_NAME + 1];
    char **pdef;           /**< default values, decimal strings as written */
    int L;                 /**< node of the Lagrangian (of the Hamiltonian when ham) */
    size_t ninv;
    char (*invname)[CL_MODEL_MAX_NAME + 1];
    int *inv;              /**< nodes of the invariants */
    int timed;             /**< L or a force depends on the time t (input 6n): the energy is then not conserved */
    size_t neq;
    char (*eqname)[CL_MODEL_MAX_NAME + 1];
    int *eq;               /**< equilibrium k: nodes eq[nq k … nq k + nq) of the configuration (velocities zero), in the parameters only */
    int *eqv;              /**< equilibrium k: nodes eqv[nv k … nv k + nv) of the velocities (−1: zero); only SO(3)/SE(3) body velocities are given (a relative equilibrium) */
    long *eqpos;           /**< where equilibrium k is written (offset in text) */
    int *force;            /**< generalized forces: a node per velocity input (−1: none), NULL when no force is declared */
    size_t nfac;           /**< the factors as declared */
    cl_model_factor *fac;
    int prod;              /**< 1: run by the product engine; inputs q (nq), velocities (nv), t, parameters */
    size_t nq, nv;         /**< numbers of the configuration and of the velocities (every kind) */
    size_t nlet;           /**< `let NAME = EXPR`: names of values, in the order written */
    char (*letname)[CL_MODEL_MAX_NAME + 1];
    cl_expr_value *let;
    int defining, let_self; /**< while a let is parsed: its own name was used */
    int ham;               /**< 1: a Hamiltonian model (model_ham.c): node L is H, the velocity inputs are the momenta */
    long hampos;           /**< where its hamiltonian statement starts */
    int ham_prime;         /**< a velocity was written in a Hamiltonian model (the parse error's rule) */
    size_t ncon;           /**< `constraint NAME = EXPR` (model_constraint.c), in the order written */
    char (*conname)[CL_MODEL_MAX_NAME + 1];
    int *con;              /**< the velocity-level node: c(q, u) (nonholonomic) or its rate ḣ (holonomic) */
    int *conh;             /**< the holonomic constraint h(q, t) itself, or −1 (nonholonomic) */
    int *cont;             /**< ∂c/∂t of the velocity-level node of a constraint depending on the time t, or −1 */
    long *conpos;          /**< where constraint k is written */
    int constrained;       /**< the text has a constraint statement (found in pass 1: the product engine runs it) */
    size_t ndist;          /**< the quasivelocities of the form dist (model_prod.c), 0 until the first core chose them */
    int dist[192];         /**< the velocity component of each (at most the product's 192 velocities) */
} cl_model;

/**
 * Parse the model in \p len bytes of \p text; \p source names it in
 * messages. Errors: CL_EPARSE with `SOURCE:LINE:COL` in e->arg and what was
 * expected in e->what; CL_EDIM beyond a documented limit; CL_ENOMEM.
 */
int cl_model_parse(cl_model **out, const char *source, const char *text, size_t len, cl_sys_error *e);
/** Read and parse the file \p path (errors as cl_model_parse, and CL_EPARSE when it cannot be read). */
int cl_model_load(cl_model **out, const char *path, cl_sys_error *e);
void cl_model_free(cl_model *m);
/**
 * Load the shipped model models/NAME.model: the file in the directory
 * $CHARTLESS_MODELS when that is set, else the text embedded in the library
 * at build time (so the oracle runs from any folder). Errors as
 * cl_model_load(), and CL_EPARSE for a name that is not shipped.
 */
int cl_model_load_shipped(cl_model **out, const char *name, cl_sys_error *e);
/**
 * The text of the shipped model models/NAME.model as embedded at build time
 * (its length in \p len when not NULL), or NULL when no such model is shipped.
 */
const char *cl_model_shipped_text(const char *name, size_t *len);
/** The name of the i-th shipped model (i from 0), or NULL past the last. */
const char *cl_model_shipped_name(size_t i);
/** 1 when node \p id of the model's graph depends on the time t, else 0. */
int cl_model_depends_on_time(const cl_model *m, int id);
/** The input of the time t in the model's graph, or −1 for a kind without it. */
long cl_model_time_input(const cl_model *m);
/** Index of parameter \p name, or −1. */
long cl_model_param_index(const cl_model *m, const char *name);
/** `SOURCE:LINE:COL` of byte offset \p pos of the model's text, into \p buf. */
void cl_model_where(const cl_model *m, long pos, char *buf, size_t len);


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
    int simplified;   /**< 1: out and mult simplified on the manifold (expr_simplify.h); 0: as derived; −1: past the simplifier's budget, as derived */
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
 * cl_model_eom_new() with the simplifier (cl_expr_simplify(), on the
 * manifold: |q| = 1 and q·q' = 0 on S², RᵀR = I on SO(3)) when \p simplify
 * is 1, the equations as derived when 0 (the oracle compares the two). A
 * model whose simplification runs past its budget keeps the derived
 * equations, with a warning on stderr.
 */
int cl_model_eom_build(cl_model_eom **out, const cl_model *m, int simplify, cl_sys_error *e);
/** Release (NULL allowed). */
void cl_model_eom_free(cl_model_eom *eom);

/** How the field of a model's first form is evaluated (cl_model_field_mode()). */
enum cl_model_field_mode {
    CL_MODEL_FIELD_COMPILED,    /**< default: the graph of cl_model_eom interpreted, compiled once that pays (docs/eom.md) */
    CL_MODEL_FIELD_INTERPRETED, /**< the graph interpreted, never compiled (`--interpreted`) */
    CL_MODEL_FIELD_ENGINE       /**< the kind's engine: derivatives of L by automatic differentiation at each call */
};
/**
 * Choose how the model systems opened after this call evaluate the field of
 * their first form (qdot, ROmega, or p for a Hamiltonian), whose graph
 * cl_model_eom_new() builds for every model; the other forms, the
 * multipliers and the invariants are the engine's.
 * The graph interpreted and compiled give the same numbers bit for bit.
 */
void cl_model_field_mode(int mode);
/** The mode of cl_model_field_mode(). */
int cl_model_field_mode_get(void);
/** The name of input \p k of the graph: a component of the state as `rhs` names it (theta, theta'), t, or a parameter. */
void cl_model_eom_input_name(const cl_model *m, const cl_model_eom *eom, long k, char *buf, size_t len);

/**
 * The model file \p path as a system of the command line: its parameters
 * are the model's (defaults from the file), its forms qdot, omega, mu, pi,
 * its invariants the energy, the declared ones and the constraint drift.
 * Release with cl_model_system_free(). Errors as cl_model_load().
 */
int cl_model_system_new(const cl_system **out, const char *path, cl_sys_error *e);
void cl_model_system_free(const cl_system *s);
/** The model behind a system of cl_model_system_new() (owned by it), or NULL for any other system. */
const cl_model *cl_model_system_model(const cl_system *s);

/**
 * The oracle's rows for the model file \p path (`chartless oracle --model`):
 * MODEL.forms, MODEL.legendre, MODEL.el, MODEL.conserve (the energy, or
 * the balance E + ∫ ∂L/∂t dt when L depends on t, unless a force is
 * declared, and the declared invariants; absent when there is nothing to
 * conserve) and MODEL.eq.NAME per declared
 * equilibrium, MODEL the file's base name; for a model of SO(3), S¹ or Rᵏ
 * factors, through its system's descriptor, MODEL.forms, MODEL.legendre,
 * MODEL.invariants and MODEL.conserve. \p set holds \p nset
 * `name=value` overrides of the parameters' defaults. The model becomes the
 * current one (cl_model_oracle_model()) until cl_model_oracle_rows_free().
 * Errors as cl_model_load(), and CL_EPARAM / CL_EPARSE for a bad override.
 */
int cl_model_oracle_rows(const cl_check **rows, size_t *nrows, const char *path, int nset, const char *const *set,
                         cl_sys_error *e);
/** Release the rows and the current model. */
void cl_model_oracle_rows_free(void);
/**
 * The short versions of the rows (`oracle --quick`), for the rows
 * cl_model_oracle_rows() makes after this call: a quarter of the random
 * states (at least one) and trajectories 8 times shorter.
 */
void cl_model_oracle_set_quick(int on);
/**
 * Run the short version (--quick) of row MODEL.\p suffix of \p m (taken
 * over, and released) at precision \p prec, its double copy when \p in_double:
 * the registered checks model.engine.* that take the model rows into the
 * quick oracle. CL_EPARAM when \p m has no such row; the current model and
 * rows are released.
 */
int cl_model_oracle_run_short(cl_model *m, const char *suffix, int in_double, cl_check_result *res, cl_prec_t prec);
/** The model the rows look at, or NULL. */
const cl_model *cl_model_oracle_model(void);

#define CL_TEMPLATE_HEADER "model_rows_decl.h"
#include "cl_instantiate.h"
#endif

/**
 * \file model_lang.h
 * \brief The model language (model/lang/): a parsed model (cl_model), its
 *        limits, where a byte of its text stands, its parameters and its
 *        time dependence. The parser itself (model.c) is reached through
 *        cl_model_parse() (model_system.h), which gives it the factor kinds'
 *        names (model_text.h, cl_model_grammar).
 */
#ifndef CL_MODEL_LANG_H
#define CL_MODEL_LANG_H
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

/** Release a model (NULL allowed). */
void cl_model_free(cl_model *m);
/** 1 when node \p id of the model's graph depends on the time t, else 0. */
int cl_model_depends_on_time(const cl_model *m, int id);
/** The input of the time t in the model's graph, or −1 for a kind without it. */
long cl_model_time_input(const cl_model *m);
/** Index of parameter \p name, or −1. */
long cl_model_param_index(const cl_model *m, const char *name);
/** `SOURCE:LINE:COL` of byte offset \p pos of the model's text, into \p buf. */
void cl_model_where(const cl_model *m, long pos, char *buf, size_t len);
#endif

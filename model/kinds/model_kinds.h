/*
 * What model/kinds/ offers (internal, not installed): a factor kind is one
 * table of hooks (cl_model_kind) -- (S²)ⁿ in model_s2.c, SO(3) in
 * model_so3.c, S¹ and Rᵏ in model_flat.c, any product in model_prod.c (with
 * constraints and the form dist, model_constraint.c), Hamiltonians over them
 * in model_ham.c -- each with the lookup of its names; the kind of a model
 * and the grammar the parser is given (model_kinds.c).
 */
#ifndef CL_MODEL_KINDS_H
#define CL_MODEL_KINDS_H
#include "model_text.h"

/** A kind of model: its forms and its core (a lagr_* object at one precision, as void *). */
typedef struct cl_model_kind {
    const char *const *forms;  /**< NULL-terminated; forms[0] is the default */
    const char *state_help;
    /** What the model is, for the summary, e.g. "a rotation on SO(3)". */
    void (*what)(const cl_model *m, char *buf, size_t len);
    const char *const *drift_names; /**< the last invariants (constraint drift), NULL-terminated, or NULL for none */
    const char *singular;      /**< the message of CL_ESINGULAR */
    /**
     * 1: the state is m->n unit vectors q_i, then n vectors tangent to them
     * (the system's unit_vectors): the command line normalizes q_i and
     * projects v_i itself, after the system's check of the state.
     */
    int unit_vectors;
    /** The core of \p m at \p prec into \p *out: CL_OK, or the constructor's status with \p *out NULL. */
    int (*open)(void **out, const cl_model *m, cl_prec_t prec);
    void (*close)(void *core);
    void (*set_param)(void *core, size_t k, mpfr_srcptr v);
    /** The time t of the next evaluations, for a model whose L or a force depends on t (NULL: no kind of such models). */
    void (*set_time)(void *core, mpfr_srcptr t);
    /** After the parameters (and the time) are set: what the kind derives from them once per core, the basis of the form dist (NULL: nothing). */
    int (*ready)(void *core, const cl_model *m, cl_prec_t prec);
    int (*bad_node)(const void *core);
    size_t (*dim)(const cl_model *m, int form);
    int (*rhs)(void *core, int form, mpfr_ptr dx, mpfr_srcptr x);
    int (*convert)(void *core, int from, mpfr_srcptr x, int to, mpfr_ptr y);
    /** Node \p id (the energy for id < 0) at x. */
    int (*value)(void *core, int id, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Validate a state and bring it onto the manifold in place, or a CL_E code with the message in err. */
    int (*project)(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen);
    /** The constraint drifts, one per drift name, into out (when drift_names is set). */
    void (*drift)(const cl_model *m, int form, mpfr_ptr out, mpfr_srcptr x);
    /** A random state of form 0 (converted to \p form by the system). */
    int (*random)(const cl_model *m, mpfr_ptr x, cl_rng *g);
    void (*component_name)(const cl_model *m, int form, size_t i, char *buf, size_t len);
    /** Declared equilibrium k in form \p form (NULL: no kind of models with equilibria). */
    int (*equilibrium)(void *core, const cl_model *m, int k, int form, mpfr_ptr x);
    /**
     * Relative equilibrium k (NULL: the kind has none): the field of the frame in which it rests at x
     * into xi (N), the directions of its symmetry at x into Y (N each), as the system's `relative` hook.
     */
    int (*relative)(void *core, const cl_model *m, int k, int form, mpfr_ptr xi, mpfr_ptr Y, mpfr_srcptr x);
    /** The holonomic constraints of the state (system.h's constraints hook, NULL: none beyond the unit vectors'). */
    int (*constraints)(const cl_model *m, int form, mpfr_ptr out, mpfr_srcptr x);
    /**
     * The model's own constraints (NULL: a kind without them): check a state against them to 2^\p tol_log2 and
     * clean it, in place.
     */
    int (*constrain)(void *core, const cl_model *m, int form, mpfr_ptr x, double tol_log2, char *err, size_t errlen);
    /** Their values at x: per constraint h then ḣ (holonomic) or c; how many, or a CL_E code. */
    int (*constraint_values)(void *core, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Their multipliers λ at x. */
    int (*multipliers)(void *core, int form, mpfr_ptr lam, mpfr_srcptr x);
} cl_model_kind;

/**
 * The hooks of a kind whose core is a cl_lagr_K_mp object (lagr_K.h):
 * CL_MODEL_KIND_LAGR_DEFINE(K) defines K_close, K_set_param, K_bad_node,
 * K_rhs, K_convert and K_value, each forwarding to cl_lagr_K_..._mp;
 * CL_MODEL_KIND_HOOKS(K) names them in the kind's cl_model_kind initializer,
 * with the kind's own K_forms, K_what, K_open, K_dim, K_project, K_random
 * and K_component_name.
 */
#define CL_MODEL_KIND_LAGR_DEFINE(K)                                                                                    \
    static void K##_close(void *core) { cl_lagr_##K##_free_mp(core); }                                                \
    static void K##_set_param(void *core, size_t k, mpfr_srcptr v) { cl_lagr_##K##_set_param_mp(core, k, v); }       \
    static int K##_bad_node(const void *core) { return cl_lagr_##K##_bad_node_mp(core); }                            \
    static int K##_rhs(void *core, int form, mpfr_ptr dx, mpfr_srcptr x) { return cl_lagr_##K##_rhs_mp(core, form, dx, x); } \
    static int K##_convert(void *core, int from, mpfr_srcptr x, int to, mpfr_ptr y) { return cl_lagr_##K##_convert_mp(core, from, x, to, y); } \
    static int K##_value(void *core, int id, int form, mpfr_ptr out, mpfr_srcptr x) { return cl_lagr_##K##_value_mp(core, id, form, out, x); }

#define CL_MODEL_KIND_HOOKS(K)                                                                                            \
    .forms = K##_forms, .what = K##_what, .open = K##_open, .close = K##_close, .set_param = K##_set_param,           \
    .bad_node = K##_bad_node, .dim = K##_dim, .rhs = K##_rhs, .convert = K##_convert, .value = K##_value,             \
    .project = K##_project, .random = K##_random, .component_name = K##_component_name


/** The (S²)ⁿ kind (model_s2.c). */
extern const cl_model_kind cl_model_kind_s2;
/** The kind of \p m: SO(3), S¹ and Rᵏ, or (S²)ⁿ factors. */
const cl_model_kind *cl_model_kind_of(const cl_model *m);
/** 1 when neither L, a force nor a constraint depends on the configuration of rotation factor \p f (its attitude, and an SE(3) position): its rotations are a symmetry. */
int cl_model_factor_cyclic(const cl_model *m, const cl_model_factor *f);

/** The SO(3) kind (model_so3.c) and the lookup of its names. */
extern const cl_model_kind cl_model_kind_so3;
int cl_model_so3_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);

/** The product kind (model_prod.c) and the lookup of its names. */
extern const cl_model_kind cl_model_kind_prod;
int cl_model_prod_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
/** The product kind of a model with constraints: the forms of the product and dist (model_constraint.c). */
extern const cl_model_kind cl_model_kind_prod_constrained;
/**
 * The basis of the form dist of \p lg, a product engine (cl_lagr_prod_mp) of
 * the constrained model \p m, its parameters set: the first core chooses it
 * at a fixed random state brought onto the constraints and records it in
 * m->dist; every core takes that choice. 0, or a CL_E code (out of memory;
 * a model with no state where the rows are independent keeps no form dist:
 * its rhs is then CL_EDIM).
 */
int cl_model_dist_choose(const cl_model *m, void *lg, cl_prec_t prec);
/** The number of quasivelocities of \p m: nv − constraints − S² factors. */
size_t cl_model_dist_dim(const cl_model *m);
/**
 * The declared equilibrium k of a model run by the product engines, in form \p form, through the hooks of
 * \p kind: its configuration (reference: unit vectors (0, 0, 1), rotations I), zero velocities in form
 * \p vel, then carried to \p form.
 */
int cl_model_rest_equilibrium(void *core, const cl_model *m, const cl_model_kind *kind, int k, int form, int vel, mpfr_ptr x);
/** The equilibrium k of a product model in form \p form (its core \p core, a cl_lagr_prod_mp). */
int cl_model_prod_equilibrium(void *core, const cl_model *m, int k, int form, mpfr_ptr x);

/** max |(RᵀR − I)ᵢⱼ| into \p d. */
void cl_model_rotation_drift(mpfr_ptr d, mpfr_srcptr R);

/** The Hamiltonian kind (model_ham.c): H on S¹, Rᵏ, SO(3) and SE(3) factors, forms p and qdot. */
extern const cl_model_kind cl_model_kind_ham;
/** The names of a Hamiltonian model: p_NAME the momentum of an S¹ or Rᵏ factor; NAME' refused (m->ham_prime set). */
int cl_model_ham_lookup(cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
/** The engine of a Hamiltonian model after pass 1 (the product's, without S² factors); 0, or the error recorded as cl_text_fail(). */
int cl_model_ham_settle(cl_model *m, int *failed, cl_sys_error *e);
/** A Hamiltonian model once parsed: no name p_NAME taken, H depends on every momentum; 0, or the error as cl_text_fail(). */
int cl_model_ham_finish(cl_model *m, int *failed, cl_sys_error *e);
/**
 * Decide the kind of constraint \p k of \p m (model_constraint.c), its node
 * m->con[k] parsed: holonomic (no velocity in it: m->conh[k] the node, and
 * m->con[k] becomes its rate ḣ) or nonholonomic (linear in the velocities:
 * m->conh[k] = −1). Else CL_EPARSE with the rule in \p why; CL_ENOMEM.
 */
int cl_model_constraint_settle(cl_model *m, size_t k, char *why, size_t len);

/** The S¹ × Rᵏ kind (model_flat.c) and the lookup of its names. */
extern const cl_model_kind cl_model_kind_flat;
int cl_model_flat_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
/** max |(RᵀR − I)ᵢⱼ| into \p d. */
void cl_model_rotation_drift(mpfr_ptr d, mpfr_srcptr R);
/** The names of an (S²)ⁿ model: q_i, q_i', the parameters and t. */
int cl_model_s2_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
/** The grammar of every kind, for cl_model_lang_parse(). */
extern const cl_model_grammar cl_model_kinds_grammar;
/* The declared equilibria of an (S²)ⁿ model as states, in each scalar kind (model_s2_eq.c). */
#define CL_TEMPLATE_HEADER "model_s2_eq_decl.h"
#include "cl_instantiate.h"
#endif

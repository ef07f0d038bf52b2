/*
 * Models on manifolds other than (S²)ⁿ as systems of the command line
 * (internal to the check kit): what a kind of manifold (SO(3) in
 * model_so3.c; S¹ and Rᵏ in model_flat.c) provides, and the one system that
 * runs any of them (model_ext.c), and what the model systems share. Used by
 * model.c and the kinds only.
 */
#ifndef CL_MODEL_EXT_H
#define CL_MODEL_EXT_H
#include "model.h"

/** A kind of model: its forms and its core (a lagr_* object at one precision, as void *). */
typedef struct cl_model_kind {
    const char *const *forms;  /**< NULL-terminated; forms[0] is the default */
    const char *state_help;
    const char *what;          /**< for the summary, e.g. "a rotation on SO(3)" */
    const char *drift_name;    /**< the last invariant (constraint drift), or NULL for none */
    const char *singular;      /**< the message of CL_ESINGULAR */
    void *(*open)(const cl_model *m, cl_prec_t prec);
    void (*close)(void *core);
    void (*set_param)(void *core, size_t k, mpfr_srcptr v);
    int (*bad_node)(const void *core);
    size_t (*dim)(const cl_model *m, int form);
    int (*rhs)(void *core, int form, mpfr_ptr dx, mpfr_srcptr x);
    int (*convert)(void *core, int from, mpfr_srcptr x, int to, mpfr_ptr y);
    /** Node \p id (the energy for id < 0) at x. */
    int (*value)(void *core, int id, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Validate a state and bring it onto the manifold in place, or a CL_E code with the message in err. */
    int (*project)(const cl_model *m, int form, mpfr_ptr x, char *err, size_t errlen);
    /** The constraint drift into out (when drift_name is set). */
    void (*drift)(const cl_model *m, int form, mpfr_ptr out, mpfr_srcptr x);
    /** A random state of form 0 (converted to \p form by the system). */
    int (*random)(const cl_model *m, mpfr_ptr x, cl_rng *g);
    void (*component_name)(const cl_model *m, int form, size_t i, char *buf, size_t len);
} cl_model_kind;

/** Resolve parameter \p name (\p len bytes) of \p m as input base + k; 0, or −1 when it is no parameter. */
int cl_model_lookup_param(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, long base, cl_expr_value *out);
/**
 * What went wrong at a state, into \p err: for CL_EDOMAIN at node \p bad, the
 * subexpression of the model's text; \p singular for CL_ESINGULAR.
 */
void cl_model_explain(const cl_model *m, int bad, int st, const char *singular, char *err, size_t errlen);

/** The model \p m of kind \p kind as a system (it takes \p m over, also on failure). */
int cl_model_ext_system_new(const cl_system **out, cl_model *m, const cl_model_kind *kind, cl_sys_error *e);
/** Release a system of cl_model_ext_system_new(). */
void cl_model_ext_system_free(const cl_system *s);

/** The SO(3) kind (model_so3.c) and the lookup of its names. */
extern const cl_model_kind cl_model_kind_so3;
int cl_model_so3_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);

/** The S¹ × Rᵏ kind (model_flat.c) and the lookup of its names. */
extern const cl_model_kind cl_model_kind_flat;
int cl_model_flat_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
#endif

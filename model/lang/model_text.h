/*
 * What the rooms above model/lang/ share of the language (internal, not
 * installed): the statements of a text (model_text.c, also the field files'),
 * the names every kind resolves alike (parameters, the nodes of R' = R hat(W)),
 * and the grammar: the hooks by which the parser (model.c) asks the factor
 * kinds for their names and rules, given by the room that opens a model
 * (model/load/, cl_model_parse()).
 */
#ifndef CL_MODEL_TEXT_H
#define CL_MODEL_TEXT_H
#include "model_lang.h"

/* Statements of a text, shared by the model and field parsers (model_text.c; used by model.c, field.c). */
/** `SOURCE:LINE:COL` of byte offset \p pos of \p text (NUL-terminated), into \p buf. */
void cl_text_where(const char *source, const char *text, long pos, char *buf, size_t len);
/**
 * Record the first error of a parse of \p text: unless *\p failed is set
 * already, fill \p e (what from \p fmt, arg the place of \p pos,
 * cl_text_where()) and set *\p failed to \p code. Returns *\p failed.
 */
int cl_text_fail(int *failed, cl_sys_error *e, const char *source, const char *text, long pos, int code, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/**
 * A domain error at byte \p pos of \p text into \p err: "the WHAT is not
 * defined at this state: SOURCE:LINE:COL: 'TEXT' leaves its domain (WHY)",
 * TEXT the bytes from \p pos to the end of the line (at most 24).
 */
void cl_text_domain_error(const char *source, const char *text, long pos, const char *what, const char *why, char *err,
                          size_t errlen);
/** The end of the statement starting at \p at of \p s (\p len bytes): the start of the next line that does not begin with white space. */
size_t cl_text_statement_end(const char *s, size_t len, size_t at);
/** Move *\p i past spaces, tabs and line ends, not beyond \p end. */
void cl_text_skip_blank(const char *s, size_t *i, size_t end);
/** The length of the name (a letter, then letters, digits and '_') at \p i of \p s, 0 when none. */
size_t cl_text_name(const char *s, size_t i, size_t end);
/** 1 when the \p n bytes at \p s are the name \p name, else 0. */
int cl_text_name_is(const char *name, const char *s, size_t n);
/** Index of the name at \p s (\p n bytes) among the \p count names of a model's list \p names, or −1. */
long cl_model_name_index(const char (*names)[CL_MODEL_MAX_NAME + 1], size_t count, const char *s, size_t n);
/** 1 when all of \p s is a finite decimal number (a parameter's value, read later at the working precision), else 0. */
int cl_text_is_number(const char *s);
/**
 * Read the file \p path, at most \p max + 1 bytes (the parser reports a
 * file beyond \p max), into a new buffer *\p buf (free it) of *\p len bytes.
 * Errors: CL_EPARSE `cannot open PATH` with the reason (strerror) as the
 * argument, or `cannot read the WHAT file` naming \p path; CL_ENOMEM.
 */
int cl_text_read(const char *path, long max, const char *what, char **buf, size_t *len, cl_sys_error *e);

/** Resolve parameter \p name (\p len bytes) of \p m as input base + k; 0, or −1 when it is no parameter. */
int cl_model_lookup_param(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, long base, cl_expr_value *out);
/** The nodes of Ṙ = RŴ into \p out (9) from the nodes of R (9) and w (3); 0, or −1 when the graph is full. */
int cl_model_rdot_nodes(cl_expr_dag *g, const int *R, const int *w, int *out);
/** The nodes of A v into \p out (3) from the nodes of A (9, row-major) and v (3); 0, or −1 when the graph is full. */
int cl_model_mat_vec_nodes(cl_expr_dag *g, const int *A, const int *v, int *out);
/** Where the first `hamiltonian` statement of \p s (\p len bytes) starts, or −1 for a Lagrangian model. */
long cl_model_ham_prescan(const char *s, size_t len);
/** The message of a velocity written in a Hamiltonian model. */
#define CL_MODEL_HAM_VELOCITY "a hamiltonian model has no velocities: H, the invariants, forces and lets are functions of the " \
    "configuration and the momenta (p_x for a factor x, Pi and P as named in SO3 (Pi) and SE3 (Pi, P))"

/** What the parser asks of the factor kinds (kinds/model_kinds.c gives cl_model_kinds_grammar). */
typedef struct cl_model_grammar {
    /** A name of the manifold's factors (with \p prime its velocity), a parameter or t: 0, or −1 when unknown. */
    int (*lookup)(cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);
    /** The engine of a Hamiltonian model after pass 1; 0, or the error recorded as cl_text_fail(). */
    int (*ham_settle)(cl_model *m, int *failed, cl_sys_error *e);
    /** A Hamiltonian model once parsed; 0, or the error recorded as cl_text_fail(). */
    int (*ham_finish)(cl_model *m, int *failed, cl_sys_error *e);
    /** Decide the kind of constraint \p k, its node parsed; 0, or CL_EPARSE with the rule in \p why, CL_ENOMEM. */
    int (*constraint_settle)(cl_model *m, size_t k, char *why, size_t len);
} cl_model_grammar;
/** Parse a model as cl_model_parse() does, the names of its factors by \p gr. */
int cl_model_lang_parse(cl_model **out, const char *source, const char *text, size_t len, const cl_model_grammar *gr,
                        cl_sys_error *e);
#endif

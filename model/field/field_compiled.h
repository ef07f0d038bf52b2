/*
 * The field of a model's first form from its equations of motion as one
 * graph (cl_model_eom), interpreted, and compiled once that pays
 * (field_compiled.c): the hook of model_ext.c. Internal to the model
 * language.
 */
#ifndef CL_FIELD_COMPILED_H
#define CL_FIELD_COMPILED_H
#include "model_eom.h"

/** What the instances of one model system share: the graph, its compiled field, the evaluations so far. */
typedef struct cl_model_fast cl_model_fast;
/** One instance's evaluator: the inputs at its precision, the interpreter, the compiled field's runner. */
typedef struct cl_model_fast_inst cl_model_fast_inst;

/**
 * The shared part of model \p m whose first form has \p dim0 numbers (nothing is built yet: a graph whose
 * state is not of that size is not used), or NULL when the mode is CL_MODEL_FIELD_ENGINE or out of memory.
 */
cl_model_fast *cl_model_fast_new(const cl_model *m, size_t dim0);
void cl_model_fast_free(cl_model_fast *f);
/** An evaluator at \p prec of \p f (NULL allowed: then NULL), or NULL when out of memory. */
cl_model_fast_inst *cl_model_fast_inst_new(cl_model_fast *f, cl_prec_t prec);
void cl_model_fast_inst_free(cl_model_fast_inst *fi);
/** Parameter \p k of the model for the next evaluations. */
void cl_model_fast_set_param(cl_model_fast_inst *fi, size_t k, mpfr_srcptr v);
/** The time t for the next evaluations. */
void cl_model_fast_set_time(cl_model_fast_inst *fi, mpfr_srcptr t);
/**
 * dx = the field of form 0 at x from the graph: 0; CL_EDOMAIN when a node
 * leaves its domain (the engine then says why); CL_EDIM when the graph does
 * not cover the model (the engine evaluates it); CL_ENOMEM.
 */
int cl_model_fast_rhs(cl_model_fast_inst *fi, mpfr_ptr dx, mpfr_srcptr x);
/** How many models' graphs the process keeps for the next model of the same text (at most 16: the least recently used go). */
size_t cl_model_fast_cached(void);
#endif

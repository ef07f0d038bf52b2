/*
 * Models on SO(3) (internal to the check kit): the names of a model whose
 * manifold is `R : SO3` and the model as a system of the command line, with
 * the vector fields of lagr_so3.h. Used by model.c only.
 */
#ifndef CL_MODEL_SO3_H
#define CL_MODEL_SO3_H
#include "model.h"

/**
 * Resolve a name of an SO(3) model (the lookup of cl_expr_parse): R is the
 * 3×3 matrix of inputs 0 … 8 (row by row), R' the matrix Ṙ = RΩ̂, the body
 * angular velocity (W unless named) the vector of inputs 9 … 11, a parameter
 * input 12 + k. Returns 0, or −1 for an unknown name.
 */
int cl_model_so3_lookup(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);

/**
 * The SO(3) model \p m (read from the file m->source; the system takes it
 * over, also on failure) as a system of the command line, with the forms
 * and state layout of `--system heavy-top`: ROmega, RRdot, Rmu.
 */
int cl_model_so3_system_new(const cl_system **out, cl_model *m, cl_sys_error *e);
/** Release a system of cl_model_so3_system_new(). */
void cl_model_so3_system_free(const cl_system *s);
#endif

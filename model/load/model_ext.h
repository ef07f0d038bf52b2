/*
 * The one system of the command line that runs a model of any kind by its
 * kind's hooks (model_ext.c; internal to model/load/).
 */
#ifndef CL_MODEL_EXT_H
#define CL_MODEL_EXT_H
#include "model_kinds.h"
#include "model_system.h"

/** The model \p m of kind \p kind as a system (it takes \p m over, also on failure). */
int cl_model_ext_system_new(const cl_system **out, cl_model *m, const cl_model_kind *kind, cl_sys_error *e);
/** Release a system of cl_model_ext_system_new(). */
void cl_model_ext_system_free(const cl_system *s);
#endif

/*
 * The one system of the command line that runs a model of any kind by its
 * kind's hooks (model_ext.c), and the one draw of a model's random states
 * inside the domain of its formulas (model_draw.c); internal to model/
 * (load/ and the rows above it).
 */
#ifndef CL_MODEL_EXT_H
#define CL_MODEL_EXT_H
#include "model_kinds.h"
#include "model_system.h"
#define CL_TEMPLATE_HEADER "model_draw_decl.h"
#include "cl_instantiate.h"

/** The model \p m of kind \p kind as a system (it takes \p m over, also on failure). */
int cl_model_ext_system_new(const cl_system **out, cl_model *m, const cl_model_kind *kind, cl_sys_error *e);
/** The domain an instance of such a system draws its random states in (their counts, for a row's note). */
cl_model_domain_mp *cl_model_ext_domain(void *inst);
/** Release a system of cl_model_ext_system_new(). */
void cl_model_ext_system_free(const cl_system *s);

/** The draws of a random state inside a model's domain before it is undefined (model_draw_decl.h). */
#define CL_MODEL_DRAW_TRIES 64
/** 1 when the status \p st of a field or map says the state is outside what the model defines (a domain, a degenerate L, a Legendre map Newton could not invert). */
static inline int cl_model_outside(int st) { return st == CL_EDOMAIN || st == CL_ESINGULAR || st == CL_ENOCONV; }
/**
 * What went wrong at a state, into \p err: for CL_EDOMAIN at node \p bad, the
 * subexpression of the model's text; \p singular for CL_ESINGULAR.
 */
void cl_model_explain(const cl_model *m, int bad, int st, const char *singular, char *err, size_t errlen);
#endif

/**
 * \file model_system.h
 * \brief What model/load/ offers: a model file parsed with the names of
 *        every factor kind, loaded from a file or the shipped set, and run
 *        as a system of the command line (system.h) by its kind's hooks.
 */
#ifndef CL_MODEL_SYSTEM_H
#define CL_MODEL_SYSTEM_H
#include "model_lang.h"

/**
 * Parse the model in \p len bytes of \p text; \p source names it in
 * messages. Errors: CL_EPARSE with `SOURCE:LINE:COL` in e->arg and what was
 * expected in e->what; CL_EDIM beyond a documented limit; CL_ENOMEM.
 */
int cl_model_parse(cl_model **out, const char *source, const char *text, size_t len, cl_sys_error *e);
/** Read and parse the file \p path (errors as cl_model_parse, and CL_EPARSE when it cannot be read). */
int cl_model_load(cl_model **out, const char *path, cl_sys_error *e);
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
#endif

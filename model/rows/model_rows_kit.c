/*
 * The model the oracle's model rows look at (model_rows_kit.h): a
 * process-wide current model, as a system when it is not of S² factors,
 * and whether the rows run their short versions (oracle --quick). The
 * table of rows (model_rows.c) sets it; every row file reads it.
 */
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR
static cl_model *current;
static const cl_system *ext_sys; /* the current model as a system, when it is not of S² factors */
const cl_model *cl_model_oracle_model(void) { return current; }
const cl_system *cl_model_oracle_system(void) { return ext_sys; }

static int quick; /* the rows' short versions (oracle --quick) */
void cl_model_oracle_set_quick(int on) { quick = on != 0; }
int cl_model_oracle_quick(void) { return quick; }

int cl_model_oracle_set_model(cl_model *m, cl_sys_error *e)
{
    current = m;
    if (cl_model_kind_of(m) == &cl_model_kind_s2) return CL_OK;
    int st = cl_model_ext_system_new(&ext_sys, m, cl_model_kind_of(m), e); /* the system takes the model over */
    if (st) current = NULL;
    return st;
}

void cl_model_oracle_model_free(void)
{
    if (ext_sys) cl_model_ext_system_free(ext_sys); /* it owns the model */
    else cl_model_free(current);
    ext_sys = NULL;
    current = NULL;
}
#endif

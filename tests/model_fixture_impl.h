/*
 * A model file opened as a system of the command line at a precision, for
 * the MPFR tests of models (test_model_prod.c, test_model_ham.c): included
 * by them only, after scalar.h, model.h, system.h and tap.h.
 */
#ifndef CL_MODEL_FIXTURE_IMPL_H
#define CL_MODEL_FIXTURE_IMPL_H
#include <math.h>
#include <string.h>

typedef struct fixture {
    const cl_system *s;
    void *inst;
    cl_params p;
    int ok;
} fixture;

/* The model file \p path at \p prec bits with \p n overrides; f->ok 0 (and a diagnostic) when it cannot be opened. */
static void open_model(fixture *f, const char *path, int n, const char *const *keys, const char *const *vals, cl_prec_t prec)
{
    cl_sys_error e = {"", ""};
    memset(f, 0, sizeof *f);
    int st = cl_model_system_new(&f->s, path, &e);
    if (!st) st = cl_params_parse(&f->p, f->s->params, n, keys, vals, prec, &e);
    if (!st) st = f->s->create(&f->inst, &f->p, prec, &e);
    f->ok = !st;
    if (st) diag("%s: %s (%s)", path, e.what, e.arg);
}

static void close_model(fixture *f)
{
    if (f->inst) f->s->destroy(f->inst);
    if (f->s) {
        cl_params_free(&f->p);
        cl_model_system_free(f->s);
    }
}

/* log2 of max |a − b| relative to max(1, max |b|) */
static double rel_gap(rsrc a, rsrc b, size_t n) { return cl_rvec_log2_maxdiff_mp(a, b, n) - fmax(0, cl_rvec_log2_maxabs_mp(b, n)); }
#endif

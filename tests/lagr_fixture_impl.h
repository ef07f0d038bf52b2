/*
 * What the tests of the Lagrangians written as formulas share
 * (test_lagr_flat.c, test_lagr_s2.c, test_lagr_so3.c): a model text parsed
 * and opened as the object under test with its parameters at their
 * defaults, the worst discrepancy of a series of draws, the refusal of a
 * degenerate Lagrangian, and the run of a file's table of tests at one
 * precision, each on the fixture of its model (cl_test_main() of
 * tap_main.h runs it at each).
 *
 * The test defines, before including this header, LAGR_T, the object's
 * type without its kind suffix (cl_lagr_flat, cl_lagr_s2 or cl_lagr_so3),
 * and LAGR_NEW(out, m, p), its constructor for the parsed model m at
 * precision p: a status, the object in *out. A constructor with a size
 * (spheres, coordinates) also defines LAGR_NEW_SIZED(out, m, n, p), the same
 * with the size n, and LAGR_MAX_SIZE, the largest it accepts.
 */
#ifndef CL_LAGR_FIXTURE_IMPL_H
#define CL_LAGR_FIXTURE_IMPL_H
#include <string.h>
#include "tap_main.h"
#include "model.h"

/** Routine \p name of the object under test, for the current kind: LAGR_FN(_rhs) is CL_FN(cl_lagr_flat_rhs). */
#define LAGR_FN(name) CL_FN(CL_CAT(LAGR_T, name))
typedef CL_FN(LAGR_T) lagr_t;

/** A model, the object opened on it and the generator of the draws. */
typedef struct lagr_fixture {
    cl_model *m;
    lagr_t *lg;
    cl_rng g;
} lagr_fixture;

/**
 * Parse \p text and open it at precision \p p, every parameter at its
 * default (read as a decimal string at p). Returns 0, the parser's status
 * (its message then a diagnostic) or the constructor's. Release with
 * lagr_fixture_close() either way.
 */
static inline int lagr_fixture_open(lagr_fixture *f, const char *text, cl_prec_t p)
{
    cl_sys_error e;
    f->m = NULL;
    f->lg = NULL;
    int st = cl_model_parse(&f->m, "test", text, strlen(text), &e);
    if (st) {
        diag("%s (%s)", e.what, e.arg);
        return st;
    }
    st = LAGR_NEW(&f->lg, f->m, p);
    if (st) return st;
    for (size_t k = 0; k < f->m->nparam; k++) {
        R_DECL(v, p);
        CL_FN(cl_real_from_str)(v, f->m->pdef[k]);
        LAGR_FN(_set_param)(f->lg, k, v);
    }
    return CL_OK;
}

static inline void lagr_fixture_close(lagr_fixture *f)
{
    LAGR_FN(_free)(f->lg);
    cl_model_free(f->m);
}

/** *\p worst ← max(*\p worst, log2 max|got − want|): the worst absolute discrepancy of the draws. */
static inline void lagr_worst_abs(double *worst, rsrc got, rsrc want, size_t n)
{
    double e = CL_FN(cl_rvec_log2_maxdiff)(got, want, n);
    if (e > *worst) *worst = e;
}

/** *\p worst ← max(*\p worst, log2(max|got − want| / max|want|)): the worst relative discrepancy of the draws. */
static inline void lagr_worst_rel(double *worst, rsrc got, rsrc want, size_t n)
{
    double e = CL_FN(cl_rvec_log2_maxdiff)(got, want, n) - CL_FN(cl_rvec_log2_maxabs)(want, n);
    if (e > *worst) *worst = e;
}

/**
 * The Lagrangian of \p text, degenerate at the state \p x (of \p n numbers):
 * its field in form 0 (the velocity form) is refused as a test "WHAT:
 * CL_ESINGULAR", and the form \p unknown, which the object does not have,
 * as "an unknown form: CL_EDIM".
 */
static inline void lagr_refused(const char *text, rsrc x, size_t n, int unknown, const char *what, cl_prec_t p)
{
    lagr_fixture f;
    RV_DECL(dx, n, p);
    int st = lagr_fixture_open(&f, text, p);
    if (!st) st = LAGR_FN(_rhs)(f.lg, 0, dx, x);
    ok(st == CL_ESINGULAR, "%s: CL_ESINGULAR [%s, %ld]", what, TEST_KIND, (long)p);
    st = f.lg ? LAGR_FN(_rhs)(f.lg, unknown, dx, x) : CL_ENOMEM;
    ok(st == CL_EDIM, "an unknown form: CL_EDIM [%s, %ld]", TEST_KIND, (long)p);
    lagr_fixture_close(&f);
}

/**
 * The constructor refuses the fixture's model with L moved past the last
 * node of the graph (CL_EDIM), the size 0 or LAGR_MAX_SIZE + 1 (CL_EDIM)
 * and, in MPFR, 1 bit (CL_EPREC): each time *out is NULL afterwards,
 * whatever it held before.
 */
static inline void lagr_new_fails(lagr_fixture *f, cl_prec_t p)
{
    int L = f->m->L;
    lagr_t *lg;
#ifdef LAGR_MAX_SIZE
    static const size_t n[] = {0, LAGR_MAX_SIZE + 1};
    for (int i = 0; i < 2; i++) {
        lg = f->lg;
        int st = LAGR_NEW_SIZED(&lg, f->m, n[i], p);
        ok(st == CL_EDIM && !lg, "size %zu: %s, *out NULL [%s, %ld]", n[i], cl_strerror(st), TEST_KIND, (long)p);
    }
#endif
    lg = f->lg;
    f->m->L = (int)cl_expr_dag_size(f->m->g);
    int st = LAGR_NEW(&lg, f->m, p);
    f->m->L = L;
    ok(st == CL_EDIM && !lg, "L not a node of the graph: %s, *out NULL [%s, %ld]", cl_strerror(st), TEST_KIND, (long)p);
    if (CL_PREC != CL_MPFR) return;
    lg = f->lg;
    st = LAGR_NEW(&lg, f->m, 1);
    ok(st == CL_EPREC && !lg, "1 bit: %s, *out NULL [%s]", cl_strerror(st), TEST_KIND);
}

/**
 * A test of a file: \p body checks the object opened on the model \p text,
 * a test "WHAT opens" of its own, with the draws seeded by \p seed (the
 * same at every precision); with \p text NULL the body opens what it needs
 * and gets no fixture.
 */
typedef struct lagr_test {
    void (*body)(lagr_fixture *f, cl_prec_t p);
    const char *text;
    const char *what;
    uint64_t seed;
} lagr_test;

/** Run the \p n tests at precision \p p, in order (cl_test_main() runs this at each precision). */
static inline void lagr_run(const lagr_test *tests, size_t n, cl_prec_t p)
{
    for (size_t i = 0; i < n; i++) {
        const lagr_test *t = tests + i;
        lagr_fixture f;
        if (!t->text) {
            t->body(NULL, p);
            continue;
        }
        int st = lagr_fixture_open(&f, t->text, p);
        cl_rng_seed(&f.g, t->seed);
        if (ok(st == CL_OK, "%s opens [%s, %ld]", t->what, TEST_KIND, (long)p)) t->body(&f, p);
        lagr_fixture_close(&f);
    }
}
#endif

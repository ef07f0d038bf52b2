/*
 * Compiled fields (expr_jit.h) against the interpreter (expr_eval.c): for
 * every shipped model whose equations of motion the graph covers
 * (cl_model_eom_new()), the field compiled by the system's C compiler and
 * the graph interpreted agree bit for bit — in double, and in MPFR at 53,
 * 113 and 256 bits — at random states of the model (its parameters at
 * their defaults, then the first one changed: the compiled field's nodes of
 * the parameters alone are computed again). The cache: a second compiled field of the same graph
 * does not run the compiler; a cached file truncated, overwritten with
 * garbage, or another field's object under its name is found out and
 * compiled again; no compiler (CC=/nonexistent) and a cache folder that
 * cannot be made are refused with their reason. The cache is a fresh
 * folder of TMPDIR.
 */
#define CL_PREC CL_MPFR
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scalar.h"
#include "expr.h"
#include "expr_jit.h"
#include "model.h"
#include "system.h"
#include "tap.h"

static const cl_prec_t PRECS[] = {53, 113, 256};
enum { STATES = 3 };

/* The inputs of the graph at one state: the state, t = 0.7 for a model depending on it, the parameters' defaults. */
static int inputs(const cl_system *s, void *inst, const cl_model *m, const cl_model_eom *q, mpfr_ptr in, cl_rng *g, cl_prec_t prec)
{
    int st = s->random_state(inst, 0, in, g);
    if (q->time >= 0) mpfr_set_str(in + q->time, "0.7", 10, MPFR_RNDN);
    for (size_t k = 0; k < q->nparam && !st; k++) st = cl_real_from_str_mp(in + q->param0 + k, m->pdef[k]);
    (void)prec;
    return st;
}

/* 1 when a and b are the same n numbers bit for bit (the sign of a zero too). */
static int same_mp(mpfr_srcptr a, mpfr_srcptr b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!mpfr_equal_p(a + i, b + i) || mpfr_signbit(a + i) != mpfr_signbit(b + i)) return 0;
    return 1;
}

/* MPFR at prec: the compiled field against the interpreter at STATES random states; 1 when all agree. */
static int agree_mp(const cl_system *s, void *inst, const cl_model *m, const cl_model_eom *q, const cl_expr_jit *j, cl_prec_t prec)
{
    size_t nin = (size_t)cl_expr_dag_ninputs(q->g) + 1, dim = q->dim;
    mpfr_ptr in = cl_rvec_new_mp(nin + 2 * dim, prec), a = in + nin, b = a + dim;
    cl_expr_eval_mp *ev;
    cl_expr_eval_new_mp(&ev, q->g, prec);
    cl_expr_jit_mp *r;
    cl_expr_jit_mp_new(&r, j, q->g, prec);
    cl_rng g;
    cl_rng_seed(&g, 11);
    int good = in && ev && r;
    for (int k = 0; k < STATES && good; k++) {
        good = !inputs(s, inst, m, q, in, &g, prec);
        if (k == STATES - 1 && q->nparam) { /* a parameter changed: the compiled field's fixed nodes are computed again */
            mpfr_mul_d(in + q->param0, in + q->param0, 1.25, MPFR_RNDN);
            cl_expr_jit_mp_changed(r);
        }
        good = good && !cl_expr_eval_run_mp(ev, in, (int)cl_expr_dag_size(q->g) - 1, 1);
        for (size_t i = 0; i < dim && good; i++) mpfr_set(a + i, cl_expr_eval_value_mp(ev, q->out[i]), MPFR_RNDN);
        good = good && !cl_expr_jit_run_mp(r, b, in) && same_mp(a, b, dim);
    }
    cl_expr_jit_mp_free(r);
    cl_expr_eval_free_mp(ev);
    cl_rvec_free_mp(in);
    return good;
}

/* Double: the same with the state rounded to double; 1 when all agree bit for bit. */
static int agree_d(const cl_system *s, void *inst, const cl_model *m, const cl_model_eom *q, const cl_expr_jit *j)
{
    size_t nin = (size_t)cl_expr_dag_ninputs(q->g) + 1, dim = q->dim;
    mpfr_ptr in = cl_rvec_new_mp(nin, 53);
    double *x = calloc(nin + 2 * dim, sizeof *x), *a = x + nin, *b = a + dim;
    cl_expr_eval_d *ev;
    cl_expr_eval_new_d(&ev, q->g, 53);
    cl_rng g;
    cl_rng_seed(&g, 12);
    int good = in && x && ev;
    for (int k = 0; k < STATES && good; k++) {
        good = !inputs(s, inst, m, q, in, &g, 53);
        for (size_t i = 0; i < nin; i++) x[i] = mpfr_get_d(in + i, MPFR_RNDN);
        for (size_t i = 0; i < q->nparam; i++) cl_real_from_str_d(x + q->param0 + i, m->pdef[i]);
        good = good && !cl_expr_eval_run_d(ev, x, (int)cl_expr_dag_size(q->g) - 1, 1);
        for (size_t i = 0; i < dim && good; i++) a[i] = *cl_expr_eval_value_d(ev, q->out[i]);
        good = good && !cl_expr_jit_run_d(j, b, x) && !memcmp(a, b, dim * sizeof *a);
    }
    cl_expr_eval_free_d(ev);
    free(x);
    cl_rvec_free_mp(in);
    return good;
}

/* An instance of the system at prec (parameters at their defaults, t = 0.7 when it has t). */
static void *instance(const cl_system *s, cl_params *par, cl_prec_t prec)
{
    const char *key[] = {"time"}, *val[] = {"0.7"};
    cl_sys_error e = {"", ""};
    int timed = cl_model_system_model(s)->timed;
    void *inst = NULL;
    if (cl_params_parse(par, s->params, timed, key, val, prec, &e)) return NULL;
    if (s->create(&inst, par, prec, &e)) inst = NULL;
    if (!inst) cl_params_free(par);
    return inst;
}

/* One shipped model: its compiled field against the interpreter in double and at each precision. 1 when covered. */
static int model(const char *name, cl_expr_jit **keep, cl_model_eom **keepq, const cl_system **keeps)
{
    char path[300], why[600];
    snprintf(path, sizeof path, "models/%s.model", name);
    cl_sys_error e = {"", ""};
    const cl_system *s = NULL;
    cl_model_eom *q = NULL;
    cl_expr_jit *j = NULL;
    if (cl_model_system_new(&s, path, &e)) return ok(0, "%s: read (%s)", name, e.what), 0;
    if (cl_model_eom_new(&q, cl_model_system_model(s), &e)) {
        diag("%s: not covered by the graph (%s)", name, e.what);
        cl_model_system_free(s);
        return 0;
    }
    int st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
    ok(!st, "%s: compiled (%zu nodes)%s%s", name, cl_expr_dag_size(q->g), st ? ": " : "", st ? why : "");
    for (size_t p = 0; p < sizeof PRECS / sizeof PRECS[0] && !st; p++) {
        cl_params par;
        void *inst = instance(s, &par, PRECS[p]);
        ok(inst && agree_mp(s, inst, cl_model_system_model(s), q, j, PRECS[p]),
           "%s: compiled and interpreted agree bit for bit at %ld bits (%d random states)", name, (long)PRECS[p], STATES);
        if (p == 0) ok(inst && agree_d(s, inst, cl_model_system_model(s), q, j), "%s: ... and in double", name);
        if (inst) s->destroy(inst), cl_params_free(&par);
    }
    *keep = j, *keepq = q, *keeps = s;
    return 1;
}

static void release(cl_expr_jit *j, cl_model_eom *q, const cl_system *s)
{
    cl_expr_jit_free(j);
    cl_model_eom_free(q);
    cl_model_system_free(s);
}

/* The only cached object of the cache folder \p dir into path (when there is one object). */
static int cached_object(const char *dir, char *path, size_t len)
{
    char cmd[800];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep '[.]so$'", dir);
    FILE *f = popen(cmd, "r");
    char name[200] = "";
    int n = 0;
    while (f && fgets(name + 0, sizeof name, f)) n++;
    if (f) pclose(f);
    name[strcspn(name, "\n")] = 0;
    snprintf(path, len, "%s/%s", dir, name);
    return n == 1 ? 0 : -1;
}

/* A file's bytes replaced: truncated to \p keep bytes, or \p text written over its start. */
static void damage(const char *path, long keep, const char *text)
{
    FILE *f = fopen(path, "r+b");
    if (!f) return;
    if (text) fwrite(text, 1, strlen(text), f);
    fclose(f);
    if (keep >= 0 && truncate(path, keep)) diag("truncate failed");
}

/* A runner is refused at 1 bit (CL_EPREC) and for a graph with a constant the compiled field lacks (CL_EDIM), *out NULL. */
static void runner_refusals(const cl_expr_jit *j, const cl_model_eom *q)
{
    cl_expr_jit_mp *r = (cl_expr_jit_mp *)j;
    int st = cl_expr_jit_mp_new(&r, j, q->g, 1);
    ok(st == CL_EPREC && !r, "a runner at 1 bit: %s, *out NULL", cl_strerror(st));
    cl_expr_dag *g = cl_expr_dag_copy(q->g);
    st = g && cl_expr_const(g, "0.1234567", 9, 0) >= 0 ? CL_OK : CL_ENOMEM;
    r = (cl_expr_jit_mp *)j;
    if (!st) st = cl_expr_jit_mp_new(&r, j, g, 113);
    ok(st == CL_EDIM && !r, "a runner for a graph with one more constant: %s, *out NULL", cl_strerror(st));
    cl_expr_jit_mp_free(r);
    cl_expr_dag_free(g);
}

/* The cache: reused, a broken file rebuilt, no compiler, no folder. */
static void cache(const cl_model_eom *q, const char *dir, const char *other)
{
    char why[600], path[900];
    cl_expr_jit *j = NULL;
    long before = cl_expr_jit_compilations();
    int st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
    ok(!st && cl_expr_jit_compilations() == before, "a second compiled field of the same graph comes from the cache (the compiler ran %ld times)",
       cl_expr_jit_compilations() - before);
    cl_expr_jit_free(j);
    int found = !cached_object(dir, path, sizeof path);
    ok(found, "one object in the cache folder: %s", path);
    const char *how[] = {"truncated", "overwritten with garbage", "another field's object"};
    for (int k = 0; k < 3 && found; k++) {
        char cmd[2000];
        if (k == 0) damage(path, 4000, NULL);
        if (k == 1) damage(path, -1, "\177ELF garbage garbage");
        if (k == 2) snprintf(cmd, sizeof cmd, "cp '%s' '%s'", other, path), st = system(cmd);
        j = NULL;
        st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 0, why, sizeof why);
        ok(st == CL_EUNDEFINED && !j && !why[0], "%s cached file: not loaded", how[k]);
        before = cl_expr_jit_compilations();
        st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
        ok(!st && j && cl_expr_jit_compilations() == before + 1, "%s cached file: compiled again", how[k]);
        cl_expr_jit_free(j);
    }
}

/* A graph's object in a fresh cache folder \p dir, copied to \p copy (another field's object for cache()). */
static void object_copy(const cl_model_eom *q, const char *dir, const char *copy)
{
    char why[600], path[900], cmd[2000];
    cl_expr_jit *j = NULL;
    setenv("CHARTLESS_CACHE", dir, 1);
    cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
    cl_expr_jit_free(j);
    if (cached_object(dir, path, sizeof path)) return;
    snprintf(cmd, sizeof cmd, "mv '%s' '%s'", path, copy);
    if (system(cmd)) diag("mv failed");
}

/* No compiler, and a cache folder that cannot be made: refused with the reason. */
static void unavailable(const cl_model_eom *q, const char *tmp)
{
    char why[600], dir[1400], file[1200];
    cl_expr_jit *j = NULL;
    const char *cc = getenv("CC");
    char *saved = cc ? strdup(cc) : NULL;
    snprintf(dir, sizeof dir, "%s/nocc", tmp);
    setenv("CHARTLESS_CACHE", dir, 1);
    setenv("CC", "/nonexistent/cc", 1);
    int st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
    ok(st == CL_EUNDEFINED && !j && strstr(why, "no C compiler") && !strchr(why, '\n'), "CC=/nonexistent/cc: '%s'", why);
    if (saved) setenv("CC", saved, 1);
    else unsetenv("CC");
    free(saved);
    snprintf(file, sizeof file, "%s/plain-file", tmp);
    FILE *f = fopen(file, "w");
    if (f) fclose(f);
    snprintf(dir, sizeof dir, "%s/sub", file);
    setenv("CHARTLESS_CACHE", dir, 1);
    st = cl_expr_jit_new(&j, q->g, q->out, q->dim, (long)q->param0, 1, why, sizeof why);
    ok(st == CL_EUNDEFINED && !j && strstr(why, "cannot write the cache folder") && strstr(why, "Not a directory"),
       "a cache folder under a file: '%s'", why);
}

int main(void)
{
    char tmp[600], dir[700], copy[700];
    snprintf(tmp, sizeof tmp, "%s/test_compiled_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) return diag("no temporary folder"), 1;
    snprintf(dir, sizeof dir, "%s/cache", tmp);
    setenv("CHARTLESS_CACHE", dir, 1);
    int covered = 0;
    cl_model_eom *chain = NULL, *other = NULL;
    for (size_t i = 0; cl_model_shipped_name(i); i++) {
        const char *name = cl_model_shipped_name(i);
        cl_expr_jit *j = NULL;
        cl_model_eom *q = NULL;
        const cl_system *s = NULL;
        if (!model(name, &j, &q, &s)) continue;
        covered++;
        if (!strcmp(name, "chain2")) chain = q, q = NULL;
        else if (!strcmp(name, "spring")) other = q, q = NULL;
        release(j, q, s);
    }
    ok(covered >= 10 && chain && other, "%d shipped models are covered by the graph, chain2 and spring among them", covered);
    if (chain && other) {
        snprintf(dir, sizeof dir, "%s/cache2", tmp);
        snprintf(copy, sizeof copy, "%s/other.so", tmp);
        object_copy(other, dir, copy);
        cl_expr_jit *j = NULL;
        char why[600];
        ok(!cl_expr_jit_new(&j, chain->g, chain->out, chain->dim, (long)chain->param0, 1, why, sizeof why), "chain2 compiled in a fresh cache folder");
        if (j) runner_refusals(j, chain);
        cl_expr_jit_free(j);
        cache(chain, dir, copy);
        unavailable(chain, tmp);
    }
    cl_model_eom_free(other);
    cl_model_eom_free(chain);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd)) diag("could not remove %s", tmp);
    return done_testing();
}

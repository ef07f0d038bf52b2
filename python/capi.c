/**
 * \file capi.c
 * \brief libchartless_python.so: the entry points the Python package
 *        (python/chartless) loads with ctypes, over libchartless and the
 *        registered systems, with the command line's own parsing of
 *        options, parameters and states (cmd_system.h), so that Python
 *        and `chartless` accept the same input and say the same things.
 *
 * Every entry point takes an error buffer: what the command line would
 * print as `error: ...` lands there instead of on stderr. Not thread-safe
 * (stderr is redirected during a call).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "json.h"

/** An open system instance at one form and precision. */
typedef struct clpy_system {
    cl_cmd_system cs;
    long bits;
} clpy_system;

/* The messages the command line prints on stderr, caught for the caller. */
typedef struct caught {
    FILE *saved, *f;
    char *buf;
    size_t len;
} caught;

static void catch_begin(caught *c)
{
    c->saved = stderr;
    c->buf = NULL;
    c->f = open_memstream(&c->buf, &c->len);
    if (c->f) stderr = c->f;
}

static void catch_end(caught *c, char *err, size_t errlen)
{
    stderr = c->saved;
    if (c->f) fclose(c->f);
    if (err && errlen) {
        const char *s = c->buf ? c->buf : "";
        if (!strncmp(s, "error: ", 7)) s += 7;
        snprintf(err, errlen, "%s", s);
        size_t n = strlen(err);
        while (n && err[n - 1] == '\n') err[--n] = 0;
    }
    free(c->buf);
}

void *clpy_open(int argc, char **argv, char *err, size_t errlen)
{
    caught c;
    catch_begin(&c);
    clpy_system *h = calloc(1, sizeof *h);
    cl_cmd_args a;
    int st = h ? cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a) : cl_cli_error("out of memory", NULL);
    if (!st && a.help) st = cl_cli_error("no --help here: see help(chartless)", NULL);
    if (!st) {
        h->bits = a.bits;
        st = cl_cmd_open_system(&a, &h->cs);
    }
    if (h && st != CL_EXIT_OK) { free(h); h = NULL; }
    if (h || st) cl_cmd_args_free(&a);
    catch_end(&c, err, errlen);
    return h;
}

void clpy_close(void *h)
{
    if (!h) return;
    cl_cmd_close_system(&((clpy_system *)h)->cs);
    free(h);
}

size_t clpy_dim(const void *h) { return ((const clpy_system *)h)->cs.dim; }
long clpy_bits(const void *h) { return ((const clpy_system *)h)->bits; }
const char *clpy_system_name(const void *h) { return ((const clpy_system *)h)->cs.sys->name; }
int clpy_form(const void *h) { return ((const clpy_system *)h)->cs.form; }

const char *clpy_form_name(const void *h, int i)
{
    const cl_system *s = ((const clpy_system *)h)->cs.sys;
    for (int k = 0; k <= i; k++)
        if (!s->forms[k]) return NULL;
    return s->forms[i];
}

void clpy_component_name(const void *h, size_t i, char *buf, size_t len)
{
    const cl_cmd_system *cs = &((const clpy_system *)h)->cs;
    cl_cli_component_name(cs->sys, cs->inst, cs->form, i, buf, len);
}

/* A vector of n numbers at the working precision, with dx beside it; NULL when out of memory. */
static mpfr_ptr state_pair(const clpy_system *h) { return cl_rvec_new_mp(2 * h->cs.dim, (cl_prec_t)h->bits); }

/**
 * The vector field at the state \p text (decimal numbers, read at the
 * working precision, never through a double; checked and its unit vectors
 * normalised as `chartless rhs` does), as doubles in \p dxd (rounded to
 * nearest) and, when \p out is not NULL, as decimal text with every digit the
 * precision carries, one number a line. 0, or 2 with the message in \p err.
 */
int clpy_rhs(void *hv, const char *text, double *dxd, char *out, size_t outlen, char *err, size_t errlen)
{
    clpy_system *h = hv;
    caught c;
    catch_begin(&c);
    size_t dim = h->cs.dim;
    mpfr_ptr x = state_pair(h);
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    int st = !x || !in ? cl_cli_error("out of memory", NULL) : cl_cmd_read_state(&h->cs, in, x);
    if (!st && (st = h->cs.sys->rhs(h->cs.inst, h->cs.form, x + dim, x))) st = cl_cli_error(cl_strerror(st), "vector field");
    FILE *o = !st && out ? fmemopen(out, outlen, "w") : NULL;
    for (size_t i = 0; !st && i < dim; i++) {
        if (mpfr_zero_p(x + dim + i)) mpfr_set_zero(x + dim + i, 1);
        dxd[i] = mpfr_get_d(x + dim + i, MPFR_RNDN);
        if (o) { cl_cli_print_real(o, x + dim + i); fputc('\n', o); }
    }
    if (o && (fflush(o) || ferror(o))) st = cl_cli_error("the text of dx/dt is longer than its buffer", NULL);
    if (o) fclose(o);
    if (in) fclose(in);
    if (x) cl_rvec_free_mp(x);
    catch_end(&c, err, errlen);
    return st;
}

/* One equilibrium's linearization as a JSON object. */
static void json_linearization(FILE *f, const clpy_system *h, int k, const char *name, mpfr_srcptr x, mpfr_srcptr wr,
                               mpfr_srcptr wi, int d)
{
    fprintf(f, "%s{\"index\": %d, \"name\": ", k ? ", " : "", k);
    cl_json_string(f, name);
    fputs(", \"state\": ", f);
    cl_json_reals(f, x, h->cs.dim);
    fprintf(f, ", \"dimension\": %d, \"eigenvalues\": [", d);
    for (int i = 0; i < d; i++) {
        fputs(i ? ", [" : "[", f);
        cl_json_real(f, wr + i);
        fputs(", ", f);
        cl_json_real(f, wi + i);
        fputc(']', f);
    }
    fputs("]}", f);
}

/* One equilibrium's Energy-Casimir test as a JSON object. */
static void json_energy_casimir(FILE *f, int k, const char *name, const cl_ec_report *rep, mpfr_srcptr eig, int ncas)
{
    fprintf(f, "%s{\"index\": %d, \"name\": ", k ? ", " : "", k);
    cl_json_string(f, name);
    fprintf(f, ", \"verdict\": \"%s\", \"definite\": %d, \"positive\": %d, \"negative\": %d, \"zero\": %d, "
               "\"dimension\": %d, \"conserved\": %d, \"log2_residual\": ",
            rep->definite ? "stable" : "inconclusive", rep->definite, rep->npos, rep->nneg, rep->nzero, rep->d, ncas);
    if (isfinite(rep->log2_residual)) fprintf(f, "%.17g", rep->log2_residual); else fputs("null", f);
    fputs(", \"hessian_eigenvalues\": ", f);
    cl_json_reals(f, eig, (size_t)rep->d);
    fputc('}', f);
}

/**
 * Every equilibrium of the system in its form, linearized (\p stability 0:
 * cl_system_linearize()) or with the Energy-Casimir test (1:
 * cl_system_energy_casimir()), as a JSON list into *\p json (free with
 * clpy_free). 0, or an exit status with the message in \p err.
 */
int clpy_equilibria(void *hv, int stability, char **json, char *err, size_t errlen)
{
    clpy_system *h = hv;
    const cl_system *s = h->cs.sys;
    size_t N = h->cs.dim, len = 0;
    caught c;
    catch_begin(&c);
    *json = NULL;
    mpfr_ptr w = cl_rvec_new_mp(N * N + 4 * N, (cl_prec_t)h->bits);
    FILE *f = w ? open_memstream(json, &len) : NULL;
    int st = f ? CL_EXIT_OK : cl_cli_error("out of memory", NULL);
    if (!st && stability && N > CL_EC_NMAX) st = cl_cli_error("the Energy-Casimir test takes states of at most CL_EC_NMAX (32) numbers", s->name);
    if (f) fputc('[', f);
    for (int k = 0; !st && s->equilibrium && k < 64; k++) {
        mpfr_ptr xe = w, A = xe + N, wr = A + N * N, wi = wr + N, cm = wi + N;
        const char *name = NULL;
        cl_sys_error e = {"", ""};
        if (s->equilibrium(h->cs.inst, k, h->cs.form, xe, &name) != CL_OK) break;
        char nm[128];
        snprintf(nm, sizeof nm, "%s", name ? name : "");
        int d = 0, ncas = 0, r;
        cl_ec_report rep;
        if (stability) r = cl_system_energy_casimir(s, &h->cs.params, (cl_prec_t)h->bits, h->cs.form, k, &rep, cm, A, wr, &ncas, NULL, &e);
        else r = cl_system_linearize(s, &h->cs.params, (cl_prec_t)h->bits, h->cs.form, k, xe, A, wr, wi, &d, NULL, 0, &e);
        if (r) st = cl_cmd_report(&e, s->name, r == CL_EPARAM ? CL_EXIT_USAGE : CL_EXIT_FAIL);
        else if (stability) json_energy_casimir(f, k, nm, &rep, wr, ncas);
        else json_linearization(f, h, k, nm, xe, wr, wi, d);
    }
    if (f) { fputc(']', f); fclose(f); }
    if (w) cl_rvec_free_mp(w);
    if (st) { free(*json); *json = NULL; }
    catch_end(&c, err, errlen);
    return st;
}

void clpy_free(void *p) { free(p); }

/**
 * Where the bodies are in space (the system's bodies hook, as the 3-D
 * pictures of `simulate --plot` place them) at \p rows states of \p x,
 * one after the other: 3 k numbers per row into \p out (k bodies, at
 * most \p cap numbers in all; \p out NULL: only count). Returns k, 0 when
 * the system or its form does not say where its bodies are, −1 when out
 * of memory or \p cap is too small.
 */
int clpy_bodies(void *hv, const double *x, size_t rows, double *out, size_t cap)
{
    clpy_system *h = hv;
    const cl_cmd_system *cs = &h->cs;
    int k = cs->sys->bodies ? cs->sys->bodies(cs->inst, cs->form, NULL, NULL) : 0;
    if (k <= 0 || !out) return k;
    if (cap < rows * 3 * (size_t)k) return -1;
    mpfr_ptr w = cl_rvec_new_mp(cs->dim + 3 * (size_t)k, (cl_prec_t)h->bits);
    if (!w) return -1;
    for (size_t r = 0; r < rows && k > 0; r++) {
        for (size_t i = 0; i < cs->dim; i++) mpfr_set_d(w + i, x[r * cs->dim + i], MPFR_RNDN);
        if (cs->sys->bodies(cs->inst, cs->form, w + cs->dim, w) != k) k = 0;
        for (int i = 0; k > 0 && i < 3 * k; i++) out[r * 3 * (size_t)k + (size_t)i] = mpfr_get_d(w + cs->dim + i, MPFR_RNDN);
    }
    cl_rvec_free_mp(w);
    return k;
}

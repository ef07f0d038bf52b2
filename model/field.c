/*
 * Field files (field.h): a hand-derived vector field of a model, parsed
 * with the expression engine (expr.h) into a graph whose inputs are the
 * state of the field's form (q_1 … q_n, then the n velocity-like vectors)
 * and the model's parameters — the layout of the model's own graph.
 *
 *   form F                 qdot, omega, mu or pi; once, first
 *   let NAME = EXPR        a name for a value, in scope below
 *   NAME' = EXPR           the derivative of block NAME (a vector); qdot: q1''
 *
 * Every error names the file, line and column and what was expected.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_s2.h"
#include "field.h"
#include "model_ext.h"

/* The velocity-like vector of each form, numbered 1 … n (as the model names its components). */
static const char *const field_vname[] = {NULL, "w", "mu", "pi"};

typedef struct let_value {
    char name[CL_MODEL_MAX_NAME + 1];
    cl_expr_value v;
} let_value;

typedef struct freader {
    cl_field *f;
    const cl_model *m;
    const char *s;
    size_t len;
    cl_sys_error *e;
    int failed;
    let_value *let;
    size_t nlet;
    long *given; /* 2n blocks: where each was given (−1: not yet) */
} freader;

void cl_field_where(const cl_field *f, long pos, char *buf, size_t len)
{
    cl_text_where(f->source, f->text, pos, buf, len);
}

/* ffail(r, pos, code, fmt, ...): record the first error of reader r at byte pos (cl_text_fail()); its code. */
#define ffail(r, pos, code, ...) cl_text_fail(&(r)->failed, (r)->e, (r)->f->source, (r)->f->text, pos, code, __VA_ARGS__)

static void blank(const freader *r, size_t *i, size_t end) { cl_text_skip_blank(r->s, i, end); }
static size_t name_len(const freader *r, size_t i, size_t end) { return cl_text_name(r->s, i, end); }

/* Block of the velocity-like vector named s (n bytes) in form \p form: its index i (0 … n−1), or −1. */
static long velocity_index(int form, size_t nq, const char *s, size_t n)
{
    const char *v = field_vname[form];
    size_t vl = v ? strlen(v) : 0;
    if (!v || n <= vl || memcmp(s, v, vl) || s[vl] == '0') return -1;
    long i = 0;
    for (size_t k = vl; k < n; k++) {
        if (!isdigit((unsigned char)s[k]) || i > 100000) return -1;
        i = 10 * i + (s[k] - '0');
    }
    return i >= 1 && (size_t)i <= nq ? i - 1 : -1;
}

static int flookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    const freader *r = ctx;
    const cl_model *m = r->m;
    int form = r->f->form;
    if (!prime)
        for (size_t k = r->nlet; k-- > 0;)
            if (cl_text_name_is(r->let[k].name, name, len)) { *out = r->let[k].v; return 0; }
    long i = cl_model_name_index(m->qname, m->n, name, len), vi = velocity_index(form, m->n, name, len);
    long block = i >= 0 && !prime ? i : i >= 0 && form == CL_LAGR_QDOT ? (long)m->n + i : vi >= 0 && !prime ? (long)m->n + vi : -1;
    if (block >= 0) {
        out->shape = 3;
        for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, 3 * block + k);
        return 0;
    }
    if (prime) return -1;
    return cl_model_lookup_param(m, g, name, len, (long)(6 * m->n), out);
}

static int parse_expr(freader *r, size_t i, size_t end, cl_expr_value *v)
{
    cl_expr_error err;
    int st = cl_expr_parse(r->f->g, r->s + i, end - i, (long)i, flookup, r, v, &err);
    if (st == CL_EPARSE) return ffail(r, err.pos, CL_EPARSE, "%s", err.msg);
    if (st) return ffail(r, (long)i, st, "%s", cl_strerror(st));
    return 0;
}

/* Display name of block b (0 … 2n−1) of the form, with its primes, into buf. */
static void block_name(const freader *r, size_t b, char *buf, size_t len)
{
    size_t n = r->m->n;
    int form = r->f->form;
    if (b < n) snprintf(buf, len, "%s'", r->m->qname[b]);
    else if (form == CL_LAGR_QDOT) snprintf(buf, len, "%s''", r->m->qname[b - n]);
    else snprintf(buf, len, "%s%zu'", field_vname[form], b - n + 1);
}

/* let NAME = EXPR */
static int parse_let(freader *r, size_t i, size_t end)
{
    blank(r, &i, end);
    size_t n = name_len(r, i, end);
    if (!n) return ffail(r, (long)i, CL_EPARSE, "expected a name after let");
    if (n > CL_MODEL_MAX_NAME) return ffail(r, (long)i, CL_EDIM, "name longer than %d bytes", CL_MODEL_MAX_NAME);
    const char *s = r->s + i;
    int taken = cl_model_name_index(r->m->qname, r->m->n, s, n) >= 0 || velocity_index(r->f->form, r->m->n, s, n) >= 0;
    taken |= cl_model_name_index(r->m->pname, r->m->nparam, s, n) >= 0;
    for (size_t k = 0; k < r->nlet; k++) taken |= cl_text_name_is(r->let[k].name, s, n);
    if (taken) return ffail(r, (long)i, CL_EPARSE, "'%.*s' is already a name of the model or of this file", (int)n, s);
    if (r->nlet >= CL_FIELD_MAX_LETS) return ffail(r, (long)i, CL_EDIM, "more than %d let statements", CL_FIELD_MAX_LETS);
    size_t at = i + n;
    blank(r, &at, end);
    if (at >= end || r->s[at] != '=') return ffail(r, (long)at, CL_EPARSE, "expected '=' after the name of the let");
    let_value lv;
    memcpy(lv.name, s, n);
    lv.name[n] = 0;
    if (parse_expr(r, at + 1, end, &lv.v)) return r->failed;
    r->let[r->nlet++] = lv;
    return 0;
}

/* NAME' = EXPR (NAME'' in form qdot) */
static int parse_block(freader *r, size_t i, size_t end, size_t n)
{
    const cl_model *m = r->m;
    size_t nq = m->n, at = i + n;
    int primes = 0;
    while (at < end && r->s[at] == '\'') { primes++; at++; }
    long mi = cl_model_name_index(m->qname, nq, r->s + i, n), vi = velocity_index(r->f->form, nq, r->s + i, n);
    long b = mi >= 0 && primes == 1 ? mi : mi >= 0 && primes == 2 && r->f->form == CL_LAGR_QDOT ? (long)nq + mi
           : vi >= 0 && primes == 1 ? (long)nq + vi : -1;
    if (b < 0) {
        char want[80];
        block_name(r, nq, want, sizeof want);
        if (mi < 0 && vi < 0)
            return ffail(r, (long)i, CL_EPARSE, "unknown block '%.*s': expected let, or the derivative of a block of the state "
                         "of form %s (such as %s'%s = ...)", (int)n, r->s + i, cl_model_kind_s2.forms[r->f->form], m->qname[0],
                         r->f->form == CL_LAGR_QDOT ? "'" : "");
        return ffail(r, (long)i, CL_EPARSE, "expected %s' = ... or %s = ... (a derivative, with its primes)", m->qname[0], want);
    }
    char name[80];
    block_name(r, (size_t)b, name, sizeof name);
    if (r->given[b] >= 0) {
        char first[240];
        cl_field_where(r->f, r->given[b], first, sizeof first);
        return ffail(r, (long)i, CL_EPARSE, "%s is given twice (first at %s)", name, first);
    }
    blank(r, &at, end);
    if (at >= end || r->s[at] != '=') return ffail(r, (long)at, CL_EPARSE, "expected '=' after %s", name);
    cl_expr_value v;
    at++;
    if (parse_expr(r, at, end, &v)) return r->failed;
    blank(r, &at, end);
    if (v.shape != 3)
        return ffail(r, (long)at, CL_EPARSE, "%s must be a vector, this is %s", name, v.shape == 1 ? "a scalar" : "a matrix");
    for (int k = 0; k < 3; k++) r->f->comp[3 * b + k] = v.id[k];
    r->given[b] = (long)i;
    return 0;
}

static int parse_form(freader *r, size_t i, size_t end)
{
    blank(r, &i, end);
    size_t n = name_len(r, i, end);
    r->f->form = -1;
    for (int k = 0; k < 4; k++)
        if (cl_text_name_is(cl_model_kind_s2.forms[k], r->s + i, n)) r->f->form = k;
    if (r->f->form < 0) return ffail(r, (long)i, CL_EPARSE, "expected the form qdot, omega, mu or pi");
    i += n;
    blank(r, &i, end);
    if (i < end && r->s[i] != '#') return ffail(r, (long)i, CL_EPARSE, "expected the end of the line after the form");
    return 0;
}

static int parse_statements(freader *r)
{
    int have_form = 0;
    for (size_t at = 0; at < r->len && !r->failed;) {
        size_t end = cl_text_statement_end(r->s, r->len, at), i = at;
        blank(r, &i, end);
        if (i >= end || r->s[i] == '#') { at = end; continue; }
        if (i != at)
            return ffail(r, (long)i, CL_EPARSE, "a statement must start at the beginning of a line (an indented line continues the one above)");
        size_t n = name_len(r, i, end);
        int kw_form = cl_text_name_is("form", r->s + i, n) && !(i + n < end && r->s[i + n] == '\'');
        int kw_let = cl_text_name_is("let", r->s + i, n) && !(i + n < end && r->s[i + n] == '\'');
        if (kw_form) {
            if (have_form) return ffail(r, (long)i, CL_EPARSE, "a second form statement (there must be exactly one)");
            if (parse_form(r, i + n, end)) return r->failed;
            have_form = 1;
        } else if (!have_form) {
            return ffail(r, (long)i, CL_EPARSE, "expected 'form qdot', 'form omega', 'form mu' or 'form pi' as the first statement");
        } else if (kw_let) {
            parse_let(r, i + n, end);
        } else if (!n) {
            return ffail(r, (long)i, CL_EPARSE, "expected let or the derivative of a block of the state (NAME' = ...)");
        } else {
            parse_block(r, i, end, n);
        }
        at = end;
    }
    if (!r->failed && !have_form) ffail(r, (long)r->len, CL_EPARSE, "expected a form statement (form qdot, omega, mu or pi)");
    return r->failed;
}

void cl_field_free(cl_field *f)
{
    if (!f) return;
    cl_expr_dag_free(f->g);
    free(f->comp);
    free(f->source);
    free(f->text);
    free(f);
}

int cl_field_parse(cl_field **out, const cl_model *m, const char *source, const char *text, size_t len, cl_sys_error *e)
{
    *out = NULL;
    cl_field *f = calloc(1, sizeof *f);
    let_value *let = malloc(CL_FIELD_MAX_LETS * sizeof *let);
    long *given = malloc((2 * m->n + 1) * sizeof *given);
    if (f) {
        f->source = strdup(source);
        f->text = malloc(len + 1);
        cl_expr_dag_new(&f->g);
        f->comp = malloc((6 * m->n + 1) * sizeof *f->comp);
        f->n = m->n;
        f->nparam = m->nparam;
    }
    if (!f || !let || !given || !f->source || !f->text || !f->g || !f->comp) {
        cl_field_free(f);
        free(let); free(given);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    memcpy(f->text, text, len);
    f->text[len] = 0;
    for (size_t b = 0; b < 2 * m->n; b++) given[b] = -1;
    freader r = {.f = f, .m = m, .s = f->text, .len = len, .e = e, .let = let, .given = given};
    if (m->n == 0) ffail(&r, 0, CL_EPARSE, "field files are written for models on (S2)^n; this model has no S2 factor");
    else if (len > (size_t)CL_FIELD_MAX_BYTES) ffail(&r, 0, CL_EDIM, "field file larger than %ld bytes", (long)CL_FIELD_MAX_BYTES);
    else if (memchr(text, 0, len)) ffail(&r, (long)((const char *)memchr(text, 0, len) - text), CL_EPARSE, "a NUL byte in the field file");
    if (!r.failed) parse_statements(&r);
    /* In form qdot, q_i' is q̇_i itself unless given. */
    for (size_t b = 0; b < m->n && !r.failed && f->form == CL_LAGR_QDOT; b++)
        if (given[b] < 0) {
            for (int k = 0; k < 3; k++)
                if ((f->comp[3 * b + k] = cl_expr_input(f->g, (long)(3 * (m->n + b)) + k)) < 0) ffail(&r, 0, CL_ENOMEM, "out of memory");
            given[b] = 0;
        }
    for (size_t b = 0; b < 2 * m->n && !r.failed; b++)
        if (given[b] < 0) {
            char name[80];
            block_name(&r, b, name, sizeof name);
            ffail(&r, (long)len, CL_EPARSE, "the field gives no %s = ... (every block of the state of form %s is needed)", name,
                  cl_model_kind_s2.forms[f->form]);
        }
    free(let); free(given);
    if (r.failed) {
        cl_field_free(f);
        return r.failed;
    }
    *out = f;
    return CL_OK;
}

int cl_field_load(cl_field **out, const cl_model *m, const char *path, cl_sys_error *e)
{
    *out = NULL;
    char *buf;
    size_t len;
    int st = cl_text_read(path, CL_FIELD_MAX_BYTES, "field", &buf, &len, e);
    if (!st) st = cl_field_parse(out, m, path, buf, len, e);
    free(buf);
    return st;
}

/* ------------------------------------------------------------ evaluation */

struct cl_field_eval {
    const cl_field *f;
    cl_expr_eval_mp *ev;
    mpfr_ptr in; /* the state, then the parameters */
    size_t nin;
    int upto;
};

int cl_field_eval_new(cl_field_eval **out, const cl_field *f, cl_prec_t prec)
{
    cl_field_eval *fe = *out = calloc(1, sizeof *fe);
    if (!fe) return CL_ENOMEM;
    fe->f = f;
    fe->nin = 6 * f->n + f->nparam;
    int st = cl_expr_eval_new_mp(&fe->ev, f->g, prec);
    fe->in = cl_rvec_new_mp(fe->nin, prec);
    for (size_t i = 0; i < 6 * f->n; i++)
        if (f->comp[i] > fe->upto) fe->upto = f->comp[i];
    if (!st && !fe->in) st = CL_ENOMEM;
    if (st) {
        cl_field_eval_free(fe);
        *out = NULL;
    }
    return st;
}

void cl_field_eval_free(cl_field_eval *fe)
{
    if (!fe) return;
    cl_expr_eval_free_mp(fe->ev);
    if (fe->in) cl_rvec_free_mp(fe->in);
    free(fe);
}

int cl_field_eval_run(cl_field_eval *fe, mpfr_ptr dx, mpfr_srcptr x, mpfr_srcptr par, char *err, size_t errlen)
{
    const cl_field *f = fe->f;
    for (size_t i = 0; i < 6 * f->n; i++) mpfr_set(fe->in + i, x + i, MPFR_RNDN);
    for (size_t k = 0; k < f->nparam; k++) mpfr_set(fe->in + 6 * f->n + k, par + k, MPFR_RNDN);
    int st = cl_expr_eval_run_mp(fe->ev, fe->in, fe->upto, 1);
    if (st) {
        int bad = cl_expr_eval_bad_mp(fe->ev);
        long pos = bad >= 0 ? cl_expr_dag_node(f->g, bad)->pos : -1;
        if (pos >= 0)
            cl_text_domain_error(f->source, f->text, pos, "field",
                                 "division by zero, log/sqrt of x < 0, or a result that is not finite", err, errlen);
        else snprintf(err, errlen, "the field is not defined at this state: %s", cl_strerror(st));
        return st;
    }
    for (size_t i = 0; i < 6 * f->n; i++) mpfr_set(dx + i, cl_expr_eval_value_mp(fe->ev, f->comp[i]), MPFR_RNDN);
    return CL_OK;
}

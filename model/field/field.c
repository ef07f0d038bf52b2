/*
 * Field files (field.h): a hand-derived vector field of a model, parsed
 * with the expression engine (expr.h) into a graph whose inputs are the
 * state of the field's form, named as the layout of that form names it
 * (field_layout.c), then the model's parameters.
 *
 *   form F                 a form of the model; once, first
 *   let NAME = EXPR        a name for a value, in scope below
 *   NAME' = EXPR           the derivative of block NAME; NAME'' of the velocity NAME'
 *
 * Every error names the file, line and column and what was expected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "field.h"
#include "model_ext.h"

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
    long *given;     /* per block: where it was given (−1: not yet) */
    int other_form;  /* the form of the last unknown name, when it is a name of another form (else −1) */
    char other_name[CL_MODEL_MAX_NAME + 8];
} freader;

void cl_field_where(const cl_field *f, long pos, char *buf, size_t len)
{
    cl_text_where(f->source, f->text, pos, buf, len);
}

/* ffail(r, pos, code, fmt, ...): record the first error of reader r at byte pos (cl_text_fail()); its code. */
#define ffail(r, pos, code, ...) cl_text_fail(&(r)->failed, (r)->e, (r)->f->source, (r)->f->text, pos, code, __VA_ARGS__)

static void blank(const freader *r, size_t *i, size_t end) { cl_text_skip_blank(r->s, i, end); }
static size_t name_len(const freader *r, size_t i, size_t end) { return cl_text_name(r->s, i, end); }
static const char *form_name(const freader *r, int form) { return cl_model_kind_of(r->m)->forms[form]; }

/* The form other than the file's whose layout has the name s (n bytes, prime) or the block s with \p primes
   (when primes > 0), or −1. */
static int other_form_of(const freader *r, const char *s, size_t n, int prime, int primes)
{
    const char *const *forms = cl_model_kind_of(r->m)->forms;
    for (int k = 0; forms[k]; k++) {
        cl_field_layout L;
        if (k == r->f->form || cl_field_layout_new(&L, r->m, k)) continue;
        int found = primes ? 0 : cl_field_layout_find(&L, s, n, prime) >= 0;
        for (size_t b = 0; primes && b < L.nblock; b++) found |= L.block[b].primes == primes && cl_text_name_is(L.block[b].name, s, n);
        cl_field_layout_free(&L);
        if (found) return k;
    }
    return -1;
}

static int flookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    freader *r = ctx;
    const cl_field_layout *L = &r->f->lay;
    if (!prime)
        for (size_t k = r->nlet; k-- > 0;)
            if (cl_text_name_is(r->let[k].name, name, len)) { *out = r->let[k].v; return 0; }
    long i = cl_field_layout_find(L, name, len, prime);
    if (i >= 0) {
        out->shape = L->name[i].shape;
        for (int k = 0; k < out->shape; k++) out->id[k] = cl_expr_input(g, (long)(L->name[i].at + (size_t)k));
        return 0;
    }
    if (!prime && !cl_model_lookup_param(r->m, g, name, len, (long)r->f->dim, out)) return 0;
    r->other_form = other_form_of(r, name, len, prime, 0);
    if (r->other_form >= 0) snprintf(r->other_name, sizeof r->other_name, "%.*s%s", (int)len, name, prime ? "'" : "");
    return -1;
}

/* The state's names of the file's form, for a message: "x, theta, x', theta'" (cut short when long). */
static void state_names(const freader *r, char *buf, size_t len)
{
    const cl_field_layout *L = &r->f->lay;
    buf[0] = 0;
    for (size_t k = 0; k < L->nname && strlen(buf) + 48 < len; k++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s", k ? ", " : "", L->name[k].name, L->name[k].prime ? "'" : "");
}

static int parse_expr(freader *r, size_t i, size_t end, cl_expr_value *v)
{
    cl_expr_error err;
    r->other_form = -1;
    int st = cl_expr_parse(r->f->g, r->s + i, end - i, (long)i, flookup, r, v, &err);
    if (st == CL_EPARSE && r->other_form >= 0 && !strncmp(err.msg, "unknown name", 12)) {
        char names[160];
        state_names(r, names, sizeof names);
        return ffail(r, err.pos, CL_EPARSE, "unknown name '%s': it names the state of form %s, not of form %s (whose state is %s)",
                     r->other_name, form_name(r, r->other_form), form_name(r, r->f->form), names);
    }
    if (st == CL_EPARSE) return ffail(r, err.pos, CL_EPARSE, "%s", err.msg);
    if (st) return ffail(r, (long)i, st, "%s", cl_strerror(st));
    return 0;
}

/* let NAME = EXPR */
static int parse_let(freader *r, size_t i, size_t end)
{
    blank(r, &i, end);
    size_t n = name_len(r, i, end);
    if (!n) return ffail(r, (long)i, CL_EPARSE, "expected a name after let");
    if (n > CL_MODEL_MAX_NAME) return ffail(r, (long)i, CL_EDIM, "name longer than %d bytes", CL_MODEL_MAX_NAME);
    const char *s = r->s + i;
    int taken = cl_field_layout_find(&r->f->lay, s, n, 0) >= 0;
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

/* The blocks of the file's form, for a message: "x', theta', x'', theta''" (cut short when long). */
static void block_names(const freader *r, char *buf, size_t len)
{
    const cl_field_layout *L = &r->f->lay;
    buf[0] = 0;
    for (size_t k = 0; k < L->nblock && strlen(buf) + 48 < len; k++) {
        char name[48];
        cl_field_block_name(L->block + k, name, sizeof name);
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", k ? ", " : "", name);
    }
}

/* A left-hand side NAME' (NAME'') that is no block of the form: why, with the blocks it has. */
static int unknown_block(freader *r, size_t i, size_t n, int primes)
{
    char blocks[200];
    block_names(r, blocks, sizeof blocks);
    const char *form = form_name(r, r->f->form), *ps = primes == 2 ? "''" : primes == 1 ? "'" : "";
    int other = primes ? other_form_of(r, r->s + i, n, 0, primes) : -1;
    if (other >= 0)
        return ffail(r, (long)i, CL_EPARSE, "%.*s%s is the derivative of a block of form %s, not of form %s (whose blocks are %s)",
                     (int)n, r->s + i, ps, form_name(r, other), form, blocks);
    for (size_t b = 0; b < r->f->lay.nblock; b++)
        if (cl_text_name_is(r->f->lay.block[b].name, r->s + i, n))
            return ffail(r, (long)i, CL_EPARSE, "%.*s%s is not a block of form %s: expected a derivative with its primes, one of %s",
                         (int)n, r->s + i, ps, form, blocks);
    return ffail(r, (long)i, CL_EPARSE, "unknown block '%.*s%s': expected let, or the derivative of a block of the state of form %s (%s)",
                 (int)n, r->s + i, ps, form, blocks);
}

/* NAME' = EXPR, NAME'' = EXPR */
static int parse_block(freader *r, size_t i, size_t end, size_t n)
{
    const cl_field_layout *L = &r->f->lay;
    size_t at = i + n;
    int primes = 0;
    while (at < end && r->s[at] == '\'') { primes++; at++; }
    long b = -1;
    for (size_t k = 0; k < L->nblock && b < 0; k++)
        if (L->block[k].primes == primes && cl_text_name_is(L->block[k].name, r->s + i, n)) b = (long)k;
    if (b < 0) return unknown_block(r, i, n, primes);
    const cl_field_block *B = L->block + b;
    char name[48];
    cl_field_block_name(B, name, sizeof name);
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
    static const char *const what[] = {[1] = "a scalar", [3] = "a vector", [9] = "a matrix"};
    if (v.shape != B->shape) return ffail(r, (long)at, CL_EPARSE, "%s must be %s, this is %s", name, what[B->shape], what[v.shape]);
    for (int k = 0; k < B->shape; k++) r->f->comp[B->at + (size_t)k] = v.id[k];
    r->given[b] = (long)i;
    return 0;
}

/* "qdot, omega, mu or pi": the forms of the model that field files are written in, into buf. */
static void form_list(const freader *r, const char *pre, char *buf, size_t len)
{
    const char *const *forms = cl_model_kind_of(r->m)->forms;
    int nf = 0, k = 0;
    cl_field_layout L;
    int ok[16] = {0};
    for (; forms[k] && k < 16; k++)
        if (!cl_field_layout_new(&L, r->m, k)) { ok[k] = 1; nf++; cl_field_layout_free(&L); }
    buf[0] = 0;
    for (int j = 0, shown = 0; j < k; j++)
        if (ok[j]) {
            shown++;
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s%s", shown == 1 ? "" : shown == nf ? " or " : ", ", pre, forms[j],
                     *pre ? "'" : "");
        }
}

static int parse_form(freader *r, size_t i, size_t end)
{
    blank(r, &i, end);
    size_t n = name_len(r, i, end);
    const char *const *forms = cl_model_kind_of(r->m)->forms;
    r->f->form = -1;
    for (int k = 0; forms[k]; k++)
        if (cl_text_name_is(forms[k], r->s + i, n)) r->f->form = k;
    char list[160];
    form_list(r, "", list, sizeof list);
    if (r->f->form < 0) return ffail(r, (long)i, CL_EPARSE, "expected a form of this model: %s", list);
    int st = cl_field_layout_new(&r->f->lay, r->m, r->f->form);
    if (st == CL_EDOMAIN) return ffail(r, (long)i, CL_EPARSE, "field files are not written in form %s yet: use %s", forms[r->f->form], list);
    if (st) return ffail(r, (long)i, st, "out of memory");
    r->f->dim = r->f->lay.dim;
    r->given = malloc((r->f->lay.nblock + 1) * sizeof *r->given);
    r->f->comp = malloc((r->f->dim + 1) * sizeof *r->f->comp);
    if (!r->given || !r->f->comp) return ffail(r, (long)i, CL_ENOMEM, "out of memory");
    for (size_t b = 0; b < r->f->lay.nblock; b++) r->given[b] = -1;
    i += n;
    blank(r, &i, end);
    if (i < end && r->s[i] != '#') return ffail(r, (long)i, CL_EPARSE, "expected the end of the line after the form");
    return 0;
}

static int parse_statements(freader *r)
{
    int have_form = 0;
    char list[200];
    form_list(r, "'form ", list, sizeof list);
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
            return ffail(r, (long)i, CL_EPARSE, "expected %s as the first statement", list);
        } else if (kw_let) {
            parse_let(r, i + n, end);
        } else if (!n) {
            return ffail(r, (long)i, CL_EPARSE, "expected let or the derivative of a block of the state (NAME' = ...)");
        } else {
            parse_block(r, i, end, n);
        }
        at = end;
    }
    if (!r->failed && !have_form) ffail(r, (long)r->len, CL_EPARSE, "expected a form statement (%s)", list);
    return r->failed;
}

/* The blocks not given: implied ones (x' = x' in form qdot) filled in, any other one an error. */
static void settle_blocks(freader *r)
{
    const cl_field_layout *L = &r->f->lay;
    for (size_t b = 0; b < L->nblock && !r->failed; b++) {
        const cl_field_block *B = L->block + b;
        if (r->given[b] >= 0) continue;
        if (B->implied >= 0) {
            for (int k = 0; k < B->shape; k++)
                if ((r->f->comp[B->at + (size_t)k] = cl_expr_input(r->f->g, B->implied + k)) < 0) ffail(r, 0, CL_ENOMEM, "out of memory");
            continue;
        }
        char name[48];
        cl_field_block_name(B, name, sizeof name);
        ffail(r, (long)r->len, CL_EPARSE, "the field gives no %s = ... (every block of the state of form %s is needed)", name,
              form_name(r, r->f->form));
    }
}

void cl_field_free(cl_field *f)
{
    if (!f) return;
    cl_expr_dag_free(f->g);
    cl_field_layout_free(&f->lay);
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
    if (f) {
        f->source = strdup(source);
        f->text = malloc(len + 1);
        cl_expr_dag_new(&f->g);
        f->n = m->n;
        f->nparam = m->nparam;
    }
    if (!f || !let || !f->source || !f->text || !f->g) {
        cl_field_free(f);
        free(let);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    memcpy(f->text, text, len);
    f->text[len] = 0;
    freader r = {.f = f, .m = m, .s = f->text, .len = len, .e = e, .let = let, .other_form = -1};
    if (len > (size_t)CL_FIELD_MAX_BYTES) ffail(&r, 0, CL_EDIM, "field file larger than %ld bytes", (long)CL_FIELD_MAX_BYTES);
    else if (memchr(text, 0, len)) ffail(&r, (long)((const char *)memchr(text, 0, len) - text), CL_EPARSE, "a NUL byte in the field file");
    if (!r.failed) parse_statements(&r);
    if (!r.failed) settle_blocks(&r);
    free(let); free(r.given);
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
    fe->nin = f->dim + f->nparam;
    int st = cl_expr_eval_new_mp(&fe->ev, f->g, prec);
    fe->in = cl_rvec_new_mp(fe->nin, prec);
    for (size_t i = 0; i < f->dim; i++)
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
    for (size_t i = 0; i < f->dim; i++) mpfr_set(fe->in + i, x + i, MPFR_RNDN);
    for (size_t k = 0; k < f->nparam; k++) mpfr_set(fe->in + f->dim + k, par + k, MPFR_RNDN);
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
    for (size_t i = 0; i < f->dim; i++) mpfr_set(dx + i, cl_expr_eval_value_mp(fe->ev, f->comp[i]), MPFR_RNDN);
    return CL_OK;
}

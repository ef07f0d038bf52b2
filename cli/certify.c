/*
 * `--certify` of rhs, equilibria, stability and sweep on a model file: the
 * model's graph on Arb balls (model_ball.h) at --bits, every parameter a
 * ball around its decimal (arb_set_str: never rounded through a double) or
 * a ball written [m +/- r]; balls printed as Arb prints them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "certify.h"
#include "cli.h"

int cl_cli_take_certify(cl_cmd_args *a)
{
    int found = 0, k = 0;
    for (int i = 0; i < a->nparams; i++) {
        if (!strcmp(a->keys[i], "certify") && !a->vals[i]) { found++; continue; }
        a->keys[k] = a->keys[i];
        a->vals[k++] = a->vals[i];
    }
    a->nparams = k;
    return found;
}

void cl_cli_certify_free(cl_cli_certify *c)
{
    cl_model_ball_free(c->ball);
    for (int i = 0; i < c->nmid; i++) free(c->mid[i]);
    free(c->mid);
    free(c->orig);
    memset(c, 0, sizeof *c);
}

/* A parameter's ball from its text: a decimal, or [m +/- r]. 0, or an exit status (message printed). */
static int param_ball(arb_ptr v, const char *name, const char *text)
{
    char arg[200];
    snprintf(arg, sizeof arg, "--%s", name);
    if (arb_set_str(v, text, (slong)cl_arb_get_prec())) return cl_cli_error("not a number or a ball [m +/- r]", arg);
    if (!arb_is_finite(v)) return cl_cli_error("a parameter's ball is not finite (NaN or infinite radius)", arg);
    return CL_EXIT_OK;
}

int cl_cli_certify_prepare(cl_cli_certify *c, cl_cmd_args *a)
{
    memset(c, 0, sizeof *c);
    if (!a->model) return CL_EXIT_OK;
    c->mid = calloc((size_t)a->nparams + 1, sizeof *c->mid);
    c->orig = calloc((size_t)a->nparams + 1, sizeof *c->orig);
    if (!c->mid || !c->orig) return cl_cli_error("out of memory", NULL);
    for (int i = 0; i < a->nparams; i++) { /* a ball [m +/- r] reaches the system as its midpoint */
        if (!a->vals[i] || a->vals[i][0] != '[') continue;
        arb_t v;
        arb_init(v);
        int st = param_ball(v, a->keys[i], a->vals[i]);
        char *s = st ? NULL : arf_get_str(arb_midref(v), (slong)(a->bits * 0.302 + 3));
        arb_clear(v);
        if (st) return st;
        if (!s) return cl_cli_error("out of memory", NULL);
        c->orig[c->nmid] = a->vals[i];
        c->mid[c->nmid++] = s;
        a->vals[i] = s;
    }
    return CL_EXIT_OK;
}

/* The text a parameter was given as: the ball it was written as, for a value replaced by its midpoint. */
static const char *original(const cl_cli_certify *c, const char *v)
{
    for (int j = 0; j < c->nmid; j++)
        if (c->mid[j] == v) return c->orig[j];
    return v;
}

/* The model of s on balls at the current precision into *out, the parameters from the command line as balls. */
static int open_ball(cl_model_ball **out, const cl_cli_certify *c, const cl_cmd_args *a, const cl_system *s)
{
    const cl_model *m = cl_model_system_model(s);
    cl_sys_error e = {"", ""};
    if (cl_model_ball_new(out, m, &e)) return cl_cli_error(e.what, e.arg[0] ? e.arg : NULL);
    arb_t v;
    arb_init(v);
    int st = CL_EXIT_OK;
    for (size_t k = 0; k < m->nparam && !st; k++) {
        const char *text = NULL;
        for (int i = 0; i < a->nparams; i++)
            if (!strcmp(a->keys[i], m->pname[k]) && a->vals[i]) text = original(c, a->vals[i]);
        if (!text) continue;
        if (!(st = param_ball(v, m->pname[k], text))) cl_model_ball_set_param(*out, k, v);
    }
    for (int i = 0; i < a->nparams && !st && m->timed; i++)
        if (!strcmp(a->keys[i], "time") && a->vals[i] && !(st = param_ball(v, "time", original(c, a->vals[i])))) cl_model_ball_set_time(*out, v);
    arb_clear(v);
    if (st) {
        cl_model_ball_free(*out);
        *out = NULL;
    }
    return st;
}

int cl_cli_certify_open(cl_cli_certify *c, const cl_cmd_args *a, const cl_system *s)
{
    if (!cl_model_system_model(s)) return cl_cli_error("--certify needs a model file (a field written in C or compiled cannot be enclosed)", s->name);
    if (cl_arb_set_prec((cl_prec_t)a->bits)) return cl_cli_error("precision out of range", "--bits");
    c->args = a;
    c->sys = s;
    return open_ball(&c->ball, c, a, s);
}

int cl_cli_certify_at(cl_cli_certify *c, long bits)
{
    cl_prec_t old = (cl_prec_t)cl_arb_get_prec();
    cl_model_ball *b = NULL;
    if (cl_arb_set_prec((cl_prec_t)bits)) return cl_cli_error("precision out of range", "--bits");
    int st = open_ball(&b, c, c->args, c->sys);
    if (st) {
        cl_arb_set_prec(old);
        return st;
    }
    cl_model_ball_free(c->ball);
    c->ball = b;
    return CL_EXIT_OK;
}

void cl_cli_print_ball(FILE *f, arb_srcptr x)
{
    char *s = arb_get_str(x, (slong)(cl_arb_get_prec() * 0.30103) + 1, 0);
    fputs(s ? s : "?", f);
    flint_free(s);
}

void cl_cli_json_ball(FILE *f, arb_srcptr x)
{
    fputc('"', f);
    cl_cli_print_ball(f, x);
    fputc('"', f);
}

/* The whole of f into a new buffer (NUL-terminated); NULL when out of memory. */
static char *read_all(FILE *f)
{
    size_t cap = 4096, len = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) free(buf);
            buf = nb;
        }
    }
    if (buf) buf[len] = 0;
    return buf;
}

/* The next token at *p: a ball [m +/- r] whole, else up to white space or a comma; its length (0 at the end). */
static size_t ball_token(char **p)
{
    char *s = *p;
    while (*s && (isspace((unsigned char)*s) || *s == ',')) s++;
    *p = s;
    size_t n = 0;
    if (s[0] == '[') {
        while (s[n] && s[n] != ']') n++;
        return s[n] ? n + 1 : n;
    }
    while (s[n] && !isspace((unsigned char)s[n]) && s[n] != ',') n++;
    return n;
}

int cl_cli_read_ball_state(const cl_cmd_system *cs, FILE *f, arb_ptr x)
{
    char *buf = read_all(f), *p = buf, msg[160];
    if (!buf) return cl_cli_error("out of memory", NULL);
    size_t k = 0, n;
    int st = CL_EXIT_OK;
    while (!st && (n = ball_token(&p)) > 0) {
        char c = p[n];
        p[n] = 0;
        if (k >= cs->dim) k++, st = -1;
        else if (arb_set_str(x + k, p, (slong)cl_arb_get_prec())) {
            snprintf(msg, sizeof msg, "bad number or ball in the state (value %zu)", k + 1);
            st = cl_cli_error(msg, NULL);
        } else if (!arb_is_finite(x + k)) {
            snprintf(msg, sizeof msg, "a ball of the state is not finite: NaN or infinite radius (value %zu)", k + 1);
            st = cl_cli_error(msg, "state");
        } else k++;
        p[n] = c;
        p += n;
    }
    free(buf);
    if (st > 0) return st;
    if (st < 0 || k != cs->dim) {
        snprintf(msg, sizeof msg, "wrong number of values in the state: expected %zu, got %s%zu", cs->dim, st < 0 ? "more than " : "",
                 st < 0 ? cs->dim : k);
        return cl_cli_error(msg, cs->sys->forms[cs->form]);
    }
    /* the midpoints checked as any state is (unit vectors, tangency, the field's domain) */
    mpfr_ptr y = cl_rvec_new_mp(cs->dim, (cl_prec_t)cl_arb_get_prec() + 64);
    if (!y) return cl_cli_error("out of memory", NULL);
    for (size_t i = 0; i < cs->dim; i++) arf_get_mpfr(y + i, arb_midref(x + i), MPFR_RNDN);
    char err[256] = "";
    st = cs->sys->check_state(cs->inst, cs->form, y, err, sizeof err);
    cl_rvec_free_mp(y);
    return st ? cl_cli_error(err[0] ? err : cl_strerror(st), "state") : CL_EXIT_OK;
}

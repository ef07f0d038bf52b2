/* Registries of checks, systems and figures, filled at program start, and the
   parser of the systems' parameters. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "system.h"
#include "chartless_base.h"

static const cl_check **checks;
static size_t nchecks, capchecks;

void cl_check_register(const cl_check *c, size_t n)
{
    if (nchecks + n > capchecks) {
        size_t cap = 2 * (nchecks + n) + 16;
        const cl_check **p = realloc(checks, cap * sizeof *p);
        if (!p) abort();
        checks = p;
        capchecks = cap;
    }
    for (size_t i = 0; i < n; i++) checks[nchecks++] = c + i;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const cl_check *const *)a)->name, (*(const cl_check *const *)b)->name);
}

size_t cl_check_count(void) { return nchecks; }

const cl_check *cl_check_get(size_t i)
{
    static size_t sorted;
    if (sorted != nchecks) {
        qsort(checks, nchecks, sizeof *checks, by_name);
        sorted = nchecks;
    }
    return i < nchecks ? checks[i] : NULL;
}

/* A registration beyond the fixed tables is a build error, never a silent drop. */
static void registry_full(const char *what, const char *name)
{
    fprintf(stderr, "chartless: too many %s registered (%s); enlarge the table in system/registry.c\n", what, name);
    abort();
}

/* A fixed table of registered descriptors (systems, figures), found by name. */
typedef struct named_table {
    const char *what;
    size_t n;
    const void *item[64];
    const char *name[64];
} named_table;

static named_table systems = {.what = "systems"};
static named_table figures = {.what = "figures"};

static void table_add(named_table *t, const void *item, const char *name)
{
    if (t->n >= sizeof t->item / sizeof t->item[0]) registry_full(t->what, name);
    t->item[t->n] = item;
    t->name[t->n++] = name;
}

static const void *table_find(const named_table *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->name[i], name) == 0) return t->item[i];
    return NULL;
}

static const void *table_get(const named_table *t, size_t i) { return i < t->n ? t->item[i] : NULL; }

void cl_system_register(const cl_system *s) { table_add(&systems, s, s->name); }
const cl_system *cl_system_find(const char *name) { return table_find(&systems, name); }
size_t cl_system_count(void) { return systems.n; }
const cl_system *cl_system_get(size_t i) { return table_get(&systems, i); }

int cl_system_form_index(const cl_system *s, const char *form)
{
    for (int i = 0; s->forms[i]; i++)
        if (strcmp(s->forms[i], form) == 0) return i;
    return -1;
}

void cl_figure_register(const cl_figure *f) { table_add(&figures, f, f->name); }
const cl_figure *cl_figure_find(const char *name) { return table_find(&figures, name); }
size_t cl_figure_count(void) { return figures.n; }
const cl_figure *cl_figure_get(size_t i) { return table_get(&figures, i); }

static const cl_plotter *plotter;
void cl_plotter_install(const cl_plotter *p) { plotter = p; }
const cl_plotter *cl_plotter_installed(void) { return plotter; }

/* ------------------------------------------------------------ parameters */

int cl_sys_error_set(cl_sys_error *e, int code, const char *arg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
    snprintf(e->arg, sizeof e->arg, "%s", arg ? arg : "");
    return code;
}

void cl_sys_print_real(FILE *f, mpfr_srcptr x)
{
    /* Enough digits to identify the number: ceil(p·log10 2) + 1. */
    size_t digits = (size_t)(mpfr_get_prec(x) * 0.30102999566398120) + 2;
    mpfr_fprintf(f, "%.*Rg", (int)digits, x);
}

const cl_param *cl_param_find(const cl_param *table, const char *name)
{
    for (; table && table->name; table++)
        if (!strcmp(table->name, name) || (table->alias && !strcmp(table->alias, name))) return table;
    return NULL;
}

static int is_separator(char c) { return c == ',' || isspace((unsigned char)c); }

/* Numbers in s: runs of commas and white space separate them. */
static size_t count_numbers(const char *s)
{
    size_t k = 0;
    for (;;) {
        while (*s && is_separator(*s)) s++;
        if (!*s) return k;
        k++;
        while (*s && !is_separator(*s)) s++;
    }
}

/* The numbers of s into x[0..len) at their precision, in place: a value of
   any length is read whole, by MPFR, never through a double. */
static int read_numbers(mpfr_ptr x, size_t len, const char *s, const cl_param *d, cl_sys_error *e)
{
    for (size_t i = 0; i < len; i++) {
        while (is_separator(*s)) s++;
        const char *tok = s;
        while (*s && !is_separator(*s)) s++;
        int toklen = (int)(s - tok);
        char *end;
        mpfr_strtofr(x + i, tok, &end, 10, MPFR_RNDN);
        const char *rule = NULL;
        int st = CL_EPARAM, sgn = mpfr_sgn(x + i);
        if (end != s || end == tok) { rule = "be a number"; st = CL_EPARSE; }
        else if (!mpfr_number_p(x + i)) { rule = "be a finite number"; st = CL_ENAN; }
        else if (d->constraint == CL_PARAM_POSITIVE && sgn <= 0) rule = "be positive";
        else if (d->constraint == CL_PARAM_NONNEGATIVE && sgn < 0) rule = "not be negative";
        else if (d->constraint == CL_PARAM_NONZERO && sgn == 0) rule = "be non-zero";
        if (!rule) continue;
        if (st == CL_EPARAM && d->noun) { /* the quantity by name, the option as the argument */
            cl_sys_error_set(e, st, NULL, "%s must %s", d->noun, rule);
            if (len > 1) snprintf(e->arg, sizeof e->arg, "--%s, number %zu", d->name, i + 1);
            else snprintf(e->arg, sizeof e->arg, "--%s", d->name);
            return st;
        }
        cl_sys_error_set(e, st, NULL, "--%s must %s", d->name, rule);
        snprintf(e->arg, sizeof e->arg, "%.*s", toklen, tok);
        return st;
    }
    return CL_OK;
}

/* "a|b|c" as "a, b or c". */
static void choices_text(char *buf, size_t len, const char *choices)
{
    size_t k = 0, nbar = 0;
    for (const char *c = choices; *c; c++) nbar += *c == '|';
    for (const char *c = choices; *c && k + 5 < len; c++) {
        if (*c != '|') { buf[k++] = *c; continue; }
        const char *sep = --nbar ? ", " : " or ";
        size_t l = strlen(sep);
        memcpy(buf + k, sep, l);
        k += l;
    }
    buf[k] = 0;
}

static int word_allowed(const char *choices, const char *w)
{
    size_t l = strlen(w);
    for (const char *c = choices; c; c = strchr(c, '|') ? strchr(c, '|') + 1 : NULL)
        if (!strncmp(c, w, l) && (c[l] == '|' || c[l] == 0)) return 1;
    return 0;
}

int cl_parse_whole(const char *s, long lo, long hi, long *v)
{
    /* digits with an optional minus sign, of any length: no blanks or plus
       sign that strtol would let through */
    if (!s || !isdigit((unsigned char)s[s[0] == '-'])) return -1;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi) return -1;
    *v = x;
    return 0;
}

/* One entry from its text (given or default) once the size n is known. */
static int parse_entry(cl_param_value *v, const cl_param *d, const char *text, size_t n, cl_prec_t prec,
                       cl_sys_error *e)
{
    char buf[200];
    switch (d->shape) {
    case CL_PARAM_FLAG:
    case CL_PARAM_SIZE: return CL_OK;
    case CL_PARAM_WORD:
        if (d->choices && !word_allowed(d->choices, text)) {
            choices_text(buf, sizeof buf, d->choices);
            return cl_sys_error_set(e, CL_EPARAM, text, "--%s must be %s", d->name, buf);
        }
        v->word = text;
        return CL_OK;
    default: break;
    }
    size_t got = count_numbers(text), want = got;
    int ok = 1;
    switch (d->shape) {
    case CL_PARAM_NUMBER: want = 1; ok = got == 1; break;
    case CL_PARAM_LIST: want = (size_t)d->count; ok = got == want; break;
    case CL_PARAM_NLIST: want = n; ok = got == n || (!v->given && got == 1); break;
    case CL_PARAM_ANYLIST: ok = got >= 1 && got <= (size_t)d->count; break;
    default: break;
    }
    if (!ok) {
        if (d->shape == CL_PARAM_ANYLIST)
            return cl_sys_error_set(e, CL_EDIM, text, "--%s needs 1 to %ld numbers, got %zu", d->name, d->count, got);
        return cl_sys_error_set(e, CL_EDIM, text, "--%s needs %s%zu number%s, got %zu", d->name,
                                d->shape == CL_PARAM_NLIST ? "n = " : "", want, want == 1 ? "" : "s", got);
    }
    v->len = want;
    v->x = cl_rvec_new_mp(want, prec);
    if (!v->x) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    int st = read_numbers(v->x, got, text, d, e);
    for (size_t i = got; !st && i < want; i++) mpfr_set(v->x + i, v->x, MPFR_RNDN); /* an n-list default */
    return st;
}

void cl_params_free(cl_params *p)
{
    for (size_t k = 0; p->v && k < p->count; k++) cl_rvec_free_mp(p->v[k].x);
    free(p->v);
    p->v = NULL;
    p->count = 0;
}

int cl_params_parse(cl_params *p, const cl_param *table, int nopt, const char *const *keys,
                    const char *const *vals, cl_prec_t prec, cl_sys_error *e)
{
    memset(p, 0, sizeof *p);
    p->table = table;
    while (table && table[p->count].name) p->count++;
    p->v = calloc(p->count + 1, sizeof *p->v);
    const char **text = calloc(p->count + 1, sizeof *text);
    if (!p->v || !text) {
        free(text);
        cl_params_free(p);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    char arg[80];
    int st = CL_OK;
    for (int i = 0; i < nopt && !st; i++) {
        snprintf(arg, sizeof arg, "--%s", keys[i]);
        const cl_param *d = cl_param_find(table, keys[i]);
        if (!d) { st = cl_sys_error_set(e, CL_EPARAM, arg, "unknown parameter"); break; }
        size_t k = (size_t)(d - table);
        if (p->v[k].given) st = cl_sys_error_set(e, CL_EPARAM, arg, "parameter given twice");
        else if (d->shape == CL_PARAM_FLAG && vals[i]) st = cl_sys_error_set(e, CL_EPARAM, arg, "option takes no value");
        else if (d->shape != CL_PARAM_FLAG && !vals[i]) st = cl_sys_error_set(e, CL_EPARAM, arg, "option needs a value");
        p->v[k].given = 1;
        text[k] = vals[i];
    }
    /* The size first: the n-lists' lengths depend on it. */
    p->n = 1;
    const cl_param *size = NULL;
    for (size_t k = 0; k < p->count && !st; k++) {
        const cl_param *d = table + k;
        if (d->shape != CL_PARAM_SIZE) continue;
        size = d;
        const char *s = text[k] ? text[k] : d->def;
        if (s && cl_parse_whole(s, d->lo, d->hi, &p->v[k].whole))
            st = cl_sys_error_set(e, CL_EDIM, s, "--%s must be a whole number from %ld to %ld", d->name, d->lo, d->hi);
        if (s && !st) p->n = (size_t)p->v[k].whole;
    }
    if (!st && (!size || !text[size - table]))
        for (size_t k = 0; k < p->count; k++)
            if (table[k].shape == CL_PARAM_NLIST && text[k]) {
                /* its length sets n, within the size's range (an empty list would leave the defaults no room) */
                p->n = count_numbers(text[k]);
                long lo = size ? size->lo : 1, hi = size ? size->hi : LONG_MAX;
                if (p->n < (size_t)(lo > 1 ? lo : 1) || p->n > (size_t)hi) {
                    st = cl_sys_error_set(e, CL_EDIM, NULL, "--%s needs %ld to %ld numbers, one per body, got %zu", table[k].name,
                                          lo > 1 ? lo : 1, hi, p->n);
                    snprintf(e->arg, sizeof e->arg, "--%s", table[k].name);
                }
                else if (size) p->v[size - table].whole = (long)p->n;
                break;
            }
    for (size_t k = 0; k < p->count && !st; k++) {
        const char *s = text[k] ? text[k] : table[k].def;
        if (table[k].shape == CL_PARAM_FLAG) p->v[k].word = p->v[k].given ? "" : NULL;
        else if (s) st = parse_entry(p->v + k, table + k, s, p->n, prec, e);
    }
    free(text);
    if (st) cl_params_free(p);
    return st;
}

const cl_param_value *cl_params_get(const cl_params *p, const char *name)
{
    for (size_t k = 0; k < p->count; k++)
        if (!strcmp(p->table[k].name, name)) return p->v + k;
    fprintf(stderr, "chartless: no parameter --%s in this table\n", name);
    abort();
}

mpfr_ptr cl_params_x(const cl_params *p, const char *name) { return cl_params_get(p, name)->x; }

void cl_params_help(FILE *f, const cl_param *table)
{
    static const char *const rule[] = {"", ", > 0", ", >= 0", ", != 0"};
    char nlists[200] = ""; /* "--m or --l": the lists whose length sets n */
    size_t k = 0;
    for (const cl_param *d = table; d && d->name; d++)
        if (d->shape == CL_PARAM_NLIST && k < sizeof nlists)
            k += (size_t)snprintf(nlists + k, sizeof nlists - k, "%s--%s", k ? " or " : "", d->name);
    for (const cl_param *d = table; d && d->name; d++) {
        const char *mv = d->metavar;
        if (!mv) switch (d->shape) {
            case CL_PARAM_NUMBER: mv = "X"; break;
            case CL_PARAM_SIZE: mv = "N"; break;
            case CL_PARAM_WORD: mv = d->choices ? d->choices : "WORD"; break;
            case CL_PARAM_FLAG: mv = ""; break;
            default: mv = "LIST"; break;
            }
        int w = fprintf(f, "  --%s%s%s", d->name, *mv ? " " : "", mv);
        fprintf(f, "%*s%s", w < 20 ? 20 - w : 1, "", d->help ? d->help : "");
        if (d->def && d->shape == CL_PARAM_SIZE && nlists[0])
            fprintf(f, " (default: the length of %s, else %s)", nlists, d->def);
        else if (d->def && d->shape == CL_PARAM_NLIST) fprintf(f, " (default all %s)", d->def);
        else if (d->def && d->shape != CL_PARAM_FLAG) fprintf(f, " (default %s)", d->def);
        if (d->shape == CL_PARAM_SIZE) fprintf(f, ", %ld to %ld", d->lo, d->hi);
        fprintf(f, "%s", rule[d->constraint]);
        if (d->alias) fprintf(f, "; also --%s", d->alias);
        fputc('\n', f);
    }
}

int cl_check_worst(cl_check_result *res, double e, const char *fmt, ...)
{
    if (!(isnan(e) || e > res->log2_err)) return 0;
    res->log2_err = isnan(e) ? INFINITY : e;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(res->note, sizeof res->note, fmt, ap);
        va_end(ap);
    }
    return 1;
}

int cl_check_measured_once(cl_check_result *res, cl_check_once *once, double tol,
                           double (*measure)(const void *arg, char *note, size_t len), const void *arg)
{
    if (!once->done) {
        once->offset = measure(arg, once->note, sizeof once->note);
        once->done = 1;
    }
    cl_check_begin(res);
    if (!(fabs(once->offset) <= tol)) cl_check_worst(res, log2(fabs(once->offset)), NULL); /* NaN fails */
    snprintf(res->note, sizeof res->note, "%s", once->note);
    return CL_OK;
}

/* The last rung run in this process (the oracle runs a check's rungs in
   increasing precision in a process of its own). */
static struct { const cl_check *c; long bits; double seconds; int spent; } last_rung;

double cl_check_rung_budget(const cl_check *c, long bits)
{
    if (last_rung.c == c && bits > last_rung.bits && !last_rung.spent) {
        double r = (double)bits / (double)last_rung.bits;
        return fmax(CL_CHECK_BUDGET_FLOOR, CL_CHECK_BUDGET_FACTOR * last_rung.seconds * r * r * r);
    }
    return CL_CHECK_BUDGET_FIRST * fmax(1.0, pow((double)bits / 256.0, 3));
}

/* Why the current rung could not draw a state inside the domain (cl_check_undefined()). */
static char undefined_why[sizeof ((cl_check_result *)0)->note];

void cl_check_undefined(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(undefined_why, sizeof undefined_why, fmt, ap);
    va_end(ap);
}

int cl_check_run(const cl_check *c, long bits, cl_check_result *res)
{
    res->log2_err = NAN;
    res->note[0] = 0;
    undefined_why[0] = 0;
    if (last_rung.c == c && last_rung.spent && bits > last_rung.bits) {
        snprintf(res->note, sizeof res->note, "not run: the rung at %ld bits ran out of its CPU time", last_rung.bits);
        return CL_ETIME;
    }
    double budget = cl_check_rung_budget(c, bits), t0 = cl_cpu_seconds();
    cl_cpu_budget_set(budget);
    int st = bits == 53 ? c->fn_d(res, 53) : c->fn_mp(res, (cl_prec_t)bits);
    /* A check that went on after its integrators refused has no result either. */
    int spent = st == CL_ETIME || cl_cpu_budget_spent();
    cl_cpu_budget_set(0);
    mpfr_free_cache();
    last_rung.c = c;
    last_rung.bits = bits;
    last_rung.seconds = cl_cpu_seconds() - t0;
    last_rung.spent = spent;
    if (spent) {
        snprintf(res->note, sizeof res->note, "stopped after %.1f s of CPU time, its budget at %ld bits (%.1f s)",
                 last_rung.seconds, bits, budget);
        return CL_ETIME;
    }
    if (st == CL_EUNDEFINED && !res->note[0]) snprintf(res->note, sizeof res->note, "%s", undefined_why);
    return st;
}

double cl_check_log2_tol(const cl_check *c, long bits)
{
    return c->kind == CL_CHECK_EXACT ? -INFINITY : log2(c->cond) + 1.0 - (double)bits;
}

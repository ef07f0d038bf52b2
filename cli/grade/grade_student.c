/**
 * \file grade_student.c
 * \brief The student's side of `chartless grade`: parameters as doubles,
 *        the random draw, states written out and values read back (grade_student.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "cli.h"
#include "grade_report.h"
#include "grade_student.h"
#include "json.h"

/* Every number of the parameters must reach the student unchanged in kind:
   finite, and not rounded to zero. 0, or exit status 2 (message printed). */
int grade_student_doubles(const cl_params *p)
{
    for (size_t k = 0; k < p->count; k++)
        for (size_t i = 0; i < p->v[k].len; i++) {
            double d = mpfr_get_d(p->v[k].x + i, MPFR_RNDN);
            if (isfinite(d) && (d != 0 || mpfr_zero_p(p->v[k].x + i))) continue;
            char arg[80];
            snprintf(arg, sizeof arg, "--%s", p->table[k].name);
            return cl_cli_error(isfinite(d) ? "a parameter rounds to zero as a double, the student's code would see 0"
                                            : "a parameter is not a finite double, the student's code would see infinity",
                                arg);
        }
    return CL_EXIT_OK;
}

/* Parameter \p name of the instance as doubles (n copies of \p def when the system has none). */
static double *student_list(const cl_params *p, const char *name, size_t n, double def)
{
    const cl_param *d = cl_param_find(p->table, name);
    const cl_param_value *v = d ? p->v + (d - p->table) : NULL;
    size_t len = v && v->len ? v->len : n;
    double *x = malloc((len ? len : 1) * sizeof *x);
    if (!x) return NULL;
    for (size_t i = 0; i < len; i++) x[i] = v && v->len ? mpfr_get_d(v->x + i, MPFR_RNDN) : def;
    return x;
}

/* The student's copy of the parameters: n, m, l, g by name, and the numbers
   of every other parameter in the order the system's table documents them. */
int grade_student_params(const cl_params *p, cl_student_params *sp, double **m, double **l, double **extra)
{
    size_t n = p->n, nextra = 0;
    for (size_t k = 0; k < p->count; k++)
        if (strcmp(p->table[k].name, "m") && strcmp(p->table[k].name, "l") && strcmp(p->table[k].name, "g")) nextra += p->v[k].len;
    *m = student_list(p, "m", n, 1);
    *l = student_list(p, "l", n, 1);
    double *g = student_list(p, "g", 1, 9.81);
    *extra = malloc((nextra ? nextra : 1) * sizeof **extra);
    if (!*m || !*l || !g || !*extra) { free(g); return CL_ENOMEM; }
    nextra = 0;
    for (size_t k = 0; k < p->count; k++)
        if (strcmp(p->table[k].name, "m") && strcmp(p->table[k].name, "l") && strcmp(p->table[k].name, "g"))
            for (size_t i = 0; i < p->v[k].len; i++) (*extra)[nextra++] = mpfr_get_d(p->v[k].x + i, MPFR_RNDN);
    *sp = (cl_student_params){.n = (int)n, .m = *m, .l = *l, .g = g[0], .extra = *extra, .nextra = (int)nextra};
    free(g);
    return CL_OK;
}

/* Number \p x of parameter \p d perturbed: scaled by a factor from [1/2, 3/2) (its sign kept, so a
   positive parameter stays positive); a zero, when \p zeros, drawn from [1/8, 3/8) (and with a random
   sign unless the parameter must be nonnegative), so that a term multiplied by it is seen. */
static double perturbed(const cl_param *d, double x, int zeros, cl_rng *rng)
{
    double f = cl_rng_range(rng, 0.5, 1.5);
    if (x != 0 || !zeros) return x * f;
    int sign = d->constraint == CL_PARAM_NONNEGATIVE || d->constraint == CL_PARAM_POSITIVE || cl_rng_range(rng, 0, 1) < 0.5 ? 1 : -1;
    return sign * 0.25 * f;
}

/* The parameters once more with every scalar and every per-body number
   (NUMBER, NLIST) perturbed (perturbed(); vectors such as an axis, which a
   system may normalize, the size and words as they are), so that masses and
   lengths differ, a formula using l_i for l_j cannot pass, and a term
   multiplied by a parameter whose default is 0 is seen (\p zeros; without
   it zeros stay zero, for a system that refuses them).
   The command line of the draw goes to \p shown. 0, or -1 when the system
   refuses the draw. */
int grade_perturbed_params(const cl_params *p, cl_rng *rng, long bits, int zeros, cl_params *out, char *shown, size_t len)
{
    size_t nk = 0, k0 = strlen(shown);
    const char **keys = calloc(p->count + 1, sizeof *keys), **vals = calloc(p->count + 1, sizeof *vals);
    char **text = calloc(p->count + 1, sizeof *text);
    int st = !keys || !vals || !text ? -1 : 0;
    for (size_t k = 0; k < p->count && !st; k++) {
        const cl_param *d = p->table + k;
        const cl_param_value *v = p->v + k;
        size_t cap = 32 * (v->len + 1);
        if (!(text[k] = malloc(cap))) { st = -1; break; }
        text[k][0] = 0;
        if (d->shape == CL_PARAM_SIZE) snprintf(text[k], cap, "%ld", v->whole);
        else if (d->shape == CL_PARAM_WORD && v->word) snprintf(text[k], cap, "%s", v->word);
        else if (d->shape == CL_PARAM_FLAG && v->given) { keys[nk] = d->name; vals[nk++] = NULL; continue; }
        else if (v->len && d->shape != CL_PARAM_FLAG && d->shape != CL_PARAM_WORD) {
            int scaled = d->shape == CL_PARAM_NUMBER || d->shape == CL_PARAM_NLIST;
            for (size_t i = 0, at = 0; i < v->len; i++)
                at += (size_t)snprintf(text[k] + at, cap - at, "%s%.17g", i ? "," : "",
                                       scaled ? perturbed(d, mpfr_get_d(v->x + i, MPFR_RNDN), zeros, rng) : mpfr_get_d(v->x + i, MPFR_RNDN));
        }
        if (!text[k][0]) continue;
        keys[nk] = d->name;
        vals[nk++] = text[k];
        if ((d->shape == CL_PARAM_NUMBER || d->shape == CL_PARAM_NLIST) && k0 < len)
            k0 += (size_t)snprintf(shown + k0, len - k0, " --%s %s", d->name, text[k]);
    }
    cl_sys_error e = {"", ""};
    if (!st) st = cl_params_parse(out, p->table, (int)nk, keys, vals, (cl_prec_t)bits, &e) ? -1 : 0;
    for (size_t k = 0; text && k < p->count; k++) free(text[k]);
    free(text); free(keys); free(vals);
    return st;
}

/* A parameter's value as JSON: a number, a list of numbers, a whole number, a word or a flag. */
static void emit_param(FILE *f, const cl_param *d, const cl_param_value *v)
{
    if (d->shape == CL_PARAM_SIZE) { fprintf(f, "%ld", v->whole); return; }
    if (d->shape == CL_PARAM_FLAG) { fputs(v->given ? "true" : "false", f); return; }
    if (d->shape == CL_PARAM_WORD) {
        if (v->word) cl_json_string(f, v->word);
        else fputs("null", f);
        return;
    }
    int list = d->shape != CL_PARAM_NUMBER;
    if (list) fputc('[', f);
    for (size_t i = 0; i < v->len; i++) fprintf(f, "%s%.17g", i ? ", " : "", mpfr_get_d(v->x + i, MPFR_RNDN));
    if (!list && !v->len) fputs("null", f);
    if (list) fputc(']', f);
}

void grade_emit_instance(FILE *f, int first, const char *title, const cl_params *p, const double *x, const char (*label)[48],
                         int nstates, size_t dim)
{
    fprintf(f, "%s\n  {\"title\": ", first ? "{\"instances\": [" : ",");
    cl_json_string(f, title);
    fprintf(f, ",\n   \"dim\": %zu,\n   \"params\": {\"n\": %zu", dim, p->n);
    for (size_t k = 0; k < p->count; k++) {
        if (!strcmp(p->table[k].name, "n")) continue;
        fputs(", ", f);
        cl_json_string(f, p->table[k].name);
        fputs(": ", f);
        emit_param(f, p->table + k, p->v + k);
    }
    fputs("},\n   \"labels\": [", f);
    for (int k = 0; k < nstates; k++) {
        if (k) fputs(", ", f);
        cl_json_string(f, label[k]);
    }
    fputs("],\n   \"states\": [", f);
    for (int k = 0; k < nstates; k++) {
        fputs(k ? ",\n     [" : "\n     [", f);
        for (size_t i = 0; i < dim; i++) fprintf(f, "%s%.17g", i ? ", " : "", x[(size_t)k * dim + i]);
        fputc(']', f);
    }
    fputs("]}", f);
}

static int outcome_by_name(const char *w)
{
    static const struct { const char *name; int outcome; } names[] = {
        {"done", CL_SB_DONE}, {"crash", CL_SB_CRASH}, {"exit", CL_SB_EXIT}, {"timeout", CL_SB_TIMEOUT},
        {"forbidden", CL_SB_FORBIDDEN}, {"exception", CL_SB_EXCEPTION}, {"memory", CL_SB_MEMORY}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(w, names[i].name)) return names[i].outcome;
    return -1;
}

/* `output HEX`: the bytes the student's code printed, the first CL_SANDBOX_OUTPUT kept. */
static void read_output(cl_sandbox_result *sb, const char *hex)
{
    size_t n = strlen(hex) / 2;
    sb->output_total = n;
    for (size_t i = 0; i < n && i < CL_SANDBOX_OUTPUT; i++) {
        unsigned b = 0;
        sscanf(hex + 2 * i, "%2x", &b);
        sb->output[sb->output_len++] = (char)b;
    }
}

/* `state K RC V...`: the next row of instance part \p vp. 0, or -1. */
static int read_row(grade_values_part *vp, char *rest)
{
    char *end;
    long k = strtol(rest, &end, 10), rc = strtol(end, &end, 10);
    if (k != vp->nrows + 1) return -1;
    size_t cap = 0;
    double row[4096];
    while (cap < 4096) {
        while (isspace((unsigned char)*end)) end++;
        if (!*end) break;
        char *at = end;
        row[cap++] = strtod(at, &end);
        if (end == at) return -1;
    }
    if (vp->nrows && cap != vp->dim) return -1;
    vp->dim = cap;
    int *nrc = realloc(vp->rc, (size_t)(vp->nrows + 1) * sizeof *nrc);
    if (nrc) vp->rc = nrc;
    double *nv = realloc(vp->v, (size_t)(vp->nrows + 1) * (cap ? cap : 1) * sizeof *nv);
    if (nv) vp->v = nv;
    if (!nrc || !nv) return -1;
    vp->rc[vp->nrows] = (int)rc;
    memcpy(vp->v + (size_t)vp->nrows * cap, row, cap * sizeof *row);
    vp->nrows++;
    return 0;
}

/* One line of a values file into gv (the instance under way *cur). 0, or -1. */
static int read_line(grade_values *gv, char *line, int *cur)
{
    char *sp = strchr(line, ' ');
    char *rest = sp ? sp + 1 : line + strlen(line);
    if (sp) *sp = 0;
    if (!strcmp(line, "chartless-values")) return strcmp(rest, "1") ? -1 : 0;
    if (!strcmp(line, "name")) { snprintf(gv->name, sizeof gv->name, "%s", rest); return 0; }
    if (!strcmp(line, "instance")) {
        *cur = !strcmp(rest, "0") ? 0 : !strcmp(rest, "1") ? 1 : -1;
        if (*cur < 0 || gv->part[*cur].present) return -1;
        gv->part[*cur].present = 1;
        gv->part[*cur].sb = (cl_sandbox_result){.outcome = CL_SB_DONE, .state = -1};
        return 0;
    }
    if (*cur < 0) return -1;
    grade_values_part *vp = gv->part + *cur;
    if (!strcmp(line, "state")) return read_row(vp, rest);
    if (!strcmp(line, "message")) { snprintf(vp->sb.message, sizeof vp->sb.message, "%s", rest); return 0; }
    if (!strcmp(line, "output")) { read_output(&vp->sb, rest); return 0; }
    if (strcmp(line, "end")) return -1;
    char word[32];
    if (sscanf(rest, "%31s %d %d %d", word, &vp->sb.state, &vp->sb.signal, &vp->sb.exit_status) != 4) return -1;
    int o = outcome_by_name(word);
    if (o < 0) return -1;
    vp->sb.outcome = (cl_sandbox_outcome)o;
    return 0;
}

int grade_values_load(grade_values *gv, const char *path)
{
    memset(gv, 0, sizeof *gv);
    snprintf(gv->name, sizeof gv->name, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) return cl_cli_error("cannot read the values file", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int cur = -1, lineno = 0, bad = 0;
    while (!bad && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (n) bad = read_line(gv, line, &cur);
    }
    free(line);
    fclose(f);
    if (!bad && lineno) return CL_EXIT_OK;
    char msg[160];
    snprintf(msg, sizeof msg, "not a values file (grade_student.h): line %d", lineno);
    grade_values_free(gv);
    return cl_cli_error(msg, path);
}

void grade_values_free(grade_values *gv)
{
    for (int i = 0; i < 2; i++) {
        free(gv->part[i].rc);
        free(gv->part[i].v);
        gv->part[i].rc = NULL;
        gv->part[i].v = NULL;
    }
}

int grade_values_fill(const grade_values *gv, int i, size_t dim, int nstates, double *dx, int *rc, cl_sandbox_result *sb)
{
    const grade_values_part *vp = gv->part + i;
    if (!vp->present) return cl_cli_error("the values file has no values for this parameter set", i ? "instance 1" : "instance 0");
    if (vp->nrows > nstates || (vp->nrows && vp->dim != dim) || vp->sb.state >= nstates)
        return cl_cli_error("the values file does not fit the states of --emit-states (count or dimension)", gv->name);
    *sb = vp->sb;
    sb->nresults = vp->nrows;
    for (int k = 0; k < vp->nrows; k++) {
        rc[k] = vp->rc[k];
        memcpy(dx + (size_t)k * dim, vp->v + (size_t)k * dim, dim * sizeof *dx);
    }
    if (sb->outcome == CL_SB_DONE && vp->nrows < nstates)
        return cl_cli_error("the values file ends before the last state", gv->name);
    return CL_EXIT_OK;
}

/*
 * A sweep prepared from its command line, shared by `chartless sweep` and
 * `--merge --plot` (which prepares the sweep again from a shard's first
 * line): the system or model and what maps it (its own hook or the generic
 * map), the axes NAME=a:b:N, the shard k/N, both ends of each axis through
 * the parameter table, the line '# chartless sweep ...'; the value of an
 * axis at a cell and the cells of a shard.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "sweep.h"

void sweep_free(sweep *s)
{
    if (s->have_params) cl_params_free(&s->p);
    s->have_params = 0;
    free(s->header);
    s->header = NULL;
    free(s->eq);
    s->eq = NULL;
    if (s->from_model && s->sys) cl_model_system_free(s->sys);
    s->from_model = 0;
    cl_model_ball_free(s->ball);
    s->ball = NULL;
}

static int offers_sweep(const cl_system *s) { return cl_system_offers_sweep(s); }

/* NAME=a:b:N into \p x (values checked by the parameter table later). */
static int parse_axis(axis *x, const char *opt, const char *spec, const cl_param *table)
{
    x->spec = spec;
    x->opt = opt;
    const char *eq = strchr(spec, '='), *c1 = eq ? strchr(eq + 1, ':') : NULL, *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!eq || !c1 || !c2 || strchr(c2 + 1, ':') || eq == spec || c1 == eq + 1 || c2 == c1 + 1 ||
        (size_t)(eq - spec) >= sizeof x->name || (size_t)(c1 - eq) > sizeof x->a || (size_t)(c2 - c1) > sizeof x->b) {
        char msg[80];
        snprintf(msg, sizeof msg, "%s needs NAME=a:b:N", opt);
        return cl_cli_error(msg, spec);
    }
    memcpy(x->name, spec, (size_t)(eq - spec));
    x->name[eq - spec] = 0;
    memcpy(x->a, eq + 1, (size_t)(c1 - eq - 1));
    x->a[c1 - eq - 1] = 0;
    memcpy(x->b, c1 + 1, (size_t)(c2 - c1 - 1));
    x->b[c2 - c1 - 1] = 0;
    if (cl_parse_whole(c2 + 1, 1, SWEEP_MAX_CELLS, &x->n)) {
        char msg[120];
        snprintf(msg, sizeof msg, "the number of values N in %s NAME=a:b:N must be a whole number from 1 to %ld", opt,
                 SWEEP_MAX_CELLS);
        return cl_cli_error(msg, spec);
    }
    x->param = cl_param_find(table, x->name);
    if (!x->param || x->param->shape != CL_PARAM_NUMBER) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: not a number parameter of this system's sweep (chartless sweep --system NAME --help)", opt);
        return cl_cli_error(msg, x->name);
    }
    return CL_EXIT_OK;
}

/* k/N into the sweep. */
static int parse_shard(sweep *s, const char *spec)
{
    const char *sl = spec ? strchr(spec, '/') : NULL;
    char k[32];
    if (!sl || (size_t)(sl - spec) >= sizeof k) return cl_cli_error("--shard needs k/N, 1 <= k <= N", spec);
    memcpy(k, spec, (size_t)(sl - spec));
    k[sl - spec] = 0;
    if (cl_parse_whole(sl + 1, 1, SWEEP_MAX_SHARDS, &s->shard_n)) {
        char msg[120];
        snprintf(msg, sizeof msg, "--shard k/N: N must be a whole number from 1 to %ld", SWEEP_MAX_SHARDS);
        return cl_cli_error(msg, spec);
    }
    if (cl_parse_whole(k, 1, s->shard_n, &s->shard_k)) return cl_cli_error("--shard k/N: k must be a whole number from 1 to N", spec);
    return CL_EXIT_OK;
}

/* The cells of shard k of n among total: [lo, hi). */
void sweep_shard_range(long total, long k, long n, long *lo, long *hi)
{
    *lo = (long)((__int128)total * (k - 1) / n);
    *hi = (long)((__int128)total * k / n);
}

/* Parse the parameters with the swept ones given as \p end (0: a, 1: b): the table checks both ends. */
static int parse_with_ends(sweep *s, const cl_cmd_args *a, int end, cl_params *p)
{
    int n = a->nparams;
    const char **keys = malloc((size_t)(n + 2) * sizeof *keys), **vals = malloc((size_t)(n + 2) * sizeof *vals);
    if (!keys || !vals) { free(keys); free(vals); return cl_cli_error("out of memory", NULL); }
    int m = 0;
    for (int i = 0; i < n; i++) /* the generic map's own option is no parameter */
        if (s->hook || strcmp(a->keys[i], "equilibrium")) {
            keys[m] = a->keys[i];
            vals[m++] = a->vals[i];
        }
    n = m;
    for (int i = 0; i < s->naxes; i++) {
        keys[n + i] = s->ax[i].param->name;
        vals[n + i] = end ? s->ax[i].b : s->ax[i].a;
    }
    cl_sys_error e = {"", ""};
    int st = cl_params_parse(p, s->table, n + s->naxes, keys, vals, (cl_prec_t)a->bits, &e);
    free(keys);
    free(vals);
    if (st) {
        char arg[700];
        snprintf(arg, sizeof arg, "%s", e.arg);
        for (int i = 0; i < s->naxes && !e.arg[0]; i++)
            if (strstr(e.what, s->ax[i].param->name)) snprintf(arg, sizeof arg, "%s %s", s->ax[i].opt, s->ax[i].spec);
        return cl_cli_error(e.what, arg[0] ? arg : NULL);
    }
    return CL_EXIT_OK;
}

/* The line '# chartless sweep ...': the options that change a number, the parameters in the table's order. */
static char *header_line(const sweep *s, const cl_cmd_args *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "# chartless sweep %s %s", s->from_model ? "--model" : "--system", a->model ? a->model : s->sys->name);
    for (int i = 0; i < s->naxes; i++) fprintf(f, " %s %s", s->ax[i].opt, s->ax[i].spec);
    fprintf(f, " --bits %ld%s", a->bits, s->certify ? " --certify" : "");
    if (s->form_name) fprintf(f, " --form %s", s->form_name);
    if (s->equilibrium) fprintf(f, " --equilibrium %s", s->equilibrium);
    for (const cl_param *t = s->table; t->name; t++)
        for (int k = 0; k < a->nparams; k++)
            if (cl_param_find(s->table, a->keys[k]) == t) {
                fprintf(f, " --%s", t->name);
                if (a->vals[k]) fprintf(f, " %s", a->vals[k]);
            }
    fputc('\n', f);
    if (fclose(f)) { free(buf); return NULL; }
    return buf;
}

/* The system (or model) and what maps it: its own hook, or the generic map of its equilibria. */
static int sweep_system(sweep *s, const cl_cmd_args *a, int certify)
{
    char with[256], msg[400];
    cl_cmd_systems_with(with, sizeof with, offers_sweep);
    if (a->model && a->system) return cl_cli_error("give --system or --model, not both", a->model);
    if (a->model) {
        if (strpbrk(a->model, " \t\n\r'\\"))
            return cl_cli_error("the model file's name must not hold blanks, quotes or backslashes (the CSV's first line names it)",
                                a->model);
        cl_sys_error e = {"", ""};
        if (cl_model_system_new(&s->sys, a->model, &e)) {
            s->sys = NULL;
            return cl_cmd_report(&e, a->model, CL_EXIT_USAGE);
        }
        s->from_model = 1;
    } else if (!a->system) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer sweep: %s; or --model FILE)", with);
        return cl_cli_error(msg, NULL);
    } else if (!(s->sys = cl_system_find(a->system)))
        return cl_cmd_unknown_system(a->system);
    if (!cl_system_offers_sweep(s->sys)) {
        if (s->from_model) return cl_cli_error("sweep needs a system with equilibria; the model declares none", a->model);
        snprintf(msg, sizeof msg, "sweep is offered by %s (and models with equilibria) only", with);
        return cl_cli_error(msg, a->system);
    }
    s->hook = s->sys->sweep;
    s->table = s->hook ? s->hook->params : s->sys->params;
    if (s->hook && a->form) return cl_cli_error("unknown option", "--form");
    s->form_name = a->form;
    if (certify && !(s->hook && s->hook->cell_certified) && !(s->from_model && !s->hook))
        return cl_cli_error("this system's sweep has no certified verdicts (--certify needs a model file or the skate)", "--certify");
    for (int k = 0; !s->hook && k < a->nparams; k++) /* the generic map's own option */
        if (!strcmp(a->keys[k], "equilibrium")) {
            if (s->equilibrium) return cl_cli_error("option given twice", "--equilibrium");
            if (!a->vals[k] || !a->vals[k][0]) return cl_cli_error("--equilibrium needs a value", "--equilibrium");
            s->equilibrium = a->vals[k];
        }
    return CL_EXIT_OK;
}

/* Check the command line and parse it into \p s; 0 or exit status 2 (message printed). */
int sweep_prepare(sweep *s, const cl_cmd_args *a, const sweep_opts *o, int certify)
{
    memset(s, 0, sizeof *s);
    s->certify = certify;
    s->bits = a->bits;
    s->shard_k = s->shard_n = 1;
    char msg[400];
    int st = sweep_system(s, a, certify);
    if (st) return st;
    if (!o->x) return cl_cli_error("--x NAME=a:b:N is required", "--x");
    st = parse_axis(&s->ax[0], "--x", o->x, s->table);
    s->naxes = 1;
    if (!st && o->y) {
        st = parse_axis(&s->ax[1], "--y", o->y, s->table);
        s->naxes = 2;
        if (!st && s->ax[1].param == s->ax[0].param) st = cl_cli_error("--x and --y sweep the same parameter", o->y);
    }
    for (int i = 0; i < s->naxes && !st; i++)
        for (int k = 0; k < a->nparams && !st; k++)
            if (cl_param_find(s->table, a->keys[k]) == s->ax[i].param) {
                snprintf(msg, sizeof msg, "--%s is swept by %s; give it there only", a->keys[k], s->ax[i].opt);
                st = cl_cli_error(msg, s->ax[i].spec);
            }
    for (int k = 0; k < a->nparams && !st; k++)
        if (a->vals[k] && strpbrk(a->vals[k], "\n\r")) st = cl_cli_error("a value must not contain a line break", a->keys[k]);
    if (!st && o->shard) st = parse_shard(s, o->shard);
    if (st) return st;
    s->total = s->ax[0].n;
    if (s->naxes == 2) {
        if (s->ax[1].n > SWEEP_MAX_CELLS / s->total) {
            snprintf(msg, sizeof msg, "a grid of more than %ld cells", SWEEP_MAX_CELLS);
            return cl_cli_error(msg, o->y);
        }
        s->total *= s->ax[1].n;
    }
    /* Both ends through the table (format, constraint), then the order of the ends. */
    cl_params pb;
    if ((st = parse_with_ends(s, a, 1, &pb))) return st;
    if ((st = parse_with_ends(s, a, 0, &s->p))) { cl_params_free(&pb); return st; }
    s->have_params = 1;
    for (int i = 0; i < s->naxes && !st; i++) {
        axis *x = s->ax + i;
        x->slot = (size_t)(x->param - s->table);
        mpfr_srcptr va = s->p.v[x->slot].x, vb = pb.v[x->slot].x;
        int c = mpfr_cmp(va, vb);
        if (x->n == 1 && c) {
            snprintf(msg, sizeof msg, "%s: with N = 1, a and b must be equal", x->opt);
            st = cl_cli_error(msg, x->spec);
        } else if (x->n > 1 && c >= 0) {
            snprintf(msg, sizeof msg, "%s: a must be less than b", x->opt);
            st = cl_cli_error(msg, x->spec);
        } else if (x->param->constraint == CL_PARAM_NONZERO && mpfr_sgn(va) != mpfr_sgn(vb)) {
            snprintf(msg, sizeof msg, "%s: the range crosses 0, where %s must not be", x->opt, x->name);
            st = cl_cli_error(msg, x->spec);
        }
    }
    cl_params_free(&pb);
    if (!st && !s->hook) st = sweep_generic_prepare(s);
    if (!st && !(s->header = header_line(s, a))) st = cl_cli_error("out of memory", NULL);
    return st;
}
void sweep_axis_value(mpfr_ptr v, const axis *x, mpfr_srcptr a, mpfr_srcptr b, long j)
{
    if (j == x->n - 1) { mpfr_set(v, b, MPFR_RNDN); return; }
    mpfr_sub(v, b, a, MPFR_RNDN);
    mpfr_mul_si(v, v, j, MPFR_RNDN);
    mpfr_div_si(v, v, x->n - 1, MPFR_RNDN);
    mpfr_add(v, v, a, MPFR_RNDN);
}

int sweep_take_flag(int *argc, char **argv, const char *flag)
{
    int n = 0, k = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], flag)) n++;
        else argv[k++] = argv[i];
    }
    *argc = k;
    return n;
}

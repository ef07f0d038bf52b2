/* Shared by the subcommands on a registered system or figure: scanning the
   command line, opening a system, reading and printing states. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"

void cl_cmd_args_free(cl_cmd_args *a)
{
    free(a->keys);
    free(a->vals);
    a->keys = a->vals = NULL;
}

int cl_cmd_scan(int argc, char **argv, const cl_cmd_option *opts, int (*on_opt)(int code, const char *arg, void *ctx),
                void *ctx, int maxpos, cl_cmd_args *a)
{
    memset(a, 0, sizeof *a);
    a->command = argv[0];
    a->opts = opts;
    a->bits = 53;
    a->keys = malloc((size_t)argc * sizeof *a->keys);
    a->vals = malloc((size_t)argc * sizeof *a->vals);
    if (!a->keys || !a->vals) { cl_cmd_args_free(a); return cl_cli_error("out of memory", NULL); }
    int st = CL_EXIT_OK;
    /* Options given so far, to refuse one given twice: bit k is the command's
       option k, then --system, --form, --bits, --model (--param repeats). */
    enum { SEEN_SYSTEM = 59, SEEN_FORM, SEEN_BITS, SEEN_MODEL };
    unsigned long long seen = 0;
    for (int i = 1; i < argc && !st; i++) {
        char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { a->help = 1; continue; }
        if (!strcmp(arg, "--interpreted")) { a->interpreted = 1; continue; }
        if (arg[0] == '-' && arg[1] != '-') { st = cl_cmd_unknown_option(a, NULL, arg); break; }
        if (strncmp(arg, "--", 2) || !arg[2]) {
            if (a->npositional < maxpos && arg[0] != '-') a->positional[a->npositional++] = arg;
            else st = cl_cli_error("unexpected argument", arg);
            continue;
        }
        /* --key=value is split in place: the key ends where the value begins */
        char *key = arg + 2, *val = strchr(key, '=');
        if (val) *val++ = 0;
        const cl_cmd_option *o = NULL;
        for (int k = 0; opts && opts[k].name && !o; k++)
            if (!strcmp(opts[k].name, key)) o = opts + k;
        int own = o || !strcmp(key, "system") || !strcmp(key, "form") || !strcmp(key, "bits") || !strcmp(key, "model") ||
                  !strcmp(key, "param");
        if (!val && i + 1 < argc && (own || strncmp(argv[i + 1], "--", 2))) val = argv[++i];
        if (own && !val) { st = cl_cli_error("option needs a value", arg); break; }
        int bit = o                        ? (int)(o - opts) % SEEN_SYSTEM
                  : !strcmp(key, "system") ? SEEN_SYSTEM
                  : !strcmp(key, "form")   ? SEEN_FORM
                  : !strcmp(key, "bits")   ? SEEN_BITS
                  : !strcmp(key, "model")  ? SEEN_MODEL
                                           : -1;
        if (own && bit >= 0 && (seen >> bit & 1)) { st = cl_cli_error("option given twice", arg); break; }
        if (own && bit >= 0) seen |= 1ULL << bit;
        if (o && o->code == CL_CMD_TEXT) *(const char **)((char *)ctx + o->text_at) = val;
        else if (o) st = on_opt(o->code, val, ctx);
        else if (!strcmp(key, "system")) a->system = val;
        else if (!strcmp(key, "form")) a->form = val;
        else if (!strcmp(key, "model")) a->model = val;
        else if (!strcmp(key, "param")) { /* --param name=value: split in place like --key=value */
            char *eq = strchr(val, '=');
            if (!eq || eq == val) { st = cl_cli_error("--param needs name=value", val); break; }
            *eq = 0;
            a->keys[a->nparams] = val;
            a->vals[a->nparams++] = eq + 1;
        }
        else if (!strcmp(key, "bits")) {
            st = cl_cli_parse_bits(val, &a->bits) ? CL_EXIT_USAGE : CL_EXIT_OK;
            a->bits_given = 1;
        }
        else {
            a->keys[a->nparams] = key;
            a->vals[a->nparams++] = val;
        }
    }
    if (st) cl_cmd_args_free(a);
    return st;
}

int cl_cmd_report(const cl_sys_error *e, const char *fallback_arg, int status)
{
    cl_cli_error(e->what, e->arg[0] ? e->arg : fallback_arg);
    return status;
}

/* The shared options of cl_cmd_scan(). */
static const char *const shared_options[] = {"system", "model", "form", "bits", "param", "help", "interpreted"};

int cl_cmd_unknown_option(const cl_cmd_args *a, const cl_param *table, const char *given)
{
    const char *names[160];
    size_t n = 0;
    for (size_t i = 0; i < sizeof shared_options / sizeof shared_options[0]; i++) names[n++] = shared_options[i];
    for (size_t i = 0; a->opts && a->opts[i].name && n < 80; i++) names[n++] = a->opts[i].name;
    for (size_t i = 0; table && table[i].name && n < 160; i++) names[n++] = table[i].name;
    char where[400];
    snprintf(where, sizeof where, "chartless %s%s%s --help lists them", a->command ? a->command : "",
             a->system ? " --system " : a->model ? " --model " : a->npositional ? " " : "",
             a->system ? a->system : a->model ? a->model : a->npositional ? a->positional[0] : "");
    return cl_cli_unknown("option", given, names, n, "--", where);
}

int cl_cmd_parse_params(const cl_cmd_args *a, const cl_param *table, cl_params *p)
{
    for (int i = 0; i < a->nparams; i++)
        if (!cl_param_find(table, a->keys[i])) {
            char given[200];
            snprintf(given, sizeof given, "--%s", a->keys[i]);
            return cl_cmd_unknown_option(a, table, given);
        }
    cl_sys_error e = {"", ""};
    if (cl_params_parse(p, table, a->nparams, a->keys, a->vals, (cl_prec_t)a->bits, &e))
        return cl_cmd_report(&e, NULL, CL_EXIT_USAGE);
    return CL_EXIT_OK;
}

int cl_cmd_run(const cl_cmd_args *a, const cl_param *table, int (*run)(const cl_params *p, cl_prec_t prec, cl_sys_error *e))
{
    cl_params p;
    int st = cl_cmd_parse_params(a, table, &p);
    if (st) return st;
    cl_sys_error e = {"", ""};
    st = run(&p, (cl_prec_t)a->bits, &e);
    if (st) cl_cmd_report(&e, NULL, st);
    cl_params_free(&p);
    return st;
}

void cl_cmd_system_help(const cl_system *s)
{
    printf("\nsystem %s: %s\nparameters:\n%s", s->name, s->summary, s->params_note ? s->params_note : "");
    cl_params_help(stdout, s->params);
    printf("forms:");
    for (int i = 0; s->forms[i]; i++) printf(" %s", s->forms[i]);
    printf("\nstate:\n%s", s->state_help);
}

void cl_cmd_help_system(const cl_cmd_args *a)
{
    const cl_system *s = a->system ? cl_system_find(a->system) : NULL;
    cl_sys_error e = {"", ""};
    if (s) cl_cmd_system_help(s);
    else if (a->model && !a->system && !cl_model_system_new(&s, a->model, &e)) {
        cl_cmd_system_help(s);
        cl_model_system_free(s);
    } else if (a->model && !a->system) {
        printf("\n(the model cannot be read: %s)\n", e.what);
    } else cl_cmd_list_systems(stdout);
}

void cl_cmd_list_systems(FILE *f)
{
    fprintf(f, "\nsystems:\n");
    for (size_t i = 0; i < cl_system_count(); i++)
        fprintf(f, "  %-12s %s\n", cl_system_get(i)->name, cl_system_get(i)->summary);
}

void cl_cmd_systems_with(char *buf, size_t len, int (*has)(const cl_system *s))
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cl_system_count() && k < len; i++)
        if (has(cl_system_get(i))) k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", cl_system_get(i)->name);
}

int cl_cmd_unknown_system(const char *given)
{
    const char *names[128];
    size_t n = 0;
    for (size_t i = 0; i < cl_system_count() && n < 128; i++) names[n++] = cl_system_get(i)->name;
    return cl_cli_unknown("system", given, names, n, "", "chartless systems lists them");
}

int cl_cmd_unknown_form(const cl_system *s, const char *given)
{
    char where[300];
    size_t k = (size_t)snprintf(where, sizeof where, "the forms of %s:", s->name), n = 0;
    for (; s->forms[n]; n++)
        if (k < sizeof where) k += (size_t)snprintf(where + k, sizeof where - k, "%s %s", n ? "," : "", s->forms[n]);
    return cl_cli_unknown("form", given, s->forms, n, "", where);
}

int cl_cmd_open_system(const cl_cmd_args *a, cl_cmd_system *cs)
{
    memset(cs, 0, sizeof *cs);
    if (a->model) {
        if (a->system) return cl_cli_error("give --system or --model, not both", a->model);
        cl_sys_error e = {"", ""};
        if (a->interpreted) cl_model_field_mode(CL_MODEL_FIELD_INTERPRETED);
        if (cl_model_system_new(&cs->sys, a->model, &e)) return cl_cmd_report(&e, a->model, CL_EXIT_USAGE);
        cs->from_model = 1;
    } else if (!a->system) return cl_cli_error("--system or --model is required (see --help)", NULL);
    else cs->sys = cl_system_find(a->system);
    if (!cs->sys) return cl_cmd_unknown_system(a->system);
    cs->form = a->form ? cl_system_form_index(cs->sys, a->form) : 0;
    int st = cs->form < 0 ? cl_cmd_unknown_form(cs->sys, a->form) : cl_cmd_parse_params(a, cs->sys->params, &cs->params);
    if (st) {
        cl_cmd_close_system(cs);
        return st;
    }
    cl_sys_error e = {"", ""};
    st = cs->sys->create(&cs->inst, &cs->params, (cl_prec_t)a->bits, &e);
    if (st) {
        cs->inst = NULL;
        if (!e.what[0]) snprintf(e.what, sizeof e.what, "%s", cl_strerror(st));
        cl_cmd_report(&e, cs->sys->name, CL_EXIT_USAGE);
        cl_cmd_close_system(cs);
        return CL_EXIT_USAGE;
    }
    cs->dim = cs->sys->dim(cs->inst, cs->form);
    return CL_EXIT_OK;
}

void cl_cmd_close_system(cl_cmd_system *cs)
{
    if (cs->inst) cs->sys->destroy(cs->inst);
    cs->inst = NULL;
    cl_params_free(&cs->params);
    if (cs->from_model) cl_model_system_free(cs->sys);
    cs->sys = NULL;
    cs->from_model = 0;
}

/* States led by n unit vectors: normalize q_i and project v_i at the working precision. */
static void clean_unit_vectors(const cl_cmd_system *cs, mpfr_ptr x)
{
    if (!cs->sys->unit_vectors) return;
    size_t n = (size_t)cs->sys->unit_vectors(cs->inst);
    if (cs->dim != 6 * n) return;
    mpfr_t s;
    mpfr_init2(s, mpfr_get_prec(x));
    for (size_t i = 0; i < n; i++) {
        mpfr_ptr q = x + 3 * i;
        cl_v3_norm_mp(s, q);
        for (int k = 0; k < 3; k++) mpfr_div(q + k, q + k, s, MPFR_RNDN);
        cl_v3_proj_tangent_mp(x + 3 * (n + i), q, x + 3 * (n + i));
    }
    mpfr_clear(s);
}

int cl_cmd_read_state(const cl_cmd_system *cs, FILE *f, mpfr_ptr x)
{
    size_t got = 0;
    int st = cl_cli_read_state(f, x, cs->dim, &got);
    char msg[160];
    if (st == CL_EDIM) {
        snprintf(msg, sizeof msg, "wrong number of values in the state: expected %zu, got %s%zu", cs->dim,
                 got > cs->dim ? "more than " : "", got > cs->dim ? cs->dim : got);
        return cl_cli_error(msg, cs->sys->forms[cs->form]);
    }
    if (st == CL_EPARSE) {
        snprintf(msg, sizeof msg, "bad number in the state (value %zu)", got + 1);
        return cl_cli_error(msg, NULL);
    }
    if (st) return cl_cli_error(cl_strerror(st), "state");
    char err[256] = "";
    st = cs->sys->check_state(cs->inst, cs->form, x, err, sizeof err);
    if (st) return cl_cli_error(err[0] ? err : cl_strerror(st), "state");
    clean_unit_vectors(cs, x);
    return CL_EXIT_OK;
}

void cl_cmd_print_vector(FILE *f, const cl_cmd_system *cs, mpfr_srcptr v, size_t n)
{
    int per_line = cs->sys->unit_vectors ? 3 : (int)n;
    for (size_t i = 0; i < n; i++) {
        cl_cli_print_real(f, v + i);
        fputc((i + 1) % (size_t)per_line == 0 || i + 1 == n ? '\n' : ' ', f);
    }
}

int cl_cmd_equilibrium_selected(const char *which, int k, const char *name)
{
    if (!which || !strcmp(which, "all")) return 1;
    long v;
    if (!cl_parse_whole(which, 0, 1000, &v)) return v == k;
    size_t n = strlen(which);
    return !strncmp(name, which, n) && (name[n] == 0 || name[n] == ' ');
}

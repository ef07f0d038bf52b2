/**
 * \file cmd_rhs.c
 * \brief `chartless rhs`: one evaluation of a registered system's vector
 *        field at a state read from stdin, at any precision.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "system.h"
#include "cmd_system.h"

static const char *help_text =
    "usage: chartless rhs --system NAME [--form FORM] [--bits B] [SYSTEM PARAMETERS] < STATE\n"
    "\n"
    "Read a state of the chosen form from stdin (numbers separated by white space or commas,\n"
    "read at the working precision, never through a double), check it, and print the vector\n"
    "field dx/dt with the digits the precision carries.\n"
    "\n"
    "options:\n"
    "  --system NAME   the system (chartless rhs --system NAME --help lists its parameters)\n"
    "  --form FORM     the form of the state (default: the system's first form)\n"
    "  --bits B        working precision in bits, 2 to 65536 (default 53)\n"
    "  -h, --help      this text (with --system: also the system's parameters and state)\n"
    "\n"
    "exit status: 0 success, 2 bad input (unknown system or form, bad number, wrong number of\n"
    "values, non-unit q, velocity not tangent, bad parameter)\n";

int cl_cmd_parse_system_args(int argc, char **argv, const struct option *extra, cl_cmd_args *a,
                             int (*on_extra)(int code, const char *arg, void *ctx), void *ctx)
{
    static const struct option base[] = {
        {"system", required_argument, NULL, 's'},
        {"form", required_argument, NULL, 'f'},
        {"bits", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'H'},
    };
    struct option opts[32];
    size_t k = 0;
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) opts[k++] = base[i];
    for (size_t i = 0; extra && extra[i].name && k < 31; i++) opts[k++] = extra[i];
    opts[k] = (struct option){0, 0, 0, 0};
    memset(a, 0, sizeof *a);
    a->bits = 53;
    opterr = 0;
    optind = 1;
    for (;;) {
        int prev = optind;
        int c = getopt_long(argc, argv, "+h", opts, NULL);
        if (c == -1) break;
        switch (c) {
        case 's': a->system = optarg; break;
        case 'f': a->form = optarg; break;
        case 'b':
            if (cl_cli_parse_bits(optarg, &a->bits)) return CL_EXIT_USAGE;
            break;
        case 'h':
        case 'H': a->help = 1; break;
        case '?': {
            /* --key value or --key=value: a parameter of the system */
            const char *arg = argv[prev];
            if (strncmp(arg, "--", 2) || !arg[2]) return cl_cli_error("unknown option", arg);
            if (a->nparams >= CL_CMD_MAX_PARAMS) return cl_cli_error("too many parameters", arg);
            char *eq = strchr(arg, '=');
            if (eq) {
                size_t len = (size_t)(eq - arg - 2);
                if (len >= sizeof a->keybuf[0]) return cl_cli_error("parameter name too long", arg);
                memcpy(a->keybuf[a->nparams], arg + 2, len);
                a->keybuf[a->nparams][len] = 0;
                a->vals[a->nparams] = eq + 1;
            } else {
                if (strlen(arg + 2) >= sizeof a->keybuf[0]) return cl_cli_error("parameter name too long", arg);
                strcpy(a->keybuf[a->nparams], arg + 2);
                if (prev + 1 >= argc) return cl_cli_error("parameter needs a value", arg);
                a->vals[a->nparams] = argv[prev + 1];
                optind = prev + 2;
            }
            a->keys[a->nparams] = a->keybuf[a->nparams];
            for (int k = 0; k < a->nparams; k++) /* a repeated parameter is ambiguous */
                if (!strcmp(a->keys[k], a->keys[a->nparams])) return cl_cli_error("parameter given twice", arg);
            a->nparams++;
            break;
        }
        case ':': return cl_cli_error("option needs a value", argv[prev]);
        default:
            if (on_extra) {
                int st = on_extra(c, optarg, ctx);
                if (st) return st;
            }
        }
    }
    if (optind < argc) return cl_cli_error("unexpected argument", argv[optind]);
    return CL_EXIT_OK;
}

void cl_cmd_system_help(const cl_system *s)
{
    printf("\nsystem %s: %s\nparameters:\n%sforms:", s->name, s->summary, s->params_help);
    for (int i = 0; s->forms[i]; i++) printf(" %s", s->forms[i]);
    printf("\nstate:\n%s", s->state_help);
}

void cl_cmd_list_systems(FILE *f)
{
    fprintf(f, "\nsystems:\n");
    for (size_t i = 0; i < cl_system_count(); i++)
        fprintf(f, "  %-12s %s\n", cl_system_get(i)->name, cl_system_get(i)->summary);
}

int cl_cmd_open_system(const cl_cmd_args *a, cl_cmd_system *cs)
{
    memset(cs, 0, sizeof *cs);
    if (!a->system) return cl_cli_error("--system is required (see --help)", NULL);
    cs->sys = cl_system_find(a->system);
    if (!cs->sys) {
        cl_cli_error("unknown system", a->system);
        cl_cmd_list_systems(stderr);
        return CL_EXIT_USAGE;
    }
    cs->form = a->form ? cl_system_form_index(cs->sys, a->form) : 0;
    if (cs->form < 0) return cl_cli_error("unknown form for this system", a->form);
    char err[256] = "";
    int st = cs->sys->create(&cs->inst, a->nparams, (char *const *)a->keys, (char *const *)a->vals,
                             (cl_prec_t)a->bits, err, sizeof err);
    if (st) {
        cs->inst = NULL;
        return cl_cli_error(err[0] ? err : cl_strerror(st), a->system);
    }
    cs->dim = cs->sys->dim(cs->inst, cs->form);
    return CL_EXIT_OK;
}

void cl_cmd_close_system(cl_cmd_system *cs)
{
    if (cs->inst) cs->sys->destroy(cs->inst);
    cs->inst = NULL;
}

/* For a system on (S²)ⁿ: normalize q_i and project v_i at the working precision. */
static void clean_sphere_state(const cl_cmd_system *cs, mpfr_ptr x)
{
    if (!cs->sys->sphere_count) return;
    size_t n = (size_t)cs->sys->sphere_count(cs->inst);
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
    clean_sphere_state(cs, x);
    return CL_EXIT_OK;
}

void cl_cmd_print_vector(FILE *f, const cl_cmd_system *cs, mpfr_srcptr v, size_t n)
{
    int per_line = cs->sys->sphere_count ? 3 : (int)n;
    for (size_t i = 0; i < n; i++) {
        cl_cli_print_real(f, v + i);
        fputc((i + 1) % (size_t)per_line == 0 || i + 1 == n ? '\n' : ' ', f);
    }
}

static int cmd_rhs(int argc, char **argv)
{
    cl_cmd_args a;
    int st = cl_cmd_parse_system_args(argc, argv, NULL, &a, NULL, NULL);
    if (st) return st;
    if (a.help) {
        fputs(help_text, stdout);
        const cl_system *s = a.system ? cl_system_find(a.system) : NULL;
        if (s) cl_cmd_system_help(s);
        else cl_cmd_list_systems(stdout);
        return CL_EXIT_OK;
    }
    cl_cmd_system cs;
    st = cl_cmd_open_system(&a, &cs);
    if (st) return st;
    mpfr_ptr x = malloc(2 * cs.dim * sizeof *x);
    if (!x) { cl_cmd_close_system(&cs); return cl_cli_error("out of memory", NULL); }
    for (size_t i = 0; i < 2 * cs.dim; i++) mpfr_init2(x + i, (mpfr_prec_t)a.bits);
    st = cl_cmd_read_state(&cs, stdin, x);
    if (!st) {
        int e = cs.sys->rhs(cs.inst, cs.form, x + cs.dim, x);
        if (e) st = cl_cli_error(cl_strerror(e), "vector field");
        else cl_cmd_print_vector(stdout, &cs, x + cs.dim, cs.dim);
    }
    for (size_t i = 0; i < 2 * cs.dim; i++) mpfr_clear(x + i);
    free(x);
    cl_cmd_close_system(&cs);
    return st;
}

static const cl_command rhs_command = {"rhs", "evaluate a system's vector field at a state read from stdin", cmd_rhs};
CL_COMMAND_REGISTER(rhs_command)

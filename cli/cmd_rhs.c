/**
 * \file cmd_rhs.c
 * \brief `chartless rhs`: one evaluation of a registered system's vector
 *        field at a state read from stdin, at any precision.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "system.h"
#include "cmd_system.h"
#include "json.h"
#include "certify.h"

static const char *help_text =
    "usage: chartless rhs (--system NAME | --model FILE) [--form FORM] [--bits B] [--labels]\n"
    "                     [--param name=value | --name value ...] < STATE\n"
    "\n"
    "Read a state of the chosen form from stdin (numbers separated by white space or commas,\n"
    "read at the working precision, never through a double), check it, and print the vector\n"
    "field dx/dt with the digits the precision carries (a zero as 0, never -0).\n"
    "\n"
    "options:\n"
    CL_CMD_HELP_SYSTEM_OPTIONS("rhs")
    "  --time T         the time t of a time-dependent model (default 0)\n"
    "  --labels         one component to a line: its name, then its derivative\n"
    "  --multipliers    instead of the field, the multipliers of a constrained model's constraints,\n"
    "                   one to a line: the constraint's name, then its multiplier lambda\n"
    "  --certify        a model's field on Arb balls at --bits (docs/certified.md): each number of the\n"
    "                   state, and each parameter, a decimal (enclosed, never rounded) or a ball\n"
    "                   [m +/- r]; each component printed as a ball that encloses the exact field\n"
    "                   there; a sqrt, log or division whose argument's ball touches its domain's\n"
    "                   edge is an error naming the subexpression (form qdot, or p, only)\n"
    "  --format FMT     text (default) or json (docs/rhs.schema.json)\n"
    "  -h, --help       this text (with --system or --model: also the parameters and state)\n"
    "\n"
    "exit status: 0 success, 2 bad input (unknown system or form, bad number, wrong number of\n"
    "values, non-unit q, velocity not tangent, bad parameter)\n";

/* Take the flag --NAME (--labels, --multipliers) out of the parameters the system will parse; 1 when it was there. */
static int take_flag(cl_cmd_args *a, const char *name)
{
    int found = 0, k = 0;
    for (int i = 0; i < a->nparams; i++) {
        if (!strcmp(a->keys[i], name) && !a->vals[i]) {
            found = 1;
            continue;
        }
        a->keys[k] = a->keys[i];
        a->vals[k++] = a->vals[i];
    }
    a->nparams = k;
    return found;
}

static void print_labeled(FILE *f, const cl_cmd_system *cs, mpfr_srcptr v)
{
    for (size_t i = 0; i < cs->dim; i++) {
        char name[32];
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, name, sizeof name);
        fprintf(f, "%-10s ", name);
        cl_cli_print_real(f, v + i);
        fputc('\n', f);
    }
}

static void print_multipliers(FILE *f, const cl_cmd_system *cs, mpfr_ptr lam)
{
    for (size_t i = 0; cs->sys->multiplier_names[i]; i++) {
        if (mpfr_zero_p(lam + i)) mpfr_set_zero(lam + i, 1);
        fprintf(f, "%-10s ", cs->sys->multiplier_names[i]);
        cl_cli_print_real(f, lam + i);
        fputc('\n', f);
    }
}

/* The field on balls at the ball state read from stdin, printed as balls (text or JSON). */
static int certified_rhs(cl_cmd_system *cs, const cl_cmd_args *a, cl_cli_certify *c, int json, int labels)
{
    if (cs->form != 0) return cl_cli_error("--certify evaluates the model's first form only", cs->sys->forms[cs->form]);
    int st = cl_cli_certify_open(c, a, cs->sys);
    if (st) return st;
    arb_ptr x = cl_rvec_new_arb(2 * cs->dim, 0);
    if (!x) return cl_cli_error("out of memory", NULL);
    cl_sys_error e = {"", ""};
    if (!(st = cl_cli_read_ball_state(cs, stdin, x)) && cl_model_ball_field(c->ball, x + cs->dim, x, &e))
        st = cl_cli_error(e.what, e.arg[0] ? e.arg : NULL);
    for (size_t i = 0; !st && i < cs->dim; i++) {
        char name[32];
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, name, sizeof name);
        if (json) {
            if (!i) {
                fputs("{\"schema\": \"chartless-rhs/1\", ", stdout);
                cl_json_system_head(stdout, cs, a->bits);
                fputs(",\n \"components\": ", stdout);
                cl_json_component_names(stdout, cs);
                fputs(",\n \"certified\": [", stdout);
            }
            cl_cli_json_ball(stdout, x + cs->dim + i);
            fputs(i + 1 < cs->dim ? ", " : "]}\n", stdout);
            continue;
        }
        if (labels) printf("%-10s ", name);
        cl_cli_print_ball(stdout, x + cs->dim + i);
        putchar('\n');
    }
    cl_rvec_free_arb(x);
    return st;
}

static int cmd_rhs(int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    cl_cmd_args a;
    st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a);
    if (st) return st;
    int labels = take_flag(&a, "labels"), multipliers = take_flag(&a, "multipliers"), certify = cl_cli_take_certify(&a);
    if (a.help) {
        fputs(help_text, stdout);
        cl_cmd_help_system(&a);
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    cl_cli_certify c = {0};
    cl_cmd_system cs;
    if (certify > 1) st = cl_cli_error("option given twice", "--certify");
    else if (certify && multipliers) st = cl_cli_error("--certify gives the field, not the multipliers", "--multipliers");
    else if (!(st = certify ? cl_cli_certify_prepare(&c, &a) : CL_EXIT_OK) && !(st = cl_cmd_open_system(&a, &cs)) && certify) {
        st = certified_rhs(&cs, &a, &c, json, labels);
        cl_cmd_close_system(&cs);
        cl_cli_certify_free(&c);
        cl_cmd_args_free(&a);
        return st;
    }
    cl_cli_certify_free(&c);
    cl_cmd_args_free(&a);
    if (st) return st;
    if (multipliers && !cs.sys->multipliers) {
        st = cl_cli_error("--multipliers needs a model with constraint statements", cs.sys->name);
        cl_cmd_close_system(&cs);
        return st;
    }
    mpfr_ptr x = malloc(2 * cs.dim * sizeof *x);
    if (!x) { cl_cmd_close_system(&cs); return cl_cli_error("out of memory", NULL); }
    for (size_t i = 0; i < 2 * cs.dim; i++) mpfr_init2(x + i, (mpfr_prec_t)a.bits);
    st = cl_cmd_read_state(&cs, stdin, x);
    if (!st) {
        int e = multipliers ? cs.sys->multipliers(cs.inst, cs.form, x + cs.dim, x) : cs.sys->rhs(cs.inst, cs.form, x + cs.dim, x);
        if (e) st = cl_cli_error(cl_strerror(e), "vector field");
        else if (multipliers) print_multipliers(stdout, &cs, x + cs.dim);
        else {
            for (size_t i = cs.dim; i < 2 * cs.dim; i++) /* a zero printed as 0: -0 says nothing here */
                if (mpfr_zero_p(x + i)) mpfr_set_zero(x + i, 1);
            if (json) cl_json_rhs(stdout, &cs, a.bits, x + cs.dim);
            else if (labels) print_labeled(stdout, &cs, x + cs.dim);
            else cl_cmd_print_vector(stdout, &cs, x + cs.dim, cs.dim);
        }
    }
    for (size_t i = 0; i < 2 * cs.dim; i++) mpfr_clear(x + i);
    free(x);
    cl_cmd_close_system(&cs);
    return st;
}

static const cl_command rhs_command = {"rhs", "evaluate a system's vector field at a state read from stdin", cmd_rhs};
CL_COMMAND_REGISTER(rhs_command)

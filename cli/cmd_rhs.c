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

static const char *help_text =
    "usage: chartless rhs (--system NAME | --model FILE) [--form FORM] [--bits B] [--labels]\n"
    "                     [--param name=value | --name value ...] < STATE\n"
    "\n"
    "Read a state of the chosen form from stdin (numbers separated by white space or commas,\n"
    "read at the working precision, never through a double), check it, and print the vector\n"
    "field dx/dt with the digits the precision carries (a zero as 0, never -0).\n"
    "\n"
    "options:\n"
    "  --system NAME   a named system (chartless systems lists them)\n"
    "  --model FILE    a system written as a model file: manifold, parameters, Lagrangian\n"
    "                  (docs/models.md; chartless systems --model FILE describes it)\n"
    "  --param name=value, --name value\n"
    "                  a parameter of the system or model instead of its default\n"
    "                  (chartless rhs --system NAME --help or --model FILE --help lists them)\n"
    "  --time T        the time t of a time-dependent model (default 0)\n"
    "  --form FORM     the form of the state (default: the system's first form)\n"
    "  --bits B        working precision in bits, 2 to 65536 (default 53)\n"
    "  --interpreted   a model's field interpreted, never compiled (docs/eom.md, compiled fields)\n"
    "  --labels        one component to a line: its name, then its derivative\n"
    "  --multipliers   instead of the field, the multipliers of a constrained model's constraints,\n"
    "                  one to a line: the constraint's name, then its multiplier lambda\n"
    "  --format FMT    text (default) or json (docs/rhs.schema.json)\n"
    "  -h, --help      this text (with --system or --model: also the parameters and state)\n"
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

static int cmd_rhs(int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    cl_cmd_args a;
    st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a);
    if (st) return st;
    int labels = take_flag(&a, "labels"), multipliers = take_flag(&a, "multipliers");
    if (a.help) {
        fputs(help_text, stdout);
        cl_cmd_help_system(&a);
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    cl_cmd_system cs;
    st = cl_cmd_open_system(&a, &cs);
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

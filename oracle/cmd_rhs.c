/**
 * \file cmd_rhs.c
 * \brief `chartless rhs` (a vector field at one state) and `chartless systems`.
 *
 * Generic over the system registry (system.h): the state is read from stdin
 * as decimal numbers at the working precision, checked by the system, and
 * the derivative printed with the digits that precision carries.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "system.h"
#include "sysopt.h"

static const char *help_text =
    "usage: chartless rhs --system NAME [--form FORM] [--bits B] [--format text|csv|json]\n"
    "                     [SYSTEM PARAMETERS] < STATE\n"
    "\n"
    "Evaluate the vector field of a named system at one state, read from standard input\n"
    "as decimal numbers (white space or commas between them) at the working precision,\n"
    "never through a double. The derivative is printed in the same layout with the\n"
    "digits the precision carries. For a system on (S^2)^n the state is q_1 ... q_n\n"
    "followed by the n velocity-like vectors of the form (qdot, omega, mu or pi).\n"
    "\n"
    "options:\n"
    "  --system NAME     the system (chartless systems lists them)\n"
    "  --form FORM       which form of the dynamics (default: the system's first)\n"
    "  --bits B          working precision in bits, 2 to 65536 (default 53)\n"
    "  --format FMT      text (default: three numbers a line), csv (one line) or json\n"
    "  -h, --help        this text; with --system NAME, also the system's parameters\n"
    "\n"
    "exit status: 0 success, 2 bad input (the message names the argument)\n";

static void print_state(FILE *f, mpfr_srcptr x, size_t n, const char *format)
{
    if (!strcmp(format, "json")) {
        fputs("[", f);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", \"" : "\"", f);
            cl_cli_print_real(f, x + i);
            fputs("\"", f);
        }
        fputs("]", f);
        return;
    }
    int csv = !strcmp(format, "csv");
    for (size_t i = 0; i < n; i++) {
        cl_cli_print_real(f, x + i);
        if (i + 1 == n) fputc('\n', f);
        else if (csv) fputc(',', f);
        else fputc((n % 3 == 0 && i % 3 == 2) ? '\n' : ' ', f);
    }
}

static int cmd_rhs(int argc, char **argv)
{
    cl_sysopt so;
    int help = 0;
    const char *format = "text";
    int st = cl_sysopt_parse(&so, argc, argv, &help, "format", &format, (const char *)NULL);
    if (st) return st;
    if (help) {
        fputs(help_text, stdout);
        if (so.sys) cl_sysopt_print_system_help(stdout, so.sys);
        cl_sysopt_free(&so);
        return CL_EXIT_OK;
    }
    if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "json")) {
        cl_sysopt_free(&so);
        return cl_cli_error("--format must be text, csv or json", format);
    }
    if ((st = cl_sysopt_create(&so))) return st;
    size_t n = so.sys->dim(so.inst, so.form);
    mpfr_ptr x = malloc(n * sizeof *x), dx = malloc(n * sizeof *dx);
    for (size_t i = 0; i < n; i++) { mpfr_init2(x + i, so.bits); mpfr_init2(dx + i, so.bits); }
    int ret = cl_sysopt_read_state(&so, stdin, x);
    if (ret == 0) {
        int s = so.sys->rhs(so.inst, so.form, dx, x);
        if (s) ret = cl_cli_error(cl_strerror(s), "evaluating the vector field");
    }
    if (ret == 0) {
        if (!strcmp(format, "json")) {
            printf("{\"system\": \"%s\", \"form\": \"%s\", \"bits\": %ld, \"dx\": ", so.sys->name,
                   so.sys->forms[so.form], (long)so.bits);
            print_state(stdout, dx, n, format);
            printf("}\n");
        } else {
            print_state(stdout, dx, n, format);
        }
    }
    for (size_t i = 0; i < n; i++) { mpfr_clear(x + i); mpfr_clear(dx + i); }
    free(x); free(dx);
    cl_sysopt_free(&so);
    mpfr_free_cache();
    return ret;
}

static int cmd_systems(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: chartless systems [NAME]\n\nList the named systems, or describe one: its parameters, forms and state layout.");
        return CL_EXIT_OK;
    }
    if (argc > 1) {
        const cl_system *s = cl_system_find(argv[1]);
        if (!s) return cl_cli_error("unknown system; chartless systems lists them", argv[1]);
        cl_sysopt_print_system_help(stdout, s);
        return CL_EXIT_OK;
    }
    for (size_t i = 0; i < cl_system_count(); i++) {
        const cl_system *s = cl_system_get(i);
        printf("%-14s %s\n", s->name, s->summary);
    }
    return CL_EXIT_OK;
}

static const cl_command rhs_command = {"rhs", "evaluate a system's vector field at a state read from stdin", cmd_rhs};
static const cl_command systems_command = {"systems", "list the named systems, or describe one", cmd_systems};
CL_COMMAND_REGISTER(rhs_command)
CL_COMMAND_REGISTER(systems_command)

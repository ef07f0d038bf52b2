/* The chartless command: dispatch to the registered subcommands. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

const cl_command *cl_command_find(const char *name);
size_t cl_command_count(void);
const cl_command *cl_command_get(size_t i);

static void usage(FILE *f)
{
    fprintf(f, "usage: chartless COMMAND [OPTIONS]   (chartless COMMAND --help for each)\n\n"
               "Coordinate-free Lagrangian and Hamiltonian mechanics in double and MPFR precision.\n\n"
               "commands:\n");
    for (size_t i = 0; i < cl_command_count(); i++) {
        const cl_command *c = cl_command_get(i);
        fprintf(f, "  %-12s %s\n", c->name, c->summary);
    }
    fprintf(f, "\nexit status: 0 success, 1 a check failed, 2 bad input\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CL_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CL_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("chartless 0.1.0");
        return CL_EXIT_OK;
    }
    const cl_command *c = cl_command_find(argv[1]);
    if (!c) {
        const char *names[32];
        size_t n = 0;
        for (; n < cl_command_count() && n < 32; n++) names[n] = cl_command_get(n)->name;
        return cl_cli_unknown(argv[1][0] == '-' ? "option" : "command", argv[1], names, n, "", "chartless --help lists them");
    }
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    cl_cli_init_output();
    int st = run(argc, argv);
    cl_free_caches();
    /* a result that did not reach stdout is not a success */
    int out = cl_cli_close_stdout();
    return out ? out : st;
}

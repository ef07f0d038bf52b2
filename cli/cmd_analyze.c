/*
 * `chartless equilibria --system NAME` and `chartless stability --system
 * NAME`: the analyses a system's descriptor offers (cl_system_tool), with
 * the options its table documents.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cmd_system.h"

typedef struct analysis {
    const char *command, *what;
    const char *exit_status; /* the help's last section */
    const cl_system_tool *(*tool)(const cl_system *s);
    int (*offered)(const cl_system *s);
} analysis;

static const cl_system_tool *equilibria_tool(const cl_system *s) { return s->equilibria; }
static const cl_system_tool *stability_tool(const cl_system *s) { return s->stability; }
static int offers_equilibria(const cl_system *s) { return s->equilibria != NULL; }
static int offers_stability(const cl_system *s) { return s->stability != NULL; }

static const analysis equilibria = {"equilibria", "the linearization (Jacobian eigenvalues) at the system's equilibria",
                                    "exit status: 0 done, 1 the computation failed, 2 bad input\n", equilibria_tool,
                                    offers_equilibria};
static const analysis stability = {"stability", "a nonlinear stability test (Energy-Casimir) at an equilibrium",
                                   "exit status: 0 done (whatever the verdict: it is printed), 1 the computation failed,\n"
                                   "2 bad input\n",
                                   stability_tool, offers_stability};

static int run_analysis(const analysis *an, int argc, char **argv)
{
    cl_cmd_args a;
    int st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a);
    if (st) return st;
    char with[256];
    cl_cmd_systems_with(with, sizeof with, an->offered);
    const cl_system *s = a.system ? cl_system_find(a.system) : NULL;
    const cl_system_tool *t = s ? an->tool(s) : NULL;
    if (a.help) {
        if (t) {
            fputs(t->usage, stdout);
            printf("\noptions:\n");
            cl_params_help(stdout, t->params);
            printf("  --bits B          working precision in bits, 2 to 65536 (default 53)\n"
                   "  -h, --help        this text\n");
        } else
            printf("usage: chartless %s --system NAME [--bits B] [OPTIONS]\n\n%s.\nsystems that offer it: %s\n"
                   "(chartless %s --system NAME --help for its options)\n", an->command, an->what, with, an->command);
        printf("\n%s", an->exit_status);
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    char msg[400];
    if (!a.system) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer %s: %s)", an->command, with);
        st = cl_cli_error(msg, NULL);
    } else if (!s) {
        st = cl_cli_error("unknown system; chartless systems lists them", a.system);
    } else if (!t) {
        snprintf(msg, sizeof msg, "%s is offered by %s only", an->command, with);
        st = cl_cli_error(msg, a.system);
    } else if (a.form) {
        st = cl_cli_error("unknown option", "--form");
    }
    if (!st) st = cl_cmd_run(&a, t->params, t->run);
    cl_cmd_args_free(&a);
    return st;
}

static int cmd_equilibria(int argc, char **argv) { return run_analysis(&equilibria, argc, argv); }
static int cmd_stability(int argc, char **argv) { return run_analysis(&stability, argc, argv); }

static const cl_command equilibria_command = {"equilibria", "Jacobian eigenvalues at a system's equilibria", cmd_equilibria};
CL_COMMAND_REGISTER(equilibria_command)
static const cl_command stability_command = {"stability", "Energy-Casimir stability verdict at a system's equilibrium", cmd_stability};
CL_COMMAND_REGISTER(stability_command)

/* `chartless systems`: the named systems, or one system's parameters and state layout. */
#include <string.h>
#include "cli.h"
#include "system.h"
#include "json.h"

static void describe(FILE *f, const cl_system *s)
{
    fprintf(f, "system %s: %s\n", s->name, s->summary);
    fprintf(f, "forms:");
    for (int i = 0; s->forms[i]; i++) fprintf(f, " %s%s", s->forms[i], i == 0 ? " (default)" : "");
    fprintf(f, "\nparameters:\n%s", s->params_note ? s->params_note : "");
    if (s->params) cl_params_help(f, s->params);
    else fprintf(f, "  (none)\n");
    fprintf(f, "state:\n%s\n", s->state_help ? s->state_help : "  (see the chapter)");
    if (s->invariant_names) {
        fprintf(f, "invariants:");
        for (int i = 0; s->invariant_names[i]; i++) fprintf(f, " %s", s->invariant_names[i]);
        fprintf(f, "\n");
    }
    if (s->lie_simulate) fprintf(f, "integrators: also the Lie group methods lie-euler, rkmk4, cf4, rkmk45\n");
    int eq = cl_system_offers_equilibria(s), st = cl_system_offers_stability(s), sw = cl_system_offers_sweep(s);
    if (eq || st || sw)
        fprintf(f, "commands:%s%s%s\n", eq ? " equilibria" : "", st ? " stability" : "", sw ? " sweep" : "");
}

static int cmd_systems(int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    if (argc > 2) return cl_cli_error("at most one system name", argv[2]);
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        puts("usage: chartless systems [--format text|json] [NAME]\n\n"
             "List the named systems that rhs, simulate and grade know, or describe one:\n"
             "its forms, parameters, state layout and invariants. --format json: every system\n"
             "(or NAME) described in full as one JSON object (docs/systems.schema.json).");
        return CL_EXIT_OK;
    }
    if (argc > 1 && argv[1][0] == '-') return cl_cli_error("unknown option; chartless systems --help lists them", argv[1]);
    if (argc > 1) {
        const cl_system *s = cl_system_find(argv[1]);
        if (!s) return cl_cli_error("unknown system; chartless systems lists them", argv[1]);
        if (json) cl_json_systems(stdout, s);
        else describe(stdout, s);
        return CL_EXIT_OK;
    }
    if (json) {
        cl_json_systems(stdout, NULL);
        return CL_EXIT_OK;
    }
    for (size_t i = 0; i < cl_system_count(); i++) {
        const cl_system *s = cl_system_get(i);
        printf("%-14s %s\n", s->name, s->summary);
    }
    return CL_EXIT_OK;
}

static const cl_command systems_command = {"systems", "list the named systems, or describe one", cmd_systems};
CL_COMMAND_REGISTER(systems_command)

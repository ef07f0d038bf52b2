/* `chartless systems`: the named systems, or one system's parameters and state layout. */
#include <string.h>
#include "cli.h"
#include "system.h"
#include "cmd_system.h"
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

static const char *help_text =
    "usage: chartless systems [--format text|json] [NAME | --system NAME | --model FILE]\n\n"
    "List the named systems that rhs, simulate and grade know, or describe one, named or\n"
    "read from a model file (docs/models.md): its forms, parameters, state layout and\n"
    "invariants. --format json: every system (or the one) described in full as one JSON\n"
    "object (docs/systems.schema.json).\n";

static void describe_as(const cl_system *s, int json)
{
    if (json) cl_json_systems(stdout, s);
    else describe(stdout, s);
}

/* The system named or read, described on stdout. */
static int describe_one(const cl_cmd_args *a, int json)
{
    const char *name = a->npositional ? a->positional[0] : a->system;
    if (a->model) {
        if (name) return cl_cli_error("give a system name or --model, not both", a->model);
        const cl_system *s;
        cl_sys_error e = {"", ""};
        if (cl_model_system_new(&s, a->model, &e)) return cl_cmd_report(&e, a->model, CL_EXIT_USAGE);
        describe_as(s, json);
        cl_model_system_free(s);
        return CL_EXIT_OK;
    }
    if (a->npositional && a->system) return cl_cli_error("give a system name once", a->system);
    const cl_system *s = cl_system_find(name);
    if (!s) return cl_cmd_unknown_system(name);
    describe_as(s, json);
    return CL_EXIT_OK;
}

static int cmd_systems(int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    cl_cmd_args a;
    if ((st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 1, &a))) return st;
    if (a.help) fputs(help_text, stdout);
    else if (a.nparams) {
        char given[200];
        snprintf(given, sizeof given, "--%s", a.keys[0]);
        st = cl_cmd_unknown_option(&a, NULL, given);
    } else if (a.form || a.bits_given) st = cl_cli_error("systems takes no --form or --bits", a.form ? a.form : "--bits");
    else if (a.npositional || a.system || a.model) st = describe_one(&a, json);
    else if (json) cl_json_systems(stdout, NULL);
    else
        for (size_t i = 0; i < cl_system_count(); i++) {
            const cl_system *s = cl_system_get(i);
            printf("%-14s %s\n", s->name, s->summary);
        }
    cl_cmd_args_free(&a);
    return st;
}

static const cl_command systems_command = {"systems", "list the named systems, or describe one (or a model file's)", cmd_systems};
CL_COMMAND_REGISTER(systems_command)

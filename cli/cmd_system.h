/**
 * \file cmd_system.h
 * \brief Helpers shared by the subcommands that work on a registered system
 *        or figure: scanning the command line into the command's own options
 *        and `--key value` parameters (parsed by the system's table, see
 *        system.h), reading, checking and printing states.
 */
#ifndef CL_CMD_SYSTEM_H
#define CL_CMD_SYSTEM_H
#include <stddef.h>
#include <stdio.h>
#include "system.h"
#include "model.h"

/** An option of the subcommand itself: its value goes to the command's
    handler with its code, or, for a text option (code CL_CMD_TEXT), is
    stored as given in the command's options (the scan's ctx). */
typedef struct cl_cmd_option {
    const char *name; /**< without "--" */
    int code;         /**< the handler's code, or CL_CMD_TEXT */
    size_t text_at;   /**< with CL_CMD_TEXT: offset of the `const char *` member in ctx that takes the value */
} cl_cmd_option;

/** The code of a text option, which needs no handler. */
#define CL_CMD_TEXT (-1)
/** `--NAME value` stores value in ((TYPE *)ctx)->MEMBER. */
#define CL_CMD_TEXT_OPTION(NAME, TYPE, MEMBER) {NAME, CL_CMD_TEXT, offsetof(TYPE, MEMBER)}
/** An option whose value goes to the handler with CODE. */
#define CL_CMD_OPTION(NAME, CODE) {NAME, CODE, 0}
/** The end of an option table. */
#define CL_CMD_OPTIONS_END {NULL, 0, 0}

/** The scanned command line. */
typedef struct cl_cmd_args {
    const char *command;         /**< argv[0], the subcommand's name */
    const struct cl_cmd_option *opts; /**< the command's own options, for messages */
    const char *system, *form;
    const char *model;           /**< --model FILE: a model file instead of a named system */
    long bits;                   /**< --bits, 53 when not given */
    int bits_given, help;
    int interpreted;             /**< --interpreted: a model's field is interpreted, never compiled */
    int nparams;                 /**< `--key value` pairs left for a parameter table */
    const char **keys, **vals;   /**< keys without "--"; a flag's value is NULL */
    int npositional;
    const char *positional[2];
} cl_cmd_args;

/** An open system instance. */
typedef struct cl_cmd_system {
    const cl_system *sys;
    void *inst;
    int form;
    size_t dim;
    cl_params params;
    int from_model;              /**< sys was read from a model file and is released on close */
} cl_cmd_system;


/**
 * Scan argv: --system, --model, --form, --bits, -h/--help, the command's \p opts
 * (ended by a NULL name; text options are stored in \p ctx, the others' values
 * go to \p on_opt, which returns 0 or an exit status), up to \p maxpos positional arguments (at most 2), and every
 * other option as a parameter: `--key=value`, `--key value`, or a flag
 * `--key` when no value follows (the next argument begins with "--");
 * `--param name=value` is the parameter `--name value`. Values may be of any
 * length. Returns 0 or an exit status (message printed); free
 * with cl_cmd_args_free().
 */
int cl_cmd_scan(int argc, char **argv, const cl_cmd_option *opts, int (*on_opt)(int code, const char *arg, void *ctx),
                void *ctx, int maxpos, cl_cmd_args *a);
void cl_cmd_args_free(cl_cmd_args *a);
/** `error: unknown option (--GIVEN); did you mean --NAME? (chartless CMD ... --help lists them)`,
    the names being the command's options, the shared ones and the parameters of \p table (may be NULL); returns 2. */
int cl_cmd_unknown_option(const cl_cmd_args *a, const cl_param *table, const char *given);
/** Parse the scanned parameters against \p table at the working precision; 0 or exit status 2 (message printed). */
int cl_cmd_parse_params(const cl_cmd_args *a, const cl_param *table, cl_params *p);
/** Parse the parameters against \p table and run \p run on them; its status, or 2 (messages printed). */
int cl_cmd_run(const cl_cmd_args *a, const cl_param *table, int (*run)(const cl_params *p, cl_prec_t prec, cl_sys_error *e));
/** Print `error: <what> (<arg>)`, \p fallback_arg when the message names no argument; returns \p status. */
int cl_cmd_report(const cl_sys_error *e, const char *fallback_arg, int status);
/** `error: unknown system (GIVEN); did you mean NAME? (chartless systems lists them)`; returns 2. */
int cl_cmd_unknown_system(const char *given);
/** `error: unknown form (GIVEN); did you mean NAME? (the forms of SYSTEM: ...)`; returns 2. */
int cl_cmd_unknown_form(const cl_system *s, const char *given);
/** Find the system (or read the model) and form and create the instance; 0 or exit status 2 (message printed). */
int cl_cmd_open_system(const cl_cmd_args *a, cl_cmd_system *cs);
void cl_cmd_close_system(cl_cmd_system *cs);
/** Read dim numbers from \p f, check the state, normalize its leading unit vectors; 0 or exit status 2. */
int cl_cmd_read_state(const cl_cmd_system *cs, FILE *f, mpfr_ptr x);
/** Print n numbers, three to a line for states led by unit vectors. */
void cl_cmd_print_vector(FILE *f, const cl_cmd_system *cs, mpfr_srcptr v, size_t n);
/** The system's parameters, forms and state layout, for --help. */
void cl_cmd_system_help(const cl_system *s);
/**
 * The options every command that opens one system's field offers (rhs,
 * simulate), as lines of its --help, descriptions from column 19; \p CMD
 * the command's name, a string literal: --system, --model, --param, --form,
 * --bits, --interpreted (what cl_cmd_open_system() reads).
 */
#define CL_CMD_HELP_SYSTEM_OPTIONS(CMD) \
    "  --system NAME    a named system (chartless systems lists them)\n" \
    "  --model FILE     a system written as a model file: manifold, parameters, Lagrangian\n" \
    "                   (docs/models.md; chartless systems --model FILE describes it)\n" \
    "  --param name=value, --name value\n" \
    "                   a parameter of the system or model instead of its default (chartless\n" \
    "                   " CMD " --system NAME --help or --model FILE --help lists them)\n" \
    "  --form FORM      the form of the state (default: the system's first form)\n" \
    "  --bits B         working precision in bits, 2 to 65536 (default 53)\n" \
    "  --interpreted    a model's field interpreted, never compiled (docs/eom.md, compiled fields)\n"
/** After a command's --help: the parameters, forms and state of the --system or
    --model given, else the registered systems. */
void cl_cmd_help_system(const cl_cmd_args *a);
/** The registered systems, one per line. */
void cl_cmd_list_systems(FILE *f);
/** The names of the registered systems for which \p has is true, comma-separated, into \p buf. */
void cl_cmd_systems_with(char *buf, size_t len, int (*has)(const cl_system *s));
/** Equilibrium \p k (named \p name) is selected by \p which: NULL or "all", its number, or the first
    word of its name (`--equilibrium` of equilibria, stability and sweep). */
int cl_cmd_equilibrium_selected(const char *which, int k, const char *name);
#endif

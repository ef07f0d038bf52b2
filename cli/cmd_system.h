/**
 * \file cmd_system.h
 * \brief Helpers shared by the subcommands that work on a registered system
 *        (`chartless rhs`, `chartless simulate`): common options, system
 *        parameters given as `--key value`, reading, checking and printing states.
 */
#ifndef CL_CMD_SYSTEM_H
#define CL_CMD_SYSTEM_H
#include <getopt.h>
#include <stdio.h>
#include "system.h"

#define CL_CMD_MAX_PARAMS 32

/** Parsed common options and the system's parameters. */
typedef struct cl_cmd_args {
    const char *system, *form;
    long bits;
    int help;
    int nparams;
    const char *keys[CL_CMD_MAX_PARAMS], *vals[CL_CMD_MAX_PARAMS];
    char keybuf[CL_CMD_MAX_PARAMS][64];
} cl_cmd_args;

/** An open system instance. */
typedef struct cl_cmd_system {
    const cl_system *sys;
    void *inst;
    int form;
    size_t dim;
} cl_cmd_system;

/**
 * getopt_long over --system, --form, --bits, --help and \p extra (terminated
 * by a zero entry; their codes go to \p on_extra); any other `--key value`
 * or `--key=value` is collected as a system parameter. Returns 0 or an exit
 * status (message printed).
 */
int cl_cmd_parse_system_args(int argc, char **argv, const struct option *extra, cl_cmd_args *a,
                             int (*on_extra)(int code, const char *arg, void *ctx), void *ctx);
/** Find the system and form and create the instance; 0 or exit status 2 (message printed). */
int cl_cmd_open_system(const cl_cmd_args *a, cl_cmd_system *cs);
void cl_cmd_close_system(cl_cmd_system *cs);
/** Read dim numbers from \p f, check the state, normalize q on (S²)ⁿ; 0 or exit status 2. */
int cl_cmd_read_state(const cl_cmd_system *cs, FILE *f, mpfr_ptr x);
/** Print n numbers, three to a line for systems on (S²)ⁿ. */
void cl_cmd_print_vector(FILE *f, const cl_cmd_system *cs, mpfr_srcptr v, size_t n);
/** The system's parameters, forms and state layout, for --help. */
void cl_cmd_system_help(const cl_system *s);
/** The registered systems, one per line. */
void cl_cmd_list_systems(FILE *f);
#endif

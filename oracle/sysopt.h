/**
 * \file sysopt.h
 * \brief Command-line options shared by the commands that work on a named
 *        system (`rhs`, `simulate`, ...): --system, --form, --bits, and the
 *        system's own parameters given as `--key value`.
 */
#ifndef CL_SYSOPT_H
#define CL_SYSOPT_H
#include <stdio.h>
#include "system.h"

#define CL_SYSOPT_MAX 48

typedef struct cl_sysopt {
    const cl_system *sys;
    void *inst;
    int form;
    long bits;
    const char *form_name;
    int nparam;
    char *keys[CL_SYSOPT_MAX], *vals[CL_SYSOPT_MAX];
} cl_sysopt;

/**
 * Parse argv (argv[0] is the command). Options the command itself takes are
 * given as a NULL-terminated list of (name, const char **value) pairs after
 * \p help; every other `--key value` goes to the system. Returns 0 or
 * CL_EXIT_USAGE (message printed). *help is set by -h/--help.
 */
int cl_sysopt_parse(cl_sysopt *so, int argc, char **argv, int *help, ...);
/** Create the instance (system, form, precision checked). 0 or CL_EXIT_USAGE. */
int cl_sysopt_create(cl_sysopt *so);
/** Read and validate one state; 0 or CL_EXIT_USAGE (message printed). */
int cl_sysopt_read_state(cl_sysopt *so, FILE *f, mpfr_ptr x);
/** Print a system's parameters, forms and state layout. */
void cl_sysopt_print_system_help(FILE *f, const cl_system *s);
/** Destroy the instance. */
void cl_sysopt_free(cl_sysopt *so);
#endif

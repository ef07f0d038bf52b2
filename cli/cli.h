/**
 * \file cli.h
 * \brief Subcommands of the `chartless` command and shared command-line helpers.
 *
 * A subcommand is a function `int cmd(int argc, char **argv)` (argv[0] is
 * the subcommand name, parse with getopt_long) registered with
 * CL_COMMAND_REGISTER. Conventions: results on stdout, diagnostics on
 * stderr, exit status 0 pass, 1 a check failed, 2 bad input; bad input is
 * reported by cl_cli_error() as `error: <what> (<argument>)`.
 */
#ifndef CL_CLI_H
#define CL_CLI_H
#include <stddef.h>
#include <stdio.h>
#include "cl_types.h"
#include "system.h"

typedef struct cl_command {
    const char *name;    /**< e.g. "rhs" */
    const char *summary; /**< one line for `chartless --help` */
    int (*run)(int argc, char **argv);
} cl_command;

void cl_command_register(const cl_command *c);

#define CL_COMMAND_REGISTER(var) \
    static void __attribute__((constructor)) cl_command_reg_##var(void) { cl_command_register(&var); }

/* The exit statuses, enum cl_exit (CL_EXIT_OK, _FAIL, _USAGE), are in system.h. */

/** Print `error: <what> (<arg>)` to stderr and return CL_EXIT_USAGE. */
int cl_cli_error(const char *what, const char *arg);

/**
 * The one message for a name the command does not know (an option, a
 * parameter, a form, an integrator, a system, a command):
 * `error: unknown KIND (GIVEN); did you mean PREFIXNAME? (WHERE)` with the
 * nearest of the \p n names \p valid (NULL entries skipped) by edit distance,
 * or `...; no KIND is near that name (WHERE)` when none is near. \p where says
 * where the list is ("chartless rhs --system chain --help lists them") or is
 * the list itself. Returns CL_EXIT_USAGE.
 */
int cl_cli_unknown(const char *kind, const char *given, const char *const *valid, size_t n, const char *prefix,
                   const char *where);
/** The name of \p valid nearest to \p given (a few edits, or one a prefix of the other), or NULL. */
const char *cl_cli_nearest(const char *given, const char *const *valid, size_t n);

/** Seconds on the monotonic clock. */
double cl_cli_seconds(void);

/** Progress on stderr of a long run, on a terminal or not: nothing for the
    first CL_CLI_PROGRESS_AFTER seconds, then a line at most every
    CL_CLI_PROGRESS_EVERY seconds (on a terminal written over the previous one). */
typedef struct cl_cli_progress {
    double start, next;
    int tty, shown;
} cl_cli_progress;
#define CL_CLI_PROGRESS_AFTER 2.0
#define CL_CLI_PROGRESS_EVERY 1.0
void cl_cli_progress_start(cl_cli_progress *p);
/** Whether a line is due now (then the next is due a period later). */
int cl_cli_progress_due(cl_cli_progress *p);
/** One progress line, printf-style, without the newline. */
void cl_cli_progress_line(cl_cli_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** The run is over: a terminal's progress line is cleared. */
void cl_cli_progress_end(cl_cli_progress *p);

/**
 * Parse --bits: a precision in bits, 2 to 65536. Returns 0 or
 * CL_EPREC (message printed).
 */
int cl_cli_parse_bits(const char *s, long *bits);

/**
 * Read whitespace- or comma-separated decimal numbers from \p f into the
 * \p n mpfr numbers x (already initialized at the working precision),
 * never through a double. Returns 0, CL_EPARSE (a token is not a number),
 * CL_EDIM (too few or too many numbers; *got says how many were read),
 * CL_ENAN or CL_ENOMEM. Tokens may be of any length (a number at 65536 bits
 * has about 19730 digits).
 */
int cl_cli_read_state(FILE *f, mpfr_ptr x, size_t n, size_t *got);

struct cl_system;
/** The name of state component \p i of \p form (the system's, else `x<i>`) into \p buf. */
void cl_cli_component_name(const struct cl_system *s, void *inst, int form, size_t i, char *buf, size_t len);
/** Whether the flag \p name (e.g. "--enclose", no value) is among argv[1..], every copy taken out of argv: 1 or 0. */
int cl_cli_take_flag(int *argc, char **argv, const char *name);

/** Print \p x with the decimal digits its precision carries. */
void cl_cli_print_real(FILE *f, mpfr_srcptr x);

/**
 * At program start: hold closed descriptors 0-2 with one that fails every
 * write, and remove pending temporary files on SIGINT, SIGTERM and SIGHUP.
 */
void cl_cli_init_output(void);
/** `error: cannot write: REASON (stdout)` (without the reason when \p err is 0), said once
    per run however often a write fails; returns CL_EXIT_USAGE. */
int cl_cli_stdout_failed(int err);
/** Flush and close stdout; 0, or CL_EXIT_USAGE with `error: cannot write (stdout)`. */
int cl_cli_close_stdout(void);
/** 0 when \p path is absent or a regular file (the only thing an output may replace); else exit status 2, message printed. */
int cl_cli_check_target(const char *path);
/** A --plot PNG checked before any work: no quote, backslash or newline in its
    name (gnuplot reads it in quotes), gnuplot installed, a target
    cl_cli_check_target() accepts. 0, or exit status 2 with the message printed. */
int cl_cli_check_plot(const char *png);
/** Copy \p in from where it stands to stdout (\p name says what it is in a
    message); 0, or exit status 2 with the message printed. */
int cl_cli_copy_to_stdout(FILE *in, const char *name);

/** An output file written under a temporary name in its directory and renamed into place (system.h). */
typedef cl_output cl_cli_out;

/** Open the temporary file for \p path (refused unless absent or a regular file); 0 or exit status 2, message printed. */
int cl_cli_out_open(cl_cli_out *o, const char *path);
/** Flush, sync and close the temporary file, keeping it; 0 or exit status 2 (removed, message printed). */
int cl_cli_out_close(cl_cli_out *o);
/** Close (when open) and rename the temporary file onto the path; 0 or exit status 2 (removed, message printed). */
int cl_cli_out_commit(cl_cli_out *o);
/** Close and remove the temporary file. */
void cl_cli_out_abort(cl_cli_out *o);
#endif

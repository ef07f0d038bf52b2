/**
 * \file sandbox.h
 * \brief Running a student's vector field where it cannot harm the grader.
 *
 * The shared object is loaded (its constructors included) only in a child
 * process in a process group of its own, with limits on address space, CPU
 * time, file size, open files and processes, a seccomp filter that ends it
 * when it starts a process or thread, executes a program or signals another
 * process, its stdout and stderr captured, its input read-only and its
 * output array followed by a guard page. Results come back over a pipe in
 * framed records that the grader validates; every wait has a deadline; when
 * the run ends every descendant is killed, also those that left the process
 * group (the grader is their subreaper).
 */
#ifndef CL_SANDBOX_H
#define CL_SANDBOX_H
#include <stddef.h>
#include "cl_student.h"

/** Address space a student may add to what the grader has mapped. */
#define CL_SANDBOX_MEMORY (512L << 20)
/** Captured output kept for the report. */
#define CL_SANDBOX_OUTPUT 4096

/** How the run ended. */
typedef enum cl_sandbox_outcome {
    CL_SB_DONE,      /**< every state evaluated */
    CL_SB_LOADFAIL,  /**< dlopen or dlsym failed: bad input, message in .message */
    CL_SB_CRASH,     /**< killed by .signal */
    CL_SB_EXIT,      /**< the process ended itself, .exit_status */
    CL_SB_TIMEOUT,   /**< still running at the deadline, or out of CPU time */
    CL_SB_FORBIDDEN, /**< ended by the seccomp filter: fork, clone, exec, signal to another process */
    CL_SB_OVERRUN,   /**< accessed dx[.element], past the end of dx */
    CL_SB_READ_PAST, /**< read x[.element], past the end of the state */
    CL_SB_WROTE_INPUT, /**< wrote into x or the parameters */
    CL_SB_CHANNEL,   /**< the result channel was closed or carried a bad record */
    CL_SB_EXCEPTION, /**< code run outside the grader (Python) raised .message */
    CL_SB_MEMORY,    /**< code run outside the grader ran out of its memory */
} cl_sandbox_outcome;

typedef struct cl_sandbox_result {
    cl_sandbox_outcome outcome;
    int state;          /**< the state under evaluation when it ended, -1 while loading */
    int nresults;       /**< states whose results came back */
    int signal, exit_status;
    long element;
    int strays;         /**< descendants still running at the end, killed */
    char message[512];
    char output[CL_SANDBOX_OUTPUT]; /**< the first bytes the student's code wrote */
    size_t output_len, output_total;
} cl_sandbox_result;

/**
 * Load \p symbol from \p path in a sandboxed child and evaluate it at the
 * \p nstates states \p x (nstates × dim), giving its outputs in \p dx and
 * return codes in \p rc, within \p timeout seconds in all. Returns 0 (the
 * outcome in \p res) or a negative CL_E code when the sandbox could not be
 * set up.
 */
int cl_sandbox_run(const char *path, const char *symbol, const double *x, size_t dim, int nstates,
                   const cl_student_params *par, double timeout, double *dx, int *rc, cl_sandbox_result *res);
/**
 * The names of the functions \p path defines that begin with \p prefix
 * (its dynamic symbol table, read as a file: nothing of it is run), comma
 * separated, into \p buf; "" when none or not an ELF shared object.
 */
void cl_sandbox_list_symbols(const char *path, const char *prefix, char *buf, size_t len);
/** 1 when \p path begins as an ELF file does. */
int cl_sandbox_is_elf(const char *path);
#endif

/**
 * \file grade_sandbox_report.c
 * \brief How the student's code ended, by name, in the report of `chartless grade`.
 */
#include <string.h>
#include "grade_ctx.h"

void grade_component_name(const grade_ctx *gc, size_t i, char *buf, size_t len)
{
    if (gc->sys->component_name) gc->sys->component_name(gc->inst, gc->form, i, buf, len);
    else snprintf(buf, len, "x[%zu]", i);
}

/* The student's output, quoted line by line (control bytes escaped) so that
   nothing it prints can pass for a line of the report. */
static void show_output(FILE *out, const cl_sandbox_result *sb)
{
    if (!sb->output_total) return;
    fprintf(out, "the student's code printed %zu bytes%s:\n", sb->output_total,
           sb->output_total > sb->output_len ? " (the first shown)" : "");
    int lines = 0, bol = 1;
    for (size_t i = 0; i < sb->output_len && lines < 20; i++) {
        unsigned char c = (unsigned char)sb->output[i];
        if (bol) fputs("  | ", out);
        bol = c == '\n';
        if (bol) { fputc('\n', out); lines++; }
        else if (c >= 32 && c < 127 && c != '\\') fputc(c, out);
        else fprintf(out, "\\x%02x", c);
    }
    if (!bol) fputc('\n', out);
    if (lines >= 20 || sb->output_total > sb->output_len) fprintf(out, "  | ...\n");
}

/* What ended the student's process, by name; the verdict's suffix (NULL when it ran to the end). */
const char *grade_report_sandbox(const grade_ctx *gc, const cl_sandbox_result *sb, double timeout, size_t dim)
{
    char where[96];
    int k = sb->state;
    if (k >= 0) snprintf(where, sizeof where, "at state %d (%s)", k + 1, gc->label[k]);
    else snprintf(where, sizeof where, "%s", sb->nresults ? "between states" : "while loading (in a constructor)");
    static const char *const ended_by[] = {
        [CL_SB_CRASH] = "crashed",
        [CL_SB_EXIT] = "exited",
        [CL_SB_TIMEOUT] = "timed out",
        [CL_SB_FORBIDDEN] = "forbidden system call",
        [CL_SB_OVERRUN] = "overran dx",
        [CL_SB_READ_PAST] = "read past x",
        [CL_SB_WROTE_INPUT] = "wrote into its input",
        [CL_SB_EXCEPTION] = "raised an exception",
        [CL_SB_MEMORY] = "ran out of memory",
        [CL_SB_CHANNEL] = "broke the result channel",
    };
    switch (sb->outcome) {
    case CL_SB_DONE: case CL_SB_LOADFAIL: break;
    case CL_SB_CRASH:
        fprintf(gc->out, "CRASH: the student's function was killed by signal %d (%s) %s\n", sb->signal, strsignal(sb->signal), where);
        break;
    case CL_SB_EXIT:
        fprintf(gc->out, "EXIT: the student's code ended its process (exit status %d) %s\n", sb->exit_status, where);
        break;
    case CL_SB_TIMEOUT:
        if (sb->signal) fprintf(gc->out, "TIMEOUT: the student's code used up its CPU time (%s) %s\n", strsignal(sb->signal), where);
        else fprintf(gc->out, "TIMEOUT: the student's function did not return within %g s %s\n", timeout, where);
        break;
    case CL_SB_FORBIDDEN:
        fprintf(gc->out, "FORK: the student's code tried to start a process or thread, run a program or signal another process %s; "
               "the grader forbids it\n", where);
        break;
    case CL_SB_OVERRUN:
        fprintf(gc->out, "OVERRUN: the student's function accessed dx[%ld], past the end of dx (%zu numbers) %s\n", sb->element, dim, where);
        break;
    case CL_SB_READ_PAST:
        fprintf(gc->out, "OVERRUN: the student's function read x[%ld], past the end of the state (%zu numbers) %s\n", sb->element, dim, where);
        break;
    case CL_SB_WROTE_INPUT:
        fprintf(gc->out, "WRITE TO INPUT: the student's function wrote into x or the parameters, which are read-only, %s\n", where);
        break;
    case CL_SB_EXCEPTION:
        fprintf(gc->out, "EXCEPTION: the student's function raised %s %s\n", sb->message, where);
        break;
    case CL_SB_MEMORY:
        fprintf(gc->out, "MEMORY: the student's function ran out of its memory (%ld MiB more than the grader's) %s\n",
                CL_SANDBOX_MEMORY >> 20, where);
        break;
    case CL_SB_CHANNEL:
        fprintf(gc->out, "CHANNEL: the student's code closed or wrote into the grader's result channel %s\n", where);
        break;
    }
    const char *ended = sb->outcome >= 0 && (size_t)sb->outcome < sizeof ended_by / sizeof *ended_by ? ended_by[sb->outcome] : NULL;
    if (sb->strays)
        fprintf(gc->out, "FORK: the student's code left %d process%s running; the grader ended %s\n", sb->strays,
               sb->strays == 1 ? "" : "es", sb->strays == 1 ? "it" : "them");
    if (k >= 0 && sb->outcome != CL_SB_DONE) {
        fprintf(gc->out, "  state:");
        for (size_t i = 0; i < dim; i++) fprintf(gc->out, " %.17g", gc->x[(size_t)k * dim + i]);
        fprintf(gc->out, "\n");
    }
    show_output(gc->out, sb);
    return ended ? ended : sb->strays ? "left processes running" : NULL;
}

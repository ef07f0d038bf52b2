/* Output that never claims a success it did not have: stdout checked at the
   end, files through the check kit's atomic output (cl_output_*), their
   errors reported the command line's way. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "plot.h"

void cl_cli_init_output(void)
{
    /* A closed descriptor 0, 1 or 2 would be handed to the next file opened,
       and stdout would write into it: hold them with a descriptor that fails
       every write (so `>&-` is reported, not silently discarded). */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int r = open("/dev/null", O_RDONLY);
            if (r >= 0 && r != fd) { dup2(r, fd); close(r); }
        }
    cl_output_catch_signals();
}

/* Whether `cannot write (stdout)` was said already. */
static int stdout_reported;

int cl_cli_stdout_failed(int err)
{
    if (stdout_reported++) return CL_EXIT_USAGE;
    if (!err) return cl_cli_error("cannot write", "stdout");
    char what[160];
    snprintf(what, sizeof what, "cannot write: %s", strerror(err));
    return cl_cli_error(what, "stdout");
}

int cl_cli_close_stdout(void)
{
    int early = ferror(stdout);
    errno = 0;
    int bad = fflush(stdout) != 0 || early;
    int err = errno;
    bad |= fclose(stdout) != 0;
    if (!err) err = errno;
    /* the reason is known when the last write failed here (a disk full, a reader gone) */
    if (bad) cl_cli_stdout_failed(early ? 0 : err);
    return bad ? CL_EXIT_USAGE : CL_EXIT_OK;
}

/* The kit's status as the command line's, its message printed. */
static int report(int st, const cl_sys_error *e)
{
    return st ? cl_cli_error(e->what, e->arg) : CL_EXIT_OK;
}

int cl_cli_check_target(const char *path)
{
    cl_sys_error e;
    return report(cl_output_check_target(path, &e), &e);
}

int cl_cli_check_plot(const char *png)
{
    if (strpbrk(png, "'\\\n")) return cl_cli_error("the --plot file name must not contain quotes, backslashes or newlines", png);
    if (!cl_cli_plot_available())
        return cl_cli_error("--plot needs gnuplot (apt-get install gnuplot-nox)", png);
    return cl_cli_check_target(png);
}

int cl_cli_copy_to_stdout(FILE *in, const char *name)
{
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, stdout) != n) break;
    if (ferror(in)) return cl_cli_error("cannot read back the CSV", name);
    errno = 0;
    if (ferror(stdout) || fflush(stdout)) return cl_cli_stdout_failed(errno);
    return CL_EXIT_OK;
}

int cl_cli_out_open(cl_cli_out *o, const char *path)
{
    cl_sys_error e;
    return report(cl_output_open(o, path, &e), &e);
}

int cl_cli_out_close(cl_cli_out *o)
{
    cl_sys_error e;
    return report(cl_output_close(o, &e), &e);
}

int cl_cli_out_commit(cl_cli_out *o)
{
    cl_sys_error e;
    return report(cl_output_commit(o, &e), &e);
}

void cl_cli_out_abort(cl_cli_out *o) { cl_output_abort(o); }

/* Output that never claims a success it did not have: stdout checked at the
   end, files written to a temporary name beside them and renamed into place,
   temporary files removed when SIGINT, SIGTERM or SIGHUP end the run. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"

/* Temporary files still open, for the signal handler; slots are claimed and
   released with signals blocked. */
#define MAX_PENDING 8
static char pending[MAX_PENDING][4096];
static volatile sig_atomic_t pending_used[MAX_PENDING];

static void remove_pending(int sig)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending_used[i]) unlink(pending[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void block_signals(sigset_t *old, int block)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(block ? SIG_BLOCK : SIG_SETMASK, block ? &s : old, block ? old : NULL);
}

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
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_pending;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal ignored by the caller (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(sigs[i], &sa, NULL);
    }
}

int cl_cli_close_stdout(void)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    bad |= fclose(stdout) != 0;
    if (bad) cl_cli_error("cannot write", "stdout");
    return bad ? CL_EXIT_USAGE : CL_EXIT_OK;
}

int cl_cli_check_target(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cl_cli_error(S_ISDIR(st.st_mode) ? "is a directory; an output file must be a regular file"
                                                : "not a regular file; only a regular file is replaced by an output",
                            path);
    return CL_EXIT_OK;
}

int cl_cli_out_open(cl_cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->slot = -1;
    int st = cl_cli_check_target(path);
    if (st) return st;
    if (snprintf(o->tmp, sizeof o->tmp, "%s.partial-XXXXXX", path) >= (int)sizeof o->tmp)
        return cl_cli_error("file name too long", path);
    sigset_t old;
    block_signals(&old, 1);
    int fd = mkstemp(o->tmp);
    if (fd >= 0)
        for (int i = 0; i < MAX_PENDING && o->slot < 0; i++)
            if (!pending_used[i]) {
                memcpy(pending[i], o->tmp, sizeof pending[i]);
                pending_used[i] = 1;
                o->slot = i;
            }
    block_signals(&old, 0);
    if (fd < 0) { o->tmp[0] = 0; return cl_cli_error("cannot write", path); }
    mode_t mask = umask(0); /* the mode an ordinary new file would get */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        close(fd);
        cl_cli_out_abort(o);
        return cl_cli_error("cannot write", path);
    }
    return CL_EXIT_OK;
}

static void release(cl_cli_out *o)
{
    sigset_t old;
    block_signals(&old, 1);
    if (o->slot >= 0) pending_used[o->slot] = 0;
    o->slot = -1;
    block_signals(&old, 0);
}

void cl_cli_out_abort(cl_cli_out *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
    release(o);
}

int cl_cli_out_close(cl_cli_out *o)
{
    int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad) {
        cl_cli_out_abort(o);
        return cl_cli_error("cannot write", o->path);
    }
    return CL_EXIT_OK;
}

int cl_cli_out_commit(cl_cli_out *o)
{
    int st = o->f ? cl_cli_out_close(o) : CL_EXIT_OK;
    if (st) return st;
    /* the target may have changed since it was opened */
    if ((st = cl_cli_check_target(o->path))) { cl_cli_out_abort(o); return st; }
    if (rename(o->tmp, o->path)) {
        cl_cli_out_abort(o);
        return cl_cli_error("cannot write", o->path);
    }
    o->tmp[0] = 0;
    release(o);
    return CL_EXIT_OK;
}

/* Output files that never claim a success they did not have: written to a
   temporary name beside the target, renamed into place, never replacing
   anything but a regular file, and removed when SIGINT, SIGTERM or SIGHUP
   end the run. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "system.h"

/* Temporary files still open, for the signal handler; slots are claimed and
   released with signals blocked. */
#define MAX_PENDING 8
static char pending[MAX_PENDING][4096];
static volatile sig_atomic_t pending_used[MAX_PENDING];
static volatile sig_atomic_t handlers_installed;

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

void cl_output_catch_signals(void)
{
    if (handlers_installed) return;
    handlers_installed = 1;
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

int cl_output_check_target(const char *path, cl_sys_error *e)
{
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cl_sys_error_set(e, CL_EXIT_USAGE, path, "%s",
                                S_ISDIR(st.st_mode) ? "is a directory; an output file must be a regular file"
                                                    : "not a regular file; only a regular file is replaced by an output");
    return CL_EXIT_OK;
}

int cl_output_open(cl_output *o, const char *path, cl_sys_error *e)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->slot = -1;
    int st = cl_output_check_target(path, e);
    if (st) return st;
    if (snprintf(o->tmp, sizeof o->tmp, "%s.partial-XXXXXX", path) >= (int)sizeof o->tmp) {
        o->tmp[0] = 0;
        return cl_sys_error_set(e, CL_EXIT_USAGE, path, "file name too long");
    }
    cl_output_catch_signals();
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
    if (fd < 0) {
        int err = errno;
        o->tmp[0] = 0;
        return cl_sys_error_set(e, CL_EXIT_USAGE, path, "cannot write: %s", strerror(err));
    }
    mode_t mask = umask(0); /* the mode an ordinary new file would get */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int err = errno;
        close(fd);
        cl_output_abort(o);
        return cl_sys_error_set(e, CL_EXIT_USAGE, path, "cannot write: %s", strerror(err));
    }
    return CL_EXIT_OK;
}

static void release(cl_output *o)
{
    sigset_t old;
    block_signals(&old, 1);
    if (o->slot >= 0) pending_used[o->slot] = 0;
    o->slot = -1;
    block_signals(&old, 0);
}

void cl_output_abort(cl_output *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
    release(o);
}

int cl_output_close(cl_output *o, cl_sys_error *e)
{
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0;
    int err = errno;
    bad |= fclose(o->f) != 0;
    if (!err) err = errno;
    o->f = NULL;
    if (bad) {
        cl_output_abort(o);
        /* a write that failed before the close left no errno to tell */
        return err ? cl_sys_error_set(e, CL_EXIT_USAGE, o->path, "cannot write: %s", strerror(err))
                   : cl_sys_error_set(e, CL_EXIT_USAGE, o->path, "cannot write");
    }
    return CL_EXIT_OK;
}

int cl_output_commit(cl_output *o, cl_sys_error *e)
{
    int st = o->f ? cl_output_close(o, e) : CL_EXIT_OK;
    if (st) return st;
    /* the target may have changed since it was opened */
    if ((st = cl_output_check_target(o->path, e))) { cl_output_abort(o); return st; }
    if (rename(o->tmp, o->path)) {
        int err = errno;
        cl_output_abort(o);
        return cl_sys_error_set(e, CL_EXIT_USAGE, o->path, "cannot write: %s", strerror(err));
    }
    o->tmp[0] = 0;
    release(o);
    return CL_EXIT_OK;
}

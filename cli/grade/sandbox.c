/* The sandboxed student: see sandbox.h. */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "cl_types.h"
#include "sandbox.h"

/* ------------------------------------------------------------ the channel */

enum { F_LOADED = 1, F_LOADFAIL, F_BEGIN, F_RESULT, F_FAULT, F_DONE };
enum { FAULT_OVERRUN = 1, FAULT_READ_PAST, FAULT_WROTE_INPUT };

/* A record: header, then len bytes. magic is drawn per run, so that stray
   bytes (a forked copy, a student writing into the descriptor) are told from records. */
typedef struct frame {
    uint32_t magic, type;
    int32_t index;
    uint32_t len;
} frame;

typedef struct fault_payload {
    int32_t what;
    int64_t element;
} fault_payload;

static uint32_t chan_magic;
static int chan_fd = -1;

static void send_frame(uint32_t type, int index, const void *a, size_t na, const void *b, size_t nb)
{
    frame h = {chan_magic, type, index, (uint32_t)(na + nb)};
    struct { const void *p; size_t n; } part[3] = {{&h, sizeof h}, {a, na}, {b, nb}};
    for (int i = 0; i < 3; i++)
        for (size_t done = 0; done < part[i].n;) {
            ssize_t w = write(chan_fd, (const char *)part[i].p + done, part[i].n - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(3);
            done += (size_t)w;
        }
}

/* ------------------------------------------------------------ the child */

/* Guarded regions: data ends where a page without access begins. */
typedef struct region {
    char *base;
    size_t size; /* bytes before the guard page */
    char *guard;
} region;

static size_t page;
static region in_x, in_par, out_dx;
static char *dx_start, *x_start;
static volatile sig_atomic_t current_state = -1;

static int region_new(region *r, size_t bytes)
{
    r->size = (bytes + page - 1) / page * page;
    if (!r->size) r->size = page;
    r->base = mmap(NULL, r->size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r->base == MAP_FAILED) return -1;
    r->guard = r->base + r->size;
    return mprotect(r->guard, page, PROT_NONE);
}

static int within(const region *r, const char *a, int guard)
{
    return guard ? a >= r->guard && a < r->guard + page : a >= r->base && a < r->guard;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    const char *a = si->si_addr;
    fault_payload f = {0, 0};
    if (within(&out_dx, a, 1)) f = (fault_payload){FAULT_OVERRUN, (a - dx_start) / (ptrdiff_t)sizeof(double)};
    else if (within(&in_x, a, 1)) f = (fault_payload){FAULT_READ_PAST, (a - x_start) / (ptrdiff_t)sizeof(double)};
    else if (within(&in_x, a, 0) || within(&in_par, a, 0)) f = (fault_payload){FAULT_WROTE_INPUT, 0};
    if (!f.what) { /* not one of ours: die of the signal */
        signal(sig, SIG_DFL);
        return;
    }
    send_frame(F_FAULT, current_state, &f, sizeof f, NULL, 0);
    _exit(4);
}

/* seccomp: end the process on fork, vfork, clone, clone3, execve, execveat
   and ptrace; kill and tgkill only towards itself (or its own group). */
static void forbid_processes(pid_t self)
{
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#else
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#endif
#define NR_KILL(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)
#define NR_SELF(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4), \
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])), \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)self, 2, 0), \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* the x32 numbers */
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        NR_KILL(__NR_fork), NR_KILL(__NR_vfork),
#endif
        NR_KILL(__NR_clone),
#ifdef __NR_clone3
        NR_KILL(__NR_clone3),
#endif
        NR_KILL(__NR_execve), NR_KILL(__NR_execveat), NR_KILL(__NR_ptrace), NR_KILL(__NR_tkill),
        NR_KILL(__NR_process_vm_writev), NR_KILL(__NR_pidfd_send_signal),
        NR_SELF(__NR_kill),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        NR_SELF(__NR_tgkill),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
#undef NR_KILL
#undef NR_SELF
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#else
    (void)self;
#endif
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
    struct rlimit r = {soft, hard};
    setrlimit(resource, &r);
}

/* Address space already mapped, in bytes. */
static rlim_t mapped_now(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return (rlim_t)pages * page;
}

typedef struct child_args {
    const char *path, *symbol;
    const double *x;
    size_t dim;
    int nstates;
    const cl_student_params *par;
    double timeout;
    int res_fd, out_fd;
} child_args;

/* The parameters in a read-only region: the struct, then m, l, extra. */
static const cl_student_params *copy_params(const cl_student_params *p)
{
    size_t n = p->n > 0 ? (size_t)p->n : 0, ne = p->nextra > 0 ? (size_t)p->nextra : 0;
    size_t bytes = sizeof *p + (2 * n + ne) * sizeof(double);
    if (region_new(&in_par, bytes)) return NULL;
    cl_student_params *q = (cl_student_params *)in_par.base;
    double *d = (double *)(q + 1);
    *q = *p;
    memcpy(d, p->m, n * sizeof *d);
    memcpy(d + n, p->l, n * sizeof *d);
    if (ne) memcpy(d + 2 * n, p->extra, ne * sizeof *d);
    q->m = d;
    q->l = d + n;
    q->extra = ne ? d + 2 * n : NULL;
    return mprotect(in_par.base, in_par.size, PROT_READ) ? NULL : q;
}

static void __attribute__((noreturn)) child(const child_args *a, pid_t grader)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != grader) _exit(3);
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(a->out_fd, 1) < 0 || dup2(a->out_fd, 2) < 0) _exit(3);
    setvbuf(stdout, NULL, _IOLBF, 0); /* the student's lines reach the capture as they are printed */
    chan_fd = 3;
    if (dup2(a->res_fd, chan_fd) < 0) _exit(3);
#ifdef __NR_close_range
    if (syscall(__NR_close_range, 4u, ~0u, 0u))
#endif
    {
        long maxfd = sysconf(_SC_OPEN_MAX);
        for (int fd = 4; fd < (maxfd > 0 && maxfd < 65536 ? maxfd : 65536); fd++) close(fd);
    }

    size_t dim = a->dim;
    const cl_student_params *par = copy_params(a->par);
    if (!par || region_new(&in_x, dim * sizeof(double)) || region_new(&out_dx, dim * sizeof(double))) _exit(3);
    x_start = in_x.guard - dim * sizeof(double);
    dx_start = out_dx.guard - dim * sizeof(double);
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);

    rlim_t cpu = (rlim_t)ceil(a->timeout) + 1;
    set_limit(RLIMIT_CPU, cpu, cpu + 1);
    set_limit(RLIMIT_FSIZE, 0, 0);
    set_limit(RLIMIT_CORE, 0, 0);
    set_limit(RLIMIT_NOFILE, 64, 64);
    set_limit(RLIMIT_NPROC, 0, 0);
    rlim_t as = mapped_now() + (rlim_t)CL_SANDBOX_MEMORY;
    set_limit(RLIMIT_AS, as, as);
    /* The tests turn the filter off to see that the grader also ends what escaped it. */
    if (!getenv("CHARTLESS_GRADE_TEST_NO_SECCOMP")) forbid_processes(getpid());

    /* A name without a slash is a file in the current directory, not a library on the search path. */
    char path[4096];
    snprintf(path, sizeof path, "%s%s", strchr(a->path, '/') ? "" : "./", a->path);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    cl_student_fn fn = h ? (cl_student_fn)dlsym(h, a->symbol) : NULL;
    if (!fn) {
        const char *msg = h ? "the shared object does not define the function" : dlerror();
        int32_t kind = h ? 2 : 1;
        send_frame(F_LOADFAIL, -1, &kind, sizeof kind, msg, strnlen(msg ? msg : "", 400));
        _exit(0);
    }
    send_frame(F_LOADED, -1, NULL, 0, NULL, 0);
    double *x = (double *)x_start, *dx = (double *)dx_start;
    for (int k = 0; k < a->nstates; k++) {
        if (mprotect(in_x.base, in_x.size, PROT_READ | PROT_WRITE)) _exit(3);
        memcpy(x, a->x + (size_t)k * dim, dim * sizeof *x);
        if (mprotect(in_x.base, in_x.size, PROT_READ)) _exit(3);
        for (size_t i = 0; i < dim; i++) dx[i] = NAN;
        current_state = k;
        send_frame(F_BEGIN, k, NULL, 0, NULL, 0);
        int32_t r = fn(dx, x, par);
        send_frame(F_RESULT, k, &r, sizeof r, dx, dim * sizeof *dx);
    }
    fflush(NULL);
    send_frame(F_DONE, -1, NULL, 0, NULL, 0);
    _exit(0);
}

/* ------------------------------------------------------------ the grader */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The parent process id of \p pid from /proc, or -1. */
static pid_t parent_of(pid_t pid)
{
    char name[64], buf[512];
    snprintf(name, sizeof name, "/proc/%d/stat", (int)pid);
    int fd = open(name, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may contain anything */
    int ppid;
    return p && sscanf(p + 1, " %*c %d", &ppid) == 1 ? (pid_t)ppid : -1;
}

/* Kill and reap every child of the grader, which as subreaper also inherits
   the orphaned descendants of the sandbox; returns how many were reaped. */
static int end_descendants(pid_t sandbox, double deadline)
{
    int found = 0;
    pid_t self = getpid();
    for (;;) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char *end;
            long pid = strtol(e->d_name, &end, 10);
            if (*end || pid <= 0 || pid == sandbox || parent_of((pid_t)pid) != self) continue;
            kill((pid_t)pid, SIGKILL);
            kill(-(pid_t)pid, SIGKILL);
        }
        if (d) closedir(d);
        int st;
        pid_t r = waitpid(-1, &st, WNOHANG);
        if (r < 0 && errno == ECHILD) return found;
        if (r > 0) found++;
        if (r == 0) {
            if (now() > deadline) return found;
            usleep(2000);
        }
    }
}

/* Read the student's output once: keep the first bytes, count the rest; read's result. */
static ssize_t capture(int fd, cl_sandbox_result *res)
{
    char tmp[4096];
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n <= 0) return n;
    size_t room = CL_SANDBOX_OUTPUT - res->output_len, keep = room < (size_t)n ? room : (size_t)n;
    memcpy(res->output + res->output_len, tmp, keep);
    res->output_len += keep;
    res->output_total += (size_t)n;
    return n;
}

typedef struct reader {
    char *buf;
    size_t len, cap;
} reader;

/* The next complete record in r, validated against what may come next; 1 a
   record, 0 not yet complete, -1 a bad record. */
static int next_frame(reader *r, frame *h, const char **payload, size_t dim, int expect, int nstates)
{
    if (r->len < sizeof *h) return 0;
    memcpy(h, r->buf, sizeof *h);
    size_t want;
    switch (h->type) {
    case F_LOADED: case F_BEGIN: case F_DONE: want = 0; break;
    case F_LOADFAIL: want = h->len >= sizeof(int32_t) && h->len <= 512 ? h->len : (size_t)-1; break;
    case F_RESULT: want = sizeof(int32_t) + dim * sizeof(double); break;
    case F_FAULT: want = sizeof(fault_payload); break;
    default: return -1;
    }
    if (h->magic != chan_magic || h->len != want) return -1;
    int loaded_only = h->type == F_LOADED || h->type == F_LOADFAIL;
    if ((expect < 0) != loaded_only && h->type != F_FAULT) return -1;
    if ((h->type == F_BEGIN || h->type == F_RESULT) && (h->index != expect || expect >= nstates)) return -1;
    if (r->len < sizeof *h + want) return 0;
    *payload = r->buf + sizeof *h;
    return 1;
}

static void consume(reader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

/* Wait for the sandbox \p pid until \p until, then kill its group; 1 when it exited by
   itself, 2 when the grader killed it, 0 when it could not be waited for (*status its status). */
static int reap(pid_t pid, double until, int *status)
{
    int exited = 0;
    while (!exited) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) { exited = w == pid; break; }
        if (now() > until) break;
        usleep(2000);
    }
    kill(-pid, SIGKILL);
    if (!exited) {
        kill(pid, SIGKILL);
        exited = waitpid(pid, status, 0) == pid ? 2 : 0; /* 2: killed by the grader */
    }
    return exited;
}

/* The outcome of a run that did not fail to load: a fault it reported, a clean end, a timeout, a
   signal, a broken channel (\p channel_lost: bad or closed early; \p bad: a bad record) or an exit. */
static void classify(cl_sandbox_result *res, const fault_payload *fault, int done, int channel_lost, int bad, int exited,
                     int status)
{
    if (fault->what) {
        res->outcome = fault->what == FAULT_OVERRUN ? CL_SB_OVERRUN : fault->what == FAULT_READ_PAST ? CL_SB_READ_PAST : CL_SB_WROTE_INPUT;
        res->element = (long)fault->element;
    } else if (done && exited == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        res->outcome = CL_SB_DONE;
    } else if (exited == 2) {
        res->outcome = channel_lost ? CL_SB_CHANNEL : CL_SB_TIMEOUT;
    } else if (WIFSIGNALED(status)) {
        res->signal = WTERMSIG(status);
        res->outcome = res->signal == SIGSYS ? CL_SB_FORBIDDEN : res->signal == SIGXCPU ? CL_SB_TIMEOUT : CL_SB_CRASH;
    } else if (bad) {
        res->outcome = CL_SB_CHANNEL;
    } else {
        res->outcome = CL_SB_EXIT;
        res->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
}

int cl_sandbox_run(const char *path, const char *symbol, const double *x, size_t dim, int nstates,
                   const cl_student_params *par, double timeout, double *dx, int *rc, cl_sandbox_result *res)
{
    memset(res, 0, sizeof *res);
    res->state = -1;
    page = (size_t)sysconf(_SC_PAGESIZE);
    chan_magic = (uint32_t)getpid() * 2654435761u ^ (uint32_t)(now() * 1e6) ^ 0x5a17c0deu;
    reader rd = {malloc(4096 + dim * sizeof(double)), 0, 4096 + dim * sizeof(double)};
    int resp[2], outp[2];
    if (!rd.buf) return CL_ENOMEM;
    if (pipe2(resp, O_CLOEXEC)) { free(rd.buf); return CL_ENOMEM; }
    if (pipe2(outp, O_CLOEXEC)) { close(resp[0]); close(resp[1]); free(rd.buf); return CL_ENOMEM; }
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    fflush(NULL);
    pid_t grader = getpid(), pid = fork();
    if (pid == 0) {
        child_args a = {path, symbol, x, dim, nstates, par, timeout, resp[1], outp[1]};
        child(&a, grader);
    }
    close(resp[1]);
    close(outp[1]);
    if (pid < 0) {
        close(resp[0]); close(outp[0]); free(rd.buf);
        prctl(PR_SET_CHILD_SUBREAPER, 0);
        return CL_ENOMEM;
    }
    setpgid(pid, pid);
    double deadline = now() + timeout;
    int expect = -1, done = 0, bad = 0, status = 0, exited = 0, out_open = 1, res_open = 1;
    fault_payload fault = {0, 0};
    while (!done && !bad && res_open && !fault.what) {
        double left = deadline - now();
        if (left <= 0) break;
        struct pollfd p[2] = {{.fd = resp[0], .events = POLLIN}, {.fd = out_open ? outp[0] : -1, .events = POLLIN}};
        int r = poll(p, 2, (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR) break;
        if (r <= 0) continue;
        if (p[1].revents) out_open = capture(outp[0], res) > 0;
        if (!p[0].revents) continue;
        ssize_t n = read(resp[0], rd.buf + rd.len, rd.cap - rd.len);
        if (n <= 0) { res_open = 0; continue; }
        rd.len += (size_t)n;
        frame h;
        const char *pl;
        int f;
        while (!done && !bad && !fault.what && (f = next_frame(&rd, &h, &pl, dim, expect, nstates)) != 0) {
            if (f < 0) { bad = 1; break; }
            switch (h.type) {
            case F_LOADED: expect = 0; break;
            case F_LOADFAIL:
                snprintf(res->message, sizeof res->message, "%.*s", (int)(h.len - sizeof(int32_t)), pl + sizeof(int32_t));
                res->outcome = CL_SB_LOADFAIL;
                done = 1;
                break;
            case F_BEGIN: res->state = h.index; break;
            case F_RESULT:
                memcpy(&rc[h.index], pl, sizeof(int32_t));
                memcpy(dx + (size_t)h.index * dim, pl + sizeof(int32_t), dim * sizeof(double));
                res->nresults = ++expect;
                res->state = -1;
                break;
            case F_FAULT: memcpy(&fault, pl, sizeof fault); break;
            case F_DONE: done = expect == nstates; bad = !done; break;
            }
            consume(&rd, sizeof h + h.len);
        }
    }
    exited = reap(pid, done || fault.what ? fmin(deadline, now() + 2) : deadline, &status);
    res->strays = end_descendants(pid, now() + 2);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    fcntl(outp[0], F_SETFL, O_NONBLOCK); /* what it wrote before it ended */
    while (out_open && capture(outp[0], res) > 0) {}
    close(resp[0]);
    close(outp[0]);
    free(rd.buf);

    if (res->outcome != CL_SB_LOADFAIL) classify(res, &fault, done, bad || !res_open, bad, exited, status);
    return CL_OK;
}

int cl_sandbox_is_elf(const char *path)
{
    unsigned char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(magic, 1, 4, f);
    fclose(f);
    return n == 4 && !memcmp(magic, ELFMAG, SELFMAG);
}

/* The defined functions of a 64-bit ELF image \p img (\p size bytes) that begin with \p prefix, into buf. */
static void elf64_symbols(const unsigned char *img, size_t size, const char *prefix, char *buf, size_t len)
{
    const Elf64_Ehdr *eh = (const void *)img;
    if (size < sizeof *eh || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr)) return;
    if (eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum) return;
    const Elf64_Shdr *sh = (const void *)(img + eh->e_shoff);
    size_t at = 0;
    for (size_t s = 0; s < eh->e_shnum; s++) {
        if (sh[s].sh_type != SHT_DYNSYM || sh[s].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *str = sh + sh[s].sh_link;
        if (sh[s].sh_offset > size || sh[s].sh_size > size - sh[s].sh_offset) return;
        if (str->sh_offset > size || str->sh_size > size - str->sh_offset) return;
        const Elf64_Sym *sym = (const void *)(img + sh[s].sh_offset);
        for (size_t k = 0; k < sh[s].sh_size / sizeof *sym; k++) {
            if (sym[k].st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || sym[k].st_name >= str->sh_size) continue;
            const char *name = (const char *)img + str->sh_offset + sym[k].st_name;
            if (!memchr(name, 0, str->sh_size - sym[k].st_name) || strncmp(name, prefix, strlen(prefix))) continue;
            if (at < len) at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", name);
        }
    }
}

void cl_sandbox_list_symbols(const char *path, const char *prefix, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    unsigned char *img = NULL;
    long size = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (size > 0 && size < (64L << 20) && !fseek(f, 0, SEEK_SET) && (img = malloc((size_t)size)) &&
        fread(img, 1, (size_t)size, f) == (size_t)size)
        elf64_symbols(img, (size_t)size, prefix, buf, len);
    free(img);
    fclose(f);
}

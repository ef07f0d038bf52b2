/*
 * Compiled fields (expr_jit.h): the emitted C of a graph compiled by the
 * system's C compiler into a shared object in the cache folder, named by
 * the hash of its source, written to a temporary file and renamed into
 * place, checked when loaded (a checksum of its bytes appended to it, its
 * hash as a symbol), and loaded with dlopen.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "expr_emit.h"
#include "expr_jit.h"
#include "chartless_base.h"

extern char **environ;

/* The version of the emitted code and of the cache's layout: a new one names every object anew. */
#define JIT_VERSION "chartless-jit 3"
/* The checksum appended to an object: "\n#chartless-jit-sum " and 16 hex digits and "\n". */
#define TRAILER_HEAD "\n#chartless-jit-sum "
#define TRAILER_LEN (sizeof TRAILER_HEAD - 1 + 16 + 1)

typedef int (*field_d_fn)(double *, const double *);
typedef int (*field_mp_fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_ptr);

struct cl_expr_jit {
    void *so;
    field_d_fn run_d;
    field_mp_fn run_mp, run_fixed;
    long nslots, nconst, nout, ninputs;
};

struct cl_expr_jit_mp {
    const cl_expr_jit *j;
    mpfr_ptr c, w; /* the constants, then the work numbers, one block */
    int fixed;     /* 0: the fixed nodes are to be computed; 1: they are; −1: one left its domain */
};

static long compilations;

long cl_expr_jit_compilations(void) { return compilations; }

/* FNV-1a over n bytes from \p h. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

int cl_expr_jit_cache_dir(char *buf, size_t len)
{
    const char *own = getenv("CHARTLESS_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n = own && *own ? snprintf(buf, len, "%s", own)
            : xdg && *xdg ? snprintf(buf, len, "%s/chartless", xdg)
            : home && *home ? snprintf(buf, len, "%s/.cache/chartless", home) : -1;
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* mkdir -p of \p dir (mode 0700 for the folders made here); 0 or −1 with errno. */
static int make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return errno = ENAMETOOLONG, -1;
    for (char *s = path + 1;; s++) {
        if (*s && *s != '/') continue;
        char c = *s;
        *s = 0;
        if (mkdir(path, 0700) && errno != EEXIST) return -1;
        *s = c;
        if (!c) break;
    }
    struct stat st;
    if (stat(dir, &st)) return -1;
    return S_ISDIR(st.st_mode) ? 0 : (errno = ENOTDIR, -1);
}

/* The compiler's words: $CC split at white space, or cc; n words into argv (at most max − 1), 0 when none. */
static size_t compiler_words(char *cc, char **argv, size_t max)
{
    size_t n = 0;
    for (char *s = strtok(cc, " \t\n"); s && n + 1 < max; s = strtok(NULL, " \t\n")) argv[n++] = s;
    return n;
}

/* The compiler command as one string (for the hash and the messages). */
static const char *compiler(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : "cc";
}

/* 1 when the file at \p path ends with the checksum of the bytes before it. */
static int intact(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = 0;
    if (!fseek(f, 0, SEEK_END)) {
        long size = ftell(f);
        unsigned char *buf = size > (long)TRAILER_LEN ? malloc((size_t)size + 1) : NULL;
        if (buf && !fseek(f, 0, SEEK_SET) && fread(buf, 1, (size_t)size, f) == (size_t)size) {
            size_t body = (size_t)size - TRAILER_LEN;
            char want[TRAILER_LEN + 1];
            snprintf(want, sizeof want, "%s%016llx\n", TRAILER_HEAD, (unsigned long long)fnv1a(0xcbf29ce484222325ULL, buf, body));
            ok = !memcmp(buf + body, want, TRAILER_LEN);
        }
        free(buf);
    }
    fclose(f);
    return ok;
}

/* Append the checksum of the file's bytes to it; 0 or −1. */
static int seal(const char *path)
{
    FILE *f = fopen(path, "r+b");
    if (!f) return -1;
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) h = fnv1a(h, buf, got);
    int st = ferror(f) || fseek(f, 0, SEEK_END) || fprintf(f, "%s%016llx\n", TRAILER_HEAD, (unsigned long long)h) < 0 ? -1 : 0;
    return fclose(f) || st ? -1 : 0;
}

/* Load the object at \p path when it is intact and carries \p tag; NULL otherwise. */
static cl_expr_jit *load(const char *path, const char *tag)
{
    if (!intact(path)) return NULL;
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!so) return NULL;
    const char *have = dlsym(so, "cl_jit_tag");
    const long *nslots = dlsym(so, "cl_jit_nslots"), *nconst = dlsym(so, "cl_jit_nconst"), *nout = dlsym(so, "cl_jit_nout"),
               *nin = dlsym(so, "cl_jit_ninputs");
    field_d_fn run_d;
    field_mp_fn run_mp, run_fixed;
    *(void **)&run_d = dlsym(so, "cl_jit_d");
    *(void **)&run_mp = dlsym(so, "cl_jit_mp");
    *(void **)&run_fixed = dlsym(so, "cl_jit_mp_fixed");
    cl_expr_jit *j = NULL;
    if (have && !strcmp(have, tag) && nslots && nconst && nout && nin && run_d && run_mp && run_fixed) j = malloc(sizeof *j);
    if (j) *j = (cl_expr_jit){.so = so, .run_d = run_d, .run_mp = run_mp, .run_fixed = run_fixed, .nslots = *nslots, .nconst = *nconst, .nout = *nout,
                              .ninputs = *nin};
    if (j) return j;
    dlclose(so);
    return NULL;
}

/* A new temporary file DIR/NAME.WHAT.XXXXXX into \p path; its descriptor, or −1. */
static int temp_file(char *path, size_t len, const char *dir, const char *name, const char *what)
{
    if (snprintf(path, len, "%s/%s.%s.XXXXXX", dir, name, what) >= (int)len) return errno = ENAMETOOLONG, -1;
    return mkstemp(path);
}

/* The first line of the compiler's messages in \p log, into buf. */
static void first_line(const char *log, char *buf, size_t len)
{
    FILE *f = fopen(log, "r");
    buf[0] = 0;
    if (f && fgets(buf, (int)len, f)) buf[strcspn(buf, "\n")] = 0;
    if (f) fclose(f);
}

/* Run the compiler on \p csrc into \p obj, its messages into \p logfd; 0, or −1 with the reason in why. */
static int run_compiler(const char *csrc, const char *obj, int logfd, const char *log, char *why, size_t whylen)
{
    char cc[1024], *argv[64];
    snprintf(cc, sizeof cc, "%s", compiler());
    size_t n = compiler_words(cc, argv, 48);
    if (!n) return snprintf(why, whylen, "no C compiler (CC is empty)"), -1;
    const char *const tail[] = {"-O2", "-shared", "-fPIC", "-ffp-contract=off", "-x", "c", csrc, "-x", "none", "-o", obj,
                                "-lmpfr", "-lgmp", "-lm", NULL};
    for (size_t k = 0; tail[k]; k++) argv[n++] = (char *)tail[k];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int rc = posix_spawn_file_actions_init(&fa);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, logfd, 1);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, logfd, 2);
    if (!rc) rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    compilations++;
    if (rc) return snprintf(why, whylen, "no C compiler (%s: %s)", argv[0], strerror(rc)), -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return snprintf(why, whylen, "the C compiler %s could not be waited for (%s)", argv[0], strerror(errno)), -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    char msg[300];
    first_line(log, msg, sizeof msg);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return snprintf(why, whylen, "no C compiler (%s: %s)", argv[0], msg), -1;
    snprintf(why, whylen, "the C compiler failed (%s, %s %d%s%s)", compiler(), WIFEXITED(status) ? "exit status" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), msg[0] ? ": " : "", msg);
    return -1;
}

/* Compile \p src (\p len bytes) into \p final (DIR/NAME.so) through temporary files of DIR; 0, or −1 with the reason in why. */
static int build(const char *dir, const char *name, const char *final, const char *src, size_t len, char *why, size_t whylen)
{
    char csrc[4200], obj[4200], log[4200];
    int fs = temp_file(csrc, sizeof csrc, dir, name, "c"), fo = fs < 0 ? -1 : temp_file(obj, sizeof obj, dir, name, "so");
    int fl = fo < 0 ? -1 : temp_file(log, sizeof log, dir, name, "log");
    int st = -1, wrote = fl >= 0 && write(fs, src, len) == (ssize_t)len;
    if (!wrote) snprintf(why, whylen, "cannot write the cache folder %s (%s)", dir, strerror(errno));
    if (fs >= 0 && close(fs) && wrote) {
        snprintf(why, whylen, "cannot write the cache folder %s (%s)", dir, strerror(errno));
        wrote = 0;
    }
    if (fo >= 0) close(fo);
    if (wrote) st = run_compiler(csrc, obj, fl, log, why, whylen);
    if (!st && (seal(obj) || rename(obj, final))) {
        snprintf(why, whylen, "cannot write the cache folder %s (%s)", dir, strerror(errno));
        st = -1;
    }
    if (fl >= 0) close(fl), unlink(log);
    if (fo >= 0 && st) unlink(obj);
    if (fs >= 0) unlink(csrc);
    return st;
}

/* The source of the field with its tag, and the object's name (the hash of the source, the compiler and MPFR). */
static int source(const cl_expr_dag *g, const int *nodes, size_t nout, long nvary, char **src, size_t *len, char *name, char *tag)
{
    FILE *f = open_memstream(src, len);
    if (!f) return CL_ENOMEM;
    int st = cl_expr_emit_field(f, g, nodes, nout, nvary);
    if (!st && fflush(f)) st = CL_ENOMEM;
    if (!st) {
        const char *cc = compiler(), *mp = mpfr_get_version();
        uint64_t h[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
        for (int k = 0; k < 2; k++) {
            h[k] = fnv1a(h[k], JIT_VERSION, sizeof JIT_VERSION);
            h[k] = fnv1a(h[k], cc, strlen(cc) + 1);
            h[k] = fnv1a(h[k], mp, strlen(mp) + 1);
            h[k] = fnv1a(h[k], *src, *len);
        }
        sprintf(name, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
        sprintf(tag, "%s %s", JIT_VERSION, name);
        fprintf(f, "const char cl_jit_tag[] = \"%s\";\n", tag);
    }
    if (fclose(f) && !st) st = CL_ENOMEM;
    return st;
}

/* The object from the cache, compiled first when \p build_it and it is missing or broken. */
static cl_expr_jit *obtain(const char *src, size_t len, const char *name, const char *tag, int build_it, char *why, size_t whylen)
{
    char dir[4096], path[4200];
    if (cl_expr_jit_cache_dir(dir, sizeof dir)) {
        snprintf(why, whylen, "no cache folder (set CHARTLESS_CACHE, XDG_CACHE_HOME or HOME)");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s.so", dir, name);
    cl_expr_jit *j = load(path, tag);
    if (j || !build_it) return j;
    if (make_dirs(dir)) {
        snprintf(why, whylen, "cannot write the cache folder %s (%s)", dir, strerror(errno));
        return NULL;
    }
    if (build(dir, name, path, src, len, why, whylen)) return NULL;
    j = load(path, tag);
    if (!j) {
        const char *e = dlerror();
        snprintf(why, whylen, "the compiled field %s cannot be loaded (%s)", path, e ? e : "its tag or checksum is wrong");
    }
    return j;
}

int cl_expr_jit_new(cl_expr_jit **out, const cl_expr_dag *g, const int *out_nodes, size_t nout, long nvary, int build_it,
                    char *why, size_t whylen)
{
    *out = NULL;
    if (whylen) why[0] = 0;
    char *src = NULL, name[40], tag[80];
    size_t len = 0;
    int st = source(g, out_nodes, nout, nvary, &src, &len, name, tag);
    if (st == CL_EPARSE) snprintf(why, whylen, "a constant of the field cannot be read in double");
    if (!st) *out = obtain(src, len, name, tag, build_it, why, whylen);
    free(src);
    return st == CL_ENOMEM ? st : *out ? CL_OK : CL_EUNDEFINED;
}

void cl_expr_jit_free(cl_expr_jit *j)
{
    if (!j) return;
    dlclose(j->so);
    free(j);
}

int cl_expr_jit_run_d(const cl_expr_jit *j, double *out, const double *x) { return j->run_d(out, x) ? CL_EDOMAIN : CL_OK; }

/* The constants of \p g into r->c at its precision: 0, CL_EDIM (a constant the compiled field has no slot for) or the reader's status. */
static int jit_mp_constants(cl_expr_jit_mp *r, const cl_expr_dag *g)
{
    for (size_t i = 0, n = cl_expr_dag_size(g); i < n; i++) {
        const cl_expr_node *e = cl_expr_dag_node(g, (int)i);
        if (e->op != CL_EXPR_CONST) continue;
        if (e->k >= r->j->nconst) return CL_EDIM;
        int st = cl_real_from_str_mp(r->c + e->k, cl_expr_dag_const(g, e->k));
        if (st) return st;
    }
    return CL_OK;
}

int cl_expr_jit_mp_new(cl_expr_jit_mp **out, const cl_expr_jit *j, const cl_expr_dag *g, cl_prec_t prec)
{
    *out = NULL;
    if (cl_prec_check(prec)) return CL_EPREC;
    cl_expr_jit_mp *r = calloc(1, sizeof *r);
    if (!r) return CL_ENOMEM;
    r->j = j;
    r->c = cl_rvec_new_mp((size_t)(j->nconst + j->nslots + 1), prec);
    int st = r->c ? jit_mp_constants(r, g) : CL_ENOMEM;
    if (st) {
        cl_expr_jit_mp_free(r);
        return st;
    }
    r->w = r->c + j->nconst;
    *out = r;
    return CL_OK;
}

void cl_expr_jit_mp_free(cl_expr_jit_mp *r)
{
    if (!r) return;
    cl_rvec_free_mp(r->c);
    free(r);
}

void cl_expr_jit_mp_changed(cl_expr_jit_mp *r) { r->fixed = 0; }

int cl_expr_jit_run_mp(cl_expr_jit_mp *r, mpfr_ptr out, mpfr_srcptr x)
{
    if (!r->fixed) r->fixed = r->j->run_fixed(out, x, r->c, r->w) ? -1 : 1;
    if (r->fixed < 0) return CL_EDOMAIN;
    return r->j->run_mp(out, x, r->c, r->w) ? CL_EDOMAIN : CL_OK;
}

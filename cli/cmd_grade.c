/**
 * \file cmd_grade.c
 * \brief `chartless grade`: compare a student's vector field with the reference.
 *
 * The student's shared object (see cl_student.h) is opened with dlopen in
 * the grader, which reports a missing file or symbol; the function itself is
 * called only in a child process, so that a crash or an endless loop ends
 * only the child: the parent reads the results through a pipe with a time
 * limit and reports which state the student's code was working on when it
 * died.
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cl_student.h"
#include "cli.h"
#include "system.h"
#include "cmd_system.h"

/* A discrepancy at or below this relative size is taken for rounding. */
#define GRADE_LOG2_TOL (-40.0)
/* Longest time limit accepted for the student's code, in seconds. */
#define MAX_TIMEOUT 86400.0

static const char *help_text =
    "usage: chartless grade --system NAME --form FORM [PARAMETERS] [OPTIONS] STUDENT.so\n"
    "\n"
    "Load cl_student_<system>_<form> from STUDENT.so (see cl_student.h), evaluate it in a\n"
    "separate process at seeded random states and at the system's equilibria, and compare\n"
    "each component with the reference computed in MPFR. A component is 'rounding' when\n"
    "|student - reference| <= 2^-40 max(1, max|reference|): double precision's 2^-53 with room\n"
    "for the growth of rounding errors in a straightforward evaluation; otherwise 'wrong'.\n"
    "\n"
    "options:\n"
    "  --system NAME     the system (chartless systems lists them); its parameters follow\n"
    "                    as --key value or --key=value, each at most once (chartless systems\n"
    "                    NAME lists them, its forms and its state layout)\n"
    "  --form FORM       the form the student implemented\n"
    "  --states K        number of random states (default 20)\n"
    "  --seed S          seed of the random states (default 1)\n"
    "  --timeout SEC     time limit for the student's code, in seconds (default 10,\n"
    "                    at most 86400)\n"
    "  --bits B          precision of the reference (default 256)\n"
    "  -h, --help        this text\n"
    "\n"
    "exit status: 0 every component agrees to rounding, 1 a component is wrong or the\n"
    "student's code crashed or timed out, 2 bad input\n";

typedef struct grade_ctx {
    const cl_system *sys;
    void *inst;
    int form;
    size_t dim;
    int nstates;
    double *x;        /* nstates × dim, the states as the student sees them */
    char (*label)[48];
    cl_student_params par;
} grade_ctx;

/* Child: evaluate the student's function at every state, one record each. */
static void child_eval(int fd, cl_student_fn fn, const grade_ctx *gc)
{
    double *dx = malloc(gc->dim * sizeof *dx);
    if (!dx) _exit(3);
    for (int k = 0; k < gc->nstates; k++) {
        int mark = k;
        if (write(fd, &mark, sizeof mark) != (ssize_t)sizeof mark) _exit(3);
        for (size_t i = 0; i < gc->dim; i++) dx[i] = NAN;
        int rc = fn(dx, gc->x + (size_t)k * gc->dim, &gc->par);
        if (write(fd, &rc, sizeof rc) != (ssize_t)sizeof rc) _exit(3);
        if (write(fd, dx, gc->dim * sizeof *dx) != (ssize_t)(gc->dim * sizeof *dx)) _exit(3);
    }
    free(dx);
    _exit(0);
}

/* Read exactly n bytes with a deadline; 0 ok, -1 EOF/error, -2 timeout. */
static int read_deadline(int fd, void *buf, size_t n, double deadline)
{
    size_t got = 0;
    while (got < n) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double left = deadline - ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
        if (left <= 0) return -2;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return -2;
        if (r < 0) return -1;
        ssize_t m = read(fd, (char *)buf + got, n - got);
        if (m <= 0) return -1;
        got += (size_t)m;
    }
    return 0;
}

static void component_name(const grade_ctx *gc, size_t i, char *buf, size_t len)
{
    if (gc->sys->component_name) gc->sys->component_name(gc->inst, gc->form, i, buf, len);
    else snprintf(buf, len, "x[%zu]", i);
}

/* Hints for a wrong 3-vector block: sign, factor, or a difference along q_j. */
static void block_hint(const grade_ctx *gc, const double *s, const double *r, const double *x, size_t b, char *hint, size_t len)
{
    double nr = 0, nd = 0, np = 0, n2 = 0, nh = 0;
    for (int i = 0; i < 3; i++) {
        double a = s[3 * b + i], c = r[3 * b + i];
        nr += c * c; nd += (a - c) * (a - c);
        np += (a + c) * (a + c); n2 += (a - 2 * c) * (a - 2 * c); nh += (2 * a - c) * (2 * a - c);
    }
    hint[0] = 0;
    if (nd == 0) return;
    if (nr > 0 && np <= 1e-20 * nr) { snprintf(hint, len, "student = -reference: a sign flip"); return; }
    if (nr > 0 && n2 <= 1e-20 * nr) { snprintf(hint, len, "student = 2 x reference: a factor 2"); return; }
    if (nr > 0 && nh <= 1e-20 * nr) { snprintf(hint, len, "student = reference / 2: a factor 1/2"); return; }
    int nq = gc->sys->unit_vectors ? gc->sys->unit_vectors(gc->inst) : 0;
    for (int j = 0; j < nq; j++) {
        const double *q = x + 3 * j;
        double d[3] = {s[3 * b] - r[3 * b], s[3 * b + 1] - r[3 * b + 1], s[3 * b + 2] - r[3 * b + 2]};
        double c[3] = {d[1] * q[2] - d[2] * q[1], d[2] * q[0] - d[0] * q[2], d[0] * q[1] - d[1] * q[0]};
        if (c[0] * c[0] + c[1] * c[1] + c[2] * c[2] <= 1e-20 * nd) {
            snprintf(hint, len, "the difference is along q%d: a missing projection (I - q%d q%d^T)?", j + 1, j + 1, j + 1);
            return;
        }
    }
}

static int grade(grade_ctx *gc, const char *sofile, const char *symbol, double timeout, cl_prec_t bits)
{
    size_t dim = gc->dim;
    int K = gc->nstates;
    double *ref = malloc((size_t)K * dim * sizeof *ref), *stu = malloc((size_t)K * dim * sizeof *stu);
    int *rc = calloc((size_t)K, sizeof *rc);
    mpfr_ptr xm = malloc(dim * sizeof *xm), dxm = malloc(dim * sizeof *dxm);
    for (size_t i = 0; i < dim; i++) { mpfr_init2(xm + i, bits); mpfr_init2(dxm + i, bits); }
    for (int k = 0; k < K; k++) {
        for (size_t i = 0; i < dim; i++) mpfr_set_d(xm + i, gc->x[(size_t)k * dim + i], MPFR_RNDN);
        int st = gc->sys->rhs(gc->inst, gc->form, dxm, xm);
        for (size_t i = 0; i < dim; i++) ref[(size_t)k * dim + i] = st ? NAN : mpfr_get_d(dxm + i, MPFR_RNDN);
    }
    for (size_t i = 0; i < dim; i++) { mpfr_clear(xm + i); mpfr_clear(dxm + i); }
    free(xm); free(dxm);

    /* The student's code runs in a child process. A name without a slash is
       a file in the current directory, not a library on the search path. */
    char path[4096];
    snprintf(path, sizeof path, "%s%s", strchr(sofile, '/') ? "" : "./", sofile);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { free(ref); free(stu); free(rc); return cl_cli_error(dlerror(), sofile); }
    cl_student_fn fn = (cl_student_fn)dlsym(h, symbol);
    if (!fn) { dlclose(h); free(ref); free(stu); free(rc); return cl_cli_error("the shared object does not define the function", symbol); }
    int p[2];
    if (pipe(p)) { perror("pipe"); dlclose(h); free(ref); free(stu); free(rc); return CL_EXIT_FAIL; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        close(p[0]); close(p[1]); dlclose(h); free(ref); free(stu); free(rc);
        return CL_EXIT_FAIL;
    }
    if (pid == 0) {
        close(p[0]);
        child_eval(p[1], fn, gc);
    }
    close(p[1]);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double deadline = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + timeout;
    int died_at = -1, why = 0; /* why: 1 crash, 2 timeout */
    for (int k = 0; k < K; k++) {
        int mark, r;
        if ((r = read_deadline(p[0], &mark, sizeof mark, deadline)) ||
            (r = read_deadline(p[0], &rc[k], sizeof rc[k], deadline)) ||
            (r = read_deadline(p[0], stu + (size_t)k * dim, dim * sizeof(double), deadline))) {
            died_at = k;
            why = r == -2 ? 2 : 1;
            break;
        }
    }
    if (why == 2) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(p[0]);
    dlclose(h);

    printf("grading %s from %s: system %s, form %s, %d states, reference at %ld bits\n",
           symbol, sofile, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
    int failed = 0;
    if (died_at >= 0) {
        failed = 1;
        if (why == 2)
            printf("TIMEOUT: the student's function did not return within %g s at state %d (%s)\n", timeout, died_at + 1, gc->label[died_at]);
        else if (WIFSIGNALED(status))
            printf("CRASH: the student's function was killed by signal %d (%s) at state %d (%s)\n",
                   WTERMSIG(status), strsignal(WTERMSIG(status)), died_at + 1, gc->label[died_at]);
        else
            printf("CRASH: the student's process exited (status %d) during state %d (%s)\n",
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1, died_at + 1, gc->label[died_at]);
        printf("  state:");
        for (size_t i = 0; i < dim; i++) printf(" %.17g", gc->x[(size_t)died_at * dim + i]);
        printf("\n");
        K = died_at; /* grade what did come back */
    }
    /* Per component: the worst relative discrepancy over the states. */
    double *worst = malloc(dim * sizeof *worst);
    int *worst_k = malloc(dim * sizeof *worst_k);
    for (size_t i = 0; i < dim; i++) { worst[i] = -INFINITY; worst_k[i] = 0; }
    for (int k = 0; k < K; k++) {
        if (rc[k]) {
            printf("state %d (%s): the student's function refused it (returned %d)\n", k + 1, gc->label[k], rc[k]);
            failed = 1;
            continue;
        }
        double scale = 1;
        for (size_t i = 0; i < dim; i++) scale = fmax(scale, fabs(ref[(size_t)k * dim + i]));
        for (size_t i = 0; i < dim; i++) {
            double d = fabs(stu[(size_t)k * dim + i] - ref[(size_t)k * dim + i]) / scale;
            double l = d == 0 ? -INFINITY : (isnan(d) ? INFINITY : log2(d));
            if (l > worst[i]) { worst[i] = l; worst_k[i] = k; }
        }
    }
    if (K > 0) {
        printf("\nper component of dx/dt (error relative to max(1, max|reference|) at that state):\n");
        printf("%-10s %-14s %-12s %s\n", "component", "largest error", "verdict", "where");
    }
    int nwrong = 0;
    for (size_t i = 0; i < dim && K > 0; i++) {
        char name[32];
        component_name(gc, i, name, sizeof name);
        int wrong = worst[i] > GRADE_LOG2_TOL;
        nwrong += wrong;
        double rel = worst[i] == -INFINITY ? 0 : exp2(worst[i]);
        printf("%-10s %-14.3g %-12s state %d (%s)\n", name, rel, wrong ? "WRONG" : "rounding", worst_k[i] + 1, gc->label[worst_k[i]]);
    }
    /* Hints per 3-vector block that is wrong. */
    for (size_t b = 0; b < dim / 3 && K > 0; b++) {
        int wrong = 0;
        for (int i = 0; i < 3; i++) wrong |= worst[3 * b + i] > GRADE_LOG2_TOL;
        if (!wrong) continue;
        size_t top = 3 * b;
        for (size_t i = 3 * b + 1; i < 3 * b + 3; i++) if (worst[i] > worst[top]) top = i;
        int k = worst_k[top];
        char hint[160], name[32];
        block_hint(gc, stu + (size_t)k * dim, ref + (size_t)k * dim, gc->x + (size_t)k * dim, b, hint, sizeof hint);
        component_name(gc, 3 * b, name, sizeof name);
        char *dot = strchr(name, '.');
        if (dot) *dot = 0;
        printf("hint: %s at state %d: student (%.6g, %.6g, %.6g), reference (%.6g, %.6g, %.6g)%s%s\n", name, k + 1,
               stu[(size_t)k * dim + 3 * b], stu[(size_t)k * dim + 3 * b + 1], stu[(size_t)k * dim + 3 * b + 2],
               ref[(size_t)k * dim + 3 * b], ref[(size_t)k * dim + 3 * b + 1], ref[(size_t)k * dim + 3 * b + 2],
               hint[0] ? "; " : "", hint);
    }
    /* Which states agree as a whole: a wrong term that vanishes at some states shows here. */
    int nagree = 0;
    char agree[256] = "";
    for (int k = 0; k < K; k++) {
        if (rc[k]) continue;
        double scale = 1, e = 0;
        for (size_t i = 0; i < dim; i++) scale = fmax(scale, fabs(ref[(size_t)k * dim + i]));
        for (size_t i = 0; i < dim; i++) e = fmax(e, fabs(stu[(size_t)k * dim + i] - ref[(size_t)k * dim + i]) / scale);
        if (!(e <= exp2(GRADE_LOG2_TOL))) continue;
        nagree++;
        if (strlen(agree) < sizeof agree - 60)
            snprintf(agree + strlen(agree), sizeof agree - strlen(agree), "%s%d", nagree > 1 ? ", " : "", k + 1);
    }
    if (nwrong && nagree)
        printf("states where everything agrees: %d of %d (%s)%s\n", nagree, K, agree,
               nagree < K ? " -- the wrong term vanishes there" : "");
    if (nwrong) failed = 1;
    printf("\n%s: %d of %zu components wrong%s\n", failed ? "FAIL" : "PASS", nwrong, dim,
           died_at >= 0 ? (why == 2 ? ", timed out" : ", crashed") : "");
    free(worst); free(worst_k); free(ref); free(stu); free(rc);
    return failed ? CL_EXIT_FAIL : CL_EXIT_OK;
}

enum { OPT_STATES = 1, OPT_SEED, OPT_TIMEOUT };

typedef struct grade_opts {
    int nrandom;
    unsigned long seed;
    double timeout;
} grade_opts;

static int on_option(int code, const char *v, void *ctx)
{
    grade_opts *o = ctx;
    char *end;
    errno = 0;
    if (code == OPT_STATES) {
        long ns = strtol(v, &end, 10);
        if (errno || end == v || *end || ns < 1 || ns > 100000) return cl_cli_error("--states must be a whole number from 1 to 100000", v);
        o->nrandom = (int)ns;
    } else if (code == OPT_SEED) {
        o->seed = strtoul(v, &end, 10);
        if (errno || end == v || *end || strchr(v, '-')) return cl_cli_error("--seed must be a whole number from 0 to ULONG_MAX", v);
    } else {
        o->timeout = strtod(v, &end);
        if (end == v || *end || !(o->timeout > 0) || !(o->timeout <= MAX_TIMEOUT))
            return cl_cli_error("--timeout must be a positive number of seconds, at most 86400", v);
    }
    return CL_EXIT_OK;
}

/* Parameter \p name of the instance as doubles (n copies of \p def when the system has none). */
static double *student_list(const cl_params *p, const char *name, size_t n, double def)
{
    const cl_param *d = cl_param_find(p->table, name);
    const cl_param_value *v = d ? p->v + (d - p->table) : NULL;
    size_t len = v && v->len ? v->len : n;
    double *x = malloc((len ? len : 1) * sizeof *x);
    if (!x) return NULL;
    for (size_t i = 0; i < len; i++) x[i] = v && v->len ? mpfr_get_d(v->x + i, MPFR_RNDN) : def;
    return x;
}

/* The student's copy of the parameters: n, m, l, g by name, and the numbers
   of every other parameter in the order the system's table documents them. */
static int student_params(const cl_params *p, cl_student_params *sp, double **m, double **l, double **extra)
{
    size_t n = p->n, nextra = 0;
    for (size_t k = 0; k < p->count; k++)
        if (strcmp(p->table[k].name, "m") && strcmp(p->table[k].name, "l") && strcmp(p->table[k].name, "g")) nextra += p->v[k].len;
    *m = student_list(p, "m", n, 1);
    *l = student_list(p, "l", n, 1);
    double *g = student_list(p, "g", 1, 9.81);
    *extra = malloc((nextra ? nextra : 1) * sizeof **extra);
    if (!*m || !*l || !g || !*extra) { free(g); return CL_ENOMEM; }
    nextra = 0;
    for (size_t k = 0; k < p->count; k++)
        if (strcmp(p->table[k].name, "m") && strcmp(p->table[k].name, "l") && strcmp(p->table[k].name, "g"))
            for (size_t i = 0; i < p->v[k].len; i++) (*extra)[nextra++] = mpfr_get_d(p->v[k].x + i, MPFR_RNDN);
    *sp = (cl_student_params){.n = (int)n, .m = *m, .l = *l, .g = g[0], .extra = *extra, .nextra = (int)nextra};
    free(g);
    return CL_OK;
}

static int cmd_grade(int argc, char **argv)
{
    static const cl_cmd_option opts[] = {{"states", OPT_STATES}, {"seed", OPT_SEED}, {"timeout", OPT_TIMEOUT}, {NULL, 0}};
    grade_opts o = {.nrandom = 20, .seed = 1, .timeout = 10};
    double *m = NULL, *l = NULL, *extra = NULL;
    grade_ctx gc = {0};
    cl_cmd_system cs = {0};
    cl_cmd_args a;
    int ret = cl_cmd_scan(argc, argv, opts, on_option, &o, 2, &a);
    if (ret) return ret;
    if (a.help) { fputs(help_text, stdout); goto out; }
    const char *system = a.system, *form = a.form, *sofile = a.npositional ? a.positional[0] : NULL;
    int nrandom = o.nrandom;
    unsigned long seed = o.seed;
    double timeout = o.timeout;
    if (!a.bits_given) a.bits = 256; /* the reference's default precision */
    long bits = a.bits;
    ret = CL_EXIT_USAGE;
    if (a.npositional > 1) { cl_cli_error("only one shared object can be graded at a time", a.positional[1]); goto out; }
    if (!system) { cl_cli_error("--system is required", NULL); goto out; }
    if (!form) { cl_cli_error("--form is required", NULL); goto out; }
    if (!sofile) { cl_cli_error("the student's shared object is required", NULL); goto out; }
    if ((ret = cl_cmd_open_system(&a, &cs))) goto out;
    gc.sys = cs.sys;
    gc.inst = cs.inst;
    gc.form = cs.form;
    ret = CL_EXIT_USAGE;
    if (!gc.sys->random_state) { cl_cli_error("this system offers no random states to grade at", system); goto out; }
    /* The student sees the values the system uses, defaults included. */
    if (student_params(&cs.params, &gc.par, &m, &l, &extra)) { cl_cli_error("out of memory", NULL); goto out; }
    gc.dim = gc.sys->dim(gc.inst, gc.form);
    int neq = 0;
    if (gc.sys->equilibrium) {
        mpfr_ptr tmp = malloc(gc.dim * sizeof *tmp);
        for (size_t i = 0; i < gc.dim; i++) mpfr_init2(tmp + i, bits);
        const char *nm_;
        while (neq < 16 && gc.sys->equilibrium(gc.inst, neq, gc.form, tmp, &nm_) == CL_OK) neq++;
        for (size_t i = 0; i < gc.dim; i++) mpfr_clear(tmp + i);
        free(tmp);
    }
    gc.nstates = nrandom + neq;
    gc.x = malloc((size_t)gc.nstates * gc.dim * sizeof *gc.x);
    gc.label = malloc((size_t)gc.nstates * sizeof *gc.label);
    mpfr_ptr xm = malloc(gc.dim * sizeof *xm);
    for (size_t i = 0; i < gc.dim; i++) mpfr_init2(xm + i, bits);
    cl_rng rng;
    cl_rng_seed(&rng, seed);
    for (int k = 0; k < gc.nstates; k++) {
        const char *name = "";
        if (k < nrandom) {
            gc.sys->random_state(gc.inst, gc.form, xm, &rng);
            snprintf(gc.label[k], sizeof gc.label[k], "random, seed %lu #%d", seed, k + 1);
        } else {
            gc.sys->equilibrium(gc.inst, k - nrandom, gc.form, xm, &name);
            snprintf(gc.label[k], sizeof gc.label[k], "equilibrium: %s", name);
        }
        for (size_t i = 0; i < gc.dim; i++) gc.x[(size_t)k * gc.dim + i] = mpfr_get_d(xm + i, MPFR_RNDN);
    }
    for (size_t i = 0; i < gc.dim; i++) mpfr_clear(xm + i);
    free(xm);
    char symbol[128];
    snprintf(symbol, sizeof symbol, "cl_student_%s_%s", system, form);
    for (char *c = symbol; *c; c++) if (*c == '-') *c = '_';
    ret = grade(&gc, sofile, symbol, timeout, (cl_prec_t)bits);
out:
    cl_cmd_close_system(&cs);
    cl_cmd_args_free(&a);
    free(gc.x); free(gc.label); free(m); free(l); free(extra);
    mpfr_free_cache();
    return ret;
}

static const cl_command grade_command = {"grade", "grade a student's vector field (shared object) against the reference", cmd_grade};
CL_COMMAND_REGISTER(grade_command)

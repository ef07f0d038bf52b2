/*
 * The user's path against a hand-written peer: `chartless simulate --model
 * FILE` with its default integrator, beside Taylor's method coded by hand
 * in C and MPFR for the same system (peer_taylor.h, heyoka's method), on
 *   the pendulum x'' = -9.8 sin x from x = 1 to t = 10, 256 bits (tol 1e-76)
 *   and 1024 bits (tol 1e-307), the model `manifold x : R1, lagrangian
 *   1/2*x'^2 + 9.8*cos(x)`;
 *   the double spherical pendulum models/chain2.model, 1024 bits, to t = 2;
 *   the heavy top models/heavy-top.model, 256 bits, to t = 10.
 * Whole process: the command and the peer (this program again, --peer N)
 * are started in turn, A B A B, each run's CPU time (user + system) the
 * kernel's account of the finished child; the ratio peer/chartless is the
 * median of the pairs' ratios. In process: the peer and the library's
 * Taylor integrator on the model's graph (cl_model_taylor_run(), what
 * `simulate --integrator taylor` runs), one run each. The errors,
 * max |x - x*| / (1 + |x*|) at the end, are against the peer at 64 more
 * bits and 2^-64 times the tolerance.
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include "chartless.h"
#include "model_taylor.h"
#include "bench.h"
#include "peer_taylor.h"

static const char *help =
    "usage: bench_simulate [--quick] [--peer N]\n"
    "\n"
    "chartless simulate --model FILE (its default integrator) against a Taylor integrator\n"
    "coded by hand for the same system in C and MPFR (heyoka's method): the pendulum\n"
    "x'' = -9.8 sin x from x = 1 to t = 10 at 256 bits (tol 1e-76) and 1024 bits (tol\n"
    "1e-307), the double spherical pendulum (models/chain2.model) at 1024 bits to t = 2,\n"
    "the heavy top (models/heavy-top.model) at 256 bits to t = 10. Whole process, CPU\n"
    "seconds of each run, the two started in turn (A B A B, three pairs), the ratio\n"
    "peer/chartless the median of the pairs'; in process, the peer and the library's\n"
    "Taylor integrator on the model's graph; the errors at the end against the peer at\n"
    "64 more bits. The command is $CHARTLESS (default build/chartless), the models in\n"
    "$CHARTLESS_MODELS (default models).\n"
    "\n"
    "options:\n"
    "  --quick     the 256-bit cases, one pair each\n"
    "  --peer N    run the peer alone on case N (0 to 3) and print its end state (the\n"
    "              process the whole-process timing starts)\n"
    "  -h, --help  this text\n";

typedef struct bench_case {
    const char *name;
    const peer_sys *sys;
    const char *model; /* in $CHARTLESS_MODELS; NULL: the pendulum's text below */
    long bits;
    const char *tol, *t1, *state;
} bench_case;

#define TOP_STATE "0.36 0.48 -0.8  -0.8 0.6 0  0.48 0.64 0.6  0.3 -0.5 1.1"
static const bench_case CASES[] = {
    {"pendulum, 256 bits, t = 10", &PEER_PEND, NULL, 256, "1e-76", "10", "1 0"},
    {"pendulum, 1024 bits, t = 10", &PEER_PEND, NULL, 1024, "1e-307", "10", "1 0"},
    {"double spherical pendulum, 1024 bits, t = 2", &PEER_CHAIN2, "chain2.model", 1024, "1e-307", "2",
     "0 0 -1  0.6 0 -0.8  1 0 0  0 2 0"},
    {"heavy top, 256 bits, t = 10", &PEER_TOP, "heavy-top.model", 256, "1e-76", "10", TOP_STATE},
};
enum { NCASES = sizeof CASES / sizeof CASES[0] };
static const char PEND_MODEL[] = "manifold x : R1\nlagrangian 1/2*x'^2 + 9.8*cos(x)\n";

static char tmpdir[64], self[4096];

static void die(const char *what)
{
    fprintf(stderr, "bench_simulate: %s\n", what);
    exit(1);
}

static int order_of(const bench_case *c, double shift)
{
    return cl_taylor_order_for_tol(log2(strtod(c->tol, NULL)) + shift);
}

/* The case's initial state into x (at x's precision). */
static void read_state(const bench_case *c, mpfr_ptr x)
{
    const char *s = c->state;
    char *end;
    for (int i = 0; i < c->sys->n; i++, s = end) {
        if (mpfr_strtofr(x + i, s, &end, 10, MPFR_RNDN), end == s) die("a bad initial state");
    }
}

/* The peer on case c at prec bits, the order for tol 2^shift times the case's; x: the end state. */
static long peer_case(const bench_case *c, mpfr_prec_t prec, double shift, mpfr_ptr x)
{
    peer P;
    mpfr_t t1;
    mpfr_init2(t1, prec);
    mpfr_set_str(t1, c->t1, 10, MPFR_RNDN);
    read_state(c, x);
    peer_init(&P, c->sys, prec, order_of(c, shift));
    long steps = peer_run(&P, x, t1);
    peer_clear(&P);
    mpfr_clear(t1);
    return steps;
}

static const char *model_path(const bench_case *c, char *buf, size_t len)
{
    const char *dir = getenv("CHARTLESS_MODELS");
    if (c->model) snprintf(buf, len, "%s/%s", dir ? dir : "models", c->model);
    else snprintf(buf, len, "%s/pend.model", tmpdir);
    return buf;
}

/* max_i |x_i - r_i| / (1 + |r_i|). */
static double rel_error(mpfr_srcptr x, mpfr_srcptr r, int n)
{
    mpfr_t d, s;
    mpfr_inits2(64, d, s, (mpfr_ptr)0);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        mpfr_sub(d, x + i, r + i, MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(s, r + i, MPFR_RNDN);
        mpfr_add_si(s, s, 1, MPFR_RNDN);
        mpfr_div(d, d, s, MPFR_RNDN);
        worst = fmax(worst, mpfr_get_d(d, MPFR_RNDN));
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
    return worst;
}

/* Start argv with stdin from \p in and stdout into \p out; its CPU seconds, or -1 when it failed. */
static double run_process(char *const *argv, const char *in, const char *out)
{
    pid_t pid = fork();
    if (pid < 0) die("fork failed");
    if (pid == 0) {
        int fi = open(in, O_RDONLY), fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open("/dev/null", O_WRONLY);
        if (fi < 0 || fo < 0 || fe < 0) _exit(127);
        dup2(fi, 0), dup2(fo, 1), dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) return -1;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

/* The state of the last line of a CSV or of the peer's output (skip fields before it). */
static void read_last_state(const char *path, int skip, mpfr_ptr x, int n)
{
    FILE *f = fopen(path, "r");
    static char line[1 << 16], last[1 << 16];
    last[0] = 0;
    while (f && fgets(line, sizeof line, f))
        if (line[0] != '#' && line[0] != '\n') strcpy(last, line);
    if (f) fclose(f);
    char *s = last, *end;
    for (int k = 0; k < skip; k++)
        if ((s = strchr(s, ',')) != NULL) s++;
        else die("the output has too few columns");
    for (int i = 0; i < n; i++, s = end + (*end == ',')) {
        if (mpfr_strtofr(x + i, s, &end, 10, MPFR_RNDN), end == s) die("the output has no end state");
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { MAX_PAIRS = 9 };

static void bench_case_run(int ci, int pairs)
{
    const bench_case *c = &CASES[ci];
    int n = c->sys->n;
    mpfr_prec_t p = (mpfr_prec_t)c->bits;
    mpfr_ptr ref = cl_rvec_new_mp((size_t)n, p + 64), x = cl_rvec_new_mp((size_t)n, p);
    peer_case(c, p + 64, -64, ref);
    char model[4200], bits[32], state[80], out_a[80], out_b[80], idx[16];
    model_path(c, model, sizeof model);
    snprintf(bits, sizeof bits, "%ld", c->bits);
    snprintf(idx, sizeof idx, "%d", ci);
    snprintf(state, sizeof state, "%s/state", tmpdir);
    snprintf(out_a, sizeof out_a, "%s/peer.out", tmpdir);
    snprintf(out_b, sizeof out_b, "%s/chartless.csv", tmpdir);
    FILE *f = fopen(state, "w");
    if (!f || fprintf(f, "%s\n", c->state) < 0 || fclose(f)) die("cannot write the state file");
    const char *cl = getenv("CHARTLESS");
    char *argv_a[] = {self, "--peer", idx, NULL};
    char *argv_b[] = {(char *)(cl ? cl : "build/chartless"), "simulate", "--model", model, "--bits", bits, "--tol",
                      (char *)c->tol, "--t", (char *)c->t1, "--every", "1000000000", NULL};
    double ta[MAX_PAIRS], tb[MAX_PAIRS], ratio[MAX_PAIRS];
    for (int k = 0; k < pairs; k++) {
        ta[k] = run_process(argv_a, state, out_a);
        tb[k] = run_process(argv_b, state, out_b);
        if (ta[k] < 0 || tb[k] < 0) die(ta[k] < 0 ? "the peer failed" : "chartless simulate failed");
        ratio[k] = ta[k] / tb[k];
    }
    read_last_state(out_b, 1, x, n);
    double err_cl = rel_error(x, ref, n);
    read_last_state(out_a, 0, x, n);
    double err_peer = rel_error(x, ref, n);
    /* in process: the peer, and the library's Taylor integrator on the model's graph */
    double t0 = bench_cpu_seconds();
    long steps = peer_case(c, p, 0, x);
    double tp = bench_cpu_seconds() - t0;
    cl_model *m = NULL;
    cl_model_eom *q = NULL;
    cl_sys_error e;
    long csteps = -1;
    if (cl_model_load(&m, model, &e) || cl_model_eom_new(&q, m, &e)) die(e.what);
    mpfr_t t, t1;
    mpfr_inits2(p, t, t1, (mpfr_ptr)0);
    mpfr_set_zero(t, 1);
    mpfr_set_str(t1, c->t1, 10, MPFR_RNDN);
    read_state(c, x);
    t0 = bench_cpu_seconds();
    int st = cl_model_taylor_run_mp(m, q->form, q->dim, 0, order_of(c, 0), t, x, t1, NULL, NULL, &csteps);
    double tc = bench_cpu_seconds() - t0;
    if (st) die("cl_model_taylor_run failed");
    double err_in = rel_error(x, ref, n);
    printf("%s, tol %s, order %d:\n", c->name, c->tol, order_of(c, 0));
    double lo = ratio[0], hi = ratio[0];
    for (int k = 1; k < pairs; k++) lo = fmin(lo, ratio[k]), hi = fmax(hi, ratio[k]);
    printf("  whole process (%d pairs, median CPU s): peer %.3f, chartless simulate --model %.3f; "
           "peer/chartless %.2f (pairs %.2f to %.2f)\n", pairs, median(ta, pairs), median(tb, pairs),
           median(ratio, pairs), lo, hi);
    printf("  in process (CPU s): peer %.3f (%ld steps), the model's graph Taylor %.3f (%ld steps); peer/graph %.2f\n",
           tp, steps, tc, csteps, tp / tc);
    printf("  error at the end: peer %.2e, chartless simulate %.2e, graph Taylor %.2e (tol %s)\n", err_peer, err_cl,
           err_in, c->tol);
    fflush(stdout);
    mpfr_clears(t, t1, (mpfr_ptr)0);
    cl_model_eom_free(q);
    cl_model_free(m);
    cl_rvec_free_mp(ref);
    cl_rvec_free_mp(x);
}

/* --peer N: the peer once on case N, its end state on stdout. */
static int peer_alone(const char *arg)
{
    char *end;
    long ci = strtol(arg, &end, 10);
    if (*end || ci < 0 || ci >= NCASES) {
        fprintf(stderr, "error: --peer takes a case from 0 to %d (%s)\n", NCASES - 1, arg);
        return 2;
    }
    const bench_case *c = &CASES[ci];
    mpfr_ptr x = cl_rvec_new_mp((size_t)c->sys->n, (mpfr_prec_t)c->bits);
    peer_case(c, (mpfr_prec_t)c->bits, 0, x);
    for (int i = 0; i < c->sys->n; i++) mpfr_printf("%s%.*Re", i ? "," : "", (int)(c->bits * 0.30103) + 2, x + i);
    printf("\n");
    cl_rvec_free_mp(x);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--peer")) return peer_alone(argv[2]);
    static const char *const options[] = {"--quick", NULL};
    int quick = bench_args(argc, argv, help, options) == 0;
    if (!realpath("/proc/self/exe", self)) die("cannot find this program");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/bench_simulate_XXXXXX");
    if (!mkdtemp(tmpdir)) die("cannot make a temporary folder");
    char path[128];
    snprintf(path, sizeof path, "%s/pend.model", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(PEND_MODEL, f) < 0 || fclose(f)) die("cannot write the model file");
    for (int ci = 0; ci < NCASES; ci++)
        if (!quick || CASES[ci].bits <= 256) bench_case_run(ci, quick ? 1 : 3);
    static const char *const files[] = {"pend.model", "state", "peer.out", "chartless.csv"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, files[k]);
        unlink(path);
    }
    return rmdir(tmpdir) ? 1 : 0;
}

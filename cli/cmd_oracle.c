/**
 * \file cmd_oracle.c
 * \brief `chartless oracle`: every registered check on the precision ladder.
 *
 * The 53-bit rung runs the double instantiation of a check, every other
 * rung its MPFR instantiation at that precision. Checks can run in parallel
 * worker processes (-j N), and each check runs in a process of its own forked
 * by its worker; results come back through pipes, so a crash in one check is
 * reported as an error of that check ("crashed") and nothing else is lost.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "check.h"
#include "json.h"
#include "model.h"

#define MAX_RUNGS 16
/* Status of a rung whose check's process died before reporting it. */
#define STATUS_DIED (-1000)

enum format { FMT_TEXT, FMT_JSON, FMT_TAP };

/* One check's results over the ladder. */
typedef struct outcome {
    double log2_err[MAX_RUNGS];
    int status[MAX_RUNGS];
    char note[MAX_RUNGS][200];
    double seconds, cpu_seconds;
    int reported; /* rungs whose record arrived */
    enum cl_verdict verdict;
} outcome;

/* Record sent from a worker to the parent. */
typedef struct record {
    int check, rung, status;
    double log2_err, seconds, cpu_seconds;
    char note[200];
} record;

static const char *help_text =
    "usage: chartless oracle [OPTIONS]\n"
    "\n"
    "Run the registered cross-checks on the precision ladder and judge each one:\n"
    "  rounding  within tolerance at every rung, shrinking like 2^-p\n"
    "  pass      within tolerance at every rung (exact agreement)\n"
    "  mismatch  above tolerance somewhere: the two sides are not the same dynamics\n"
    "The tolerance at p bits is cond*2^(1-p), cond being the check's stated condition factor.\n"
    "\n"
    "options:\n"
    "  --bits LIST        precisions in bits, comma-separated (default 53,113,256,1024;\n"
    "                     53 runs the double instantiation, others MPFR)\n"
    "  --check GLOB       only checks whose name matches a glob (comma-separated list)\n"
    "  --chapter PREFIX   only checks of chapters starting with PREFIX (a paper's key,\n"
    "                     or its key and a section)\n"
    "  --quick            leave out the checks marked slow\n"
    "  --model FILE       instead of the registered checks, the rows of a model file:\n"
    "                     MODEL.forms, .legendre, .invariants, .conserve, .el, .simplify;\n"
    "                     .eq.NAME and .ec.NAME per declared equilibrium;\n"
    "                     .constraints and .multipliers with constraints\n"
    "                     (--list shows a model's rows; docs/models.md)\n"
    "  --param NAME=VALUE with --model: a parameter instead of its default (repeatable)\n"
    "  --format FMT       text (default), json or tap\n"
    "  -j, --jobs N       run checks in N parallel processes (default 1)\n"
    "  -v, --verbose      also print what each check compares and why its tolerance\n"
    "  --list             list the selected checks and exit\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 every selected check passed, 1 a check failed, 2 bad input (also a check whose verdict is\n"
    "undefined: it could draw no state inside the domain of the formula, or L is degenerate wherever it tried)\n";

static int parse_bits_list(const char *s, long *bits, int *n)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return cl_cli_error("--bits list too long", s);
    strcpy(buf, s);
    *n = 0;
    if (strstr(buf, ",,") || buf[0] == ',' || (buf[0] && buf[strlen(buf) - 1] == ','))
        return cl_cli_error("--bits has an empty entry", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (*n >= MAX_RUNGS) return cl_cli_error("too many precisions (at most 16)", s);
        if (cl_cli_parse_bits(tok, &bits[*n])) return CL_EXIT_USAGE;
        if (*n && bits[*n] <= bits[*n - 1])
            return cl_cli_error("--bits must be strictly increasing", s);
        (*n)++;
    }
    if (*n == 0) return cl_cli_error("--bits needs at least one precision", s);
    return 0;
}

static int name_matches(const char *name, const char *globs)
{
    if (!globs) return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", globs);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (fnmatch(tok, name, 0) == 0) return 1;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of this process: a row's own work, whatever else shares the cores. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_one(const cl_check *c, long bits, record *r)
{
    cl_check_result res;
    double t0 = now(), c0 = cpu_now();
    r->status = cl_check_run(c, bits, &res);
    r->seconds = now() - t0;
    r->cpu_seconds = cpu_now() - c0;
    r->log2_err = res.log2_err;
    snprintf(r->note, sizeof r->note, "%s", res.note);
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *q = p;
    while (n) {
        ssize_t w = write(fd, q, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        q += w;
        n -= (size_t)w;
    }
    return 0;
}

/* End a worker or check process: release its copies of the parent's
   selection and results first, so that a leak checker sees a clean exit. */
static void __attribute__((noreturn)) child_exit(int status, const cl_check **sel, outcome *out)
{
    free((void *)sel);
    free(out);
    mpfr_free_cache();
    _exit(status);
}

/* Worker: take check indices from `cmd` until it closes or sends −1; run each
   in a process of its own, so that a crash loses only the rungs of that check
   that had not reported, then send a record with rung −1: the check is over. */
static void __attribute__((noreturn)) worker(int cmd, int res, const cl_check **sel, outcome *out, const long *bits,
                                             int nb)
{
    int i;
    while (read(cmd, &i, sizeof i) == (ssize_t)sizeof i && i >= 0) {
        fflush(NULL);
        pid_t one = fork();
        /* the check dies with its worker (ended early when stdout fails) */
        if (one == 0) prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (one == 0 || one < 0) {
            for (int k = 0; k < nb; k++) {
                record r = {.check = i, .rung = k};
                run_one(sel[i], bits[k], &r);
                if (write_all(res, &r, sizeof r)) child_exit(1, sel, out);
            }
            if (one == 0) child_exit(0, sel, out);
        } else {
            while (waitpid(one, NULL, 0) < 0 && errno == EINTR) {}
        }
        record end = {.check = i, .rung = -1};
        if (write_all(res, &end, sizeof end)) child_exit(1, sel, out);
    }
    close(res);
    child_exit(0, sel, out);
}

/* Progress on a terminal (one line written over): rungs done, the row running longest, time left
   estimated from the mean time per rung so far. */
static void progress(int done, int total, double t0, const char *name)
{
    double el = now() - t0, left = done ? el * (total - done) / done : NAN;
    if (isfinite(left)) fprintf(stderr, "\r[%d/%d] %4.0f s left  %-50.50s", done, total, left, name);
    else fprintf(stderr, "\r[%d/%d] %-60.60s", done, total, name);
}

/* Progress into a file or a pipe: a line on stderr per row as it completes
   (the report on stdout keeps the registry's order, so its rows may wait). */
static void row_done(int nover, int nsel, const char *name, const outcome *o)
{
    fprintf(stderr, "oracle: %d/%d done: %s %s (%.1f s, %.1f s CPU)\n", nover, nsel, name, cl_verdict_name(o->verdict),
            o->seconds, o->cpu_seconds);
}

/* Before the run: the order the checks start in (the rows marked slow first,
   so that none of them is left running alone at the end; the rest in registry
   order), and every rung marked died until its record says otherwise. */
static void prepare_run(const cl_check **sel, int nsel, int nb, outcome *out, int *order)
{
    for (int pass = 1, m = 0; pass >= 0; pass--)
        for (int i = 0; i < nsel; i++)
            if (!!sel[i]->slow == pass) order[m++] = i;
    for (int i = 0; i < nsel; i++)
        for (int k = 0; k < nb; k++) {
            out[i].status[k] = STATUS_DIED;
            out[i].log2_err[k] = NAN;
            snprintf(out[i].note[k], sizeof out[i].note[k], "the check's process died (crash or signal) before this rung reported");
        }
}

/* A rung's record into its check's outcome. */
static void store_rung(outcome *o, const record *r)
{
    o->log2_err[r->rung] = r->log2_err;
    o->status[r->rung] = r->status;
    o->seconds += r->seconds;
    o->cpu_seconds += r->cpu_seconds;
    o->reported++;
    snprintf(o->note[r->rung], sizeof o->note[r->rung], "%s", r->note);
}

/* Run the selected checks in `jobs` worker processes, handing each worker the
   next check when it is free; fill out[] and call `emit` for row k as soon as
   rows 0..k are complete, so rows appear in order as they finish. When a row
   cannot be written to stdout every worker is ended at once and -1 returned. */
static int run_all(const cl_check **sel, int nsel, const long *bits, int nb, int jobs, outcome *out,
                    void (*emit)(int i, void *ctx), void *ctx)
{
    int tty = isatty(2), done = 0, total = nsel * nb, next = 0, emitted = 0, nover = 0;
    double t0 = now();
    char *over = calloc((size_t)nsel, 1);
    int *order = malloc((size_t)nsel * sizeof *order);
    if (!over || !order) { perror("malloc"); exit(CL_EXIT_FAIL); }
    prepare_run(sel, nsel, nb, out, order);
    if (jobs < 1) jobs = 1;
    if (jobs > nsel) jobs = nsel > 0 ? nsel : 1;
    int fds[64], cmds[64];
    pid_t pids[64];
    for (int w = 0; w < jobs; w++) {
        int p[2], c[2];
        if (pipe(p) || pipe(c)) { perror("pipe"); exit(CL_EXIT_FAIL); }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) { perror("fork"); exit(CL_EXIT_FAIL); }
        if (pid == 0) {
            close(p[0]);
            close(c[1]);
            for (int v = 0; v < w; v++) { close(fds[v]); close(cmds[v]); }
            free(over);
            free(order);
            worker(c[0], p[1], sel, out, bits, nb);
        }
        close(p[1]);
        close(c[0]);
        fds[w] = p[0];
        cmds[w] = c[1];
        pids[w] = pid;
        int i = next < nsel ? order[next++] : -1;
        if (write_all(cmds[w], &i, sizeof i)) { perror("write"); exit(CL_EXIT_FAIL); }
    }
    /* Collect records from all workers until every pipe is closed. */
    int open = jobs, broken = 0;
    while (open && !broken) {
        fd_set set;
        FD_ZERO(&set);
        int maxfd = -1;
        for (int w = 0; w < jobs; w++)
            if (fds[w] >= 0) { FD_SET(fds[w], &set); if (fds[w] > maxfd) maxfd = fds[w]; }
        if (select(maxfd + 1, &set, NULL, NULL, NULL) < 0) {
            if (errno == EINTR) continue;
            perror("select");
            break;
        }
        for (int w = 0; w < jobs; w++) {
            if (fds[w] < 0 || !FD_ISSET(fds[w], &set)) continue;
            record r;
            size_t got = 0;
            ssize_t n;
            while (got < sizeof r && (n = read(fds[w], (char *)&r + got, sizeof r - got)) > 0) got += (size_t)n;
            if (got < sizeof r) { close(fds[w]); fds[w] = -1; open--; continue; }
            outcome *o = &out[r.check];
            if (r.rung < 0) {
                /* the check is over (reported or died): its verdict, the worker's next check */
                o->verdict = cl_check_verdict(sel[r.check], nb, bits, o->log2_err, o->status);
                over[r.check] = 1;
                if (!tty) row_done(++nover, nsel, sel[r.check]->name, o);
                done += nb - o->reported;
                int i = next < nsel ? order[next++] : -1;
                if (write_all(cmds[w], &i, sizeof i)) { perror("write"); exit(CL_EXIT_FAIL); }
                if (i < 0) { close(cmds[w]); cmds[w] = -1; }
                if (tty) fprintf(stderr, "\r%*s\r", 80, "");
                for (; emitted < nsel && over[emitted]; emitted++) emit(emitted, ctx);
                if (fflush(stdout) || ferror(stdout)) {
                    for (int v = 0; v < jobs; v++) kill(pids[v], SIGKILL);
                    broken = 1;
                    break;
                }
            } else {
                store_rung(o, &r);
                done++;
            }
            if (tty && emitted < nsel) progress(done, total, t0, sel[r.check]->name);
        }
    }
    for (int w = 0; w < jobs; w++) {
        if (cmds[w] >= 0) close(cmds[w]);
        waitpid(pids[w], NULL, 0);
    }
    if (tty) fprintf(stderr, "\r%*s\r", 80, "");
    for (int i = emitted; i < nsel && !broken; i++) {
        /* a worker that died leaves its check without verdict */
        out[i].verdict = cl_check_verdict(sel[i], nb, bits, out[i].log2_err, out[i].status);
        emit(i, ctx);
    }
    for (int w = 0; broken && w < jobs; w++)
        if (fds[w] >= 0) close(fds[w]);
    free(over);
    free(order);
    return broken ? -1 : 0;
}

static const char *status_text(int status)
{
    return status == STATUS_DIED ? "crashed" : cl_strerror(status);
}


/* Decimal digits of agreement, −log10 of the discrepancy. */
static void fmt_digits(char *buf, size_t n, double log2_err, int status)
{
    if (status) snprintf(buf, n, "error");
    else if (log2_err == -INFINITY) snprintf(buf, n, "exact");
    else if (isnan(log2_err)) snprintf(buf, n, "nan");
    else snprintf(buf, n, "%.1f", -log2_err * 0.30102999566398120);
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.6g", x);
    else fputs("null", f);
}

/* What the printers need: the selection, the ladder, the results, the format. */
typedef struct report {
    const cl_check **sel;
    int nsel, nb, verbose, wn, wt, passed, failed, undefined;
    const long *bits;
    outcome *out;
    enum format fmt;
} report;

static void text_header(report *rp)
{
    printf("Digits agreed (-log10 of the largest discrepancy) at each precision in bits;\n"
           "'!' marks a rung above its tolerance cond*2^(1-p).\n\n");
    rp->wn = 5;
    rp->wt = 4;
    for (int i = 0; i < rp->nsel; i++) {
        int a = (int)strlen(rp->sel[i]->name), b = rp->sel[i]->tags ? (int)strlen(rp->sel[i]->tags) : 0;
        if (a > rp->wn) rp->wn = a;
        if (b > rp->wt) rp->wt = b;
    }
    if (rp->wt > 48) rp->wt = 48;
    printf("%-*s %-*s", rp->wn, "check", rp->wt, "tags");
    for (int k = 0; k < rp->nb; k++) printf(" %7ld", rp->bits[k]);
    printf("  %-10s %s\n", "cond", "verdict");
}

static void text_row(const report *rp, int i)
{
    const cl_check *c = rp->sel[i];
    const outcome *o = &rp->out[i];
    const long *bits = rp->bits;
    int nb = rp->nb;
    printf("%-*s %-*.*s", rp->wn, c->name, rp->wt, rp->wt, c->tags ? c->tags : "");
    for (int k = 0; k < nb; k++) {
        char d[32];
        fmt_digits(d, sizeof d, o->log2_err[k], o->status[k]);
        int bad = !o->status[k] && o->log2_err[k] > cl_check_log2_tol(c, bits[k]);
        printf(" %6s%c", d, bad ? '!' : ' ');
    }
    if (c->kind == CL_CHECK_EXACT) printf("  %-10s", "yes/no");
    else printf("  %-10.3g", c->cond);
    printf(" %s\n", cl_verdict_name(o->verdict));
    if (rp->verbose || o->verdict >= CL_V_MISMATCH) {
        printf("    %s  [%s]\n", c->what ? c->what : "", c->chapter ? c->chapter : "");
        if (c->kind != CL_CHECK_EXACT) printf("    tolerance %.3g*2^(1-p): %s\n", c->cond, c->why ? c->why : "");
        for (int k = 0; k < nb; k++) {
            if (o->status[k])
                printf("    %ld bits: %s%s%s\n", bits[k], status_text(o->status[k]), o->note[k][0] ? ": " : "",
                       o->note[k]);
            else if (o->note[k][0] && (rp->verbose || o->log2_err[k] > cl_check_log2_tol(c, bits[k])))
                printf("    %ld bits: discrepancy 2^%.1f, tolerance 2^%.1f; %s\n", bits[k], o->log2_err[k],
                       cl_check_log2_tol(c, bits[k]), o->note[k]);
        }
        if (o->verdict == CL_V_MISMATCH && nb > 1 && !(isfinite(o->log2_err[0]) && isfinite(o->log2_err[nb - 1]))) {
            printf("    the discrepancy is not finite at %ld or %ld bits: no trend with precision to show\n", bits[0],
                   bits[nb - 1]);
        } else if (o->verdict == CL_V_MISMATCH && nb > 1) {
            double shrink = o->log2_err[0] - o->log2_err[nb - 1];
            double expect = (double)(bits[nb - 1] - bits[0]);
            printf("    the discrepancy %s with precision (2^%.1f smaller from %ld to %ld bits; rounding would give 2^%.0f)\n",
                   shrink > 0.5 * expect ? "shrinks" : "does not shrink", shrink, bits[0], bits[nb - 1], expect);
        }
    }
}

static void json_header(const report *rp)
{
    printf("{\n  \"schema\": \"chartless-oracle/1\",\n  \"bits\": [");
    for (int k = 0; k < rp->nb; k++) printf("%s%ld", k ? ", " : "", rp->bits[k]);
    printf("],\n  \"checks\": [\n");
}

static void json_row(const report *rp, int i)
{
    const cl_check *c = rp->sel[i];
    const outcome *o = &rp->out[i];
    printf("    {\"name\": "); cl_json_string(stdout, c->name);
    printf(", \"chapter\": "); cl_json_string(stdout, c->chapter);
    printf(", \"tags\": "); cl_json_string(stdout, c->tags);
    printf(", \"what\": "); cl_json_string(stdout, c->what);
    printf(", \"kind\": \"%s\"", c->kind == CL_CHECK_EXACT ? "exact" : "rounding");
    printf(", \"cond\": "); json_number(stdout, c->cond);
    printf(", \"why\": "); cl_json_string(stdout, c->why);
    printf(", \"seconds\": %.3f, \"cpu_seconds\": %.3f", o->seconds, o->cpu_seconds);
    printf(",\n     \"rungs\": [");
    for (int k = 0; k < rp->nb; k++) {
        printf("%s{\"bits\": %ld, \"log2_err\": ", k ? ", " : "", rp->bits[k]);
        json_number(stdout, o->log2_err[k]);
        printf(", \"digits\": ");
        json_number(stdout, -o->log2_err[k] * 0.30102999566398120);
        printf(", \"exact\": %s", o->log2_err[k] == -INFINITY ? "true" : "false");
        printf(", \"log2_tol\": ");
        json_number(stdout, cl_check_log2_tol(c, rp->bits[k]));
        printf(", \"status\": ");
        cl_json_string(stdout, o->status[k] ? status_text(o->status[k]) : "ok");
        printf(", \"note\": ");
        cl_json_string(stdout, o->note[k]);
        printf("}");
    }
    printf("],\n     \"verdict\": \"%s\"}%s\n", cl_verdict_name(o->verdict), i + 1 < rp->nsel ? "," : "");
}

static void tap_row(const report *rp, int i)
{
    const cl_check *c = rp->sel[i];
    const outcome *o = &rp->out[i];
    int good = o->verdict <= CL_V_PASS;
    printf("%sok %d - %s %s (%s)\n", good ? "" : "not ", i + 1, c->name, c->tags ? c->tags : "",
           cl_verdict_name(o->verdict));
    for (int k = 0; k < rp->nb; k++) {
        char d[32];
        fmt_digits(d, sizeof d, o->log2_err[k], o->status[k]);
        printf("# %s %ld bits: %s digits (log2 err %.1f, log2 tol %.1f)\n", c->name, rp->bits[k], d, o->log2_err[k],
               cl_check_log2_tol(c, rp->bits[k]));
    }
}

/* Print row i of the report, now that it is complete. */
static void emit_row(int i, void *ctx)
{
    report *rp = ctx;
    enum cl_verdict v = rp->out[i].verdict;
    v <= CL_V_PASS ? rp->passed++ : v == CL_V_UNDEFINED ? rp->undefined++ : rp->failed++;
    if (rp->fmt == FMT_TEXT) text_row(rp, i);
    else if (rp->fmt == FMT_JSON) json_row(rp, i);
    else tap_row(rp, i);
}

/* --list: the selected checks, one to a line; 0, or exit status 2 when stdout fails. */
static int list_checks(const cl_check **sel, int nsel)
{
    for (int i = 0; i < nsel && !ferror(stdout); i++)
        printf("%-36s %-12s %-16s %s%s\n", sel[i]->name, sel[i]->chapter ? sel[i]->chapter : "",
               sel[i]->tags ? sel[i]->tags : "", sel[i]->what ? sel[i]->what : "", sel[i]->slow ? " (slow)" : "");
    return ferror(stdout) ? cl_cli_stdout_failed(errno) : CL_EXIT_OK; /* the failed write's reason */
}

/* The report: its header, the rows as they complete, the count. A failed write
   to stdout ends it at once with exit status 2; main() reports it when it closes stdout. */
static int run_report(report *rp, int jobs)
{
    if (rp->fmt == FMT_TEXT) text_header(rp);
    else if (rp->fmt == FMT_JSON) json_header(rp);
    else printf("1..%d\n", rp->nsel);
    if (fflush(stdout) || ferror(stdout) || run_all(rp->sel, rp->nsel, rp->bits, rp->nb, jobs, rp->out, emit_row, rp))
        return CL_EXIT_USAGE;
    /* a row without an answer (undefined) is bad input: the formula has no state to be judged at */
    if (rp->fmt == FMT_TEXT && rp->undefined) printf("\n%d passed, %d failed, %d undefined\n", rp->passed, rp->failed, rp->undefined);
    else if (rp->fmt == FMT_TEXT) printf("\n%d passed, %d failed\n", rp->passed, rp->failed);
    else if (rp->fmt == FMT_JSON)
        printf("  ],\n  \"passed\": %d,\n  \"failed\": %d,\n  \"undefined\": %d\n}\n", rp->passed, rp->failed, rp->undefined);
    return rp->undefined ? CL_EXIT_USAGE : rp->failed ? CL_EXIT_FAIL : CL_EXIT_OK;
}

/* An option getopt_long did not take, the message of every command. */
static int unknown_option(const struct option *opts, const char *given)
{
    const char *names[32];
    size_t n = 0;
    for (; opts[n].name && n < 32; n++) names[n] = opts[n].name;
    return cl_cli_unknown("option", given, names, n, "--", "chartless oracle --help lists them");
}

static int cmd_oracle(int argc, char **argv)
{
    long bits[MAX_RUNGS] = {53, 113, 256, 1024};
    int nb = 4, jobs = 1, quick = 0, verbose = 0, list = 0;
    const char *globs = NULL, *chapter = NULL, *model = NULL;
    const char *set[64];
    int nset = 0;
    enum format fmt = FMT_TEXT;
    static const struct option opts[] = {
        {"bits", required_argument, 0, 'b'}, {"check", required_argument, 0, 'c'},
        {"chapter", required_argument, 0, 'C'}, {"quick", no_argument, 0, 'q'},
        {"format", required_argument, 0, 'f'}, {"jobs", required_argument, 0, 'j'},
        {"verbose", no_argument, 0, 'v'}, {"list", no_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'}, {"model", required_argument, 0, 'm'},
        {"param", required_argument, 0, 'p'}, {0, 0, 0, 0}};
    int o;
    optind = 1;
    opterr = 0; /* bad options are reported below as error: <what> (<argument>) */
    for (;;) {
        int prev = optind;
        if ((o = getopt_long(argc, argv, ":j:vh", opts, NULL)) == -1) break;
        switch (o) {
        case 'b': if (parse_bits_list(optarg, bits, &nb)) return CL_EXIT_USAGE; break;
        case 'c':
            if (strlen(optarg) >= 512) return cl_cli_error("--check list too long", optarg);
            globs = optarg;
            break;
        case 'C': chapter = optarg; break;
        case 'm':
            if (model) return cl_cli_error("--model given twice", optarg);
            model = optarg;
            break;
        case 'p':
            if (nset >= 64) return cl_cli_error("too many --param (at most 64)", optarg);
            set[nset++] = optarg;
            break;
        case 'q': quick = 1; break;
        case 'f':
            if (!strcmp(optarg, "text")) fmt = FMT_TEXT;
            else if (!strcmp(optarg, "json")) fmt = FMT_JSON;
            else if (!strcmp(optarg, "tap")) fmt = FMT_TAP;
            else return cl_cli_error("--format must be text, json or tap", optarg);
            break;
        case 'j': {
            char *end;
            long j = strtol(optarg, &end, 10);
            if (*end || j < 1 || j > 64) return cl_cli_error("--jobs must be a whole number from 1 to 64", optarg);
            jobs = (int)j;
            break;
        }
        case 'v': verbose = 1; break;
        case 'l': list = 1; break;
        case 'h': fputs(help_text, stdout); return CL_EXIT_OK;
        case ':': return cl_cli_error("option needs a value", argv[prev]);
        default: return unknown_option(opts, argv[prev]);
        }
    }
    if (optind < argc) return cl_cli_error("unexpected argument", argv[optind]);
    if (nset && !model) return cl_cli_error("--param needs --model", set[0]);

    /* the rows of a model file, or the registered checks */
    const cl_check *mrows = NULL;
    size_t n;
    if (model) {
        cl_sys_error e;
        cl_model_oracle_set_quick(quick);
        if (cl_model_oracle_rows(&mrows, &n, model, nset, set, &e)) {
            cl_model_oracle_rows_free();
            return cl_cli_error(e.what, e.arg[0] ? e.arg : model);
        }
    } else n = cl_check_count();
    const cl_check **sel = malloc((n ? n : 1) * sizeof *sel);
    outcome *out = calloc(n ? n : 1, sizeof *out);
    if (!sel || !out) return cl_cli_error("out of memory", NULL);
    int nsel = 0;
    for (size_t i = 0; i < n; i++) {
        const cl_check *c = mrows ? mrows + i : cl_check_get(i);
        if (quick && c->slow) continue;
        if (!name_matches(c->name, globs)) continue;
        if (chapter && (!c->chapter || strncasecmp(c->chapter, chapter, strlen(chapter)))) continue;
        sel[nsel++] = c;
    }
    report rp = {.sel = sel, .nsel = nsel, .nb = nb, .verbose = verbose, .bits = bits, .out = out, .fmt = fmt};
    int st = list ? list_checks(sel, nsel)
             : !nsel ? cl_cli_error("no check matches the selection", globs ? globs : chapter)
                     : run_report(&rp, jobs);
    free(sel);
    free(out);
    cl_model_oracle_rows_free();
    return st;
}

static const cl_command oracle_command = {"oracle", "run the cross-checks on the precision ladder", cmd_oracle};
CL_COMMAND_REGISTER(oracle_command)

/**
 * \file cmd_grade.c
 * \brief `chartless grade`: compare a student's vector field with the reference.
 *
 * The student's shared object (see cl_student.h) is loaded and called only
 * in a sandboxed child process (sandbox.h): a crash, an endless loop, an
 * exit, a fork or an overrun ends only the child and is reported by name,
 * with the state the student's code was working on.
 *
 * With --model M --field F the field is a hand-derived one written in the
 * formula language (field.h), evaluated at the reference's precision in
 * this process and graded the same way: no compiler, no shared object.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "cl_student.h"
#include "cli.h"
#include "system.h"
#include "cmd_system.h"
#include "field.h"
#include "sandbox.h"

/* A discrepancy at or below this relative size is taken for rounding. */
#define GRADE_LOG2_TOL (-40.0)
/* The reference's least precision: above the states' 53 bits, with room below the tolerance. */
#define GRADE_MIN_BITS 64
/* Longest time limit accepted for the student's code, in seconds. */
#define MAX_TIMEOUT 86400.0

static const char *help_text =
    "usage: chartless grade --system NAME --form FORM [PARAMETERS] [OPTIONS] STUDENT.so\n"
    "       chartless grade --model M.model --field F.field [PARAMETERS] [OPTIONS]\n"
    "       chartless grade --model M.model --form FORM [PARAMETERS] [OPTIONS] STUDENT.so\n"
    "\n"
    "Load cl_student_<system>_<form> from STUDENT.so (see cl_student.h), evaluate it in a\n"
    "separate process at seeded random states and at the system's equilibria, and compare\n"
    "each component with the reference computed in MPFR; once at the given parameters, once\n"
    "at random unequal ones drawn from them (each scalar and per-body parameter scaled by a\n"
    "factor of its own in [1/2, 3/2)).\n"
    "\n"
    "A component is 'rounding' when\n"
    "|student - reference| <= 2^-40 max(1, max|reference|): double precision's 2^-53 with room\n"
    "for the growth of rounding errors in a straightforward evaluation; otherwise 'wrong'.\n"
    "\n"
    "options:\n"
    "  --system NAME     the system (chartless systems lists them); its parameters follow\n"
    "                    as --key value or --key=value, each at most once (chartless systems\n"
    "                    NAME lists them, its forms and its state layout)\n"
    "  --model FILE      a model file (docs/models.md) instead of --system; its parameters\n"
    "                    follow as --param name=value or --name value; a student's shared\n"
    "                    object then defines cl_student_<file name without .model>_<form>\n"
    "  --field FILE      with --model: a hand-derived vector field in the formula language\n"
    "                    (docs/own_derivation.md), evaluated at the reference's precision;\n"
    "                    its form is the one the file names\n"
    "  --form FORM       the form the student implemented\n"
    "  --states K        number of random states (default 20)\n"
    "  --seed S          seed of the random states (default 1)\n"
    "  --timeout SEC     time limit for the student's code, in seconds (default 10,\n"
    "                    at most 86400)\n"
    "  --bits B          precision of the reference, at least 64 (default 256)\n"
    "  -h, --help        this text\n"
    "\n"
    "The student's code runs in a separate process with at most 512 MiB more memory, CPU\n"
    "time and a deadline of --timeout, no files, no new processes or threads; its input\n"
    "is read-only and dx is followed by a guard page. What it prints is shown quoted.\n"
    "\n"
    "exit status: 0 every component agrees to rounding, 1 a component is wrong or the\n"
    "student's code crashed, timed out, exited, forked or overran dx, 2 bad input\n";

typedef struct grade_ctx {
    const cl_system *sys;
    void *inst;
    int form;
    size_t dim;
    int nstates;
    double *x;        /* nstates × dim, the states as the student sees them */
    char (*label)[48];
    cl_student_params par;
    const cl_field *field;   /* a field file instead of a shared object */
    const cl_model *model;   /* its model */
    mpfr_srcptr fpar;        /* the field's parameters, in the model's order */
} grade_ctx;

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
            snprintf(hint, len, "the difference is along q%d: a term along q%d missing or extra, such as a missing projection (I - q%d q%d^T)"
                     " or a missing centripetal term", j + 1, j + 1, j + 1, j + 1);
            return;
        }
    }
}

/* The student's output, quoted line by line (control bytes escaped) so that
   nothing it prints can pass for a line of the report. */
static void show_output(const cl_sandbox_result *sb)
{
    if (!sb->output_total) return;
    printf("the student's code printed %zu bytes%s:\n", sb->output_total,
           sb->output_total > sb->output_len ? " (the first shown)" : "");
    int lines = 0, bol = 1;
    for (size_t i = 0; i < sb->output_len && lines < 20; i++) {
        unsigned char c = (unsigned char)sb->output[i];
        if (bol) fputs("  | ", stdout);
        bol = c == '\n';
        if (bol) { putchar('\n'); lines++; }
        else if (c >= 32 && c < 127 && c != '\\') putchar(c);
        else printf("\\x%02x", c);
    }
    if (!bol) putchar('\n');
    if (lines >= 20 || sb->output_total > sb->output_len) printf("  | ...\n");
}

/* What ended the student's process, by name; the verdict's suffix (NULL when it ran to the end). */
static const char *report_sandbox(const grade_ctx *gc, const cl_sandbox_result *sb, double timeout, size_t dim)
{
    char where[96];
    int k = sb->state;
    if (k >= 0) snprintf(where, sizeof where, "at state %d (%s)", k + 1, gc->label[k]);
    else snprintf(where, sizeof where, "%s", sb->nresults ? "between states" : "while loading (in a constructor)");
    const char *ended = NULL;
    switch (sb->outcome) {
    case CL_SB_DONE: case CL_SB_LOADFAIL: break;
    case CL_SB_CRASH:
        printf("CRASH: the student's function was killed by signal %d (%s) %s\n", sb->signal, strsignal(sb->signal), where);
        ended = "crashed";
        break;
    case CL_SB_EXIT:
        printf("EXIT: the student's code ended its process (exit status %d) %s\n", sb->exit_status, where);
        ended = "exited";
        break;
    case CL_SB_TIMEOUT:
        if (sb->signal) printf("TIMEOUT: the student's code used up its CPU time (%s) %s\n", strsignal(sb->signal), where);
        else printf("TIMEOUT: the student's function did not return within %g s %s\n", timeout, where);
        ended = "timed out";
        break;
    case CL_SB_FORBIDDEN:
        printf("FORK: the student's code tried to start a process or thread, run a program or signal another process %s; "
               "the grader forbids it\n", where);
        ended = "forbidden system call";
        break;
    case CL_SB_OVERRUN:
        printf("OVERRUN: the student's function accessed dx[%ld], past the end of dx (%zu numbers) %s\n", sb->element, dim, where);
        ended = "overran dx";
        break;
    case CL_SB_READ_PAST:
        printf("OVERRUN: the student's function read x[%ld], past the end of the state (%zu numbers) %s\n", sb->element, dim, where);
        ended = "read past x";
        break;
    case CL_SB_WROTE_INPUT:
        printf("WRITE TO INPUT: the student's function wrote into x or the parameters, which are read-only, %s\n", where);
        ended = "wrote into its input";
        break;
    case CL_SB_CHANNEL:
        printf("CHANNEL: the student's code closed or wrote into the grader's result channel %s\n", where);
        ended = "broke the result channel";
        break;
    }
    if (sb->strays)
        printf("FORK: the student's code left %d process%s running; the grader ended %s\n", sb->strays,
               sb->strays == 1 ? "" : "es", sb->strays == 1 ? "it" : "them");
    if (k >= 0 && sb->outcome != CL_SB_DONE) {
        printf("  state:");
        for (size_t i = 0; i < dim; i++) printf(" %.17g", gc->x[(size_t)k * dim + i]);
        printf("\n");
    }
    show_output(sb);
    return ended ? ended : sb->strays ? "left processes running" : NULL;
}

/* The field file's values at the states, at the reference's precision and
   rounded to doubles as a student's would be; at a state where the field
   is not defined, rc[k] = 1 and (*why)[k] says which subexpression. 0, or
   CL_ENOMEM. */
static int field_values(const grade_ctx *gc, cl_prec_t bits, double *stu, int *rc, char ***why)
{
    size_t dim = gc->dim;
    cl_field_eval *fe = cl_field_eval_new(gc->field, bits);
    mpfr_ptr xm = cl_rvec_new_mp(2 * dim, bits);
    *why = calloc((size_t)gc->nstates, sizeof **why);
    if (!fe || !xm || !*why) {
        cl_field_eval_free(fe);
        cl_rvec_free_mp(xm);
        free(*why);
        *why = NULL;
        return CL_ENOMEM;
    }
    for (int k = 0; k < gc->nstates; k++) {
        char err[400];
        for (size_t i = 0; i < dim; i++) mpfr_set_d(xm + i, gc->x[(size_t)k * dim + i], MPFR_RNDN);
        rc[k] = cl_field_eval_run(fe, xm + dim, xm, gc->fpar, err, sizeof err) ? 1 : 0;
        if (rc[k]) (*why)[k] = strdup(err);
        for (size_t i = 0; i < dim; i++) stu[(size_t)k * dim + i] = rc[k] ? NAN : mpfr_get_d(xm + dim + i, MPFR_RNDN);
    }
    cl_field_eval_free(fe);
    cl_rvec_free_mp(xm);
    return CL_OK;
}

/* Largest error at state k relative to max(1, max|reference|), as the report measures it. */
static double state_error(const double *s, const double *r, size_t dim)
{
    double scale = 1, e = 0;
    for (size_t i = 0; i < dim; i++) scale = fmax(scale, fabs(r[i]));
    for (size_t i = 0; i < dim; i++) e = fmax(e, fabs(s[i] - r[i]) / scale);
    return e;
}

/* For a wrong field file: the one sign ('+' for '-' or '-' for '+', outside
   comments) whose change makes every state agree, printed as a hint. */
static void field_sign_hint(const grade_ctx *gc, const double *stu, const double *ref, cl_prec_t bits)
{
    const cl_field *f = gc->field;
    size_t len = strlen(f->text), dim = gc->dim;
    char *text = malloc(len + 1);
    double *val = malloc((size_t)gc->nstates * dim * sizeof *val);
    int *rc = malloc((size_t)gc->nstates * sizeof *rc);
    if (!text || !val || !rc) { free(text); free(val); free(rc); return; }
    memcpy(text, f->text, len + 1);
    /* a change is tried first at one state where the field is wrong, then at all */
    int k0 = 0;
    while (k0 + 1 < gc->nstates && state_error(stu + (size_t)k0 * dim, ref + (size_t)k0 * dim, dim) <= exp2(GRADE_LOG2_TOL)) k0++;
    int comment = 0;
    for (size_t at = 0; at < len; at++) {
        char c = text[at];
        if (c == '#') comment = 1;
        if (c == '\n') comment = 0;
        if (comment || (c != '+' && c != '-')) continue;
        text[at] = c == '+' ? '-' : '+';
        cl_field *mf = NULL;
        cl_sys_error e = {"", ""};
        int agree = !cl_field_parse(&mf, gc->model, f->source, text, len, &e);
        text[at] = c;
        if (!agree) continue;
        for (int pass = 0; pass < 2 && agree; pass++) {
            grade_ctx mc = *gc;
            mc.field = mf;
            if (pass == 0) {
                mc.nstates = 1;
                mc.x = gc->x + (size_t)k0 * dim;
            }
            char **why = NULL;
            agree = !field_values(&mc, bits, val, rc, &why);
            const double *r = pass ? ref : ref + (size_t)k0 * dim;
            for (int k = 0; k < mc.nstates && agree; k++)
                agree = !rc[k] && state_error(val + (size_t)k * dim, r + (size_t)k * dim, dim) <= exp2(GRADE_LOG2_TOL);
            for (int k = 0; why && k < mc.nstates; k++) free(why[k]);
            free(why);
        }
        cl_field_free(mf);
        if (!agree) continue;
        char where[240];
        cl_field_where(f, (long)at, where, sizeof where);
        int line0 = (int)at, line1 = (int)at;
        while (line0 > 0 && f->text[line0 - 1] != '\n') line0--;
        while (f->text[line1] && f->text[line1] != '\n') line1++;
        printf("hint: a sign error at %s: with '%c' for '%c' there every component agrees at every state\n"
               "      %.*s\n      %*s^\n", where, c == '+' ? '-' : '+', c, line1 - line0, f->text + line0, (int)at - line0, "");
        break;
    }
    free(text); free(val); free(rc);
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

    cl_sandbox_result sb = {.outcome = CL_SB_DONE, .state = -1, .nresults = K};
    char **why = NULL; /* a field file: why it is not defined at a state */
    if (gc->field) {
        if (field_values(gc, bits, stu, rc, &why)) {
            free(ref); free(stu); free(rc);
            return cl_cli_error("out of memory", NULL);
        }
        printf("grading the field %s: model %s, form %s, %d states, reference at %ld bits\n",
               sofile, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
    } else {
        /* The student's code is loaded and run only in the sandbox. */
        int st = cl_sandbox_run(sofile, symbol, gc->x, dim, K, &gc->par, timeout, stu, rc, &sb);
        if (st || sb.outcome == CL_SB_LOADFAIL) {
            free(ref); free(stu); free(rc);
            if (st) return cl_cli_error("cannot start the student's process", cl_strerror(st));
            return cl_cli_error(sb.message, strstr(sb.message, "does not define") ? symbol : sofile);
        }
        printf("grading %s from %s: system %s, form %s, %d states, reference at %ld bits\n",
               symbol, sofile, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
    }
    int failed = sb.outcome != CL_SB_DONE || sb.strays > 0;
    const char *ended = report_sandbox(gc, &sb, timeout, dim);
    K = sb.nresults; /* grade what did come back */
    /* Per component: the worst relative discrepancy over the states. */
    double *worst = malloc(dim * sizeof *worst);
    int *worst_k = malloc(dim * sizeof *worst_k);
    for (size_t i = 0; i < dim; i++) { worst[i] = -INFINITY; worst_k[i] = 0; }
    for (int k = 0; k < K; k++) {
        if (rc[k] && why) {
            printf("state %d (%s): %s\n", k + 1, gc->label[k], why[k] ? why[k] : "the field is not defined at this state");
            failed = 1;
            continue;
        }
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
    int nevaluated = 0, nreturned = K;
    for (int k = 0; k < K; k++) nevaluated += rc[k] == 0;
    if (!nevaluated) K = 0; /* no component was compared */
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
        char hint[256], name[32];
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
        if (!(state_error(stu + (size_t)k * dim, ref + (size_t)k * dim, dim) <= exp2(GRADE_LOG2_TOL))) continue;
        nagree++;
        if (strlen(agree) < sizeof agree - 60)
            snprintf(agree + strlen(agree), sizeof agree - strlen(agree), "%s%d", nagree > 1 ? ", " : "", k + 1);
    }
    if (nwrong && gc->field) field_sign_hint(gc, stu, ref, bits);
    if (nwrong && nagree)
        printf("states where everything agrees: %d of %d (%s)%s\n", nagree, K, agree,
               nagree < K ? " -- the wrong term vanishes there" : "");
    if (nwrong) failed = 1;
    if (!nevaluated)
        printf("\nNO STATE EVALUATED: %s\n", why ? "the field is defined at none of the states"
                                           : nreturned ? "the student's function refused every state" : ended ? ended : "no result came back");
    else
        printf("\n%s: %d of %zu components wrong%s%s\n", failed ? "FAIL" : "PASS", nwrong, dim, ended ? ", " : "", ended ? ended : "");
    for (int k = 0; why && k < gc->nstates; k++) free(why[k]);
    free(why);
    free(worst); free(worst_k); free(ref); free(stu); free(rc);
    return failed ? CL_EXIT_FAIL : CL_EXIT_OK;
}

enum { OPT_STATES = 1, OPT_SEED, OPT_TIMEOUT };

typedef struct grade_opts {
    int nrandom;
    unsigned long seed;
    double timeout;
    const char *field;
} grade_opts;

static int on_option(int code, const char *v, void *ctx)
{
    grade_opts *o = ctx;
    char *end;
    errno = 0;
    if (code == OPT_STATES) {
        long ns;
        if (cl_parse_whole(v, 1, 100000, &ns)) return cl_cli_error("--states must be a whole number from 1 to 100000", v);
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

/* Every number of the parameters must reach the student unchanged in kind:
   finite, and not rounded to zero. 0, or exit status 2 (message printed). */
static int student_doubles(const cl_params *p)
{
    for (size_t k = 0; k < p->count; k++)
        for (size_t i = 0; i < p->v[k].len; i++) {
            double d = mpfr_get_d(p->v[k].x + i, MPFR_RNDN);
            if (isfinite(d) && (d != 0 || mpfr_zero_p(p->v[k].x + i))) continue;
            char arg[80];
            snprintf(arg, sizeof arg, "--%s", p->table[k].name);
            return cl_cli_error(isfinite(d) ? "a parameter rounds to zero as a double, the student's code would see 0"
                                            : "a parameter is not a finite double, the student's code would see infinity",
                                arg);
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

/* Grade at one instance: its random states and equilibria, the student
   given that instance's parameters. The report's exit status. */
static int grade_instance(const cl_system *sys, void *inst, int form, const cl_params *params, int nrandom,
                          unsigned long seed, long bits, const char *sofile, const char *symbol, double timeout,
                          const cl_model *model, const cl_field *field)
{
    grade_ctx gc = {.sys = sys, .inst = inst, .form = form, .field = field, .model = model};
    double *m = NULL, *l = NULL, *extra = NULL;
    if (!field && student_doubles(params)) return CL_EXIT_USAGE;
    mpfr_ptr fpar = NULL;
    if (field) {
        /* the field sees the parameters at the working precision, never through a double */
        if (!(fpar = cl_rvec_new_mp(field->nparam ? field->nparam : 1, (cl_prec_t)bits))) return cl_cli_error("out of memory", NULL);
        for (size_t k = 0; k < field->nparam; k++) mpfr_set(fpar + k, cl_params_x(params, model->pname[k]), MPFR_RNDN);
        gc.fpar = fpar;
    }
    /* The student sees the values the system uses, defaults included. */
    if (student_params(params, &gc.par, &m, &l, &extra)) {
        free(m); free(l); free(extra);
        return cl_cli_error("out of memory", NULL);
    }
    gc.dim = sys->dim(inst, form);
    mpfr_ptr xm = malloc(gc.dim * sizeof *xm);
    for (size_t i = 0; i < gc.dim; i++) mpfr_init2(xm + i, bits);
    int neq = 0;
    const char *name = "";
    while (sys->equilibrium && neq < 16 && sys->equilibrium(inst, neq, form, xm, &name) == CL_OK) neq++;
    gc.nstates = nrandom + neq;
    gc.x = malloc((size_t)gc.nstates * gc.dim * sizeof *gc.x);
    gc.label = malloc((size_t)gc.nstates * sizeof *gc.label);
    cl_rng rng;
    cl_rng_seed(&rng, seed);
    for (int k = 0; k < gc.nstates; k++) {
        if (k < nrandom) {
            sys->random_state(inst, form, xm, &rng);
            snprintf(gc.label[k], sizeof gc.label[k], "random, seed %lu #%d", seed, k + 1);
        } else {
            sys->equilibrium(inst, k - nrandom, form, xm, &name);
            snprintf(gc.label[k], sizeof gc.label[k], "equilibrium: %s", name);
        }
        for (size_t i = 0; i < gc.dim; i++) gc.x[(size_t)k * gc.dim + i] = mpfr_get_d(xm + i, MPFR_RNDN);
    }
    for (size_t i = 0; i < gc.dim; i++) mpfr_clear(xm + i);
    free(xm);
    int ret = grade(&gc, sofile, symbol, timeout, (cl_prec_t)bits);
    free(gc.x); free(gc.label); free(m); free(l); free(extra);
    if (fpar) cl_rvec_free_mp(fpar);
    return ret;
}

/* The parameters once more with every scalar and every per-body number
   (NUMBER, NLIST) scaled by a factor of its own from [1/2, 3/2) (zeros stay
   zero; vectors such as an axis, which a system may normalize, the size and
   words as they are), so that masses and lengths differ and a formula using
   l_i for l_j cannot pass.
   The command line of the draw goes to \p shown. 0, or -1 when the system
   refuses the draw. */
static int perturbed_params(const cl_params *p, cl_rng *rng, long bits, cl_params *out, char *shown, size_t len)
{
    size_t nk = 0, k0 = strlen(shown);
    const char **keys = calloc(p->count + 1, sizeof *keys), **vals = calloc(p->count + 1, sizeof *vals);
    char **text = calloc(p->count + 1, sizeof *text);
    int st = !keys || !vals || !text ? -1 : 0;
    for (size_t k = 0; k < p->count && !st; k++) {
        const cl_param *d = p->table + k;
        const cl_param_value *v = p->v + k;
        size_t cap = 32 * (v->len + 1);
        if (!(text[k] = malloc(cap))) { st = -1; break; }
        text[k][0] = 0;
        if (d->shape == CL_PARAM_SIZE) snprintf(text[k], cap, "%ld", v->whole);
        else if (d->shape == CL_PARAM_WORD && v->word) snprintf(text[k], cap, "%s", v->word);
        else if (d->shape == CL_PARAM_FLAG && v->given) { keys[nk] = d->name; vals[nk++] = NULL; continue; }
        else if (v->len && d->shape != CL_PARAM_FLAG && d->shape != CL_PARAM_WORD) {
            int scaled = d->shape == CL_PARAM_NUMBER || d->shape == CL_PARAM_NLIST;
            for (size_t i = 0, at = 0; i < v->len; i++)
                at += (size_t)snprintf(text[k] + at, cap - at, "%s%.17g", i ? "," : "",
                                       mpfr_get_d(v->x + i, MPFR_RNDN) * (scaled ? cl_rng_range(rng, 0.5, 1.5) : 1));
        }
        if (!text[k][0]) continue;
        keys[nk] = d->name;
        vals[nk++] = text[k];
        if ((d->shape == CL_PARAM_NUMBER || d->shape == CL_PARAM_NLIST) && k0 < len)
            k0 += (size_t)snprintf(shown + k0, len - k0, " --%s %s", d->name, text[k]);
    }
    cl_sys_error e = {"", ""};
    if (!st) st = cl_params_parse(out, p->table, (int)nk, keys, vals, (cl_prec_t)bits, &e) ? -1 : 0;
    for (size_t k = 0; text && k < p->count; k++) free(text[k]);
    free(text); free(keys); free(vals);
    return st;
}

static int cmd_grade(int argc, char **argv)
{
    static const cl_cmd_option opts[] = {CL_CMD_OPTION("states", OPT_STATES), CL_CMD_OPTION("seed", OPT_SEED),
                                         CL_CMD_OPTION("timeout", OPT_TIMEOUT), CL_CMD_TEXT_OPTION("field", grade_opts, field),
                                         CL_CMD_OPTIONS_END};
    grade_opts o = {.nrandom = 20, .seed = 1, .timeout = 10};
    cl_cmd_system cs = {0};
    const cl_model *model = NULL;
    cl_field *field = NULL;
    cl_cmd_args a;
    int ret = cl_cmd_scan(argc, argv, opts, on_option, &o, 2, &a);
    if (ret) return ret;
    if (a.help) { fputs(help_text, stdout); goto out; }
    const char *system = a.system, *form = a.form, *sofile = a.npositional ? a.positional[0] : NULL, *fieldfile = o.field;
    if (!a.bits_given) a.bits = 256; /* the reference's default precision */
    long bits = a.bits;
    ret = CL_EXIT_USAGE;
    if (a.npositional > 1) { cl_cli_error("only one shared object can be graded at a time", a.positional[1]); goto out; }
    if (fieldfile && !a.model) { cl_cli_error("a field file needs the model it belongs to", "--model"); goto out; }
    if (fieldfile && sofile) { cl_cli_error("give a field file or a shared object, not both", sofile); goto out; }
    if (!system && !a.model) { cl_cli_error("a required option is missing", "--system"); goto out; }
    if (!form && !fieldfile) { cl_cli_error("a required option is missing", "--form"); goto out; }
    if (!sofile && !fieldfile) {
        cl_cli_error(a.model ? "a field file (--field F) or the student's shared object is required" : "the student's shared object is required",
                     a.model ? "--field" : "STUDENT.so");
        goto out;
    }
    if (bits < GRADE_MIN_BITS) {
        cl_cli_error("the reference needs at least 64 bits: the states are doubles and a discrepancy of 2^-40 must show", "--bits");
        goto out;
    }
    if ((ret = cl_cmd_open_system(&a, &cs))) goto out;
    ret = CL_EXIT_USAGE;
    if (!cs.sys->random_state) { cl_cli_error("this system offers no random states to grade at", system); goto out; }
    if (fieldfile) {
        cl_sys_error e = {"", ""};
        model = cl_model_system_model(cs.sys); /* the model the reference runs, read once */
        if (cl_field_load(&field, model, fieldfile, &e)) { cl_cmd_report(&e, fieldfile, CL_EXIT_USAGE); goto out; }
        const char *fform = cs.sys->forms[field->form];
        if (form && strcmp(form, fform)) {
            char msg[160];
            snprintf(msg, sizeof msg, "the field file is written in form %s, not in the form --form asks for", fform);
            cl_cli_error(msg, form);
            goto out;
        }
        cs.form = field->form;
        form = fform;
        sofile = fieldfile;
    }
    /* cl_student_<system>_<form>; for a model, the file's name without its folder and .model */
    char symbol[128], base[64];
    const char *name = system;
    if (!name) {
        const char *slash = strrchr(a.model, '/');
        snprintf(base, sizeof base, "%s", slash ? slash + 1 : a.model);
        char *ext = strstr(base, ".model");
        if (ext && !ext[6]) *ext = 0;
        name = base;
    }
    snprintf(symbol, sizeof symbol, "cl_student_%s_%s", name, form);
    for (char *c = symbol; *c; c++) if (!isalnum((unsigned char)*c)) *c = '_';
    ret = grade_instance(cs.sys, cs.inst, cs.form, &cs.params, o.nrandom, o.seed, bits, sofile, symbol, o.timeout, model, field);
    if (ret == CL_EXIT_USAGE) goto out;
    /* Then at random, unequal parameters drawn from the given ones (a few draws, for systems that refuse some). */
    cl_rng rng;
    cl_rng_seed(&rng, o.seed);
    for (int draw = 0; draw < 8; draw++) {
        char shown[512] = "";
        cl_params rp;
        void *inst = NULL;
        cl_sys_error e = {"", ""};
        if (perturbed_params(&cs.params, &rng, bits, &rp, shown, sizeof shown)) continue;
        if (cs.sys->create(&inst, &rp, (cl_prec_t)bits, &e)) { cl_params_free(&rp); continue; }
        printf("\nat random parameters (seed %lu):%s\n", o.seed, shown);
        int r = grade_instance(cs.sys, inst, cs.form, &rp, o.nrandom, o.seed, bits, sofile, symbol, o.timeout, model, field);
        if (r > ret) ret = r;
        cs.sys->destroy(inst);
        cl_params_free(&rp);
        break;
    }
out:
    cl_field_free(field);
    cl_cmd_close_system(&cs);
    cl_cmd_args_free(&a);
    return ret;
}

static const cl_command grade_command = {"grade", "grade a student's vector field (shared object) against the reference", cmd_grade};
CL_COMMAND_REGISTER(grade_command)

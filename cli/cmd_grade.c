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
#include "grade_ctx.h"

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
    "  --format F        text (default), json (docs/grade.schema.json), gradescope\n"
    "                    (results.json) or prairielearn (results.json of an external grader);\n"
    "                    a submission that cannot be loaded is then a document, exit 1\n"
    "  --emit-states json  write the parameters and states of both parameter sets and grade\n"
    "                    nothing: for code run outside the grader (Python's chartless.grade)\n"
    "  --values FILE     grade the values that code computed at those states (grade_student.h)\n"
    "  -h, --help        this text\n"
    "\n"
    "The student's code runs in a separate process with at most 512 MiB more memory, CPU\n"
    "time and a deadline of --timeout, no files, no new processes or threads; its input\n"
    "is read-only and dx is followed by a guard page. What it prints is shown quoted.\n"
    "\n"
    "When the student's code runs out of time at the given parameters, the random ones are\n"
    "not graded (the time limit is spent once).\n"
    "\n"
    "exit status: 0 every component agrees to rounding, 1 a component is wrong or the\n"
    "student's code crashed, timed out, exited, forked or overran dx, 2 bad input\n";



/* Hints for a wrong block of \p n components at \p at: sign, factor, or (a 3-vector) a difference along q_j. */
static void block_hint(const grade_ctx *gc, const double *s, const double *r, const double *x, size_t at, size_t n, char *hint, size_t len)
{
    double nr = 0, nd = 0, np = 0, n2 = 0, nh = 0;
    for (size_t i = at; i < at + n; i++) {
        double a = s[i], c = r[i];
        nr += c * c; nd += (a - c) * (a - c);
        np += (a + c) * (a + c); n2 += (a - 2 * c) * (a - 2 * c); nh += (2 * a - c) * (2 * a - c);
    }
    hint[0] = 0;
    if (nd == 0) return;
    if (nr > 0 && np <= 1e-20 * nr) { snprintf(hint, len, "student = -reference: a sign flip"); return; }
    if (nr > 0 && n2 <= 1e-20 * nr) { snprintf(hint, len, "student = 2 x reference: a factor 2"); return; }
    if (nr > 0 && nh <= 1e-20 * nr) { snprintf(hint, len, "student = reference / 2: a factor 1/2"); return; }
    int nq = gc->sys->unit_vectors && n == 3 ? gc->sys->unit_vectors(gc->inst) : 0;
    for (int j = 0; j < nq; j++) {
        const double *q = x + 3 * j;
        double d[3] = {s[at] - r[at], s[at + 1] - r[at + 1], s[at + 2] - r[at + 2]};
        double c[3] = {d[1] * q[2] - d[2] * q[1], d[2] * q[0] - d[0] * q[2], d[0] * q[1] - d[1] * q[0]};
        if (c[0] * c[0] + c[1] * c[1] + c[2] * c[2] <= 1e-20 * nd) {
            snprintf(hint, len, "the difference is along q%d: a term along q%d missing or extra, such as a missing projection (I - q%d q%d^T)"
                     " or a missing centripetal term", j + 1, j + 1, j + 1, j + 1);
            return;
        }
    }
}

/* The reference at the states, at the working precision, rounded to doubles (NaN where it is not defined). */
static void reference_values(const grade_ctx *gc, cl_prec_t bits, double *ref)
{
    size_t dim = gc->dim;
    mpfr_ptr xm = cl_rvec_new_mp(2 * dim, bits);
    for (int k = 0; k < gc->nstates; k++) {
        int st = xm ? CL_OK : CL_ENOMEM;
        for (size_t i = 0; xm && i < dim; i++) mpfr_set_d(xm + i, gc->x[(size_t)k * dim + i], MPFR_RNDN);
        if (xm) st = gc->sys->rhs(gc->inst, gc->form, xm + dim, xm);
        for (size_t i = 0; i < dim; i++) ref[(size_t)k * dim + i] = st ? NAN : mpfr_get_d(xm + dim + i, MPFR_RNDN);
    }
    cl_rvec_free_mp(xm);
}

/* Why a shared object cannot be loaded, with what to do about it, into \p msg. */
static void load_failure(const char *sofile, const char *symbol, const char *why, char *msg, size_t len)
{
    char defined[400];
    if (!cl_sandbox_is_elf(sofile)) {
        snprintf(msg, len, "%.300s: it is not a shared object; a C file is compiled first: cc -shared -fPIC -o f.so f.c", why);
        return;
    }
    if (!strstr(why, "does not define")) { snprintf(msg, len, "%s", why); return; }
    cl_sandbox_list_symbols(sofile, "cl_student_", defined, sizeof defined);
    snprintf(msg, len, "%.200s %.100s; it defines %.280s", why, symbol, defined[0] ? defined : "no cl_student_* function");
}

/* The student's values at the states: from the field file, the values file or the sandbox.
   0, or an exit status (the message printed, or kept in the report for the platforms). */
static int student_values(grade_ctx *gc, const char *sofile, const char *symbol, double timeout, cl_prec_t bits,
                          double *stu, int *rc, cl_sandbox_result *sb, char ***why)
{
    int K = gc->nstates;
    if (gc->field) {
        if (grade_field_values(gc, bits, stu, rc, why)) return cl_cli_error("out of memory", NULL);
        fprintf(gc->out, "grading the field %s: model %s, form %s, %d states, reference at %ld bits\n",
                sofile, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
        return CL_EXIT_OK;
    }
    if (gc->values) {
        int st = grade_values_fill(gc->values, gc->instance, gc->dim, K, stu, rc, sb);
        if (!st) fprintf(gc->out, "grading %s: system %s, form %s, %d states, reference at %ld bits\n",
                         gc->values->name, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
        return st;
    }
    /* The student's code is loaded and run only in the sandbox. */
    int st = cl_sandbox_run(sofile, symbol, gc->x, gc->dim, K, &gc->par, timeout, stu, rc, sb);
    if (st) return cl_cli_error("cannot start the student's process", cl_strerror(st));
    if (sb->outcome == CL_SB_LOADFAIL) {
        char msg[640];
        load_failure(sofile, symbol, sb->message, msg, sizeof msg);
        if (gc->rep->format == GRADE_TEXT) return cl_cli_error(msg, sofile);
        snprintf(gc->rep->load_error, sizeof gc->rep->load_error, "%.600s (%.190s)", msg, sofile);
        return CL_EXIT_FAIL;
    }
    fprintf(gc->out, "grading %s from %s: system %s, form %s, %d states, reference at %ld bits\n",
            symbol, sofile, gc->sys->name, gc->sys->forms[gc->form], K, (long)bits);
    return CL_EXIT_OK;
}

/* Per component: the worst relative discrepancy over the evaluated states (log2, -inf when exact), at worst_k. */
static int worst_errors(grade_ctx *gc, int K, const double *stu, const double *ref, const int *rc, char **why,
                        double *worst, int *worst_k)
{
    size_t dim = gc->dim;
    int failed = 0;
    for (size_t i = 0; i < dim; i++) { worst[i] = -INFINITY; worst_k[i] = 0; }
    for (int k = 0; k < K; k++) {
        if (rc[k]) {
            if (why) fprintf(gc->out, "state %d (%s): %s\n", k + 1, gc->label[k], why[k] ? why[k] : "the field is not defined at this state");
            else fprintf(gc->out, "state %d (%s): the student's function refused it (returned %d)\n", k + 1, gc->label[k], rc[k]);
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
    return failed;
}

/* The table of components, recorded in the report's part; the number wrong. */
static int component_table(grade_ctx *gc, int K, const double *worst, const int *worst_k)
{
    grade_part *part = gc->rep->part + gc->rep->nparts - 1;
    part->comp = calloc(gc->dim, sizeof *part->comp);
    part->ncomp = part->comp ? (int)gc->dim : 0;
    if (K > 0) {
        fprintf(gc->out, "\nper component of dx/dt (error relative to max(1, max|reference|) at that state):\n");
        fprintf(gc->out, "%-10s %-14s %-12s %s\n", "component", "largest error", "verdict", "where");
    }
    int nwrong = 0;
    for (size_t i = 0; i < gc->dim; i++) {
        grade_component c = {.error = NAN, .wrong = 1, .state = 0};
        grade_component_name(gc, i, c.name, sizeof c.name);
        if (K > 0) {
            c.wrong = worst[i] > GRADE_LOG2_TOL;
            c.error = worst[i] == -INFINITY ? 0 : exp2(worst[i]);
            c.state = worst_k[i] + 1;
            snprintf(c.where, sizeof c.where, "%s", gc->label[worst_k[i]]);
            nwrong += c.wrong;
            fprintf(gc->out, "%-10s %-14.3g %-12s state %d (%s)\n", c.name, c.error, c.wrong ? "WRONG" : "rounding", c.state, c.where);
        }
        if (part->comp) part->comp[i] = c;
    }
    return nwrong;
}

/* The name a field file gives the derivative of 3-vector block b: q1' for q1, q1'' for qdot1, w1' for w1. */
static void derivative_name(const grade_ctx *gc, size_t b, char *buf, size_t len)
{
    char stem[32];
    size_t nb = gc->dim / 3;
    grade_component_name(gc, 3 * b, stem, sizeof stem);
    char *dot = strchr(stem, '.');
    if (dot) *dot = 0;
    if (!strncmp(stem, "qdot", 4) && b >= nb / 2) {
        grade_component_name(gc, 3 * (b - nb / 2), buf, len);
        if ((dot = strchr(buf, '.'))) *dot = 0;
        snprintf(buf + strlen(buf), len - strlen(buf), "''");
    } else snprintf(buf, len, "%s'", stem);
}

/* A number of a hint: six digits, a zero as 0, never -0. */
static double shown(double v) { return v == 0 ? 0.0 : v; }

/* The values of a block, "(a, b, c)", into buf. */
static void block_values(const double *v, size_t n, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%.6g%s", i ? ", " : n > 1 ? "(" : "", shown(v[i]), i + 1 == n && n > 1 ? ")" : "");
}

/* Hints per block that is wrong: a field file's blocks, else the state's 3-vectors. */
static void block_hints(grade_ctx *gc, int K, const double *stu, const double *ref, const double *worst, const int *worst_k)
{
    size_t dim = gc->dim, nb = gc->field ? gc->field->lay.nblock : dim / 3;
    for (size_t b = 0; b < nb && K > 0; b++) {
        const cl_field_block *B = gc->field ? gc->field->lay.block + b : NULL;
        size_t at = B ? B->at : 3 * b, n = B ? (size_t)B->shape : 3;
        int wrong = 0;
        for (size_t i = at; i < at + n; i++) wrong |= worst[i] > GRADE_LOG2_TOL;
        if (!wrong) continue;
        size_t top = at;
        for (size_t i = at + 1; i < at + n; i++) if (worst[i] > worst[top]) top = i;
        int k = worst_k[top];
        char hint[256], name[48], sv[160], rv[160];
        const double *s = stu + (size_t)k * dim, *r = ref + (size_t)k * dim;
        block_hint(gc, s, r, gc->x + (size_t)k * dim, at, n, hint, sizeof hint);
        if (B) cl_field_block_name(B, name, sizeof name);
        else derivative_name(gc, b, name, sizeof name);
        block_values(s + at, n, sv, sizeof sv);
        block_values(r + at, n, rv, sizeof rv);
        fprintf(gc->out, "hint: %s at state %d: student %s, reference %s%s%s\n", name, k + 1, sv, rv, hint[0] ? "; " : "", hint);
    }
}

/* Which states agree as a whole: a wrong term that vanishes at some states shows here. */
static void agreeing_states(grade_ctx *gc, int K, const double *stu, const double *ref, const int *rc)
{
    int nagree = 0;
    char agree[256] = "";
    for (int k = 0; k < K; k++) {
        if (rc[k] || !(grade_state_error(stu + (size_t)k * gc->dim, ref + (size_t)k * gc->dim, gc->dim) <= exp2(GRADE_LOG2_TOL))) continue;
        nagree++;
        if (strlen(agree) < sizeof agree - 60)
            snprintf(agree + strlen(agree), sizeof agree - strlen(agree), "%s%d", nagree > 1 ? ", " : "", k + 1);
    }
    if (nagree)
        fprintf(gc->out, "states where everything agrees: %d of %d (%s)%s\n", nagree, K, agree,
                nagree < K ? " -- the wrong term vanishes there" : "");
}

static int grade(grade_ctx *gc, const char *sofile, const char *symbol, double timeout, cl_prec_t bits)
{
    size_t dim = gc->dim;
    int K = gc->nstates;
    double *ref = malloc((size_t)K * dim * sizeof *ref), *stu = malloc((size_t)K * dim * sizeof *stu);
    double *worst = malloc(dim * sizeof *worst);
    int *rc = calloc((size_t)K, sizeof *rc), *worst_k = malloc(dim * sizeof *worst_k);
    cl_sandbox_result sb = {.outcome = CL_SB_DONE, .state = -1, .nresults = K};
    char **why = NULL; /* a field file: why it is not defined at a state */
    int st = !ref || !stu || !worst || !rc || !worst_k ? cl_cli_error("out of memory", NULL)
                                                      : student_values(gc, sofile, symbol, timeout, bits, stu, rc, &sb, &why);
    if (st) {
        free(worst); free(worst_k); free(ref); free(stu); free(rc);
        return st;
    }
    reference_values(gc, bits, ref);
    grade_part *part = gc->rep->part + gc->rep->nparts - 1;
    int failed = sb.outcome != CL_SB_DONE || sb.strays > 0;
    gc->timed_out = sb.outcome == CL_SB_TIMEOUT;
    const char *ended = grade_report_sandbox(gc, &sb, timeout, dim);
    K = sb.nresults; /* grade what did come back */
    failed |= worst_errors(gc, K, stu, ref, rc, why, worst, worst_k);
    int nevaluated = 0, nreturned = K;
    for (int k = 0; k < K; k++) nevaluated += rc[k] == 0;
    if (!nevaluated) K = 0; /* no component was compared */
    part->incomplete = failed || !nevaluated;
    snprintf(part->ended, sizeof part->ended, "%s", ended ? ended : "");
    int nwrong = component_table(gc, K, worst, worst_k);
    block_hints(gc, K, stu, ref, worst, worst_k);
    if (nwrong && gc->field) grade_field_sign_hint(gc, stu, ref, bits);
    if (nwrong) agreeing_states(gc, K, stu, ref, rc);
    if (nwrong) failed = 1;
    if (!nevaluated)
        fprintf(gc->out, "\nNO STATE EVALUATED: %s\n", why ? "the field is defined at none of the states"
                                           : nreturned ? "the student's function refused every state" : ended ? ended : "no result came back");
    else
        fprintf(gc->out, "\n%s: %d of %zu components wrong%s%s\n", failed ? "FAIL" : "PASS", nwrong, dim, ended ? ", " : "", ended ? ended : "");
    part->failed = failed || !nevaluated;
    for (int k = 0; why && k < gc->nstates; k++) free(why[k]);
    free(why);
    free(worst); free(worst_k); free(ref); free(stu); free(rc);
    return failed || !nevaluated ? CL_EXIT_FAIL : CL_EXIT_OK;
}

enum { OPT_STATES = 1, OPT_SEED, OPT_TIMEOUT, OPT_FORMAT, OPT_EMIT };

typedef struct grade_opts {
    int nrandom;
    unsigned long seed;
    double timeout;
    int format, emit;
    const char *field, *values;
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
    } else if (code == OPT_FORMAT) {
        if ((o->format = grade_format_parse(v)) < 0) return cl_cli_error("--format must be text, json, gradescope or prairielearn", v);
    } else if (code == OPT_EMIT) {
        if (strcmp(v, "json")) return cl_cli_error("--emit-states writes json only", v);
        o->emit = 1;
    } else {
        o->timeout = strtod(v, &end);
        if (end == v || *end || !(o->timeout > 0) || !(o->timeout <= MAX_TIMEOUT))
            return cl_cli_error("--timeout must be a positive number of seconds, at most 86400", v);
    }
    return CL_EXIT_OK;
}

/* What stays the same across the parameter sets of one grade. */
typedef struct grade_run {
    const cl_system *sys;
    int form, nrandom;
    unsigned long seed;
    long bits;
    const char *sofile, *symbol;
    double timeout;
    const cl_model *model;
    const cl_field *field;
    grade_report *rep;
    const grade_values *values;
    int emit;                 /* --emit-states: write the states, grade nothing */
} grade_run;

/* The system's field defined at x (its reference for the student's): 1, else 0. */
static int field_defined(const grade_run *run, void *inst, mpfr_srcptr x, mpfr_ptr dx)
{
    return run->sys->rhs(inst, run->form, dx, x) == CL_OK;
}

/* The seeded random states (drawn inside the domain of the model's formulas) and the equilibria where the field is
   defined (one outside its domain at these parameters is no state to grade at: a domain edge is never a wrong
   answer), as doubles, with their labels. 0, CL_EUNDEFINED (no random state inside the domain) or CL_ENOMEM. */
static int instance_states(const grade_run *run, void *inst, grade_ctx *gc)
{
    const cl_system *sys = run->sys;
    mpfr_ptr xm = cl_rvec_new_mp(2 * gc->dim, (cl_prec_t)run->bits);
    if (!xm) return CL_ENOMEM;
    int neq = 0, st = CL_OK;
    const char *name = "";
    while (sys->equilibrium && neq < 16 && sys->equilibrium(inst, neq, run->form, xm, &name) == CL_OK) neq++;
    gc->x = malloc((size_t)(run->nrandom + neq) * gc->dim * sizeof *gc->x);
    gc->label = malloc((size_t)(run->nrandom + neq) * sizeof *gc->label);
    cl_rng rng;
    cl_rng_seed(&rng, run->seed);
    int k = 0;
    for (int j = 0; gc->x && gc->label && !st && j < run->nrandom + neq; j++) {
        if (j < run->nrandom) {
            if ((st = sys->random_state(inst, run->form, xm, &rng))) st = st == CL_ENOMEM ? st : CL_EUNDEFINED;
            snprintf(gc->label[k], sizeof gc->label[k], "random, seed %lu #%d", run->seed, j + 1);
        } else {
            sys->equilibrium(inst, j - run->nrandom, run->form, xm, &name);
            if (!field_defined(run, inst, xm, xm + gc->dim)) continue;
            snprintf(gc->label[k], sizeof gc->label[k], "equilibrium: %s", name);
        }
        for (size_t i = 0; !st && i < gc->dim; i++) gc->x[(size_t)k * gc->dim + i] = mpfr_get_d(xm + i, MPFR_RNDN);
        k++;
    }
    gc->nstates = st ? 0 : k;
    cl_rvec_free_mp(xm);
    return st ? st : gc->x && gc->label ? CL_OK : CL_ENOMEM;
}

/* grade_instance() at random parameters whose domain the random states cannot reach (not an exit status). */
#define GRADE_OUTSIDE (-1)

/* Grade at one instance (\p instance 0: the given parameters, 1: the random
   ones, titled \p title): its random states and equilibria, the student
   given that instance's parameters. The report's exit status, or
   GRADE_OUTSIDE at random parameters where no random state is inside the
   domain (nothing printed); *timed_out when the student's code ran out of time. */
static int grade_instance(const grade_run *run, void *inst, const cl_params *params, int instance, const char *title, int *timed_out)
{
    const cl_model *model = run->model;
    const cl_field *field = run->field;
    grade_ctx gc = {.sys = run->sys, .inst = inst, .form = run->form, .field = field, .model = model, .rep = run->rep,
                    .values = run->values, .instance = instance};
    double *m = NULL, *l = NULL, *extra = NULL;
    if (!field && !run->values && grade_student_doubles(params)) return CL_EXIT_USAGE;
    mpfr_ptr fpar = NULL;
    if (field) {
        /* the field sees the parameters at the working precision, never through a double */
        if (!(fpar = cl_rvec_new_mp(field->nparam ? field->nparam : 1, (cl_prec_t)run->bits))) return cl_cli_error("out of memory", NULL);
        for (size_t k = 0; k < field->nparam; k++) mpfr_set(fpar + k, cl_params_x(params, model->pname[k]), MPFR_RNDN);
        gc.fpar = fpar;
    }
    gc.dim = run->sys->dim(inst, run->form);
    /* The student sees the values the system uses, defaults included. */
    int ret = grade_student_params(params, &gc.par, &m, &l, &extra) ? cl_cli_error("out of memory", NULL) : 0;
    int inside = ret ? CL_OK : instance_states(run, inst, &gc);
    if (inside == CL_EUNDEFINED && instance) ret = GRADE_OUTSIDE; /* random parameters: drawn again, nothing said */
    else if (inside == CL_EUNDEFINED)
        ret = cl_cli_error("no random state inside the domain of the model's formulas at these parameters", title);
    else if (inside) ret = cl_cli_error("out of memory", NULL);
    if (!ret && run->emit) grade_emit_instance(stdout, !instance, title, params, gc.x, (const char (*)[48])gc.label, gc.nstates, gc.dim);
    else if (!ret && !(gc.out = grade_part_begin(run->rep, title))) ret = cl_cli_error("out of memory", NULL);
    else if (!ret) {
        if (instance) fprintf(gc.out, "\nat %s\n", title);
        ret = grade(&gc, run->sofile, run->symbol, run->timeout, (cl_prec_t)run->bits);
        grade_part_end(run->rep);
        *timed_out = gc.timed_out;
    }
    free(gc.x); free(gc.label); free(m); free(l); free(extra);
    if (fpar) cl_rvec_free_mp(fpar);
    return ret;
}

/* Then at random, unequal parameters drawn from the given ones, zeros perturbed too (a few draws, for
   systems that refuse some or whose domain the random states cannot reach at some; the last ones keep the
   zeros, for a system that refuses every nonzero one). */
static int grade_random_instance(const grade_run *run, const cl_params *params)
{
    cl_rng rng;
    cl_rng_seed(&rng, run->seed);
    for (int draw = 0; draw < 8; draw++) {
        char shown[512] = "", title[600];
        cl_params rp;
        void *inst = NULL;
        cl_sys_error e = {"", ""};
        if (grade_perturbed_params(params, &rng, run->bits, draw < 6, &rp, shown, sizeof shown)) continue;
        if (run->sys->create(&inst, &rp, (cl_prec_t)run->bits, &e)) { cl_params_free(&rp); continue; }
        snprintf(title, sizeof title, "random parameters (seed %lu):%s", run->seed, shown);
        int timed_out = 0;
        int r = grade_instance(run, inst, &rp, 1, title, &timed_out);
        run->sys->destroy(inst);
        cl_params_free(&rp);
        if (r == GRADE_OUTSIDE) continue; /* parameters whose domain the random states do not reach */
        return r;
    }
    return CL_EXIT_OK;
}

/* cl_student_<system>_<form>; for a model, the file's name without its folder and .model */
static void student_symbol(const char *system, const char *model, const char *form, char *symbol, size_t len)
{
    char base[64];
    const char *name = system;
    if (!name) {
        const char *slash = strrchr(model, '/');
        snprintf(base, sizeof base, "%s", slash ? slash + 1 : model);
        char *ext = strstr(base, ".model");
        if (ext && !ext[6]) *ext = 0;
        name = base;
    }
    snprintf(symbol, len, "cl_student_%s_%s", name, form);
    for (char *c = symbol; *c; c++) if (!isalnum((unsigned char)*c)) *c = '_';
}

/* The command line's combinations of options that make no sense: 0, or exit status 2 (message printed). */
static int check_usage(const cl_cmd_args *a, const grade_opts *o, const char *sofile)
{
    if (a->npositional > 1) return cl_cli_error("only one shared object can be graded at a time", a->positional[1]);
    if (o->field && !a->model) return cl_cli_error("a field file needs the model it belongs to", "--model");
    if (o->field && sofile) return cl_cli_error("give a field file or a shared object, not both", sofile);
    if (o->values && (sofile || o->field)) return cl_cli_error("give values or a student's code, not both", "--values");
    if (o->emit && (sofile || o->field || o->values)) return cl_cli_error("--emit-states grades nothing: give no submission", "--emit-states");
    if (!a->system && !a->model) return cl_cli_error("a required option is missing", "--system");
    if (!a->form && !o->field) return cl_cli_error("a required option is missing", "--form");
    if (!sofile && !o->field && !o->values && !o->emit)
        return cl_cli_error(a->model ? "a field file (--field F) or the student's shared object is required" : "the student's shared object is required",
                            a->model ? "--field" : "STUDENT.so");
    if (a->bits < GRADE_MIN_BITS)
        return cl_cli_error("the reference needs at least 64 bits: the states are doubles and a discrepancy of 2^-40 must show", "--bits");
    return CL_EXIT_OK;
}

/* A field file read against the model the reference runs; its form becomes the grade's. 0, or exit status
   2 (message printed), or 1 when a platform format keeps the message in the report. */
static int open_field(cl_cmd_system *cs, const char *fieldfile, const char **form, grade_run *run, cl_field **field)
{
    cl_sys_error e = {"", ""};
    run->model = cl_model_system_model(cs->sys); /* the model the reference runs, read once */
    if (cl_field_load(field, run->model, fieldfile, &e)) {
        if (run->rep->format == GRADE_TEXT) return cl_cmd_report(&e, fieldfile, CL_EXIT_USAGE);
        snprintf(run->rep->load_error, sizeof run->rep->load_error, "%s (%s)", e.what, e.arg[0] ? e.arg : fieldfile);
        return CL_EXIT_FAIL;
    }
    const char *fform = cs->sys->forms[(*field)->form];
    if (*form && strcmp(*form, fform)) {
        char msg[160];
        snprintf(msg, sizeof msg, "the field file is written in form %s, not in the form --form asks for", fform);
        return cl_cli_error(msg, *form);
    }
    cs->form = (*field)->form;
    *form = fform;
    run->field = *field;
    run->sofile = fieldfile;
    return CL_EXIT_OK;
}

/* Grade at the given parameters, then at random ones unless the code ran out of time at the first. */
static int grade_both(grade_run *run, cl_cmd_system *cs)
{
    int timed_out = 0;
    int ret = grade_instance(run, cs->inst, &cs->params, 0, "given parameters", &timed_out);
    if (ret == CL_EXIT_USAGE || run->rep->load_error[0]) return ret;
    if (timed_out)
        snprintf(run->rep->skipped, sizeof run->rep->skipped,
                 "not graded at random parameters: the student's code ran out of time at the given ones");
    else {
        int r = grade_random_instance(run, &cs->params);
        if (r > ret) ret = r;
    }
    if (run->emit) fputs("\n]}\n", stdout);
    if (run->rep->skipped[0] && run->rep->format == GRADE_TEXT) printf("\n%s\n", run->rep->skipped);
    return ret;
}

static int cmd_grade(int argc, char **argv)
{
    static const cl_cmd_option opts[] = {CL_CMD_OPTION("states", OPT_STATES), CL_CMD_OPTION("seed", OPT_SEED),
                                         CL_CMD_OPTION("timeout", OPT_TIMEOUT), CL_CMD_OPTION("format", OPT_FORMAT),
                                         CL_CMD_OPTION("emit-states", OPT_EMIT), CL_CMD_TEXT_OPTION("field", grade_opts, field),
                                         CL_CMD_TEXT_OPTION("values", grade_opts, values), CL_CMD_OPTIONS_END};
    grade_opts o = {.nrandom = 20, .seed = 1, .timeout = 10};
    grade_report rep = {0};
    grade_values values = {0};
    cl_cmd_system cs = {0};
    cl_field *field = NULL;
    cl_cmd_args a;
    int ret = cl_cmd_scan(argc, argv, opts, on_option, &o, 2, &a);
    if (ret) return ret;
    if (a.help) { fputs(help_text, stdout); goto out; }
    const char *form = a.form, *sofile = a.npositional ? a.positional[0] : NULL;
    if (!a.bits_given) a.bits = 256; /* the reference's default precision */
    rep.format = o.format;
    grade_run run = {.nrandom = o.nrandom, .seed = o.seed, .bits = a.bits, .sofile = sofile, .timeout = o.timeout,
                     .rep = &rep, .emit = o.emit};
    if ((ret = check_usage(&a, &o, sofile))) goto out;
    if (o.values && (ret = grade_values_load(&values, o.values))) goto out;
    run.values = o.values ? &values : NULL;
    if ((ret = cl_cmd_open_system(&a, &cs))) goto out;
    ret = CL_EXIT_USAGE;
    if (!cs.sys->random_state) { cl_cli_error("this system offers no random states to grade at", a.system); goto out; }
    run.sys = cs.sys;
    if (o.field && (ret = open_field(&cs, o.field, &form, &run, &field))) goto emit;
    char symbol[128];
    student_symbol(a.system, a.model, form, symbol, sizeof symbol);
    run.form = cs.form;
    run.symbol = symbol;
    snprintf(rep.system, sizeof rep.system, "%s", cs.sys->name);
    snprintf(rep.form, sizeof rep.form, "%s", form);
    snprintf(rep.submission, sizeof rep.submission, "%s", o.values ? values.name : run.sofile ? run.sofile : "");
    ret = grade_both(&run, &cs);
emit:
    if (ret != CL_EXIT_USAGE && !o.emit) grade_report_emit(&rep, ret);
out:
    grade_report_free(&rep);
    grade_values_free(&values);
    cl_field_free(field);
    cl_cmd_close_system(&cs);
    cl_cmd_args_free(&a);
    return ret;
}

static const cl_command grade_command = {"grade", "grade a student's vector field (shared object) against the reference", cmd_grade};
CL_COMMAND_REGISTER(grade_command)

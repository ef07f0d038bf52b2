/**
 * \file grade_report.c
 * \brief The documents of `chartless grade --format`: the tool's own JSON,
 *        Gradescope's results.json and PrairieLearn's results (grade_report.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grade_report.h"
#include "json.h"

int grade_format_parse(const char *name)
{
    static const char *const names[] = {"text", "json", "gradescope", "prairielearn"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

FILE *grade_part_begin(grade_report *r, const char *title)
{
    grade_part *p = r->part + r->nparts++;
    snprintf(p->title, sizeof p->title, "%s", title);
    p->f = r->format == GRADE_TEXT ? stdout : open_memstream(&p->text, &p->textlen);
    return p->f;
}

void grade_part_end(grade_report *r)
{
    grade_part *p = r->part + r->nparts - 1;
    if (p->f && p->f != stdout) fclose(p->f);
    p->f = NULL;
}

void grade_report_free(grade_report *r)
{
    for (int i = 0; i < r->nparts; i++) {
        if (r->part[i].f && r->part[i].f != stdout) fclose(r->part[i].f);
        free(r->part[i].text);
        free(r->part[i].comp);
    }
    r->nparts = 0;
}


/* A line kept when it is a `hint:` line, an indented continuation of one (*in_hint) or the agreeing states. */
static int hint_line(FILE *f, const char *l, size_t n, void *in_hint)
{
    int *in = in_hint, hint = !strncmp(l, "hint:", 5) || !strncmp(l, "states where", 12);
    *in = hint || (*in && !strncmp(l, "      ", 6));
    if (*in) fprintf(f, "%.*s\n", (int)n, l);
    return 0;
}

/* The hint lines of a part's text: `hint:` lines, their indented continuations and the agreeing states. */
static char *part_hints(const grade_part *p)
{
    int in_hint = 0;
    return cl_text_by_lines(p->text, hint_line, &in_hint);
}

/* The last line of a part that states the verdict (PASS, FAIL, NO STATE EVALUATED). */
static void part_summary(const grade_part *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s", p->failed ? "FAIL" : "PASS");
    for (const char *l = p->text, *next; l && *l; l = next) {
        size_t n;
        next = cl_next_line(l, &n);
        if (!strncmp(l, "PASS", 4) || !strncmp(l, "FAIL", 4) || !strncmp(l, "NO STATE", 8))
            snprintf(buf, len, "%.*s", (int)n, l);
    }
}

static const char *short_title(int i) { return i ? "random parameters" : "given parameters"; }

static void component_line(const grade_component *c, char *buf, size_t len)
{
    if (isnan(c->error)) snprintf(buf, len, "not compared: no state was evaluated");
    else snprintf(buf, len, "largest error %.3g at state %d (%s): %s", c->error, c->state, c->where,
                  c->wrong ? "WRONG, more than 2^-40" : "rounding, at most 2^-40");
}

/* One platform test: its name, whether it passed, a one-line message and its output. */
typedef void (*test_fn)(FILE *f, int number, const char *name, int passed, const char *message, const char *output,
                        int first);

static int each_test(const grade_report *r, FILE *f, test_fn fn, int *npassed)
{
    int number = 0;
    *npassed = 0;
    for (int i = 0; i < r->nparts; i++) {
        const grade_part *p = r->part + i;
        char name[160], msg[200];
        char *hints = part_hints(p);
        snprintf(name, sizeof name, "the function runs at every state (%s)", short_title(i));
        snprintf(msg, sizeof msg, "%s", p->incomplete ? (p->ended[0] ? p->ended : "a state was refused or none evaluated") : "ran at every state");
        *npassed += !p->incomplete;
        number++;
        fn(f, number, name, !p->incomplete, msg, p->incomplete ? p->text : "", number == 1);
        for (int k = 0; k < p->ncomp; k++) {
            const grade_component *c = p->comp + k;
            snprintf(name, sizeof name, "%s (%s)", c->name, short_title(i));
            component_line(c, msg, sizeof msg);
            int ok = !c->wrong && !isnan(c->error);
            *npassed += ok;
            fn(f, ++number, name, ok, msg, ok || !hints ? "" : hints, 0);
        }
        free(hints);
    }
    return number;
}

static void all_text(const grade_report *r, FILE *f)
{
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    if (!m) { cl_json_string(f, ""); return; }
    for (int i = 0; i < r->nparts; i++) {
        if (i) fputc('\n', m);
        if (r->part[i].text) fputs(r->part[i].text, m);
    }
    if (r->skipped[0]) fprintf(m, "\n%s\n", r->skipped);
    fclose(m);
    cl_json_string(f, out);
    free(out);
}

static void gradescope_test(FILE *f, int number, const char *name, int passed, const char *message, const char *output,
                            int first)
{
    fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
    cl_json_string(f, name);
    fprintf(f, ", \"number\": \"%d\", \"score\": %d, \"max_score\": 1, \"status\": \"%s\", \"visibility\": \"visible\", \"output\": ",
            number, passed, passed ? "passed" : "failed");
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) { fprintf(m, "%s%s%s", message, output[0] ? "\n" : "", output); fclose(m); }
    cl_json_string(f, text);
    free(text);
    fputc('}', f);
}

static void prairielearn_test(FILE *f, int number, const char *name, int passed, const char *message, const char *output,
                              int first)
{
    fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
    cl_json_string(f, name);
    fprintf(f, ", \"description\": \"test %d\", \"points\": %d, \"max_points\": 1, \"message\": ", number, passed);
    cl_json_string(f, message);
    cl_json_member(f, ", \"output\": ", output);
    fputc('}', f);
}

static void emit_gradescope(const grade_report *r, FILE *f)
{
    int npassed = 0;
    fputs("{\n  \"output\": ", f);
    if (r->load_error[0]) {
        cl_json_string(f, r->load_error);
        fputs(",\n  \"score\": 0,\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  \"tests\": []\n}\n", f);
        return;
    }
    all_text(r, f);
    fputs(",\n  \"output_format\": \"text\",\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n  \"tests\": [", f);
    each_test(r, f, gradescope_test, &npassed);
    fprintf(f, "\n  ],\n  \"score\": %d\n}\n", npassed);
}

static void emit_prairielearn(const grade_report *r, FILE *f)
{
    if (r->load_error[0]) {
        cl_json_member(f, "{\n  \"gradable\": false,\n  \"format_errors\": [", r->load_error);
        cl_json_member(f, "],\n  \"message\": ", r->load_error);
        fputs("\n}\n", f);
        return;
    }
    int npassed = 0;
    fputs("{\n  \"gradable\": true,\n  \"output\": ", f);
    all_text(r, f);
    fputs(",\n  \"tests\": [", f);
    int ntests = each_test(r, f, prairielearn_test, &npassed);
    char summary[200] = "";
    for (int i = 0; i < r->nparts; i++) {
        char s[160];
        part_summary(r->part + i, s, sizeof s);
        snprintf(summary + strlen(summary), sizeof summary - strlen(summary), "%s%s: %s", i ? "; " : "", short_title(i), s);
    }
    fprintf(f, "\n  ],\n  \"score\": %.17g,\n  \"message\": ", ntests ? (double)npassed / ntests : 0.0);
    cl_json_string(f, summary);
    fputs("\n}\n", f);
}

static void emit_json(const grade_report *r, FILE *f, int status)
{
    cl_json_member(f, "{\n  \"schema\": \"chartless-grade/1\",\n  \"system\": ", r->system);
    cl_json_member(f, ",\n  \"form\": ", r->form);
    cl_json_member(f, ",\n  \"submission\": ", r->submission);
    fprintf(f, ",\n  \"passed\": %s,\n  \"exit_status\": %d", status ? "false" : "true", status);
    cl_json_member_or_null(f, ",\n  \"load_error\": ", r->load_error);
    cl_json_member_or_null(f, ",\n  \"skipped\": ", r->skipped);
    fputs(",\n  \"parts\": [", f);
    for (int i = 0; i < r->nparts; i++) {
        const grade_part *p = r->part + i;
        cl_json_member(f, i ? ",\n    {\"title\": " : "\n    {\"title\": ", p->title);
        fprintf(f, ", \"failed\": %s, \"incomplete\": %s", p->failed ? "true" : "false", p->incomplete ? "true" : "false");
        cl_json_member_or_null(f, ", \"ended\": ", p->ended);
        fputs(",\n     \"components\": [", f);
        for (int k = 0; k < p->ncomp; k++) {
            const grade_component *c = p->comp + k;
            cl_json_member(f, k ? ",\n       {\"name\": " : "\n       {\"name\": ", c->name);
            if (isnan(c->error)) fputs(", \"error\": null", f);
            else fprintf(f, ", \"error\": %.17g", c->error);
            fprintf(f, ", \"verdict\": \"%s\", \"state\": %d", c->wrong ? "wrong" : "rounding", c->state);
            cl_json_member(f, ", \"where\": ", c->where);
            fputc('}', f);
        }
        cl_json_member(f, "],\n     \"report\": ", p->text);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

void grade_report_emit(const grade_report *r, int status)
{
    if (r->format == GRADE_JSON) emit_json(r, stdout, status);
    else if (r->format == GRADE_GRADESCOPE) emit_gradescope(r, stdout);
    else if (r->format == GRADE_PRAIRIELEARN) emit_prairielearn(r, stdout);
}

/* Shared command-line helpers: errors, --bits, reading and printing numbers. */
#include <ctype.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "system.h"

int cl_cli_error(const char *what, const char *arg)
{
    if (arg) fprintf(stderr, arg[0] ? "error: %s (%s)\n" : "error: %s (\"%s\")\n", what, arg);
    else fprintf(stderr, "error: %s\n", what);
    return CL_EXIT_USAGE;
}

int cl_cli_parse_bits(const char *s, long *bits)
{
    long b;
    if (cl_parse_whole(s, CL_PREC_MIN, CL_PREC_MAX, &b) || cl_prec_check(b) != CL_OK) {
        cl_cli_error("precision must be a whole number of bits from 2 to 65536", s);
        return CL_EPREC;
    }
    *bits = b;
    return CL_OK;
}

/* Next token of a number list into *buf (grown as needed, *cap its size,
   *len its length: a NUL byte inside it is kept and makes it no number);
   separators are white space and commas. 1 token, 0 end of input, -1 out of memory. */
static int next_token(FILE *f, char **buf, size_t *cap, size_t *len)
{
    int c;
    do c = getc(f); while (c != EOF && (isspace(c) || c == ','));
    if (c == EOF) return 0;
    size_t k = 0;
    while (c != EOF && !isspace(c) && c != ',') {
        if (k + 1 >= *cap) {
            size_t ncap = 2 * *cap;
            char *nb = realloc(*buf, ncap);
            if (!nb) return -1;
            *buf = nb;
            *cap = ncap;
        }
        (*buf)[k++] = (char)c;
        c = getc(f);
    }
    (*buf)[k] = 0;
    *len = k;
    return 1;
}

int cl_cli_read_state(FILE *f, mpfr_ptr x, size_t n, size_t *got)
{
    /* A number at 65536 bits has about 19730 digits: the buffer grows. */
    size_t cap = 256;
    char *buf = malloc(cap);
    if (!buf) { *got = 0; return CL_ENOMEM; }
    size_t k = 0;
    size_t len = 0;
    int t, st = CL_OK;
    while ((t = next_token(f, &buf, &cap, &len)) == 1) {
        if (k >= n) { k++; st = CL_EDIM; break; }
        char *end;
        mpfr_strtofr(x + k, buf, &end, 10, MPFR_RNDN);
        if (end != buf + len || end == buf) { st = CL_EPARSE; break; }
        if (!mpfr_number_p(x + k)) { st = CL_ENAN; break; }
        k++;
    }
    free(buf);
    *got = k;
    if (st) return st;
    if (t < 0) return CL_ENOMEM;
    return k == n ? CL_OK : CL_EDIM;
}

void cl_cli_print_real(FILE *f, mpfr_srcptr x) { cl_sys_print_real(f, x); }

void cl_cli_component_name(const cl_system *s, void *inst, int form, size_t i, char *buf, size_t len)
{
    if (s->component_name) s->component_name(inst, form, i, buf, len);
    else snprintf(buf, len, "x%zu", i);
}

/* Edits (insertions, deletions, replacements, swaps of neighbours) that turn
   \p a into \p b, letters compared without case; names longer than 63 bytes
   count as far from everything. */
static size_t edit_distance(const char *a, const char *b)
{
    enum { L = 64 };
    size_t m = strlen(a), n = strlen(b);
    if (m >= L || n >= L) return (size_t)-1;
    size_t d[L][L];
    for (size_t i = 0; i <= m; i++) d[i][0] = i;
    for (size_t j = 0; j <= n; j++) d[0][j] = j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[m][n];
}

/* Whether one name begins with the other (what an abbreviation or a spelled-out name looks like). */
static int prefix_related(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    return m && n && !strncasecmp(a, b, m < n ? m : n);
}

const char *cl_cli_nearest(const char *given, const char *const *valid, size_t n)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1, near = (strlen(given) + 2) / 3;
    for (size_t i = 0; i < n; i++) {
        if (!valid[i]) continue;
        size_t d = edit_distance(given, valid[i]);
        if (d < bestd && (d <= near || prefix_related(given, valid[i]))) {
            best = valid[i];
            bestd = d;
        }
    }
    return best;
}

int cl_cli_unknown(const char *kind, const char *given, const char *const *valid, size_t n, const char *prefix,
                   const char *where)
{
    const char *bare = given + strspn(given, "-");
    const char *near = cl_cli_nearest(bare[0] ? bare : given, valid, n);
    if (near)
        fprintf(stderr, "error: unknown %s (%s); did you mean %s%s? (%s)\n", kind, given, prefix ? prefix : "", near, where);
    else fprintf(stderr, "error: unknown %s (%s); no %s is near that name (%s)\n", kind, given, kind, where);
    return CL_EXIT_USAGE;
}

double cl_cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cl_cli_progress_start(cl_cli_progress *p)
{
    p->start = cl_cli_seconds();
    p->next = p->start + CL_CLI_PROGRESS_AFTER;
    p->tty = isatty(2);
    p->shown = 0;
}

int cl_cli_progress_due(cl_cli_progress *p)
{
    double t = cl_cli_seconds();
    if (t < p->next) return 0;
    p->next = t + CL_CLI_PROGRESS_EVERY;
    return 1;
}

void cl_cli_progress_line(cl_cli_progress *p, const char *fmt, ...)
{
    char line[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (p->tty) fprintf(stderr, "\r%-79.79s", line);
    else fprintf(stderr, "%s\n", line);
    p->shown = 1;
}

void cl_cli_progress_end(cl_cli_progress *p)
{
    if (p->tty && p->shown) fprintf(stderr, "\r%79s\r", "");
}

int cl_cli_take_flag(int *argc, char **argv, const char *name)
{
    int k = 0, seen = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], name)) seen = 1;
        else argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return seen;
}

/* Shared command-line helpers: errors, --bits, reading and printing numbers. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

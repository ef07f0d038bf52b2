/* Shared command-line helpers: errors, --bits, reading and printing numbers. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cl_cli_error(const char *what, const char *arg)
{
    if (arg) fprintf(stderr, "error: %s (%s)\n", what, arg);
    else fprintf(stderr, "error: %s\n", what);
    return CL_EXIT_USAGE;
}

int cl_cli_parse_bits(const char *s, long *bits)
{
    char *end;
    errno = 0;
    long b = strtol(s, &end, 10);
    if (errno || end == s || *end || cl_prec_check(b) != CL_OK) {
        cl_cli_error("precision must be a whole number of bits from 2 to 65536", s);
        return CL_EPREC;
    }
    *bits = b;
    return CL_OK;
}

/* Next token of a number list; separators are white space and commas. */
static int next_token(FILE *f, char *buf, size_t cap)
{
    int c;
    do c = getc(f); while (c != EOF && (isspace(c) || c == ','));
    if (c == EOF) return 0;
    size_t k = 0;
    while (c != EOF && !isspace(c) && c != ',') {
        if (k + 1 < cap) buf[k++] = (char)c;
        else return -1;
        c = getc(f);
    }
    buf[k] = 0;
    return 1;
}

int cl_cli_read_state(FILE *f, mpfr_ptr x, size_t n, size_t *got)
{
    char buf[4096];
    size_t k = 0;
    int t;
    while ((t = next_token(f, buf, sizeof buf)) == 1) {
        if (k >= n) { *got = k + 1; return CL_EDIM; }
        char *end;
        if (mpfr_strtofr(x + k, buf, &end, 10, MPFR_RNDN), *end || end == buf) {
            *got = k;
            return CL_EPARSE;
        }
        if (!mpfr_number_p(x + k)) { *got = k; return CL_ENAN; }
        k++;
    }
    *got = k;
    if (t < 0) return CL_EPARSE;
    return k == n ? CL_OK : CL_EDIM;
}

void cl_cli_print_real(FILE *f, mpfr_srcptr x)
{
    /* Enough digits to identify the number: ceil(p·log10 2) + 1. */
    size_t digits = (size_t)(mpfr_get_prec(x) * 0.30102999566398120) + 2;
    mpfr_fprintf(f, "%.*Rg", (int)digits, x);
}

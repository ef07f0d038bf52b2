/*
 * Statements of a text, shared by model files (model.c) and field files
 * (field.c): where a byte stands (file:line:column), the first error, the
 * end of a statement, names and numbers, and reading a whole file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model.h"
#include "model_ext.h"
#include "system_impl.h"

void cl_text_where(const char *source, const char *text, long pos, char *buf, size_t len)
{
    long line = 1, col = 1;
    for (long i = 0; i < pos && text[i]; i++) {
        if (text[i] == '\n') { line++; col = 1; }
        else col++;
    }
    snprintf(buf, len, "%s:%ld:%ld", source, line, col);
}

int cl_text_fail(int *failed, cl_sys_error *e, const char *source, const char *text, long pos, int code, const char *fmt, ...)
{
    if (*failed) return *failed;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
    cl_text_where(source, text, pos, e->arg, sizeof e->arg);
    return *failed = code;
}

void cl_text_domain_error(const char *source, const char *text, long pos, const char *what, const char *why, char *err,
                          size_t errlen)
{
    char where[240];
    cl_text_where(source, text, pos, where, sizeof where);
    int len = 0;
    while (text[pos + len] && text[pos + len] != '\n' && len < 24) len++;
    snprintf(err, errlen, "the %s is not defined at this state: %s: '%.*s' leaves its domain (%s)", what, where, len, text + pos, why);
}

size_t cl_text_statement_end(const char *s, size_t len, size_t at)
{
    size_t i = at;
    for (;;) {
        while (i < len && s[i] != '\n') i++;
        if (i >= len) return len;
        size_t next = i + 1;
        if (next < len && (s[next] == ' ' || s[next] == '\t')) {
            i = next;
            continue;
        }
        return next;
    }
}

void cl_text_skip_blank(const char *s, size_t *i, size_t end)
{
    while (*i < end && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r')) (*i)++;
}

size_t cl_text_name(const char *s, size_t i, size_t end)
{
    size_t n = 0;
    if (i < end && isalpha((unsigned char)s[i]))
        while (i + n < end && (isalnum((unsigned char)s[i + n]) || s[i + n] == '_')) n++;
    return n;
}

int cl_text_name_is(const char *name, const char *s, size_t n) { return strlen(name) == n && !memcmp(name, s, n); }

long cl_model_name_index(const char (*names)[CL_MODEL_MAX_NAME + 1], size_t count, const char *s, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (cl_text_name_is(names[i], s, n)) return (long)i;
    return -1;
}

int cl_text_is_number(const char *s)
{
    mpfr_t t;
    mpfr_init2(t, 53);
    char *stop;
    mpfr_strtofr(t, s, &stop, 10, MPFR_RNDN);
    int ok = *s && !*stop && mpfr_number_p(t);
    mpfr_clear(t);
    return ok;
}

int cl_text_read(const char *path, long max, const char *what, char **buf, size_t *len, cl_sys_error *e)
{
    *buf = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return cl_sys_error_set(e, CL_EPARSE, strerror(errno), "cannot open %s", path);
    *buf = malloc((size_t)max + 1);
    *len = *buf ? fread(*buf, 1, (size_t)max + 1, f) : 0;
    int err = ferror(f);
    fclose(f);
    if (*buf && !err && *len >= 3 && !memcmp(*buf, "\xef\xbb\xbf", 3)) memmove(*buf, *buf + 3, *len -= 3); /* a UTF-8 byte order mark */
    if (*buf && !err) return CL_OK;
    free(*buf);
    *buf = NULL;
    *len = 0;
    return err ? cl_sys_error_set(e, CL_EPARSE, path, "cannot read the %s file", what) : cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
}

void cl_model_where(const cl_model *m, long pos, char *buf, size_t len)
{
    cl_text_where(m->source, m->text, pos, buf, len);
}

/*
 * What the expression parser says about the text it could not read: the
 * character at a position (a non-ASCII one by its code point, the Unicode
 * minus with the ASCII sign to use), and a bracket left open, which is the
 * cause worth naming when it makes the rest of the text read wrong.
 */
#include <stdio.h>
#include <string.h>
#include "expr.h"

/* Look-alikes of ASCII operators that text copied from a document brings. */
static const struct { const char *utf8, *ascii; } lookalikes[] = {
    {"\xe2\x88\x92", "-"}, /* U+2212 minus sign */
    {"\xe2\x80\x93", "-"}, /* U+2013 en dash */
    {"\xc3\x97", "*"},     /* U+00D7 multiplication sign */
    {"\xe2\x8b\x85", "*"}, /* U+22C5 dot operator */
};

/* The code point of the UTF-8 sequence at s (n bytes left) and its length, or 0. */
static size_t utf8_code_point(const unsigned char *s, size_t n, unsigned long *cp)
{
    size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!k || k > n) return 0;
    *cp = s[0] & (0x7f >> k);
    for (size_t j = 1; j < k; j++) {
        if ((s[j] & 0xc0) != 0x80) return 0;
        *cp = *cp << 6 | (s[j] & 0x3f);
    }
    return k;
}

const char *cl_expr_describe_char(const char *text, size_t len, size_t at, char *buf, size_t n)
{
    if (at >= len) return "end of expression";
    unsigned char c = (unsigned char)text[at];
    unsigned long cp;
    size_t k;
    if (c >= 0x20 && c < 0x7f) snprintf(buf, n, "'%c'", c);
    else if (c < 0x80 || !(k = utf8_code_point((const unsigned char *)text + at, len - at, &cp)))
        snprintf(buf, n, "byte 0x%02x", c);
    else {
        snprintf(buf, n, "U+%04lX '%.*s' (the model language is ASCII)", cp, (int)k, text + at);
        for (size_t i = 0; i < sizeof lookalikes / sizeof lookalikes[0]; i++)
            if (strlen(lookalikes[i].utf8) == k && !memcmp(text + at, lookalikes[i].utf8, k))
                snprintf(buf, n, "U+%04lX '%.*s': use ASCII '%s' instead of U+%04lX '%.*s'", cp, (int)k, text + at,
                         lookalikes[i].ascii, cp, (int)k, text + at);
    }
    return buf;
}

long cl_expr_unclosed_bracket(const char *text, size_t len, char *missing)
{
    long open[64];
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '#')
            while (i + 1 < len && text[i + 1] != '\n') i++;
        else if ((c == '(' || c == '[') && depth < 64) open[depth++] = (long)i;
        else if ((c == ')' || c == ']') && depth > 0) depth--;
    }
    if (!depth) return -1;
    *missing = text[open[depth - 1]] == '(' ? ')' : ']';
    return open[depth - 1];
}

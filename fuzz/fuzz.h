/* What the parser fuzz targets share: the input as text without a
   terminating NUL, and the promises every refusal keeps. */
#ifndef CHARTLESS_FUZZ_H
#define CHARTLESS_FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input in a heap block of exactly its size (one byte when empty), so
   that AddressSanitizer catches a read past its length; NULL when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (text) memcpy(text, data, size);
    return text;
}

/* A refused input: nothing handed out (\p out NULL), and the error says what. */
static inline void fuzz_check_refusal(const void *out, const cl_sys_error *e)
{
    if (out) abort();
    if (!memchr(e->what, 0, sizeof e->what) || !e->what[0]) abort();
}

#endif

/* libFuzzer target: the state reader of the command line (cl_cli_read_state)
   on any bytes, at two precisions and two state sizes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    /* the first byte picks the precision and the size; the rest is the input */
    mpfr_prec_t prec = data[0] & 1 ? 256 : 53;
    size_t n = data[0] & 2 ? 12 : 6;
    FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
    if (!f) return 0;
    if (size == 1) fgetc(f); /* empty input: fmemopen needs a length */
    mpfr_t x[12];
    for (size_t i = 0; i < n; i++) mpfr_init2(x[i], prec);
    size_t got = 99;
    int st = cl_cli_read_state(f, x[0], n, &got);
    if (st == CL_OK && got != n) abort();
    for (size_t i = 0; st == CL_OK && i < n; i++)
        if (!mpfr_number_p(x[i])) abort(); /* the reader promises finite numbers */
    if (got > n + 1) abort();
    for (size_t i = 0; i < n; i++) mpfr_clear(x[i]);
    fclose(f);
    mpfr_free_cache();
    return 0;
}

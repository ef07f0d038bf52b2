/* libFuzzer target: the model parser (cl_model_parse) on any bytes. The text
   is handed over without a terminating NUL, so a read past its length is
   caught by AddressSanitizer. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    cl_model *m = NULL;
    cl_sys_error e;
    memset(&e, 0, sizeof e);
    int st = cl_model_parse(&m, "fuzz.model", text, size, &e);
    if (st == CL_OK) {
        if (!m || m->L < 0) abort(); /* a parsed model has a Lagrangian */
        char where[128];
        cl_model_where(m, (long)(size / 2), where, sizeof where);
        cl_model_free(m);
    } else {
        fuzz_check_refusal(m, &e);
    }
    free(text);
    mpfr_free_cache();
    return 0;
}

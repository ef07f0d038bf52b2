/* libFuzzer target: the field-file parser (cl_field_parse) on any bytes, for
   the spring model; a field that parses is evaluated once at a state on the
   manifold. The text is handed over without a terminating NUL, so a read
   past its length is caught by AddressSanitizer. */
#include "fuzz.h"

static const char model_text[] =
    "manifold   q1, q2 : S2\n"
    "parameters m1 = 1, m2 = 2, k = 10, r0 = 0.5, g = 9.81\n"
    "lagrangian 1/2*m1*dot(q1', q1') + 1/2*m2*dot(q2', q2') - 1/2*k*(norm(q1 - q2) - r0)^2 - g*(m1*q1.z + m2*q2.z)\n";
static const double state[12] = {0.6, 0, 0.8, 0, 0.6, -0.8, 0, 0.3, 0, 0.5, 0.8, 0.6};
static const double par[5] = {1, 2, 10, 0.5, 9.81};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cl_model *m;
    cl_sys_error e;
    memset(&e, 0, sizeof e);
    if (!m && cl_model_parse(&m, "spring.model", model_text, strlen(model_text), &e)) abort();
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    cl_field *f = NULL;
    int st = cl_field_parse(&f, m, "fuzz.field", text, size, &e);
    if (st == CL_OK) {
        if (!f || f->n != 2 || f->form < 0 || f->form > 3) abort(); /* a parsed field has a form and every block */
        cl_field_eval *fe;
        cl_field_eval_new(&fe, f, 64);
        mpfr_ptr x = cl_rvec_new_mp(12 + 12 + 5, 64);
        if (fe && x) {
            for (int i = 0; i < 12; i++) mpfr_set_d(x + i, state[i], MPFR_RNDN);
            for (int i = 0; i < 5; i++) mpfr_set_d(x + 24 + i, par[i], MPFR_RNDN);
            char err[400];
            if (cl_field_eval_run(fe, x + 12, x, x + 24, err, sizeof err) && !err[0]) abort(); /* a failure says where */
        }
        cl_rvec_free_mp(x);
        cl_field_eval_free(fe);
        cl_field_free(f);
    } else {
        fuzz_check_refusal(f, &e);
    }
    free(text);
    mpfr_free_cache();
    return 0;
}

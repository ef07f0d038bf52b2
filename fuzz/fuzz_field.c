/* libFuzzer target: the field-file parser (cl_field_parse) on any bytes,
   against shipped models of every kind a field file may be written for:
   (S2)^2, R1 x S1, SO(3), SE(3), R1 x S2, a Hamiltonian on R2 and on SO(3),
   and the constrained sleigh (its multiplier and distribution forms). A
   field that parses is evaluated once at a state of its form's size. The
   text is handed over without a terminating NUL, so a read past its length
   is caught by AddressSanitizer. */
#include "fuzz.h"

static const char *const models[] = {"spring", "cart-pendulum", "rigid-body", "free-body",
                                     "cart-spherical", "henon-heiles", "heavy-top-hamiltonian", "sleigh"};
enum { NMODELS = sizeof models / sizeof models[0] };

/* A parsed field: every block given, a form of the model, evaluated at x_i = 0.3 + i/16. */
static void evaluate(const cl_field *f)
{
    if (!f || !f->dim || f->form < 0 || !f->comp) abort();
    cl_field_eval *fe;
    cl_field_eval_new(&fe, f, 64);
    mpfr_ptr x = cl_rvec_new_mp(2 * f->dim + f->nparam + 1, 64);
    if (fe && x) {
        for (size_t i = 0; i < f->dim; i++) mpfr_set_d(x + i, 0.3 + (double)i / 16, MPFR_RNDN);
        for (size_t i = 0; i < f->nparam; i++) mpfr_set_d(x + 2 * f->dim + i, 1.5 + (double)i, MPFR_RNDN);
        char err[400];
        if (cl_field_eval_run(fe, x + f->dim, x, x + 2 * f->dim, err, sizeof err) && !err[0]) abort(); /* a failure says where */
    }
    cl_rvec_free_mp(x);
    cl_field_eval_free(fe);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cl_model *m[NMODELS];
    cl_sys_error e;
    for (int k = 0; k < NMODELS; k++) {
        memset(&e, 0, sizeof e);
        if (!m[k] && cl_model_load_shipped(&m[k], models[k], &e)) abort();
    }
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    for (int k = 0; k < NMODELS; k++) {
        cl_field *f = NULL;
        memset(&e, 0, sizeof e);
        if (cl_field_parse(&f, m[k], "fuzz.field", text, size, &e) == CL_OK) evaluate(f);
        else fuzz_check_refusal(f, &e);
        cl_field_free(f);
    }
    free(text);
    mpfr_free_cache();
    return 0;
}

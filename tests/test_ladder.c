/*
 * cl_ladder_compare(), the public verdict for a user's comparison: a
 * computation that agrees to rounding is *rounding* with its discrepancy
 * under c·2^(1−p) at every rung, an exact one *pass*, a formula off by a
 * fixed amount *mismatch* (within tolerance at 53 bits, caught above), a
 * failed computation or invalid arguments *error*.
 */
#include <stdio.h>
#include <math.h>
#include "check.h"
#include "tap.h"

typedef struct seen {
    int calls;
    long prec[CL_LADDER_MAX];
} seen;

/* sqrt(2)^2 against 2: each of the two roundings adds at most one unit 2^-p (relative), so |s^2 - 2| <= 6·2^-p. */
static int sqrt2_squared(void *ctx, cl_prec_t prec, mpfr_ptr err)
{
    seen *s = ctx;
    if (s && s->calls < CL_LADDER_MAX) s->prec[s->calls++] = (long)prec;
    mpfr_t x;
    mpfr_init2(x, prec);
    mpfr_sqrt_ui(x, 2, MPFR_RNDN);
    mpfr_sqr(x, x, MPFR_RNDN);
    mpfr_sub_ui(err, x, 2, MPFR_RNDN);
    mpfr_clear(x);
    return CL_OK;
}

/* 1/4 + 1/4 against 1/2: exact at every precision. */
static int exact_sum(void *ctx, cl_prec_t prec, mpfr_ptr err)
{
    mpfr_t a;
    mpfr_init2(a, prec);
    mpfr_set_d(a, 0.25, MPFR_RNDN);
    mpfr_add(a, a, a, MPFR_RNDN);
    mpfr_sub_d(err, a, 0.5, MPFR_RNDN);
    mpfr_clear(a);
    return CL_OK;
}

/* pi against its 21-digit decimal: a fixed discrepancy of about 2.6e-21, a "wrong formula". */
static int pi_21_digits(void *ctx, cl_prec_t prec, mpfr_ptr err)
{
    mpfr_t a, b;
    mpfr_inits2(prec, a, b, (mpfr_ptr)0);
    mpfr_const_pi(a, MPFR_RNDN);
    mpfr_set_str(b, "3.14159265358979323846", 10, MPFR_RNDN);
    mpfr_sub(err, a, b, MPFR_RNDN);
    mpfr_clears(a, b, (mpfr_ptr)0);
    return CL_OK;
}

static int fails_at_256(void *ctx, cl_prec_t prec, mpfr_ptr err) { return prec == 256 ? CL_EDOMAIN : sqrt2_squared(ctx, prec, err); }

static int not_a_number(void *ctx, cl_prec_t prec, mpfr_ptr err)
{
    mpfr_set_nan(err);
    return CL_OK;
}

int main(void)
{
    plan(17);
    cl_ladder_result r;
    seen s = {0};
    enum cl_verdict v = cl_ladder_compare(sqrt2_squared, &s, 8, 0, NULL, &r);
    ok(v == CL_V_ROUNDING && r.verdict == v, "sqrt(2)^2 against 2 on the default ladder: %s", cl_verdict_name(v));
    ok(r.n == 4 && s.calls == 4 && s.prec[0] == 53 && s.prec[1] == 113 && s.prec[2] == 256 && s.prec[3] == 1024,
       "... called once at 53, 113, 256 and 1024 bits");
    int within = 1;
    for (int k = 0; k < r.n; k++) {
        /* the bound 6·2^-p of the two roundings, and the tolerance 8·2^(1-p) */
        within &= r.log2_err[k] <= log2(6.0) - (double)r.bits[k] && r.log2_tol[k] == 4.0 - (double)r.bits[k];
        within &= r.status[k] == 0 && (isinf(r.log2_err[k]) ? isinf(r.digits[k]) : fabs(r.digits[k] + r.log2_err[k] * log10(2.0)) <= 1e-12);
    }
    ok(within, "... each discrepancy at most 6·2^-p, tolerance log2(8) + 1 - p, digits = -log10 of the discrepancy");
    ok(r.log2_err[0] > -INFINITY, "... non-zero at 53 bits (2.0000000000000004)");
    is_log2_below(-r.digits[3] / log10(2.0), log2(6.0) - 1024, "... 1024 bits: %.1f digits", r.digits[3]);

    v = cl_ladder_compare(exact_sum, NULL, 1, 0, NULL, &r);
    ok(v == CL_V_PASS && isinf(r.log2_err[0]) && r.log2_err[0] < 0 && isinf(r.digits[3]), "1/4 + 1/4 against 1/2: pass (exact, +inf digits)");

    v = cl_ladder_compare(pi_21_digits, NULL, 8, 0, NULL, &r);
    ok(v == CL_V_MISMATCH, "pi against its 21-digit decimal: %s", cl_verdict_name(v));
    ok(r.log2_err[0] <= r.log2_tol[0] && r.log2_err[1] > r.log2_tol[1], "... within tolerance at 53 bits, above it at 113");
    is_double(r.digits[3], 20.58, 0.01, "... about 20.6 digits at 1024 bits, as at 256 (fixed size: %.2f, %.2f)", r.digits[3], r.digits[2]);

    v = cl_ladder_compare(fails_at_256, NULL, 8, 0, NULL, &r);
    ok(v == CL_V_ERROR && r.status[2] == CL_EDOMAIN && r.status[1] == 0, "a computation that fails at 256 bits: error, its status kept");
    v = cl_ladder_compare(not_a_number, NULL, 8, 0, NULL, &r);
    ok(v == CL_V_MISMATCH && isnan(r.log2_err[0]), "a NaN discrepancy: mismatch");

    const long two[] = {64, 200};
    s.calls = 0;
    v = cl_ladder_compare(sqrt2_squared, &s, 8, 2, two, &r);
    ok(v == CL_V_ROUNDING && r.n == 2 && s.calls == 2 && s.prec[0] == 64 && s.prec[1] == 200 && r.bits[1] == 200,
       "a ladder of its own (64, 200 bits) is run as given");
    ok(cl_ladder_compare(sqrt2_squared, NULL, 8, 0, NULL, NULL) == CL_V_ROUNDING, "the result may be NULL");

    const long down[] = {256, 113};
    ok(cl_ladder_compare(sqrt2_squared, NULL, 8, 2, down, &r) == CL_V_ERROR && r.status[0] == CL_EPARAM, "a ladder not increasing: error (CL_EPARAM)");
    ok(cl_ladder_compare(sqrt2_squared, NULL, 0.5, 0, NULL, &r) == CL_V_ERROR && r.status[0] == CL_EPARAM, "cond below 1: error (CL_EPARAM)");
    ok(cl_ladder_compare(sqrt2_squared, NULL, NAN, 0, NULL, &r) == CL_V_ERROR, "cond NaN: error");
    ok(cl_ladder_compare(sqrt2_squared, NULL, 8, CL_LADDER_MAX + 1, two, &r) == CL_V_ERROR, "more than CL_LADDER_MAX rungs: error");
    mpfr_free_cache();
    return done_testing();
}

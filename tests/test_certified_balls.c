/*
 * The balls of `--certify` contain the decimals as the user wrote them: each
 * number option goes through the command line's parser (cl_params_parse(),
 * MPFR at the working precision, rounded to nearest) and the skate's
 * skate_ball_around() (papers/skate/skate_certified_systems.c), and the
 * ball must contain the exact rational — `--g 9.81` contains 981/100 — at
 * every precision from 2 bits up (the radius is one ulp of the rounded
 * value, twice what rounding to nearest needs).
 */
#include <flint/fmpq.h>
#include <string.h>
#include "system.h"
#include "chartless_base.h"
#include "tap.h"

void skate_ball_around(arb_ptr b, mpfr_srcptr x); /* the skate's certified input */

static const struct { const char *text; long num, den; } decimals[] = {
    {"9.81", 981, 100}, {"0.8", 4, 5}, {"0.35", 7, 20}, {"0.051", 51, 1000}, {"0.004", 1, 250},
    {"-0.001", -1, 1000}, {"1e-7", 1, 10000000}, {"123456.789", 123456789, 1000}, {"0.5", 1, 2}, {"2", 2, 1},
};
#define NDEC (int)(sizeof decimals / sizeof decimals[0])

int main(void)
{
    static const cl_param table[] = {{.name = "g", .shape = CL_PARAM_NUMBER}, CL_PARAM_END};
    plan(NDEC);
    for (int i = 0; i < NDEC; i++) {
        fmpq_t q;
        fmpq_init(q);
        fmpq_set_si(q, decimals[i].num, (ulong)decimals[i].den);
        long bad = 0, tried = 0;
        for (long p = 2; p <= 1100; p += p < 130 ? 1 : 97, tried++) {
            const char *keys[] = {"g"}, *vals[] = {decimals[i].text};
            cl_params par;
            cl_sys_error e;
            arb_t b;
            arb_init(b);
            int st = cl_params_parse(&par, table, 1, keys, vals, (cl_prec_t)p, &e);
            if (!st) skate_ball_around(b, cl_params_x(&par, "g"));
            if (st || !arb_contains_fmpq(b, q)) bad = bad ? bad : p;
            if (!st) cl_params_free(&par);
            arb_clear(b);
        }
        ok(!bad, "--g %s: the ball contains %ld/%ld at all %ld precisions from 2 to 1100 bits%s", decimals[i].text,
           decimals[i].num, decimals[i].den, tried, bad ? " (not at some)" : "");
        if (bad) diag("first failing precision: %ld bits", bad);
        fmpq_clear(q);
    }
    cl_free_caches();
    return done_testing();
}

/*
 * Every registered check (the oracle's rows, defined once with CL_CHECK) at
 * the test precisions: each rung must stay within the check's own tolerance
 * cond·2^(1−p), and the ladder must end in the verdict *rounding* or *pass*.
 * Checks marked slow are left to `make oracle`; `-a` runs them too.
 */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "tap.h"

static const long rungs[] = {53, 113, 256, 1024};
#define NRUNGS (int)(sizeof rungs / sizeof rungs[0])

int main(int argc, char **argv)
{
    int all = argc > 1 && !strcmp(argv[1], "-a");
    size_t n = cl_check_count(), nrun = 0;
    for (size_t i = 0; i < n; i++) nrun += all || !cl_check_get(i)->slow;
    plan((int)nrun);
    for (size_t i = 0; i < n; i++) {
        const cl_check *c = cl_check_get(i);
        if (!all && c->slow) continue;
        double e[NRUNGS];
        int st[NRUNGS];
        for (int k = 0; k < NRUNGS; k++) {
            cl_check_result r;
            st[k] = cl_check_run(c, rungs[k], &r);
            e[k] = r.log2_err;
            if (st[k] || e[k] > cl_check_log2_tol(c, rungs[k]))
                diag("%s at %ld bits: %s, log2 discrepancy %.1f > tolerance %.1f %s", c->name, rungs[k],
                     st[k] ? cl_strerror(st[k]) : "above tolerance", e[k], cl_check_log2_tol(c, rungs[k]), r.note);
        }
        enum cl_verdict v = cl_check_verdict(c, NRUNGS, rungs, e, st);
        ok(v == CL_V_ROUNDING || v == CL_V_PASS, "%s %s: %s (cond %g: %s)", c->name, c->tags, cl_verdict_name(v),
           c->cond, c->why);
    }
    return done_testing();
}

/* The oracle's verdict rules on synthetic ladders (check/verdict.c). */
#include <math.h>
#include "tap.h"
#include "check.h"

static const long bits[4] = {53, 113, 256, 1024};

static enum cl_verdict judge(const cl_check *c, double e0, double e1, double e2, double e3)
{
    double e[4] = {e0, e1, e2, e3};
    int st[4] = {0, 0, 0, 0};
    return cl_check_verdict(c, 4, bits, e, st);
}

int main(void)
{
    plan(9);
    cl_check c = {.name = "synthetic", .cond = 16, .kind = CL_CHECK_ROUNDING};
    /* Tolerance 16·2^(1−p): log2 tol = 5 − p. */
    ok(judge(&c, -52, -112, -255, -1023) == CL_V_ROUNDING, "discrepancy 2^(-p+1) shrinking with p is rounding");
    ok(judge(&c, -48, -108, -251, -1019) == CL_V_ROUNDING, "discrepancy at the tolerance edge (2^(5-p)) is rounding");
    ok(judge(&c, -47.9, -108, -251, -1019) == CL_V_MISMATCH, "just above tolerance at 53 bits is a mismatch");
    ok(judge(&c, -40, -40, -40, -40) == CL_V_MISMATCH, "a discrepancy that stays put is a mismatch");
    ok(judge(&c, -INFINITY, -INFINITY, -INFINITY, -INFINITY) == CL_V_PASS, "exact agreement throughout is pass");
    ok(judge(&c, -60, -INFINITY, -300, -1100) == CL_V_ROUNDING, "mixed exact and rounding rungs are rounding");
    ok(judge(&c, NAN, -120, -300, -1100) == CL_V_MISMATCH, "a NaN discrepancy is a mismatch");
    cl_check x = {.name = "yes/no", .cond = 1, .kind = CL_CHECK_EXACT};
    ok(judge(&x, -INFINITY, -INFINITY, 0, -INFINITY) == CL_V_MISMATCH, "a yes/no check that disagrees once fails");
    double e[4] = {-60, -120, -300, -1100};
    int st[4] = {0, 0, CL_ENOCONV, 0};
    ok(cl_check_verdict(&c, 4, bits, e, st) == CL_V_ERROR, "a run-time error at one rung is an error");
    return done_testing();
}

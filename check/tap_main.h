/*
 * The main of a templated test (tap_real.h): run(p) at each precision of
 * TEST_PRECISIONS, then the TAP plan and the exit status of done_testing().
 */
#ifndef CL_TAP_MAIN_H
#define CL_TAP_MAIN_H
#include "tap_real.h"

static inline int cl_test_main(void (*run)(cl_prec_t p))
{
    for (int k = 0; k < TEST_NPREC; k++) run(TEST_PRECISIONS[k]);
    return done_testing();
}
#endif

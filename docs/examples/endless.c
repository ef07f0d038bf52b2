/* A student function that never returns: the grader's time limit ends it. */
#include "cl_student.h"

int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
    volatile int spin = 1;
    while (spin) dx[0] = x[0] * p->g;
    return 0;
}

/* A student function that dereferences a null pointer: the grader survives it. */
#include <stddef.h>
#include "cl_student.h"

int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
    volatile double *bad = NULL;
    dx[0] = x[0] + p->g + *bad;
    return 0;
}

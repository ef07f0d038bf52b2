/*
 * A wrong solution, as students often write it: the gravity term is not
 * projected onto the tangent plane, so the acceleration leaves T_q S².
 *     q̈ = −(g/l) e₃ − |q̇|² q        (should be −(g/l)(I − qqᵀ)e₃ − |q̇|² q)
 * `chartless grade` reports the q̈ components wrong and points out that the
 * difference lies along q₁: a missing projection I − q₁q₁ᵀ.
 */
#include "cl_student.h"

int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
    const double *q = x, *v = x + 3;
    double gl = p->g / p->l[0];
    double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    double e3[3] = {0, 0, 1};
    for (int i = 0; i < 3; i++) {
        dx[i] = v[i];
        dx[3 + i] = -gl * e3[i] - v2 * q[i];
    }
    return 0;
}

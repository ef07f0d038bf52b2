/*
 * A correct solution: the spherical pendulum (chain with n = 1) in the
 * (q, q̇) form [S2 (13)]. With T = ½ m l² |q̇|² and U = m g l e₃·q,
 *     q̈ = −(g/l)(I − qqᵀ) e₃ − |q̇|² q.
 * Build: cc -shared -fPIC -O2 -o pendulum_qdot_correct.so pendulum_qdot_correct.c
 * Grade: chartless grade --system chain --n 1 --m 1 --l 1.5 --g 9.81 --form qdot pendulum_qdot_correct.so
 */
#include "cl_student.h"

int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
    const double *q = x, *v = x + 3;
    double gl = p->g / p->l[0];
    double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    double e3[3] = {0, 0, 1}, q3 = q[2];
    for (int i = 0; i < 3; i++) {
        dx[i] = v[i];
        dx[3 + i] = -gl * (e3[i] - q3 * q[i]) - v2 * q[i];
    }
    return 0;
}

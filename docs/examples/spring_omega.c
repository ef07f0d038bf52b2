/* The (q, omega) field of models/spring.model in C, for
 * `chartless grade --model models/spring.model --form omega student.so`:
 * the same derivation as docs/examples/spring_omega.field. A model's
 * parameters reach the student as p->g (g) and p->extra (every other
 * parameter in the model's order: m1, m2, k, r0). */
#include <math.h>
#include "cl_student.h"
static void cross(double *o, const double *a, const double *b){o[0]=a[1]*b[2]-a[2]*b[1];o[1]=a[2]*b[0]-a[0]*b[2];o[2]=a[0]*b[1]-a[1]*b[0];}
int cl_student_spring_omega(double *dx, const double *x, const cl_student_params *p)
{
    double m1 = p->extra[0], m2 = p->extra[1], k = p->extra[2], r0 = p->extra[3], g = p->g;
    const double *q1 = x, *q2 = x + 3, *w1 = x + 6, *w2 = x + 9;
    double d[3] = {q1[0]-q2[0], q1[1]-q2[1], q1[2]-q2[2]}, nd = sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2]);
    double s = k * (1 - r0 / nd), F1[3], F2[3];
    for (int i = 0; i < 3; i++) { F1[i] = -s*d[i] - (i == 2 ? m1*g : 0); F2[i] = s*d[i] - (i == 2 ? m2*g : 0); }
    cross(dx, w1, q1); cross(dx + 3, w2, q2); cross(dx + 6, q1, F1); cross(dx + 9, q2, F2);
    for (int i = 0; i < 3; i++) { dx[6+i] /= m1; dx[9+i] /= m2; }
    return 0;
}

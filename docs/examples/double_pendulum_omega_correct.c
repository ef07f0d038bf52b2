/*
 * A correct solution: the double spherical pendulum (chain, n = 2) in the
 * (q, ω) form [S2 (40)]:
 *     q̇_i = ω_i × q_i,
 *     M_ii l_i² ω̇_i + Σ_{j≠i} M_ij l_i l_j S(q_i)ᵀ S(q_j) ω̇_j
 *         = Σ_{j≠i} M_ij l_i l_j |ω_j|² S(q_i) q_j + Σ_{j≥i} m_j g l_i S(e₃) q_i,
 * with M_ij = Σ_{k≥max(i,j)} m_k, solved as a 6×6 linear system.
 * Grade: chartless grade --system chain --n 2 --m 1,2 --l 1,0.5 --g 9.81 --form omega double_pendulum_omega_correct.so
 */
#include <math.h>
#include "cl_student.h"

/* +1 here; double_pendulum_omega_sign.c makes the same solution with −1. */
#ifndef GRAVITY_SIGN
#define GRAVITY_SIGN 1
#endif

static void hat(double S[3][3], const double *x)
{
    S[0][0] = 0;     S[0][1] = -x[2]; S[0][2] = x[1];
    S[1][0] = x[2];  S[1][1] = 0;     S[1][2] = -x[0];
    S[2][0] = -x[1]; S[2][1] = x[0];  S[2][2] = 0;
}

/* Gaussian elimination with partial pivoting on a 6×6 system. */
static int solve6(double A[6][6], double *b)
{
    for (int c = 0; c < 6; c++) {
        int piv = c;
        for (int r = c + 1; r < 6; r++) if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
        if (A[piv][c] == 0) return 1;
        for (int k = 0; k < 6; k++) { double t = A[c][k]; A[c][k] = A[piv][k]; A[piv][k] = t; }
        double t = b[c]; b[c] = b[piv]; b[piv] = t;
        for (int r = c + 1; r < 6; r++) {
            double f = A[r][c] / A[c][c];
            for (int k = c; k < 6; k++) A[r][k] -= f * A[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int r = 5; r >= 0; r--) {
        for (int k = r + 1; k < 6; k++) b[r] -= A[r][k] * b[k];
        b[r] /= A[r][r];
    }
    return 0;
}

int cl_student_chain_omega(double *dx, const double *x, const cl_student_params *p)
{
    const double *q[2] = {x, x + 3}, *w[2] = {x + 6, x + 9};
    const double *m = p->m, *l = p->l, g = p->g;
    double M[2][2] = {{m[0] + m[1], m[1]}, {m[1], m[1]}};
    double S[2][3][3], A[6][6] = {{0}}, b[6] = {0};
    hat(S[0], q[0]);
    hat(S[1], q[1]);
    for (int i = 0; i < 2; i++) {
        /* q̇_i = ω_i × q_i */
        const double *a = w[i], *c = q[i];
        dx[3 * i] = a[1] * c[2] - a[2] * c[1];
        dx[3 * i + 1] = a[2] * c[0] - a[0] * c[2];
        dx[3 * i + 2] = a[0] * c[1] - a[1] * c[0];
        for (int j = 0; j < 2; j++) {
            double f = M[i][j] * l[i] * l[j];
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < 3; s++) {
                    double v = 0;
                    if (i == j) v = (r == s) ? f : 0;
                    else for (int k = 0; k < 3; k++) v += f * S[i][k][r] * S[j][k][s];
                    A[3 * i + r][3 * j + s] = v;
                }
            if (j != i) {
                double w2 = w[j][0] * w[j][0] + w[j][1] * w[j][1] + w[j][2] * w[j][2];
                for (int r = 0; r < 3; r++)
                    for (int k = 0; k < 3; k++) b[3 * i + r] += f * w2 * S[i][r][k] * q[j][k];
            }
        }
        double mg = 0;
        for (int j = i; j < 2; j++) mg += m[j] * g * l[i];
        /* S(e₃) q_i = (−q_i,y, q_i,x, 0) */
        b[3 * i] += GRAVITY_SIGN * mg * -q[i][1];
        b[3 * i + 1] += GRAVITY_SIGN * mg * q[i][0];
    }
    if (solve6(A, b)) return 1;
    for (int r = 0; r < 6; r++) dx[6 + r] = b[r];
    return 0;
}

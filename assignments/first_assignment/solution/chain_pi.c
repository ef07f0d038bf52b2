/*
 * The first assignment (docs/first_assignment.md), solved: the double
 * spherical pendulum (chain, n = 2) in the (q, pi) form. For the
 * instructor: the autograders are tested on it (tests/test_assignments.sh);
 * compiled with -DWRONG_GRAVITY it makes the mistake the assignment's
 * "Read the feedback" shows (the gravity coefficient of the printed (42),
 * sum_j m_j g l_j, for both links).
 *
 * With R_ij = M_ij l_i l_j S(q_i)^T S(q_j) (R_ii = M_ii l_i^2 on vectors
 * normal to q_i), M_ij = sum_{k >= max(i,j)} m_k:
 *     pi = R(q) omega                     solved for omega (a 6x6 solve),
 *     q_i'  = omega_i x q_i,
 *     pi'   = d/dt (R(q) omega) = R' omega + R omega',
 * where R omega' is the right-hand side b of the (q, omega) equations
 * [S2 (40)], and R' has the off-diagonal blocks
 * M_ij l_i l_j (S(q_i')^T S(q_j) + S(q_i)^T S(q_j')). R and b are written
 * once here: the (q, omega) solution docs/examples/double_pendulum_omega_correct.c
 * includes this file and solves R omega' = b with them (GRAVITY_SIGN, +1
 * unless defined, is its planted sign mistake).
 */
#include <math.h>
#include "cl_student.h"

/* +1; docs/examples/double_pendulum_omega_sign.c flips it to -1. */
#ifndef GRAVITY_SIGN
#define GRAVITY_SIGN 1
#endif

static void hat(double S[3][3], const double *x)
{
    S[0][0] = 0;     S[0][1] = -x[2]; S[0][2] = x[1];
    S[1][0] = x[2];  S[1][1] = 0;     S[1][2] = -x[0];
    S[2][0] = -x[1]; S[2][1] = x[0];  S[2][2] = 0;
}

static void cross(double *c, const double *a, const double *b)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Gaussian elimination with partial pivoting on a 6x6 system. */
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

/* y += f X^T Y v for 3x3 X, Y. */
static void add_tt(double *y, double f, double X[3][3], double Y[3][3], const double *v)
{
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            for (int s = 0; s < 3; s++) y[r] += f * X[k][r] * Y[k][s] * v[s];
}

/* The link masses M_ij = sum_{k >= max(i,j)} m_k and the hats S[i] = S(q_i). */
static void chain_setup(double M[2][2], double S[2][3][3], const double *x, const cl_student_params *p)
{
    const double *m = p->m;
    M[0][0] = m[0] + m[1];
    M[0][1] = M[1][0] = M[1][1] = m[1];
    hat(S[0], x);
    hat(S[1], x + 3);
}

/* R(q): blocks M_ii l_i^2 I and M_ij l_i l_j S(q_i)^T S(q_j). */
static void chain_R(double A[6][6], double M[2][2], double S[2][3][3], const double *l)
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < 3; s++) {
                    double v = 0;
                    if (i == j) v = r == s;
                    else for (int k = 0; k < 3; k++) v += S[i][k][r] * S[j][k][s];
                    A[3 * i + r][3 * j + s] = M[i][j] * l[i] * l[j] * v;
                }
}

/* The right side b of [S2 (40)], R omega' = b, at q and omega (w):
   sum_{j != i} M_ij l_i l_j |omega_j|^2 S(q_i) q_j + sum_{j >= i} m_j g l_i S(e3) q_i. */
static void chain_b(double *b, double M[2][2], double S[2][3][3], const double *q, const double *w,
                    const cl_student_params *p)
{
    const double *m = p->m, *l = p->l, g = p->g;
    for (int i = 0; i < 2; i++) {
        int j = 1 - i;
        double f = M[i][j] * l[i] * l[j], wj2 = 0;
        for (int r = 0; r < 3; r++) b[3 * i + r] = 0;
        for (int k = 0; k < 3; k++) wj2 += w[3 * j + k] * w[3 * j + k];
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 3; k++) b[3 * i + r] += f * wj2 * S[i][r][k] * q[3 * j + k];
        double mg = 0;
#ifdef WRONG_GRAVITY
        for (int k = 0; k < 2; k++) mg += m[k] * g * l[k];
#else
        for (int k = i; k < 2; k++) mg += m[k] * g * l[i];
#endif
        /* S(e3) q_i = (-q_i,y, q_i,x, 0) */
        b[3 * i] += GRAVITY_SIGN * mg * -q[3 * i + 1];
        b[3 * i + 1] += GRAVITY_SIGN * mg * q[3 * i];
    }
}

int cl_student_chain_pi(double *dx, const double *x, const cl_student_params *p)
{
    const double *l = p->l;
    double M[2][2], S[2][3][3], A[6][6], w[6], qd[2][3], Sd[2][3][3], b[6];
    chain_setup(M, S, x, p);
    chain_R(A, M, S, l);
    for (int r = 0; r < 6; r++) w[r] = x[6 + r];
    if (solve6(A, w)) return 1;
    for (int i = 0; i < 2; i++) {
        cross(qd[i], w + 3 * i, x + 3 * i);
        for (int r = 0; r < 3; r++) dx[3 * i + r] = qd[i][r];
        hat(Sd[i], qd[i]);
    }
    chain_b(b, M, S, x, w, p);
    for (int i = 0; i < 2; i++) {
        int j = 1 - i;
        double f = M[i][j] * l[i] * l[j];
        /* R' omega: the off-diagonal blocks only */
        add_tt(b + 3 * i, f, Sd[i], S[j], w + 3 * j);
        add_tt(b + 3 * i, f, S[i], Sd[j], w + 3 * j);
    }
    for (int r = 0; r < 6; r++) dx[6 + r] = b[r];
    return 0;
}

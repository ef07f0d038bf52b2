/*
 * A correct solution: the double spherical pendulum (chain, n = 2) in the
 * (q, ω) form [S2 (40)]:
 *     q̇_i = ω_i × q_i,
 *     M_ii l_i² ω̇_i + Σ_{j≠i} M_ij l_i l_j S(q_i)ᵀ S(q_j) ω̇_j
 *         = Σ_{j≠i} M_ij l_i l_j |ω_j|² S(q_i) q_j + Σ_{j≥i} m_j g l_i S(e₃) q_i,
 * with M_ij = Σ_{k≥max(i,j)} m_k, solved as a 6×6 linear system R ω̇ = b.
 * The matrix R(q) and the right side b are those the first assignment's
 * (q, π) solution writes (π = R ω, π̇ = Ṙ ω + b), so this file takes them
 * from it; the .so also carries that solution's cl_student_chain_pi.
 * Grade: chartless grade --system chain --n 2 --m 1,2 --l 1,0.5 --g 9.81 --form omega double_pendulum_omega_correct.so
 */
#include "../../assignments/first_assignment/solution/chain_pi.c"

int cl_student_chain_omega(double *dx, const double *x, const cl_student_params *p)
{
    double M[2][2], S[2][3][3], A[6][6], b[6];
    chain_setup(M, S, x, p);
    for (int i = 0; i < 2; i++) cross(dx + 3 * i, x + 6 + 3 * i, x + 3 * i); /* q̇_i = ω_i × q_i */
    chain_R(A, M, S, p->l);
    chain_b(b, M, S, x, x + 6, p);
    if (solve6(A, b)) return 1;
    for (int r = 0; r < 6; r++) dx[6 + r] = b[r];
    return 0;
}

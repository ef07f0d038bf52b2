/*
 * One program, two precisions: the double spherical pendulum [S2 V]
 * integrated by Gauss–Legendre (s = 4, order 8, symplectic) to t = 2, and
 * the relative change of its energy.
 *
 * The file is compiled twice (see Makefile): with -DCL_PREC=CL_DOUBLE every
 * CL_FN(name) is name_d and a scalar is a double; with -DCL_PREC=CL_MPFR it
 * is name_mp and a scalar is an mpfr_t at the precision given on the
 * command line. Parameters are read from decimal strings at the working
 * precision (cl_real_from_str): a double literal such as 9.81 in MPFR code
 * would carry only 53 bits and cap the agreement at about 1e-16 on every
 * rung — the "stays put" signature the oracle reads as a wrong equation.
 *
 *     ./double_pendulum_d          # IEEE double
 *     ./double_pendulum_mp 256     # MPFR at 256 bits
 *
 * In double the change is rounding (about 2^-52); at 113 and 256 bits it is
 * the same 2^-62 at both: the method's own error for h = 1/256, which more
 * precision cannot remove and a smaller step can.
 */
#include <stdio.h>
#include <stdlib.h>
#include <chartless/chartless.h>
#include <chartless/scalar.h>

static int field(rptr dx, rsrc t, rsrc x, void *ctx)
{
    (void)t;
    return CL_FN(cl_chain_rhs)(ctx, CL_S2_OMEGA, dx, x);
}

int main(int argc, char **argv)
{
    cl_prec_t prec = argc > 1 ? atol(argv[1]) : 53;
    if (cl_prec_check(prec) != CL_OK) {
        fprintf(stderr, "error: precision must be 2 to 65536 bits (%s)\n", argv[1]);
        return 2;
    }
    const size_t n = 2;
    rptr par = CL_FN(cl_rvec_new)(2 * n + 1, prec); /* m1, m2, l1, l2, g */
    const char *val[] = {"1", "2", "1", "0.5", "9.81"};
    for (int i = 0; i < 5; i++) CL_FN(cl_real_from_str)(par + i, val[i]);
    CL_FN(cl_chain) *ch;
    if (CL_FN(cl_chain_new)(&ch, n, par, par + n, par + 2 * n, prec)) return 1;

    /* (q1, q2, w1, w2): q1 = -e3, q2 = (0.6, 0, -0.8), w1 = e1, w2 = 2 e2 */
    rptr x = CL_FN(cl_rvec_new)(6 * n, prec), inv = CL_FN(cl_rvec_new)(4, prec);
    const char *state[] = {"0", "0", "-1", "0.6", "0", "-0.8", "1", "0", "0", "0", "2", "0"};
    for (int i = 0; i < 12; i++) CL_FN(cl_real_from_str)(x + i, state[i]);
    CL_FN(cl_chain_invariants)(ch, CL_S2_OMEGA, inv, x);
    R_DECL(E0, prec); R_DECL(t, prec); R_DECL(t1, prec); R_DECL(h, prec);
    r_set(E0, inv);

    CL_FN(cl_ode_ws) *ws;
    if (CL_FN(cl_ode_ws_new)(&ws, 6 * n, prec, CL_ODE_GAUSS, 4)) return 1;
    r_set_si(t1, 2);
    r_set_q(h, 1, 256);
    int st = CL_FN(cl_ode_integrate)(ws, field, ch, t, x, t1, h, NULL);
    CL_FN(cl_chain_invariants)(ch, CL_S2_OMEGA, inv, x);
    r_sub(t, inv, E0);
    r_div(t, t, E0);
    printf("%ld bits: status %d, relative energy change after t = 2: %.3e (2^%.1f)\n", (long)prec, st,
           r_get_d(t), r_log2abs(t));

    CL_FN(cl_ode_ws_free)(ws);
    CL_FN(cl_chain_free)(ch);
    CL_FN(cl_rvec_free)(x);
    CL_FN(cl_rvec_free)(inv);
    CL_FN(cl_rvec_free)(par);
    return st != 0;
}

/* The Energy–Casimir procedure on small problems with known answers. */
#include "tap_main.h"
#include "energy_casimir.h"

static void run(cl_prec_t p)
{
    RV_DECL(DE, 3, p); RV_DECL(DC, 6, p); RV_DECL(HE, 9, p); RV_DECL(HC, 18, p);
    RV_DECL(c, 3, p); RV_DECL(Hr, 9, p); RV_DECL(eig, 3, p); RV_DECL(Z, 9, p);
    R_DECL(t, p); R_DECL(w, p);
    cl_ec_report rep;
    /* ℰ = x² − y² + z² + 3y, C = y at 0: c = −3, tangent space {e₁, e₃}, Hr = 2I: definite */
    r_set_si(DE + 1, 3);
    r_set_si(DC + 1, 1);
    r_set_si(HE, 2); r_set_si(HE + 4, -2); r_set_si(HE + 8, 2);
    int st = CL_FN(cl_energy_casimir)(&rep, c, Z, Hr, eig, DE, DC, HE, HC, 3, 1, 64);
    r_set_si(w, -3);
    ok(st == CL_OK && rep.d == 2 && rep.definite == 1 && rep.npos == 2, "x^2 - y^2 + z^2 on {y = 0}: positive definite [%s, %ld bits]", TEST_KIND, (long)p);
    is_real(c, w, 4, "multiplier c = -3");
    ok(rep.log2_residual == -INFINITY, "residual exactly zero [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_si(w, 2);
    is_real(eig, w, 16, "restricted Hessian eigenvalue 2");
    /* with C = x + y (one invariant): tangent space {(1,−1,0)/√2, e₃}; Hr eigenvalues {0, 2}: ℰ'' on
     * (1,−1,0)/√2 is (2 − 2)/2 = 0 → semidefinite, not definite; c from least squares of 3 = −c·1 on y
     * and 0 = −c·1 on x has residual 3/√2 */
    for (int i = 0; i < 6; i++) r_set_zero(DC + i);
    r_set_si(DC, 1); r_set_si(DC + 1, 1);
    st = CL_FN(cl_energy_casimir)(&rep, c, Z, Hr, eig, DE, DC, HE, HC, 3, 1, 64);
    ok(st == CL_OK && rep.definite == 0 && rep.nzero == 1, "degenerate direction gives a zero eigenvalue, no verdict [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_q(w, -3, 2);
    is_real(c, w, 8, "least-squares multiplier -3/2");
    r_set_si(t, 9); r_div_si(t, t, 2); r_sqrt(t, t); r_div_si(t, t, 3); /* residual / |DE| = (3/√2)/3 */
    is_double(rep.log2_residual, r_log2abs(t), 1e-9, "least-squares residual 1/sqrt(2) [%s, %ld bits]", TEST_KIND, (long)p);
    /* dependent gradients */
    r_set_si(DC + 3, 2); r_set_si(DC + 4, 2);
    ok(CL_FN(cl_energy_casimir)(&rep, c, Z, Hr, eig, DE, DC, HE, HC, 3, 2, 64) == CL_ESINGULAR, "dependent DC_j rejected [%s, %ld bits]", TEST_KIND, (long)p);
    ok(CL_FN(cl_energy_casimir)(&rep, c, Z, Hr, eig, DE, DC, HE, HC, 3, 3, 64) == CL_EDIM, "k = n rejected [%s, %ld bits]", TEST_KIND, (long)p);
    /* an indefinite Hessian: ℰ = x² − y² + z² with no invariant, inertia (2, 1, 0), eigenvalues −2, 2, 2 */
    for (int i = 0; i < 3; i++) r_set_zero(DE + i);
    st = CL_FN(cl_energy_casimir)(&rep, c, Z, Hr, eig, DE, DC, HE, HC, 3, 0, 64);
    if (st || rep.npos != 2) diag("st %d inertia (%d, %d, %d)", st, rep.npos, rep.nneg, rep.nzero);
    ok(st == CL_OK && rep.npos == 2 && rep.nneg == 1 && rep.definite == 0, "k = 0: inertia (2, 1, 0) of diag(2, -2, 2) [%s, %ld bits]", TEST_KIND, (long)p);
    r_set_si(w, -2);
    is_real(eig, w, 16, "smallest eigenvalue -2");
}

int main(void) { return cl_test_main(run); }

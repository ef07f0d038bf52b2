/**
 * \page ch_skate_stability SKATE §5.4, App. A.1 — stability of sliding and spinning
 *
 * Linearization. At the sliding equilibrium (40) the Jacobian of (38) is
 * 5×5 with the only non-zero entries Df₁₂ = mlY₀/Ī₁, Df₁₄ = mgl/Ī₁ and
 * Df₄₁ = 1 (the printed matrix of Prop. 12 is 4×4, a row and a column
 * lost); its eigenvalues are 0, 0, 0, ±√(mgl/Ī₁): unstable (Prop. 12). At
 * the spinning equilibrium (41) the non-zero entries are Df₁₃ = mlΩ₀/Ī₁,
 * Df₁₄ = (mgl + (I₂ + ml² − I₃)Ω₀²)/Ī₁, Df₃₁ = −2lΩ₀, Df₄₁ = 1 (the printed
 * A.1 matrix shows mgl − (I₃ + ml² − I₂)Ω₀² in Df₁₄, which is the value of
 * Df₁₄ + Df₁₃Df₃₁, i.e. of the eigenvalue²·Ī₁), and the eigenvalues are
 * 0, 0, 0, ±√((mgl − (I₃ + ml² − I₂)Ω₀²)/Ī₁) (Prop. 11): unstable when
 * I₃ + ml² < I₂, inconclusive otherwise. Df is computed by hand
 * (cl_skate_jacobian_zeta()) and by src/deriv (cl_skate_jacobian_deriv(), in
 * skate_sim.c, so that this chapter also compiles for Arb balls, where a
 * finite-difference derivative has no enclosure), and the oracle compares
 * their characteristic polynomials (cl_charpoly()) with λ³(λ² − κ).
 *
 * Energy–Casimir (Aeyels). With ℰ (30), C₁ (36), C₂ (37), C₃, the general
 * procedure of src/energy_casimir.h (least-squares multipliers, null space of
 * the \f$DC_j\f$, inertia of the restricted Hessian) gives at \f$ζ_{\mathrm{sp}}\f$ the multipliers
 * (−Ω₀, 0, I₃Ω₀² − mgl) of A.1. The tangent space is spanned by e₁ and
 * (0, 0, −2lΩ₀, 1, 0) — not by e₁ and e₄ as printed, since DC₂ = (0, 0, 1,
 * 2lΩ₀, 0) is not orthogonal to e₄ — but the restricted form is the same,
 * Ī₁s₁² + ((I₃ + ml² − I₂)Ω₀² − mgl)s₂², because the v³ terms cancel. It is
 * definite exactly when (42) holds; cl_skate_spinning_threshold() finds the threshold by bisection on the
 * verdict and the oracle compares it with √(mgl/(I₃ + ml² − I₂)).
 */
#include "r3.h"
#include "skate.h"
#include "linalg.h"

#define P_(k) (par + CL_SKATE_##k)

int CL_FN(cl_charpoly)(rptr coef, rsrc A, int n)
{
    if (n < 1 || n > 8) return CL_EDIM;
    cl_prec_t p = r_prec(coef);
    RV_DECL(M, n * n, p); RV_DECL(AM, n * n, p); RV_DECL(cf, n + 1, p);
    R_DECL(t, p);
    r_set_si(cf + n, 1);
    /* M₀ = 0; M_k = A M_{k−1} + c_{n−k+1} I; c_{n−k} = −tr(A M_k)/k */
    for (int k = 1; k <= n; k++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                r_set_zero(t);
                for (int q = 0; q < n; q++) r_addmul(t, A + i * n + q, M + q * n + j);
                r_set(AM + i * n + j, t);
            }
        for (int i = 0; i < n; i++) r_add(AM + i * n + i, AM + i * n + i, cf + n - k + 1);
        for (int i = 0; i < n * n; i++) r_set(M + i, AM + i);
        r_set_zero(t);
        for (int i = 0; i < n; i++)
            for (int q = 0; q < n; q++) r_addmul(t, A + i * n + q, M + q * n + i);
        r_div_si(t, t, k);
        r_neg(cf + n - k, t);
    }
    CL_FN(cl_rvec_copy)(coef, cf, (size_t)(n + 1));
    return CL_OK;
}

/** App. A.1 through the general procedure. */
int CL_FN(cl_skate_energy_casimir)(cl_ec_report *rep, rptr c, rptr Hr, rptr eig, rsrc par, rsrc zeta, double zero_tol)
{
    cl_prec_t p = r_prec(c);
    RV_DECL(DE, 5, p); RV_DECL(DC, 15, p); RV_DECL(HE, 25, p); RV_DECL(HC, 75, p);
    int st = CL_FN(cl_skate_invariant_derivatives)(DE, DC, HE, HC, par, zeta);
    if (st) return st;
    return CL_FN(cl_energy_casimir)(rep, c, NULL, Hr, eig, DE, DC, HE, HC, 5, 3, zero_tol);
}

int CL_FN(cl_skate_spinning_verdict)(int *verdict, rptr margin, rsrc par, rsrc Omega0)
{
    cl_prec_t p = r_prec(Omega0);
    RV_DECL(z, 5, p); RV_DECL(c, 3, p); RV_DECL(Hr, 4, p); RV_DECL(ev, 2, p);
    cl_ec_report rep;
    CL_FN(cl_skate_spinning)(z, Omega0);
    int st = CL_FN(cl_skate_energy_casimir)(&rep, c, Hr, NULL, par, z, 0.0);
    *verdict = st ? CL_UNDECIDED : cl_ec_verdict(&rep, 0);
    if (!st && margin) {
        CL_FN(cl_sym2_eig)(ev, Hr);
        r_set(margin, ev);
    }
    return st;
}

int CL_FN(cl_skate_sigma_verdict)(int *verdict, rptr margin, rsrc par, rsrc Y0, rsrc sigma)
{
    cl_prec_t p = r_prec(sigma);
    RV_DECL(pm, CL_SKATE_NPAR, p); RV_DECL(z, 5, p); RV_DECL(c, 3, p); RV_DECL(Hr, 4, p); RV_DECL(ev, 2, p);
    cl_ec_report rep;
    *verdict = CL_UNDECIDED;
    int st = CL_FN(cl_skate_matched_params)(pm, par, sigma);
    if (st) return st;
    CL_FN(cl_skate_sliding)(z, Y0);
    st = CL_FN(cl_skate_energy_casimir)(&rep, c, Hr, NULL, pm, z, 0.0);
    *verdict = st ? CL_UNDECIDED : cl_ec_verdict(&rep, -1);
    if (!st && margin) {
        CL_FN(cl_sym2_eig)(ev, Hr);
        r_neg(margin, ev + 1);
    }
    return st;
}

/* The verdicts as bisection predicates. */
static int spin_pred(int *verdict, rsrc par, rsrc extra, rsrc Om)
{
    (void)extra;
    return CL_FN(cl_skate_spinning_verdict)(verdict, NULL, par, Om);
}

static int sigma_pred(int *verdict, rsrc par, rsrc Y0, rsrc sigma)
{
    return CL_FN(cl_skate_sigma_verdict)(verdict, NULL, par, Y0, sigma);
}

/* Bisection of [lo, hi] on a verdict that differs at the ends, until the
   relative width is 2^(8−p) or (balls) the verdict at the midpoint is not
   proven; lo and hi keep their verdicts throughout. */
static int bisect_bracket(rptr lo, rptr hi, rsrc lo_, rsrc hi_, int (*pred)(int *, rsrc, rsrc, rsrc), rsrc par,
                          rsrc extra)
{
    cl_prec_t p = r_prec(lo);
    R_DECL(mid, p); R_DECL(w, p); R_DECL(tol, p);
    int dlo, dhi, dm, st;
    r_set(lo, lo_); r_set(hi, hi_);
    if ((st = pred(&dlo, par, extra, lo)) || (st = pred(&dhi, par, extra, hi))) return st;
    if (dlo == CL_UNDECIDED || dhi == CL_UNDECIDED) return CL_EUNDECIDED;
    if (dlo == dhi) return CL_EDOMAIN;
    for (int it = 0; it < 4 * (int)p + 64; it++) {
        r_sub(w, hi, lo);
        r_abs(w, w);
        r_abs(tol, hi);
        r_mul_2si(tol, tol, 8 - (long)p);
        if (r_cmp(w, tol) <= 0) break;
        r_add(mid, lo, hi);
        r_mul_2si(mid, mid, -1);
        if ((st = pred(&dm, par, extra, mid))) return st;
        if (dm == CL_UNDECIDED) break;
        if (dm == dlo) r_set(lo, mid); else r_set(hi, mid);
    }
    return CL_OK;
}

static int bisect_common(rptr x, rsrc lo_, rsrc hi_, int (*pred)(int *, rsrc, rsrc, rsrc), rsrc par, rsrc extra)
{
    cl_prec_t p = r_prec(x);
    R_DECL(lo, p); R_DECL(hi, p);
    int st = bisect_bracket(lo, hi, lo_, hi_, pred, par, extra);
    if (st) return st;
    r_add(x, lo, hi);
    r_mul_2si(x, x, -1);
    return CL_OK;
}

/* (42) needs I₃ + ml² > I₂ */
static int spin_domain(rsrc par)
{
    R_DECL(t, r_prec(par));
    r_mul(t, P_(M), P_(L));
    r_fma(t, t, P_(L), P_(I3));
    return r_cmp(t, P_(I2)) > 0 ? CL_OK : CL_EDOMAIN;
}

int CL_FN(cl_skate_spinning_threshold)(rptr Omega0, rsrc par, rsrc lo, rsrc hi)
{
    int st = spin_domain(par);
    return st ? st : bisect_common(Omega0, lo, hi, spin_pred, par, NULL);
}

int CL_FN(cl_skate_spinning_bracket)(rptr lo, rptr hi, rsrc par, rsrc lo0, rsrc hi0)
{
    int st = spin_domain(par);
    return st ? st : bisect_bracket(lo, hi, lo0, hi0, spin_pred, par, NULL);
}

int CL_FN(cl_skate_sigma_threshold)(rptr sigma, rsrc par, rsrc Y0, rsrc lo, rsrc hi)
{
    return bisect_common(sigma, lo, hi, sigma_pred, par, Y0);
}

int CL_FN(cl_skate_sigma_bracket)(rptr lo, rptr hi, rsrc par, rsrc Y0, rsrc lo0, rsrc hi0)
{
    return bisect_bracket(lo, hi, lo0, hi0, sigma_pred, par, Y0);
}

void CL_FN(cl_skate_closed_threshold)(rptr x, rsrc par, int spin)
{
    R_DECL(u, r_prec(par));
    r_mul(u, P_(M), P_(L));
    if (spin) { /* (42) */
        r_fma(u, u, P_(L), P_(I3));
        r_sub(u, u, P_(I2));
        r_mul(x, P_(M), P_(G));
        r_mul(x, x, P_(L));
        r_div(x, x, u);
        r_sqrt(x, x);
    } else { /* (58) */
        r_fma(u, u, P_(L), P_(I1));
        r_sqr(x, P_(J1));
        r_div(x, x, u);
        r_neg(x, x);
    }
}

/*
 * Check your own derivation on the precision ladder, in C: the (q, omega)
 * field of two masses on the unit sphere joined by a spring (the model of
 * models/spring.model), derived by hand, against the field the library
 * derives from the Lagrangian, with cl_ladder_compare() judging the
 * discrepancy at 53, 113, 256 and 1024 bits as the oracle judges its
 * own checks (docs/verdict.md).
 *
 * The hand derivation: with d = q1 − q2 and s = k(1 − r0/|d|) the forces
 * are F1 = −s d − m1 g e3 and F2 = s d − m2 g e3, and
 *     q_i' = ω_i × q_i,    ω_i' = q_i × F_i / m_i .
 * Every number is read from a decimal string at the rung's precision
 * (cl_real_from_str_mp): a double literal would cap both sides at 53 bits.
 *
 *     ./ladder_compare      # the derivation, then the same with one sign flipped
 *
 * Exit status 0 when the derivation is judged rounding (or pass) and the
 * flipped one mismatch.
 */
#include <stdio.h>
#include <string.h>
#include <chartless/chartless.h>

static const char spring_model[] =
    "manifold   q1, q2 : S2\n"
    "parameters m1 = 1, m2 = 2, k = 10, r0 = 0.5, g = 9.81\n"
    "lagrangian 1/2*m1*dot(q1', q1') + 1/2*m2*dot(q2', q2')\n"
    "             - 1/2*k*(norm(q1 - q2) - r0)^2\n"
    "             - g*(m1*q1.z + m2*q2.z)\n";
/* q1, q2, w1, w2; normalized and projected at the working precision */
static const char *const state[12] = {"0.6", "0", "0.8", "0", "0.6", "-0.8", "0", "0.3", "0", "0.5", "0.8", "0.6"};

typedef struct spring {
    const cl_model *m;
    int flip; /* 1: the spring force on mass 2 with the wrong sign */
} spring;

/* The hand-derived (q, omega) field; par = m1, m2, k, r0, g. */
static void hand_omega(mpfr_ptr dx, mpfr_srcptr x, mpfr_srcptr par, int flip, cl_prec_t prec)
{
    mpfr_ptr t = cl_rvec_new_mp(9, prec), d = t, F = t + 3, s = t + 6;
    for (int k = 0; k < 3; k++) mpfr_sub(d + k, x + k, x + 3 + k, MPFR_RNDN);
    cl_v3_norm_mp(s, d);
    mpfr_div(s, par + 3, s, MPFR_RNDN);           /* r0/|d| */
    mpfr_ui_sub(s, 1, s, MPFR_RNDN);
    mpfr_mul(s, s, par + 2, MPFR_RNDN);           /* s = k (1 - r0/|d|) */
    for (int i = 0; i < 2; i++) {
        mpfr_srcptr q = x + 3 * i, w = x + 6 + 3 * i, m = par + i;
        int sign = i == 0 ? -1 : flip ? -1 : 1;
        for (int k = 0; k < 3; k++) {
            mpfr_mul(F + k, s, d + k, MPFR_RNDN);
            if (sign < 0) mpfr_neg(F + k, F + k, MPFR_RNDN);
        }
        mpfr_mul(s + 1, m, par + 4, MPFR_RNDN);   /* m_i g */
        mpfr_sub(F + 2, F + 2, s + 1, MPFR_RNDN);
        cl_v3_cross_mp(dx + 3 * i, w, q);
        cl_v3_cross_mp(dx + 6 + 3 * i, q, F);
        for (int k = 0; k < 3; k++) mpfr_div(dx + 6 + 3 * i + k, dx + 6 + 3 * i + k, m, MPFR_RNDN);
    }
    cl_rvec_free_mp(t);
}

/* At prec bits: max |hand − derived from L| / max(1, max |derived|) over the 12 components. */
static int compare(void *ctx, cl_prec_t prec, mpfr_ptr err)
{
    const spring *sp = ctx;
    const cl_model *m = sp->m;
    mpfr_ptr x = cl_rvec_new_mp(12, prec), a = cl_rvec_new_mp(12, prec), b = cl_rvec_new_mp(12, prec);
    mpfr_ptr par = cl_rvec_new_mp(m->nparam, prec), r = cl_rvec_new_mp(2, prec);
    cl_lagr_s2_mp *lg;
    int st = cl_lagr_s2_new_mp(&lg, m->g, m->L, m->n, m->nparam, prec);
    for (size_t k = 0; k < m->nparam && !st; k++) {
        st = cl_real_from_str_mp(par + k, m->pdef[k]);
        cl_lagr_s2_set_param_mp(lg, k, par + k);
    }
    for (int k = 0; k < 12 && !st; k++) st = cl_real_from_str_mp(x + k, state[k]);
    for (int i = 0; i < 2 && !st; i++) {
        cl_v3_norm_mp(r, x + 3 * i);
        for (int k = 0; k < 3; k++) mpfr_div(x + 3 * i + k, x + 3 * i + k, r, MPFR_RNDN);
        cl_v3_proj_tangent_mp(x + 6 + 3 * i, x + 3 * i, x + 6 + 3 * i);
    }
    if (!st) st = cl_lagr_s2_rhs_mp(lg, CL_LAGR_OMEGA, b, x);
    if (!st) {
        hand_omega(a, x, par, sp->flip, prec);
        mpfr_set_ui(r + 1, 1, MPFR_RNDN);
        for (int k = 0; k < 12; k++) {
            mpfr_sub(r, a + k, b + k, MPFR_RNDN);
            mpfr_abs(r, r, MPFR_RNDN);
            mpfr_max(err, err, r, MPFR_RNDN);
            mpfr_abs(r, b + k, MPFR_RNDN);
            mpfr_max(r + 1, r + 1, r, MPFR_RNDN);
        }
        mpfr_div(err, err, r + 1, MPFR_RNDN);
    }
    cl_lagr_s2_free_mp(lg);
    cl_rvec_free_mp(x); cl_rvec_free_mp(a); cl_rvec_free_mp(b); cl_rvec_free_mp(par); cl_rvec_free_mp(r);
    return st;
}

static enum cl_verdict report(const char *title, spring *sp)
{
    /* cond 64: the derived side differentiates L twice and solves a 6x6
       system with masses 1 and 2; a few dozen roundings on either side */
    cl_ladder_result res;
    enum cl_verdict v = cl_ladder_compare(compare, sp, 64, 0, NULL, &res);
    printf("%s\n", title);
    for (int k = 0; k < res.n; k++) {
        if (res.status[k]) printf("  %4ld bits: %s\n", res.bits[k], cl_strerror(res.status[k]));
        else if (res.log2_err[k] == -INFINITY) printf("  %4ld bits: exact\n", res.bits[k]);
        else printf("  %4ld bits: %6.1f digits (discrepancy 2^%.1f, tolerance 2^%.0f)%s\n", res.bits[k], res.digits[k],
                    res.log2_err[k], res.log2_tol[k], res.log2_err[k] > res.log2_tol[k] ? "  above" : "");
    }
    printf("  verdict: %s\n", cl_verdict_name(v));
    return v;
}

int main(void)
{
    cl_model *m = NULL;
    cl_sys_error e = {"", ""};
    if (cl_model_parse(&m, "spring", spring_model, strlen(spring_model), &e)) {
        fprintf(stderr, "error: %s (%s)\n", e.what, e.arg);
        return 2;
    }
    spring sp = {m, 0};
    enum cl_verdict right = report("the (q, omega) field of the spring by hand, against the one derived from L:", &sp);
    sp.flip = 1;
    enum cl_verdict wrong = report("the same with the spring force on mass 2 of the wrong sign:", &sp);
    cl_model_free(m);
    cl_free_caches();
    return (right == CL_V_ROUNDING || right == CL_V_PASS) && wrong == CL_V_MISMATCH ? 0 : 1;
}

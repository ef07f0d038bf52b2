/*
 * The row MODEL.eq.NAME of a model of S² factors: a declared equilibrium,
 * where the field vanishes and the Jacobian's eigenvalues agree between
 * forms and with a reference at twice the precision. The table is
 * model_rows.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "deriv.h"
#define CL_TEMPLATE_HEADER "deriv_decl.h"
#include "cl_instantiate.h"
#include "lagr_s2.h"
#include "linalg.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"
#include "ode.h"
#include "r3.h"

/* ------------------------------------------------------------ equilibria */

typedef struct eq_ctx {
    const cl_model *m;
    int k, form;
    cl_prec_t p;
    cl_lagr_s2_mp *lg;
    mpfr_ptr x0, E, y; /* the equilibrium, the tangent bases E_i (3×2 each), a state */
} eq_ctx;

static void eq_ctx_clear(eq_ctx *c)
{
    cl_lagr_s2_free_mp(c->lg);
    cl_rvec_free_mp(c->x0);
    c->lg = NULL;
    c->x0 = NULL;
}

/* An orthonormal basis e1, e2 of the plane normal to the unit vector q (E: 3×2, row-major). */
static void tangent_basis_mp(mpfr_ptr E, mpfr_srcptr q, cl_prec_t p)
{
    int ax = 0;
    for (int c = 1; c < 3; c++)
        if (mpfr_cmpabs(q + c, q + ax) < 0) ax = c;
    mpfr_t s, e1[3], e2[3];
    mpfr_init2(s, p);
    for (int c = 0; c < 3; c++) { mpfr_init2(e1[c], p); mpfr_init2(e2[c], p); }
    for (int c = 0; c < 3; c++) mpfr_mul(e1[c], q + ax, q + c, MPFR_RNDN), mpfr_neg(e1[c], e1[c], MPFR_RNDN);
    mpfr_add_ui(e1[ax], e1[ax], 1, MPFR_RNDN); /* e_ax − (q·e_ax) q */
    mpfr_hypot(s, e1[0], e1[1], MPFR_RNDN);
    mpfr_hypot(s, s, e1[2], MPFR_RNDN);
    for (int c = 0; c < 3; c++) mpfr_div(e1[c], e1[c], s, MPFR_RNDN);
    for (int c = 0; c < 3; c++) { /* e2 = q × e1 */
        int a = (c + 1) % 3, b = (c + 2) % 3;
        mpfr_mul(e2[c], q + a, e1[b], MPFR_RNDN);
        mpfr_fms(e2[c], q + b, e1[a], e2[c], MPFR_RNDN);
        mpfr_neg(e2[c], e2[c], MPFR_RNDN);
    }
    for (int c = 0; c < 3; c++) { mpfr_set(E + 2 * c, e1[c], MPFR_RNDN); mpfr_set(E + 2 * c + 1, e2[c], MPFR_RNDN); }
    for (int c = 0; c < 3; c++) { mpfr_clear(e1[c]); mpfr_clear(e2[c]); }
    mpfr_clear(s);
}

/*
 * The field of form c->form at the state of reduced coordinates s (4n: the
 * q_i's, then the v_i's, two each), computed EQ_GUARD bits above the
 * precision of y: near an equilibrium the field is small while its
 * rounding is that of the forces it balances, and cl_jacobian judges the
 * rounding relative to the field's values. A component below
 * 2^−(p + EQ_GUARD/2) (p the precision of y) is that rounding and is set to
 * 0: a component that vanishes identically along a direction then gives
 * an exact zero derivative instead of a table of noise that never settles.
 */
#define EQ_GUARD 32
static int eq_field(mpfr_ptr y, mpfr_srcptr s, void *ctx)
{
    eq_ctx *c = ctx;
    const cl_model *m = c->m;
    size_t n = m->n, n3 = 3 * n, n6 = 6 * n;
    cl_prec_t P = mpfr_get_prec(y) + EQ_GUARD;
    if (!c->lg || c->p != P) {
        eq_ctx_clear(c);
        int st = cl_lagr_s2_new_mp(&c->lg, m->g, m->L, n, m->nparam, P);
        c->x0 = cl_rvec_new_mp(n6 * 3 + 6 * n + 1, P);
        if (!st && !c->x0) st = CL_ENOMEM;
        if (!st && m->force) st = cl_lagr_s2_set_forces_mp(c->lg, m->force);
        if (st) return st;
        mpfr_ptr v = cl_rvec_new_mp(m->nparam + 1, P);
        if (!v || cl_model_param_values_mp(m, v)) { cl_rvec_free_mp(v); return CL_EPARSE; }
        for (size_t k = 0; k < m->nparam; k++) cl_lagr_s2_set_param_mp(c->lg, k, v + k);
        cl_rvec_free_mp(v);
        c->E = c->x0 + n6;
        c->y = c->E + 6 * n;
        st = cl_model_equilibrium_state_mp(c->lg, m, c->k, c->form, c->x0);
        if (st) return st;
        for (size_t i = 0; i < n; i++) tangent_basis_mp(c->E + 6 * i, c->x0 + 3 * i, P);
        c->p = P;
    }
    mpfr_ptr x = c->y;
    mpfr_t r;
    mpfr_init2(r, P);
    for (size_t i = 0; i < n; i++) {
        mpfr_ptr q = x + 3 * i, v = x + n3 + 3 * i;
        mpfr_srcptr E = c->E + 6 * i;
        for (int a = 0; a < 3; a++) {
            mpfr_set(q + a, c->x0 + 3 * i + a, MPFR_RNDN);
            mpfr_set(v + a, c->x0 + n3 + 3 * i + a, MPFR_RNDN);
            for (int b = 0; b < 2; b++) {
                mpfr_fma(q + a, E + 2 * a + b, s + 2 * i + (size_t)b, q + a, MPFR_RNDN);
                mpfr_fma(v + a, E + 2 * a + b, s + 2 * n + 2 * i + (size_t)b, v + a, MPFR_RNDN);
            }
        }
        cl_v3_norm_mp(r, q);
        for (int a = 0; a < 3; a++) mpfr_div(q + a, q + a, r, MPFR_RNDN);
        cl_v3_proj_tangent_mp(v, q, v);
    }
    mpfr_clear(r);
    int st = cl_lagr_s2_rhs_mp(c->lg, c->form, c->y + n6, x);
    for (size_t a = 0; a < n6 && !st; a++) {
        mpfr_set(y + a, c->y + n6 + a, MPFR_RNDN);
        if (mpfr_zero_p(y + a) || mpfr_get_exp(y + a) < -(mpfr_exp_t)(P - EQ_GUARD / 2)) mpfr_set_zero(y + a, 1);
    }
    return st;
}

int CL_FN(cl_model_eq_eigs)(const cl_model *m, int k, int form, cl_prec_t prec, rptr wr, rptr wi, rptr acc)
{
    size_t n = m->n, N = 4 * n, n6 = 6 * n;
    eq_ctx c = {.m = m, .k = k, .form = form};
    rptr s = CL_FN(cl_rvec_new)(N + n6 * N + N * N + n6, prec);
    if (!s) return CL_ENOMEM;
    rptr J = s + N, Jr = J + n6 * N, F = Jr + N * N;
    int st = CL_FN(cl_jacobian)(J, NULL, eq_field, &c, s, N, n6);
    if (!st) {
        /* rows: E_iᵀ (the q_i rows and the v_i rows); the field at the equilibrium itself */
        cl_prec_t P = r_prec(J);
        mpfr_ptr Fm = cl_rvec_new_mp(n6, P), sm = cl_rvec_new_mp(N, P);
        st = Fm && sm ? eq_field(Fm, sm, &c) : CL_ENOMEM;
        for (size_t a = 0; a < n6 && !st; a++) {
#if CL_T == CL_DOUBLE
            F[a] = mpfr_get_d(Fm + a, MPFR_RNDN);
#else
            mpfr_set(F + a, Fm + a, MPFR_RNDN);
#endif
        }
        if (!st && acc) r_set_d(acc, ldexp(1.0, (int)fmax(-1e4, CL_FN(cl_rvec_log2_maxabs)(F, n6))));
        R_DECL(Eab, prec);
        for (size_t blk = 0; blk < 2 * n && !st; blk++) /* q_1 … q_n, v_1 … v_n */
            for (int b = 0; b < 2; b++)
                for (size_t col = 0; col < N; col++) {
                    rptr e = Jr + (2 * blk + (size_t)b) * N + col;
                    r_set_zero(e);
                    for (int a = 0; a < 3; a++) {
#if CL_T == CL_DOUBLE
                        Eab[0] = mpfr_get_d(c.E + 6 * (blk % n) + 2 * a + b, MPFR_RNDN);
#else
                        mpfr_set(Eab, c.E + 6 * (blk % n) + 2 * a + b, MPFR_RNDN);
#endif
                        r_addmul(e, Eab, J + (3 * blk + (size_t)a) * N + col);
                    }
                }
        cl_rvec_free_mp(Fm);
        cl_rvec_free_mp(sm);
        if (!st) st = CL_FN(cl_eig)(wr, wi, Jr, (int)N);
    }
    eq_ctx_clear(&c);
    CL_FN(cl_rvec_free)(s);
    return st;
}

/* Greedy matching of eigenvalue sets a and b (N each): log2 of the largest |a_j − b_match(j)|. */
static double eig_gap(rsrc ar, rsrc ai, rsrc br, rsrc bi, size_t N)
{
    int used[4 * CL_LAGR_MAX_SPHERES] = {0};
    double worst = -INFINITY;
    R_DECL(u, r_prec(ar));
    R_DECL(v, r_prec(ar));
    for (size_t j = 0; j < N; j++) {
        int best = -1;
        double bd = INFINITY;
        for (size_t k = 0; k < N; k++) {
            if (used[k]) continue;
            r_sub(u, ar + j, br + k);
            r_sub(v, ai + j, bi + k);
            r_hypot(u, u, v);
            double d = r_log2abs(u);
            if (best < 0 || d < bd) { best = (int)k; bd = d; }
        }
        used[best] = 1;
        worst = fmax(worst, bd);
    }
    return worst;
}

/* Row MODEL.eq.NAME for equilibrium k (one function per k, below). */
static int eq_row(cl_check_result *res, cl_prec_t prec, int k)
{
    const cl_model *m = cl_model_oracle_model();
    if (!m || (size_t)k >= m->neq) return CL_EPARAM;
    size_t N = 4 * m->n;
    cl_check_begin(res);
    rptr w = CL_FN(cl_rvec_new)(2 * N * 4 + 1, prec);
    cl_prec_t pref = 2 * (CL_T == CL_DOUBLE ? 53 : prec) + 32;
    mpfr_ptr ref = cl_rvec_new_mp(2 * N + 1, pref);
    if (!w || !ref) {
        CL_FN(cl_rvec_free)(w);
        cl_rvec_free_mp(ref);
        return CL_ENOMEM;
    }
    int st = cl_model_eq_eigs_mp(m, k, CL_LAGR_QDOT, pref, ref, ref + N, NULL);
    rptr acc = w + 8 * N;
    for (int form = 0; form < 4 && !st; form++) {
        rptr wr = w + 2 * N * (size_t)form, wi = wr + N;
        st = CL_FN(cl_model_eq_eigs)(m, k, form, prec, wr, wi, form == 0 ? acc : NULL);
    }
    if (!st) {
        /* the reference at the working precision's kind, then every form against it and against the qdot form */
        rptr rr = CL_FN(cl_rvec_new)(2 * N, prec);
        if (!rr) st = CL_ENOMEM;
        for (size_t j = 0; j < 2 * N && !st; j++) {
#if CL_T == CL_DOUBLE
            rr[j] = mpfr_get_d(ref + j, MPFR_RNDN);
#else
            mpfr_set(rr + j, ref + j, MPFR_RNDN);
#endif
        }
        double scale = -INFINITY;
        R_DECL(u, prec);
        for (size_t j = 0; j < N && !st; j++) {
            r_hypot(u, rr + j, rr + N + j);
            scale = fmax(scale, r_log2abs(u));
        }
        scale = fmax(scale, -20);
        for (int form = 0; form < 4 && !st; form++) {
            rptr wr = w + 2 * N * (size_t)form, wi = wr + N;
            cl_check_worst(res, eig_gap(wr, wi, rr, rr + N, N) - scale, "%s form: eigenvalues against %lu bits; max|lambda| = 2^%.1f",
                           cl_model_kind_s2.forms[form], (unsigned long)pref, scale);
            if (form) cl_check_worst(res, eig_gap(wr, wi, w, w + N, N) - scale, "%s form against the qdot form", cl_model_kind_s2.forms[form]);
        }
        /* the field vanishes at the equilibrium: |F| against max|lambda|^2 (accelerations) */
        if (!st) cl_check_worst(res, r_log2abs(acc) - fmax(2 * scale, -20), "the field at the equilibrium: 2^%.1f", r_log2abs(acc));
        CL_FN(cl_rvec_free)(rr);
    }
    cl_rvec_free_mp(ref);
    CL_FN(cl_rvec_free)(w);
    return st;
}

#define EQ_ROW(k) \
    int CL_FN(cl_model_row_eq##k)(cl_check_result *res, cl_prec_t prec) { return eq_row(res, prec, k); }
EQ_ROW(0) EQ_ROW(1) EQ_ROW(2) EQ_ROW(3) EQ_ROW(4) EQ_ROW(5) EQ_ROW(6) EQ_ROW(7)

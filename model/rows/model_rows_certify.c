/*
 * MODEL.certify.NAME of a model with declared equilibria: the proven
 * verdict at equilibrium NAME (`stability --certify`, model_ball.h, on Arb
 * balls at the rung's precision, each parameter a ball around its decimal)
 * agrees with the floating-point verdict of `stability` at the same
 * precision (the Energy–Casimir test, then the spectral test): a proven
 * stable where the floating verdict is unstable, or a proven unstable where
 * it is stable, is an infinite discrepancy; an undecided proof, or a
 * floating verdict that is inconclusive, disagrees with nothing. The table
 * is model_rows.c. Compiled with the templated rows, one copy (MPFR).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "check.h"
#include "model_ball.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR /* one copy: the MPFR instantiation */

/* The floating verdict at equilibrium k: 1 stable, −1 unstable, 0 inconclusive; or a negative CL_E code below −1. */
static int floating_verdict(const cl_model *m, int k, cl_prec_t prec, cl_sys_error *e)
{
    const cl_system *own = cl_model_oracle_system(), *s = own;
    if (!s && cl_model_system_new(&s, m->source, e)) return CL_EPARAM;
    const char **keys = calloc(m->nparam + 1, sizeof *keys);
    cl_params p;
    int st = keys ? CL_OK : CL_ENOMEM;
    for (size_t j = 0; keys && j < m->nparam; j++) keys[j] = m->pname[j];
    if (!st) st = cl_params_parse(&p, s->params, (int)m->nparam, keys, (const char *const *)m->pdef, prec, e);
    free(keys);
    int v = st;
    if (!st) {
        struct cl_ec_report rep;
        int ncas = 0, which[CL_EC_NMAX + 64];
        size_t N = CL_EC_NMAX;
        mpfr_ptr w = cl_rvec_new_mp(N + N * N + N, prec);
        int r = w ? cl_system_energy_casimir(s, &p, prec, 0, k, &rep, w, w + N, w + N + N * N, &ncas, which, e) : CL_ENOMEM;
        v = r == CL_ENOMEM ? r : !r && rep.definite ? 1 : cl_system_spectrally_unstable(s, &p, prec, 0, k) ? -1 : 0;
        cl_rvec_free_mp(w);
        cl_params_free(&p);
    }
    if (!own) cl_model_system_free(s);
    return v;
}

static int certify_row(cl_check_result *res, cl_prec_t prec, int k)
{
    const cl_model *m = cl_model_oracle_model();
    cl_check_begin(res);
    if (!m || (size_t)k >= m->neq) return CL_EPARAM;
    cl_sys_error e = {"", ""};
    int fv = floating_verdict(m, k, prec, &e);
    if (fv < -1) {
        snprintf(res->note, sizeof res->note, "the floating verdict: %.150s", e.what[0] ? e.what : cl_strerror(fv));
        return fv;
    }
    cl_prec_t saved = cl_arb_get_prec();
    cl_arb_set_prec(prec);
    cl_model_ball *b = NULL;
    cl_model_ec_proof pr;
    size_t N = m->nq + m->nv;
    arb_ptr w = cl_rvec_new_arb(3 * N, 0);
    int st = !w ? CL_ENOMEM : cl_model_ball_new(&b, m, &e);
    if (!st) st = cl_model_certify_stability(b, k, &pr, w, w + N, w + 2 * N, &e);
    if (!st) {
        static const char *const fw[] = {"unstable", "inconclusive", "stable"};
        int pv = pr.verdict == CL_PROOF_STABLE ? 1 : pr.verdict == CL_PROOF_UNSTABLE ? -1 : 0;
        cl_check_worst(res, pv && fv && pv != fv ? INFINITY : -INFINITY, "%s proven %s, floating %s (%.80s)", m->eqname[k],
                       pv > 0 ? "stable" : pv < 0 ? "unstable" : "nothing", fw[fv + 1], pr.why);
    } else
        snprintf(res->note, sizeof res->note, "on balls: %.150s", e.what);
    cl_model_ball_free(b);
    cl_rvec_free_arb(w);
    cl_arb_set_prec(saved);
    return st;
}

#define CERTIFY_ROW(K) int cl_model_row_certify##K(cl_check_result *res, cl_prec_t prec) { return certify_row(res, prec, K); }
CERTIFY_ROW(0) CERTIFY_ROW(1) CERTIFY_ROW(2) CERTIFY_ROW(3) CERTIFY_ROW(4) CERTIFY_ROW(5) CERTIFY_ROW(6) CERTIFY_ROW(7)
#endif

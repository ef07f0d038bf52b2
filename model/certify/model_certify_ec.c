/*
 * The Energy–Casimir test of a model's declared equilibrium on Arb balls
 * (`stability --certify`, model_ball.h): the energy's gradient and
 * Hessian, those of the constraints, of the declared invariants that suit
 * the equilibrium (independent of the rows so far and, at a relative
 * equilibrium, orthogonal to its symmetry directions, which are rows with
 * zero Hessian), all over the proven box of the equilibrium, then
 * cl_energy_casimir_arb(). An invariant D that suits but is dependent
 * leaves a free direction of the multipliers: the energy becomes E + t D,
 * conserved for every t, with t where the restricted Hessian's smallest
 * eigenvalue is largest (a search in double on the midpoints; the proof
 * is at that t, an exact double).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "model_ball_impl.h"

/* The rows of the test and their room. */
typedef struct ec_rows {
    size_t N, n2;
    int m, cap;            /* rows so far, room */
    arb_ptr DE, HE, DC, HC; /* the energy's, then m rows' gradients and Hessians */
    arb_ptr DD, HD;        /* the dependent invariant's, when shifted */
    arb_ptr Q;             /* the rows' midpoints, orthonormalized (cap × N) */
    int nq;
    arb_ptr t;             /* 4 scratch balls */
} ec_rows;

/* Gram–Schmidt of the midpoint of v against Q: 1 (and its unit remainder added to Q) when it keeps more than 2^(−p/2) of |v|. */
static int independent(ec_rows *r, arb_srcptr v)
{
    size_t N = r->N;
    slong p = cl_arb_get_prec();
    arb_ptr q = r->Q + (size_t)r->nq * N, t = r->t, n0 = r->t + 1;
    for (size_t i = 0; i < N; i++) arb_get_mid_arb(q + i, v + i);
    arb_dot(n0, NULL, 0, q, 1, q, 1, (slong)N, p);
    for (int j = 0; j < r->nq; j++) {
        arb_dot(t, NULL, 0, r->Q + (size_t)j * N, 1, q, 1, (slong)N, p);
        for (size_t i = 0; i < N; i++) arb_submul(q + i, t, r->Q + (size_t)j * N + i, p);
    }
    arb_dot(t, NULL, 0, q, 1, q, 1, (slong)N, p);
    arb_mul_2exp_si(n0, n0, -p);
    int ok = arf_cmp(arb_midref(t), arb_midref(n0)) > 0 && !arf_is_zero(arb_midref(t));
    if (ok) {
        arb_sqrt(t, t, p);
        for (size_t i = 0; i < N; i++) arb_div(q + i, q + i, t, p), arb_get_mid_arb(q + i, q + i);
        r->nq++;
    }
    return ok;
}

/* A row: gradient g and Hessian H (NULL: zero). */
static void add_row(ec_rows *r, arb_srcptr g, arb_srcptr H)
{
    _arb_vec_set(r->DC + (size_t)r->m * r->N, g, (slong)r->N);
    if (H) _arb_vec_set(r->HC + (size_t)r->m * r->n2, H, (slong)r->n2);
    else _arb_vec_zero(r->HC + (size_t)r->m * r->n2, (slong)r->n2);
    r->m++;
}

/* |mid(D·Y)| ≤ 2^(−p/2) |D| |Y| for every symmetry direction Y (rows ysym … ysym + nsym). */
static int orthogonal_to_symmetry(ec_rows *r, arb_srcptr D, int ysym, int nsym)
{
    slong p = cl_arb_get_prec();
    for (int j = 0; j < nsym; j++) {
        arb_srcptr Y = r->DC + (size_t)(ysym + j) * r->N;
        arb_dot(r->t, NULL, 0, D, 1, Y, 1, (slong)r->N, p);
        arb_dot(r->t + 1, NULL, 0, D, 1, D, 1, (slong)r->N, p);
        arb_dot(r->t + 2, NULL, 0, Y, 1, Y, 1, (slong)r->N, p);
        arb_mul(r->t + 1, r->t + 1, r->t + 2, p);
        arb_mul_2exp_si(r->t + 1, r->t + 1, -p);
        arb_sqr(r->t, r->t, p);
        if (arf_cmp(arb_midref(r->t), arb_midref(r->t + 1)) > 0) return 0;
    }
    return 1;
}

/* Every row at the last run (order 2) at the equilibrium k; the invariants used into pr. */
static void gather_rows(cl_model_ball *b, int k, ec_rows *r, cl_model_ec_proof *pr, arb_ptr g, arb_ptr H)
{
    size_t N = b->N;
    cl_model_ball_hessian(b, b->energy, r->DE, r->HE);
    for (int c = 0; c < b->ncons; c++) {
        cl_model_ball_hessian(b, b->cons[c], g, H);
        independent(r, g);
        add_row(r, g, H);
    }
    int ysym = r->m, nsym = 0;
    for (int j = 0; j < b->nsym[k]; j++) {
        const int *y = b->sym + ((size_t)k * CL_MODEL_BALL_MAXSYM + (size_t)j) * N;
        int zero = 1;
        for (size_t a = 0; a < N; a++) arb_set(g + a, cl_model_ball_value(b, y[a])), zero &= arb_is_zero(g + a);
        if (zero || !independent(r, g)) continue;
        add_row(r, g, NULL);
        nsym++;
    }
    for (size_t j = 0; j < b->m->ninv && r->m < r->cap; j++) {
        cl_model_ball_hessian(b, b->m->inv[j], g, H);
        if (nsym && !orthogonal_to_symmetry(r, g, ysym, nsym)) continue;
        if (independent(r, g)) {
            add_row(r, g, H);
            pr->used[pr->nused++] = (int)j;
        } else if (!pr->shifted && b->relative[k]) { /* a free direction of the multipliers */
            _arb_vec_set(r->DD, g, (slong)N);
            _arb_vec_set(r->HD, H, (slong)r->n2);
            pr->shifted = 1;
        }
    }
}

/* The smallest eigenvalue of the restricted Hessian of E + t D in double on the midpoints (−inf when the test fails). */
static double smallest(const ec_rows *r, double t, double *w)
{
    size_t N = r->N, n2 = r->n2, m = (size_t)r->m;
    double *DE = w, *HE = DE + N, *DC = HE + n2, *HC = DC + m * N, *c = HC + m * n2, *Hr = c + m, *eig = Hr + n2;
    for (size_t i = 0; i < N; i++) DE[i] = arf_get_d(arb_midref(r->DE + i), ARF_RND_NEAR) + t * arf_get_d(arb_midref(r->DD + i), ARF_RND_NEAR);
    for (size_t i = 0; i < n2; i++) HE[i] = arf_get_d(arb_midref(r->HE + i), ARF_RND_NEAR) + t * arf_get_d(arb_midref(r->HD + i), ARF_RND_NEAR);
    for (size_t i = 0; i < m * N; i++) DC[i] = arf_get_d(arb_midref(r->DC + i), ARF_RND_NEAR);
    for (size_t i = 0; i < m * n2; i++) HC[i] = arf_get_d(arb_midref(r->HC + i), ARF_RND_NEAR);
    cl_ec_report rep;
    if (cl_energy_casimir_d(&rep, c, NULL, Hr, eig, DE, DC, HE, HC, (int)N, (int)m, 1024) || rep.d < 1) return -INFINITY;
    return eig[0];
}

/* The t of the shift: the best of ±2^i (i = −20 … 20) and 0, then golden-section refined about it. */
static double choose_shift(const ec_rows *r)
{
    size_t N = r->N, m = (size_t)r->m;
    double *w = malloc((2 * N + 3 * r->n2 + m * (N + r->n2) + m + 8) * sizeof *w);
    if (!w) return 0;
    double best = 0, fb = smallest(r, 0, w);
    for (int i = -20; i <= 20; i++)
        for (int s = -1; s <= 1; s += 2) {
            double t = s * ldexp(1, i), ft = smallest(r, t, w);
            if (ft > fb) best = t, fb = ft;
        }
    double lo = best / 2, hi = best * 2, g = (sqrt(5) - 1) / 2;
    if (best != 0)
        for (int it = 0; it < 60; it++) {
            double a = hi - g * (hi - lo), bb = lo + g * (hi - lo);
            if (smallest(r, a, w) > smallest(r, bb, w)) hi = bb;
            else lo = a;
        }
    double t = best != 0 ? (lo + hi) / 2 : 0;
    if (best != 0 && smallest(r, t, w) < fb) t = best;
    free(w);
    return t;
}

/* The residual DE + Σ c_j DC_j encloses 0 in every component. */
static int critical(const ec_rows *r, arb_srcptr c, arb_ptr res)
{
    slong p = cl_arb_get_prec();
    for (size_t i = 0; i < r->N; i++) {
        arb_set(res, r->DE + i);
        for (int j = 0; j < r->m; j++) arb_addmul(res, c + j, r->DC + (size_t)j * r->N + i, p);
        if (!arb_contains_zero(res)) return 0;
    }
    return 1;
}

/* The verdict from the spectrum's proof and the Energy–Casimir report. */
static void verdict(const cl_model_ball *b, cl_model_ec_proof *pr, int crit)
{
    int v = pr->ec_status ? CL_UNDECIDED : cl_ec_verdict(&pr->rep, 0);
    if (pr->eq.verdict == CL_PROOF_UNSTABLE) {
        pr->verdict = CL_PROOF_UNSTABLE;
        snprintf(pr->why, sizeof pr->why, "%s", pr->eq.why);
    } else if (v == 1 && crit && b->conservative) {
        pr->verdict = CL_PROOF_STABLE;
        snprintf(pr->why, sizeof pr->why, "restricted Hessian proven %s definite", pr->rep.definite > 0 ? "positive" : "negative");
    } else if (pr->eq.verdict == CL_PROOF_STABLE) {
        pr->verdict = CL_PROOF_STABLE;
        snprintf(pr->why, sizeof pr->why, "%s", pr->eq.why);
    } else if (pr->ec_status)
        snprintf(pr->why, sizeof pr->why, "the Energy-Casimir test failed on balls: %s", cl_strerror(pr->ec_status));
    else if (v == 1 && !b->conservative)
        snprintf(pr->why, sizeof pr->why, "restricted Hessian proven definite, but the model has forces, a nonholonomic constraint or a "
                 "time-dependent L: an equilibrium need not be a critical point of the energy");
    else if (v == 1)
        snprintf(pr->why, sizeof pr->why, "restricted Hessian proven definite, but the residual of the multipliers' equations does not "
                 "enclose 0 (no critical point of E + sum c_j C_j with the invariants declared)");
    else if (v == -1)
        snprintf(pr->why, sizeof pr->why, "restricted Hessian proven indefinite, which proves no instability, and no eigenvalue with "
                 "real part proven positive");
    else
        snprintf(pr->why, sizeof pr->why, "%d sign(s) of the restricted Hessian not proven at %ld bits", pr->rep.undecided,
                 (long)cl_arb_get_prec());
}

int cl_model_certify_stability(cl_model_ball *b, int k, cl_model_ec_proof *pr, arb_ptr x, arb_ptr wr, arb_ptr wi,
                               cl_sys_error *e)
{
    memset(pr, 0, sizeof *pr);
    int st = cl_model_certify_equilibrium(b, k, &pr->eq, x, wr, wi, e);
    if (st) return st;
    if (!pr->eq.zero || b->energy < 0) {
        pr->verdict = pr->eq.verdict;
        snprintf(pr->why, sizeof pr->why, "%s", !pr->eq.zero ? "the equilibrium is not proven a zero of the field"
                                         : pr->eq.verdict ? pr->eq.why : "the energy is not conserved (L depends on t)");
        return CL_OK;
    }
    size_t N = b->N, n2 = N * N;
    int cap = b->ncons + (int)b->m->ninv + b->nsym[k] + 1;
    ec_rows r = {.N = N, .n2 = n2, .cap = cap};
    arb_ptr w = cl_rvec_new_arb(4 * N + 4 * n2 + (size_t)cap * (2 * N + n2) + 8, 0);
    if (!w) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    r.DE = w, r.HE = r.DE + N, r.DD = r.HE + n2, r.HD = r.DD + N, r.DC = r.HD + n2, r.HC = r.DC + (size_t)cap * N;
    r.Q = r.HC + (size_t)cap * n2, r.t = r.Q + (size_t)cap * N;
    arb_ptr g = r.t + 4, H = g + N, c = H + n2;
    if (!(st = cl_model_ball_run(b, x, 2, e))) {
        gather_rows(b, k, &r, pr, g, H);
        if (pr->shifted) {
            pr->t = choose_shift(&r);
            arb_t t;
            arb_init(t);
            arb_set_d(t, pr->t);
            _arb_vec_scalar_addmul(r.DE, r.DD, (slong)N, t, cl_arb_get_prec());
            _arb_vec_scalar_addmul(r.HE, r.HD, (slong)n2, t, cl_arb_get_prec());
            arb_clear(t);
        }
        pr->ec_status = r.m < (int)N ? cl_energy_casimir_arb(&pr->rep, c, NULL, NULL, NULL, r.DE, r.DC, r.HE, r.HC, (int)N, r.m, 0)
                                     : CL_EDIM;
        verdict(b, pr, !pr->ec_status && critical(&r, c, g));
    }
    cl_rvec_free_arb(w);
    return st;
}

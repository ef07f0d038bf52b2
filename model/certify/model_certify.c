/*
 * Proven verdicts at a model's declared equilibria (model_ball.h), on the
 * nodes of model_ball.c evaluated on Arb balls:
 *  - the equilibrium a zero of the field in its turning frame: the exact
 *    zero ball at its point, or Krawczyk's test on a box X around the
 *    midpoint x̃ for G = (Z₀ᵀ r, c), r the field minus the frame's, c the
 *    constraints, Z₀ a point basis of the tangent space at x̃ (any Z₀ for
 *    which G' is invertible: Z₀ᵀ is then one to one on the tangent spaces
 *    of X, and r is tangent there, so G = 0 means r = 0 on the manifold):
 *    K = x̃ − Y G(x̃) + (I − Y G'(X))(X − x̃) inside the interior of X proves
 *    one zero in X, and it lies in K;
 *  - the linearization's eigenvalues enclosed (cl_eig_arb) on Zᵀ r' Z, Z the
 *    ball null space of c' over K: proven unstable when one real part is
 *    proven positive, proven (asymptotically) stable when all are proven
 *    negative;
 *  - the Energy–Casimir test on balls (cl_energy_casimir_arb) with the
 *    declared invariants, the energy shifted by a dependent one where the
 *    multipliers leave a free direction.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arb_mat.h>
#include <acb_mat.h>
#include "chartless_base.h"
#include "model_ball_impl.h"

/* The rows of G' at the last run: Z0ᵀ r' (d rows) then c' (nc rows), into J (N × N); G into g when not NULL. */
static void system_rows(cl_model_ball *b, int k, arb_srcptr Z0, int d, arb_ptr J, arb_ptr g, arb_ptr w)
{
    size_t N = b->N;
    const int *r = b->rest + (size_t)k * N;
    for (int j = 0; j < d; j++) {
        arb_ptr row = J + (size_t)j * N;
        for (size_t a = 0; a < N; a++) arb_zero(row + a);
        if (g) arb_zero(g + j);
        for (size_t i = 0; i < N; i++) {
            arb_srcptr z = Z0 + i * (size_t)d + j;
            if (arb_is_zero(z)) continue;
            cl_model_ball_gradient(b, r[i], w);
            for (size_t a = 0; a < N; a++) arb_addmul(row + a, z, w + a, cl_arb_get_prec());
            if (g) arb_addmul(g + j, z, cl_model_ball_value(b, r[i]), cl_arb_get_prec());
        }
    }
    for (int c = 0; c < b->ncons; c++) {
        cl_model_ball_gradient(b, b->cons[c], J + (size_t)(d + c) * N);
        if (g) arb_set(g + d + c, cl_model_ball_value(b, b->cons[c]));
    }
}

/* Z0: a point basis (radius 0) of ker c'(x) at the exact point x (run at order 2 first); d its columns. */
static int point_basis(cl_model_ball *b, arb_ptr Z0, int *d, arb_ptr w)
{
    size_t N = b->N, nc = (size_t)b->ncons;
    for (size_t c = 0; c < nc; c++) {
        cl_model_ball_gradient(b, b->cons[c], w + c * N);
        for (size_t a = 0; a < N; a++) mag_zero(arb_radref(w + c * N + a));
    }
    int st = cl_nullspace_arb(Z0, d, w, (int)nc, (int)N, 0);
    for (size_t a = 0; a < N * N; a++) mag_zero(arb_radref(Z0 + a));
    return st ? st : *d + (int)nc == (int)N ? CL_OK : CL_ESINGULAR;
}

/* Krawczyk's test around the exact point xm with box radius rho: 1 proven (K into K), 0 not, or a negative status. */
static int krawczyk(cl_model_ball *b, int k, arb_srcptr xm, const arb_mat_t Y, arb_srcptr gm, arb_srcptr Z0, int d, double rho,
                    arb_ptr K, arb_ptr w, cl_sys_error *e)
{
    size_t N = b->N;
    slong p = cl_arb_get_prec();
    arb_ptr X = w, J = X + N, u = J + N * N;
    for (size_t a = 0; a < N; a++) {
        arb_set(X + a, xm + a);
        arb_add_error_2exp_si(X + a, (slong)floor(log2(rho) + 0.0));
    }
    if (cl_model_ball_run(b, X, 2, e)) return 0; /* the box leaves the field's domain: not proven at this radius */
    system_rows(b, k, Z0, d, J, NULL, u + N);
    arb_mat_t M, YJ;
    arb_mat_init(M, (slong)N, (slong)N);
    arb_mat_init(YJ, (slong)N, (slong)N);
    for (size_t i = 0; i < N; i++)
        for (size_t a = 0; a < N; a++) arb_set(arb_mat_entry(M, i, a), J + i * N + a);
    arb_mat_mul(YJ, Y, M, p);
    int in = 1;
    for (size_t i = 0; i < N; i++) {
        arb_zero(K + i);
        for (size_t a = 0; a < N; a++) {
            arb_submul(K + i, arb_mat_entry(Y, i, a), gm + a, p); /* −Y G(x̃) */
            arb_sub_si(u, arb_mat_entry(YJ, i, a), i == a, p);  /* −(I − Y G'(X)) */
            arb_sub(u + 1, X + a, xm + a, p);
            arb_submul(K + i, u, u + 1, p);
        }
        arb_add(K + i, K + i, xm + i, p);
        in &= arb_contains_interior(X + i, K + i);
    }
    arb_mat_clear(M);
    arb_mat_clear(YJ);
    return in;
}

/* The approximate inverse Y of mid G'(x̃) (exact entries); 0, or CL_ESINGULAR. */
static int approx_inverse(arb_mat_t Y, arb_srcptr J, size_t N)
{
    arb_mat_t A;
    arb_mat_init(A, (slong)N, (slong)N);
    for (size_t i = 0; i < N; i++)
        for (size_t a = 0; a < N; a++) arb_get_mid_arb(arb_mat_entry(A, i, a), J + i * N + a);
    int ok = arb_mat_approx_inv(Y, A, cl_arb_get_prec());
    for (size_t i = 0; i < N; i++)
        for (size_t a = 0; a < N; a++) {
            arb_get_mid_arb(arb_mat_entry(Y, i, a), arb_mat_entry(Y, i, a));
            ok &= arb_is_finite(arb_mat_entry(Y, i, a));
        }
    arb_mat_clear(A);
    return ok ? CL_OK : CL_ESINGULAR;
}

/* The zero of equilibrium k proven: into x its enclosure (or the exact point); pr->zero, exact, log2_radius, why. */
static int prove_zero(cl_model_ball *b, int k, cl_model_eq_proof *pr, arb_ptr x, arb_ptr w, cl_sys_error *e)
{
    size_t N = b->N;
    int st = cl_model_ball_point(b, k, x, e);
    if (st) return st;
    if ((st = cl_model_ball_run(b, x, 2, e))) return st;
    int exact = 1; /* the field and the constraints written at the point, for every parameter of the balls */
    for (size_t a = 0; a < N; a++) exact &= arb_is_zero(cl_model_ball_value(b, b->zrest[(size_t)k * N + a]));
    for (int c = 0; c < b->ncons; c++) exact &= arb_is_zero(cl_model_ball_value(b, b->zcons[(size_t)k * (size_t)b->ncons + (size_t)c]));
    arb_ptr xm = w, Z0 = xm + N, gm = Z0 + N * N, J = gm + N, K = J + N * N, v = K + N;
    for (size_t a = 0; a < N; a++) arb_get_mid_arb(xm + a, x + a);
    if ((st = cl_model_ball_run(b, xm, 2, e))) return st;
    int d = 0;
    if ((st = point_basis(b, Z0, &d, v))) {
        snprintf(pr->why, sizeof pr->why, "the constraints' gradients are not independent at the equilibrium");
        pr->zero = exact, pr->exact = exact, pr->log2_radius = -INFINITY;
        return CL_OK;
    }
    system_rows(b, k, Z0, d, J, gm, v);
    arb_mat_t Y;
    arb_mat_init(Y, (slong)N, (slong)N);
    double scale = fmax(1.0, cl_rvec_log2_maxabs_arb(xm, N) > 0 ? exp2(cl_rvec_log2_maxabs_arb(xm, N)) : 1.0);
    int proven = 0;
    if (!approx_inverse(Y, J, N)) {
        double step = 0;
        for (size_t a = 0; a < N; a++) { /* the Newton step |Y G(x̃)|: the box a few times larger */
            arb_zero(v);
            for (size_t c = 0; c < N; c++) arb_addmul(v, arb_mat_entry(Y, a, c), gm + c, cl_arb_get_prec());
            step = fmax(step, fabs(arf_get_d(arb_midref(v), ARF_RND_NEAR)) + mag_get_d(arb_radref(v)));
        }
        double rho = fmax(16 * step, scale * exp2(24.0 - (double)cl_arb_get_prec()));
        for (int t = 0; t < 6 && proven <= 0; t++, rho *= 256) proven = krawczyk(b, k, xm, Y, gm, Z0, d, rho, K, v, e);
        if (proven > 0 && !exact) { /* an exact zero keeps its point: the tighter balls for the spectrum */
            cl_rvec_copy_arb(x, K, N);
        }
        if (proven > 0) pr->log2_radius = log2(rho), pr->unique = 1;
    } else
        snprintf(pr->why, sizeof pr->why, "the linearization is singular there (a family of equilibria, or an eigenvalue 0): "
                                          "Krawczyk's test does not apply");
    arb_mat_clear(Y);
    if (proven <= 0 && exact) pr->log2_radius = -INFINITY; /* x: the exact point */
    if (proven <= 0 && !exact && !pr->why[0])
        snprintf(pr->why, sizeof pr->why, "Krawczyk's test did not close on boxes up to radius 2^%.0f", log2(scale) + 24.0 - (double)cl_arb_get_prec() + 40);
    pr->zero = proven > 0 || exact;
    pr->exact = exact;
    pr->d = d;
    return CL_OK;
}

/* Where cl_eig_arb() does not enclose the whole spectrum (its order by real part not proven, say, at a centre):
   each cluster of approximate eigenvalues (within 2^(-p/4) max(1, |λ|) of each other) enclosed alone by Rump's
   test on its approximate invariant subspace (acb_mat_eig_enclosure_rump), every member given the cluster's
   enclosure, into wr, wi; their number, and *complete 1 when every cluster was verified. */
static int enclose_clusters(arb_srcptr A, int d, arb_ptr wr, arb_ptr wi, int *complete)
{
    slong p = cl_arb_get_prec();
    acb_mat_t M, Mm, R;
    acb_mat_init(M, d, d), acb_mat_init(Mm, d, d), acb_mat_init(R, d, d);
    acb_ptr E = _acb_vec_init(d);
    acb_t lam, diff;
    acb_init(lam), acb_init(diff);
    int *member = calloc((size_t)d, sizeof *member), n = 0;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) acb_set_arb(acb_mat_entry(M, i, j), A + (size_t)i * (size_t)d + (size_t)j);
    acb_mat_get_mid(Mm, M);
    acb_mat_approx_eig_qr(E, NULL, R, Mm, NULL, 0, p);
    *complete = member != NULL;
    acb_ptr F = _acb_vec_init(d);
    if (member && acb_mat_eig_multiple(F, M, E, R, p)) { /* every eigenvalue, multiple ones too, in one enclosure each */
        for (int i = 0; i < d; i++, n++) arb_set(wr + n, acb_realref(F + i)), arb_set(wi + n, acb_imagref(F + i));
        for (int i = 0; i < d; i++) member[i] = 1;
    }
    _acb_vec_clear(F, d);
    for (int i = 0; member && i < d; i++) {
        if (member[i]) continue;
        double tol = fmax(1, acb_rel_accuracy_bits(E + i) > 0 ? arf_get_d(arb_midref(acb_realref(E + i)), ARF_RND_NEAR) : 1);
        tol = exp2(-0.25 * (double)p) * fmax(tol, hypot(arf_get_d(arb_midref(acb_realref(E + i)), ARF_RND_NEAR), arf_get_d(arb_midref(acb_imagref(E + i)), ARF_RND_NEAR)));
        int k = 0;
        for (int j = i; j < d; j++) {
            acb_sub(diff, E + j, E + i, p);
            double dd = hypot(arf_get_d(arb_midref(acb_realref(diff)), ARF_RND_NEAR), arf_get_d(arb_midref(acb_imagref(diff)), ARF_RND_NEAR));
            if (!member[j] && dd <= tol) member[j] = i + 1, k++;
        }
        acb_mat_t X, J, Xa;
        acb_mat_init(X, d, k), acb_mat_init(J, k, k), acb_mat_init(Xa, d, k);
        for (int j = i, c = 0; j < d; j++)
            if (member[j] == i + 1) {
                for (int a = 0; a < d; a++) acb_set(acb_mat_entry(Xa, a, c), acb_mat_entry(R, a, j));
                c++;
            }
        acb_mat_eig_enclosure_rump(lam, J, X, M, E + i, Xa, p);
        acb_mat_clear(X), acb_mat_clear(J), acb_mat_clear(Xa);
        if (!acb_is_finite(lam)) { *complete = 0; continue; }
        for (int c = 0; c < k; c++, n++) arb_set(wr + n, acb_realref(lam)), arb_set(wi + n, acb_imagref(lam));
    }
    free(member);
    acb_clear(lam), acb_clear(diff);
    _acb_vec_clear(E, d);
    acb_mat_clear(M), acb_mat_clear(Mm), acb_mat_clear(R);
    return n;
}

/* The eigenvalues of the linearization on the tangent space over the balls x (run there at order 2 first). */
static int enclose_spectrum(cl_model_ball *b, int k, cl_model_eq_proof *pr, arb_srcptr x, arb_ptr wr, arb_ptr wi, arb_ptr w,
                            cl_sys_error *e)
{
    size_t N = b->N, nc = (size_t)b->ncons;
    arb_ptr Dc = w, Z = Dc + nc * N + 1, Df = Z + N * N, T = Df + N * N, A = T + N * N;
    int st = cl_model_ball_run(b, x, 2, e), d = 0;
    if (st) return st;
    for (size_t c = 0; c < nc; c++) cl_model_ball_gradient(b, b->cons[c], Dc + c * N);
    for (size_t i = 0; i < N; i++) cl_model_ball_gradient(b, b->rest[(size_t)k * N + i], Df + i * N);
    st = cl_nullspace_arb(Z, &d, Dc, (int)nc, (int)N, 0);
    if (!st && d + (int)nc != (int)N) st = CL_ESINGULAR;
    if (st) { pr->eig_status = st; return CL_OK; }
    cl_mat_mul_arb(T, Df, Z, (int)N, (int)N, d); /* r' Z */
    cl_mat_transpose_arb(A + d * d, Z, (int)N, d); /* Zᵀ */
    cl_mat_mul_arb(A, A + d * d, T, d, (int)N, d);
    pr->d = d;
    pr->eig_status = cl_eig_arb(wr, wi, A, d);
    pr->nenc = pr->eig_status ? 0 : d;
    int complete = 0;
    if (pr->eig_status && (pr->nenc = enclose_clusters(A, d, wr, wi, &complete)) > 0) pr->partial = !complete, pr->eig_status = 0;
    return CL_OK;
}

/* The verdict of the spectrum. */
static void spectrum_verdict(cl_model_eq_proof *pr, arb_srcptr wr)
{
    int pos = -1, neg = 0;
    for (int i = 0; i < pr->nenc && !pr->eig_status; i++) {
        if (arb_is_positive(wr + i) && pos < 0) pos = i;
        neg += arb_is_negative(wr + i);
    }
    char lo[40] = "", hi[40] = "";
    if (pos >= 0) {
        arf_t a;
        arf_init(a);
        arb_get_lbound_arf(a, wr + pos, 30);
        snprintf(lo, sizeof lo, "%.10g", arf_get_d(a, ARF_RND_DOWN));
        arb_get_ubound_arf(a, wr + pos, 30);
        snprintf(hi, sizeof hi, "%.10g", arf_get_d(a, ARF_RND_UP));
        arf_clear(a);
    }
    if (!pr->zero) pr->verdict = CL_PROOF_UNDECIDED;
    else if (pr->eig_status) {
        pr->verdict = CL_PROOF_UNDECIDED;
        snprintf(pr->why, sizeof pr->why, "the eigenvalues are not enclosed: %s", cl_strerror(pr->eig_status));
    } else if (pos >= 0) {
        pr->verdict = CL_PROOF_UNSTABLE;
        snprintf(pr->why, sizeof pr->why, "eigenvalue with real part in [%s, %s] > 0", lo, hi);
    } else if (neg == pr->d && !pr->partial) {
        pr->verdict = CL_PROOF_STABLE;
        snprintf(pr->why, sizeof pr->why, "asymptotically: every eigenvalue's real part proven negative");
    } else {
        pr->verdict = CL_PROOF_UNDECIDED;
        snprintf(pr->why, sizeof pr->why, "no eigenvalue's real part proven positive, %d not proven negative (their enclosures meet "
                 "the imaginary axis)", pr->d - neg);
    }
}

/* Workspace of the proofs: enough for every step (balls). */
static arb_ptr workspace(size_t N, size_t nc) { return cl_rvec_new_arb(8 * N * N + (nc + 8) * N + 16 + nc * N * N, 0); }

int cl_model_certify_equilibrium(cl_model_ball *b, int k, cl_model_eq_proof *pr, arb_ptr x, arb_ptr wr, arb_ptr wi,
                                 cl_sys_error *e)
{
    memset(pr, 0, sizeof *pr);
    if (k < 0 || (size_t)k >= b->m->neq) return cl_sys_error_set(e, CL_EDOMAIN, NULL, "no such equilibrium");
    arb_ptr w = workspace(b->N, (size_t)b->ncons);
    if (!w) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    int st = prove_zero(b, k, pr, x, w, e);
    if (!st && pr->zero) st = enclose_spectrum(b, k, pr, x, wr, wi, w, e);
    if (!st) spectrum_verdict(pr, wr);
    cl_rvec_free_arb(w);
    return st;
}

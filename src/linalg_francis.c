/* Eigenvalues of a general real matrix in double and MPFR (semantics in
   linalg_decl.h): balancing, Householder reduction to Hessenberg form, then
   Francis double-shift QR (EISPACK hqr in the form of Numerical Recipes),
   each step of the iteration a function, as GSL's eigen/francis.c is laid
   out. Balls take their eigenvalues from Arb (linalg_eig_arb.c). */
#include "linalg_impl.h"

/* Parlett–Reinsch balancing by powers of 2 (EISPACK balanc, radix 2): exact
   similarity scaling; the decisions use row and column sums in double. */
static void balance(rptr a, int n)
{
    int done = 0;
    while (!done) {
        done = 1;
        for (int i = 0; i < n; i++) {
            double c = 0, r = 0;
            for (int j = 0; j < n; j++)
                if (j != i) {
                    c += fabs(r_get_d(AT(a, n, j, i)));
                    r += fabs(r_get_d(AT(a, n, i, j)));
                }
            if (c == 0 || r == 0 || !isfinite(c) || !isfinite(r)) continue;
            double g = r / 2, s = c + r;
            long e = 0; /* scaling f = 2^e */
            while (c < g) { e++; c *= 4; }
            g = r * 2;
            while (c > g) { e--; c /= 4; }
            if ((c + r) / ldexp(1.0, (int)e) < 0.95 * s) {
                done = 0;
                for (int j = 0; j < n; j++) r_mul_2si(AT(a, n, i, j), AT(a, n, i, j), -e);
                for (int j = 0; j < n; j++) r_mul_2si(AT(a, n, j, i), AT(a, n, j, i), e);
            }
        }
    }
}

/* Reduce a to upper Hessenberg form by Householder similarities (EISPACK orthes). */
static void hessenberg(rptr a, int n)
{
    cl_prec_t p = r_prec(a);
    R_DECL(alpha, p); R_DECL(beta, p); R_DECL(s, p);
    for (int k = 0; k + 2 < n; k++) {
        rptr v = AT(a, n, k + 1, k);
        int len = n - k - 1;
        CL_FN(cl_house)(alpha, beta, v, (size_t)n, len, s);
        if (!r_is_zero(beta)) {
            for (int j = k + 1; j < n; j++) /* from the left: rows k+1..n−1 */
                CL_FN(cl_house_apply)(beta, v, (size_t)n, AT(a, n, k + 1, j), (size_t)n, len, s);
            for (int i = 0; i < n; i++)     /* from the right: columns k+1..n−1 */
                CL_FN(cl_house_apply)(beta, v, (size_t)n, AT(a, n, i, k + 1), 1, len, s);
        }
        r_set(v, alpha);
        for (int i = k + 2; i < n; i++) r_set_zero(AT(a, n, i, k));
    }
}

/* Iterations on one eigenvalue before an exceptional shift. */
static int exceptional_period(cl_prec_t p)
{
    int e = 10;
    if (p > 53) e += 2 * (int)ceil(log2((double)p / 53.0));
    return e;
}

/* s = SIGN(a, b) = |a| with the sign of b (b = 0 counts as positive). */
static void sign_of(rptr s, rsrc a, rsrc b)
{
    r_abs(s, a);
    if (r_sgn(b) < 0) r_neg(s, s);
}

/* nrm = |p| + |q| + |r|, then (p, q, r) /= nrm unless it is zero; t is scratch. */
static void scale_l1(rptr nrm, rptr p, rptr q, rptr r, rptr t)
{
    r_abs(nrm, p);
    r_abs(t, q);
    r_add(nrm, nrm, t);
    r_abs(t, r);
    r_add(nrm, nrm, t);
    if (r_is_zero(nrm)) return;
    r_div(p, p, nrm);
    r_div(q, q, nrm);
    r_div(r, r, nrm);
}

/* -------------------------------------------------------------- Francis QR */

/* The iteration under way on the upper Hessenberg a (n×n): the norm that
   stands in for a zero scale, eps = 2^(1−p), the exceptional-shift period,
   the accumulated shift t, the shifts x, y, w and scratch scalars. */
typedef struct {
    rptr a;
    int n, period;
    rptr anorm, eps, p, q, r, s, t, u, v, w, x, y, z, g;
} francis;

#define FRANCIS_SCALARS 14
#define H(i, j) AT(fr->a, fr->n, (i), (j))

/* anorm = Σ |a_ij| over the Hessenberg band. */
static void francis_norm(francis *fr)
{
    int n = fr->n;
    for (int i = 0; i < n; i++)
        for (int j = (i > 0 ? i - 1 : 0); j < n; j++) {
            r_abs(fr->g, H(i, j));
            r_add(fr->anorm, fr->anorm, fr->g);
        }
}

/* The row l ≤ nn where the active block starts: its subdiagonal a_l,l−1 is
   negligible beside its diagonal neighbours (and set to zero), or l = 0. */
static int francis_small_subdiagonal(francis *fr, int nn)
{
    rptr s = fr->s, g = fr->g;
    int l;
    for (l = nn; l >= 1; l--) {
        r_abs(s, H(l - 1, l - 1));
        r_abs(g, H(l, l));
        r_add(s, s, g);
        if (r_is_zero(s)) r_set(s, fr->anorm);
        r_mul(g, fr->eps, s);
        if (r_cmpabs(H(l, l - 1), g) <= 0) {
            r_set_zero(H(l, l - 1));
            break;
        }
    }
    return l;
}

/* The 2×2 block ending at nn has split off: its two roots, real or a
   conjugate pair, into (wr, wi) at nn − 1 and nn. */
static void francis_two_roots(francis *fr, int nn, rptr wr, rptr wi)
{
    rptr p = fr->p, q = fr->q, z = fr->z, g = fr->g, x = fr->x, w = fr->w;
    r_sub(p, fr->y, x);
    r_mul_2si(p, p, -1);
    r_sqr(q, p);
    r_add(q, q, w);
    r_abs(z, q);
    r_sqrt(z, z);
    r_add(x, x, fr->t);
    if (r_sgn(q) >= 0) {
        sign_of(g, z, p);
        r_add(z, p, g);
        r_add(wr + nn - 1, x, z);
        r_set(wr + nn, wr + nn - 1);
        if (!r_is_zero(z)) {
            r_div(g, w, z);
            r_sub(wr + nn, x, g);
        }
        r_set_zero(wi + nn - 1);
        r_set_zero(wi + nn);
    } else {
        r_add(wr + nn - 1, x, p);
        r_set(wr + nn, wr + nn - 1);
        r_neg(wi + nn - 1, z);
        r_set(wi + nn, z);
    }
}

/* An ad hoc shift after a period without convergence: the diagonal moved by
   x into t, then shifts from the last two subdiagonals. */
static void francis_exceptional_shift(francis *fr, int nn)
{
    rptr s = fr->s, g = fr->g, x = fr->x, w = fr->w;
    r_add(fr->t, fr->t, x);
    for (int i = 0; i <= nn; i++) r_sub(H(i, i), H(i, i), x);
    r_abs(s, H(nn, nn - 1));
    r_abs(g, H(nn - 1, nn - 2));
    r_add(s, s, g);
    r_mul_d(x, s, 0.75); /* 3/4 and 7/16 are exact binary */
    r_set(fr->y, x);
    r_sqr(w, s);
    r_mul_d(w, w, -0.4375);
}

/* The first column (p, q, r) of the double-shift polynomial at row m,
   scaled to unit l1 norm; z = a_mm. */
static void francis_first_column(francis *fr, int m)
{
    rptr p = fr->p, q = fr->q, r = fr->r, s = fr->s, z = fr->z;
    r_set(z, H(m, m));
    r_sub(r, fr->x, z);
    r_sub(s, fr->y, z);
    r_mul(p, r, s);
    r_sub(p, p, fr->w);
    r_div(p, p, H(m + 1, m));
    r_add(p, p, H(m, m + 1));
    r_sub(q, H(m + 1, m + 1), z);
    r_sub(q, q, r);
    r_sub(q, q, s);
    r_set(r, H(m + 2, m + 1));
    scale_l1(s, p, q, r, fr->g);
}

/* The row m ≥ l where the sweep starts: two consecutive small subdiagonals
   (the bulge at m would not disturb a_m,m−1 beyond rounding), or l. */
static int francis_start_row(francis *fr, int l, int nn)
{
    rptr p = fr->p, q = fr->q, r = fr->r, u = fr->u, v = fr->v, z = fr->z, g = fr->g;
    int m;
    for (m = nn - 2; m >= l; m--) {
        francis_first_column(fr, m);
        if (m == l) break;
        r_abs(u, q);
        r_abs(g, r);
        r_add(u, u, g);
        r_abs(g, H(m, m - 1));
        r_mul(u, u, g);
        r_abs(v, H(m - 1, m - 1));
        r_abs(g, z);
        r_add(v, v, g);
        r_abs(g, H(m + 1, m + 1));
        r_add(v, v, g);
        r_abs(g, p);
        r_mul(v, v, g);
        r_mul(v, v, fr->eps);
        if (r_cmp(u, v) <= 0) break;
    }
    return m;
}

/* The reflector of the sweep's step k (from m): (p, q, r) from the bulge
   when k > m, the factors x, y, z, q, r of I − v vᵀ/… and the new a_k,k−1.
   0 when the column is already zero (nothing to do at k). */
static int francis_reflector(francis *fr, int k, int m, int l, int nn)
{
    rptr p = fr->p, q = fr->q, r = fr->r, s = fr->s, x = fr->x, g = fr->g;
    if (k != m) {
        r_set(p, H(k, k - 1));
        r_set(q, H(k + 1, k - 1));
        r_set_zero(r);
        if (k != nn - 1) r_set(r, H(k + 2, k - 1));
        scale_l1(x, p, q, r, g);
    }
    r_sqr(g, p);
    r_addmul(g, q, q);
    r_addmul(g, r, r);
    r_sqrt(g, g);
    sign_of(s, g, p);
    if (r_is_zero(s)) return 0;
    if (k == m) {
        if (l != m) r_neg(H(k, k - 1), H(k, k - 1));
    } else {
        r_mul(g, s, x);
        r_neg(H(k, k - 1), g);
    }
    r_add(p, p, s);
    r_div(x, p, s);
    r_div(fr->y, q, s);
    r_div(fr->z, r, s);
    r_div(q, q, p);
    r_div(r, r, p);
    return 1;
}

/* The reflector of step k applied to rows k..k+2 (from the left) and to
   columns k..k+2 of rows l..min(nn, k+3) (from the right). */
static void francis_apply_reflector(francis *fr, int k, int l, int nn)
{
    rptr p = fr->p, q = fr->q, r = fr->r, x = fr->x, y = fr->y, z = fr->z;
    for (int j = k; j <= nn; j++) {
        r_mul(p, q, H(k + 1, j));
        r_add(p, p, H(k, j));
        if (k != nn - 1) {
            r_addmul(p, r, H(k + 2, j));
            r_submul(H(k + 2, j), p, z);
        }
        r_submul(H(k + 1, j), p, y);
        r_submul(H(k, j), p, x);
    }
    int mmin = nn < k + 3 ? nn : k + 3;
    for (int i = l; i <= mmin; i++) {
        r_mul(p, x, H(i, k));
        r_addmul(p, y, H(i, k + 1));
        if (k != nn - 1) {
            r_addmul(p, z, H(i, k + 2));
            r_submul(H(i, k + 2), p, r);
        }
        r_submul(H(i, k + 1), p, q);
        r_sub(H(i, k), H(i, k), p);
    }
}

/* One double-shift QR sweep on the active block l..nn: the start row, the
   entries below the second subdiagonal cleared, the bulge chased down. */
static void francis_qr_sweep(francis *fr, int l, int nn)
{
    int m = francis_start_row(fr, l, nn);
    for (int i = m + 2; i <= nn; i++) {
        r_set_zero(H(i, i - 2));
        if (i != m + 2) r_set_zero(H(i, i - 3));
    }
    for (int k = m; k <= nn - 1; k++)
        if (francis_reflector(fr, k, m, l, nn)) francis_apply_reflector(fr, k, l, nn);
}

/* Iterate on the active block ending at nn until one root or a 2×2 block
   splits off; write its roots and return how many (1 or 2), or −1 when the
   exceptional shifts did not help (CL_ENOCONV). An exceptional shift every
   period, for 30 periods (LAPACK's dlahqr allows 30 per eigenvalue too):
   a defective eigenvalue, such as the ±iω of a screw motion linearized,
   converges linearly and needs 3 periods or more at every precision. */
static int francis_deflate(francis *fr, int nn, rptr wr, rptr wi)
{
    for (int its = 0;; its++) {
        int l = francis_small_subdiagonal(fr, nn);
        r_set(fr->x, H(nn, nn));
        if (l == nn) { /* one root */
            r_add(wr + nn, fr->x, fr->t);
            r_set_zero(wi + nn);
            return 1;
        }
        r_set(fr->y, H(nn - 1, nn - 1));
        r_mul(fr->w, H(nn, nn - 1), H(nn - 1, nn));
        if (l == nn - 1) {
            francis_two_roots(fr, nn, wr, wi);
            return 2;
        }
        if (its == 30 * fr->period) return -1;
        if (its && its % fr->period == 0) francis_exceptional_shift(fr, nn);
        francis_qr_sweep(fr, l, nn);
    }
}
#undef H

/* Francis double-shift QR on the upper Hessenberg a, eigenvalues only, with
   deflation relative to eps = 2^(1−p). */
static int hqr(rptr a, int n, rptr wr, rptr wi)
{
    cl_prec_t prec = r_prec(a);
    RV_DECL(sc, FRANCIS_SCALARS, prec);
    francis fr = {.a = a, .n = n, .period = exceptional_period(prec), .anorm = sc, .eps = sc + 1,
                  .p = sc + 2, .q = sc + 3, .r = sc + 4, .s = sc + 5, .t = sc + 6, .u = sc + 7,
                  .v = sc + 8, .w = sc + 9, .x = sc + 10, .y = sc + 11, .z = sc + 12, .g = sc + 13};
    r_set_eps(fr.eps);
    francis_norm(&fr);
    r_set_zero(fr.t);
    for (int nn = n - 1; nn >= 0;) {
        int roots = francis_deflate(&fr, nn, wr, wi);
        if (roots < 0) return CL_ENOCONV;
        nn -= roots;
    }
    return CL_OK;
}

int CL_FN(cl_eig)(rptr wr, rptr wi, rsrc A, int n)
{
    if (n < 1) return CL_EDIM;
    size_t nn = (size_t)n * (size_t)n;
    if (!finite_all(A, nn)) return CL_ENAN;
    rptr H = CL_FN(cl_rvec_new)(nn, r_prec(wr));
    if (!H) return CL_ENOMEM;
    for (size_t i = 0; i < nn; i++) r_set(H + i, A + i);
    balance(H, n);
    hessenberg(H, n);
    int st = hqr(H, n, wr, wi);
    CL_FN(cl_rvec_free)(H);
    if (st == CL_OK) CL_FN(cl_eig_sort)(wr, wi, n);
    return st;
}

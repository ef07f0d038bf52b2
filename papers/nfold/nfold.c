/** \page ch_nfold NFOLD — the N-fold 3D pendulum through SE(3)^N

The chain of \f$N\f$ spherical pendulums of [S2 V] — point masses \f$m_i\f$ at
the ends of massless links of lengths \f$L_i\f$, the first joint fixed at the
origin, gravity \f$g\f$ along \f$-e_3\f$ — evolves on \f$(TS^2)^N\f$. With the
angular velocities of the kinematic equations [NFOLD (1)]
\f[ \dot q_i = \omega_i \times q_i, \f]
the Euler–Lagrange equations [NFOLD (2)] read \f$R(q)\dot\omega = r\f$ with
\f[ r_i = \sum_{j\ne i} M_{ij}|\omega_j|^2 \hat q_i q_j - \Big(\sum_{j\ge i} m_j\Big) g L_i \hat q_i e_3, \f]
\f$R(q)\f$ the symmetric block matrix of [NFOLD (3)–(4)] and
\f$M_{ij} = (\sum_{k\ge\max(i,j)} m_k) L_i L_j I_3\f$ [NFOLD (5)]. This is
[S2 (40)] with the \f$\dot\omega_j\f$ terms gathered on the left and no
external force.

The same vector field is written through the transitive action of
\f$SE(3)^N\f$ on \f$(TS^2)^N\f$ (\ref cl_nfold_act_d "cl_nfold_act"):
\f[ \psi((A, a), (q, \omega)) = (Aq,\; A\omega + \hat a A q), \f]
a group action for the product \f$(B, b)(A, a) = (BA, Ba + b)\f$ that keeps
\f$|q|\f$ and \f$q\cdot\omega\f$. Its infinitesimal generator at
\f$\xi = (u, v) \in \mathfrak{se}(3)\f$ is
\f$\Psi_*(\xi)|_{(q,\omega)} = (u \times q,\; u \times \omega + v \times q)\f$
(\ref cl_nfold_generator_d "cl_nfold_generator"). With
\f$h = A_q^{-1} r = \dot\omega\f$ [NFOLD (7)–(8)] and
\f$a_i = q_i \times h_i\f$, the map [NFOLD (9)]
\f[ f(q, \omega) = (\omega_1, q_1 \times h_1, \dots, \omega_N, q_N \times h_N) \in \mathfrak{se}(3)^N \f]
satisfies \f$\Psi_*(f(m))|_m = F|_m\f$ [NFOLD (6)]: the first component gives
\f$\omega_i \times q_i\f$, and the second \f$\omega_i \times \omega_i + (q_i \times h_i) \times q_i = h_i\f$
because \f$h_i \perp q_i\f$ and \f$|q_i| = 1\f$. Lie group integrators
(\ref cl_lie_new_d "cl_lie_new": Lie–Euler, RKMK4, CF4, RKMK45) advance the
state by \f$\exp(\cdot)\f$ acting through \f$\psi\f$, so every iterate stays on
\f$(TS^2)^N\f$ up to rounding (\ref cl_nfold_lie_problem_d "cl_nfold_lie_problem").

Solving for \f$h\f$. The public reference implementations assemble the dense
\f$3N\times 3N\f$ matrix \f$R(q)\f$ and solve with it at every stage
(\ref cl_nfold_h_dense_d "cl_nfold_h_dense", \f$O(N^3)\f$). The chapter's
default (\ref cl_nfold_h_d "cl_nfold_h") is the \f$O(N)\f$ solve of chapter S2 V
(\ref cl_chain_rhs_d "cl_chain_rhs" in the \f$(q,\omega)\f$ form). A second
\f$O(N)\f$ route, derived independently, checks it
(\ref cl_nfold_h_tension_d "cl_nfold_h_tension"): with \f$x_k = \sum_{j\le k} L_j q_j\f$
and \f$\tau_k\f$ the tension of link \f$k\f$, Newton's law for mass \f$k\f$ is
\f$m_k \ddot x_k = -\tau_k q_k + \tau_{k+1} q_{k+1} - m_k g e_3\f$
(\f$\tau_{N+1} = 0\f$), and the constraint \f$q_k\cdot\ddot q_k = -|\omega_k|^2\f$
with \f$L_k \ddot q_k = \ddot x_k - \ddot x_{k-1}\f$ gives the symmetric
positive definite tridiagonal system
\f[ \Big(\tfrac{1}{m_k} + \tfrac{1}{m_{k-1}}\Big)\tau_k - \tfrac{c_k}{m_k}\tau_{k+1} - \tfrac{c_{k-1}}{m_{k-1}}\tau_{k-1}
    = L_k|\omega_k|^2 - \delta_{k1}\, g\, e_3\cdot q_1, \qquad c_k = q_k\cdot q_{k+1}, \f]
(\f$1/m_0 = 0\f$), solved without pivoting; then \f$h_k = q_k \times \ddot q_k\f$.
The oracle compares the three routes and the residual of [S2 (40)].

Every printed formula (1)–(9) agrees with its derivation; see \ref errata_NFOLD "the NFOLD errata".
*/
#include <stdlib.h>
#include "r3.h"
#include "lie.h"
#include "nfold.h"
#include "linalg.h"

/* Scratch of cl_nfold_h_tension: τ, diagonal, off-diagonal, right side (N
 * each), accelerations ẍ_0 … ẍ_N (3(N+1)). */
#define WORK_LEN(n) (4 * (n) + 3 * ((n) + 1))

int CL_FN(cl_nfold_new)(CL_FN(cl_nfold) **out, size_t n, rsrc m, rsrc l, rsrc g, cl_prec_t prec, int dense)
{
    int st = CL_OK;
    CL_FN(cl_nfold) *s = NULL;
    *out = NULL;
    if (n == 0 || n > (size_t)1 << 20) { st = CL_EDIM; goto fail; }
    if (CL_PREC == CL_MPFR && cl_prec_check(prec)) { st = CL_EPREC; goto fail; }
    if (!CL_FN(cl_rvec_is_finite)(m, n) || !CL_FN(cl_rvec_is_finite)(l, n) || !r_is_number(g)) { st = CL_ENAN; goto fail; }
    for (size_t i = 0; i < n; i++)
        if (r_sgn(m + i) <= 0 || r_sgn(l + i) <= 0) { st = CL_EPARAM; goto fail; }
    if (r_sgn(g) < 0) { st = CL_EPARAM; goto fail; }
    s = calloc(1, sizeof *s);
    if (!s) { st = CL_ENOMEM; goto fail; }
    s->n = n;
    s->prec = CL_PREC == CL_DOUBLE ? 53 : prec;
    /* one block: m, l, mtail (N each), g; then the scratch work, hbuf (3N), dx and xibuf (6N each) */
    s->m = CL_FN(cl_rvec_new)(3 * n + 1 + WORK_LEN(n) + 3 * n + 2 * 6 * n, prec);
    if (!s->m) { st = CL_ENOMEM; goto fail; }
    rptr q = RV_CARVE(s->m, n, &s->m, &s->l, &s->mtail);
    s->g = q;
    s->work = q + 1;
    q = RV_CARVE(s->work + WORK_LEN(n), 3 * n, &s->hbuf);
    RV_CARVE(q, 6 * n, &s->dx, &s->xibuf);
    if ((st = CL_FN(cl_chain_new)(&s->chain, n, m, l, g, prec))) goto fail;
    for (size_t i = 0; i < n; i++) { r_set(s->m + i, m + i); r_set(s->l + i, l + i); }
    r_set(s->g, g);
    r_set(s->mtail + n - 1, m + n - 1);
    for (size_t i = n - 1; i-- > 0;) r_add(s->mtail + i, s->mtail + i + 1, m + i);
    if (dense) {
        s->dense = CL_FN(cl_rvec_new)(9 * n * n, prec);
        s->perm = malloc(3 * n * sizeof *s->perm);
        if (!s->dense || !s->perm) { st = CL_ENOMEM; goto fail; }
    }
    *out = s;
    return CL_OK;
fail:
    CL_FN(cl_nfold_free)(s);
    return st;
}

void CL_FN(cl_nfold_free)(CL_FN(cl_nfold) *s)
{
    if (!s) return;
    CL_FN(cl_rvec_free)(s->m);
    CL_FN(cl_rvec_free)(s->dense);
    CL_FN(cl_chain_free)(s->chain);
    free(s->perm);
    free(s);
}

int CL_FN(cl_nfold_check_state)(const CL_FN(cl_nfold) *s, rsrc y, double tol_ulps)
{
    size_t n = s->n;
    if (!CL_FN(cl_rvec_is_finite)(y, 6 * n)) return CL_ENAN;
    for (size_t i = 0; i < n; i++) {
        int st = CL_FN(cl_v3_check_unit)(y + 3 * i, tol_ulps);
        if (!st) st = CL_FN(cl_v3_check_tangent)(y + 3 * i, y + 3 * (n + i), tol_ulps);
        if (st) return st;
    }
    return CL_OK;
}

/* Copy i of ψ: (q_out, w_out) = (A q, A ω + â A q) for the block (A, a) at g. */
static void act_block(rptr y_out, rsrc g, rsrc y, size_t n, size_t i)
{
    RV_DECL(aq, 3, r_prec(y_out));
    rptr q = y_out + 3 * i, w = y_out + 3 * (n + i);
    m3_mul_v3(q, g, y + 3 * i);
    m3_mul_v3(w, g, y + 3 * (n + i));
    v3_cross(aq, g + 9, q);
    v3_add(w, w, aq);
}

/** \f$\psi((A,a),(q,\omega)) = (Aq, A\omega + \hat a A q)\f$ on each copy of TS² [NFOLD]. */
void CL_FN(cl_nfold_act)(rptr y_out, rsrc G, rsrc y, size_t n)
{
    for (size_t i = 0; i < n; i++) act_block(y_out, G + 12 * i, y, n, i);
}

int CL_FN(cl_nfold_exp_act)(rptr y_out, rsrc xi, rsrc y, size_t n)
{
    RV_DECL(G, 12, r_prec(y_out));
    for (size_t i = 0; i < n; i++) {
        int st = CL_FN(cl_se3_exp)(G, xi + 6 * i);
        if (st) return st;
        act_block(y_out, G, y, n, i);
    }
    return CL_OK;
}

/** \f$\Psi_*(u, v)|_{(q,\omega)} = (u\times q,\ u\times\omega + v\times q)\f$, the derivative of ψ at the identity. */
void CL_FN(cl_nfold_generator)(rptr dy, rsrc xi, rsrc y, size_t n)
{
    cl_prec_t p = r_prec(dy);
    RV_DECL(t, 3, p);
    for (size_t i = 0; i < n; i++) {
        rsrc u = xi + 6 * i, v = u + 3;
        v3_cross(dy + 3 * i, u, y + 3 * i);
        v3_cross(dy + 3 * (n + i), u, y + 3 * (n + i));
        v3_cross(t, v, y + 3 * i);
        v3_add(dy + 3 * (n + i), dy + 3 * (n + i), t);
    }
}

/**
 * R(q) [NFOLD (3)–(4)]. The block \f$\hat q_i^T\hat q_j = (q_i\cdot q_j) I - q_j q_i^T\f$
 * [S2 (47)]; the lower blocks are the transposes.
 */
void CL_FN(cl_nfold_R)(const CL_FN(cl_nfold) *s, rptr R, rsrc y)
{
    size_t n = s->n, N3 = 3 * n;
    cl_prec_t p = s->prec;
    R_DECL(c, p); R_DECL(d, p); R_DECL(x, p);
    for (size_t i = 0; i < n; i++) {
        rsrc qi = y + 3 * i;
        r_sqr(c, s->l + i);
        r_mul(c, c, s->mtail + i);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                rptr e = R + (3 * i + a) * N3 + 3 * i + b;
                if (a == b) r_set(e, c);
                else r_set_zero(e);
            }
        for (size_t j = i + 1; j < n; j++) {
            rsrc qj = y + 3 * j;
            r_mul(c, s->l + i, s->l + j);
            r_mul(c, c, s->mtail + j);
            v3_dot(d, qi, qj);
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) {
                    rptr e = R + (3 * i + a) * N3 + 3 * j + b;
                    r_mul(x, qj + a, qi + b);
                    if (a == b) r_sub(x, d, x);
                    else r_neg(x, x);
                    r_mul(e, x, c);
                    r_set(R + (3 * j + b) * N3 + 3 * i + a, e);
                }
        }
    }
}

/**
 * r [NFOLD (2)]: with \f$w_j = L_j|\omega_j|^2 q_j\f$ and \f$\mu_i = \sum_{k\ge i} m_k\f$,
 * \f[ r_i = L_i\, q_i \times \Big(\mu_i \sum_{j<i} w_j + \sum_{j>i}\mu_j w_j - \mu_i g e_3\Big), \f]
 * the two sums accumulated from both ends in O(N): r_i holds the suffix sum
 * until it is overwritten by its own value.
 */
void CL_FN(cl_nfold_r)(const CL_FN(cl_nfold) *s, rptr r, rsrc y)
{
    size_t n = s->n;
    cl_prec_t p = s->prec;
    rptr suf = r; /* Σ_{j>i} μ_j w_j, 3 per link */
    RV_DECL(acc, 3, p); RV_DECL(t, 3, p);
    R_DECL(c, p); R_DECL(x, p);
    for (size_t i = n; i-- > 0;) {
        v3_set(suf + 3 * i, acc);
        rsrc w = y + 3 * (n + i);
        v3_dot(c, w, w);
        r_mul(c, c, s->l + i);
        r_mul(c, c, s->mtail + i);
        v3_axpy(acc, c, y + 3 * i);
    }
    v3_zero(acc); /* Σ_{j<i} w_j */
    for (size_t i = 0; i < n; i++) {
        rsrc qi = y + 3 * i, w = y + 3 * (n + i);
        for (int k = 0; k < 3; k++) r_fma(t + k, s->mtail + i, acc + k, suf + 3 * i + k);
        r_mul(x, s->mtail + i, s->g);
        r_sub(t + 2, t + 2, x);
        v3_cross(t, qi, t);
        v3_scale(r + 3 * i, s->l + i, t);
        v3_dot(c, w, w);
        r_mul(c, c, s->l + i);
        v3_axpy(acc, c, qi);
    }
}

/** h = ω̇ [NFOLD (8)]: the ω̇ half of the chain's (q, ω) field [S2 (40)], O(N). */
int CL_FN(cl_nfold_h)(CL_FN(cl_nfold) *s, rptr h, rsrc y)
{
    int st = CL_FN(cl_chain_rhs)(s->chain, CL_S2_OMEGA, s->dx, y);
    if (st) return st;
    CL_FN(cl_rvec_copy)(h, s->dx + 3 * s->n, 3 * s->n);
    return CL_OK;
}

/**
 * h = ω̇ [NFOLD (8)] in O(N) through the link tensions (chapter page):
 * a symmetric positive definite tridiagonal solve, then
 * \f$\ddot x_k = (-\tau_k q_k + \tau_{k+1} q_{k+1})/m_k - g e_3\f$,
 * \f$\ddot q_k = (\ddot x_k - \ddot x_{k-1})/L_k\f$, \f$h_k = q_k \times \ddot q_k\f$.
 */
int CL_FN(cl_nfold_h_tension)(CL_FN(cl_nfold) *s, rptr h, rsrc y)
{
    size_t n = s->n;
    cl_prec_t p = s->prec;
    rptr tau = s->work, dg = tau + n, off = dg + n, rhs = off + n, xdd = rhs + n;
    R_DECL(c, p); R_DECL(x, p); R_DECL(im, p); R_DECL(imp, p);
    RV_DECL(qdd, 3, p);
    r_set_zero(imp);                                  /* 1/m_{k−1}, 0 for k = 1 */
    for (size_t k = 0; k < n; k++) {
        rsrc q = y + 3 * k, w = y + 3 * (n + k);
        r_si_div(im, 1, s->m + k);
        r_add(dg + k, im, imp);
        if (k + 1 < n) {
            v3_dot(c, q, y + 3 * (k + 1));
            r_mul(off + k, c, im);
            r_neg(off + k, off + k);                  /* −c_k/m_k couples τ_k and τ_{k+1} */
        }
        v3_dot(c, w, w);
        r_mul(rhs + k, c, s->l + k);
        r_set(imp, im);
    }
    r_mul(x, s->g, y + 2);
    r_sub(rhs, rhs, x);
    /* SPD tridiagonal (Thomas, src/linalg); ẍ's storage is its scratch. */
    int st = CL_FN(cl_tridiag_spd_solve)(tau, xdd, dg, off, rhs, n);
    if (st) return st;
    /* Accelerations of the masses; ẍ_0 = 0 at the fixed joint. */
    v3_zero(xdd);
    for (size_t k = 0; k < n; k++) {
        rptr a = xdd + 3 * (k + 1);
        rsrc q = y + 3 * k;
        r_neg(c, tau + k);
        v3_scale(a, c, q);
        if (k + 1 < n) v3_axpy(a, tau + k + 1, y + 3 * (k + 1));
        r_si_div(im, 1, s->m + k);
        v3_scale(a, im, a);
        r_sub(a + 2, a + 2, s->g);
        v3_sub(qdd, a, a - 3);
        r_si_div(x, 1, s->l + k);
        v3_scale(qdd, x, qdd);
        v3_cross(h + 3 * k, q, qdd);
    }
    return CL_OK;
}

int CL_FN(cl_nfold_h_dense)(CL_FN(cl_nfold) *s, rptr h, rsrc y)
{
    if (!s->dense) return CL_EPARAM;
    int N3 = (int)(3 * s->n);
    rptr A = s->dense;
    CL_FN(cl_nfold_R)(s, A, y);
    CL_FN(cl_nfold_r)(s, h, y);
    int st = CL_FN(cl_lu_factor)(A, s->perm, N3);   /* LU with partial pivoting (src/linalg) */
    if (!st) st = CL_FN(cl_lu_solve)(A, s->perm, h, N3, 1);
    return st;
}

/* f from h [NFOLD (9)]: (ω_i, q_i × h_i). */
static void f_from_h(size_t n, rptr xi, rsrc h, rsrc y)
{
    for (size_t i = 0; i < n; i++) {
        v3_set(xi + 6 * i, y + 3 * (n + i));
        v3_cross(xi + 6 * i + 3, y + 3 * i, h + 3 * i);
    }
}

int CL_FN(cl_nfold_f)(CL_FN(cl_nfold) *s, rptr xi, rsrc y)
{
    int st = CL_FN(cl_nfold_h)(s, s->hbuf, y);
    if (st) return st;
    f_from_h(s->n, xi, s->hbuf, y);
    return CL_OK;
}

int CL_FN(cl_nfold_f_dense)(CL_FN(cl_nfold) *s, rptr xi, rsrc y)
{
    int st = CL_FN(cl_nfold_h_dense)(s, s->hbuf, y);
    if (st) return st;
    f_from_h(s->n, xi, s->hbuf, y);
    return CL_OK;
}

int CL_FN(cl_nfold_field)(CL_FN(cl_nfold) *s, rptr dy, rsrc y)
{
    int st = CL_FN(cl_nfold_f)(s, s->xibuf, y);
    if (st) return st;
    CL_FN(cl_nfold_generator)(dy, s->xibuf, y, s->n);
    return CL_OK;
}

void CL_FN(cl_nfold_energy)(const CL_FN(cl_nfold) *s, rptr E, rsrc y)
{
    size_t n = s->n;
    cl_prec_t p = s->prec;
    RV_DECL(xd, 3, p); RV_DECL(x, 3, p); RV_DECL(t, 3, p);
    R_DECL(T, p); R_DECL(U, p); R_DECL(c, p);
    for (size_t k = 0; k < n; k++) {
        v3_cross(t, y + 3 * (n + k), y + 3 * k);
        v3_axpy(xd, s->l + k, t);
        v3_axpy(x, s->l + k, y + 3 * k);
        v3_dot(c, xd, xd);
        r_addmul(T, s->m + k, c);
        r_addmul(U, s->m + k, x + 2);
    }
    r_mul_2si(T, T, -1);
    r_mul(U, U, s->g);
    r_add(E, T, U);
}

static int lp_field(void *ctx, rptr xi, rsrc y) { return CL_FN(cl_nfold_f)(ctx, xi, y); }
static int lp_field_dense(void *ctx, rptr xi, rsrc y) { return CL_FN(cl_nfold_f_dense)(ctx, xi, y); }
static int lp_exp_act(void *ctx, rptr yo, rsrc xi, rsrc y)
{
    return CL_FN(cl_nfold_exp_act)(yo, xi, y, ((CL_FN(cl_nfold) *)ctx)->n);
}
static int lp_dexpinv(void *ctx, rptr o, rsrc xi, rsrc eta)
{
    return CL_FN(cl_se3n_dexpinv)(o, xi, eta, ((CL_FN(cl_nfold) *)ctx)->n);
}
static int lp_bracket(void *ctx, rptr o, rsrc xi, rsrc eta)
{
    CL_FN(cl_se3n_bracket)(o, xi, eta, ((CL_FN(cl_nfold) *)ctx)->n);
    return CL_OK;
}

void CL_FN(cl_nfold_lie_problem)(CL_FN(cl_nfold) *s, CL_FN(cl_lie_problem) *pb, int dense)
{
    pb->dim_m = 6 * s->n;
    pb->dim_g = 6 * s->n;
    pb->ctx = s;
    pb->field = dense ? lp_field_dense : lp_field;
    pb->exp_act = lp_exp_act;
    pb->dexpinv = lp_dexpinv;
    pb->bracket = lp_bracket;
}

int CL_FN(cl_nfold_simulate)(CL_FN(cl_nfold) *s, int method, rptr y, rsrc t1, rsrc h, rsrc rtol, rsrc atol,
                             int (*out)(void *ctx, rsrc t, rsrc y), void *ctx)
{
    cl_prec_t p = s->prec;
    if (cl_lie_method_order(method) == 0 || !r_is_number(h) || !r_is_number(t1) || r_sgn(h) <= 0 || r_sgn(t1) < 0)
        return CL_EPARAM;
    CL_FN(cl_lie_problem) pb;
    CL_FN(cl_nfold_lie_problem)(s, &pb, 0);
    CL_FN(cl_lie_integrator) *w;
    int st = CL_FN(cl_lie_new)(&w, &pb, method, p);
    if (st) return st;
    R_DECL(t, p); R_DECL(hh, p); R_DECL(rem, p); R_DECL(tn, p); R_DECL(hin, p); R_DECL(slack, p);
    r_set(hin, h);
    /* Step k ends at k·h (not at a running sum of h, whose rounding errors
       would leave a last step of a few units of rounding); the last step lands
       on t1 and also absorbs a remainder below 2^(8−p)·t1. */
    r_mul_2si(slack, t1, 8 - (long)p);
    for (long k = 1; r_cmp(t, t1) < 0; k++) {
        r_mul_si(tn, h, k);
        r_sub(rem, t1, tn);
        int last = r_cmp(rem, slack) <= 0;
        if (last) r_set(tn, t1);
        r_sub(hh, tn, t);
        if (r_sgn(hh) <= 0 || r_cmp(tn, t) == 0) { st = CL_ESTEP; break; } /* t + h == t: no progress */
        if (method == CL_LIE_RKMK45)
            st = CL_FN(cl_lie_integrate_adaptive)(w, y, t, tn, hin, rtol, atol, NULL, NULL);
        else
            st = CL_FN(cl_lie_step)(w, y, hh);
        if (st) break;
        r_set(t, tn);
        if (out && (st = out(ctx, t, y))) break;
    }
    CL_FN(cl_lie_free)(w);
    return st;
}

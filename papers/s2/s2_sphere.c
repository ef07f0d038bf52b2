/** \page ch_s2_sphere S2 II — The two-sphere

The two-sphere is the manifold of unit vectors of \f$\mathbb{R}^3\f$
[S2 (1)], and its tangent space at q is the plane orthogonal to q [S2 (2)]:
\f[ S^2 = \{ q \in \mathbb{R}^3 \mid \|q\| = 1 \}, \qquad
    \mathsf{T}_q S^2 = \{ \xi \in \mathbb{R}^3 \mid q \cdot \xi = 0 \}. \f]
Every later chapter works on products of these spheres without angles: a
configuration is a unit vector, a velocity a vector orthogonal to it. The
validators cl_s2_check_point() and cl_s2_check_tangent() (each in a `_d`
and an `_mp` form) accept a state when these constraints hold to a tolerance tied
to the working precision (CL_S2_TOL_ULPS units of 2^(1−p)), and name the
rule that is broken otherwise (CL_ENOTUNIT, CL_ENOTTANGENT, CL_ENAN).

Differentiating ‖q(t)‖ = 1 gives q·q̇ = 0, so there is an angular velocity
ω with [S2 (3)]
\f[ \dot q = \omega \times q = S(\omega)\, q, \f]
where the hat map S [S2 (4)] turns a cross product into a matrix product,
\f$S(x)y = x \times y\f$, \f$S(x)^T = -S(x)\f$. Only the component of ω
orthogonal to q moves q, so the paper normalizes ω·q = 0; then q, q̇ and ω are
mutually orthogonal and [S2 (5)]
\f[ \omega = S(q)\, \dot q = q \times \dot q . \f]
With that normalization cl_s2_qdot_from_omega() and cl_s2_omega_from_qdot()
are inverse maps of \f$\mathsf{T}_qS^2\f$: \f$q \times (\omega \times q) =
\omega\,(q\cdot q) - q\,(q\cdot\omega) = \omega\f$. The oracle check
`s2.kin.roundtrip` runs both directions at random states. Differentiating
(5) along a curve, \f$\dot\omega = S(\dot q)\dot q + S(q)\ddot q = S(q)\ddot q\f$,
so \f$\dot\omega\f$ is orthogonal to q as well; the check `s2.kin.omega_dot`
confirms it along random curves with derivatives taken by cl_jacobian()
at raised precision.

The orthogonal projection onto the tangent plane, which carries the
Euler–Lagrange equations on S² [S2 (11)], is by (44) with \f$q^Tq = 1\f$
\f[ I_3 - q q^T = -S(q)^2 \f]
(cl_s2_proj_matrix(), cl_s2_proj_tangent(); check `s2.proj.hat_squared`).

Appendix A collects the identities of the hat map that every derivation in
the paper uses [S2 (43)–(48)]:
\f[ S(x)y = x\times y = -y\times x = -S(y)x, \f]
\f[ S(x)^2 = -(x^Tx) I + x x^T, \qquad S(x)^3 = -(x^Tx) S(x), \f]
\f[ x\cdot S(y)z = y\cdot S(z)x = z\cdot S(x)y, \f]
\f[ S(x)S(y)z = (x\cdot z)y - (x\cdot y)z = (yx^T - x^Ty\, I) z, \f]
\f[ S(x\times y) = S(x)S(y) - S(y)S(x) = yx^T - xy^T. \f]
Each is a function (cl_s2_hat_id43() … cl_s2_hat_id48()) that evaluates
every printed form literally, through the matrices where the paper writes
matrices; the oracle checks `s2.hat.id43` … `s2.hat.id48` compare the forms
at several hundred random vectors on the precision ladder. In the extracted
text of (46) the first form has lost its leading x; the identity is the
scalar triple product, as the checks confirm (\ref errata_S2 "the S2 errata").
*/
/**
 * \file s2_sphere.c
 * \brief [S2 II] the two-sphere, its tangent spaces, the kinematics and the
 *        hat map; [S2 App. A] the hat-map identities (43)–(48).
 */
#include "r3.h"
#define CL_TEMPLATE_HEADER "s2_sphere_decl.h"
#include "cl_instantiate.h"

/** Every entry of the n-vector is finite. */
static int s2_finite_(rsrc a, size_t n) { return CL_FN(cl_rvec_is_finite)(a, n); }

/**
 * [S2 (1)] \f$ q \in S^2 \iff \|q\| = 1 \f$, to CL_S2_TOL_ULPS·2^(1−p) in ‖q‖².
 */
int CL_FN(cl_s2_check_point)(rsrc q)
{
    return CL_FN(cl_v3_check_unit)(q, CL_S2_TOL_ULPS);
}

/**
 * [S2 (2)] \f$ \xi \in \mathsf{T}_qS^2 \iff q\cdot\xi = 0 \f$; q is checked first.
 */
int CL_FN(cl_s2_check_tangent)(rsrc q, rsrc xi)
{
    int st = CL_FN(cl_s2_check_point)(q);
    if (st) return st;
    return CL_FN(cl_v3_check_tangent)(q, xi, CL_S2_TOL_ULPS);
}

/* r = a × b once t is checked tangent at q (the maps (3) and (5)); r may alias an input. */
static int s2_tangent_cross_(rptr r, rsrc q, rsrc t, rsrc a, rsrc b)
{
    int st = CL_FN(cl_s2_check_tangent)(q, t);
    if (st) return st;
    v3_cross(r, a, b);
    return CL_OK;
}

/**
 * [S2 (3)] \f$ \dot q = \omega \times q = S(\omega) q \f$, ω ∈ T_qS².
 */
int CL_FN(cl_s2_qdot_from_omega)(rptr qdot, rsrc q, rsrc omega)
{
    return s2_tangent_cross_(qdot, q, omega, omega, q);
}

/**
 * [S2 (4)] \f$ S(x) = \begin{bmatrix} 0 & -x_3 & x_2 \\ x_3 & 0 & -x_1 \\ -x_2 & x_1 & 0 \end{bmatrix} \f$.
 */
int CL_FN(cl_s2_hat)(rptr S, rsrc x)
{
    m3_hat(S, x);
    return s2_finite_(x, 3) ? CL_OK : CL_ENAN;
}

/**
 * [S2 (5)] \f$ \omega = S(q)\dot q = q \times \dot q \f$, q̇ ∈ T_qS².
 */
int CL_FN(cl_s2_omega_from_qdot)(rptr omega, rsrc q, rsrc qdot)
{
    return s2_tangent_cross_(omega, q, qdot, q, qdot);
}

/**
 * [S2 (11), (44)] \f$ P(q) = I_3 - q q^T \f$ (equal to \f$-S(q)^2\f$ on S²).
 */
int CL_FN(cl_s2_proj_matrix)(rptr P, rsrc q)
{
    int st = CL_FN(cl_s2_check_point)(q);
    if (st) return st;
    m3_outer(P, q, q);
    for (int k = 0; k < 9; k++) r_neg(P + k, P + k);
    for (int i = 0; i < 3; i++) r_add_si(P + 4 * i, P + 4 * i, 1);
    return CL_OK;
}

/**
 * [S2 (11)] \f$ (I_3 - q q^T) v = v - (q\cdot v) q \f$.
 */
int CL_FN(cl_s2_proj_tangent)(rptr r, rsrc q, rsrc v)
{
    int st = CL_FN(cl_s2_check_point)(q);
    if (st) return st;
    if (!s2_finite_(v, 3)) return CL_ENAN;
    v3_proj_tangent(r, q, v);
    return CL_OK;
}

/* M = s·I + M (adds s on the diagonal). */
static void m3_add_diag_(rptr M, rsrc s)
{
    for (int i = 0; i < 3; i++) r_add(M + 4 * i, M + 4 * i, s);
}

/**
 * [S2 (43)] \f$ S(x)y = x\times y = -y\times x = -S(y)x \f$: forms 0…3.
 */
int CL_FN(cl_s2_hat_id43)(rptr forms, rsrc x, rsrc y)
{
    if (!s2_finite_(x, 3) || !s2_finite_(y, 3)) return CL_ENAN;
    RV_DECL(S, 9, r_prec(forms));
    m3_hat(S, x);
    m3_mul_v3(forms, S, y);          /* S(x) y */
    v3_cross(forms + 3, x, y);       /* x × y */
    v3_cross(forms + 6, y, x);
    v3_neg(forms + 6, forms + 6);    /* −y × x */
    m3_hat(S, y);
    m3_mul_v3(forms + 9, S, x);
    v3_neg(forms + 9, forms + 9);    /* −S(y) x */
    return CL_OK;
}

/**
 * [S2 (44)] \f$ S(x)^2 = -(x^Tx) I_{3\times3} + x x^T \f$: forms 0, 1.
 */
int CL_FN(cl_s2_hat_id44)(rptr forms, rsrc x)
{
    if (!s2_finite_(x, 3)) return CL_ENAN;
    cl_prec_t p = r_prec(forms);
    RV_DECL(S, 9, p);
    R_DECL(n2, p);
    m3_hat(S, x);
    m3_mul(forms, S, S);             /* S(x)² */
    v3_dot(n2, x, x);
    r_neg(n2, n2);
    m3_outer(forms + 9, x, x);
    m3_add_diag_(forms + 9, n2);     /* −(xᵀx) I + x xᵀ */
    return CL_OK;
}

/**
 * [S2 (45)] \f$ S(x)^3 = -(x^Tx) S(x) \f$: forms 0, 1.
 */
int CL_FN(cl_s2_hat_id45)(rptr forms, rsrc x)
{
    if (!s2_finite_(x, 3)) return CL_ENAN;
    cl_prec_t p = r_prec(forms);
    RV_DECL(S, 9, p); RV_DECL(S2, 9, p);
    R_DECL(n2, p);
    m3_hat(S, x);
    m3_mul(S2, S, S);
    m3_mul(forms, S2, S);            /* S(x)³ */
    v3_dot(n2, x, x);
    r_neg(n2, n2);
    for (int k = 0; k < 9; k++) r_mul(forms + 9 + k, n2, S + k); /* −(xᵀx) S(x) */
    return CL_OK;
}

/**
 * [S2 (46)] \f$ x\cdot S(y)z = y\cdot S(z)x = z\cdot S(x)y \f$: forms 0, 1, 2.
 * Printed without the leading x (\ref errata_S2 "the S2 errata").
 */
int CL_FN(cl_s2_hat_id46)(rptr forms, rsrc x, rsrc y, rsrc z)
{
    if (!s2_finite_(x, 3) || !s2_finite_(y, 3) || !s2_finite_(z, 3)) return CL_ENAN;
    cl_prec_t p = r_prec(forms);
    RV_DECL(S, 9, p); RV_DECL(v, 3, p);
    m3_hat(S, y); m3_mul_v3(v, S, z); v3_dot(forms, x, v);     /* x · S(y) z */
    m3_hat(S, z); m3_mul_v3(v, S, x); v3_dot(forms + 1, y, v); /* y · S(z) x */
    m3_hat(S, x); m3_mul_v3(v, S, y); v3_dot(forms + 2, z, v); /* z · S(x) y */
    return CL_OK;
}

/**
 * [S2 (47)] \f$ S(x)S(y)z = (x\cdot z)y - (x\cdot y)z = (yx^T - x^Ty\,I_{3\times3})z \f$:
 * forms 0, 1, 2.
 */
int CL_FN(cl_s2_hat_id47)(rptr forms, rsrc x, rsrc y, rsrc z)
{
    if (!s2_finite_(x, 3) || !s2_finite_(y, 3) || !s2_finite_(z, 3)) return CL_ENAN;
    cl_prec_t p = r_prec(forms);
    RV_DECL(A, 9, p); RV_DECL(B, 9, p); RV_DECL(v, 3, p);
    R_DECL(c, p);
    m3_hat(A, x); m3_hat(B, y);
    m3_mul(A, A, B);
    m3_mul_v3(forms, A, z);                      /* S(x) S(y) z */
    v3_dot(c, x, z); v3_scale(forms + 3, c, y);
    v3_dot(c, x, y); v3_scale(v, c, z);
    v3_sub(forms + 3, forms + 3, v);             /* (x·z) y − (x·y) z */
    m3_outer(A, y, x);
    r_neg(c, c);
    m3_add_diag_(A, c);
    m3_mul_v3(forms + 6, A, z);                  /* (y xᵀ − xᵀy I) z */
    return CL_OK;
}

/**
 * [S2 (48)] \f$ S(x\times y) = S(x)S(y) - S(y)S(x) = yx^T - xy^T \f$: forms 0, 1, 2.
 */
int CL_FN(cl_s2_hat_id48)(rptr forms, rsrc x, rsrc y)
{
    if (!s2_finite_(x, 3) || !s2_finite_(y, 3)) return CL_ENAN;
    cl_prec_t p = r_prec(forms);
    RV_DECL(A, 9, p); RV_DECL(B, 9, p); RV_DECL(C, 9, p); RV_DECL(v, 3, p);
    v3_cross(v, x, y);
    m3_hat(forms, v);                            /* S(x × y) */
    m3_hat(A, x); m3_hat(B, y);
    m3_mul(C, A, B);
    m3_mul(A, B, A);
    for (int k = 0; k < 9; k++) r_sub(forms + 9 + k, C + k, A + k); /* S(x)S(y) − S(y)S(x) */
    m3_outer(A, y, x);
    m3_outer(B, x, y);
    for (int k = 0; k < 9; k++) r_sub(forms + 18 + k, A + k, B + k); /* y xᵀ − x yᵀ */
    return CL_OK;
}

double CL_FN(cl_s2_identity_log2_residual)(rsrc forms, int nforms, size_t m)
{
    double worst = -INFINITY;
    for (int k = 1; k < nforms; k++) {
        double l = CL_FN(cl_rvec_log2_maxdiff)(forms + (size_t)k * m, forms, m);
        if (l > worst || isnan(l)) worst = isnan(l) ? INFINITY : l;
    }
    return worst;
}

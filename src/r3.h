/**
 * \file r3.h
 * \brief R³ and 3×3 matrices in the papers' notation, for templated sources.
 *
 * Inline in both kinds; the exported `cl_v3_*_d` / `cl_v3_*_mp` symbols
 * (r3.c) wrap these for library users. Vectors are 3 consecutive scalars,
 * matrices 9 in row-major order. A routine's output may be the same vector
 * (or matrix) as any of its inputs, r == a, except for m3_hat, m3_outer and
 * m3_set_scalar, whose output must not overlap their inputs; a scalar
 * argument (s of v3_scale and v3_axpy) must not be an entry of the output.
 * Partial overlaps (r == a + 1) are never allowed.
 */
#ifndef CL_R3_H
#define CL_R3_H
#include "scalar.h"

#define CL_TEMPLATE_HEADER "r3_decl.h"
#define CL_TEMPLATE_ARB
#define CL_TEMPLATE_TRACE
#include "cl_instantiate.h"

/** r = a. */
static inline void v3_set(rptr r, rsrc a) { for (int i = 0; i < 3; i++) r_set(r + i, a + i); }
/** r = (x, y, z) from doubles (exact). */
static inline void v3_set_d(rptr r, double x, double y, double z) { r_set_d(r, x); r_set_d(r + 1, y); r_set_d(r + 2, z); }
/** r = 0. */
static inline void v3_zero(rptr r) { for (int i = 0; i < 3; i++) r_set_zero(r + i); }
/** r = a + b. */
static inline void v3_add(rptr r, rsrc a, rsrc b) { for (int i = 0; i < 3; i++) r_add(r + i, a + i, b + i); }
/** r = a − b. */
static inline void v3_sub(rptr r, rsrc a, rsrc b) { for (int i = 0; i < 3; i++) r_sub(r + i, a + i, b + i); }
/** r = −a. */
static inline void v3_neg(rptr r, rsrc a) { for (int i = 0; i < 3; i++) r_neg(r + i, a + i); }
/** r = s·a. */
static inline void v3_scale(rptr r, rsrc s, rsrc a) { for (int i = 0; i < 3; i++) r_mul(r + i, s, a + i); }
/** r += s·a. */
static inline void v3_axpy(rptr r, rsrc s, rsrc a) { for (int i = 0; i < 3; i++) r_addmul(r + i, s, a + i); }

/** d = a · b. */
static inline void v3_dot(rptr d, rsrc a, rsrc b)
{
    R_DECL(t, r_prec(d));
    r_mul(t, a, b);
    r_addmul(t, a + 1, b + 1);
    r_addmul(t, a + 2, b + 2);
    r_set(d, t);
}

/** n = ‖a‖. */
static inline void v3_norm(rptr n, rsrc a)
{
    v3_dot(n, a, a);
    r_sqrt(n, n);
}

/** r = a × b. */
static inline void v3_cross(rptr r, rsrc a, rsrc b)
{
    cl_prec_t p = r_prec(r);
    R_DECL(x, p); R_DECL(y, p); R_DECL(z, p);
    r_mul(x, a + 1, b + 2); r_submul(x, a + 2, b + 1);
    r_mul(y, a + 2, b);     r_submul(y, a, b + 2);
    r_mul(z, a, b + 1);     r_submul(z, a + 1, b);
    r_set(r, x); r_set(r + 1, y); r_set(r + 2, z);
}

/** r = v − (q·v / s) q, with \p s = 1 when NULL (r may alias v): the projections below. */
static inline void v3_remove_along(rptr r, rsrc q, rsrc v, rsrc s)
{
    R_DECL(c, r_prec(r));
    v3_dot(c, q, v);
    if (s) r_div(c, c, s);
    r_neg(c, c);
    RV_DECL(t, 3, r_prec(r));
    v3_set(t, v);
    v3_axpy(t, c, q);
    v3_set(r, t);
}

/** r = (I − qqᵀ) v, the projection onto T_q S² for unit q. */
static inline void v3_proj_tangent(rptr r, rsrc q, rsrc v) { v3_remove_along(r, q, v, NULL); }

/**
 * r = (I − qqᵀ/|q|²) v, the projection onto the plane normal to q, exact
 * also for the |q| ≠ 1 an integrator's stage leaves (r may alias v).
 */
static inline void v3_proj_plane(rptr r, rsrc q, rsrc v)
{
    R_DECL(qq, r_prec(r));
    v3_dot(qq, q, q);
    v3_remove_along(r, q, v, qq);
}

/** M = S(x), the hat map [S2 (4)]: S(x) y = x × y. */
static inline void m3_hat(rptr M, rsrc x)
{
    r_set_zero(M + 0); r_neg(M + 1, x + 2); r_set(M + 2, x + 1);
    r_set(M + 3, x + 2); r_set_zero(M + 4); r_neg(M + 5, x);
    r_neg(M + 6, x + 1); r_set(M + 7, x); r_set_zero(M + 8);
}

/** v = (M − Mᵀ)^∨ = (M₃₂ − M₂₃, M₁₃ − M₃₁, M₂₁ − M₁₂), the inverse of the hat
    map on M's skew part times 2 (v must not overlap M). */
static inline void m3_vee_skew2(rptr v, rsrc M)
{
    r_sub(v, M + 7, M + 5);
    r_sub(v + 1, M + 2, M + 6);
    r_sub(v + 2, M + 3, M + 1);
}

/** r = M a. */
static inline void m3_mul_v3(rptr r, rsrc M, rsrc a)
{
    RV_DECL(t, 3, r_prec(r));
    for (int i = 0; i < 3; i++) {
        r_mul(t + i, M + 3 * i, a);
        r_addmul(t + i, M + 3 * i + 1, a + 1);
        r_addmul(t + i, M + 3 * i + 2, a + 2);
    }
    v3_set(r, t);
}

/** C = A B. */
static inline void m3_mul(rptr C, rsrc A, rsrc B)
{
    RV_DECL(t, 9, r_prec(C));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r_mul(t + 3 * i + j, A + 3 * i, B + j);
            r_addmul(t + 3 * i + j, A + 3 * i + 1, B + 3 + j);
            r_addmul(t + 3 * i + j, A + 3 * i + 2, B + 6 + j);
        }
    for (int k = 0; k < 9; k++) r_set(C + k, t + k);
}

/** B = Aᵀ. */
static inline void m3_transpose(rptr B, rsrc A)
{
    RV_DECL(t, 9, r_prec(B));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r_set(t + 3 * j + i, A + 3 * i + j);
    for (int k = 0; k < 9; k++) r_set(B + k, t + k);
}

/** M = a bᵀ (outer product). */
static inline void m3_outer(rptr M, rsrc a, rsrc b)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r_mul(M + 3 * i + j, a + i, b + j);
}

/** M = s I. */
static inline void m3_set_scalar(rptr M, rsrc s)
{
    for (int k = 0; k < 9; k++) r_set_zero(M + k);
    r_set(M, s); r_set(M + 4, s); r_set(M + 8, s);
}

#endif

/**
 * \file emb_fixtures_impl.h
 * \brief Internal to the EMB checks and tests (templated, never installed):
 *        the relative discrepancy, random draws, the systems the checks of
 *        check_emb_general.c and check_emb_so3.c set up, and classical RK4
 *        written out.
 */
#ifndef CL_EMB_FIXTURES_IMPL_H
#define CL_EMB_FIXTURES_IMPL_H
#include "check.h"
#include "emb_circle.h"
#include "emb_so3.h"

/** A check whose body is one call fn(res, prec, arg) of a routine shared by several rows. */
#define EMB_CHECK_CALL(id, name, fn, arg, ...) \
    CL_CHECK(id, name, __VA_ARGS__) { return fn(res, prec, arg); }

/** A generator seeded by seed: the draws of a row are the same at every precision. */
static inline cl_rng emb_rng(uint64_t seed)
{
    cl_rng g;
    cl_rng_seed(&g, seed);
    return g;
}

/** log2 of max|a − b| relative to max(1, max|b|). */
static inline double emb_rel_err(rsrc a, rsrc b, size_t n)
{
    double d = CL_FN(cl_rvec_log2_maxdiff)(a, b, n), s = CL_FN(cl_rvec_log2_maxabs)(b, n);
    return s > 0 ? d - s : d;
}

/** v = scale·(standard normal draws), n entries. */
static inline void emb_random_vec(rptr v, size_t n, double scale, cl_rng *g)
{
    for (size_t i = 0; i < n; i++) r_set_d(v + i, scale * cl_rng_normal(g));
}

/** A system's model with a workspace for it: what the checks of the general routines set up. */
typedef struct {
    CL_FN(cl_emb_pendulum) *pend;   /**< the pendulum, or NULL */
    CL_FN(cl_emb_top) *top;         /**< the rigid body or heavy top, or NULL */
    CL_FN(cl_emb_model) m;
    CL_FN(cl_emb_work) *w;
} emb_fixture;

/** Model and workspace of a system already in \p f (pend or top); 0 or CL_ENOMEM. */
static inline int emb_fixture_model(emb_fixture *f, cl_prec_t prec)
{
    if (f->pend) CL_FN(cl_emb_pendulum_model)(f->pend, &f->m);
    else CL_FN(cl_emb_top_model)(f->top, &f->m);
    return CL_FN(cl_emb_work_new)(&f->w, f->m.n, prec);
}

/** Release what a fixture holds (each part may be NULL). */
static inline void emb_fixture_close(emb_fixture *f)
{
    CL_FN(cl_emb_work_free)(f->w);
    CL_FN(cl_emb_pendulum_free)(f->pend);
    CL_FN(cl_emb_top_free)(f->top);
    *f = (emb_fixture){0};
}

/** A first-order field dy = F(y) for emb_rk4_written_out(); 0 or an error. */
typedef int (*emb_field)(const void *ctx, rptr dy, rsrc y);

/**
 * One classical RK4 step of size h on F, written out, \f[ s \mathrel{+}= \tfrac{h}{6}(k_1 + 2k_2 + 2k_3 + k_4), \f]
 * on n entries; k (4n) and y (n) are scratch.
 */
static inline int emb_rk4_written_out(emb_field F, const void *ctx, size_t n, rptr s, rsrc h, rptr k, rptr y)
{
    R_DECL(c, r_prec(s));
    for (int st = 0; st < 4; st++) {
        r_mul_si(c, h, st == 0 ? 0 : st == 3 ? 2 : 1);
        r_mul_2si(c, c, -1);
        for (size_t i = 0; i < n; i++) {
            r_set(y + i, s + i);
            if (st) r_addmul(y + i, c, k + n * (size_t)(st - 1) + i);
        }
        int e = F(ctx, k + n * (size_t)st, y);
        if (e) return e;
    }
    r_div_si(c, h, 6);
    for (size_t i = 0; i < n; i++) {
        r_set(y + i, k + i);
        for (size_t st = 1; st < 3; st++) {
            r_add(y + i, y + i, k + n * st + i);
            r_add(y + i, y + i, k + n * st + i);
        }
        r_add(y + i, y + i, k + 3 * n + i);
        r_addmul(s + i, c, y + i);
    }
    return CL_OK;
}
/**
 * The values of a model against its derivatives, for a model quadratic in
 * x and in v (or μ) separately — every model of this paper: along a
 * direction e,
 * \f[ \tfrac12\big(F(z + e) - F(z - e)\big) = DF(z)\,e \f]
 * exactly, for F = L in x and in v, H in x and in μ, L_ẋ in v (against
 * L_ẋẋ e) and in x (against L_ẋx e). Returns log2 of the largest
 * discrepancy relative to max(1, the sizes of the values differenced);
 * \p s is scratch of 6n entries. 0 or the status of a callback in \p st.
 */
static inline double emb_value_gradient_err(const CL_FN(cl_emb_model) *m, rsrc x, rsrc v, rsrc e, rptr s, int *st)
{
    size_t n = m->n;
    cl_prec_t p = r_prec(s);
    rptr zp = s, zm = s + n, g = s + 2 * n, a = s + 3 * n, b = s + 4 * n, d = s + 5 * n;
    R_DECL(fp, p); R_DECL(fm, p); R_DECL(t, p);
    double worst = -INFINITY;
    *st = CL_OK;
    for (int which = 0; which < 6 && !*st; which++) {
        int in_x = which % 2 == 0, scalar = which < 4;
        int (*F)(void *, rptr, rsrc, rsrc) = which < 2 ? m->lagrangian : which < 4 ? m->hamiltonian : m->lag_dv;
        int (*G)(void *, rptr, rsrc, rsrc) = which == 0 ? m->lag_dx : which == 1 ? m->lag_dv
                                             : which == 2 ? m->ham_dx : m->ham_dmu;
        for (size_t i = 0; i < n; i++) {
            r_add(zp + i, in_x ? x + i : v + i, e + i);
            r_sub(zm + i, in_x ? x + i : v + i, e + i);
        }
        rsrc xp = in_x ? zp : x, xm = in_x ? zm : x, vp = in_x ? v : zp, vm = in_x ? v : zm;
        if (scalar) {
            if ((*st = F(m->ctx, fp, xp, vp)) || (*st = F(m->ctx, fm, xm, vm)) || (*st = G(m->ctx, g, x, v))) break;
            r_sub(t, fp, fm);
            r_mul_2si(t, t, -1);
            for (size_t i = 0; i < n; i++) r_submul(t, g + i, e + i);
            double sz = r_log2abs(fp), sm = r_log2abs(fm);
            if (sm > sz) sz = sm;
            double err = r_log2abs(t) - (sz > 0 ? sz : 0);
            if (err > worst || isnan(err)) worst = err;
        } else {
            if ((*st = F(m->ctx, a, xp, vp)) || (*st = F(m->ctx, b, xm, vm))) break;
            *st = in_x ? m->lag_dvdx(m->ctx, d, x, v, e) : m->lag_dvdv(m->ctx, d, x, v, e);
            if (*st) break;
            for (size_t i = 0; i < n; i++) {
                r_sub(a + i, a + i, b + i);
                r_mul_2si(a + i, a + i, -1);
            }
            double sz = CL_FN(cl_rvec_log2_maxabs)(b, n);
            double err = CL_FN(cl_rvec_log2_maxdiff)(a, d, n) - (sz > 0 ? sz : 0);
            if (err > worst || isnan(err)) worst = err;
        }
    }
    return worst;
}
#endif

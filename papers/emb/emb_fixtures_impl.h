/**
 * \file emb_fixtures_impl.h
 * \brief Internal to the EMB checks (templated, never installed): the
 *        relative discrepancy, random draws and the systems the checks of
 *        check_emb_general.c and check_emb_so3.c set up.
 */
#ifndef CL_EMB_FIXTURES_IMPL_H
#define CL_EMB_FIXTURES_IMPL_H
#include "check.h"
#include "emb_circle.h"
#include "emb_so3.h"

/** A check whose body is one call fn(res, prec, arg) of a routine shared by several rows. */
#define EMB_CHECK_CALL(id, name, fn, arg, ...) \
    CL_CHECK(id, name, __VA_ARGS__) { return fn(res, prec, arg); }

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
    f->w = CL_FN(cl_emb_work_new)(f->m.n, prec);
    return f->w ? CL_OK : CL_ENOMEM;
}

/** Release what a fixture holds (each part may be NULL). */
static inline void emb_fixture_close(emb_fixture *f)
{
    CL_FN(cl_emb_work_free)(f->w);
    CL_FN(cl_emb_pendulum_free)(f->pend);
    CL_FN(cl_emb_top_free)(f->top);
    *f = (emb_fixture){0};
}
#endif

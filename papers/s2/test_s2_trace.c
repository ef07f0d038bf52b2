/*
 * S2's chain fields traced into graphs (trace.h), as s2.traj.forms
 * integrates them by Taylor: the four forms (13), (19), (27), (36) of a
 * double spherical pendulum (each a 6×6 solve pivoted at the traced point),
 * each traced once at one state near hanging and evaluated at another,
 * against the C field there: the same formulas in another order of rounding
 * (and of pivoting), so relative to max(1, |f|) within 2^(1−p) times 2^8.
 */
#include "tap_main.h"
#include "expr.h"
#include "trace.h"
#include "s2_fixtures_impl.h"

enum { N = S2T_N, DIM = S2T_DIM };

/* The traced field of form at x0 (the form's coordinates, as s2.traj.forms traces it) evaluated at x1 into fg. */
static int traced_at(int form, rsrc mm, rsrc ll, rsrc grav, rsrc x0, rsrc x1, rptr fg, cl_prec_t p)
{
    cl_expr_dag *dag = NULL;
    int out[DIM];
    int st = s2t_forms_graph(&dag, out, form, mm, ll, grav, x0, p);
    CL_FN(cl_expr_eval) *ev = NULL;
    if (!st) st = CL_FN(cl_expr_eval_new)(&ev, dag, p);
    if (!st) st = CL_FN(cl_expr_eval_run)(ev, x1, (int)cl_expr_dag_size(dag) - 1, 0);
    if (!st)
        for (int i = 0; i < DIM; i++) r_set(fg + i, CL_FN(cl_expr_eval_value)(ev, out[i]));
    CL_FN(cl_expr_eval_free)(ev);
    cl_expr_dag_free(dag);
    return st;
}

static void run(cl_prec_t p)
{
    static const char *const names[4] = {"(q, qdot) (13)", "(q, omega) (19)", "(q, mu) (27)", "(q, pi) (36)"};
    cl_rng g;
    cl_rng_seed(&g, 4711);
    RV_DECL(mm, N, p); RV_DECL(ll, N, p); R_DECL(grav, p);
    for (int i = 0; i < N; i++) {
        r_set_d(mm + i, cl_rng_range(&g, 0.5, 2));
        r_set_d(ll + i, cl_rng_range(&g, 0.5, 1.5));
    }
    r_set_q(grav, 98, 10);
    CL_FN(cl_chain) *ch = NULL;
    int st = CL_FN(cl_chain_new)(&ch, N, mm, ll, grav, p);
    ok(!st, "chain [%s, %ld bits]", TEST_KIND, (long)p);
    if (st) return;
    CL_FN(cl_s2_quad_ws) *ws = CL_FN(cl_chain_ws)(ch);
    RV_DECL(s0, DIM, p); RV_DECL(s1, DIM, p); RV_DECL(x0, DIM, p); RV_DECL(x1, DIM, p);
    RV_DECL(f, DIM, p); RV_DECL(fg, DIM, p);
    for (int form = CL_S2_QDOT; form <= CL_S2_PI; form++) {
        double worst = -INFINITY;
        int bad = 0;
        for (int trial = 0; trial < 3; trial++) {
            s2t_hanging_state(s0, N, 0.6, 0.5, &g, p);
            s2t_hanging_state(s1, N, 0.6, 0.5, &g, p);
            CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, s0, form, x0);
            CL_FN(cl_s2_quad_convert)(ws, CL_S2_QDOT, s1, form, x1);
            int s = traced_at(form, mm, ll, grav, x0, x1, fg, p);
            if (!s) s = CL_FN(cl_chain_rhs)(ch, form, f, x1);
            if (s) {
                bad = 1;
                continue;
            }
            double e = CL_FN(cl_rvec_log2_maxdiff)(fg, f, DIM) - fmax(0, CL_FN(cl_rvec_log2_maxabs)(f, DIM));
            worst = fmax(worst, e);
        }
        diag("%s: worst 2^%.1f relative (2^-p = 2^-%ld)", names[form - CL_S2_QDOT], worst, (long)p);
        ok(!bad, "%s traced and evaluated at three states [%s, %ld bits]", names[form - CL_S2_QDOT], TEST_KIND, (long)p);
        is_log2_below(worst, tol_log2(p, 256), "%s: the traced graph at another state against the C field there, relative [%s, %ld bits]",
                      names[form - CL_S2_QDOT], TEST_KIND, (long)p);
    }
    CL_FN(cl_chain_free)(ch);
}

int main(void)
{
    int r = cl_test_main(run);
    cl_free_caches(); /* the caches MPFR keeps for the thread */
    return r;
}

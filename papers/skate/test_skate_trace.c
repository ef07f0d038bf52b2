/*
 * SKATE's hand-written fields traced into graphs (trace.h), as the Taylor
 * rows of check_skate_traj.c integrate them: the ζ-form (38), the z-form
 * (21) (a 6×6 solve with the Gram matrix, then the 3×3 one of the
 * multipliers, pivoted at the traced point) and the closed loop (44) with
 * σ = −1/1000, each traced once at one random state and evaluated at
 * another, against the C field there: the same formulas in another order
 * of rounding (and, in (21), of pivoting), so relative to max(1, |f|)
 * within 2^(1−p) times 2^8 (the z-form's two solves and elimination's
 * growth; measured at most 2^6 over the precisions).
 */
#include "tap_main.h"
#include "expr.h"
#include "trace.h"
#include "skate_fixtures_impl.h"

/* the z-form state of a random ζ (constraints met) with Ω₃, Y₂, Y₃ and the rotor's rate drawn too */
static void random_z(rptr z, cl_rng *g)
{
    cl_prec_t p = r_prec(z);
    RV_DECL(zeta, 5, p);
    skate_random_zeta(zeta, g);
    CL_FN(cl_skate_zeta_to_z)(z, zeta);
    r_set_d(z + 9, cl_rng_normal(g));
}

/* form 0: (38) on ζ (5); 1: (21) on z (9); 2: (44) on z with the rotor (10) */
static int field(int form, rptr f, rsrc par, rsrc sig, rsrc x)
{
    return form == 0 ? CL_FN(cl_skate_rhs_zeta)(f, par, x)
         : form == 1 ? CL_FN(cl_skate_rhs_z)(f, NULL, par, x)
                     : CL_FN(cl_skate_rhs_z_controlled)(f, par, sig, x, 0);
}

static int field_tr(int form, cl_rptr_tr f, cl_rsrc_tr par, cl_rsrc_tr sig, cl_rsrc_tr x)
{
    return form == 0 ? cl_skate_rhs_zeta_tr(f, par, x)
         : form == 1 ? cl_skate_rhs_z_tr(f, NULL, par, x)
                     : cl_skate_rhs_z_controlled_tr(f, par, sig, x, 0);
}

static void run(cl_prec_t p)
{
    static const char *const names[3] = {"zeta-form (38)", "z-form (21)", "closed loop (44)"};
    static const size_t dims[3] = {5, 9, 10};
    cl_rng g;
    cl_rng_seed(&g, 2134);
    RV_DECL(par, CL_SKATE_NPAR, p); RV_DECL(x0, 10, p); RV_DECL(x1, 10, p); RV_DECL(f, 10, p); RV_DECL(fg, 10, p);
    R_DECL(sig, p);
    r_set_q(sig, -1, 1000);
    for (int form = 0; form < 3; form++) {
        size_t n = dims[form];
        skate_set_params(par, form == 2 ? SKATE_CONTROLLED : SKATE_GENERIC);
        double worst = -INFINITY;
        int bad = 0;
        for (int trial = 0; trial < 3; trial++) {
            random_z(x0, &g);
            random_z(x1, &g);
            if (form == 0) { /* ζ of the z states */
                CL_FN(cl_skate_z_to_zeta)(f, x0); CL_FN(cl_rvec_copy)(x0, f, 5);
                CL_FN(cl_skate_z_to_zeta)(f, x1); CL_FN(cl_rvec_copy)(x1, f, 5);
            }
            cl_expr_dag *dag = NULL;
            cl_expr_dag_new(&dag);
            cl_trace_begin(dag, p);
            cl_trace_scalar tp[CL_SKATE_NPAR], ts[1], tx[10], tf[10];
            double v[10];
            for (int i = 0; i < CL_SKATE_NPAR; i++) cl_real_from_str_tr(tp + i, SKATE_SETS[form == 2 ? SKATE_CONTROLLED : SKATE_GENERIC][i]);
            ts->id = cl_trace_node(CL_EXPR_DIV, cl_trace_const_si(-1), cl_trace_const_si(1000), 0);
            ts->v = -1e-3;
            for (size_t i = 0; i < n; i++) v[i] = r_get_d(x0 + i);
            cl_trace_inputs(tx, v, n);
            int st = field_tr(form, tf, tp, ts, tx);
            if (cl_trace_end()) st = CL_ENOMEM;
            CL_FN(cl_expr_eval) *ev = NULL;
            if (!st) st = CL_FN(cl_expr_eval_new)(&ev, dag, p);
            if (!st) st = CL_FN(cl_expr_eval_run)(ev, x1, (int)cl_expr_dag_size(dag) - 1, 0);
            if (!st) st = field(form, f, par, sig, x1);
            if (!st) {
                for (size_t i = 0; i < n; i++) r_set(fg + i, CL_FN(cl_expr_eval_value)(ev, tf[i].id));
                worst = fmax(worst, skate_log2_relerr(fg, f, n));
            } else
                bad = 1;
            CL_FN(cl_expr_eval_free)(ev);
            cl_expr_dag_free(dag);
        }
        ok(!bad, "%s traced and evaluated at three states [%s, %ld bits]", names[form], TEST_KIND, (long)p);
        is_log2_below(worst, tol_log2(p, 256), "%s: the traced graph at another state against the C field there, relative [%s, %ld bits]",
                      names[form], TEST_KIND, (long)p);
    }
}

int main(void)
{
    int r = cl_test_main(run);
    cl_free_caches(); /* the caches MPFR keeps for the thread */
    return r;
}

/*
 * Chapters S2 III–V: the four forms of the dynamics agree pointwise, the
 * chain's O(n) fields agree with the dense reference, the transforms invert
 * each other, and the closed forms of the chain hold.
 */
#include "tap_real.h"
#include "s2_forms_common.h"

/*
 * Tolerance: the fields are one dense 3n×3n solve (n ≤ 5) and the maps
 * between forms one or two more, with masses and lengths in [0.5, 2]: about
 * 3n·3n roundings of entries of size ~10 amplified by the condition number
 * of the inertia (~10 here). Observed: at most 2^6 units of 2^(1−p)
 * relative to the size of (q̇, q̈); 2^10 leaves room for other seeds.
 */
#define FORMS_FACTOR 1024

static void forms(cl_prec_t p)
{
    cl_rng g;
    cl_rng_seed(&g, 11);
    static const size_t ns[] = {1, 2, 3, 5};
    for (int sys = 0; sys < 2; sys++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            size_t n = ns[k];
            CL_FN(cl_chain) *ch = sys == 0 ? s2t_random_chain(n, p, &g, 1) : NULL;
            CL_FN(cl_s2_coupled) *cp = sys == 1 ? s2t_random_coupled(n, p, &g, 1) : NULL;
            CL_FN(cl_s2_quad_ws) *ws = ch ? CL_FN(cl_chain_ws)(ch) : CL_FN(cl_s2_coupled_ws)(cp);
            rptr x = CL_FN(cl_rvec_new)(6 * n, p), sc = CL_FN(cl_rvec_new)(24 * n, p);
            double worst = -INFINITY, worst_on = -INFINITY;
            for (int draw = 0; draw < 5; draw++) {
                s2t_random_state(x, n, 1.0, &g);
                double e = s2t_form_disagreement(ws, NULL, x, sc);
                if (e > worst || isnan(e)) worst = e;
                if (ch) {
                    e = s2t_form_disagreement(ws, ch, x, sc);
                    if (e > worst_on || isnan(e)) worst_on = e;
                }
            }
            diag("worst 2^%.1f (tol 2^%.1f), O(n) 2^%.1f", worst, tol_log2(p, FORMS_FACTOR), worst_on);
            is_log2_below(worst, tol_log2(p, FORMS_FACTOR),
                          "%s n=%zu: four forms agree on (qdot, qddot) [S2 (13),(19),(27),(36)] [%s, %ld bits]",
                          ch ? "chain" : "coupled", n, TEST_KIND, (long)p);
            if (ch)
                is_log2_below(worst_on, tol_log2(p, FORMS_FACTOR),
                              "chain n=%zu: O(n) fields agree with the dense forms [S2 (40)-(42)] [%s, %ld bits]",
                              n, TEST_KIND, (long)p);
            CL_FN(cl_rvec_free)(x);
            CL_FN(cl_rvec_free)(sc);
            CL_FN(cl_chain_free)(ch);
            CL_FN(cl_s2_coupled_free)(cp);
        }
}

int main(void)
{
    for (int k = 0; k < TEST_NPREC; k++) forms(TEST_PRECISIONS[k]);
    return done_testing();
}

/*
 * The field graphs a process keeps by model text (model/field/field_compiled.c):
 * twenty spherical pendulums, each its own text (g = 1 … 20), opened one after
 * the other as a long-lived process (the Python module) opens models. The
 * cache holds the sixteen most recently used; a model opened again after its
 * graph was dropped builds it anew, one opened again while kept takes it. Each
 * field at q = e1, q' = e2 against the closed form q'' = −g(e3 − q_z q) −
 * |q'|² q = (−1, 0, −g), at 53 and 256 bits to 2^(4−p) (a few roundings).
 */
#define CL_PREC CL_MPFR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scalar.h"
#include "model.h"
#include "system.h"
#include "field_compiled.h"
#include "tap.h"
#include "model_fixture_impl.h"

#define NMODELS 20

/* models/spherical.model with g = k: its path under dir (PATH_MAX) */
static void write_model(char *path, size_t n, const char *dir, int k)
{
    snprintf(path, n, "%s/g%d.model", dir, k);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "manifold q : S2\nparameters m = 1, l = 1, g = %d\nlagrangian 1/2*m*l^2*dot(q', q') - m*g*l*q.z\n", k);
    fclose(f);
}

/* log2 of the field's largest gap from (−1, 0, −g) at q = e1, q' = e2, model g = k; NAN when it cannot be opened. */
static double field_gap(const char *path, int k, cl_prec_t prec)
{
    fixture fx;
    open_model(&fx, path, 0, NULL, NULL, prec);
    if (!fx.ok) return NAN;
    mpfr_ptr x = cl_rvec_new_mp(18, prec), dx = x + 6, want = dx + 6;
    for (int i = 0; i < 18; i++) mpfr_set_zero(x + i, 1);
    mpfr_set_si(x, 1, MPFR_RNDN), mpfr_set_si(x + 4, 1, MPFR_RNDN);
    mpfr_set_si(want + 1, 1, MPFR_RNDN), mpfr_set_si(want + 3, -1, MPFR_RNDN), mpfr_set_si(want + 5, -k, MPFR_RNDN);
    int st = fx.s->rhs(fx.inst, 0, dx, x);
    double gap = st ? NAN : rel_gap(dx, want, 6);
    cl_rvec_free_mp(x);
    close_model(&fx);
    return gap;
}

int main(void)
{
    char dir[] = "/tmp/cl_field_cacheXXXXXX", path[NMODELS][4200];
    plan(6);
    if (!mkdtemp(dir)) {
        diag("no temporary folder");
        return 1;
    }
    for (int k = 1; k <= NMODELS; k++) write_model(path[k - 1], sizeof path[0], dir, k);
    static const cl_prec_t precs[] = {53, 256};
    for (int j = 0; j < 2; j++) {
        cl_prec_t p = precs[j];
        double worst = -INFINITY;
        for (int k = 1; k <= NMODELS; k++) worst = fmax(worst, field_gap(path[k - 1], k, p));
        ok(worst <= 4 - (double)p, "%d models one after the other at %lu bits: each field to 2^%.1f, within 2^(4-p)", NMODELS,
           (unsigned long)p, worst);
    }
    ok(cl_model_fast_cached() == 16, "the cache keeps the 16 most recent graphs of %d (%zu)", NMODELS, cl_model_fast_cached());
    double again = field_gap(path[0], 1, 256);
    ok(again <= -252, "the first model, its graph dropped, opened again: its field built anew, 2^%.1f", again);
    again = field_gap(path[NMODELS - 1], NMODELS, 256);
    ok(again <= -252 && cl_model_fast_cached() == 16, "the last model opened again while kept: 2^%.1f, still 16 kept", again);
    double all = -INFINITY;
    for (int k = NMODELS; k >= 1; k--) all = fmax(all, field_gap(path[k - 1], k, 113));
    ok(all <= 4 - 113, "all %d again in reverse at 113 bits (each a miss or a hit in turn): 2^%.1f", NMODELS, all);
    for (int k = 0; k < NMODELS; k++) unlink(path[k]);
    rmdir(dir);
    return done_testing();
}

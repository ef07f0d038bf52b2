/**
 * \file sim_enclose.c
 * \brief `chartless simulate --enclose` (sim_enclose.h): the initial balls,
 *        the step loop of src/enclose.h, and the rows: t, each component X
 *        and X.rad, then the energy and the declared invariants enclosed on
 *        the same set.
 *
 * A printed pair (X, X.rad) is itself a proof: the radius printed bounds
 * the distance from the printed decimal X to every point of the ball, the
 * rounding of X to decimal included, rounded up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "enclose.h"
#include "sim_enclose.h"

enum { MAX_EXTRAS = 1 + 32, MAX_FACTORS = 64 };

typedef struct enc_run {
    const cl_cmd_system *cs;
    cl_enclose *e;
    size_t n, nextra;
    const char *names[MAX_EXTRAS];
    arb_ptr x, v;
    int digits;
    double widest, t_widest;
    size_t nman, off[MAX_FACTORS]; /* the factors on S² (3 components) and SO(3) (9) */
    int rot[MAX_FACTORS];
    char lost[160];                /* why the set holds no point of the manifold */
} enc_run;

/* Whether the box x meets the manifold: |q|² over the box contains 1 for each S² factor and
   RᵀR − I contains 0 for each rotation; else the reason in r->lost and 0. The exact motion
   from a state on the manifold stays on it, so a box that provably misses it is no enclosure. */
static int meets_manifold(enc_run *r, arb_srcptr x, cl_prec_t prec)
{
    arb_t s;
    arb_init(s);
    int ok = 1;
    for (size_t f = 0; f < r->nman && ok; f++) {
        arb_srcptr q = x + r->off[f];
        int d = r->rot[f] ? 3 : 1;
        for (int j = 0; j < d && ok; j++)
            for (int k = j; k < d && ok; k++) { /* (RᵀR)_jk = Σ_i R_ij R_ik; S²: q·q */
                arb_zero(s);
                for (int i = 0; i < 3; i++) arb_addmul(s, q + (r->rot[f] ? 3 * i + j : i), q + (r->rot[f] ? 3 * i + k : i), prec);
                ok = arb_contains_si(s, j == k);
            }
        if (!ok)
            snprintf(r->lost, sizeof r->lost, "the box of the factor at component %zu holds no %s", r->off[f],
                     r->rot[f] ? "rotation" : "unit vector");
    }
    arb_clear(s);
    return ok;
}

/* X,X.rad of ball b: the midpoint to `digits` digits and a radius that covers that rounding. */
static void print_ball(const enc_run *r, arb_srcptr b, cl_prec_t prec)
{
    mpfr_t m;
    mpfr_init2(m, prec);
    arf_get_mpfr(m, arb_midref(b), MPFR_RNDN);
    char *s = NULL;
    if (mpfr_asprintf(&s, "%.*Rg", r->digits, m) < 0) s = NULL;
    arb_t d;
    arb_init(d);
    double rad = INFINITY;
    if (s && !arb_set_str(d, s, prec + 16)) { /* |x − decimal| over the ball */
        arb_sub(d, b, d, prec + 16);
        mag_t a;
        mag_init(a);
        arb_get_mag(a, d);
        rad = mag_get_d(a) * (1 + 2e-3); /* %.3e rounds within 5e-4 of it */
        mag_clear(a);
    }
    printf(",%s,%.3e", s ? s : "nan", rad);
    if (s) mpfr_free_str(s);
    arb_clear(d);
    mpfr_clear(m);
}

static void header(const enc_run *r)
{
    printf("t");
    for (size_t i = 0; i < r->n; i++) {
        char name[80];
        cl_cli_component_name(r->cs->sys, r->cs->inst, r->cs->form, i, name, sizeof name);
        printf(",%s,%s.rad", name, name);
    }
    for (size_t k = 0; k < r->nextra; k++) printf(",%s,%s.rad", r->names[k], r->names[k]);
    printf("\n");
}

/* The row of the current set; the widest state radius tracked. 1 (nothing printed) when the
   set misses the manifold. */
static int row(enc_run *r, cl_prec_t prec)
{
    cl_enclose_hull(r->e, r->x);
    if (!meets_manifold(r, r->x, prec)) return 1;
    int st = r->nextra ? cl_enclose_extras(r->e, r->x, r->v) : 0;
    mpfr_t t;
    mpfr_init2(t, prec);
    arf_get_mpfr(t, arb_midref(cl_enclose_time(r->e)), MPFR_RNDN);
    mpfr_printf("%.*Rg", r->digits, t);
    for (size_t i = 0; i < r->n; i++) {
        print_ball(r, r->x + i, prec);
        double rad = mag_get_d(arb_radref(r->x + i));
        if (rad > r->widest) r->widest = rad, r->t_widest = mpfr_get_d(t, MPFR_RNDN);
    }
    for (size_t k = 0; k < r->nextra; k++) {
        if (st) printf(",nan,inf"); /* not enclosed on this box (a domain edge) */
        else print_ball(r, r->v + k, prec);
    }
    printf("\n");
    mpfr_clear(t);
    return 0;
}

/* The balls of the state as read: x0 ± one ulp holds the decimal it was rounded from. */
static void initial_balls(arb_ptr x, mpfr_srcptr x0, size_t n, cl_prec_t prec)
{
    for (size_t i = 0; i < n; i++) {
        arf_set_mpfr(arb_midref(x + i), x0 + i);
        mag_zero(arb_radref(x + i));
        if (mpfr_regular_p(x0 + i)) mag_set_ui_2exp_si(arb_radref(x + i), 1, (slong)mpfr_get_exp(x0 + i) - (slong)prec);
    }
}

static int open_run(enc_run *r, cl_sim_graph *gr, cl_prec_t prec)
{
    const char *order = getenv("CHARTLESS_ENCLOSE_ORDER");
    int extras[MAX_EXTRAS + 1], *nodes = malloc((r->n + MAX_EXTRAS) * sizeof *nodes);
    int k = cl_sim_graph_model_invariants(r->cs, gr->g, extras, r->names, MAX_EXTRAS);
    if (!nodes || k < 0) {
        free(nodes);
        return CL_ENOMEM;
    }
    r->nextra = (size_t)k;
    r->nman = (size_t)cl_sim_graph_model_manifold(r->cs, r->off, r->rot, MAX_FACTORS);
    memcpy(nodes, gr->nodes, r->n * sizeof *nodes);
    memcpy(nodes + r->n, extras, r->nextra * sizeof *nodes);
    int st = cl_enclose_new(&r->e, gr->g, nodes, r->n, r->nextra, (long)r->n, order ? atoi(order) : 0, prec);
    free(nodes);
    if (!st && getenv("CHARTLESS_ENCLOSE_DROP_REMAINDER")) cl_enclose_set_flags(r->e, CL_ENCLOSE_DROP_REMAINDER);
    r->x = cl_rvec_new_arb(r->n + r->nextra + 2, prec);
    if (!st && !r->x) st = CL_ENOMEM;
    r->v = r->x ? r->x + r->n : NULL;
    r->digits = (int)ceil((double)prec * log10(2.0)) + 1;
    return st;
}

int cl_sim_enclose_run(const cl_cmd_system *cs, cl_sim_graph *gr, mpfr_srcptr x0, mpfr_srcptr t0, mpfr_srcptr t1,
                       cl_prec_t prec)
{
    if (!gr->has_field) return cl_cli_error("--enclose needs the system's field as an expression graph", "--enclose");
    cl_arb_set_prec(prec);
    enc_run r = {.cs = cs, .n = cs->dim};
    int st = open_run(&r, gr, prec), ret = CL_EXIT_OK;
    if (st) {
        ret = cl_cli_error(cl_strerror(st), "--enclose");
    } else {
        arb_ptr tb = r.v + r.nextra, tend = tb + 1;
        initial_balls(r.x, x0, r.n, prec);
        arf_set_mpfr(arb_midref(tb), t0);
        arf_set_mpfr(arb_midref(tend), t1);
        cl_enclose_start(r.e, tb, r.x);
        header(&r);
        int lost = row(&r, prec);
        while (!lost && arb_lt(cl_enclose_time(r.e), tend)) {
            if (cl_enclose_step(r.e, tend)) {
                snprintf(r.lost, sizeof r.lost, "%s", cl_enclose_reason(r.e));
                lost = 1;
            } else {
                lost = row(&r, prec);
            }
        }
        fflush(stdout);
        if (lost) {
            fprintf(stderr, "error: enclosure lost at t = %.17g (%s)\n", arf_get_d(arb_midref(cl_enclose_time(r.e)), ARF_RND_NEAR),
                    r.lost);
            ret = CL_EXIT_FAIL;
        }
        fprintf(stderr, "simulate --enclose: %ld steps of order %d, widest radius %.3e (at t = %.6g)\n",
                cl_enclose_steps(r.e), cl_enclose_order(r.e), r.widest, r.t_widest);
    }
    cl_rvec_free_arb(r.x);
    cl_enclose_free(r.e);
    return ret;
}

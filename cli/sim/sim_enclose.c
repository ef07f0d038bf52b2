/**
 * \file sim_enclose.c
 * \brief `chartless simulate --enclose` (sim_enclose.h): the initial balls,
 *        the step loop of src/enclose.h, and the rows: t, each component X
 *        and X.rad, then the energy and the declared invariants enclosed on
 *        the same set; with --event a row per zero, t and t.rad an interval
 *        proven to hold it; each box checked against the model's manifold.
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
    /* --event: the extra after the printed ones, its proven sign at time tl (0: none yet),
       whether tl is the start of the current step, the union U of the step boxes since tl */
    int event, direction, every, sign, sign_at_start, have_u;
    size_t nprint;
    long nevents;
    arb_ptr tl, u, ub, sb;
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

/* ,X,X.rad of ball b (without the first comma when \p first): the midpoint to `digits` digits and
   a radius that covers that rounding. */
static void print_ball_sep(const enc_run *r, arb_srcptr b, cl_prec_t prec, int first)
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
    printf("%s%s,%.3e", first ? "" : ",", s ? s : "nan", rad);
    if (s) mpfr_free_str(s);
    arb_clear(d);
    mpfr_clear(m);
}

static void print_ball(const enc_run *r, arb_srcptr b, cl_prec_t prec) { print_ball_sep(r, b, prec, 0); }

static void header(const enc_run *r)
{
    printf(r->event >= 0 ? "t,t.rad" : "t");
    for (size_t i = 0; i < r->n; i++) {
        char name[80];
        cl_cli_component_name(r->cs->sys, r->cs->inst, r->cs->form, i, name, sizeof name);
        printf(",%s,%s.rad", name, name);
    }
    for (size_t k = 0; k < r->nprint; k++) printf(",%s,%s.rad", r->names[k], r->names[k]);
    printf("\n");
}

/* The state box x and the extras on it at time t, printed as a row (t a ball: t and t.rad
   with --event); the widest state radius tracked. */
static void print_row(enc_run *r, arb_srcptr t, arb_srcptr x, int st, cl_prec_t prec)
{
    if (r->event >= 0) {
        print_ball_sep(r, t, prec, 1);
    } else {
        mpfr_t tm;
        mpfr_init2(tm, prec);
        arf_get_mpfr(tm, arb_midref(t), MPFR_RNDN);
        mpfr_printf("%.*Rg", r->digits, tm);
        mpfr_clear(tm);
    }
    for (size_t i = 0; i < r->n; i++) {
        print_ball(r, x + i, prec);
        double rad = mag_get_d(arb_radref(x + i));
        if (rad > r->widest) r->widest = rad, r->t_widest = arf_get_d(arb_midref(t), ARF_RND_NEAR);
    }
    for (size_t k = 0; k < r->nprint; k++) {
        if (st) printf(",nan,inf"); /* not enclosed on this box (a domain edge) */
        else print_ball(r, r->v + k, prec);
    }
    printf("\n");
}

/* The current set: its box checked against the manifold (1 when it misses it), the extras on
   it, the row printed unless --event. */
static int row(enc_run *r, cl_prec_t prec)
{
    cl_enclose_hull(r->e, r->x);
    if (!meets_manifold(r, r->x, prec)) return 1;
    int st = r->nextra ? cl_enclose_extras(r->e, cl_enclose_time(r->e), r->x, r->v) : 0;
    if (r->event < 0) print_row(r, cl_enclose_time(r->e), r->x, st, prec);
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
    r->nextra = r->nprint = (size_t)k;
    if (gr->event >= 0) {
        r->event = (int)k, r->direction = gr->direction, r->every = gr->every;
        extras[r->nextra++] = gr->event;
    }
    r->nman = (size_t)cl_sim_graph_model_manifold(r->cs, r->off, r->rot, MAX_FACTORS);
    memcpy(nodes, gr->nodes, r->n * sizeof *nodes);
    memcpy(nodes + r->n, extras, r->nextra * sizeof *nodes);
    int st = cl_enclose_new(&r->e, gr->g, nodes, r->n, r->nextra, (long)r->n, order ? atoi(order) : 0, prec);
    free(nodes);
    if (!st)
        cl_enclose_set_flags(r->e, (getenv("CHARTLESS_ENCLOSE_DROP_REMAINDER") ? CL_ENCLOSE_DROP_REMAINDER : 0) |
                                       (getenv("CHARTLESS_ENCLOSE_QR_ONLY") ? CL_ENCLOSE_QR_ONLY : 0));
    r->x = cl_rvec_new_arb(3 * r->n + r->nextra + 6, prec);
    if (!st && !r->x) st = CL_ENOMEM;
    if (r->x) r->v = r->x + r->n, r->tl = r->v + r->nextra + 2, r->sb = r->tl + 1, r->u = r->sb + 2, r->ub = r->u + r->n;
    r->digits = (int)ceil((double)prec * log10(2.0)) + 1;
    return st;
}

/* The proven sign of the event on the box x at time t (0: not proven). */
static int event_sign(enc_run *r, arb_srcptr t, arb_srcptr x)
{
    if (cl_enclose_extras(r->e, t, x, r->v)) return 0;
    arb_srcptr g = r->v + r->event;
    return arb_is_positive(g) ? 1 : arb_is_negative(g) ? -1 : 0;
}

/* The event inside the last step [t0, t0 + h], its sign a at t0 and b at the end: the bracket
   [lo, hi] of offsets where it is proven a and b narrowed by bisection, into sb (a ball of
   times) and ub (the state box over it). */
static void narrow_event(enc_run *r, int a, int b, cl_prec_t prec)
{
    arb_ptr lo = r->sb, hi = r->sb + 1, mid = r->tl + 3, tm = mid + 1;
    arb_zero(lo);
    arb_set(hi, cl_enclose_step_length(r->e));
    for (int it = 0; it < 2 * (int)prec; it++) {
        arb_add(mid, lo, hi, prec);
        arb_mul_2exp_si(mid, mid, -1);
        arb_get_mid_arb(mid, mid);
        arb_add(tm, cl_enclose_step_start(r->e), mid, prec);
        cl_enclose_within(r->e, mid, r->ub);
        int sg = event_sign(r, tm, r->ub);
        if (sg == a) arb_set(lo, mid);
        else if (sg == b) arb_set(hi, mid);
        else break; /* undecided: the bracket is as narrow as the set allows */
    }
    arb_union(mid, lo, hi, prec);
    cl_enclose_within(r->e, mid, r->ub);
    arb_add(r->sb, cl_enclose_step_start(r->e), mid, prec);
}

/* After each step (and at the start): a change of the event's proven sign in its direction is
   an event in [tl, t]; its row (t, t.rad, the state box over the bracket). Returns 1 at an event. */
static int watch_event(enc_run *r, cl_prec_t prec)
{
    arb_srcptr t = cl_enclose_time(r->e);
    int found = 0, b = event_sign(r, t, r->x), start = r->sign_at_start;
    if (cl_enclose_steps(r->e) > 0) { /* the motion over the whole step, for a bracket wider than it */
        arb_zero(r->sb + 1);
        arb_union(r->sb + 1, r->sb + 1, cl_enclose_step_length(r->e), prec);
        cl_enclose_within(r->e, r->sb + 1, r->ub);
        for (size_t i = 0; i < r->n; i++) {
            if (r->have_u) arb_union(r->u + i, r->u + i, r->ub + i, prec);
            else arb_set(r->u + i, r->ub + i);
        }
        r->have_u = 1;
    }
    int dir_ok = r->direction == 0 || (r->direction > 0 ? r->sign < 0 : r->sign > 0);
    if (b && r->sign && b != r->sign && dir_ok) {
        if (start) {
            narrow_event(r, r->sign, b, prec);
        } else {
            arb_union(r->sb, r->tl, t, prec);
            _arb_vec_set(r->ub, r->u, (slong)r->n);
        }
        int st = cl_enclose_extras(r->e, r->sb, r->ub, r->v);
        print_row(r, r->sb, r->ub, st, prec);
        r->nevents++, found = 1;
    }
    if (b) {
        r->sign = b, r->have_u = 0;
        arb_set(r->tl, t);
    }
    r->sign_at_start = b != 0;
    return found;
}

int cl_sim_enclose_run(const cl_cmd_system *cs, cl_sim_graph *gr, mpfr_srcptr x0, mpfr_srcptr t0, mpfr_srcptr t1,
                       cl_prec_t prec)
{
    if (!gr->has_field) return cl_cli_error("--enclose needs the system's field as an expression graph", "--enclose");
    cl_arb_set_prec(prec);
    enc_run r = {.cs = cs, .n = cs->dim, .event = -1};
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
        if (!lost && r.event >= 0) watch_event(&r, prec);
        while (!lost && arb_lt(cl_enclose_time(r.e), tend)) {
            if (cl_enclose_step(r.e, tend)) {
                snprintf(r.lost, sizeof r.lost, "%s", cl_enclose_reason(r.e));
                lost = 1;
            } else {
                lost = row(&r, prec);
                if (!lost && r.event >= 0 && watch_event(&r, prec) && !r.every) break;
            }
        }
        fflush(stdout);
        if (lost) {
            fprintf(stderr, "error: enclosure lost at t = %.17g (%s)\n", arf_get_d(arb_midref(cl_enclose_time(r.e)), ARF_RND_NEAR),
                    r.lost);
            ret = CL_EXIT_FAIL;
        }
        fprintf(stderr, "simulate --enclose: %ld steps of order %d, widest radius %.3e (at t = %.6g)", cl_enclose_steps(r.e),
                cl_enclose_order(r.e), r.widest, r.t_widest);
        if (r.event >= 0) fprintf(stderr, ", %ld event%s enclosed", r.nevents, r.nevents == 1 ? "" : "s");
        fprintf(stderr, "\n");
    }
    cl_rvec_free_arb(r.x);
    cl_enclose_free(r.e);
    return ret;
}

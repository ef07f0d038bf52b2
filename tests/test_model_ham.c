/*
 * Hamiltonian models (model_ham.c, src/ham_prod.c). The Hénon–Heiles system
 * from H (models/henon-heiles.model) against the same system from L
 * (models/henon-heiles-lagrangian.model), and the heavy top from H
 * (models/heavy-top-hamiltonian.model: Lie–Poisson with the attitude)
 * against models/heavy-top.model, and the two masses on spheres from H
 * (models/spring-hamiltonian.model, [S2 (23)] in μ) against
 * models/spring.model: the fields of every form (the top's Π̇ against J Ω̇
 * of its ROmega form; on S² μ, π, q̇ and ω) agree at 53, 113 and 256 bits to 2^(8−p) relative to
 * max(1, |field|) (factor 256: the Lagrangian side solves with its velocity
 * Hessian or inverts its Legendre map by Newton, the Hamiltonian side
 * inverts u = ∂H/∂p by Newton in the velocity form; sums of a dozen
 * products each), at 6 random states with parameters away from their
 * defaults. Then Hénon–Heiles against Hamilton's equations written out
 * here, ẋ = p_x, ẏ = p_y, ṗ_x = −x − 2λxy, ṗ_y = −y − λ(x² − y²) (and
 * ẍ = ṗ_x, ÿ = ṗ_y in the velocity form), to 2^(2−p). Last, the rules of
 * the statement: each bad model refused at its file:line:column.
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
#include "tap.h"

#define DRAWS 6

#include "model_fixture_impl.h"

/* A pair of models of one system: H's forms and L's forms of the same state layout. */
typedef struct pair {
    const char *ham, *lagr;
    const char *hform[4], *lform[4]; /* the velocity form first (the draw's), then others (lform[j] NULL: L has no such form) */
    int nset;
    const char *keys[4], *vals[4];
} pair;

/* Π̇ = J Ω̇ in place of Ω̇ (3 numbers), J = diag(J1, J2, J3) of the model's parameters. */
static void body_momentum_rates(const fixture *f, rptr wd)
{
    static const char *const J[] = {"J1", "J2", "J3"};
    for (int k = 0; k < 3; k++) r_mul(wd + k, wd + k, cl_params_x(&f->p, J[k]));
}

/* The worst gap between the H and the L fields in both forms at DRAWS states drawn by H in its velocity form; *st the status. */
static double pair_gap(const pair *c, cl_prec_t prec, int *st)
{
    fixture h, l;
    open_model(&h, c->ham, c->nset, c->keys, c->vals, prec);
    open_model(&l, c->lagr, c->nset, c->keys, c->vals, prec);
    double worst = -INFINITY;
    *st = h.ok && l.ok ? CL_OK : CL_EPARAM;
    size_t n = *st ? 0 : h.s->dim(h.inst, 0);
    mpfr_ptr x = cl_rvec_new_mp(4 * (n ? n : 1), prec), y = x + n, dh = y + n, dl = dh + n;
    cl_rng g;
    cl_rng_seed(&g, 2126);
    for (int k = 0; k < DRAWS && !*st; k++)
        for (int j = 0; j < 4 && c->hform[j] && !*st; j++) { /* the velocity form first: its state is the draw */
            int hf = cl_system_form_index(h.s, c->hform[j]), lf = cl_system_form_index(l.s, c->lform[c->lform[j] ? j : 0]);
            if (j == 0) *st = h.s->random_state(h.inst, hf, x, &g);
            if (!*st) *st = h.s->convert(h.inst, cl_system_form_index(h.s, c->hform[0]), x, hf, y);
            if (!*st) *st = h.s->rhs(h.inst, hf, dh, y);
            if (!*st) *st = l.s->rhs(l.inst, lf, dl, c->lform[j] ? y : x);
            if (!*st && !c->lform[j]) body_momentum_rates(&l, dl + 9);
            if (!*st) worst = fmax(worst, rel_gap(dh, dl, n));
        }
    cl_rvec_free_mp(x);
    close_model(&h);
    close_model(&l);
    return worst;
}

static void compare_pairs(void)
{
    static const pair pairs[] = {
        {"models/henon-heiles.model", "models/henon-heiles-lagrangian.model", {"qdot", "p"}, {"qdot", "p"}, 1, {"lambda"}, {"0.7"}},
        {"models/heavy-top-hamiltonian.model", "models/heavy-top.model", {"qdot", "p"}, {"ROmega", NULL}, 4,
         {"J2", "ax", "ay", "l"}, {"2.3", "0.2", "-0.3", "0.4"}},
        {"models/spring-hamiltonian.model", "models/spring.model", {"qdot", "p", "pi", "omega"}, {"qdot", "mu", "pi", "omega"}, 3,
         {"m1", "k", "r0"}, {"1.3", "7", "0.8"}},
    };
    static const cl_prec_t precs[] = {53, 113, 256};
    for (size_t c = 0; c < sizeof pairs / sizeof *pairs; c++)
        for (size_t k = 0; k < 3; k++) {
            int st;
            cl_prec_t p = precs[k];
            double gap = pair_gap(pairs + c, p, &st);
            ok(!st && gap <= 8 - (double)p, "%s against %s at %lu bits, every form, %d states: 2^%.1f (%.1f digits), within 2^(8-p)",
               pairs[c].ham, pairs[c].lagr, (unsigned long)p, DRAWS, gap, -gap * log10(2));
        }
}

/* Hamilton's equations of Hénon–Heiles at (x, y, a, b): the p form's (a, b the momenta) or the qdot form's (the velocities). */
static void henon_heiles(rptr want, rsrc s, rsrc lambda)
{
    R_DECL(t, r_prec(want));
    rsrc x = s, y = s + 1;
    r_set(want, s + 2);
    r_set(want + 1, s + 3);
    r_mul(t, x, y);
    r_mul(t, t, lambda);
    r_mul_2si(t, t, 1);
    r_add(t, t, x);
    r_neg(want + 2, t); /* −x − 2λxy */
    r_mul(t, x, x);
    r_submul(t, y, y);
    r_mul(t, t, lambda);
    r_add(t, t, y);
    r_neg(want + 3, t); /* −y − λ(x² − y²) */
}

static void against_hand(void)
{
    static const char *const keys[] = {"lambda"}, *const vals[] = {"0.7"};
    static const cl_prec_t precs[] = {53, 113, 256};
    for (size_t k = 0; k < 3; k++) {
        cl_prec_t p = precs[k];
        fixture h;
        open_model(&h, "models/henon-heiles.model", 1, keys, vals, p);
        double worst = -INFINITY;
        int st = h.ok ? CL_OK : CL_EPARAM;
        mpfr_ptr x = cl_rvec_new_mp(12, p), dx = x + 4, want = dx + 4;
        cl_rng g;
        cl_rng_seed(&g, 2127);
        for (int d = 0; d < DRAWS && !st; d++)
            for (int form = 0; form < 2 && !st; form++) {
                st = h.s->random_state(h.inst, form, x, &g);
                if (!st) st = h.s->rhs(h.inst, form, dx, x);
                henon_heiles(want, x, cl_params_x(&h.p, "lambda"));
                if (!st) worst = fmax(worst, rel_gap(dx, want, 4));
            }
        ok(!st && worst <= 2 - (double)p, "henon-heiles at %lu bits against Hamilton's equations written out, forms p and qdot: 2^%.1f, within 2^(2-p)",
           (unsigned long)p, worst);
        cl_rvec_free_mp(x);
        close_model(&h);
    }
}

/* The model \p text is refused at \p where with a message containing \p rule. */
static void refused(const char *text, const char *where, const char *rule)
{
    cl_model *m = NULL;
    cl_sys_error e = {"", ""};
    int st = cl_model_parse(&m, "bad.model", text, strlen(text), &e);
    ok(st == CL_EPARSE && !m && !strcmp(e.arg, where) && strstr(e.what, rule), "refused at %s: %s", e.arg, e.what);
    cl_model_free(m);
}

static void rules(void)
{
    refused("manifold x : R1\nhamiltonian p_x^2/2 + x'^2\n", "bad.model:2:23", "no velocities");
    refused("manifold x : R1\nlet T = x'^2\nhamiltonian p_x^2/2 + T\n", "bad.model:2:9", "no velocities");
    refused("manifold x : R1\nlagrangian x'^2/2\nhamiltonian p_x^2/2\n", "bad.model:2:1", "a lagrangian and a hamiltonian both");
    refused("manifold x : R1\nhamiltonian p_x^2/2\nlagrangian x'^2/2\n", "bad.model:3:1", "a lagrangian and a hamiltonian both");
    refused("manifold x, y : R1\nhamiltonian p_x^2/2 + y^2\n", "bad.model:2:1", "does not depend on the momentum p_y");
    refused("manifold x : R1\nhamiltonian p_x^2/2\nhamiltonian p_x^2\n", "bad.model:3:1", "a second hamiltonian");
    refused("parameters mu_q = 1\nmanifold q : S2\nhamiltonian dot(mu_q, mu_q)\n", "bad.model:2:10", "'mu_q' names a momentum of q");
    refused("parameters p_x = 1\nmanifold x : R1\nhamiltonian p_x^2/2\n", "bad.model:2:10", "'p_x' names a momentum of x");
    refused("manifold R : SO3\nhamiltonian dot(W, W)\n", "bad.model:2:17", "unknown name 'W'");
}

/* A state where H_pp is singular is refused with the reason, in both forms: H = p^3/3 + x^2/2 at p = 0 (u = 0). */
static void degenerate_state(void)
{
    char path[256], err[512] = "";
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/cl-ham-cubic-%ld.model", dir ? dir : "/tmp", (long)getpid());
    FILE *f = fopen(path, "w");
    if (f) fputs("manifold x : R1\nhamiltonian p_x^3/3 + x^2/2\n", f);
    if (f) fclose(f);
    fixture h;
    open_model(&h, path, 0, NULL, NULL, 113);
    for (int form = 0; form < 2; form++) {
        int st = h.ok ? CL_OK : CL_EPARAM;
        mpfr_ptr x = cl_rvec_new_mp(2, 113);
        mpfr_set_si(x, 1, MPFR_RNDN);
        mpfr_set_zero(x + 1, 1);
        if (!st) st = h.s->check_state(h.inst, form, x, err, sizeof err);
        ok(st == CL_ESINGULAR && strstr(err, "degenerate in the momenta"), "form %s at x = 1, p = 0: %s", h.ok ? h.s->forms[form] : "?", err);
        cl_rvec_free_mp(x);
    }
    close_model(&h);
    remove(path);
}

int main(void)
{
    compare_pairs();
    against_hand();
    rules();
    degenerate_state();
    done_testing();
    return 0;
}

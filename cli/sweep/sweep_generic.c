/*
 * The generic stability map: `chartless sweep` on a system or model that
 * declares equilibria but has no sweep hook of its own. Every cell, for
 * each equilibrium followed, from the descriptor alone (system/equilibria.c):
 * the linearization on the tangent space of the state manifold
 * (cl_system_linearize: A = ZᵀDf Z and its eigenvalues) and, when the
 * system declares an energy, the Energy–Casimir test
 * (cl_system_energy_casimir). The verdict (docs/sweep.md):
 *
 *   stable     the restricted Hessian is definite (Lyapunov), or every
 *              eigenvalue has a real part below −2^(24−p)·s (asymptotically
 *              stable), s = max(1, max |λ|), and none is unstable;
 *   unstable   an eigenvalue has a real part above 2^((24−p)/2)·s (an error δ
 *              in A moves a double eigenvalue at 0 by up to √δ) and the
 *              Hessian is not definite;
 *   undecided  otherwise; none where the state is not an equilibrium of the
 *              field at the cell's parameters (or the system has no
 *              equilibrium of that number there).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "sweep.h"

int sweep_verdict_column(const sweep *s) { return s->naxes + 1 + (s->ball ? 3 : 0); }

/* The columns of one equilibrium: verdict, max_re, ec_margin, and certified with --certify. */
int sweep_generic_width(const sweep *s) { return s->ball ? 4 : 3; }

/* The prefix of equilibrium k's columns: the first word of its name when no other
   equilibrium's starts with it and it is a plain word, else eqK. */
static void column_prefix(char *buf, size_t len, int k, char words[][48], int n)
{
    int plain = words[k][0] != 0;
    for (const char *c = words[k]; *c; c++) plain &= isalnum((unsigned char)*c) || *c == '_' || *c == '-';
    for (int j = 0; j < n && plain; j++) plain = j == k || strcmp(words[j], words[k]);
    if (plain) snprintf(buf, len, "%.40s", words[k]);
    else snprintf(buf, len, "eq%d", k);
}

/* The equilibria of \p inst in the sweep's form, the selected ones into s->eq; 0 or exit status 2. */
static int follow_equilibria(sweep *s, void *inst)
{
    enum { MAX_EQ = 64 };
    char words[MAX_EQ][48], names[MAX_EQ][160];
    int n = 0;
    mpfr_ptr y = cl_rvec_new_mp(s->dim, (cl_prec_t)s->bits);
    if (!y) return cl_cli_error("out of memory", NULL);
    for (const char *nm = NULL; n < MAX_EQ && s->sys->equilibrium(inst, n, s->form, y, &nm) == CL_OK; n++, nm = NULL) {
        snprintf(names[n], sizeof names[n], "%s", nm ? nm : "");
        size_t w = strcspn(names[n], " ");
        snprintf(words[n], sizeof words[n], "%.*s", (int)(w < 47 ? w : 47), names[n]);
    }
    cl_rvec_free_mp(y);
    if (!n) return cl_cli_error("the system has no equilibrium in this form at the first cell's parameters",
                                s->form_name ? s->form_name : s->sys->name);
    if (!(s->eq = calloc((size_t)n, sizeof *s->eq))) return cl_cli_error("out of memory", NULL);
    for (int k = 0; k < n; k++)
        if (cl_cmd_equilibrium_selected(s->equilibrium, k, names[k])) {
            s->eq[s->neq].k = k;
            column_prefix(s->eq[s->neq++].prefix, sizeof s->eq->prefix, k, words, n);
        }
    if (!s->neq) return cl_cli_error("no such equilibrium (all, a number from 0, or the first word of its name)", s->equilibrium);
    return CL_EXIT_OK;
}

int sweep_generic_prepare(sweep *s)
{
    void *inst = NULL;
    cl_sys_error e = {"", ""};
    const cl_system *sys = s->sys;
    int st = sys->create(&inst, &s->p, (cl_prec_t)s->bits, &e);
    if (st) {
        if (!e.what[0]) snprintf(e.what, sizeof e.what, "%s", cl_strerror(st));
        return cl_cmd_report(&e, sys->name, CL_EXIT_USAGE);
    }
    s->form = s->form_name ? cl_system_form_index(sys, s->form_name) : 0;
    if (s->form < 0) st = cl_cli_error("unknown form for this system", s->form_name);
    /* without --form: the first form that has equilibrium 0 */
    for (int f = 0; !st && !s->form_name && sys->forms[f]; f++) {
        mpfr_ptr y = cl_rvec_new_mp(sys->dim(inst, f), (cl_prec_t)s->bits);
        const char *nm;
        int found = y && sys->equilibrium(inst, 0, f, y, &nm) == CL_OK;
        cl_rvec_free_mp(y);
        if (found) { s->form = f; break; }
    }
    if (!st) {
        s->dim = sys->dim(inst, s->form);
        st = follow_equilibria(s, inst);
    }
    s->energy_casimir = sys->invariants && sys->invariant_names && sys->invariant_names[0] && s->dim <= CL_EC_NMAX;
    if (!st && s->certify) { /* the model on balls at the working precision */
        cl_sys_error be = {"", ""};
        if (s->form != 0) st = cl_cli_error("--certify works in the model's first form only", s->form_name);
        else if (cl_arb_set_prec((cl_prec_t)s->bits) || cl_model_ball_new(&s->ball, cl_model_system_model(sys), &be))
            st = cl_cli_error(be.what[0] ? be.what : "precision out of range", be.arg[0] ? be.arg : NULL);
    }
    sys->destroy(inst);
    return st;
}

void sweep_generic_columns(FILE *f, const sweep *s)
{
    for (int i = 0; i < s->neq; i++) {
        const char *p = s->eq[i].prefix;
        fprintf(f, ",%s.verdict,%s.max_re,%s.ec_margin", p, p, p);
        if (s->ball) fprintf(f, ",%s.certified", p);
    }
}

/* Whether equilibrium k is one of the field at the cell's parameters (at the working precision). */
static int is_equilibrium(const sweep *s, void *inst, int k, mpfr_ptr x, mpfr_ptr fx)
{
    const char *nm;
    if (s->sys->equilibrium(inst, k, s->form, x, &nm) != CL_OK || cl_system_rest_field(s->sys, inst, k, s->form, fx, x)) return 0;
    double lf = -INFINITY, lx = 0;
    for (size_t i = 0; i < s->dim; i++) {
        lf = fmax(lf, cl_mpfr_log2(fx + i));
        lx = fmax(lx, cl_mpfr_log2(x + i));
    }
    return lf <= lx + 32 - (double)s->bits;
}

/* The verdict from the eigenvalues (n of them) and the Energy-Casimir test (definite: 1, 0, or −1 not run). */
static const char *verdict(mpfr_srcptr wr, mpfr_srcptr wi, int n, int definite, long bits)
{
    double scale = 0;
    for (int i = 0; i < n; i++) scale = fmax(scale, fmax(cl_mpfr_log2(wr + i), cl_mpfr_log2(wi + i)));
    double zero = scale + 24 - (double)bits, unstable_at = scale + (24 - (double)bits) / 2;
    int unstable = 0, left = n > 0;
    for (int i = 0; i < n; i++) {
        unstable |= mpfr_sgn(wr + i) > 0 && cl_mpfr_log2(wr + i) > unstable_at;
        left &= mpfr_sgn(wr + i) < 0 && cl_mpfr_log2(wr + i) > zero;
    }
    if (definite > 0 && !unstable) return "stable";
    if (left) return "stable";
    if (unstable && definite <= 0) return "unstable";
    return "undecided";
}

/* One equilibrium at the cell: ",verdict,max_re,ec_margin". w: room for N² + 4N numbers. */
static int equilibrium_fields(sweep *s, const sweep_eq *q, FILE *f, mpfr_ptr w, cl_sys_error *e)
{
    size_t N = s->dim;
    cl_prec_t prec = (cl_prec_t)s->bits;
    mpfr_ptr x = w, A = x + N, wr = A + N * N, wi = wr + N, c = wi + N;
    int d = 0, definite = -1, ncas = 0;
    int st = cl_system_linearize(s->sys, &s->p, prec, s->form, q->k, x, A, wr, wi, &d, NULL, 0, e);
    if (st) return CL_EXIT_FAIL;
    mpfr_t margin, big;
    mpfr_inits2(prec, margin, big, (mpfr_ptr)0);
    if (s->energy_casimir) {
        struct cl_ec_report rep;
        cl_sys_error ee = {"", ""};
        /* the eigenvalues of the restricted Hessian into c (room for N); A is free again */
        if (!cl_system_energy_casimir(s->sys, &s->p, prec, s->form, q->k, &rep, x, A, c, &ncas, NULL, &ee) && rep.d > 0) {
            definite = rep.definite != 0;
            mpfr_set_inf(margin, 1);
            mpfr_set_zero(big, 1);
            for (int i = 0; i < rep.d; i++) {
                if (mpfr_cmpabs(c + i, margin) < 0) mpfr_abs(margin, c + i, MPFR_RNDN);
                if (mpfr_cmpabs(c + i, big) > 0) mpfr_abs(big, c + i, MPFR_RNDN);
            }
            if (mpfr_zero_p(big)) mpfr_set_zero(margin, 1);
            else mpfr_div(margin, margin, big, MPFR_RNDN);
        }
    }
    fprintf(f, ",%s,", verdict(wr, wi, d, definite, s->bits));
    mpfr_set(big, wr, MPFR_RNDN); /* the spectral abscissa: cl_eig sorts by real part, ascending */
    for (int i = 1; i < d; i++) mpfr_max(big, big, wr + i, MPFR_RNDN);
    if (mpfr_zero_p(big)) mpfr_set_zero(big, 1);
    cl_sys_print_real(f, big);
    fputc(',', f);
    if (definite >= 0) cl_sys_print_real(f, margin);
    mpfr_clears(margin, big, (mpfr_ptr)0);
    return CL_EXIT_OK;
}

/* The proven verdict at equilibrium k on balls, the cell's parameters exact balls (the grid's numbers): ",WORD". */
static int certified_field(sweep *s, int k, FILE *f, cl_sys_error *e)
{
    const cl_model *m = cl_model_system_model(s->sys);
    arb_ptr w = cl_rvec_new_arb(3 * s->dim + 1, 0);
    if (!w) return cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    for (size_t j = 0; j < m->nparam; j++) {
        arb_set_interval_mpfr(w, cl_params_x(&s->p, m->pname[j]), cl_params_x(&s->p, m->pname[j]), (slong)s->bits);
        cl_model_ball_set_param(s->ball, j, w);
    }
    cl_model_ec_proof pr;
    int st = cl_model_certify_stability(s->ball, k, &pr, w, w + s->dim, w + 2 * s->dim, e);
    cl_rvec_free_arb(w);
    if (st) return CL_EXIT_FAIL;
    fprintf(f, ",%s", pr.verdict == CL_PROOF_STABLE ? "proven stable" : pr.verdict == CL_PROOF_UNSTABLE ? "proven unstable" : "undecided");
    return CL_EXIT_OK;
}

int sweep_generic_cell(sweep *s, FILE *f, cl_sys_error *e)
{
    size_t N = s->dim;
    void *inst = NULL;
    int st = s->sys->create(&inst, &s->p, (cl_prec_t)s->bits, e);
    if (st) {
        if (!e->what[0]) snprintf(e->what, sizeof e->what, "%s", cl_strerror(st));
        return CL_EXIT_USAGE;
    }
    mpfr_ptr w = cl_rvec_new_mp(N * N + 4 * N, (cl_prec_t)s->bits);
    if (!w) st = cl_sys_error_set(e, CL_EXIT_FAIL, NULL, "out of memory");
    for (int i = 0; !st && i < s->neq; i++) {
        if (!is_equilibrium(s, inst, s->eq[i].k, w, w + N)) fputs(s->ball ? ",none,,,none" : ",none,,", f);
        else if (!(st = equilibrium_fields(s, s->eq + i, f, w, e)) && s->ball) st = certified_field(s, s->eq[i].k, f, e);
    }
    cl_rvec_free_mp(w);
    s->sys->destroy(inst);
    return st;
}

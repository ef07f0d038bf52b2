/*
 * `chartless equilibria --system NAME` and `chartless stability --system
 * NAME`: the analyses a system's descriptor offers. A system with a tool of
 * its own (cl_system_tool) runs it with the options its table documents;
 * any other system (or model file) with an `equilibrium` hook gets the
 * generic tools of the check kit: the linearization on the tangent space
 * of its state manifold (cl_system_linearize) and the Energy–Casimir test
 * with the conserved quantities it declares (cl_system_energy_casimir).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "json.h"
#include "certify.h"

typedef struct analysis {
    const char *command, *what;
    const char *exit_status; /* the help's last section */
    const cl_system_tool *(*tool)(const cl_system *s);
    int (*offered)(const cl_system *s);
    int stability;           /* the generic tool: 0 linearization, 1 Energy–Casimir */
} analysis;

static const cl_system_tool *equilibria_tool(const cl_system *s) { return s->equilibria; }
static const cl_system_tool *stability_tool(const cl_system *s) { return s->stability; }

static const analysis equilibria = {"equilibria", "the linearization (Jacobian eigenvalues) at the system's equilibria",
                                    "exit status: 0 done, 1 the computation failed, 2 bad input\n", equilibria_tool,
                                    cl_system_offers_equilibria, 0};
static const analysis stability = {"stability", "a nonlinear stability test (Energy-Casimir) at an equilibrium",
                                   "exit status: 0 done (whatever the verdict: it is printed), 1 the computation failed,\n"
                                   "2 bad input\n",
                                   stability_tool, cl_system_offers_stability, 1};

static void print_list(FILE *f, const char *label, mpfr_srcptr x, int n)
{
    fprintf(f, "%s", label);
    for (int i = 0; i < n; i++) { fputc(' ', f); cl_cli_print_real(f, x + i); }
    fputc('\n', f);
}

/* A number is zero to the rounding of the eigenproblem when |x| ≤ 2^(24−p)·max(1, max|λ|). */
static double zero_level(mpfr_srcptr wr, mpfr_srcptr wi, int d, cl_prec_t prec)
{
    double m = 0;
    for (int i = 0; i < d; i++) m = fmax(m, fmax(cl_mpfr_log2(wr + i), cl_mpfr_log2(wi + i)));
    return fmax(m, 0) + 24 - (double)prec;
}

/* What the eigenvalues say, to the zero level z: how many have Re > 0, Re = 0, Re < 0, and the
   squared frequencies (imag² of those on the imaginary axis, into t) and squared rates (real² of
   the positive real ones, into t + d), ascending; t has room for 2d numbers. */
typedef struct spectrum { double z; int unstable, on_axis, left, nfreq, nrate; } spectrum;

static void classify(spectrum *sp, mpfr_srcptr wr, mpfr_srcptr wi, int d, cl_prec_t prec, mpfr_ptr t)
{
    memset(sp, 0, sizeof *sp);
    double z = sp->z = zero_level(wr, wi, d, prec);
    for (int i = 0; i < d; i++) {
        if (!(cl_mpfr_log2(wr + i) > z)) sp->on_axis++;
        else if (mpfr_sgn(wr + i) > 0) sp->unstable++;
        else sp->left++;
    }
    for (int pass = 0; pass < 2; pass++) {
        int m = 0;
        mpfr_ptr u = t + (pass ? d : 0);
        for (int i = 0; i < d; i++) {
            int on_axis = cl_mpfr_log2(wr + i) <= z && mpfr_sgn(wi + i) > 0 && cl_mpfr_log2(wi + i) > z;
            int real = cl_mpfr_log2(wi + i) <= z && mpfr_sgn(wr + i) > 0 && cl_mpfr_log2(wr + i) > z;
            if (pass ? !real : !on_axis) continue;
            mpfr_sqr(u + m, pass ? wr + i : wi + i, MPFR_RNDN);
            for (int j = m++; j > 0 && mpfr_cmp(u + j, u + j - 1) < 0; j--) mpfr_swap(u + j, u + j - 1);
        }
        *(pass ? &sp->nrate : &sp->nfreq) = m;
    }
}

/* The linearization's class: its word (JSON) and its sentence (text). */
static int linear_class(const spectrum *sp) { return sp->unstable ? 0 : !sp->left ? 1 : sp->on_axis ? 2 : 3; }
static const char *const linear_word[] = {"unstable", "spectrally stable", "inconclusive", "asymptotically stable"};
static const char *const linear_text[] = {
    "unstable (an eigenvalue with positive real part)",
    "spectrally stable (all eigenvalues on the imaginary axis); nonlinear stability: chartless stability",
    "inconclusive (eigenvalues on the imaginary axis, the others in the left half plane)",
    "asymptotically stable (all eigenvalues in the left half plane)"};

/* An n×n matrix as rows of numbers. */
static void json_matrix(FILE *f, mpfr_srcptr M, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        cl_json_reals(f, M + (size_t)n * i, (size_t)n);
    }
    fputc(']', f);
}

/* One equilibrium's opening members: index, name. */
static void json_equilibrium_head(FILE *f, int k, const char *name)
{
    fprintf(f, "  {\"index\": %d, \"name\": ", k);
    cl_json_string(f, name);
}

static void json_linearization(FILE *f, const cl_cmd_system *cs, int k, const char *name, mpfr_srcptr x, mpfr_srcptr A,
                               mpfr_srcptr wr, mpfr_srcptr wi, int d, const spectrum *sp, mpfr_srcptr t)
{
    json_equilibrium_head(f, k, name);
    fputs(", \"state\": ", f);
    cl_json_reals(f, x, cs->dim);
    fprintf(f, ",\n   \"tangent_dimension\": %d, \"A\": ", d);
    json_matrix(f, A, d);
    fputs(",\n   \"eigenvalues\": {\"re\": ", f);
    cl_json_reals(f, wr, (size_t)d);
    fputs(", \"im\": ", f);
    cl_json_reals(f, wi, (size_t)d);
    fputs("},\n   \"squared_frequencies\": ", f);
    cl_json_reals(f, t, (size_t)sp->nfreq);
    fputs(", \"squared_rates\": ", f);
    cl_json_reals(f, t + d, (size_t)sp->nrate);
    fprintf(f, ",\n   \"linearization\": \"%s\", \"log2_zero\": %.0f", linear_word[linear_class(sp)], sp->z);
}

/* The linearization at one equilibrium: the state, A = ZᵀDf Z, its eigenvalues and what they say;
   t has room for 2d numbers. 1 when they decide (unstable, or asymptotically stable), else 0. */
static int print_linearization(FILE *f, int json, const cl_cmd_system *cs, int k, const char *name, mpfr_srcptr x,
                                mpfr_srcptr A, mpfr_srcptr wr, mpfr_srcptr wi, int d, cl_prec_t prec, mpfr_ptr t)
{
    spectrum sp;
    classify(&sp, wr, wi, d, prec, t);
    int decided = sp.unstable || linear_class(&sp) == 3;
    if (json) { json_linearization(f, cs, k, name, x, A, wr, wi, d, &sp, t); return decided; }
    fprintf(f, "equilibrium %d: %s\n", k, name);
    fprintf(f, "  state (%s):", cs->sys->forms[cs->form]);
    for (size_t i = 0; i < cs->dim; i++) { fputc(' ', f); cl_cli_print_real(f, x + i); }
    fprintf(f, "\n  tangent space: dimension %d of R^%zu\n", d, cs->dim);
    for (int i = 0; i < d; i++) { fprintf(f, "  A row %d", i + 1); print_list(f, "", A + (size_t)d * i, d); }
    fprintf(f, "  eigenvalues (real imag):\n");
    for (int i = 0; i < d; i++) {
        fprintf(f, "   ");
        cl_cli_print_real(f, wr + i);
        fputc(' ', f);
        cl_cli_print_real(f, wi + i);
        fputc('\n', f);
    }
    if (sp.nfreq) print_list(f, "  squared frequencies (imag^2 of the eigenvalues i*w, w > 0):", t, sp.nfreq);
    if (sp.nrate) print_list(f, "  squared rates (real^2 of the positive real eigenvalues):", t + d, sp.nrate);
    fprintf(f, "  linearization: %s (zero within 2^%.0f)\n", linear_text[linear_class(&sp)], sp.z);
    return decided;
}

static void json_energy_casimir(FILE *f, const cl_system *s, int k, const char *name, const struct cl_ec_report *rep,
                                mpfr_srcptr c, mpfr_srcptr Hr, mpfr_srcptr eig, int ncas, const int *which, int unstable)
{
    json_equilibrium_head(f, k, name);
    fputs(", \"energy\": ", f);
    cl_json_string(f, s->invariant_names[0]);
    fprintf(f, ", \"constraints\": %d, \"conserved\": [", rep->k - ncas);
    for (int j = 0; j < ncas; j++) {
        if (j) fputs(", ", f);
        cl_json_string(f, s->invariant_names[which[j]]);
    }
    fputs("],\n   \"multipliers\": ", f);
    cl_json_reals(f, c, (size_t)rep->k);
    fputs(", \"log2_residual\": ", f);
    cl_json_double(f, rep->log2_residual);
    fprintf(f, ",\n   \"dimension\": %d, \"hessian\": ", rep->d);
    json_matrix(f, Hr, rep->d);
    fputs(",\n   \"eigenvalues\": ", f);
    cl_json_reals(f, eig, (size_t)rep->d);
    fprintf(f, ",\n   \"inertia\": {\"positive\": %d, \"negative\": %d, \"zero\": %d}, \"critical\": %d, \"definite\": %d, \"verdict\": \"%s\"",
            rep->npos, rep->nneg, rep->nzero, rep->critical, rep->definite, rep->definite ? "stable" : unstable ? "unstable" : "inconclusive");

}

/* The Energy–Casimir test at one equilibrium. */
static void print_energy_casimir(FILE *f, int json, const cl_cmd_system *cs, int k, const char *name,
                                 const struct cl_ec_report *rep, mpfr_srcptr c, mpfr_srcptr Hr, mpfr_srcptr eig, int ncas,
                                 const int *which, int unstable)
{
    const cl_system *s = cs->sys;
    if (json) { json_energy_casimir(f, s, k, name, rep, c, Hr, eig, ncas, which, unstable); return; }
    fprintf(f, "equilibrium %d: %s\n", k, name);
    fprintf(f, "  E = %s, with %d constraint(s) of the state manifold", s->invariant_names[0], rep->k - ncas);
    for (int j = 0; j < ncas; j++) fprintf(f, "%s%s", j ? ", " : " and the conserved quantities ", s->invariant_names[which[j]]);
    print_list(f, "\n  multipliers:", c, rep->k);
    fprintf(f, "  residual |DE + sum c_j DC_j| / max(1, |DE|) = 2^%.1f\n", rep->log2_residual);
    fprintf(f, "  restricted Hessian (orthonormal basis of ker DC, dimension %d):\n", rep->d);
    for (int i = 0; i < rep->d; i++) print_list(f, "   ", Hr + (size_t)rep->d * i, rep->d);
    print_list(f, "  eigenvalues:", eig, rep->d);
    fprintf(f, "  inertia (positive, negative, zero) = (%d, %d, %d)\n", rep->npos, rep->nneg, rep->nzero);
    if (!rep->definite && unstable)
        fprintf(f, "  verdict: unstable (the linearization has an eigenvalue with positive real part; the Energy-Casimir test "
                   "is %s)\n", rep->critical ? "not definite" : "inconclusive");
    else if (!rep->critical)
        fprintf(f, "  verdict: Energy-Casimir test inconclusive (not a critical point of E + sum c_j C_j: the residual is above "
                   "2^%.1f; the energy's gradient is no combination of those of the constraints and the conserved quantities used)\n",
                cl_ec_critical_log2((long)mpfr_get_prec(c)));
    else
        fprintf(f, "  verdict: %s\n", rep->definite > 0   ? "stable (restricted Hessian positive definite)"
                                       : rep->definite < 0 ? "stable (restricted Hessian negative definite)"
                                                           : "Energy-Casimir test inconclusive (restricted Hessian not definite)");
}

/* A proven verdict's word. */
static const char *proof_word(int v) { return v == CL_PROOF_STABLE ? "proven stable" : v == CL_PROOF_UNSTABLE ? "proven unstable" : "undecided"; }

/* How the zero was proven, in words. */
static void zero_text(char *buf, size_t n, const cl_model_eq_proof *pr)
{
    if (pr->unique) snprintf(buf, n, "proven, the only one in a box of radius 2^%.0f around its point (Krawczyk)", pr->log2_radius);
    else if (pr->exact) snprintf(buf, n, "proven (the field is the exact zero ball at its point)");
    else snprintf(buf, n, "not proven (%s)", pr->why);
}

/* The head of a proof's text: its precision, and --bits when the proof was undecided there. */
static void certified_head(FILE *f, long base)
{
    long bits = (long)cl_arb_get_prec();
    fprintf(f, "  certified (Arb balls at %ld bits, each parameter a ball around its decimal)", bits);
    if (bits != base) fprintf(f, ", undecided at %ld bits", base);
    fputs(":\n", f);
}

/* JSON: the bits of the proof, and those it was undecided at when they differ. */
static void certified_bits(FILE *f, long base)
{
    fprintf(f, "\"bits\": %ld, ", (long)cl_arb_get_prec());
    if ((long)cl_arb_get_prec() != base) fprintf(f, "\"undecided_at_bits\": %ld, ", base);
}

/* The certified part of one equilibrium: its zero, the eigenvalue enclosures, the verdict (text or JSON members). */
static void print_certified_eq(FILE *f, int json, const cl_model_eq_proof *pr, arb_srcptr wr, arb_srcptr wi, double cpu, long base)
{
    char z[400];
    zero_text(z, sizeof z, pr);
    int eig = pr->zero && !pr->eig_status;
    if (json) {
        fputs(",\n   \"certified\": {", f);
        certified_bits(f, base);
        fprintf(f, "\"zero\": \"%s\", \"log2_radius\": ", pr->unique ? "krawczyk" : pr->exact ? "exact" : "none");
        cl_json_double(f, pr->log2_radius);
        fputs(", \"eigenvalues\": {\"re\": [", f);
        for (int i = 0; eig && i < pr->nenc; i++) { if (i) fputs(", ", f); cl_cli_json_ball(f, wr + i); }
        fputs("], \"im\": [", f);
        for (int i = 0; eig && i < pr->nenc; i++) { if (i) fputs(", ", f); cl_cli_json_ball(f, wi + i); }
        fprintf(f, "], \"all\": %s}, \"verdict\": \"%s\", \"reason\": ", pr->partial ? "false" : "true", proof_word(pr->verdict));
        cl_json_string(f, pr->zero ? pr->why : z);
        fputs(", \"cpu_seconds\": ", f);
        cl_json_double(f, cpu);
        fputc('}', f);
        return;
    }
    certified_head(f, base);
    fprintf(f, "    zero of the field%s: %s\n", "", z);
    if (eig) {
        fprintf(f, "    eigenvalue enclosures (real imag)%s:\n", pr->partial ? ", those Rump's test verifies (not the whole "
                   "spectrum: a multiple eigenvalue without a verified basis)" : "");
        for (int i = 0; i < pr->nenc; i++) {
            fputs("      ", f);
            cl_cli_print_ball(f, wr + i);
            fputc(' ', f);
            cl_cli_print_ball(f, wi + i);
            fputc('\n', f);
        }
    }
    fprintf(f, "    verdict: %s (%s)\n", proof_word(pr->verdict), pr->zero ? pr->why : "the equilibrium is not proven");
}

/* The certified Energy–Casimir test of one equilibrium (text or JSON members). */
static void print_certified_ec(FILE *f, int json, const cl_model_ec_proof *pr, arb_srcptr wr, arb_srcptr wi, double cpu, long base)
{
    char z[400];
    zero_text(z, sizeof z, &pr->eq);
    const cl_ec_report *r = &pr->rep;
    if (json) {
        fputs(",\n   \"certified\": {", f);
        certified_bits(f, base);
        fprintf(f, "\"zero\": \"%s\", \"inertia\": {\"positive\": %d, \"negative\": %d, "
                   "\"undecided\": %d}, \"energy_shift\": ", pr->eq.unique ? "krawczyk" : pr->eq.exact ? "exact" : "none", r->npos, r->nneg, r->undecided);
        cl_json_double(f, pr->shifted ? pr->t : 0);
        fprintf(f, ", \"verdict\": \"%s\", \"reason\": ", proof_word(pr->verdict));
        cl_json_string(f, pr->why);
        fputs(", \"cpu_seconds\": ", f);
        cl_json_double(f, cpu);
        fputc('}', f);
        return;
    }
    certified_head(f, base);
    fprintf(f, "    zero of the field: %s\n", z);
    if (!pr->ec_status && pr->eq.zero)
        fprintf(f, "    restricted Hessian: %d sign(s) proven positive, %d negative, %d undecided%s\n", r->npos, r->nneg, r->undecided,
                pr->shifted ? " (the energy shifted by a dependent invariant, E + t D)" : "");
    if (pr->eq.zero && !pr->eq.eig_status) {
        fprintf(f, "    eigenvalue enclosures of the linearization (real imag)%s:\n", pr->eq.partial ? ", those Rump's test verifies" : "");
        for (int i = 0; i < pr->eq.nenc; i++) {
            fputs("      ", f);
            cl_cli_print_ball(f, wr + i);
            fputc(' ', f);
            cl_cli_print_ball(f, wi + i);
            fputc('\n', f);
        }
    }
    fprintf(f, "    verdict: %s (%s)\n", proof_word(pr->verdict), pr->why);
}

/* The largest state the linearization takes: its dense N x N eigenproblem
   costs of the order of N^3 operations at the working precision. */
#define LINEARIZE_NMAX 1000

/* Without --form: the first form whose equilibrium 0 exists; 0 or exit status 2. */
static int choose_form(cl_cmd_system *cs, cl_prec_t prec)
{
    const cl_system *s = cs->sys;
    const char *nm;
    for (int f = 0; s->forms[f]; f++) {
        size_t dim = s->dim(cs->inst, f);
        mpfr_ptr y = cl_rvec_new_mp(dim, prec);
        if (!y) return cl_cli_error("out of memory", NULL);
        int found = s->equilibrium(cs->inst, 0, f, y, &nm) == CL_OK;
        cl_rvec_free_mp(y);
        if (found) { cs->form = f; cs->dim = dim; break; }
    }
    return CL_EXIT_OK;
}

/* The input first, so that bad input prints nothing on stdout: the equilibria (*found of them), the
   selection, each selected one a zero of the field; 0 or exit status 2. xe, fx: room for N. */
static int check_selection(const analysis *an, const cl_cmd_system *cs, const char *which, int form_given, cl_prec_t prec,
                           mpfr_ptr xe, mpfr_ptr fx, int *found)
{
    const cl_system *s = cs->sys;
    size_t N = cs->dim;
    int ran = 0, moving = -1;
    const char *moving_name = NULL;
    char domain[300] = "";
    *found = 0;
    for (int k = 0; k < 64; k++) {
        const char *name = NULL;
        if (s->equilibrium(cs->inst, k, cs->form, xe, &name) != CL_OK) break;
        ++*found;
        if (!cl_cmd_equilibrium_selected(which, k, name ? name : "")) continue;
        ran++;
        /* f(x₀) at rounding level (a control torque, say, moves the state) */
        double lf = -INFINITY, lx = 0;
        if (cl_system_rest_field(s, cs->inst, k, cs->form, fx, xe)) {
            lf = INFINITY;
            if (moving < 0 && s->check_state) { /* why: the state check names the subexpression that leaves its domain */
                for (size_t i = 0; i < N; i++) mpfr_set(fx + i, xe + i, MPFR_RNDN);
                if (!s->check_state(cs->inst, cs->form, fx, domain, sizeof domain)) domain[0] = 0;
            }
        }
        for (size_t i = 0; i < N; i++) {
            lf = fmax(lf, cl_mpfr_log2(fx + i));
            lx = fmax(lx, cl_mpfr_log2(xe + i));
        }
        if (moving < 0 && !(lf <= lx + 32 - (double)prec)) moving = k, moving_name = name;
    }
    char msg[700];
    if (!*found && form_given) {
        snprintf(msg, sizeof msg, "the system has no equilibrium in form %s", s->forms[cs->form]);
        return cl_cli_error(msg, "--form");
    }
    if (!*found) return cl_cli_error("the system has no equilibrium at these parameters, in any form", s->name);
    if (!ran) return cl_cli_error("no such equilibrium (all, a number from 0, or the first word of its name)", which);
    if (moving >= 0 && domain[0]) {
        snprintf(msg, sizeof msg, "equilibrium %d, %s, at these parameters: %s", moving,
                 moving_name && moving_name[0] ? moving_name : "unnamed", domain);
        return cl_cli_error(msg, s->name);
    }
    if (moving >= 0) {
        snprintf(msg, sizeof msg, "equilibrium %d, %s, is not a zero of the field at these parameters", moving,
                 moving_name && moving_name[0] ? moving_name : "unnamed");
        return cl_cli_error(msg, s->name);
    }
    return CL_EXIT_OK;
}

/* One proof at equilibrium k on the current ball into pr (a cl_model_ec_proof or cl_model_eq_proof); its verdict. */
static int prove(const analysis *an, cl_model_ball *ball, int k, void *pr, arb_ptr w, int *verdict, cl_sys_error *e)
{
    size_t N = cl_model_ball_dim(ball);
    int st;
    if (an->stability) {
        cl_model_ec_proof *p = pr;
        st = cl_model_certify_stability(ball, k, p, w, w + N, w + 2 * N, e);
        *verdict = p->verdict;
    } else {
        cl_model_eq_proof *p = pr;
        st = cl_model_certify_equilibrium(ball, k, p, w, w + N, w + 2 * N, e);
        *verdict = p->verdict;
    }
    return st;
}

/* How many times a proof undecided where the floating-point verdict is decided is tried again at twice the bits. */
#define CERTIFY_RAISES 2

/* The proofs at equilibrium k on balls, printed. Where the floating-point verdict is decided (stable or unstable) and
   the proof at --bits is not, balls too wide at --bits may be why: the proof is tried again at twice and four times
   the bits (as far as CL_PREC_MAX), and the one printed says its precision. 0 or a status with the message in e. */
static int certify_one(const analysis *an, cl_cli_certify *cert, int k, int decided, FILE *f, int json, cl_sys_error *e)
{
    size_t N = cl_model_ball_dim(cert->ball);
    arb_ptr w = cl_rvec_new_arb(3 * N, 0);
    if (!w) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    union { cl_model_ec_proof ec; cl_model_eq_proof eq; } pr;
    long base = (long)cl_arb_get_prec(), bits = base;
    clock_t t0 = clock();
    int verdict, st = prove(an, cert->ball, k, &pr, w, &verdict, e);
    for (int i = 0; !st && decided && verdict == CL_PROOF_UNDECIDED && i < CERTIFY_RAISES && 2 * bits <= CL_PREC_MAX; i++) {
        if (cl_cli_certify_at(cert, 2 * bits)) break;
        bits *= 2;
        st = prove(an, cert->ball, k, &pr, w, &verdict, e);
    }
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (!st && an->stability) print_certified_ec(f, json, &pr.ec, w + N, w + 2 * N, cpu, base);
    else if (!st) print_certified_eq(f, json, &pr.eq, w + N, w + 2 * N, cpu, base);
    cl_rvec_free_arb(w);
    if (bits != base && cl_cli_certify_at(cert, base) && !st) st = cl_sys_error_set(e, CL_ENOMEM, NULL, "the ball could not be opened again");
    return st;
}

/* The generic tool on an open system: every selected equilibrium of its form, as text or JSON
   (made in memory and printed whole, so that a failure prints nothing). */
static int run_generic(const analysis *an, cl_cmd_system *cs, const char *which, int form_given, cl_prec_t prec, int json,
                       cl_cli_certify *cert)
{
    const cl_system *s = cs->sys;
    int st = form_given ? CL_EXIT_OK : choose_form(cs, prec), found = 0;
    if (st) return st;
    size_t N = cs->dim, nmax = an->stability ? CL_EC_NMAX : LINEARIZE_NMAX;
    if (N > nmax) { /* before the N x N matrix is asked for */
        char msg[200];
        snprintf(msg, sizeof msg, "%s takes states of at most %zu numbers (this one has %zu)",
                 an->stability ? "the Energy-Casimir test" : "the linearization", nmax, N);
        return cl_cli_error(msg, s->name);
    }
    mpfr_ptr w = cl_rvec_new_mp(N * N + 5 * N, prec);
    if (!w) return cl_cli_error("out of memory", NULL);
    mpfr_ptr xe = w, A = xe + N, wr = A + N * N, wi = wr + N, c = wi + N;
    char *doc = NULL;
    size_t len = 0;
    FILE *f = NULL;
    if (!(st = check_selection(an, cs, which, form_given, prec, xe, wr, &found)) && !(f = json ? open_memstream(&doc, &len) : stdout))
        st = cl_cli_error("out of memory", NULL);
    const char *method = an->stability ? "Energy-Casimir test (system/equilibria.c)" : "linearization on the tangent space of the state manifold";
    if (!st && json) {
        fprintf(f, "{\"schema\": \"chartless-%s/1\", ", an->command);
        cl_json_system_head(f, cs, (long)prec);
        fprintf(f, ", \"method\": \"%s\",\n \"equilibria\": [\n", method);
    } else if (!st)
        fprintf(f, "%s (form %s), %ld bits: %s\n\n", s->name, s->forms[cs->form], (long)prec, method);
    for (int k = 0, n = 0; !st && k < found; k++) {
        const char *name = NULL;
        cl_sys_error e = {"", ""};
        int d = 0, r, decided = 0;
        s->equilibrium(cs->inst, k, cs->form, xe, &name);
        if (!cl_cmd_equilibrium_selected(which, k, name ? name : "")) continue;
        if (json && n++) fputs(",\n", f);
        if (an->stability) {
            struct cl_ec_report rep;
            int ncas = 0, which[CL_EC_NMAX + 64];
            r = cl_system_energy_casimir(s, &cs->params, prec, cs->form, k, &rep, c, A, wr, &ncas, which, &e);
            int unstable = !r && !rep.definite ? cl_system_spectrally_unstable(s, &cs->params, prec, cs->form, k) : 0;
            if (!r) print_energy_casimir(f, json, cs, k, name, &rep, c, A, wr, ncas, which, unstable);
            decided = !r && (rep.definite || unstable);
        } else {
            r = cl_system_linearize(s, &cs->params, prec, cs->form, k, xe, A, wr, wi, &d, NULL, 0, &e);
            if (!r) decided = print_linearization(f, json, cs, k, name, xe, A, wr, wi, d, prec, c);
        }
        if (!r && cert) r = certify_one(an, cert, k, decided, f, json, &e);
        if (!r) fputs(json ? "}" : "\n", f);
        if (r) st = cl_cmd_report(&e, s->name, r == CL_EPARAM ? CL_EXIT_USAGE : CL_EXIT_FAIL);
    }
    if (json && f) {
        fputs("]}\n", f);
        fclose(f);
        if (!st) fwrite(doc, 1, len, stdout);
        free(doc);
    }
    cl_rvec_free_mp(w);
    return st;
}

static void generic_help(const analysis *an, const cl_system *s)
{
    printf("usage: chartless %s --system %s [--form F] [--equilibrium all|K|NAME] [--bits B] [PARAMETERS]\n\n", an->command,
           s->name);
    if (an->stability)
        printf("Energy-Casimir test (src/energy_casimir) at each equilibrium: the energy with the constraints of the\n"
               "state manifold and the conserved quantities the system declares, gradients and Hessians by src/deriv,\n"
               "the Hessian restricted to the tangent space of the level set, its inertia and the verdict.\n");
    else
        printf("Jacobian of the field on the tangent space of the state manifold at each equilibrium\n"
               "(A = Z^T Df Z, Z an orthonormal basis of the kernel of the constraints' derivative; src/deriv),\n"
               "its eigenvalues (src/linalg) with the digits of the working precision, the squared frequencies\n"
               "of the eigenvalues on the imaginary axis and the squared rates of the positive real ones.\n");
    printf("--form: the form to work in (default: the first that has equilibria); --equilibrium: which\n"
           "(default all): its number, or the first word of its name; --format text|json: the results as\n"
           "one JSON object (docs/%s.schema.json); --bits B: working precision, 2 to %ld bits (default 53).\n",
           an->command, (long)cl_system_linearize_max_bits());
    printf("--certify (a model file): proven verdicts on Arb balls at --bits (docs/certified.md), each\n"
           "parameter a decimal (enclosed) or a ball [m +/- r]: %s.\n", an->stability
           ? "the Energy-Casimir test with the declared invariants, proven stable (restricted Hessian\n"
             "proven definite), proven unstable (an eigenvalue with real part proven positive) or undecided"
           : "each equilibrium proven a zero of the field (in its turning frame) by Krawczyk's test,\n"
             "the eigenvalues enclosed, proven unstable when one has a real part proven positive");
    cl_cmd_system_help(s);
}

/* Take --equilibrium out of the scanned parameters (the generic tool's own option). */
static const char *take_equilibrium(cl_cmd_args *a, int *dup)
{
    const char *v = NULL;
    int j = 0;
    *dup = 0;
    for (int i = 0; i < a->nparams; i++) {
        if (!strcmp(a->keys[i], "equilibrium")) {
            if (v) *dup = 1;
            v = a->vals[i] ? a->vals[i] : "";
            continue;
        }
        a->keys[j] = a->keys[i];
        a->vals[j++] = a->vals[i];
    }
    a->nparams = j;
    return v;
}

static int run_analysis(const analysis *an, int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    cl_cmd_args a;
    if ((st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 0, &a))) return st;
    char with[512];
    cl_cmd_systems_with(with, sizeof with, an->offered);
    const cl_system *s = a.system ? cl_system_find(a.system) : NULL;
    /* a system's own tool prints text: JSON comes from the generic tool, from its equilibria */
    const cl_system_tool *t = s && !(json && s->equilibrium && !a.help) ? an->tool(s) : NULL;
    int generic = !t && (a.model || (s && an->offered(s)));
    if (a.help) {
        if (t) {
            fputs(t->usage, stdout);
            printf("\noptions:\n");
            cl_params_help(stdout, t->params);
            printf("  --bits B          working precision in bits, 2 to %ld (default 53)\n", (long)cl_system_linearize_max_bits());
            printf("  --format json     the generic %s of its equilibria instead, as one JSON object\n"
                   "                    (docs/%s.schema.json; --form, --equilibrium as for any system)\n"
                   "  -h, --help        this text\n", an->stability ? "Energy-Casimir test" : "linearization", an->command);
        } else if (s && generic)
            generic_help(an, s);
        else
            printf("usage: chartless %s --system NAME [--bits B] [OPTIONS]\n"
                   "       chartless %s --model FILE [--param name=value ...] [--bits B] [OPTIONS]\n\n"
                   "%s.\nsystems that offer it: %s\n(chartless %s --system NAME --help for its options;\n"
                   "a model file offers it when it declares equilibria)\n",
                   an->command, an->command, an->what, with, an->command);
        printf("\n%s", an->exit_status);
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    char msg[600];
    if (!a.system && !a.model) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer %s: %s)", an->command, with);
        st = cl_cli_error(msg, NULL);
    } else if (a.system && !s && !a.model) {
        st = cl_cmd_unknown_system(a.system);
    } else if (t && json) {
        st = cl_cli_error("this system's own analysis prints text only", "--format");
    } else if (t) {
        if (a.form) st = cl_cli_error("unknown option", "--form");
        else if (a.model) st = cl_cli_error("give --system or --model, not both", a.model);
        else st = cl_cmd_run(&a, t->params, t->run);
    } else if (s && !generic) {
        snprintf(msg, sizeof msg, "%s is offered by %s only", an->command, with);
        st = cl_cli_error(msg, a.system);
    } else {
        int dup, certify = cl_cli_take_certify(&a);
        const char *which = take_equilibrium(&a, &dup);
        cl_cmd_system cs;
        cl_cli_certify c = {0};
        char top[80];
        snprintf(top, sizeof top, "precision too high for the linearization: at most %ld bits", (long)cl_system_linearize_max_bits());
        if (dup || certify > 1) st = cl_cli_error("option given twice", dup ? "--equilibrium" : "--certify");
        else if (a.bits > cl_system_linearize_max_bits()) st = cl_cli_error(top, "--bits");
        else if (which && !*which) st = cl_cli_error("--equilibrium needs a value", "--equilibrium");
        else if (!(st = certify ? cl_cli_certify_prepare(&c, &a) : CL_EXIT_OK) && !(st = cl_cmd_open_system(&a, &cs))) {
            if (!an->offered(cs.sys)) {
                snprintf(msg, sizeof msg, "%s needs a system with equilibria; the model declares none", an->command);
                st = cl_cli_error(msg, a.model ? a.model : a.system);
            } else if (certify && a.form && cs.form != 0)
                st = cl_cli_error("--certify works in the model's first form only", a.form);
            else if (!certify || !(st = cl_cli_certify_open(&c, &a, cs.sys)))
                st = run_generic(an, &cs, which, a.form != NULL, (cl_prec_t)a.bits, json, certify ? &c : NULL);
            cl_cmd_close_system(&cs);
        }
        cl_cli_certify_free(&c);
    }
    cl_cmd_args_free(&a);
    return st;
}

static int cmd_equilibria(int argc, char **argv) { return run_analysis(&equilibria, argc, argv); }
static int cmd_stability(int argc, char **argv) { return run_analysis(&stability, argc, argv); }

static const cl_command equilibria_command = {"equilibria", "Jacobian eigenvalues at a system's equilibria", cmd_equilibria};
CL_COMMAND_REGISTER(equilibria_command)
static const cl_command stability_command = {"stability", "Energy-Casimir stability verdict at a system's equilibrium", cmd_stability};
CL_COMMAND_REGISTER(stability_command)

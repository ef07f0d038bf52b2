/*
 * The generic equilibria and stability tools of the command line
 * (`chartless equilibria|stability --system NAME` for a system whose
 * descriptor has an `equilibrium` hook but no tool of its own): the
 * linearization on the tangent space of the state manifold and the
 * Energy–Casimir test, both from the descriptor's hooks only (equilibrium,
 * rhs, invariants, constraints, casimirs), so that a named system and a
 * model file get them alike.
 *
 * Derivatives come from src/deriv, which evaluates its function at an
 * internal precision above the target; a system is a fixed-precision
 * object, so the tools instantiate it at 2p + 256 bits (DERIV_PREC below),
 * above that internal precision for every p, and round its values into the
 * precision src/deriv asks for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "system.h"

/* The precision of the instance the derivatives evaluate: above the internal
 * precision max(p, p_x) + 32 + 2(3 + K) + e_x + e_f of src/deriv for a
 * Hessian, K = ⌈√(p + 8)⌉ + 4 (about p + 110 at p = 1024, p + 60 at 53). */
static cl_prec_t deriv_prec(cl_prec_t prec) { return 2 * prec + 256 < CL_PREC_MAX ? 2 * prec + 256 : CL_PREC_MAX; }

/* The bits the derivatives need above \p prec: the internal precision
   above, with e_x + e_f up to 256; they must fit under CL_PREC_MAX. */
static long deriv_margin(cl_prec_t prec) { return 32 + 2 * (3 + (long)ceil(sqrt((double)prec + 8)) + 4) + 256; }

cl_prec_t cl_system_linearize_max_bits(void)
{
    cl_prec_t p = CL_PREC_MAX;
    while (p + deriv_margin(p) > CL_PREC_MAX) p--;
    return p;
}

/* One instance at the raised precision and what the callbacks share. */
typedef struct gen_ctx {
    const cl_system *s;
    void *inst;
    int form, k;     /* the form, the equilibrium */
    size_t N;        /* state length */
    int d;           /* columns of Z */
    int ncons;       /* constraints */
    int ninv;        /* invariants */
    int scalar;      /* scalar callbacks: an invariant index, or −1 − j for constraint j */
    mpfr_ptr x0;     /* N: the equilibrium */
    mpfr_ptr Z;      /* N·d: tangent basis (linearization), NULL: ambient offsets */
    mpfr_ptr y, fy;  /* N each: the point and the field there */
    mpfr_ptr vals;   /* max(ncons, ninv) */
} gen_ctx;

static int count_constraints(const cl_system *s, void *inst, int form, size_t N)
{
    if (s->constraints) return s->constraints(inst, form, NULL, NULL);
    if (!s->unit_vectors) return 0;
    int n = s->unit_vectors(inst);
    return n > 0 && N == 6 * (size_t)n ? 2 * n : 0;
}

/* c(x) at the precision of out: the system's constraints, or those of T(S²)ⁿ. */
static int eval_constraints(const gen_ctx *g, mpfr_ptr out, mpfr_srcptr x)
{
    if (g->s->constraints) return g->s->constraints(g->inst, g->form, out, x) < 0 ? CL_EDOMAIN : CL_OK;
    size_t n = g->N / 6;
    for (size_t i = 0; i < n; i++) {
        mpfr_srcptr q = x + 3 * i, v = x + 3 * (n + i);
        mpfr_mul(out + 2 * i, q, q, MPFR_RNDN);
        mpfr_fma(out + 2 * i, q + 1, q + 1, out + 2 * i, MPFR_RNDN);
        mpfr_fma(out + 2 * i, q + 2, q + 2, out + 2 * i, MPFR_RNDN);
        mpfr_sub_ui(out + 2 * i, out + 2 * i, 1, MPFR_RNDN);
        mpfr_mul(out + 2 * i + 1, q, v, MPFR_RNDN);
        mpfr_fma(out + 2 * i + 1, q + 1, v + 1, out + 2 * i + 1, MPFR_RNDN);
        mpfr_fma(out + 2 * i + 1, q + 2, v + 2, out + 2 * i + 1, MPFR_RNDN);
    }
    return CL_OK;
}

/* y = x₀ + Z s (Z set) or x₀ + s, at the instance precision. */
static void gen_point(gen_ctx *g, mpfr_srcptr s)
{
    for (size_t i = 0; i < g->N; i++) {
        mpfr_set(g->y + i, g->x0 + i, MPFR_RNDN);
        if (!g->Z) mpfr_add(g->y + i, g->y + i, s + i, MPFR_RNDN);
        else
            for (int j = 0; j < g->d; j++) mpfr_fma(g->y + i, g->Z + (size_t)g->d * i + j, s + j, g->y + i, MPFR_RNDN);
    }
}

int cl_system_rest_field(const cl_system *s, void *inst, int k, int form, mpfr_ptr out, mpfr_srcptr x)
{
    int st = s->rhs(inst, form, out, x);
    if (st || !s->relative) return st;
    size_t N = s->dim(inst, form);
    mpfr_ptr xi = cl_rvec_new_mp(N, mpfr_get_prec(out));
    if (!xi) return CL_ENOMEM;
    st = s->relative(inst, k, form, xi, NULL, x);
    for (size_t i = 0; st > 0 && i < N; i++) mpfr_sub(out + i, out + i, xi + i, MPFR_RNDN);
    cl_rvec_free_mp(xi);
    return st < 0 ? st : CL_OK;
}

/* Zᵀ f(x₀ + Z s): the field (in the equilibrium's rest frame) in the coordinates of the tangent space. */
static int gen_tangent_field(mpfr_ptr out, mpfr_srcptr s, void *ctx)
{
    gen_ctx *g = ctx;
    gen_point(g, s);
    int st = cl_system_rest_field(g->s, g->inst, g->k, g->form, g->fy, g->y);
    if (st) return st < 0 ? st : CL_EDOMAIN;
    for (int j = 0; j < g->d; j++) {
        mpfr_set_zero(g->vals, 1);
        for (size_t i = 0; i < g->N; i++) mpfr_fma(g->vals, g->Z + (size_t)g->d * i + j, g->fy + i, g->vals, MPFR_RNDN);
        mpfr_set(out + j, g->vals, MPFR_RNDN);
    }
    return CL_OK;
}

/* The constraints at x₀ + s. */
static int gen_constraints(mpfr_ptr out, mpfr_srcptr s, void *ctx)
{
    gen_ctx *g = ctx;
    gen_point(g, s);
    int st = eval_constraints(g, g->vals, g->y);
    for (int j = 0; !st && j < g->ncons; j++) mpfr_set(out + j, g->vals + j, MPFR_RNDN);
    return st;
}

/* One scalar at x₀ + s: invariant g->scalar, or constraint −1 − g->scalar. */
static int gen_scalar(mpfr_ptr out, mpfr_srcptr s, void *ctx)
{
    gen_ctx *g = ctx;
    gen_point(g, s);
    int st = g->scalar >= 0 ? g->s->invariants(g->inst, g->form, g->vals, g->y) : eval_constraints(g, g->vals, g->y);
    if (st) return st < 0 ? st : CL_EDOMAIN;
    mpfr_set(out, g->vals + (g->scalar >= 0 ? g->scalar : -1 - g->scalar), MPFR_RNDN);
    return CL_OK;
}

static void gen_close(gen_ctx *g)
{
    if (g->inst) g->s->destroy(g->inst);
    cl_rvec_free_mp(g->x0);
    memset(g, 0, sizeof *g);
}

/* The instance at the raised precision and equilibrium k in it; Z left NULL. */
static int gen_open(gen_ctx *g, const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k,
                    char *name, size_t namelen, cl_sys_error *e)
{
    memset(g, 0, sizeof *g);
    g->s = s;
    g->form = form;
    g->k = k;
    if (!s->equilibrium) return cl_sys_error_set(e, CL_EDOMAIN, NULL, "the system declares no equilibria");
    if (prec > cl_system_linearize_max_bits())
        return cl_sys_error_set(e, CL_EPREC, NULL, "precision too high for the linearization: at most %ld bits",
                                (long)cl_system_linearize_max_bits());
    cl_prec_t P = deriv_prec(prec);
    int st = s->create(&g->inst, p, P, e);
    if (st) {
        g->inst = NULL;
        if (!e->what[0]) cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st));
        return st;
    }
    g->N = s->dim(g->inst, form);
    g->ncons = count_constraints(s, g->inst, form, g->N);
    while (s->invariant_names && s->invariant_names[g->ninv]) g->ninv++;
    size_t nv = (size_t)(g->ncons > g->ninv ? g->ncons : g->ninv) + 1;
    /* x0, y, fy, vals, then the basis Z (N²) */
    g->x0 = cl_rvec_new_mp(3 * g->N + nv + g->N * g->N, P);
    if (!g->x0) { gen_close(g); return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory"); }
    g->y = g->x0 + g->N;
    g->fy = g->y + g->N;
    g->vals = g->fy + g->N;
    const char *nm = NULL;
    st = s->equilibrium(g->inst, k, form, g->x0, &nm);
    if (st) { gen_close(g); return st == CL_EDOMAIN ? CL_EDOMAIN : cl_sys_error_set(e, st, NULL, "%s", cl_strerror(st)); }
    if (name && namelen) snprintf(name, namelen, "%s", nm ? nm : "equilibrium"); /* nm lives in the instance */
    /* an equilibrium of the field (in its rest frame) at these parameters: |f(x₀)| at rounding level */
    st = cl_system_rest_field(s, g->inst, k, form, g->fy, g->x0);
    double fx = -INFINITY, sx = 0;
    for (size_t i = 0; !st && i < g->N; i++) {
        fx = fmax(fx, cl_mpfr_log2(g->fy + i));
        sx = fmax(sx, cl_mpfr_log2(g->x0 + i));
    }
    if (!st && !(fx <= sx + 32 - (double)prec)) st = CL_EDOMAIN;
    if (st) {
        gen_close(g);
        return cl_sys_error_set(e, st == CL_EDOMAIN ? CL_EPARAM : st, NULL,
                                "%s is not an equilibrium of the field at these parameters (|f| = 2^%.1f)",
                                nm ? nm : "the state", fx);
    }
    return CL_OK;
}

/* Z: an orthonormal basis of ker Dc(x₀) (the identity without constraints), d its dimension. */
static int gen_tangent_basis(gen_ctx *g, cl_prec_t prec, cl_sys_error *e)
{
    mpfr_ptr Z = g->vals + (g->ncons > g->ninv ? g->ncons : g->ninv) + 1;
    size_t N = g->N;
    if (!g->ncons) {
        for (size_t i = 0; i < N * N; i++) mpfr_set_ui(Z + i, i % (N + 1) == 0, MPFR_RNDN);
        g->d = (int)N;
        g->Z = Z;
        return CL_OK;
    }
    cl_prec_t pc = prec + 64;
    mpfr_ptr w = cl_rvec_new_mp((size_t)g->ncons * N + N + N * N, pc);
    if (!w) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    mpfr_ptr Dc = w, s0 = w + (size_t)g->ncons * N, B = s0 + N;
    for (size_t i = 0; i < N; i++) mpfr_set_zero(s0 + i, 1);
    int st = cl_jacobian_mp(Dc, NULL, gen_constraints, g, s0, N, (size_t)g->ncons);
    int d = 0;
    if (!st) st = cl_nullspace_mp(B, &d, Dc, g->ncons, (int)N, 0);
    if (!st && d != (int)N - g->ncons) st = CL_ESINGULAR;
    if (!st) {
        for (size_t i = 0; i < N * (size_t)d; i++) mpfr_set(Z + i, B + i, MPFR_RNDN);
        g->d = d;
        g->Z = Z;
    }
    cl_rvec_free_mp(w);
    if (st == CL_ESINGULAR) return cl_sys_error_set(e, st, NULL, "the constraints are not independent at the equilibrium");
    if (st) return cl_sys_error_set(e, st, NULL, "constraints: %s", cl_strerror(st));
    return CL_OK;
}

int cl_system_linearize(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k, mpfr_ptr x,
                        mpfr_ptr A, mpfr_ptr wr, mpfr_ptr wi, int *d, char *name, size_t namelen, cl_sys_error *e)
{
    gen_ctx g;
    int st = gen_open(&g, s, p, prec, form, k, name, namelen, e);
    if (st) return st;
    for (size_t i = 0; i < g.N; i++) mpfr_set(x + i, g.x0 + i, MPFR_RNDN);
    st = gen_tangent_basis(&g, prec, e);
    if (!st) {
        mpfr_ptr s0 = cl_rvec_new_mp((size_t)g.d, prec);
        if (!s0) st = cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
        else {
            for (int j = 0; j < g.d; j++) mpfr_set_zero(s0 + j, 1);
            st = cl_jacobian_mp(A, NULL, gen_tangent_field, &g, s0, (size_t)g.d, (size_t)g.d);
            if (st) cl_sys_error_set(e, st, NULL, "Jacobian of the field: %s", cl_strerror(st));
            else if ((st = cl_eig_mp(wr, wi, A, g.d))) cl_sys_error_set(e, st, NULL, "eigenvalues: %s", cl_strerror(st));
            cl_rvec_free_mp(s0);
        }
    }
    *d = g.d;
    gen_close(&g);
    return st;
}

/* d ← a·b (n numbers). */
static void vec_dot(mpfr_ptr d, mpfr_srcptr a, mpfr_srcptr b, size_t n)
{
    mpfr_set_zero(d, 1);
    for (size_t i = 0; i < n; i++) mpfr_fma(d, a + i, b + i, d, MPFR_RNDN);
}

static void vec_norm(mpfr_ptr d, mpfr_srcptr a, size_t n)
{
    vec_dot(d, a, a, n);
    mpfr_sqrt(d, d, MPFR_RNDN);
}

/* The rows of the Energy–Casimir test: what they need and share. */
typedef struct ec_rows {
    int N, m, nsym;     /* state length, rows so far, symmetry directions */
    size_t n2;
    mpfr_ptr s0, DE, DC, HE, HC, Y, Q; /* Q: the rows so far, orthonormalized (N each) */
    int nq;
} ec_rows;

/* Gram–Schmidt of row D against Q: 1 (and D's unit remainder added to Q) when its remainder exceeds
   2^(-p/2) |D| (gradients are accurate to about 2^-p), else 0. */
static int ec_independent(ec_rows *r, mpfr_srcptr D, cl_prec_t prec)
{
    mpfr_ptr q = r->Q + (size_t)r->nq * r->N;
    mpfr_t t, n0;
    mpfr_inits2(prec, t, n0, (mpfr_ptr)0);
    cl_rvec_copy_mp(q, D, (size_t)r->N);
    vec_norm(n0, D, (size_t)r->N);
    for (int j = 0; j < r->nq; j++) {
        vec_dot(t, r->Q + (size_t)j * r->N, q, (size_t)r->N);
        mpfr_neg(t, t, MPFR_RNDN);
        for (int i = 0; i < r->N; i++) mpfr_fma(q + i, t, r->Q + (size_t)j * r->N + i, q + i, MPFR_RNDN);
    }
    vec_norm(t, q, (size_t)r->N);
    mpfr_mul_2si(n0, n0, -(long)prec / 2, MPFR_RNDN);
    int ok = mpfr_cmp(t, n0) > 0 && !mpfr_zero_p(t);
    if (ok) {
        for (int i = 0; i < r->N; i++) mpfr_div(q + i, q + i, t, MPFR_RNDN);
        r->nq++;
    }
    mpfr_clears(t, n0, (mpfr_ptr)0);
    return ok;
}

/* A conserved quantity of gradient D suits a relative equilibrium: D·Y_j within 2^(-p/2) |D| |Y_j|, and independent. */
static int ec_suits(ec_rows *r, mpfr_srcptr D, cl_prec_t prec)
{
    mpfr_t t, u;
    mpfr_inits2(prec, t, u, (mpfr_ptr)0);
    int ok = 1;
    for (int j = 0; ok && j < r->nsym; j++) {
        mpfr_srcptr y = r->Y + (size_t)j * r->N;
        vec_dot(t, D, y, (size_t)r->N);
        vec_norm(u, D, (size_t)r->N);
        mpfr_mul_2si(u, u, -(long)prec / 2, MPFR_RNDN);
        mpfr_abs(t, t, MPFR_RNDN);
        ok = mpfr_cmp(t, u) <= 0 || mpfr_zero_p(t);
        if (ok) {
            vec_norm(u, y, (size_t)r->N);
            ok = !mpfr_zero_p(u);
        }
    }
    mpfr_clears(t, u, (mpfr_ptr)0);
    return ok && ec_independent(r, D, prec);
}

/* The energy, the constraints, the conserved quantities (at a relative equilibrium those that suit it,
   their invariant indices into which), then the symmetry directions (gradient Y_j, Hessian zero). */
static int ec_derivatives(gen_ctx *g, ec_rows *r, const int *cand, int ncand, cl_prec_t prec, int *which, int *ncas)
{
    int st = CL_OK, N = r->N;
    *ncas = 0;
    for (int f = 0; f <= g->ncons + ncand && !st; f++) {
        g->scalar = f == 0 ? 0 : f <= g->ncons ? -f : cand[f - 1 - g->ncons];
        mpfr_ptr D = f ? r->DC + (size_t)r->m * N : r->DE, H = f ? r->HC + (size_t)r->m * r->n2 : r->HE;
        st = cl_gradient_mp(D, NULL, gen_scalar, g, r->s0, (size_t)N);
        if (st || (f > g->ncons && r->nsym && !ec_suits(r, D, prec))) continue;
        if (f && f <= g->ncons && r->nsym) ec_independent(r, D, prec);
        st = cl_hessian_mp(H, NULL, gen_scalar, g, r->s0, (size_t)N);
        if (f > g->ncons && which) which[*ncas] = g->scalar;
        *ncas += f > g->ncons;
        r->m += f > 0;
    }
    for (int j = 0; j < r->nsym && !st; j++, r->m++)
        for (size_t i = 0; i < (size_t)N; i++) {
            mpfr_set(r->DC + (size_t)r->m * N + i, r->Y + (size_t)j * N + i, MPFR_RNDN);
            for (int a = 0; a < N; a++) mpfr_set_zero(r->HC + (size_t)r->m * r->n2 + i * N + a, 1);
        }
    return st;
}

/* The symmetry directions of equilibrium k (the `relative` hook) into r->Y; their number, or a negative status. */
static int ec_symmetry(gen_ctx *g, ec_rows *r)
{
    if (!g->s->relative) return 0;
    mpfr_ptr Y = cl_rvec_new_mp(g->N * g->N, mpfr_get_prec(g->x0));
    if (!Y) return CL_ENOMEM;
    int n = g->s->relative(g->inst, g->k, g->form, NULL, Y, g->x0);
    for (size_t i = 0; n > 0 && i < (size_t)n * g->N; i++) mpfr_set(r->Y + i, Y + i, MPFR_RNDN);
    cl_rvec_free_mp(Y);
    return n;
}

int cl_system_energy_casimir(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k,
                             struct cl_ec_report *rep, mpfr_ptr c, mpfr_ptr Hr, mpfr_ptr eig, int *ncas, int *which,
                             cl_sys_error *e)
{
    gen_ctx g;
    int st = gen_open(&g, s, p, prec, form, k, NULL, 0, e);
    if (st) return st;
    int N = (int)g.N;
    *ncas = 0;
    if (N > CL_EC_NMAX) {
        gen_close(&g);
        return cl_sys_error_set(e, CL_EDIM, NULL, "the Energy-Casimir test takes states of at most %d numbers (this one has %d)",
                                CL_EC_NMAX, N);
    }
    if (!s->invariants || g.ninv < 1) {
        gen_close(&g);
        return cl_sys_error_set(e, CL_EDOMAIN, NULL, "the system declares no energy");
    }
    size_t n2 = (size_t)N * (size_t)N;
    /* rows: at most N independent ones, and the candidates tried on the way */
    int mmax = g.ncons + g.ninv + N;
    mpfr_ptr w = cl_rvec_new_mp((size_t)N + (size_t)(mmax + 1) * ((size_t)N + n2) + 2 * n2, prec);
    if (!w) { gen_close(&g); return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory"); }
    ec_rows r = {.N = N, .n2 = n2, .s0 = w, .DE = w + N};
    r.DC = r.DE + N, r.HE = r.DC + (size_t)mmax * N, r.HC = r.HE + n2, r.Y = r.HC + (size_t)mmax * n2, r.Q = r.Y + n2;
    for (int i = 0; i < N; i++) mpfr_set_zero(r.s0 + i, 1);
    r.nsym = ec_symmetry(&g, &r);
    const int *cand = r.nsym > 0 && s->relative_conserved ? s->relative_conserved : s->casimirs;
    int ncand = 0;
    while (cand && cand[ncand] >= 0) ncand++;
    for (int j = 0; j < ncand && r.nsym >= 0; j++)
        if (cand[j] >= g.ninv) st = cl_sys_error_set(e, CL_EPARAM, NULL, "a declared Casimir is not an invariant of the system");
    if (r.nsym < 0) st = cl_sys_error_set(e, r.nsym, NULL, "the symmetry of the equilibrium: %s", cl_strerror(r.nsym));
    else if (!st && (st = ec_derivatives(&g, &r, cand, ncand, prec, which, ncas)))
        cl_sys_error_set(e, st, NULL, "derivatives of the invariants: %s", cl_strerror(st));
    /* zero tolerance 1024 units: the Hessians are Richardson differences (src/deriv: 2^-p relative
       to max(|H|, 2^-12 |f|), then the restriction's products), not exact sweeps */
    else if ((st = cl_energy_casimir_mp(rep, c, NULL, Hr, eig, r.DE, r.DC, r.HE, r.HC, N, r.m, 1024)))
        cl_sys_error_set(e, st, NULL, "%s", st == CL_ESINGULAR ? "the gradients of the constraints and Casimirs are dependent at the equilibrium"
                                                               : cl_strerror(st));
    else if (!rep->critical)
        rep->definite = 0; /* the Hessian of E + sum c_j C_j at a point that is not critical proves nothing */
    cl_rvec_free_mp(w);
    gen_close(&g);
    return st;
}

int cl_system_spectrally_unstable(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k)
{
    void *inst = NULL;
    cl_sys_error e = {"", ""};
    if (s->create(&inst, p, prec, &e)) return 0;
    size_t N = s->dim(inst, form);
    s->destroy(inst);
    mpfr_ptr w = cl_rvec_new_mp(N * N + 3 * N, prec);
    if (!w) return 0;
    int d = 0, unstable = 0;
    mpfr_srcptr wr = w + N + N * N, wi = wr + N;
    if (!cl_system_linearize(s, p, prec, form, k, w, w + N, w + N + N * N, w + 2 * N + N * N, &d, NULL, 0, &e)) {
        double scale = 0;
        for (int i = 0; i < d; i++) scale = fmax(scale, fmax(cl_mpfr_log2(wr + i), cl_mpfr_log2(wi + i)));
        for (int i = 0; i < d; i++) unstable |= mpfr_sgn(wr + i) > 0 && cl_mpfr_log2(wr + i) > scale + (24 - (double)prec) / 2;
    }
    cl_rvec_free_mp(w);
    return unstable;
}

int cl_system_linearize_named(const char *system, const char *form, int nopt, const char *const *keys,
                              const char *const *vals, cl_prec_t prec, int k, mpfr_ptr wr, mpfr_ptr wi, int *d)
{
    const cl_system *s = cl_system_find(system);
    if (!s) return CL_EPARAM;
    int f = cl_system_form_index(s, form);
    if (f < 0) return CL_EPARAM;
    cl_params p;
    cl_sys_error e = {"", ""};
    int st = cl_params_parse(&p, s->params, nopt, keys, vals, prec, &e);
    if (st) return st;
    void *inst = NULL;
    st = s->create(&inst, &p, prec, &e);
    size_t N = st ? 0 : s->dim(inst, f);
    if (inst) s->destroy(inst);
    mpfr_ptr w = st ? NULL : cl_rvec_new_mp(N + N * N, prec);
    if (!st && !w) st = CL_ENOMEM;
    if (!st) st = cl_system_linearize(s, &p, prec, f, k, w, w + N, wr, wi, d, NULL, 0, &e);
    cl_rvec_free_mp(w);
    cl_params_free(&p);
    return st;
}

double cl_eig_match_log2(mpfr_srcptr wr, mpfr_srcptr wi, int n, mpfr_srcptr cr, mpfr_srcptr ci, int m)
{
    mpfr_t a, b, best, worst, scale;
    mpfr_inits2(mpfr_get_prec(wr), a, b, best, worst, scale, (mpfr_ptr)0);
    mpfr_set_ui(scale, 1, MPFR_RNDN);
    for (int j = 0; j < m; j++) {
        mpfr_hypot(a, cr + j, ci + j, MPFR_RNDN);
        if (mpfr_cmp(a, scale) > 0) mpfr_set(scale, a, MPFR_RNDN);
    }
    mpfr_set_zero(worst, 1);
    /* both ways: every computed value near an expected one, and every expected one near a computed one */
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < (dir ? m : n); i++) {
            mpfr_srcptr xr = dir ? cr : wr, xi = dir ? ci : wi, yr = dir ? wr : cr, yi = dir ? wi : ci;
            mpfr_set_inf(best, 1);
            for (int j = 0; j < (dir ? n : m); j++) {
                mpfr_sub(a, xr + i, yr + j, MPFR_RNDN);
                mpfr_sub(b, xi + i, yi + j, MPFR_RNDN);
                mpfr_hypot(a, a, b, MPFR_RNDN);
                if (mpfr_cmp(a, best) < 0) mpfr_set(best, a, MPFR_RNDN);
            }
            if (!mpfr_number_p(xr + i) || !mpfr_number_p(xi + i)) mpfr_set_nan(worst);
            else if (!mpfr_nan_p(worst) && mpfr_cmp(best, worst) > 0) mpfr_set(worst, best, MPFR_RNDN);
        }
    if (n != m) mpfr_set_nan(worst);
    mpfr_div(worst, worst, scale, MPFR_RNDN);
    double r = mpfr_nan_p(worst) ? NAN : cl_mpfr_log2(worst);
    mpfr_clears(a, b, best, worst, scale, (mpfr_ptr)0);
    return r;
}

/*
 * The Lagrangian equations of motion of a model in nodes
 * (cl_model_graph_lagrange()), the product engine's equations (lagr_prod.c)
 * written once as a graph. With p = ∂L/∂u,
 *   d/dt p = L_uq q̇ + L_uu u̇ + L_ut = G + F   (model_graph_kin.c),
 * so the velocity Hessian H = L_uu solves H u̇ = r, r = G + F − L_uq q̇ − L_ut.
 * A unit vector's acceleration is q̈ = w + Q_c with Q_c = −q|q̇|²/|q|² (its
 * normal part) and the multiplier of |q| = 1 removed by projection:
 * (PHP + Σ qqᵀ) w = P(r − H Q_c). Constraints c_i(q, u) = 0, linear in u
 * (a holonomic one by its rate ḣ), border the system [Lagrange–d'Alembert]:
 *   [ M   (AP)ᵀ ] [ w  ]   [ P(r − H Q_c) ]
 *   [ AP   0    ] [ −λ ] = [ −b − A Q_c   ] ,  A = ∂c/∂u, b = ∂c/∂q · q̇,
 * so that ċ = A u̇ + b = 0 (the acceleration level); the one solve node is
 * cl_expr_solve_spd() on the bordered matrix. When H is constant along the
 * motion the conditions border H itself and the Schur complement of H is
 * solved instead (schur()): only a k × k system, k the unit vectors and
 * constraints, depends on the state. The mass-matrix form H u̇ = r + Bᵀλ
 * with the rows B u̇ = β of the unit vectors and constraints, unsolved, is
 * cl_model_graph_mass() (eom --form mass).
 */
#include <stdlib.h>
#include "cl_core.h"
#include "model_graph_impl.h"

/* The nodes of one build: the velocity-sized vectors and the (nv + nc)² bordered matrix K. */
typedef struct lagr_build {
    cl_expr_dag *g;
    const cl_model *m;
    size_t nq, nv, nc, n; /* n = nv + nc, the order of K */
    int *u, *Lq, *Lu, *qd, *r, *Qc, *col, *K, *y, *z;
} lagr_build;

static int build_open(lagr_build *b, cl_expr_dag *g, const cl_model *m)
{
    size_t nq = m->nq, nv = m->nv, nc = m->ncon, n = nv + nc, big = nq > n ? nq : n;
    *b = (lagr_build){.g = g, .m = m, .nq = nq, .nv = nv, .nc = nc, .n = n};
    int *w = malloc((2 * nq + 5 * nv + big + n * n + 2 * n + 1) * sizeof *w);
    if (!w) return CL_ENOMEM;
    b->Lq = w; w += nq;
    b->qd = w; w += nq;
    b->u = w; w += nv;
    b->Lu = w; w += nv;
    b->r = w; w += nv;
    b->Qc = w; w += nv;
    b->col = w; w += big + nv;
    b->K = w; w += n * n;
    b->y = w; w += n;
    b->z = w;
    return CL_OK;
}

/* The first derivatives of node \p f by inputs lo … lo + n − 1 into out. */
static int gradient(cl_expr_dag *g, int f, long lo, size_t n, int *out)
{
    for (size_t a = 0; a < n; a++)
        if (cl_expr_diff_many(g, &f, 1, lo + (long)a, out + a)) return CL_ENOMEM;
    return CL_OK;
}

/* r = G + F − L_uq q̇ − L_ut and the velocity Hessian into the top left block of K. */
static int balance(lagr_build *b, long time)
{
    cl_expr_dag *g = b->g;
    size_t nq = b->nq, nv = b->nv, n = b->n;
    for (size_t a = 0; a < nv; a++) b->u[a] = cl_expr_input(g, (long)(nq + a));
    if (gradient(g, b->m->L, 0, nq, b->Lq) || gradient(g, b->m->L, (long)nq, nv, b->Lu)) return CL_ENOMEM;
    if (cl_model_graph_rates(g, b->m, b->u, b->qd) || cl_model_graph_terms(g, b->m, b->u, b->Lq, b->Lu, b->r)) return CL_ENOMEM;
    for (size_t c = 0; c < nq; c++) {
        if (cl_expr_diff_many(g, b->Lu, nv, (long)c, b->col)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++)
            if ((b->r[a] = cl_expr_node_sub(g, b->r[a], cl_expr_node_mul(g, b->col[a], b->qd[c]))) < 0) return CL_ENOMEM;
    }
    if (time >= 0) {
        if (cl_expr_diff_many(g, b->Lu, nv, time, b->col)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++)
            if ((b->r[a] = cl_expr_node_sub(g, b->r[a], b->col[a])) < 0) return CL_ENOMEM;
    }
    for (size_t c = 0; c < nv; c++) {
        if (cl_expr_diff_many(g, b->Lu, nv, (long)(nq + c), b->col)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++) b->K[a * n + c] = b->col[a];
    }
    return CL_OK;
}

/* Q_c = −q|q̇|²/|q|² on the S² blocks (0 elsewhere), r ← P(r − H Q_c), H ← PHP + Σ qqᵀ. */
static int unit_vectors(lagr_build *b)
{
    cl_expr_dag *g = b->g;
    size_t nv = b->nv, n = b->n;
    const cl_model *m = b->m;
    for (size_t a = 0; a < nv; a++) b->Qc[a] = cl_expr_zero(g);
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_S2) continue;
        int q[3], *u = b->u + f->v;
        for (int k = 0; k < 3; k++) q[k] = cl_expr_input(g, (long)(f->q + (size_t)k));
        int s = cl_expr_node_div(g, cl_expr_node_dot(g, u, 1, u, 1, 3), cl_expr_node_dot(g, q, 1, q, 1, 3));
        for (int k = 0; k < 3; k++)
            if ((b->Qc[f->v + (size_t)k] = cl_expr_node_neg(g, cl_expr_node_mul(g, q[k], s))) < 0) return CL_ENOMEM;
    }
    for (size_t a = 0; a < nv; a++)
        for (size_t c = 0; c < nv; c++)
            if ((b->r[a] = cl_expr_node_sub(g, b->r[a], cl_expr_node_mul(g, b->K[a * n + c], b->Qc[c]))) < 0) return CL_ENOMEM;
    if (cl_model_graph_project_blocks(g, m, b->r, 1)) return CL_ENOMEM;
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_S2) continue;
        size_t o = f->v;
        for (size_t c = 0; c < nv; c++) /* the block's rows, then its columns */
            if (cl_model_graph_project3(g, b->K + o * n + c, n, f->q)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++)
            if (cl_model_graph_project3(g, b->K + a * n + o, 1, f->q)) return CL_ENOMEM;
        for (size_t a = 0; a < 3; a++)
            for (size_t c = 0; c < 3; c++) {
                int qa = cl_expr_input(g, (long)(f->q + a)), qc = cl_expr_input(g, (long)(f->q + c));
                int *e = b->K + (o + a) * n + o + c;
                if ((*e = cl_expr_node_add(g, *e, cl_expr_node_mul(g, qa, qc))) < 0) return CL_ENOMEM;
            }
    }
    return CL_OK;
}

/* Constraint i's row ∂c_i/∂u into Ai (nv nodes) and the rest of its rate into *rhs:
   −∂c_i/∂q q̇ − ∂c_i/∂t, what the accelerations' part A u̇ must equal. */
static int constraint_row(lagr_build *b, size_t i, int *Ai, int *rhs)
{
    cl_expr_dag *g = b->g;
    const cl_model *m = b->m;
    int *A = b->col;
    *rhs = cl_expr_zero(g);
    if (gradient(g, m->con[i], (long)b->nq, b->nv, Ai) || gradient(g, m->con[i], 0, b->nq, A)) return CL_ENOMEM;
    for (size_t c = 0; c < b->nq; c++) *rhs = cl_expr_node_sub(g, *rhs, cl_expr_node_mul(g, A[c], b->qd[c]));
    if (m->cont[i] >= 0) *rhs = cl_expr_node_sub(g, *rhs, m->cont[i]); /* a constraint moving with t */
    return *rhs < 0 ? CL_ENOMEM : CL_OK;
}

/* The constraint rows AP of K and their right sides −b − A Q_c. */
static int constraint_rows(lagr_build *b)
{
    cl_expr_dag *g = b->g;
    size_t nv = b->nv, nc = b->nc, n = b->n;
    for (size_t i = 0; i < nc; i++) {
        int *Ai = b->K + (nv + i) * n, rhs;
        if (constraint_row(b, i, Ai, &rhs)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++) rhs = cl_expr_node_sub(g, rhs, cl_expr_node_mul(g, Ai[a], b->Qc[a]));
        if ((b->y[nv + i] = rhs) < 0 || cl_model_graph_project_blocks(g, b->m, Ai, 1)) return CL_ENOMEM;
        for (size_t a = 0; a < nv; a++) b->K[a * n + nv + i] = Ai[a];
        for (size_t j = 0; j < nc; j++) b->K[(nv + i) * n + nv + j] = cl_expr_zero(g);
    }
    return CL_OK;
}

/* 1 when no entry of the velocity Hessian depends on the state or on t (the parameters may enter). */
static int hessian_constant(const lagr_build *b, long time)
{
    size_t nn = cl_expr_dag_size(b->g), dim = b->nq + b->nv;
    char *dep = calloc(nn + 1, 1);
    if (!dep) return 0;
    for (size_t id = 0; id < nn; id++) {
        const cl_expr_node *d = cl_expr_dag_node(b->g, (int)id);
        if (d->op == CL_EXPR_INPUT) dep[id] = (d->k >= 0 && (size_t)d->k < dim) || d->k == time;
        else if (d->op != CL_EXPR_CONST) dep[id] = dep[d->a] || (d->b >= 0 && dep[d->b]);
    }
    int constant = 1;
    for (size_t a = 0; a < b->nv && constant; a++)
        for (size_t c = 0; c < b->nv; c++) constant &= !dep[b->K[a * b->n + c]];
    free(dep);
    return constant;
}

/* The rows B of the accelerations' conditions B u̇ = β: q·q̈ = −|q̇|² for each unit vector, A u̇ = −b for each constraint. */
static int border_rows(lagr_build *b, int *B, int *beta)
{
    cl_expr_dag *g = b->g;
    size_t nv = b->nv, row = 0;
    const cl_model *m = b->m;
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_S2) continue;
        int *Bi = B + row * nv, *u = b->u + f->v;
        for (size_t a = 0; a < nv; a++) Bi[a] = cl_expr_zero(g);
        for (size_t k = 0; k < 3; k++) Bi[f->v + k] = cl_expr_input(g, (long)(f->q + k));
        if ((beta[row++] = cl_expr_node_neg(g, cl_expr_node_dot(g, u, 1, u, 1, 3))) < 0) return CL_ENOMEM;
    }
    for (size_t i = 0; i < b->nc; i++, row++)
        if (constraint_row(b, i, B + row * nv, beta + row)) return CL_ENOMEM;
    return CL_OK;
}

/*
 * A velocity Hessian H constant along the motion: the unit vectors' and the
 * constraints' conditions border H itself, [H Bᵀ; B 0] [u̇; ν] = [r; β],
 * solved by the Schur complement of H (cl_expr_solve_saddle()): H⁻¹ is
 * then computed once per parameter set and only the k × k system B H⁻¹ Bᵀ
 * (k the unit vectors and constraints) depends on the state. The same
 * solution as the projected system's (its w is u̇ − Q_c, its λ the same).
 */
static int schur(lagr_build *b, int *out, int *mult)
{
    size_t nv = b->nv, k = b->nc;
    for (size_t i = 0; i < b->m->nfac; i++) k += b->m->fac[i].kind == CL_LAGR_S2;
    int *H = malloc((nv * nv + k * nv + 2 * k + 1) * sizeof *H), *B = H + nv * nv, *beta = B + k * nv, *nu = beta + k;
    if (!H) return CL_ENOMEM;
    for (size_t a = 0; a < nv; a++)
        for (size_t c = 0; c < nv; c++) H[a * nv + c] = b->K[a * b->n + c];
    int st = border_rows(b, B, beta);
    if (!st) st = cl_expr_solve_saddle(b->g, H, b->r, B, beta, nv, k, out + b->nq, nu);
    for (size_t i = 0; i < b->nc && !st; i++)
        if ((mult[i] = cl_expr_node_neg(b->g, nu[k - b->nc + i])) < 0) st = CL_ENOMEM;
    free(H);
    return st;
}

int cl_model_graph_lagrange(cl_expr_dag *g, const cl_model *m, long time, int *out, int *mult)
{
    lagr_build b;
    int st = build_open(&b, g, m);
    if (!st) st = balance(&b, time);
    if (!st && hessian_constant(&b, time)) {
        st = schur(&b, out, mult);
        for (size_t c = 0; c < b.nq && !st; c++) out[c] = b.qd[c];
        free(b.Lq);
        return st;
    }
    if (!st) st = unit_vectors(&b);
    if (!st) st = constraint_rows(&b);
    for (size_t a = 0; a < b.nv && !st; a++) b.y[a] = b.r[a];
    if (!st) st = cl_expr_solve_spd(g, b.K, b.y, b.n, b.z);
    for (size_t c = 0; c < b.nq && !st; c++) out[c] = b.qd[c];
    for (size_t a = 0; a < b.nv && !st; a++)
        if ((out[b.nq + a] = cl_expr_node_add(g, b.z[a], b.Qc[a])) < 0) st = CL_ENOMEM;
    for (size_t i = 0; i < b.nc && !st; i++)
        if ((mult[i] = cl_expr_node_neg(g, b.z[b.nv + i])) < 0) st = CL_ENOMEM;
    free(b.Lq);
    return st;
}

int cl_model_graph_mass(cl_expr_dag *g, const cl_model *m, long time, int *qd, int *M, int *F, int *B, int *beta)
{
    lagr_build b;
    int st = build_open(&b, g, m);
    if (!st) st = balance(&b, time);
    if (!st) st = border_rows(&b, B, beta);
    for (size_t c = 0; c < b.nq && !st; c++) qd[c] = b.qd[c];
    for (size_t a = 0; a < b.nv && !st; a++) {
        F[a] = b.r[a];
        for (size_t c = 0; c < b.nv; c++) M[a * b.nv + c] = b.K[a * b.n + c];
    }
    free(b.Lq);
    return st;
}

/*
 * The kinematics and the momentum balance of every factor kind in nodes
 * (model_graph_impl.h): the graph's copy of what the product engine
 * computes in numbers (lagr_prod.c). On S¹, Rᵏ and S² the configuration's
 * rate is the velocity and the balance is ∂L/∂q; on SO(3) the rate is
 * Ṙ = RΩ̂ and the balance the reduced Euler–Poincaré equations of
 * [EMB §3.4], d/dt ∂L/∂Ω = ∂L/∂Ω × Ω + τ with the torque τ of the
 * configuration dependence read off the gradient in the nine entries of R;
 * SE(3) adds ẋ = RV and the linear part d/dt ∂L/∂V = ∂L/∂V × Ω + RᵀL_x.
 */
#include <stdlib.h>
#include "cl_core.h"
#include "model_ext.h"
#include "model_graph_impl.h"

static int in(cl_expr_dag *g, size_t k) { return cl_expr_input(g, (long)k); }

/* out ← Aᵀ v */
static int mat_t_vec(cl_expr_dag *g, const int *A, const int *v, int *out)
{
    for (int i = 0; i < 3; i++)
        if ((out[i] = cl_expr_node_dot(g, A + i, 3, v, 1, 3)) < 0) return CL_ENOMEM;
    return CL_OK;
}

int cl_model_graph_cross(cl_expr_dag *g, const int *a, const int *b, int *out)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        out[i] = cl_expr_node_sub(g, cl_expr_node_mul(g, a[j], b[k]), cl_expr_node_mul(g, a[k], b[j]));
        if (out[i] < 0) return CL_ENOMEM;
    }
    return CL_OK;
}

/* v ← v + w (three nodes) */
static int add3(cl_expr_dag *g, int *v, const int *w)
{
    for (int i = 0; i < 3; i++)
        if ((v[i] = cl_expr_node_add(g, v[i], w[i])) < 0) return CL_ENOMEM;
    return CL_OK;
}

static void inputs(cl_expr_dag *g, size_t at, int n, int *id)
{
    for (int k = 0; k < n; k++) id[k] = in(g, at + (size_t)k);
}

int cl_model_graph_rates(cl_expr_dag *g, const cl_model *m, const int *u, int *qd)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_SO3 && f->kind != CL_LAGR_SE3) {
            int n = f->kind == CL_LAGR_RK ? f->k : f->kind == CL_LAGR_S2 ? 3 : 1;
            for (int k = 0; k < n; k++) qd[f->q + (size_t)k] = u[f->v + (size_t)k];
            continue;
        }
        int R[9];
        inputs(g, f->q, 9, R);
        if (cl_model_rdot_nodes(g, R, u + f->v, qd + f->q)) return CL_ENOMEM;
        if (f->kind == CL_LAGR_SE3 && cl_model_mat_vec_nodes(g, R, u + f->v + 3, qd + f->q + 9)) return CL_ENOMEM;
    }
    return CL_OK;
}

/* τ = (M − Mᵀ)^∨, M = RᵀL_R: (M₃₂ − M₂₃, M₁₃ − M₃₁, M₂₁ − M₁₂) */
static int torque(cl_expr_dag *g, const int *R, const int *LR, int *tau)
{
    static const int ij[3][2] = {{2, 1}, {0, 2}, {1, 0}};
    for (int c = 0; c < 3; c++) {
        int i = ij[c][0], j = ij[c][1];
        int mij = cl_expr_node_dot(g, R + i, 3, LR + j, 3, 3), mji = cl_expr_node_dot(g, R + j, 3, LR + i, 3, 3);
        if ((tau[c] = cl_expr_node_sub(g, mij, mji)) < 0) return CL_ENOMEM;
    }
    return CL_OK;
}

/* G of a group factor: the SO(3) part, and on SE(3) the linear one (forces apart). */
static int group_terms(cl_expr_dag *g, const cl_model_factor *f, const int *u, const int *Lq, const int *Lu, int *G)
{
    int R[9], tau[3], t[3];
    const int *W = u + f->v, *LW = Lu + f->v;
    inputs(g, f->q, 9, R);
    if (torque(g, R, Lq + f->q, tau) || cl_model_graph_cross(g, LW, W, G + f->v) || add3(g, G + f->v, tau)) return CL_ENOMEM;
    if (f->kind == CL_LAGR_SO3) return CL_OK;
    const int *V = W + 3, *LV = LW + 3;
    if (cl_model_graph_cross(g, LV, V, t) || add3(g, G + f->v, t)) return CL_ENOMEM;
    if (cl_model_graph_cross(g, LV, W, G + f->v + 3) || mat_t_vec(g, R, Lq + f->q + 9, t)) return CL_ENOMEM;
    return add3(g, G + f->v + 3, t);
}

/* G ← G + F: the forces on the velocities of factor \p f (a force in space on an SE(3) position, RᵀF). */
static int factor_forces(cl_expr_dag *g, const cl_model *m, const cl_model_factor *f, size_t nv, int *G)
{
    int R[9], F[3], t[3];
    size_t plain = f->kind == CL_LAGR_SE3 ? 3 : nv;
    for (size_t a = 0; a < plain; a++) {
        int Fa = m->force[f->v + a];
        if (Fa >= 0 && (G[f->v + a] = cl_expr_node_add(g, G[f->v + a], Fa)) < 0) return CL_ENOMEM;
    }
    if (f->kind != CL_LAGR_SE3) return CL_OK;
    int any = 0;
    for (int k = 0; k < 3; k++) {
        F[k] = m->force[f->v + 3 + (size_t)k];
        any |= F[k] >= 0;
        if (F[k] < 0) F[k] = cl_expr_zero(g);
    }
    if (!any) return CL_OK;
    inputs(g, f->q, 9, R);
    return mat_t_vec(g, R, F, t) ? CL_ENOMEM : add3(g, G + f->v + 3, t);
}

/* The number of velocities of factor \p f. */
static size_t velocities(const cl_model_factor *f)
{
    static const size_t nv[] = {[CL_LAGR_S1] = 1, [CL_LAGR_S2] = 3, [CL_LAGR_SO3] = 3, [CL_LAGR_SE3] = 6};
    return f->kind == CL_LAGR_RK ? (size_t)f->k : nv[f->kind];
}

int cl_model_graph_terms(cl_expr_dag *g, const cl_model *m, const int *u, const int *Lq, const int *Lu, int *G)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        size_t nv = velocities(f);
        if (f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3) {
            if (group_terms(g, f, u, Lq, Lu, G)) return CL_ENOMEM;
        } else
            for (size_t a = 0; a < nv; a++) G[f->v + a] = Lq[f->q + a];
        if (m->force && factor_forces(g, m, f, nv, G)) return CL_ENOMEM;
    }
    return CL_OK;
}

int cl_model_graph_project3(cl_expr_dag *g, int *v, size_t st, size_t qat)
{
    int q[3];
    inputs(g, qat, 3, q);
    int c = cl_expr_node_div(g, cl_expr_node_dot(g, q, 1, v, st, 3), cl_expr_node_dot(g, q, 1, q, 1, 3));
    for (int k = 0; k < 3; k++)
        if ((v[(size_t)k * st] = cl_expr_node_sub(g, v[(size_t)k * st], cl_expr_node_mul(g, c, q[k]))) < 0) return CL_ENOMEM;
    return CL_OK;
}

int cl_model_graph_project_blocks(cl_expr_dag *g, const cl_model *m, int *v, size_t st)
{
    for (size_t i = 0; i < m->nfac; i++)
        if (m->fac[i].kind == CL_LAGR_S2 && cl_model_graph_project3(g, v + m->fac[i].v * st, st, m->fac[i].q)) return CL_ENOMEM;
    return CL_OK;
}

/*
 * Hamilton's equations of a Hamiltonian model in nodes
 * (cl_model_graph_hamilton()), the Hamiltonian product engine's (ham_prod.c)
 * written as a graph in form p. The velocities are u = ∂H/∂p (made tangent
 * on S²: q̇ = P ∂H/∂μ [S2 (23)]), the configuration moves by the factor's
 * kinematics (q̇ = u, Ṙ = RΩ̂, ẋ = RV), and the momenta by the balance of
 * the Lagrangian engine fed with Lq = −∂H/∂q and Lu = p: ṗ = −∂H/∂q + F on
 * S¹ and Rᵏ, the Lie–Poisson equations Π̇ = Π × Ω + τ on SO(3) (and
 * Ṗ = P × Ω − Rᵀ∂H/∂x on SE(3)), and on S²
 * μ̇ = −P(∂H/∂q − F) + ∂H/∂μ × (μ × q) [S2 (23)]. No solve: the momenta
 * are the state.
 */
#include <stdlib.h>
#include "cl_core.h"
#include "model_graph_impl.h"

/* μ̇ ← μ̇ + ∂H/∂μ × (μ × q) on the S² blocks of \p pd; \p Hp the unprojected ∂H/∂p. */
static int sphere_terms(cl_expr_dag *g, const cl_model *m, const int *Hp, int *pd)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        if (f->kind != CL_LAGR_S2) continue;
        int q[3], mu[3], t[3], s[3];
        for (int k = 0; k < 3; k++) {
            q[k] = cl_expr_input(g, (long)(f->q + (size_t)k));
            mu[k] = cl_expr_input(g, (long)(m->nq + f->v + (size_t)k));
        }
        if (cl_model_graph_cross(g, mu, q, t) || cl_model_graph_cross(g, Hp + f->v, t, s)) return CL_ENOMEM;
        for (int k = 0; k < 3; k++)
            if ((pd[f->v + (size_t)k] = cl_expr_node_add(g, pd[f->v + (size_t)k], s[k])) < 0) return CL_ENOMEM;
    }
    return CL_OK;
}

/* vel[a] = u[a] for the velocities of the SO(3) and SE(3) factors (Ω, V: no output is one of them), −1 for the others (q' = u). */
static void group_velocities(const cl_model *m, const int *u, int *vel)
{
    for (size_t a = 0; a < m->nv; a++) vel[a] = -1;
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        size_t n = f->kind == CL_LAGR_SO3 ? 3 : f->kind == CL_LAGR_SE3 ? 6 : 0;
        for (size_t k = 0; k < n; k++) vel[f->v + k] = u[f->v + k];
    }
}

int cl_model_graph_hamilton(cl_expr_dag *g, const cl_model *m, long time, int *out, int *vel)
{
    (void)time; /* t enters through H and the forces only */
    size_t nq = m->nq, nv = m->nv;
    int *w = malloc((2 * nq + 3 * nv + 1) * sizeof *w), st = w ? CL_OK : CL_ENOMEM;
    int *mHq = w, *Hp = w + nq, *u = Hp + nv, *p = u + nv;
    for (size_t c = 0; c < nq && !st; c++) {
        int d = cl_expr_diff(g, m->L, (long)c);
        if ((mHq[c] = cl_expr_node_neg(g, d)) < 0) st = CL_ENOMEM;
    }
    for (size_t a = 0; a < nv && !st; a++) {
        p[a] = cl_expr_input(g, (long)(nq + a));
        if ((u[a] = Hp[a] = cl_expr_diff(g, m->L, (long)(nq + a))) < 0) st = CL_ENOMEM;
    }
    if (!st) st = cl_model_graph_project_blocks(g, m, u, 1);
    if (!st) st = cl_model_graph_rates(g, m, u, out);
    if (!st) st = cl_model_graph_terms(g, m, u, mHq, p, out + nq);
    if (!st) st = cl_model_graph_project_blocks(g, m, out + nq, 1);
    if (!st) st = sphere_terms(g, m, Hp, out + nq);
    if (!st && vel) group_velocities(m, u, vel);
    free(w);
    return st;
}

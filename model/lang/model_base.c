/*
 * What every room above model/lang/ asks of a parsed model alike
 * (model_lang.h, model_text.h): releasing it, the input of the time t and
 * whether a node depends on it, the parameters as inputs of its graph, and
 * the nodes of a rotation's rates (R' = R hat(W), x' = R V).
 */
#include <stdlib.h>
#include "model_text.h"

void cl_model_free(cl_model *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->nparam; i++) free(m->pdef[i]);
    cl_expr_dag_free(m->g);
    CL_FREE_EACH(m->pdef, m->pname, m->qname, m->flat, m->invname, m->inv, m->eqname, m->eq, m->eqv, m->eqpos, m->force,
                 m->fac, m->letname, m->let, m->conname, m->con, m->conh, m->cont, m->conpos, m->source, m->text, m);
}

long cl_model_time_input(const cl_model *m)
{
    return m->prod ? (long)(m->nq + m->nv) : (m->so3 || m->nflat) ? -1 : (long)(6 * m->n);
}

int cl_model_depends_on_time(const cl_model *m, int id)
{
    long t = cl_model_time_input(m);
    return t >= 0 && cl_expr_depends_on_input(m->g, id, t);
}

int cl_model_lookup_param(const cl_model *m, cl_expr_dag *g, const char *name, size_t len, long base, cl_expr_value *out)
{
    long i = cl_model_name_index(m->pname, m->nparam, name, len);
    if (i < 0) return -1;
    *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, base + i)}};
    return 0;
}

int cl_model_mat_vec_nodes(cl_expr_dag *g, const int *A, const int *v, int *out)
{
    for (int i = 0; i < 3; i++) {
        int s = -1;
        for (int k = 0; k < 3; k++) {
            int t = cl_expr_op(g, CL_EXPR_MUL, A[3 * i + k], v[k], 0, -1);
            s = t < 0 ? -1 : s < 0 ? t : cl_expr_op(g, CL_EXPR_ADD, s, t, 0, -1);
            if (s < 0) return -1;
        }
        out[i] = s;
    }
    return 0;
}

int cl_model_rdot_nodes(cl_expr_dag *g, const int *R, const int *w, int *out)
{
    /* (RŴ)_ij = Σ_k R_ik Ŵ_kj with Ŵ = [[0, −w3, w2], [w3, 0, −w1], [−w2, w1, 0]] */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int a = (j + 1) % 3, b = (j + 2) % 3; /* column j of Ŵ: Ŵ_aj = w_b, Ŵ_bj = −w_a */
            int t1 = cl_expr_op(g, CL_EXPR_MUL, R[3 * i + a], w[b], 0, -1);
            int t2 = cl_expr_op(g, CL_EXPR_MUL, R[3 * i + b], w[a], 0, -1);
            out[3 * i + j] = t1 < 0 || t2 < 0 ? -1 : cl_expr_op(g, CL_EXPR_SUB, t1, t2, 0, -1);
            if (out[3 * i + j] < 0) return -1;
        }
    return 0;
}

/**
 * \file sim_graph_circle.c
 * \brief The field of the named system `circle` (the planar pendulum of
 *        [EMB 3.2]) as an expression graph, for `simulate --integrator
 *        taylor`: its angle form θ'' = −(g/ℓ) sin θ and its (x, ẋ) form
 *        ẍ = ((g/ℓ) x₂ − |ẋ|²) x − (g/ℓ) e₂, the equations of
 *        papers/emb/emb_circle.c.
 */
#include <math.h>
#include <string.h>
#include "sim_graph.h"

/* The node of parameter \p name's value, written with the digits that read back to the same number. */
static int param_node(const cl_cmd_system *cs, cl_expr_dag *g, const char *name)
{
    const cl_param_value *v = cl_params_get(&cs->params, name);
    int digits = (int)ceil((double)mpfr_get_prec(v->x) * log10(2.0)) + 2;
    char buf[32000];
    int n = mpfr_snprintf(buf, sizeof buf, "%.*Re", digits, v->x);
    return n > 0 && (size_t)n < sizeof buf ? cl_expr_const(g, buf, (size_t)n, -1) : -1;
}

static int circle_field(const cl_cmd_system *cs, cl_expr_dag *g, int *out)
{
    if (strcmp(cs->sys->name, "circle") || cs->from_model) return 0;
    int gl = cl_expr_op(g, CL_EXPR_DIV, param_node(cs, g, "g"), param_node(cs, g, "l"), 0, -1);
    if (cs->dim == 2) { /* the angle form: theta, thetadot */
        int th = cl_expr_input(g, 0);
        out[0] = cl_expr_input(g, 1);
        out[1] = cl_expr_op(g, CL_EXPR_NEG, cl_expr_op(g, CL_EXPR_MUL, gl, cl_expr_op(g, CL_EXPR_SIN, th, -1, 0, -1), 0, -1),
                            -1, 0, -1);
    } else if (!strcmp(cs->sys->forms[cs->form], "xv")) {
        int x[2] = {cl_expr_input(g, 0), cl_expr_input(g, 1)}, v[2] = {cl_expr_input(g, 2), cl_expr_input(g, 3)};
        int vv = cl_expr_op(g, CL_EXPR_ADD, cl_expr_op(g, CL_EXPR_MUL, v[0], v[0], 0, -1),
                            cl_expr_op(g, CL_EXPR_MUL, v[1], v[1], 0, -1), 0, -1);
        int c = cl_expr_op(g, CL_EXPR_SUB, cl_expr_op(g, CL_EXPR_MUL, gl, x[1], 0, -1), vv, 0, -1);
        out[0] = v[0];
        out[1] = v[1];
        out[2] = cl_expr_op(g, CL_EXPR_MUL, c, x[0], 0, -1);
        out[3] = cl_expr_op(g, CL_EXPR_SUB, cl_expr_op(g, CL_EXPR_MUL, c, x[1], 0, -1), gl, 0, -1);
    } else {
        return 0;
    }
    for (size_t i = 0; i < cs->dim; i++)
        if (out[i] < 0) return CL_ENOMEM;
    return 1;
}

__attribute__((constructor)) static void register_circle(void) { cl_sim_graph_register(circle_field); }

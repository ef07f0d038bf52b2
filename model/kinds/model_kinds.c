/*
 * The kind of a parsed model (model_kinds.h), and the grammar the parser is
 * given (cl_model_kinds_grammar): the names of the factors by the model's
 * kind, the rules of Hamiltonian models and of constraints.
 */
#include "model_kinds.h"

const cl_model_kind *cl_model_kind_of(const cl_model *m)
{
    return m->ham ? &cl_model_kind_ham : m->prod ? (m->ncon ? &cl_model_kind_prod_constrained : &cl_model_kind_prod) : m->so3 ? &cl_model_kind_so3 : m->nflat ? &cl_model_kind_flat : &cl_model_kind_s2;
}

/* The names of the manifold's factors, the parameters and t, by the model's kind. */
static int kinds_lookup(cl_model *m, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    if (m->ham) return cl_model_ham_lookup(m, g, name, len, prime, out);
    if (m->prod) return cl_model_prod_lookup(m, g, name, len, prime, out);
    if (m->so3) return cl_model_so3_lookup(m, g, name, len, prime, out);
    if (m->nflat) return cl_model_flat_lookup(m, g, name, len, prime, out);
    return cl_model_s2_lookup(m, g, name, len, prime, out);
}

const cl_model_grammar cl_model_kinds_grammar = {
    .lookup = kinds_lookup,
    .ham_settle = cl_model_ham_settle,
    .ham_finish = cl_model_ham_finish,
    .constraint_settle = cl_model_constraint_settle,
};

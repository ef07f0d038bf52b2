/*
 * The names of the expression tests (tests/test_expr.c, tests/test_arb_expr.c):
 * scalars x, y (inputs 0, 1), vectors u (inputs 2..4) and u' (5..7).
 */
#ifndef CL_TEST_EXPR_NAMES_IMPL_H
#define CL_TEST_EXPR_NAMES_IMPL_H
#include "expr.h"

enum { NIN = 8 };
static int lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    (void)ctx;
    if (len != 1) return -1;
    if (!prime && (name[0] == 'x' || name[0] == 'y')) {
        *out = (cl_expr_value){.shape = 1, .id = {cl_expr_input(g, name[0] == 'x' ? 0 : 1)}};
        return 0;
    }
    if (name[0] != 'u') return -1;
    out->shape = 3;
    for (int k = 0; k < 3; k++) out->id[k] = cl_expr_input(g, (prime ? 5 : 2) + k);
    return 0;
}
#endif

/*
 * The Taylor workspace as taylor.c (expansion, step, dense output),
 * taylor_coef.c (the recurrences) and taylor_drive.c (the driver, events)
 * see it. Internal: not installed.
 */
#ifndef CL_TAYLOR_IMPL_H
#define CL_TAYLOR_IMPL_H
#include "scalar.h"
#include "taylor.h"

/* Whole powers a^m with 2 ≤ m ≤ this are products (stable where a = 0); others Miller's recurrence. */
#define CL_TAYLOR_POW_CHAIN 8

struct CL_FN(cl_taylor) {
    const cl_expr_dag *g;
    size_t n, nitems, nact;
    long tin;       /* the time's input, −1: none */
    int time_node;  /* its node, −1: none */
    int p;
    cl_prec_t prec;
    int *row;       /* node → row of coefficients (−1: not worked on); one block with the arrays below */
    int *aux;       /* node → first auxiliary row, or −1 */
    int *partner;   /* SIN/COS node → the COS/SIN node of the same argument, or −1 */
    int *items;     /* the n outputs, then the extras */
    int *act;       /* the nodes worked on at every order, in topological order */
    char *cst;      /* node → 1 when it depends on no input */
    rptr mem;       /* every scalar, one block */
    rptr c;         /* the rows, p + 1 coefficients each */
    rptr tmp, acc, acc2, ev; /* scratch; ev: 10 scalars for the event search */
    cl_prec_t *plan; /* MPFR: the precision of the coefficients of order k (taylor.c, "The precision plan") */
    double plan_lh;  /* log2 of the step the plan was made for; −∞: none (a fresh plan, P bits at every order) */
    double *rel;     /* p + 1: log2 of the largest order-k coefficient relative to its scale (the plan's measure) */
    rptr prod;      /* p + 1 scalars: the terms of a convolution, summed once (MPFR) */
    rptr *prodp;    /* MPFR: pointers to them, for mpfr_sum */
    void *limb;     /* MPFR: the limbs of a fixed-point dot product (taylor_coef.c, conv_dot) */
};

/* Coefficients of node id's row. */
#define ROW(ws, id) ((ws)->c + (size_t)(ws)->row[id] * (size_t)((ws)->p + 1))
#define CL_TAYLOR_PLAN_GUARD_MUL 64
#define AUX(ws, id) ((ws)->c + (size_t)(ws)->aux[id] * (size_t)((ws)->p + 1))

/** Order k of node \p id's row from the lower orders of its arguments (taylor_coef.c): CL_OK, or the recurrence's status (CL_EDOMAIN for a node kind it has none for). */
int CL_FN(cl_taylor_coef_node)(CL_FN(cl_taylor) *ws, int id, int k);
/** The precision plan back to the working precision at every order (taylor.c): what a new workspace starts from. */
void CL_FN(cl_taylor_plan_reset)(CL_FN(cl_taylor) *ws);
/** Order k of the state: x_{i,k} = f_{i,k−1} / k (order 0 set by the caller). */
void CL_FN(cl_taylor_coef_state)(CL_FN(cl_taylor) *ws, int k);

#endif

/*
 * The Taylor workspace as taylor.c (coefficients, step, dense output) and
 * taylor_drive.c (the driver, events) both see it. Internal: not installed.
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
};

#endif

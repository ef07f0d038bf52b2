/*
 * Internal to model_ball.c and model_certify.c: the graph of a model's
 * equations on balls with the nodes the proofs evaluate (model_ball.h).
 */
#ifndef CL_MODEL_BALL_IMPL_H
#define CL_MODEL_BALL_IMPL_H
#include "model_ball.h"

/* The most symmetry directions of one equilibrium: rotations and translations of every rotation factor. */
#define CL_MODEL_BALL_MAXSYM 48

struct cl_model_ball {
    const cl_model *m;
    cl_model_eom *eom;     /* the field's graph, grown by the nodes below */
    size_t N, nin;         /* state, graph inputs */
    cl_expr_eval_arb *ev;
    arb_ptr in;            /* the graph's inputs: state, t, parameters */
    int energy;            /* node of the energy, −1 when not conserved */
    int ncons, *cons;      /* constraint nodes */
    int *point;            /* per equilibrium: N nodes of its point */
    int *rest;             /* per equilibrium: N nodes of the field in its turning frame (the field itself at rest) */
    int *nsym, *sym;       /* per equilibrium: symmetry directions, N nodes each (CL_MODEL_BALL_MAXSYM per equilibrium) */
    int *relative;         /* per equilibrium: 1 for a steady rotation */
    cl_expr_dag *pg;       /* the equilibria's points alone (nodes in the parameters), evaluated without the field */
    cl_expr_eval_arb *pev;
    int *ppoint;           /* per equilibrium: N nodes of its point in pg */
    int *zrest, *zcons;    /* per equilibrium: the rest field (N) and the constraints (ncons) written at its point */
    int conservative;      /* no force, no nonholonomic constraint, L independent of t */
    int last;              /* the last node */
    int field_last;        /* the last node the field needs */
};

/* Evaluate every node at the state balls x (order 2: with the partials for gradients); 0, CL_ENAN or CL_EDOMAIN with the message. */
int cl_model_ball_run(cl_model_ball *b, arb_srcptr x, int order, cl_sys_error *e);
/* The gradient of node id in the state (after a run of order 2), dim balls. */
void cl_model_ball_gradient(cl_model_ball *b, int id, arb_ptr grad);
/* Gradient and Hessian of node id in the state (after a run of order 2). */
void cl_model_ball_hessian(cl_model_ball *b, int id, arb_ptr grad, arb_ptr H);
/* The point of equilibrium k (dim balls, from the parameters' balls) into x; 0 or CL_EDOMAIN with the message. */
int cl_model_ball_point(cl_model_ball *b, int k, arb_ptr x, cl_sys_error *e);
/* The value of node id after a run. */
arb_srcptr cl_model_ball_value(const cl_model_ball *b, int id);
#endif

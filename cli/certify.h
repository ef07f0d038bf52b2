/*
 * `--certify` on a model file (certify.c): the model's graph on Arb balls
 * with the parameters as balls, for rhs, equilibria, stability and sweep.
 */
#ifndef CL_CLI_CERTIFY_H
#define CL_CLI_CERTIFY_H
#include <stdio.h>
#include "chartless.h"
#include "cmd_system.h"

typedef struct cl_cli_certify {
    cl_model_ball *ball;   /* the model on balls, NULL until opened */
    int nmid;              /* parameters written as balls [m +/- r], given to the system as their midpoints */
    char **mid;
    const char **orig;     /* the text each was written as */
    const cl_cmd_args *args; /* what the ball was opened from (cl_cli_certify_at() opens it again) */
    const cl_system *sys;
} cl_cli_certify;

/* Take the flag --certify out of the parameters; how many times it was given. */
int cl_cli_take_certify(cl_cmd_args *a);
/* Before the system is opened: each parameter written as a ball gets its midpoint for the system. 0 or exit status 2. */
int cl_cli_certify_prepare(cl_cli_certify *c, cl_cmd_args *a);
/* The model of s on balls at --bits, the parameters from the command line as balls; 0 or exit status 2
   (s not a model file: a field written in C or compiled cannot be enclosed). */
int cl_cli_certify_open(cl_cli_certify *c, const cl_cmd_args *a, const cl_system *s);
/* The ball opened again at \p bits (Arb's working precision set to it, every parameter enclosed again from its text):
   a proof undecided at --bits tried higher. 0, or exit status 2 with the ball at the old precision kept. */
int cl_cli_certify_at(cl_cli_certify *c, long bits);
void cl_cli_certify_free(cl_cli_certify *c);
/* The state of cs's form from f, each number a decimal (enclosed, never rounded) or a ball [m +/- r]; its midpoints
   checked as any state is. 0 or exit status 2 (message printed, nothing on stdout). */
int cl_cli_read_ball_state(const cl_cmd_system *cs, FILE *f, arb_ptr x);
/* A ball as Arb prints it, [m +/- r], with the digits of the precision. */
void cl_cli_print_ball(FILE *f, arb_srcptr x);
/* The same as a JSON string. */
void cl_cli_json_ball(FILE *f, arb_srcptr x);
#endif

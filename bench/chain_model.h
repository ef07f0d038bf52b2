/*
 * The chain pendulum of n links written as a model file (the benchmarks of
 * model fields against the S2 V chapter's, bench_model.c and
 * bench_compiled.c).
 */
#ifndef CHARTLESS_BENCH_CHAIN_MODEL_H
#define CHARTLESS_BENCH_CHAIN_MODEL_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"

/* The model text of an n-link chain with unit masses and lengths:
   L = Σ_i ½ |ẋ_i|² − g Σ_i x_i·e₃, x_i = Σ_{j≤i} q_j (models/chain2.model for n = 2). */
static inline char *chain_model(int n)
{
    size_t cap = 4096 + (size_t)n * n * 64;
    char *s = malloc(cap), *p = s;
    p += sprintf(p, "manifold ");
    for (int i = 1; i <= n; i++) p += sprintf(p, "%sq%d", i > 1 ? ", " : "", i);
    p += sprintf(p, " : S2\nparameters g = 9.81\nlagrangian 0");
    for (int i = 1; i <= n; i++) {
        p += sprintf(p, "\n  + 1/2*dot(");
        for (int r = 0; r < 2; r++) {
            for (int j = 1; j <= i; j++) p += sprintf(p, "%sq%d'", j > 1 ? " + " : "", j);
            p += sprintf(p, r == 0 ? ", " : ")");
        }
        p += sprintf(p, " - g*(");
        for (int j = 1; j <= i; j++) p += sprintf(p, "%sq%d.z", j > 1 ? " + " : "", j);
        p += sprintf(p, ")");
    }
    sprintf(p, "\n");
    return s;
}

/* The n-link chain parsed as a model; on failure its message on stdout and exit status 1 (nothing to measure). */
static inline cl_model *chain_model_parsed(int n)
{
    char *text = chain_model(n);
    cl_model *m = NULL;
    cl_sys_error e;
    int st = cl_model_parse(&m, "chain", text, strlen(text), &e);
    free(text);
    if (st) {
        printf("model: %s (%s)\n", e.what, e.arg);
        exit(1);
    }
    return m;
}

#endif

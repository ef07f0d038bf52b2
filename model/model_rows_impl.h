/*
 * What the files of the oracle's model rows share (model_rows*.c; not
 * installed): the number of random draws, the guard bits of an integration,
 * the relative gap of two vectors, and the rows of models that are systems
 * (model_rows_ext.c), which the table of model_rows.c names.
 */
#ifndef CL_MODEL_ROWS_IMPL_H
#define CL_MODEL_ROWS_IMPL_H
#include <math.h>
#include "check.h"
#include "ode.h"
#include "system.h"

/** Random states per row that draws them. */
#define CL_MODEL_ROWS_DRAWS 12

/** The precision of a field integrated by GBS at \p prec bits: its guard bits (the extrapolation amplifies the field's rounding). */
static inline cl_prec_t cl_model_rows_gbs_guarded(cl_prec_t prec) { return prec + (cl_prec_t)(1.2 * cl_ode_gbs_default_columns(prec)) + 8; }

/** 1 when the rows run their short versions (`oracle --quick`, cl_model_oracle_set_quick()). */
int cl_model_oracle_quick(void);
/** The random states of a row that draws \p full of them: a quarter (at least 1) under --quick. */
static inline int cl_model_rows_draws(int full) { return cl_model_oracle_quick() ? (full + 3) / 4 : full; }
/**
 * The trajectory rows integrate over t in [0, 1/d]: d = 4 up to 256 bits and
 * 256 above (the cost of GBS grows with the precision), 8 times more under --quick.
 */
static inline unsigned cl_model_rows_span(cl_prec_t prec) { return (prec <= 256 ? 4u : 256u) * (cl_model_oracle_quick() ? 8u : 1u); }
/** The random states of a row that draws \p full of them at \p prec bits: a quarter (at least 1) above 256 bits or under --quick. */
static inline int cl_model_rows_draws_at(int full, cl_prec_t prec) { return prec > 256 ? (full + 3) / 4 : cl_model_rows_draws(full); }
/** The span [0, 1/d] of the Taylor run of MODEL.conserve: that of --quick always (a few steps; the GBS run covers the long span). */
static inline unsigned cl_model_rows_taylor_span(cl_prec_t prec) { return (prec <= 256 ? 1u : 16u) * 8u; }

/** The current model as a system when it is not of S² factors (NULL otherwise). */
const cl_system *cl_model_oracle_system(void);

/** An instance of the current model's system at precision prec, with its parameters read at prec. */
typedef struct ext_run {
    const cl_system *s;
    cl_params p;
    void *inst;
    cl_prec_t prec;
} ext_run;

/**
 * One state's measure of a row: judge the state x of form 0 (workspace w of
 * nw·D numbers, D the largest state length, nf the number of forms) with r
 * at the working precision and rg (when the row asks for it) carrying GBS's
 * guard bits.
 */
typedef int (*ext_measure)(cl_check_result *res, ext_run *r, ext_run *rg, mpfr_srcptr x, mpfr_ptr w, size_t D, int nf, int draw);
/** A row over \p draws random states of form 0 (seed \p seed), each judged by \p measure; \p guard: rg is opened. */
int cl_model_ext_over_states(cl_check_result *res, cl_prec_t prec, uint64_t seed, int draws, size_t nw, int guard, ext_measure measure);

/* The rows of a model that is a system (model_rows_ext.c): MPFR on every rung. */
int cl_model_ext_row_forms(cl_check_result *res, cl_prec_t prec);
int cl_model_ext_row_legendre(cl_check_result *res, cl_prec_t prec);
int cl_model_ext_row_invariants(cl_check_result *res, cl_prec_t prec);
int cl_model_ext_row_conserve(cl_check_result *res, cl_prec_t prec);
/** MODEL.el of a Lagrangian model that is a system (model_rows_el.c). */
int cl_model_ext_row_el(cl_check_result *res, cl_prec_t prec);
/**
 * Over CL_MODEL_ROWS_DRAWS random states (seed \p seed), on the field of every
 * form: dI_i/dt = Σ_a ∂I_i/∂x_a f_a vanishes for the descriptor's invariants
 * \p from ≤ i < \p to, relative to Σ_a |∂I_i/∂x_a f_a| (the gradient by src/deriv).
 */
int cl_model_ext_rates_vanish(cl_check_result *res, cl_prec_t prec, uint64_t seed, size_t from, size_t to);
/* The rows of a model with constraints (model_rows_constraint.c). */
int cl_model_row_constraints(cl_check_result *res, cl_prec_t prec);
int cl_model_row_multipliers(cl_check_result *res, cl_prec_t prec);
/** MODEL.eq.NAME of declared equilibrium k, for k = 0 … 7. */
#define CL_MODEL_EXT_ROW_EQ(k) int cl_model_ext_row_eq##k(cl_check_result *res, cl_prec_t prec)
CL_MODEL_EXT_ROW_EQ(0); CL_MODEL_EXT_ROW_EQ(1); CL_MODEL_EXT_ROW_EQ(2); CL_MODEL_EXT_ROW_EQ(3);
CL_MODEL_EXT_ROW_EQ(4); CL_MODEL_EXT_ROW_EQ(5); CL_MODEL_EXT_ROW_EQ(6); CL_MODEL_EXT_ROW_EQ(7);
#undef CL_MODEL_EXT_ROW_EQ
/** MODEL.ec.NAME of declared equilibrium k, for k = 0 … 7 (model_rows_ec.c). */
#define CL_MODEL_EXT_ROW_EC(k) int cl_model_ext_row_ec##k(cl_check_result *res, cl_prec_t prec)
CL_MODEL_EXT_ROW_EC(0); CL_MODEL_EXT_ROW_EC(1); CL_MODEL_EXT_ROW_EC(2); CL_MODEL_EXT_ROW_EC(3);
CL_MODEL_EXT_ROW_EC(4); CL_MODEL_EXT_ROW_EC(5); CL_MODEL_EXT_ROW_EC(6); CL_MODEL_EXT_ROW_EC(7);
#undef CL_MODEL_EXT_ROW_EC
#endif

#ifdef CL_T
/* log2 |a − b|_max relative to max(scale, 2^−20); scale a log2 (in the kind of the file that includes this). */
static inline double rows_rel(rsrc a, rsrc b, size_t len, double scale)
{
    return CL_FN(cl_rvec_log2_maxdiff)(a, b, len) - fmax(scale, -20);
}
#endif

/*
 * What the files of the oracle's model rows share (model_rows*.c; not
 * installed), below the table of rows (model_rows.c): the current model and
 * --quick (model_rows_kit.c), the number of random draws, the guard bits of
 * an integration, the relative gap of two vectors, and the rows of models
 * that are systems (model_rows_ext.c), which the table names.
 */
#ifndef CL_MODEL_ROWS_KIT_H
#define CL_MODEL_ROWS_KIT_H
#include <math.h>
#include "check.h"
#include "ode.h"
#include "system.h"
#include "model_eom.h"
#include "model_ext.h"
#include "model_rows.h"

/** Random states per row that draws them. */
#define CL_MODEL_ROWS_DRAWS 12

/** The precision of a field integrated by GBS at \p prec bits: its guard bits (the extrapolation amplifies the field's rounding). */
static inline cl_prec_t cl_model_rows_gbs_guarded(cl_prec_t prec) { return prec + (cl_prec_t)(1.2 * cl_ode_gbs_default_columns(prec)) + 8; }

/** Make \p m (taken over, also on failure) the current model, as a system when it is not of S² factors (model_rows_kit.c). */
int cl_model_oracle_set_model(cl_model *m, cl_sys_error *e);
/** Release the current model (and its system). */
void cl_model_oracle_model_free(void);
/** 1 when the rows run their short versions (`oracle --quick`, cl_model_oracle_set_quick()). */
int cl_model_oracle_quick(void);
/** The random states of a row that draws \p full of them: a quarter (at least 1) under --quick. */
static inline int cl_model_rows_draws(int full) { return cl_model_oracle_quick() ? (full + 3) / 4 : full; }
/**
 * The trajectory rows integrate over t in [0, 1/d]: d = 4 up to 113 bits, 16
 * at 256 and 1024 above, 8 times more under --quick. Their tolerance is
 * tied to the precision, so a drift shows as well on a short span; the
 * orders of the runs fit the span (cl_model_rows_order_for_span()), which
 * makes the high rungs cheap.
 */
static inline unsigned cl_model_rows_span(cl_prec_t prec)
{
    return (prec <= 113 ? 4u : prec <= 256 ? 16u : 4096u) * (cl_model_oracle_quick() ? 8u : 1u);
}
/** The random states of a row that draws \p full of them at \p prec bits: a quarter (at least 1) above 256 bits or under --quick. */
static inline int cl_model_rows_draws_at(int full, cl_prec_t prec) { return prec > 256 ? (full + 3) / 4 : cl_model_rows_draws(full); }
/** The span [0, 1/d] of the Taylor run of MODEL.conserve, under --quick too: d = 8 up to 113 bits, 32 at 256 and 1024 above. */
static inline unsigned cl_model_rows_taylor_span(cl_prec_t prec) { return prec <= 113 ? 8u : prec <= 256 ? 32u : 4096u; }

/**
 * The order k of a method whose one step over t in [0, 2^lspan] errs by about
 * (2^(lspan + 1)/ρ)^k relative (ρ = 2^lrho the motion's radius of
 * convergence, cl_model_taylor_radius(), with a factor 2 of margin), for a
 * tolerance 2^ltol: ceil(−ltol / (lrho − lspan − 1)), at most \p full, the
 * order the tolerance itself calls for over longer spans. \p full when the
 * span gains fewer bits per order than a Jorba–Zou step of order \p full,
 * e^−2 of ρ, does (2/ln 2 = 2.885 bits): then no single step covers it.
 */
static inline int cl_model_rows_order_for_span(double ltol, double lspan, double lrho, int full)
{
    double bits = lrho - lspan - 1;
    if (!(bits > 2 / M_LN2)) return full;
    double k = ceil(-ltol / bits);
    return k < full ? (int)k : full;
}

/** The orders of MODEL.conserve's two runs at p bits, fitted to their spans (cl_model_rows_orders_for()). */
typedef struct cl_model_rows_orders {
    int columns; /**< GBS's columns (its order 2 columns) */
    int taylor;  /**< the Taylor run's order */
    double lrho; /**< log2 of the motion's radius of convergence (−∞: unknown, the tolerance's own orders) */
} cl_model_rows_orders;

/**
 * The orders of the conserve runs from the state \p x (form \p form, dim
 * numbers, then W with \p balance) at \p prec bits: the radius of convergence
 * from the model's graph (cl_model_taylor_radius()), then
 * cl_model_rows_order_for_span() over each run's span for the tolerance
 * 2^(12−p), capped by the tolerance's own orders (GBS's default columns,
 * cl_taylor_order_for_tol()), which a model without a graph in \p form
 * (or whose expansion fails at x: the runs then report it) keeps. Returns
 * 0 or CL_ENOMEM.
 */
int cl_model_rows_orders_for(cl_model_rows_orders *o, const cl_model *m, const char *form, size_t dim, int balance, mpfr_srcptr x,
                             cl_prec_t prec);
/** The tolerance's own orders at \p prec bits (the double rung, a model without a graph). */
void cl_model_rows_orders_full(cl_model_rows_orders *o, cl_prec_t prec);

/** The conserve row's note on its runs into buf: GBS's columns; the Taylor run's order, span and steps (steps < 0: no Taylor run). */
static inline void cl_model_rows_orders_say(char *buf, size_t len, const cl_model_rows_orders *o, cl_prec_t prec, long steps)
{
    int k = snprintf(buf, len, " by gbs of %d columns", o->columns);
    if (steps >= 0 && k >= 0 && (size_t)k < len)
        snprintf(buf + k, len - (size_t)k, "; taylor of order %d over [0, 1/%u] in %ld step%s", o->taylor, cl_model_rows_taylor_span(prec), steps,
                 steps == 1 ? "" : "s");
}

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
 * Over \p draws random states (seed \p seed), on the field of every
 * form: dI_i/dt = Σ_a ∂I_i/∂x_a f_a vanishes for the descriptor's invariants
 * \p from ≤ i < \p to, relative to Σ_a |∂I_i/∂x_a f_a| (the gradient by src/deriv).
 */
int cl_model_ext_rates_vanish(cl_check_result *res, cl_prec_t prec, uint64_t seed, int draws, size_t from, size_t to);
/* The rows of a model with constraints (model_rows_constraint.c). */
int cl_model_row_constraints(cl_check_result *res, cl_prec_t prec);
int cl_model_row_multipliers(cl_check_result *res, cl_prec_t prec);
int cl_model_row_distribution(cl_check_result *res, cl_prec_t prec);
/* MODEL.graph: the equations of motion as a graph against the engine's field (model_rows_graph.c). */
int cl_model_row_graph(cl_check_result *res, cl_prec_t prec);
extern const cl_check cl_model_graph_row;
/** MODEL.simplify: the simplified equations against the derived ones (model_rows_simplify.c). */
int cl_model_row_simplify(cl_check_result *res, cl_prec_t prec);
/** Release the graphs MODEL.simplify keeps between rungs. */
void cl_model_row_simplify_free(void);
/** MODEL.enclose: the validated enclosure against a reference trajectory (model_rows_enclose.c). */
int cl_model_row_enclose(cl_check_result *res, cl_prec_t prec);
/** The description of MODEL.enclose for \p m (marked slow where it costs seconds), or NULL when \p m has no such row. */
const cl_check *cl_model_enclose_row(const cl_model *m);
/** Release the equations MODEL.enclose keeps between rungs. */
void cl_model_row_enclose_free(void);
/** MODEL.eq.NAME of declared equilibrium k, for k = 0 … 7. */
#define CL_MODEL_EXT_ROW_EQ(k) int cl_model_ext_row_eq##k(cl_check_result *res, cl_prec_t prec)
CL_MODEL_EXT_ROW_EQ(0); CL_MODEL_EXT_ROW_EQ(1); CL_MODEL_EXT_ROW_EQ(2); CL_MODEL_EXT_ROW_EQ(3);
CL_MODEL_EXT_ROW_EQ(4); CL_MODEL_EXT_ROW_EQ(5); CL_MODEL_EXT_ROW_EQ(6); CL_MODEL_EXT_ROW_EQ(7);
#undef CL_MODEL_EXT_ROW_EQ
/** MODEL.certify.NAME of declared equilibrium k, for k = 0 … 7 (model_rows_certify.c). */
#define CL_MODEL_ROW_CERTIFY(k) int cl_model_row_certify##k(cl_check_result *res, cl_prec_t prec)
CL_MODEL_ROW_CERTIFY(0); CL_MODEL_ROW_CERTIFY(1); CL_MODEL_ROW_CERTIFY(2); CL_MODEL_ROW_CERTIFY(3);
CL_MODEL_ROW_CERTIFY(4); CL_MODEL_ROW_CERTIFY(5); CL_MODEL_ROW_CERTIFY(6); CL_MODEL_ROW_CERTIFY(7);
#undef CL_MODEL_ROW_CERTIFY
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

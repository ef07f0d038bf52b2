/**
 * \file system.h
 * \brief Registry of the named systems the command line knows
 *        (`chartless rhs|simulate|... --system NAME`), their parameter
 *        tables and the one parser of parameter values, and the registry of
 *        reproducible figures (`chartless reproduce NAME`).
 *
 * A paper makes a system available by filling a cl_system in one of its
 * *_systems.c and calling CL_SYSTEM_REGISTER(var). The command line works in
 * MPFR at the precision the user asks for (`--bits`, default 53); states are
 * flat vectors of mpfr numbers in the order given by `state_help`.
 *
 * Every parameter is documented once, in a table of cl_param: the command
 * line scans `--key value` pairs, cl_params_parse() reads the values at the
 * working precision (of any length, never through a double) and checks them
 * against the table, and `--help` is generated from the same table.
 */
#ifndef CL_SYSTEM_H
#define CL_SYSTEM_H
#include <stddef.h>
#include <stdio.h>
#include "cl_types.h"

/* ------------------------------------------------------------ errors */

/** The exit statuses of the command line, also the outcome of a system's
    command and hooks: done, failed (the computation), usage (bad input). */
enum cl_exit { CL_EXIT_OK = 0, CL_EXIT_FAIL = 1, CL_EXIT_USAGE = 2 };

/** A message for the command line's `error: <what> (<arg>)`. */
typedef struct cl_sys_error {
    char what[400];
    char arg[200]; /**< empty: the command line names the system */
} cl_sys_error;

/** Fill \p e (\p arg may be NULL) and return \p code. */
int cl_sys_error_set(cl_sys_error *e, int code, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Read all of \p s as a whole number from \p lo to \p hi into \p v: 0, or -1 (and \p v untouched). */
int cl_parse_whole(const char *s, long lo, long hi, long *v);

/** Print \p x with the decimal digits its precision carries (the command line's numbers). */
void cl_sys_print_real(FILE *f, mpfr_srcptr x);

/* ------------------------------------------------------------ parameters */

/** What a parameter's value is. Numbers are separated by commas or white space. */
typedef enum cl_param_shape {
    CL_PARAM_NUMBER,  /**< one number */
    CL_PARAM_LIST,    /**< exactly `count` numbers */
    CL_PARAM_NLIST,   /**< n numbers, n the system's size; given without the size, its length sets n */
    CL_PARAM_ANYLIST, /**< 1 to `count` numbers; the system judges the length */
    CL_PARAM_SIZE,    /**< the size n: a whole number from `lo` to `hi` */
    CL_PARAM_WORD,    /**< a word: one of `choices` ("a|b|c"), or any when NULL */
    CL_PARAM_FLAG,    /**< no value: given or not */
} cl_param_shape;

/** A constraint every number of a parameter must meet. */
typedef enum cl_param_constraint {
    CL_PARAM_ANY = 0,
    CL_PARAM_POSITIVE,    /**< > 0 */
    CL_PARAM_NONNEGATIVE, /**< >= 0 */
    CL_PARAM_NONZERO,     /**< != 0 */
} cl_param_constraint;

/**
 * One parameter, documented once. A table is an array ended by an entry
 * whose name is NULL (CL_PARAM_END).
 */
typedef struct cl_param {
    const char *name;   /**< the option without "--", e.g. "m" */
    cl_param_shape shape;
    const char *def;    /**< default in decimal ("9.81", "0,0,1"; an n-list: one number for all n); NULL: none */
    const char *help;   /**< one line for --help */
    const char *noun;   /**< the quantity in messages ("mass" must be positive); NULL: --name */
    cl_param_constraint constraint;
    long count;         /**< LIST: how many numbers; ANYLIST: at most */
    long lo, hi;        /**< SIZE: the range */
    const char *choices; /**< WORD: "a|b|c" */
    const char *alias;  /**< another accepted name, or NULL */
    const char *metavar; /**< the value in --help ("m1,...,mn"); NULL: from the shape */
} cl_param;

#define CL_PARAM_END {.name = NULL}

/** A parameter's value after parsing. */
typedef struct cl_param_value {
    int given;        /**< on the command line; else the default (or absent: len 0, word NULL) */
    size_t len;       /**< numbers in x */
    mpfr_ptr x;       /**< the numbers at the working precision */
    long whole;       /**< SIZE: the number */
    const char *word; /**< WORD: the word; FLAG: "" when given */
} cl_param_value;

/** Parsed values of a whole table. */
typedef struct cl_params {
    const cl_param *table;
    size_t count;      /**< entries of the table */
    size_t n;          /**< the size: the SIZE parameter, else the length of the first n-list given, else its default (1 without one) */
    cl_param_value *v; /**< one per entry */
} cl_params;

/**
 * Read \p nopt options (names without "--"; values as given, NULL for a
 * flag) against \p table at precision \p prec. A name given twice, an
 * unknown name, a wrong count, a value that is not a finite number or that
 * breaks its constraint is an error: CL_EPARAM (or CL_EDIM, CL_EPARSE,
 * CL_ENAN) with the message in \p e; \p p is then empty. Clear with
 * cl_params_free().
 */
int cl_params_parse(cl_params *p, const cl_param *table, int nopt, const char *const *keys,
                    const char *const *vals, cl_prec_t prec, cl_sys_error *e);
void cl_params_free(cl_params *p);
/** The value of parameter \p name (aborts on a name not in the table: a programming error). */
const cl_param_value *cl_params_get(const cl_params *p, const char *name);
/** The numbers of parameter \p name (NULL when absent). */
mpfr_ptr cl_params_x(const cl_params *p, const char *name);
/** Entry of \p name or its alias in \p table, or NULL. */
const cl_param *cl_param_find(const cl_param *table, const char *name);
/** One line per parameter of \p table: `--name VALUE  help (default ...), > 0`. */
void cl_params_help(FILE *f, const cl_param *table);

/* ------------------------------------------------------------ systems */

/**
 * A command a system offers beyond its vector field (`chartless equilibria`,
 * `chartless stability --system NAME`): its own options and what it does.
 */
typedef struct cl_system_tool {
    const char *usage;      /**< usage lines and description, for --help */
    const cl_param *params; /**< its options (--system and --bits are the command line's) */
    /** Run at precision \p prec, results on stdout; a CL_EXIT_ status, with a message in \p e. */
    int (*run)(const cl_params *p, cl_prec_t prec, cl_sys_error *e);
} cl_system_tool;

/** A cell's verdict in a stability map (`chartless sweep`). */
enum { CL_SWEEP_UNSTABLE = -1, CL_SWEEP_UNDECIDED = 0, CL_SWEEP_STABLE = 1 };

/**
 * A stability verdict at given parameters, for maps over a grid of one or
 * two of them (`chartless sweep --system NAME --x NAME=a:b:N [--y ...]`).
 * The command line parses the user's options and the swept parameters
 * against \p params once (a swept parameter counts as given), then sets
 * the swept parameters' numbers to each cell's values and calls \p cell.
 */
typedef struct cl_system_sweep {
    const char *usage;       /**< what is tested, what the verdict and the margin mean, for --help */
    const cl_param *params;  /**< every parameter a cell depends on; its NUMBER parameters can be swept */
    /**
     * The verdict of one cell at precision \p prec into \p verdict (a
     * CL_SWEEP_ value) and its margin (a number at the working precision,
     * 0 at the boundary; the system's --help says what it measures). A
     * CL_EXIT_ status: CL_EXIT_USAGE when the parameters are not valid
     * (message in \p e), CL_EXIT_FAIL when the computation failed.
     */
    int (*cell)(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e);
    /**
     * Optional: the same with a proven verdict (`--certify`): stable or
     * unstable only when ball arithmetic proves it for the cell's
     * parameters, else undecided; the margin as \p cell gives it.
     */
    int (*cell_certified)(const cl_params *p, cl_prec_t prec, int *verdict, mpfr_ptr margin, cl_sys_error *e);
    /**
     * Optional: the closed-form boundary. With every parameter as in \p p
     * but \p name, the values of \p name at which the verdict changes:
     * up to two into \p at, their count returned (0: none at these
     * parameters or no closed form for \p name), and the boundary's name
     * for the plot's key (e.g. "(42)") in \p label.
     */
    int (*boundary)(const cl_params *p, cl_prec_t prec, const char *name, mpfr_ptr at, const char **label);
} cl_system_sweep;

/** A named system: parameters, forms, vector fields and invariants. */
typedef struct cl_system {
    const char *name;         /**< e.g. "coupled" */
    const char *summary;      /**< one line */
    const cl_param *params;   /**< its parameters; NULL: none */
    const char *params_note;  /**< optional lines before the parameters in --help (the model they enter) */
    const char *state_help;   /**< the order of the state numbers, for --help */
    const char *const *forms; /**< NULL-terminated names; forms[0] is the default */
    /** Make an instance from the parsed parameters at precision \p prec; 0 or a CL_E code with a message. */
    int (*create)(void **inst, const cl_params *p, cl_prec_t prec, cl_sys_error *e);
    void (*destroy)(void *inst);
    /** Length of a state in form \p form (index into forms). */
    size_t (*dim)(void *inst, int form);
    /**
     * Validate a state and bring it onto the manifold, in place: a unit
     * vector (or R's orthogonality) within 2^-40 of its constraint is
     * normalised at the working precision and a velocity projected onto the
     * tangent space; beyond that, 0 is not returned but a CL_E code with a
     * message "q1 is not a unit vector (|q1| - 1 = ...)".
     */
    int (*check_state)(void *inst, int form, mpfr_ptr x, char *err, size_t errlen);
    /** dx = vector field of form \p form at x (all at the instance precision). */
    int (*rhs)(void *inst, int form, mpfr_ptr dx, mpfr_srcptr x);
    /** Invariant names, NULL-terminated (energy first), or NULL. */
    const char *const *invariant_names;
    /** out[k] = invariant k at state x of form \p form. */
    int (*invariants)(void *inst, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Optional: carry a state from form \p from to form \p to (NULL if not offered). */
    int (*convert)(void *inst, int from, mpfr_srcptr x, int to, mpfr_ptr y);
    /** Optional: a seeded random valid state of form \p form (for grading and checks). */
    int (*random_state)(void *inst, int form, mpfr_ptr x, cl_rng *g);
    /**
     * Optional: equilibrium number \p k (0, 1, ...) in form \p form, its name in
     * \p name; CL_EDOMAIN when there is no equilibrium k. The state is a zero
     * of rhs() in that form: a relative equilibrium (a steady rotation, R
     * turning) is one only in a reduced form without R (the rigid body's Pi,
     * the heavy top's PiGamma), and is offered there, or, with the
     * `relative` hook below, a zero of rhs() minus the frame's field. `chartless equilibria`,
     * `stability` and `sweep` take every system with this hook (their generic
     * tools, system/equilibria.c and cli/sweep_generic.c).
     */
    int (*equilibrium)(void *inst, int k, int form, mpfr_ptr x, const char **name);
    /**
     * Optional: the name of state component \p i in form \p form, e.g. "pi2.y",
     * written to \p buf (used by the grader's per-component report).
     */
    void (*component_name)(void *inst, int form, size_t i, char *buf, size_t len);
    /**
     * Optional: the number n of unit vectors q_1..q_n in R³ leading the state,
     * followed by n vectors tangent to them (systems on (S²)ⁿ), else 0. The
     * command line then normalizes q_i and projects v_i on input, prints three
     * numbers to a line, and the grader hints at a missing projection.
     */
    int (*unit_vectors)(void *inst);
    /**
     * Optional: integrate from t = 0 to \p t1 with a Lie group method
     * ("lie-euler", "rkmk4", "cf4", "rkmk45"), x in place, calling \p out
     * after every step. Fixed step \p h (initial step for rkmk45, with
     * tolerances \p rtol, \p atol). rkmk45 takes at most \p max_steps steps,
     * accepted and rejected (≤ 0: no limit), and returns CL_ENOCONV when they
     * run out; the fixed-step methods take t1/h steps, which the caller
     * bounds beforehand. Returns 0 or a CL_E code, with a message in \p err.
     */
    int (*lie_simulate)(void *inst, int form, const char *method, mpfr_ptr x, mpfr_srcptr t1, mpfr_srcptr h,
                        mpfr_srcptr rtol, mpfr_srcptr atol, long max_steps,
                        int (*out)(void *ctx, mpfr_srcptr t, mpfr_srcptr x), void *ctx, char *err, size_t errlen);
    /** Optional: `chartless equilibria --system NAME`, the linearization at the equilibria. */
    const cl_system_tool *equilibria;
    /** Optional: `chartless stability --system NAME`, a nonlinear stability test. */
    const cl_system_tool *stability;
    /**
     * Optional: the m holonomic constraints c(x) = 0 that hold a state of form
     * \p form on its manifold inside R^dim. Returns m (0: the states of that
     * form fill an open set of R^dim); with \p out non-NULL writes c(x) into
     * out[0..m−1], computed at the precision of \p out (x may carry more or
     * fewer bits). Without it, a state led by n unit vectors (unit_vectors,
     * dim = 6n) has the 2n constraints |q_i|² − 1 = 0 and q_i·v_i = 0, and
     * any other state none. The generic equilibria and stability tools
     * (cl_system_linearize(), cl_system_energy_casimir()) work on the tangent
     * space these constraints define.
     */
    int (*constraints)(void *inst, int form, mpfr_ptr out, mpfr_srcptr x);
    /**
     * Optional: indices into invariant_names, ended by −1, of the smooth
     * conserved quantities (Casimirs, first integrals) that the generic
     * Energy–Casimir test combines with the energy (invariant 0); NULL: the
     * energy alone (with the constraints).
     */
    const int *casimirs;
    /**
     * Optional: what makes equilibrium k a relative equilibrium (a steady
     * rotation: R turns while the body velocities rest). At state x of form
     * \p form it writes, when the pointers are not NULL, the field of the
     * frame turning with the equilibrium into xi (dim numbers: rhs − xi
     * vanishes at the equilibrium, and the generic tools linearize rhs − xi,
     * the equations in that frame), and the directions of its symmetry at x
     * into Y (dim numbers each, at most dim of them), which the Energy–Casimir
     * test quotients out. Returns their number: 0 for an equilibrium at rest
     * (xi zero), or a negative status.
     */
    int (*relative)(void *inst, int k, int form, mpfr_ptr xi, mpfr_ptr Y, mpfr_srcptr x);
    /**
     * Optional, with `relative`: indices into invariant_names, ended by −1, of
     * the quantities the Energy–Casimir test may add to the energy at a
     * relative equilibrium: each one whose gradient there annihilates the
     * symmetry directions and is independent of the constraints' and of the
     * ones taken before it, in this order.
     */
    const int *relative_conserved;
    /**
     * Optional, for a vector field that depends on time (a model whose
     * Lagrangian uses t): set the time of the next rhs() and invariants()
     * calls. NULL: the field is autonomous.
     */
    int (*set_time)(void *inst, mpfr_srcptr t);
    /** Optional: `chartless sweep --system NAME`, stability maps over a grid of parameters. */
    const cl_system_sweep *sweep;
    /**
     * Optional: where the bodies are in space at state \p x of form \p form,
     * for the 3-D pictures of `simulate --plot`: points p_1 … p_k, three
     * numbers each, into \p out (at its precision), which the picture joins
     * by links from the origin (the masses of a chain, the centre of mass of
     * a top on its axis). Returns k, 0 when the form does not say where they
     * are; with \p out NULL only counts them.
     */
    int (*bodies)(void *inst, int form, mpfr_ptr out, mpfr_srcptr x);
    /** Optional: the names of the multipliers of the system's constraints, NULL-terminated (`rhs --multipliers`). */
    const char *const *multiplier_names;
    /** Optional: the multipliers λ at x of form \p form, one per name, into \p out. */
    int (*multipliers)(void *inst, int form, mpfr_ptr out, mpfr_srcptr x);
} cl_system;

/** `chartless equilibria` works on \p s: its own tool, or the generic
    linearization at the equilibria it declares. */
static inline int cl_system_offers_equilibria(const cl_system *s) { return s->equilibria != NULL || s->equilibrium != NULL; }
/** `chartless stability` works on \p s: its own test, or the generic
    Energy–Casimir test from its equilibria and invariants. */
static inline int cl_system_offers_stability(const cl_system *s)
{
    return s->stability != NULL || (s->equilibrium != NULL && s->invariants != NULL && s->invariant_names != NULL);
}

/** `chartless sweep` works on \p s: its own maps, or the generic map of the
    stability of the equilibria it declares (cli/sweep_generic.c). */
static inline int cl_system_offers_sweep(const cl_system *s) { return s->sweep != NULL || s->equilibrium != NULL; }

/**
 * Designated initializers of a cl_system for the hooks named after the
 * system: PREFIX_create, PREFIX_destroy, PREFIX_rhs, PREFIX_invariant_names
 * and PREFIX_invariants.
 */
#define CL_SYSTEM_CORE_HOOKS(prefix)                                                                  \
    .create = prefix##_create, .destroy = prefix##_destroy, .rhs = prefix##_rhs,                     \
    .invariant_names = prefix##_invariant_names, .invariants = prefix##_invariants
/**
 * Likewise for the state hooks: PREFIX_dim, PREFIX_check_state,
 * PREFIX_convert, PREFIX_random_state and PREFIX_component_name.
 */
#define CL_SYSTEM_STATE_HOOKS(prefix)                                                                 \
    .dim = prefix##_dim, .check_state = prefix##_check_state, .convert = prefix##_convert,           \
    .random_state = prefix##_random_state, .component_name = prefix##_component_name

void cl_system_register(const cl_system *s);

/** Registered system by name, or NULL. */
const cl_system *cl_system_find(const char *name);
size_t cl_system_count(void);
const cl_system *cl_system_get(size_t i);
/** Index of \p form in s->forms, or −1. */
int cl_system_form_index(const cl_system *s, const char *form);

#define CL_SYSTEM_REGISTER(var) \
    static void __attribute__((constructor)) cl_system_reg_##var(void) { cl_system_register(&var); }

/* ------------------------------------------------- generic equilibria (system/equilibria.c) */

struct cl_ec_report;

/**
 * \brief The linearization of a system at its equilibrium \p k in form
 *        \p form, from the descriptor's `equilibrium`, `rhs` and constraints.
 *
 * With x₀ the equilibrium, Z an orthonormal basis (N×d, cl_nullspace()) of
 * the tangent space ker Dc(x₀) of the state manifold (Dc by cl_jacobian() of
 * the constraints; Z = I when there are none), the field f is differentiated
 * along the manifold (cl_jacobian() at s = 0):
 * \f[ A = \frac{\partial}{\partial s}\, Z^T f(x_0 + Z s)\Big|_{s=0} = Z^T Df(x_0)\, Z \f]
 * which is the Jacobian of the field on \f$T_{x_0}M\f$ (Df(x₀) maps \f$T_{x_0}M\f$ into
 * itself at an equilibrium, since Dc·f = 0 on M); its eigenvalues by
 * cl_eig(). The system is instantiated at 2p + 256 bits, so that the field
 * is evaluated above the internal precision of src/deriv; A and the
 * eigenvalues are accurate to the working precision \p prec (times the
 * conditioning of the eigenproblem).
 *
 * \param x   dim numbers at \p prec: the equilibrium, rounded.
 * \param A   room for dim² numbers: A (d×d, row-major).
 * \param wr,wi room for dim numbers: the d eigenvalues, ascending real part (cl_eig()).
 * \param d   the dimension of the tangent space.
 * \param name NULL, or a buffer of \p namelen bytes that receives the
 *        equilibrium's name (copied: the hook's string lives in the instance).
 * \return 0; CL_EDOMAIN when the system has no equilibrium \p k in that form
 *         (no message); CL_EPARAM (with a message) when the field does not
 *         vanish there at these parameters (|f(x₀)| > 2^(32−p)·max(1, |x₀|));
 *         another CL_E code with a message in \p e.
 */
int cl_system_linearize(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k, mpfr_ptr x,
                        mpfr_ptr A, mpfr_ptr wr, mpfr_ptr wi, int *d, char *name, size_t namelen, cl_sys_error *e);

/** The highest precision cl_system_linearize() takes: its derivatives are
 *  evaluated some hundred bits above it, within CL_PREC_MAX (64 thousand odd). */
cl_prec_t cl_system_linearize_max_bits(void);

/**
 * 1 when the linearization at equilibrium \p k (cl_system_linearize()) has
 * an eigenvalue whose real part is above 2^((24 − p)/2)·s, s = max(1,
 * max |λ|): half the precision, since an error δ in the Jacobian moves a
 * double eigenvalue at 0 (a Jordan block of a symmetry) by up to √δ, which
 * is no instability. 0 otherwise, and when the linearization fails.
 */
int cl_system_spectrally_unstable(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k);

/**
 * cl_system_linearize() of the registered system \p system in form \p form
 * with the parameters `--keys[i] vals[i]` read at \p prec (for checks and
 * tests): the eigenvalues into \p wr, \p wi (room for the state length).
 * Returns 0, CL_EPARAM (no such system or form) or the codes of
 * cl_params_parse() and cl_system_linearize().
 */
int cl_system_linearize_named(const char *system, const char *form, int nopt, const char *const *keys,
                              const char *const *vals, cl_prec_t prec, int k, mpfr_ptr wr, mpfr_ptr wi, int *d);

/**
 * How far the eigenvalues wr + i·wi (n of them) are from the expected ones
 * cr + i·ci (m): log2 of the larger of max_i min_j |w_i − c_j| and
 * max_j min_i |w_i − c_j|, over max(1, max_j |c_j|), so
 * that every computed eigenvalue is within that of an expected one and the
 * other way round (NaN when n ≠ m or a value is not a number). Rounded at
 * the precision of wr.
 */
double cl_eig_match_log2(mpfr_srcptr wr, mpfr_srcptr wi, int n, mpfr_srcptr cr, mpfr_srcptr ci, int m);

/**
 * \brief The field of equilibrium \p k's rest frame at x: rhs() minus the
 *        frame's field of the `relative` hook (rhs() itself without the
 *        hook or at an equilibrium at rest), into \p out (dim numbers).
 * \return 0, or the status of rhs() or of the hook.
 */
int cl_system_rest_field(const cl_system *s, void *inst, int k, int form, mpfr_ptr out, mpfr_srcptr x);

/**
 * \brief The Energy–Casimir test (cl_energy_casimir()) at equilibrium \p k in
 *        form \p form: the energy (invariant 0) with the constraints and the
 *        conserved quantities the system declares (`casimirs`; at a
 *        relative equilibrium those of `relative_conserved` that suit, with
 *        the symmetry directions quotiented out), gradients and
 *        Hessians by src/deriv in the coordinates of R^dim at the working
 *        precision \p prec (dim ≤ CL_EC_NMAX).
 *
 * \param rep the verdict; \p c (room for dim), \p Hr (dim²) and \p eig (dim):
 *            multipliers (constraints first), restricted Hessian (rep->d²) and
 *            its eigenvalues, as cl_energy_casimir().
 * \param ncas the number of declared conserved quantities used, \p which
 *             (when not NULL, room for the invariants) their indices into
 *             invariant_names.
 * \return as cl_system_linearize(); CL_EDIM (with a message) beyond CL_EC_NMAX.
 */
int cl_system_energy_casimir(const cl_system *s, const cl_params *p, cl_prec_t prec, int form, int k,
                             struct cl_ec_report *rep, mpfr_ptr c, mpfr_ptr Hr, mpfr_ptr eig, int *ncas, int *which,
                             cl_sys_error *e);

/* ------------------------------------------------------------ output files */

/**
 * An output file written under a temporary name in its directory
 * (`PATH.partial-XXXXXX`) and renamed onto its path only when complete:
 * a reader never sees half a file, a failed write leaves the old file as it
 * was, and only a regular file (or nothing) is ever replaced.
 */
typedef struct cl_output {
    FILE *f;          /**< the temporary file, open for writing */
    const char *path; /**< the target */
    char tmp[4096];   /**< the temporary file, "" once renamed or removed */
    int slot;         /**< its entry in the table the signal handler cleans, −1 none */
} cl_output;

/** Remove pending temporary files on SIGINT, SIGTERM and SIGHUP (a signal the caller ignores stays ignored); cl_output_open() calls it. */
void cl_output_catch_signals(void);
/** 0 when \p path is absent or a regular file (the only thing an output may replace); else CL_EXIT_USAGE with a message. */
int cl_output_check_target(const char *path, cl_sys_error *e);
/** Open the temporary file for \p path (refused unless absent or a regular file); 0 or CL_EXIT_USAGE with a message. */
int cl_output_open(cl_output *o, const char *path, cl_sys_error *e);
/** Flush, sync and close the temporary file, keeping it; 0 or CL_EXIT_USAGE (file removed, message in \p e). */
int cl_output_close(cl_output *o, cl_sys_error *e);
/** Close (when open) and rename the temporary file onto its path; 0 or CL_EXIT_USAGE (removed, message in \p e). */
int cl_output_commit(cl_output *o, cl_sys_error *e);
/** Close and remove the temporary file (nothing when already renamed or removed). */
void cl_output_abort(cl_output *o);

/* ------------------------------------------------------------ plots */

/** A panel of a plot: \p count CSV columns from \p first (1-based; column 1 is the abscissa t) drawn against t. */
typedef struct cl_plot_panel {
    const char *ylabel; /**< the panel's label, e.g. the factor's name */
    int first, count;
} cl_plot_panel;

/** A plot of a CSV file's time series into a PNG, one panel per group of columns. */
typedef struct cl_plot_request {
    const char *png, *csv, *title; /**< file names as gnuplot reads them (no quote, backslash or newline) */
    const cl_plot_panel *panels;
    int npanels;
    int grid_columns;              /**< panels on a grid of this many columns, filled column by column (1: a stack) */
    const cl_plot_panel *strip;    /**< optional: a panel the width of the grid below it (an error, in %.1e) */
} cl_plot_request;

/**
 * Who draws: the command line installs its gnuplot driver (cli/plot.c) at
 * start; a program linked to the library alone has none, and figures are
 * then written as CSV only.
 */
typedef struct cl_plotter {
    int (*available)(void);                                       /**< 1 when it can draw here */
    int (*draw)(const cl_plot_request *r, char *err, size_t len); /**< 0, or −1 with the reason in \p err */
} cl_plotter;

void cl_plotter_install(const cl_plotter *p);
/** The installed plotter, or NULL. */
const cl_plotter *cl_plotter_installed(void);

/* ------------------------------------------------------------ figures */

/** A figure of a paper that `chartless reproduce NAME` recomputes. */
typedef struct cl_figure {
    const char *name;       /**< e.g. "fig4", prefixed by the paper */
    const char *help;       /**< what it computes and writes, for --help */
    const cl_param *params; /**< its options (--bits is the command line's) */
    int (*run)(const cl_params *p, cl_prec_t prec, cl_sys_error *e);
} cl_figure;

void cl_figure_register(const cl_figure *f);
/** Registered figure by name, or NULL. */
const cl_figure *cl_figure_find(const char *name);
size_t cl_figure_count(void);
const cl_figure *cl_figure_get(size_t i);

#define CL_FIGURE_REGISTER(var) \
    static void __attribute__((constructor)) cl_figure_reg_##var(void) { cl_figure_register(&var); }
#endif

/**
 * \file cl_student.h
 * \brief The grading interface: what a student implements for `chartless grade`.
 *
 * A course assignment asks for one vector field of a named system in one of
 * its forms, written in plain C doubles. The student implements the function
 * named `cl_student_<system>_<form>` (for example `cl_student_chain_pi` for
 * the (q, π) equations of the chain pendulum [S2 (41)–(42)]) with the
 * signature ::cl_student_fn, compiles it into a shared object
 *
 *     cc -shared -fPIC -O2 -o student.so student.c -lm
 *
 * and runs
 *
 *     chartless grade --system chain --n 2 --form pi student.so
 *
 * The grader loads and evaluates the function only in a separate process
 * (at most 512 MiB more memory, a CPU and a wall-clock limit, no files, no
 * new processes or threads, x and the parameters read-only, dx followed by
 * a guard page, stdout and stderr shown quoted in the report), at seeded
 * random states and at the system's equilibria, at the given parameters
 * and again at random unequal ones drawn from them, compares
 * every component with the reference computed at 256 bits, and says which
 * components disagree, by how much, and whether that is rounding or a real
 * error (with a hint when the difference looks like a sign flip, a factor
 * 2, or a term along some qᵢ such as a missing projection I − qqᵀ). A
 * crash, a hang, an exit, a fork or an overrun is reported by name.
 *
 * States are laid out as the command line writes them: for a system on
 * (S²)ⁿ, q₁ … qₙ followed by the n velocity-like vectors of the form (q̇,
 * ω, μ or π), three numbers each; other systems document their order in
 * `chartless rhs --system NAME --help`.
 */
#ifndef CL_STUDENT_H
#define CL_STUDENT_H

/** Parameters handed to a student's vector field. */
typedef struct cl_student_params {
    int n;            /**< number of bodies or links (chain: n ≥ 1) */
    const double *m;  /**< masses m_1..m_n */
    const double *l;  /**< lengths l_1..l_n */
    double g;         /**< gravitational acceleration */
    const double *extra; /**< other parameters, in the order the system documents */
    int nextra;       /**< how many of them */
} cl_student_params;

/**
 * A student's vector field: write dx = f(x) (both of the state's length)
 * and return 0, or a non-zero value to refuse the state.
 */
typedef int (*cl_student_fn)(double *dx, const double *x, const cl_student_params *p);

#endif

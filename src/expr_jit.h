/**
 * \file expr_jit.h
 * \brief Compiled fields (expr_jit.c): the outputs of an expression graph
 *        emitted as C (cl_expr_emit_field()), compiled by the system's C
 *        compiler into a shared object, cached, and loaded with dlopen.
 *
 * The compiler is `$CC` (split at white space) or `cc`, run as
 * `CC -O2 -shared -fPIC -ffp-contract=off -x c SOURCE -x none -o OBJECT
 * -lmpfr -lgmp -lm`. The object is cached under the hash of its source,
 * the compiler command and the MPFR version, in the folder
 * `$CHARTLESS_CACHE`, else `$XDG_CACHE_HOME/chartless`, else
 * `$HOME/.cache/chartless`, as `HASH.so`; it is written to a temporary file
 * of that folder and renamed into place (a reader never sees half a file),
 * and carries its hash (the symbol cl_jit_tag) and a checksum of its bytes
 * appended to it, so a corrupt file, a truncated one or another's file under
 * that name is found out when loaded, and compiled again.
 *
 * The compiled functions evaluate as the interpreter (expr_eval.c): in
 * double bit for bit, in MPFR the same correctly rounded calls in the same
 * order, hence bit for bit at every precision.
 */
#ifndef CL_EXPR_JIT_H
#define CL_EXPR_JIT_H
#include <stddef.h>
#include "expr.h"

/** A compiled field (opaque). */
typedef struct cl_expr_jit cl_expr_jit;
/** The MPFR runner of a compiled field at one precision (opaque). */
typedef struct cl_expr_jit_mp cl_expr_jit_mp;

/**
 * The compiled field of the \p nout outputs \p out of \p g (the inputs
 * from \p nvary on, parameters, change seldom: cl_expr_jit_mp_changed()): loaded from the
 * cache, or, when \p build is 1 and it is not cached (or the cached file is
 * corrupt), compiled and cached first. Returns CL_OK, CL_ENOMEM, or
 * CL_EUNDEFINED with the reason in \p why (one line: no C compiler, the
 * compiler failed, the cache folder cannot be written, …); \p why is empty
 * when \p build is 0 and the field is simply not cached yet.
 */
int cl_expr_jit_new(cl_expr_jit **out, const cl_expr_dag *g, const int *out_nodes, size_t nout, long nvary, int build,
                    char *why, size_t whylen);
/** Release (NULL allowed): the shared object is unloaded. */
void cl_expr_jit_free(cl_expr_jit *j);
/**
 * The outputs at the inputs \p x (x_k at x[k]), in double. Returns 0, or
 * CL_EDOMAIN when an output is not finite.
 */
int cl_expr_jit_run_d(const cl_expr_jit *j, double *out, const double *x);
/**
 * A runner at \p prec bits: the constants of \p g (the graph the field was
 * compiled from) read at that precision, and its work numbers. Returns
 * CL_OK with the runner in \p *out, or, with \p *out NULL and nothing left
 * allocated: CL_EPREC (\p prec out of range), CL_EDIM (\p g has a constant
 * the compiled field does not), CL_EPARSE or CL_ENAN (a constant cannot be
 * read), CL_ENOMEM.
 */
int cl_expr_jit_mp_new(cl_expr_jit_mp **out, const cl_expr_jit *j, const cl_expr_dag *g, cl_prec_t prec);
void cl_expr_jit_mp_free(cl_expr_jit_mp *r);
/**
 * The outputs at the inputs \p x (numbers at the runner's precision),
 * into \p out. Returns 0, or CL_EDOMAIN when a node the outputs depend on
 * leaves its domain (as the interpreter, cl_expr_eval_run(), finds it).
 */
int cl_expr_jit_run_mp(cl_expr_jit_mp *r, mpfr_ptr out, mpfr_srcptr x);
/** The inputs from nvary on change at the next cl_expr_jit_run_mp() (the nodes of those alone are computed again then). */
void cl_expr_jit_mp_changed(cl_expr_jit_mp *r);
/** How many times this process has run the C compiler (for tests). */
long cl_expr_jit_compilations(void);
/** The cache folder (see above) into \p buf; 0, or −1 when no folder can be named (no HOME). */
int cl_expr_jit_cache_dir(char *buf, size_t len);
#endif

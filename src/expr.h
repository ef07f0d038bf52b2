/**
 * \file expr.h
 * \brief The expression engine: formulas parsed once into a graph of scalar
 *        operations with shared subexpressions, evaluated in the three scalar
 *        kinds (double, MPFR, Arb balls) with exact first and second derivatives (automatic
 *        differentiation, never finite differences).
 *
 * A graph (cl_expr_dag) holds scalar nodes only: constants (decimal strings,
 * read at the working precision by the evaluator), inputs (x_k, numbered by
 * the caller) and elementary operations. Vectors of R³ and 3×3 matrices
 * exist only while parsing (cl_expr_value: three or nine node ids), so
 * dot, cross, hat and norm become scalar nodes. Nodes are hash-consed: the
 * same operation on the same arguments is one node, which is what makes a
 * subexpression written twice cost once. Nodes are numbered in creation
 * order, so every node's arguments come before it (a topological order).
 *
 * Expression syntax (cl_expr_parse):
 * \verbatim
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := ('-' | '+') unary | power
 *   power   := postfix ('^' unary)?                 right-associative; -x^2 = -(x^2)
 *   postfix := primary ('.x' | '.y' | '.z')*
 *   primary := NUMBER | NAME "'"? | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 *            | '[' expr ',' expr ',' expr ']'       a vector of R³ (three scalars), or a 3×3
 *                                                  matrix (three vectors: its rows)
 *            | 'sum' '(' NAME '=' index '..' index ',' expr ')'   the terms for NAME = LO … HI, added
 *            | NAME '[' index ']' "'"?             the name NAME followed by the index's digits
 *   index   := INT | NAME (('+' | '-') INT)?        NAME the index of an enclosing sum
 *   functions: sin cos tan exp log sqrt (scalar), atan2(y, x), dot(u, v),
 *              cross(u, v), hat(u) (the matrix S(u), S(u)v = u × v), norm(u),
 *              transpose(M) (Mᵀ of a 3×3 matrix)
 * \endverbatim
 * In a sum's body its index is a whole number, and `q[i]`, `m[i+1]` name
 * q1, m2, … for i = 1; the body is parsed once per value (at most
 * CL_EXPR_MAX_SUM_TERMS terms, sums nested at most CL_EXPR_MAX_SUM_DEPTH
 * deep, CL_EXPR_MAX_SUM_TOTAL terms in all), so a term written once in a
 * sum is still a node per value.
 * '*' multiplies scalars, a scalar and a vector or matrix, a matrix and a
 * vector or two matrices; '/' divides by a scalar; '^' takes scalars (an
 * integer literal exponent is exact repeated multiplication, any other is
 * exp(b·log a)). White space and `#` comments to the end of a line are
 * skipped. Names are resolved by the caller (cl_expr_lookup_fn).
 */
#ifndef CL_EXPR_H
#define CL_EXPR_H
#include <stddef.h>
#include "cl_types.h"

/** Operations of a node. Binary ones read a and b, unary ones a. */
enum cl_expr_op {
    CL_EXPR_CONST, /**< k: index of the decimal string */
    CL_EXPR_INPUT, /**< k: index of the input x_k */
    CL_EXPR_ADD, CL_EXPR_SUB, CL_EXPR_MUL, CL_EXPR_DIV,
    CL_EXPR_NEG,
    CL_EXPR_POWI, /**< a^k, k a whole number */
    CL_EXPR_SIN, CL_EXPR_COS, CL_EXPR_TAN, CL_EXPR_EXP, CL_EXPR_LOG, CL_EXPR_SQRT,
    CL_EXPR_ATAN2 /**< atan2(a, b) */
};

/** One scalar node. */
typedef struct cl_expr_node {
    int op;    /**< enum cl_expr_op */
    int a, b;  /**< arguments (node ids), −1 when unused */
    long k;    /**< CONST: string index; INPUT: input index; POWI: exponent */
    long pos;  /**< byte offset in the source text where the node was first written (−1: none) */
} cl_expr_node;

/** A graph of scalar nodes (opaque). */
typedef struct cl_expr_dag cl_expr_dag;

/** Largest number of nodes in one graph (documented limit of a model). */
#define CL_EXPR_MAX_NODES 1000000
/** Most terms of one sum(i = LO..HI, ...) (a documented limit of a model). */
#define CL_EXPR_MAX_SUM_TERMS 1000
/** Deepest nesting of sums. */
#define CL_EXPR_MAX_SUM_DEPTH 8
/** Most terms parsed in all the sums of one expression, nested ones counted per term. */
#define CL_EXPR_MAX_SUM_TOTAL 100000

/** A parsed value: a scalar (1 node), a vector of R³ (3) or a 3×3 matrix (9, row-major). */
typedef struct cl_expr_value {
    int shape;  /**< 1, 3 or 9 */
    int id[9];
} cl_expr_value;

/** A parse error: where (byte offset in the text) and what was expected. */
typedef struct cl_expr_error {
    long pos;
    char msg[200];
} cl_expr_error;

/**
 * Resolve \p name (\p len bytes, not terminated; \p prime: written with a
 * trailing `'`) into \p out. Returns 0, or −1 when the name is unknown
 * (the parser then reports it).
 */
typedef int (*cl_expr_lookup_fn)(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out);

/** A new empty graph into *\p out; 0, or CL_ENOMEM with *\p out NULL. */
int cl_expr_dag_new(cl_expr_dag **out);
/** Release a graph (NULL allowed). */
void cl_expr_dag_free(cl_expr_dag *g);
/** Number of nodes. */
size_t cl_expr_dag_size(const cl_expr_dag *g);
/** Node \p id. */
const cl_expr_node *cl_expr_dag_node(const cl_expr_dag *g, int id);
/** The decimal string of constant \p k. */
const char *cl_expr_dag_const(const cl_expr_dag *g, long k);
/** Largest input index referred to, plus one (0 when none). */
long cl_expr_dag_ninputs(const cl_expr_dag *g);

/**
 * The node of an operation (hash-consed: an existing equal node is
 * returned). Sums and products with the exact constants 0 and 1 are folded,
 * and the arguments of + and × are put in a canonical order. \p pos is the
 * source offset recorded on a new node. Returns the id, or −1 when out of
 * memory or beyond CL_EXPR_MAX_NODES.
 */
int cl_expr_op(cl_expr_dag *g, int op, int a, int b, long k, long pos);
/** The node of input x_k. */
int cl_expr_input(cl_expr_dag *g, long k);
/**
 * The node of a decimal constant (\p len bytes of \p s; a number in the
 * syntax of mpfr_strtofr, base 10). Returns −1 when out of memory.
 */
int cl_expr_const(cl_expr_dag *g, const char *s, size_t len, long pos);

/** The node of the exact constant 0 (the one cl_expr_op() folds with), or −1 when out of memory. */
int cl_expr_zero(cl_expr_dag *g);
/** The node of the exact constant 1 (the one cl_expr_op() folds with), or −1 when out of memory. */
int cl_expr_one(cl_expr_dag *g);
/** A copy of \p g: the same nodes under the same ids and the same constants; NULL when out of memory. */
cl_expr_dag *cl_expr_dag_copy(const cl_expr_dag *g);

/**
 * \brief The derivative ∂(node)/∂x_\p input as a node of the same graph
 *        (symbolic differentiation, expr_diff.c).
 *
 * Forward mode over the nodes \p node depends on, each differentiated once
 * (a memo per call); a node that does not depend on x_input has the
 * derivative 0, and the folding of cl_expr_op() keeps sums with 0 and
 * products with 0 and 1 out of the graph. The new node v̇ of an operation
 * φ(a, b) is \f$ \partial_a\varphi\,\dot a + \partial_b\varphi\,\dot b \f$
 * with the partials written as the evaluator computes them
 * (cl_expr_eval_tangent()), so in double the derivative node evaluates to
 * the tangent of the evaluator bit for bit. Returns the node, or −1 when
 * out of memory or beyond CL_EXPR_MAX_NODES.
 */
int cl_expr_diff(cl_expr_dag *g, int node, long input);
/**
 * The derivatives of the \p n nodes \p roots by x_\p input into \p out
 * (the same as n calls of cl_expr_diff(), but a subexpression the roots
 * share is differentiated once). Returns 0, or CL_ENOMEM (out then
 * undefined).
 */
int cl_expr_diff_many(cl_expr_dag *g, const int *roots, size_t n, long input, int *out);

/**
 * \brief The solve \f$ H z = r \f$ written in nodes: \p H (\p n × \p n node
 *        ids, row-major, symmetric positive definite; its lower triangle is
 *        read) factored \f$ H = L D L^T \f$ without pivoting, then
 *        \f$ L y = r \f$, \f$ L^T z = D^{-1} y \f$.
 *
 * \f[ D_j = H_{jj} - \sum_{k<j} L_{jk}^2 D_k ,\qquad
 *     L_{ij} = \Big(H_{ij} - \sum_{k<j} L_{ik} L_{jk} D_k\Big) / D_j \quad (i > j). \f]
 * An entry of H that is the zero node costs nothing: products and sums with
 * it are folded, so the structure of H is kept. The nodes of \p z are
 * defined where every pivot D_j is nonzero (division by zero is the
 * evaluator's domain error there): H symmetric positive definite, or a
 * saddle-point matrix \f$ \begin{pmatrix} M & A^T \\ A & 0 \end{pmatrix} \f$
 * with M positive definite first and A of full rank (its last pivots are
 * those of \f$ -A M^{-1} A^T \f$, negative), the bordered system of the
 * Lagrange–d'Alembert equations. Returns 0 or CL_ENOMEM.
 */
int cl_expr_solve_spd(cl_expr_dag *g, const int *H, const int *r, size_t n, int *z);
/**
 * cl_expr_solve_spd() for \p m right sides at once: \p r and \p z hold
 * them one after another (right side c is r[c n … c n + n)), and \p H is
 * factored once. Returns 0 or CL_ENOMEM.
 */
int cl_expr_solve_spd_many(cl_expr_dag *g, const int *H, const int *r, size_t n, size_t m, int *z);
/**
 * \brief The saddle-point system
 *        \f$ \begin{pmatrix} H & B^T \\ B & 0 \end{pmatrix}
 *        \begin{pmatrix} a \\ \nu \end{pmatrix} =
 *        \begin{pmatrix} r \\ \beta \end{pmatrix} \f$ solved in nodes
 *        by the Schur complement of \p H.
 *
 * \p H is \p n × \p n (symmetric positive definite, its lower triangle
 * read), \p B is \p k × \p n of full rank (row-major), \p r has n entries
 * and \p beta k. With \f$ W = H^{-1} B^T \f$ and \f$ S = B W \f$ (k × k,
 * positive definite), \f$ S\nu = B H^{-1} r - \beta \f$ and
 * \f$ a = H^{-1}(r - B^T\nu) \f$. \f$ H^{-1} \f$ is formed in nodes once:
 * the way when H is constant along the motion (its nodes are then computed
 * once per parameter set by the consumers that hoist them, and only the
 * k × k system depends on the state). Zero nodes of \f$ H^{-1} \f$ and of
 * B cost nothing. Returns 0 or CL_ENOMEM.
 */
int cl_expr_solve_saddle(cl_expr_dag *g, const int *H, const int *r, const int *B, const int *beta, size_t n, size_t k,
                         int *a, int *nu);
/** 1 when node \p id of \p g depends on the input x_\p k, else 0 (1 also when out of memory: the safe answer). */
int cl_expr_depends_on_input(const cl_expr_dag *g, int id, long k);
/**
 * Parse \p len bytes of \p text (offsets in errors and nodes are relative
 * to \p text plus \p base) into \p out. Returns 0, CL_EPARSE (message and
 * position in \p err) or CL_ENOMEM.
 */
int cl_expr_parse(cl_expr_dag *g, const char *text, size_t len, long base, cl_expr_lookup_fn lookup, void *ctx,
                  cl_expr_value *out, cl_expr_error *err);

/**
 * The character at byte \p at of \p text for a message: `'c'`, `U+2212 '−':
 * use ASCII '-' instead of U+2212 '−'` for a look-alike of an operator,
 * `U+XXXX '…' (the model language is ASCII)` for another code point,
 * `byte 0xNN` for a control byte or broken UTF-8, `end of expression` past
 * the end. Written into \p buf (\p n bytes; 120 hold any) or a constant.
 */
const char *cl_expr_describe_char(const char *text, size_t len, size_t at, char *buf, size_t n);
/**
 * The byte offset of the innermost '(' or '[' of \p text that is never
 * closed (comments from '#' to the end of a line skipped), with the bracket
 * it lacks in *\p missing; −1 when every one is closed.
 */
long cl_expr_unclosed_bracket(const char *text, size_t len, char *missing);

#define CL_TEMPLATE_HEADER "expr_decl.h"
#define CL_TEMPLATE_ARB
#include "cl_instantiate.h"
#endif

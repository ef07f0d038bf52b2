/*
 * The parser of model files (model.h): statements into a cl_model. The
 * shared text helpers are in model_text.c, the (S²)ⁿ kind in model_s2.c,
 * loading, freeing and the model as a system in model_load.c.
 *
 * A model file is a list of statements, one per line; a line that begins
 * with white space continues the statement above it, `#` starts a comment.
 *
 *   manifold   NAME, NAME, ... : S2        unit vectors q_i of R³ (S² factors)
 *   manifold   NAME : SO3 (W)              a rotation and its body angular velocity (model_so3.c)
 *   manifold   NAME, ... : S1 | R1 | R3    angles, numbers or vectors of R³ (model_flat.c)
 *   parameters NAME = NUMBER, ...          defaults, decimal (read at the working precision)
 *   lagrangian EXPR                        L, a scalar
 *   hamiltonian EXPR                       H instead of L, in the momenta p_x (model_ham.c)
 *   invariant  NAME = EXPR                 a quantity expected to be conserved (scalar, not depending on t)
 *   force      NAME = EXPR                 a generalized force on the factor NAME (a vector; its
 *                                          tangential part enters the equations of motion)
 *   equilibrium NAME = q1: VEC, q2: VEC, ...   a state with zero velocities (every factor once;
 *                                          VEC a vector expression in the parameters, normalized);
 *                                          `W: VEC` (and `V: VEC` on SE3) gives a rotation's body
 *                                          velocity: a relative equilibrium, a steady rotation
 *
 * In an expression (syntax in expr.h) a manifold name is the vector q_i,
 * the same name with a prime (q1') its velocity q̇_i, a parameter name its
 * value, `t` the time (a Lagrangian that uses it is time-dependent: its
 * energy is not conserved). `manifold` and `parameters` may come in any
 * order and more than once; `lagrangian` exactly once. Names are letters,
 * digits and '_', starting with a letter, at most CL_MODEL_MAX_NAME bytes,
 * all distinct, and not `t`.
 * Every error names the file, line and column and what was expected.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless_base.h"
#include "lagr_flat.h"
#include "lagr_s2.h"
#include "model_text.h"
#include "system_impl.h"

/* ------------------------------------------------------------ parsing */

typedef struct reader {
    cl_model *m;
    const char *s;
    size_t len;
    cl_sys_error *e;
    int failed;
    const cl_model_grammar *gr; /* the names and rules of the factor kinds */
} reader;


/* fail(r, pos, code, fmt, ...): record the first error of reader r at byte pos (cl_text_fail()); its code. */
#define fail(r, pos, code, ...) cl_text_fail(&(r)->failed, (r)->e, (r)->m->source, (r)->m->text, pos, code, __VA_ARGS__)

/* The statement starting at line offset \p at: its end (the start of the next line that does not begin with white space). */
static size_t statement_end(const reader *r, size_t at) { return cl_text_statement_end(r->s, r->len, at); }

static void skip_blank(const reader *r, size_t *i, size_t end) { cl_text_skip_blank(r->s, i, end); }

/* A name at *i: its length (0: none). */
static size_t name_at(const reader *r, size_t i, size_t end) { return cl_text_name(r->s, i, end); }

/* 1 when the n bytes at s name a factor's configuration or velocity. */
static int factor_name(const cl_model *m, const char *s, size_t n)
{
    for (size_t i = 0; i < m->nfac; i++)
        for (int j = 0; j < 2; j++)
            if (cl_text_name_is(m->fac[i].name[j], s, n) || cl_text_name_is(m->fac[i].vname[j], s, n)) return 1;
    return 0;
}

static int known_name(const cl_model *m, const char *s, size_t n)
{
    return factor_name(m, s, n) || cl_model_name_index(m->pname, m->nparam, s, n) >= 0 || cl_model_name_index(m->letname, m->nlet, s, n) >= 0 ||
           cl_model_name_index(m->invname, m->ninv, s, n) >= 0 || cl_model_name_index(m->eqname, m->neq, s, n) >= 0 ||
           cl_model_name_index(m->conname, m->ncon, s, n) >= 0;
}

long cl_model_param_index(const cl_model *m, const char *name)
{
    for (size_t k = 0; k < m->nparam; k++)
        if (!strcmp(m->pname[k], name)) return (long)k;
    return -1;
}

/* A new name at *i into dst (of room CL_MODEL_MAX_NAME + 1), checked; *i moves past it. */
static int new_name(reader *r, size_t *i, size_t end, char *dst, const char *what)
{
    skip_blank(r, i, end);
    size_t n = name_at(r, *i, end);
    if (!n) return fail(r, (long)*i, CL_EPARSE, "expected the name of %s", what);
    if (n > CL_MODEL_MAX_NAME) return fail(r, (long)*i, CL_EDIM, "name longer than %d bytes", CL_MODEL_MAX_NAME);
    if (n == 1 && r->s[*i] == 't') return fail(r, (long)*i, CL_EPARSE, "'t' is the time and cannot name %s", what);
    if (known_name(r->m, r->s + *i, n)) return fail(r, (long)*i, CL_EPARSE, "'%.*s' is declared twice", (int)n, r->s + *i);
    memcpy(dst, r->s + *i, n);
    dst[n] = 0;
    *i += n;
    return 0;
}

static int grow(void *pp, size_t count, size_t size)
{
    void *p = realloc(*(void **)pp, (count + 1) * size);
    if (!p) return -1;
    *(void **)pp = p;
    return 0;
}

/* Room for one more of the \p count statements of a kind allowed \p max times (\p plural: what "more than
   MAX ..." says): the array of their \p names grown by one. */
static int one_more_name(reader *r, size_t i, void *names, size_t count, size_t max, const char *plural)
{
    if (count >= max) return fail(r, (long)i, CL_EDIM, "more than %zu %s", max, plural);
    if (grow(names, count, CL_MODEL_MAX_NAME + 1)) return fail(r, (long)i, CL_ENOMEM, "out of memory");
    return 0;
}

/* `NAME =` that opens a named statement: the new name into dst as new_name(), then the '=' (\p noun: "the
   name of the NOUN" in the message when it is missing); *i moves past the '='. */
static int name_and_equals(reader *r, size_t *i, size_t end, char *dst, const char *what, const char *noun)
{
    if (new_name(r, i, end, dst, what)) return r->failed;
    skip_blank(r, i, end);
    if (*i >= end || r->s[*i] != '=') return fail(r, (long)*i, CL_EPARSE, "expected '=' after the name of the %s", noun);
    ++*i;
    return 0;
}

/* The factor kinds by the word after ':' in `manifold NAMES : WORD`. */
static const struct factor_word {
    const char *word;
    int kind, k;
    int nnames; /* names of one factor's configuration */
    int nvel;   /* names of its velocities (SO3: 1, SE3: 2; 0: the configuration's names with a prime) */
} factor_words[] = {
    {"S1", CL_LAGR_S1, 1, 1, 0},  {"R1", CL_LAGR_RK, 1, 1, 0},  {"R3", CL_LAGR_RK, 3, 1, 0},
    {"S2", CL_LAGR_S2, 3, 1, 0},  {"SO3", CL_LAGR_SO3, 0, 1, 1}, {"SE3", CL_LAGR_SE3, 0, 2, 2},
};
static const char *const default_vnames[2] = {"W", "V"}, *const ham_vnames[2] = {"Pi", "P"};

/* Names of the body velocities in parentheses after SO3 or SE3, or the defaults W (and V); *i moves past them. */
static int parse_vnames(reader *r, size_t *i, size_t end, int nvel, char (*vname)[CL_MODEL_MAX_NAME + 1])
{
    static const char *const what[2] = {"the body angular velocity", "the body linear velocity"};
    const char *const *defaults = r->m->ham ? ham_vnames : default_vnames;
    skip_blank(r, i, end);
    if (*i >= end || r->s[*i] != '(') {
        for (int j = 0; j < nvel; j++) {
            if (known_name(r->m, defaults[j], strlen(defaults[j])))
                return fail(r, (long)*i, CL_EPARSE, "'%s' (the default name of %s) is declared twice: name the velocities, as SO3 (Omega) or SE3 (Omega, V)",
                            defaults[j], what[j]);
            strcpy(vname[j], defaults[j]);
        }
        return 0;
    }
    (*i)++;
    for (int j = 0; j < nvel; j++) {
        skip_blank(r, i, end);
        if (j && (*i >= end || r->s[(*i)++] != ',')) return fail(r, (long)*i - 1, CL_EPARSE, "expected ',' and the name of %s", what[j]);
        if (new_name(r, i, end, vname[j], what[j])) return r->failed;
        if (j && !strcmp(vname[0], vname[1])) return fail(r, (long)*i - 1, CL_EPARSE, "'%s' is declared twice", vname[1]);
    }
    skip_blank(r, i, end);
    if (*i >= end || r->s[*i] != ')')
        return fail(r, (long)*i, CL_EPARSE, "expected ')' after the name%s of %s", nvel > 1 ? "s" : "", nvel > 1 ? "the body velocities" : what[0]);
    (*i)++;
    return 0;
}

/* Append the factor of kind \p w named \p names (and \p vnames), declared at \p pos. */
static int add_factor(reader *r, const struct factor_word *w, char (*names)[CL_MODEL_MAX_NAME + 1], char (*vnames)[CL_MODEL_MAX_NAME + 1], long pos)
{
    static const size_t nq[] = {[CL_LAGR_S1] = 1, [CL_LAGR_S2] = 3, [CL_LAGR_SO3] = 9, [CL_LAGR_SE3] = 12};
    static const size_t nv[] = {[CL_LAGR_S1] = 1, [CL_LAGR_S2] = 3, [CL_LAGR_SO3] = 3, [CL_LAGR_SE3] = 6};
    cl_model *m = r->m;
    size_t dq = w->kind == CL_LAGR_RK ? (size_t)w->k : nq[w->kind], dv = w->kind == CL_LAGR_RK ? (size_t)w->k : nv[w->kind];
    if (m->nfac >= CL_LAGR_PROD_MAX_FACTORS) return fail(r, pos, CL_EDIM, "more than %d factors", CL_LAGR_PROD_MAX_FACTORS);
    if (m->nq + dq > CL_LAGR_PROD_MAX_DIM) return fail(r, pos, CL_EDIM, "more than %d numbers in the configuration", CL_LAGR_PROD_MAX_DIM);
    if (grow(&m->fac, m->nfac, sizeof *m->fac)) return fail(r, pos, CL_ENOMEM, "out of memory");
    cl_model_factor *f = m->fac + m->nfac++;
    memset(f, 0, sizeof *f);
    *f = (cl_model_factor){.kind = w->kind, .k = w->k, .q = m->nq, .v = m->nv, .pos = pos};
    for (int j = 0; j < w->nnames; j++) memcpy(f->name[j], names[j], sizeof f->name[j]);
    for (int j = 0; j < w->nvel; j++) memcpy(f->vname[j], vnames[j], sizeof f->vname[j]);
    m->nq += dq;
    m->nv += dv;
    return 0;
}

/* The word after ':' at i (n bytes): its kind, or NULL with the error recorded. */
static const struct factor_word *factor_word(reader *r, size_t i, size_t n)
{
    for (size_t k = 0; k < sizeof factor_words / sizeof *factor_words; k++)
        if (cl_text_name_is(factor_words[k].word, r->s + i, n)) return factor_words + k;
    if (n >= 2 && r->s[i] == 'R' && isdigit((unsigned char)r->s[i + 1]))
        fail(r, (long)i, CL_EPARSE, "R^k factors are R1 (a number) or R3 (a vector); write R2 as two R1 factors");
    else fail(r, (long)i, CL_EPARSE, "expected the factor S1, R1, R3, S2, SO3 or SE3 after ':'");
    return NULL;
}

/* manifold NAME, ... : S1 | R1 | R3 | S2,  manifold R : SO3 (W),  manifold R, x : SE3 (W, V) */
static int parse_manifold(reader *r, size_t i, size_t end)
{
    char names[CL_LAGR_PROD_MAX_FACTORS][CL_MODEL_MAX_NAME + 1], vnames[2][CL_MODEL_MAX_NAME + 1] = {{0}};
    size_t count = 0;
    long pos = (long)i;
    for (;;) {
        if (count >= CL_LAGR_PROD_MAX_FACTORS) return fail(r, (long)i, CL_EDIM, "more than %d factors", CL_LAGR_PROD_MAX_FACTORS);
        skip_blank(r, &i, end);
        size_t at = i;
        if (new_name(r, &i, end, names[count], "a factor")) return r->failed;
        for (size_t j = 0; j < count; j++)
            if (!strcmp(names[j], names[count])) return fail(r, (long)at, CL_EPARSE, "'%s' is declared twice", names[j]);
        count++;
        skip_blank(r, &i, end);
        if (i < end && r->s[i] == ',') { i++; continue; }
        break;
    }
    if (i >= end || r->s[i] != ':') return fail(r, (long)i, CL_EPARSE, "expected ',' or ':' after the names of the manifold");
    i++;
    skip_blank(r, &i, end);
    size_t n = name_at(r, i, end);
    const struct factor_word *w = factor_word(r, i, n);
    if (!w) return r->failed;
    if (w->nnames == 2 && count != 2)
        return fail(r, (long)i, CL_EPARSE, "an SE3 factor is named by its attitude and its position: manifold R, x : SE3 (W, V)");
    if (w->nvel == 1 && count != 1) return fail(r, (long)i, CL_EPARSE, "one SO3 factor per statement: manifold R : SO3 (W)");
    i += n;
    if (w->nvel && parse_vnames(r, &i, end, w->nvel, vnames)) return r->failed;
    for (size_t k = 0; k < count; k += (size_t)w->nnames)
        if (add_factor(r, w, names + k, vnames, pos)) return r->failed;
    skip_blank(r, &i, end);
    if (i < end && r->s[i] != '#') return fail(r, (long)i, CL_EPARSE, "expected the end of the line after %s", w->word);
    return 0;
}

/*
 * Which engine runs the model, after pass 1: factors of S² alone the
 * (S²)ⁿ kind; with \p legacy, S¹ and Rᵏ factors alone the flat kind and
 * one SO(3) factor the SO(3) kind (cl_model_parse() chooses them when the
 * model uses nothing they lack); anything else the product engine.
 */
static int settle(reader *r, int legacy)
{
    cl_model *m = r->m;
    size_t count[CL_LAGR_SE3 + 1] = {0};
    if (m->ham) return r->gr->ham_settle(m, &r->failed, r->e);
    for (size_t i = 0; i < m->nfac; i++) count[m->fac[i].kind]++;
    if (count[CL_LAGR_S2] == m->nfac && !m->constrained) {
        if (m->nfac > CL_LAGR_MAX_SPHERES) return fail(r, m->fac[0].pos, CL_EDIM, "more than %d unit vectors", CL_LAGR_MAX_SPHERES);
        m->qname = calloc(m->nfac, sizeof *m->qname);
        if (!m->qname) return fail(r, 0, CL_ENOMEM, "out of memory");
        for (size_t i = 0; i < m->nfac; i++) memcpy(m->qname[i], m->fac[i].name[0], sizeof *m->qname);
        m->n = m->nfac;
    } else if (legacy && count[CL_LAGR_S1] + count[CL_LAGR_RK] == m->nfac && m->nq <= CL_LAGR_FLAT_MAX_DIM) {
        m->flat = calloc(m->nfac, sizeof *m->flat);
        if (!m->flat) return fail(r, 0, CL_ENOMEM, "out of memory");
        for (size_t i = 0; i < m->nfac; i++) {
            const cl_model_factor *f = m->fac + i;
            m->flat[i] = (cl_model_flat){.dim = f->k, .angle = f->kind == CL_LAGR_S1, .at = f->q};
            memcpy(m->flat[i].name, f->name[0], sizeof m->flat[i].name);
        }
        m->nflat = m->nfac;
        m->d = m->nq;
    } else if (legacy && count[CL_LAGR_SO3] == 1 && m->nfac == 1) {
        m->so3 = 1;
        memcpy(m->so3name[0], m->fac[0].name[0], sizeof m->so3name[0]);
        memcpy(m->so3name[1], m->fac[0].vname[0], sizeof m->so3name[1]);
    } else m->prod = 1;
    return 0;
}

/* parameters NAME = NUMBER, ... */
static int parse_parameters(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    for (;;) {
        if (one_more_name(r, i, &m->pname, m->nparam, CL_MODEL_MAX_PARAMS, "parameters")) return r->failed;
        if (grow(&m->pdef, m->nparam, sizeof *m->pdef)) return fail(r, (long)i, CL_ENOMEM, "out of memory");
        if (new_name(r, &i, end, m->pname[m->nparam], "a parameter")) return r->failed;
        skip_blank(r, &i, end);
        if (i >= end || r->s[i] != '=') return fail(r, (long)i, CL_EPARSE, "expected '=' and the default value of %s", m->pname[m->nparam]);
        i++;
        skip_blank(r, &i, end);
        size_t n = 0;
        while (i + n < end && !strchr(", \t\r\n#", r->s[i + n])) n++;
        char *def = malloc(n + 1);
        if (!def) return fail(r, (long)i, CL_ENOMEM, "out of memory");
        memcpy(def, r->s + i, n);
        def[n] = 0;
        if (!cl_text_is_number(def)) {
            free(def);
            return fail(r, (long)i, CL_EPARSE, "expected a decimal number as the default value of %s", m->pname[m->nparam]);
        }
        m->pdef[m->nparam++] = def;
        i += n;
        skip_blank(r, &i, end);
        if (i < end && r->s[i] == ',') { i++; continue; }
        if (i < end && r->s[i] != '#') return fail(r, (long)i, CL_EPARSE, "expected ',' or the end of the line after a parameter");
        return 0;
    }
}

static int lookup(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    const reader *r = ctx;
    cl_model *m = r->m;
    long k = cl_model_name_index(m->letname, m->nlet, name, len);
    if (k >= 0 && !prime) {
        *out = m->let[k];
        return 0;
    }
    if (m->defining && cl_text_name_is(m->letname[m->nlet], name, len)) m->let_self = 1;
    return r->gr->lookup(m, g, name, len, prime, out);
}

/* The names of an equilibrium's vectors: the parameters only (a state is not a function of q, q' or t). */
static int lookup_params(void *ctx, cl_expr_dag *g, const char *name, size_t len, int prime, cl_expr_value *out)
{
    const cl_model *m = ((const reader *)ctx)->m;
    if (prime || (len == 1 && name[0] == 't')) return -1;
    if (factor_name(m, name, len) || cl_model_name_index(m->letname, m->nlet, name, len) >= 0) return -1;
    return lookup(ctx, g, name, len, prime, out);
}

/* The value of the expression from i to end, of \p shape (1 or 3) nodes into \p ids; names by \p fn.
   \p note is added to a parse error's message (NULL: nothing). */
static int parse_value(reader *r, size_t i, size_t end, cl_expr_lookup_fn fn, int shape, int *ids, const char *what,
                       const char *note)
{
    cl_expr_value v;
    cl_expr_error err;
    int st = cl_expr_parse(r->m->g, r->s + i, end - i, (long)i, fn, r, &v, &err);
    if (st == CL_EPARSE) return fail(r, err.pos, CL_EPARSE, "%s%s", r->m->ham_prime ? CL_MODEL_HAM_VELOCITY : err.msg, note ? note : "");
    if (st) return fail(r, (long)i, st, "%s", cl_strerror(st));
    skip_blank(r, &i, end);
    static const char *const shapes[] = {"", "a scalar", "", "a vector", "", "", "", "", "", "a matrix"};
    if (v.shape != shape) return fail(r, (long)i, CL_EPARSE, "%s must be %s, this is %s", what, shapes[shape], shapes[v.shape]);
    for (int c = 0; c < shape; c++) ids[c] = v.id[c];
    return 0;
}

/* A scalar expression from i to end into *node. */
static int parse_scalar(reader *r, size_t i, size_t end, int *node, const char *what)
{
    return parse_value(r, i, end, lookup, 1, node, what, NULL);
}

/* A part of the configuration: its first input and shape, and those of its velocity (the force's shape). */
typedef struct config_part {
    const char *name;
    size_t at, vat;
    int shape, vshape;
} config_part;

/* The configuration part named at i (*len its bytes): 0, or −1 when the name there is none of the manifold's. */
static int config_part_at(const reader *r, size_t i, size_t end, size_t *len, config_part *p)
{
    const cl_model *m = r->m;
    *len = name_at(r, i, end);
    for (size_t k = 0; k < m->nfac; k++) {
        const cl_model_factor *f = m->fac + k;
        int rot = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3, size = f->kind == CL_LAGR_RK ? f->k : f->kind == CL_LAGR_S1 ? 1 : 3;
        for (int j = 0; j < 2 && f->name[j][0]; j++) /* no empty name: a second one only on SE(3) */
            if (cl_text_name_is(f->name[j], r->s + i, *len)) {
                *p = (config_part){.name = f->name[j], .at = f->q + 9 * (size_t)j, .vat = f->v + 3 * (size_t)j,
                                   .shape = rot && !j ? 9 : size, .vshape = size};
                return 0;
            }
    }
    return -1;
}

static int parse_invariant(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    if (one_more_name(r, i, &m->invname, m->ninv, CL_MODEL_MAX_INVARIANTS, "invariants")) return r->failed;
    if (grow(&m->inv, m->ninv, sizeof *m->inv)) return fail(r, (long)i, CL_ENOMEM, "out of memory");
    if (name_and_equals(r, &i, end, m->invname[m->ninv], "an invariant", "invariant")) return r->failed;
    if (parse_scalar(r, i, end, m->inv + m->ninv, "an invariant")) return r->failed;
    if (cl_model_depends_on_time(m, m->inv[m->ninv])) {
        skip_blank(r, &i, end);
        return fail(r, (long)i, CL_EPARSE, "the invariant %s depends on the time t (an invariant is a function of the state only)",
                    m->invname[m->ninv]);
    }
    m->ninv++;
    return 0;
}

/* End of the vector expression starting at i: the next ',' outside brackets and parentheses, or end. */
static size_t vector_end(const reader *r, size_t i, size_t end)
{
    int depth = 0;
    for (; i < end; i++) {
        char c = r->s[i];
        if (c == '#') {
            while (i < end && r->s[i] != '\n') i++;
            if (i >= end) break;
        } else if (c == '(' || c == '[') depth++;
        else if (c == ')' || c == ']') depth--;
        else if (c == ',' && depth <= 0) break;
    }
    return i;
}

/* The body velocity of a rotation named at i (an SO(3) factor's W, an SE(3) factor's W or V), as config_part_at(). */
static int velocity_part_at(const reader *r, size_t i, size_t end, size_t *len, config_part *p)
{
    const cl_model *m = r->m;
    *len = name_at(r, i, end);
    for (size_t k = 0; k < m->nfac; k++)
        for (int j = 0; j < 2; j++)
            if (m->fac[k].vname[j][0] && cl_text_name_is(m->fac[k].vname[j], r->s + i, *len)) {
                *p = (config_part){.name = m->fac[k].vname[j], .vat = m->fac[k].v + 3 * (size_t)j, .shape = 3, .vshape = 3};
                return 0;
            }
    return -1;
}

/* Every configuration part of the manifold is given in equilibrium k, or the error names the first one missing. */
static int equilibrium_complete(reader *r, size_t k, const int *eq)
{
    const cl_model *m = r->m;
    for (size_t f = 0; f < m->nfac; f++)
        for (int j = 0; j < 2 && m->fac[f].name[j][0]; j++)
            if (eq[m->fac[f].q + 9 * (size_t)j] < 0)
                return fail(r, m->eqpos[k], CL_EPARSE, "the equilibrium %s does not give %s (every factor is needed)", m->eqname[k], m->fac[f].name[j]);
    return 0;
}

/* equilibrium NAME = q1: VEC, R: MAT, theta: NUMBER, ..., W: VEC  (every configuration once; velocities zero
   but the body velocities of rotations given: a relative equilibrium, a steady rotation) */
static int parse_equilibrium(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    size_t k = m->neq, nq = m->nq;
    if (one_more_name(r, i, &m->eqname, k, CL_MODEL_MAX_EQUILIBRIA, "equilibria")) return r->failed;
    if (grow(&m->eqpos, k, sizeof *m->eqpos)) return fail(r, (long)i, CL_ENOMEM, "out of memory");
    int *eq = realloc(m->eq, (k + 1) * nq * sizeof *eq), *eqv = eq ? realloc(m->eqv, (k + 1) * m->nv * sizeof *eqv + 1) : NULL;
    if (eq) m->eq = eq;
    if (eqv) m->eqv = eqv;
    if (!eq || !eqv) return fail(r, (long)i, CL_ENOMEM, "out of memory");
    eq += k * nq;
    for (size_t a = 0; a < nq; a++) eq[a] = -1;
    for (size_t a = 0; a < m->nv; a++) eqv[k * m->nv + a] = -1; /* a velocity not given is zero */
    skip_blank(r, &i, end);
    m->eqpos[k] = (long)i;
    if (name_and_equals(r, &i, end, m->eqname[k], "an equilibrium", "equilibrium")) return r->failed;
    for (;;) {
        skip_blank(r, &i, end);
        size_t n;
        config_part p;
        int vel = !config_part_at(r, i, end, &n, &p) ? 0 : !velocity_part_at(r, i, end, &n, &p) ? 1 : -1;
        if (vel < 0)
            return fail(r, (long)i, CL_EPARSE, "expected the name of a factor of the manifold (%s: its point), or of the body velocity of a rotation", m->fac[0].name[0]);
        int *at = vel ? m->eqv + k * m->nv + p.vat : eq + p.at;
        if (*at >= 0) return fail(r, (long)i, CL_EPARSE, "%s is given twice in this equilibrium", p.name);
        i += n;
        skip_blank(r, &i, end);
        if (i >= end || r->s[i] != ':') return fail(r, (long)i, CL_EPARSE, "expected ':' and the %s of %s", vel ? "value" : "point", p.name);
        i++;
        size_t ve = vector_end(r, i, end);
        char what[CL_MODEL_MAX_NAME + 16];
        snprintf(what, sizeof what, "the %s of %s", vel ? "value" : "point", p.name);
        if (parse_value(r, i, ve, lookup_params, vel ? 3 : p.shape, at, what, " (an equilibrium may use the parameters only)"))
            return r->failed;
        i = ve;
        if (i < end && r->s[i] == ',') { i++; continue; }
        break;
    }
    if (equilibrium_complete(r, k, eq)) return r->failed;
    m->neq++;
    return 0;
}

/* force NAME = EXPR  (on the velocity of the configuration part NAME, once each) */
static int parse_force(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    if (!m->force) {
        m->force = malloc(m->nv * sizeof *m->force);
        if (!m->force) return fail(r, (long)i, CL_ENOMEM, "out of memory");
        for (size_t a = 0; a < m->nv; a++) m->force[a] = -1;
    }
    skip_blank(r, &i, end);
    size_t n;
    config_part p;
    if (config_part_at(r, i, end, &n, &p)) return fail(r, (long)i, CL_EPARSE, "expected the name of a factor of the manifold after force");
    if (m->force[p.vat] >= 0) return fail(r, (long)i, CL_EPARSE, "a second force on %s", p.name);
    i += n;
    skip_blank(r, &i, end);
    if (i >= end || r->s[i] != '=') return fail(r, (long)i, CL_EPARSE, "expected '=' after the factor of a force");
    char what[CL_MODEL_MAX_NAME + 16];
    snprintf(what, sizeof what, "the force on %s", p.name);
    return parse_value(r, i + 1, end, lookup, p.vshape, m->force + p.vat, what, NULL);
}

/* let NAME = EXPR: a name for a value (scalar, vector or matrix), usable in the statements after it and in L, invariants, forces */
static int parse_let(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    if (one_more_name(r, i, &m->letname, m->nlet, CL_MODEL_MAX_LETS, "let statements")) return r->failed;
    if (grow(&m->let, m->nlet, sizeof *m->let)) return fail(r, (long)i, CL_ENOMEM, "out of memory");
    if (name_and_equals(r, &i, end, m->letname[m->nlet], "a let", "let")) return r->failed;
    cl_expr_value v;
    cl_expr_error err;
    m->defining = 1;
    m->let_self = 0;
    int st = cl_expr_parse(m->g, r->s + i, end - i, (long)i, lookup, r, &v, &err);
    m->defining = 0;
    if (st == CL_EPARSE && m->let_self) return fail(r, err.pos, CL_EPARSE, "the let %s refers to itself", m->letname[m->nlet]);
    if (st == CL_EPARSE) return fail(r, err.pos, CL_EPARSE, "%s", m->ham_prime ? CL_MODEL_HAM_VELOCITY : err.msg);
    if (st) return fail(r, (long)i, st, "%s", cl_strerror(st));
    m->let[m->nlet++] = v;
    return 0;
}

/* constraint NAME = EXPR: holonomic or nonholonomic (model_constraint.c) */
static int parse_constraint(reader *r, size_t i, size_t end)
{
    cl_model *m = r->m;
    size_t k = m->ncon;
    if (m->ham) return fail(r, (long)i, CL_EPARSE, "constraints in a hamiltonian model are not supported (write the model with its lagrangian)");
    if (one_more_name(r, i, &m->conname, k, CL_MODEL_MAX_CONSTRAINTS, "constraints")) return r->failed;
    if (grow(&m->con, k, sizeof *m->con) || grow(&m->conh, k, sizeof *m->conh) || grow(&m->cont, k, sizeof *m->cont) ||
        grow(&m->conpos, k, sizeof *m->conpos))
        return fail(r, (long)i, CL_ENOMEM, "out of memory");
    if (name_and_equals(r, &i, end, m->conname[k], "a constraint", "constraint")) return r->failed;
    skip_blank(r, &i, end);
    m->conpos[k] = (long)i;
    if (parse_scalar(r, i, end, m->con + k, "a constraint")) return r->failed;
    char why[200];
    int st = r->gr->constraint_settle(m, k, why, sizeof why);
    if (st) return fail(r, (long)i, st, "%s", st == CL_EPARSE ? why : cl_strerror(st));
    m->ncon++;
    return 0;
}

static const char *const keywords[] = {"manifold", "parameters", "lagrangian", "invariant", "equilibrium", "force", "let", "hamiltonian", "constraint"};
#define NKEYWORDS (sizeof keywords / sizeof *keywords)

/* Pass 1 declares the manifold and the parameters, pass 2 reads the lets in order, pass 3 the other expressions. */
static int parse_pass(reader *r, int pass)
{
    for (size_t at = 0; at < r->len && !r->failed;) {
        size_t end = statement_end(r, at), i = at;
        skip_blank(r, &i, end);
        if (i >= end || r->s[i] == '#') {
            at = end;
            continue;
        }
        if (i != at) {
            fail(r, (long)i, CL_EPARSE, "a statement must start at the beginning of a line (an indented line continues the one above)");
            break;
        }
        size_t n = name_at(r, i, end);
        int kw = -1;
        for (int k = 0; k < (int)NKEYWORDS; k++)
            if (cl_text_name_is(keywords[k], r->s + i, n)) kw = k;
        if (kw < 0) {
            fail(r, (long)i, CL_EPARSE, "expected manifold, parameters, let, lagrangian, hamiltonian, invariant, equilibrium, force or constraint at the start of a statement");
            break;
        }
        i += n;
        if (pass == 1 && kw == 0) parse_manifold(r, i, end);
        else if (pass == 1 && kw == 1) parse_parameters(r, i, end);
        else if (pass == 2 && kw == 6) parse_let(r, i, end);
        else if (pass == 3 && kw == 2 && r->m->ham) fail(r, (long)at, CL_EPARSE, "a lagrangian and a hamiltonian both (a model gives one of them)");
        else if (pass == 3 && (kw == 2 || kw == 7)) {
            if (r->m->L >= 0) fail(r, (long)at, CL_EPARSE, "a second %s (there must be exactly one)", keywords[kw]);
            else parse_scalar(r, i, end, &r->m->L, kw == 2 ? "the lagrangian" : "the hamiltonian");
        } else if (pass == 3 && kw == 3) parse_invariant(r, i, end);
        else if (pass == 3 && kw == 4) parse_equilibrium(r, i, end);
        else if (pass == 3 && kw == 5) parse_force(r, i, end);
        else if (pass == 3 && kw == 8) parse_constraint(r, i, end);
        r->m->constrained |= kw == 8;
        at = end;
    }
    return r->failed;
}


/* What the whole text says once both passes are done: L given, time dependence, equilibria. */
static int finish(reader *r)
{
    cl_model *m = r->m;
    if (m->L < 0) return fail(r, (long)r->len, CL_EPARSE, "expected a lagrangian statement");
    if (m->ham && r->gr->ham_finish(m, &r->failed, r->e)) return r->failed;
    m->timed = cl_model_depends_on_time(m, m->L);
    for (size_t k = 0; k < m->ncon; k++) m->timed |= m->cont[k] >= 0 || (m->conh[k] >= 0 && cl_model_depends_on_time(m, m->conh[k]));
    for (size_t a = 0; m->force && a < m->nv; a++) m->timed |= m->force[a] >= 0 && cl_model_depends_on_time(m, m->force[a]);
    if (m->timed && m->neq)
        return fail(r, m->eqpos[0], CL_EPARSE, "equilibria of a time-dependent model are not supported (its linearization depends on t)");
    if (m->timed && cl_model_param_index(m, "time") >= 0)
        return fail(r, 0, CL_EPARSE, "a time-dependent model cannot name a parameter 'time' (--time sets t)");
    return 0;
}

/* Parse \p len bytes of \p text into a new model; \p legacy as for settle(). */
static int parse_model(cl_model **out, const char *source, const char *text, size_t len, int legacy,
                       const cl_model_grammar *gr, cl_sys_error *e)
{
    *out = NULL;
    cl_model *m = calloc(1, sizeof *m);
    if (!m) return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    m->L = -1;
    m->source = strdup(source);
    m->text = malloc(len + 1);
    cl_expr_dag_new(&m->g);
    if (!m->source || !m->text || !m->g) {
        cl_model_free(m);
        return cl_sys_error_set(e, CL_ENOMEM, NULL, "out of memory");
    }
    memcpy(m->text, text, len);
    m->text[len] = 0;
    reader r = {.m = m, .s = m->text, .len = len, .e = e, .gr = gr};
    m->hampos = cl_model_ham_prescan(m->text, len);
    m->ham = m->hampos >= 0;
    if (len > (size_t)CL_MODEL_MAX_BYTES) fail(&r, 0, CL_EDIM, "model larger than %ld bytes", CL_MODEL_MAX_BYTES);
    else if (memchr(text, 0, len)) fail(&r, (long)((const char *)memchr(text, 0, len) - text), CL_EPARSE, "a NUL byte in the model");
    if (!r.failed && !parse_pass(&r, 1)) {
        if (m->nfac == 0) fail(&r, (long)len, CL_EPARSE, "expected a manifold statement (manifold q1, ... : S2)");
        else if (!settle(&r, legacy) && !parse_pass(&r, 2)) parse_pass(&r, 3);
    }
    if (!r.failed) finish(&r);
    if (r.failed) {
        cl_model_free(m);
        return r.failed;
    }
    *out = m;
    return CL_OK;
}

/* 1 when the product model \p m uses nothing the flat or SO(3) kinds lack, so that they can run it. */
static int legacy_kind_suffices(const cl_model *m)
{
    size_t flat = 0, so3 = 0;
    for (size_t i = 0; i < m->nfac; i++) {
        flat += m->fac[i].kind == CL_LAGR_S1 || m->fac[i].kind == CL_LAGR_RK;
        so3 += m->fac[i].kind == CL_LAGR_SO3;
    }
    return (flat == m->nfac || (so3 == 1 && m->nfac == 1)) && !m->force && !m->timed && !m->neq && !m->ham && !m->ncon;
}

int cl_model_lang_parse(cl_model **out, const char *source, const char *text, size_t len, const cl_model_grammar *gr,
                        cl_sys_error *e)
{
    int st = parse_model(out, source, text, len, 0, gr, e);
    if (st || !(*out)->prod || !legacy_kind_suffices(*out)) return st;
    cl_model_free(*out);
    return parse_model(out, source, text, len, 1, gr, e);
}

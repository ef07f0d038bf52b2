/*
 * The scalar layer of the tracing kind (trace.h), included by scalar.h when
 * CL_PREC is CL_TRACE: each operation is the graph node that computes it,
 * with the double value at the traced point beside it for the comparisons.
 */
#include "trace.h"

#define R_DECL(x, prec) cl_trace_scalar x[1] = {{cl_trace_zero(), 0.0}}; (void)(prec)
#define RV_DECL(v, n, prec) \
    cl_trace_scalar v[(n) > 0 ? (n) : 1]; \
    for (size_t v##_cl_i_ = 0; v##_cl_i_ < (size_t)(n); v##_cl_i_++) v[v##_cl_i_] = (cl_trace_scalar){cl_trace_zero(), 0.0}; \
    (void)(prec)
#define CL_TR2(op, a, b) cl_trace_node(CL_EXPR_##op, (a), (b), 0)
#define CL_TR1(op, a) cl_trace_node(CL_EXPR_##op, (a), -1, 0)
static inline cl_prec_t r_prec(rsrc x) { (void)x; return cl_trace_prec(); }
static inline void r_set(rptr r, rsrc a) { *r = *a; }
static inline void r_set_d(rptr r, double a) { r->id = cl_trace_const_double(a); r->v = a; }
static inline void r_set_si(rptr r, long a) { r->id = cl_trace_const_si(a); r->v = (double)a; }
/** r = num/den as a quotient node: correctly rounded at the evaluator's precision. */
static inline void r_set_q(rptr r, long num, long den)
{
    r->id = CL_TR2(DIV, cl_trace_const_si(num), cl_trace_const_si(den));
    r->v = (double)num / (double)den;
}
static inline void r_set_zero(rptr r) { r->id = cl_trace_zero(); r->v = 0.0; }
static inline double r_get_d(rsrc a) { return a->v; }
static inline void r_add(rptr r, rsrc a, rsrc b) { double v = a->v + b->v; r->id = CL_TR2(ADD, a->id, b->id); r->v = v; }
static inline void r_sub(rptr r, rsrc a, rsrc b) { double v = a->v - b->v; r->id = CL_TR2(SUB, a->id, b->id); r->v = v; }
static inline void r_mul(rptr r, rsrc a, rsrc b) { double v = a->v * b->v; r->id = CL_TR2(MUL, a->id, b->id); r->v = v; }
static inline void r_div(rptr r, rsrc a, rsrc b) { double v = a->v / b->v; r->id = CL_TR2(DIV, a->id, b->id); r->v = v; }
static inline void r_add_si(rptr r, rsrc a, long b) { double v = a->v + (double)b; r->id = CL_TR2(ADD, a->id, cl_trace_const_si(b)); r->v = v; }
static inline void r_add_d(rptr r, rsrc a, double b) { double v = a->v + b; r->id = CL_TR2(ADD, a->id, cl_trace_const_double(b)); r->v = v; }
static inline void r_mul_si(rptr r, rsrc a, long b) { double v = a->v * (double)b; r->id = CL_TR2(MUL, a->id, cl_trace_const_si(b)); r->v = v; }
static inline void r_mul_d(rptr r, rsrc a, double b) { double v = a->v * b; r->id = CL_TR2(MUL, a->id, cl_trace_const_double(b)); r->v = v; }
static inline void r_div_si(rptr r, rsrc a, long b) { double v = a->v / (double)b; r->id = CL_TR2(DIV, a->id, cl_trace_const_si(b)); r->v = v; }
static inline void r_si_sub(rptr r, long a, rsrc b) { double v = (double)a - b->v; r->id = CL_TR2(SUB, cl_trace_const_si(a), b->id); r->v = v; }
static inline void r_si_div(rptr r, long a, rsrc b) { double v = (double)a / b->v; r->id = CL_TR2(DIV, cl_trace_const_si(a), b->id); r->v = v; }
/** r = a·2^k, exact. */
static inline void r_mul_2si(rptr r, rsrc a, long k)
{
    double v = ldexp(a->v, (int)k);
    r->id = CL_TR2(MUL, a->id, cl_trace_const_2exp(k));
    r->v = v;
}
static inline void r_neg(rptr r, rsrc a) { r->id = CL_TR1(NEG, a->id); r->v = -a->v; }
/* the sign at the traced point, frozen */
static inline void r_abs(rptr r, rsrc a)
{
    if (a->v < 0) r_neg(r, a);
    else *r = *a;
}
static inline void r_sqr(rptr r, rsrc a) { double v = a->v * a->v; r->id = CL_TR2(MUL, a->id, a->id); r->v = v; }
#define CL_R_TR1(op, OP) static inline void r_##op(rptr r, rsrc a) { double v = op(a->v); r->id = CL_TR1(OP, a->id); r->v = v; }
CL_R_TR1(sqrt, SQRT) CL_R_TR1(sin, SIN) CL_R_TR1(cos, COS) CL_R_TR1(tan, TAN) CL_R_TR1(exp, EXP) CL_R_TR1(log, LOG)
#undef CL_R_TR1
static inline void r_atan2(rptr r, rsrc a, rsrc b) { double v = atan2(a->v, b->v); r->id = CL_TR2(ATAN2, a->id, b->id); r->v = v; }
/* √(1 − a²), beside a, for asin and acos */
static inline int cl_tr_cosine_(rsrc a) { return CL_TR1(SQRT, CL_TR2(SUB, cl_trace_const_si(1), CL_TR2(MUL, a->id, a->id))); }
static inline void r_asin(rptr r, rsrc a) { double v = asin(a->v); r->id = CL_TR2(ATAN2, a->id, cl_tr_cosine_(a)); r->v = v; }
static inline void r_acos(rptr r, rsrc a) { double v = acos(a->v); r->id = CL_TR2(ATAN2, cl_tr_cosine_(a), a->id); r->v = v; }
static inline void r_sinh(rptr r, rsrc a)
{
    double v = sinh(a->v);
    int e = CL_TR1(EXP, a->id), f = CL_TR1(EXP, CL_TR1(NEG, a->id));
    r->id = CL_TR2(DIV, CL_TR2(SUB, e, f), cl_trace_const_si(2));
    r->v = v;
}
static inline void r_cosh(rptr r, rsrc a)
{
    double v = cosh(a->v);
    int e = CL_TR1(EXP, a->id), f = CL_TR1(EXP, CL_TR1(NEG, a->id));
    r->id = CL_TR2(DIV, CL_TR2(ADD, e, f), cl_trace_const_si(2));
    r->v = v;
}
static inline void r_hypot(rptr r, rsrc a, rsrc b)
{
    double v = hypot(a->v, b->v);
    r->id = CL_TR1(SQRT, CL_TR2(ADD, CL_TR2(MUL, a->id, a->id), CL_TR2(MUL, b->id, b->id)));
    r->v = v;
}
static inline void r_pow_si(rptr r, rsrc a, long k) { double v = pow(a->v, (double)k); r->id = cl_trace_node(CL_EXPR_POWI, a->id, -1, k); r->v = v; }
/** r = a·b + c. */
static inline void r_fma(rptr r, rsrc a, rsrc b, rsrc c) { double v = a->v * b->v + c->v; r->id = CL_TR2(ADD, CL_TR2(MUL, a->id, b->id), c->id); r->v = v; }
/** r = a·b − c. */
static inline void r_fms(rptr r, rsrc a, rsrc b, rsrc c) { double v = a->v * b->v - c->v; r->id = CL_TR2(SUB, CL_TR2(MUL, a->id, b->id), c->id); r->v = v; }
static inline void r_addmul(rptr r, rsrc a, rsrc b) { double v = r->v + a->v * b->v; r->id = CL_TR2(ADD, r->id, CL_TR2(MUL, a->id, b->id)); r->v = v; }
static inline void r_submul(rptr r, rsrc a, rsrc b) { double v = r->v - a->v * b->v; r->id = CL_TR2(SUB, r->id, CL_TR2(MUL, a->id, b->id)); r->v = v; }
/** π = 4·atan2(1, 1), correctly rounded π/4 times 4 at every precision. */
static inline void r_const_pi(rptr r)
{
    int one = cl_trace_const_si(1);
    r->id = CL_TR2(MUL, cl_trace_const_si(4), CL_TR2(ATAN2, one, one));
    r->v = 3.14159265358979323846;
}
static inline int r_cmp(rsrc a, rsrc b) { return (a->v > b->v) - (a->v < b->v); }
static inline int r_cmpabs(rsrc a, rsrc b) { return (fabs(a->v) > fabs(b->v)) - (fabs(a->v) < fabs(b->v)); }
static inline int r_cmp_d(rsrc a, double b) { return (a->v > b) - (a->v < b); }
static inline int r_sgn(rsrc a) { return (a->v > 0) - (a->v < 0); }
static inline int r_cmp3(rsrc a, rsrc b) { return r_cmp(a, b); }
static inline int r_sgn3(rsrc a) { return r_sgn(a); }
static inline double r_log2rad(rsrc a) { (void)a; return -INFINITY; }
/* the graph's exact zero only: a term skipped for being 0 is 0 everywhere */
static inline int r_is_zero(rsrc a) { return a->id == cl_trace_zero(); }
static inline int r_is_number(rsrc a) { return a->id >= 0 && isfinite(a->v); }
static inline void r_swap(rptr a, rptr b) { cl_trace_scalar t = *a; *a = *b; *b = t; }
static inline double r_log2abs(rsrc a) { return a->v == 0.0 ? -INFINITY : isnan(a->v) ? INFINITY : log2(fabs(a->v)); }
/** Unit roundoff 2^(1−p) of the traced precision. */
static inline void r_set_eps(rptr r)
{
    r->id = cl_trace_const_2exp(1 - (long)cl_trace_prec());
    r->v = ldexp(1.0, 1 - (int)cl_trace_prec());
}
#undef CL_TR1
#undef CL_TR2

/* The tracing kind's graph, one per thread, and its constant nodes (trace.h). */
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

static _Thread_local cl_expr_dag *tr_g;
static _Thread_local cl_prec_t tr_prec = 53;
static _Thread_local int tr_failed;

int cl_trace_begin(cl_expr_dag *g, cl_prec_t prec)
{
    if (!g || tr_g || cl_prec_check(prec)) return CL_EPARAM;
    tr_g = g;
    tr_prec = prec;
    tr_failed = 0;
    return CL_OK;
}

int cl_trace_end(void)
{
    int st = tr_failed ? CL_ENOMEM : CL_OK;
    tr_g = NULL;
    tr_prec = 53;
    tr_failed = 0;
    return st;
}

cl_expr_dag *cl_trace_dag(void) { return tr_g; }
cl_prec_t cl_trace_prec(void) { return tr_prec; }

static int check(int id)
{
    if (id < 0) tr_failed = 1;
    return id;
}

void cl_trace_inputs(cl_rptr_tr x, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        x[i].id = tr_g ? check(cl_expr_input(tr_g, (long)i)) : check(-1);
        x[i].v = v[i];
    }
}

int cl_trace_node(int op, int a, int b, long k)
{
    if (!tr_g) return check(-1);
    return check(cl_expr_op(tr_g, op, a, b, k, -1));
}

int cl_trace_zero(void) { return tr_g ? check(cl_expr_zero(tr_g)) : check(-1); }

int cl_trace_const_str(const char *s)
{
    if (!tr_g) return check(-1);
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') s++;
    int neg = *s == '-';
    if (neg || *s == '+') s++;
    int c = check(cl_expr_const(tr_g, s, strlen(s), -1));
    return neg ? cl_trace_node(CL_EXPR_NEG, c, -1, 0) : c;
}

int cl_trace_const_si(long a)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", a);
    return cl_trace_const_str(buf);
}

/* z·2^e as z (e ≥ 0: times the integer 2^e; e < 0: over it): exact integers
   at any working precision that holds them, one rounding in the quotient. */
static int const_z2exp(mpz_srcptr z, long e)
{
    mpz_t p;
    mpz_init(p);
    int id;
    if (e >= 0) {
        mpz_mul_2exp(p, z, (mp_bitcnt_t)e);
        char *s = mpz_get_str(NULL, 10, p);
        id = s ? cl_trace_const_str(s) : check(-1);
        free(s);
    } else {
        char *s = mpz_get_str(NULL, 10, z);
        mpz_set_ui(p, 1);
        mpz_mul_2exp(p, p, (mp_bitcnt_t)-e);
        char *d = mpz_get_str(NULL, 10, p);
        id = s && d ? cl_trace_node(CL_EXPR_DIV, cl_trace_const_str(s), cl_trace_const_str(d), 0) : check(-1);
        free(s);
        free(d);
    }
    mpz_clear(p);
    return id;
}

int cl_trace_const_2exp(long k)
{
    mpz_t z;
    mpz_init_set_ui(z, 1);
    int id = const_z2exp(z, k);
    mpz_clear(z);
    return id;
}

int cl_trace_const_mpfr(mpfr_srcptr w)
{
    if (!mpfr_number_p(w)) return check(-1);
    if (mpfr_zero_p(w)) return cl_trace_zero();
    mpz_t z;
    mpz_init(z);
    long e = (long)mpfr_get_z_2exp(z, w);
    /* drop the mantissa's trailing zeros, so that whole numbers stay whole */
    mp_bitcnt_t tz = mpz_scan1(z, 0);
    mpz_fdiv_q_2exp(z, z, tz);
    int id = const_z2exp(z, e + (long)tz);
    mpz_clear(z);
    return id;
}

int cl_trace_const_double(double a)
{
    if (a == 0) return cl_trace_zero();
    if (!isfinite(a)) return check(-1);
    mpfr_t w;
    mpfr_init2(w, 53);
    mpfr_set_d(w, a, MPFR_RNDN);
    int id = cl_trace_const_mpfr(w);
    mpfr_clear(w);
    return id;
}

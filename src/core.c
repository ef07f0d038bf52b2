/* Precision-independent support: status messages, precision check, RNG,
   the CPU-time budget, releasing an object's arrays, lines of a text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cl_core.h"

const char *cl_strerror(int status)
{
    switch (status) {
    case CL_OK: return "success";
    case CL_EPREC: return "precision out of range (2 to 65536 bits)";
    case CL_ENOTUNIT: return "point of S^2 is not a unit vector";
    case CL_ENOTTANGENT: return "velocity is not tangent to the manifold";
    case CL_ENAN: return "NaN or infinity in the input";
    case CL_ESINGULAR: return "matrix is singular to working precision";
    case CL_EDIM: return "dimension out of range or inconsistent";
    case CL_ENOMEM: return "out of memory";
    case CL_ENOCONV: return "iteration did not converge";
    case CL_EDOMAIN: return "argument outside the domain of the formula";
    case CL_EPARSE: return "malformed number or list";
    case CL_EPARAM: return "invalid physical parameter";
    case CL_ESTEP: return "step size underflow";
    case CL_EBUDGET: return "evaluation budget exhausted";
    case CL_EUNDECIDED: return "a deciding sign is not proven (a ball contains zero)";
    case CL_ETIME: return "CPU time budget exhausted";
    case CL_EUNDEFINED: return "no state inside the domain of the formula could be drawn";
    default: return "unknown error";
    }
}

int cl_prec_check(long prec)
{
    return (prec >= CL_PREC_MIN && prec <= CL_PREC_MAX) ? CL_OK : CL_EPREC;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void cl_rng_seed(cl_rng *g, uint64_t seed)
{
    for (int i = 0; i < 4; i++) g->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cl_rng_u64(cl_rng *g)
{
    uint64_t *s = g->s;
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}

double cl_rng_uniform(cl_rng *g) { return (double)(cl_rng_u64(g) >> 11) * 0x1p-53; }

double cl_rng_range(cl_rng *g, double a, double b) { return a + (b - a) * cl_rng_uniform(g); }

double cl_rng_normal(cl_rng *g)
{
    double u = 1.0 - cl_rng_uniform(g), v = cl_rng_uniform(g);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

double cl_mpfr_log2(mpfr_srcptr x)
{
    if (mpfr_zero_p(x)) return -INFINITY;
    if (!mpfr_number_p(x)) return INFINITY;
    long e;
    double m = mpfr_get_d_2exp(&e, x, MPFR_RNDN);
    return log2(fabs(m)) + (double)e;
}

double cl_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The thread's CPU-time deadline; 0: none. */
static _Thread_local double cpu_deadline;

void cl_cpu_budget_set(double seconds)
{
    cpu_deadline = seconds > 0 ? cl_cpu_seconds() + seconds : 0.0;
}

int cl_cpu_budget_spent(void)
{
    return cpu_deadline > 0 && cl_cpu_seconds() > cpu_deadline;
}

const char *cl_next_line(const char *s, size_t *len)
{
    const char *nl = strchr(s, '\n');
    *len = nl ? (size_t)(nl - s) : strlen(s);
    return s + *len + (nl != NULL);
}

char *cl_text_by_lines(const char *text, int (*line)(FILE *out, const char *s, size_t len, void *ctx), void *ctx)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) return NULL;
    int bad = 0;
    for (const char *s = text, *next; s && *s && !bad; s = next) {
        size_t len;
        next = cl_next_line(s, &len);
        bad = line(f, s, len, ctx);
    }
    if (fclose(f)) bad = 1;
    if (!bad) return buf;
    free(buf);
    return NULL;
}

void cl_free_each(void *const *p, size_t n)
{
    for (size_t i = 0; i < n; i++) free(p[i]);
}

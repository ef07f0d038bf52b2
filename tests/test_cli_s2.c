/*
 * The command line of chapters S2 III–V: `chartless rhs` (and `simulate`)
 * on the chain, coupled and spherical systems, run as a user would, through
 * the shell. Expected values are closed forms; errors must exit with 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <math.h>
#include "tap.h"

/* The command under test: $BUILD/chartless (make check passes BUILD), else build/chartless. */
static const char *chartless_path(void)
{
    static char path[512];
    const char *b = getenv("BUILD");
    snprintf(path, sizeof path, "%s/chartless", b && *b ? b : "build");
    return path;
}

/* Run `printf INPUT | chartless ARGS`, capture stdout; return the exit status. */
static int run(const char *input, const char *args, char *out, size_t cap)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "printf '%s' | %s %s 2>/dev/null", input, chartless_path(), args);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t k = fread(out, 1, cap - 1, p);
    out[k] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Parse up to n numbers from s. Returns how many. */
static int numbers(const char *s, double *v, int n)
{
    int k = 0;
    char *end;
    while (k < n) {
        double d = strtod(s, &end);
        if (end == s) break;
        v[k++] = d;
        s = end;
    }
    return k;
}

int main(void)
{
    char out[8192];
    double v[16];
    /* One link at rest at q = (0.6, 0, -0.8): qddot = -(g/l)(e3 - q q3) = -9.81 (0.48, 0, 0.36). */
    int st = run("0.6 0 -0.8  0 0 0", "rhs --system chain --n 1 --m 2 --l 1 --g 9.81", out, sizeof out);
    ok(st == 0 && numbers(out, v, 6) == 6, "rhs chain n=1 runs and prints 6 numbers");
    is_double(v[3], -9.81 * 0.48, 1e-13, "qddot_x = -(g/l)(e3 - q q3)_x, closed form");
    is_double(v[5], -9.81 * 0.36, 1e-13, "qddot_z closed form");
    /* The same state in (q, omega): omegadot = q x qddot = (0, 9.81*0.6, 0). */
    st = run("0.6 0 -0.8  0 0 0", "rhs --system chain --form omega", out, sizeof out);
    ok(st == 0 && numbers(out, v, 6) == 6, "rhs chain --form omega runs");
    is_double(v[4], 9.81 * 0.6, 1e-13, "omegadot_y = (g/l) sin(alpha) [S2 (40)]");
    /* Two links: the normal component of qddot_i is -|qdot_i|^2 in every form. */
    st = run("0 0 -1  1 0 0  0.3 0.2 0  0 0.5 0", "rhs --system chain --m 1,2 --l 1,0.5", out, sizeof out);
    ok(st == 0 && numbers(out, v, 12) == 12, "rhs chain n=2 runs");
    is_double(-v[8], -0.13, 1e-13, "q1 . qddot1 = -|qdot1|^2");
    is_double(v[9], -0.25, 1e-13, "q2 . qddot2 = -|qdot2|^2");
    /* 256 bits: about 78 significant digits. */
    st = run("0.6 0 -0.8  0 0 0", "rhs --system chain --bits 256", out, sizeof out);
    size_t longest = 0, cur = 0;
    for (const char *c = out; *c; c++) {
        cur = (*c >= '0' && *c <= '9') ? cur + 1 : (*c == '.' || *c == '-') ? cur : 0;
        if (cur > longest) longest = cur;
    }
    ok(st == 0 && longest >= 76, "--bits 256 prints the 77 or so digits the precision carries (longest %zu)", longest);
    st = run("0.1 0.7 1 0", "rhs --system spherical --form angles --l 1", out, sizeof out);
    ok(st == 0 && numbers(out, v, 4) == 4, "rhs spherical in angles runs");
    is_double(v[2], 9.81 * 0.09983341664682815, 1e-12, "thetaddot = (g/l) sin theta at phidot = 0");
    st = run("0 0 -1  1 0 0  0.3 0.2 0  0 0.5 0", "rhs --system coupled --damping 0.1 --form pi", out, sizeof out);
    ok(st == 0 && numbers(out, v, 12) == 12, "rhs coupled --form pi runs");

    static const struct { const char *in, *args, *why; } bad[] = {
        {"0 0 -1 1 0 0 0.3 0.2 0", "rhs --system chain --n 2", "wrong number of values"},
        {"0 0 -1.1 1 0 0 0.3 0.2 0 0 0.5 0", "rhs --system chain --n 2", "non-unit q"},
        {"0 0 -1 1 0 0 0 0 1 0 0.5 0", "rhs --system chain --n 2", "velocity not tangent"},
        {"0 0 -1 0 0 0", "rhs --system chain --n 0", "n < 1"},
        {"0 0 -1 0 0 0", "rhs --system chain --m -1", "negative mass"},
        {"0 0 -1 0 0 0", "rhs --system chain --l -1", "negative length"},
        {"0 0 -1 0 0 0", "rhs --system chain --form xyz", "unknown form"},
        {"0 0 -1 0 0 0", "rhs --system nosuch", "unknown system"},
        {"0 0 -1 0 0x 0", "rhs --system chain", "bad number in the state"},
        {"0 0 -1 0 0 0", "rhs --system chain --g abc", "bad number in a parameter"},
        {"0 0 -1 0 0 0", "rhs --system chain --m 1,2 --n 1", "list length differs from n"},
        {"0 0 -1 0 0 0", "rhs --system chain --bits 1", "precision out of range"},
        {"0 0 -1 0 0 0", "rhs --system chain --colour red", "unknown parameter"},
        {"0 0.7 1 0", "rhs --system spherical --form angles", "angles at the pole"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st = run(bad[i].in, bad[i].args, out, sizeof out);
        ok(st == 2 && out[0] == 0, "exit 2 and no output: %s", bad[i].why);
    }
    /* simulate: CSV with the energy after the state; its drift is the integrator's error. */
    static const struct { const char *args; double tol; } sims[] = {
        {"simulate --system chain --m 1,2 --l 1,0.5 --t 1", 1e-8},
        {"simulate --system chain --m 1,2 --l 1,0.5 --t 1 --integrator gauss --stages 4 --h 0.01", 1e-12},
        {"simulate --system chain --m 1,2 --l 1,0.5 --t 1 --integrator gbs --form pi", 1e-8},
        {"simulate --system chain --m 1,2 --l 1,0.5 --t 1 --integrator rk4 --h 0.001 --bits 113", 1e-7},
    };
    static char big[1 << 23];
    for (size_t i = 0; i < sizeof sims / sizeof sims[0]; i++) {
        char *out = big;
        st = run("0 0 -1  0.6 0 -0.8  0.3 0.2 0  0 0.5 0", sims[i].args, big, sizeof big);
        /* first data row and last row: t, 12 numbers, energy, ... */
        char *r1 = strchr(out, '\n'), *last = NULL;
        for (char *c = out; *c; c++)
            if (*c == '\n' && c[1]) last = c + 1;
        double a[16] = {0}, b[16] = {0};
        int na = 0, nb = 0;
        if (r1 && last) {
            for (char *c = r1 + 1; *c && *c != '\n'; c++) if (*c == ',') *c = ' ';
            for (char *c = last; *c; c++) if (*c == ',') *c = ' ';
            na = numbers(r1 + 1, a, 14);
            nb = numbers(last, b, 14);
        }
        ok(st == 0 && na == 14 && nb == 14 && b[0] == 1.0, "%s: CSV rows from t = 0 to t = 1", sims[i].args);
        ok(fabs(b[13] - a[13]) < sims[i].tol, "  energy drift %.2g below %.0g", fabs(b[13] - a[13]), sims[i].tol);
    }
    st = run("0 0 -1 0 0 0", "simulate --system chain --integrator euler", out, sizeof out);
    ok(st == 2 && out[0] == 0, "simulate with an unknown integrator: exit 2");
    st = run("0 0 -1 0 0", "simulate --system chain", out, sizeof out);
    ok(st == 2 && out[0] == 0, "simulate with a short state: exit 2, no output");
    st = run("", "rhs --help", out, sizeof out);
    ok(st == 0 && strstr(out, "usage: chartless rhs") && strstr(out, "chain"), "rhs --help lists the systems");
    return done_testing();
}

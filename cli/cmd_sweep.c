/*
 * `chartless sweep --system NAME --x NAME=a:b:N [--y NAME=c:d:M]`: a stability
 * map, each cell's verdict and margin from the system's sweep hook
 * (cl_system_sweep), as CSV at the working precision; `--shard k/N` computes
 * the k-th of N contiguous blocks of cells, `--merge FILES...` joins the
 * blocks into the CSV of the unsharded run, and `--plot FILE.png` draws the
 * map with gnuplot, the closed-form boundary over it.
 *
 * The CSV: a line `# chartless sweep ...` with every option that changes a
 * number (the grid, --bits, the fixed parameters as given), a line
 * `# shard k/N of T cells`, the column names, then one row per cell in the
 * order cell = iy·Nx + ix (x fastest). An unsharded run is shard 1/1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chartless.h"
#include "cli.h"
#include "plot.h"
#include "cmd_system.h"

#define SWEEP_MAX_CELLS 100000000L
#define SWEEP_MAX_SHARDS 1000000L
#define BOUNDARY_SAMPLES 400

static const char help_text[] =
    "usage: chartless sweep --system NAME --x NAME=a:b:N [--y NAME=c:d:M] [--shard k/N] [--bits B]\n"
    "                       [--out FILE.csv] [--plot FILE.png] [PARAMETERS]\n"
    "       chartless sweep --merge [--out FILE.csv] [--plot FILE.png] SHARD.csv...\n\n"
    "A stability map: the verdict (stable, unstable or undecided) and its margin in every cell of a\n"
    "grid of one or two of the system's parameters, N (and M) values from a to b (c to d), ends\n"
    "included, as CSV at the working precision: a line '# chartless sweep ...' naming the grid, the\n"
    "precision and the fixed parameters, a line '# shard k/N of T cells', the columns\n"
    "'cell,X[,Y],verdict,margin', one row per cell, cell = iy*Nx + ix (x fastest).\n\n"
    "  --x NAME=a:b:N    the first axis: a parameter of the system's table, N >= 1 values\n"
    "                    (a < b; a = b when N = 1)\n"
    "  --y NAME=c:d:M    the second axis (another parameter)\n"
    "  --shard k/N       only the k-th of N contiguous blocks of cells (1 <= k <= N)\n"
    "  --merge FILES...  join the shards of one sweep (all N, any order) into the CSV of the\n"
    "                    unsharded run, byte for byte\n"
    "  --out FILE        write the CSV to FILE (atomically) instead of stdout\n"
    "  --plot FILE.png   draw the map with gnuplot, the system's closed-form boundary over it\n"
    "                    (a whole grid: an unsharded run or a merge)\n"
    "  --certify         proven verdicts (ball arithmetic): stable or unstable only when proven\n"
    "                    for the cell, else undecided (systems that offer it)\n"
    "  --bits B          working precision in bits, 2 to 65536 (default 53)\n"
    "  -h, --help        this text (with --system NAME: its parameters and verdict)\n\n"
    "On N machines: parallel chartless sweep ... --shard {}/N --out part{}.csv ::: $(seq N), then\n"
    "chartless sweep --merge part*.csv (docs/sweep.md; tools/slurm-sweep.sh for Slurm).\n\n"
    "exit status: 0 done (whatever the verdicts), 1 a computation failed, 2 bad input\n";

typedef struct sweep_opts { const char *x, *y, *shard, *out, *plot; } sweep_opts;

#define SWEEP_AXES CL_CMD_TEXT_OPTION("x", sweep_opts, x), CL_CMD_TEXT_OPTION("y", sweep_opts, y)

/* One axis: the parameter, its ends and its number of values. */
typedef struct axis {
    const char *spec;         /* as given: NAME=a:b:N */
    const char *opt;          /* "--x" or "--y" */
    char name[64], a[512], b[512];
    const cl_param *param;    /* its entry in the sweep's table */
    long n;
    size_t slot;              /* its entry in the parsed values */
} axis;

/* A prepared sweep: the system's hook, the axes and the parsed parameters. */
typedef struct sweep {
    const cl_system *sys;
    const cl_system_sweep *hook;
    axis ax[2];
    int naxes;
    long bits, total, shard_k, shard_n;
    int certify;              /* --certify: the hook's proven verdicts */
    cl_params p;
    int have_params;
    char *header;             /* the line '# chartless sweep ...' */
} sweep;

static void sweep_free(sweep *s)
{
    if (s->have_params) cl_params_free(&s->p);
    s->have_params = 0;
    free(s->header);
    s->header = NULL;
}

static int offers_sweep(const cl_system *s) { return s->sweep != NULL; }

/* NAME=a:b:N into \p x (values checked by the parameter table later). */
static int parse_axis(axis *x, const char *opt, const char *spec, const cl_param *table)
{
    x->spec = spec;
    x->opt = opt;
    const char *eq = strchr(spec, '='), *c1 = eq ? strchr(eq + 1, ':') : NULL, *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!eq || !c1 || !c2 || strchr(c2 + 1, ':') || eq == spec || c1 == eq + 1 || c2 == c1 + 1 ||
        (size_t)(eq - spec) >= sizeof x->name || (size_t)(c1 - eq) > sizeof x->a || (size_t)(c2 - c1) > sizeof x->b) {
        char msg[80];
        snprintf(msg, sizeof msg, "%s needs NAME=a:b:N", opt);
        return cl_cli_error(msg, spec);
    }
    memcpy(x->name, spec, (size_t)(eq - spec));
    x->name[eq - spec] = 0;
    memcpy(x->a, eq + 1, (size_t)(c1 - eq - 1));
    x->a[c1 - eq - 1] = 0;
    memcpy(x->b, c1 + 1, (size_t)(c2 - c1 - 1));
    x->b[c2 - c1 - 1] = 0;
    if (cl_parse_whole(c2 + 1, 1, SWEEP_MAX_CELLS, &x->n)) {
        char msg[120];
        snprintf(msg, sizeof msg, "the number of values N in %s NAME=a:b:N must be a whole number from 1 to %ld", opt,
                 SWEEP_MAX_CELLS);
        return cl_cli_error(msg, spec);
    }
    x->param = cl_param_find(table, x->name);
    if (!x->param || x->param->shape != CL_PARAM_NUMBER) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s: not a number parameter of this system's sweep (chartless sweep --system NAME --help)", opt);
        return cl_cli_error(msg, x->name);
    }
    return CL_EXIT_OK;
}

/* k/N into the sweep. */
static int parse_shard(sweep *s, const char *spec)
{
    const char *sl = spec ? strchr(spec, '/') : NULL;
    char k[32];
    if (!sl || (size_t)(sl - spec) >= sizeof k) return cl_cli_error("--shard needs k/N, 1 <= k <= N", spec);
    memcpy(k, spec, (size_t)(sl - spec));
    k[sl - spec] = 0;
    if (cl_parse_whole(sl + 1, 1, SWEEP_MAX_SHARDS, &s->shard_n)) {
        char msg[120];
        snprintf(msg, sizeof msg, "--shard k/N: N must be a whole number from 1 to %ld", SWEEP_MAX_SHARDS);
        return cl_cli_error(msg, spec);
    }
    if (cl_parse_whole(k, 1, s->shard_n, &s->shard_k)) return cl_cli_error("--shard k/N: k must be a whole number from 1 to N", spec);
    return CL_EXIT_OK;
}

/* The cells of shard k of n among total: [lo, hi). */
static void shard_range(long total, long k, long n, long *lo, long *hi)
{
    *lo = (long)((__int128)total * (k - 1) / n);
    *hi = (long)((__int128)total * k / n);
}

/* Parse the parameters with the swept ones given as \p end (0: a, 1: b): the table checks both ends. */
static int parse_with_ends(sweep *s, const cl_cmd_args *a, int end, cl_params *p)
{
    int n = a->nparams;
    const char **keys = malloc((size_t)(n + 2) * sizeof *keys), **vals = malloc((size_t)(n + 2) * sizeof *vals);
    if (!keys || !vals) { free(keys); free(vals); return cl_cli_error("out of memory", NULL); }
    memcpy(keys, a->keys, (size_t)n * sizeof *keys);
    memcpy(vals, a->vals, (size_t)n * sizeof *vals);
    for (int i = 0; i < s->naxes; i++) {
        keys[n + i] = s->ax[i].param->name;
        vals[n + i] = end ? s->ax[i].b : s->ax[i].a;
    }
    cl_sys_error e = {"", ""};
    int st = cl_params_parse(p, s->hook->params, n + s->naxes, keys, vals, (cl_prec_t)a->bits, &e);
    free(keys);
    free(vals);
    if (st) {
        char arg[700];
        snprintf(arg, sizeof arg, "%s", e.arg);
        for (int i = 0; i < s->naxes && !e.arg[0]; i++)
            if (strstr(e.what, s->ax[i].param->name)) snprintf(arg, sizeof arg, "%s %s", s->ax[i].opt, s->ax[i].spec);
        return cl_cli_error(e.what, arg[0] ? arg : NULL);
    }
    return CL_EXIT_OK;
}

/* The line '# chartless sweep ...': the options that change a number, the parameters in the table's order. */
static char *header_line(const sweep *s, const cl_cmd_args *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "# chartless sweep --system %s", s->sys->name);
    for (int i = 0; i < s->naxes; i++) fprintf(f, " %s %s", s->ax[i].opt, s->ax[i].spec);
    fprintf(f, " --bits %ld%s", a->bits, s->certify ? " --certify" : "");
    for (const cl_param *t = s->hook->params; t->name; t++)
        for (int k = 0; k < a->nparams; k++)
            if (cl_param_find(s->hook->params, a->keys[k]) == t) {
                fprintf(f, " --%s", t->name);
                if (a->vals[k]) fprintf(f, " %s", a->vals[k]);
            }
    fputc('\n', f);
    if (fclose(f)) { free(buf); return NULL; }
    return buf;
}

/* Check the command line and parse it into \p s; 0 or exit status 2 (message printed). */
static int sweep_prepare(sweep *s, const cl_cmd_args *a, const sweep_opts *o, int certify)
{
    memset(s, 0, sizeof *s);
    s->certify = certify;
    s->bits = a->bits;
    s->shard_k = s->shard_n = 1;
    char with[256], msg[400];
    cl_cmd_systems_with(with, sizeof with, offers_sweep);
    if (a->model) return cl_cli_error("sweep needs a named system with a stability verdict, not a model", a->model);
    if (!a->system) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer sweep: %s)", with);
        return cl_cli_error(msg, NULL);
    }
    s->sys = cl_system_find(a->system);
    if (!s->sys) return cl_cli_error("unknown system; chartless systems lists them", a->system);
    if (!(s->hook = s->sys->sweep)) {
        snprintf(msg, sizeof msg, "sweep is offered by %s only", with);
        return cl_cli_error(msg, a->system);
    }
    if (a->form) return cl_cli_error("unknown option", "--form");
    if (certify && !s->hook->cell_certified) return cl_cli_error("this system's sweep has no certified verdicts", "--certify");
    if (!o->x) return cl_cli_error("--x NAME=a:b:N is required", "--x");
    int st = parse_axis(&s->ax[0], "--x", o->x, s->hook->params);
    s->naxes = 1;
    if (!st && o->y) {
        st = parse_axis(&s->ax[1], "--y", o->y, s->hook->params);
        s->naxes = 2;
        if (!st && s->ax[1].param == s->ax[0].param) st = cl_cli_error("--x and --y sweep the same parameter", o->y);
    }
    for (int i = 0; i < s->naxes && !st; i++)
        for (int k = 0; k < a->nparams && !st; k++)
            if (cl_param_find(s->hook->params, a->keys[k]) == s->ax[i].param) {
                snprintf(msg, sizeof msg, "--%s is swept by %s; give it there only", a->keys[k], s->ax[i].opt);
                st = cl_cli_error(msg, s->ax[i].spec);
            }
    for (int k = 0; k < a->nparams && !st; k++)
        if (a->vals[k] && strpbrk(a->vals[k], "\n\r")) st = cl_cli_error("a value must not contain a line break", a->keys[k]);
    if (!st && o->shard) st = parse_shard(s, o->shard);
    if (st) return st;
    s->total = s->ax[0].n;
    if (s->naxes == 2) {
        if (s->ax[1].n > SWEEP_MAX_CELLS / s->total) {
            snprintf(msg, sizeof msg, "a grid of more than %ld cells", SWEEP_MAX_CELLS);
            return cl_cli_error(msg, o->y);
        }
        s->total *= s->ax[1].n;
    }
    /* Both ends through the table (format, constraint), then the order of the ends. */
    cl_params pb;
    if ((st = parse_with_ends(s, a, 1, &pb))) return st;
    if ((st = parse_with_ends(s, a, 0, &s->p))) { cl_params_free(&pb); return st; }
    s->have_params = 1;
    for (int i = 0; i < s->naxes && !st; i++) {
        axis *x = s->ax + i;
        x->slot = (size_t)(x->param - s->hook->params);
        mpfr_srcptr va = s->p.v[x->slot].x, vb = pb.v[x->slot].x;
        int c = mpfr_cmp(va, vb);
        if (x->n == 1 && c) {
            snprintf(msg, sizeof msg, "%s: with N = 1, a and b must be equal", x->opt);
            st = cl_cli_error(msg, x->spec);
        } else if (x->n > 1 && c >= 0) {
            snprintf(msg, sizeof msg, "%s: a must be less than b", x->opt);
            st = cl_cli_error(msg, x->spec);
        } else if (x->param->constraint == CL_PARAM_NONZERO && mpfr_sgn(va) != mpfr_sgn(vb)) {
            snprintf(msg, sizeof msg, "%s: the range crosses 0, where %s must not be", x->opt, x->name);
            st = cl_cli_error(msg, x->spec);
        }
    }
    cl_params_free(&pb);
    if (!st && !(s->header = header_line(s, a))) st = cl_cli_error("out of memory", NULL);
    return st;
}

/* Axis \p i's value number \p j: a + (b − a)·j/(N − 1), b itself at j = N − 1. */
static void axis_value(mpfr_ptr v, const axis *x, mpfr_srcptr a, mpfr_srcptr b, long j)
{
    if (j == x->n - 1) { mpfr_set(v, b, MPFR_RNDN); return; }
    mpfr_sub(v, b, a, MPFR_RNDN);
    mpfr_mul_si(v, v, j, MPFR_RNDN);
    mpfr_div_si(v, v, x->n - 1, MPFR_RNDN);
    mpfr_add(v, v, a, MPFR_RNDN);
}

static const char *verdict_word(int v)
{
    return v == CL_SWEEP_STABLE ? "stable" : v == CL_SWEEP_UNSTABLE ? "unstable" : "undecided";
}

static void columns_line(FILE *f, const sweep *s)
{
    fprintf(f, "cell,%s", s->ax[0].param->name);
    if (s->naxes == 2) fprintf(f, ",%s", s->ax[1].param->name);
    fprintf(f, ",verdict,margin\n");
}

/* The rows of cells [lo, hi) into \p f; a CL_EXIT_ status (message printed). */
static int compute_rows(sweep *s, FILE *f, long lo, long hi)
{
    cl_prec_t prec = (cl_prec_t)s->bits;
    mpfr_ptr ends = cl_rvec_new_mp(5, prec);
    if (!ends) return cl_cli_error("out of memory", NULL);
    mpfr_ptr margin = ends + 4;
    for (int i = 0; i < s->naxes; i++) {
        mpfr_set(ends + 2 * i, s->p.v[s->ax[i].slot].x, MPFR_RNDN);
        cl_real_from_str_mp(ends + 2 * i + 1, s->ax[i].b); /* checked by parse_with_ends */
    }
    int tty = isatty(2), st = CL_EXIT_OK;
    for (long c = lo; c < hi && !st; c++) {
        long j[2] = {c % s->ax[0].n, c / s->ax[0].n};
        for (int i = 0; i < s->naxes; i++) axis_value(s->p.v[s->ax[i].slot].x, s->ax + i, ends + 2 * i, ends + 2 * i + 1, j[i]);
        int verdict = CL_SWEEP_UNDECIDED;
        cl_sys_error e = {"", ""};
        int r = (s->certify ? s->hook->cell_certified : s->hook->cell)(&s->p, prec, &verdict, margin, &e);
        if (r) {
            char arg[1200];
            size_t k = (size_t)snprintf(arg, sizeof arg, "%s%scell %ld:", e.arg, e.arg[0] ? "; " : "", c);
            for (int i = 0; i < s->naxes && k < sizeof arg; i++)
                k += (size_t)mpfr_snprintf(arg + k, sizeof arg - k, "%s %s = %.17Rg", i ? "," : "", s->ax[i].param->name,
                                           s->p.v[s->ax[i].slot].x);
            cl_cli_error(e.what, arg);
            st = r == CL_RUN_BADINPUT ? CL_EXIT_USAGE : CL_EXIT_FAIL;
            break;
        }
        fprintf(f, "%ld", c);
        for (int i = 0; i < s->naxes; i++) {
            fputc(',', f);
            cl_sys_print_real(f, s->p.v[s->ax[i].slot].x);
        }
        fprintf(f, ",%s,", verdict_word(verdict));
        cl_sys_print_real(f, margin);
        fputc('\n', f);
        if (tty && (c - lo) % 200 == 199) fprintf(stderr, "\r%ld of %ld cells", c - lo + 1, hi - lo);
    }
    if (tty && hi - lo >= 200) fprintf(stderr, "\r%40s\r", "");
    cl_rvec_free_mp(ends);
    return st;
}

/* ------------------------------------------------------------ plot */

/* The gnuplot data of the map, "x y code" (1-D: "x code"), from the CSV rows read from \p rows. */
static int map_data(FILE *g, const sweep *s, FILE *rows)
{
    int ncol = s->naxes + 3, bad = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!bad && (len = getline(&line, &cap, rows)) > 0) {
        const char *f[6];
        int k = 0;
        f[k++] = line;
        for (const char *q = line; q < line + len && k < 6; q++)
            if (*q == ',') f[k++] = q + 1;
        if (k != ncol || line[len - 1] != '\n') { bad = 1; break; }
        const char *vw = f[ncol - 2];
        int code = !strncmp(vw, "stable,", 7) ? 1 : !strncmp(vw, "unstable,", 9) ? -1 : 0;
        for (int i = 1; i <= s->naxes; i++) fprintf(g, "%.*s ", (int)(f[i + 1] - f[i] - 1), f[i]);
        fprintf(g, "%d\n", code);
    }
    free(line);
    return bad || ferror(rows) ? -1 : 0;
}

/* The boundary: for 2-D, y solved at BOUNDARY_SAMPLES values of x, each branch a curve. */
static int boundary_data(FILE *g, sweep *s, mpfr_ptr w, const char **label)
{
    int any = 0;
    cl_prec_t prec = (cl_prec_t)s->bits;
    mpfr_ptr a = w, b = w + 1, at = w + 2, x = s->p.v[s->ax[0].slot].x;
    cl_real_from_str_mp(a, s->ax[0].a);
    cl_real_from_str_mp(b, s->ax[0].b);
    axis fine = s->ax[0];
    fine.n = BOUNDARY_SAMPLES;
    for (int branch = 0; branch < 2; branch++) {
        for (long j = 0; j < BOUNDARY_SAMPLES; j++) {
            axis_value(x, &fine, a, b, j);
            int n = s->hook->boundary(&s->p, prec, s->ax[1].param->name, at, label);
            any |= n > 0;
            if (n > branch) mpfr_fprintf(g, "%.17Rg %.17Rg\n", x, at + branch);
            else fputc('\n', g);
        }
        fputc('\n', g);
    }
    return any;
}

/* Draw the map of \p rows into the file \p png (the user's name \p png_name). */
static int plot(sweep *s, FILE *rows, const char *png, const char *png_name)
{
    cl_cli_plot script;
    if (cl_cli_plot_open(&script, png, 900, 700, 0)) return cl_cli_error("cannot create a temporary file", png_name);
    FILE *g = script.f;
    mpfr_ptr w = cl_rvec_new_mp(4, (cl_prec_t)s->bits);
    if (!w) { cl_cli_plot_abort(&script); return cl_cli_error("out of memory", NULL); }
    const axis *x = s->ax, *y = s->ax + 1;
    fprintf(g, "set title 'chartless sweep: %s, %ld bits'\nset xlabel '%s'\n", s->sys->name, s->bits, x->param->name);
    fprintf(g, "set palette defined (-1 '#d7301f', 0 '#bdbdbd', 1 '#2b8cbe')\nset cbrange [-1:1]\n"
               "set palette maxcolors 3\nset cbtics ('unstable' -1, 'undecided' 0, 'stable' 1)\nset rmargin 16\n"
               "set key outside top center horizontal\nset xtics rotate by 30 right\n");
    fprintf(g, "$map << EOD\n");
    int bad = map_data(g, s, rows);
    fprintf(g, "EOD\n");
    int have_boundary = s->hook->boundary != NULL;
    const char *label = "boundary";
    if (s->naxes == 2 && have_boundary) {
        fprintf(g, "$boundary << EOD\n");
        have_boundary = boundary_data(g, s, w, &label);
        fprintf(g, "EOD\n");
    }
    /* the ranges of the cells: each value the centre of its cell */
    for (int i = 0; i < s->naxes; i++) {
        const axis *v = s->ax + i;
        cl_real_from_str_mp(w, v->a);
        cl_real_from_str_mp(w + 1, v->b);
        mpfr_sub(w + 2, w + 1, w, MPFR_RNDN);
        mpfr_div_si(w + 2, w + 2, v->n > 1 ? 2 * (v->n - 1) : 1, MPFR_RNDN);
        if (v->n == 1) mpfr_set_d(w + 2, 0.5, MPFR_RNDN);
        mpfr_sub(w, w, w + 2, MPFR_RNDN);
        mpfr_add(w + 1, w + 1, w + 2, MPFR_RNDN);
        mpfr_fprintf(g, "set %srange [%.17Rg:%.17Rg]\n", i ? "y" : "x", w, w + 1);
    }
    if (s->naxes == 2) {
        fprintf(g, "set ylabel '%s'\nplot $map using 1:2:3 with image notitle", y->param->name);
        if (have_boundary) fprintf(g, ", $boundary using 1:2 with lines lw 2 lc rgb 'black' title '%s'", label);
        fputc('\n', g);
    } else {
        int n = have_boundary ? s->hook->boundary(&s->p, (cl_prec_t)s->bits, x->param->name, w, &label) : 0;
        for (int i = 0; i < n; i++)
            mpfr_fprintf(g, "set arrow from %.17Rg, graph 0 to %.17Rg, graph 1 nohead front lw 2 lc rgb 'black'\n", w + i, w + i);
        fprintf(g, "set yrange [0:1]\nunset ytics\nset style fill solid\nset boxwidth 1 relative\n"
                   "plot $map using 1:(1):2 with boxes lc palette notitle");
        if (n) fprintf(g, ", NaN with lines lw 2 lc rgb 'black' title '%s'", label);
        fputc('\n', g);
    }
    cl_rvec_free_mp(w);
    if (bad) {
        cl_cli_plot_abort(&script);
        return cl_cli_error("cannot read the map back for the plot", png_name);
    }
    char err[600];
    if (cl_cli_plot_run(&script, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return cl_cli_error("gnuplot failed to draw", png_name);
    }
    return CL_EXIT_OK;
}

/*
 * Where the CSV goes while it is made: the temporary file of --out (renamed
 * onto it when complete), or an anonymous temporary file copied to stdout
 * when complete; so a run that fails writes nothing, whatever its size.
 */
typedef struct sink {
    cl_cli_out csv;
    FILE *f;          /* the CSV being written */
    const char *out;  /* --out, or NULL for stdout */
    long rows_at;     /* where the rows begin */
} sink;

static int sink_open(sink *k, const char *out)
{
    memset(k, 0, sizeof *k);
    k->csv.slot = -1;
    k->out = out;
    if (out) {
        int st = cl_cli_out_open(&k->csv, out);
        k->f = st ? NULL : k->csv.f;
        return st;
    }
    if (!(k->f = tmpfile())) return cl_cli_error("cannot create a temporary file", "stdout");
    return CL_EXIT_OK;
}

static void sink_abort(sink *k)
{
    if (!k->out && k->f) fclose(k->f);
    k->f = NULL;
    cl_cli_out_abort(&k->csv);
}

/* The CSV is complete: draw it (\p png_path), then rename it onto --out or copy it to stdout; an exit status. */
static int sink_finish(sink *k, sweep *s, const char *png_path)
{
    cl_cli_out png = {.slot = -1};
    FILE *data = NULL;
    int st = fflush(k->f) || ferror(k->f) ? cl_cli_error("cannot write", k->out ? k->out : "a temporary file") : CL_EXIT_OK;
    if (!st && k->out) {
        st = cl_cli_out_close(&k->csv);
        k->f = NULL;
        if (!st && !(data = fopen(k->csv.tmp, "r"))) st = cl_cli_error("cannot read back the CSV", k->out);
    } else
        data = k->f;
    if (!st && png_path && !(st = cl_cli_out_open(&png, png_path)) && !(st = cl_cli_out_close(&png))) {
        if (fseek(data, k->rows_at, SEEK_SET)) st = cl_cli_error("cannot read back the CSV", png_path);
        else st = plot(s, data, png.tmp, png_path);
    }
    if (!st && k->out) st = cl_cli_out_commit(&k->csv);
    if (!st && png_path) st = cl_cli_out_commit(&png);
    if (!st && !k->out) st = fseek(data, 0, SEEK_SET) ? cl_cli_error("cannot read back the CSV", "a temporary file") : cl_cli_copy_to_stdout(data, "a temporary file");
    if (data && data != k->f) fclose(data);
    cl_cli_out_abort(&png);
    sink_abort(k);
    return st;
}

/* ------------------------------------------------------------ merge */

typedef struct shard_file {
    const char *path;
    long k, n, total;
    char *line[3];    /* '# chartless sweep ...', '# shard k/N of T cells', the columns */
    size_t len[3];
} shard_file;

static void shard_free(shard_file *f)
{
    for (int i = 0; i < 3; i++) free(f->line[i]);
}

/* One whole line (ending in a newline, no NUL byte) into *line; its length, or 0 at the end or on a bad line (*bad set). */
static size_t read_line(FILE *in, char **line, size_t *cap, int *bad)
{
    ssize_t n = getline(line, cap, in);
    if (n <= 0) return 0;
    if ((*line)[n - 1] != '\n' || strlen(*line) != (size_t)n) { *bad = 1; return 0; }
    return (size_t)n;
}

/* The three lines that open a shard, checked; 0 or exit status 2 (message printed). */
static int read_head(FILE *in, shard_file *f)
{
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        size_t cap = 0;
        f->line[i] = NULL;
        f->len[i] = read_line(in, &f->line[i], &cap, &bad);
        if (!f->len[i]) return cl_cli_error(bad ? "not a sweep CSV (a line cut short or with a NUL byte)" : "not a sweep CSV (too short)", f->path);
    }
    if (strncmp(f->line[0], "# chartless sweep ", 18)) return cl_cli_error("not a sweep CSV (no '# chartless sweep' line)", f->path);
    char again[120];
    if (sscanf(f->line[1], "# shard %ld/%ld of %ld cells", &f->k, &f->n, &f->total) != 3 || f->k < 1 || f->k > f->n ||
        f->total < 1 || (size_t)snprintf(again, sizeof again, "# shard %ld/%ld of %ld cells\n", f->k, f->n, f->total) != f->len[1] ||
        strcmp(again, f->line[1]))
        return cl_cli_error("not a sweep CSV (no '# shard k/N of T cells' line)", f->path);
    if (strncmp(f->line[2], "cell,", 5)) return cl_cli_error("not a sweep CSV (no column line)", f->path);
    return CL_EXIT_OK;
}

/* Check the rows of shard \p f (its cells, in order, each a whole line), copying them to \p out unless NULL. */
static int scan_rows(FILE *in, const shard_file *f, FILE *out)
{
    long lo, hi;
    shard_range(f->total, f->k, f->n, &lo, &hi);
    char *line = NULL, idx[32];
    size_t cap = 0, len;
    int bad = 0, st = CL_EXIT_OK;
    for (long c = lo; c < hi && !st; c++) {
        int k = snprintf(idx, sizeof idx, "%ld,", c);
        if (!(len = read_line(in, &line, &cap, &bad)))
            st = cl_cli_error(bad ? "the shard is cut short (a line without its end, or a NUL byte)" : "the shard's cells are incomplete",
                              f->path);
        else if (strncmp(line, idx, (size_t)k))
            st = cl_cli_error("the shard's cells are incomplete or out of order", f->path);
        else if (out)
            fwrite(line, 1, len, out);
    }
    if (!st && (getline(&line, &cap, in) > 0)) st = cl_cli_error("the shard has rows beyond its cells", f->path);
    if (!st && ferror(in)) st = cl_cli_error("cannot read the shard", f->path);
    free(line);
    return st;
}

/* Read and check one shard file (\p out: copy its rows there); 0 or exit status 2 (message printed). */
static int read_shard(shard_file *f, FILE *out)
{
    FILE *in = fopen(f->path, "r");
    if (!in) return cl_cli_error("cannot read the shard", f->path);
    shard_file again = {.path = f->path};
    int st = read_head(in, out ? &again : f);
    if (!st && out && (again.k != f->k || strcmp(again.line[0], f->line[0]) || strcmp(again.line[2], f->line[2])))
        st = cl_cli_error("the shard changed while it was merged", f->path);
    if (out) shard_free(&again);
    if (!st) st = scan_rows(in, f, out);
    fclose(in);
    return st;
}

/* Remove every \p flag (an option without a value) from argv; how many there were. */
static int take_flag(int *argc, char **argv, const char *flag)
{
    int n = 0, k = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], flag)) n++;
        else argv[k++] = argv[i];
    }
    *argc = k;
    return n;
}

/* Split the '# chartless sweep ...' line back into arguments (values never hold blanks). */
static int header_args(char *line, char **argv, int max)
{
    int argc = 0;
    for (char *t = strtok(line + 11, " \n"); t && argc < max; t = strtok(NULL, " \n")) argv[argc++] = t;
    return argc;
}

static int cmd_merge(int argc, char **argv)
{
    const char *out = NULL, *png_path = NULL;
    int nfiles = 0, st = CL_EXIT_OK;
    shard_file *files = calloc((size_t)argc, sizeof *files);
    if (!files) return cl_cli_error("out of memory", NULL);
    for (int i = 1; i < argc && !st; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--merge")) continue;
        if (!strcmp(arg, "--out") || !strcmp(arg, "--plot")) {
            const char **dst = arg[2] == 'o' ? &out : &png_path;
            if (*dst) st = cl_cli_error("option given twice", arg);
            else if (i + 1 >= argc) st = cl_cli_error("option needs a value", arg);
            else *dst = argv[++i];
        } else if (!strncmp(arg, "--out=", 6) || !strncmp(arg, "--plot=", 7)) {
            const char **dst = arg[2] == 'o' ? &out : &png_path;
            if (*dst) st = cl_cli_error("option given twice", arg);
            else *dst = strchr(arg, '=') + 1;
        } else if (arg[0] == '-' && arg[1]) {
            st = cl_cli_error("unknown option (--merge takes --out, --plot and the shard files)", arg);
        } else {
            files[nfiles++].path = arg;
        }
    }
    if (!st && !nfiles) st = cl_cli_error("--merge needs the shard files", "--merge");
    if (!st && out && png_path && !strcmp(out, png_path)) st = cl_cli_error("--out and --plot name the same file", out);
    if (!st && out) st = cl_cli_check_target(out);
    if (!st && png_path) st = cl_cli_check_plot(png_path);
    for (int i = 0; i < nfiles && !st; i++) st = read_shard(files + i, NULL);
    shard_file **order = NULL, *f0 = files;
    if (!st && !(order = calloc((size_t)f0->n, sizeof *order))) st = cl_cli_error("out of memory", NULL);
    for (int i = 0; i < nfiles && !st; i++) {
        shard_file *f = files + i;
        char msg[160];
        if (strcmp(f->line[0], f0->line[0]) || strcmp(f->line[2], f0->line[2]) || f->total != f0->total) {
            snprintf(msg, sizeof msg, "the shard is of another sweep than %s", f0->path);
            st = cl_cli_error(msg, f->path);
        } else if (f->n != f0->n) {
            snprintf(msg, sizeof msg, "the shard is one of %ld, %s one of %ld", f->n, f0->path, f0->n);
            st = cl_cli_error(msg, f->path);
        } else if (order[f->k - 1]) {
            snprintf(msg, sizeof msg, "shard %ld/%ld given twice (also %s)", f->k, f->n, order[f->k - 1]->path);
            st = cl_cli_error(msg, f->path);
        } else
            order[f->k - 1] = f;
    }
    for (long k = 0; !st && k < f0->n; k++)
        if (!order[k]) {
            char msg[80];
            snprintf(msg, sizeof msg, "shard %ld/%ld is missing", k + 1, f0->n);
            st = cl_cli_error(msg, "--merge");
        }
    sweep s;
    memset(&s, 0, sizeof s);
    int prepared = 0;
    if (!st && png_path) { /* the sweep again from its first line, for the axes and the boundary */
        char *line = strdup(f0->line[0]), *args[256];
        int n = line ? header_args(line, args, 256) : 0;
        cl_cmd_args a;
        sweep_opts o = {0};
        static const cl_cmd_option extra[] = {SWEEP_AXES, CL_CMD_OPTIONS_END};
        int certify = take_flag(&n, args, "--certify");
        st = !line ? cl_cli_error("out of memory", NULL) : cl_cmd_scan(n, args, extra, NULL, &o, 0, &a);
        if (!st) {
            st = sweep_prepare(&s, &a, &o, certify);
            prepared = 1;
            cl_cmd_args_free(&a);
        }
        if (!st && s.total != f0->total) st = cl_cli_error("the shard's first line does not give its grid", f0->path);
        if (st) fprintf(stderr, "(from the first line of %s)\n", f0->path);
        free(line);
    }
    sink k;
    if (!st && !(st = sink_open(&k, out))) {
        fputs(f0->line[0], k.f);
        fprintf(k.f, "# shard 1/1 of %ld cells\n", f0->total);
        fputs(f0->line[2], k.f);
        k.rows_at = ftell(k.f);
        for (long i = 0; i < f0->n && !st; i++) st = read_shard(order[i], k.f);
        if (st) sink_abort(&k);
        else st = sink_finish(&k, &s, png_path);
    }
    if (prepared) sweep_free(&s);
    for (int i = 0; i < nfiles; i++) shard_free(files + i);
    free(files);
    free(order);
    return st;
}

/* ------------------------------------------------------------ sweep */

static int cmd_sweep(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--merge")) return cmd_merge(argc, argv);
    static const cl_cmd_option extra[] = {SWEEP_AXES, CL_CMD_TEXT_OPTION("shard", sweep_opts, shard),
                                          CL_CMD_TEXT_OPTION("out", sweep_opts, out),
                                          CL_CMD_TEXT_OPTION("plot", sweep_opts, plot), CL_CMD_OPTIONS_END};
    sweep_opts o = {0};
    cl_cmd_args a;
    int certify = take_flag(&argc, argv, "--certify");
    if (certify > 1) return cl_cli_error("option given twice", "--certify");
    int st = cl_cmd_scan(argc, argv, extra, NULL, &o, 0, &a);
    if (st) return st;
    if (a.help) {
        fputs(help_text, stdout);
        const cl_system *sys = a.system ? cl_system_find(a.system) : NULL;
        if (sys && sys->sweep) {
            printf("\n%s\nparameters (any number parameter can be an axis):\n", sys->sweep->usage);
            cl_params_help(stdout, sys->sweep->params);
        } else {
            char with[256];
            cl_cmd_systems_with(with, sizeof with, offers_sweep);
            printf("\nsystems that offer sweep: %s (chartless sweep --system NAME --help)\n", with);
        }
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    sweep s;
    st = sweep_prepare(&s, &a, &o, certify);
    if (!st && o.plot && s.shard_n > 1) st = cl_cli_error("--plot draws a whole grid: plot the merged shards (--merge --plot)", o.plot);
    if (!st && o.out && o.plot && !strcmp(o.out, o.plot)) st = cl_cli_error("--out and --plot name the same file", o.out);
    if (!st && o.out) st = cl_cli_check_target(o.out);
    if (!st && o.plot) st = cl_cli_check_plot(o.plot);
    sink k;
    if (!st && !(st = sink_open(&k, o.out))) {
        long lo, hi;
        shard_range(s.total, s.shard_k, s.shard_n, &lo, &hi);
        fputs(s.header, k.f);
        fprintf(k.f, "# shard %ld/%ld of %ld cells\n", s.shard_k, s.shard_n, s.total);
        columns_line(k.f, &s);
        k.rows_at = ftell(k.f);
        st = compute_rows(&s, k.f, lo, hi);
        if (st) sink_abort(&k);
        else st = sink_finish(&k, &s, o.plot);
    }
    sweep_free(&s);
    cl_cmd_args_free(&a);
    return st;
}

static const cl_command sweep_command = {"sweep", "stability map over a grid of one or two parameters, as CSV (shards, merge, plot)",
                                         cmd_sweep};
CL_COMMAND_REGISTER(sweep_command)

/*
 * `chartless sweep --merge SHARD.csv...`: the shards of one sweep joined into
 * the CSV of the unsharded run, byte for byte, every shard checked first;
 * and the plot of a whole map (`--plot`), drawn by gnuplot from the rows,
 * with the system's closed-form boundary over it when it has one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "plot.h"
#include "cmd_system.h"
#include "sweep.h"

#define BOUNDARY_SAMPLES 400


/* The gnuplot data of the map, "x y code" (1-D: "x code"), from the CSV rows read from \p rows. */
static int map_data(FILE *g, const sweep *s, FILE *rows)
{
    int ncol = s->hook ? s->naxes + 3 : s->naxes + 1 + sweep_generic_width(s) * s->neq, vcol = sweep_verdict_column(s), bad = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!bad && (len = getline(&line, &cap, rows)) > 0) {
        const char *f[ncol + 1];
        int k = 0;
        f[k++] = line;
        for (const char *q = line; q < line + len && k <= ncol; q++)
            if (*q == ',') f[k++] = q + 1;
        if (k != ncol || line[len - 1] != '\n') { bad = 1; break; }
        const char *vw = f[vcol];
        if (!strncmp(vw, "proven ", 7)) vw += 7; /* --certify: proven stable, proven unstable, undecided */
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
            sweep_axis_value(x, &fine, a, b, j);
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
int sweep_plot(sweep *s, FILE *rows, const char *png, const char *png_name)
{
    cl_cli_plot script;
    if (cl_cli_plot_open(&script, png, 900, 700, 0)) return cl_cli_error("cannot create a temporary file", png_name);
    FILE *g = script.f;
    mpfr_ptr w = cl_rvec_new_mp(4, (cl_prec_t)s->bits);
    if (!w) { cl_cli_plot_abort(&script); return cl_cli_error("out of memory", NULL); }
    const axis *x = s->ax, *y = s->ax + 1;
    fprintf(g, "set title 'chartless sweep: %s%s%s%s, %ld bits'\nset xlabel '%s'\n", s->sys->name, s->hook ? "" : " (",
            s->hook ? "" : s->eq[0].prefix, s->hook ? "" : ")", s->bits, x->param->name);
    fprintf(g, "set palette defined (-1 '#d7301f', 0 '#bdbdbd', 1 '#2b8cbe')\nset cbrange [-1:1]\n"
               "set palette maxcolors 3\nset cbtics ('unstable' -1, 'undecided' 0, 'stable' 1)\nset rmargin 16\n"
               "set key outside top center horizontal\nset xtics rotate by 30 right\n");
    fprintf(g, "$map << EOD\n");
    int bad = map_data(g, s, rows);
    fprintf(g, "EOD\n");
    int have_boundary = s->hook && s->hook->boundary;
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
    sweep_shard_range(f->total, f->k, f->n, &lo, &hi);
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


/* Split the '# chartless sweep ...' line back into arguments (values never hold blanks). */
static int header_args(char *line, char **argv, int max)
{
    int argc = 0;
    for (char *t = strtok(line + 11, " \n"); t && argc < max; t = strtok(NULL, " \n")) argv[argc++] = t;
    return argc;
}

int sweep_merge(int argc, char **argv, int json)
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
        int certify = sweep_take_flag(&n, args, "--certify");
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
    if (!st && !(st = sweep_sink_open(&k, out, json))) {
        fputs(f0->line[0], k.f);
        fprintf(k.f, "# shard 1/1 of %ld cells\n", f0->total);
        fputs(f0->line[2], k.f);
        k.rows_at = ftell(k.f);
        for (long i = 0; i < f0->n && !st; i++) st = read_shard(order[i], k.f);
        if (st) sweep_sink_abort(&k);
        else st = sweep_sink_finish(&k, &s, png_path);
    }
    if (prepared) sweep_free(&s);
    for (int i = 0; i < nfiles; i++) shard_free(files + i);
    free(files);
    free(order);
    return st;
}

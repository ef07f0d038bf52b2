/*
 * `chartless sweep --system NAME --x NAME=a:b:N [--y NAME=c:d:M]`: a stability
 * map as CSV at the working precision. A system with a sweep hook of its
 * own (cl_system_sweep) gives each cell's verdict and margin; any other
 * system or model with equilibria gets the generic map (sweep_generic.c):
 * the verdict of each equilibrium from its linearization and the
 * Energy-Casimir test. `--shard k/N` computes the k-th of N contiguous
 * blocks of cells, `--merge FILES...` joins the blocks into the CSV of the
 * unsharded run (sweep_merge.c), `--plot FILE.png` draws the map with
 * gnuplot, the closed-form boundary over it, `--format json` writes the
 * CSV as one JSON object.
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
#include "cmd_system.h"
#include "json.h"
#include "sweep.h"

static const char help_text[] =
    "usage: chartless sweep --system NAME --x NAME=a:b:N [--y NAME=c:d:M] [--shard k/N] [--bits B]\n"
    "                       [--out FILE.csv] [--plot FILE.png] [--format json] [PARAMETERS]\n"
    "       chartless sweep --model FILE --x NAME=a:b:N [--y ...] [--form F] [--equilibrium all|K|NAME] ...\n"
    "       chartless sweep --merge [--out FILE.csv] [--plot FILE.png] [--format json] SHARD.csv...\n\n"
    "A stability map: the verdict (stable, unstable or undecided) and its margin in every cell of a\n"
    "grid of one or two of the system's parameters, N (and M) values from a to b (c to d), ends\n"
    "included, as CSV at the working precision: a line '# chartless sweep ...' naming the grid, the\n"
    "precision and the fixed parameters, a line '# shard k/N of T cells', the columns\n"
    "'cell,X[,Y],verdict,margin', one row per cell, cell = iy*Nx + ix (x fastest).\n"
    "A system without maps of its own (any system or model with equilibria) gets the generic map:\n"
    "for each equilibrium E the columns 'E.verdict,E.max_re,E.ec_margin' (docs/sweep.md): stable\n"
    "when the Energy-Casimir test is definite or every eigenvalue of the linearization has a negative\n"
    "real part, unstable when one has a positive real part, none where E is not an equilibrium.\n\n"
    "  --x NAME=a:b:N    the first axis: a parameter of the system's table, N >= 1 values\n"
    "                    (a < b; a = b when N = 1)\n"
    "  --y NAME=c:d:M    the second axis (another parameter)\n"
    "  --shard k/N       only the k-th of N contiguous blocks of cells (1 <= k <= N)\n"
    "  --merge FILES...  join the shards of one sweep (all N, any order) into the CSV of the\n"
    "                    unsharded run, byte for byte\n"
    "  --out FILE        write the CSV to FILE (atomically) instead of stdout\n"
    "  --plot FILE.png   draw the map with gnuplot, the system's closed-form boundary over it\n"
    "                    (a whole grid: an unsharded run or a merge; the generic map: the first\n"
    "                    equilibrium followed)\n"
    "  --certify         proven verdicts (ball arithmetic): stable or unstable only when proven\n"
    "                    (a model file: a column EQ.certified per equilibrium, proven stable,\n"
    "                    proven unstable, undecided or none, each cell's parameters exact balls;\n"
    "                    --plot colours a cell by it, undecided ones in the middle colour)\n"
    "                    for the cell, else undecided (systems that offer it)\n"
    "  --form F          the generic map: the form of the equilibria (default: the first that has them)\n"
    "  --equilibrium E   the generic map: all (default), a number from 0, or the first word of a name\n"
    "  --format FMT      csv (default) or json: the same columns and rows as one JSON object\n"
    "                    (docs/sweep.schema.json; not for a shard: merge the shards with --format json)\n"
    "  --bits B          working precision in bits, 2 to 65536 (default 53)\n"
    "  -h, --help        this text (with --system NAME: its parameters and verdict)\n\n"
    "On N machines: parallel chartless sweep ... --shard {}/N --out part{}.csv ::: $(seq N), then\n"
    "chartless sweep --merge part*.csv (docs/sweep.md; tools/slurm-sweep.sh for Slurm).\n\n"
    "exit status: 0 done (whatever the verdicts), 1 a computation failed, 2 bad input\n";

void sweep_free(sweep *s)
{
    if (s->have_params) cl_params_free(&s->p);
    s->have_params = 0;
    free(s->header);
    s->header = NULL;
    free(s->eq);
    s->eq = NULL;
    if (s->from_model && s->sys) cl_model_system_free(s->sys);
    s->from_model = 0;
    cl_model_ball_free(s->ball);
    s->ball = NULL;
}

static int offers_sweep(const cl_system *s) { return cl_system_offers_sweep(s); }

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
void sweep_shard_range(long total, long k, long n, long *lo, long *hi)
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
    int m = 0;
    for (int i = 0; i < n; i++) /* the generic map's own option is no parameter */
        if (s->hook || strcmp(a->keys[i], "equilibrium")) {
            keys[m] = a->keys[i];
            vals[m++] = a->vals[i];
        }
    n = m;
    for (int i = 0; i < s->naxes; i++) {
        keys[n + i] = s->ax[i].param->name;
        vals[n + i] = end ? s->ax[i].b : s->ax[i].a;
    }
    cl_sys_error e = {"", ""};
    int st = cl_params_parse(p, s->table, n + s->naxes, keys, vals, (cl_prec_t)a->bits, &e);
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
    fprintf(f, "# chartless sweep %s %s", s->from_model ? "--model" : "--system", a->model ? a->model : s->sys->name);
    for (int i = 0; i < s->naxes; i++) fprintf(f, " %s %s", s->ax[i].opt, s->ax[i].spec);
    fprintf(f, " --bits %ld%s", a->bits, s->certify ? " --certify" : "");
    if (s->form_name) fprintf(f, " --form %s", s->form_name);
    if (s->equilibrium) fprintf(f, " --equilibrium %s", s->equilibrium);
    for (const cl_param *t = s->table; t->name; t++)
        for (int k = 0; k < a->nparams; k++)
            if (cl_param_find(s->table, a->keys[k]) == t) {
                fprintf(f, " --%s", t->name);
                if (a->vals[k]) fprintf(f, " %s", a->vals[k]);
            }
    fputc('\n', f);
    if (fclose(f)) { free(buf); return NULL; }
    return buf;
}

/* The system (or model) and what maps it: its own hook, or the generic map of its equilibria. */
static int sweep_system(sweep *s, const cl_cmd_args *a, int certify)
{
    char with[256], msg[400];
    cl_cmd_systems_with(with, sizeof with, offers_sweep);
    if (a->model && a->system) return cl_cli_error("give --system or --model, not both", a->model);
    if (a->model) {
        if (strpbrk(a->model, " \t\n\r'\\"))
            return cl_cli_error("the model file's name must not hold blanks, quotes or backslashes (the CSV's first line names it)",
                                a->model);
        cl_sys_error e = {"", ""};
        if (cl_model_system_new(&s->sys, a->model, &e)) {
            s->sys = NULL;
            return cl_cmd_report(&e, a->model, CL_EXIT_USAGE);
        }
        s->from_model = 1;
    } else if (!a->system) {
        snprintf(msg, sizeof msg, "--system is required (systems that offer sweep: %s; or --model FILE)", with);
        return cl_cli_error(msg, NULL);
    } else if (!(s->sys = cl_system_find(a->system)))
        return cl_cmd_unknown_system(a->system);
    if (!cl_system_offers_sweep(s->sys)) {
        if (s->from_model) return cl_cli_error("sweep needs a system with equilibria; the model declares none", a->model);
        snprintf(msg, sizeof msg, "sweep is offered by %s (and models with equilibria) only", with);
        return cl_cli_error(msg, a->system);
    }
    s->hook = s->sys->sweep;
    s->table = s->hook ? s->hook->params : s->sys->params;
    if (s->hook && a->form) return cl_cli_error("unknown option", "--form");
    s->form_name = a->form;
    if (certify && !(s->hook && s->hook->cell_certified) && !(s->from_model && !s->hook))
        return cl_cli_error("this system's sweep has no certified verdicts (--certify needs a model file or the skate)", "--certify");
    for (int k = 0; !s->hook && k < a->nparams; k++) /* the generic map's own option */
        if (!strcmp(a->keys[k], "equilibrium")) {
            if (s->equilibrium) return cl_cli_error("option given twice", "--equilibrium");
            if (!a->vals[k] || !a->vals[k][0]) return cl_cli_error("--equilibrium needs a value", "--equilibrium");
            s->equilibrium = a->vals[k];
        }
    return CL_EXIT_OK;
}

/* Check the command line and parse it into \p s; 0 or exit status 2 (message printed). */
int sweep_prepare(sweep *s, const cl_cmd_args *a, const sweep_opts *o, int certify)
{
    memset(s, 0, sizeof *s);
    s->certify = certify;
    s->bits = a->bits;
    s->shard_k = s->shard_n = 1;
    char msg[400];
    int st = sweep_system(s, a, certify);
    if (st) return st;
    if (!o->x) return cl_cli_error("--x NAME=a:b:N is required", "--x");
    st = parse_axis(&s->ax[0], "--x", o->x, s->table);
    s->naxes = 1;
    if (!st && o->y) {
        st = parse_axis(&s->ax[1], "--y", o->y, s->table);
        s->naxes = 2;
        if (!st && s->ax[1].param == s->ax[0].param) st = cl_cli_error("--x and --y sweep the same parameter", o->y);
    }
    for (int i = 0; i < s->naxes && !st; i++)
        for (int k = 0; k < a->nparams && !st; k++)
            if (cl_param_find(s->table, a->keys[k]) == s->ax[i].param) {
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
        x->slot = (size_t)(x->param - s->table);
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
    if (!st && !s->hook) st = sweep_generic_prepare(s);
    if (!st && !(s->header = header_line(s, a))) st = cl_cli_error("out of memory", NULL);
    return st;
}

void sweep_axis_value(mpfr_ptr v, const axis *x, mpfr_srcptr a, mpfr_srcptr b, long j)
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
    if (s->hook) fprintf(f, ",verdict,margin\n");
    else {
        sweep_generic_columns(f, s);
        fputc('\n', f);
    }
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
        for (int i = 0; i < s->naxes; i++) sweep_axis_value(s->p.v[s->ax[i].slot].x, s->ax + i, ends + 2 * i, ends + 2 * i + 1, j[i]);
        int verdict = CL_SWEEP_UNDECIDED;
        cl_sys_error e = {"", ""};
        int r = !s->hook ? CL_EXIT_OK : (s->certify ? s->hook->cell_certified : s->hook->cell)(&s->p, prec, &verdict, margin, &e);
        if (!r) {
            fprintf(f, "%ld", c);
            for (int i = 0; i < s->naxes; i++) {
                fputc(',', f);
                cl_sys_print_real(f, s->p.v[s->ax[i].slot].x);
            }
        }
        if (!r && !s->hook) r = sweep_generic_cell(s, f, &e);
        else if (!r) {
            fprintf(f, ",%s,", verdict_word(verdict));
            cl_sys_print_real(f, margin);
        }
        if (r) {
            char arg[1200];
            size_t k = (size_t)snprintf(arg, sizeof arg, "%s%scell %ld:", e.arg, e.arg[0] ? "; " : "", c);
            for (int i = 0; i < s->naxes && k < sizeof arg; i++)
                k += (size_t)mpfr_snprintf(arg + k, sizeof arg - k, "%s %s = %.17Rg", i ? "," : "", s->ax[i].param->name,
                                           s->p.v[s->ax[i].slot].x);
            cl_cli_error(e.what, arg);
            st = r == CL_EXIT_USAGE ? CL_EXIT_USAGE : CL_EXIT_FAIL;
            break;
        }
        fputc('\n', f);
        if (tty && (c - lo) % 200 == 199) fprintf(stderr, "\r%ld of %ld cells", c - lo + 1, hi - lo);
    }
    if (tty && hi - lo >= 200) fprintf(stderr, "\r%40s\r", "");
    cl_rvec_free_mp(ends);
    return st;
}

int sweep_sink_open(sink *k, const char *out, int json)
{
    memset(k, 0, sizeof *k);
    k->csv.slot = -1;
    k->out = out;
    k->json = json;
    if (out && !json) {
        int st = cl_cli_out_open(&k->csv, out);
        k->f = st ? NULL : k->csv.f;
        return st;
    }
    if (!(k->f = tmpfile())) return cl_cli_error("cannot create a temporary file", "stdout");
    return CL_EXIT_OK;
}

void sweep_sink_abort(sink *k)
{
    if ((!k->out || k->json) && k->f) fclose(k->f);
    k->f = NULL;
    cl_cli_out_abort(&k->csv);
}

/* The complete CSV \p data as JSON into --out (atomically) or on stdout; an exit status. */
static int write_json(sink *k, FILE *data)
{
    if (fseek(data, 0, SEEK_SET)) return cl_cli_error("cannot read back the CSV", "a temporary file");
    int st = k->out ? cl_cli_out_open(&k->csv, k->out) : CL_EXIT_OK;
    if (!st && cl_json_from_csv(data, k->out ? k->csv.f : stdout, "chartless-sweep/1"))
        st = cl_cli_error("cannot read back the CSV", "a temporary file");
    if (!st && k->out) st = cl_cli_out_commit(&k->csv);
    return st;
}

int sweep_sink_finish(sink *k, sweep *s, const char *png_path)
{
    cl_cli_out png = {.slot = -1};
    FILE *data = NULL;
    int st = fflush(k->f) || ferror(k->f) ? cl_cli_error("cannot write", k->out ? k->out : "a temporary file") : CL_EXIT_OK;
    if (!st && k->out && !k->json) {
        st = cl_cli_out_close(&k->csv);
        k->f = NULL;
        if (!st && !(data = fopen(k->csv.tmp, "r"))) st = cl_cli_error("cannot read back the CSV", k->out);
    } else
        data = k->f;
    if (!st && png_path && !(st = cl_cli_out_open(&png, png_path)) && !(st = cl_cli_out_close(&png))) {
        if (fseek(data, k->rows_at, SEEK_SET)) st = cl_cli_error("cannot read back the CSV", png_path);
        else st = sweep_plot(s, data, png.tmp, png_path);
    }
    if (!st && k->json) st = write_json(k, data);
    else if (!st && k->out) st = cl_cli_out_commit(&k->csv);
    if (!st && png_path) st = cl_cli_out_commit(&png);
    if (!st && !k->out && !k->json) st = fseek(data, 0, SEEK_SET) ? cl_cli_error("cannot read back the CSV", "a temporary file") : cl_cli_copy_to_stdout(data, "a temporary file");
    if (data && data != k->f) fclose(data);
    cl_cli_out_abort(&png);
    sweep_sink_abort(k);
    return st;
}

int sweep_take_flag(int *argc, char **argv, const char *flag)
{
    int n = 0, k = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], flag)) n++;
        else argv[k++] = argv[i];
    }
    *argc = k;
    return n;
}

/* ------------------------------------------------------------ sweep */

static int cmd_sweep(int argc, char **argv)
{
    int json, st = cl_json_take_format(&argc, argv, &json);
    if (st) return st;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--merge")) return sweep_merge(argc, argv, json);
    static const cl_cmd_option extra[] = {SWEEP_AXES, CL_CMD_TEXT_OPTION("shard", sweep_opts, shard),
                                          CL_CMD_TEXT_OPTION("out", sweep_opts, out),
                                          CL_CMD_TEXT_OPTION("plot", sweep_opts, plot), CL_CMD_OPTIONS_END};
    sweep_opts o = {0};
    cl_cmd_args a;
    int certify = sweep_take_flag(&argc, argv, "--certify");
    if (certify > 1) return cl_cli_error("option given twice", "--certify");
    st = cl_cmd_scan(argc, argv, extra, NULL, &o, 0, &a);
    if (st) return st;
    if (a.help) {
        fputs(help_text, stdout);
        const cl_system *sys = a.system ? cl_system_find(a.system) : NULL;
        if (sys && sys->sweep) {
            printf("\n%s\nparameters (any number parameter can be an axis):\n", sys->sweep->usage);
            cl_params_help(stdout, sys->sweep->params);
        } else if (sys && cl_system_offers_sweep(sys)) {
            printf("\n%s: the generic map of its equilibria (docs/sweep.md)\nparameters (any number parameter can be an axis):\n",
                   sys->name);
            cl_params_help(stdout, sys->params);
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
    if (!st && json && s.shard_n > 1) st = cl_cli_error("a shard is CSV: merge the shards with --merge --format json", "--format");
    if (!st && o.plot && s.shard_n > 1) st = cl_cli_error("--plot draws a whole grid: plot the merged shards (--merge --plot)", o.plot);
    if (!st && o.out && o.plot && !strcmp(o.out, o.plot)) st = cl_cli_error("--out and --plot name the same file", o.out);
    if (!st && o.out) st = cl_cli_check_target(o.out);
    if (!st && o.plot) st = cl_cli_check_plot(o.plot);
    sink k;
    if (!st && !(st = sweep_sink_open(&k, o.out, json))) {
        long lo, hi;
        sweep_shard_range(s.total, s.shard_k, s.shard_n, &lo, &hi);
        fputs(s.header, k.f);
        fprintf(k.f, "# shard %ld/%ld of %ld cells\n", s.shard_k, s.shard_n, s.total);
        columns_line(k.f, &s);
        k.rows_at = ftell(k.f);
        st = compute_rows(&s, k.f, lo, hi);
        if (st) sweep_sink_abort(&k);
        else st = sweep_sink_finish(&k, &s, o.plot);
    }
    sweep_free(&s);
    cl_cmd_args_free(&a);
    return st;
}

static const cl_command sweep_command = {"sweep", "stability map over a grid of one or two parameters, as CSV (shards, merge, plot)",
                                         cmd_sweep};
CL_COMMAND_REGISTER(sweep_command)

/*
 * `chartless sweep --system NAME --x NAME=a:b:N [--y NAME=c:d:M]`: a stability
 * map as CSV at the working precision. A system with a sweep hook of its
 * own (cl_system_sweep) gives each cell's verdict and margin; any other
 * system or model with equilibria gets the generic map (sweep_generic.c):
 * the verdict of each equilibrium from its linearization and the
 * Energy-Casimir test. `--shard k/N` computes the k-th of N contiguous
 * blocks of cells, `--merge FILES...` joins the blocks into the CSV of the
 * unsharded run (sweep/sweep_merge.c), `--plot FILE.png` draws the map with
 * gnuplot, the closed-form boundary over it (sweep/sweep_plot.c), `--format
 * json` writes the CSV as one JSON object (sweep/sweep_sink.c). This file is
 * the command: its help, the rows of the cells; the sweep is prepared by
 * sweep/sweep_grid.c.
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

static int offers_sweep(const cl_system *s) { return cl_system_offers_sweep(s); }

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

/*
 * `chartless sweep --merge SHARD.csv...`: the shards of one sweep joined into
 * the CSV of the unsharded run, byte for byte, every shard checked first
 * (the same sweep, each of its N shards once); with --plot the sweep is
 * prepared again from the first line for the axes and the boundary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"
#include "sweep.h"

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

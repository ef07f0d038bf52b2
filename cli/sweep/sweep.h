/*
 * The parts of `chartless sweep` beneath the command (cli/cmd_sweep.c: its
 * help, the rows of the cells): sweep_grid.c (the sweep prepared from its
 * options: system, axes, shard, parameters), sweep_sink.c (where the CSV
 * goes while it is made), sweep_plot.c (the picture of a whole map),
 * sweep_merge.c (joining shards) and sweep_generic.c (the map of any system
 * with equilibria, from its descriptor, for a system without a sweep hook
 * of its own).
 */
#ifndef CL_SWEEP_H
#define CL_SWEEP_H
#include <stdio.h>
#include "cli.h"
#include "cmd_system.h"

#define SWEEP_MAX_CELLS 100000000L
#define SWEEP_MAX_SHARDS 1000000L

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

/* An equilibrium the generic map follows: its number and the prefix of its columns. */
typedef struct sweep_eq {
    int k;
    char prefix[48];
} sweep_eq;

/* A prepared sweep: the system's hook (or the generic map), the axes and the parsed parameters. */
typedef struct sweep {
    const cl_system *sys;
    const cl_system_sweep *hook; /* the system's own maps, or NULL: the generic map */
    const cl_param *table;       /* the parameters a cell depends on: the hook's, or the system's */
    axis ax[2];
    int naxes;
    long bits, total, shard_k, shard_n;
    int certify;              /* --certify: the hook's proven verdicts */
    cl_params p;
    int have_params;
    char *header;             /* the line '# chartless sweep ...' */
    /* the generic map */
    int from_model;           /* sys was read from --model and is released by sweep_free() */
    int form;                 /* the form its equilibria are taken in */
    const char *form_name;    /* --form as given, or NULL */
    const char *equilibrium;  /* --equilibrium as given, or NULL (all) */
    int neq, energy_casimir;  /* equilibria followed; whether the Energy-Casimir test runs */
    sweep_eq *eq;
    size_t dim;               /* the state length in that form */
    struct cl_model_ball *ball; /* --certify of a model's generic map: its graph on balls (model_ball.h) */
} sweep;

/* sweep_grid.c: check the command line and parse it into \p s; 0 or exit status 2 (message printed). */
int sweep_prepare(sweep *s, const cl_cmd_args *a, const sweep_opts *o, int certify);
void sweep_free(sweep *s);
/* The cells of shard k of n among total: [lo, hi). */
void sweep_shard_range(long total, long k, long n, long *lo, long *hi);
/* Axis \p x's value number \p j: a + (b − a)·j/(N − 1), b itself at j = N − 1. */
void sweep_axis_value(mpfr_ptr v, const axis *x, mpfr_srcptr a, mpfr_srcptr b, long j);
/* Remove every \p flag (an option without a value) from argv; how many there were. */
int sweep_take_flag(int *argc, char **argv, const char *flag);

/*
 * Where the CSV goes while it is made: the temporary file of --out (renamed
 * onto it when complete), or an anonymous temporary file copied to stdout
 * when complete; so a run that fails writes nothing, whatever its size.
 * With --format json the CSV is made in an anonymous file and written as
 * JSON (cl_json_from_csv) when complete.
 */
/* sweep_sink.c */
typedef struct sink {
    cl_cli_out csv;
    FILE *f;          /* the CSV being written */
    const char *out;  /* --out, or NULL for stdout */
    long rows_at;     /* where the rows begin */
    int json;         /* --format json */
} sink;

int sweep_sink_open(sink *k, const char *out, int json);
void sweep_sink_abort(sink *k);
/* The CSV is complete: draw it (\p png_path), then write it to --out or stdout; an exit status. */
int sweep_sink_finish(sink *k, sweep *s, const char *png_path);

/* sweep_merge.c: `chartless sweep --merge ...`; an exit status. */
int sweep_merge(int argc, char **argv, int json);
/* sweep_plot.c: draw the map of \p rows into the file \p png (the user's name \p png_name); an exit status. */
int sweep_plot(sweep *s, FILE *rows, const char *png, const char *png_name);

/* sweep_generic.c: the map of a system without a sweep hook, from its equilibria. */
/* After the parameters are parsed: the form, the equilibria followed; 0 or exit status 2 (message printed). */
int sweep_generic_prepare(sweep *s);
/* ",P.verdict,P.max_re,P.ec_margin" for each equilibrium followed. */
void sweep_generic_columns(FILE *f, const sweep *s);
/* The fields of one cell (at the parameters in s->p), each after a comma; a CL_EXIT_ status, message in \p e. */
int sweep_generic_cell(sweep *s, FILE *f, cl_sys_error *e);
/* The verdict column of the first equilibrium followed, from 0 (the plot's). */
int sweep_verdict_column(const sweep *s);
/* The columns of one equilibrium followed: 3, and 4 with --certify (its certified verdict). */
int sweep_generic_width(const sweep *s);
#endif

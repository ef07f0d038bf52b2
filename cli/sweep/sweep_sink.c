/*
 * Where a sweep's CSV goes while it is made (`chartless sweep` and
 * `--merge`): the temporary file of --out, renamed onto it when complete,
 * or an anonymous temporary file copied to stdout or written as JSON when
 * complete; the map drawn from it (--plot) before it is committed. A run
 * that fails writes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "json.h"
#include "sweep.h"

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

/* libFuzzer target: the argument scanner (cl_cmd_scan) and the parameter
   parser (cl_params_parse, cl_parse_whole) on command lines made of the
   input's lines, against a table with every shape and constraint. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "cmd_system.h"

static const cl_param table[] = {
    {.name = "n", .shape = CL_PARAM_SIZE, .def = "2", .lo = 1, .hi = 64},
    {.name = "m", .shape = CL_PARAM_NLIST, .def = "1", .constraint = CL_PARAM_POSITIVE, .noun = "mass"},
    {.name = "l", .shape = CL_PARAM_NLIST, .def = "1", .constraint = CL_PARAM_NONNEGATIVE},
    {.name = "g", .shape = CL_PARAM_NUMBER, .def = "9.81", .alias = "gravity"},
    {.name = "axis", .shape = CL_PARAM_LIST, .count = 3, .def = "0,0,1", .constraint = CL_PARAM_NONZERO},
    {.name = "extra", .shape = CL_PARAM_ANYLIST, .count = 5},
    {.name = "mode", .shape = CL_PARAM_WORD, .choices = "fast|slow|exact", .def = "fast"},
    {.name = "label", .shape = CL_PARAM_WORD},
    {.name = "quiet", .shape = CL_PARAM_FLAG},
    CL_PARAM_END,
};

static int on_opt(int code, const char *arg, void *ctx)
{
    long v;
    (void)ctx;
    return code == 1 && cl_parse_whole(arg, -5, 1000, &v) ? 2 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) return 0;
    char *text = malloc(size + 1);
    char **argv = malloc((size + 3) * sizeof *argv); /* the program name, a line per newline, NULL */
    if (!text || !argv) { free(text); free(argv); return 0; }
    memcpy(text, data, size);
    text[size] = 0;
    int argc = 0;
    argv[argc++] = "fuzz";
    for (char *s = text, *nl;; s = nl + 1) { /* one argument per line, as a shell would pass them */
        argv[argc++] = s;
        if (!(nl = memchr(s, '\n', (size_t)(text + size - s)))) break;
        *nl = 0;
    }
    argv[argc] = NULL;
    static const cl_cmd_option opts[] = {CL_CMD_OPTION("steps", 1), CL_CMD_OPTION("out", 2), CL_CMD_OPTIONS_END};
    cl_cmd_args a;
    if (cl_cmd_scan(argc, argv, opts, on_opt, NULL, 1, &a) == 0) {
        cl_params p;
        if (cl_cmd_parse_params(&a, table, &p) == 0) {
            if (p.n < 1 || p.n > 64) abort();
            for (size_t k = 0; k < p.count; k++)
                for (size_t i = 0; i < p.v[k].len; i++)
                    if (!mpfr_number_p(p.v[k].x + i)) abort(); /* every number accepted is finite */
            cl_params_free(&p);
        }
        cl_cmd_args_free(&a);
    }
    free(argv);
    free(text);
    mpfr_free_cache();
    return 0;
}

/*
 * `chartless reproduce FIGURE`: a figure a paper registered (cl_figure), as
 * CSV and PNG with the numbers its caption quotes.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cmd_system.h"

static void figure_names(char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cl_figure_count() && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", cl_figure_get(i)->name);
}

static void figure_help(const cl_figure *f)
{
    printf("\n%s\n%s\noptions:\n", f->name, f->help);
    cl_params_help(stdout, f->params);
}

static int cmd_reproduce(int argc, char **argv)
{
    cl_cmd_args a;
    int st = cl_cmd_scan(argc, argv, NULL, NULL, NULL, 2, &a);
    if (st) return st;
    char names[512], msg[600];
    figure_names(names, sizeof names);
    const cl_figure *f = a.npositional ? cl_figure_find(a.positional[0]) : NULL;
    if (a.help) {
        printf("usage: chartless reproduce FIGURE [--bits B] [OPTIONS]\n\n"
               "Recompute a paper's figure: CSV and PNG (gnuplot; skipped with a warning when gnuplot\n"
               "is missing), and the numbers its caption quotes. --bits B: working precision (default 53).\n"
               "\nexit status: 0 done, 1 the computation failed, 2 bad input\n");
        for (size_t i = 0; i < cl_figure_count(); i++)
            if (!f || f == cl_figure_get(i)) figure_help(cl_figure_get(i));
        cl_cmd_args_free(&a);
        return CL_EXIT_OK;
    }
    if (!a.npositional) {
        snprintf(msg, sizeof msg, "which figure? %s (chartless reproduce --help)", names);
        st = cl_cli_error(msg, NULL);
    } else if (a.npositional > 1) {
        st = cl_cli_error("one figure at a time", a.positional[1]);
    } else if (!f) {
        const char *all[64];
        size_t n = 0;
        for (; n < cl_figure_count() && n < 64; n++) all[n] = cl_figure_get(n)->name;
        snprintf(msg, sizeof msg, "the figures: %s", names);
        st = cl_cli_unknown("figure", a.positional[0], all, n, "", msg);
    } else if (a.system || a.form) {
        st = cl_cli_error("a figure sets its own system and form: no --system or --form", a.system ? "--system" : "--form");
    }
    if (!st) st = cl_cmd_run(&a, f->params, f->run);
    cl_cmd_args_free(&a);
    return st;
}

static const cl_command reproduce_command = {"reproduce", "reproduce a paper's figure: CSV, PNG, the numbers of its caption",
                                             cmd_reproduce};
CL_COMMAND_REGISTER(reproduce_command)

/* The pictures of a simulate run (plot.h): every state component, a panel
   per factor of the state; drawn by the driver of plot.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "plot.h"

/* Lines a panel holds at most: a longer factor is drawn over several panels. */
enum { PANEL_LINES = 9, NAME_LEN = 32 };

/* The factor a component belongs to, by its name: "q1.x" -> "q1", "R23" -> "R", "theta" -> "theta". */
static void factor_of(const char *component, char *factor, size_t len)
{
    snprintf(factor, len, "%s", component);
    char *dot = strrchr(factor, '.');
    if (dot && dot > factor) {
        *dot = 0;
        return;
    }
    size_t n = strlen(factor);
    while (n > 1 && isdigit((unsigned char)factor[n - 1])) n--;
    factor[n] = 0;
}

/* The names of the factors, one per component (names[i]), into a table of dim × NAME_LEN. */
static char *factor_names(const cl_cmd_system *cs)
{
    char *names = malloc(cs->dim * NAME_LEN), component[NAME_LEN];
    for (size_t i = 0; names && i < cs->dim; i++) {
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, component, sizeof component);
        factor_of(component, names + i * NAME_LEN, NAME_LEN);
    }
    return names;
}

/* The panels: runs of components of one factor (at most PANEL_LINES each), columns from 2. Their count. */
static int factor_panels(const cl_cmd_system *cs, const char *names, cl_plot_panel *panels, size_t *half_at)
{
    int n = 0;
    *half_at = 0;
    for (size_t i = 0; i < cs->dim; i++) {
        cl_plot_panel *last = n ? panels + n - 1 : NULL;
        if (last && !strcmp(last->ylabel, names + i * NAME_LEN) && last->count < PANEL_LINES) {
            last->count++;
            continue;
        }
        if (2 * i == cs->dim) *half_at = (size_t)n;
        panels[n++] = (cl_plot_panel){names + i * NAME_LEN, (int)i + 2, 1};
    }
    return n;
}

/* Two columns when the state is two halves of as many panels (configuration, velocity), or many panels. */
static int grid_columns(int npanels, size_t half_at)
{
    if (half_at && 2 * half_at == (size_t)npanels) return 2;
    return npanels > 4 ? 2 : 1;
}

int cl_cli_plot_simulation(const cl_cmd_system *cs, const char *csv, const char *png, const char *png_name, int ninv,
                           const char *energy_error)
{
    char *names = factor_names(cs);
    cl_plot_panel *panels = malloc(cs->dim * sizeof *panels);
    if (!names || !panels) {
        free(names);
        free(panels);
        return cl_cli_error("out of memory", NULL);
    }
    size_t half_at;
    int n = factor_panels(cs, names, panels, &half_at);
    cl_plot_panel strip = {energy_error, (int)cs->dim + ninv + 2, 1};
    char title[200];
    snprintf(title, sizeof title, "%s (%s form)", cs->sys->name, cs->sys->forms[cs->form]);
    cl_plot_request r = {.png = png, .csv = csv, .title = title, .panels = panels, .npanels = n,
                         .grid_columns = grid_columns(n, half_at), .strip = energy_error ? &strip : NULL};
    int st = cl_cli_plot_series_or_report(&r, png_name);
    free(names);
    free(panels);
    return st;
}

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

/* A phase portrait when the state is a configuration and a velocity of the same shape, factor by factor. */
static int has_phase(const cl_plot_panel *panels, int n, size_t half)
{
    if (!half || 2 * half != (size_t)n) return 0;
    for (size_t k = 0; k < half; k++)
        if (panels[k].count != panels[half + k].count) return 0;
    return 1;
}

/* Each configuration panel k against the velocity panel half + k, component by component. */
static int draw_phase(const cl_plot_panel *panels, int half, const char *csv, const char *png, const char *title,
                      char *err, size_t len)
{
    int cols = half < 3 ? half : 3, rows = (half + cols - 1) / cols;
    cl_cli_plot p;
    if (cl_cli_plot_open(&p, png, 440 * cols, 400 * rows + 40, 0)) return snprintf(err, len, "cannot create a temporary file"), -1;
    fprintf(p.f, "set datafile separator ','\nset multiplot layout %d,%d title '%s: phase portrait'\n"
                 "set grid\nset key top right opaque\n", rows, cols, title);
    for (int k = 0; k < half; k++) {
        const cl_plot_panel *q = panels + k, *v = panels + half + k;
        fprintf(p.f, "set xlabel '%s'\nset ylabel '%s'\n", q->ylabel, v->ylabel);
        fprintf(p.f, "plot for [j=0:%d] '%s' using (column(%d+j)):(column(%d+j)) with lines lw 1.2 title columnheader(%d+j)\n",
                q->count - 1, csv, q->first, v->first, q->first);
    }
    fprintf(p.f, "unset multiplot\n");
    return cl_cli_plot_run(&p, err, len);
}

/* A picture beside the --plot file: its name with \p suffix for ".png", written under a temporary name. */
typedef struct beside {
    cl_cli_out o;
    char path[4200];
} beside;

static void beside_name(char *path, size_t len, const char *png_name, const char *suffix)
{
    size_t n = strlen(png_name);
    if (n > 4 && !strcmp(png_name + n - 4, ".png")) n -= 4;
    snprintf(path, len, "%.*s%s", (int)n, png_name, suffix);
}

static const char *const beside_suffixes[] = {"-phase.png", "-3d.png", "-3d.gif", NULL};

int cl_cli_plot_check_beside(const char *png_name)
{
    char path[4200];
    int st = 0;
    for (int i = 0; !st && beside_suffixes[i]; i++) {
        beside_name(path, sizeof path, png_name, beside_suffixes[i]);
        st = cl_cli_check_target(path);
    }
    return st;
}

static int beside_open(beside *b, const char *png_name, const char *suffix)
{
    beside_name(b->path, sizeof b->path, png_name, suffix);
    b->o = (cl_cli_out){.slot = -1};
    int st = cl_cli_out_open(&b->o, b->path);
    return st ? st : cl_cli_out_close(&b->o);
}

/* What the pictures beside the --plot file are: phase portrait, 3-D trajectory, its animation. */
typedef struct extras {
    int phase, bodies, gif;
    beside out[3];
    int open;
} extras;

/* Say which pictures were drawn beside the --plot file and why the others were not. */
static void extras_note(const cl_cmd_system *cs, const extras *x)
{
    fprintf(stderr, "note: --plot also drew");
    for (int i = 0; i < x->open; i++) fprintf(stderr, "%s %s", i ? "," : "", x->out[i].path);
    if (!x->open) fprintf(stderr, " nothing more");
    if (!x->phase) fprintf(stderr, "; no phase portrait (the state is not a configuration and a velocity of one shape)");
    if (!x->bodies) fprintf(stderr, "; no 3-D picture (%s in form %s does not say where its bodies are)", cs->sys->name, cs->sys->forms[cs->form]);
    else if (!x->gif) fprintf(stderr, "; no animation (gnuplot has no gif terminal here)");
    fprintf(stderr, "\n");
}

/* The phase portrait and the bodies beside \p png_name, committed together. 0 or exit status 2. */
static int draw_extras(const cl_cmd_system *cs, const char *csv, const char *png_name, const cl_plot_panel *panels,
                       int n, size_t half, const char *title)
{
    extras x = {.phase = has_phase(panels, n, half)};
    x.bodies = cs->sys->bodies && cs->sys->bodies(cs->inst, cs->form, NULL, NULL) > 0;
    x.gif = x.bodies && cl_cli_plot_has_terminal("gif");
    char err[600] = "";
    int st = 0, failed = 0;
    if (x.phase && !(st = beside_open(&x.out[x.open], png_name, "-phase.png")))
        failed = draw_phase(panels, (int)half, csv, x.out[x.open++].o.tmp, title, err, sizeof err);
    if (!st && !failed && x.bodies && !(st = beside_open(&x.out[x.open], png_name, "-3d.png"))) {
        const char *png3 = x.out[x.open++].o.tmp;
        if (x.gif && !(st = beside_open(&x.out[x.open], png_name, "-3d.gif"))) x.open++;
        if (!st) failed = cl_cli_plot_bodies(cs, csv, png3, x.gif ? x.out[x.open - 1].o.tmp : NULL, title, err, sizeof err);
    }
    if (failed) {
        fprintf(stderr, "%s\n", err);
        st = cl_cli_error("gnuplot failed to draw", x.out[x.open - 1].path);
    }
    for (int i = 0; i < x.open; i++)
        if (!st) st = cl_cli_out_commit(&x.out[i].o);
    for (int i = 0; i < x.open; i++) cl_cli_out_abort(&x.out[i].o);
    if (!st) extras_note(cs, &x);
    return st;
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
    if (!st) st = draw_extras(cs, csv, png_name, panels, n, half_at, title);
    free(names);
    free(panels);
    return st;
}

/* The command line's one gnuplot driver (plot.h): scripts written to a
   temporary file and run by gnuplot, and the time-series layout that
   simulate and the papers' figures share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "plot.h"

/* The program that runs a script: $CHARTLESS_GNUPLOT (a program, for a
   wrapper or another gnuplot), else gnuplot on PATH. */
static const char *gnuplot_program(void)
{
    const char *g = getenv("CHARTLESS_GNUPLOT");
    return g && *g && !strpbrk(g, "'\\\n") ? g : "gnuplot";
}

int cl_cli_plot_available(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", gnuplot_program());
    return system(cmd) == 0;
}

int cl_cli_plot_has_terminal(const char *name)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' -e 'set terminal %s' >/dev/null 2>&1", gnuplot_program(), name);
    return cl_cli_plot_available() && system(cmd) == 0;
}

int cl_cli_plot_open(cl_cli_plot *p, const char *out, int width, int height, int gif_delay)
{
    snprintf(p->script, sizeof p->script, "/tmp/chartless-plot-XXXXXX");
    int fd = mkstemp(p->script);
    p->f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!p->f) {
        if (fd >= 0) { close(fd); unlink(p->script); }
        return -1;
    }
    if (gif_delay > 0)
        fprintf(p->f, "set terminal gif animate delay %d loop 0 optimize size %d,%d noenhanced\n", gif_delay, width, height);
    else
        fprintf(p->f, "set terminal pngcairo size %d,%d noenhanced font ',10'\n", width, height);
    fprintf(p->f, "set output '%s'\n", out);
    return 0;
}

void cl_cli_plot_abort(cl_cli_plot *p)
{
    if (p->f) fclose(p->f);
    p->f = NULL;
    unlink(p->script);
}

/* The last line gnuplot wrote to \p log, into \p err. */
static void last_message(const char *log, char *err, size_t len)
{
    FILE *f = fopen(log, "r");
    char line[512];
    snprintf(err, len, "gnuplot failed");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (strspn(line, " ^") < strlen(line)) snprintf(err, len, "gnuplot: %s", line);
    }
    if (f) fclose(f);
}

int cl_cli_plot_run(cl_cli_plot *p, char *err, size_t len)
{
    int bad = fflush(p->f) != 0 || ferror(p->f);
    bad |= fclose(p->f) != 0;
    p->f = NULL;
    char log[] = "/tmp/chartless-plot-log-XXXXXX";
    int fd = mkstemp(log);
    if (bad || fd < 0) {
        snprintf(err, len, "cannot write the gnuplot script");
        if (fd >= 0) { close(fd); unlink(log); }
        unlink(p->script);
        return -1;
    }
    close(fd);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "'%s' '%s' 2>'%s'", gnuplot_program(), p->script, log);
    int r = system(cmd);
    if (r != 0) last_message(log, err, len);
    unlink(log);
    unlink(p->script);
    return r == 0 ? 0 : -1;
}

/* ------------------------------------------------------------ time series */

enum { PANEL_WIDTH = 560, PANEL_HEIGHT = 230, STRIP_HEIGHT = 200, TITLE_HEIGHT = 40 };

/* One panel at (x, y) of size (w, h) in screen fractions. */
static void series_panel(FILE *g, const cl_plot_request *r, const cl_plot_panel *pn, double x, double y, double w,
                         double h, int bottom)
{
    fprintf(g, "set origin %.4f,%.4f\nset size %.4f,%.4f\n", x, y, w, h);
    fprintf(g, "set ylabel '%s'\n", pn->ylabel ? pn->ylabel : "");
    fprintf(g, bottom ? "set xlabel 't'\nset format x '%%g'\n" : "unset xlabel\nset format x ''\n");
    fprintf(g, "plot for [c=%d:%d] '%s' using 1:c with lines lw 1.5 title columnheader(c)\n", pn->first,
            pn->first + pn->count - 1, r->csv);
}

int cl_cli_plot_series(const cl_plot_request *r, char *err, size_t len)
{
    int cols = r->grid_columns > 0 ? r->grid_columns : 1;
    int rows = (r->npanels + cols - 1) / cols;
    int width = cols == 1 ? 900 : PANEL_WIDTH * cols;
    int height = TITLE_HEIGHT + rows * PANEL_HEIGHT + (r->strip ? STRIP_HEIGHT : 0);
    cl_cli_plot p;
    if (cl_cli_plot_open(&p, r->png, width, height, 0)) {
        snprintf(err, len, "cannot create a temporary file");
        return -1;
    }
    double th = (double)TITLE_HEIGHT / height, sh = r->strip ? (double)STRIP_HEIGHT / height : 0;
    double ph = (1 - th - sh) / rows;
    fprintf(p.f, "set datafile separator ','\nset multiplot title '%s'\nset key outside right top vertical\nset grid\n"
                 "set lmargin 12\nset rmargin 16\nset autoscale xfix\n", r->title);
    for (int k = 0; k < r->npanels; k++) {
        int col = k / rows, row = k % rows;
        int bottom = row == rows - 1 || k == r->npanels - 1;
        series_panel(p.f, r, r->panels + k, (double)col / cols, 1 - th - (row + 1) * ph, 1.0 / cols, ph, bottom && !r->strip);
    }
    if (r->strip) {
        fprintf(p.f, "set format y '%%.1e'\nunset key\n");
        series_panel(p.f, r, r->strip, 0, 0, 1, sh, 1);
    }
    fprintf(p.f, "unset multiplot\n");
    return cl_cli_plot_run(&p, err, len);
}

int cl_cli_plot_series_or_report(const cl_plot_request *r, const char *name)
{
    char err[600];
    if (!cl_cli_plot_series(r, err, sizeof err)) return CL_EXIT_OK;
    fprintf(stderr, "%s\n", err);
    return cl_cli_error("gnuplot failed to draw", name);
}

/* The papers' figures draw through the command line's driver. */
static const cl_plotter gnuplot_plotter = {cl_cli_plot_available, cl_cli_plot_series};
static void __attribute__((constructor)) install_plotter(void) { cl_plotter_install(&gnuplot_plotter); }

/**
 * \file plot.h
 * \brief The command line's one gnuplot driver: every `--plot`, every
 *        figure of `reproduce` and the pictures of `simulate`
 *        (cli/sim/plot_sim.h) are drawn through it.
 *
 * A drawing is a gnuplot script written to a temporary file, then run by
 * `gnuplot SCRIPT` (or by the program named in the environment variable
 * CHARTLESS_GNUPLOT), gnuplot's messages kept aside and the last one
 * reported when it fails. The script is removed afterwards.
 */
#ifndef CL_CLI_PLOT_H
#define CL_CLI_PLOT_H
#include <stddef.h>
#include <stdio.h>
#include "system.h"
#include "cmd_system.h"

/** A script being written. */
typedef struct cl_cli_plot {
    FILE *f;          /**< the script: write gnuplot commands here */
    char script[40];  /**< its temporary name */
} cl_cli_plot;

/** 1 when gnuplot (or $CHARTLESS_GNUPLOT) can be run here. */
int cl_cli_plot_available(void);
/** 1 when gnuplot has the terminal \p name (e.g. "gif"), 0 when not or when it cannot run. */
int cl_cli_plot_has_terminal(const char *name);
/**
 * Begin a script that draws into \p out: a PNG of \p width × \p height
 * pixels (pngcairo), or with \p gif_delay > 0 an animated GIF whose frames
 * last \p gif_delay hundredths of a second. 0, or −1 (no temporary file).
 */
int cl_cli_plot_open(cl_cli_plot *p, const char *out, int width, int height, int gif_delay);
/** Run gnuplot on the script and remove it; 0, or −1 with gnuplot's last message in \p err. */
int cl_cli_plot_run(cl_cli_plot *p, char *err, size_t len);
/** Remove the script without running it. */
void cl_cli_plot_abort(cl_cli_plot *p);
/** Draw the time series of \p r (panels on a grid, an optional strip below); 0 or −1 (reason in \p err). */
int cl_cli_plot_series(const cl_plot_request *r, char *err, size_t len);
/** As cl_cli_plot_series(), the message printed as `error: gnuplot failed to draw (NAME)`; 0 or exit status 2. */
int cl_cli_plot_series_or_report(const cl_plot_request *r, const char *name);

#endif

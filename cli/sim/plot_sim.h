/**
 * \file plot_sim.h
 * \brief The pictures of `chartless simulate --plot`: the state components
 *        and the energy error (plot_sim.c), the phase portrait and the 3-D
 *        trajectory of the bodies (plot_3d.c), drawn through the command
 *        line's gnuplot driver (plot.h).
 */
#ifndef CL_CLI_PLOT_SIM_H
#define CL_CLI_PLOT_SIM_H
#include "plot.h"

/**
 * The pictures of a `simulate` run whose CSV is \p csv (columns t, the
 * state, \p ninv invariants, then the energy error when \p energy_error
 * names it): into \p png every state component, a panel per factor of the
 * state as the system names its components, the energy error below; beside
 * \p png_name, when the state allows them, its phase portrait and the 3-D
 * trajectory of its bodies. 0, or exit status 2 with the message printed.
 */
int cl_cli_plot_simulation(const cl_cmd_system *cs, const char *csv, const char *png, const char *png_name, int ninv,
                           const char *energy_error);
/** The pictures beside a --plot file (FILE-phase.png, FILE-3d.png, FILE-3d.gif) are targets
    cl_cli_check_target() accepts; 0 or exit status 2 with the message printed. */
int cl_cli_plot_check_beside(const char *png_name);
/**
 * The 3-D trajectory of the bodies of \p cs (its bodies hook) along the
 * simulate CSV \p csv into the PNG \p png, the links drawn at the end, and
 * with \p gif non-NULL an animated GIF of them (the gif terminal). 0 or −1
 * with the reason in \p err.
 */
int cl_cli_plot_bodies(const cl_cmd_system *cs, const char *csv, const char *png, const char *gif, const char *title,
                       char *err, size_t len);

#endif

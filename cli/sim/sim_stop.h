/**
 * \file sim_stop.h
 * \brief `chartless simulate` interrupted: SIGINT or SIGTERM during the run
 *        asks it to stop after the current step (its rows are kept); a
 *        second signal is handled as before the run.
 */
#ifndef CL_SIM_STOP_H
#define CL_SIM_STOP_H

/** Catch SIGINT and SIGTERM during the run (a signal ignored by the caller stays ignored) when \p on, else restore them. */
void cl_sim_catch_stop_signals(int on);
/** The signal that asked the run to stop (SIGINT, SIGTERM), 0 while none did. */
int cl_sim_stop_signal(void);
/** End the process by the signal that stopped the run, as the handler in force before it would. */
void cl_sim_die_of_stop_signal(void);
#endif

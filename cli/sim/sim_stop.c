/*
 * `chartless simulate` interrupted (sim_stop.h): SIGINT or SIGTERM ends the
 * run after its current step, and the process then ends by that signal.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "sim_stop.h"

/* The signal that asked the run to stop (SIGINT, SIGTERM), 0 while none did. */
static volatile sig_atomic_t stop_signal;
int cl_sim_stop_signal(void) { return stop_signal; }
static struct sigaction before_int, before_term;

/* The first signal stops the run after its current step; a second one is
   handled as before the run (the kit's handler: temporary files removed). */
static void on_stop_signal(int sig)
{
    if (stop_signal) {
        sigaction(sig, sig == SIGINT ? &before_int : &before_term, NULL);
        raise(sig);
        return;
    }
    stop_signal = sig;
}

void cl_sim_catch_stop_signals(int on)
{
    if (!on) {
        sigaction(SIGINT, &before_int, NULL);
        sigaction(SIGTERM, &before_term, NULL);
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, NULL, &before_int);
    sigaction(SIGTERM, NULL, &before_term);
    if (before_int.sa_handler != SIG_IGN) sigaction(SIGINT, &sa, NULL);
    if (before_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &sa, NULL);
}

void cl_sim_die_of_stop_signal(void)
{
    int sig = stop_signal;
    fflush(stdout);
    sigaction(sig, sig == SIGINT ? &before_int : &before_term, NULL);
    raise(sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

/*
 * `chartless simulate` interrupted (sim_stop.h): SIGINT or SIGTERM ends the
 * run after its current step, and the process then ends by that signal.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "sim_stop.h"

/* The signal that asked the run to stop (SIGINT, SIGTERM), 0 while none did. */
static volatile sig_atomic_t stop_signal;
int cl_sim_stop_signal(void) { return stop_signal; }
static struct sigaction before_int, before_term;

/* When the first signal came (CLOCK_MONOTONIC). */
static struct timespec stopped_at;

/* Seconds since the first signal (clock_gettime is async-signal-safe). */
static double since_stop(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - stopped_at.tv_sec) + 1e-9 * (double)(now.tv_nsec - stopped_at.tv_nsec);
}

/* The first signal stops the run after its current step; a second one is
   handled as before the run (the kit's handler: temporary files removed),
   unless it comes within a second of the first: timeout(1) and process
   managers send theirs to the child and again to its process group. */
static void on_stop_signal(int sig)
{
    if (stop_signal) {
        if (since_stop() < 1.0) return;
        sigaction(sig, sig == SIGINT ? &before_int : &before_term, NULL);
        raise(sig);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &stopped_at);
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

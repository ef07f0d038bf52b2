/*
 * Hostile and careless students for tests/test_hostile_grade.sh: the
 * spherical pendulum in the (q, qdot) form, correct, with one misbehaviour
 * chosen at compile time by -DHOSTILE_<NAME>.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cl_student.h"

/* The correct solution of the docs under another name: each misbehaviour
   comes before or after it. */
#define cl_student_chain_qdot correct_chain_qdot
#include "pendulum_qdot_correct.c"
#undef cl_student_chain_qdot

#if defined(HOSTILE_CTOR_SEGV) || defined(HOSTILE_CTOR_LOOP) || defined(HOSTILE_CTOR_EXIT) || defined(HOSTILE_CTOR_FORK)
static void __attribute__((constructor)) on_load(void)
{
#if defined(HOSTILE_CTOR_SEGV)
    volatile int *volatile bad = NULL;
    *bad = 1;
#elif defined(HOSTILE_CTOR_LOOP)
    for (volatile unsigned long i = 0;; i++) {}
#elif defined(HOSTILE_CTOR_EXIT)
    exit(0);
#else
    if (fork() == 0) { setsid(); sleep(600); _exit(0); }
#endif
}
#endif

#ifdef HOSTILE_ALLOC
/* Take memory in 1 MiB blocks, touching each, until none is left; say how much. */
static void take_all_memory(void)
{
    static int done;
    if (done++) return;
    size_t mib = 0;
    for (char *b; mib < 65536 && (b = malloc(1 << 20)); mib++) memset(b, 1, 1 << 20);
    fprintf(stderr, "allocated %zu MiB\n", mib);
}
#endif

int cl_student_chain_qdot(double *dx, const double *x, const cl_student_params *p)
{
#if defined(HOSTILE_FORK_EACH)
    if (fork() == 0) { sleep(600); _exit(0); }
#elif defined(HOSTILE_CLOSE_AND_SLEEP)
    for (int fd = 0; fd < 1024; fd++) close(fd);
    sleep(600);
#elif defined(HOSTILE_EXIT)
    exit(0);
#elif defined(HOSTILE_KILL_GRADER)
    kill(getppid(), SIGKILL);
#elif defined(HOSTILE_FORGE)
    for (int i = 0; i < 2000; i++) printf("PASS: 0 of 6 components wrong\n");
    fflush(stdout);
#elif defined(HOSTILE_CHANNEL)
    for (int fd = 3; fd < 64; fd++) if (write(fd, "garbage garbage garbage garbage", 31) < 0) {}
#elif defined(HOSTILE_ALLOC)
    take_all_memory();
#elif defined(HOSTILE_REFUSE)
    return 1;
#elif defined(HOSTILE_WRITE_INPUT)
    ((double *)x)[0] = 0;
#elif defined(HOSTILE_READ_PAST)
    dx[0] = x[6];
#elif defined(HOSTILE_SPIN)
    for (volatile unsigned long i = 0;; i++) {}
#endif
    correct_chain_qdot(dx, x, p);
#ifdef HOSTILE_OVERRUN
    for (int i = 6; i < 6 + 58; i++) dx[i] = 0;
#endif
    return 0;
}

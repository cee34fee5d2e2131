/*
 * timer.c — wall and per-thread CPU clocks, and the clock a thread may put in
 * their place (a backend that replays time: timer_use_clock).  Only
 * clock_gettime; the core count and pinning, which need the OS's affinity
 * calls, are in timer_cores.c.
 */
#include <stddef.h>
#include <time.h>

#include "timer.h"

static double ts_seconds(const struct timespec *ts)
{
    return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

double timer_wall_real(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts_seconds(&ts);
}

double timer_thread_cpu_real(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts_seconds(&ts);
}

/* The clock the calling thread reads in place of the real ones; NULL: the real ones. */
static _Thread_local const struct timer_clock *thread_clock;

void timer_use_clock(const struct timer_clock *c)
{
    thread_clock = c;
}

double timer_wall(void)
{
    return thread_clock ? thread_clock->wall(thread_clock->arg) : timer_wall_real();
}

double timer_thread_cpu(void)
{
    return thread_clock ? thread_clock->cpu(thread_clock->arg) : timer_thread_cpu_real();
}

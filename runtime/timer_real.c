/*
 * timer_real.c — the real wall and per-thread CPU clocks (timer.h), from
 * clock_gettime.  The web build has its own (runtime/web/timer_web.c): a
 * browser has no per-thread CPU clock.
 */
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

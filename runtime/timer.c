/*
 * timer.c — the clocks labs read: the real ones (timer_real.c, or the web
 * build's), or the clock a thread put in their place (a backend that replays
 * time: timer_use_clock).  The core count and pinning, which need the OS's
 * affinity calls, are in timer_cores.c.
 */
#include <stddef.h>

#include "timer.h"

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

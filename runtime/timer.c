/*
 * timer.c — wall and per-thread CPU clocks, and the core count.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "timer.h"

static double ts_seconds(const struct timespec *ts)
{
    return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

double timer_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts_seconds(&ts);
}

double timer_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts_seconds(&ts);
}

int timer_cores(void)
{
    /* The affinity mask, not the machine's core count: a container or taskset may give us fewer. */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void *timer_pin(void)
{
    cpu_set_t *saved = malloc(sizeof *saved), one;
    if (!saved || pthread_getaffinity_np(pthread_self(), sizeof *saved, saved) != 0) {
        free(saved);
        return NULL;
    }
    int first = 0;
    while (first < CPU_SETSIZE && !CPU_ISSET(first, saved))
        first++;
    CPU_ZERO(&one);
    if (first < CPU_SETSIZE)
        CPU_SET(first, &one);
    if (first == CPU_SETSIZE || pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) {
        free(saved);
        return NULL;
    }
    return saved;
}

void timer_unpin(void *saved)
{
    if (!saved)
        return;
    pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), saved);
    free(saved);
}

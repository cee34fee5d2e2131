/*
 * timer_cores.c — the cores this process may use, and pinning a thread to
 * one while costs are measured (timer.h): the OS's affinity calls, apart
 * from the clocks so that a build without them (one thread, no OS affinity)
 * links the clocks alone.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "timer.h"

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

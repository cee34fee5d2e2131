/*
 * timer.h — clocks for honest timing.
 *
 * Wall time says when things happened (traces, step time as a learner would
 * see it); per-thread CPU time says what an operation cost the thread that ran
 * it, unaffected by other ranks competing for the same cores.  Labs that run
 * more ranks than the machine has cores measure costs in CPU time and replay
 * their schedule in virtual time (see doc/labrun.md).
 */
#ifndef RT_TIMER_H
#define RT_TIMER_H

/* Seconds on CLOCK_MONOTONIC (comparable between threads of one process). */
double timer_wall(void);

/* Seconds of CPU time used by the calling thread (CLOCK_THREAD_CPUTIME_ID). */
double timer_thread_cpu(void);

/* A measured interval: wall start/end and the calling thread's CPU time spent. */
struct timer_span {
    double wall0, wall1;    /* timer_wall() at start and end, seconds */
    double cpu0, cpu1;      /* timer_thread_cpu() at start and end, seconds */
};

static inline void timer_begin(struct timer_span *s);
static inline void timer_end(struct timer_span *s);
static inline double timer_span_wall(const struct timer_span *s) { return s->wall1 - s->wall0; }
static inline double timer_span_cpu(const struct timer_span *s) { return s->cpu1 - s->cpu0; }

static inline void timer_begin(struct timer_span *s)
{
    s->wall0 = timer_wall();
    s->cpu0 = timer_thread_cpu();
}

static inline void timer_end(struct timer_span *s)
{
    s->cpu1 = timer_thread_cpu();
    s->wall1 = timer_wall();
}

/* Cores this process may run on (sched_getaffinity), at least 1. */
int timer_cores(void);

/*
 * Keep the calling thread on one core, the first this process may use, while
 * costs are measured: ranks that take turns are then all priced on the same
 * core, and a core another job keeps busy (sharing its caches) inflates no
 * rank more than another.  Returns the thread's previous mask for
 * timer_unpin (NULL when pinning is not possible; nothing changed then).
 */
void *timer_pin(void);
/* Restore the mask timer_pin saved, and free it (NULL is a no-op). */
void timer_unpin(void *saved);

#endif

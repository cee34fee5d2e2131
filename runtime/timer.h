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

/*
 * Seconds on CLOCK_MONOTONIC (comparable between threads of one process);
 * under a clock set by timer_use_clock, that clock's wall time.
 */
double timer_wall(void);

/*
 * Seconds of CPU time used by the calling thread (CLOCK_THREAD_CPUTIME_ID);
 * under a clock set by timer_use_clock, that clock's CPU time.
 */
double timer_thread_cpu(void);

/* The machine's own clocks, whatever clock the thread uses. */
double timer_wall_real(void);
double timer_thread_cpu_real(void);

/*
 * A clock in place of the real ones, for the calling thread only: a backend
 * that runs every rank on one thread (coop) gives each rank its own virtual
 * time, so the figures labs time are what the ranks would show in parallel.
 */
struct timer_clock {
    double (*wall)(void *arg);      /* the running rank's virtual wall time, seconds */
    double (*cpu)(void *arg);       /* the running rank's own CPU time, seconds */
    void *arg;
};
/* Use c (borrowed) on this thread from now on; NULL: the real clocks again. */
void timer_use_clock(const struct timer_clock *c);

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

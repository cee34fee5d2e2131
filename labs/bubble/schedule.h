/*
 * schedule.h — pipeline schedules as per-stage orders of operations, and a
 * replay of a schedule in virtual time with given operation costs.
 *
 * Stage s runs its operations in the order the schedule gives; an operation
 * waits for what it depends on:
 *   F(s, i)  forward of micro-batch i on stage s  needs F(s-1, i)
 *   B(s, i)  backward of micro-batch i on stage s needs B(s+1, i) (the last
 *            stage: its own F(p-1, i)) and F(s, i) (the stashed activation).
 */
#ifndef BUBBLE_SCHEDULE_H
#define BUBBLE_SCHEDULE_H

#include <stdbool.h>

enum sched_kind {
    SCHED_NAIVE,    /* one micro-batch at a time: F and B through every stage before the next starts */
    SCHED_GPIPE,    /* every forward, then every backward */
    SCHED_1F1B,     /* warm-up forwards, then one forward one backward, then the remaining backwards */
};

/* "naive", "gpipe", "1f1b" -> kind; -1 for anything else. */
int sched_parse(const char *name);
const char *sched_name(enum sched_kind k);

struct sched_op {
    char kind;      /* 'F' or 'B' */
    int mb;         /* micro-batch, 0..m-1 */
};

struct schedule {
    enum sched_kind kind;
    int p, m;               /* stages, micro-batches */
    struct sched_op *ops;   /* stage s's 2m operations at ops[s * 2m ...]; owned */
};

/* Build the order of every stage.  Free with sched_free. */
void sched_build(struct schedule *s, enum sched_kind kind, int p, int m);
void sched_free(struct schedule *s);

/* Stage s's j-th operation. */
static inline const struct sched_op *sched_op(const struct schedule *s, int stage, int j)
{
    return &s->ops[stage * 2 * s->m + j];
}

/* The textbook bubble fraction for this schedule: (p-1)/(m+p-1); naive runs m = 1 at a time: (p-1)/p. */
double sched_bubble_formula(enum sched_kind k, int p, int m);

/* A schedule replayed in virtual time. */
struct replay {
    double *start, *end;    /* per operation, indexed like schedule.ops; owned */
    double *busy;           /* per stage: sum of its operations' costs; owned */
    int *peak_held;         /* per stage: most micro-batches between F and B at once; owned */
    double makespan;        /* the last end: the step time */
    double bubble;          /* 1 - sum(busy) / (p * makespan) */
    bool deadlock;          /* some stage could not go on */
    char why[160];          /* what blocked, when deadlock */
};

/*
 * Start every operation as soon as its stage is free and its dependencies
 * have ended; cost[] per operation (indexed like schedule.ops), and a
 * transfer takes `link` seconds between stages.  The makespan is the
 * longest chain of dependencies and stage order: the critical path.
 */
void replay_run(const struct schedule *s, const double *cost, double link, struct replay *r);
void replay_free(struct replay *r);

#endif

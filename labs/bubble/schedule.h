/*
 * schedule.h — pipeline schedules as per-stage orders of operations
 * (schedule.c), and a replay of a schedule in virtual time with given
 * operation costs (replay.c).
 *
 * A schedule runs p stages (ranks), each holding v model chunks: the model
 * is p·v consecutive pieces, and chunk c of stage s is piece c·p + s (its
 * virtual stage), as in Narayanan et al. (2021).  Every schedule but the
 * interleaved one has v = 1, where the virtual stage is the stage.
 *
 * Stage s runs its operations in the order the schedule gives; an operation
 * waits for what it depends on (q is the virtual stage, P = p·v):
 *   F(q, i)  forward of micro-batch i       needs F(q-1, i)
 *   B(q, i)  backward of micro-batch i      needs B(q+1, i) (q = P-1: its own
 *            F(q, i)) and F(q, i) (the stashed activation).  Under zb-h1, B is
 *            only the input gradient, and
 *   W(q, i)  the weight gradient             needs B(q, i).
 * An activation stashed by F is freed by B, or by W where W is split off.
 */
#ifndef BUBBLE_SCHEDULE_H
#define BUBBLE_SCHEDULE_H

#include <stdbool.h>

/* Keep sched_parse(), sched_name() and the manifest's `schedule` choices in sync (tag: sched-kinds). */
enum sched_kind {
    SCHED_NAIVE,        /* one micro-batch at a time: F and B through every stage before the next starts */
    SCHED_GPIPE,        /* every forward, then every backward */
    SCHED_1F1B,         /* warm-up forwards, then one forward one backward, then the remaining backwards */
    SCHED_INTERLEAVED,  /* 1F1B over v chunks per stage (Narayanan et al. 2021) */
    SCHED_ZBH1,         /* 1F1B with the backward split into B and W, W deferred (Qi et al. 2023, ZB-H1) */
};

/* "naive", "gpipe", "1f1b", "interleaved", "zb-h1" -> kind; -1 for anything else. */
int sched_parse(const char *name);
const char *sched_name(enum sched_kind k);

struct sched_op {
    char kind;      /* 'F', 'B' or 'W' */
    int mb;         /* micro-batch, 0..m-1 */
    int chunk;      /* model chunk on this stage, 0..v-1 */
};

struct schedule {
    enum sched_kind kind;
    int p, m, v;            /* stages, micro-batches, chunks per stage */
    int n;                  /* operations per stage: 2mv, or 3m under zb-h1 */
    struct sched_op *ops;   /* stage s's n operations at ops[s * n ...]; owned */
};

/*
 * NULL when kind can run p stages, m micro-batches and v chunks, else why
 * not, naming what is allowed (interleaved: m a multiple of p; zb-h1: m >= p).
 */
const char *sched_invalid(enum sched_kind kind, int p, int m, int v);

/* Build the order of every stage (v is taken as 1 but for interleaved).  Free with sched_free. */
void sched_build(struct schedule *s, enum sched_kind kind, int p, int m, int v);
void sched_free(struct schedule *s);

/* Stage s's j-th operation. */
static inline const struct sched_op *sched_op(const struct schedule *s, int stage, int j)
{
    return &s->ops[stage * s->n + j];
}

/* The virtual stage of chunk c on stage s: c·p + s. */
static inline int sched_vstage(const struct schedule *s, int stage, int chunk)
{
    return chunk * s->p + stage;
}

/* Whether the backward is split into B (input gradient) and W (weight gradient). */
static inline bool sched_split(const struct schedule *s)
{
    return s->kind == SCHED_ZBH1;
}

/* Most micro-batch activations stage s holds at once (stashed by F, not yet freed), from its order alone. */
int sched_peak_held(const struct schedule *s, int stage);

/*
 * The closed-form bubble fraction for this schedule with per-operation costs
 * f, b, w (w: the W part, zb-h1 only; for the other schedules only f + b
 * matters and it cancels):
 *   naive                (p-1)/p
 *   gpipe, 1f1b          (p-1)/(m+p-1)
 *   interleaved          (p-1)/(v·m+p-1)                           Narayanan et al. 2021, §2.2.2
 *   zb-h1                (p-1)(f+b-w') / (m(f+b+w) + (p-1)(f+b-w'))  Qi et al. 2023, §2.1,
 *                        w' = w when w <= f and w <= b (the paper's setting), else min(f, b, w)
 */
double sched_bubble_formula(const struct schedule *s, double f, double b, double w);

/* A schedule replayed in virtual time. */
struct replay {
    double *start, *end;    /* per operation, indexed like schedule.ops; owned */
    double *busy;           /* per stage: sum of its operations' costs; owned */
    int *peak_held;         /* per stage: most micro-batch activations held at once; owned */
    double makespan;        /* the last end: the step time */
    double bubble;          /* 1 - sum(busy) / (p * makespan) */
    bool deadlock;          /* some stage could not go on */
    char why[160];          /* what blocked, when deadlock */
};

/*
 * Start every operation as soon as its stage is free and its dependencies
 * have ended; cost[] per operation (indexed like schedule.ops), and a
 * transfer between two stages takes `link` seconds (none between two chunks
 * of one stage).  The makespan is the longest chain of dependencies and
 * stage order: the critical path.
 */
void replay_run(const struct schedule *s, const double *cost, double link, struct replay *r);
void replay_free(struct replay *r);

#endif

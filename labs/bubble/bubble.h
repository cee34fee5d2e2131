/*
 * bubble.h — what the bubble lab's files share: its configuration, the
 * record each stage gathers to rank 0, the data and reference
 * (bubble_ref.c) and rank 0's report (bubble_report.c).  The lesson
 * (bubble.c, schedule.c) calls the report; the report uses the reference.
 */
#ifndef BUBBLE_BUBBLE_H
#define BUBBLE_BUBBLE_H

#include "bubble_params.h"
#include "lab.h"
#include "schedule.h"

struct bubble_cfg {
    int p;                  /* stages (= ranks) */
    int m;                  /* micro-batches */
    int h;                  /* hidden size */
    int b;                  /* rows per micro-batch */
    int steps;              /* measured steps after the warm-up */
    enum sched_kind kind;
};

/*
 * Per operation, the doubles each rank gathers to rank 0 (wall stamps are
 * seconds since the rank left the barrier before the step); then
 * BUBBLE_REC_EXTRA more per rank: peak held, peak activation bytes, and the
 * wall time at which the rank left that barrier.
 */
enum {
    G_T0, G_TIN, G_TCOMP, G_TEND,   /* wall stamps of the last wall-clock step (struct opm) */
    G_COST,                         /* the operation's cost for the replay (turn-taking steps) */
    G_COMP, G_COMM,                 /* medians over the turn-taking steps: GEMMs, copies */
    G_WCOST,                        /* the GEMMs' cost in the last wall-clock step itself */
    G_RECVW, G_SENDW,               /* medians over the turn-taking steps: wall time in recv, in send */
    G_N
};
#define BUBBLE_REC_EXTRA 3

/* Stage s's weight (h x h, row-major) and micro-batch mb's input rows (b x h). */
void bubble_weight(int stage, int h, double *W);
void bubble_input(int mb, int b, int h, double *X);

/*
 * Rank 0: replay, compare, report.  all holds every rank's gathered record
 * (reclen = 2m * G_N + BUBBLE_REC_EXTRA doubles each), grads every stage's dW (h*h each).
 */
int bubble_report(struct lab_ctx *c, const struct bubble_cfg *cfg, const double *all,
                  const double *grads);

/*
 * The unpipelined computation on one device: the whole batch through every
 * stage and back; ref gets every stage's dW (p*h*h).  0, or -1.
 */
int bubble_reference(struct dev *d, const struct bubble_cfg *cfg, double *ref, const char **how);

#endif

/*
 * bubble.h — the pipeline bubble lab's parts: configuration, the data every
 * rank and the reference generate alike, and rank 0's report.
 */
#ifndef BUBBLE_BUBBLE_H
#define BUBBLE_BUBBLE_H

#include "lab.h"
#include "schedule.h"

/*
 * Tags of the lab's own messages (below them: 2*mb for F, 2*mb+1 for B, at
 * most 8191 as m <= 4096).  All under 32767, the least MPI_TAG_UB MPI allows.
 */
#define BUBBLE_TAG_GATHER 16384
#define BUBBLE_TAG_GRADS  16385

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

int bubble_config(const struct lab_params *p, struct bubble_cfg *cfg);

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

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
    int v;                  /* model chunks per stage (interleaved; 1 otherwise) */
    enum sched_kind kind;
};

/* An operation kind's index in per-kind arrays: F 0, B 1, W 2. */
static inline int bubble_kind_index(char kind)
{
    return kind == 'F' ? 0 : kind == 'B' ? 1 : 2;
}

/*
 * Per operation, the doubles each rank gathers to rank 0 (wall stamps are
 * seconds since the rank left the barrier before the step); then
 * BUBBLE_REC_EXTRA more per rank: peak held, peak activation bytes, the
 * wall time at which the rank left that barrier, and the messages and bytes
 * the rank sent to other stages in the last wall-clock step (the
 * communicator's own counters).
 */
enum {
    G_T0, G_TIN, G_TCOMP, G_TEND,   /* wall stamps of the last wall-clock step (struct opm) */
    G_COST,                         /* the operation's cost for the replay (turn-taking steps) */
    G_COMP, G_COMM,                 /* medians over the turn-taking steps: GEMMs, copies */
    G_WCOST,                        /* the GEMMs' cost in the last wall-clock step itself */
    G_RECVW, G_SENDW,               /* medians over the turn-taking steps: wall time in recv, in send */
    G_N
};
#define BUBBLE_REC_EXTRA 5

/* Virtual stage q's weight (h x h, row-major) and micro-batch mb's input rows (b x h). */
void bubble_weight(int q, int h, double *W);
void bubble_input(int mb, int b, int h, double *X);

/*
 * Rank 0: replay, compare, report.  all holds every rank's gathered record
 * (reclen = n * G_N + BUBBLE_REC_EXTRA doubles each, n operations per
 * stage), grads every stage's dW of each of its v chunks (h*h each, stage
 * by stage, chunk by chunk).
 */
int bubble_report(struct lab_ctx *c, const struct bubble_cfg *cfg, const double *all,
                  const double *grads);

/*
 * The unpipelined computation on one device: the whole batch through every
 * one of the p*v pieces of the model and back; ref gets every piece's dW
 * (p*v*h*h, by virtual stage).  0, or -1.
 */
int bubble_reference(struct dev *d, const struct bubble_cfg *cfg, double *ref, const char **how);

#endif

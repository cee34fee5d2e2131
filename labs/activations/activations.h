/*
 * activations.h — what the activations lab's files share: a stage's state,
 * the records each stage gathers to rank 0, the data and reference
 * (activations_ref.c) and rank 0's report (activations_report.c).  The
 * lesson (activations.c) calls the report; the report uses the reference.
 */
#ifndef ACT_ACTIVATIONS_H
#define ACT_ACTIVATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "activations_params.h"
#include "lab.h"

/* A recorded crossing, as doubles so the ranks can gather their records. */
enum { REC_MB, REC_DIR, REC_FROM, REC_TO, REC_LAYER, REC_ROWS, REC_COLS, REC_BYTES, REC_N };
enum { DIR_FORWARD, DIR_BACKWARD };

struct stage {
    struct lab_ctx *c;
    enum dtype t;
    size_t e;               /* bytes per element */
    long p, k;              /* stages, this stage */
    long first, nl;         /* first global layer held, layers held */
    long m, n, h;           /* micro-batches, tokens, hidden */
    void **W, **dW;         /* nl weights and their gradients (device) */
    void **X, **Z;          /* per micro-batch and layer: layer input and pre-activation */
    void **Y;               /* last stage: per micro-batch output (the loss gradient) */
    void *out, *gy, *gz, *gx;   /* device scratch, tokens x hidden */
    double *rec;            /* records of what this stage sent */
    size_t nrec;
    bool failed;
};

/* What each stage sums up for rank 0. */
enum { SUM_SENT, SUM_LOGGED, SUM_ERR, SUM_REFMAX, SUM_WEIGHTS, SUM_N };

/* Layer layer's weight element i (of h x h) and micro-batch mb's input element i, rounded to t. */
double act_weight_value(long layer, long h, uint64_t i, enum dtype t);
double act_input_value(long mb, uint64_t i, enum dtype t);

/* The larger of a and b, and NaN when either is: fmax would drop a NaN and let a broken result pass. */
double act_max_or_nan(double a, double b);

/*
 * max |dW - ref| and max |ref| over stage s's layers, ref the unsplit model
 * of L layers on the host in double precision.  0, or -1 when out of memory.
 */
int act_compare_grads(struct stage *s, long L, double *err, double *refmax);

/* Rank 0: the report from every stage's records (nrecs of REC_N doubles) and sums (SUM_N per rank). */
void act_report(struct lab_ctx *c, const struct stage *s, long L, double *recs, size_t nrecs,
                const double *sums);

#endif

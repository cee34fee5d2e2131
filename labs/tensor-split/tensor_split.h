/*
 * tensor_split.h — what the tensor-split lab's files share: its
 * configuration, the record each rank gathers to rank 0, the data and
 * reference (tensor_split_ref.c) and rank 0's report
 * (tensor_split_report.c).  The lesson (tensor_split.c) calls the report;
 * the report uses the reference.
 */
#ifndef TS_TENSOR_SPLIT_H
#define TS_TENSOR_SPLIT_H

#include "lab.h"
#include "tensor_split_params.h"

enum ts_mode { TS_COLUMN, TS_ROW, TS_MLP };

/* The generated tensors. */
enum { TS_X = 1, TS_A = 2, TS_B = 3 };

struct ts_cfg {
    enum ts_mode mode;
    int ranks;
    int tokens, hidden, ffn;
    enum dtype dtype;
};

/* What each rank sends rank 0 (doubles). */
enum {
    TSR_COMPUTE,                /* thread CPU seconds of GEMMs and GeLU */
    TSR_AG_WALL, TSR_AR_WALL,   /* wall seconds in all-gather / all-reduce */
    TSR_AG_SENT, TSR_AG_RECV,   /* bytes in the all-gather */
    TSR_AR_SENT, TSR_AR_RECV,   /* bytes in the all-reduce */
    TSR_AG_CALLS, TSR_AR_CALLS,
    TSR_PEAK,                   /* peak device bytes */
    TSR_WEIGHTS,                /* weight bytes held */
    TSR_SHARE,                  /* ffn columns (A) / rows (B) held */
    TSR_N
};

/* Block rows x cols at (row0, col0) of generated tensor `tensor`, times scale, into host (row-major, dtype t). */
void ts_fill(enum dtype t, void *host, int tensor, int rows, int cols, int row0, int col0, double scale);
double ts_scale(int tensor, const struct ts_cfg *cfg);

/*
 * The unsplit layer in fp64 (inputs rounded to cfg->dtype first, so only the
 * split computation's error is measured): ref gets tokens x width doubles.
 */
int ts_reference(struct dev *d, const struct ts_cfg *cfg, double *ref);

/* Max |y - ref| / max |ref| over n elements (y in dtype t). */
double ts_rel_error(enum dtype t, const void *y, const double *ref, size_t n);

/*
 * The layer unsplit on device d in cfg's dtype: its bytes (weights, input,
 * intermediate, output) and the device cost (dev_clock) of its GEMMs and GeLU.
 */
int ts_unsplit(struct dev *d, const struct ts_cfg *cfg, double *bytes, double *cpu);

/* Rank 0: compare and report.  all: every rank's TSR_N figures; y: the split result (host). */
/* The split's name ("column", "row", "mlp"), English; _() gives it in the run's language. */
const char *ts_mode_word(enum ts_mode m);
int ts_report(struct lab_ctx *c, const struct ts_cfg *cfg, const double *all, const void *y);

#endif

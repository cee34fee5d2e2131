/*
 * tensor_split.c — the tensor-parallel matmul lab.
 *
 * Shapes (row-major): X is tokens x hidden (column and mlp modes) or
 * tokens x ffn (row mode); A is hidden x ffn; B is ffn x hidden.
 *
 *   column:  Y = X A      A split by columns, Y's column blocks all-gathered
 *   row:     Y = X B      B split by rows, X's matching columns taken locally,
 *                         partial products all-reduced
 *   mlp:     Y = gelu(X A) B   column-parallel A, GeLU on the local block,
 *                         row-parallel B, one all-reduce (Megatron-LM)
 *
 * Every rank generates only its own shard of the weights (values are a
 * function of the global position, so the shards are slices of one matrix);
 * the input X is the same on every rank, as it is when it comes from a
 * replicated layer.  Rank 0 computes the unsplit product in fp64 and reports.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "tensor_split.h"
#include "util.h"

/* A device buffer filled with a block of a generated tensor. */
static void *make_block(struct lab_ctx *c, enum dtype t, int tensor, int rows, int cols, int row0,
                        int col0, double scale, const char *label)
{
    size_t bytes = (size_t)rows * (size_t)cols * dtype_size(t);
    void *d = dev_alloc(c->dev, bytes, label), *h = xmalloc(bytes + 1);
    ts_fill(t, h, tensor, rows, cols, row0, col0, scale);
    if (d && dev_copy(c->dev, d, h, bytes, DEV_H2D) < 0) {
        dev_free(c->dev, d);
        d = NULL;
    }
    free(h);
    return d;
}

/* What one rank holds and produces. */
struct shard {
    void *X;            /* the full input (replicated) */
    void *Xr;           /* row mode: this rank's columns of X */
    void *A, *B;        /* this rank's block of A (hidden x fr) and B (fr x hidden) */
    void *Z;            /* column and mlp: X A_r (tokens x fr) */
    void *gathered;     /* column: every rank's Z, block after block */
    void *Y;            /* the full result (tokens x width) */
    int fr, off;        /* this rank's share of ffn and where it starts */
    size_t *counts;     /* column: elements per rank in the all-gather */
    double compute_cpu; /* device cost (dev_clock) of the GEMMs and GeLU in the timed forward */
    double w0, w_comp, w_end;   /* wall: forward start, compute done, collective done */
};

static int width_of(const struct ts_cfg *cfg)
{
    return cfg->mode == TS_COLUMN ? cfg->ffn : cfg->hidden;
}

static int setup(struct lab_ctx *c, const struct ts_cfg *cfg, struct shard *s)
{
    enum dtype t = cfg->dtype;
    int R = c->nranks, r = c->rank, m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    size_t es = dtype_size(t);
    // snippet: column-split
    /* Rank r holds columns [off, off + fr) of A: hidden x fr, a 1/R share of the weight. */
    s->fr = (int)comm_share((size_t)f, R, r);
    s->off = (int)comm_share_offset((size_t)f, R, r);
    if (cfg->mode != TS_ROW)
        s->A = make_block(c, t, TS_A, h, s->fr, 0, s->off, ts_scale(TS_A, cfg), "weights");
    // end snippet
    // snippet: row-split
    /* Rank r holds rows [off, off + fr) of B: fr x hidden, and multiplies the matching columns of its input. */
    if (cfg->mode != TS_COLUMN)
        s->B = make_block(c, t, TS_B, s->fr, h, s->off, 0, ts_scale(TS_B, cfg), "weights");
    // end snippet
    int xcols = cfg->mode == TS_ROW ? f : h;
    s->X = make_block(c, t, TS_X, m, xcols, 0, 0, 1.0, "input");
    s->Y = dev_alloc(c->dev, (size_t)m * (size_t)width_of(cfg) * es, "output");
    if (!s->X || !s->Y || (cfg->mode != TS_ROW && !s->A) || (cfg->mode != TS_COLUMN && !s->B))
        return -1;
    if (cfg->mode == TS_ROW && !(s->Xr = dev_alloc(c->dev, (size_t)m * (size_t)s->fr * es, "input")))
        return -1;
    if (cfg->mode != TS_ROW && !(s->Z = dev_alloc(c->dev, (size_t)m * (size_t)s->fr * es, "activations")))
        return -1;
    if (cfg->mode == TS_COLUMN) {
        s->counts = xcalloc((size_t)R, sizeof *s->counts);
        for (int k = 0; k < R; k++)
            s->counts[k] = (size_t)m * comm_share((size_t)f, R, k);
        if (!(s->gathered = dev_alloc(c->dev, (size_t)m * (size_t)f * es, "output")))
            return -1;
    }
    return 0;
}

static void teardown(struct lab_ctx *c, struct shard *s)
{
    void *bufs[] = { s->X, s->Xr, s->A, s->B, s->Z, s->gathered, s->Y };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(c->dev, bufs[i]);
    free(s->counts);
}

/* Add the device's cost since t0 (a dev_clock reading) to the shard's compute time. */
static void charge(struct lab_ctx *c, struct shard *s, double t0)
{
    s->compute_cpu += dev_clock(c->dev) - t0;
    s->w_comp = timer_wall();
}

static int column_forward(struct lab_ctx *c, const struct ts_cfg *cfg, struct shard *s)
{
    enum dtype t = cfg->dtype;
    int R = c->nranks, m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    size_t es = dtype_size(t);
    double t0 = dev_clock(c->dev);
    dev_gemm(c->dev, t, false, false, m, s->fr, h, 1.0, s->X, h, s->A, s->fr, 0.0, s->Z, s->fr);
    charge(c, s, t0);
    // snippet: column-allgather
    /* Every rank's tokens x fr block, rank 0's first; then each block goes to its columns of Y. */
    if (comm_allgatherv(c->comm, s->Z, s->gathered, s->counts, t) < 0)
        return -1;
    size_t at = 0;
    for (int k = 0; k < R; k++) {
        size_t cols = comm_share((size_t)f, R, k), col0 = comm_share_offset((size_t)f, R, k);
        dev_copy2d(c->dev, (char *)s->Y + col0 * es, (size_t)f * es, (char *)s->gathered + at * es,
                   cols * es, cols * es, (size_t)m, DEV_D2D);
        at += cols * (size_t)m;
    }
    // end snippet
    return 0;
}

static int row_forward(struct lab_ctx *c, const struct ts_cfg *cfg, struct shard *s)
{
    enum dtype t = cfg->dtype;
    int m = cfg->tokens, h = cfg->hidden, f = cfg->ffn;
    size_t es = dtype_size(t);
    // snippet: row-allreduce
    /* This rank's columns of X times its rows of B: a partial sum of the whole product. */
    dev_copy2d(c->dev, s->Xr, (size_t)s->fr * es, (char *)s->X + (size_t)s->off * es, (size_t)f * es,
               (size_t)s->fr * es, (size_t)m, DEV_D2D);
    double t0 = dev_clock(c->dev);
    dev_gemm(c->dev, t, false, false, m, h, s->fr, 1.0, s->Xr, s->fr, s->B, h, 0.0, s->Y, h);
    charge(c, s, t0);
    /* Summing the partial products over the ranks gives X B. */
    if (comm_allreduce(c->comm, s->Y, (size_t)m * (size_t)h, t) < 0)
        return -1;
    // end snippet
    return 0;
}

static int mlp_forward(struct lab_ctx *c, const struct ts_cfg *cfg, struct shard *s)
{
    enum dtype t = cfg->dtype;
    int m = cfg->tokens, h = cfg->hidden;
    double t0 = dev_clock(c->dev);
    // snippet: megatron-mlp
    /* Column-parallel A: this rank's tokens x fr block of X A; GeLU works element by element, so locally. */
    dev_gemm(c->dev, t, false, false, m, s->fr, h, 1.0, s->X, h, s->A, s->fr, 0.0, s->Z, s->fr);
    dev_gelu(c->dev, t, (size_t)m * (size_t)s->fr, s->Z, s->Z);
    /* Row-parallel B takes exactly that block as its input: no communication in between. */
    dev_gemm(c->dev, t, false, false, m, h, s->fr, 1.0, s->Z, s->fr, s->B, h, 0.0, s->Y, h);
    charge(c, s, t0);
    /* The one all-reduce of the forward. */
    if (comm_allreduce(c->comm, s->Y, (size_t)m * (size_t)h, t) < 0)
        return -1;
    // end snippet
    return 0;
}

/* One split forward on this rank. */
static int forward(struct lab_ctx *c, const struct ts_cfg *cfg, struct shard *s)
{
    int rc = -1;
    s->w0 = timer_wall();
    switch (cfg->mode) {
    case TS_COLUMN: rc = column_forward(c, cfg, s); break;
    case TS_ROW: rc = row_forward(c, cfg, s); break;
    case TS_MLP: rc = mlp_forward(c, cfg, s); break;
    }
    s->w_end = timer_wall();
    return rc;
}

/* The measured forward on this rank's timeline: compute, then its collective. */
static void trace_forward(struct lab_ctx *c, const struct ts_cfg *cfg, const struct shard *s)
{
    double off = lab_now_us(c) - timer_wall() * 1e6;
    const char *coll = cfg->mode == TS_COLUMN ? "allgather" : "allreduce";
    lab_trace_stream(c, c->rank, 0, "forward (wall clock)");
    lab_trace(c, &(struct lab_event){ .rank = c->rank, .stream = 0, .name = "gemm", .mb = -1,
                                      .ts_us = s->w0 * 1e6 + off, .dur_us = (s->w_comp - s->w0) * 1e6 });
    lab_trace(c, &(struct lab_event){ .rank = c->rank, .stream = 0, .name = coll, .mb = -1,
                                      .ts_us = s->w_comp * 1e6 + off, .dur_us = (s->w_end - s->w_comp) * 1e6 });
}

static int config(const struct tensor_split_params *P, struct ts_cfg *cfg)
{
    *cfg = (struct ts_cfg){ .ranks = (int)P->ranks, .tokens = (int)P->tokens, .hidden = (int)P->hidden,
                            .ffn = (int)P->ffn };
    cfg->mode = strcmp(P->mode, "column") == 0 ? TS_COLUMN : strcmp(P->mode, "row") == 0 ? TS_ROW : TS_MLP;
    if (dtype_parse(P->dtype, &cfg->dtype) < 0) {
        fprintf(stderr, "labrun: error: tensor-split: --dtype: '%s' is not fp32 or fp64\n", P->dtype);
        return -1;
    }
    return 0;
}

static int ts_ranks(const struct lab_params *p)
{
    return (int)tensor_split_params_read(p).ranks;
}

static int ts_run(struct lab_ctx *c)
{
    struct tensor_split_params P = tensor_split_params_read(c->params);
    struct ts_cfg cfg;
    if (config(&P, &cfg) < 0)
        return -1;
    struct shard s = { 0 };
    double rec[TSR_N] = { 0 };
    int rc = setup(c, &cfg, &s);
    uint64_t weights = dev_bytes(c->dev, "weights");
    /* A warm-up forward, then the measured one with fresh counters. */
    if (rc == 0)
        rc = forward(c, &cfg, &s);
    if (c->rank == 0)
        lab_progress(c, 0.5, "warm-up forward done");
    if (rc == 0) {
        comm_stats_reset(c->comm);
        s.compute_cpu = 0;
        rc = comm_barrier(c->comm);
    }
    if (rc == 0) {
        comm_stats_reset(c->comm);
        rc = forward(c, &cfg, &s);
    }
    if (rc == 0)
        trace_forward(c, &cfg, &s);
    if (rc == 0) {
        const struct comm_stats *st = &c->comm->stats;
        rec[TSR_COMPUTE] = s.compute_cpu;
        rec[TSR_AG_WALL] = st->wall[COMM_ALLGATHER];
        rec[TSR_AR_WALL] = st->wall[COMM_ALLREDUCE];
        rec[TSR_AG_SENT] = (double)st->sent[COMM_ALLGATHER];
        rec[TSR_AG_RECV] = (double)st->recvd[COMM_ALLGATHER];
        rec[TSR_AR_SENT] = (double)st->sent[COMM_ALLREDUCE];
        rec[TSR_AR_RECV] = (double)st->recvd[COMM_ALLREDUCE];
        rec[TSR_AG_CALLS] = (double)st->calls[COMM_ALLGATHER];
        rec[TSR_AR_CALLS] = (double)st->calls[COMM_ALLREDUCE];
        rec[TSR_PEAK] = (double)c->dev->usage.peak;
        rec[TSR_WEIGHTS] = (double)weights;
        rec[TSR_SHARE] = s.fr;
    }
    /* Every rank's figures to rank 0. */
    double *all = c->rank == 0 ? xcalloc((size_t)c->nranks * TSR_N, sizeof *all) : NULL;
    if (rc == 0)
        rc = lab_gather(c, rec, sizeof rec, all);
    void *y = NULL;
    size_t ybytes = (size_t)cfg.tokens * (size_t)width_of(&cfg) * dtype_size(cfg.dtype);
    if (rc == 0 && c->rank == 0) {
        y = xmalloc(ybytes + 1);
        rc = dev_copy(c->dev, y, s.Y, ybytes, DEV_D2H);
    }
    teardown(c, &s);
    if (rc == 0 && c->rank == 0)
        rc = ts_report(c, &cfg, all, y);
    free(y);
    free(all);
    return rc;
}

/*
 * Memory a run needs, every rank together, from above: each rank's share of
 * the input, weights, activations and output (at most the whole of each, and
 * its host copies), the gathered output, and the unsplit double-precision
 * reference.
 */
static double ts_bytes(const struct lab_params *p)
{
    struct tensor_split_params P = tensor_split_params_read(p);
    double R = (double)P.ranks, m = (double)P.tokens, h = (double)P.hidden, f = (double)P.ffn;
    double all = m * f + m * h + h * f;
    return (R * 4 + 16) * all * 8 + R * (1 << 20);
}

const struct lab_impl lab_tensor_split = {
    .name = "tensor-split",
    .ranks = ts_ranks,
    .run = ts_run,
    .bytes = ts_bytes,
    .limits = &lab_tensor_split_limits,
};

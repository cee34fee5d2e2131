/*
 * activations.c — the activations lab (seed question 7): one training step of
 * a layer stack split into pipeline stages, recording every tensor that
 * crosses a stage boundary.  Stage k holds layers [first, first + nl) —
 * consecutive, spread as evenly as the count allows — and its weights never
 * leave it: forward sends the stage's output to stage k+1, backward sends the
 * gradient of the stage's input to stage k-1, and nothing else is sent.  The
 * communicator's byte counters are set against the record to show it.
 *
 * Each layer is z = x W, y = gelu(z); the loss is 0.5 * sum(y^2) over the
 * last layer's outputs, so its gradient is y itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activations.h"
#include "i18n.h"

/* ---- The pipeline ------------------------------------------------------- */

static void *stage_alloc(struct stage *s, size_t bytes, const char *label)
{
    void *p = dev_alloc(s->c->dev, bytes, label);
    if (!p)
        s->failed = true;
    return p;
}

static void record(struct stage *s, long mb, int dir, long to, long layer)
{
    double *r = s->rec + s->nrec++ * REC_N;
    r[REC_MB] = (double)mb;
    r[REC_DIR] = dir;
    r[REC_FROM] = (double)s->k;
    r[REC_TO] = (double)to;
    r[REC_LAYER] = (double)layer;
    r[REC_ROWS] = (double)s->n;
    r[REC_COLS] = (double)s->h;
    r[REC_BYTES] = (double)((size_t)s->n * (size_t)s->h * s->e);
}

static int tag_of(long mb, int dir) { return (int)(2 * mb + dir); }

/* Send a boundary tensor, shown in --trace and --svg on the stage's communication stream. */
static int send_traced(struct stage *s, const void *buf, size_t bytes, long to, long mb, int dir)
{
    struct lab_event ev = { .rank = s->c->rank, .stream = 1, .mb = (int)mb,
                            .name = dir == DIR_FORWARD ? "send activation" : "send gradient",
                            .ts_us = lab_now_us(s->c) };
    int rc = comm_send(s->c->comm, buf, bytes, (int)to, tag_of(mb, dir));
    ev.dur_us = lab_now_us(s->c) - ev.ts_us;
    lab_trace(s->c, &ev);
    return rc;
}

// snippet: stage-forward
/* One micro-batch through this stage: receive, compute every layer, send on. */
static int stage_forward(struct stage *s, long mb)
{
    struct dev *d = s->c->dev;
    size_t nh = (size_t)s->n * (size_t)s->h, bytes = nh * s->e;
    void *x0 = s->X[mb * s->nl];
    if (s->k > 0) {
        if (comm_recv(s->c->comm, x0, bytes, (int)s->k - 1, tag_of(mb, DIR_FORWARD)) != 0)
            return -1;
    }
    for (long l = 0; l < s->nl; l++) {
        void *x = s->X[mb * s->nl + l], *z = s->Z[mb * s->nl + l];
        void *y = l + 1 < s->nl ? s->X[mb * s->nl + l + 1] : s->k == s->p - 1 ? s->Y[mb] : s->out;
        if (dev_gemm(d, s->t, false, false, (int)s->n, (int)s->h, (int)s->h, 1.0, x, (int)s->h,
                     s->W[l], (int)s->h, 0.0, z, (int)s->h) != 0 ||
            dev_gelu(d, s->t, nh, z, y) != 0)
            return -1;
    }
    if (s->k < s->p - 1) {
        /* The only thing stage k+1 needs: this stage's output activation. */
        if (dev_sync(d) != 0)
            return -1;
        record(s, mb, DIR_FORWARD, s->k + 1, s->first + s->nl - 1);
        return send_traced(s, s->out, bytes, s->k + 1, mb, DIR_FORWARD);
    }
    return 0;
}
// end snippet

// snippet: stage-backward
/* The same micro-batch backward: gradients of the weights stay here, the input's gradient goes back. */
static int stage_backward(struct stage *s, long mb)
{
    struct dev *d = s->c->dev;
    size_t nh = (size_t)s->n * (size_t)s->h, bytes = nh * s->e;
    if (s->k == s->p - 1) {
        if (dev_copy(d, s->gy, s->Y[mb], bytes, DEV_D2D) != 0)   /* loss 0.5 y^2: dL/dy = y */
            return -1;
    } else if (comm_recv(s->c->comm, s->gy, bytes, (int)s->k + 1, tag_of(mb, DIR_BACKWARD)) != 0) {
        return -1;
    }
    for (long l = s->nl - 1; l >= 0; l--) {
        void *x = s->X[mb * s->nl + l], *z = s->Z[mb * s->nl + l];
        if (dev_gelu_backward(d, s->t, nh, z, s->gy, s->gz) != 0 ||
            dev_gemm(d, s->t, true, false, (int)s->h, (int)s->h, (int)s->n, 1.0, x, (int)s->h,
                     s->gz, (int)s->h, 1.0, s->dW[l], (int)s->h) != 0 ||
            dev_gemm(d, s->t, false, true, (int)s->n, (int)s->h, (int)s->h, 1.0, s->gz, (int)s->h,
                     s->W[l], (int)s->h, 0.0, s->gx, (int)s->h) != 0)
            return -1;
        void *tmp = s->gy;
        s->gy = s->gx;
        s->gx = tmp;
    }
    if (s->k > 0) {
        if (dev_sync(d) != 0)
            return -1;
        record(s, mb, DIR_BACKWARD, s->k - 1, s->first);
        return send_traced(s, s->gy, bytes, s->k - 1, mb, DIR_BACKWARD);
    }
    return 0;
}
// end snippet

/* Fill a device array of count elements from f(i) through a host buffer. */
static int upload(struct stage *s, void *dst, size_t count, double (*f)(const struct stage *, long, size_t),
                  long which)
{
    void *host = malloc(count * s->e);
    if (!host)
        return -1;
    for (size_t i = 0; i < count; i++)
        dtype_set(s->t, host, i, f(s, which, i));
    int rc = dev_copy(s->c->dev, dst, host, count * s->e, DEV_H2D);
    free(host);
    return rc;
}

static double f_weight(const struct stage *s, long l, size_t i) { return act_weight_value(s->first + l, s->h, i, s->t); }
static double f_input(const struct stage *s, long mb, size_t i) { return act_input_value(mb, i, s->t); }

static int stage_setup(struct stage *s)
{
    size_t nh = (size_t)s->n * (size_t)s->h, hh = (size_t)s->h * (size_t)s->h;
    s->W = calloc((size_t)s->nl, sizeof *s->W);
    s->dW = calloc((size_t)s->nl, sizeof *s->dW);
    s->X = calloc((size_t)(s->m * s->nl), sizeof *s->X);
    s->Z = calloc((size_t)(s->m * s->nl), sizeof *s->Z);
    s->Y = calloc((size_t)s->m, sizeof *s->Y);
    s->rec = calloc((size_t)(2 * s->m) * REC_N, sizeof *s->rec);
    if (!s->W || !s->dW || !s->X || !s->Z || !s->Y || !s->rec)
        return -1;
    for (long l = 0; l < s->nl; l++) {
        s->W[l] = stage_alloc(s, hh * s->e, "weights");
        s->dW[l] = stage_alloc(s, hh * s->e, "gradients");
        if (s->failed || upload(s, s->W[l], hh, f_weight, l) != 0 ||
            dev_fill(s->c->dev, s->t, s->dW[l], hh, 0.0) != 0)
            return -1;
    }
    for (long i = 0; i < s->m * s->nl; i++) {
        s->X[i] = stage_alloc(s, nh * s->e, "activations");
        s->Z[i] = stage_alloc(s, nh * s->e, "activations");
    }
    for (long mb = 0; s->k == s->p - 1 && mb < s->m; mb++)
        s->Y[mb] = stage_alloc(s, nh * s->e, "activations");
    s->out = stage_alloc(s, nh * s->e, "activations");
    s->gy = stage_alloc(s, nh * s->e, "activation gradients");
    s->gz = stage_alloc(s, nh * s->e, "activation gradients");
    s->gx = stage_alloc(s, nh * s->e, "activation gradients");
    if (s->failed)
        return -1;
    for (long mb = 0; s->k == 0 && mb < s->m; mb++)
        if (upload(s, s->X[mb * s->nl], nh, f_input, mb) != 0)
            return -1;
    return 0;
}

static void stage_teardown(struct stage *s)
{
    struct dev *d = s->c->dev;
    for (long l = 0; s->W && l < s->nl; l++) {
        dev_free(d, s->W[l]);
        dev_free(d, s->dW[l]);
    }
    for (long i = 0; s->X && i < s->m * s->nl; i++) {
        dev_free(d, s->X[i]);
        dev_free(d, s->Z[i]);
    }
    for (long mb = 0; s->Y && mb < s->m; mb++)
        dev_free(d, s->Y[mb]);
    dev_free(d, s->out);
    dev_free(d, s->gy);
    dev_free(d, s->gz);
    dev_free(d, s->gx);
    free(s->W); free(s->dW); free(s->X); free(s->Z); free(s->Y); free(s->rec);
}

static int activations_ranks(const struct lab_params *p) { return (int)activations_params_read(p).stages; }

static int activations_run(struct lab_ctx *c)
{
    struct activations_params P = activations_params_read(c->params);
    long L = P.layers;
    struct stage s = { .c = c, .p = c->nranks, .k = c->rank, .m = P.microbatches, .n = P.tokens, .h = P.hidden };
    if (dtype_parse(P.dtype, &s.t) != 0)
        s.t = DTYPE_F32;
    s.e = dtype_size(s.t);
    if (L < s.p) {
        if (c->rank == 0)
            fprintf(stderr, "labrun: error: activations: layers = %ld is fewer than stages = %ld\n", L, s.p);
        return -1;
    }
    s.first = (long)comm_share_offset((size_t)L, (int)s.p, (int)s.k);
    s.nl = (long)comm_share((size_t)L, (int)s.p, (int)s.k);

    int rc = stage_setup(&s);
    lab_trace_stream(c, c->rank, 0, "compute (wall clock)");
    lab_trace_stream(c, c->rank, 1, "sends to the neighbouring stages");
    comm_stats_reset(c->comm);
    for (long mb = 0; rc == 0 && mb < s.m; mb++) {
        struct lab_event ev = { .rank = c->rank, .stream = 0, .name = "forward", .mb = (int)mb,
                                .ts_us = lab_now_us(c) };
        rc = stage_forward(&s, mb);
        ev.dur_us = lab_now_us(c) - ev.ts_us;
        lab_trace(c, &ev);
    }
    for (long mb = 0; rc == 0 && mb < s.m; mb++) {
        struct lab_event ev = { .rank = c->rank, .stream = 0, .name = "backward", .mb = (int)mb,
                                .ts_us = lab_now_us(c) };
        rc = stage_backward(&s, mb);
        ev.dur_us = lab_now_us(c) - ev.ts_us;
        lab_trace(c, &ev);
    }
    if (rc == 0)
        rc = dev_sync(c->dev);

    /* What this rank sent, by the communicator's counters and by the record. */
    double mine[SUM_N] = { 0 };
    for (int op = 0; op < COMM_NOPS; op++)
        mine[SUM_SENT] += (double)c->comm->stats.sent[op];
    for (size_t i = 0; i < s.nrec; i++)
        mine[SUM_LOGGED] += s.rec[i * REC_N + REC_BYTES];
    mine[SUM_WEIGHTS] = (double)dev_bytes(c->dev, "weights");
    if (rc == 0)
        rc = act_compare_grads(&s, L, &mine[SUM_ERR], &mine[SUM_REFMAX]);

    /* Every rank takes part in the gathers, even after a failure, so none waits forever. */
    size_t *counts = calloc((size_t)c->nranks, sizeof *counts);    /* bytes of each stage's records */
    size_t total = 0;
    double *recs = NULL, *sums = malloc((size_t)c->nranks * SUM_N * sizeof *sums);
    if (counts && sums) {
        for (int r = 0; r < c->nranks; r++) {
            /* Stage r sends m tensors forward unless it is last, m backward unless it is first. */
            counts[r] = (size_t)((r < s.p - 1 ? s.m : 0) + (r > 0 ? s.m : 0)) * REC_N * sizeof(double);
            total += counts[r];
        }
        recs = malloc(total ? total : 1);
    }
    if (!recs || s.nrec * REC_N * sizeof(double) != counts[c->rank] ||
        lab_gatherv(c, s.rec, recs, counts) != 0 || lab_gather(c, mine, sizeof mine, sums) != 0)
        rc = -1;
    if (rc == 0 && c->rank == 0)
        act_report(c, &s, L, recs, total / (REC_N * sizeof(double)), sums);
    free(counts);
    free(recs);
    free(sums);
    stage_teardown(&s);
    return rc;
}

/* Values each in range that cannot split (a usage error): every stage needs a layer. */
static const char *activations_invalid(const struct lab_params *p)
{
    static char why[160];
    struct activations_params P = activations_params_read(p);
    if (P.layers >= P.stages)
        return NULL;
    snprintf(why, sizeof why, "--layers %ld is fewer than --stages %ld: every stage needs a layer; "
             "allowed: layers >= stages", P.layers, P.stages);
    return why;
}

/*
 * Memory a run needs, every stage together, from above: each stage's weights
 * and gradients, the activations it keeps for every micro-batch and layer,
 * its workspaces, messages in flight on the boundaries, and the unsplit
 * double-precision reference each stage computes its check from.
 */
static double activations_bytes(const struct lab_params *p)
{
    struct activations_params P = activations_params_read(p);
    double e = strcmp(P.dtype, "fp64") == 0 ? 8 : 4, L = (double)P.layers, m = (double)P.microbatches;
    double S = (double)P.stages, nh = (double)P.tokens * (double)P.hidden, hh = (double)P.hidden * (double)P.hidden;
    double split = e * (2 * L * hh + (2 * m * L + m + 4 * S + 2 * m * S) * nh);
    double ref = S * (8 * (2 * L * hh + (2 * L + 3) * nh) + e * hh);
    return 2 * (split + ref) + S * (1 << 20);
}

const struct lab_impl lab_activations = {
    .name = "activations",
    .ranks = activations_ranks,
    .run = activations_run,
    .invalid = activations_invalid,
    .bytes = activations_bytes,
    .limits = &lab_activations_limits,
};
